"""Helpers shared by the commands: one-line errors (plain, or JSON in ``--json`` mode)."""

from __future__ import annotations

from typing import Any, NoReturn

import typer

#: Exit status of a user error (bad input, unreadable file, unusable option).
USER_ERROR = 2


def fail(msg: str, as_json: bool = False, code: int = USER_ERROR, **extra: Any) -> NoReturn:
    """Report ``msg`` in one line and exit with ``code``: ``error: …`` on stderr, or
    ``{"error": …, "exit_code": …}`` on stdout in ``--json`` mode."""
    from prover.cli import echo_json_error

    first = (str(msg).strip().splitlines() or ["error"])[0]
    if as_json:
        echo_json_error(first, code, **extra)
    else:
        typer.echo(f"error: {first}", err=True)
    raise typer.Exit(code)
