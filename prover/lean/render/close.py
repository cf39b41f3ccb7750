"""``close`` steps: SOS certificates as one ``linear_combination``; ``positivity`` closes."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    coeff_text,
    combination,
    fold_facts,
    indent,
    slack_fact,
    step_expr,
)
from prover.lean.render.field_identity import prove_equality
from prover.lean.syntax import lean_expr


def _sos_terms(step: Step, goal: Goal, ctx: RenderContext, cert: dict) -> tuple[list[tuple[sp.Expr, str]], list[str]]:
    """The weighted facts of an SOS certificate: ``[(weight, proof term)]`` and nlinarith hints."""
    _, _, strict_target = as_le(goal.target) if goal.target.op != "=" else (0, 0, False)
    terms: list[tuple[sp.Expr, str]] = []
    hints: list[str] = []
    strict_done = False
    for t in cert.get("terms", []):
        c = sp.Rational(t["coeff"])
        q = step_expr(step, t["poly"], goal)
        mult = [int(k) for k in t.get("mult", [])]
        if c == 0:
            continue
        use_strict = (strict_target and not strict_done and q.is_number and q != 0
                      and all(goal.hypotheses[k].strict for k in mult))
        facts = [slack_fact(goal.hypotheses[k], ctx.names[k], use_strict) for k in mult]
        if use_strict:
            strict_done = True
        if q.is_number:
            weight = c * q ** 2
            if not facts:
                continue          # a constant: linear_combination's ring check absorbs it
            proof = fold_facts("mul_pos" if use_strict else "mul_nonneg", facts)
        else:
            weight = c
            sq = f"(sq_nonneg ({lean_expr(q)}))"
            proof = fold_facts("mul_nonneg", facts + [sq]) if facts else sq
        terms.append((weight, proof))
        hints.append(proof)
    for t in cert.get("eq_terms", []):
        k = int(t["hyp"])
        lam = step_expr(step, t["poly"], goal)
        if goal.hypotheses[k].op != "=":
            raise RenderError(f"eq_terms names hypothesis {k}, which is not an equality")
        # linear_combination adds c·(rhs − lhs) of ``h : lhs = rhs`` to an inequality's slack
        # but c·(lhs − rhs) to an equality goal's ``lhs − rhs``
        terms.append((lam if goal.target.op == "=" else -lam, ctx.names[k]))
        hints.append(ctx.names[k])
    return terms, hints



def _sos_value(step: Step, goal: Goal, cert: dict) -> str:
    """The certificate's right-hand side ``Σ c·Π slack·q² + Σ λ·eq`` as Lean text written term by
    term (so that no denominator is cancelled in the printed form)."""
    parts = []
    for t in cert.get("terms", []):
        c, q = sp.Rational(t["coeff"]), step_expr(step, t["poly"], goal)
        slacks = [goal.hypotheses[int(k)].slack() for k in t.get("mult", [])]
        parts.append(" * ".join([coeff_text(c)] + [f"({lean_expr(x)})" for x in slacks] + [f"({lean_expr(q)}) ^ 2"]))
    for t in cert.get("eq_terms", []):
        h = goal.hypotheses[int(t["hyp"])]
        lam = step_expr(step, t["poly"], goal)
        parts.append(f"{coeff_text(lam)} * ({lean_expr(h.lhs - h.rhs)})")
    return " + ".join(parts) or "0"


def close_lines(step: Step, goal: Goal, ctx: RenderContext, cert: dict) -> list[str]:
    method = cert.get("method")
    if method == "sos":
        terms, hints = _sos_terms(step, goal, ctx, cert)
        if goal.target.op == "=" and cert.get("terms"):
            raise RenderError("an equality target needs an SOS certificate without square terms")
        value_text = _sos_value(step, goal, cert)
        lines: list[str] = []
        left, right = ctx.sides(goal)
        slack_text = f"({left}) - ({right})" if goal.target.op == "=" else f"({right}) - ({left})"
        id_lines, id_comb = prove_equality(slack_text, value_text, list(goal.variables), ctx)
        if id_comb:
            # denominators: the identity slack = value needs ``d * d⁻¹ = 1`` facts; state it once
            # and let the main linear_combination use it (its own ring check then cancels nothing)
            hid = ctx.fresh("hid")
            lines += [f"have {hid} : {slack_text} = {value_text} := by"]
            lines += indent(id_lines + [f"linear_combination {id_comb}"])
            terms.append((sp.Integer(1) if goal.target.op == "=" else sp.Integer(-1), hid))
        elif ctx.close_style == "nlinarith" and goal.target.op != "=":
            return [f"nlinarith [{', '.join(hints)}]"]
        return lines + [f"linear_combination {combination(terms)}" if terms else "linear_combination"]
    if method == "positivity":
        if goal.target.op == "=":
            raise RenderError("positivity cannot close an equality")
        if goal.target.op == "!=":
            return ["positivity"]
        _, _, strict = as_le(goal.target)
        key = ctx.fresh("hpos")
        rel = "<" if strict else "≤"
        printed = lean_expr(goal.target.slack())
        lines = [f"have {key} : (0 : ℝ) {rel} {printed} := by positivity"]
        left, right = ctx.sides(goal)
        slack_text = f"({right}) - ({left})"
        id_lines, id_comb = prove_equality(slack_text, printed, list(goal.variables), ctx)
        if not id_comb:
            return lines + [f"linear_combination {key}"]
        hid = ctx.fresh("hid")
        lines += [f"have {hid} : {slack_text} = {printed} := by"]
        lines += indent(id_lines + [f"linear_combination {id_comb}"])
        return lines + [f"linear_combination {key} - {hid}"]
    raise RenderError(f"unknown close method {method!r}")


def render_close(step: Step, ctx: RenderContext) -> StepBlock:
    lines = [f"-- close ({step.certificate.get('method')})"]
    lines += close_lines(step, step.goal, ctx, step.certificate)
    return StepBlock(lines)
