"""Homogeneous parts: a slack that is a sum of parts of different degrees, each proved alone.

Why: ``√a + √b + √(ab) <= √(2(a + b)) + (a + b)/2`` (``a, b >= 0``) is two inequalities added,
``√a + √b <= √(2(a + b))`` (degree 1/2) and ``√(ab) <= (a + b)/2`` (degree 1), sharing ``a, b``:
no split by variables applies (:mod:`prover.rewrite.separable`), and squaring the whole sum
mixes the parts. Under hypotheses that are homogeneous (a cone: ``a >= 0``, ``t² = a`` …),
``slack(λ·x) = Σ_k λ^k·D_k(x) >= 0`` for every ``λ > 0`` forces the lowest and the highest part
``D_k >= 0`` (``λ → 0``, ``λ → ∞``); with two parts, both.

The step is a ``combine`` (``slack(G) = Σ_k 1·slack(G_k)``, checked by the kernel) whose subgoals
keep all of ``G``'s variables and hypotheses, the target of ``G_k`` being ``D_k >= 0`` written as
its positive terms ``>=`` its negative terms. Degrees are weighted: a variable has degree 1, a
named root ``t`` (``t² = X``) half the degree of ``X``, ``√X`` half the degree of ``X``. Nothing
here is trusted: a part that is false is dropped by the search's counterexample filter.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation
from prover.rewrite.base import Candidate
from prover.rewrite.separable import combine_step

#: Terms of the slack above which no split is tried (the check runs on every goal expanded).
MAX_TERMS = 40


def _degree(e: sp.Expr, weights: dict[sp.Symbol, sp.Rational]) -> sp.Rational | None:
    """The weighted degree of ``e`` when it is homogeneous, else None."""
    if e.is_Number:
        return sp.Integer(0)
    if isinstance(e, sp.Symbol):
        return weights.get(e, sp.Integer(1))
    if e.is_Mul:
        total = sp.Integer(0)
        for a in e.args:
            d = _degree(a, weights)
            if d is None:
                return None
            total += d
        return total
    if e.is_Add:
        found = {_degree(a, weights) for a in e.args}
        return found.pop() if len(found) == 1 and None not in found else None
    if e.is_Pow and e.exp.is_Rational:
        d = _degree(e.base, weights)
        return None if d is None else d * e.exp
    if isinstance(e, sp.Abs):
        return _degree(e.args[0], weights)
    return None


def root_weights(goal: Goal) -> dict[sp.Symbol, sp.Rational] | None:
    """Degrees of the named roots (``t² = X``: half of ``X``'s, ``X`` in original variables)."""
    weights: dict[sp.Symbol, sp.Rational] = {}
    for h in goal.hypotheses:
        lhs = sp.sympify(h.lhs)
        if h.op == "=" and lhs.is_Pow and lhs.exp.is_Integer and isinstance(lhs.base, sp.Symbol):
            d = _degree(sp.sympify(h.rhs), {})
            if d is None:
                return None
            weights[lhs.base] = d / lhs.exp
    return weights


def _homogeneous(goal: Goal, weights: dict[sp.Symbol, sp.Rational]) -> bool:
    """Every hypothesis says ``slack >= 0`` (``> 0``, ``= 0``) of a homogeneous slack (a cone)."""
    return all(_degree(sp.expand(h.slack()), weights) is not None for h in goal.hypotheses)


def degree_parts(goal: Goal) -> list[sp.Expr] | None:
    """The slack's homogeneous parts (lowest degree first), or None when it has fewer than two
    or the goal is not homogeneous."""
    if not goal.target.is_inequality:
        return None
    slack = sp.expand(sp.sympify(goal.target.slack()))
    terms = sp.Add.make_args(slack)
    if len(terms) < 2 or len(terms) > MAX_TERMS:
        return None
    weights = root_weights(goal)
    if weights is None:
        return None
    parts: dict[sp.Rational, sp.Expr] = {}
    for t in terms:
        d = _degree(t, weights)
        if d is None:
            return None
        parts[d] = parts.get(d, sp.Integer(0)) + t
    if len(parts) < 2 or not _homogeneous(goal, weights):
        return None
    return [parts[d] for d in sorted(parts)]


def part_relation(part: sp.Expr, strict: bool) -> Relation:
    """``part >= 0`` as its positive terms ``>=`` its negative terms."""
    pos = sp.Add(*[t for t in sp.Add.make_args(part) if t.as_coeff_Mul()[0] > 0])
    return Relation(pos, ">" if strict else ">=", pos - part)


class DegreeParts:
    """Proposes a ``combine`` step for a goal whose slack splits into homogeneous parts of
    different degrees under homogeneous hypotheses."""

    name = "degree-parts"

    def accepts(self, goal: Goal) -> bool:
        return degree_parts(goal) is not None

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        parts = degree_parts(goal)
        if parts is None or any(p.is_Number for p in parts):
            return
        strict = goal.target.strict
        subgoals = [goal.with_target(part_relation(p, strict)) for p in parts]
        terms = [(sp.Integer(1), (i,)) for i in range(len(parts))]
        step = combine_step(goal, subgoals, terms, "split the slack into its homogeneous parts")
        yield Candidate(step, self.name, 1.0 + 2.0 * (len(parts) - 1))
