"""``scale`` steps: catalogue lemmas (Mathlib names or replayed kernel certificates) and facts.

Every application contributes ``c · (B − A)`` to the step's identity through a proof term of
``0 ≤ c * (B − A)``, built from a proof of ``A ≤ B`` with ``sub_nonneg``/``sub_pos`` and
``mul_nonneg``. No type is ever restated from our own (sympy) printing where Lean would have to
check it against a term: a hypothesis is used as itself (its type is whatever the statement
says), and the facts we introduce are proved by tactics against the type we state, or (for a
Mathlib lemma with implicit arguments) stated exactly as the lemma's instantiated conclusion.

A lemma applied by name has its conclusion computed from its signature (the replay model's copy of
the Lean source) at the instance; where that conclusion writes an atom differently from our
printing of ``A ≤ B`` (``qm_am2_sqrt``'s ``Real.sqrt ((x ^ 2 + y ^ 2) / 2)`` at ``x, y := a, b``
against our ``Real.sqrt (a ^ 2 / 2 + b ^ 2 / 2)``), the fact ``A ≤ B`` is the lemma plus exact atom
bridges (:func:`prover.lean.render.atoms.bridge_facts`), so that the rest of the file sees our
printing only.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from prover.ir import Goal, Step, expr_from_str, relation_from_json
from prover.lean import replay as rp
from prover.lean.render.atoms import Facts, bridge_facts, bridged_equality, ring_closes
from prover.lean.render.atoms import parse as parse_term
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
from prover.lean.render.field_identity import EqFact, prove_equality
from prover.lean.render.linear import linear_step
from prover.lean.render.local_lemmas import local_name
from prover.lean.syntax import LeanSyntaxError, lean_expr, lean_rel, ring_identity
from prover.problem import Relation, var
from prover.tactics.lemma import LemmaStatement

#: Mathlib lemmas the catalogue names whose explicit arguments are only the side conditions
#: (their variables are implicit); every other lemma takes its variables, then its side conditions.
HYPOTHESES_ONLY = frozenset({"Real.geom_mean_le_arith_mean2_weighted", "Real.geom_mean_le_arith_mean3_weighted",
                             "Real.geom_mean_le_arith_mean4_weighted"})


@dataclass
class _Applied:
    """One application: the lines introducing it, a proof term of ``A ≤ B`` (``A < B`` when
    ``strict``), and the Lean texts of ``A`` and ``B`` as that proof's type states them (for a
    hypothesis of the user's own statement, whose text we do not have: our printing of its
    sides, equal to it up to ``ring``, which is all the step's identity needs)."""

    lines: list[str]
    proof: str
    strict: bool
    A: sp.Expr
    B: sp.Expr
    a_text: str
    b_text: str


def _signed_shape(e: sp.Expr) -> bool:
    """Whether ``e`` is built the way ``positivity`` reads it: sums and products of nonnegative
    parts, with a subtraction or a negative coefficient only under an even power."""
    e = sp.sympify(e)
    if e.is_Number:
        return bool(e >= 0)
    if e.is_Symbol:
        return True
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer and e.exp % 2 == 0 or e.exp == sp.Rational(1, 2):
            return True            # an even power, or √ (nonnegative whatever its argument)
        return _signed_shape(e.base)
    if isinstance(e, (sp.Abs, sp.exp)):
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_signed_shape(a) for a in e.args)
    return all(_signed_shape(a) for a in e.args) if e.args else False


def _nonneg_tactic(e: sp.Expr) -> str:
    """``positivity`` when ``e`` has its shape (see :func:`_signed_shape`), else ``linarith``."""
    return "positivity" if _signed_shape(e) else "linarith"


def _nonneg_lines(name: str, c: sp.Expr, ctx: RenderContext) -> list[str]:
    """``have name : 0 ≤ c``: by ``positivity`` when ``c`` has its shape; else, as the kernel's
    positivity rules do, its expanded or factored form by ``positivity`` and ``c`` from it by
    ``linear_combination`` (``ring``: ``(X² − XY + Y²)(X + Y)`` is ``X³ + Y³``); else ``linarith``."""
    stated = f"have {name} : (0 : ℝ) ≤ {lean_expr(c)} := by"
    if _signed_shape(c):
        return [f"{stated} positivity"]
    for form in (sp.expand(c), sp.factor(c)):
        if form != c and _signed_shape(form):
            h = ctx.fresh("hc")
            return [f"have {h} : (0 : ℝ) ≤ {lean_expr(form)} := by positivity",
                    f"{stated} linear_combination {h}"]
    return [f"{stated} linarith"]


def _side_proof(r: Relation) -> str:
    """A tactic for a side condition: ``positivity`` for ``0 ≤ e``/``0 < e``/``e ≠ 0`` with ``e``
    in its fragment, ``linarith`` for linear consequences, ``ring`` for identities."""
    lhs, rhs = sp.sympify(r.lhs), sp.sympify(r.rhs)
    if r.op == "=":
        return "by ring" if ring_identity(lhs - rhs) else "by linarith"
    if r.op == "!=":
        return "by positivity"
    L, R, _ = as_le(r)
    if L == 0:
        return f"by {_nonneg_tactic(R)}"
    return "by linarith"


def _subs_rel(r: Relation, sub: dict) -> Relation:
    return Relation(sp.sympify(r.lhs).subs(sub, simultaneous=True), r.op,
                    sp.sympify(r.rhs).subs(sub, simultaneous=True))


def _instantiate_cert(cert: dict, lemma_vars: tuple[str, ...], sub: dict) -> dict:
    def inst(text: str) -> str:
        return str(expr_from_str(text, list(lemma_vars)).subs(sub, simultaneous=True))

    return {**cert,
            "terms": [{**t, "poly": inst(t["poly"])} for t in cert.get("terms", [])],
            "eq_terms": [{**t, "poly": inst(t["poly"])} for t in cert.get("eq_terms", [])]}


def _paren(text: str) -> str:
    return f"({text})"


def _weight_text(w: sp.Expr) -> str:
    """A real weight or point as Lean text: a numeral is ascribed ``(1 / 3 : ℝ)`` (else Lean reads
    a numeral exponent, base or comparison in ℕ), anything else is our printing in parentheses."""
    w = sp.sympify(w)
    if w.is_Rational:
        return f"({w.p} : ℝ)" if w.q == 1 else f"({w.p} / {w.q} : ℝ)"
    return _paren(lean_expr(w))


def _weighted_mean(step: Step, lem: LemmaStatement, inst: dict[str, sp.Expr], ctx: RenderContext,
                   fact: str, side_equalities: dict | None = None) -> tuple[list[str], str, str]:
    """``Real.geom_mean_le_arith_meanN_weighted {w₁ … p₁ …} (hw₁ : 0 ≤ w₁) … (hp₁ : 0 ≤ p₁) …
    (hw : w₁ + … = 1) : p₁ ^ w₁ * … ≤ w₁ * p₁ + …`` (Mathlib/Analysis/MeanInequalities.lean): its
    weights and points are implicit, so every side condition is a ``have`` whose type is the
    lemma's hypothesis instantiated with our texts of the instance (that is how Lean unifies the
    implicit arguments), and the conclusion is stated exactly as the lemma instantiates it."""
    ws = [v for v in lem.variables if v.startswith("w")]
    ps = [v for v in lem.variables if v.startswith("p")]
    if len(ws) != len(ps) or not ws or len(lem.side_conditions) != 2 * len(ws) + 1:
        raise RenderError(f"{lem.name}: expected weights w1…, points p1… and their {2 * len(ws) + 1} side "
                          f"conditions, got {list(lem.variables)}")
    for w, p in zip(ws, ps):
        power = sp.Pow(inst[p], inst[w])
        if not (isinstance(power, sp.Pow) and power.base == inst[p] and power.exp == inst[w]
                and power.exp != sp.Rational(1, 2)):
            # sympy rewrote p ^ w (√p, a merged power, …): the goal's text is not the lemma's rpow
            raise RenderError(f"{lem.name}: {p} ^ {w} = {power} is not a real power in our printing; "
                              "it needs a rewrite (e.g. Real.sqrt_eq_rpow) that is not rendered")
    lines, names = [], []
    for v in ws + ps:
        n = ctx.fresh("hsc")
        names.append(n)
        lines.append(f"have {n} : (0 : ℝ) ≤ {_weight_text(inst[v])} := by {_nonneg_tactic(inst[v])}")
    total = " + ".join(_weight_text(inst[w]) for w in ws)
    # the weights' sum is 1 as an identity, or by the goal's equalities (the kernel's
    # side_equalities: slack = Σ λ·(lhs − rhs) of hypothesis k)
    facts = []
    for t in (side_equalities or {}).get(str(len(lem.side_conditions) - 1), []):
        k = int(t["hyp"])
        h = step.goal.hypotheses[k]
        if h.op != "=":
            raise RenderError(f"{lem.name}: side_equalities names hypothesis {k}, which is not an equality")
        facts.append(EqFact(lean_expr(step_expr(step, t["poly"])), ctx.names[k], lean_expr(h.lhs), lean_expr(h.rhs)))
    id_lines, comb = prove_equality(total, "1", list(step.goal.variables), ctx, facts)
    n = ctx.fresh("hsc")
    names.append(n)
    lines.append(f"have {n} : {total} = 1 := by")
    lines += indent(id_lines + [f"linear_combination {comb}".rstrip()])
    a_text = " * ".join(f"{_weight_text(inst[p])} ^ {_weight_text(inst[w])}" for w, p in zip(ws, ps))
    b_text = " + ".join(f"{_weight_text(inst[w])} * {_weight_text(inst[p])}" for w, p in zip(ws, ps))
    lines.append(f"have {fact} : {a_text} ≤ {b_text} := {lem.lean_name} {' '.join(names)}")
    return lines, a_text, b_text


def _application(step: Step, app: dict, ctx: RenderContext) -> _Applied:
    """A catalogue lemma applied at an instance: ``A ≤ B`` as a named fact.

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
    a_text, b_text = lean_expr(A), lean_expr(B)
    head = f"have {fact} : {a_text} ≤ {b_text} := by"
    if app.get("side_equalities") and lem.lean_name not in HYPOTHESES_ONLY:
        raise RenderError(f"{name}: a side condition that holds by the goal's equalities is rendered "
                          "for the weighted means only")
    if lem.trust == "kernel" and lem.certificate:
        names, lines = [], [f"-- {name}: replayed from its kernel certificate"]
        for r in sides:
            n = ctx.fresh("hsc")
            names.append(n)
            lines.append(f"have {n} : {lean_rel(r)} := {_side_proof(r)}")
        g = Goal(step.goal.variables, tuple(sides), Relation(A, "<=", B))
        body = close_lines(step, g, ctx.child(names), _instantiate_cert(lem.certificate, lem.variables, sub))
        return _Applied(lines + [head] + indent(body), fact, False, A, B, a_text, b_text)
    if not lem.lean_name:
        raise RenderError(f"catalogue lemma {name!r} has no lean_name")
    # one of ours (``Prover.Lemmas.*``) is cited by its local name: the file states and proves it
    # at the top of the proof (:mod:`prover.lean.render.local_lemmas`), so it imports Mathlib alone
    cited = local_name(lem.lean_name) or lem.lean_name
    ctx.used.add(cited)
    if lem.lean_name in HYPOTHESES_ONLY:
        lines, a_text, b_text = _weighted_mean(step, lem, inst, ctx, fact, app.get("side_equalities"))
        return _Applied([f"-- {name}: {lem.lean_name}"] + lines, fact, False, A, B, a_text, b_text)
    args = [_paren(lean_expr(inst[v])) for v in lem.variables] + [_paren(_side_proof(r)) for r in sides]
    # the lemma's own statement may be written differently from our A ≤ B: ring closes the gap,
    # with bridges where an atom of the lemma's conclusion is written differently
    bridge_lines, bridges = _lemma_bridges(lem.lean_name, [lean_expr(inst[v]) for v in lem.variables],
                                           f"({b_text}) - ({a_text})", list(step.goal.variables), ctx)
    comb = " + ".join([" ".join([cited] + args)] + bridges)
    return _Applied([f"-- {name}: {cited}", *bridge_lines, head, f"  linear_combination {comb}"],
                    fact, False, A, B, a_text, b_text)


def lemma_conclusion(lean_name: str, args: list[str], variables: list[str]) -> tuple[str, str] | None:
    """``(A', B')``: the Lean texts of the sides of ``lean_name``'s conclusion ``A' ≤ B'`` (or
    ``<``) at its explicit real arguments ``args``, computed from the signature the replay model
    reads (``MATHLIB_SIGNATURES`` or ``lean_project/ProverLemmas``); None when the signature is not
    known or its real binders are not exactly ``args``, explicit."""
    sig = rp.mathlib_signature(lean_name) or rp.prover_lemma_signatures().get(lean_name)
    if sig is None:
        return None
    reals = [(uid, explicit) for uid, ty, explicit in sig.binders if ty == rp.REAL]
    if len(reals) != len(args) or not all(explicit for _, explicit in reals):
        return None
    try:
        m = {uid: parse_term(a, variables) for (uid, _), a in zip(reals, args)}
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    concl = rp.canon(rp.subst(sig.concl, m))
    if concl[0] != "rel" or concl[1] not in ("≤", "<"):
        return None
    return rp.show(concl[2]), rp.show(concl[3])


def _lemma_bridges(lean_name: str, args: list[str], slack_text: str, variables: list[str],
                   ctx: RenderContext) -> tuple[list[str], list[str]]:
    """The ``have`` lines and weighted terms that turn the lemma's conclusion into ``slack_text``'s
    atoms (our printing of ``B − A``); none when the atoms agree or no bridge is found (then the
    ``linear_combination`` stands as before, and Lean or the model reports what is left)."""
    sides = lemma_conclusion(lean_name, args, variables)
    if sides is None:
        return [], []
    facts = Facts(ctx)
    lemma_slack = f"({sides[1]}) - ({sides[0]})"
    # lemma − ours − Σ c·(lhs − rhs) ≡ 0: the remainder ``linear_combination`` checks for ``A ≤ B``
    bridges = bridge_facts(lemma_slack, slack_text, variables, facts)
    if not bridges:
        return [], []
    if not ring_closes(lemma_slack, slack_text, bridges, variables):
        # a bridged atom under a division (``(x + 1) / (2 * √1)``): ``ring`` keeps ``√1 · (√1)⁻¹``,
        # so the identity lemma = ours is proved as a field identity with the bridges as facts
        lines, comb = bridged_equality(lemma_slack, slack_text, variables, ctx)
        return lines, [comb] if comb else []
    return facts.lines, [f.proof if f.coeff.strip() == "1" else f"({f.coeff}) * {f.proof}" for f in bridges]


def _fact_application(step: Step, app: dict, ctx: RenderContext) -> _Applied:
    """A hypothesis of the goal (used as itself: no type is restated), or a fact proved by its
    close certificate against the type we state."""
    if "hypothesis" in app:
        k = int(app["hypothesis"])
        rel, lines, h = step.goal.hypotheses[k], [], ctx.names[k]
    else:
        rel = relation_from_json(app["fact"], step.goal.variables)
        h = ctx.fresh("hfact")
        body = close_lines(step, step.goal.with_target(rel), ctx, app["proof"])
        lines = [f"have {h} : {lean_rel(rel)} := by"] + indent(body)
    L, R, strict = as_le(rel)
    return _Applied(lines, h, strict, L, R, lean_expr(L), lean_expr(R))


def render_scale(step: Step, ctx: RenderContext) -> StepBlock:
    lines = ["-- scale"]
    extra = []
    for app in step.certificate.get("applications", []):
        use = _fact_application if ("hypothesis" in app or "fact" in app) else _application
        try:
            ap = use(step, app, ctx)
        except LeanSyntaxError as exc:
            raise RenderError(f"scale application: {exc}") from None
        lines += ap.lines
        # 0 ≤ B - A, with A and B exactly as the proof's type has them
        rel = Relation(ap.A, "<" if ap.strict else "<=", ap.B)
        slack = slack_fact(rel, ap.proof, False)
        diff_text = f"{_paren(ap.b_text)} - {_paren(ap.a_text)}"
        c = step_expr(step, str(app.get("coefficient", "1")))
        if c == 1:
            extra.append((c, ap.B - ap.A, slack, diff_text))
            continue
        hc = ctx.fresh("hc")
        lines += _nonneg_lines(hc, c, ctx)
        extra.append((c, ap.B - ap.A, f"(mul_nonneg {hc} {slack})", diff_text))
    return linear_step(step, ctx, extra, lines)
