"""Benchmark files -> evaluation tasks (one per problem), plus the known-false list.

Only the JSON is read here; the Lean statement is parsed inside the worker, so that a
statement the front-end cannot read becomes a recorded error for that problem, not a crash
of the run. A line that is not a usable record (not JSON, not an object, no string ``id`` or
``lean``) is reported through ``on_skip`` and left out; the other lines are attempted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prover.benchmark_lines import SkippedLine, read_records, warn_skipped

KNOWN_FALSE_FILE = "known_false.json"


class EvalError(Exception):
    """A user mistake (bad file, bad option): reported as one line, exit code 2."""


@dataclass(frozen=True)
class Task:
    """One problem to attempt. ``key`` is unique within a run and names its record."""

    key: str
    dataset: str
    record: dict[str, Any]
    source_file: str


def dataset_of(problem_id: str, path: Path) -> str:
    """``"chenneq/P3"`` -> ``"chenneq"``; ids without a slash take the file's stem."""
    return problem_id.split("/", 1)[0] if "/" in problem_id else path.stem


def load_tasks(paths: list[Path], on_skip: Callable[[SkippedLine], None] | None = None) -> list[Task]:
    """Read every JSONL benchmark file; each line needs string fields ``id`` and ``lean``.

    Broken lines go to ``on_skip`` (default: a warning) and are left out; a missing or
    unreadable file, a repeated id or no usable line at all is an :class:`EvalError`.
    """
    if not paths:
        raise EvalError("no benchmark file given")
    report = on_skip or warn_skipped
    tasks: list[Task] = []
    seen: dict[str, str] = {}
    for path in paths:
        if not path.is_file():
            raise EvalError(f"benchmark file not found: {path}")
        try:
            records, skipped = read_records(path, require_id=True)
        except (OSError, UnicodeDecodeError) as exc:
            raise EvalError(f"cannot read {path}: {exc}") from None
        for s in skipped:
            report(s)
        for r in records:
            key = r.entry["id"]
            if key in seen:
                raise EvalError(f"{path}:{r.line}: problem id {key!r} already given in {seen[key]}")
            seen[key] = str(path)
            tasks.append(Task(key, dataset_of(key, path), r.entry, str(path)))
    if not tasks:
        raise EvalError("the benchmark files hold no problems")
    return tasks


def load_known_false(paths: list[Path]) -> dict[str, str]:
    """Known-false problem ids (id -> reason) from ``known_false.json`` next to each input."""
    out: dict[str, str] = {}
    for folder in dict.fromkeys(p.resolve().parent for p in paths):
        f = folder / KNOWN_FALSE_FILE
        if f.is_file():
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise EvalError(f"{f}: not JSON ({exc.msg})") from None
            out.update({k: str(v) for k, v in data.items() if not k.startswith("_")})
    return out
