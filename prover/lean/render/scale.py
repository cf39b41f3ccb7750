"""``scale`` steps: catalogue lemmas (Mathlib names or replayed kernel certificates) and facts."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step, expr_from_str, relation_from_json
from prover.lean.render.close import close_lines
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    indent,
    slack_fact,
    step_expr,
)
from prover.lean.render.linear import linear_step
from prover.lean.syntax import lean_expr, lean_rel
from prover.problem import Relation, var

#: Mathlib lemmas the catalogue names whose explicit arguments are only the side conditions
#: (their variables are implicit); every other lemma takes its variables, then its side conditions.
HYPOTHESES_ONLY = frozenset({"Real.geom_mean_le_arith_mean2_weighted", "Real.geom_mean_le_arith_mean3_weighted",
                             "Real.geom_mean_le_arith_mean4_weighted"})


def _side_proof(r: Relation) -> str:
    zero_side = ((r.op in ("<=", "<") and sp.sympify(r.lhs) == 0)
                 or (r.op in (">=", ">") and sp.sympify(r.rhs) == 0) or r.op == "!=")
    return "by positivity" if zero_side else "by linarith"


def _subs_rel(r: Relation, sub: dict) -> Relation:
    return Relation(sp.sympify(r.lhs).subs(sub, simultaneous=True), r.op,
                    sp.sympify(r.rhs).subs(sub, simultaneous=True))


def _instantiate_cert(cert: dict, lemma_vars: tuple[str, ...], sub: dict) -> dict:
    def inst(text: str) -> str:
        return str(expr_from_str(text, list(lemma_vars)).subs(sub, simultaneous=True))

    return {**cert,
            "terms": [{**t, "poly": inst(t["poly"])} for t in cert.get("terms", [])],
            "eq_terms": [{**t, "poly": inst(t["poly"])} for t in cert.get("eq_terms", [])]}


def _application(step: Step, app: dict, ctx: RenderContext) -> tuple[list[str], sp.Expr, sp.Expr, str]:
    """Lines proving one scale application ``A ≤ B`` (named by the returned fact), and A, B.

    A kernel-trusted lemma is replayed from its own exact certificate (so no Lean lemma is
    needed); a Lean-trusted one is applied by its ``lean_name`` with explicit arguments."""
    name = app.get("lemma", "")
    lem = ctx.lemmas(name) if ctx.lemmas else None
    if lem is None:
        raise RenderError(f"scale step uses lemma {name!r}, unknown to the catalogue given to the renderer")
    inst = {k: step_expr(step, v) for k, v in app.get("instance", {}).items()}
    missing = [v for v in lem.variables if v not in inst]
    if missing:
        raise RenderError(f"scale application of {name!r} does not instantiate {missing}")
    sub = {var(v): inst[v] for v in lem.variables}
    A = sp.sympify(lem.lhs).subs(sub, simultaneous=True)
    B = sp.sympify(lem.rhs).subs(sub, simultaneous=True)
    sides = [_subs_rel(sc, sub) for sc in lem.side_conditions]
    fact = ctx.fresh("happ")
    head = f"have {fact} : {lean_expr(A)} ≤ {lean_expr(B)} := by"
    if lem.trust == "kernel" and lem.certificate:
        names, lines = [], [f"-- {name}: replayed from its kernel certificate"]
        for r in sides:
            n = ctx.fresh("hsc")
            names.append(n)
            lines.append(f"have {n} : {lean_rel(r)} := {_side_proof(r)}")
        g = Goal(step.goal.variables, tuple(sides), Relation(A, "<=", B))
        body = close_lines(step, g, ctx.child(names), _instantiate_cert(lem.certificate, lem.variables, sub))
        return lines + [head] + indent(body), A, B, fact
    if not lem.lean_name:
        raise RenderError(f"catalogue lemma {name!r} has no lean_name")
    ctx.used.add(lem.lean_name)
    args = [] if lem.lean_name in HYPOTHESES_ONLY else [f"({lean_expr(inst[v])})" for v in lem.variables]
    args += [f"({_side_proof(r)})" for r in sides]
    return [f"-- {name}: {lem.lean_name}", head,
            f"  linear_combination {' '.join([lem.lean_name] + args)}"], A, B, fact


def _fact_application(step: Step, app: dict, ctx: RenderContext) -> tuple[list[str], sp.Expr, sp.Expr, str]:
    """``0 ≤ slack`` of a hypothesis of the goal, or of a fact proved by its close certificate."""
    if "hypothesis" in app:
        k = int(app["hypothesis"])
        rel, lines, h = step.goal.hypotheses[k], [], ctx.names[k]
    else:
        rel = relation_from_json(app["fact"], step.goal.variables)
        h = ctx.fresh("hfact")
        body = close_lines(step, step.goal.with_target(rel), ctx, app["proof"])
        lines = [f"have {h} : {lean_rel(rel)} := by"] + indent(body)
    L, R, _ = as_le(rel)
    fact = ctx.fresh("happ")
    lines.append(f"have {fact} : (0 : ℝ) ≤ {lean_expr(R - L)} := {slack_fact(rel, h, False)}")
    return lines, sp.Integer(0), R - L, fact


def render_scale(step: Step, ctx: RenderContext) -> StepBlock:
    lines = ["-- scale"]
    extra = []
    for app in step.certificate.get("applications", []):
        use = _fact_application if ("hypothesis" in app or "fact" in app) else _application
        app_lines, A, B, ha = use(step, app, ctx)
        c = step_expr(step, str(app.get("coefficient", "1")))
        hc = ctx.fresh("hc")
        lines += app_lines
        lines.append(f"have {hc} : (0 : ℝ) ≤ {lean_expr(c)} := by positivity")
        extra.append((c, B - A, f"(mul_nonneg {hc} (sub_nonneg.mpr {ha}))"))
    return linear_step(step, ctx, extra, lines)
