"""Entry point of the search: ``prove_problem`` (called by :func:`prover.api.prove`).

Never returns ``"proved"`` unless :func:`prover.kernel.check.check_proof` accepted the proof.
"""

from __future__ import annotations

import time
from typing import Any

from prover.api import ProveResult
from prover.problem import Problem


def prove_problem(problem: Problem, *, time_limit: float = 60.0, closers_only: bool = False,
                  llm: Any = None, step_filter: Any = None) -> ProveResult:
    """Search for a kernel-checked proof of ``problem`` within ``time_limit`` seconds.

    ``step_filter`` (optional, e.g. a Lean backend's ``LeanStepFilter``) must also accept every
    step the proof uses.
    """
    from prover.search.best_first import SearchConfig, run_search

    t0 = time.monotonic()
    if llm is not None:
        return ProveResult("error", error="LLM-guided search is not available yet", time_s=0.0)
    try:
        res = run_search(problem, SearchConfig(time_limit=time_limit, closers_only=closers_only,
                                                 step_filter=step_filter))
    except Exception as exc:  # noqa: BLE001 - a crash on one problem must not kill an eval run
        return ProveResult("error", error=f"{type(exc).__name__}: {exc}", time_s=time.monotonic() - t0)
    res.time_s = time.monotonic() - t0
    return res
