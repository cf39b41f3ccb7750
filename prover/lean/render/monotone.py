"""``monotone`` steps: ``f(A) ≤ f(B)`` from ``a ≤ b`` (and ``0 ≤ a``; ``0 < a`` for ``log``), ``f`` =
``Real.sqrt``, ``· ^ (r : ℝ)``, ``Real.exp`` or ``Real.log``.

The subgoals are stated in our printing (``suffices h : (a ≤ b) ∧ (0 ≤ a) by``, then
``refine ⟨?_, ?_⟩``; one subgoal: no conjunction), each proved by its subtree. Inside the ``by``,
with ``f(A)``, ``f(B)`` the goal's sides *as Lean sees them* (the statement's own text at the root):

    have hm : A ≤ B := by linear_combination h₁ + Σ cᵢ * fᵢ
    have hs : 0 ≤ A := by linear_combination h₂ + …          (rpow, strict √)
    exact Real.sqrt_le_sqrt hm                                  (Real.sqrt_lt_sqrt hs hm,
                                                                 Real.rpow_le_rpow hs hm (by positivity),
                                                                 Real.rpow_lt_rpow hs hm (by positivity),
                                                                 Real.exp_le_exp.mpr hm, Real.log_le_log hs hm)

``A``/``B`` are read off the sides' text (``Real.sqrt A``, ``A ^ (r : ℝ)`` with the certificate's
``r``); a side of another shape (our printing of a split form, ``Real.sqrt (1 / (q + r)) * |p + q|``)
is refused, never bridged by hope. ``a``/``b`` (ours) and ``A``/``B`` (Lean's) are equal as
rational functions; where a root inside is written differently (the user's ``√(q / (r + p))``
against our ``Real.sqrt (q / (p + r))``) the exact bridges of :mod:`prover.lean.render.atoms`
(``congrArg Real.sqrt``) enter the ``linear_combination``. Lemma signatures: docs/lean-names.md.
"""

from __future__ import annotations

from fractions import Fraction

from prover.ir import Step, expr_from_str
from prover.kernel.certificates import MonotoneCertificate
from prover.kernel.ir import IRError
from prover.lean import replay as rp
from prover.lean.render.atoms import (
    Facts,
    bridge_facts,
    bridged_equality,
    ring_closes,
    root_product_fact,
)
from prover.lean.render.common import RenderContext, RenderError, StepBlock, as_le, child_names, indent
from prover.lean.syntax import lean_expr, lean_rel

#: (function, strict) -> Mathlib lemma (docs/lean-names.md)
LEMMAS = {("sqrt", False): "Real.sqrt_le_sqrt", ("sqrt", True): "Real.sqrt_lt_sqrt",
          ("rpow", False): "Real.rpow_le_rpow", ("rpow", True): "Real.rpow_lt_rpow",
          ("exp", False): "Real.exp_le_exp.mpr", ("exp", True): "Real.exp_lt_exp.mpr",
          ("log", False): "Real.log_le_log", ("log", True): "Real.log_lt_log"}
#: the functions read as one application ``F A`` of the constant
_APPLIED = {"sqrt": (("const", "Real.sqrt"), ("const", "sqrt")), "exp": (("const", "Real.exp"),),
            "log": (("const", "Real.log"),)}


def _argument(text: str, cert: MonotoneCertificate) -> str:
    """``A`` for the side ``f(A)`` as Lean sees it; RenderError when the side is not ``f(·)``."""
    try:
        t = rp.canon(rp.parse_term(rp.lex(text), rp.Scope(opens=("Real",))))
    except (rp.NotModelled, rp.ModelError, RecursionError) as exc:
        raise RenderError(f"monotone: cannot read the side {text[:80]!r}: {exc}") from None
    if cert.function in _APPLIED:
        if t[0] == "app" and t[1] in _APPLIED[cert.function] and len(t[2]) == 1:
            return rp.show(t[2][0])
    elif t[0] == "pow" and t[2][0] == "ascr" and t[2][2] == rp.REAL:
        r = rp.num_value(t[2][1])
        if r is not None and cert.exponent is not None and Fraction(r) == Fraction(cert.exponent):
            return rp.show(t[1])
    raise RenderError(f"monotone: the side {text[:80]!r} is not written as the certificate's function")


def _have(statement: str, fact: str, fact_statement: str, lean_slack: str, our_slack: str,
          variables: list[str], ctx: RenderContext) -> tuple[list[str], str]:
    """``fact`` itself when it states ``statement``, else ``have h : statement := by
    linear_combination fact + Σ cᵢ·bridgeᵢ`` (the bridges make the user's atoms ours; none when
    they agree): the lines and the name."""
    if " ".join(statement.split()) == " ".join(fact_statement.split()):
        return [], fact
    facts = Facts(ctx)
    bridges = bridge_facts(lean_slack, our_slack, variables, facts) or []
    if ring_closes(lean_slack, our_slack, bridges, variables):
        # bridge_facts gives lean − ours ≡ Σ c·(lhs − rhs); the goal is Lean's, the fact ours: −c each
        lines, terms = facts.lines, [fact] + [f"(-({f.coeff})) * {f.proof}" for f in bridges]
    else:
        # equal only as rational functions (``q / (1 / p)`` against ``p * q``: ``ring`` keeps
        # ``(p⁻¹)⁻¹`` an atom): the field identity ours = Lean's, whose combination enters as is
        lines, comb = bridged_equality(our_slack, lean_slack, variables, ctx)
        terms = [fact] + ([comb] if comb else [])
    name = ctx.fresh("hmono")
    return lines + [f"have {name} : {statement} := by linear_combination {' + '.join(terms)}"], name


def _arguments(small: str, big: str, cert: MonotoneCertificate, variables: list[str],
               ctx: RenderContext, facts: Facts) -> tuple[str, str, list[tuple[int, str]]]:
    """``A``, ``B`` for the sides ``f(A)``, ``f(B)``, and the facts ``S = f(arg)`` (with the sign
    of ``S`` in the goal's slack) for each side written otherwise (:func:`prover.lean.render.atoms.root_product_fact`)."""
    out, side_facts = [], []
    for sign, text, arg in ((-1, small, cert.small), (1, big, cert.big)):
        try:
            out.append(_argument(text, cert))
        except RenderError:
            if cert.function != "sqrt":
                raise
            printed = lean_expr(expr_from_str(arg, variables))
            try:
                side_facts.append((sign, root_product_fact(text, printed, variables, facts)))
            except RenderError:
                raise RenderError(f"monotone: the side {text[:80]!r} is not written as the certificate's function") from None
            out.append(printed)
    return out[0], out[1], side_facts


def render_monotone(step: Step, ctx: RenderContext) -> StepBlock:
    try:
        cert = MonotoneCertificate.from_json(step.certificate)
    except IRError as exc:
        raise RenderError(f"monotone: {exc}") from None
    goal, subs = step.goal, step.subgoals
    strict = goal.target.strict
    need_sign = cert.function in ("rpow", "log") or (cert.function == "sqrt" and strict)
    if len(subs) != (2 if need_sign else 1):
        raise RenderError("monotone: wrong number of subgoals")
    variables = list(goal.variables)
    side_facts = Facts(ctx)
    A, B, sides = _arguments(*ctx.sides(goal), cert, variables, ctx, side_facts)
    a, b, sub_strict = as_le(subs[0].target)
    if strict and not sub_strict:
        raise RenderError("monotone: a strict goal needs a strict subgoal")
    key = ctx.fresh("hmono")
    parts = [f"({lean_rel(s.target)})" for s in subs]
    lines = [f"-- peel the increasing function ({cert.function}): compare the arguments",
             f"suffices {key} : {' ∧ '.join(parts)} by"]
    inner: list[str] = list(side_facts.lines)
    if need_sign:
        h_order, h_sign = ctx.fresh("hmono"), ctx.fresh("hmono")
        inner.append(f"obtain ⟨{h_order}, {h_sign}⟩ := {key}")
    else:
        h_order, h_sign = key, ""
    rel = "<" if strict else "≤"
    pre, hm = _have(f"{A} {rel} {B}", h_order, lean_rel(subs[0].target), f"({B}) - ({A})",
                    f"({lean_expr(b)}) - ({lean_expr(a)})", variables, ctx)
    inner += pre
    args = [hm]
    if need_sign:
        s0, s1, _ = as_le(subs[1].target)
        pre, hs = _have(f"0 {'<' if cert.function == 'log' else '≤'} {A}", h_sign, lean_rel(subs[1].target), f"{A}",
                        f"({lean_expr(s1)}) - ({lean_expr(s0)})", variables, ctx)
        inner += pre
        args = [hs, hm]
    if cert.function == "rpow":
        args.append("(by positivity)")
    inner += _conclusion(f"{LEMMAS[(cert.function, strict)]} {' '.join(args)}", A, B, rel, sides, ctx)
    lines += indent(inner)
    if need_sign:
        lines.append("refine ⟨?_, ?_⟩")
    return StepBlock(lines, [child_names(goal, ctx.names, s, {}) for s in subs])


def _conclusion(proof: str, A: str, B: str, rel: str, sides: list[tuple[int, str]], ctx: RenderContext) -> list[str]:
    """``exact proof`` (``f(A) rel f(B)``), or, where a side is not written ``f(·)``, that fact
    and the side facts in one ``linear_combination`` (a side ``S = f(arg)`` with sign ``σ`` in the
    goal's slack enters with coefficient ``−σ``)."""
    if not sides:
        return [f"exact {proof}"]
    h = ctx.fresh("hmono")
    terms = [h] + [f"{'-' if sign > 0 else ''}{name}" for sign, name in sides]
    return [f"have {h} : Real.sqrt ({A}) {rel} Real.sqrt ({B}) := {proof}",
            f"linear_combination {' + '.join(terms)}"]
