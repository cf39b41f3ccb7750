"""Shared pieces of the generated family suites (``max_min``, ``abs_cases``, ``exp_log``): printing
an affine term and an application argument, and the writer of ``<prefix>_train.jsonl`` and
``<prefix>_heldout.jsonl``.

The generators are standalone scripts (``python benchmarks/max_min/make_max_min.py``); each puts
this folder on ``sys.path`` before importing this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

SPLITS = ("train", "held-out")


def affine(k: int, c: int, x: str = "x") -> str:
    """``k * x + c`` printed as a user would write it (``x``, ``-x + 2``, ``2 * x - 1``)."""
    lead = x if k == 1 else f"-{x}" if k == -1 else f"{k} * {x}"
    return lead if c == 0 else f"{lead} + {c}" if c > 0 else f"{lead} - {-c}"


def arg(text: str) -> str:
    """An application argument: parenthesised unless a name or a numeral."""
    return text if text.isidentifier() or text.isdigit() else f"({text})"


def build_rows(prefix: str, families: Mapping[str, Callable[[], list[str]]], held_out: Iterable[str],
               source: str) -> list[dict]:
    """One row per statement body, numbered from 1 within its family, in family order."""
    held = set(held_out)
    unknown = held - set(families)
    if unknown:
        raise ValueError(f"held-out families not defined: {sorted(unknown)}")
    out = []
    for family, make in families.items():
        for i, body in enumerate(make(), 1):
            name = f"{family}_{i}"
            out.append({"id": f"{prefix}/{name}", "family": family, "lean": f"theorem {name} {body} := by sorry",
                        "source": source, "split": "held-out" if family in held else "train"})
    return out


def write_suite(base_dir: Path, prefix: str, families: Mapping[str, Callable[[], list[str]]],
                held_out: Iterable[str], source: str) -> list[dict]:
    """Write ``<prefix>_train.jsonl`` and ``<prefix>_heldout.jsonl`` under ``base_dir``; return the rows."""
    rows = build_rows(prefix, families, held_out, source)
    for split in SPLITS:
        path = Path(base_dir) / f"{prefix}_{split.replace('-', '')}.jsonl"
        part = [r for r in rows if r["split"] == split]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in part), encoding="utf-8")
        print(f"wrote {path} ({len(part)} problems)")
    return rows


def check_families(families: Mapping[str, Callable[[], list[str]]], check_statement: Callable[[str, str], object],
                   points: int) -> None:
    """Sample every statement of every family (``check_statement(name, body)`` aborts on a false
    one); families have 6 to 8 statements."""
    total = 0
    for family, make in families.items():
        bodies = make()
        if not 6 <= len(bodies) <= 8:
            raise SystemExit(f"{family}: {len(bodies)} statements")
        for i, body in enumerate(bodies, 1):
            check_statement(f"{family}_{i}", body)
        total += len(bodies)
    print(f"sampled {total} statements in {len(families)} families: all true at {points} points each")
