"""Size budgets of a rendered file: ``set_option maxHeartbeats N in`` sized to the proof, and
tactic lines longer than the line budget broken over several lines.

The replay model (``prover.lean.replay``) asks for at most ``LINE_BUDGET`` characters a line,
``FILE_BUDGET`` a file, and ``set_option maxHeartbeats N in`` before each declaration of a file
over ``HEARTBEAT_THRESHOLD`` characters. Breaking a line changes nothing for Lean: a term may
continue on the next line when that line is indented deeper than the tactic (Lean's column rule,
which the model follows too); the tactic itself is exactly as large as before.
"""

from __future__ import annotations

import math

from prover.lean.replay import HEARTBEAT_THRESHOLD, LINE_BUDGET

#: Lean's default ``maxHeartbeats``.
DEFAULT_HEARTBEATS = 200_000
#: Heartbeats granted per started ``HEARTBEAT_THRESHOLD`` characters of a large file (twice the
#: default per 20,000 characters: elaboration grows faster than the text).
HEARTBEATS_PER_CHUNK = 400_000
#: Upper bound of the granted heartbeats.
MAX_HEARTBEATS = 8_000_000
#: Width of the pieces of a broken line (well under the line budget).
WRAP_WIDTH = 4_000


def heartbeats_for(chars: int) -> int | None:
    """``maxHeartbeats`` for a file of ``chars`` characters; None when the default will do
    (the file is not over ``HEARTBEAT_THRESHOLD``)."""
    if chars <= HEARTBEAT_THRESHOLD:
        return None
    return min(MAX_HEARTBEATS, HEARTBEATS_PER_CHUNK * math.ceil(chars / HEARTBEAT_THRESHOLD))


def heartbeat_option(chars: int) -> str:
    """The ``set_option … in`` line for a file of ``chars`` characters (without it), or ''."""
    line = f"set_option maxHeartbeats {MAX_HEARTBEATS} in\n"
    n = heartbeats_for(chars + len(line))
    return f"set_option maxHeartbeats {n} in\n" if n is not None else ""


def _breaks(line: str, top_only: bool) -> list[int]:
    """Positions just after a binary ``+``/``-`` (written `` + ``/`` - ``) where the line may
    break (the operator stays at the end of the line); with ``top_only`` only those outside
    every bracket."""
    out = []
    depth = 0
    for i, ch in enumerate(line):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == " " and line[i + 1:i + 3] in ("+ ", "- ") and i > 0 and (depth == 0 or not top_only):
            out.append(i + 2)
    return out


def _pack(line: str, breaks: list[int], width: int) -> list[str]:
    """Greedy: pieces of at most ``width`` characters where the breaks allow."""
    out: list[str] = []
    start, last = 0, None
    for b in breaks:
        if b - start > width and last is not None and last > start:
            out.append(line[start:last].rstrip())
            start = last
        last = b
    if len(line) - start > width and last is not None and last > start:
        out.append(line[start:last].rstrip())
        start = last
    out.append(line[start:].rstrip())
    return out


def wrap_line(line: str, width: int = WRAP_WIDTH) -> list[str]:
    """``line`` as continuation lines of about ``width`` characters, broken after binary
    ``+``/``-`` (outside brackets when that is enough) and indented four columns deeper;
    unchanged when it is within the line budget, ends with ``by`` (a ``by`` block follows it),
    or starts a ``first`` alternative."""
    if len(line) <= LINE_BUDGET:
        return [line]
    body = line.lstrip()
    if body.startswith("|") or body.rstrip().endswith(" by") or body.rstrip() == "by":
        return [line]
    pad = " " * (len(line) - len(body) + 4)
    out = _pack(line, _breaks(line, True), width)
    if any(len(x) > LINE_BUDGET - len(pad) for x in out):
        out = _pack(line, _breaks(line, False), width)
    return [out[0]] + [pad + piece.lstrip() for piece in out[1:]]


def wrap_lines(lines: list[str], width: int = WRAP_WIDTH) -> list[str]:
    out: list[str] = []
    for ln in lines:
        out += wrap_line(ln, width)
    return out
