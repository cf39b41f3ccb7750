"""Write a rendered proof into the user's own Lean file, in place of that theorem's ``sorry``.

The user's statement stays verbatim; only the proof after ``:=`` changes. Nothing here checks the
result in Lean (no Lean runs on our machines): callers say so and point to ``prover lean check``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

_DECL = r"(?:theorem|lemma)\s+{name}(?![\w'.])"
_NEXT_DECL = re.compile(r"^\s*(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)?(?:theorem|lemma|example|def|"
                        r"instance|structure|namespace|end|section|#)", re.MULTILINE)


class InPlaceError(ValueError):
    """The proof cannot be put into the file (one line, shown to the user)."""


def proof_body(rendered: str) -> list[str]:
    """The tactic lines of a rendered file (after the theorem's ``:= by``, before ``#print``)."""
    lines = rendered.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*(?:theorem|lemma)\b", ln)), None)
    if start is None:
        raise InPlaceError("the rendered Lean text has no theorem")
    by = next((i for i in range(start, len(lines)) if lines[i].rstrip().endswith(":= by")), None)
    if by is None:
        raise InPlaceError("the rendered Lean text has no `:= by` proof")
    body = []
    for ln in lines[by + 1:]:
        if ln.startswith("#print") or (ln and not ln[0].isspace()):
            break
        body.append(ln)
    while body and not body[-1].strip():
        body.pop()
    if not body:
        raise InPlaceError("the rendered proof is empty")
    return body


def insert_proof(source: str, name: str, rendered: str) -> str:
    """``source`` with the proof of ``name`` (its ``:= by sorry`` / ``:= sorry``) replaced by the
    rendered tactic block."""
    m = re.search(_DECL.format(name=re.escape(name)), source)
    if m is None:
        raise InPlaceError(f"no theorem or lemma `{name}` in the file")
    nxt = _NEXT_DECL.search(source, m.end())
    end = nxt.start() if nxt else len(source)
    decl = source[m.start():end]
    proof = re.search(r":=\s*(?:by\s+)?sorry\b", decl)
    if proof is None:
        raise InPlaceError(f"`{name}` has no `:= by sorry` to replace (already proved?)")
    body = "\n".join(ln if ln.startswith("  ") else "  " + ln.lstrip() for ln in proof_body(rendered))
    new_decl = decl[:proof.start()] + ":= by\n" + body + decl[proof.end():]
    return source[:m.start()] + new_decl + source[end:]


def write_in_place(path: Path, name: str, rendered: str) -> Path:
    """Rewrite ``path`` with the proof of ``name``; the original is kept as ``PATH.bak``."""
    source = path.read_text(encoding="utf-8")
    updated = insert_proof(source, name, rendered)
    backup = path.with_name(path.name + ".bak")
    shutil.copyfile(path, backup)
    path.write_text(updated, encoding="utf-8")
    return backup
