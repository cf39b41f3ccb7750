"""Reading the lines of a JSONL benchmark file without parsing any statement (no sympy here,
so that the evaluation runner stays light).

A line is usable when it is a JSON object with a string ``lean`` (and a string ``id``, if it
has one). Any other non-blank line is a :class:`SkippedLine`: reported (by default as a
:class:`BenchmarkWarning`) and left out, never a reason to refuse the whole file.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class BenchmarkWarning(UserWarning):
    """A benchmark line was skipped."""


@dataclass(frozen=True)
class SkippedLine:
    """A line of a benchmark file that was not used, and why (one line of text)."""

    file: str
    line: int
    reason: str
    ident: str | None = None  # the line's ``id`` when it could be read

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: skipped: {self.reason}"


@dataclass(frozen=True)
class BenchmarkRecord:
    """One usable line: a JSON object with a string ``lean`` (and a string ``id``, if any)."""

    line: int
    entry: dict[str, Any]


OnSkip = Callable[[SkippedLine], None]


def warn_skipped(skip: SkippedLine) -> None:
    """The default ``on_skip``: a :class:`BenchmarkWarning`."""
    warnings.warn(str(skip), BenchmarkWarning, stacklevel=3)


def _entry_problem(entry: dict[str, Any], require_id: bool) -> str | None:
    """Why a JSON object is not a usable benchmark entry, or None."""
    if "lean" not in entry:
        return "no `lean` field"
    if not isinstance(entry["lean"], str):
        return f"field `lean` is not a string (a JSON {_json_kind(entry['lean'])})"
    if "id" in entry and not isinstance(entry["id"], str):
        return f"field `id` is not a string (a JSON {_json_kind(entry['id'])})"
    if require_id and "id" not in entry:
        return "no `id` field"
    return None


def _json_kind(x: Any) -> str:
    if isinstance(x, bool):
        return "boolean"
    return {list: "list", dict: "object", str: "string", int: "number", float: "number",
            type(None): "null"}.get(type(x), type(x).__name__)


def read_records(path: str | Path, *, require_id: bool = False) -> tuple[list[BenchmarkRecord], list[SkippedLine]]:
    """The usable lines of a JSONL benchmark file and the lines skipped (blank lines are
    neither). Raises ``OSError`` or ``UnicodeDecodeError`` when the file cannot be read."""
    path = Path(path)
    records: list[BenchmarkRecord] = []
    skipped: list[SkippedLine] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        entry: Any = None
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            why: str | None = f"not JSON ({exc.msg}, column {exc.colno})"
        except RecursionError:
            why = "not JSON (nested too deeply)"
        else:
            if isinstance(entry, dict):
                why = _entry_problem(entry, require_id)
            else:
                why = f"not a JSON object (a JSON {_json_kind(entry)})"
        if why is None:
            records.append(BenchmarkRecord(lineno, entry))
        else:
            ident = entry.get("id") if isinstance(entry, dict) else None
            skipped.append(SkippedLine(str(path), lineno, why, ident if isinstance(ident, str) else None))
    return records, skipped
