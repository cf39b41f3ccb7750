"""Markdown tables from a run's records: the per-dataset summary (with a per-problem table at its
end, :mod:`prover.eval.problem_table`) and the comparison of two runs.

When the benchmark lines carry a ``kind`` field (family suites such as ``benchmarks/composed.jsonl``:
``seed``, ``type1``, ``type2``), the summary adds a table "proved by kind", so that seeds and their
variants are reported separately.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

from prover.benchmark_lines import read_records as read_benchmark_lines
from prover.eval.problem_table import problem_table
from prover.eval.records import read_records
from prover.eval.tasks import EvalError

#: Statuses in display order; anything else is listed after them.
STATUS_ORDER = ("proved", "not_proved", "counterexample", "timeout", "memory", "crashed", "error",
                "rejected", "no_variant")

#: Order of the rows of the "proved by kind" table; other kinds follow, sorted, then "(none)"
#: for problems whose line has no ``kind``.
KIND_ORDER = ("seed", "type1", "type2")
NO_KIND = "(none)"


def _fmt_time(xs: list[float]) -> str:
    return f"{median(xs):.2f}" if xs else "–"


def _status_counts(recs: list[dict[str, Any]]) -> str:
    c = Counter(r.get("status", "?") for r in recs)
    keys = [s for s in STATUS_ORDER if s in c] + sorted(k for k in c if k not in STATUS_ORDER)
    return ", ".join(f"{k} {c[k]}" for k in keys) or "–"


def early_give_ups(run: dict[str, Any], records: dict[str, dict[str, Any]]) -> dict[str, bool]:
    """``not_proved`` records that used less than half the time limit, each with whether the
    search had nothing left to try (its escalation levels spent: ``stats["exhausted"]``)."""
    limit = run.get("options", {}).get("time_limit")
    if not isinstance(limit, (int, float)) or limit <= 0:
        return {}
    return {k: bool((r.get("stats") or {}).get("exhausted")) for k, r in sorted(records.items())
            if r.get("status") == "not_proved" and float(r.get("time_s") or 0.0) < 0.5 * limit}


def summary_markdown(run: dict[str, Any], records: dict[str, dict[str, Any]]) -> str:
    """The run's ``summary.md``: per dataset solved/total, median time of solved, status counts."""
    problems: dict[str, list[str]] = run["problems"]
    known_false: dict[str, str] = run.get("known_false", {})
    false_mode = run.get("options", {}).get("variants") == "false"
    lines = _summary_preamble(run, false_mode)
    rows, unsound, tot = _summary_rows(problems, records, known_false, false_mode)
    lines += rows
    lines.append("")
    if known_false and not false_mode:
        lines.append("Excluded (known false as stated, see benchmarks/README.md): "
                     + "; ".join(f"`{k}` ({v}; this run: {records.get(k, {}).get('status', 'not attempted')})"
                                 for k, v in known_false.items()
                                 if any(k in ids for ids in problems.values())) + ".")
        lines.append("")
    if not false_mode:
        lines += _kind_table(kind_data(problems, records, known_false, problem_kinds(run)))
    lines += _summary_notes(run, records, unsound, false_mode, tot)
    lines += ["", *problem_table(problems, records, {} if false_mode else known_false)]
    return "\n".join(lines).rstrip() + "\n"


def _summary_preamble(run: dict[str, Any], false_mode: bool) -> list[str]:
    """The title, the options, machine and sessions of the run, and the table's header."""
    lines = [f"# Evaluation summary: `{run.get('out', '')}`", ""]
    opts = run.get("options", {})
    m = (run.get("sessions") or [{}])[-1].get("machine", {})
    lines.append(f"Time limit {opts.get('time_limit')} s, memory limit {opts.get('memory_mb')} MB, "
                 f"workers {opts.get('workers')}, attempt `{opts.get('attempt')}`"
                 + (", closers only" if opts.get("closers_only") else "")
                 + (f", llm `{opts.get('llm')}`" if opts.get("llm") else "") + ".")
    if m:
        lines.append(f"Machine: {m.get('cpu_model')}, {m.get('cores')} cores, {m.get('memory_gib')} GiB, "
                     f"load {m.get('load_avg')} at start; git {(m.get('git') or {}).get('commit')}.")
    sessions = run.get("sessions") or []
    if sessions:
        lines.append(f"Sessions: {len(sessions)} (first started {sessions[0].get('start')}, "
                     f"last ended {sessions[-1].get('end') or 'still running'}).")
    lines.append("")
    if false_mode:
        lines += ["**FALSE variants** of each problem: a `proved` record is a soundness failure.", "",
                  "| dataset | attempted/total | proved (UNSOUND) | counterexample | median time (s) | statuses |",
                  "|---|---|---|---|---|---|"]
    else:
        lines += [("| dataset | proved/total | excluded (known false) | share proved"
                   " | median time of proved (s) | attempted | statuses |"), "|---|---|---|---|---|---|---|"]
    return lines


def _summary_rows(problems: dict[str, list[str]], records: dict[str, dict[str, Any]], known_false: dict[str, str],
                  false_mode: bool) -> tuple[list[str], list[str], Counter]:
    """The table's rows (one per dataset, then **all**), the unsound keys, and the totals."""
    lines: list[str] = []
    unsound: list[str] = []
    tot: Counter = Counter()
    all_times: list[float] = []
    for ds, ids in problems.items():
        recs = [records[i] for i in ids if i in records]
        proved = [r for r in recs if r.get("status") == "proved"]
        times = [float(r.get("time_s") or 0.0) for r in proved]
        all_times += times
        excluded = [i for i in ids if i in known_false]
        if false_mode:
            unsound += [r["key"] for r in proved]
            cex = sum(r.get("status") == "counterexample" for r in recs)
            all_t = [float(r.get("time_s") or 0.0) for r in recs]
            lines.append(f"| {ds} | {len(recs)}/{len(ids)} | {len(proved)} | {cex} | {_fmt_time(all_t)}"
                         f" | {_status_counts(recs)} |")
        else:
            unsound += [r["key"] for r in proved if r["key"] in known_false]
            ok = [r for r in proved if r["key"] not in known_false]
            denom = len(ids) - len(excluded)
            share = f"{100 * len(ok) / denom:.1f}%" if denom else "–"
            lines.append(f"| {ds} | {len(ok)}/{denom} | {len(excluded)} | {share} | {_fmt_time(times)}"
                         f" | {len(recs)}/{len(ids)} | {_status_counts(recs)} |")
            tot["ok"] += len(ok)
            tot["denom"] += denom
            tot["excluded"] += len(excluded)
        tot["recs"] += len(recs)
        tot["ids"] += len(ids)
    if not false_mode and len(problems) > 1:
        share = f"{100 * tot['ok'] / tot['denom']:.1f}%" if tot["denom"] else "–"
        lines.append(f"| **all** | {tot['ok']}/{tot['denom']} | {tot['excluded']} | {share} | "
                     f"{_fmt_time(all_times)} | {tot['recs']}/{tot['ids']} | "
                     f"{_status_counts(list(records.values()))} |")
    return lines, unsound, tot


def problem_kinds(run: dict[str, Any]) -> dict[str, str]:
    """Problem id -> the ``kind`` field of its benchmark line: ``run["kinds"]`` when the run
    stores it, else read again from the run's input files (a file that cannot be read any more
    is left out). Empty when no line has a string ``kind``."""
    stored = run.get("kinds")
    if isinstance(stored, dict):
        return {str(k): str(v) for k, v in stored.items()}
    kinds: dict[str, str] = {}
    for f in run.get("inputs") or []:
        try:
            lines, _ = read_benchmark_lines(Path(f), require_id=True)
        except (OSError, UnicodeDecodeError):
            continue
        kinds.update({r.entry["id"]: r.entry["kind"] for r in lines if isinstance(r.entry.get("kind"), str)})
    return kinds


def kind_data(problems: dict[str, list[str]], records: dict[str, dict[str, Any]], known_false: dict[str, str],
              kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Rows ``{kind, proved, total, share_proved}`` per kind (``KIND_ORDER`` first), then
    ``all``; known-false problems are left out of ``total`` and ``proved``. Empty when no
    problem of the run has a kind."""
    ids = [i for group in problems.values() for i in group]
    if not any(i in kinds for i in ids):
        return []
    groups: dict[str, list[str]] = {}
    for i in ids:
        groups.setdefault(kinds.get(i, NO_KIND), []).append(i)
    order = ([k for k in KIND_ORDER if k in groups]
             + sorted(k for k in groups if k not in KIND_ORDER and k != NO_KIND)
             + ([NO_KIND] if NO_KIND in groups else []))
    return [_kind_row(k, groups[k], records, known_false) for k in order] + [_kind_row("all", ids, records, known_false)]


def _kind_row(kind: str, ids: list[str], records: dict[str, dict[str, Any]],
              known_false: dict[str, str]) -> dict[str, Any]:
    counted = [i for i in ids if i not in known_false]
    proved = sum(records.get(i, {}).get("status") == "proved" for i in counted)
    return {"kind": kind, "proved": proved, "total": len(counted),
            "share_proved": proved / len(counted) if counted else None}


def _kind_table(rows: list[dict[str, Any]]) -> list[str]:
    """The "proved by kind" table (no lines when ``rows`` is empty)."""
    if not rows:
        return []
    lines = [("Proved by kind (the `kind` field of the benchmark lines: seeds and their variants"
              " reported separately):"), "", "| kind | proved | total | share proved |", "|---|---|---|---|"]
    for r in rows:
        name = f"**{r['kind']}**" if r["kind"] == "all" else r["kind"]
        share = f"{100 * r['share_proved']:.1f}%" if r["share_proved"] is not None else "–"
        lines.append(f"| {name} | {r['proved']} | {r['total']} | {share} |")
    return lines + [""]


def _summary_notes(run: dict[str, Any], records: dict[str, dict[str, Any]], unsound: list[str],
                   false_mode: bool, tot: Counter) -> list[str]:
    """The closing notes: unchecked proofs, soundness failures, an incomplete run."""
    lines: list[str] = []
    opts = run.get("options", {})
    unchecked = [k for k, r in records.items()
                 if r.get("status") == "proved" and (r.get("stats") or {}).get("kernel_checked") is False]
    if unchecked:
        lines.append(f"Note: {len(unchecked)} `proved` records are NOT kernel-checked proofs (the attempt "
                     f"`{opts.get('attempt')}` reports another tool's verdict, for comparison only).")
    if unsound:
        lines.append(f"**SOUNDNESS FAILURE**: proved but false: {', '.join(unsound)}")
    elif false_mode:
        lines.append("No false variant was proved.")
    early = early_give_ups(run, records)
    if early and not false_mode:
        lines.append(f"`not_proved` with more than half the budget left: {len(early)} — "
                     + ", ".join(f"`{k}` ({'nothing left to try' if ex else 'stopped early'})"
                                 for k, ex in early.items()) + ".")
    if tot["recs"] < tot["ids"]:
        lines.append(f"Incomplete run: {tot['ids'] - tot['recs']} problems not attempted yet "
                     "(rerun the same command to resume).")
    return lines


def load_run(path: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(run.json, records) of a results folder."""
    rj = path / "run.json"
    if not rj.is_file():
        raise EvalError(f"not a run folder (no run.json): {path}")
    return json.loads(rj.read_text(encoding="utf-8")), read_records(path / "records.jsonl")


def compare_data(a: Path, b: Path) -> dict[str, Any]:
    """Problems gained and lost from run A to run B, and time ratios B/A on problems both proved
    (the data of :func:`compare_markdown`, also ``prover eval --compare --json``)."""
    run_a, rec_a = load_run(a)
    run_b, rec_b = load_run(b)
    proved_a = {k for k, r in rec_a.items() if r.get("status") == "proved"}
    proved_b = {k for k, r in rec_b.items() if r.get("status") == "proved"}
    common = set(rec_a) & set(rec_b)
    names = list(dict.fromkeys([*run_a["problems"], *run_b["problems"]]))
    datasets: list[dict[str, Any]] = []
    gained_all: list[str] = []
    lost_all: list[str] = []
    ratios_all: list[float] = []
    for ds in names:
        ids = [i for i in dict.fromkeys(run_a["problems"].get(ds, []) + run_b["problems"].get(ds, []))
               if i in common]
        gained = [i for i in ids if i in proved_b and i not in proved_a]
        lost = [i for i in ids if i in proved_a and i not in proved_b]
        both = [i for i in ids if i in proved_a and i in proved_b]
        ratios = [_ratio(rec_b[i], rec_a[i]) for i in both]
        ratios = [r for r in ratios if r is not None]
        gained_all += gained
        lost_all += lost
        ratios_all += ratios
        datasets.append({"dataset": ds, "proved_a": sum(i in proved_a for i in ids),
                         "proved_b": sum(i in proved_b for i in ids), "gained": gained, "lost": lost,
                         "both_proved": len(both), "median_time_ratio": median(ratios) if ratios else None})
    ratio = None
    if ratios_all:
        ratio = {"problems": len(ratios_all), "median": median(ratios_all),
                 "geometric_mean": math.exp(sum(math.log(r) for r in ratios_all) / len(ratios_all)),
                 "min": min(ratios_all), "max": max(ratios_all)}
    return {"a": str(a), "b": str(b), "common": len(common), "datasets": datasets, "gained": gained_all,
            "lost": [{"id": i, "status_b": rec_b[i].get("status")} for i in lost_all], "time_ratio": ratio,
            "only_one_run": len(set(rec_a) ^ set(rec_b))}


def compare_markdown(a: Path, b: Path) -> str:
    """Problems gained and lost from run A to run B, and time ratios B/A on problems both proved."""
    d = compare_data(a, b)
    lines = [f"# Comparison: A = `{a}`, B = `{b}`", "",
             f"Problems attempted in both runs: {d['common']}.", "",
             "| dataset | proved A | proved B | gained | lost | both proved | median time ratio B/A |",
             "|---|---|---|---|---|---|---|"]
    for r in d["datasets"]:
        med = r["median_time_ratio"]
        lines.append(f"| {r['dataset']} | {r['proved_a']} | {r['proved_b']} | "
                     f"{len(r['gained'])} | {len(r['lost'])} | {r['both_proved']} | "
                     f"{f'{med:.2f}' if med is not None else '–'} |")
    lines.append("")
    lines.append("Gained (proved in B, not in A): " + (", ".join(d["gained"]) or "none") + ".")
    lines.append("Lost (proved in A, not in B): "
                 + (", ".join(f"{x['id']} (B: {x['status_b']})" for x in d["lost"]) or "none") + ".")
    t = d["time_ratio"]
    if t:
        lines.append(f"Time ratio B/A over {t['problems']} problems both proved: median "
                     f"{t['median']:.2f}, geometric mean {t['geometric_mean']:.2f}, min {t['min']:.2f}, "
                     f"max {t['max']:.2f} (below 1: B is faster).")
    if d["only_one_run"]:
        lines.append(f"Attempted in only one run (not compared): {d['only_one_run']}.")
    return "\n".join(lines) + "\n"


def summary_data(run: dict[str, Any], records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per dataset: proved/total (known-false problems excluded), median time of proved, status
    counts, and ``by_kind`` (:func:`kind_data`; empty without ``kind`` fields or for FALSE
    variants); the machine-readable form of :func:`summary_markdown` (``prover eval --json``)."""
    problems: dict[str, list[str]] = run["problems"]
    known_false: dict[str, str] = run.get("known_false", {})
    false_mode = run.get("options", {}).get("variants") == "false"
    out: list[dict[str, Any]] = []
    unsound: list[str] = []
    for ds, ids in problems.items():
        recs = [records[i] for i in ids if i in records]
        proved = [r for r in recs if r.get("status") == "proved"]
        excluded = [i for i in ids if i in known_false and not false_mode]
        ok = [r for r in proved if r["key"] not in excluded]
        unsound += [r["key"] for r in proved if false_mode or r["key"] in known_false]
        times = [float(r.get("time_s") or 0.0) for r in ok]
        out.append({"dataset": ds, "total": len(ids), "attempted": len(recs), "proved": len(ok),
                    "excluded_known_false": excluded, "share_proved": len(ok) / (len(ids) - len(excluded))
                    if len(ids) > len(excluded) else None,
                    "median_time_proved_s": median(times) if times else None,
                    "statuses": dict(Counter(r.get("status", "?") for r in recs))})
    by_kind = [] if false_mode else kind_data(problems, records, known_false, problem_kinds(run))
    return {"out": run.get("out"), "options": run.get("options", {}), "false_variants": false_mode,
            "datasets": out, "by_kind": by_kind, "unsound": unsound,
            "records": [{"key": k, "status": r.get("status"), "time_s": r.get("time_s"), "steps": r.get("steps"),
                         "proof": r.get("proof"), "lean": r.get("lean"), "lean_error": r.get("lean_error"),
                         "error": r.get("error")} for k, r in records.items()]}


def _ratio(rb: dict[str, Any], ra: dict[str, Any]) -> float | None:
    ta, tb = float(ra.get("time_s") or 0.0), float(rb.get("time_s") or 0.0)
    floor = 1e-3  # times below a millisecond are noise; keep the ratio finite
    return max(tb, floor) / max(ta, floor)
