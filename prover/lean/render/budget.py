"""Budgets of a rendered file: ``set_option maxHeartbeats N in`` sized to the estimated work,
and tactic lines longer than the line budget broken over several lines.

The replay model (``prover.lean.replay``) asks for at most ``LINE_BUDGET`` characters a line,
``FILE_BUDGET`` a file, ``set_option maxHeartbeats N in`` before each declaration of a file
over ``HEARTBEAT_THRESHOLD`` characters, and estimated heartbeats within the declaration's
``maxHeartbeats``. :func:`with_heartbeat_options` gives each declaration ``N`` =
``RENDER_HEARTBEAT_MARGIN`` × the model's estimate (:mod:`prover.lean.replay.resources`),
rounded up to ``HEARTBEAT_STEP``, whenever that is above Lean's default or the file is large.
Breaking a line changes nothing for Lean: a term may continue on the next line when that line
is indented deeper than the tactic (Lean's column rule, which the model follows too); the tactic
itself is exactly as large as before.
"""

from __future__ import annotations

import math

from prover.lean.replay import HEARTBEAT_THRESHOLD, LINE_BUDGET, ReplayReport, replay_text
from prover.lean.replay.source import LeanSource

#: Lean's default ``maxHeartbeats``.
DEFAULT_HEARTBEATS = 200_000
#: Heartbeats granted per started ``HEARTBEAT_THRESHOLD`` characters of a large file (twice the
#: default per 20,000 characters: elaboration grows faster than the text).
HEARTBEATS_PER_CHUNK = 400_000
#: Upper bound of the granted heartbeats.
MAX_HEARTBEATS = 8_000_000
#: ``maxHeartbeats`` granted per estimated heartbeat. The estimate's uncertain constants (the
#: ``linarith`` preprocessing costs are assumptions, see ``prover.lean.replay.resources``) may be
#: off by a factor of several; the ``ring`` cost per operation is an upper bound. Twice the estimate
#: is the stated margin.
RENDER_HEARTBEAT_MARGIN = 2
#: Granted budgets are rounded up to a multiple of this.
HEARTBEAT_STEP = 100_000
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


def granted_heartbeats(estimate: int) -> int:
    """``maxHeartbeats`` for a declaration estimated at ``estimate`` heartbeats: the margin times
    the estimate rounded up to ``HEARTBEAT_STEP``, never under Lean's default."""
    return max(DEFAULT_HEARTBEATS, HEARTBEAT_STEP * math.ceil(RENDER_HEARTBEAT_MARGIN * estimate / HEARTBEAT_STEP))


def with_heartbeat_options(text: str) -> str:
    """``text`` (a file with no ``set_option … in`` prefixes) with ``set_option maxHeartbeats N in``
    before each declaration whose granted budget (:func:`granted_heartbeats` of the replay model's
    estimate) is above the default, and before every declaration of a file over
    ``HEARTBEAT_THRESHOLD`` characters (the size-based ``N`` of :func:`heartbeats_for` when larger)."""
    return heartbeat_options(text)[0]


def heartbeat_options(text: str) -> tuple[str, ReplayReport]:
    """:func:`with_heartbeat_options` and the replay model's report on ``text`` without the options
    (its tactics' verdicts are the final file's; only its heartbeat budgets differ)."""
    report = replay_text(text, "<rendered>")
    lines = text.split("\n")
    code = LeanSource(text).lines          # comments blanked: a docstring stays with its theorem
    option_len = len(f"set_option maxHeartbeats {MAX_HEARTBEATS} in\n")
    large = len(text) + option_len * len(report.resources) > HEARTBEAT_THRESHOLD
    by_size = heartbeats_for(len(text) + option_len * len(report.resources)) or DEFAULT_HEARTBEATS
    for res in sorted(report.resources, key=lambda r: r.line, reverse=True):
        n = granted_heartbeats(res.heartbeats)
        if large:
            n = max(n, by_size)
        if n > DEFAULT_HEARTBEATS or large:
            at = res.line - 1          # back to the end of the previous command: before the theorem's
            while at > 0 and (not code[at - 1].strip() or code[at - 1].startswith("@[")):
                at -= 1                    # docstring, comments and attributes (blank in ``code``)
            while at < res.line - 1 and not lines[at].strip():
                at += 1                    # then past blank lines (none of them inside a comment)
            lines.insert(at, f"set_option maxHeartbeats {n} in")
    return "\n".join(lines), report


def tactics_pass(report: ReplayReport) -> bool:
    """Whether every tactic of ``report`` passes the model, size and resource budgets aside."""
    return bool(report.steps) and all(s.ok for s in report.steps if s.kind not in ("budget", "resources"))


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
