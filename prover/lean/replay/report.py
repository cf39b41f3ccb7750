"""Size budgets, the per-tactic verdicts, the report of one file, and the model's two exceptions."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Longest tactic line and largest file we accept (characters), and the file size above which a
#: ``set_option maxHeartbeats N in`` must precede each declaration.
LINE_BUDGET = 20_000
#: A tactic's text over all its lines (breaking a long term over lines does not make it smaller).
TACTIC_BUDGET = 20_000
FILE_BUDGET = 200_000
HEARTBEAT_THRESHOLD = 20_000

REAL_DIVISION_MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"

OK, FAIL, UNSUPPORTED = "ok", "fail", "unsupported"


@dataclass
class StepVerdict:
    """The model's verdict on one tactic (or file-level check) at ``line``."""

    line: int
    kind: str
    status: str            # ok | fail | unsupported
    reason: str = ""
    text: str = ""

    @property
    def ok(self) -> bool:
        return self.status == OK

    def category(self) -> str:
        """A short failure class for tables: the reason up to its first colon."""
        return "" if self.ok else (self.reason.split(":", 1)[0] or self.status)


@dataclass
class ReplayReport:
    """Per-tactic verdicts of the replay model on one file (``ok`` only if every one passes)."""

    path: str
    steps: list[StepVerdict] = field(default_factory=list)
    chars: int = 0
    longest_line: int = 0
    #: the longest tactic, counted over all its lines (a term broken over lines is one tactic)
    longest_tactic: int = 0
    #: per declaration: estimated heartbeats, deepest nesting, … (``resources.DeclResources``)
    resources: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps)

    @property
    def failures(self) -> list[StepVerdict]:
        return [s for s in self.steps if not s.ok]

    @property
    def first_failure(self) -> StepVerdict | None:
        return next((s for s in self.steps if not s.ok), None)

    def counts(self) -> dict[str, int]:
        out = {OK: 0, FAIL: 0, UNSUPPORTED: 0}
        for s in self.steps:
            out[s.status] += 1
        return out

    def summary(self) -> str:
        c = self.counts()
        head = "PASS" if self.ok else "FAIL"
        msg = (f"{head} (replay model, not Lean): {c[OK]} ok, {c[FAIL]} failed, "
               f"{c[UNSUPPORTED]} not modelled; {self.chars} chars, longest line {self.longest_line}, "
               f"longest tactic {self.longest_tactic}")
        if self.resources:
            msg += "; " + self.resources_summary()
        ff = self.first_failure
        if ff is not None:
            msg += f"\nfirst failure: line {ff.line} [{ff.kind}] {ff.reason}"
        return msg

    def resources_summary(self) -> str:
        """The largest figures over the declarations (estimates, see ``resources``)."""
        hb = max(self.resources, key=lambda r: r.heartbeats)
        dp = max(self.resources, key=lambda r: r.depth)
        budget = "unlimited" if hb.heartbeat_budget == 0 else f"{hb.heartbeat_budget:,}"
        return (f"heartbeats ≈ {hb.heartbeats:,} / {budget} ({hb.name or 'example'}), depth {dp.depth} / "
                f"{dp.depth_budget}, linarith calls {sum(r.linarith_calls for r in self.resources)}")


class ModelError(Exception):
    """A check the model rejects (``fail``)."""


class NotModelled(Exception):
    """Something outside the modelled subset (``unsupported``)."""
