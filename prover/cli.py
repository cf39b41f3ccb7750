"""The ``prover`` command line. Each command lives in ``prover/commands/<name>.py`` and
registers itself on :data:`app`; this file only wires them together."""

from __future__ import annotations

import importlib
import os
import sys

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Olympiad inequality prover with exact, kernel-checked certificates.")



@app.command()
def version() -> None:
    """Print the prover's version."""
    from importlib.metadata import version as _v

    typer.echo(_v("prover"))


COMMAND_MODULES = ("parse_check", "prove", "evaluate", "conformal", "lean")

for _name in COMMAND_MODULES:
    try:
        importlib.import_module(f"prover.commands.{_name}")
    except ModuleNotFoundError as exc:  # a command module not written yet
        if exc.name != f"prover.commands.{_name}":
            raise


#: Exit status of a command that failed with an unexpected exception (a bug, not bad input).
INTERNAL_ERROR = 3


def main() -> None:
    """The ``prover`` entry point: any exception that escapes a command becomes one line
    (``error: internal error: …``, exit 3) instead of a traceback; ``PROVER_DEBUG=1`` shows it."""
    try:
        app()
    except Exception as exc:  # the top-level CLI guard: report, never a traceback
        if os.environ.get("PROVER_DEBUG"):
            raise
        lines = str(exc).strip().splitlines()
        typer.echo(f"error: internal error: {type(exc).__name__}" + (f": {lines[0][:300]}" if lines else "")
                   + " (PROVER_DEBUG=1 shows the traceback)", err=True)
        sys.exit(INTERNAL_ERROR)


if __name__ == "__main__":
    main()
