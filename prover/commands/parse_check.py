"""``prover parse`` (front-end: show a parsed statement) and ``prover check`` (kernel)."""

from __future__ import annotations

import typer

from prover.cli import app


@app.command()
def parse(
    statement: str = typer.Argument(..., help='FILE.lean[#name], file.jsonl[#id], or "theorem … : … := by sorry"'),
    json_out: bool = typer.Option(False, "--json", help="print a JSON form instead of a table"),
    real_division: bool | None = typer.Option(
        None, "--real-division/--no-real-division",
        help="read every `/` as real division (default: on for .jsonl benchmarks and LIPS headers)"),
) -> None:
    """Parse a Lean 4 theorem statement and show variables, hypotheses and goal."""
    from rich.console import Console

    from prover.commands.prove import warn_skipped_line
    from prover.frontend import ParseError
    from prover.frontend.printer import PrintError
    from prover.frontend.show import dumps, load_spec, render

    try:
        problems = load_spec(statement, real_division=real_division, on_skip=warn_skipped_line)
        if json_out:
            typer.echo(dumps(problems))
            return
        console = Console()
        for p in problems:
            render(p, console)
    except (ParseError, PrintError, OSError, UnicodeDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _faithful_statement(data: object):
    """The theorem as the front-end reads the proof file's Lean text, freshly (never the file's
    own ``statement`` field); None when the file carries no Lean text."""
    from prover.frontend.errors import ParseError
    from prover.frontend.statement import parse_theorem
    from prover.verify import statement_of

    problem = data.get("problem") if isinstance(data, dict) else None
    lean = problem.get("lean") if isinstance(problem, dict) else None
    if not isinstance(lean, str):
        return None, "no Lean text in the file: checked against its own problem section"
    try:
        p = parse_theorem(lean, real_division=bool(problem.get("real_division", True)))
    except ParseError as exc:
        return None, f"its Lean text does not parse ({exc})"
    return statement_of(p), "checked against its Lean statement, read again by the front-end"


def _check_unguarded(proof_file: str) -> None:
    """The body of ``prover check``, run by :func:`check` in a guarded child process."""
    import json
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape

    from prover.kernel.check import check_proof
    from prover.verify import project_lemmas

    try:
        data = json.loads(Path(proof_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"error: {proof_file}: {exc}", err=True)
        raise typer.Exit(2) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        typer.echo(f"REJECTED {proof_file}: not a readable JSON proof file ({type(exc).__name__})")
        raise typer.Exit(1) from None
    problem = data.get("problem") if isinstance(data, dict) else None
    name = escape(str(problem.get("name", proof_file)) if isinstance(problem, dict) else proof_file)
    statement, how = _faithful_statement(data)
    try:
        verdict = check_proof(data, project_lemmas(), statement)
    except Exception as exc:  # noqa: BLE001 - the kernel reports step failures itself; this is a last guard
        typer.echo(f"REJECTED {name}: internal error in the kernel: {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from None
    console = Console(highlight=False, soft_wrap=True)  # one line per error, never wrapped
    if verdict.ok:
        console.print(f"[bold green]ACCEPTED[/] {name} ({verdict.steps_checked} steps)")
        console.print(f"  statement: {escape(how)}")
        for t in verdict.trusted_lemmas:
            console.print(f"  trusts: {escape(t)}")
        if verdict.catalogue_digest:
            console.print(f"  catalogue lemmas used: sha256 {verdict.catalogue_digest[:16]}")
        return
    console.print(f"[bold red]REJECTED[/] {name} ({len(verdict.errors)} errors)")
    for e in verdict.errors[:20]:
        console.print(f"  {escape(e[:500])}")
    raise typer.Exit(1)


@app.command()
def check(
    proof_file: str = typer.Argument(..., help="a proof JSON file (format prover-proof)"),
    time_limit: float = typer.Option(600.0, "--time-limit", help="seconds before the check is stopped (REJECTED)"),
    memory_limit: int = typer.Option(4096, "--memory-limit",
                                     help="MB of memory the check may use on top of the prover's own (0: no limit)"),
) -> None:
    """Check a proof with the kernel: prints ACCEPTED or REJECTED (exit 0 only on accept).

    The kernel runs in a child process: past --time-limit, or when it crashes or runs out of
    memory, the proof is REJECTED with one line saying why.
    """
    from prover.commands.guard import run_guarded

    if not time_limit > 0:
        typer.echo("error: --time-limit must be positive", err=True)
        raise typer.Exit(2)
    res = run_guarded(_check_unguarded, (proof_file,), time_limit, memory_limit)
    if res.status == "ok":
        typer.echo(res.out, nl=False)
        typer.echo(res.err, nl=False, err=True)
        raise typer.Exit(res.code)
    typer.echo(f"REJECTED {proof_file}: {res.detail}")
    raise typer.Exit(1)
