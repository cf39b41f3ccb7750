"""Benchmark files: JSONL with one Lean statement per line (field ``lean``). A bare declaration
is read under the LIPS header its benchmark documents (``open Real``, the prefix notation
``sqrt``, every ``/`` real division; see shared/benchmarks/README.md); an entry that is a whole
Lean file, header included (miniF2F), is read exactly as Lean reads that file.

A broken line (not JSON, not an object, no string ``lean``, a non-string ``id``, a statement that
does not parse) never makes the whole file unusable: it is reported as a
:class:`~prover.benchmark_lines.SkippedLine` (through ``on_skip``, by default a warning) and the
other lines are read.
"""

from __future__ import annotations

from pathlib import Path

from prover.benchmark_lines import BenchmarkRecord, OnSkip, SkippedLine, read_records, warn_skipped
from prover.frontend.errors import ParseError
from prover.frontend.statement import is_whole_file, parse_theorem
from prover.problem import Problem


def _ident(path: Path, rec: BenchmarkRecord) -> str:
    return str(rec.entry.get("id", f"{path.stem}/{rec.line}"))


def _problem(path: Path, rec: BenchmarkRecord, real_division: bool) -> Problem:
    """The problem of one record; :class:`ParseError` (naming the id) if it does not parse."""
    entry, ident = rec.entry, _ident(path, rec)
    try:
        # a whole Lean file (miniF2F's entries: `import`, `open …`) declares its own context
        lips = real_division and not is_whole_file(entry["lean"])
        p = parse_theorem(entry["lean"], real_division=lips)
    except ParseError as exc:
        raise ParseError(f"{ident}: {exc.message}", exc.column, exc.line) from None
    p.name = ident
    p.source = f"{path.name}" + (f" ({entry['source']})" if entry.get("source") else "")
    p.meta = {**p.meta, "lean": entry["lean"], "declared_name": _declared(entry["lean"])}
    return p


def load_benchmark(path: str | Path, *, real_division: bool = True,
                   on_skip: OnSkip | None = None) -> list[Problem]:
    """Problems of a JSONL benchmark; ``name`` is the entry's ``id``, ``source`` its file and
    ``source`` field. A broken line, or a statement that does not parse, is passed to ``on_skip``
    (default: :func:`warn_skipped`) and left out."""
    path = Path(path)
    report = on_skip or warn_skipped
    records, skipped = read_records(path)
    for s in skipped:
        report(s)
    out: list[Problem] = []
    for rec in records:
        try:
            out.append(_problem(path, rec, real_division))
        except ParseError as exc:
            report(SkippedLine(str(path), rec.line, f"statement does not parse: {exc}"))
    return out


def load_benchmark_entry(path: str | Path, ident: str, *, real_division: bool = True,
                         on_skip: OnSkip | None = None) -> Problem:
    """One problem of a JSONL benchmark by id (``file.jsonl#id``). Broken lines are reported
    to ``on_skip`` and do not matter unless the id is not found; a statement that does not
    parse raises :class:`ParseError` only for the entry asked for."""
    path = Path(path)
    report = on_skip or warn_skipped
    records, skipped = read_records(path)
    for s in skipped:
        report(s)
    def matches(name: str) -> bool:
        return name == ident or name.split("/")[-1] == ident

    for rec in records:
        if matches(_ident(path, rec)):
            return _problem(path, rec, real_division)
    for s in skipped:
        if s.ident is not None and matches(s.ident):
            raise ParseError(f"entry `{ident}` ({path.name}:{s.line}) cannot be used: {s.reason}", 1)
    extra = f"; {len(skipped)} broken lines skipped" if skipped else ""
    ids = [_ident(path, rec) for rec in records]
    raise ParseError(f"no entry `{ident}` in {path.name}{extra}; {_valid_ids(ident, ids)}", 1)


def _valid_ids(ident: str, ids: list[str]) -> str:
    """One line naming the valid ids: all of them when few, else the closest ones (difflib)."""
    import difflib

    if not ids:
        return "the file has no usable entry"
    short = list(dict.fromkeys(i.split("/")[-1] for i in ids))
    if len(short) <= 12:
        return "valid ids: " + ", ".join(short)
    close = difflib.get_close_matches(ident.split("/")[-1], short, n=5, cutoff=0.5)
    where = f"{len(short)} ids, {short[0]} … {short[-1]}"
    return (f"closest: {', '.join(close)} ({where})" if close else f"valid ids: {where}")


__all__ = ["OnSkip", "SkippedLine", "load_benchmark", "load_benchmark_entry", "warn_skipped"]


def _declared(text: str) -> str:
    from prover.frontend.statement import declaration_names

    names = declaration_names(text)
    return names[0] if names else ""
