"""The search's view of the other modules (closers, oracle, kernel, catalogue matcher).

Each is imported lazily so that the search works (with less power) while a module is missing,
and the statistics say which ones were unavailable.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from prover.ir import Goal, Proof, Step
from prover.rewrite.base import Candidate


def _load(module: str, name: str) -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise
    return getattr(mod, name, None)


def closer() -> Callable[[Goal, float], Step | None] | None:
    return _load("prover.solvers.closer", "close_goal")


def counterexample_finder() -> Callable[[Goal, float], dict | None] | None:
    return _load("prover.oracles", "find_counterexample")


def kernel_check_proof() -> Callable[..., Any] | None:
    return _load("prover.verify", "check_proof")


def kernel_check_step() -> Callable[..., Any] | None:
    return _load("prover.verify", "check_step")


def lemma_lookup() -> Callable[[str], Any] | None:
    """``name -> LemmaStatement | None`` from the catalogue, for checking ``scale`` steps."""
    make = _load("prover.verify", "project_lemmas")
    return make() if make is not None else None


def check_proof(proof: Proof) -> tuple[bool, list[str]]:
    """The kernel's verdict; without a kernel nothing is ever accepted."""
    fn = kernel_check_proof()
    if fn is None:
        return False, ["kernel not available (prover.kernel.check missing)"]
    lookup = lemma_lookup()
    v = fn(proof, lemmas=lookup) if lookup is not None else fn(proof)
    return bool(v.ok), list(getattr(v, "errors", []))


def check_step_local(step: Step) -> bool | None:
    """Kernel check of one step without its children (None when no kernel is available)."""
    try:
        from prover.verify import Kernel, KernelError
    except ImportError:
        return None
    try:
        Kernel(lemma_lookup()).check_one(step)
    except KernelError:
        return False
    except Exception:  # noqa: BLE001 - a kernel crash on a candidate means: do not use it
        return False
    return True


def check_tree(step: Step) -> bool | None:
    """Kernel check of a whole proof tree (None when no kernel is available)."""
    try:
        from prover.verify import Kernel
    except ImportError:
        return None
    errors: list[str] = []
    try:
        Kernel(lemma_lookup()).check_tree(step, "candidate", errors)
    except Exception:  # noqa: BLE001 - a kernel crash on a candidate means: do not use it
        return False
    return not errors


class CatalogueGenerator:
    """Adapter to the catalogue matcher (``prover.tactics.match.scale_steps``), when it exists.

    Matching can be slow, so it runs in a forked child killed after ``budget()`` seconds. The
    matcher already keeps only steps the kernel accepts (``kernel_checked``); the subgoals of a
    ``scale`` step can be false, so the search runs the counterexample filter on them.
    """

    name = "catalogue"
    kernel_checked = True

    def __init__(self, budget: Callable[[], float] | None = None, limit: int = 32) -> None:
        self._fn = _load("prover.tactics.match", "scale_steps")
        self.budget = budget or (lambda: 10.0)
        self.limit = limit
        self.stats = {"calls": 0, "killed": 0}

    @property
    def available(self) -> bool:
        return self._fn is not None

    def generate(self, goal: Goal) -> Iterable[Candidate]:
        if self._fn is None:
            return []
        t = self.budget()
        if t < 0.5:
            return []
        from prover.search.isolate import call_with_hard_limit, fork_available

        self.stats["calls"] += 1
        if fork_available():
            status, steps = call_with_hard_limit(_scale_steps, (self._fn, goal, self.limit), t)
            if status != "ok":
                self.stats["killed"] += 1
                return []
        else:
            steps = _scale_steps(self._fn, goal, self.limit)
        return [Candidate(st, self.name, 0.5) for st in steps or [] if isinstance(st, Step)]


def _scale_steps(fn: Callable[..., Any], goal: Goal, limit: int) -> list[Step]:
    return list(fn(goal, limit=limit))
