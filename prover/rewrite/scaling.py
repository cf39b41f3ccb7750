"""Homogenise a goal with a linear constraint ``g = c`` (``g`` a linear form, ``c != 0``) by
scaling every variable ``x ↦ c·x/g``.

* :class:`HomogenizeByScaling` (``rewrite``): the target after scaling is homogeneous; the
  difference of the slacks is a rational multiple ``λ`` of ``g - c`` (an ``eq_terms`` entry). Only
  when ``g > 0`` and ``λ``'s denominators have a sign without the constraint.
* :class:`ScaleByConstraint` (``substitute``, inverse the identity): for targets whose
  denominators are nonzero only thanks to the constraint (``3 - c`` with ``a + b + c = 3``); the
  subgoal keeps only the hypotheses about single variables' signs.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, LinearCertificate, SubstituteCertificate
from prover.problem import Relation
from prover.rewrite.base import (
    SingleStepRewrite,
    denominator_has_sign,
    factor_fraction,
    is_positive,
    positive_vars,
    symbols_of,
)


def linear_constraint(goal: Goal) -> tuple[int, sp.Expr, sp.Expr] | None:
    """The first equality hypothesis ``g = c`` with ``g`` a linear form and ``c`` a nonzero
    constant: ``(index, g, c)``."""
    syms = symbols_of(goal)
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        e = sp.expand(h.lhs - h.rhs)
        try:
            poly = sp.Poly(e, *syms)
        except sp.PolynomialError:
            continue
        const = poly.coeff_monomial(1)
        if poly.total_degree() == 1 and const != 0:
            return i, sp.expand(e - const), -const
    return None


def _positive_linear_constraint(goal: Goal) -> tuple[int, sp.Expr, sp.Expr] | None:
    """:func:`linear_constraint`, when ``g`` has the sign of ``c`` (provably) on the domain."""
    lc = linear_constraint(goal)
    if lc is None:
        return None
    _, g, c = lc
    return lc if is_positive(g if c > 0 else -g, goal) else None


def _target_like(goal: Goal, expr: sp.Expr) -> Relation:
    """``expr >= 0`` with the strictness of ``goal.target``."""
    return Relation(expr, ">" if goal.target.strict else ">=", sp.Integer(0))


def _sign_hypotheses_only(goal: Goal) -> bool:
    """One equality hypothesis; every other one says ``x >= 0`` / ``x > 0`` for a variable."""
    nonneg = positive_vars(goal, False)
    return all(h.op == "=" or (h.is_inequality and sp.expand(h.slack()) in nonneg) for h in goal.hypotheses) \
        and sum(h.op == "=" for h in goal.hypotheses) == 1


class HomogenizeByScaling(SingleStepRewrite):
    """``rewrite`` with ``x -> c·x/g``; only when ``g > 0`` on the domain and the target's own
    denominators have a sign without the constraint."""

    name = "homogenize-by-scaling"

    def accepts(self, goal: Goal) -> bool:
        return goal.target.is_inequality and any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        lc = _positive_linear_constraint(goal)
        if lc is None:
            return None
        i, g, c = lc
        slack = goal.target.slack()
        if not slack.free_symbols or not denominator_has_sign(sp.together(slack), goal):
            return None
        scaled = factor_fraction(slack.subs({s: c * s / g for s in symbols_of(goal)}, simultaneous=True))
        eq = goal.hypotheses[i].lhs - goal.hypotheses[i].rhs
        lam = factor_fraction((slack - scaled) / eq)
        if lam.has(sp.zoo, sp.nan) or not denominator_has_sign(lam, goal):
            return None
        cert = LinearCertificate("1", (EqTerm(i, expr_to_str(lam)),))
        return Step("rewrite", goal, [goal.with_target(_target_like(goal, scaled))], cert.to_json(),
                    note=f"homogenize with hypothesis {i}")


class ScaleByConstraint(SingleStepRewrite):
    """``substitute`` ``x -> c·x/g`` (inverse: the identity). With ``only_sign_hypotheses`` it
    accepts only goals whose other hypotheses are variables' signs (then it is the cheap first
    choice: no ``λ`` to simplify, and nothing is lost by keeping only those)."""

    name = "scale-by-constraint"

    def __init__(self, *, only_sign_hypotheses: bool = False) -> None:
        self.only_sign_hypotheses = only_sign_hypotheses

    def accepts(self, goal: Goal) -> bool:
        if not goal.target.is_inequality and goal.target.op != "=":
            return False
        return _sign_hypotheses_only(goal) if self.only_sign_hypotheses else \
            any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        lc = _positive_linear_constraint(goal)
        if lc is None:
            return None
        i, g, c = lc
        syms = symbols_of(goal)
        mapping = {s: c * s / g for s in syms}
        t = goal.target
        target = Relation(factor_fraction(sp.sympify(t.lhs).subs(mapping, simultaneous=True)), t.op,
                          factor_fraction(sp.sympify(t.rhs).subs(mapping, simultaneous=True)))
        nonneg = positive_vars(goal, False)
        hyps = tuple(h for h in goal.hypotheses if h.is_inequality and sp.expand(h.slack()) in nonneg)
        eq = goal.hypotheses[i].lhs - goal.hypotheses[i].rhs
        # f(g(x)) - x = c·x/g - x = x·(c - g)/g = (-x/g)·eq  when eq = g - c (up to the sign of eq)
        eq_terms = {str(s): (EqTerm(i, expr_to_str(sp.cancel((mapping[s] - s) / eq))),) for s in syms}
        cert = SubstituteCertificate({str(s): expr_to_str(e) for s, e in mapping.items()},
                                     {str(s): str(s) for s in syms}, eq_terms)
        return Step("substitute", goal, [Goal(goal.variables, hyps, target)], cert.to_json(),
                    note=f"homogenize by scaling with hypothesis {i}")
