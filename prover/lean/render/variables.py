"""``introduce`` and ``substitute`` steps: a statement over the new variables, instantiated.

Both render as ``suffices hkey : ∀ new variables, new hypotheses → G' by …`` followed by
``intro``. Inside the ``by`` the statement is instantiated (``hkey v₁ … proofs``) and connected to
the goal by one ``linear_combination`` that ``ring`` checks exactly:

* ``introduce v := D(x)``: at ``v = D(x)`` the subgoal's target is the goal's (the kernel checked
  that identity); the facts about ``v`` are lemma terms (``Real.sqrt_nonneg``, ``Real.sq_sqrt``,
  ``Real.sqrt_pos``, ``Real.exp_pos``; for ``v = X ^ (p/q : ℝ)`` the chain
  ``X ^ (k·p/q) = X ^ ((k−1)·p/q) * X ^ (p/q)`` by ``Real.rpow_of_add_eq`` closed by
  ``Real.rpow_one``/``Real.rpow_natCast``), never ``rw``/``norm_num``.
* ``substitute x = f(y)`` with inverse ``y = g(x)``: the statement is instantiated at ``y = g(x)``
  (rational maps included). Its target there is the goal's target at ``x' = f(g(x))``; the kernel
  checked ``f(g(x)) = x + Σ p·(equality hypotheses)`` (``eq_terms``), so the goal's slack minus the
  instantiated slack is ``Σ cⱼ·(lhsⱼ − rhsⱼ)`` over the goal's equality hypotheses, with ``cⱼ``
  computed here as divided differences. Denominators are handled by
  :func:`prover.lean.render.field_identity.prove_equality` (``mul_inv_cancel₀`` facts).

At the statement's own goal an ``introduce`` instantiates in the user's atoms (a root as written,
``|x| ^ (1/q)`` at the user's ``(x ^ 2)``) and bridges the atoms left over by exact facts
(``Real.sqrt (p ^ 2) = |p|``, ``(X ^ s) ^ m = X ^ (m·s)``): :mod:`prover.lean.render.atoms`. A
variable ``t := |p|`` has the facts ``abs_nonneg``, ``sq_abs``, ``abs_of_pos``/``abs_of_neg``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from prover.frontend import ParseError, parse_expression
from prover.ir import Goal, Step, expr_from_str
from prover.lean import replay as rp
from prover.lean.render.atoms import (
    Facts,
    bridge_facts,
    bridged_equality,
    carried_terms,
    congruence_chain,
    exponent_text,
    half_power,
    half_power_fact,
    has_root_or_abs,
    hypothesis_written_atoms,
    paren,
    ring_closes,
    root_square_facts,
    same_value,
    scaled_numeral_root,
    scaled_root_fact,
    user_root,
    written_atoms,
)
from prover.lean.render.atoms import parse as parse_atoms_term
from prover.lean.render.budget import wrap_line
from prover.lean.render.close import close_lines, positive_fact_lines, positive_fact_of, positive_fact_prover
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    at_real,
    equality_lines,
    factored_text,
    geometric_sum,
    hypothesis_name,
    indent,
    instantiate,
)
from prover.lean.render.compact import stated
from prover.lean.render.field_identity import (
    EqFact,
    FactCache,
    Summand,
    prove_equality,
    signed_summands,
)
from prover.lean.render.statement import split_top
from prover.lean.syntax import has_denominator, lean_expr, lean_ident, lean_rel
from prover.problem import Relation, var
from prover.problem import exp as lean_exp
from prover.problem import log as lean_log

#: A side condition that either ``positivity`` or ``linarith`` proves (``first`` tries both).
_POS_OR_LIN = "(by first | positivity | linarith)"


# ------------------------------------------------------------------ texts


def _sides(r: Relation) -> tuple[sp.Expr, sp.Expr]:
    """``(L, R)`` of ``r`` read as ``L ≤ R``/``L < R``/``L = R`` (the order Lean's goal has)."""
    if r.op == "=":
        return r.lhs, r.rhs
    if r.op == "!=":
        raise RenderError("a ≠ target cannot be connected by linear_combination")
    lhs, rhs, _ = as_le(r)
    return lhs, rhs


def _base_text(x: sp.Expr) -> str:
    """The base of a real power as :func:`lean_expr` prints it (parenthesised unless atomic)."""
    s = lean_expr(x)
    return s if x.is_Symbol or isinstance(x, sp.Abs) or (x.is_Integer and x >= 0) else f"({s})"


def _exponent_text(r: Fraction) -> str:
    return f"({r.numerator} : ℝ)" if r.denominator == 1 else f"({r.numerator} / {r.denominator} : ℝ)"


# ------------------------------------------------------------------ facts about introduced variables


def _rpow_power_fact(base: sp.Expr, p: int, q: int, ctx: RenderContext,
                     bt: str | None = None) -> tuple[list[str], str]:
    """Lines proving ``(X ^ (p/q : ℝ)) ^ q = X ^ p`` and the name of that fact.

    With ``E r = X ^ (r : ℝ)``: ``E (k·p/q) = E ((k−1)·p/q) * E (p/q)`` for ``k = 2..q`` and
    ``E j = E (j−1) * E 1`` for ``j = 2..p``, each by ``Real.rpow_of_add_eq`` (the exponent sum by
    ``linear_combination``: an identity of numerals), ``E 1 = X`` by ``Real.rpow_one``; one
    ``linear_combination`` chains them (no casts, no ``rw``/``norm_num``). ``bt`` is the base's
    text inside the powers (the user's, where the statement writes the power); the fact's
    right-hand side is our printing of ``X ^ p``, as the quantified statement states it."""
    printed = _base_text(base)
    bt = bt or printed
    step = Fraction(p, q)

    def e(r: Fraction) -> str:
        return f"{bt} ^ {_exponent_text(r)}"

    lines: list[str] = []
    terms: list[str] = []

    def split(w: Fraction, y: Fraction, z: Fraction) -> str:
        h = ctx.fresh("hrp")
        lines.append(f"have {h} : {at_real(f'{e(w)} = {e(y)} * {e(z)}')} := "
                     f"Real.rpow_of_add_eq {_POS_OR_LIN} (by positivity) (by linear_combination)")
        return h

    def power(t: str, n: int) -> str:
        return "1" if n == 0 else (f"({t})" if n == 1 else f"({t}) ^ {n}")

    e1, p1 = e(step), e(Fraction(1))
    # E1^q − E_q = Σ_k −E1^(q−k)·(E_k − E_(k−1)·E1)
    for k in range(2, q + 1):
        h = split(step * k, step * (k - 1), step)
        terms.append(f"-{h}" if k == q else f"(-{power(e1, q - k)}) * {h}")
    # E_p − P1^p = Σ_j P1^(p−j)·(E_j − E_(j−1)·P1)
    for j in range(2, p + 1):
        h = split(Fraction(j), Fraction(j - 1), Fraction(1))
        terms.append(f"{power(p1, p - j)} * {h}")
    # P1^p − X^p = (P1 − X)·Σ_i P1^(p−1−i)·X^i
    hq = ctx.fresh("hrp")
    arg = f"({bt})" if bt.startswith("|") else bt      # `f |x|` is not an application argument everywhere
    lines.append(f"have {hq} : {at_real(f'{p1} = {bt}')} := Real.rpow_one {arg}")
    geo = " + ".join(" * ".join(f for f in (power(p1, p - 1 - i), power(bt, i)) if f != "1") or "1"
                     for i in range(p))
    terms.append(hq if geo == "1" else f"({geo}) * {hq}")
    name = ctx.fresh("hrp")
    rhs = printed if p == 1 else f"{printed} ^ {p}"
    lines.append(f"have {name} : {at_real(f'({e1}) ^ {q} = {rhs}')} := by linear_combination {' + '.join(terms)}")
    return lines, name


def _introduce_fact(rel: Relation, defs: dict[str, sp.Expr], ctx: RenderContext,
                    pre: list[str], bases: dict[str, str] | None = None,
                    written: WrittenApplications | None = None) -> str | None:
    """A proof term of ``rel`` (a fact about an introduced variable at its definition), adding
    any ``have`` it needs to ``pre``; None when ``rel`` is not one of the definition facts."""
    named = _exp_log_fact(rel, defs, ctx, pre, written or WrittenApplications({}, {}, [], []))
    if named is not None:
        return named
    for v, d in defs.items():
        s = var(v)
        if isinstance(d, sp.exp):
            if rel in (Relation(s, ">", 0), Relation(0, "<", s)):
                return "(Real.exp_pos _)"
            if rel in (Relation(s, ">=", 0), Relation(0, "<=", s)):
                return "(Real.exp_pos _).le"
        if not (d.is_Pow and d.exp.is_Rational and not d.exp.is_Integer):
            continue
        p, q = int(d.exp.p), int(d.exp.q)
        if p < 0:
            continue
        positive = rel in (Relation(s, ">", 0), Relation(0, "<", s))
        nonneg = rel in (Relation(s, ">=", 0), Relation(0, "<=", s))
        # instantiated as the user's real power ``X ^ (1 / 2 : ℝ)`` (a base in ``bases``), not as
        # ``Real.sqrt X``: the two are different terms to Lean, so the facts are the real power's
        as_rpow = v in (bases or {})
        if d.exp == sp.Rational(1, 2) and not as_rpow:
            if rel == Relation(s ** 2, "=", d.base):
                return f"(Real.sq_sqrt {_POS_OR_LIN})"
            if nonneg:
                return "(Real.sqrt_nonneg _)"
            if positive:
                return f"(Real.sqrt_pos.mpr {_POS_OR_LIN})"
            continue
        if rel == Relation(s ** q, "=", d.base ** p) and (as_rpow or lean_expr(d) == f"{_base_text(d.base)} ^ ({p} / {q} : ℝ)"):
            lines, name = _rpow_power_fact(d.base, p, q, ctx, (bases or {}).get(v))
            pre.extend(lines)
            return name
        if positive or nonneg:
            return "(by positivity)"
    return None


#: ``X·log X ≥ X − 1``: ``Real.one_sub_inv_le_log_of_pos`` times ``X > 0`` (the kernel's cleared fact)
_CLEARED = "cleared one_sub_inv_le_log_of_pos"
#: ``log (f₁ * … * fₙ) = Σ log fᵢ``: one ``Real.log_mul`` per ``*`` of the left-nested product
_LOG_PRODUCT = "log of a product"


def _exp_log_lemmas(d: sp.Expr) -> list[tuple[Relation, str, list[tuple[str, sp.Expr]]]]:
    """The kernel's facts of an ``exp``/``log`` definition ``d`` (``check._definition_facts``), each
    with the Mathlib lemma proving it and its arguments: ``("term", X)`` is ``X`` itself,
    ``("pos", X)`` a proof of ``0 < X``, ``("ne", X)`` of ``X ≠ 0``."""
    if d is sp.pi:     # the kernel's PI_BOUNDS
        return [(Relation(sp.Rational(3141592, 10**6), "<", d), "Real.pi_gt_d6", []),
                (Relation(d, "<", sp.Rational(3141593, 10**6)), "Real.pi_lt_d6", [])]
    x = d.args[0]
    if isinstance(d, sp.exp):
        out = [(Relation(x + 1, "<=", d), "Real.add_one_le_exp", [("term", x)])]
        if isinstance(x, sp.log):
            out.append((Relation(lean_exp(x), "=", x.args[0]), "Real.exp_log", [("pos", x.args[0])]))
        return out
    if not isinstance(d, sp.log):
        return []
    if isinstance(x, sp.exp):
        return [(Relation(d, "=", x.args[0]), "Real.log_exp", [("term", x.args[0])])]
    out = [(Relation(d, "<=", x - 1), "Real.log_le_sub_one_of_pos", [("pos", x)]),
           (Relation(1 - 1 / x, "<=", d), "Real.one_sub_inv_le_log_of_pos", [("pos", x)]),
           (Relation(x - 1, "<=", x * d), _CLEARED, [("pos", x)])]
    factors = sp.Mul.make_args(x)
    if len(factors) >= 2:
        out.append((Relation(d, "=", sp.Add(*(lean_log(f) for f in factors))), _LOG_PRODUCT, [("term", x)]))
    out += [(Relation(d, ">", 0), "Real.log_pos", [("gt1", x)]),
            (Relation(d, "<", 0), "Real.log_neg", [("pos", x), ("lt1", x)])]
    return out


def _lemma_term(lemma: str, args: list[tuple[str, sp.Expr]], ctx: RenderContext, pre: list[str],
                texts: dict[sp.Expr, str],
                side_prover: Callable[[str, sp.Expr], list[str]] | None = None) -> str:
    """``lemma a₁ …``, each side condition ``0 < X`` a ``have`` added to ``pre`` (``positivity``, or
    ``linarith`` from the hypotheses); an argument the user wrote is in the user's text."""
    def text(x: sp.Expr) -> str:
        return texts.get(x) or lean_expr(x)

    if lemma == _CLEARED:   # X * (1 - X⁻¹) ≤ X * log X, and X * X⁻¹ = 1
        x = args[0][1]
        pos = ctx.fresh("hpos")
        inv = ctx.fresh("hinv")
        pre += [f"have {pos} : (0 : ℝ) < {text(x)} := by first | positivity | linarith",
                f"have {inv} : {at_real(f'{paren(text(x))} * {paren(text(x))}⁻¹ = 1')} := mul_inv_cancel₀ {pos}.ne'"]
        return f"mul_le_mul_of_nonneg_left (Real.one_sub_inv_le_log_of_pos {pos}) {pos}.le + {inv}"
    if lemma == _LOG_PRODUCT:
        return _log_product_term(args[0][1], ctx, pre, texts)
    if lemma == "Real.one_sub_inv_le_log_of_pos" and has_denominator(args[0][1]):
        return _inverse_log_term(args[0][1], ctx, pre, text)
    parts = [lemma]
    for kind, x in args:
        if kind == "term":
            parts.append(paren(text(x)))
            continue
        name = ctx.fresh("hpos")
        if kind in ("gt1", "lt1"):      # `1 < X` / `X < 1`: from the hypotheses (positivity has no `1 <`)
            side = f"(1 : ℝ) < {text(x)}" if kind == "gt1" else at_real(f"{text(x)} < 1")
            gap = sp.expand(x - 1 if kind == "gt1" else 1 - x)
            if gap.free_symbols and _nonlinear(gap):
                # nonlinear: `0 < X - 1` certified, then linarith; with no certificate (`1 < 1 + exp x`)
                # linarith still needs the gap's sign, which positivity may see
                certified = side_prover(lean_expr(gap), gap) if side_prover is not None else []
                pre += certified or [f"have {ctx.fresh('hgap')} : (0 : ℝ) < {lean_expr(gap)} := by positivity"]
            pre.append(f"have {name} : {side} := by linarith")
            parts.append(name)
            continue
        pre.append(f"have {name} : (0 : ℝ) < {text(x)} := by first | positivity | linarith")
        parts.append(name if kind == "pos" else f"{name}.ne'")
    return " ".join(parts)


def _nonlinear(e: sp.Expr) -> bool:
    """``e`` is not linear in its symbols: a polynomial of degree above 1, or no polynomial at
    all (``exp x − 1``: ``sp.Poly`` raises on it; the side prover certifies such a gap)."""
    try:
        return sp.Poly(e, *sorted(e.free_symbols, key=str)).total_degree() > 1
    except sp.PolynomialError:
        return True


def _inverse_log_term(x: sp.Expr, ctx: RenderContext, pre: list[str], text: Callable[[sp.Expr], str]) -> str:
    """``1 − X⁻¹ ≤ log X`` for a quotient ``X`` (``1 / x``): ``ring`` keeps ``(1 / x)⁻¹`` an atom (no
    ``inv_inv``), so the lemma is joined by ``X⁻¹ = 1/X`` in our printing, a field identity
    (:func:`prove_equality`, ``mul_inv_cancel₀`` facts)."""
    pos, name = ctx.fresh("hpos"), ctx.fresh("hinv")
    inverse, printed = f"{paren(text(x))}⁻¹", lean_expr(1 / x)
    lines, comb = prove_equality(inverse, printed, sorted(s.name for s in x.free_symbols), ctx)
    pre += [f"have {pos} : (0 : ℝ) < {text(x)} := by first | positivity | linarith", *lines,
            f"have {name} : {inverse} = {printed} := by " + (f"linear_combination {comb}" if comb else "ring")]
    return f"Real.one_sub_inv_le_log_of_pos {pos} + {name}"


def _log_product_term(x: sp.Expr, ctx: RenderContext, pre: list[str], texts: dict[sp.Expr, str]) -> str:
    """``Real.log_mul`` once per ``*`` of ``f₁ * … * fₙ`` (left-nested as Lean parses it:
    ``log (P * f) = log P + log f``), summed: ``log (Π fᵢ) − Σ log fᵢ`` telescopes. The factors
    are the user's text of the product split at its top-level ``*`` where it is so written (the
    order of the user's atom), else ours."""
    factors = [lean_expr(f) for f in sp.Mul.make_args(x)]
    written = texts.get(x)
    if written:
        pieces = split_top(written, "*")
        if len(pieces) >= 2 and not any(len(split_top(written, op)) > 1 for op in "+-/"):   # `^` binds tighter
            factors = [p.strip() for p in pieces]
    names = []
    for f in factors:
        name = ctx.fresh("hpos")
        pre.append(f"have {name} : (0 : ℝ) < {f} := by first | positivity | linarith")
        names.append(name)
    terms, prefix, prefix_name = [], factors[0], names[0]
    shown, product = written or lean_expr(x), " * ".join(paren(f) for f in factors)
    if shown.replace(" ", "") != product.replace(" ", "") and len(split_top(shown, "*")) < 2:
        # the argument as the goal writes it (``x / y``) is another atom than the product of the
        # factors (``x * (1 / y)``) inside ``Real.log``: ``congrArg`` of a ``ring`` identity
        same, bridge = ctx.fresh("hsame"), ctx.fresh("hlog")
        pre += [f"have {same} : {shown} = {product} := by ring",
                f"have {bridge} : Real.log ({shown}) = Real.log ({product}) := congrArg Real.log {same}"]
        terms.append(bridge)
    for k in range(1, len(factors)):
        terms.append(f"Real.log_mul {prefix_name}.ne' {names[k]}.ne'")
        if k + 1 < len(factors):
            prefix, product = f"{prefix} * {factors[k]}", ctx.fresh("hpos")
            pre.append(f"have {product} : (0 : ℝ) < {prefix} := mul_pos {prefix_name} {names[k]}")
            prefix_name = product
    return " + ".join(terms)


@dataclass
class WrittenApplications:
    """Where the statement writes an ``exp``/``log`` term otherwise than our printing
    (``Real.exp (-2 * x + 3)`` for our ``Real.exp (3 - 2 * x)``): the instances and arguments in
    the user's text, for the ``∀`` statement's instantiation and the lemmas' arguments."""

    instances: dict[str, str]            # new variable -> the user's term
    arguments: dict[sp.Expr, str]        # our argument -> the user's text of it
    sub_variables: list[str]
    outer: list[str]
    #: lines proving ``0 < text`` (``text`` printing the expression) under the step's goal, or []
    side_prover: Callable[[str, sp.Expr], list[str]] | None = None


def written_applications(goal: Goal, sub: Goal, ctx: RenderContext, defs: dict[str, sp.Expr],
                         new_vars: list[str], inst: dict[str, str]) -> WrittenApplications:
    """:class:`WrittenApplications` for ``defs``; updates ``inst`` to the user's terms."""
    out = WrittenApplications({}, {}, list(sub.variables), list(goal.variables))
    # the goal's atoms as written first, then the hypotheses' (``h₂ : Real.log (x ^ 2 * y) = 1``: an
    # instance in our printing, ``Real.log (y * x ^ 2)``, would be another atom to ``linarith``)
    written = written_atoms(goal, ctx) + hypothesis_written_atoms(ctx, out.outer)
    for v in new_vars:
        d = defs[v]
        if not isinstance(d, (sp.exp, sp.log)):
            continue
        head = ("const", "Real.exp") if isinstance(d, sp.exp) else ("const", "Real.log")
        for a in written:
            if a[0] == "app" and a[1] == head and len(a[2]) == 1 \
                    and same_value(rp.show(a[2][0]), d.args[0], out.outer):
                inst[v] = out.instances[v] = rp.show(a)
                out.arguments[d.args[0]] = rp.show(a[2][0])
                break
    for v in new_vars:
        out.instances.setdefault(v, inst[v])
    return out


def _exp_log_fact(rel: Relation, defs: dict[str, sp.Expr], ctx: RenderContext, pre: list[str],
                  written: WrittenApplications) -> str | None:
    """``(by linear_combination L)`` for a fact ``rel`` that is, with the definitions put back, the
    statement of a Mathlib lemma ``L`` about an ``exp``/``log`` definition (``ring`` closes the
    difference; both sides are compared as rational functions here, untrusted)."""
    back = {var(v): d for v, d in defs.items()}

    def slack(r: Relation) -> sp.Expr:
        e = sp.sympify(r.lhs) - sp.sympify(r.rhs)
        return sp.sympify(e).xreplace(back) if r.op in ("<=", "<", "=") else (-e).xreplace(back)

    want = slack(rel)
    if rel.op == "=" and any(isinstance(d, (sp.exp, sp.log)) for d in defs.values()):
        # a relation of the introduce step (``exp (2x) = (exp x)²``, ``log 4 = 2 · log 2``): the
        # exp/log laws as bridges
        if written.instances:
            lhs, rhs = (instantiate(lean_expr(t), written.sub_variables, written.instances, written.outer)
                        for t in (rel.lhs, rel.rhs))
        else:
            lhs, rhs = (lean_expr(sp.sympify(t).xreplace(back)) for t in (rel.lhs, rel.rhs))
        variables = sorted({s.name for d in defs.values() for s in d.free_symbols})
        try:
            lines, comb = bridged_equality(lhs, rhs, variables, ctx)
        except RenderError:
            lines, comb = [], None
        if comb is not None:
            pre.extend(lines)
            return f"(by linear_combination {comb})" if comb else "(by ring)"
    for d in defs.values():
        for fact, lemma, args in _exp_log_lemmas(d):
            signs = (1, -1) if fact.op == "=" else (1,)
            if _kind(fact.op) == _kind(rel.op) and any(sp.cancel(sp.expand(want - k * slack(fact))) == 0
                                                       for k in signs):
                term = _lemma_term(lemma, args, ctx, pre, written.arguments, written.side_prover)
                return f"(by linear_combination {term})"
    return None


def _kind(op: str) -> str:
    return {"<=": "le", ">=": "le", "<": "lt", ">": "lt", "=": "eq"}.get(op, op)


# ------------------------------------------------------------------ the shared shape


def _forall_block(step: Step, ctx: RenderContext, key: str, new_vars: list[str], inst: dict[str, str], title: str,
                  proofs: dict[int, str], pre: list[str], connect: list[str], comb: str) -> StepBlock:
    """``suffices hkey : ∀ new_vars, hyps → target by (pre; connect; linear_combination hkey … + comb)``."""
    goal, sub = step.goal, step.subgoals[0]
    old = _quantified(goal, sub, ctx, new_vars)
    hn = {i: ctx.fresh("hv") for i in old}
    target, target_text = stated(sub.target)
    binders = f"∀ {' '.join(lean_ident(v) for v in new_vars)} : ℝ, " if new_vars else ""   # every variable fixed
    prop = binders + " → ".join([lean_rel(sub.hypotheses[i]) for i in old] + [target])
    args = [f"({inst[v]})" for v in new_vars] + [proofs[i] for i in old]
    inst_term = " ".join([key, *args])
    body = pre + connect + [f"linear_combination {inst_term}" + (f" + {comb}" if comb else "")]
    # a statement over the line budget is broken after its top-level +/- (a ``… by`` line is
    # never broken by the file-level wrapping, so it is done here, before ``by`` is appended)
    head = wrap_line(f"suffices {key} : {prop}")
    head[-1] += " by"
    lines = [title] + head + indent(body)
    if new_vars or old:
        lines.append(f"intro {' '.join([lean_ident(v) for v in new_vars] + [hn[i] for i in old])}")
    names = [hn[i] if i in hn else hypothesis_name(goal, ctx.names, h) for i, h in enumerate(sub.hypotheses)]
    return StepBlock(lines, [names], [target_text])


def _quantified(goal: Goal, sub: Goal, ctx: RenderContext, new_vars: list[str]) -> list[int]:
    """Indices of the subgoal's hypotheses the ``∀`` statement assumes (the rest are the goal's)."""
    nv = set(new_vars)
    return [i for i, h in enumerate(sub.hypotheses) if hypothesis_name(goal, ctx.names, h) is None
            or nv & {s.name for s in h.free_symbols()}]


def _polynomial(step: Step, values: list[sp.Expr]) -> bool:
    """No denominator in the two targets nor in the instantiated values: ``ring`` alone connects them."""
    goal, sub = step.goal, step.subgoals[0]
    return not any(has_denominator(e) for e in (*_sides(goal.target), *_sides(sub.target), *values))


def _connection(step: Step, ctx: RenderContext, new_vars: list[str], inst: dict[str, str],
                facts: list[EqFact] | Callable[[], list[EqFact]],
                termwise: Termwise | None = None) -> tuple[list[str], str]:
    """``(lines, comb)``: ``linear_combination hkey … + comb`` turns the instantiated target into the
    goal's, with ``comb`` the equality facts and the ``mul_inv_cancel₀`` facts of the denominators.
    ``facts`` may be a function computing them: they are only needed when the summands are not
    paired (for a whole combined fraction they cost minutes of ``cancel``, mo-int-20/P19).

    With ``termwise``, a summand of the goal's slack that equals a summand of the instantiated slack
    (as rational functions after the map, modulo the equality hypotheses) is proved equal to it on
    its own (``have hpairN : gᵢ = tⱼ``) and enters the combination with its sign; the summands left
    over make one identity. One identity over all summands at once would multiply every
    denominator with every other (coefficients of 10⁵ characters on mo-int-20/P3)."""
    goal, sub = step.goal, step.subgoals[0]
    left, right = ctx.sides(goal)
    l2, r2 = (lean_expr(e) for e in _sides(sub.target))
    sub_vars, outer = list(sub.variables), list(goal.variables)
    il, ir = (instantiate(t, sub_vars, {v: inst[v] for v in new_vars}, outer) for t in (l2, r2))
    positive = positive_fact_prover(step, goal, ctx)
    cache = FactCache()                  # every identity below goes into the same block
    whole = f"({left}) - ({right})", f"({il}) - ({ir})"
    g_parts, t_parts = (signed_summands(t, outer) for t in whole) if termwise else (None, None)
    if g_parts is None or t_parts is None:
        return prove_equality(*whole, outer, ctx, facts() if callable(facts) else facts,
                              positive=positive, cache=cache)
    matched, rest_goal, rest_inst = _pair_up(g_parts, t_parts, termwise.image)
    lines: list[str] = []
    terms: list[str] = []

    def equal(sign: int, lhs: str, rhs: str, eq: list[EqFact]) -> None:
        sub_lines, comb = prove_equality(lhs, rhs, outer, ctx, eq, positive=positive, cache=cache)
        name = ctx.fresh("hpair")
        lines.extend(sub_lines + equality_lines(name, lhs, rhs, comb))
        terms.append(name if sign > 0 else f"(-1) * {name}")

    for sign, g_text, t_text, g_expr in matched:
        pair = _power_pair(g_text, t_text, termwise, outer)
        if pair is None:
            equal(sign, g_text, t_text, termwise.facts(g_expr))
            continue
        g_base, t_base, k = pair
        base_lines, comb = prove_equality(g_base, t_base, outer, ctx, termwise.facts(_read(g_base, outer)),
                                          positive=positive, cache=cache)
        h_base, name = ctx.fresh("hbase"), ctx.fresh("hpair")
        lines.extend(base_lines + equality_lines(h_base, g_base, t_base, comb)
                     + equality_lines(name, g_text, t_text, f"({geometric_sum(f'({g_base})', f'({t_base})', k)}) * {h_base}"))
        terms.append(name if sign > 0 else f"(-1) * {name}")
    # the rest: each summand the map moves is first proved equal to its image (``gᵢ = gᵢ∘φ``,
    # modulo the equalities), then the images and the instance's rest make one identity without
    # the equalities (for a homogenising map this splits off the constraint from the fractions)
    mapped = _move_groups(rest_goal, termwise, equal)
    if mapped or rest_inst:
        rest_lines, comb = prove_equality(_signed_sum(mapped), _signed_sum(rest_inst), outer, ctx,
                                          positive=positive, cache=cache)
        lines += rest_lines
        if comb:
            terms.append(comb)
    return lines, " + ".join(terms)


def _power_pair(g_text: str, t_text: str, termwise: Termwise, outer: list[str]) -> tuple[str, str, int] | None:
    """``(X, Y, k)`` when a paired summand and its instance are ``X ^ k`` and ``Y ^ k`` with ``Y`` the
    image of ``X`` (not only of ``X ^ k``: ``(−Y) ^ 2`` pairs too): ``X = Y`` is then proved on its
    own and ``X ^ k = Y ^ k`` follows by ``Σ Xⁱ·Y^(k−1−i)`` times it. One identity between the
    powers multiplies every denominator and equality coefficient out to the k-th power (families
    imo1995: a square of a sum of nested fractions under ``abc = 1``)."""
    scope = rp.Scope({v: v for v in outer}, opens=("Real",))
    try:
        g, t = (rp.parse_term(rp.lex(x), scope) for x in (g_text, t_text))
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    if not all(x[0] == "pow" and x[2][0] == "num" for x in (g, t)) or g[2] != t[2] or not 2 <= int(g[2][1]) <= 8:
        return None
    g_base, t_base = rp.show(g[1]), rp.show(t[1])
    try:
        if _cancel(termwise.image(_read(g_base, outer)) - _read(t_base, outer)) != 0:
            return None
    except (ParseError, RecursionError):
        return None
    return g_base, t_base, int(g[2][1])


def _read(text: str, outer: list[str]) -> sp.Expr:
    return parse_expression(text, outer, real_division=True)


def _move_groups(rest_goal: list[Summand], termwise: Termwise,
                 equal: Callable[[int, str, str, list[EqFact]], None]) -> list[Summand]:
    """Each group of moved summands (:func:`_same_ratio_groups`) proved equal to its images by
    ``equal`` (one summand: ``g = g∘φ``, entering with its sign; a group: ``Σ ±g = Σ ±g∘φ``);
    the summands as they enter the rest identity (the images, or the summand when no equality
    moves it)."""
    mapped: list[Summand] = []
    for group in _same_ratio_groups(rest_goal, termwise.image):
        signed = group[0][2] if len(group) == 1 else sp.Add(*(sign * g_expr for sign, _, g_expr in group))
        eq = termwise.facts(signed)
        if not eq:
            mapped.extend(group)
            continue
        images = [(sign, termwise.image_text(g_text), g_expr) for sign, g_text, g_expr in group]
        if len(group) == 1:
            equal(group[0][0], group[0][1], images[0][1], eq)
        else:
            equal(1, _signed_sum(group), _signed_sum(images), eq)
        mapped.extend(images)
    return mapped


@dataclass(frozen=True)
class Termwise:
    """How summands of the goal's slack map to the instantiated slack: ``image(g)`` is ``g`` after
    the map (a rational function), ``facts(g)`` the equality facts with ``g − image(g) = Σ cⱼ·eqⱼ``."""

    image: Callable[[sp.Expr], sp.Expr]
    facts: Callable[[sp.Expr], list[EqFact]]
    #: the Lean text of a goal summand after the map (``gᵢ∘φ``)
    image_text: Callable[[str], str]




def _same_ratio_groups(parts: list[Summand], image: Callable[[sp.Expr], sp.Expr]) -> list[list[Summand]]:
    """The summands in groups whose image is the summand times the same factor (``g∘φ = r·g``):
    a group is moved by one identity with one multiplier per equality. A homogenising map
    ``x ↦ x/s`` gives ``r = s⁻ᵈ`` per degree ``d``, so the monomials of a polynomial target make a
    few groups; one identity per monomial repeated the constraint's multiplier ``(sᵈ − 1)/(s − 1)``
    tens of times (567neq/P53: 674,000 characters). Other maps give singletons, as before."""
    groups: list[tuple[sp.Expr | None, list[Summand]]] = []
    for part in parts:
        g_expr = part[2]
        ratio = None if g_expr.is_number else _cancel(image(g_expr) / g_expr)
        for r, members in groups:
            if ratio is not None and r is not None and _cancel(ratio - r) == 0:
                members.append(part)
                break
        else:
            groups.append((ratio, [part]))
    return [members for _, members in groups]


def _signed_sum(parts: list[Summand]) -> str:
    if not parts:
        return "0"
    out = ""
    for sign, text, _ in parts:
        out += (f" {'+' if sign > 0 else '-'} " if out else ("" if sign > 0 else "-")) + f"({text})"
    return out


def _same_function(e1: sp.Expr, e2: sp.Expr) -> bool:
    """Equal as rational functions: a cheap exact look at points first (most pairs differ),
    ``cancel`` only for a pair that agrees there."""
    return _agree_at_points(e1, e2) and _cancel(e1 - e2) == 0


def _pair_up(g_parts: list[Summand], t_parts: list[Summand], image: Callable[[sp.Expr], sp.Expr]
             ) -> tuple[list[tuple[int, str, str, sp.Expr]], list[Summand], list[Summand]]:
    """Greedy pairing of equal-signed, non-constant summands that agree after ``image``."""
    matched, used, rest_goal = [], set(), []
    for sign, g_text, g_expr in g_parts:
        gi = None if g_expr.is_number else image(g_expr)
        for j, (s2, t_text, t_expr) in enumerate(t_parts):
            if gi is not None and j not in used and s2 == sign and _same_function(gi, t_expr):
                used.add(j)
                matched.append((sign, g_text, t_text, g_expr))
                break
        else:
            rest_goal.append((sign, g_text, g_expr))
    rest_inst = [p for j, p in enumerate(t_parts) if j not in used]
    return matched, rest_goal, rest_inst


# ------------------------------------------------------------------ introduce


def render_introduce(step: Step, ctx: RenderContext) -> StepBlock:
    goal, sub = step.goal, step.subgoals[0]
    defs = {v: _as_written_abs(expr_from_str(t, list(goal.variables)), goal)
            for v, t in step.certificate["definitions"].items()}
    title = "-- introduce " + ", ".join(f"{v} = {lean_expr(d)}" for v, d in defs.items())
    new_vars = [v for v in sub.variables if v in defs]
    bases = _user_bases(goal, ctx, defs)
    facts = Facts(ctx)
    inst, special = _written_instances(goal, ctx, defs, new_vars, bases, facts)
    applications = written_applications(goal, sub, ctx, defs, new_vars, inst)
    applications.side_prover = functools.partial(positive_fact_lines, step, goal, ctx)
    key = ctx.fresh("hkey")
    pre: list[str] = []
    proofs = {}
    for i in _quantified(goal, sub, ctx, new_vars):
        rel = sub.hypotheses[i]
        pf = special.get(rel) or _introduce_fact(rel, defs, ctx, pre, bases, applications) \
            or _abs_fact(rel, defs, sub, facts) \
            or _abs_product_fact(rel, defs, sub, facts) or _goal_fact(rel, defs, goal, ctx)
        if pf is None:
            _abs_sign_facts(rel, defs, facts)
        proofs[i] = pf if pf is not None else "(by positivity)"
    try:
        connect, comb = _introduce_connection(step, ctx, new_vars, inst, facts)
    except RenderError:
        # not a ring identity over the atoms ``ring`` sees (e.g. √x ^ 2 against x): the plain
        # instantiation is the best we can state; Lean (or the model) reports the remainder
        connect, comb = [], ""
    return _forall_block(step, ctx, key, new_vars, inst, title, proofs, facts.lines + pre, connect, comb)


def _as_written_abs(d: sp.Expr, goal: Goal) -> sp.Expr:
    """``|p|`` for a definition ``√(p²)`` (the search's form of ``|p|`` where sympy cannot tell ``p``
    is real, ``x − 1/x``) when the goal holds ``|p|`` itself: the instance is then the goal's atom and
    its facts are ``abs_nonneg``, ``abs_of_nonneg``, … (:func:`_abs_fact`)."""
    if not (d.is_Pow and d.exp == sp.Rational(1, 2) and d.base.is_Pow and d.base.exp == 2):
        return d
    p = d.base.base
    present = any(isinstance(a, sp.Abs) and sp.expand(a.args[0] - p) == 0
                  for r in (goal.target, *goal.hypotheses) for side in (r.lhs, r.rhs)
                  for a in sp.preorder_traversal(sp.sympify(side)))
    return sp.Abs(p) if present else d


def _abs_sign_facts(rel: Relation, defs: dict[str, sp.Expr], facts: Facts) -> None:
    """``0 ≤ |a|`` (``abs_nonneg``) for each ``|a|`` in the definitions ``rel`` names, stated before
    the ``(by positivity)`` that proves ``rel`` at the instance: Mathlib's ``|a|`` extension fails
    where ``a`` is known only nonnegative, and ``positivity`` then finds these facts."""
    names = {x.name for x in rel.free_symbols()}
    for v in sorted(names & set(defs)):
        for a in sorted({n for n in sp.preorder_traversal(defs[v]) if isinstance(n, sp.Abs)}, key=sp.default_sort_key):
            facts.have("hab", f"(0 : ℝ) ≤ {lean_expr(a)}", f"abs_nonneg {paren(lean_expr(a.args[0]))}")


def _written_instances(goal: Goal, ctx: RenderContext, defs: dict[str, sp.Expr], new_vars: list[str],
                       bases: dict[str, str], facts: Facts) -> tuple[dict[str, str], dict[Relation, str]]:
    """The instance of each new variable, in the user's atoms where the goal is the statement
    (:mod:`prover.lean.render.atoms`), and proofs of the definition facts those instances need."""
    variables = list(goal.variables)
    written = written_atoms(goal, ctx)
    inst: dict[str, str] = {}
    special: dict[Relation, str] = {}
    for v in new_vars:
        d = defs[v]
        inst[v] = _power_text(d, bases.get(v))
        root = user_root(written, d, variables)
        half = None if v in bases else half_power(written, d, variables)
        scaled = scaled_numeral_root(written, d)
        if scaled is not None and root is None:
            inst[v] = scaled.instance
            t = var(v)
            special[Relation(t ** scaled.q, "=", d.base)] = scaled_root_fact(scaled, facts)
            for rel in (Relation(t, ">", 0), Relation(0, "<", t), Relation(t, ">=", 0), Relation(0, "<=", t)):
                special[rel] = "(by positivity)"
        elif root is not None:
            inst[v] = root[0]
            special[Relation(var(v) ** 2, "=", d.base)] = _root_square(root, d.base, variables, ctx, facts)
        elif half is not None:
            q = int(d.exp.q)
            inst[v] = f"{paren(half[0])} ^ {exponent_text(Fraction(1, 2 * q))}"
            special[Relation(var(v) ** q, "=", d.base)] = half_power_fact(*half, q, facts)
    return inst, special


def _root_square(root: tuple[str, str], b: sp.Expr, variables: list[str], ctx: RenderContext, facts: Facts) -> str:
    """A proof of ``Real.sqrt R ^ 2 = B`` (``B`` our printing of the user's radicand ``R``)."""
    printed = lean_expr(b)
    if _same_term(root[1], printed, variables):
        return f"(Real.sq_sqrt {_POS_OR_LIN})"
    h = facts.have("hsq", f"{root[0]} ^ 2 = {root[1]}", f"Real.sq_sqrt {_POS_OR_LIN}")
    lines, comb = prove_equality(root[1], printed, variables, ctx)
    facts.lines.extend(lines)
    return f"(by linear_combination {h}{' + ' + comb if comb else ''})"


def _same_term(a: str, b: str, variables: list[str]) -> bool:
    try:
        return parse_atoms_term(a, variables) == parse_atoms_term(b, variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return False


def _abs_fact(rel: Relation, defs: dict[str, sp.Expr], sub: Goal, facts: Facts) -> str | None:
    """A proof of a definition fact of ``t := |p|``: ``t ≥ 0``, ``t > 0``, ``t ^ 2 = p ^ 2``,
    ``t = p`` or ``t = -p`` (Mathlib's ``abs_nonneg``, ``abs_pos_of_pos``/``abs_pos_of_neg``,
    ``sq_abs``, ``abs_of_pos``/``abs_of_neg``)."""
    for v, d in defs.items():
        if not isinstance(d, sp.Abs):
            continue
        t, p = var(v), d.args[0]
        shown, arg = lean_expr(d), paren(lean_expr(p))
        if rel in (Relation(t, ">=", 0), Relation(0, "<=", t)):
            return "(abs_nonneg _)"
        if rel == Relation(t ** 2, "=", p ** 2):
            return f"(by linear_combination sq_abs {arg})"
        strict = any(h in sub.hypotheses for h in (Relation(t, ">", 0), Relation(0, "<", t)))
        if rel == Relation(t, "=", p):
            lemma = "abs_of_pos" if strict else "abs_of_nonneg"       # only 0 ≤ p known: Real.sqrt_sq's case
            return f"(by linear_combination {facts.have('hab', f'{shown} = {arg}', f'{lemma} {_POS_OR_LIN}')})"
        if rel == Relation(t, "=", -p):
            lemma = "abs_of_neg" if strict else "abs_of_nonpos"
            return f"(by linear_combination {facts.have('hab', f'{shown} = -{arg}', f'{lemma} (by linarith)')})"
        if rel in (Relation(t, ">", 0), Relation(0, "<", t)):
            if Relation(t, "=", p) in sub.hypotheses:
                return f"(abs_pos_of_pos {_POS_OR_LIN})"
            if Relation(t, "=", -p) in sub.hypotheses:
                return "(abs_pos_of_neg (by linarith))"
    return None


def _abs_product_fact(rel: Relation, defs: dict[str, sp.Expr], sub: Goal, facts: Facts) -> str | None:
    """A proof of ``t = P`` for ``t := |p₁| * |p₂| * …`` (sympy's ``|p₁ * p₂ * …|``) from
    ``|pᵢ| = ±pᵢ`` (``abs_of_nonneg``/``abs_of_nonpos``, each sign proved from the hypotheses),
    the ``linear_combination`` coefficients telescoping one factor at a time."""
    from prover.rewrite.base import is_positive

    for v, d in defs.items():
        factors = [f for f in sp.Mul.make_args(d) if isinstance(f, sp.Abs)]
        if len(factors) < 2 or rel.op != "=" or rel.lhs != var(v):
            continue
        cur, terms = d, []
        for f in factors:
            p = f.args[0]
            sign = 1 if is_positive(p, sub, strict=False) else -1 if is_positive(-p, sub, strict=False) else 0
            if sign == 0:
                return None
            lemma = "abs_of_nonneg" if sign > 0 else "abs_of_nonpos"
            name = facts.have("hab", f"{lean_expr(f)} = {lean_expr(sign * p)}", f"{lemma} {_POS_OR_LIN}")
            nxt = cur.subs(f, sign * p)
            terms.append(f"({lean_expr(sp.cancel((cur - nxt) / (f - sign * p)))}) * {name}")
            cur = nxt
        if sp.expand(cur - rel.rhs) != 0:
            return None
        return f"(by linear_combination {' + '.join(terms)})"
    return None


def _oriented(r: Relation) -> tuple[sp.Expr, str]:
    """``(L − R, "=" | "<" | "<=")`` with ``r`` read as ``L = R``, ``L < R`` or ``L <= R``."""
    if r.op == "=":
        return sp.sympify(r.lhs - r.rhs), "="
    lhs, rhs, strict = as_le(r)
    return sp.sympify(lhs - rhs), "<" if strict else "<="


def _goal_fact(rel: Relation, defs: dict[str, sp.Expr], goal: Goal, ctx: RenderContext) -> str | None:
    """A hypothesis of the goal that ``rel`` becomes at the definitions, by
    ``linear_combination`` (``t₁ ^ 3 = t₂`` at ``t₂ := |x|`` is the goal's ``t₁ ^ 3 = |x|``;
    ``a * b * c ≤ t / 9`` at ``t := √3`` the user's ``a * b * c ≤ √3 / 9``): the same relation,
    the slacks equal as polynomials in the atoms."""
    if rel.op == "!=":
        return None
    subs = {var(v): d for v, d in defs.items()}
    slack, kind = _oriented(rel)
    slack = sp.sympify(slack).subs(subs)
    for h, name in zip(goal.hypotheses, ctx.names):
        if h.op == "!=":
            continue
        h_slack, h_kind = _oriented(h)
        if h_kind == kind and sp.expand(slack - h_slack) == 0:
            return f"(by linear_combination {name})"
    return None


def _introduce_connection(step: Step, ctx: RenderContext, new_vars: list[str], inst: dict[str, str],
                          facts: Facts) -> tuple[list[str], str]:
    """The ``linear_combination`` terms (and lines) turning the instantiated target into the
    goal's: ``ring`` alone for polynomial targets over the same atoms; the user's atoms bridged
    to the instance's (:func:`prover.lean.render.atoms.bridge_facts`); else :func:`_connection`."""
    goal, sub = step.goal, step.subgoals[0]
    left, right = ctx.sides(goal)
    l2, r2 = (lean_expr(e) for e in _sides(sub.target))
    outer = list(goal.variables)
    il, ir = (instantiate(t, list(sub.variables), {v: inst[v] for v in new_vars}, outer) for t in (l2, r2))
    goal_slack, inst_slack = f"({left}) - ({right})", f"({il}) - ({ir})"
    trial = Facts(ctx, [], dict(facts.names))
    found = bridge_facts(goal_slack, inst_slack, outer, trial)
    if found == [] and not ring_closes(goal_slack, inst_slack, [], outer):
        # the atoms agree but ``ring`` does not: a root in a denominator the user wrote (``π / √2``)
        found = root_square_facts(goal_slack, inst_slack, outer, trial)
    if found:
        facts.lines.extend(trial.lines)
        facts.names.update(trial.names)
        return _connection(step, ctx, new_vars, inst, found)
    return ([], "") if _polynomial(step, []) else _connection(step, ctx, new_vars, inst, [])


def _power_text(d: sp.Expr, base_text: str | None) -> str:
    """``d`` as Lean text; a real power with the base written ``base_text`` (the user's)."""
    if base_text is None or not (d.is_Pow and d.exp.is_Rational and not d.exp.is_Integer):
        return lean_expr(d)
    return f"{base_text} ^ ({int(d.exp.p)} / {int(d.exp.q)} : ℝ)"


def _user_bases(goal: Goal, ctx: RenderContext, defs: dict[str, sp.Expr]) -> dict[str, str]:
    """For each definition ``v = X ^ (p/q)``: the text of ``X`` as the user's statement writes it
    inside a real power (``(c ^ 2 + a ^ 2) ^ (1 / 3)``), when this goal is the statement's. Inside a
    power the base is an atom to ``ring``: ``c ^ 2 + a ^ 2`` and ``a ^ 2 + c ^ 2`` are two atoms."""
    if ctx.target_text is None or ctx.target_text[0] != goal.target:
        return _printed_bases(goal, defs)
    written: list[tuple[sp.Expr, str]] = []
    for side in ctx.target_text[1:]:
        try:
            term = rp.parse_term(rp.lex(side), rp.Scope(real_division=True))
        except (rp.NotModelled, rp.ModelError):
            continue
        for base in _power_bases(term):
            text = rp.show(base)
            try:
                written.append((parse_expression(text, list(goal.variables), real_division=True), text))
            except ParseError:
                continue
    out: dict[str, str] = {}
    for v, d in defs.items():
        if not (d.is_Pow and d.exp.is_Rational and not d.exp.is_Integer):
            continue
        for expr, text in written:
            if sp.expand(expr - d.base) == 0:
                out[v] = text if d.base.is_Symbol else f"({text})"
                break
    return out


def _printed_bases(goal: Goal, defs: dict[str, sp.Expr]) -> dict[str, str]:
    """For each definition ``v = X ^ (1/2)`` where this goal (our printing) has ``X`` only under real
    powers (``X ^ (3 / 2 : ℝ)``), never under ``Real.sqrt``: the text of ``X``, so that ``v`` is
    instantiated as ``X ^ (1 / 2 : ℝ)`` and bridged to those powers as the user's are."""
    powers = [a for r in (goal.target, *goal.hypotheses) for side in (r.lhs, r.rhs)
              for a in sp.preorder_traversal(sp.sympify(side))
              if a.is_Pow and a.exp.is_Rational and not a.exp.is_Integer]
    out: dict[str, str] = {}
    for v, d in defs.items():
        if not (d.is_Pow and d.exp == sp.Rational(1, 2)):
            continue
        same = [a for a in powers if sp.expand(a.base - d.base) == 0]
        if same and all(abs(a.exp) != sp.Rational(1, 2) for a in same):
            out[v] = _base_text(d.base)
    return out


def _power_bases(t: object) -> list[object]:
    """The bases of the powers with a non-numeral exponent in a parsed term (replay model terms)."""
    if not isinstance(t, tuple) or not t:
        return []
    found = []
    if t[0] == "pow" and not (isinstance(t[2], tuple) and t[2][0] == "num"):
        found.append(t[1])
    for x in t:                           # argument tuples too
        found += _power_bases(x)
    return found


# ------------------------------------------------------------------ substitute


def _cancel(e: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(e))


#: Points at which :func:`_agree_at_points` compares two rational functions.
_CHECK_POINTS = ((Fraction(3, 7), Fraction(5, 11), Fraction(7, 13), Fraction(2, 17), Fraction(11, 19)),
                 (Fraction(13, 5), Fraction(1, 3), Fraction(17, 23), Fraction(9, 29), Fraction(5, 2)),
                 (Fraction(29, 31), Fraction(37, 7), Fraction(3, 41), Fraction(43, 47), Fraction(1, 53)))


def _agree_at_points(e1: sp.Expr, e2: sp.Expr) -> bool:
    """Do two rational functions agree at a few fixed rational points (exactly)? Only a guard
    against emitting an identity that cannot hold — ``ring`` checks the identity itself — and
    far cheaper than ``cancel`` on a combined fraction of thousands of terms (mo-int-20/P19). A
    point where either side has a vanishing denominator is skipped."""
    syms = sorted(e1.free_symbols | e2.free_symbols, key=str)
    compared = 0
    for values in _CHECK_POINTS:
        point = {x: sp.Rational(v.numerator, v.denominator)
                 for x, v in zip(syms, values * (len(syms) // len(values) + 1))}
        v1, v2 = e1.xreplace(point), e2.xreplace(point)
        if not (v1.is_Rational and v2.is_Rational):
            continue
        if v1 != v2:
            return False
        compared += 1
    return compared > 0 or _cancel(e1 - e2) == 0


def _eq_coefficients(goal: Goal, slack: sp.Expr, phi: dict[sp.Symbol, sp.Expr],
                     eq_terms: dict[str, list[tuple[int, sp.Expr]]]) -> dict[int, sp.Expr]:
    """``cⱼ`` with ``slack(x) − slack(φ(x)) = Σ cⱼ·(lhsⱼ − rhsⱼ)`` (equality hypotheses ``j``), given
    ``φ(x)_x − x = Σ p_{x,j}·(lhsⱼ − rhsⱼ)``. With one equality ``e`` the difference vanishes where
    ``e`` does and ``c = difference / e``; otherwise telescoping over the variables, each step is
    ``(x − φ_x)·Q`` with ``Q`` the divided difference."""
    hyps = {j for ts in eq_terms.values() for j, _ in ts}
    moved = {x: fx for x, fx in phi.items() if _cancel(fx - x) != 0}
    if not moved:
        return {}
    total = _cancel(slack - slack.subs(moved, simultaneous=True))
    if total == 0:
        return {}
    if len(hyps) == 1:
        # one equality e: slack(x) − slack(φ(x)) vanishes where e does, so it is (total / e)·e
        j = next(iter(hyps))
        h = goal.hypotheses[j]
        return {j: _cancel(total / (h.lhs - h.rhs))}
    coeffs: dict[int, sp.Expr] = {}
    point = {s: s for s in phi}
    prev = slack
    for x, fx in phi.items():
        if _cancel(fx - x) == 0:
            continue
        point[x] = fx
        cur = slack.subs(point, simultaneous=True)
        q = _cancel((prev - cur) / (x - fx))
        for j, p in eq_terms.get(x.name, []):
            coeffs[j] = coeffs.get(j, sp.Integer(0)) - p * q
        prev = cur
    return {j: _cancel(c) for j, c in coeffs.items() if _cancel(c) != 0}


def _slack(r: Relation) -> sp.Expr:
    lhs, rhs = _sides(r)
    return lhs - rhs


def render_substitute(step: Step, ctx: RenderContext) -> StepBlock:
    goal, sub = step.goal, step.subgoals[0]
    cert = step.certificate
    gv, sv = list(goal.variables), list(sub.variables)
    subst = {x: var(x) for x in gv}
    subst.update({x: expr_from_str(t, sv) for x, t in cert["substitution"].items()})
    inverse = {y: var(y) for y in sv}
    inverse.update({y: expr_from_str(t, gv) for y, t in cert["inverse"].items()})
    eq_terms = {x: [(int(t["hyp"]), expr_from_str(str(t["poly"]), gv)) for t in ts]
                for x, ts in (cert.get("eq_terms") or {}).items()}
    for x, ts in eq_terms.items():
        for j, _ in ts:
            if not 0 <= j < len(goal.hypotheses) or goal.hypotheses[j].op != "=":
                raise RenderError(f"substitute step: eq_terms of {x} names hypothesis {j}, not an equality")
    title = "-- substitute " + ", ".join(f"{v} = {lean_expr(f)}" for v, f in subst.items() if f != var(v))
    new_vars = [v for v in sv if v not in gv or v in cert["inverse"]]
    polynomial = not eq_terms and _polynomial(step, [inverse[v] for v in new_vars])
    termwise: Termwise | None = None
    facts: Callable[[], list[EqFact]] = list
    if not polynomial:
        # ``ring`` (with the facts below) checks the connection; these checks only keep us from
        # emitting an identity that cannot hold, and compute the coefficients of the equalities
        g_sym = {var(y): e for y, e in inverse.items()}
        phi = {var(x): _cancel(f.subs(g_sym, simultaneous=True)) for x, f in subst.items()}
        slack, slack2 = _slack(goal.target), _slack(sub.target)
        if not _agree_at_points(slack2.subs(g_sym, simultaneous=True), slack.subs(phi, simultaneous=True)):
            raise RenderError("substitute step: the subgoal's target at the inverse map is not the goal's target "
                              "at f(g(x)) (no rational or polynomial identity connects them)")

        def eq_facts(e: sp.Expr) -> list[EqFact]:
            coeffs = _eq_coefficients(goal, e, phi, eq_terms)
            return [EqFact(factored_text(c), ctx.names[j], lean_expr(goal.hypotheses[j].lhs),
                           lean_expr(goal.hypotheses[j].rhs)) for j, c in sorted(coeffs.items())]
        facts = functools.partial(eq_facts, slack)
        moved = {x.name: lean_expr(fx) for x, fx in phi.items() if _cancel(fx - x) != 0}
        termwise = Termwise(lambda e: _cancel(e.subs(phi, simultaneous=True)), eq_facts,
                            lambda text: instantiate(text, gv, moved, gv))
    inst = {v: lean_expr(inverse[v]) for v in new_vars}
    positivity = {int(h["index"]) for h in cert.get("new_hypotheses", [])
                  if isinstance(h.get("proof"), dict) and h["proof"].get("method") == "positivity"}
    by_equalities = {int(h["index"]): h["proof"]["eq_terms"] for h in cert.get("new_hypotheses", [])
                     if isinstance(h.get("proof"), dict) and h["proof"].get("eq_terms")
                     and not h["proof"].get("terms")}
    certified = {int(h["index"]): h["proof"] for h in cert.get("new_hypotheses", [])
                 if isinstance(h.get("proof"), dict) and h["proof"].get("method") == "sos"}
    pre: list[str] = []
    found = _new_hypothesis_proofs(step, inverse, inst, new_vars, positivity, by_equalities, ctx, pre)
    proofs: dict[int, str] = {}
    for i, name in found.items():
        if name is None and i not in positivity and i in certified:
            name = _certified_instance(step, i, inverse, certified[i], ctx)
        proofs[i] = name or ("(by positivity)" if i in positivity else
                             f"(by first | positivity | linarith only [{', '.join(ctx.names[:len(goal.hypotheses)])}])")
    key = ctx.fresh("hkey")
    if polynomial and not _has_root(goal.target) and "|" not in "".join(ctx.sides(goal)):
        connect, comb = [], ""
    else:   # roots, |·|: ``ring`` sees the user's and the instance's arguments as different atoms
        connect, comb = _substitute_connection(step, ctx, new_vars, inst, facts, termwise)
    return _forall_block(step, ctx, key, new_vars, inst, title, proofs, pre, connect, comb)


def _new_hypothesis_proofs(step: Step, inverse: dict[str, sp.Expr], inst: dict[str, str], new_vars: list[str],
                           positivity: set[int], by_equalities: dict[int, list[dict]], ctx: RenderContext,
                           pre: list[str]) -> dict[int, str | None]:
    """The proof term of each hypothesis the ``∀`` statement assumes, at the instance: the goal's
    own hypothesis by name when unchanged, else from the kernel's certificate of it (a sign, or
    the equalities' multipliers); None where none of these applies."""
    goal, sub = step.goal, step.subgoals[0]
    proofs: dict[int, str | None] = {}
    for i in _quantified(goal, sub, ctx, new_vars):
        h = sub.hypotheses[i]
        same = all(inverse[s.name] == s for s in h.free_symbols() if s.name in inverse)
        name = hypothesis_name(goal, ctx.names, h) if same else None
        if name is None and i in positivity:
            name = _signed_instance(step, h, sub, new_vars, inst, ctx, pre)
        if name is None and i in by_equalities:
            name = _equality_instance(step, h, sub, new_vars, inst, by_equalities[i], ctx, pre)
        if name is None and i < len(goal.hypotheses):
            name = _bridged_instance(step, i, new_vars, inst, ctx, pre) \
                or _rational_instance(step, i, inverse, new_vars, inst, ctx, pre)
        proofs[i] = name
    return proofs


def _certified_instance(step: Step, i: int, inverse: dict[str, sp.Expr], cert: dict, ctx: RenderContext) -> str | None:
    """The subgoal's hypothesis ``i`` at the instance from the kernel's certificate of it over the
    goal's hypotheses (``y³ − 1 ≤ 3·u₂₁·y³`` from ``y³ − 1 ≤ u₃₁·y³`` and ``u₃₁ = 3·u₂₁``: the
    equality times ``y³``, which ``linarith`` cannot find), as one ``(by linear_combination …)``;
    None when the certificate does not render to one line."""
    goal, h = step.goal, step.subgoals[0].hypotheses[i]
    back = {var(y): e for y, e in inverse.items()}
    target = Relation(_cancel(sp.sympify(h.lhs).subs(back, simultaneous=True)), h.op,
                      _cancel(sp.sympify(h.rhs).subs(back, simultaneous=True)))
    try:
        lines = close_lines(step, goal.with_target(target), ctx.child(ctx.names), cert)
    except (RenderError, KeyError, ValueError, TypeError):
        return None
    return f"(by {lines[0]})" if len(lines) == 1 and lines[0].startswith("linear_combination") else None


def _bridged_instance(step: Step, i: int, new_vars: list[str], inst: dict[str, str], ctx: RenderContext,
                      pre: list[str]) -> str | None:
    """The instance of the goal's hypothesis ``i`` when only its atoms' arguments are written
    differently (``|4 * (x / 4) - 4| < 3`` for ``h : |-x + 4| < 3`` after ``x = 4 * x``):
    ``linarith`` sees the two ``|·|`` as different atoms, so the atoms are bridged
    (:func:`prover.lean.render.atoms.bridge_facts`, ``congrArg`` of a ``ring`` identity) and the
    instance is ``h`` plus those equalities. None when the relation or its atoms do not match."""
    goal, h = step.goal, step.subgoals[0].hypotheses[i]
    g = goal.hypotheses[i]
    if g.op != h.op or not any(m in lean_expr(g.lhs) + lean_expr(g.rhs) for m in ("|", "√")):
        return None
    outer = list(goal.variables)
    il, ir = (instantiate(lean_expr(x), list(step.subgoals[0].variables), {v: inst[v] for v in new_vars}, outer)
              for x in (h.lhs, h.rhs))
    trial = Facts(ctx, [], {})
    bridges = bridge_facts(f"({lean_expr(g.lhs)}) - ({lean_expr(g.rhs)})", f"({il}) - ({ir})", outer, trial)
    if not bridges:
        return None
    pre.extend(trial.lines)
    return f"(by linear_combination {ctx.names[i]} {carried_terms(bridges, g.op)})"


def _rational_instance(step: Step, i: int, inverse: dict[str, sp.Expr], new_vars: list[str], inst: dict[str, str],
                       ctx: RenderContext, pre: list[str]) -> str | None:
    """The instance of the goal's hypothesis ``i`` when it is that hypothesis up to a field identity
    (``(x_ − 1) / x_ ≤ u`` at ``x_ = 1 / x`` is ``1 − x ≤ u``): ``linarith`` reads ``(1 / x)⁻¹`` as an
    atom, so the difference of the two slacks is proved equal by :func:`prove_equality` and the
    instance is ``h`` plus that equality. None when the two differ as rational functions."""
    goal, sub = step.goal, step.subgoals[0]
    g, h = goal.hypotheses[i], sub.hypotheses[i]
    if g.op != h.op or not g.is_inequality:
        return None
    back = {var(y): e for y, e in inverse.items()}
    if not any(has_denominator(sp.sympify(e)) for e in (h.lhs, h.rhs, *back.values())):
        return None         # polynomial: ``linarith`` reads the instance as the hypothesis
    slack_h = (sp.sympify(h.lhs) - sp.sympify(h.rhs)).subs(back, simultaneous=True)
    if sp.cancel(sp.together(slack_h - (sp.sympify(g.lhs) - sp.sympify(g.rhs)))) != 0:
        return None
    outer = list(goal.variables)
    il, ir = (instantiate(lean_expr(x), list(sub.variables), {v: inst[v] for v in new_vars}, outer)
              for x in (h.lhs, h.rhs))
    lhs, rhs = f"({il}) - ({ir})", f"({lean_expr(g.lhs)}) - ({lean_expr(g.rhs)})"
    try:
        lines, comb = prove_equality(lhs, rhs, outer, ctx, positive=positive_fact_prover(step, goal, ctx))
    except RenderError:
        return None
    name = ctx.fresh("hcons")
    pre.extend(lines + equality_lines(name, lhs, rhs, comb))
    sign = "+" if g.op in ("<", "<=") else "-"
    return f"(by linear_combination {ctx.names[i]} {sign} {name})"


def _equality_instance(step: Step, h: Relation, sub: Goal, new_vars: list[str], inst: dict[str, str],
                       eq_terms: list[dict], ctx: RenderContext, pre: list[str]) -> str | None:
    """A proof of the instantiated equality ``L(g(x)) = R(g(x))`` from the kernel's multipliers
    ``λⱼ`` of the goal's equalities (``L − R = Σ λⱼ·(lhsⱼ − rhsⱼ)``, rational ``λ``): one field
    identity (``1 = 1/(a+2) + 1/(b+2) + 1/(c+2)`` from ``ab + bc + ca + abc = 4``), lines added to
    ``pre``. None when the hypothesis is no equality or a multiplier names no equality."""
    goal = step.goal
    if h.op != "=":
        return None
    facts = []
    for t in eq_terms:
        j = int(t["hyp"])
        if not 0 <= j < len(goal.hypotheses) or goal.hypotheses[j].op != "=":
            return None
        hj = goal.hypotheses[j]
        lam = expr_from_str(str(t["poly"]), list(goal.variables))
        facts.append(EqFact(factored_text(lam), ctx.names[j], lean_expr(hj.lhs), lean_expr(hj.rhs)))
    sides = [instantiate(lean_expr(x), list(sub.variables), {v: inst[v] for v in new_vars}, list(goal.variables))
             for x in (h.lhs, h.rhs)]
    try:
        lines, comb = prove_equality(sides[0], sides[1], list(goal.variables), ctx, facts,
                                     positive=positive_fact_prover(step, goal, ctx))
    except RenderError:
        return None
    name = ctx.fresh("hcons")
    pre.extend(lines + equality_lines(name, sides[0], sides[1], comb))
    return name


def _signed_instance(step: Step, h: Relation, sub: Goal, new_vars: list[str], inst: dict[str, str],
                     ctx: RenderContext, pre: list[str]) -> str | None:
    """A proof of the instantiated hypothesis ``0 < P(g(x))`` when ``P`` has a subtraction, which
    ``positivity`` cannot see (``0 < 1 - 2 * (1 / (a + 2))`` after ``a = 1/a_ − 2``): the sign of the
    instance from its reduced quotient (:func:`positive_fact_prover`), lines added to ``pre``. A
    bound ``L < R`` (``c_ < 1`` at ``c_ = c/(c + 1)``) is ``sub_pos.mp`` of ``0 < R − L`` so found.
    None for any other shape (``positivity`` is then tried as before)."""
    if h.op not in (">", ">=", "<", "<="):
        return None
    big, small = (h.lhs, h.rhs) if h.op in (">", ">=") else (h.rhs, h.lhs)
    bound = sp.sympify(small) != 0
    text = f"{paren(lean_expr(big))} - {paren(lean_expr(small))}" if bound else lean_expr(big)
    if "-" not in text:
        return None
    base = instantiate(text, list(sub.variables), {v: inst[v] for v in new_vars}, list(step.goal.variables))
    found = positive_fact_prover(step, step.goal, ctx)(base)
    fact = positive_fact_of(found[1]) if found is not None else None
    if found is None or fact is None:
        return None
    pre.extend(found[0])
    strict = h.op in (">", "<")
    if bound:
        return f"(sub_pos.mp {fact})" if strict else f"(sub_nonneg.mp {fact}.le)"
    return fact if strict else f"{fact}.le"


def _substitute_connection(step: Step, ctx: RenderContext, new_vars: list[str], inst: dict[str, str],
                           facts: Callable[[], list[EqFact]], termwise: Termwise | None) -> tuple[list[str], str]:
    """:func:`_connection` for a substitution; a root of the goal written differently from the
    instantiated subgoal's (``√(2·((1/a)² + (1/b)²))`` against ``√(2·(1/a)² + 2·(1/b)²)``) is first
    bridged (:func:`prover.lean.render.atoms.bridge_facts`, ``congrArg`` of a ``ring`` identity):
    ``ring`` treats the two roots as different atoms."""
    goal, sub = step.goal, step.subgoals[0]
    left, right = ctx.sides(goal)
    # the user's text may hold a root sympy rewrote without one (``√(d ^ 2 * u ^ 2)`` is ``|d| * |u|``)
    if not _has_root(goal.target) and not has_root_or_abs(left + right):
        return _connection(step, ctx, new_vars, inst, facts, termwise)
    l2, r2 = (lean_expr(e) for e in _sides(sub.target))
    outer = list(goal.variables)
    il, ir = (instantiate(t, list(sub.variables), {v: inst[v] for v in new_vars}, outer) for t in (l2, r2))
    trial = Facts(ctx, [], {})
    bridges = bridge_facts(f"({left}) - ({right})", f"({il}) - ({ir})", outer, trial)
    if bridges is None:
        # the instance's root is the one to rewrite (the goal's ``√3 * √(p * q)`` against the
        # instance's ``√(p * (q / 3))``): bridged the other way, each coefficient negated
        trial = Facts(ctx, [], {})
        back = bridge_facts(f"({il}) - ({ir})", f"({left}) - ({right})", outer, trial)
        bridges = None if back is None else [EqFact(f"-({f.coeff})", f.proof, f.lhs, f.rhs) for f in back]
    if not bridges:
        return _connection(step, ctx, new_vars, inst, facts, termwise)
    try:
        lines, comb = _connection(step, ctx, new_vars, inst, lambda: facts() + bridges)
    except RenderError:
        # the bridged identity is too large: the instance rewritten atom by atom instead
        chained = Facts(ctx, [], {})
        comb = congruence_chain(f"({left}) - ({right})", f"({il}) - ({ir})", outer, chained)
        if comb is None:
            raise
        return chained.lines, comb
    return trial.lines + lines, comb


def _has_root(rel: Relation) -> bool:
    """A non-integer power (a root) in the relation's sides."""
    return any(isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer
               for side in (rel.lhs, rel.rhs) for n in sp.preorder_traversal(sp.sympify(side)))
