"""The options of one evaluation run (:class:`EvalConfig`), shared by the runner and its
executors (:mod:`prover.eval.runner`, :mod:`prover.eval.ray_backend`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prover.benchmark_problem import VARIANT_TIME
from prover.eval.isolate import Limits

DEFAULT_ATTEMPT = "prover.eval.attempt:run_attempt"


@dataclass
class EvalConfig:
    inputs: list[Path]
    out: Path
    time_limit: float = 60.0
    workers: int = 1
    memory_mb: int = 4096
    grace: float = 10.0
    attempt: str = DEFAULT_ATTEMPT
    closers_only: bool = False
    llm: str | None = None
    variants: str | None = None          # None or "false"
    ray_address: str | None = None
    rich_progress: bool | None = None    # None: a bar only on a terminal
    argv: list[str] = field(default_factory=lambda: list(sys.argv))

    def limits(self) -> Limits:
        """Hard limits of one attempt; the FALSE-variant mode adds the time to make the variant."""
        extra = VARIANT_TIME if self.variants and self.attempt == DEFAULT_ATTEMPT else 0.0
        return Limits(self.time_limit, self.grace + extra, self.memory_mb)

    def attempt_options(self) -> dict[str, Any]:
        return {"closers_only": self.closers_only, "llm": self.llm, "variants": self.variants}

    def recorded_options(self) -> dict[str, Any]:
        return {"time_limit": self.time_limit, "memory_mb": self.memory_mb, "grace": self.grace,
                "workers": self.workers, "attempt": self.attempt, "closers_only": self.closers_only,
                "llm": self.llm, "variants": self.variants, "ray_address": self.ray_address}
