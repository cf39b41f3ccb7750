"""What a goal's hypotheses say about signs, read syntactically (a filter, never a proof): the
variables stated positive or nonnegative, and polynomials with positive coefficients in them.
The rewrites (:mod:`prover.rewrite.base` re-exports these) and the closers share this one copy."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal


def positive_vars(goal: Goal, strict: bool = True) -> set[sp.Symbol]:
    """Variables that a hypothesis states to be > 0 (or >= 0 when ``strict`` is False)."""
    out: set[sp.Symbol] = set()
    for h in goal.hypotheses:
        if not h.is_inequality or (strict and not h.strict):
            continue
        s = sp.expand(h.slack())
        if isinstance(s, sp.Symbol):
            out.add(s)
        elif s.is_Mul and len(s.args) == 2 and s.args[0].is_positive and s.args[0].is_Number \
                and isinstance(s.args[1], sp.Symbol):
            out.add(s.args[1])
    return out


def obviously_positive(f: sp.Expr, strict_vars: set[sp.Symbol], nonneg_vars: set[sp.Symbol], *,
                       strict: bool = True) -> bool:
    """A fast syntactic test: after expansion every coefficient is positive and every monomial is
    in variables known nonnegative (strict: some monomial is a positive constant or in variables
    known positive)."""
    f = sp.expand(f)
    if f.is_Rational:
        return bool(f > 0) if strict else bool(f >= 0)
    try:
        poly = sp.Poly(f, *sorted(f.free_symbols, key=str))
    except sp.PolynomialError:
        return False
    if not all(g in nonneg_vars for g in poly.gens):
        return False
    terms = poly.terms()
    if any(c <= 0 for _, c in terms):
        return False
    if not strict or any(sum(m) == 0 for m, _ in terms):
        return True
    return any(all(e == 0 or g in strict_vars for g, e in zip(poly.gens, m)) for m, _ in terms)
