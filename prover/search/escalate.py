"""What the search does when its frontier empties before the deadline: escalate, never give up
with time left (issue #31, item 1).

The best-first loop stops when no node is left to expand. With budget left that is an early
give-up, so the loop asks the escalation levels — values in :data:`DEFAULT_ESCALATIONS`, tried in
order, each once — for new work: each returns nodes for the frontier (possibly closed ones), and
the loop goes on. When every level is spent and the frontier is empty again the search has
nothing left to try, and its result says so (``stats["exhausted"]``, with the levels applied in
``stats["escalations"]``).

Levels (cheapest first):

* :class:`StrongerClosers` — the goals whose closers failed, again, with higher SOS degrees
  (``max_extra_degree`` 4, Pólya multipliers ``(Σx)^k`` up to ``k = 3``) and a larger share of
  the time left;
* :class:`Deeper` — the nodes cut at the depth limit, with the limit raised;
* :class:`WiderExpansion` — the expanded nodes again, with larger generator budgets (a generator
  cut by its budget the first time may now finish).

Nothing here is trusted: every step still goes through the kernel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

#: ``prover.search.best_first.Search`` / ``SearchNode`` (not imported: best_first imports this module)
Search = Any
SearchNode = Any


class Escalation(Protocol):
    """A level: new frontier nodes from what the search has seen (empty: nothing to add)."""

    name: str

    def apply(self, search: Search) -> list[SearchNode]: ...


def escalated_closers() -> tuple[Any, ...]:
    """The closers a :class:`StrongerClosers` level runs: SOS at higher degree, then with
    ``(Σx)^k`` multipliers up to ``k = 3``."""
    from prover.solvers.closers import SosCloser, SumMultiplierSos

    return (SosCloser(share=0.6, floor=2.0, max_extra_degree=4), SumMultiplierSos(powers=(1, 2, 3)))


@dataclass(frozen=True)
class StrongerClosers:
    """The goals whose closers failed, again, with stronger closers and more time each."""

    share: float = 0.5          # of the time left, at most, for one goal
    min_budget: float = 3.0     # seconds; a goal gets at least this much (time permitting)
    name: str = "stronger closers"

    def apply(self, search: Search) -> list[SearchNode]:
        out: list[SearchNode] = []
        nodes = search.closer_failed
        for k, node in enumerate(nodes):
            left = search.remaining() - search.kernel_reserve()
            if left < 1.0:
                break
            budget = min(self.share * left, max(self.min_budget, left / max(1, len(nodes) - k)))
            step = search.run_closer(node.goals[0], budget, search.escalated_closer)
            if step is not None and node.lean and not search.lean_accepts_tree(node.lean[0], step):
                step = None
            if step is not None:
                out.append(search.closed_node(node, step))
                break   # the loop takes it from here: a proof, or the node's next goal
        return out


@dataclass(frozen=True)
class Deeper:
    """The nodes cut at the depth limit, with the limit raised by ``extra``."""

    extra: int = 2
    name: str = "deeper"

    def apply(self, search: Search) -> list[SearchNode]:
        search.max_depth += self.extra
        out, search.depth_cut = search.depth_cut, []
        return out


@dataclass(frozen=True)
class WiderExpansion:
    """The expanded nodes again, with generator budgets ``factor`` times larger and no generator
    left out after an exclusive step (one that loses nothing can still lead nowhere)."""

    factor: float = 3.0
    name: str = "wider expansion"

    def apply(self, search: Search) -> list[SearchNode]:
        search.budget_scale *= self.factor
        search.exclusive_cut = False     # every generator now, also after a step that loses nothing
        out, search.expanded = search.expanded, []
        return out


DEFAULT_ESCALATIONS: tuple[Escalation, ...] = (StrongerClosers(), Deeper(), WiderExpansion())


def escalate(search: Search, levels: list[Escalation]) -> list[SearchNode]:
    """Apply levels (removing them from ``levels``) until one gives nodes; records each in the
    search's stats. An empty list: nothing left to try."""
    while levels and search.remaining() > search.kernel_reserve() + 1.0:
        level = levels.pop(0)
        t = time.monotonic()
        nodes = level.apply(search)
        search.stats.setdefault("escalations", []).append(
            {"level": level.name, "nodes": len(nodes), "time_s": round(time.monotonic() - t, 2)})
        if nodes:
            return nodes
    return []
