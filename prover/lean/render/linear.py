"""``rewrite`` steps (and the shared shape of ``scale``): ``slack G = m·slack G' + …``."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step
from prover.lean.render.atoms import bridged_equality
from prover.lean.render.close import close_lines, hypothesis_fact, positive_fact_lines, positive_fact_prover
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
    negated_factors,
    step_expr,
    written_denominators,
)
from prover.lean.render.compact import stated
from prover.lean.replay import TACTIC_BUDGET
from prover.lean.syntax import lean_expr, lean_rel


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


def positive_factor_facts(step: Step, goal: Goal, ctx: RenderContext, e: sp.Expr,
                          nonneg_ok: bool = False) -> tuple[list[str], set[sp.Expr], bool]:
    """``have h : 0 < f`` for each irreducible factor ``f`` of ``e``'s numerator and denominator
    that ``positivity`` cannot see (a negative coefficient): from a hypothesis of ``goal`` that
    states it, else from a kernel-checked certificate; ``positivity`` then finds the fact when it
    meets ``f`` (``compareHyp``). A factor that is negative instead gets ``0 < -f`` and is
    returned, to be printed ``-f``. A factor with neither sign fact is refused: ``positivity``
    has no subtraction, so the multiplier's ``0 < m`` would not replay — unless ``nonneg_ok`` and
    the factor has an even power, which ``positivity`` proves ``≥ 0`` as it stands; the third
    value then says that only ``0 ≤ e`` is provable (the kernel takes ``m >= 0`` for a non-strict
    goal)."""
    num, den = sp.fraction(sp.together(sp.sympify(e)))
    lines: list[str] = []
    negative: set[sp.Expr] = set()
    only_nonneg = False
    for part in (num, den):
        if not part.free_symbols:
            const_lines, const_negative = numeral_log_sign_facts(ctx, part)
            lines += const_lines
            negative |= const_negative
            continue
        for f, k in sp.factor_list(sp.expand(part))[1]:
            poly = sp.Poly(f, *sorted(f.free_symbols, key=str))
            if all(c > 0 for c in poly.coeffs()) and _positivity_sees(poly, goal):
                continue
            fact, sign = _signed_factor_fact(step, goal, ctx, f)
            if not fact and nonneg_ok and k % 2 == 0:
                only_nonneg = True
                continue
            if not fact:
                raise RenderError(f"multiplier factor {lean_expr(f)}: no sign fact (neither 0 < f nor f < 0)")
            if sign < 0:
                negative.add(f)
            lines += fact
    return lines, negative, only_nonneg


def numeral_log_sign_facts(ctx: RenderContext, part: sp.Expr) -> tuple[list[str], set[sp.Expr]]:
    """Sign facts for the factors ``Real.log c`` (``c`` a positive rational, not 1) of a constant
    ``part``, which ``positivity`` has no extension for unless ``c`` is a natural number above 1
    (``evalLogNatLit``): ``0 < Real.log c`` by ``Real.log_pos`` for ``c > 1``, and for ``c < 1``
    ``0 < -Real.log c`` by ``Real.log_neg`` (the factor is returned, to be printed ``-(-f)``)."""
    lines: list[str] = []
    negative: set[sp.Expr] = set()
    for factor in sp.Mul.make_args(part):
        f = factor.base if factor.is_Pow else factor
        if not (isinstance(f, sp.log) and f.args[0].is_Rational and f.args[0] > 0 and f.args[0] != 1):
            continue
        c = f.args[0]
        if c > 1 and c.is_integer or f in negative:
            continue
        c_text, name = lean_expr(c), ctx.fresh("hlog")
        if c > 1:
            lines += [f"have {name}c : (1 : ℝ) < {c_text} := by linarith",
                      f"have {name} : (0 : ℝ) < Real.log ({c_text}) := Real.log_pos {name}c"]
            continue
        lines += [f"have {name}p : (0 : ℝ) < {c_text} := by positivity",
                  f"have {name}c : ({c_text} : ℝ) < 1 := by linarith",
                  f"have {name}n : Real.log ({c_text}) < 0 := Real.log_neg {name}p {name}c",
                  f"have {name} : (0 : ℝ) < -Real.log ({c_text}) := by linarith"]
        negative.add(f)
    return lines, negative


def _positivity_sees(poly: sp.Poly, goal: Goal) -> bool:
    """A polynomial with positive coefficients whose every odd power is of a variable with a sign
    hypothesis: ``positivity`` proves it term by term (``x + 1`` with only ``-1 < x`` it does not)."""
    signed = _nonnegative_variables(goal)
    return all(g in signed for m in poly.monoms() for g, e in zip(poly.gens, m) if e % 2)


def _nonnegative_variables(goal: Goal) -> set[sp.Symbol]:
    """Variables with a hypothesis ``0 < v``/``0 ≤ v`` (``v > 0``, ``v ≥ 0``): the atoms ``positivity``
    finds a sign for (``compareHyp``); a sum with positive coefficients of others is not seen."""
    out: set[sp.Symbol] = set()
    for h in goal.hypotheses:
        if h.op in ("<", "<=", ">", ">="):
            big, small = (h.rhs, h.lhs) if h.op in ("<", "<=") else (h.lhs, h.rhs)
            if sp.sympify(small) == 0 and sp.sympify(big).is_Symbol:
                out.add(sp.sympify(big))
    return out


def _signed_factor_fact(step: Step, goal: Goal, ctx: RenderContext, f: sp.Expr) -> tuple[list[str], int]:
    """The lines proving ``0 < f`` (sign 1) or ``0 < -f`` (sign -1): hypotheses of ``goal`` for
    both signs first (cheap, and certain where the search may time out), then SOS."""
    signed = [(sign, sp.expand(sign * f)) for sign in (1, -1)]
    for sign, g in signed:
        fact = hypothesis_fact(goal, ctx, lean_expr(g), g)
        if fact:
            return fact, sign
    for sign, g in signed:
        fact = positive_fact_lines(step, goal, ctx, lean_expr(g), g)
        if fact:
            return fact, sign
    return [], 0


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
    sign_lines, negative, only_nonneg = positive_factor_facts(step, goal, ctx, m, nonneg_ok=not strict)
    lines += sign_lines
    m_text = factored_text(m, negative)
    lines.append(f"have {hm} : (0 : ℝ) {'≤' if only_nonneg else '<'} {m_text} := by positivity")
    merged: dict[int, list[sp.Expr]] = {}      # one λ per hypothesis (a certificate may list one twice)
    for t in cert.get("eq_terms", []):
        merged.setdefault(int(t["hyp"]), []).append(step_expr(step, t["poly"]))
    eqs = [(k, sp.Add(*lams)) for k, lams in merged.items()]
    h2 = ctx.fresh("hsub")
    main = (f"(mul_pos {hm} (sub_pos.mpr {h2}))" if strict
            else f"(mul_nonneg {hm}{'' if only_nonneg else '.le'} (sub_nonneg.mpr {h2}))")
    terms: list[tuple[sp.Expr, str]] = [(sp.Integer(1), main)]
    for item in extra:
        terms.append((sp.Integer(1), item[2]))
    for k, _ in eqs:
        if goal.hypotheses[k].op != "=":
            raise RenderError(f"eq_terms names hypothesis {k}, which is not an equality")
    target, target_text = stated(sub.target)
    sub_sides = target_text[1:] if target_text else ctx.child(ctx.names).sides(sub)
    lam_texts, lhs_text, rhs_text, id_lines, id_comb = _identity(step, ctx, m_text, extra, eqs, sub_sides)
    terms += [(sp.Integer(1), ctx.names[k] if lam == -1 else f"{lam_texts[k][1]} * {ctx.names[k]}")
              for k, lam in eqs]
    if id_comb:
        hid = ctx.fresh("hid")
        statement = f"have {hid} : {lhs_text} = {rhs_text} := by"
        if len(statement) <= TACTIC_BUDGET // 2:
            lines.append(statement)
            lines += indent(id_lines + [f"linear_combination {id_comb}"])
            terms.append((sp.Integer(1), hid))
        else:
            # a statement this long (both targets printed) is not worth stating: its combination
            # enters the main one, where ``ring`` checks the sum of both identities at once
            lines += id_lines
            terms.append((sp.Integer(1), id_comb))
    lines.append(f"suffices {h2} : {target} by")
    lines.append(f"  linear_combination {combination(terms)}")
    return StepBlock(lines, [child_names(goal, ctx.names, sub, new_names)], [target_text])


def _lambda_printings(goal: Goal, eqs: list[tuple[int, sp.Expr]]) -> list[dict[int, tuple[str, str]]]:
    """Ways to print each ``λ`` and ``−λ``: as written (``N / D``: ``ring`` inverts the expanded
    ``D``, the atom a goal that divides by the same ``D`` has), and over its factored denominator
    with each factor signed as the goal writes it (the atoms of a goal that divides by the factors;
    one inverse of the expanded product would cost a huge elimination there)."""
    plain = {k: (coeff_text(lam), coeff_text(-lam)) for k, lam in eqs}
    written = written_denominators(goal.target.lhs, goal.target.rhs)
    factored = {k: (f"({factored_text(lam, negated_factors(lam, written))})",
                    f"({factored_text(-lam, negated_factors(lam, written))})") for k, lam in eqs}
    return [plain] if factored == plain else [plain, factored]


def _identity(step: Step, ctx: RenderContext, m_text: str, extra: list[tuple], eqs: list[tuple[int, sp.Expr]],
              sub_sides: tuple[str, str]) -> tuple[dict[int, tuple[str, str]], str, str, list[str], str]:
    """The identity ``m·slack G' + Σ c·(B − A) + Σ λ·eq = slack G``, written with the very texts
    whose types the combination's facts carry, and its proof: for each way of printing the ``λ``
    (:func:`_lambda_printings`), the shorter proof, one within the tactic budget first."""
    goal = step.goal
    left, right = ctx.sides(goal)
    left2, right2 = sub_sides
    best: tuple | None = None
    error: RenderError | None = None
    for lam_texts in _lambda_printings(goal, eqs):
        parts = [f"({m_text}) * (({right2}) - ({left2}))"]
        parts += [f"{coeff_text(item[0])} * ({item[3] if len(item) > 3 else lean_expr(item[1])})" for item in extra]
        parts += [f"{lam_texts[k][0]} * ({lean_expr(goal.hypotheses[k].lhs - goal.hypotheses[k].rhs)})"
                  for k, _ in eqs]
        lhs_text, rhs_text = " + ".join(parts), f"({right}) - ({left})"
        try:
            id_lines, id_comb = bridged_equality(lhs_text, rhs_text, list(goal.variables), ctx,
                                                 positive=positive_fact_prover(step, goal, ctx))
        except RenderError as exc:
            error = exc
            continue
        size = sum(map(len, id_lines)) + len(id_comb)
        key = (max([len(id_comb)] + [len(x) for x in id_lines]) > TACTIC_BUDGET, size)
        if best is None or key < best[0]:
            best = (key, (lam_texts, lhs_text, rhs_text, id_lines, id_comb))
    if best is None:
        raise error or RenderError("rewrite identity: no printing of the coefficients works")
    return best[1]


def render_rewrite(step: Step, ctx: RenderContext) -> StepBlock:
    m = step.certificate.get("multiplier", "1")
    return linear_step(step, ctx, [], [f"-- rewrite (multiplier {m})"])

