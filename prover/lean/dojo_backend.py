"""LeanDojo backend (``pip install 'prover[lean]'``), for users who traced a repository.

LeanDojo cannot elaborate a new statement: the theorem must already exist (proved by
``sorry``) in a file of a repository traced by ``lean_dojo.trace``. Configure it with
``PROVER_DOJO_REPO`` (a local git repo, committed) and ``PROVER_DOJO_FILE`` (the file holding
the statements, relative to the repo); :meth:`DojoBackend.open_goal` finds the theorem by the
name in the statement. Set ``DISABLE_REMOTE_CACHE=1`` on machines without internet.

``lean_dojo`` is imported lazily, so this module imports on machines without it.
"""

from __future__ import annotations

import os
from typing import Any

from prover.lean.backend import LeanBackend, LeanState, LeanUnavailable, TacticResult
from prover.lean.syntax import declaration_names


def _import_dojo() -> Any:
    try:
        import lean_dojo  # type: ignore[import-not-found]
    except ImportError:
        raise LeanUnavailable("the lean-dojo backend needs LeanDojo: pip install 'prover[lean]' "
                              "(lean-dojo 4.20), and a repository traced with lean_dojo.trace") from None
    return lean_dojo


def theorem_name(statement: str) -> str:
    names = declaration_names(statement)
    if not names:
        raise ValueError("no `theorem NAME` in the statement")
    return names[0].strip("«»")


class DojoBackend(LeanBackend):
    name = "lean-dojo"

    def __init__(self, *, repo: str | None = None, file_path: str | None = None, timeout: float = 60.0,
                 dojo_module: Any = None) -> None:
        self.ld = dojo_module or _import_dojo()
        self.repo_path = repo or os.environ.get("PROVER_DOJO_REPO")
        self.file_path = file_path or os.environ.get("PROVER_DOJO_FILE")
        if not self.repo_path or not self.file_path:
            raise LeanUnavailable("the lean-dojo backend needs PROVER_DOJO_REPO (a traced local git repo) "
                                  "and PROVER_DOJO_FILE (the file with the statements, proved by sorry)")
        self.timeout = timeout
        self.generation = 0
        self._theorem: Any = None
        self._ctx: Any = None
        self._dojo: Any = None
        self._states: dict[int, Any] = {}

    # ------------------------------------------------------------ Dojo lifecycle

    def _enter(self) -> LeanState:
        self._exit()
        self.generation += 1
        self._ctx = self.ld.Dojo(self._theorem, timeout=int(self.timeout))
        self._dojo, init = self._ctx.__enter__()
        return self._record(init)

    def _exit(self) -> None:
        ctx, self._ctx, self._dojo = self._ctx, None, None
        self._states = {}
        if ctx is not None:
            try:
                ctx.__exit__(None, None, None)
            except Exception:  # noqa: BLE001, S110 - a dead Dojo may fail to close; it is discarded anyway
                pass

    def _record(self, st: Any) -> LeanState:
        sid = int(getattr(st, "id", len(self._states)))
        self._states[sid] = st
        pp = str(getattr(st, "pp", ""))
        goals = tuple(g for g in pp.split("\n\n") if g.strip())
        return LeanState(sid, goals, self.generation)

    # ------------------------------------------------------------ interface

    def open_goal(self, theorem: str, preamble: str = "") -> TacticResult:
        try:
            name = theorem_name(theorem)
            repo = self.ld.LeanGitRepo.from_path(self.repo_path)
            self._theorem = self.ld.Theorem(repo, self.file_path, name)
            return TacticResult(self._enter())
        except LeanUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - DojoInitError and friends: report, do not crash
            return TacticResult(None, f"LeanDojo could not open the theorem: {exc}", "crash")

    def run_tactic(self, state: LeanState, tactic: str) -> TacticResult:
        if state.generation != self.generation or state.id not in self._states:
            return TacticResult(None, "stale proof state: LeanDojo was restarted since it was created", "stale")
        ld = self.ld
        try:
            res = self._dojo.run_tac(self._states[state.id], tactic)
        except ld.DojoTacticTimeoutError:
            self._restart()
            return TacticResult(None, f"tactic timed out after {self.timeout:g} s (Dojo restarted)", "timeout")
        except ld.DojoCrashError as exc:
            self._restart()
            return TacticResult(None, f"LeanDojo crashed: {exc} (Dojo restarted)", "crash")
        if isinstance(res, ld.TacticState):
            return TacticResult(self._record(res))
        if isinstance(res, ld.ProofFinished):
            sid = int(getattr(res, "tactic_state_id", getattr(res, "id", -1)))
            return TacticResult(LeanState(sid, (), self.generation))
        if isinstance(res, ld.ProofGivenUp):
            return TacticResult(None, "the tactic gave up (sorry)", "lean")
        return TacticResult(None, str(getattr(res, "error", res)), "lean")

    def _restart(self) -> None:
        try:
            self._enter()
        except Exception:  # noqa: BLE001 - next call reports stale states; open_goal retries
            self._exit()

    def close(self) -> None:
        self._exit()
