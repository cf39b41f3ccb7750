"""The per-problem table of ``summary.md``: one row per problem of the run (id, status, time,
proof steps, links to its ``proof.json`` and ``.lean`` file, or why there is no ``.lean``).
Links are relative to the run folder, where ``summary.md`` lies."""

from __future__ import annotations

from typing import Any

#: Characters of a reason (no .lean, an error) shown in a cell.
REASON_CHARS = 80


def _cell(text: object, limit: int | None = None) -> str:
    """``text`` safe inside a Markdown table cell: one line, ``|`` escaped, cut at ``limit``."""
    s = " ".join(str(text).split())
    if limit is not None and len(s) > limit:
        s = s[:limit] + "…"
    return s.replace("|", "\\|")


def _link(path: object, label: str) -> str:
    return f"[{label}]({str(path).replace(' ', '%20').replace(')', '%29')})" if path else "–"


def _lean_cell(rec: dict[str, Any]) -> str:
    if rec.get("lean"):
        return _link(rec["lean"], "lean")
    if rec.get("lean_error"):
        return f"not rendered: {_cell(rec['lean_error'], REASON_CHARS)}"
    return "–"


def _status(key: str, rec: dict[str, Any] | None, known_false: dict[str, str]) -> str:
    if rec is None:
        return "not attempted"
    status = _cell(rec.get("status", "?"))
    if key in known_false:
        status += " (known false)"
    return status


def problem_rows(problems: dict[str, list[str]], records: dict[str, dict[str, Any]],
                 known_false: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per problem, in the run's order: ``id``, ``status``, ``time_s``, ``steps``,
    ``proof`` and ``lean`` (paths or None), ``lean_error``."""
    known_false = known_false or {}
    rows = []
    for ids in problems.values():
        for key in ids:
            rec = records.get(key)
            r = rec or {}
            rows.append({"id": key, "status": _status(key, rec, known_false), "time_s": r.get("time_s"),
                         "steps": r.get("steps"), "proof": r.get("proof"), "lean": r.get("lean"),
                         "lean_error": r.get("lean_error")})
    return rows


def problem_table(problems: dict[str, list[str]], records: dict[str, dict[str, Any]],
                  known_false: dict[str, str] | None = None) -> list[str]:
    """The Markdown lines of the table, under a heading (none for a run without problems)."""
    rows = problem_rows(problems, records, known_false)
    if not rows:
        return []
    lines = ["## Problems", "", "| problem | status | time (s) | steps | proof | Lean |", "|---|---|---|---|---|---|"]
    for r in rows:
        t = r["time_s"]
        time_cell = f"{float(t):.2f}" if isinstance(t, (int, float)) else "–"
        steps = r["steps"] if isinstance(r["steps"], int) else "–"
        lines.append(f"| {_cell(r['id'])} | {r['status']} | {time_cell} | {steps} | {_link(r['proof'], 'json')} "
                     f"| {_lean_cell(r)} |")
    return lines + [""]
