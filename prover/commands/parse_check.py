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
        from prover.commands.common import fail

        fail(str(exc), json_out)


def _faithful_statement(data: object):
    from prover.verify import statement_from_proof_json

    return statement_from_proof_json(data)


def _check_unguarded(proof_file: str, as_json: bool = False) -> None:
    """The body of ``prover check``, run by :func:`check` in a guarded child process."""
    import json
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape

    from prover.commands.common import fail
    from prover.kernel.check import check_proof
    from prover.verify import project_lemmas

    def rejected(name: str, errors: list[str]) -> None:
        if as_json:
            typer.echo(json.dumps(_verdict_json(proof_file, name, False, errors=errors), ensure_ascii=False))
        else:
            typer.echo(f"REJECTED {name}: {errors[0]}")
        raise typer.Exit(1)

    try:
        data = json.loads(Path(proof_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{proof_file}: {exc}", as_json)
    except (json.JSONDecodeError, RecursionError) as exc:
        rejected(proof_file, [f"not a readable JSON proof file ({type(exc).__name__})"])
    problem = data.get("problem") if isinstance(data, dict) else None
    raw_name = str(problem.get("name", proof_file)) if isinstance(problem, dict) else proof_file
    name = escape(raw_name)
    statement, how = _faithful_statement(data)
    try:
        verdict = check_proof(data, project_lemmas(), statement)
    except Exception as exc:  # noqa: BLE001 - the kernel reports step failures itself; this is a last guard
        rejected(raw_name if as_json else name, [f"internal error in the kernel: {type(exc).__name__}: {exc}"])
    if as_json:
        typer.echo(json.dumps(_verdict_json(
            proof_file, raw_name, verdict.ok, errors=[e[:500] for e in verdict.errors[:20]],
            steps_checked=verdict.steps_checked, statement=how, trusted_lemmas=list(verdict.trusted_lemmas),
            catalogue_digest=verdict.catalogue_digest or None), ensure_ascii=False))
        raise typer.Exit(0 if verdict.ok else 1)
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


def _verdict_json(proof_file: str, name: str, ok: bool, **fields: object) -> dict:
    """``prover check --json``: one object, ``verdict`` ACCEPTED or REJECTED, ``exit_code`` 0 or 1."""
    return {"file": proof_file, "name": name, "verdict": "ACCEPTED" if ok else "REJECTED", "ok": ok,
            **fields, "exit_code": 0 if ok else 1}


@app.command()
def check(
    proof_file: str = typer.Argument(..., help="a proof JSON file (format prover-proof)"),
    time_limit: float = typer.Option(600.0, "--time-limit", help="seconds before the check is stopped (REJECTED)"),
    memory_limit: int = typer.Option(4096, "--memory-limit",
                                     help="MB of memory the check may use on top of the prover's own (0: no limit)"),
    as_json: bool = typer.Option(False, "--json", help="print the verdict (or the error) as one JSON object"),
) -> None:
    """Check a proof with the kernel: prints ACCEPTED or REJECTED (exit 0 only on accept).

    The kernel runs in a child process: past --time-limit, or when it crashes or runs out of
    memory, the proof is REJECTED with one line saying why.
    """
    import json

    from prover.commands.common import fail
    from prover.commands.guard import run_guarded

    if not time_limit > 0:
        fail("--time-limit must be positive", as_json)
    res = run_guarded(_check_unguarded, (proof_file, True) if as_json else (proof_file,), time_limit, memory_limit)
    if res.status == "ok":
        typer.echo(res.out, nl=False)
        typer.echo(res.err, nl=False, err=True)
        raise typer.Exit(res.code)
    if as_json:
        typer.echo(json.dumps(_verdict_json(proof_file, proof_file, False, errors=[res.detail]), ensure_ascii=False))
    else:
        typer.echo(f"REJECTED {proof_file}: {res.detail}")
    raise typer.Exit(1)
