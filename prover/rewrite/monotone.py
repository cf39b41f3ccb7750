"""Monotone peel: ``f(a) <= f(b)`` from ``a <= b`` for ``f = √·``, ``f = ·^r``, ``exp`` or ``log`` (``monotone`` steps).

Why: a goal whose two sides are the same increasing function of two expressions
(``√(p²/q + q²/r) ≥ √((p+q)²/(q+r))``, ``((x+y)⁴)^(1/3) ≤ (8(x⁴+y⁴))^(1/3)``) is equivalent to the
inequality of the arguments where ``f`` is strictly increasing; but sympy's normal form splits
the roots (``√((p+q)²/(q+r))`` is ``√(1/(q+r))·|p+q|``, ``((x+y)⁴)^(1/3)`` is ``|x+y|^(4/3)``), so
no rewrite sees the structure and the radicals are treated one by one. This rewrite reads each
side back as one power: ``c · Π Bᵢ^(eᵢ) · Π Fⱼ`` (``c ≥ 0`` rational, ``eᵢ`` rational, ``Fⱼ`` other
factors such as ``|Y|``) is ``(c^k · Π Bᵢ^(k·eᵢ) · Π Fⱼ^k)^(1/k)`` for a ``k`` that makes every power
an integer; the kernel checks that reading as an exact identity over its atoms (with Lean's laws:
``√(Y²·X) = |Y|·√X``; a reading that needs a sign Lean does not know is refused there), so
nothing here is trusted. The step's subgoals are ``a <= b`` (strict for a strict goal) and, for
``rpow`` or a strict ``√``, ``0 <= a`` (Mathlib's ``Real.rpow_le_rpow`` / ``Real.sqrt_lt_sqrt``).

Scored high and ``exclusive`` (the search asks no later generator at that goal): the peel loses
nothing where ``f`` is strictly increasing on the arguments' range, and the subgoal is free of the
outer radicals, so the termwise generators' seconds on the root's nested radicals are better spent
on the subgoal (measured: results/monotone-peel.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from math import lcm

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import MonotoneCertificate
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, rewrite_step

#: Ranked above every other rewrite (the ranker charges 10 a root and 4 a fraction, and the peeled
#: arguments show the fractions the roots hid): the subgoal is the goal without its outer function,
#: equivalent to it where f is strictly increasing (the counterexample filter still checks it).
SCORE = 20.0
#: What the default ranker charges a root and a fraction of the slack (``search/heuristics.py``):
#: the peeled subgoal gets it back for the roots and fractions it still has, so that it is taken
#: up before the siblings that only hid them in new variables (``t₁ ≤ t₂`` after naming the roots).
ROOT_CHARGE, FRACTION_CHARGE = 10.0, 4.0
#: Largest root index ``k`` tried (``x^(p/q)`` with ``q`` above it is left alone).
MAX_INDEX = 12


def _factors(side: sp.Expr) -> tuple[sp.Rational, list[tuple[sp.Expr, sp.Rational]]] | None:
    """``side = c · Π baseᵢ^eᵢ`` with a rational ``c >= 0`` and rational ``eᵢ`` (None otherwise)."""
    side = sp.sympify(side)
    c, rest = side.as_coeff_Mul()
    if not c.is_Rational or c < 0:
        return None
    out: list[tuple[sp.Expr, sp.Rational]] = []
    for f in sp.Mul.make_args(rest):
        if f == 1:
            continue
        base, e = (f.base, sp.Rational(f.exp)) if f.is_Pow and f.exp.is_Rational else (f, sp.Integer(1))
        if e.is_Integer and not isinstance(base, sp.Abs):
            # √(F²·X) is |F|·√X in Lean: a factor F outside the roots is read back only as |Y|
            return None
        out.append((base, e))
    return sp.Rational(c), out


def _root_index(parts: list[tuple[sp.Expr, sp.Rational]]) -> int:
    return lcm(1, *(int(e.q) for _, e in parts))


def _argument(c: sp.Rational, parts: list[tuple[sp.Expr, sp.Rational]], r: sp.Rational) -> sp.Expr | None:
    """``a`` with ``side = a^r``, read factor by factor (``r = 1/k``: every factor to the ``k``-th);
    None when a power is not an integer multiple of ``r`` or the constant has no rational root."""
    a: sp.Expr = sp.Integer(1)
    if c != 1:
        if r.p != 1:
            return None
        a = c ** r.q
    for base, e in parts:
        m = e / r
        if not m.is_Integer or m <= 0:
            return None
        a = a * base ** int(m)
    return a


def _exponents(small: tuple, big: tuple) -> list[sp.Rational]:
    """The outer exponents to try: ``1/k`` with ``k`` the least common root index of both sides, and
    the common exponent when each side is one power with that exponent (``x^(2/3) ≤ y^(2/3)``)."""
    k = lcm(_root_index(small[1]), _root_index(big[1]))
    out = []
    if 1 < k <= MAX_INDEX:
        out.append(sp.Rational(1, k))
    for side in (small, big):
        if side[0] == 1 and len(side[1]) == 1 and not side[1][0][1].is_Integer and side[1][0][1] > 0:
            e = side[1][0][1]
            if e not in out and e.q <= MAX_INDEX:
                out.append(e)
    return out


def peel_steps(goal: Goal) -> Iterator[Step]:
    """The ``monotone`` steps for ``goal`` (see the module docstring)."""
    t = goal.target
    if not t.is_inequality:
        return
    big, small = (t.lhs, t.rhs) if t.op in (">=", ">") else (t.rhs, t.lhs)
    fs, fb = _factors(small), _factors(big)
    if fs is None or fb is None:
        return
    for r in _exponents(fs, fb):
        a, b = _argument(*fs, r), _argument(*fb, r)
        if a is None or b is None or a == b:
            continue
        if a.has(sp.Float) or b.has(sp.Float):
            continue
        sqrt = r == sp.Rational(1, 2)
        if not sqrt and not (_written_as_power(small, fs, r) and _written_as_power(big, fb, r)):
            continue
        cert = MonotoneCertificate("sqrt" if sqrt else "rpow", expr_to_str(a), expr_to_str(b),
                                   None if sqrt else str(r))
        order = goal.with_target(Relation(a, "<" if t.strict else "<=", b))
        subgoals = [order]
        if not sqrt or t.strict:
            subgoals.append(goal.with_target(Relation(sp.Integer(0), "<=", a)))
        yield Step("monotone", goal, subgoals, cert.to_json(),
                   note=f"peel x ↦ x^({r}): {'√' if sqrt else 'rpow'} is increasing")


def _written_as_power(side: sp.Expr, factors: tuple, r: sp.Rational) -> bool:
    """Whether the user's text of ``side`` is, as far as its form shows, ``A ^ r`` — what the Lean
    rendering needs (it applies the lemma to the sides as written). One power with exponent ``r``
    is; a side with ``|X|`` came from an even power under a root, ``(X ^ 2m) ^ (1/q)``, which is
    ``A ^ r`` only for ``r = 1/q``; any other side (``x ^ (2/3)`` for ``r = 1/3``) is not, and the
    peel would give a proof without a Lean file (567neq/P73's shape)."""
    if sp.sympify(side).has(sp.Abs):
        return r.p == 1
    c, parts = factors
    return c == 1 and len(parts) == 1 and parts[0][1] == r


def _charges(goal: Goal) -> float:
    """The ranker's charge for the roots and fractions of ``goal``'s slack."""
    s = sp.sympify(goal.target.slack())
    roots = sum(1 for n in sp.preorder_traversal(s)
                if isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer)
    fractions = sum(1 for n in sp.preorder_traversal(s) if isinstance(n, sp.Pow) and n.exp.is_negative)
    return ROOT_CHARGE * roots + FRACTION_CHARGE * fractions


def function_peel(goal: Goal) -> Step | None:
    """``exp a <= exp b`` from ``a <= b`` (``Real.exp_le_exp``, an equivalence), ``log a <= log b``
    from ``a <= b`` and ``0 < a`` (``Real.log_le_log``); strict alike."""
    t = goal.target
    if not t.is_inequality:
        return None
    big, small = (sp.sympify(t.lhs), sp.sympify(t.rhs)) if t.op in (">=", ">") else \
        (sp.sympify(t.rhs), sp.sympify(t.lhs))
    for fn, name in ((sp.exp, "exp"), (sp.log, "log")):
        if isinstance(small, fn) and isinstance(big, fn):
            a, b = small.args[0], big.args[0]
            subgoals = [goal.with_target(Relation(a, "<" if t.strict else "<=", b))]
            if name == "log":
                subgoals.append(goal.with_target(Relation(sp.Integer(0), "<", a)))
            cert = MonotoneCertificate(name, expr_to_str(a), expr_to_str(b))
            return Step("monotone", goal, subgoals, cert.to_json(), note=f"peel {name}: it is increasing")
    return None


def common_factor_step(goal: Goal) -> Step | None:
    """``f·A ≤ f·B`` with a constant factor ``f`` of known sign on both sides (``Real.logb 2 x ≤
    Real.logb 2 y`` is ``log x · (log 2)⁻¹ ≤ log y · (log 2)⁻¹``) to ``A ≤ B`` (``B ≤ A`` for ``f < 0``):
    a ``rewrite`` with multiplier ``±f``, so that :func:`function_peel` then applies."""
    t = goal.target
    if not t.is_inequality:
        return None
    lhs, rhs = sp.sympify(t.lhs), sp.sympify(t.rhs)
    common = [f for f in sp.Mul.make_args(lhs) if f in sp.Mul.make_args(rhs) and not f.free_symbols
              and not f.is_Rational]
    if not common:
        return None
    f = sp.Mul(*common)
    a, b = lhs / f, rhs / f
    for sign, target in ((1, Relation(a, t.op, b)), (-1, Relation(b, t.op, a))):
        if function_peel(goal.with_target(target)) is not None and is_positive(sign * f, goal, strict=True):
            return rewrite_step(goal, target, sign * f, note="divide both sides by a constant factor")
    return None


class MonotonePeel:
    """``f(a) <= f(b)`` from ``a <= b``, ``f`` a root, a positive rational power, ``exp`` or ``log``
    (``monotone``)."""

    name = "monotone-peel"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        step = function_peel(goal)
        if step is None:
            common = common_factor_step(goal)
            if common is not None:     # an equivalence: dividing by a factor of known sign
                yield Candidate(common, self.name, SCORE, exclusive=True)
                return
        if step is not None:
            # exp's peel is an equivalence; log's loses the goals where a <= 0 may hold
            yield Candidate(step, self.name, SCORE, exclusive=step.certificate["function"] == "exp")
        for step in peel_steps(goal):
            yield Candidate(step, self.name, SCORE + _charges(step.subgoals[0]), exclusive=True)
