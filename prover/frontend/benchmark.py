"""Benchmark files: JSONL with one Lean statement per line (field ``lean``), read with the
LIPS convention that every ``/`` is real division (see shared/benchmarks/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.problem import Problem


def load_benchmark(path: str | Path, *, real_division: bool = True) -> list[Problem]:
    """Problems of a JSONL benchmark; ``name`` is the entry's ``id``, ``source`` its file and
    ``source`` field. A statement that does not parse raises :class:`ParseError` naming its id."""
    path = Path(path)
    out: list[Problem] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ParseError(f"{path.name}:{lineno}: not JSON ({exc.msg})", exc.colno) from None
        if not isinstance(entry, dict) or "lean" not in entry:
            raise ParseError(f"{path.name}:{lineno}: entry without a `lean` field", 1)
        ident = str(entry.get("id", f"{path.stem}/{lineno}"))
        try:
            p = parse_theorem(entry["lean"], real_division=real_division)
        except ParseError as exc:
            raise ParseError(f"{ident}: {exc.message}", exc.column, exc.line) from None
        p.name = ident
        p.source = f"{path.name}" + (f" ({entry['source']})" if entry.get("source") else "")
        p.meta = {**p.meta, "lean": entry["lean"], "declared_name": _declared(entry["lean"])}
        out.append(p)
    return out


def load_benchmark_entry(path: str | Path, ident: str) -> Problem:
    """One problem of a JSONL benchmark by id (``file.jsonl#id``)."""
    for p in load_benchmark(path):
        if p.name == ident or p.name.split("/")[-1] == ident:
            return p
    raise ParseError(f"no entry `{ident}` in {Path(path).name}", 1)


def _declared(text: str) -> str:
    from prover.frontend.statement import declaration_names

    names = declaration_names(text)
    return names[0] if names else ""
