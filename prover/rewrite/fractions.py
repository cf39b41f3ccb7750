"""Combine the slack into one fraction, clear a positive denominator, cancel positive factors.

``slack(G) = N / D`` with ``D > 0``: the new goal is ``N' >= 0`` where ``N = c·P·N'`` and the
dropped factor ``c·P`` is positive (or, for a non-strict goal, a square); the certificate is a
``rewrite`` with multiplier ``c·P / D``.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.rewrite.base import (
    Candidate,
    is_positive,
    poly_relation,
    rewrite_step,
    target_fraction,
)

#: Above this many terms we do not try to factor (multivariate factoring gets slow).
MAX_FACTOR_TERMS = 120


def split_positive_factors(n: sp.Expr, goal: Goal, strict: bool) -> tuple[sp.Expr, sp.Expr]:
    """``n = dropped · kept`` with ``dropped`` provably positive (a square when not strict)."""
    n = sp.expand(n)
    if len(sp.Add.make_args(n)) > MAX_FACTOR_TERMS:
        return sp.Integer(1), n
    coeff, factors = sp.factor_list(n)
    dropped: sp.Expr = sp.Abs(coeff) if coeff != 0 else sp.Integer(1)
    kept: sp.Expr = sp.sign(coeff) if coeff != 0 else sp.Integer(0)
    for f, e in factors:
        if f.is_Number:
            kept *= f ** e
        elif is_positive(f, goal, strict=True) or not strict and e % 2 == 0 or e % 2 == 0 and is_positive(f ** e, goal, strict=True):
            dropped *= f ** e
        else:
            kept *= f ** e
    return dropped, kept


class ClearDenominators:
    """One fraction, positive denominator cleared; optionally positive common factors cancelled."""

    name = "clear-denominators"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        frac = target_fraction(goal)
        if frac is None:
            return
        _, num, den = frac
        t, s = goal.target, goal.target.slack()
        if num == 0:
            return
        dropped, kept = split_positive_factors(num, goal, t.strict)
        if dropped != 1:
            new = poly_relation(kept, t.strict)
            yield Candidate(rewrite_step(goal, new, dropped / den,
                                         note="combine into one fraction, clear the denominator, "
                                              "cancel positive factors"), self.name, 1.0)
        elif den != 1 or sp.expand(s) != s:
            new = poly_relation(num, t.strict)
            if new != t:
                yield Candidate(rewrite_step(goal, new, 1 / den,
                                             note="combine into one fraction and clear the denominator"),
                                self.name, 0.8)
