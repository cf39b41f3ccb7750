"""``prover parse`` (front-end: show a parsed statement) and ``prover check`` (kernel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from prover.cli import app

if TYPE_CHECKING:
    from prover.verify import ClaimedTheorem


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


#: Exit status of ``prover check`` when the proof's Lean text cannot be read: nothing was checked.
NOT_READ = 3


def _check_unguarded(proof_file: str, as_json: bool = False) -> None:
    """The body of ``prover check``, run by :func:`check` in a guarded child process.

    The verdict names the theorem checked: the Lean declaration read from the proof's Lean text
    (and the problem's name when it differs), every string from the file printed escaped."""
    import json
    from pathlib import Path

    from prover.commands.common import fail
    from prover.verify import read_claimed_theorem

    try:
        data = json.loads(Path(proof_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{proof_file}: {exc}", as_json)
    except (json.JSONDecodeError, RecursionError) as exc:
        _refuse(proof_file, proof_file, f"not a readable JSON proof file ({type(exc).__name__})", as_json)
    claim = read_claimed_theorem(data)
    raw_name = claim.problem_name or proof_file
    if claim.refusal:
        _refuse(proof_file, raw_name, claim.refusal, as_json, NOT_READ if claim.unreadable else 1,
                declaration=claim.declaration)
    _check_claim(proof_file, data, claim, raw_name, as_json)


def _check_claim(proof_file: str, data: object, claim: ClaimedTheorem, raw_name: str, as_json: bool) -> None:
    """The kernel's verdict on ``data`` against the theorem its Lean text states (``claim``)."""
    from rich.console import Console
    from rich.markup import escape

    from prover.commands.common import json_line, printable
    from prover.verify import check_against_claim, project_lemmas

    try:
        verdict = check_against_claim(data, claim, project_lemmas())
    except Exception as exc:  # noqa: BLE001 - the kernel reports step failures itself; this is a last guard
        _refuse(proof_file, raw_name, f"internal error in the kernel: {type(exc).__name__}: {exc}", as_json,
                declaration=claim.declaration)
    if as_json:
        typer.echo(json_line(_verdict_json(
            proof_file, raw_name, verdict.ok, declaration=claim.declaration,
            errors=[e[:500] for e in verdict.errors[:20]], steps_checked=verdict.steps_checked,
            statement=claim.how, trusted_lemmas=list(verdict.trusted_lemmas),
            catalogue_digest=verdict.catalogue_digest or None)))
        raise typer.Exit(0 if verdict.ok else 1)
    console = Console(highlight=False, soft_wrap=True, emoji=False)  # one line per error, never wrapped
    name = escape(_shown_name(raw_name, claim.declaration))
    if verdict.ok:
        console.print(f"[bold green]ACCEPTED[/] {name} ({verdict.steps_checked} steps)")
        console.print(f"  statement: {escape(printable(claim.how))}")
        for t in verdict.trusted_lemmas:
            console.print(f"  trusts: {escape(printable(t))}")
        if verdict.catalogue_digest:
            console.print(f"  catalogue lemmas used: sha256 {verdict.catalogue_digest[:16]}")
        return
    console.print(f"[bold red]REJECTED[/] {name} ({len(verdict.errors)} errors)")
    for e in verdict.errors[:20]:
        console.print(f"  {escape(printable(e, 500))}")
    raise typer.Exit(1)


def _shown_name(problem_name: str, declaration: str | None) -> str:
    """The theorem a verdict is about, escaped: the Lean declaration read, with the problem's
    name when it differs (a benchmark id such as ``mo-int-20/P1`` for theorem ``P1``)."""
    from prover.commands.common import printable

    if declaration is None or declaration == problem_name:
        return printable(problem_name, 200)
    return f"{printable(declaration, 200)} (problem {printable(problem_name, 200)})"


def _refuse(proof_file: str, name: str, why: str, as_json: bool, code: int = 1,
            declaration: str | None = None) -> None:
    """One line, ``REJECTED name: why`` (exit 1), or ``UNREADABLE name: why`` (exit
    :data:`NOT_READ`: the proof's Lean text cannot be read, nothing was checked)."""
    from prover.commands.common import json_line, printable

    if as_json:
        typer.echo(json_line(_verdict_json(proof_file, name, False, code=code, declaration=declaration,
                                           errors=[why[:500]])))
    else:
        word = "UNREADABLE" if code == NOT_READ else "REJECTED"
        typer.echo(f"{word} {printable(name, 200)}: {printable(why, 500)}")
    raise typer.Exit(code)


def _verdict_json(proof_file: str, name: str, ok: bool, code: int | None = None, **fields: object) -> dict:
    """``prover check --json``: one object, ``verdict`` ACCEPTED, REJECTED or UNREADABLE,
    ``exit_code`` 0, 1 or 3 (:data:`NOT_READ`)."""
    code = (0 if ok else 1) if code is None else code
    verdict = "ACCEPTED" if ok else "UNREADABLE" if code == NOT_READ else "REJECTED"
    return {"file": proof_file, "name": name, "verdict": verdict, "ok": ok, **fields, "exit_code": code}


@app.command()
def check(
    proof_file: str = typer.Argument(..., help="a proof JSON file (format prover-proof)"),
    time_limit: float = typer.Option(600.0, "--time-limit", help="seconds before the check is stopped (REJECTED)"),
    memory_limit: int = typer.Option(4096, "--memory-limit",
                                     help="MB of memory the check may use on top of the prover's own (0: no limit)"),
    as_json: bool = typer.Option(False, "--json", help="print the verdict (or the error) as one JSON object"),
) -> None:
    """Check a proof with the kernel: prints ACCEPTED or REJECTED (exit 0 only on accept).

    The verdict names the theorem checked: the Lean declaration read again from the proof's Lean
    text (its `lean_name`, else the text's one theorem), which must be the proof's own problem
    (the same name, or the last part of a benchmark id: `P1` for `mo-int-20/P1`), else REJECTED.
    A proof whose Lean text cannot be read is not checked: UNREADABLE, exit 3. A proof without
    Lean text is checked against its own problem section, and the output says so.

    The kernel runs in a child process: past --time-limit, or when it crashes or runs out of
    memory, the proof is REJECTED with one line saying why. Exit codes: 0 ACCEPTED, 1 REJECTED,
    2 a user error (unreadable file, bad option), 3 UNREADABLE.
    """
    from prover.commands.common import fail, json_line, printable
    from prover.commands.guard import run_guarded

    if not time_limit > 0:
        fail("--time-limit must be positive", as_json)
    res = run_guarded(_check_unguarded, (proof_file, True) if as_json else (proof_file,), time_limit, memory_limit)
    if res.status == "ok":
        typer.echo(res.out, nl=False)
        typer.echo(res.err, nl=False, err=True)
        raise typer.Exit(res.code)
    if as_json:
        typer.echo(json_line(_verdict_json(proof_file, proof_file, False, errors=[res.detail])))
    else:
        typer.echo(f"REJECTED {printable(proof_file)}: {printable(res.detail)}")
    raise typer.Exit(1)
