"""``prover page FILE [--out PAGE.html]``: write the page of a saved proof (``proof.json``) or
counterexample (``counterexample.json``) again, e.g. after an upgrade of the page or on another
machine. A proof is checked by the kernel again first and its page shows that verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from prover.cli import app
from prover.commands.common import fail, printable


def _read(path: Path) -> tuple[Path, Any]:
    """The JSON of ``path`` (a file, or a folder holding proof.json or counterexample.json)."""
    if path.is_dir():
        found = [path / n for n in ("proof.json", "counterexample.json") if (path / n).is_file()]
        if not found:
            fail(f"{path}: no proof.json or counterexample.json in this folder")
        path = found[0]
    try:
        return path, json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot read it ({exc})")
    except json.JSONDecodeError as exc:
        fail(f"{path}: not JSON ({exc.msg} at line {exc.lineno})")


def _proof_page(data: Any, path: Path, check: bool) -> tuple[str, bool]:
    """(the page of a saved proof, whether the kernel accepted it; True when not checked)."""
    from prover.ir import IRError, Proof
    from prover.search.page import PageVerdict, check_verdict, command_line, proof_html

    try:
        proof = Proof.from_json(data)
    except IRError as exc:
        fail(f"{path}: {exc}")
    verdict = check_verdict(proof, command_line()) if check else PageVerdict(None, command=command_line())
    stats = proof.meta.get("stats") if isinstance(proof.meta.get("stats"), dict) else None
    return proof_html(proof, proof.problem.name, stats, verdict=verdict), verdict.accepted is not False


def _counterexample_page(data: Any, path: Path) -> str:
    from prover.ir import IRError
    from prover.search.counterexample_page import (
        CounterexampleError,
        counterexample_html,
        read_counterexample,
    )
    from prover.search.page import command_line

    try:
        problem, computed = read_counterexample(data)
    except (CounterexampleError, IRError) as exc:
        fail(f"{path}: {exc}")
    return counterexample_html(problem, computed, command_line())


def _target(src: Path, out: Path | None) -> Path:
    """Where the page goes: ``--out`` (a folder: the page inside it), else beside the source."""
    if out is None:
        return src.with_suffix(".html")
    if out.is_dir():
        return out / src.with_suffix(".html").name
    if not out.parent.is_dir():
        fail(f"--out {out}: the folder {out.parent} does not exist")
    return out


@app.command()
def page(
    file: Path = typer.Argument(..., help="proof.json or counterexample.json (or a folder holding one)"),  # noqa: B008
    out: Path | None = typer.Option(None, "--out", help="the page to write (default: beside FILE, as .html)"),  # noqa: B008
    check: bool = typer.Option(True, "--check/--no-check",
                               help="check a proof with the kernel again and show that verdict (default)"),
) -> None:
    """Write the HTML page of a saved proof or counterexample again.

    Exit codes: 0 written; 1 written, but the kernel rejected the proof; 2 a user error.
    """
    src, data = _read(file)
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == "prover-proof":
        text, ok = _proof_page(data, src, check)
    elif kind == "prover-counterexample":
        text, ok = _counterexample_page(data, src), True
    else:
        fail(f"{src}: neither a proof (format prover-proof) nor a counterexample (format prover-counterexample)")
    target = _target(src, out)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")
    typer.echo(f"wrote {printable(target)}")
    if not ok:
        typer.echo("the kernel did NOT accept this proof (the page says so)")
        raise typer.Exit(1)
