"""Homogenize a polynomial goal with an equality constraint ``p = k`` (``p`` homogeneous).

Each monomial of degree ``e`` is multiplied by ``(p/k)^((D-e)/d)`` (``D`` the top degree, ``d``
the degree of ``p``). The difference to the old slack is a multiple of ``p - k``; the quotient
``λ`` goes into ``eq_terms`` so the kernel checks ``slack(G) = slack(G') + λ·eq(H)`` exactly.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.frontend.printer import show_relation
from prover.ir import Goal, Step
from prover.rewrite.base import (
    Candidate,
    SingleStepRewrite,
    equality_hyps,
    is_polynomial,
    obviously_positive,
    polynomial_target,
    positive_vars,
    primitive_relation,
    rewrite_step,
)


def homogeneous_constraint(eq: sp.Expr, syms: list[sp.Symbol]) -> tuple[sp.Expr, sp.Expr, int] | None:
    """``eq = p - k`` with ``p`` homogeneous of degree ``d >= 1`` and ``k != 0``: ``(p, k, d)``."""
    if not is_polynomial(eq, syms) or not syms:
        return None
    poly = sp.Poly(eq, *syms)
    degs = {sum(m) for m in poly.monoms()}
    if len(degs) != 2 or 0 not in degs:
        return None
    d = max(degs)
    k = -poly.coeff_monomial(1)
    return sp.expand(eq + k), k, d


def homogenize(n: sp.Expr, p: sp.Expr, k: sp.Expr, d: int, syms: list[sp.Symbol]) -> sp.Expr | None:
    """The homogenized form of polynomial ``n`` (None when the degrees do not fit)."""
    poly = sp.Poly(n, *syms)
    degs = {sum(m) for m in poly.monoms()}
    if len(degs) <= 1:
        return None
    top = max(degs)
    if any((top - e) % d for e in degs):
        return None
    out = sp.Integer(0)
    for monom, c in poly.terms():
        e = sum(monom)
        term = c * sp.Mul(*[s ** m for s, m in zip(syms, monom)])
        out += term * (p / k) ** ((top - e) // d)
    return sp.expand(out)


class Homogenize(SingleStepRewrite):
    """Lift a polynomial target's components by powers of ``p/k``. The closers' normal form asks
    (``require_sign``) that ``p`` have the sign of ``k`` on the domain, so that the homogeneous
    subgoal is about the cone over the constraint set, not a wider one."""

    name = "homogenize"

    def __init__(self, *, require_sign: bool = False) -> None:
        self.require_sign = require_sign

    def accepts(self, goal: Goal) -> bool:
        return goal.target.is_inequality and any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        return next(self._steps(goal), None)

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        for step in self._steps(goal):
            yield Candidate(step, self.name, 1.0)

    def _steps(self, goal: Goal) -> Iterator[Step]:
        pt = polynomial_target(goal)
        if pt is None:
            return
        syms, s = pt
        nonneg = positive_vars(goal, False)
        for i, eq in equality_hyps(goal):
            hc = homogeneous_constraint(eq, syms)
            if hc is None:
                continue
            p, k, d = hc
            if self.require_sign and not obviously_positive(p if k > 0 else -p, positive_vars(goal), nonneg,
                                                            strict=False):
                continue
            nh = homogenize(s, p, k, d, syms)
            if nh is None:
                continue
            q, r = sp.div(sp.Poly(s - nh, *syms), sp.Poly(eq, *syms))
            if not r.is_zero:
                continue
            content, new = primitive_relation(nh, syms, goal.target.strict)
            yield rewrite_step(goal, new, content, [(i, q.as_expr())],
                               note=f"homogenize with {show_relation(goal.hypotheses[i])}")
