"""The theorem statement and file header: the user's text verbatim where usable."""

from __future__ import annotations

import re

import sympy as sp

from prover.lean.render.common import MATHLIB_TAG
from prover.lean.syntax import declaration_names, lean_ident, lean_rel
from prover.problem import Problem, Relation

REAL_DIVISION_MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"


#: First line of every rendered file. It claims only what is true when the file is written: the
#: text targets this Mathlib; nothing has compiled it (``prover lean check FILE`` or
#: ``prover prove --verify lean`` does).
HEADER_LINE = (f"-- Rendered by prover for Mathlib {MATHLIB_TAG} (lean_project/); not compiled when written: "
               "check it with `prover lean check FILE`.")



def hypothesis_refs(problem: Problem) -> tuple[list[tuple[str, str]], list[str]]:
    """Lean binders ``(name, proposition)`` and, per hypothesis, the term naming it.

    Hypotheses ``h.1``, ``h.2``, … that came from one binder ``h : A ∧ B ∧ C`` become one
    binder again; their references are ``h.1``, ``h.2.1``, ``h.2.2``."""
    binders: list[tuple[str, list[Relation]]] = []
    for h in problem.hypotheses:
        base, _, idx = h.name.rpartition(".")
        if base and idx.isdigit() and binders and binders[-1][0] == base:
            binders[-1][1].append(h.rel)
        elif base and idx.isdigit():
            binders.append((base, [h.rel]))
        else:
            binders.append((h.name, [h.rel]))
    out, refs = [], []
    for name, rels in binders:
        ident = lean_ident(name)
        out.append((ident, " ∧ ".join(lean_rel(r, as_written=True) for r in rels)))
        n = len(rels)
        for i in range(n):
            path = ".2" * i + (".1" if i < n - 1 else "")
            refs.append(ident + path if n > 1 else ident)
    return out, refs


def theorem_name(problem: Problem) -> str:
    return lean_ident(problem.name.rsplit("/", 1)[-1] if "/" in problem.name else problem.name)


def statement(problem: Problem) -> str:
    binders, _ = hypothesis_refs(problem)
    vs = " ".join(lean_ident(v) for v in problem.variables)
    parts = [f"theorem {theorem_name(problem)}"]
    if vs:
        parts.append(f"({vs} : ℝ)")
    parts += [f"({n} : {p})" for n, p in binders]
    return " ".join(parts) + f" :\n    {lean_rel(problem.goal, as_written=True)}"


def header(problem: Problem, used_lemmas: set[str] | frozenset[str] = frozenset()) -> str:
    """Imports (``ProverLemmas`` from lean_project/ when a ``Prover.*`` lemma is used), ``open
    Real``, and the benchmark's real-division macro when the problem was read that way."""
    imports = ["import Mathlib"] + (["import ProverLemmas"] if any(n.startswith("Prover.") for n in used_lemmas)
                                    else [])
    lines = [HEADER_LINE, *imports, "", "open Real", ""]
    if problem.real_division:
        lines += ["-- Benchmark convention: every `/` is real division.", REAL_DIVISION_MACRO, ""]
    return "\n".join(lines) + "\n"


def root_prelude(problem: Problem, refs: list[str]) -> list[str]:
    """Copies of ``e > 0``/``e ≥ 0`` hypotheses as ``0 < e``/``0 ≤ e`` (the form ``positivity``
    looks for), then a ``≥``/``>`` goal turned into ``≤``/``<`` (the form every step expects)."""
    lines = []
    for k, (h, ref) in enumerate(zip(problem.hypotheses, refs)):
        r = h.rel
        if r.op in (">", ">=") and sp.sympify(r.rhs) == 0:
            lines.append(f"have hpos0_{k + 1} : {lean_rel(r)} := {ref}")
    op = problem.goal.op
    return lines + {">=": ["rw [ge_iff_le]"], ">": ["rw [gt_iff_lt]"]}.get(op, [])


_BARE_SQRT = re.compile(r"(?<![\w.])sqrt\b")


def original_statement(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str] | None:
    """The user's own statement text (without its proof) and its name, when it is known and can be
    used verbatim: ``problem.meta["lean"]`` (set by the benchmark loader) or
    ``proof.meta["lean_statement"]``, a ``theorem``/``lemma`` without the LIPS prefix notation
    ``sqrt`` (which needs a header we do not emit)."""
    text = problem.meta.get("lean") or (proof_meta or {}).get("lean_statement")
    if not isinstance(text, str) or ":=" not in text:
        return None
    names = declaration_names(text)
    if len(names) != 1 or _BARE_SQRT.search(text):
        return None
    start = re.search(r"^\s*(?:theorem|lemma)\b", text, re.MULTILINE)
    head = text[start.start():text.rindex(":=")].strip() if start else ""
    return (head, names[0]) if head else None


def theorem_head(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str]:
    """``(statement without proof, theorem name)``: the user's text when usable, else ours."""
    return original_statement(problem, proof_meta) or (statement(problem), theorem_name(problem))

