"""``close`` steps: SOS certificates as one ``linear_combination``; ``positivity`` closes."""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from prover.frontend import ParseError, parse_expression
from prover.ir import Goal, Step
from prover.lean.render.atoms import bridged_equality, paren
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    at_real,
    coeff_text,
    combination,
    equality_lines,
    fold_facts,
    indent,
    slack_fact,
    step_expr,
)
from prover.lean.render.compact import polynomial_text
from prover.lean.render.field_identity import EqFact, PositiveFact, prove_equality
from prover.lean.render.statement import split_top
from prover.lean.syntax import lean_expr
from prover.problem import Relation
from prover.solvers.sos import sos_certificate


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


def _constant_root_facts(step: Step, goal: Goal, ctx: RenderContext, cert: dict) -> tuple[list[str], list[EqFact]]:
    """For an equality target whose certificate holds only with ``√c ^ 2 = c`` for rationals
    ``c > 0`` (the kernel knows it; ``ring`` does not): the lines stating each
    ``hs : Real.sqrt c ^ 2 = c`` (``Real.sq_sqrt``) and the facts with their coefficients ``q``,
    the quotients of ``slack − Σ λ·eq`` by the ``√c ^ 2 − c``; ``([], [])`` when none is needed."""
    if goal.target.op != "=" or cert.get("terms"):
        return [], []
    residual = goal.target.slack()
    for t in cert.get("eq_terms", []):
        h = goal.hypotheses[int(t["hyp"])]
        residual -= step_expr(step, t["poly"], goal) * (h.lhs - h.rhs)
    roots = sorted({a for a in sp.sympify(residual).atoms(sp.Pow)
                    if a.base.is_Rational and a.base > 0 and a.exp == sp.Rational(1, 2)}, key=str)
    if not roots:
        return [], []
    syms = [sp.Dummy(f"root{i}") for i in range(len(roots))]
    num, den = sp.fraction(sp.cancel(sp.together(residual.xreplace(dict(zip(roots, syms))))))
    if sp.expand(num) == 0:
        return [], []
    rels = [s ** 2 - r.base for s, r in zip(syms, roots)]
    try:
        quotients, rest = sp.reduced(sp.expand(num), rels, *syms)
    except (sp.PolynomialError, sp.CoercionFailed):
        return [], []
    if sp.expand(rest) != 0:
        return [], []                  # not an identity modulo the roots: the identity step will say so
    back = dict(zip(syms, roots))
    lines: list[str] = []
    facts: list[EqFact] = []
    for r, q in zip(roots, quotients):
        q = sp.factor(q.xreplace(back) / den.xreplace(back))
        if q == 0:
            continue
        hs = ctx.fresh("hs")
        lines.append(f"have {hs} : {lean_expr(r)} ^ 2 = {lean_expr(r.base)} := Real.sq_sqrt (by positivity)")
        facts.append(EqFact(lean_expr(q), hs, f"{lean_expr(r)} ^ 2", lean_expr(r.base)))
    return lines, facts


#: Above this many characters the certificate's facts are stated one ``have`` each (their types
#: inferred from the proof terms), so that no single tactic is larger than its largest fact.
SPLIT_ABOVE = 10_000


def _terms_as_haves(terms: list[tuple[sp.Expr, str]], ctx: RenderContext) -> tuple[dict[str, str], list[tuple[sp.Expr, str]]]:
    """A name ``hsqN`` for each compound proof term (``{name: proof}``, stated ``have hsqN :=
    proof`` in order); the combination then names them."""
    named: dict[str, str] = {}
    out: list[tuple[sp.Expr, str]] = []
    for weight, proof in terms:
        if proof.isidentifier():
            out.append((weight, proof))
            continue
        name = ctx.fresh("hsq")
        named[name] = proof
        out.append((weight, name))
    return named, out


def _shortened(terms: list[tuple[sp.Expr, str]], goal: Goal,
               ctx: RenderContext) -> tuple[list[str], list[tuple[sp.Expr, str]]]:
    """The lines and terms of a combination kept within the tactic budget: over
    :data:`SPLIT_ABOVE` its compound facts are named, then (still over
    :data:`EQUALITIES_APART_ABOVE`) its equality multipliers stated apart, then its constant
    weights taken into the named facts."""
    named: dict[str, str] = {}
    if len(combination(terms)) > SPLIT_ABOVE:
        named, terms = _terms_as_haves(terms, ctx)
    apart: list[str] = []
    if len(combination(terms)) > EQUALITIES_APART_ABOVE:
        apart, terms = _equalities_apart(terms, goal, ctx)
    weights: dict[str, str] = {}
    if len(combination(terms)) > EQUALITIES_APART_ABOVE:
        weights, terms = _weights_inside(terms, named, ctx)
    lines = [ln for name, proof in named.items()
             for ln in ([weights[name]] if name in weights else []) + [f"have {name} := {proof}"]]
    return lines + apart, terms


#: Above this many characters (after :data:`SPLIT_ABOVE`'s ``have`` facts) each equality
#: hypothesis with a polynomial multiplier ``λ`` is stated apart (:func:`_equalities_apart`).
EQUALITIES_APART_ABOVE = 15_000


def _equalities_apart(terms: list[tuple[sp.Expr, str]], goal: Goal,
                      ctx: RenderContext) -> tuple[list[str], list[tuple[sp.Expr, str]]]:
    """``have hpartN := mul_eq_zero_of_right (λ) (sub_eq_zero_of_eq h)`` (``λ * (L − R) = 0``, its
    type inferred) for each term ``λ * h`` of an equality hypothesis ``h : L = R`` with a
    non-constant ``λ``; the combination then uses ``hpartN`` with weight 1, which adds the same
    ``λ·(L − R)`` (to an equality's ``lhs − rhs``; its negation to an inequality's slack, as
    ``λ * h`` does). The multipliers leave the one ``linear_combination`` tactic (sqrt_cyclic:
    420 weighted squares and four cubic ``λ`` over the tactic budget)."""
    equalities = {ctx.names[k] for k, h in enumerate(goal.hypotheses) if h.op == "="}
    lines: list[str] = []
    out: list[tuple[sp.Expr, str]] = []
    for weight, proof in terms:
        if proof not in equalities or sp.sympify(weight).is_number:
            out.append((weight, proof))
            continue
        part = ctx.fresh("hpart")
        lines.append(f"have {part} := mul_eq_zero_of_right ({lean_expr(weight)}) (sub_eq_zero_of_eq {proof})")
        out.append((sp.Integer(1), part))
    return lines, out


def _weights_inside(terms: list[tuple[sp.Expr, str]], named: dict[str, str],
                    ctx: RenderContext) -> tuple[dict[str, str], list[tuple[sp.Expr, str]]]:
    """Each named nonnegative fact ``h := P`` (``P : 0 ≤ X``, a square or a product of them) with a
    positive constant weight ``c`` becomes ``h := mul_nonneg hw P`` (``0 ≤ c * X``; ``named`` is
    updated) and is used with weight 1: the same sum, the weights moved out of the one combination
    (sqrt_cyclic/19: 573 weighted squares, a 26 k tactic). ``hw : (0 : ℝ) ≤ c`` by ``positivity``
    is stated once per weight, before the first fact that uses it: returned as
    ``{that fact's name: hw's line}``."""
    names: dict[sp.Expr, str] = {}
    before: dict[str, str] = {}
    out: list[tuple[sp.Expr, str]] = []
    for weight, name in terms:
        w = sp.sympify(weight)
        proof = named.get(name, "")
        if not (w.is_Rational and w > 0 and w != 1) or not proof.lstrip("(").startswith(_NONNEG_PROOFS):
            out.append((weight, name))
            continue
        if w not in names:
            names[w] = ctx.fresh("hw")
            before[name] = f"have {names[w]} : (0 : ℝ) ≤ {lean_expr(w)} := by positivity"
        named[name] = f"mul_nonneg {names[w]} {proof}"
        out.append((sp.Integer(1), name))
    return before, out


#: A combination of more summands than ``GROUP_ABOVE`` is written as parenthesised groups of
#: ``GROUP_SIZE`` summands.
GROUP_ABOVE, GROUP_SIZE = 256, 32


def _grouped(terms: list[tuple[sp.Expr, str]]) -> str:
    """The combination, in parenthesised groups when it is long: a sum of N summands nests N deep
    (Lean's ``maxRecDepth`` is 512; sqrt_cyclic/19 has 590), in groups about N/32 + 32."""
    if len(terms) <= GROUP_ABOVE:
        return combination(terms)
    return " + ".join(f"({combination(terms[k:k + GROUP_SIZE])})" for k in range(0, len(terms), GROUP_SIZE))


#: Proof terms of ``0 ≤ X`` facts (never ``0 < X``: ``mul_nonneg`` needs ``≤``).
_NONNEG_PROOFS = ("sq_nonneg", "mul_nonneg")


def hypothesis_fact(goal: Goal, ctx: RenderContext, text: str, expr: sp.Expr) -> list[str]:
    """``have hf : (0 : ℝ) < text := by linear_combination c * h`` from a strict hypothesis ``h``
    of ``goal`` (named ``ctx.names``) whose slack is ``expr`` times a positive rational ``1/c``
    (``hn3 : 0 < 4 * c ^ 2 - a * b + 1`` for ``expr = 4c² − ab + 1``); ``[]`` when there is none.
    ``linear_combination`` checks ``expr − c·slack = 0`` by ``ring``: no search."""
    expr = sp.expand(expr)
    if expr.is_number:
        return []
    for rel, name in zip(goal.hypotheses, ctx.names):
        if not rel.strict:
            continue
        ratio = sp.cancel(sp.expand(rel.slack()) / expr)
        if ratio.is_Rational and ratio > 0:
            hf = ctx.fresh("hf")
            weight = "" if ratio == 1 else f"{coeff_text(1 / ratio)} * "
            return [f"have {hf} : (0 : ℝ) < {text} := by linear_combination {weight}{name}"]
    return []


def positive_fact_lines(step: Step, goal: Goal, ctx: RenderContext, text: str, expr: sp.Expr,
                        seconds: float | None = None) -> list[str]:
    """Lines whose last ``have`` proves ``(0 : ℝ) < text`` (``text`` printing ``expr``): from a
    hypothesis of ``goal`` that states it (:func:`hypothesis_fact`), else from a kernel-checked SOS
    certificate found within ``seconds``; ``[]`` when neither is found."""
    lines = hypothesis_fact(goal, ctx, text, expr)
    if lines:
        return lines
    target = goal.with_target(Relation(sp.Integer(0), "<", expr))
    cert = sos_certificate(target, POSITIVE_FACT_TIME if seconds is None else seconds)
    if cert is None:
        return []
    name = ctx.fresh("hf")
    return [f"have {name} : (0 : ℝ) < {text} := by"] + indent(close_lines(step, target, ctx.child(ctx.names), cert))


def positive_fact_prover(step: Step, goal: Goal, ctx: RenderContext) -> PositiveFact:
    """For :func:`prove_equality`: the sign of a denominator ``P`` that ``positivity`` cannot see
    (a subtraction; e.g. ``1 - c ^ 2`` under ``a + b + c = 1``), from kernel-checked SOS
    certificates under ``goal``'s hypotheses (named ``ctx.names``): ``0 < P`` directly, or through
    the factors of ``P`` (each factor positive or negative), ``P < 0`` likewise. A hypothesis
    ``P ≠ 0`` that ``positivity`` cannot see (a part of a conjunction, ``h₀.2``) or that states a
    subtraction is used as it is, first."""
    def direct(text: str, expr: sp.Expr) -> list[str]:
        return positive_fact_lines(step, goal, ctx, text, expr)

    def prove(base: str) -> tuple[list[str], str] | None:
        try:
            expr = parse_expression(base, list(goal.variables))
        except ParseError:
            return None
        stated = _nonzero_hypothesis(goal, ctx, expr, subtraction="-" in base)
        if stated is not None:
            return [], stated
        if "-" not in base:
            return None          # ``positivity`` proves it
        product = _nonzero_product(goal, ctx, base)
        if product is not None:
            return [], product
        if expr.is_polynomial(*expr.free_symbols):
            by_factors = _sign_by_factors(base, expr, ctx, direct)
            if by_factors is not None:
                return by_factors
        else:
            return _sign_of_quotient(base, expr, goal, ctx, direct)
        lines = direct(base, expr)
        if lines:
            return lines, f"{_last_name(lines)}.ne'"
        neg = sp.expand(-expr)
        lines = direct(lean_expr(neg), neg)          # a negative denominator: ``0 < -P``, so ``P < 0``
        if not lines:
            return None
        hf = ctx.fresh("hf")
        lines.append(f"have {hf} : {base} < 0 := by linear_combination {_last_name(lines)}")
        return lines, f"{hf}.ne"
    return prove


def positive_fact_of(term: str) -> str | None:
    """The fact ``0 < P`` behind a term of :func:`positive_fact_prover` (its proofs of ``P ≠ 0``
    from a sign fact are ``hf.ne'`` for ``0 < P`` and ``hf.ne`` for ``P < 0``); None for a negative
    fact or a stated ``P ≠ 0`` hypothesis."""
    return term.removesuffix(".ne'") if term.endswith(".ne'") else None


def _nonzero_hypothesis(goal: Goal, ctx: RenderContext, expr: sp.Expr, subtraction: bool) -> str | None:
    """The name of a hypothesis ``P ≠ 0`` of ``goal`` with ``P`` the denominator ``expr`` (same
    expression), when ``positivity`` would not find it: a projection ``h.1`` (a conjunction's
    part is no local hypothesis) or, for a subtraction, any such hypothesis; else None."""
    for h, name in zip(goal.hypotheses, ctx.names):
        if h.op == "<" and sp.sympify(h.rhs) == 0 and sp.sympify(h.lhs) == expr:
            return f"{_projection(name)}.ne"          # P < 0: positivity's compareHyp reads no upper bound
        if h.op == "!=" and sp.sympify(h.rhs) != 0:
            gap = sp.sympify(h.lhs) - sp.sympify(h.rhs)
            if subtraction and sp.expand(gap - expr) == 0:
                return f"(sub_ne_zero.mpr {_projection(name)})"      # x ≠ y for the denominator x - y
            scale = sp.cancel(expr / gap) if gap != 0 else None
            if scale is not None and scale.is_Rational and scale != 0:
                # x ≠ -2 for x + 2 (or 2 - x): a zero denominator would make x = -2
                hz = ctx.fresh("hz")
                factor = "" if scale == 1 else f"({lean_expr(1 / scale)}) * "
                return f"(fun {hz} => {_projection(name)} (by linear_combination {factor}{hz}))"
        if h.op != "!=" or sp.sympify(h.rhs) != 0 or sp.sympify(h.lhs) != expr:
            continue
        if subtraction or not name.isidentifier():
            return _projection(name)
    return None


def _top_level_factors(text: str) -> list[str]:
    """``A * B * C`` split at its depth-0 ``*``; a text with a depth-0 ``+``, ``-`` or ``/`` is one
    factor (a factor may be a power, :func:`_power_parts`)."""
    for op in "+-/":
        if len(split_top(text.lstrip("-"), op)) > 1:
            return [text]
    return split_top(text, "*")


def _nonzero_product(goal: Goal, ctx: RenderContext, base: str) -> str | None:
    """``P₁ * P₂ * … ≠ 0`` from each factor's ``≠ 0`` (a stated hypothesis, ``sub_ne_zero`` of one,
    or ``positivity`` for a factor without subtraction), left-nested as the text is:
    ``mul_ne_zero_iff.mpr ⟨…, …⟩`` (Mathlib/Algebra/GroupWithZero/Defs.lean). None if a factor has
    no such fact."""
    while base.startswith("(") and base.endswith(")") and len(_top_level_factors(base[1:-1])) > 1:
        base = base[1:-1]
    factors = _top_level_factors(base)
    if len(factors) < 2:
        return None
    proofs = []
    for f in factors:
        f, exponent = _power_parts(f)
        inner = f[1:-1] if f.startswith("(") and f.endswith(")") else f
        try:
            expr = parse_expression(inner, list(goal.variables))
        except ParseError:
            return None
        stated = _nonzero_hypothesis(goal, ctx, expr, subtraction=True)
        if stated is None and "-" in inner:
            return None
        if stated is not None and exponent is not None:
            stated = f"(pow_ne_zero {exponent} {stated})"     # (2a − b)² ≠ 0 from 2a ≠ b
        proofs.append(stated or "(by positivity)")
    term = proofs[0]
    for t in proofs[1:]:
        term = f"(mul_ne_zero_iff.mpr ⟨{term}, {t}⟩)"
    return term


def _power_parts(factor: str) -> tuple[str, str | None]:
    """``(P) ^ n`` as ``("(P)", "n")`` for a natural numeral ``n``; any other factor as ``(factor, None)``."""
    parts = split_top(factor, "^")
    if len(parts) == 2 and parts[1].strip().isdigit() and parts[0].strip().startswith("(") \
            and parts[0].strip().endswith(")"):
        return parts[0].strip(), parts[1].strip()
    return factor, None


def _projection(name: str) -> str:
    """A hypothesis reference as a term: ``«h 0».2`` as ``(«h 0»).2`` (a projection of a quoted
    name, which the replay model reads only so)."""
    if name.startswith("«") and "»." in name:
        end = name.index("»") + 1
        return f"({name[:end]}){name[end:]}"
    return name


def _sign_of_quotient(base: str, expr: sp.Expr, goal: Goal, ctx: RenderContext,
                      direct: Callable[[str, sp.Expr], list[str]]) -> tuple[list[str], str] | None:
    """A rational ``base = N / D`` (``3 - 2 * (c / (a + b + c))``): ``0 < ±N`` and ``0 < ±D`` from
    kernel certificates, ``div_pos``, and ``N / D = base`` as a field identity (its own
    denominators by ``positivity``); the fact ``0 < base`` or ``base < 0``."""
    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    lines: list[str] = []
    sign = 1
    texts = []
    for part in (num, den):
        part = sp.expand(part)
        fact = direct(lean_expr(part), part)
        if not fact:
            part = sp.expand(-part)
            fact = direct(lean_expr(part), part)
            if not fact:
                return None
            sign = -sign
        lines += fact
        texts.append((lean_expr(part), _last_name(fact)))
    (n_text, hn), (d_text, hd) = texts
    quotient = f"({n_text}) / ({d_text})"
    value = quotient if sign > 0 else f"-(({n_text}) / ({d_text}))"
    try:
        id_lines, comb = prove_equality(value, base, list(goal.variables), ctx)
    except RenderError:
        return None
    hq, hid, hf = ctx.fresh("hq"), ctx.fresh("hid"), ctx.fresh("hf")
    lines += [f"have {hq} : (0 : ℝ) < {quotient} := div_pos {hn} {hd}"] + id_lines
    lines += equality_lines(hid, value, base, comb)
    if sign > 0:
        lines.append(f"have {hf} : (0 : ℝ) < {base} := by linear_combination {hq} + {hid}")
        return lines, f"{hf}.ne'"
    lines.append(f"have {hf} : {base} < 0 := by linear_combination {hq} - {hid}")
    return lines, f"{hf}.ne"


def _last_name(lines: list[str]) -> str:
    """The name of the last top-level ``have`` in ``lines``."""
    return next(ln.split()[1] for ln in reversed(lines) if ln.startswith("have "))


def _sign_by_factors(base: str, expr: sp.Expr, ctx: RenderContext,
                     direct: Callable[[str, sp.Expr], list[str]]) -> tuple[list[str], str] | None:
    """``base = c · Π fᵢ^kᵢ``: a fact ``0 < fᵢ`` or ``0 < -fᵢ`` for each factor with a negative
    coefficient, ``positivity`` on the product of the positive forms, and ``linear_combination``
    to ``0 < base`` or ``base < 0`` (the two differ by ``ring`` and a sign); None when a factor's
    sign is not found."""
    coeff, factors = sp.factor_list(sp.expand(expr))
    if not factors or (len(factors) == 1 and factors[0][1] == 1):
        return None
    lines: list[str] = []
    sign = 1 if coeff > 0 else -1
    texts = [coeff_text(abs(coeff))]
    for f, k in factors:
        if any(c < 0 for c in sp.Poly(f, *sorted(f.free_symbols, key=str)).coeffs()):
            fact = direct(lean_expr(f), f)
            if not fact:
                f = sp.expand(-f)
                fact = direct(lean_expr(f), f)
                if not fact:
                    return None
                sign *= (-1) ** k
            lines += fact
        texts.append(f"({lean_expr(f)})" + (f" ^ {k}" if k > 1 else ""))
    hprod, hf = ctx.fresh("hprod"), ctx.fresh("hf")
    lines.append(f"have {hprod} : (0 : ℝ) < {' * '.join(texts)} := by positivity")
    if sign > 0:
        lines.append(f"have {hf} : (0 : ℝ) < {base} := by linear_combination {hprod}")
        return lines, f"{hf}.ne'"
    lines.append(f"have {hf} : {base} < 0 := by linear_combination {hprod}")
    return lines, f"{hf}.ne"


#: Seconds of SOS search for one denominator's ``0 < P`` fact: a wall-clock limit, so generous —
#: at 5 s a loaded machine (load 6 on 2 cores) missed chenneq/P25's fact now and then, and the
#: file fell back to a ``positivity`` that cannot prove it (the file then fails the replay model)
POSITIVE_FACT_TIME = 20.0


def _nonnegative_polynomial(goal: Goal) -> bool:
    """The slack is a polynomial whose expansion has only nonnegative coefficients, in variables
    that each have a sign hypothesis (``positivity`` proves it term by term: an SOS certificate of
    it, e.g. after a difference substitution, is a product fact per monomial)."""
    if goal.target.op in ("=", "!="):
        return False
    slack = sp.expand(goal.target.slack())
    syms = sorted(slack.free_symbols, key=str)
    if not syms or not slack.is_polynomial(*syms):
        return False
    signed = {_signed_variable(h) for h in goal.hypotheses}
    coeffs = sp.Poly(slack, *syms).coeffs()
    return len(coeffs) > POSITIVITY_ABOVE and set(syms) <= signed and all(c >= 0 for c in coeffs)


#: Monomials above which a nonnegative-coefficient polynomial is closed by ``positivity`` rather
#: than by its SOS certificate (one product fact per monomial: 580 lines on 567neq/P65).
POSITIVITY_ABOVE = 20


def _signed_variable(h: Relation) -> sp.Expr | None:
    """``s`` when ``h`` is ``0 ≤ s``, ``0 < s``, ``s ≥ 0`` or ``s > 0`` for a variable ``s``."""
    lhs, rhs = sp.sympify(h.lhs), sp.sympify(h.rhs)
    if h.op in (">", ">=") and lhs.is_Symbol and rhs == 0:
        return lhs
    if h.op in ("<", "<=") and lhs == 0 and rhs.is_Symbol:
        return rhs
    return None


def _abs_nonneg_facts(e: sp.Expr, ctx: RenderContext) -> list[str]:
    """``have h : 0 ≤ |a| := abs_nonneg a`` for each ``|a|`` of ``e``: Mathlib's ``positivity``
    extension for ``|a|`` (Positivity/Basic.lean, ``evalAbs``) fails when it finds ``a`` only
    nonnegative (``0 ≤ x`` in context), and ``compareHyp`` then finds these facts."""
    found = sorted({a for a in sp.preorder_traversal(sp.sympify(e)) if isinstance(a, sp.Abs)}, key=sp.default_sort_key)
    return [f"have {ctx.fresh('hab')} : (0 : ℝ) ≤ {lean_expr(a)} := abs_nonneg {paren(lean_expr(a.args[0]))}"
            for a in found]


def close_lines(step: Step, goal: Goal, ctx: RenderContext, cert: dict) -> list[str]:
    method = cert.get("method")
    expand = method == "sos" and _nonnegative_polynomial(goal)
    if expand:
        method = "positivity"
    if method == "sos":
        terms, hints = _sos_terms(step, goal, ctx, cert)
        if goal.target.op == "=" and cert.get("terms"):
            raise RenderError("an equality target needs an SOS certificate without square terms")
        value_text = _sos_value(step, goal, cert)
        lines: list[str] = []
        left, right = ctx.sides(goal)
        slack_text = f"({left}) - ({right})" if goal.target.op == "=" else f"({right}) - ({left})"
        root_lines, root_facts = _constant_root_facts(step, goal, ctx, cert)
        lines += root_lines
        id_lines, id_comb = bridged_equality(slack_text, value_text, list(goal.variables), ctx, root_facts,
                                             positive=positive_fact_prover(step, goal, ctx))
        if id_comb:
            # denominators: the identity slack = value needs ``d * d⁻¹ = 1`` facts; state it once
            # and let the main linear_combination use it (its own ring check then cancels nothing)
            hid = ctx.fresh("hid")
            lines += [f"have {hid} : {at_real(f'{slack_text} = {value_text}')} := by"]
            lines += indent(id_lines + [f"linear_combination {id_comb}"])
            terms.append((sp.Integer(1) if goal.target.op == "=" else sp.Integer(-1), hid))
        elif ctx.close_style == "nlinarith" and goal.target.op != "=":
            return [f"nlinarith [{', '.join(hints)}]"]
        short_lines, terms = _shortened(terms, goal, ctx)
        return lines + short_lines + [f"linear_combination {_grouped(terms)}" if terms else "linear_combination"]
    if method == "positivity":
        if goal.target.op == "=":
            raise RenderError("positivity cannot close an equality")
        if goal.target.op == "!=":
            return ["positivity"]
        _, _, strict = as_le(goal.target)
        key = ctx.fresh("hpos")
        rel = "<" if strict else "≤"
        printed = polynomial_text(sp.expand(goal.target.slack()) if expand else goal.target.slack())
        left, right = ctx.sides(goal)
        abs_lines = _abs_nonneg_facts(goal.target.slack(), ctx)
        if (left, right) == ("0", printed):
            return abs_lines + ["positivity"]          # the goal is stated as the form positivity proves
        lines = abs_lines + [f"have {key} : (0 : ℝ) {rel} {printed} := by positivity"]
        slack_text = f"({right}) - ({left})"
        id_lines, id_comb = bridged_equality(slack_text, printed, list(goal.variables), ctx,
                                             positive=positive_fact_prover(step, goal, ctx))
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
