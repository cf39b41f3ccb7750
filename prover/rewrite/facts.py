"""What a goal's hypotheses say about one variable, for the rewrites that cite them.

:func:`nonneg_hyp_of` is the one copy the tangent-line and tangent-plane rewrites use. The
closers' :func:`prover.solvers.difference_substitution.nonneg_hyp_index` (re-exported here) answers a different
question on purpose: a map from every goal variable's *name* to its first such hypothesis,
restricted to the goal's variables; this one takes any symbol and compares it exactly.
:func:`replace_radicals` names several square roots at once, after an ``introduce`` step.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal
from prover.rewrite.base import replace_radical
from prover.solvers.difference_substitution import nonneg_hyp_index

__all__ = ["nonneg_hyp_index", "nonneg_hyp_of", "replace_radicals"]


def nonneg_hyp_of(goal: Goal, x: sp.Symbol) -> int | None:
    """Index of the first hypothesis ``x >= 0`` / ``x > 0`` (an inequality whose slack expands to
    exactly ``x``), or None."""
    for i, h in enumerate(goal.hypotheses):
        if h.is_inequality and sp.expand(h.slack()) == x:
            return i
    return None


def replace_radicals(e: sp.Expr, bases: list[sp.Expr], ts: list[sp.Symbol]) -> sp.Expr:
    """``e`` with each ``√bases[i]`` (and its powers) written in the introduced name ``ts[i]``."""
    for b, t in zip(bases, ts):
        e = replace_radical(e, b, t)
    return e
