"""Loading a statement from the command line and showing a Problem (rich table or JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prover.frontend.benchmark import OnSkip, SkippedLine, load_benchmark, load_benchmark_entry, warn_skipped
from prover.frontend.errors import ParseError
from prover.frontend.printer import print_expr, print_relation, print_theorem
from prover.frontend.statement import parse_theorem
from prover.problem import LEAN_OPS, Problem


def load_spec(spec: str, *, real_division: bool | None = None, on_skip: OnSkip | None = None) -> list[Problem]:
    """``FILE.lean`` (optionally ``#name``), ``file.jsonl`` (optionally ``#id``), or statement text.

    ``real_division=None`` means: on for JSONL benchmarks and for sources with the LIPS header
    macro, off otherwise. Errors are :class:`ParseError` (missing files included); broken lines
    of a JSONL file go to ``on_skip`` (see :func:`~prover.frontend.benchmark.load_benchmark`),
    and a file with no usable line at all is an error.
    """
    path_part, _, ident = spec.partition("#")
    if path_part.endswith(".jsonl"):
        path = Path(path_part)
        if not path.is_file():
            raise ParseError(f"no such benchmark file: {path_part}", 1)
        rd = True if real_division is None else real_division
        if ident:
            return [load_benchmark_entry(path, ident, real_division=rd, on_skip=on_skip)]
        skipped: list[SkippedLine] = []
        report = on_skip or warn_skipped

        def note(s: SkippedLine) -> None:
            skipped.append(s)
            report(s)

        problems = load_benchmark(path, real_division=rd, on_skip=note)
        if not problems and skipped:
            raise ParseError(f"no usable problem in {path.name} ({len(skipped)} lines skipped)", 1)
        return problems
    if path_part.endswith(".lean"):
        path = Path(path_part)
        if not path.is_file():
            raise ParseError(f"no such file: {path_part}", 1)
        text = path.read_text(encoding="utf-8")
        p = parse_theorem(text, real_division=bool(real_division), name=ident or None)
        p.source = str(path)
        # the file's text and the declaration's name: `prover check` reads the statement again
        p.meta = {**p.meta, "lean": text, "lean_name": ident or None}
        return [p]
    _refuse_other_files(spec, path_part)
    p = parse_theorem(spec, real_division=bool(real_division))
    p.meta = {**p.meta, "lean": spec}   # rendered Lean files keep the user's statement verbatim
    return [p]


def _refuse_other_files(spec: str, path_part: str) -> None:
    """A spec that names a file (one word with a file extension, or an existing file) but
    neither ``.lean`` nor ``.jsonl`` is refused as such, instead of being read as statement text."""
    if not path_part or any(ch.isspace() for ch in spec):
        return  # statement text always has spaces
    path = Path(path_part)
    suffix = path.suffix
    if suffix and ((suffix[1:].isalnum() and suffix[1].isalpha()) or path.is_file()):
        raise ParseError(f"unsupported file extension {suffix} in {path_part} (expected .jsonl or .lean)", 1)
    if path.is_file():
        raise ParseError(f"{path_part}: a file without extension (expected .jsonl or .lean)", 1)


def problem_to_json(p: Problem) -> dict[str, Any]:
    def rel(r):
        return {"lhs": str(r.lhs), "op": r.op, "rhs": str(r.rhs), "lean": print_relation(r)}

    out = {
        "name": p.name,
        "variables": list(p.variables),
        "hypotheses": [{"name": h.name, **rel(h.rel)} for h in p.hypotheses],
        "goal": rel(p.goal),
        "real_division": p.real_division,
        "source": p.source,
        "lean": print_theorem(p),
    }
    if p.is_conjunction:   # `goal` is the first part
        out["goal_parts"] = [rel(g) for g in p.goal_parts]
    return out


def dumps(problems: list[Problem]) -> str:
    data: Any = [problem_to_json(p) for p in problems]
    return json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False, indent=1)


def render(p: Problem, console: Any) -> None:
    """A rich view of one problem: variables, hypotheses, goal (Lean text and sympy form)."""
    from rich.table import Table

    t = Table(title=f"{p.name}" + (f"  [dim]{p.source}[/dim]" if p.source else ""), show_lines=False)
    t.add_column("", style="bold")
    t.add_column("Lean")
    t.add_column("sympy", style="dim")
    t.add_row("variables", " ".join(p.variables) + " : ℝ", "")
    for h in p.hypotheses:
        t.add_row(h.name, print_relation(h.rel), f"{h.rel.lhs} {h.rel.op} {h.rel.rhs}")
    for k, g in enumerate(p.goal_parts if p.is_conjunction else (p.goal,), 1):
        t.add_row(f"goal ({k} of {len(p.goal_parts)}, ∧)" if p.is_conjunction else "goal", print_relation(g),
                  f"{g.lhs} {g.op} {g.rhs}")
    console.print(t)
    console.print(f"real division: {p.real_division};  slack (≥ 0): {print_expr(p.goal.slack())}"
                  if p.goal.is_inequality else f"real division: {p.real_division}", highlight=False)


__all__ = ["LEAN_OPS", "dumps", "load_spec", "problem_to_json", "render"]
