"""Rational peel: ``F(X) <= F(Y)`` from ``X <= Y`` for the same rational function ``F`` on both sides.

Why: the textbook transformations of an inequality ``X <= Y`` — ``t ↦ 1/t`` (sides swap),
``t ↦ t/(1+t)``, ``t ↦ t + 1/t`` on ``t >= 1``, ``t ↦ t²`` on ``t >= 0``, ``t ↦ t³`` — hide ``X`` and
``Y`` inside one more fraction or power, and the closers then face the composite. This rewrite
finds ``F`` (a rational function of one argument, read from each side by replacing a subterm
that holds all of the side's variables by ``t``; a constant side is ``F(c)`` for a root ``c`` of
``F(t) = side``) and writes the goal's slack as

    F(Y) − F(X) = (Y − X) · Q(X, Y),    Q(s, t) = (F(t) − F(s)) / (t − s)   (exact, over ℚ(s, t)),

a ``combine`` step with the subgoals ``X <= Y`` and ``0 <= Q(X, Y)`` (for a decreasing ``F``:
``Y <= X`` and ``0 <= −Q(X, Y)``). The kernel checks the identity exactly and that each subgoal keeps
the goal's hypotheses (``combine``, docs/TRUST_BASE.md), so nothing here is trusted; ``Q >= 0`` is
usually one ``positivity`` (``1/(XY)`` for ``1/t``, ``1/((1+X)(1+Y))`` for ``t/(1+t)``).

``√`` and real powers are the monotone peel's (:mod:`prover.rewrite.monotone`): their difference
quotients are not rational.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.problem import Relation
from prover.rewrite.base import Candidate
from prover.rewrite.separable import combine_step

#: Ranked with the monotone peel: the subgoal ``X <= Y`` is the goal without the outer function.
SCORE = 18.0
#: A polynomial ``F`` (``t^k``) ranks low: the search's squaring and named roots already reach it, and
#: ranked high it cost a root goal (``t₁² ≤ t₂²`` of named roots) 11 expansions instead of 6.
POWER_SCORE = 4.0
#: Subterms tried per side (the largest first).
MAX_ARGUMENTS = 24
#: Sides larger than this (sympy operations) are left alone: each subterm costs a substitution.
MAX_SIDE_OPS = 300
#: Largest degree of ``F`` whose equation ``F(t) = c`` is solved for a constant side.
MAX_SOLVE_DEGREE = 4
_S, _T = sp.Symbol("_peel_s"), sp.Symbol("_peel_t")


def _power_root(side: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """``(X, t^k)`` with ``side = X^k``, ``k > 1`` the gcd of the integer exponents of a product
    (sympy writes ``(p·q)³`` as ``p³·q³``, so ``p·q`` is no subterm of it)."""
    c, rest = side.as_coeff_Mul()
    parts = [(f.base, f.exp) if f.is_Pow else (f, sp.Integer(1)) for f in sp.Mul.make_args(rest)]
    if not c.is_Rational or c <= 0 or not all(e.is_Integer and e > 0 for _, e in parts):
        return None
    k = int(sp.igcd(*[int(e) for _, e in parts])) if len(parts) > 1 else int(parts[0][1])
    if k < 2:
        return None
    root = sp.Rational(c) ** sp.Rational(1, k)
    if not root.is_Rational:
        return None
    return root * sp.Mul(*[b ** (e / k) for b, e in parts]), _T ** k


def _arguments(side: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """``(X, F)`` with ``side = F(X)``: ``X`` a proper subterm holding every variable of the side,
    ``F`` a rational function of ``t`` alone that is not affine."""
    if not side.free_symbols or sp.count_ops(side) > MAX_SIDE_OPS:
        return []
    out: list[tuple[sp.Expr, sp.Expr]] = []
    if (power := _power_root(side)) is not None:
        out.append(power)
    seen: set[sp.Expr] = set()
    for x in sp.preorder_traversal(side):
        if x in seen or x == side or x.free_symbols != side.free_symbols:
            continue
        seen.add(x)
        f = side.subs(x, _T)
        if f.free_symbols != {_T} or not f.is_rational_function(_T) or _affine(f):
            continue
        out.append((x, f))
        if len(out) >= MAX_ARGUMENTS:
            break
    return out


def _affine(f: sp.Expr) -> bool:
    return sp.cancel(sp.diff(f, _T, 2)) == 0


def _constant_arguments(c: sp.Expr, f: sp.Expr) -> list[sp.Expr]:
    """The rational ``x`` with ``F(x) = c``, nonnegative ones first: ``t² = 1`` has ``1`` and ``−1``,
    and only one of them peels the goal into a true subgoal (the counterexample filter drops the
    other; taking sympy's first root alone peeled ``X² ≤ 1`` into ``X ≤ −1``)."""
    num, den = sp.fraction(sp.cancel(f))
    if max(sp.degree(num, _T), sp.degree(den, _T)) > MAX_SOLVE_DEGREE:
        return []
    try:
        roots = sp.solve(sp.Eq(f, c), _T)
    except (NotImplementedError, ValueError, TypeError):
        return []
    return sorted((r for r in roots if r.is_Rational), key=lambda r: (bool(r < 0), abs(r)))


def _pairs(small: sp.Expr, big: sp.Expr) -> Iterator[tuple[sp.Expr, sp.Expr, sp.Expr]]:
    """``(X, Y, F)`` with ``small = F(X)`` and ``big = F(Y)``."""
    ss, bs = _arguments(small), _arguments(big)
    if not small.free_symbols:
        ss = [(x, f) for _, f in bs for x in _constant_arguments(small, f)]
    if not big.free_symbols:
        bs = [(y, f) for _, f in ss for y in _constant_arguments(big, f)]
    seen: set[tuple[sp.Expr, sp.Expr]] = set()
    for x, f in ss:
        for y, g in bs:
            if x != y and (x, y) not in seen and sp.cancel(f - g) == 0:
                seen.add((x, y))       # one F per pair (a side read twice gives the same step)
                yield x, y, f


def _sign_at_ones(q: sp.Expr) -> int:
    """The sign of ``q`` where every variable is 1 (then 2): which way ``F`` goes (0: unknown)."""
    for v in (1, 2):
        try:
            val = q.subs({s: v for s in q.free_symbols})
        except (ZeroDivisionError, TypeError):
            continue
        if val.is_comparable and val != 0 and not val.has(sp.zoo, sp.nan):
            return 1 if val > 0 else -1
    return 0


def peel_steps(goal: Goal) -> Iterator[Step]:
    """The ``combine`` steps for ``goal`` (see the module docstring)."""
    for step, _ in _peels(goal):
        yield step


def _peels(goal: Goal) -> Iterator[tuple[Step, bool]]:
    """The steps, each with whether its ``F`` is a polynomial."""
    t = goal.target
    if not t.is_inequality:
        return
    big, small = (sp.sympify(t.lhs), sp.sympify(t.rhs)) if t.op in (">=", ">") else (sp.sympify(t.rhs), sp.sympify(t.lhs))
    if big.has(sp.Float) or small.has(sp.Float):
        return
    op = "<" if t.strict else "<="
    for x, y, f in _pairs(small, big):
        q = sp.factor(sp.cancel((f - f.subs(_T, _S)) / (_T - _S)))
        qxy = q.subs({_S: x, _T: y}, simultaneous=True)
        sign = _sign_at_ones(qxy)
        if sign == 0:
            continue
        lo, hi = (x, y) if sign > 0 else (y, x)
        order = goal.with_target(Relation(lo, op, hi))
        factor = goal.with_target(Relation(sp.Integer(0), op, qxy if sign > 0 else -qxy))
        yield (combine_step(goal, [order, factor], [(sp.Integer(1), (0, 1))],
                            note=f"peel t ↦ {f.subs(_T, sp.Symbol('t'))}: {'increasing' if sign > 0 else 'decreasing'}"),
               f.is_polynomial(_T))


class RationalPeel:
    """``F(X) <= F(Y)`` from ``X <= Y`` and ``Q >= 0``, ``F`` rational (``combine`` steps)."""

    name = "rational-peel"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        for step, polynomial in _peels(goal):
            yield Candidate(step, self.name, POWER_SCORE if polynomial else SCORE)
