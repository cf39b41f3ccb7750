"""Progress display: a rich bar on a terminal, one plain line per finished problem otherwise."""

from __future__ import annotations

import sys
from typing import Any, Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class EvalProgress:
    """Counts proved / failed / remaining and shows them with an ETA."""

    def __init__(self, total: int, done_before: int, console: Console | None = None,
                 rich: bool | None = None, success: str = "proved") -> None:
        self.console = console or Console(stderr=True)
        self.rich = self.console.is_terminal if rich is None else rich
        self.total, self.success = total, success
        self.solved = self.failed = 0
        self.done_before = done_before
        self._progress: Progress | None = None
        self._task: Any = None

    @property
    def remaining(self) -> int:
        return self.total - self.done_before - self.solved - self.failed

    def _text(self) -> str:
        return (f"[green]{self.success} {self.solved}[/] [red]failed {self.failed}[/] "
                f"remaining {self.remaining}")

    def __enter__(self) -> Self:
        if self.rich:
            self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                      console=self.console, transient=False)
            self._progress.__enter__()
            self._task = self._progress.add_task(self._text(), total=self.total - self.done_before)
        else:
            print(f"{self.total - self.done_before} problems to attempt "
                  f"({self.done_before} already recorded)", file=sys.stderr, flush=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)

    def update(self, key: str, status: str, time_s: float) -> None:
        if status == self.success:
            self.solved += 1
        else:
            self.failed += 1
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=self._text())
        else:
            n = self.solved + self.failed
            print(f"[{n}/{self.total - self.done_before}] {key}: {status} ({time_s:.1f} s) — "
                  f"{self.success} {self.solved}, failed {self.failed}, remaining {self.remaining}",
                  file=sys.stderr, flush=True)
