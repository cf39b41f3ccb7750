"""``prover lean suggest GOAL|-``: a goal as Lean prints it in, the tactic block that proves it out.

The command-line half of the ``prover?`` tactic (``lean_project/ProverTactic/``, docs/lean-tactic.md):
``GOAL`` is a file holding the goal as Lean pretty-prints it (hypothesis lines ``a b c : ℝ``,
``ha : 0 < a``, then ``⊢ …``), or ``-`` for stdin. The goal is read as a theorem statement
(:mod:`prover.lean.suggest`), proved as ``prover prove`` would, and its rendered proof printed as
the tactic block that goes after ``by`` (``--json``: one object ``{"status", "tactic", "lean",
"time_s", "error", …}``). Exit 0 with a block; 1 without (false, not proved, not rendered); 2 for
input that cannot be read (one line).
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def _read(source: str) -> str:
    if source == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    else:
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"no such file: {source}")
        data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{'stdin' if source == '-' else source}: the goal text is not UTF-8") from None


def suggest(
    goal: str = typer.Argument(..., help="a file with the goal as Lean prints it, or - for stdin"),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds of search"),
    closers_only: bool = typer.Option(False, "--closers-only", help="no search: only the closers on the goal"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Prove a goal printed by Lean (its context lines, then `⊢ goal`; from a file or - for stdin)
    and print the tactic block that proves it, to go after `by` (what the `prover?` tactic offers
    as "Try this:"). Nothing is compiled here: the block is kernel-checked as our proof."""
    from prover.commands.common import USER_ERROR, fail, json_line, printable
    from prover.lean.suggest import GoalTextError
    from prover.lean.suggest import suggest as run_suggest

    if not time_limit > 0:
        fail("--time-limit must be positive", as_json)
    try:
        text = _read(goal)
    except (OSError, ValueError) as exc:
        fail(str(exc), as_json)
    try:
        result = run_suggest(text, time_limit=time_limit, closers_only=closers_only)
    except GoalTextError as exc:
        fail(str(exc), as_json, code=USER_ERROR)
    if as_json:
        typer.echo(json_line(result.to_json()))
    elif result.ok:
        typer.echo(result.tactic)
        if result.replay and not result.replay.startswith("PASS"):
            typer.echo(f"note: replay model (a model of Lean, not Lean): {printable(result.replay)}", err=True)
        if result.imports:
            typer.echo(f"note: the proof needs `import {result.imports[0]}`", err=True)
        if result.max_heartbeats:
            typer.echo(f"note: the rendered file sets `set_option maxHeartbeats {result.max_heartbeats} in` "
                       "before the theorem", err=True)
    else:
        typer.echo(f"{result.status}: {printable(result.error or 'no proof')}", err=True)
    raise typer.Exit(0 if result.ok else 1)
