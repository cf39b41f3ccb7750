"""``combine`` steps: the goal from independent parts, ``slack G = Σ λ·Π slack Gᵢ``.

The parts are stated together (``suffices h : P₁ ∧ P₂ ∧ … by``), so that each becomes a goal of
its own (``refine ⟨?_, …⟩``) proved by its subtree in the same context (a part's hypotheses are
among the goal's). The goal follows by one ``linear_combination`` whose facts are the products
``mul_nonneg (sub_nonneg.mpr h₁) (sub_nonneg.mpr h₂) : 0 ≤ (R₁ − L₁) * (R₂ − L₂)`` (``mul_pos``
and ``sub_pos.mpr`` for the term that carries a strict goal), weighted by the certificate's
``λ``; a constant term is left to ``linear_combination``'s ring check. When the identity needs
denominators cancelled it is stated and proved first (``field_identity``).
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Step
from prover.lean.render.atoms import bridged_equality
from prover.lean.render.close import positive_fact_prover
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    child_names,
    coeff_text,
    combination,
    fold_facts,
    indent,
    slack_fact,
)
from prover.lean.syntax import lean_rel


def _terms(step: Step, ctx: RenderContext, names: list[str]) -> tuple[list[tuple[sp.Expr, str]], list[str]]:
    """The weighted product facts of the certificate, and the texts of its terms (for the identity)."""
    goal, subs = step.goal, step.subgoals
    _, _, strict = as_le(goal.target)
    slacks = []
    for sub in subs:
        left, right = ctx.child(ctx.names).sides(sub)
        slacks.append(f"(({right}) - ({left}))")
    facts: list[tuple[sp.Expr, str]] = []
    values: list[str] = []
    strict_done = False
    for t in step.certificate.get("terms", []):
        c = sp.Rational(str(t["coeff"]))
        idx = [int(i) for i in t.get("factors", [])]
        if c < 0 or any(not 0 <= i < len(subs) for i in idx):
            raise RenderError("combine: a negative weight or an unknown subgoal")
        if c == 0:
            continue
        values.append(" * ".join([coeff_text(c)] + [slacks[i] for i in idx]))
        if not idx:
            continue          # a constant: linear_combination's ring check absorbs it
        use_strict = strict and not strict_done and all(subs[i].target.strict for i in idx)
        strict_done = strict_done or use_strict
        parts = [slack_fact(subs[i].target, names[i], use_strict) for i in idx]
        facts.append((c, fold_facts("mul_pos" if use_strict else "mul_nonneg", parts)))
    return facts, values


def render_combine(step: Step, ctx: RenderContext) -> StepBlock:
    goal, subs = step.goal, step.subgoals
    if len(subs) < 2:
        raise RenderError("combine: at least two parts")
    names = [ctx.fresh("hpart") for _ in subs]
    key = ctx.fresh("hparts")
    facts, values = _terms(step, ctx, names)
    lines = [f"-- combine {len(subs)} independent parts",
             f"suffices {key} : {' ∧ '.join(f'({lean_rel(s.target)})' for s in subs)} by"]
    inner = [f"obtain ⟨{', '.join(names)}⟩ := {key}"]
    left, right = ctx.sides(goal)
    slack_text, value_text = f"({right}) - ({left})", " + ".join(values) or "0"
    id_lines, id_comb = bridged_equality(slack_text, value_text, list(goal.variables), ctx,
                                         positive=positive_fact_prover(step, goal, ctx))
    if id_comb:
        hid = ctx.fresh("hid")
        inner += [f"have {hid} : {slack_text} = {value_text} := by"]
        inner += indent(id_lines + [f"linear_combination {id_comb}"])
        facts.append((sp.Integer(-1), hid))
    inner.append(f"linear_combination {combination(facts)}" if facts else "linear_combination")
    lines += indent(inner)
    lines.append(f"refine ⟨{', '.join('?_' for _ in subs)}⟩")
    return StepBlock(lines, [child_names(goal, ctx.names, s, {}) for s in subs])
