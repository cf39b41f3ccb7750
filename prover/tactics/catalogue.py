"""The scaling-lemma catalogue: declarative JSON data in ``tactics/lemmas/*.json``.

Each entry states ``lhs <= rhs`` under side conditions, with its equality case, the Lean name that
proves it, and its trust: ``"kernel"`` (an exact close certificate, checked by our kernel like any
proof step) or ``"lean"`` (non-polynomial lemmas — roots, real powers — whose proof lives in
``lean_project/`` under ``lean_name``). Expressions are sympy strings read by
:func:`prover.ir.expr_from_str` (no floats); side conditions are ``"lhs op rhs"``.

Where the data is found (first that exists): ``$PROVER_LEMMAS_DIR``; ``tactics/lemmas`` at the
repository root next to the ``prover`` package (editable installs and checkouts); the package
data directory ``prover/data/lemmas`` (a copy for non-editable installs).
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path
from typing import Any

from prover.ir import IRError, expr_from_str
from prover.problem import OPS, Relation
from prover.tactics.lemma import LemmaLookup, LemmaStatement

FORMAT = "prover-lemmas"
VERSION = 1
TRUSTS = ("kernel", "lean")
DIRECTIONS = ("both", "lower", "upper")
_REL = re.compile(r"^(.*?)(<=|>=|!=|<|>|=)(.*)$")
_REQUIRED = ("name", "family", "variables", "side_conditions", "lhs", "rhs", "equality_case",
             "direction", "lean_name", "trust")


class CatalogueError(ValueError):
    """A malformed catalogue file or entry (names the file and the entry)."""


def lemmas_dir() -> Path:
    env = os.environ.get("PROVER_LEMMAS_DIR")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve()
    candidates += [here.parents[2] / "tactics" / "lemmas", here.parents[1] / "data" / "lemmas"]
    for c in candidates:
        if c.is_dir():
            return c
    raise CatalogueError(f"no lemma catalogue found (looked in {', '.join(map(str, candidates))})")


def parse_relation(text: str, variables: list[str] | tuple[str, ...]) -> Relation:
    m = _REL.match(text.strip())
    if not m or m.group(2) not in OPS:
        raise CatalogueError(f"not a relation `lhs op rhs`: {text!r}")
    return Relation(expr_from_str(m.group(1).strip(), variables), m.group(2),
                    expr_from_str(m.group(3).strip(), variables))


def entry_to_lemma(entry: dict[str, Any], source: str = "") -> LemmaStatement:
    """One JSON entry as the kernel's :class:`LemmaStatement` (validated)."""
    name = entry.get("name", "?")
    where = f"{source}: lemma {name}" if source else f"lemma {name}"
    missing = [k for k in _REQUIRED if k not in entry]
    if missing:
        raise CatalogueError(f"{where}: missing fields {missing}")
    vs = tuple(entry["variables"])
    if not vs or not all(isinstance(v, str) and v.isidentifier() for v in vs) or len(set(vs)) != len(vs):
        raise CatalogueError(f"{where}: bad variables {list(vs)}")
    if entry["trust"] not in TRUSTS:
        raise CatalogueError(f"{where}: trust must be one of {TRUSTS}")
    if entry["direction"] not in DIRECTIONS:
        raise CatalogueError(f"{where}: direction must be one of {DIRECTIONS}")
    cert = entry.get("certificate")
    if entry["trust"] == "kernel" and not isinstance(cert, dict):
        raise CatalogueError(f"{where}: a kernel-trusted lemma needs a certificate "
                             "(run `python -m prover.tactics.certify_catalogue`)")
    try:
        sides = tuple(parse_relation(s, vs) for s in entry["side_conditions"])
        lhs, rhs = expr_from_str(entry["lhs"], vs), expr_from_str(entry["rhs"], vs)
    except (IRError, ValueError) as exc:
        raise CatalogueError(f"{where}: {exc}") from None
    meta = {k: v for k, v in entry.items() if k not in _REQUIRED and k not in ("certificate", "certify")}
    meta.update(family=entry["family"], direction=entry["direction"], source=source)
    return LemmaStatement(name=name, variables=vs, side_conditions=sides, lhs=lhs, rhs=rhs,
                          trust=entry["trust"], lean_name=entry["lean_name"], certificate=cert,
                          equality_case=entry["equality_case"], meta=meta)


def read_file(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogueError(f"{path.name}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise CatalogueError(f"{path.name}: not a {FORMAT} v{VERSION} file")
    entries = data.get("lemmas")
    if not isinstance(entries, list):
        raise CatalogueError(f"{path.name}: `lemmas` must be a list")
    return entries


@functools.lru_cache(maxsize=4)
def _load(directory: str) -> dict[str, LemmaStatement]:
    out: dict[str, LemmaStatement] = {}
    for path in sorted(Path(directory).glob("*.json")):
        for entry in read_file(path):
            lem = entry_to_lemma(entry, path.name)
            if lem.name in out:
                raise CatalogueError(f"{path.name}: duplicate lemma name {lem.name}")
            out[lem.name] = lem
    return out


def load_catalogue(directory: str | Path | None = None) -> dict[str, LemmaStatement]:
    """All catalogue lemmas by name (cached per directory)."""
    return dict(_load(str(directory or lemmas_dir())))


def get_lemma(name: str) -> LemmaStatement:
    lem = _load(str(lemmas_dir())).get(name)
    if lem is None:
        raise KeyError(f"no catalogue lemma named {name!r}")
    return lem


def lemma_lookup(directory: str | Path | None = None) -> LemmaLookup:
    """The lookup the kernel takes (``check_proof(proof, lemma_lookup())``): name -> lemma or None."""
    table = _load(str(directory or lemmas_dir()))
    return table.get
