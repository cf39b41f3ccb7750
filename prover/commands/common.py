"""Helpers shared by the commands: one-line errors (plain, or JSON in ``--json`` mode), and text
from input files made safe to print (no control characters reach the terminal)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any, NoReturn

import typer

#: Exit status of a user error (bad input, unreadable file, unusable option).
USER_ERROR = 2

#: Unicode categories never printed as they are: controls (newline, CR, ESC, C1 such as NEL),
#: format characters (bidi overrides, zero-width), line/paragraph separators, lone surrogates.
_UNPRINTABLE = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(ch: str) -> str:
    cp = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    if cp < 0x100:
        return f"\\x{cp:02x}"
    return f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def printable(text: object, limit: int | None = None) -> str:
    """``text`` as one line without control characters: each one written as a Python-style
    escape (``\\n``, ``\\x1b``, ``\\u2028``), so that a name or message read from a file can
    neither forge extra output lines nor drive the terminal. ``limit``: at most that many
    characters of ``text`` (before escaping) are shown, then ``…``."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[:limit] + "…"
    if all(unicodedata.category(c) not in _UNPRINTABLE for c in s):
        return s
    return "".join(_escaped(c) if unicodedata.category(c) in _UNPRINTABLE else c for c in s)


def _json_escape(ch: str) -> str:
    cp = ord(ch)
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    cp -= 0x10000
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON, non-ASCII text kept readable but every control or format
    character (which ``json.dumps(ensure_ascii=False)`` leaves raw from U+007F on) written as a
    ``\\u`` escape: the same JSON value, safe on a terminal."""
    text = json.dumps(obj, ensure_ascii=False)   # one line: no raw control character outside strings
    return "".join(_json_escape(c) if unicodedata.category(c) in _UNPRINTABLE else c for c in text)


def fail(msg: str, as_json: bool = False, code: int = USER_ERROR, **extra: Any) -> NoReturn:
    """Report ``msg`` in one line and exit with ``code``: ``error: …`` on stderr, or
    ``{"error": …, "exit_code": …}`` on stdout in ``--json`` mode."""
    from prover.cli import echo_json_error

    first = (str(msg).strip().splitlines() or ["error"])[0]
    if as_json:
        echo_json_error(first, code, **extra)
    else:
        typer.echo(f"error: {printable(first)}", err=True)
    raise typer.Exit(code)
