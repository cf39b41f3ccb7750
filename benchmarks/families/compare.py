"""Two runs of `prover eval` over family statements, side by side: proved per split and per family,
the statements that flipped, and the `not_proved` that ended with more than half the budget left.

    .venv/bin/python benchmarks/families/compare.py BEFORE/records.jsonl AFTER/records.jsonl \
        [--budget 60] [--out table.md]

A statement's split is read from `train.jsonl` / `heldout.jsonl` beside this file (by id).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _records(path: Path) -> dict[str, dict]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            out[r["id"]] = r
    return out


def _splits() -> dict[str, str]:
    out = {}
    for split in ("train", "heldout"):
        f = HERE / f"{split}.jsonl"
        if f.exists():
            for line in f.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    out[json.loads(line)["id"]] = split
    return out


def _pct(a: int, n: int) -> str:
    return f"{a}/{n} ({100 * a / n:.0f} %)" if n else "0/0"


def table(before: dict[str, dict], after: dict[str, dict], budget: float) -> str:
    splits = _splits()
    ids = sorted(set(before) & set(after))
    proved = lambda recs, i: recs[i]["status"] == "proved"
    by_split: dict[str, list[str]] = defaultdict(list)
    by_family: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in ids:
        s = splits.get(i, "?")
        by_split[s].append(i)
        by_family[(i.split("/")[1], s)].append(i)

    def early(recs: dict[str, dict], group: list[str]) -> int:
        return sum(1 for i in group if recs[i]["status"] == "not_proved" and recs[i].get("time_s", budget) < budget / 2)

    lines = [(f"Statements in both runs: {len(ids)} (only in before: {len(set(before) - set(after))}, "
             f"only in after: {len(set(after) - set(before))})."), "",
             "| split | before | after | not_proved with > half the budget left (before → after) |", "|---|---|---|---|"]
    for s, group in sorted(by_split.items()):
        lines.append(f"| {s} | {_pct(sum(proved(before, i) for i in group), len(group))} | "
                     f"{_pct(sum(proved(after, i) for i in group), len(group))} | {early(before, group)} → {early(after, group)} |")
    lines += ["", "| family | split | before | after |", "|---|---|---|---|"]
    for (fam, s), group in sorted(by_family.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        b, a = sum(proved(before, i) for i in group), sum(proved(after, i) for i in group)
        lines.append(f"| {fam} | {s} | {b}/{len(group)} | {a}/{len(group)} |")
    gained = [i for i in ids if proved(after, i) and not proved(before, i)]
    lost = [i for i in ids if proved(before, i) and not proved(after, i)]
    lines += ["", f"Gained ({len(gained)}): {', '.join(gained) or 'none'}.", "",
              f"Lost ({len(lost)}): "
              + (", ".join(f"{i} ({before[i].get('time_s', 0):.0f} s before; {after[i]['status']} after)" for i in lost)
                 or "none") + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per statement of the runs")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    for p in (a.before, a.after):
        if not p.is_file():
            ap.error(f"no such file: {p}")
    text = table(_records(a.before), _records(a.after), a.budget)
    if a.out:
        a.out.write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
