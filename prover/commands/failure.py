"""What ``prover prove`` says when the search found no proof (``not_proved`` or ``timeout``): the
open goals of the search's best node, the closers tried, the nearest miss on the first open goal
(where it is tight, or the least gap that sampling found: floating point, display only) and a
hint on what to try next."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prover.commands.common import printable

#: Open goals printed (the rest are counted).
MAX_GOALS = 3
#: Characters of one goal printed.
GOAL_CHARS = 600
#: Seconds of sampling for the nearest miss.
MISS_SECONDS = 1.0


class _MissTimeout(BaseException):
    """The nearest miss took too long (a BaseException: the sampling's own handlers let it through)."""


@dataclass
class FailureReport:
    """The lines after "not_proved"/"timeout"; :meth:`to_json` for ``--json``."""

    open_goals: list[str] = field(default_factory=list)
    where: str = ""
    closers: str = ""
    nearest_miss: str | None = None
    hint: str = ""

    def lines(self) -> list[str]:
        out = []
        if self.open_goals:
            n = len(self.open_goals)
            out.append(f"open goal{'s' if n > 1 else ''} of the best node ({self.where}):")
            out += [f"  {printable(g, GOAL_CHARS)}" for g in self.open_goals[:MAX_GOALS]]
            if n > MAX_GOALS:
                out.append(f"  … and {n - MAX_GOALS} more")
        if self.closers:
            out.append(f"closers tried: {self.closers}")
        if self.nearest_miss:
            out.append(f"nearest miss: {self.nearest_miss}")
        if self.hint:
            out.append(f"hint: {self.hint}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"open_goals": self.open_goals, "best_node": self.where, "closers": self.closers,
                "nearest_miss": self.nearest_miss, "hint": self.hint}


def failure_report(result: Any, time_limit: float, closers_only: bool,
                   miss_seconds: float = MISS_SECONDS) -> FailureReport:
    """The report for a failed ``result`` (a :class:`~prover.search.result.ProveResult`)."""
    from prover.search.proof_text import show_goal

    stats = result.stats or {}
    goals = list(getattr(result, "open_goals", None) or [])
    node = stats.get("best_node") or {}
    steps = node.get("steps") or []
    where = "the original goal" if not steps else f"after {len(steps)} step{'s' if len(steps) > 1 else ''}: " \
        + ", then ".join(steps)
    return FailureReport([show_goal(g, with_hyps=True) for g in goals], where, _closers_line(stats),
                         nearest_miss(goals[0], miss_seconds) if goals and miss_seconds > 0 else None,
                         hint(result, time_limit, closers_only))


def _closers_line(stats: dict[str, Any]) -> str:
    names = stats.get("closers") or []
    if not names:
        return ""
    calls, killed = stats.get("closer_calls", 0), stats.get("closer_killed", 0)
    line = f"{', '.join(names)} (run on {calls} goal{'s' if calls != 1 else ''}"
    if killed:
        line += f", {killed} stopped at {'its' if killed == 1 else 'their'} time limit"
    root = stats.get("root_closers")
    if root == "failed":
        line += "; none proved the original goal"
    return line + ")"


def nearest_miss(goal: Any, seconds: float) -> str | None:
    """Where ``goal`` comes closest to failing: tight at a point (a certificate must be exact
    there), or the least gap sampling found. None when no point could be evaluated."""
    from prover.alarm import alarm_after
    from prover.search.page import equality_case

    try:
        with alarm_after(2 * seconds + 1.0, _MissTimeout):   # the exact look at the symmetric point too
            eq = equality_case(goal, budget_s=seconds)
    except (Exception, _MissTimeout):  # noqa: BLE001 - display only
        return None
    if eq is None:
        return None
    pt = ", ".join(f"{k} = {v}" for k, v in eq.point.items())
    if eq.exact:
        return f"the goal is tight at {pt} (both sides {eq.lhs:.6g}): a certificate must be exact there"
    if eq.tight:
        return f"the goal is tight near {pt} (left {eq.lhs:.6g}, right {eq.rhs:.6g}; sampled)"
    return f"least gap found by sampling: {eq.gap:.4g} (left {eq.lhs:.6g}, right {eq.rhs:.6g}) at {pt}"


def hint(result: Any, time_limit: float, closers_only: bool) -> str:
    """What to try next, from how the search stopped."""
    stats = result.stats or {}
    stop = stats.get("stopped_by")
    if closers_only:
        return ("only the closers ran (--closers-only); without it the search also tries rewrites and "
                "lemmas" + ("" if result.status != "timeout" else f", and a longer --time-limit than {time_limit:g} s"))
    root = " The closers alone did not prove the original goal (so --closers-only fails too)." \
        if stats.get("root_closers") == "failed" else ""
    used = float(getattr(result, "time_s", 0.0) or 0.0)
    if result.status == "timeout" or stop == "timeout" or used >= 0.8 * time_limit:
        return (f"the search used (nearly) all of --time-limit {time_limit:g} s: try --time-limit {2 * time_limit:g} "
                "(on a loaded machine the same goal can need several times longer)." + root)
    if stop == "expansions":
        return "the search stopped at its expansion limit; a restatement (another form of the goal) may help." + root
    if stop == "memory":
        return "the search stopped at its memory limit." + root
    if stats.get("exhausted"):
        return (f"the search tried everything it has in {result.time_s:.1f} s (of {time_limit:g} s); more time "
                "is unlikely to help: try another form of the statement, or --llm for more rewrites." + root)
    return f"raise --time-limit (now {time_limit:g} s)." + root
