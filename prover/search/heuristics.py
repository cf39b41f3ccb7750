"""Symbolic priority of a goal (lower = expand first): degree, size, coupling, closable form."""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from prover.ir import Goal
from prover.problem import var
from prover.rewrite.root_powers import replace_root_powers, root_power_hypotheses

#: A ranker maps a batch of goals to priorities (lower is better); an LLM ranker can blend in.
Ranker = Callable[[list[Goal]], list[float]]


def _cube_roots_reduced(goal: Goal, s: sp.Expr) -> sp.Expr:
    """``s`` with powers ``t^e`` (``e >= k``) of named roots ``t^k = X``, ``k >= 3``, replaced by
    ``X^(e//k)·t^(e%k)``: a goal that a lemma left in ``t³`` is as close as its reduced form
    (one rewrite away), not a degree-12 polynomial. Square roots (``k = 2``) are left alone:
    the closers use their equations directly."""
    reduced = s
    for t, (_, k, x, _) in root_power_hypotheses(goal).items():
        if k >= 3:
            reduced = replace_root_powers(reduced, t, k, x)
    return s if reduced == s else sp.expand(reduced)   # expanded: ``a³·(1/a)`` is no fraction


def goal_features(goal: Goal) -> dict[str, float]:
    """Cheap structural features of the goal's slack."""
    s = _cube_roots_reduced(goal, sp.sympify(goal.target.slack()))
    syms = [var(v) for v in goal.variables]
    roots = sum(1 for n in sp.preorder_traversal(s)
                if isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer)
    den = sum(1 for n in sp.preorder_traversal(s) if isinstance(n, sp.Pow) and n.exp.is_negative)
    feats: dict[str, float] = {"roots": roots, "fractions": den, "vars": len(goal.variables),
                               "ops": float(sp.count_ops(s)), "degree": 0.0, "terms": 0.0,
                               "homogeneous": 0.0, "coupled": 0.0}
    if roots == 0 and den == 0 and syms:
        try:
            p = sp.Poly(sp.expand(s), *syms)
        except sp.PolynomialError:
            return feats
        degs = [sum(m) for m in p.monoms()]
        feats["degree"] = float(max(degs, default=0))
        feats["terms"] = float(len(degs))
        feats["homogeneous"] = 1.0 if len(set(degs)) <= 1 else 0.0
        feats["coupled"] = float(sum(1 for m in p.monoms() if sum(1 for e in m if e) > 1))
    return feats


def symbolic_priority(goal: Goal) -> float:
    """Lower for goals that look closer to a polynomial SOS/positivity certificate."""
    f = goal_features(goal)
    score = 10.0 * f["roots"] + 4.0 * f["fractions"] + 0.02 * f["ops"]
    score += 0.5 * f["degree"] + 0.02 * f["terms"] + 0.01 * f["coupled"] + 0.5 * f["vars"]
    if f["roots"] == 0 and f["fractions"] == 0:
        score -= 3.0 if f["homogeneous"] else 2.0
    return score


def default_ranker(goals: list[Goal]) -> list[float]:
    return [symbolic_priority(g) for g in goals]
