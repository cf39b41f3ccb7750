"""Entry point of the search: ``prove_problem`` (called by :func:`prover.api.prove`).

Never returns ``"proved"`` unless :func:`prover.kernel.check.check_proof` accepted the proof.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from prover.llm.base import LLMError
from prover.llm.ranker import LLMRanker
from prover.llm.rewrite import LLMRewriter
from prover.llm.spec import make_backend
from prover.problem import Problem
from prover.search.best_first import SearchConfig, run_search
from prover.search.heuristics import default_ranker
from prover.search.result import ProveResult
from prover.solvers.closers import Closer


def prove_problem(problem: Problem, *, time_limit: float = 60.0, closers_only: bool = False,
                  llm: Any = None, step_filter: Any = None,
                  closers: Sequence[Closer] | None = None,
                  plugins: tuple[Any, Any] | None = None) -> ProveResult:
    """Search for a kernel-checked proof of ``problem`` within ``time_limit`` seconds.

    ``closers`` replaces :func:`prover.solvers.closers.default_closers` (e.g. a list with one
    more closer); with ``closers_only`` no rewrite or lemma is tried, only the closers.

    ``step_filter`` (optional, e.g. a Lean backend's ``LeanStepFilter``) must also accept every
    step the proof uses.

    ``plugins``: the ``(rewriter, ranker)`` of :func:`llm_plugins`, made by the caller so that
    their statistics outlive a search the caller interrupts (instead of ``llm``).
    """
    t0 = time.monotonic()
    try:
        rewriter, ranker = plugins if plugins is not None else llm_plugins(llm)
    except LLMError as exc:
        return ProveResult("error", error=str(exc), time_s=0.0)
    config = SearchConfig(time_limit=time_limit, closers_only=closers_only, step_filter=step_filter,
                          closers=tuple(closers) if closers is not None else None,
                          extra_generators=[rewriter] if rewriter else [],
                          ranker=ranker.rank if ranker else None)
    try:
        res = run_search(problem, config)
    except Exception as exc:  # noqa: BLE001 - a crash on one problem must not kill an eval run
        return ProveResult("error", error=f"{type(exc).__name__}: {exc}", time_s=time.monotonic() - t0)
    res.time_s = time.monotonic() - t0
    res.stats.update(llm_stats(rewriter, ranker))
    return res


def llm_stats(rewriter: Any, ranker: Any) -> dict[str, Any]:
    """``{"llm": …}``: what the LLM plugins did (empty without an LLM)."""
    if rewriter is None:
        return {}
    return {"llm": {"rewrites": rewriter.stats.to_json(), "ranking": ranker.stats.to_json()}}


def llm_plugins(llm: Any) -> tuple[Any, Any]:
    """The LLM rewrite generator and LLM-blended ranker for ``llm`` (a spec string or a
    backend), or ``(None, None)`` without one: the symbolic search is then untouched."""
    if llm is None:
        return None, None
    backend = make_backend(llm) if isinstance(llm, str) else llm
    if backend is None:
        return None, None
    return LLMRewriter(backend), LLMRanker(backend, base=default_ranker)
