"""The search's view of the other modules (closers, oracle, kernel, catalogue matcher).

One place for the search to reach them, by plain imports: they are all part of the package (the
optional third-party packages behind them, z3 or cvxpy, are imported where they are used). The
getters below keep the search's interface (a callable per service).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from prover import verify
from prover.ir import Goal, Proof, Step
from prover.oracles import find_counterexample
from prover.rewrite.base import Candidate
from prover.search.close import close_goal
from prover.search.hard_timeout import call_with_hard_limit, fork_available
from prover.solvers.closers import Closer
from prover.tactics.match import scale_steps
from prover.verify import Kernel, KernelError

#: Modules the closers and the termwise generators import lazily (cvxpy: about 1.4 s on an idle
#: machine, 4 s under load). Imported once in the search's own process, before anything forks:
#: a forked closer imports them afresh otherwise, every time, and its budget (30 % of the time
#: left for the SOS closer) can go to the import alone — measured on ``0 ≤ x, x ≤ 1 ⊢ x² ≤ x``:
#: 5 s and no certificate in a child of a cold parent, 0.8 s and a certificate after the warm-up.
#: (``prover eval`` attempts import them anyway: :func:`prover.api.warm_up`.)
WARM_MODULES = ("cvxpy", "scipy.optimize")


def import_available(names: Iterable[str]) -> None:
    """Import each module of ``names`` that is installed (a missing one is left to its users' errors)."""
    import importlib

    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def warm_solvers() -> None:
    """Import :data:`WARM_MODULES`."""
    import_available(WARM_MODULES)


def closer(closers: Sequence[Closer] | None = None) -> Callable[[Goal, float], Step | None]:
    """``close_goal`` with the given closers (None: the default list)."""
    if closers is None:
        return close_goal
    return functools.partial(close_goal, closers=tuple(closers))


def counterexample_finder() -> Callable[[Goal, float], dict | None]:
    return find_counterexample


def kernel_check_proof() -> Callable[..., Any]:
    return verify.check_proof


def kernel_check_step() -> Callable[..., Any]:
    return verify.check_step


def lemma_lookup() -> Callable[[str], Any]:
    """``name -> LemmaStatement | None`` from the catalogue, for checking ``scale`` steps."""
    return verify.project_lemmas()


def check_proof(proof: Proof) -> tuple[bool, list[str]]:
    """The kernel's verdict (with the project's lemma catalogue)."""
    v = kernel_check_proof()(proof, lemmas=lemma_lookup())
    return bool(v.ok), list(getattr(v, "errors", []))


def check_step_local(step: Step) -> bool:
    """Kernel check of one step without its children."""
    try:
        Kernel(lemma_lookup()).check_one(step)
    except KernelError:
        return False
    except Exception:  # noqa: BLE001 - a kernel crash on a candidate means: do not use it
        return False
    return True


def check_tree(step: Step) -> bool:
    """Kernel check of a whole proof tree."""
    errors: list[str] = []
    try:
        Kernel(lemma_lookup()).check_tree(step, "candidate", errors)
    except Exception:  # noqa: BLE001 - a kernel crash on a candidate means: do not use it
        return False
    return not errors


class CatalogueGenerator:
    """Adapter to the catalogue matcher (``prover.tactics.match.scale_steps``).

    Matching can be slow, so it runs in a forked child killed after ``budget()`` seconds. The
    matcher already keeps only steps the kernel accepts (``kernel_checked``); the subgoals of a
    ``scale`` step can be false, so the search runs the counterexample filter on them.
    """

    name = "catalogue"
    kernel_checked = True

    def __init__(self, budget: Callable[[], float] | None = None, limit: int = 32) -> None:
        self._fn: Callable[..., Any] | None = scale_steps
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
        self.stats["calls"] += 1
        if fork_available():
            # the matcher stops itself at 80 % of the budget with what it found; the hard limit
            # is the backstop for one slow lemma (a kill returns nothing)
            status, steps = call_with_hard_limit(_scale_steps, (self._fn, goal, self.limit, 0.8 * t), t)
            if status != "ok":
                self.stats["killed"] += 1
                return []
        else:
            steps = _scale_steps(self._fn, goal, self.limit, t)
        return [Candidate(st, self.name, 0.5) for st in steps or [] if isinstance(st, Step)]


def _scale_steps(fn: Callable[..., Any], goal: Goal, limit: int, time_limit: float) -> list[Step]:
    return list(fn(goal, limit=limit, time_limit=time_limit))
