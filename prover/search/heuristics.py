"""Symbolic priority of a goal (lower = expand first): degree, size, coupling, closable form."""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from prover.ir import Goal
from prover.problem import var

#: A ranker maps a batch of goals to priorities (lower is better); an LLM ranker can blend in.
Ranker = Callable[[list[Goal]], list[float]]


def goal_features(goal: Goal) -> dict[str, float]:
    """Cheap structural features of the goal's slack."""
    s = sp.sympify(goal.target.slack())
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
