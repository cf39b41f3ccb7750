"""``prover lean fill FILE.lean``: attempt every theorem whose proof is ``sorry`` and write each
one proved into the file, in place of its ``sorry`` (statements verbatim).

The machinery is :mod:`prover.lean.in_place`'s: the file must be writable (checked before any
search: one line), theorems are found by the file's commands, a theorem with no ``sorry`` (or a
partial proof) is skipped without searching, the proofs are written all at once and the
original is kept as a new numbered backup ``FILE.lean.bak.N``. Every theorem not filled is
reported with the reason (false: a counterexample; not proved within the time limit; statement
not read; proof not renderable; an import the file lacks). Nothing is compiled here: the
written file is for ``prover lean check`` where Lean is installed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prover.lean.in_place import (
    InPlaceError,
    check_writable,
    missing_imports,
    read_source,
    theorems,
    write_proofs,
)

FILLED, NOT_FILLED, SKIPPED = "filled", "not filled", "skipped"


@dataclass
class Outcome:
    """What happened to one theorem of the file."""

    name: str
    status: str            # FILLED | NOT_FILLED | SKIPPED
    reason: str
    time_s: float = 0.0

    def line(self) -> str:
        return f"{self.name}: {self.status}" + (f": {self.reason}" if self.reason else "")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "reason": self.reason, "time_s": round(self.time_s, 3)}


@dataclass
class FillReport:
    path: Path
    outcomes: list[Outcome] = field(default_factory=list)
    backup: Path | None = None
    replay_failures: list[str] | None = None   # the written proofs' steps the replay model does not pass

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def complete(self) -> bool:
        """Every theorem that was attempted got filled."""
        return self.count(NOT_FILLED) == 0

    def to_json(self) -> dict[str, Any]:
        return {"file": str(self.path), "backup": str(self.backup) if self.backup else None,
                "filled": self.count(FILLED), "not_filled": self.count(NOT_FILLED),
                "skipped": self.count(SKIPPED), "replay_failures": self.replay_failures,
                "theorems": [o.to_json() for o in self.outcomes]}


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _why_not_proved(result: Any, time_limit: float) -> str:
    if result.status == "counterexample":
        point = ", ".join(f"{k} = {v}" for k, v in (result.counterexample or {}).items())
        return f"false: counterexample {point}" if point else "false: a counterexample was found"
    if result.status in ("timeout", "not_proved"):
        why = (f"the search found nothing more to try after {result.time_s:.1f} s"
               if result.status == "not_proved" and result.time_s < 0.9 * time_limit
               else f"the time limit of {time_limit:g} s was reached")
        return f"not proved: {why}" + (f" ({_first_line(result.error)})" if result.error else "")
    return f"{result.status}" + (f": {_first_line(result.error)}" if result.error else "")


def attempt(path: Path, name: str, source: str, time_limit: float, closers_only: bool = False
            ) -> tuple[Outcome, str | None]:
    """Search for a proof of ``FILE#name``; the outcome and, when proved, the rendered Lean file."""
    from prover.api import prove
    from prover.lean.render import render_proof

    t0 = time.monotonic()

    def done(status: str, reason: str, text: str | None = None) -> tuple[Outcome, str | None]:
        return Outcome(name, status, reason, time.monotonic() - t0), text

    try:
        result = prove(f"{path}#{name}", time_limit=time_limit, closers_only=closers_only)
    except Exception as exc:  # noqa: BLE001 - a statement we cannot read is reported, the others go on
        return done(NOT_FILLED, f"statement not read: {_first_line(exc)}")
    if not result.proved:
        return done(NOT_FILLED, _why_not_proved(result, time_limit))
    try:
        text = render_proof(result.proof)
    except Exception as exc:  # noqa: BLE001 - a renderer failure must not stop the other theorems
        return done(NOT_FILLED, f"proved by the kernel, but the Lean rendering failed: {_first_line(exc)}")
    missing = missing_imports(source, text)
    if missing:
        return done(NOT_FILLED, f"proved, but the proof needs `import {missing[0]}`, which the file does not have")
    return done(FILLED, f"proved in {result.time_s:.1f} s", text)


def fill_file(path: Path, time_limit: float = 60.0, closers_only: bool = False,
              on_outcome: Callable[[Outcome], None] | None = None) -> FillReport:
    """Attempt every ``sorry`` theorem of ``path`` (``time_limit`` seconds each) and write the
    proved ones into it. :class:`InPlaceError` (one line) before any search when the file cannot
    be read or written."""
    check_writable(path)
    source = read_source(path)
    report = FillReport(path)
    rendered: dict[str, str] = {}
    for thm in theorems(source):
        why = thm.skip_reason()
        if why is not None:
            outcome, text = Outcome(thm.name, SKIPPED, f"{why}; not searched"), None
        else:
            outcome, text = attempt(path, thm.name, source, time_limit, closers_only)
        if text is not None:
            rendered[thm.name] = text
        report.outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    if rendered:
        report.backup = write_proofs(path, rendered)
        report.replay_failures = replay_failures(path, set(rendered))
    return report


def replay_failures(path: Path, names: set[str]) -> list[str]:
    """The steps of the theorems ``names`` of ``path`` that the replay model (a model of Lean,
    not Lean) does not pass, as ``FILE:LINE: reason``; the other theorems' ``sorry`` is not theirs."""
    from prover.lean.replay import replay_text

    source = path.read_text(encoding="utf-8")
    spans = [(source.count("\n", 0, t.start) + 1, source.count("\n", 0, t.end) + 1)
             for t in theorems(source) if t.name in names]
    report = replay_text(source, str(path))
    return [f"{path}:{s.line}: {s.reason or s.status}" for s in report.steps
            if not s.ok and any(lo <= s.line <= hi for lo, hi in spans)]


__all__ = ["FILLED", "NOT_FILLED", "SKIPPED", "FillReport", "InPlaceError", "Outcome", "attempt", "fill_file"]
