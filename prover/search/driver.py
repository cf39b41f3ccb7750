"""Entry point of the search: ``prove_problem`` (called by :func:`prover.api.prove`).

Never returns ``"proved"`` unless :func:`prover.kernel.check.check_proof` accepted the proof.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from prover.ir import Proof
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
    if problem.nterm is not None:
        from prover.nterm.search import prove_nterm

        try:
            return prove_nterm(problem, time_limit, prove_problem)
        except Exception as exc:  # noqa: BLE001 - as below: one problem's crash is its result
            return ProveResult("error", error=f"{type(exc).__name__}: {exc}", time_s=time.monotonic() - t0)
    if problem.is_conjunction:
        return _prove_conjunction(problem, time_limit, t0, {"closers_only": closers_only, "llm": llm,
                                  "step_filter": step_filter, "closers": closers, "plugins": plugins})
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


def _prove_conjunction(problem: Problem, time_limit: float, t0: float, kw: dict[str, Any]) -> ProveResult:
    """A goal ``A ∧ B ∧ …``: each part is its own problem (same hypotheses), searched in turn
    with an equal share of the time left; the conjunction is proved only when every part is
    (each part's proof checked by the kernel against its part of the faithful statement). A
    part's counterexample refutes the conjunction (the hypotheses are the same)."""
    from prover.lean.syntax import lean_rel

    n = len(problem.goal_parts)
    roots = []
    stats: dict[str, Any] = {"conjunction_parts": []}
    for i in range(n):
        left = time_limit - (time.monotonic() - t0)
        res = prove_problem(problem.part(i), time_limit=max(left / (n - i), 0.1), **kw)
        stats["conjunction_parts"].append({"part": i + 1, "status": res.status, "time_s": round(res.time_s, 3),
                                           "stats": res.stats})
        if not res.proved:
            what = f"part {i + 1} of {n} (`{lean_rel(problem.goal_parts[i], as_written=True)}`)"
            error = f"{what}: {res.status}" + (f" ({res.error})" if res.error else "")
            return ProveResult(res.status, counterexample=res.counterexample, time_s=time.monotonic() - t0,
                               stats=stats, error=error, open_goals=res.open_goals)
        assert res.proof is not None
        roots.append(res.proof.root)
    proof = Proof(problem, roots[0], {"conjunction": n}, parts=roots)
    from prover.verify import check_proof

    verdict = check_proof(proof)
    if not verdict.ok:   # never expected: each part was accepted on its own
        return ProveResult("error", time_s=time.monotonic() - t0, stats=stats,
                           error=f"the kernel rejected the conjunction: {verdict.errors[:1]}")
    return ProveResult("proved", proof=proof, time_s=time.monotonic() - t0, stats=stats)


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
