"""``find_counterexample``: the numeric search first, then z3 with the time that is left."""

from __future__ import annotations

import logging
import time
from functools import lru_cache

from prover.ir import Goal
from prover.oracles.model import Counterexample, GoalModel, Unsupported
from prover.oracles.numeric import search_model

log = logging.getLogger(__name__)


@lru_cache(maxsize=128)
def model_for(goal: Goal) -> GoalModel:
    """Compiled goals are cached: the search asks about the same subgoal repeatedly."""
    return GoalModel(goal)


#: Share of the time limit given to the numeric search when z3 runs after it.
NUMERIC_SHARE = 0.6


def find_counterexample(goal: Goal, time_limit: float = 5.0, *, seed: int = 0,
                        use_z3: bool = True) -> Counterexample | None:
    """A point satisfying ``goal``'s hypotheses where its target fails, verified exactly.

    Returns None ("unknown") when nothing was confirmed within ``time_limit`` seconds; never
    claims the goal is true.
    """
    start = time.monotonic()
    try:
        model = model_for(goal)
    except Unsupported:
        return None
    except Exception:  # "unknown" is always a sound answer: never break the caller
        log.debug("counterexample oracle: cannot compile the goal", exc_info=True)   # never a traceback
        return None
    share = NUMERIC_SHARE if use_z3 else 1.0
    try:
        ce = search_model(model, start + share * time_limit, seed)
        if ce is not None or not use_z3:
            return ce
        left = time_limit - (time.monotonic() - start)
        if left < 0.5:
            return None
        from prover.oracles.z3_oracle import z3_counterexample

        return z3_counterexample(goal, left, model=model)
    except Exception:  # as above
        log.debug("counterexample oracle failed", exc_info=True)
        return None
