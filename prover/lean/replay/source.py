"""Top-level structure of a Lean file: comments stripped, commands, declarations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


def strip_comments(text: str) -> str:
    """Block comments (nested) and line comments replaced by spaces, newlines kept."""
    out, i, n, depth = [], 0, len(text), 0
    while i < n:
        if text.startswith("/-", i):
            depth += 1
            out.append("  ")
            i += 2
            continue
        if depth and text.startswith("-/", i):
            depth -= 1
            out.append("  ")
            i += 2
            continue
        ch = text[i]
        if depth:
            out.append("\n" if ch == "\n" else " ")
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass
class Decl:
    kind: str              # theorem | lemma | example
    name: str
    full_name: str
    line: int
    signature_text: str    # binders and type, without the name and ":= by"
    body: list[tuple[int, str]]   # (line number, text) of the tactic block
    heartbeats: int | None
    proof_style: str       # "by" | "term"
    term_text: str = ""
    rec_depth: int | None = None   # from ``set_option maxRecDepth N in``


def _split_header(htext: str, sig_start: int, start: int,
                  body: list[tuple[int, str]]) -> tuple[str, str, str, list[tuple[int, str]]]:
    """Signature, proof style, proof term and body of a declaration header (``:= by tac`` joins the body)."""
    mm = re.search(r":=\s*(by)?\s*$", htext)
    sig = htext[sig_start:]
    style = "by"
    term = ""
    if mm:
        sig = sig[: len(sig) - len(mm.group(0))] if sig.endswith(mm.group(0)) else sig
        sig = re.sub(r":=\s*(by)?\s*$", "", sig)
        style = "by" if mm.group(1) else "term"
    else:
        idx = htext.find(":= by ")
        if idx >= 0:
            sig = htext[sig_start:idx]
            body = [(start + 1, " " * 2 + htext[idx + 6:])] + body
        else:
            idx = htext.find(":=")
            sig = htext[sig_start:idx] if idx >= 0 else sig
            style = "term"
            term = htext[idx + 2:] if idx >= 0 else ""
    return sig, style, term, body


def _track_namespace(ns: list[str], s: str) -> None:
    """Update the open-namespace stack ``ns`` for a ``namespace``/``end`` command."""
    m = re.match(r"namespace\s+(\S+)", s)
    if m:
        ns.append(m.group(1))
    elif re.match(r"end\b", s):
        parts = s.split()
        if ns and (len(parts) == 1 or ns[-1] == parts[1]):
            ns.pop()


class LeanSource:
    """Top-level commands of a Lean file: imports, opens, namespaces, declarations."""

    def __init__(self, text: str):
        self.text = text
        self.clean = strip_comments(text)
        self.lines = self.clean.split("\n")
        self.raw_lines = text.split("\n")

    def declarations(self) -> list[Decl]:
        return [c for c in self.commands() if isinstance(c, Decl)]

    def commands(self) -> list[Any]:
        """Declarations and ``(line, kind, text)`` tuples for the other commands."""
        out: list[Any] = []
        ns: list[str] = []
        heart: int | None = None
        depth: int | None = None
        i, n = 0, len(self.lines)
        while i < n:
            ln = self.lines[i]
            s = ln.strip()
            if not s:
                i += 1
                continue
            if ln[0].isspace():
                out.append((i + 1, "stray", s))
                i += 1
                continue
            m = re.match(r"set_option\s+(maxHeartbeats|maxRecDepth)\s+(\d+)\s+in\b(.*)$", s)
            while m:       # `set_option … in set_option … in theorem …` may share one line
                if m.group(1) == "maxHeartbeats":
                    heart = int(m.group(2))
                else:
                    depth = int(m.group(2))
                s = m.group(3).strip()
                m = re.match(r"set_option\s+(maxHeartbeats|maxRecDepth)\s+(\d+)\s+in\b(.*)$", s)
            if not s:
                i += 1
                continue
            m = re.match(r"(theorem|lemma|example)\b\s*(«[^»]+»|[^\s({\[:]*)", s)
            if m:
                decl, i = self.declaration(m, s, i, ns, heart)
                decl.rec_depth = depth
                out.append(decl)
                heart = depth = None
                continue
            _track_namespace(ns, s)
            out.append((i + 1, "command", s))
            i += 1
        return out

    def declaration(self, m: re.Match[str], s: str, start: int, ns: list[str],
                    heart: int | None) -> tuple[Decl, int]:
        """The declaration whose first line (index ``start``) is ``s``, and the index after it."""
        kind, name = m.group(1), m.group(2).strip("«»")
        header, j = self.header_lines(s, start)
        htext = " ".join(header)
        body, k = self.body_lines(j + 1)
        sig, style, term, body = _split_header(htext, m.end(), start, body)
        full = ".".join(ns + [name]) if name else ""
        return Decl(kind, name, full, start + 1, sig.strip(), body, heart, style, term), k

    def header_lines(self, s: str, i: int) -> tuple[list[str], int]:
        """The header's stripped lines up to ``:=`` (or the next top-level line) and its last index."""
        header = [s]
        j, n = i, len(self.lines)
        while not re.search(r":=\s*(by)?\s*$", " ".join(header)) and j + 1 < n:
            nxt = self.lines[j + 1]
            if nxt.strip() and not nxt[0].isspace():
                break
            j += 1
            header.append(nxt.strip())
        return header, j

    def body_lines(self, k: int) -> tuple[list[tuple[int, str]], int]:
        """The indented (or blank) lines from index ``k``, trailing blanks dropped, and the index after."""
        n = len(self.lines)
        body: list[tuple[int, str]] = []
        while k < n and (not self.lines[k].strip() or self.lines[k][0].isspace()):
            body.append((k + 1, self.lines[k]))
            k += 1
        while body and not body[-1][1].strip():
            body.pop()
        return body, k
