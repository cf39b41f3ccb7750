"""The evaluation run: schedule attempts, record each as it finishes, resume, summarize.

Layout of ``OUT`` (see README "Evaluating on benchmarks"): ``records.jsonl`` (one line per
finished problem), ``proofs/<dataset>__<name>.json`` (and its rendered ``.lean``), ``summary.md``,
``run.json``.
Attempts run in child processes (:mod:`prover.eval.isolate`), from a local thread per worker
slot or as Ray tasks (:mod:`prover.eval.ray_backend`). Only the main thread writes records.
"""

from __future__ import annotations

import datetime as _dt
import json
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from prover.benchmark_lines import SkippedLine
from prover.eval.config import DEFAULT_ATTEMPT, EvalConfig
from prover.eval.isolate import Inflight, clean_stale_scratch, run_isolated
from prover.eval.lean_files import write_lean
from prover.eval.machine import machine_info
from prover.eval.progress import EvalProgress
from prover.eval.ray_backend import ray_executor
from prover.eval.records import RecordLog, atomic_write_text
from prover.eval.summary import summary_markdown
from prover.eval.tasks import EvalError, Task, load_known_false, load_tasks

#: Options that must match between a run and its resumption (else the records would mix).
RESUME_KEYS = ("time_limit", "memory_mb", "attempt", "closers_only", "llm", "variants")

__all__ = ["DEFAULT_ATTEMPT", "RESUME_KEYS", "EvalConfig", "RunOutcome", "check_variants_available",
           "proof_filename", "run_eval"]


@dataclass
class RunOutcome:
    out: Path
    total: int
    recorded: int
    new: int
    interrupted: bool
    counts: dict[str, int]
    repaired: list[str]


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def proof_filename(key: str) -> str:
    """``"567neq/P1"`` -> ``"567neq__P1.json"`` (a flat, filesystem-safe name)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key.replace("/", "__"))
    return safe + ".json"


def check_variants_available(variants: str | None) -> None:
    if variants is None:
        return
    if variants != "false":
        raise EvalError(f"--variants must be 'false' (got {variants!r})")
    try:
        from prover.variants import false_variant_report  # noqa: F401
    except ImportError:
        raise EvalError("--variants false needs prover.variants.false_variant_report, which is not "
                        "available yet (oracles work)") from None


def _load_run_json(out: Path, cfg: EvalConfig) -> dict[str, Any] | None:
    rj = out / "run.json"
    if not rj.exists():
        return None
    try:
        run = json.loads(rj.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise EvalError(f"{rj} is not JSON ({exc.msg}); use another --out") from None
    old = run.get("options", {})
    new = cfg.recorded_options()
    diff = [k for k in RESUME_KEYS if old.get(k) != new.get(k)]
    if diff:
        raise EvalError(f"{out} holds a run with other options ({', '.join(f'{k}={old.get(k)!r}' for k in diff)}); "
                        "rerun with the same options to resume, or choose another --out")
    return run


def _make_record(task: Task, result: dict[str, Any], cfg: EvalConfig, proof_path: str | None) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "key": task.key, "id": task.record["id"], "dataset": task.dataset, "file": task.source_file,
        "status": result.get("status", "error"), "time_s": round(float(result.get("time_s") or 0.0), 4),
        "wall_s": result.get("wall_s"), "steps": result.get("steps"), "lemmas": result.get("lemmas"),
        "certificate_size": result.get("certificate_size"), "error": result.get("error"),
        "proof": proof_path, "finished": _now(),
    }
    if cfg.variants:
        rec["variant"] = cfg.variants
    for k in ("counterexample", "variant_how", "stats", "trusted_lemmas", "output_tail", "traceback"):
        if result.get(k):
            rec[k] = result[k]
    return rec


def _local_executor(cfg: EvalConfig, tasks: list[Task], inflight: Inflight,
                    sys_path: list[str]) -> tuple[Callable[[], Iterator[tuple[Task, dict]]], Callable[[], None]]:
    """Run ``tasks`` on ``cfg.workers`` threads, each driving one child process at a time."""
    limits = cfg.limits()
    pool = ThreadPoolExecutor(max_workers=max(1, cfg.workers), thread_name_prefix="eval")
    futures: dict[Future, Task] = {
        pool.submit(run_isolated, cfg.attempt, t.record, cfg.attempt_options(), limits, inflight, sys_path): t
        for t in tasks}

    def results() -> Iterator[tuple[Task, dict]]:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                yield futures[f], f.result()

    def stop() -> None:
        inflight.kill_all()
        pool.shutdown(wait=True, cancel_futures=True)

    return results, stop


def run_eval(cfg: EvalConfig, console: Console | None = None) -> RunOutcome:
    """Run (or resume) an evaluation; returns when every problem is recorded or on interrupt."""
    console = console or Console(stderr=True)
    _check_config(cfg)
    skipped: list[str] = []
    tasks = load_tasks(cfg.inputs, on_skip=_skip_reporter(console, skipped))
    known_false = load_known_false(cfg.inputs)
    out = cfg.out
    out.mkdir(parents=True, exist_ok=True)
    run, session = _start_session(cfg, tasks, known_false, skipped)

    log = RecordLog.open(out / "records.jsonl")
    todo = _open_todo(log, tasks, out, console)
    done_before = len(tasks) - len(todo)
    (out / "proofs").mkdir(exist_ok=True)
    results, stop = _start_attempts(cfg, todo)

    interrupted = False
    new = 0
    old_term = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        with EvalProgress(len(tasks), done_before, console, cfg.rich_progress) as prog:
            try:
                new, interrupted = _record_results(results, cfg, log, prog, console)
            finally:
                stop()
    finally:
        signal.signal(signal.SIGTERM, old_term)
        log.close()
        session["end"] = _now()
        session["interrupted"] = interrupted
        atomic_write_text(out / "run.json", json.dumps(run, indent=1, ensure_ascii=False))
        atomic_write_text(out / "summary.md", summary_markdown(run, log.records))
    counts = _count_statuses(tasks, log.records)
    recorded = sum(counts.values())
    return RunOutcome(out, len(tasks), recorded, new, interrupted, counts, log.repaired)


def _check_config(cfg: EvalConfig) -> None:
    if cfg.time_limit <= 0:
        raise EvalError("--time-limit must be positive")
    if cfg.workers < 1:
        raise EvalError("--workers must be at least 1")
    check_variants_available(cfg.variants)


def _skip_reporter(console: Console, skipped: list[str]) -> Callable[[SkippedLine], None]:
    """The ``on_skip`` of :func:`load_tasks`: collect a skipped line (for run.json) and warn."""

    def skip(line: SkippedLine) -> None:
        skipped.append(str(line))
        console.print(f"[yellow]warning: {escape(str(line))}[/]", highlight=False, soft_wrap=True)

    return skip


def _start_session(cfg: EvalConfig, tasks: list[Task], known_false: dict[str, str],
                   skipped: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Write ``run.json`` with this session appended; returns (run, session) to complete at the end."""
    out = cfg.out
    run = _load_run_json(out, cfg) or {"out": str(out), "sessions": []}
    run["options"] = cfg.recorded_options()
    run["inputs"] = [str(p) for p in cfg.inputs]
    problems: dict[str, list[str]] = {}
    for t in tasks:
        problems.setdefault(t.dataset, []).append(t.key)
    run["problems"] = problems
    run["known_false"] = {k: v for k, v in known_false.items() if any(k == t.key for t in tasks)}
    run["skipped_lines"] = skipped
    kinds = {t.key: t.record["kind"] for t in tasks if isinstance(t.record.get("kind"), str)}
    if kinds:
        run["kinds"] = kinds          # the summary's "proved by kind" table, wherever it is re-read
    session = {"argv": cfg.argv, "start": _now(), "end": None, "machine": machine_info()}
    run["sessions"].append(session)
    atomic_write_text(out / "run.json", json.dumps(run, indent=1, ensure_ascii=False))
    return run, session


def _open_todo(log: RecordLog, tasks: list[Task], out: Path, console: Console) -> list[Task]:
    """The tasks without a record yet; warns about repaired lines and records of other problems."""
    for note in log.repaired:
        console.print(f"[yellow]records.jsonl: {note}; that problem will be attempted again[/]")
    todo = [t for t in tasks if t.key not in log.records]
    stale = set(log.records) - {t.key for t in tasks}
    if stale:
        console.print(f"[yellow]{len(stale)} records in {out} are for problems not in the given files "
                      "(kept, not summarized)[/]")
    return todo


def _start_attempts(cfg: EvalConfig, todo: list[Task]) -> tuple[Callable[[], Iterator[tuple[Task, dict]]],
                                                                 Callable[[], None]]:
    """Start the attempts (local threads or Ray): (an iterator over finished ones, stop)."""
    clean_stale_scratch()
    inflight = Inflight()
    sys_path = [p for p in sys.path if p]  # so file-based or test attempt modules resolve in the child
    if cfg.ray_address:
        return ray_executor(cfg, todo, sys_path)
    return _local_executor(cfg, todo, inflight, sys_path)


def _record_results(results: Callable[[], Iterator[tuple[Task, dict]]], cfg: EvalConfig, log: RecordLog,
                    prog: EvalProgress, console: Console) -> tuple[int, bool]:
    """Record each attempt as it finishes (its proof in ``proofs/``); returns (records written,
    whether an interrupt stopped it)."""
    new = 0
    try:
        for task, result in results():
            if result.get("status") == "interrupted":
                continue
            proof_path = None
            proof = result.get("proof")
            if proof is not None and result.get("status") == "proved":
                name = proof_filename(task.key)
                atomic_write_text(cfg.out / "proofs" / name, json.dumps(proof, indent=1, ensure_ascii=False))
                proof_path = f"proofs/{name}"
            rec = _make_record(task, result, cfg, proof_path)
            if proof_path is not None:
                rec.update(write_lean(cfg.out, proof_path, proof))   # a .lean beside it, or why not
            log.append(rec)
            new += 1
            prog.update(task.key, rec["status"], rec["time_s"])
    except KeyboardInterrupt:
        console.print("[yellow]Interrupted: stopping the attempts in flight…[/]")
        return new, True
    return new, False


def _count_statuses(tasks: list[Task], records: dict[str, dict[str, Any]]) -> dict[str, int]:
    """How many of ``tasks`` have a record of each status."""
    counts: dict[str, int] = {}
    for t in tasks:
        if t.key in records:
            s = records[t.key].get("status", "?")
            counts[s] = counts.get(s, 0) + 1
    return counts


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt

