"""The default attempt: parse the statement, run the prover, re-check the proof with the kernel.

Runs inside the worker process (see :mod:`prover.eval.worker`). Only a proof the kernel
accepts here, in the worker, may be recorded as ``proved``; a proof the kernel rejects is
recorded as ``rejected`` (a bug in the search, never a success).
"""

from __future__ import annotations

import json
import time
from typing import Any

from prover.benchmark_problem import VARIANT_TIME, NoVariant, load_problem
from prover.eval.proofstats import proof_stats

__all__ = ["VARIANT_TIME", "NoVariant", "load_problem", "problem_or_result", "run_attempt"]


def problem_or_result(record: dict[str, Any], options: dict[str, Any], t0: float):
    """``(problem, None)``, or ``(None, result dict)`` when the statement (or its FALSE variant)
    cannot be had: the shared first step of every attempt function."""
    try:
        return load_problem(record, options), None
    except ImportError as exc:
        return None, {"status": "error", "error": f"missing module: {exc}", "time_s": time.monotonic() - t0}
    except NoVariant as exc:
        return None, {"status": "no_variant", "error": f"no FALSE variant: {exc}", "time_s": time.monotonic() - t0}
    except Exception as exc:  # noqa: BLE001 - ParseError and friends: a recorded error
        return None, {"status": "error", "error": f"statement not loaded: {type(exc).__name__}: {exc}",
                      "time_s": time.monotonic() - t0}


def run_attempt(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    from prover.api import warm_up

    warm_up()   # the recorded time is the prover's, not the worker's imports
    t0 = time.monotonic()
    problem, failed = problem_or_result(record, options, t0)
    if failed is not None:
        return failed
    try:
        from prover.api import prove

        res = prove(problem, time_limit=time_limit, closers_only=bool(options.get("closers_only")),
                    llm=options.get("llm"))
    except ModuleNotFoundError as exc:
        return {"status": "error", "error": f"prover search not available: {exc}",
                "time_s": time.monotonic() - t0}
    out: dict[str, Any] = {"status": res.status, "time_s": res.time_s or (time.monotonic() - t0),
                           "error": res.error, "stats": _jsonable(res.stats)}
    if problem.meta.get("variant_how"):
        out["variant_how"] = str(problem.meta["variant_how"])
    if res.counterexample:
        out["counterexample"] = {k: str(v) for k, v in res.counterexample.items()}
    if res.status == "proved":
        if res.proof is None:
            return {**out, "status": "rejected", "error": "status proved but no proof returned"}
        from prover.verify import check_proof

        verdict = check_proof(res.proof)
        if not verdict.ok:
            return {**out, "status": "rejected",
                    "error": "kernel rejected the proof: " + "; ".join(verdict.errors)[:1500]}
        out.update(proof_stats(res.proof))
        out["proof"] = res.proof.to_json()
        out["trusted_lemmas"] = sorted(getattr(verdict, "trusted_lemmas", []) or [])
    return out


def _jsonable(d: Any) -> Any:
    try:
        json.dumps(d)
        return d
    except (TypeError, ValueError):
        return json.loads(json.dumps(d, default=str))
