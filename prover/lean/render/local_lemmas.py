"""Our own catalogue lemmas stated and proved inside the rendered proof, so a file needs ``import
Mathlib`` alone.

A Lean-trusted catalogue lemma whose ``lean_name`` is ``Prover.Lemmas.<name>`` (Mathlib lacks it)
is written by hand, with its proof, in ``lean_project/ProverLemmas/*.lean``, in the subset the
replay model checks. A proof that applies it gets, at the top of its tactic block, the same
theorem as a local fact::

    have prover_amgm2_sqrt : ∀ x y : ℝ, 0 ≤ x → 0 ≤ y → Real.sqrt (x * y) ≤ (x + y) / 2 := by
      intro x y h1 h2
      <the proof from ProverLemmas, verbatim>

preceded by the lemmas that proof cites (``schur1_nonneg`` needs ``schur`` and ``schur_ordered``),
each under the name ``prover_<name>``. A ``have`` (not a separate ``theorem``) keeps the tactic
block self-contained: ``--in-place``, ``prover lean fill`` and ``prover lean suggest`` insert the
block alone, and it still proves what it uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from prover.lean.render.common import RenderError

#: The namespace of the lemmas of ``lean_project/ProverLemmas``.
NAMESPACE = "Prover.Lemmas."
#: The prefix of their local names in a rendered proof (``prover_amgm2_sqrt``).
LOCAL_PREFIX = "prover_"

_IDENT_TAIL = r"(?![\w'!?₀-₉ₐ-ₜ])"


@dataclass(frozen=True)
class LocalLemma:
    """One lemma of ``lean_project/ProverLemmas`` as a local ``have``."""

    name: str                     # short name (``amgm2_sqrt``)
    statement: str                # ``∀ x y : ℝ, 0 ≤ x → 0 ≤ y → …``
    intro: tuple[str, ...]        # the binder names, in order
    body: tuple[str, ...]         # the proof's tactic lines, indented two spaces, names localised
    deps: tuple[str, ...]         # short names of the lemmas the proof cites

    @property
    def local_name(self) -> str:
        return LOCAL_PREFIX + self.name

    def lines(self) -> list[str]:
        head = f"have {self.local_name} : {self.statement} := by"
        intro = [f"  intro {' '.join(self.intro)}"] if self.intro else []
        return [head, *intro, *self.body]


def local_name(lean_name: str) -> str | None:
    """``prover_<name>`` for ``Prover.Lemmas.<name>``; None for any other name (Mathlib's)."""
    return LOCAL_PREFIX + lean_name[len(NAMESPACE):] if lean_name.startswith(NAMESPACE) else None


def _binder_groups(signature: str) -> tuple[list[tuple[list[str], str]], str]:
    """``(x y : ℝ) (h1 : 0 ≤ x) : C`` as ``[(["x", "y"], "ℝ"), (["h1"], "0 ≤ x")]`` and ``C``."""
    groups: list[tuple[list[str], str]] = []
    i, n = 0, len(signature)
    while True:
        while i < n and signature[i].isspace():
            i += 1
        if i >= n or signature[i] != "(":
            break
        depth, j = 0, i
        while j < n:
            depth += signature[j] in "([{⟨"
            depth -= signature[j] in ")]}⟩"
            if depth == 0:
                break
            j += 1
        inner = signature[i + 1:j]
        names, sep, ty = inner.partition(":")
        if not sep or not names.split():
            raise RenderError(f"ProverLemmas: binder ({inner}) is not `(names : type)`")
        groups.append((names.split(), " ".join(ty.split())))
        i = j + 1
    rest = signature[i:].strip()
    if not rest.startswith(":"):
        raise RenderError(f"ProverLemmas: signature {signature[:80]!r} has other binders than `( … )`")
    return groups, " ".join(rest[1:].split())


def _statement(groups: list[tuple[list[str], str]], concl: str) -> str:
    """The ``∀ … →`` proposition of a telescope of explicit binders."""
    parts: list[str] = []
    for names, ty in groups:
        if ty == "ℝ":
            parts.append(f"∀ {' '.join(names)} : ℝ,")
        else:
            prop = f"({ty})" if re.search(r"→|↔|∀|∃|,", ty) else ty
            parts += [f"{prop} →"] * len(names)
    return " ".join(parts + [concl])


def _localise(text: str, names: set[str]) -> str:
    """References to the library's lemmas (``schur_ordered``, ``Prover.Lemmas.schur``) renamed
    ``prover_schur_ordered``, ``prover_schur``."""
    if not names:
        return text
    alt = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
    return re.sub(rf"(?<![\w.'])(?:Prover\.Lemmas\.)?({alt}){_IDENT_TAIL}",
                  lambda m: LOCAL_PREFIX + m.group(1), text)


def _cited(text: str, names: set[str]) -> list[str]:
    return sorted({m.group(1) for m in re.finditer(
        rf"(?<![\w.'])(?:Prover\.Lemmas\.)?({'|'.join(map(re.escape, names))}){_IDENT_TAIL}", text)})


@lru_cache(maxsize=4)
def _library(directory: str) -> dict[str, LocalLemma]:
    from prover.lean.replay.source import LeanSource

    decls = []
    for f in sorted(Path(directory).glob("*.lean")):
        for d in LeanSource(f.read_text(encoding="utf-8")).declarations():
            if d.full_name.startswith(NAMESPACE) and d.kind in ("theorem", "lemma") and d.proof_style == "by":
                decls.append(d)
    short = {d.full_name[len(NAMESPACE):] for d in decls}
    out: dict[str, LocalLemma] = {}
    for d in decls:
        name = d.full_name[len(NAMESPACE):]
        try:
            groups, concl = _binder_groups(d.signature_text)
        except RenderError:
            continue
        body = [ln.rstrip() for _, ln in d.body if ln.strip()]    # comments are blanked by the reader
        text = "\n".join(body)
        others = short - {name}
        out[name] = LocalLemma(name, _statement(groups, concl), tuple(nm for names, _ in groups for nm in names),
                               tuple(_localise(text, others).splitlines()), tuple(_cited(text, others)))
    return out


def library(directory: Path | None = None) -> dict[str, LocalLemma]:
    """The lemmas of ``lean_project/ProverLemmas`` that can be stated locally, by short name."""
    from prover.lean.replay.signatures import prover_lemmas_dir

    return _library(str(directory or prover_lemmas_dir()))


def local_lemma_lines(used: set[str] | frozenset[str], directory: Path | None = None) -> list[str]:
    """The ``have`` blocks for the local lemmas among ``used`` (``prover_<name>``), each after the
    lemmas its proof cites, each once, in a fixed order."""
    lib = library(directory)
    wanted = sorted(n[len(LOCAL_PREFIX):] for n in used if n.startswith(LOCAL_PREFIX))
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in order:
            return
        if name in path:
            raise RenderError(f"ProverLemmas: {name} cites itself through {' → '.join(path)}")
        lem = lib.get(name)
        if lem is None:
            raise RenderError(f"{NAMESPACE}{name} is not a theorem of lean_project/ProverLemmas that can be "
                              "stated in the file")
        for dep in lem.deps:
            visit(dep, path + (name,))
        order.append(name)

    for name in wanted:
        visit(name, ())
    return [ln for name in order for ln in lib[name].lines()]
