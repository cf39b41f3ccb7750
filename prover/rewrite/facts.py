"""What a goal's hypotheses say about one variable, for the rewrites that cite them.

:func:`nonneg_hyp_of` is the one copy the tangent-line and tangent-plane rewrites use. The
closers' :func:`prover.solvers.difference_substitution.nonneg_hyp_index` (re-exported here) answers a different
question on purpose: a map from every goal variable's *name* to its first such hypothesis,
restricted to the goal's variables; this one takes any symbol and compares it exactly.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal
from prover.solvers.difference_substitution import nonneg_hyp_index

__all__ = ["nonneg_hyp_index", "nonneg_hyp_of"]


def nonneg_hyp_of(goal: Goal, x: sp.Symbol) -> int | None:
    """Index of the first hypothesis ``x >= 0`` / ``x > 0`` (an inequality whose slack expands to
    exactly ``x``), or None."""
    for i, h in enumerate(goal.hypotheses):
        if h.is_inequality and sp.expand(h.slack()) == x:
            return i
    return None
