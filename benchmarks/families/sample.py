"""A seeded, stratified sample of the family suite: the same number of statements from every family.

Full runs of the suite take hours on two cores; a sample with k statements per family gives a
table by family at a fraction of the cost. The sample is a benchmark file like the others
(same ids), so `prover eval` reads it, and the same seed always gives the same lines:

    .venv/bin/python benchmarks/families/sample.py --per-family 4 --seed 0 --out runs/families-k4.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def sample(files: list[Path], per_family: int, seed: int) -> list[dict]:
    """``per_family`` lines of every family of ``files``, in file order, chosen with ``seed``."""
    by_family: dict[str, list[dict]] = defaultdict(list)
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                by_family[row["family"]].append(row)
    rng = random.Random(seed)
    out: list[dict] = []
    for family in sorted(by_family):
        rows = by_family[family]
        out += sorted(rng.sample(rows, min(per_family, len(rows))), key=rows.index)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, default=[HERE / "train.jsonl", HERE / "heldout.jsonl"])
    ap.add_argument("--per-family", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    rows = sample(args.files, args.per_family, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} statements from {len({r['family'] for r in rows})} families -> {args.out}")


if __name__ == "__main__":
    main()
