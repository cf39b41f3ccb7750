"""``python -m prover.semantics fuzz-frontend|fuzz-context|fuzz-nterm|check-proofs …``.

All print progress, write a JSON summary (counts, failures, machine, seed, duration) and exit
with status 1 when there are failures (front-end disagreements or crashes; a statement in file
context read differently from Lean or accepted where it must be refused; goals false at a point
allowed by the hypotheses).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def _machine() -> dict[str, Any]:
    from prover.eval.machine import machine_info

    return machine_info()


def _write(out: Path | None, summary: dict[str, Any]) -> None:
    if out is None:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1, ensure_ascii=False, default=str) + "\n")
    print(f"wrote {out}")


def fuzz_frontend(args: argparse.Namespace) -> int:
    from prover.semantics.fuzz_frontend import FuzzReport, run_fuzz

    def progress(r: FuzzReport) -> None:
        print(f"[{r.statements:>6}/{args.statements}] accepted {r.accepted} refused {r.refused} "
              f"pairs {r.pairs} comparisons {r.comparisons}+{r.faithful_comparisons} faithful "
              f"undecided {r.undecided} disagreements {len(r.disagreements)} side mismatches "
              f"{len(r.side_mismatches)} crashes {len(r.crashes)} "
              f"({r.duration_s:.1f}s)", flush=True)

    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    report = run_fuzz(args.statements, args.points, args.seed, progress=progress,
                      progress_every=args.progress_every, max_depth=args.max_depth,
                      definitions=args.definitions, absolute=args.abs, max_min=args.max_min,
                      exp_log=args.exp_log, logb=args.logb, pi=args.pi)
    progress(report)
    summary = {"command": "fuzz-frontend", "started": started, "points_per_statement": args.points,
               "options": {"defining_functions": args.definitions, "abs": args.abs, "max_min": args.max_min,
                           "exp_log": args.exp_log, "logb": args.logb, "pi": args.pi,
                           "max_depth": args.max_depth},
               **report.to_json(), "machine": _machine()}
    for d in summary["examples"][:10]:
        print(f"DISAGREEMENT #{d['index']} {d['relation']} ({d['form']}/{d['kind']}"
              f"{', unsound' if d['unsound'] else ''}) at {d['point']}: {d['statement']}\n"
              f"    lean: {d['lean']}\n    front-end: {d['frontend']}   [{d['frontend_text']}]")
    for c in summary["crashes"][:10]:
        print(f"CRASH {c}")
    for c in summary["accepted_ill_typed"][:10]:
        print(f"ACCEPTED ILL-TYPED {c}")
    print(f"statements {report.statements} accepted {report.accepted} pairs {report.pairs} "
          f"failures {report.failures} in {report.duration_s:.1f}s; defining functions: "
          f"{report.definition_statements} statements, {report.definition_accepted} accepted, "
          f"{report.definition_pairs} pairs; applying exp/log: {report.exp_log_statements} statements, "
          f"{report.exp_log_accepted} accepted, {report.exp_log_pairs} pairs; applying logb: "
          f"{report.logb_statements} statements, {report.logb_accepted} accepted, {report.logb_pairs} pairs; "
          f"with Real.pi: {report.pi_statements} statements, {report.pi_accepted} accepted, {report.pi_pairs} pairs")
    _write(args.out, summary)
    return 1 if report.failures else 0


def fuzz_context(args: argparse.Namespace) -> int:
    from prover.semantics.fuzz_context import ContextReport, run_context_fuzz

    def progress(r: ContextReport) -> None:
        print(f"[{r.variants:>6}/{args.variants}] checks {r.checks} accepted {r.accepted} refused "
              f"{r.refused} (must refuse {r.must_refuse}, refused there {r.refused_where_expected}) "
              f"compared {r.compared} pairs {r.pairs} misreadings {len(r.misreadings)} crashes "
              f"{len(r.crashes)} ({r.duration_s:.1f}s)", flush=True)

    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    report = run_context_fuzz(args.variants, args.seed, args.points, progress=progress,
                              progress_every=args.progress_every)
    progress(report)
    summary = {"command": "fuzz-context", "started": started, **report.to_json(max_examples=200),
               "machine": _machine()}
    for f in summary["examples"][:10]:
        print(f"{f['kind'].upper()} #{f['index']} {f['target']} ({f['source']}): expected {f['expected']}\n"
              f"    {f['detail']}\n    wrappers: {', '.join(f['wrappers'])}")
    print(f"variants {report.variants} checks {report.checks} accepted {report.accepted} refused "
          f"{report.refused} failures {report.failures} in {report.duration_s:.1f}s")
    _write(args.out, summary)
    return 1 if report.failures else 0


def fuzz_nterm(args: argparse.Namespace) -> int:
    from prover.semantics.fuzz_nterm import NTermReport, run_nterm_fuzz

    def progress(r: NTermReport) -> None:
        print(f"[{r.statements:>6}/{args.statements}] accepted {r.accepted} refused {r.refused} (must refuse "
              f"{r.must_refuse}, refused there {r.refused_where_expected}) pairs {r.pairs} (n = 0: "
              f"{r.empty_sum_pairs}) comparisons {r.index_comparisons}+{r.comparisons} undecided {r.undecided} "
              f"misreadings {len(r.misreadings)} accepted-must-refuse {len(r.accepted_must_refuse)} crashes "
              f"{len(r.crashes)} ({r.duration_s:.1f}s)", flush=True)

    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    report = run_nterm_fuzz(args.statements, args.points, args.seed, progress=progress,
                            progress_every=args.progress_every, refuse_share=args.refuse_share)
    progress(report)
    summary = {"command": "fuzz-nterm", "started": started, "points_per_statement": args.points,
               "options": {"refuse_share": args.refuse_share}, **report.to_json(), "machine": _machine()}
    for d in summary["examples"][:10]:
        print(f"MISREADING #{d['index']} {d['relation']}{' (unsound)' if d['unsound'] else ''} at {d['point']}: "
              f"{d['statement']}\n    lean: {d['lean']}\n    front-end: {d['frontend']}   [{d['frontend_text']}]")
    for c in summary["accepted_must_refuse_examples"][:10]:
        print(f"ACCEPTED (MUST REFUSE) {c}")
    for c in summary["shape_mismatches"][:10]:
        print(f"SHAPE {c}")
    for c in summary["crashes"][:10]:
        print(f"CRASH {c}")
    print(f"statements {report.statements} accepted {report.accepted} refused {report.refused} (must refuse "
          f"{report.must_refuse}, refused there {report.refused_where_expected}) pairs {report.pairs} "
          f"(n = 0: {report.empty_sum_pairs}) misreadings {len(report.misreadings)} failures {report.failures} "
          f"in {report.duration_s:.1f}s")
    _write(args.out, summary)
    return 1 if report.failures else 0


def check_proofs(args: argparse.Namespace) -> int:
    from prover.semantics.check_proofs import FileCheck
    from prover.semantics.check_proofs import check_proofs as run

    def progress(i: int, n: int, fc: FileCheck) -> None:
        flag = " VIOLATION" if fc.violations else (" ERROR " + fc.error if fc.error else "")
        if fc.violations or fc.error or i % args.progress_every == 0 or i == n:
            print(f"[{i:>4}/{n}] {fc.file}: {fc.points_satisfying}/{fc.points_tried} points, "
                  f"{len(fc.violations)} violations, {fc.undecided} undecided{flag}", flush=True)

    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    report = run(args.root, args.points, args.seed, progress=progress)
    summary = {"command": "check-proofs", "started": started, "root": str(args.root),
               "points_per_file": args.points, "seed": args.seed, **report.to_json(), "machine": _machine()}
    print(f"files {summary['files']} points tried {summary['points_tried']} satisfying "
          f"{summary['points_satisfying']} violations {summary['violations']} undecided "
          f"{summary['undecided']} in {report.duration_s:.1f}s")
    _write(args.out, summary)
    return 1 if summary["failures"] else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m prover.semantics", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fuzz-frontend", help="differential fuzzing of the Lean front-end")
    f.add_argument("--statements", type=int, default=2000)
    f.add_argument("--points", type=int, default=10, help="points per statement")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--max-depth", type=int, default=3)
    f.add_argument("--definitions", type=float, default=0.25,
                   help="share of statements that define functions by an equation")
    f.add_argument("--abs", type=float, default=0.08,
                   help="chance that a generated subterm is wrapped in an absolute value")
    f.add_argument("--max-min", type=float, default=0.0,
                   help="chance that a generated subterm becomes an argument of max or min")
    f.add_argument("--exp-log", type=float, default=0.0,
                   help="chance that a generated subterm is wrapped in Real.exp or Real.log (with traps)")
    f.add_argument("--logb", type=float, default=0.0,
                   help="chance that a generated subterm t becomes Real.logb B t (with traps)")
    f.add_argument("--pi", type=float, default=0.0,
                   help="chance that a constant leaf becomes Real.pi (alone or in a trap)")
    f.add_argument("--progress-every", type=int, default=250)
    f.add_argument("--out", type=Path, default=None)
    f.set_defaults(run=fuzz_frontend)
    x = sub.add_parser("fuzz-context", help="known statements inside Lean file context: read as Lean or refused")
    x.add_argument("--variants", type=int, default=5000)
    x.add_argument("--points", type=int, default=3, help="points per accepted theorem")
    x.add_argument("--seed", type=int, default=0)
    x.add_argument("--progress-every", type=int, default=250)
    x.add_argument("--out", type=Path, default=None)
    x.set_defaults(run=fuzz_context)
    t = sub.add_parser("fuzz-nterm", help="differential fuzzing of statements over n terms (∑, Fin n, Finset.range n)")
    t.add_argument("--statements", type=int, default=300)
    t.add_argument("--points", type=int, default=8, help="points per accepted statement")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--refuse-share", type=float, default=0.22,
                   help="share of statements with a construct the front-end must refuse")
    t.add_argument("--progress-every", type=int, default=50)
    t.add_argument("--out", type=Path, default=None)
    t.set_defaults(run=fuzz_nterm)
    c = sub.add_parser("check-proofs", help="root statements of proof files at random points")
    c.add_argument("root", type=Path, help="a folder (searched for **/proofs/*.json) or one proof file")
    c.add_argument("--points", type=int, default=1000, help="admissible points per file")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--progress-every", type=int, default=25)
    c.add_argument("--out", type=Path, default=None)
    c.set_defaults(run=check_proofs)
    args = ap.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
