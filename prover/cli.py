"""The ``prover`` command line. Each command lives in ``prover/commands/<name>.py`` and
registers itself on :data:`app`; this file only wires them together."""

from __future__ import annotations

import importlib

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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
