"""``rewrite`` steps (and the shared shape of ``scale``): ``slack G = m·slack G' + …``."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step
from prover.lean.render.atoms import bridged_equality
from prover.lean.render.close import close_lines, positive_fact_prover
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    child_names,
    coeff_text,
    combination,
    factored_text,
    indent,
    step_expr,
)
from prover.lean.syntax import lean_expr, lean_rel
from prover.problem import Relation
from prover.solvers.sos import sos_certificate


def new_hypotheses(step: Step, ctx: RenderContext, sub: Goal) -> tuple[list[str], dict[int, str]]:
    lines: list[str] = []
    names: dict[int, str] = {}
    for nh in step.certificate.get("new_hypotheses", []):
        i = int(nh["index"])
        rel = sub.hypotheses[i]
        name = ctx.fresh("hn")
        g = step.goal.with_target(rel)
        body = close_lines(step, g, ctx.child(ctx.names), nh["proof"])
        if len(body) == 1:
            lines.append(f"have {name} : {lean_rel(rel)} := by {body[0]}")
        else:
            lines.append(f"have {name} : {lean_rel(rel)} := by")
            lines += indent(body)
        names[i] = name
    return lines, names


def positive_factor_facts(step: Step, goal: Goal, ctx: RenderContext,
                          e: sp.Expr) -> tuple[list[str], set[sp.Expr]]:
    """``have h : 0 < f`` for each irreducible factor ``f`` of ``e``'s numerator and denominator
    that ``positivity`` cannot see (a negative coefficient), each proved from a kernel-checked
    certificate; ``positivity`` then finds the hypothesis when it meets ``f`` (``compareHyp``).
    A factor that is negative instead gets ``0 < -f`` and is returned, to be printed ``-f``."""
    num, den = sp.fraction(sp.together(sp.sympify(e)))
    lines: list[str] = []
    negative: set[sp.Expr] = set()
    for part in (num, den):
        if not part.free_symbols:
            continue
        for f, k in sp.factor_list(sp.expand(part))[1]:
            poly = sp.Poly(f, *sorted(f.free_symbols, key=str))
            if all(c > 0 for c in poly.coeffs()):
                continue
            for sign in (1, -1):
                g = sp.expand(sign * f)
                target = goal.with_target(Relation(sp.Integer(0), "<", g))
                cert = sos_certificate(target, 5.0)
                if cert is not None:
                    break
            if cert is None or (sign < 0 and k % 2 == 0):
                continue          # positivity may still find it (a hypothesis, an even power)
            if sign < 0:
                negative.add(f)
            name = ctx.fresh("hf")
            lines.append(f"have {name} : (0 : ℝ) < {lean_expr(g)} := by")
            lines += indent(close_lines(step, target, ctx.child(ctx.names), cert))
    return lines, negative


def linear_step(step: Step, ctx: RenderContext, extra: list[tuple],
                pre: list[str]) -> StepBlock:
    """Shared shape of rewrite and scale: ``slack G = m·slack G' + Σ c·(B − A) + Σ λ·eq``.

    ``extra`` holds ``(c, B − A, proof of 0 ≤ c·(B − A))`` for scale applications, optionally with a
    fourth element: the Lean text of ``B − A`` exactly as the proof's type states it."""
    goal, sub = step.goal, step.subgoals[0]
    cert = step.certificate
    m = step_expr(step, str(cert.get("multiplier", "1")))
    _, _, strict = as_le(goal.target)
    _, _, strict2 = as_le(sub.target)
    if strict and not strict2:
        raise RenderError("a strict goal needs a strict subgoal")
    lines = list(pre)
    hyp_lines, new_names = new_hypotheses(step, ctx, sub)
    lines += hyp_lines
    hm = ctx.fresh("hm")
    sign_lines, negative = positive_factor_facts(step, goal, ctx, m)
    lines += sign_lines
    m_text = factored_text(m, negative)
    lines.append(f"have {hm} : (0 : ℝ) < {m_text} := by positivity")
    eqs = [(int(t["hyp"]), step_expr(step, t["poly"])) for t in cert.get("eq_terms", [])]
    h2 = ctx.fresh("hsub")
    main = (f"(mul_pos {hm} (sub_pos.mpr {h2}))" if strict
            else f"(mul_nonneg {hm}.le (sub_nonneg.mpr {h2}))")
    terms: list[tuple[sp.Expr, str]] = [(sp.Integer(1), main)]
    for item in extra:
        terms.append((sp.Integer(1), item[2]))
    for k, lam in eqs:
        if goal.hypotheses[k].op != "=":
            raise RenderError(f"eq_terms names hypothesis {k}, which is not an equality")
        terms.append((-lam, ctx.names[k]))
    # the identity, written with the very texts whose types the combination's facts carry
    left, right = ctx.sides(goal)
    left2, right2 = ctx.child(ctx.names).sides(sub)
    parts = [f"({m_text}) * (({right2}) - ({left2}))"]
    parts += [f"{coeff_text(item[0])} * ({item[3] if len(item) > 3 else lean_expr(item[1])})" for item in extra]
    parts += [f"{coeff_text(lam)} * ({lean_expr(goal.hypotheses[k].lhs - goal.hypotheses[k].rhs)})"
              for k, lam in eqs]
    lhs_text, rhs_text = " + ".join(parts), f"({right}) - ({left})"
    id_lines, id_comb = bridged_equality(lhs_text, rhs_text, list(goal.variables), ctx,
                                         positive=positive_fact_prover(step, goal, ctx))
    if id_comb:
        hid = ctx.fresh("hid")
        lines.append(f"have {hid} : {lhs_text} = {rhs_text} := by")
        lines += indent(id_lines + [f"linear_combination {id_comb}"])
        terms.append((sp.Integer(1), hid))
    lines.append(f"suffices {h2} : {lean_rel(sub.target)} by")
    lines.append(f"  linear_combination {combination(terms)}")
    return StepBlock(lines, [child_names(goal, ctx.names, sub, new_names)])


def render_rewrite(step: Step, ctx: RenderContext) -> StepBlock:
    m = step.certificate.get("multiplier", "1")
    return linear_step(step, ctx, [], [f"-- rewrite (multiplier {m})"])

