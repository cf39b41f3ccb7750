"""Copies of hypotheses whose ``|·|`` or ``√`` the user writes otherwise than our printing.

sympy canonicalises inside an atom (``|-x + 4|`` becomes ``|x - 4|``; ``√(b*a)`` may become
``√(a*b)``), while ``ring`` and ``linarith`` compare atoms as written: a step citing the user's
``h : |-x + 4| < 3`` where it means our ``|x - 4| < 3`` fails in Lean. Before the proof tree, each
such hypothesis gets a copy in our printing, proved from the user's by the atom bridges of
:func:`prover.lean.render.atoms.bridge_facts` (``congrArg`` of a ``ring`` identity, ``abs_neg``),
and the proof cites the copy.
"""

from __future__ import annotations

import re

from prover.ir import Goal
from prover.lean.render.atoms import Facts, bridge_facts, carried_terms, has_root_or_abs
from prover.lean.render.common import RenderContext, RenderError, as_le
from prover.lean.render.statement import written_hypothesis
from prover.lean.syntax import lean_expr
from prover.problem import Problem

_RELATION = re.compile(r"\s(<=|>=|≤|≥|<|>|=)\s")
_OPS = {"≤": "<=", "≥": ">=", "<=": "<=", ">=": ">=", "<": "<", ">": ">", "=": "="}


def _written_sides(text: str) -> tuple[str, str, str] | None:
    """``(lhs, op, rhs)`` of a relation with one top-level relation symbol (None otherwise)."""
    found = list(_RELATION.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    return text[:m.start()].strip(), _OPS[m.group(1)], text[m.end():].strip()


def written_hypothesis_sides(refs: list[str], head: str) -> tuple[str, ...]:
    """Both sides of each hypothesis ``refs`` names, as the statement ``head`` writes them."""
    out: list[str] = []
    for ref in refs:
        text = written_hypothesis(head, ref)
        sides = _written_sides(text) if text is not None else None
        if sides is not None:
            out += [sides[0], sides[2]]
    return tuple(out)


def atom_copies(problem: Problem, refs: list[str], head: str, ctx: RenderContext) -> tuple[list[str], list[str]]:
    """``(lines, refs)``: the copies' ``have`` lines and the references the proof should use."""
    lines: list[str] = []
    out = list(refs)
    variables = list(problem.variables)
    for k, (h, ref) in enumerate(zip(problem.hypotheses, refs)):
        text = written_hypothesis(head, ref)
        if text is None or not (has_root_or_abs(text) or _MAX_MIN.search(text)):
            continue
        sides = _written_sides(text)
        r = h.rel
        if sides is None or sides[1] != r.op:
            continue
        ours = (lean_expr(r.lhs), lean_expr(r.rhs))
        facts = Facts(ctx)
        bridges = bridge_facts(f"({sides[0]}) - ({sides[2]})", f"({ours[0]}) - ({ours[1]})", variables, facts)
        if not bridges:
            continue
        name = ctx.fresh("hatom")
        terms = carried_terms(bridges, r.op)
        op = {"<=": "≤", ">=": "≥"}.get(r.op, r.op)
        lines += facts.lines + [f"have {name} : {ours[0]} {op} {ours[1]} := by linear_combination {ref} {terms}"]
        out[k] = name
    return lines, out


#: functions only a bridge connects to our printing: ``max``/``min`` (by cases) and ``Real.logb``
#: (``Real.log_div_log``)
_MAX_MIN = re.compile(r"(?<![\w'])(?:(?<!\.)max|(?<!\.)min|Real\.logb)(?![\w'])")


def target_conversion(goal: Goal, sides: tuple[str, str], ctx: RenderContext) -> list[str] | None:
    """Where the user's goal (``sides``: as Lean reads it after the prelude, ``L ≤ R`` …) has
    ``max``/``min``, which only the root can bridge: ``suffices h : OURS by linear_combination
    h + Σ c·bridge``, after which every step sees our printing. None when there is no such
    function; :class:`RenderError` when the bridge does not close."""
    if not any(_MAX_MIN.search(side) for side in sides):
        return None
    r = goal.target
    if r.op == "=":
        left, right, rel = lean_expr(r.lhs), lean_expr(r.rhs), "="
    else:
        lo, hi, strict = as_le(r)
        left, right, rel = lean_expr(lo), lean_expr(hi), "<" if strict else "≤"
    facts = Facts(ctx)
    bridges = bridge_facts(f"({sides[0]}) - ({sides[1]})", f"({left}) - ({right})", list(goal.variables), facts)
    if not bridges:
        raise RenderError("max/min/logb: the statement's goal is not bridged to our reading of it")
    name = ctx.fresh("hmain")
    terms = " ".join(f"+ ({f.coeff}) * {f.proof}" for f in bridges)
    return facts.lines + [f"suffices {name} : {left} {rel} {right} by", f"  linear_combination {name} {terms}"]
