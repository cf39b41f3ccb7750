"""An eval attempt that runs z3 alone, for the "closers vs z3" comparison table only.

Use: ``prover eval --attempt prover.oracles.z3_attempt:run_attempt``. z3's ``unsat`` is
recorded as status ``proved`` *with* ``"z3": "unsat"`` and ``"kernel_checked": false`` so that the
eval's comparison tools count it; it is never a proof in our system (no certificate, not
checked by the kernel). ``sat`` becomes ``counterexample`` only when the model is confirmed
exactly; everything else is ``not_proved``.
"""

from __future__ import annotations

import time
from typing import Any

from prover.benchmark_problem import NoVariant, load_problem
from prover.ir import Goal
from prover.oracles.model import GoalModel, Unsupported
from prover.oracles.z3_oracle import run_z3, z3_counterexample


def run_attempt(record: dict[str, Any], time_limit: float, options: dict[str, Any]) -> dict[str, Any]:
    t0 = time.monotonic()
    try:
        problem = load_problem(record, options)
    except NoVariant as exc:
        return {"status": "no_variant", "error": f"no FALSE variant: {exc}", "time_s": time.monotonic() - t0}
    except Exception as exc:  # noqa: BLE001 - a recorded error, like the default attempt
        return {"status": "error", "error": f"statement not loaded: {type(exc).__name__}: {exc}",
                "time_s": time.monotonic() - t0}
    goal = Goal.from_problem(problem)
    status, point = run_z3(goal, max(0.5, time_limit - (time.monotonic() - t0) - 1.0))  # 1 s for the rest
    out: dict[str, Any] = {"z3": status, "kernel_checked": False, "time_s": time.monotonic() - t0,
                           "stats": {"z3": status, "kernel_checked": False}}  # "stats" is kept in records
    if status == "unsat":
        return {**out, "status": "proved", "note": "z3 unsat (comparison only, not a proof)",
                "time_s": time.monotonic() - t0}
    if status == "sat":
        try:
            ce = z3_counterexample(goal, 0.0, model=GoalModel(goal), point=point)
        except Unsupported:
            ce = None
        if ce is not None:
            return {**out, "status": "counterexample", "counterexample": {k: str(v) for k, v in ce.items()},
                    "time_s": time.monotonic() - t0}
    return {**out, "status": "not_proved", "time_s": time.monotonic() - t0}
