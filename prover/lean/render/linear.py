"""``rewrite`` steps (and the shared shape of ``scale``): ``slack G = m·slack G' + …``."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step
from prover.lean.render.close import close_lines
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    child_names,
    coeff_text,
    combination,
    indent,
    step_expr,
)
from prover.lean.syntax import lean_expr, lean_rel, ring_identity


def new_hypotheses(step: Step, ctx: RenderContext, sub: Goal) -> tuple[list[str], dict[int, str]]:
    lines: list[str] = []
    names: dict[int, str] = {}
    for nh in step.certificate.get("new_hypotheses", []):
        i = int(nh["index"])
        rel = sub.hypotheses[i]
        name = ctx.fresh("hn")
        g = step.goal.with_target(rel)
        body = close_lines(step, g, ctx, nh["proof"])
        if len(body) == 1:
            lines.append(f"have {name} : {lean_rel(rel)} := by {body[0]}")
        else:
            lines.append(f"have {name} : {lean_rel(rel)} := by")
            lines += indent(body)
        names[i] = name
    return lines, names


def linear_step(step: Step, ctx: RenderContext, extra: list[tuple[sp.Expr, sp.Expr, str]],
                 pre: list[str]) -> StepBlock:
    """Shared shape of rewrite and scale: ``slack G = m·slack G' + Σ c·(B − A) + Σ λ·eq``.

    ``extra`` holds ``(c, B − A, proof of A ≤ B)`` for scale applications."""
    goal, sub = step.goal, step.subgoals[0]
    cert = step.certificate
    m = step_expr(step, str(cert.get("multiplier", "1")))
    L, R, strict = as_le(goal.target)
    L2, R2, strict2 = as_le(sub.target)
    if strict and not strict2:
        raise RenderError("a strict goal needs a strict subgoal")
    lines = list(pre)
    hyp_lines, new_names = new_hypotheses(step, ctx, sub)
    lines += hyp_lines
    hm = ctx.fresh("hm")
    lines.append(f"have {hm} : (0 : ℝ) < {lean_expr(m)} := by positivity")
    eqs = [(int(t["hyp"]), step_expr(step, t["poly"])) for t in cert.get("eq_terms", [])]
    h2 = ctx.fresh("hsub")
    main = (f"(mul_pos {hm} (sub_pos.mpr {h2}))" if strict
            else f"(mul_nonneg {hm}.le (sub_nonneg.mpr {h2}))")
    terms: list[tuple[sp.Expr, str]] = [(sp.Integer(1), main)]
    for c, _, proof in extra:
        terms.append((sp.Integer(1), proof))
    for k, lam in eqs:
        if goal.hypotheses[k].op != "=":
            raise RenderError(f"eq_terms names hypothesis {k}, which is not an equality")
        terms.append((-lam, ctx.names[k]))
    identity = (m * (R2 - L2) + sum((c * d for c, d, _ in extra), sp.Integer(0))
                + sum((lam * (goal.hypotheses[k].lhs - goal.hypotheses[k].rhs) for k, lam in eqs), sp.Integer(0))
                - (R - L))
    if not ring_identity(identity):
        hid = ctx.fresh("hid")
        rhs = " + ".join([f"{lean_expr(m)} * ({lean_expr(R2 - L2)})"]
                         + [f"{coeff_text(c)} * ({lean_expr(d)})" for c, d, _ in extra]
                         + [f"{coeff_text(lam)} * ({lean_expr(goal.hypotheses[k].lhs - goal.hypotheses[k].rhs)})"
                            for k, lam in eqs])
        lines.append(f"have {hid} : {rhs} = {lean_expr(R - L)} := by")
        lines += indent(["field_simp", "ring"])
        terms.append((sp.Integer(1), hid))
    lines.append(f"suffices {h2} : {lean_rel(sub.target)} by")
    lines.append(f"  linear_combination {combination(terms)}")
    return StepBlock(lines, [child_names(goal, ctx.names, sub, new_names)])


def render_rewrite(step: Step, ctx: RenderContext) -> StepBlock:
    m = step.certificate.get("multiplier", "1")
    return linear_step(step, ctx, [], [f"-- rewrite (multiplier {m})"])

