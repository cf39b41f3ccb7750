"""Public entry points: prove one problem; the evaluation runner and the CLI call these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prover.ir import Proof
from prover.problem import Problem

#: Outcome of an attempt. Only "proved" means a kernel-checked proof exists.
STATUSES = ("proved", "not_proved", "counterexample", "timeout", "error")


@dataclass
class ProveResult:
    status: str
    proof: Proof | None = None
    counterexample: dict[str, str] | None = None   # variable -> exact value (string)
    time_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


def prove(problem: Problem, *, time_limit: float = 60.0, closers_only: bool = False,
          llm: Any = None) -> ProveResult:
    """Search for a kernel-checked proof of ``problem`` within ``time_limit`` seconds."""
    from prover.search.driver import prove_problem  # imported lazily: heavy solvers

    return prove_problem(problem, time_limit=time_limit, closers_only=closers_only, llm=llm)


#: Heavy modules the search imports lazily; ``warm_up`` loads them ahead of a timed attempt.
HEAVY_MODULES = ("prover.search.best_first", "prover.solvers.closer", "prover.solvers.sos", "cvxpy",
                 "prover.oracles", "prover.kernel.check", "prover.tactics.match")


def warm_up() -> None:
    """Import the solver stack now, so that a timed attempt measures proving, not imports."""
    import importlib

    for name in HEAVY_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
