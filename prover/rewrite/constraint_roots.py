"""Equality constraints that are k-th powers lose the power: ``q^k = r^k`` → ``q = r`` (``rewrite``).

A problem stated on squared variables (``x ↦ x²``) carries its constraint squared:
``a²b²c² = 1`` is ``(abc)² = 1``; with ``a, b, c > 0`` it says ``abc = 1``, the form the
constraint rewrites know (:class:`~prover.rewrite.substitute.ProductOneRatios`, homogenisation).
For an equality hypothesis ``H_j`` whose ``eq(H_j)`` is ``coef·(q^k − C)`` (``q`` a polynomial,
``k >= 2`` the gcd of the exponents of its factorisation, ``C = r^k`` with ``r`` rational): the
subgoal has ``q = r`` in its place (``q`` with the sign that is provably nonnegative when ``k`` is
even), proved by ``q − r = eq(H_j) / (coef·D)`` with ``D = Σᵢ q^(k−1−i)·rⁱ`` provably nonzero
(the kernel proves the denominator; ``q >= 0``, ``r > 0`` give ``D >= r^(k−1) > 0``). The target
is unchanged (a ``rewrite`` with multiplier 1).

Nothing here is trusted: the kernel checks the step.
"""

from __future__ import annotations

from math import gcd

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, NewHypothesis, SosCertificate
from prover.problem import Relation
from prover.rewrite.base import SingleStepRewrite, is_polynomial, is_positive, rewrite_step, symbols_of


def rational_root(c: sp.Rational, k: int) -> sp.Rational | None:
    """The real ``r`` with ``r^k = c`` when it is rational (the positive one for an even ``k``)."""
    c = sp.Rational(c)
    if c < 0:
        if k % 2 == 0:
            return None
        r = rational_root(-c, k)
        return None if r is None else -r
    num, exact_n = sp.integer_nthroot(int(c.p), k)
    den, exact_d = sp.integer_nthroot(int(c.q), k)
    return sp.Rational(num, den) if exact_n and exact_d else None


def power_form(eq: sp.Expr, syms: list[sp.Symbol]) -> tuple[sp.Expr, int, sp.Rational, sp.Rational] | None:
    """``(q, k, coef, r)`` with ``eq = coef·(q^k − r^k)``, ``k >= 2``, ``q`` a non-constant polynomial."""
    eq = sp.expand(eq)
    if not is_polynomial(eq, syms):
        return None
    c0 = sp.Poly(eq, *syms).coeff_monomial(1)
    P = sp.expand(eq - c0)
    if P == 0 or c0 == 0:
        return None
    coef, factors = sp.factor_list(P)
    k = 0
    for _, e in factors:
        k = gcd(k, int(e))
    if k < 2:
        return None
    q = sp.Mul(*[f ** (int(e) // k) for f, e in factors])
    r = rational_root(-c0 / coef, k)
    return None if r is None else (q, k, sp.Rational(coef), r)


def _side_root(side: sp.Expr, syms: list[sp.Symbol]) -> tuple[sp.Expr, int] | None:
    """``(q, k)`` with ``side = q^k``, ``k >= 2`` the gcd of the exponents of its factorisation and
    ``q`` a polynomial with a rational coefficient (``x³y³z³ = (xyz)³``)."""
    side = sp.expand(side)
    if not side.free_symbols or not is_polynomial(side, syms):
        return None
    coef, factors = sp.factor_list(side)
    k = 0
    for _, e in factors:
        k = gcd(k, int(e))
    c = rational_root(sp.Rational(coef), k) if k >= 2 else None
    if c is None:
        return None
    return c * sp.Mul(*[f ** (int(e) // k) for f, e in factors]), k


def two_powers(goal: Goal, h: Relation, syms: list[sp.Symbol]) -> tuple[sp.Expr, int, sp.Rational, sp.Expr] | None:
    """``(q, k, 1, r)`` for ``q^k = r^k`` with both sides non-constant powers (``t³ = x³y³z³``), ``q`` and
    ``r`` positive on the goal (so ``q = r`` follows: ``Σ q^(k−1−i)·r^i > 0``)."""
    left, right = _side_root(sp.sympify(h.lhs), syms), _side_root(sp.sympify(h.rhs), syms)
    if left is None or right is None:
        return None
    k = gcd(left[1], right[1])
    if k < 2:
        return None
    q, r = left[0] ** (left[1] // k), right[0] ** (right[1] // k)
    if not (is_positive(q, goal, strict=True) and is_positive(r, goal, strict=True)):
        return None
    return sp.expand(q), k, sp.Integer(1), sp.expand(r)


def _root_hypothesis(goal: Goal, j: int, syms: list[sp.Symbol]) -> tuple[Relation, SosCertificate] | None:
    """``q = r`` for hypothesis ``j`` and its proof, or None."""
    h = goal.hypotheses[j]
    found = (power_form(h.lhs - h.rhs, syms) or two_powers(goal, h, syms)) if h.op == "=" else None
    if found is None:
        return None
    q, k, coef, r = found
    if k % 2 == 0:
        signs = [s for s in (1, -1) if is_positive(s * q, goal, strict=False)]
        if not signs:
            return None
        q = sp.expand(signs[0] * q)
    den = sp.Add(*[q ** (k - 1 - i) * r ** i for i in range(k)])
    if not (is_positive(den, goal, strict=True) or is_positive(-den, goal, strict=True)):
        return None
    lam = 1 / (coef * den)
    return Relation(sp.expand(q), "=", r), SosCertificate(eq_terms=(EqTerm(j, expr_to_str(lam)),))


class ConstraintRoots(SingleStepRewrite):
    """Every equality hypothesis ``coef·(q^k − r^k) = 0`` of the goal becomes ``q = r``."""

    name = "constraint-roots"

    def accepts(self, goal: Goal) -> bool:
        return any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        syms = symbols_of(goal)
        hyps = list(goal.hypotheses)
        proofs: list[NewHypothesis] = []
        for j in range(len(hyps)):
            found = _root_hypothesis(goal, j, syms)
            if found is not None and found[0] not in goal.hypotheses:
                hyps[j] = found[0]
                proofs.append(NewHypothesis(j, found[1]))
        if not proofs:
            return None
        new_goal = Goal(goal.variables, tuple(hyps), goal.target)
        return rewrite_step(goal, goal.target, sp.Integer(1), note="k-th roots of the equality constraints",
                            new_goal=new_goal, new_hypotheses=proofs)
