"""Render a kernel proof (``prover.ir``) as a Lean 4 file that replays every certificate.

Every step becomes one tactic block that turns the Lean goal for ``step.goal`` into exactly the
Lean goals for ``step.subgoals`` (in order), so a backend can run a proof step by step.

* ``close``/``sos``: ``linear_combination`` with the certificate's exact weights (primary, see
  below); ``close``/``positivity``: ``positivity`` on the slack, then ``linear_combination``.
* ``rewrite``: ``positivity`` for the multiplier; the identity ``m·slack(G') + Σλ·eq = slack(G)``
  by ``field_simp``/``ring`` when denominators occur; ``suffices G'`` and a ``linear_combination``
  that adds ``m·slack(G') ≥ 0`` and the equalities with their exact coefficients.
* ``scale``: each application is the catalogue lemma with explicit arguments (side conditions by
  ``positivity``), weighted by its coefficient inside the same ``linear_combination``.
* ``split``: ``rcases le_total …``; orderings are proved by case lemmas (``∀`` over the
  variables when the split uses symmetry) and dispatched with ``linarith`` on the chain.
* ``introduce``/``substitute``: ``suffices ∀ new variables, new hypotheses → G'`` and an
  instantiation at the definitions.

Why ``linear_combination`` and not ``nlinarith`` for SOS certificates: since Mathlib PR #16841
(in the pinned v4.16.0) ``linear_combination`` proves ``≤``/``<`` goals from nonnegative
combinations and checks the remainder with ``ring``; given the exact weights there is no search
at all, so success does not depend on heuristics or heartbeats. ``close_style="nlinarith"``
renders the same product terms as ``nlinarith`` hints for older Mathlib releases.

Strict hypotheses used in a non-strict product enter as ``(sub_pos.mpr h).le``; every fact fed
to ``linear_combination`` is stated as ``0 ≤ …`` / ``0 < …`` so its type is syntactic.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.ir import Goal, Proof, Step, expr_from_str, relation_from_json
from prover.lean.syntax import (
    declaration_names,
    has_denominator,
    lean_expr,
    lean_ident,
    lean_rel,
    ring_identity,
)
from prover.problem import Problem, Relation, var
from prover.tactics.lemma import LemmaLookup

#: The pinned toolchain the rendered files are written against (see lean_project/).
MATHLIB_TAG = "v4.16.0"
CLOSE_STYLES = ("linear_combination", "nlinarith")
REAL_DIVISION_MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"


#: First line of every rendered file. It claims only what is true when the file is written: the
#: text targets this Mathlib; nothing has compiled it (``prover lean check FILE`` or
#: ``prover prove --verify lean`` does).
HEADER_LINE = (f"-- Rendered by prover for Mathlib {MATHLIB_TAG} (lean_project/); not compiled when written: "
               "check it with `prover lean check FILE`.")


class RenderError(ValueError):
    """A step this renderer cannot turn into Lean (the message names the step and why)."""


@dataclass
class _Ctx:
    """Lean names of the current goal's hypotheses (parallel to ``goal.hypotheses``)."""

    names: list[str]
    counter: itertools.count
    lemmas: LemmaLookup | None
    close_style: str
    used: set[str] = field(default_factory=set)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    def child(self, names: list[str]) -> _Ctx:
        return _Ctx(names, self.counter, self.lemmas, self.close_style, self.used)


@dataclass
class StepBlock:
    """The tactic text of one step and the contexts of its subgoals (for stepwise replay)."""

    lines: list[str]
    child_names: list[list[str]] = field(default_factory=list)


# ------------------------------------------------------------------ helpers


def _expr(step: Step, text: str, goal: Goal | None = None) -> sp.Expr:
    g = goal or step.goal
    return expr_from_str(text, list(g.variables))


def _le(r: Relation) -> tuple[sp.Expr, sp.Expr, bool]:
    """(L, R, strict) with the relation read as ``L ≤ R`` or ``L < R``."""
    if r.op in ("<=", "<"):
        return r.lhs, r.rhs, r.op == "<"
    if r.op in (">=", ">"):
        return r.rhs, r.lhs, r.op == ">"
    raise RenderError(f"expected an inequality, got {r.op}")


def _slack_fact(r: Relation, name: str, strict: bool) -> str:
    """A term proving ``0 ≤ slack`` (or ``0 < slack`` when ``strict``) from hypothesis ``name``."""
    if r.op in ("=", "!="):
        raise RenderError(f"hypothesis {name} is not an inequality")
    if strict:
        if not r.strict:
            raise RenderError(f"strict use of non-strict hypothesis {name}")
        return f"(sub_pos.mpr {name})"
    return f"(sub_pos.mpr {name}).le" if r.strict else f"(sub_nonneg.mpr {name})"


def _coeff(c: sp.Expr) -> str:
    c = sp.sympify(c)
    return lean_expr(c) if (c.is_Integer and c >= 0) or c.is_Symbol else f"({lean_expr(c)})"


def _combo(terms: list[tuple[sp.Expr, str]]) -> str:
    """``c₁ * t₁ + c₂ * t₂ …`` with unit weights left out."""
    parts = []
    for c, t in terms:
        parts.append(t if c == 1 else f"{_coeff(c)} * {t}")
    return " + ".join(parts)


def _indent(lines: list[str], n: int = 2) -> list[str]:
    return [(" " * n + ln) if ln else ln for ln in lines]


def _hyp_name(goal: Goal, names: list[str], rel: Relation) -> str | None:
    for h, n in zip(goal.hypotheses, names):
        if h == rel:
            return n
    return None


def _child_names(parent: Goal, names: list[str], child: Goal, new: dict[int, str]) -> list[str]:
    out = []
    for i, h in enumerate(child.hypotheses):
        if i in new:
            out.append(new[i])
            continue
        n = _hyp_name(parent, names, h)
        if n is None:
            raise RenderError(f"subgoal hypothesis {lean_rel(h)} is neither in the goal nor introduced by the step")
        out.append(n)
    return out


# ------------------------------------------------------------------ close


def _sos_terms(step: Step, goal: Goal, ctx: _Ctx, cert: dict) -> tuple[list[tuple[sp.Expr, str]], list[str]]:
    """The weighted facts of an SOS certificate: ``[(weight, proof term)]`` and nlinarith hints."""
    _, _, strict_target = _le(goal.target) if goal.target.op != "=" else (0, 0, False)
    terms: list[tuple[sp.Expr, str]] = []
    hints: list[str] = []
    strict_done = False
    for t in cert.get("terms", []):
        c = sp.Rational(t["coeff"])
        q = _expr(step, t["poly"], goal)
        mult = [int(k) for k in t.get("mult", [])]
        if c == 0:
            continue
        use_strict = (strict_target and not strict_done and q.is_number and q != 0
                      and all(goal.hypotheses[k].strict for k in mult))
        facts = [_slack_fact(goal.hypotheses[k], ctx.names[k], use_strict) for k in mult]
        if use_strict:
            strict_done = True
        if q.is_number:
            weight = c * q ** 2
            if not facts:
                continue          # a constant: linear_combination's ring check absorbs it
            proof = _fold("mul_pos" if use_strict else "mul_nonneg", facts)
        else:
            weight = c
            sq = f"(sq_nonneg ({lean_expr(q)}))"
            proof = _fold("mul_nonneg", facts + [sq]) if facts else sq
        terms.append((weight, proof))
        hints.append(proof)
    for t in cert.get("eq_terms", []):
        k = int(t["hyp"])
        lam = _expr(step, t["poly"], goal)
        if goal.hypotheses[k].op != "=":
            raise RenderError(f"eq_terms names hypothesis {k}, which is not an equality")
        # linear_combination adds c·(rhs − lhs) of ``h : lhs = rhs`` to an inequality's slack
        # but c·(lhs − rhs) to an equality goal's ``lhs − rhs``
        terms.append((lam if goal.target.op == "=" else -lam, ctx.names[k]))
        hints.append(ctx.names[k])
    return terms, hints


def _fold(fn: str, facts: list[str]) -> str:
    out = facts[0]
    for f in facts[1:]:
        out = f"({fn} {out} {f})"
    return out


def _sos_value(step: Step, goal: Goal, cert: dict) -> tuple[sp.Expr, str]:
    """The certificate's right-hand side ``Σ c·Π slack·q² + Σ λ·eq``, exactly and as Lean text
    written term by term (so that no denominator is cancelled in the printed form)."""
    value, parts = sp.Integer(0), []
    for t in cert.get("terms", []):
        c, q = sp.Rational(t["coeff"]), _expr(step, t["poly"], goal)
        slacks = [goal.hypotheses[int(k)].slack() for k in t.get("mult", [])]
        value += c * sp.Mul(*slacks) * q**2
        parts.append(" * ".join([_coeff(c)] + [f"({lean_expr(x)})" for x in slacks] + [f"({lean_expr(q)}) ^ 2"]))
    for t in cert.get("eq_terms", []):
        h = goal.hypotheses[int(t["hyp"])]
        lam = _expr(step, t["poly"], goal)
        value += lam * (h.lhs - h.rhs)
        parts.append(f"{_coeff(lam)} * ({lean_expr(h.lhs - h.rhs)})")
    return value, " + ".join(parts) or "0"


def _render_close_cert(step: Step, goal: Goal, ctx: _Ctx, cert: dict) -> list[str]:
    method = cert.get("method")
    if method == "sos":
        terms, hints = _sos_terms(step, goal, ctx, cert)
        if goal.target.op == "=" and cert.get("terms"):
            raise RenderError("an equality target needs an SOS certificate without square terms")
        slack = goal.target.lhs - goal.target.rhs if goal.target.op == "=" else goal.target.slack()
        value, value_text = _sos_value(step, goal, cert)
        lines: list[str] = []
        if not ring_identity(slack - value):
            # the identity needs denominators cleared: state it, prove it by field_simp; ring,
            # and let linear_combination use it (its own ring check then needs no cancellation)
            hid = ctx.fresh("hid")
            lines += [f"have {hid} : {lean_expr(slack)} = {value_text} := by", "  field_simp", "  ring"]
            terms.append((sp.Integer(1) if goal.target.op == "=" else sp.Integer(-1), hid))
        elif ctx.close_style == "nlinarith" and goal.target.op != "=":
            return [f"nlinarith [{', '.join(hints)}]"]
        return lines + [f"linear_combination {_combo(terms)}" if terms else "linear_combination"]
    if method == "positivity":
        if goal.target.op == "=":
            raise RenderError("positivity cannot close an equality")
        if goal.target.op == "!=":
            return ["positivity"]
        _, _, strict = _le(goal.target)
        key = ctx.fresh("hpos")
        rel = "<" if strict else "≤"
        return [f"have {key} : (0 : ℝ) {rel} {lean_expr(goal.target.slack())} := by positivity",
                f"linear_combination {key}"]
    raise RenderError(f"unknown close method {method!r}")


def _render_close(step: Step, ctx: _Ctx) -> StepBlock:
    lines = [f"-- close ({step.certificate.get('method')})"]
    lines += _render_close_cert(step, step.goal, ctx, step.certificate)
    return StepBlock(lines)


# ------------------------------------------------------------------ rewrite / scale


def _new_hypotheses(step: Step, ctx: _Ctx, sub: Goal) -> tuple[list[str], dict[int, str]]:
    lines: list[str] = []
    names: dict[int, str] = {}
    for nh in step.certificate.get("new_hypotheses", []):
        i = int(nh["index"])
        rel = sub.hypotheses[i]
        name = ctx.fresh("hn")
        g = step.goal.with_target(rel)
        body = _render_close_cert(step, g, ctx, nh["proof"])
        if len(body) == 1:
            lines.append(f"have {name} : {lean_rel(rel)} := by {body[0]}")
        else:
            lines.append(f"have {name} : {lean_rel(rel)} := by")
            lines += _indent(body)
        names[i] = name
    return lines, names


def _linear_step(step: Step, ctx: _Ctx, extra: list[tuple[sp.Expr, sp.Expr, str]],
                 pre: list[str]) -> StepBlock:
    """Shared shape of rewrite and scale: ``slack G = m·slack G' + Σ c·(B − A) + Σ λ·eq``.

    ``extra`` holds ``(c, B − A, proof of A ≤ B)`` for scale applications."""
    goal, sub = step.goal, step.subgoals[0]
    cert = step.certificate
    m = _expr(step, str(cert.get("multiplier", "1")))
    L, R, strict = _le(goal.target)
    L2, R2, strict2 = _le(sub.target)
    if strict and not strict2:
        raise RenderError("a strict goal needs a strict subgoal")
    lines = list(pre)
    hyp_lines, new_names = _new_hypotheses(step, ctx, sub)
    lines += hyp_lines
    hm = ctx.fresh("hm")
    lines.append(f"have {hm} : (0 : ℝ) < {lean_expr(m)} := by positivity")
    eqs = [(int(t["hyp"]), _expr(step, t["poly"])) for t in cert.get("eq_terms", [])]
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
                         + [f"{_coeff(c)} * ({lean_expr(d)})" for c, d, _ in extra]
                         + [f"{_coeff(lam)} * ({lean_expr(goal.hypotheses[k].lhs - goal.hypotheses[k].rhs)})"
                            for k, lam in eqs])
        lines.append(f"have {hid} : {rhs} = {lean_expr(R - L)} := by")
        lines += _indent(["field_simp", "ring"])
        terms.append((sp.Integer(1), hid))
    lines.append(f"suffices {h2} : {lean_rel(sub.target)} by")
    lines.append(f"  linear_combination {_combo(terms)}")
    return StepBlock(lines, [_child_names(goal, ctx.names, sub, new_names)])


def _render_rewrite(step: Step, ctx: _Ctx) -> StepBlock:
    m = step.certificate.get("multiplier", "1")
    return _linear_step(step, ctx, [], [f"-- rewrite (multiplier {m})"])


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


def _application(step: Step, app: dict, ctx: _Ctx) -> tuple[list[str], sp.Expr, sp.Expr, str]:
    """Lines proving one scale application ``A ≤ B`` (named by the returned fact), and A, B.

    A kernel-trusted lemma is replayed from its own exact certificate (so no Lean lemma is
    needed); a Lean-trusted one is applied by its ``lean_name`` with explicit arguments."""
    name = app.get("lemma", "")
    lem = ctx.lemmas(name) if ctx.lemmas else None
    if lem is None:
        raise RenderError(f"scale step uses lemma {name!r}, unknown to the catalogue given to the renderer")
    inst = {k: _expr(step, v) for k, v in app.get("instance", {}).items()}
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
        body = _render_close_cert(step, g, ctx.child(names), _instantiate_cert(lem.certificate, lem.variables, sub))
        return lines + [head] + _indent(body), A, B, fact
    if not lem.lean_name:
        raise RenderError(f"catalogue lemma {name!r} has no lean_name")
    ctx.used.add(lem.lean_name)
    args = [] if lem.lean_name in HYPOTHESES_ONLY else [f"({lean_expr(inst[v])})" for v in lem.variables]
    args += [f"({_side_proof(r)})" for r in sides]
    return [f"-- {name}: {lem.lean_name}", head,
            f"  linear_combination {' '.join([lem.lean_name] + args)}"], A, B, fact


def _fact_application(step: Step, app: dict, ctx: _Ctx) -> tuple[list[str], sp.Expr, sp.Expr, str]:
    """``0 ≤ slack`` of a hypothesis of the goal, or of a fact proved by its close certificate."""
    if "hypothesis" in app:
        k = int(app["hypothesis"])
        rel, lines, h = step.goal.hypotheses[k], [], ctx.names[k]
    else:
        rel = relation_from_json(app["fact"], step.goal.variables)
        h = ctx.fresh("hfact")
        body = _render_close_cert(step, step.goal.with_target(rel), ctx, app["proof"])
        lines = [f"have {h} : {lean_rel(rel)} := by"] + _indent(body)
    L, R, _ = _le(rel)
    fact = ctx.fresh("happ")
    lines.append(f"have {fact} : (0 : ℝ) ≤ {lean_expr(R - L)} := {_slack_fact(rel, h, False)}")
    return lines, sp.Integer(0), R - L, fact


def _render_scale(step: Step, ctx: _Ctx) -> StepBlock:
    lines = ["-- scale"]
    extra = []
    for app in step.certificate.get("applications", []):
        use = _fact_application if ("hypothesis" in app or "fact" in app) else _application
        app_lines, A, B, ha = use(step, app, ctx)
        c = _expr(step, str(app.get("coefficient", "1")))
        hc = ctx.fresh("hc")
        lines += app_lines
        lines.append(f"have {hc} : (0 : ℝ) ≤ {lean_expr(c)} := by positivity")
        extra.append((c, B - A, f"(mul_nonneg {hc} (sub_nonneg.mpr {ha}))"))
    return _linear_step(step, ctx, extra, lines)


# ------------------------------------------------------------------ split


def _render_split(step: Step, ctx: _Ctx) -> StepBlock:
    cert = step.certificate
    kind = cert.get("cases")
    if kind == "sign":
        p = _expr(step, cert["expr"])
        h = ctx.fresh("hsign")
        lines = [f"-- split on the sign of {lean_expr(p)}",
                 f"rcases le_total 0 ({lean_expr(p)}) with {h} | {h}"]
        kids = [_child_names(step.goal, ctx.names, s, {len(s.hypotheses) - 1: h}) for s in step.subgoals]
        return StepBlock(lines, kids)
    if kind == "order":
        return _render_order_split(step, ctx)
    raise RenderError(f"unknown split kind {kind!r}")


def _chain(sub: Goal, n: int) -> list[str]:
    """The variable ordering a subgoal of an order split stands for (from its chain hypotheses)."""
    chain = sub.hypotheses[len(sub.hypotheses) - (n - 1):]
    order: list[str] = []
    for r in chain:
        if r.op not in (">=", "<=") or not (r.lhs.is_Symbol and r.rhs.is_Symbol):
            raise RenderError("order split subgoal does not end with its variable chain")
        hi, lo = (r.lhs, r.rhs) if r.op == ">=" else (r.rhs, r.lhs)
        if not order:
            order.append(hi.name)
        elif order[-1] != hi.name:
            raise RenderError("order split chain is not consecutive")
        order.append(lo.name)
    return order


def _group(vs: list[str], symmetry: str | None) -> list[dict[str, str]]:
    if symmetry == "full":
        return [dict(zip(vs, p)) for p in itertools.permutations(vs)]
    if symmetry == "cyclic":
        return [dict(zip(vs, vs[i:] + vs[:i])) for i in range(len(vs))]
    return [dict(zip(vs, vs))]


def _render_order_split(step: Step, ctx: _Ctx) -> StepBlock:
    cert = step.certificate
    vs = [str(v) for v in cert["variables"]]
    n = len(vs)
    if n < 2:
        raise RenderError("order split needs at least two variables")
    sym = cert.get("symmetry")
    goal = step.goal
    quantify = sym in ("full", "cyclic")
    base = len(goal.hypotheses)
    # hypotheses carried into the case lemmas (those mentioning the split variables)
    moved = [i for i, h in enumerate(goal.hypotheses)
             if quantify and {s.name for s in h.free_symbols()} & set(vs)]
    lines = [f"-- split on the order of {', '.join(vs)}" + (f" ({sym} symmetry)" if sym else "")]
    case_names = [ctx.fresh("hcase") for _ in step.subgoals]
    props = []
    kids = []
    intros = []
    for sub in step.subgoals:
        order = _chain(sub, n)
        chain = [f"{lean_ident(order[i])} ≥ {lean_ident(order[i + 1])}" for i in range(n - 1)]
        hyps = [lean_rel(goal.hypotheses[i]) for i in moved]
        binder = f"∀ {' '.join(lean_ident(v) for v in vs)} : ℝ, " if quantify else ""
        props.append(binder + " → ".join(hyps + chain + [lean_rel(sub.target)]))
        hn = {i: ctx.fresh("hh") for i in moved}
        cn = [ctx.fresh("hord") for _ in range(n - 1)]
        names = [hn.get(i, ctx.names[i]) for i in range(base)]
        new = {base + j: cn[j] for j in range(n - 1)}
        if len(sub.hypotheses) != base + n - 1 or tuple(sub.hypotheses[:base]) != goal.hypotheses:
            raise RenderError("order split subgoal is not the goal plus its variable chain")
        kids.append([names[i] if i < base else new[i] for i in range(len(sub.hypotheses))])
        binders = ([lean_ident(v) for v in vs] if quantify else []) + [hn[i] for i in moved] + cn
        intros.append(f"fun {' '.join(binders)} => ?_")
    key = ctx.fresh("hcases")
    prop = " ∧ ".join(f"({p})" for p in props) if len(props) > 1 else props[0]
    lines.append(f"suffices {key} : {prop} by")
    if len(props) > 1:
        lines.append(f"  obtain ⟨{', '.join(case_names)}⟩ := {key}")
    else:
        lines.append(f"  have {case_names[0]} := {key}")
    cases = []
    for i, j in itertools.combinations(range(n), 2):
        h = ctx.fresh("hle")
        cases.append(f"rcases le_total {lean_ident(vs[i])} {lean_ident(vs[j])} with {h} | {h}")
    lines.append("  " + " <;> ".join(cases) + " <;>")
    alts = []
    for cname, sub in zip(case_names, step.subgoals):
        for g in _group(vs, sym):
            args = [f"({lean_ident(g[v])})" for v in vs] if quantify else []
            args += ["(by linarith)"] * (len(moved) + n - 1)
            alts.append(f"linear_combination {cname} {' '.join(args)}".rstrip())
    lines.append("    first")
    lines += [f"    | {a}" for a in alts]
    if len(props) > 1:
        lines.append(f"refine ⟨{', '.join(intros)}⟩")
    else:
        lines.append(f"refine {intros[0]}")
    return StepBlock(lines, kids)


# ------------------------------------------------------------------ introduce / substitute


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


def _render_forall_step(step: Step, ctx: _Ctx, new_vars: list[str], inst: dict[str, sp.Expr],
                        title: str, defs: dict[str, sp.Expr], fallback: str) -> StepBlock:
    goal, sub = step.goal, step.subgoals[0]
    old = [i for i, h in enumerate(sub.hypotheses) if _hyp_name(goal, ctx.names, h) is None
           or any(v in {s.name for s in h.free_symbols()} for v in new_vars)]
    key = ctx.fresh("hkey")
    hn = {i: ctx.fresh("hv") for i in old}
    prop = (f"∀ {' '.join(lean_ident(v) for v in new_vars)} : ℝ, "
            + " → ".join([lean_rel(sub.hypotheses[i]) for i in old] + [lean_rel(sub.target)]))
    args = [f"({lean_expr(inst[v])})" for v in new_vars]
    args += [_special_hyp_proof(sub.hypotheses[i], defs, fallback) for i in old]
    lines = [title, f"suffices {key} : {prop} by", f"  linear_combination {key} {' '.join(args)}",
             f"intro {' '.join([lean_ident(v) for v in new_vars] + [hn[i] for i in old])}"]
    names = [hn[i] if i in hn else _hyp_name(goal, ctx.names, h) for i, h in enumerate(sub.hypotheses)]
    return StepBlock(lines, [names])


def _render_introduce(step: Step, ctx: _Ctx) -> StepBlock:
    sub = step.subgoals[0]
    defs = {v: expr_from_str(t, list(step.goal.variables)) for v, t in step.certificate["definitions"].items()}
    title = "-- introduce " + ", ".join(f"{v} = {lean_expr(d)}" for v, d in defs.items())
    new_vars = [v for v in sub.variables if v in defs]
    return _render_forall_step(step, ctx, new_vars, defs, title, defs, "(by positivity)")


def _render_substitute(step: Step, ctx: _Ctx) -> StepBlock:
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


_RENDERERS = {"close": _render_close, "rewrite": _render_rewrite, "scale": _render_scale,
              "split": _render_split, "introduce": _render_introduce, "substitute": _render_substitute}


def step_block(step: Step, names: list[str], *, lemmas: LemmaLookup | None = None,
               close_style: str = "linear_combination", counter: itertools.count | None = None) -> StepBlock:
    """The tactic block of one step, given the Lean names of its goal's hypotheses.

    Pass one ``counter`` for all steps of a proof so fresh names never repeat."""
    if close_style not in CLOSE_STYLES:
        raise RenderError(f"unknown close style {close_style!r}")
    ctx = _Ctx(list(names), counter or itertools.count(1), lemmas, close_style)
    return _guarded(step, ctx)


def _guarded(step: Step, ctx: _Ctx) -> StepBlock:
    try:
        return _RENDERERS[step.kind](step, ctx)
    except RenderError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise RenderError(f"{step.kind} step: malformed certificate ({type(exc).__name__}: {exc})") from None


def _render_tree(step: Step, ctx: _Ctx) -> list[str]:
    block = _guarded(step, ctx)
    if len(block.child_names) != len(step.children):
        raise RenderError(f"{step.kind} step has {len(step.children)} children for "
                          f"{len(block.child_names)} subgoals")
    lines = list(block.lines)
    kids = [_render_tree(c, ctx.child(n)) for c, n in zip(step.children, block.child_names)]
    if len(kids) == 1:
        lines += kids[0]
    else:
        for k in kids:
            lines.append(f"· {k[0]}")
            lines += _indent(k[1:])
    return lines


# ------------------------------------------------------------------ statement and file


def hypothesis_refs(problem: Problem) -> tuple[list[tuple[str, str]], list[str]]:
    """Lean binders ``(name, proposition)`` and, per hypothesis, the term naming it.

    Hypotheses ``h.1``, ``h.2``, … that came from one binder ``h : A ∧ B ∧ C`` become one
    binder again; their references are ``h.1``, ``h.2.1``, ``h.2.2``."""
    binders: list[tuple[str, list[Relation]]] = []
    for h in problem.hypotheses:
        base, _, idx = h.name.rpartition(".")
        if base and idx.isdigit() and binders and binders[-1][0] == base:
            binders[-1][1].append(h.rel)
        elif base and idx.isdigit():
            binders.append((base, [h.rel]))
        else:
            binders.append((h.name, [h.rel]))
    out, refs = [], []
    for name, rels in binders:
        ident = lean_ident(name)
        out.append((ident, " ∧ ".join(lean_rel(r, as_written=True) for r in rels)))
        n = len(rels)
        for i in range(n):
            path = ".2" * i + (".1" if i < n - 1 else "")
            refs.append(ident + path if n > 1 else ident)
    return out, refs


def theorem_name(problem: Problem) -> str:
    return lean_ident(problem.name.rsplit("/", 1)[-1] if "/" in problem.name else problem.name)


def statement(problem: Problem) -> str:
    binders, _ = hypothesis_refs(problem)
    vs = " ".join(lean_ident(v) for v in problem.variables)
    parts = [f"theorem {theorem_name(problem)}"]
    if vs:
        parts.append(f"({vs} : ℝ)")
    parts += [f"({n} : {p})" for n, p in binders]
    return " ".join(parts) + f" :\n    {lean_rel(problem.goal, as_written=True)}"


def header(problem: Problem, used_lemmas: set[str] | frozenset[str] = frozenset()) -> str:
    """Imports (``ProverLemmas`` from lean_project/ when a ``Prover.*`` lemma is used), ``open
    Real``, and the benchmark's real-division macro when the problem was read that way."""
    imports = ["import Mathlib"] + (["import ProverLemmas"] if any(n.startswith("Prover.") for n in used_lemmas)
                                    else [])
    lines = [HEADER_LINE, *imports, "", "open Real", ""]
    if problem.real_division:
        lines += ["-- Benchmark convention: every `/` is real division.", REAL_DIVISION_MACRO, ""]
    return "\n".join(lines) + "\n"


def root_prelude(problem: Problem, refs: list[str]) -> list[str]:
    """Copies of ``e > 0``/``e ≥ 0`` hypotheses as ``0 < e``/``0 ≤ e`` (the form ``positivity``
    looks for), then a ``≥``/``>`` goal turned into ``≤``/``<`` (the form every step expects)."""
    lines = []
    for k, (h, ref) in enumerate(zip(problem.hypotheses, refs)):
        r = h.rel
        if r.op in (">", ">=") and sp.sympify(r.rhs) == 0:
            lines.append(f"have hpos0_{k + 1} : {lean_rel(r)} := {ref}")
    op = problem.goal.op
    return lines + {">=": ["rw [ge_iff_le]"], ">": ["rw [gt_iff_lt]"]}.get(op, [])


def catalogue_lookup() -> LemmaLookup | None:
    """The catalogue's ``prover.tactics.catalogue.lemma_lookup(name) -> LemmaStatement | None``,
    when that module exists (scale steps need it for the Lean names of lemmas)."""
    try:
        from prover.tactics import catalogue  # type: ignore[attr-defined]
    except ImportError:
        return None
    make = getattr(catalogue, "lemma_lookup", None)
    return make() if callable(make) else None   # a factory: lemma_lookup(directory=None) -> lookup


_BARE_SQRT = re.compile(r"(?<![\w.])sqrt\b")


def original_statement(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str] | None:
    """The user's own statement text (without its proof) and its name, when it is known and can be
    used verbatim: ``problem.meta["lean"]`` (set by the benchmark loader) or
    ``proof.meta["lean_statement"]``, a ``theorem``/``lemma`` without the LIPS prefix notation
    ``sqrt`` (which needs a header we do not emit)."""
    text = problem.meta.get("lean") or (proof_meta or {}).get("lean_statement")
    if not isinstance(text, str) or ":=" not in text:
        return None
    names = declaration_names(text)
    if len(names) != 1 or _BARE_SQRT.search(text):
        return None
    start = re.search(r"^\s*(?:theorem|lemma)\b", text, re.MULTILINE)
    head = text[start.start():text.rindex(":=")].strip() if start else ""
    return (head, names[0]) if head else None


def theorem_head(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str]:
    """``(statement without proof, theorem name)``: the user's text when usable, else ours."""
    return original_statement(problem, proof_meta) or (statement(problem), theorem_name(problem))


def render_proof(proof: Proof, *, lemmas: LemmaLookup | None = None,
                 close_style: str = "linear_combination", print_axioms: bool = True) -> str:
    """A complete ``.lean`` file proving ``proof.problem`` by replaying ``proof``'s certificates.

    ``lemmas`` resolves the catalogue lemmas of scale steps (default: :func:`catalogue_lookup`)."""
    if lemmas is None:
        lemmas = catalogue_lookup()
    if close_style not in CLOSE_STYLES:
        raise RenderError(f"unknown close style {close_style!r}")
    problem = proof.problem
    root_goal = Goal.from_problem(problem)
    if proof.root.goal != root_goal:
        raise RenderError("the proof's root goal is not the problem's goal")
    _, refs = hypothesis_refs(problem)
    ctx = _Ctx(refs, itertools.count(1), lemmas, close_style)
    body = root_prelude(problem, refs) + _render_tree(proof.root, ctx)
    head, name = theorem_head(problem, proof.meta)
    text = header(problem, ctx.used) + head + " := by\n" + "\n".join(_indent(body)) + "\n"
    if print_axioms:
        text += f"\n#print axioms {name}\n"
    return text


def render_step_tactic(step: Step, names: list[str], **kw: Any) -> str:
    """The tactic text of one step, for running it on a backend's proof state."""
    return "\n".join(step_block(step, names, **kw).lines)
