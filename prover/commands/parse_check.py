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

    from prover.frontend import ParseError
    from prover.frontend.printer import PrintError
    from prover.frontend.show import dumps, load_spec, render

    try:
        problems = load_spec(statement, real_division=real_division)
        if json_out:
            typer.echo(dumps(problems))
            return
        console = Console()
        for p in problems:
            render(p, console)
    except (ParseError, PrintError, OSError, UnicodeDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _catalogue_lookup():
    """The catalogue's lemma lookup (``prover.tactics.catalogue.lemma_lookup()``) if it exists."""
    try:
        from prover.tactics import catalogue  # type: ignore[attr-defined]
    except ImportError:
        return None
    factory = getattr(catalogue, "lemma_lookup", None)
    return factory() if callable(factory) else None


@app.command()
def check(
    proof_file: str = typer.Argument(..., help="a proof JSON file (format prover-proof)"),
) -> None:
    """Check a proof with the kernel: prints ACCEPTED or REJECTED (exit 0 only on accept)."""
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape

    from prover.kernel.check import check_proof
    from prover.kernel.ir import IRError, Proof

    try:
        proof = Proof.loads(Path(proof_file).read_text(encoding="utf-8"))
    except (IRError, OSError, UnicodeDecodeError) as exc:
        typer.echo(f"error: {proof_file}: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        verdict = check_proof(proof, _catalogue_lookup())
    except Exception as exc:  # noqa: BLE001 - the kernel reports step failures itself; this is a last guard
        typer.echo(f"REJECTED {proof.problem.name}: internal error in the kernel: {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from None
    console = Console(highlight=False, soft_wrap=True)  # one line per error, never wrapped
    name = escape(proof.problem.name)
    if verdict.ok:
        console.print(f"[bold green]ACCEPTED[/] {name} ({verdict.steps_checked} steps)")
        for t in verdict.trusted_lemmas:
            console.print(f"  trusts: {escape(t)}")
        return
    console.print(f"[bold red]REJECTED[/] {name} ({len(verdict.errors)} errors)")
    for e in verdict.errors:
        console.print(f"  {escape(e)}")
    raise typer.Exit(1)
