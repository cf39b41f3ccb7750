"""``prover eval``: batch evaluation on benchmark files, and ``--compare`` of two runs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prover.cli import app

if TYPE_CHECKING:
    from prover.eval.runner import RunOutcome


def _fail(msg: str, as_json: bool = False) -> None:
    from prover.commands.common import fail

    fail(msg, as_json)


def _check_llm(spec: str | None, as_json: bool) -> None:
    """Probe ``--llm`` once here, so that an unusable one fails before any attempt starts."""
    if spec is None or spec.strip().lower() in ("", "none"):
        return
    from prover.llm.base import LLMError
    from prover.llm.spec import make_checked_backend

    try:
        make_checked_backend(spec)
    except (LLMError, ImportError) as exc:
        _fail(f"--llm {spec}: {(str(exc).strip().splitlines() or [type(exc).__name__])[0]}", as_json)


@app.command("eval")
def eval_command(
    benchmarks: Annotated[list[Path] | None, typer.Argument(help="Benchmark JSONL files (fields id, lean, …).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Results folder; rerun the same command to resume.")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per problem (given to the prover).")] = 60.0,
    workers: Annotated[int, typer.Option("--workers", help="Problems attempted in parallel.")] = 1,
    memory_limit: Annotated[int, typer.Option("--memory-limit",
                                              help="Address-space limit per attempt, MB (0: none).")] = 4096,
    grace: Annotated[float, typer.Option("--grace",
                                         help="Extra wall seconds (start-up) before an attempt is killed.")] = 10.0,
    closers_only: Annotated[bool, typer.Option("--closers-only", help="Closers alone, no search.")] = False,
    llm: Annotated[str | None, typer.Option("--llm", help="LLM spec passed to the prover.")] = None,
    variants: Annotated[str | None, typer.Option(
        "--variants", help="'false': attempt the FALSE variant of each problem "
                           "(a 'proved' is then a soundness failure).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="Ray cluster address, or 'local' (needs the ray extra).")] = None,
    attempt: Annotated[str, typer.Option("--attempt", hidden=True,
                                         help="MODULE:FUNCTION or FILE.py:FUNCTION doing one attempt.")
                       ] = "prover.eval.attempt:run_attempt",
    compare: Annotated[tuple[str, str] | None, typer.Option(
        "--compare", help="Compare two result folders: RUN_A RUN_B.")] = None,
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress",
                                                  help="Progress bar (default: only on a terminal).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary (or the comparison, or the error) "
                                                         "as one JSON object on stdout.")] = False,
) -> None:
    """Attempt every problem of the benchmark files, each in its own process under hard limits.

    Records go to OUT/records.jsonl as each problem finishes (proofs in OUT/proofs/, tables in
    OUT/summary.md); rerunning the same command resumes where a killed run stopped.
    """
    from prover.eval.tasks import EvalError

    try:
        if compare:
            _print_comparison(compare, benchmarks, as_json)
            return
        _check_inputs(benchmarks, out, llm, as_json)
        from prover.eval.runner import EvalConfig, run_eval

        cfg = EvalConfig(inputs=list(benchmarks), out=out, time_limit=time_limit, workers=workers,
                         memory_mb=memory_limit, grace=grace, attempt=attempt, closers_only=closers_only,
                         llm=llm, variants=variants, ray_address=ray,
                         rich_progress=False if as_json and progress is None else progress)
        outcome = run_eval(cfg)
        if as_json:
            _echo_json_summary(out, outcome)
    except EvalError as exc:
        _fail(str(exc), as_json)
        return
    except OSError as exc:
        _fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "), as_json)
        return
    _report_run(out, outcome, as_json)


def _print_comparison(compare: tuple[str, str], benchmarks: list[Path] | None, as_json: bool) -> None:
    """``--compare RUN_A RUN_B``: the comparison as Markdown, or as JSON."""
    import json

    from prover.eval.summary import compare_data, compare_markdown

    if benchmarks:
        _fail("--compare takes two result folders and no benchmark files", as_json)
    if as_json:
        typer.echo(json.dumps(compare_data(Path(compare[0]), Path(compare[1])), ensure_ascii=False))
    else:
        typer.echo(compare_markdown(Path(compare[0]), Path(compare[1])), nl=False)


def _check_inputs(benchmarks: list[Path] | None, out: Path | None, llm: str | None, as_json: bool) -> None:
    """Refuse a run without benchmark files or ``--out``, a missing file, or an unusable ``--llm``."""
    if not benchmarks:
        _fail("give benchmark files (prover eval BENCH.jsonl … --out DIR) or --compare RUN_A RUN_B", as_json)
    if out is None:
        _fail("--out DIR is required (the results folder; rerun the same command to resume)", as_json)
    missing = [str(b) for b in benchmarks if not b.is_file()]
    if missing:
        _fail(f"benchmark file not found: {missing[0]}", as_json)
    _check_llm(llm, as_json)


def _echo_json_summary(out: Path, outcome: RunOutcome) -> None:
    """``--json``: the run's summary and this session's outcome as one JSON object on stdout."""
    import json

    from prover.eval.summary import load_run, summary_data

    run, records = load_run(out)
    data = summary_data(run, records)
    data.update(total=outcome.total, recorded=outcome.recorded, new=outcome.new,
                interrupted=outcome.interrupted, counts=outcome.counts,
                exit_code=130 if outcome.interrupted else 0)
    typer.echo(json.dumps(data, ensure_ascii=False, default=str))


def _report_run(out: Path, outcome: RunOutcome, as_json: bool) -> None:
    """Print summary.md without its per-problem table (not with ``--json``); after an interrupt,
    how to resume (exit 130)."""
    if not as_json:
        text = (out / "summary.md").read_text(encoding="utf-8")
        head, table, _ = text.partition("## Problems")
        typer.echo(head.rstrip() + "\n", nl=False)
        if table:
            typer.echo(f"\nPer problem (status, time, links to each proof and its .lean): {out / 'summary.md'}")
    if outcome.interrupted:
        typer.echo(f"Interrupted after {outcome.recorded}/{outcome.total} problems recorded in {out}. "
                   f"Resume with:\n  prover {shlex.join(sys.argv[1:])}", err=True)
        raise typer.Exit(130)
