"""Fractions out of the target and out of equality hypotheses.

:class:`ClearDenominators`: ``slack(G) = N / D`` with every factor of ``D`` of known sign; the
new goal is ``N' >= 0`` where ``N = c·P·N'`` and the dropped factor ``c·P`` is positive (or, when
``drop_squares`` and the goal is not strict, an even power); the certificate is a ``rewrite``
with multiplier ``c·P / D`` (signs folded in).

:class:`ClearHypothesisDenominators`: each equality hypothesis ``l = r`` with a positive
denominator gets its cleared form ``D·(l - r) = 0`` as a new, proved hypothesis.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, LinearCertificate, NewHypothesis, SosCertificate, SosTerm
from prover.problem import Relation
from prover.rewrite.base import (
    Candidate,
    Factors,
    SingleStepRewrite,
    denominator_has_sign,
    factor_fraction,
    fraction_factors,
    is_positive,
    is_rational_function,
    poly_relation,
    rewrite_step,
    symbols_of,
)

#: Above this many terms the search's instance does not factor a numerator (it gets slow).
MAX_FACTOR_TERMS = 120


def _factors(e: sp.Expr) -> tuple[sp.Expr, list[tuple[sp.Expr, int]]]:
    return sp.factor_list(e) if e.free_symbols else (e, [])


class ClearDenominators(SingleStepRewrite):
    """One fraction, denominators of known sign cleared, positive factors of the numerator
    cancelled. The search's instance also drops even powers from a non-strict goal (a stronger
    subgoal, one candidate among many); the closers' normal form keeps them (``drop_squares``
    off), since there it is the only way on."""

    name = "clear-denominators"

    def __init__(self, *, drop_squares: bool = True, max_factor_terms: int | None = MAX_FACTOR_TERMS) -> None:
        self.drop_squares = drop_squares
        self.max_factor_terms = max_factor_terms

    def accepts(self, goal: Goal) -> bool:
        t = goal.target
        return t.is_inequality and is_rational_function(t.slack(), symbols_of(goal))

    def _factors(self, slack: sp.Expr) -> tuple[sp.Expr, Factors, Factors, bool] | None:
        """``slack = c · Π f / Π g`` (:func:`fraction_factors`) and whether the numerator was
        factored: one of more than ``max_factor_terms`` terms stays whole (factoring gets slow)."""
        if self.max_factor_terms is not None:
            num, den = sp.fraction(sp.together(slack))
            num = sp.expand(num)
            if len(sp.Add.make_args(num)) > self.max_factor_terms:
                c_den, f_den = _factors(den)
                return 1 / c_den, [(num, 1)], f_den, False
        factors = fraction_factors(slack)
        return None if factors is None else (*factors, True)

    def apply(self, goal: Goal) -> Step | None:
        t = goal.target
        slack = t.slack()
        factors = self._factors(slack)
        if factors is None:
            return None
        c, f_num, f_den, factored = factors
        sign = 1 if c > 0 else -1
        mult = abs(c)
        for f, e in f_den:
            if is_positive(f, goal):
                mult = mult / f ** e
            elif is_positive(-f, goal):
                mult = mult / (-f) ** e
                sign *= (-1) ** e
            else:
                return None
        kept = sp.Integer(1)
        for f, e in f_num:
            if factored and (is_positive(f, goal) or (self.drop_squares and not t.strict and e % 2 == 0)):
                mult = mult * f ** e
            else:
                kept = kept * f ** e
        new_slack = sp.expand(sign * kept)
        if mult == 1 and sp.expand(slack - new_slack) == 0:
            return None
        return rewrite_step(goal, poly_relation(new_slack, t.strict), mult,
                            note="combine into one fraction, clear the denominator, cancel positive factors")

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        step = self.apply(goal) if self.accepts(goal) else None
        if step is not None and step.subgoals[0].target != goal.target:
            yield Candidate(step, self.name, 1.0)


class ClearHypothesisDenominators(SingleStepRewrite):
    """Add, for each equality hypothesis ``l = r`` whose sides have positive denominators, the
    cleared form ``D·(l - r) = 0`` as a new hypothesis (proved: it is ``D`` times ``eq(H)``); and
    for each inequality hypothesis ``s ≥ 0`` (or ``> 0``) whose denominator ``D`` is a product of
    powers of variables, each odd power's variable the slack of a hypothesis (``0 < n``), ``D·s ≥ 0``
    (proved: a product of hypotheses times a square). Polynomial denominators are left alone: the
    extra hypotheses cost the SOS closers more than they help there (mo-int-20/P19)."""

    name = "clear-hypothesis-denominators"

    def accepts(self, goal: Goal) -> bool:
        return bool(goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        syms = symbols_of(goal)
        extra: list[Relation] = []
        proofs: list[NewHypothesis] = []
        for i, h in enumerate(goal.hypotheses):
            if h.op not in ("=", ">=", ">", "<=", "<"):
                continue
            num, den = sp.fraction(factor_fraction(sp.together(h.slack())))
            if den.is_Rational:
                continue
            try:
                sp.Poly(sp.expand(num), *syms)
            except sp.PolynomialError:
                continue
            if h.op == "=":
                if not denominator_has_sign(1 / den, goal):
                    continue
                cert = SosCertificate(eq_terms=(EqTerm(i, expr_to_str(den)),))
            else:
                cert = _times_hypotheses(goal, i, den)
                if cert is None:
                    continue
            new = Relation(sp.expand(num), "=" if h.op == "=" else ">=", sp.Integer(0))
            if new in goal.hypotheses or new in extra:
                continue
            proofs.append(NewHypothesis(len(goal.hypotheses) + len(extra), cert))
            extra.append(new)
        if not extra:
            return None
        cert = LinearCertificate("1", new_hypotheses=tuple(proofs))
        return Step("rewrite", goal, [goal.with_hypotheses(extra)], cert.to_json(),
                    note="hypotheses without denominators")


def _times_hypotheses(goal: Goal, i: int, den: sp.Expr) -> SosCertificate | None:
    """``den · slack(H_i)`` as ``slack(H_i) · Π slack(H_k) · poly²`` (None if ``den`` is not such
    a product: each factor of odd power the slack of a hypothesis ``H_k``)."""
    coeff, factors = _factors(den)
    if not (coeff.is_Rational and coeff > 0):
        return None
    mult, square = [i], sp.Integer(1)
    slacks = [h.slack() if h.op in (">=", ">", "<=", "<") else None for h in goal.hypotheses]
    if not all(f.is_Symbol for f, _ in factors):   # variables only (the sums of a statement over n
        return None                                 # terms, n): polynomial denominators stay as they are
    for f, e in factors:
        square *= f ** (e // 2)
        if e % 2:
            if f not in slacks:
                return None
            mult.append(slacks.index(f))
    return SosCertificate(terms=(SosTerm(expr_to_str(coeff), expr_to_str(square), tuple(mult)),))
