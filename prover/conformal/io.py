"""Loaders: the released MATH annotation files and the project's own claim-graph format.

MATH files (Rubin-Toles et al.) are reference data that is NOT shipped with the project; they are
looked up in ``$PROVER_CONFORMAL_DATA`` or ``<project root>/../shared/conformal_data``.
Their adjacency convention is ``dep_graph[j][i] == 1`` ⇔ claim j depends on claim i ⇔ edge i → j.

Own format (JSON Lines, one proof per line)::

    {"format": "prover-claims", "version": 1, "name": ..., "prompt": ...,
     "variables": [...], "hypotheses": ["a > 0", ...],
     "claims": [{"text": ..., "label": true, "scores": {...}, "formula": ..., "meta": {...}}],
     "edges": [[parent, child], ...], "subset_labels": {"y": [[i, ...]], "n": [[...]]}, "meta": {...}}
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import networkx as nx

from prover.conformal.claims import Claim, ClaimGraph

FORMAT = "prover-claims"
VERSION = 1
DATA_ENV = "PROVER_CONFORMAL_DATA"
MATH_FILES = {"gpt4": "MATH_annotations.json", "llama": "MATH_open_subclaims_with_scores.json"}


class DataError(ValueError):
    """A missing or malformed data file (one line, meant for the user)."""


def project_root() -> Path:
    return Path(__file__).resolve().parents[2]


def default_data_dirs() -> list[Path]:
    """Where the MATH files are looked for without ``--data`` or ``$PROVER_CONFORMAL_DATA``:
    ``../shared/conformal_data`` next to the project, then next to the working directory."""
    out = [project_root().parent / "shared" / "conformal_data", Path.cwd().parent / "shared" / "conformal_data"]
    return list(dict.fromkeys(p.resolve() for p in out))


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """``override`` (``--data``), else ``$PROVER_CONFORMAL_DATA``, else the first of
    :func:`default_data_dirs` that exists (the first one when none does)."""
    if override:
        return Path(override)
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    dirs = default_data_dirs()
    return next((d for d in dirs if d.is_dir()), dirs[0])


def math_path(which: str = "gpt4", directory: str | os.PathLike | None = None) -> Path:
    if which not in MATH_FILES:
        raise DataError(f"unknown MATH set {which!r} (use one of {', '.join(MATH_FILES)})")
    return data_dir(directory) / MATH_FILES[which]


def missing_data_message(path: Path, directory: str | os.PathLike | None = None) -> str:
    """One line: which file is missing, where it was looked for, and how to point at it."""
    if directory:
        where = f"given by --data {directory}"
    elif os.environ.get(DATA_ENV):
        where = f"from ${DATA_ENV}"
    else:
        where = "looked in " + ", ".join(str(d) for d in default_data_dirs())
    return (f"no such data file: {path} ({where}); the MATH annotations are not shipped with the project: "
            f"pass --data DIR or set ${DATA_ENV} to the folder holding {path.name}")


def _chain_graph(n: int) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, i + 1) for i in range(n - 1))
    return g


def _adjacency_graph(mat: list[list[int]], n: int) -> nx.DiGraph:
    """Row = dependent claim, column = premise."""
    if len(mat) != n or any(len(row) != n for row in mat):
        raise DataError(f"dependency matrix is not {n}x{n}")
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, j) for j in range(n) for i in range(n) if mat[j][i] and i != j)
    return g


def load_math(path: str | os.PathLike) -> list[ClaimGraph]:
    """Read a released annotation file; cyclic proxy graphs fall back to the chain graph."""
    p = Path(path)
    if not p.exists():
        raise DataError(missing_data_message(p))
    try:
        rows = json.loads(p.read_text())["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise DataError(f"{p}: not a MATH annotation file ({exc})") from None
    out = []
    for i, q in enumerate(rows):
        claims = []
        for c in q["claims"]:
            scores = {k[: -len("-score")]: float(v) for k, v in c.items()
                      if k.endswith("-score") and isinstance(v, (int, float))}
            if "noise" in c:
                scores["noise"] = float(c["noise"])
            claims.append(Claim(c["subclaim"], float(c["manual_annotation"]) >= 0.5, scores,
                                meta={"annotation": c.get("annotation")}))
        n = len(claims)
        g = _adjacency_graph(q["dep_graph"], n)
        meta: dict = {"index": i}
        if not nx.is_directed_acyclic_graph(g):
            g, meta["graph_fallback"] = _chain_graph(n), "cycle"
        if q.get("gold_graph"):
            meta["gold_edges"] = sorted(_adjacency_graph(q["gold_graph"], n).edges)
        labels: dict[frozenset[int], bool] = {}
        ann = q.get("graph_annotations") or {}
        for verdict, key in ((True, "y"), (False, "n")):  # "y" wins a conflict, as upstream
            for bits in ann.get(key, []):
                labels.setdefault(frozenset(k for k, b in enumerate(bits) if b), verdict)
        out.append(ClaimGraph(f"MATH-{i}", q["prompt"], claims, g, labels, meta=meta))
    return out


# ------------------------------------------------------------------ own format


def example_to_json(ex: ClaimGraph) -> dict:
    ys = sorted(sorted(s) for s, v in ex.subset_labels.items() if v)
    ns = sorted(sorted(s) for s, v in ex.subset_labels.items() if not v)
    return {
        "format": FORMAT, "version": VERSION, "name": ex.name, "prompt": ex.prompt,
        "variables": ex.variables, "hypotheses": ex.hypotheses,
        "claims": [{"text": c.text, "label": c.label, "scores": c.scores, "formula": c.formula,
                    "meta": c.meta} for c in ex.claims],
        "edges": sorted([int(u), int(v)] for u, v in ex.graph.edges),
        "subset_labels": {"y": ys, "n": ns}, "meta": ex.meta,
    }


def example_from_json(d: dict) -> ClaimGraph:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataError(f"not a {FORMAT} record")
    if d.get("version") != VERSION:
        raise DataError(f"unsupported {FORMAT} version {d.get('version')!r}")
    try:
        claims = [Claim(c["text"], c.get("label"), {k: float(v) for k, v in c.get("scores", {}).items()},
                        c.get("formula"), dict(c.get("meta", {}))) for c in d["claims"]]
        g = nx.DiGraph()
        g.add_nodes_from(range(len(claims)))
        g.add_edges_from((int(u), int(v)) for u, v in d.get("edges", []))
        labels = {frozenset(s): True for s in d.get("subset_labels", {}).get("y", [])}
        for s in d.get("subset_labels", {}).get("n", []):
            labels.setdefault(frozenset(s), False)
        return ClaimGraph(d["name"], d.get("prompt", ""), claims, g, labels, list(d.get("variables", [])),
                          list(d.get("hypotheses", [])), dict(d.get("meta", {})))
    except (KeyError, TypeError) as exc:
        raise DataError(f"bad {FORMAT} record: {exc}") from None
    except ValueError as exc:
        raise DataError(str(exc)) from None


def save_claim_graphs(examples: list[ClaimGraph], path: str | os.PathLike) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("".join(json.dumps(example_to_json(e), ensure_ascii=False, sort_keys=True) + "\n"
                         for e in examples))


def load_claim_graphs(path: str | os.PathLike) -> list[ClaimGraph]:
    p = Path(path)
    if not p.exists():
        raise DataError(f"no such file: {p}")
    out = []
    for ln, line in enumerate(p.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(example_from_json(json.loads(line)))
            except json.JSONDecodeError as exc:
                raise DataError(f"{p}:{ln}: not JSON ({exc.msg})") from None
            except DataError as exc:
                raise DataError(f"{p}:{ln}: {exc}") from None
    return out


def load_any(path: str | os.PathLike) -> list[ClaimGraph]:
    """A MATH annotation file (``.json`` with ``data``) or an own-format ``.jsonl`` file."""
    p = Path(path)
    if p.suffix == ".json":
        return load_math(p)
    return load_claim_graphs(p)
