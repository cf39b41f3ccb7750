"""One interface for driving Lean: open a theorem, run a tactic on a proof state, get the new
goals or Lean's error. Implementations: the Lean REPL (:class:`ReplBackend`) and LeanDojo
(:mod:`prover.lean.dojo_backend`). Both enforce a per-tactic timeout and restart Lean after a
timeout or crash; a state from before a restart is *stale* and reported as such. A backend by
its name: :func:`prover.lean.registry.make_backend`.
"""

from __future__ import annotations

import os
import shutil
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from prover.lean.repl import LeanRepl, ReplCrash, ReplError, ReplProtocolError, ReplTimeout

BACKEND_NAMES = ("lean-repl", "lean-dojo")
#: where ``prover lean setup`` builds the pinned project (overridable with PROVER_LEAN_PROJECT)
DEFAULT_PROJECT = Path(__file__).resolve().parents[2] / "lean_project"


class LeanUnavailable(RuntimeError):
    """Lean (or the chosen backend) is not installed / not set up; the message says what to do."""


@dataclass(frozen=True)
class LeanState:
    """A Lean proof state: backend-specific id, pretty-printed goals, restart generation."""

    id: int
    goals: tuple[str, ...]
    generation: int

    @property
    def finished(self) -> bool:
        return not self.goals


@dataclass
class TacticResult:
    """Outcome of one tactic: a new state, or an error of kind ``lean``/``timeout``/``crash``/``stale``."""

    state: LeanState | None
    error: str | None = None
    error_kind: str | None = None
    messages: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


class LeanBackend(ABC):
    """What the search and the verifier need from Lean."""

    name: str = ""

    @abstractmethod
    def open_goal(self, theorem: str, preamble: str = "") -> TacticResult:
        """Elaborate ``theorem`` (a statement ending in ``:= by sorry``) after ``preamble``
        (``open``/``macro_rules`` lines) and return its initial proof state."""

    @abstractmethod
    def run_tactic(self, state: LeanState, tactic: str) -> TacticResult:
        """Run ``tactic`` on ``state``; never raises for Lean errors, timeouts or crashes."""

    def close(self) -> None:
        """Release the Lean process."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def project_dir() -> Path:
    return Path(os.environ.get("PROVER_LEAN_PROJECT", DEFAULT_PROJECT))


def require_lake() -> str:
    lake = shutil.which("lake")
    if lake is None:
        raise LeanUnavailable("`lake` is not on PATH: install Lean with elan "
                              "(https://github.com/leanprover/elan), then run `prover lean setup`")
    return lake


class ReplBackend(LeanBackend):
    """The leanprover-community REPL: ``import Mathlib`` once, then every command and tactic
    reuses that environment."""

    name = "lean-repl"

    def __init__(self, repl: LeanRepl | None = None, *, timeout: float = 60.0) -> None:
        if repl is None:
            require_lake()
            # ProverLemmas (lean_project/) imports Mathlib and adds the catalogue lemmas
            repl = LeanRepl(cwd=project_dir(), timeout=timeout, header="import Mathlib\nimport ProverLemmas")
        self.repl = repl
        self._preambles: dict[tuple[int, str], int] = {}

    def _env_for(self, preamble: str) -> int | None:
        self.repl.start()
        if not preamble.strip():
            return self.repl.base_env
        key = (self.repl.generation, preamble)
        if key not in self._preambles:
            reply = self.repl.command(preamble)
            if not reply.ok:
                raise ReplError(f"preamble rejected: {'; '.join(reply.errors)}")
            self._preambles[key] = reply.env
        return self._preambles[key]

    def open_goal(self, theorem: str, preamble: str = "") -> TacticResult:
        try:
            env = self._env_for(preamble)
            reply = self.repl.command(theorem, env=env)
        except ReplError as exc:
            return _failure(exc)
        if not reply.ok:
            return TacticResult(None, "; ".join(reply.errors), "lean", reply.errors)
        sorries = reply.sorries
        if len(sorries) != 1 or sorries[0].get("proofState") is None:
            return TacticResult(None, f"expected one `sorry` in the statement, got {len(sorries)}", "lean")
        s = sorries[0]
        return TacticResult(LeanState(int(s["proofState"]), (str(s.get("goal", "")),), self.repl.generation))

    def run_tactic(self, state: LeanState, tactic: str) -> TacticResult:
        if state.generation != self.repl.generation or not self.repl.alive:
            return TacticResult(None, "stale proof state: Lean was restarted since it was created", "stale")
        try:
            reply = self.repl.tactic(tactic, state.id)
        except ReplError as exc:
            return _failure(exc)
        if not reply.ok:
            return TacticResult(None, "; ".join(reply.errors), "lean", reply.errors)
        if reply.proof_state is None:
            return TacticResult(None, f"REPL reply without proofState: {reply.data}", "lean")
        return TacticResult(LeanState(int(reply.proof_state), tuple(reply.goals), self.repl.generation))

    def close(self) -> None:
        self.repl.close()


def _failure(exc: ReplError) -> TacticResult:
    kind = ("timeout" if isinstance(exc, ReplTimeout) else
            "crash" if isinstance(exc, (ReplCrash, ReplProtocolError)) else "lean")
    return TacticResult(None, str(exc), kind)
