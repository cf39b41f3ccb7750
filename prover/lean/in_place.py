"""Write rendered proofs into the user's own Lean file, in place of the theorems' ``sorry``.

The user's statements stay verbatim; only a proof that is exactly ``sorry`` (``:= by sorry`` or
``:= sorry``, comments aside) is replaced. Theorems are found by the file's commands (the
front-end's lexer and command splitter), so a name in a comment or a string is never taken for a
declaration. Before any search, :func:`check_target` refuses a file that cannot be written (one
line) and a theorem with nothing to replace (no ``sorry``: no search is needed). The original
file is kept as a numbered backup ``FILE.lean.bak.1``, ``.bak.2``, … that is never overwritten.

Nothing here checks the result in Lean (no Lean runs on our machines): callers say so and point
to ``prover lean check``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


class InPlaceError(ValueError):
    """The proof cannot be put into the file (one line, shown to the user)."""


@dataclass(frozen=True)
class Theorem:
    """A named ``theorem``/``lemma`` of the file: character offsets of its first token, of its
    ``:=`` (None when it has none) and of the end of its last token."""

    name: str
    start: int
    assign: int | None
    end: int
    proof_tokens: tuple[str, ...]   # the proof after ``:=``, comments left out

    @property
    def sorry_only(self) -> bool:
        """The proof is ``sorry`` alone (``by sorry`` or ``sorry``): what gets replaced."""
        return self.proof_tokens in (("sorry",), ("by", "sorry"))

    @property
    def has_sorry(self) -> bool:
        return "sorry" in self.proof_tokens

    def skip_reason(self) -> str | None:
        """Why this theorem is not attempted (None: it is)."""
        if self.assign is None:
            return "has no `:=` proof to replace"
        if not self.has_sorry:
            return "has no `sorry` (already proved)"
        if not self.sorry_only:
            return "has a partial proof (more than `sorry`), left as it is"
        return None


def theorems(source: str) -> list[Theorem]:
    """The file's named theorems and lemmas, in order (``example``s have no name to target)."""
    from prover.frontend.lean_file import declarations, split_commands
    from prover.frontend.lexer import tokenize

    try:
        tokens = tokenize(source)
        commands = split_commands(tokens, source)
        decls = declarations(tokens, commands)
    except Exception as exc:  # noqa: BLE001 - a lexer refusal (unterminated comment…) is one line
        raise InPlaceError(f"cannot read the file's declarations: {str(exc).strip().splitlines()[0]}") from None
    out = []
    for d in decls:
        if d.keyword == "example" or not d.name:
            continue
        c = commands[d.index]
        assign = next((k for k in range(c.key, c.end) if tokens[k].kind == "op" and tokens[k].text == ":="), None)
        last = tokens[c.end - 1]
        proof = tuple(t.text for t in tokens[assign + 1:c.end]) if assign is not None else ()
        out.append(Theorem(d.name, tokens[c.start].pos, tokens[assign].pos if assign is not None else None,
                           last.pos + len(last.text), proof))
    return out


def find_theorem(source: str, name: str) -> Theorem:
    found = [t for t in theorems(source) if t.name == name]
    if not found:
        raise InPlaceError(f"no theorem or lemma `{name}` in the file")
    if len(found) > 1:
        raise InPlaceError(f"`{name}` is declared twice in the file (Lean rejects the second)")
    return found[0]


def named_declaration(text: str, name: object) -> tuple[str, str] | None:
    """The head (statement without proof, from its ``theorem``/``lemma`` keyword on) and name of
    the declaration ``name`` of a whole file ``text``, when it has a ``:=``."""
    if not isinstance(name, str) or not name:
        return None
    try:
        thm = find_theorem(text, name)
    except InPlaceError:
        return None
    if thm.assign is None:
        return None
    head = text[thm.start:thm.assign]
    start = re.search(r"^\s*(?:theorem|lemma)\b", head, re.MULTILINE)   # after a doc comment
    return (head[start.start():].strip(), name) if start else None


def _theorem_lines(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if re.match(r"(?:theorem|lemma)\b", ln)]


def auxiliary_declarations(rendered: str) -> str:
    """The declarations a rendered file states before the user's theorem (its last one), e.g. the
    expanded statement of a theorem with defined functions; empty when there are none."""
    lines = rendered.splitlines()
    starts = _theorem_lines(lines)
    if len(starts) < 2:
        return ""
    return "\n".join(lines[starts[0]:starts[-1]]).strip()


def _last_theorem(lines: list[str]) -> tuple[int, int]:
    """The line of a rendered file's last theorem and the line ending its head with ``:= by``."""
    starts = _theorem_lines(lines) or [next((i for i, ln in enumerate(lines)
                                             if re.match(r"\s*(?:theorem|lemma)\b", ln)), None)]
    start = starts[-1]
    if start is None:
        raise InPlaceError("the rendered Lean text has no theorem")
    by = next((i for i in range(start, len(lines)) if lines[i].rstrip().endswith(":= by")), None)
    if by is None:
        raise InPlaceError("the rendered Lean text has no `:= by` proof")
    return start, by


def proof_body(rendered: str) -> list[str]:
    """The tactic lines of a rendered file's last theorem (the user's: after its ``:= by``, before
    ``#print``)."""
    lines = rendered.splitlines()
    _, by = _last_theorem(lines)
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


def _imports(text: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r"^import\s+(\S+)", text, re.MULTILINE)}


#: Name prefixes declared outside Mathlib, and the module that declares them: a proof citing such
#: a name needs that import (rendered proofs state our lemmas locally and never cite these).
FOREIGN_NAMESPACES = {"Prover.Lemmas.": "ProverLemmas"}


def referenced_modules(rendered: str) -> set[str]:
    """The modules (besides Mathlib) whose names the rendered text cites, comments left out."""
    from prover.lean.replay.source import strip_comments

    text = strip_comments(rendered)
    return {mod for prefix, mod in FOREIGN_NAMESPACES.items()
            if re.search(rf"(?<![\w.]){re.escape(prefix)}[^\W\d]", text)}


def missing_imports(source: str, rendered: str) -> list[str]:
    """The modules the rendered proof imports, or whose names it cites, that the user's file does
    not import (e.g. ``ProverLemmas`` for a ``Prover.Lemmas.*`` name): such a proof is not written
    into the file, so a written file never needs an import it lacks."""
    return sorted((_imports(rendered) | referenced_modules(rendered)) - _imports(source))


def _statement_part(head: str) -> str:
    """A theorem head without its keyword and name, spaces collapsed: what it states."""
    return " ".join(re.sub(r"^\s*(?:theorem|lemma)\s+(?:«[^»]*»|\S+)", "", head).split())


def rendered_head(rendered: str) -> str:
    """The head (without ``:= by``) of a rendered file's last theorem, spaces collapsed."""
    lines = rendered.splitlines()
    start, by = _last_theorem(lines)
    return " ".join(" ".join(lines[start:by + 1]).rstrip().removesuffix(":= by").split())


def _check_same_statement(source: str, name: str, rendered: str) -> None:
    """Refuse a rendered proof whose theorem is not ``name`` exactly as the file states it (a
    restatement, e.g. the front-end's simplified goal, would put a proof of something else under
    the user's statement)."""
    own = named_declaration(source, name)
    if own is None or _statement_part(own[0]) != _statement_part(rendered_head(rendered)):
        raise InPlaceError(f"the proof of `{name}` was rendered for a restated theorem, not for the statement "
                           "as the file writes it (see it with --out)")


def _replacement(rendered: str) -> str:
    return ":= by\n" + "\n".join(ln if ln.startswith("  ") else "  " + ln.lstrip() for ln in proof_body(rendered))


def insert_proofs(source: str, rendered: dict[str, str]) -> str:
    """``source`` with the ``sorry`` proof of each named theorem replaced by its rendered tactic
    block; everything else (statements, comments, other theorems) verbatim."""
    spans = []
    for name, text in rendered.items():
        thm = find_theorem(source, name)
        if not thm.sorry_only:
            raise InPlaceError(f"`{name}` has no `:= by sorry` to replace (already proved?)")
        _check_same_statement(source, name, text)
        missing = missing_imports(source, text)
        if missing:
            raise InPlaceError(f"the proof of `{name}` needs `import {missing[0]}`, which the file does not have")
        spans.append((thm.assign, thm.end, _replacement(text)))
        aux = auxiliary_declarations(text)
        if aux:
            for clash in re.findall(r"^(?:theorem|lemma)\s+(\S+)", aux, re.MULTILINE):
                if any(t.name == clash for t in theorems(source)):
                    raise InPlaceError(f"the proof of `{name}` states `{clash}`, which the file already declares")
            spans.append((thm.start, thm.start, aux + "\n\n"))
    for start, end, new in sorted(spans, reverse=True):     # from the end: offsets stay valid
        source = source[:start] + new + source[end:]
    return source


def insert_proof(source: str, name: str, rendered: str) -> str:
    """``source`` with the proof of ``name`` (its ``:= by sorry`` / ``:= sorry``) replaced by the
    rendered tactic block."""
    return insert_proofs(source, {name: rendered})


def _why_not_writable(path: Path) -> str | None:
    if not path.is_file():
        return "no such file" if not path.exists() else "not a regular file"
    if not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return f"its folder {path.parent} is read-only (the backup goes next to the file)"
    return None


def check_writable(path: Path) -> None:
    """Refuse, in one line, a file the proofs could not be written into (before any search)."""
    why = _why_not_writable(path)
    if why is not None:
        raise InPlaceError(f"cannot write {path}: {why}; nothing searched")


def read_source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InPlaceError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def check_target(path: Path, name: str) -> Theorem:
    """Before searching ``name`` for ``--in-place``: the file can be written and the theorem has a
    ``sorry`` proof to replace; otherwise one line (no search is started)."""
    check_writable(path)
    thm = find_theorem(read_source(path), name)
    why = thm.skip_reason()
    if why is not None:
        raise InPlaceError(f"`{name}` {why}; nothing searched")
    return thm


def backup_path(path: Path) -> Path:
    """The next free numbered backup ``PATH.bak.N`` (one more than the highest there)."""
    taken = [int(m.group(1)) for p in path.parent.glob(path.name + ".bak.*")
             if (m := re.fullmatch(re.escape(path.name) + r"\.bak\.(\d+)", p.name))]
    return path.with_name(f"{path.name}.bak.{max(taken, default=0) + 1}")


def _backup(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new numbered backup; an existing file is never overwritten."""
    for _ in range(100):
        backup = backup_path(path)
        try:
            with open(backup, "xb") as f:      # exclusive: a backup made meanwhile is not replaced
                f.write(data)
            return backup
        except FileExistsError:
            continue
    raise InPlaceError(f"cannot make a new backup of {path}")


def write_proofs(path: Path, rendered: dict[str, str]) -> Path:
    """Rewrite ``path`` with the proofs of the theorems named in ``rendered`` (all at once); the
    original is kept as a new numbered backup, returned."""
    check_writable(path)
    try:
        original = path.read_bytes()
        updated = insert_proofs(original.decode("utf-8"), rendered)
        backup = _backup(path, original)
        path.write_text(updated, encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InPlaceError(f"cannot read {path}: {exc}") from None
    except OSError as exc:
        raise InPlaceError(f"cannot write {path}: {exc.strerror or exc}") from None
    return backup


def write_in_place(path: Path, name: str, rendered: str) -> Path:
    """Rewrite ``path`` with the proof of ``name``; the original is kept as a numbered backup."""
    return write_proofs(path, {name: rendered})
