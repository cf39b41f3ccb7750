"""Lean text of the scalar statements an n-term proof is made of, read back by the front-end.

Each termwise fact, parameter side condition, the empty case and the atom-level statement is
written as a Lean ``theorem`` and read by the scalar front-end (:func:`prover.frontend.parse_theorem`),
in the user's file context, so that the rendered lemma states exactly what was proved and the main
theorem can apply it to ``a i`` and to the sums by syntactic instantiation:

* a termwise lemma ``theorem t_term_1 (a t_1 : ℝ) (ha : 0 < a) : 0 ≤ (1) * (a ^ 2) + (-2 * t_1) * (a) +
  (t_1 ^ 2)`` — the statement's bodies as the user wrote them (``a`` for ``a i``), each times its
  coefficient, so that ``Finset.mul_sum`` pulls every coefficient out of the summed form;
* the atom-level lemma ``theorem t_atoms (n S_1 S_2 : ℝ) (hn : 0 < n) (hs : (S_1) = n) (c_0 : 0 ≤ n)
  (g_1 : 0 ≤ …) : (S_2) ≥ n`` — the user's hypotheses and goal with each sum replaced by its atom.
"""

from __future__ import annotations

import re
from dataclasses import replace

import sympy as sp

from prover.frontend.printer import print_expr
from prover.nterm.plan import FactPlan
from prover.problem import Problem

#: Lean text of a relation ``expr ⋈ 0`` with the expression on the right of ``0``.
_REL = {">=": "0 ≤ {}", ">": "0 < {}", "=": "{} = 0"}


def parenthesized(text: str) -> str:
    return text if re.fullmatch(r"[\w.']+|\d+", text) else f"({text})"


def fact_text(plan: FactPlan, body_text: dict[str, str]) -> str:
    """``Σ (cₖ) * (bodyₖ) + (c₀)``: each body as given (per-index text), each coefficient printed."""
    parts = [f"({print_expr(c)}) * {parenthesized(body_text[a])}" for a, c in plan.terms]
    if plan.constant != 0 or not parts:
        parts.append(f"({print_expr(plan.constant)})")
    return " + ".join(parts)


def relation_text(op: str, expr_text: str) -> str:
    return _REL[op].format(expr_text)


def substitute_names(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each whole identifier of ``mapping`` replaced (Lean identifiers: letters,
    digits, ``_``, ``'``, ``.``)."""
    if not mapping:
        return text
    pattern = re.compile(r"(?<![\w.'])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
                         + r")(?![\w'])")
    return pattern.sub(lambda m: mapping[m.group(1)], text)


def theorem_text(name: str, variables: list[str], binders: list[tuple[str, str]], goal: str) -> str:
    head = f"theorem {name}"
    if variables:
        head += f" ({' '.join(variables)} : ℝ)"
    for h, prop in binders:
        head += f" ({h} : {prop})"
    return f"{head} : {goal} := by sorry"


def read_statement(problem: Problem, text: str, name: str) -> Problem:
    """The Problem of the generated ``theorem name …`` ``text``, read in the user's file context;
    its ``meta["lean"]`` is ``text`` (what the renderer states). Raises ``ParseError``."""
    from prover.frontend import parse_theorem

    reading = problem.nterm
    lips = problem.meta.get("lips_header") is True
    p = parse_theorem(reading.in_file(text), real_division=lips, name=name)
    meta = {**p.meta, "lean": text, "lean_name": name}
    return replace(p, meta=meta)


def atom_body_texts(problem: Problem, bodies: dict[str, sp.Expr]) -> dict[str, str]:
    """Per-index Lean text of every atom's body: the user's text for the statement's atoms, the
    printer's for the others."""
    reading = problem.nterm
    out = {a: reading.body_source[k] for k, (a, _) in enumerate(reading.statement.atoms)}
    for a, b in bodies.items():
        out.setdefault(a, print_expr(b))
    return out
