"""``introduce`` and ``substitute`` steps: a statement over the new variables, instantiated."""

from __future__ import annotations

import sympy as sp

from prover.ir import Step, expr_from_str
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    hypothesis_name,
)
from prover.lean.syntax import has_denominator, lean_expr, lean_ident, lean_rel
from prover.problem import Relation, var


def _special_hyp_proof(rel: Relation, defs: dict[str, sp.Expr], fallback: str) -> str:
    """A one-line proof of a new hypothesis about an introduced variable, at its definition."""
    for v, d in defs.items():
        s = var(v)
        if d.is_Pow and d.exp == sp.Rational(1, 2):
            if rel == Relation(s ** 2, "=", d.base):
                return "(Real.sq_sqrt (by positivity))"
            if rel in (Relation(s, ">=", 0), Relation(0, "<=", s)):
                return "(Real.sqrt_nonneg _)"
        if d.is_Pow and d.exp.is_Rational and not d.exp.is_Integer:
            q = d.exp.q
            if rel == Relation(s ** q, "=", d.base ** d.exp.p):
                return (f"(by rw [← Real.rpow_natCast, ← Real.rpow_mul (x := {lean_expr(d.base)}) "
                        "(by positivity)]; norm_num)")
    return fallback


def _render_forall_step(step: Step, ctx: RenderContext, new_vars: list[str], inst: dict[str, sp.Expr],
                        title: str, defs: dict[str, sp.Expr], fallback: str) -> StepBlock:
    goal, sub = step.goal, step.subgoals[0]
    old = [i for i, h in enumerate(sub.hypotheses) if hypothesis_name(goal, ctx.names, h) is None
           or any(v in {s.name for s in h.free_symbols()} for v in new_vars)]
    key = ctx.fresh("hkey")
    hn = {i: ctx.fresh("hv") for i in old}
    prop = (f"∀ {' '.join(lean_ident(v) for v in new_vars)} : ℝ, "
            + " → ".join([lean_rel(sub.hypotheses[i]) for i in old] + [lean_rel(sub.target)]))
    args = [f"({lean_expr(inst[v])})" for v in new_vars]
    args += [_special_hyp_proof(sub.hypotheses[i], defs, fallback) for i in old]
    lines = [title, f"suffices {key} : {prop} by", f"  linear_combination {key} {' '.join(args)}",
             f"intro {' '.join([lean_ident(v) for v in new_vars] + [hn[i] for i in old])}"]
    names = [hn[i] if i in hn else hypothesis_name(goal, ctx.names, h) for i, h in enumerate(sub.hypotheses)]
    return StepBlock(lines, [names])


def render_introduce(step: Step, ctx: RenderContext) -> StepBlock:
    sub = step.subgoals[0]
    defs = {v: expr_from_str(t, list(step.goal.variables)) for v, t in step.certificate["definitions"].items()}
    title = "-- introduce " + ", ".join(f"{v} = {lean_expr(d)}" for v, d in defs.items())
    new_vars = [v for v in sub.variables if v in defs]
    return _render_forall_step(step, ctx, new_vars, defs, title, defs, "(by positivity)")


def render_substitute(step: Step, ctx: RenderContext) -> StepBlock:
    sub = step.subgoals[0]
    cert = step.certificate
    subst = {v: expr_from_str(t, list(sub.variables)) for v, t in cert["substitution"].items()}
    inverse = {v: expr_from_str(t, list(step.goal.variables)) for v, t in cert["inverse"].items()}
    for v, f in subst.items():
        back = sp.simplify(f.subs({var(k): g for k, g in inverse.items()}, simultaneous=True) - var(v))
        if back != 0 or has_denominator(f) or any(has_denominator(g) for g in inverse.values()):
            raise RenderError(f"substitute step: {v} = {lean_expr(f)} is not a polynomial inverse of the given "
                              "inverse map; only polynomial substitutions are rendered")
    title = "-- substitute " + ", ".join(f"{v} = {lean_expr(f)}" for v, f in subst.items())
    new_vars = [v for v in sub.variables if v not in step.goal.variables or v in inverse]
    return _render_forall_step(step, ctx, new_vars, inverse, title, {}, "(by linarith)")
