"""``python -m prover.fuzz kernel --trees N --seed S --out results/fuzz-kernel.json``.

Generates ``N`` valid proof trees of true statements, mutates each, checks every proof with the
kernel and every accepted one with the independent oracle; prints progress and writes a JSON
report and a markdown summary next to it (same name, ``.md``). Exit code 1 if any false
acceptance was found, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from prover.fuzz.kernel_trees import FuzzReport, report_markdown, run_campaign


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m prover.fuzz", description=__doc__.split("\n\n")[1])
    sub = ap.add_subparsers(dest="target", required=True)
    k = sub.add_parser("kernel", help="proof-tree fuzzing of the kernel")
    k.add_argument("--trees", type=int, default=500)
    k.add_argument("--seed", type=int, default=0)
    k.add_argument("--mutants", type=int, default=4, help="mutants per tree (default 4)")
    k.add_argument("--max-depth", type=int, default=2, help="wrapper steps above a leaf (default 2)")
    k.add_argument("--out", type=Path, default=Path("results/fuzz-kernel.json"))
    k.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    command = "python -m prover.fuzz " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    every = max(1, args.trees // 20)

    def progress(done: int, rep: FuzzReport) -> None:
        if not args.quiet and (done % every == 0 or done == args.trees):
            print(f"[{done}/{args.trees}] base accepted {rep.base_accepted}, mutants {rep.mutants} "
                  f"(accepted {rep.mutants_accepted}), false acceptances {rep.false_acceptances}", flush=True)

    rep = run_campaign(args.trees, args.seed, mutants_per_tree=args.mutants, max_depth=args.max_depth,
                       progress=progress)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    data = {"command": command, **rep.to_json()}
    args.out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    md = args.out.with_suffix(".md")
    md.write_text(report_markdown(rep, command), encoding="utf-8")
    print(report_markdown(rep, command))
    print(f"wrote {args.out} and {md}")
    return 1 if rep.false_acceptances else 0


if __name__ == "__main__":
    sys.exit(main())
