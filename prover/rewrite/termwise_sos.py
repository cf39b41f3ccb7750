"""Isolated fudging (SOS-fudging): close ``Σ_i T_i + K >= 0`` term by term.

Why: cyclic sums of radicals such as IMO 2001/2, ``Σ a/√(a²+8bc) >= 1``, resist the polynomial
closers (clearing the radicals blows the degree up), but each term alone is tame. With the
terms ``T_i`` images of ``T_1`` under permutations of the variables ``x_1..x_n``, we look for

    T_i >= −K · x_{π(i)}^r / Σ_j x_j^r          (summing over i gives exactly −K),

where ``r`` is forced by tangency at the all-equal point:
``∂T_1/∂x_k (1,…,1) = −K·r·(1/n − 1/n²)``. With ``r = p/q`` we name ``u_j = x_j^(1/q)`` and
each radical ``t = √Q`` (an ``introduce`` step), so a termwise bound reads ``(α + β t)/den >= 0``
with ``t² = Q``; the identity ``α + βt = ((α + βt)² ± (α² − β²t²)) / (2π)`` (``π`` the positive
one of ``α``, ``βt``) reduces it to the polynomial ``±(α² − β²Q) >= 0`` in the ``u``, which the SOS
solver proves. The polynomial certificate is rewrapped into a close certificate of the termwise
bound over the introduced context (positive factors written as hypothesis slacks times squares,
``t² − Q`` and ``u^q − x`` differences as equality terms), and a ``scale`` step with one ``fact``
application per term reduces the goal to ``Σ_i w_i >= 1``, an identity.

The output is a complete proof tree (``introduce`` → ``scale`` → ``close``) that the kernel
re-checks in full; nothing here is trusted.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

import sympy as sp

from prover.frontend.printer import show_expr
from prover.ir import Goal, Step, expr_from_str, expr_to_str, relation_to_json
from prover.kernel.certificates import (
    EqTerm,
    FactApplication,
    IntroduceCertificate,
    LinearCertificate,
    SosCertificate,
    SosTerm,
)
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, fresh_names, is_positive, positive_vars
from prover.rewrite.facts import replace_radicals
from prover.solvers.sos import sos_certificate
from prover.verify import check_step

MAX_VARS = 5
MAX_POLY_DEGREE = 12
def _zero_close() -> dict:
    """The close certificate of a target whose slack is identically 0."""
    return SosCertificate().to_json()


class FudgeFailure(Exception):
    """The technique does not apply to this goal (not an error)."""


# ---------------------------------------------------------------- the plan: which bound, which r


@dataclass
class Plan:
    """``slack(goal) = Σ_i terms[i] + K``; ``terms[i] = terms[0]∘perms[i]``; weight variable of
    term ``i`` is ``weight_vars[i]``; exponent ``r``."""

    syms: list[sp.Symbol]
    terms: list[sp.Expr]
    K: sp.Rational
    perms: list[dict[sp.Symbol, sp.Symbol]]
    weight_vars: list[sp.Symbol]
    r: sp.Rational


def _find_perm(t1: sp.Expr, ti: sp.Expr, syms: list[sp.Symbol]) -> dict[sp.Symbol, sp.Symbol] | None:
    for p in itertools.permutations(syms):
        m = dict(zip(syms, p))
        if t1.xreplace(m) == ti:
            return m
    return None


def _numeric_ok(term: sp.Expr, K: sp.Rational, xk: sp.Symbol, r: sp.Rational, syms: list[sp.Symbol],
                samples: int = 300) -> bool:
    """The termwise bound ``term + K·xk^r/Σx^r >= 0`` at random positive points (a filter)."""
    f = sp.lambdify(syms, term, "math")
    k = syms.index(xk)
    rng = random.Random(1)
    rf, Kf = float(r), float(K)
    for s in range(samples):
        scale = 10.0 ** rng.uniform(-2, 2) if s % 3 == 0 else 1.0
        pt = [rng.uniform(0.01, 1.0) * (scale if i == s % len(syms) else 1.0) for i in range(len(syms))]
        try:
            v = f(*pt) + Kf * pt[k] ** rf / sum(x ** rf for x in pt)
        except (ValueError, ZeroDivisionError, OverflowError):
            return False
        if not math.isfinite(v) or v < -1e-9:
            return False
    return True


def make_plans(goal: Goal) -> list[Plan]:
    """All exponents/weight choices for which the termwise bound holds numerically."""
    t = goal.target
    if t.op not in (">=", "<="):
        return []
    syms = [var(v) for v in goal.variables]
    n = len(syms)
    if not 2 <= n <= MAX_VARS or positive_vars(goal, True) != set(syms):
        return []
    slack = sp.sympify(t.slack())
    terms, K = [], sp.Integer(0)
    for a in sp.Add.make_args(slack):
        if a.free_symbols:
            terms.append(a)
        elif a.is_Rational:
            K += a
        else:
            return []
    if len(terms) != n or K == 0:
        return []
    perms = []
    for ti in terms:
        m = _find_perm(terms[0], ti, syms)
        if m is None:
            return []
        perms.append(m)
    ones = {x: sp.Integer(1) for x in syms}
    try:
        centre_gap = sp.nsimplify(terms[0].subs(ones)) + K / n
    except (TypeError, ValueError):
        return []
    if centre_gap.is_Rational and centre_gap < 0:
        return []
    plans = []
    for xk in syms:
        weight_vars = [perms[i][xk] for i in range(n)]
        if set(weight_vars) != set(syms):
            continue
        for r in _exponents(terms[0], K, xk, n, ones, tight=centre_gap == 0):
            if _numeric_ok(terms[0], K, xk, r, syms):
                plans.append(Plan(syms, terms, K, perms, weight_vars, r))
    return plans if centre_gap == 0 else plans[:MAX_LOOSE_PLANS]


#: Exponents tried when the goal is not tight at the all-equal point (its equality case is on
#: the boundary, as in ``Σ a/√(a²+bc) >= 1``): no tangency forces ``r`` there and the bound only
#: has to hold, so the simplest weights come first; the first ``MAX_LOOSE_PLANS`` that hold
#: numerically are built.
MAX_LOOSE_PLANS = 3
LOOSE_EXPONENTS = tuple(sp.Rational(r) for r in ("1", "2", "1/2", "3/2", "3", "1/3", "2/3", "4/3"))


def _exponents(term: sp.Expr, K: sp.Rational, xk: sp.Symbol, n: int, ones: dict, *, tight: bool) -> list[sp.Rational]:
    """The exponents ``r`` worth a numeric test: at a tight all-equal point the one tangency forces
    (``∂T/∂x_k (1,…,1) = −K·r·(1/n − 1/n²)``), else :data:`LOOSE_EXPONENTS`."""
    if not tight:
        return list(LOOSE_EXPONENTS)
    d = sp.nsimplify(sp.diff(term, xk).subs(ones))
    if not d.is_Rational:
        return []
    r = sp.Rational(n * n) * d / (-K * (n - 1))
    return [] if r <= 0 or r.q > 6 or r.p > 24 else [r]


# ---------------------------------------------------------------- positive factors as slacks · squares


@dataclass
class PosRep:
    """``D = const · Π_{mult} slack · sq² · Σ_m d_m · Π_{mono mult} · mono_sq²`` (all ``> 0``)."""

    const: sp.Rational
    mult: list[int]
    sq: sp.Expr
    monos: list[tuple[sp.Rational, list[int], sp.Expr]]


def posrep(D: sp.Expr, var_hyp: dict[sp.Symbol, int]) -> PosRep:
    """Write the positive polynomial ``D`` (in variables with hypotheses ``v > 0``) as above."""
    const, factors = sp.factor_list(sp.expand(D))
    if const <= 0:
        raise FudgeFailure("negative denominator")
    mult: list[int] = []
    sq = sp.Integer(1)
    rest = sp.Integer(1)
    for f, e in factors:
        if f in var_hyp:
            mult += [var_hyp[f]] * (e % 2)
            sq *= f ** (e // 2)
        elif e % 2 == 0:
            sq *= f ** (e // 2)
        else:
            sq *= f ** (e // 2)
            rest *= f
    monos = []
    vs = list(var_hyp)
    poly = sp.Poly(sp.expand(rest), *vs)
    for exps, c in poly.terms():
        if c <= 0:
            raise FudgeFailure("a positive factor has a negative coefficient")
        mm: list[int] = []
        ms = sp.Integer(1)
        for v, e in zip(vs, exps):
            mm += [var_hyp[v]] * (e % 2)
            ms *= v ** (e // 2)
        monos.append((sp.Rational(c), mm, ms))
    return PosRep(sp.Rational(const), mult, sq, monos)


def _over(c: sp.Rational, mult: list[int], p: sp.Expr, D: sp.Expr, rep: PosRep) -> list[SosTerm]:
    """Terms for ``c·Π slack(mult)·p² / D`` with ``D`` as in ``rep``: ``X/D = X·D/D²``."""
    out = []
    for d, mm, ms in rep.monos:
        out.append(SosTerm(expr_to_str(c * rep.const * d), expr_to_str(p * rep.sq * ms / D),
                           tuple(sorted(mult + rep.mult + mm))))
    return out


def polynomial_sos(P: sp.Expr, us: list[sp.Symbol], time_limit: float) -> dict | None:
    """An SOS certificate of ``P >= 0``: first as a plain sum of squares (the solver's facial
    reduction also uses the sign variants of its grid zeros, e.g. ``(1, −1, −1)``), then with the
    ``u > 0`` hypotheses."""
    deadline = time.monotonic() + time_limit
    plain = Goal(tuple(str(u) for u in us), (), Relation(P, ">=", sp.Integer(0)))
    cert = sos_certificate(plain, 0.6 * time_limit)
    if cert is not None:
        return cert
    left = deadline - time.monotonic()
    return sos_certificate(_poly_goal_u(us, P), left) if left > 0.2 else None


def _poly_goal_u(us: list[sp.Symbol], P: sp.Expr) -> Goal:
    return Goal(tuple(str(u) for u in us), tuple(Relation(u, ">", sp.Integer(0)) for u in us),
                Relation(P, ">=", sp.Integer(0)))


# ---------------------------------------------------------------- the termwise certificate


@dataclass
class TermwiseContext:
    """The introduced goal ``G2`` and where its facts are."""

    goal: Goal
    syms: list[sp.Symbol]                       # x_j
    us: list[sp.Symbol]                         # u_j (= x_j when q == 1)
    q: int
    u_hyp: dict[sp.Symbol, int]                 # u_j > 0
    u_eq: dict[sp.Symbol, int]                  # u_j**q = x_j (q > 1)
    var_hyp: dict[sp.Symbol, int]               # every variable with a hypothesis v > 0
    radicals: list[tuple[sp.Symbol, sp.Expr, int, int]]   # (t, Q, index of t**2 = Q, index of t > 0)


def _cert_terms_value(cert: dict, us: list[sp.Symbol]) -> sp.Expr:
    names = [str(u) for u in us]
    tot = sp.Integer(0)
    for t in cert["terms"]:
        p = expr_from_str(t["poly"], names)
        tot += sp.Rational(t["coeff"]) * sp.Mul(*[us[k] for k in t["mult"]]) * p ** 2
    return tot


def _permute_cert(cert: dict, ctx: TermwiseContext, perm: dict[sp.Symbol, sp.Symbol]) -> dict:
    """The SOS certificate of ``P∘perm`` from that of ``P`` (``perm`` on the x, carried to the u)."""
    names = [str(u) for u in ctx.us]
    umap = {ctx.us[ctx.syms.index(x)]: ctx.us[ctx.syms.index(y)] for x, y in perm.items()}
    idx = {u: i for i, u in enumerate(ctx.us)}
    terms = tuple(SosTerm(t["coeff"], expr_to_str(expr_from_str(t["poly"], names).xreplace(umap)),
                          tuple(idx[umap[ctx.us[k]]] for k in t["mult"]))
                  for t in cert["terms"])
    return SosCertificate(terms).to_json()


def _reduce_x(e: sp.Expr, ctx: TermwiseContext) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """``e = e' + Σ_j a_j·X_j`` (``X_j = x_j − u_j^q``): ``(e', {x_j: a_j})``, ``e'`` in the u."""
    quot: dict[sp.Symbol, sp.Expr] = {}
    for x, u in zip(ctx.syms, ctx.us):
        if ctx.q == 1:
            continue
        qq, rr = sp.div(sp.Poly(e, x), sp.Poly(x - u ** ctx.q, x))
        quot[x] = qq.as_expr()
        e = rr.as_expr()
    return sp.expand(e), quot


def _oriented_fraction(ctx: TermwiseContext, s: sp.Expr, t: sp.Symbol | None, Q: sp.Expr | None
                       ) -> tuple[sp.Expr, sp.Expr, dict]:
    """``s = num/den`` with ``den > 0`` at the all-ones point, and that point (``t = √Q`` there)."""
    num, den = sp.fraction(sp.together(s))
    num, den = sp.expand(num), sp.expand(den)
    center = {**{x: 1 for x in ctx.syms}, **{u: 1 for u in ctx.us}}
    if t is not None:
        center[t] = sp.sqrt(Q.subs(center))
    if sp.sympify(den.subs(center)) < 0:
        num, den = -num, -den
    return num, den, center


def _split_radical(num: sp.Expr, t: sp.Symbol | None, Q: sp.Expr | None) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``num = λ_t·(t² − Q) + α0 + β0·t``: ``(λ_t, α0, β0)``."""
    if t is None:
        return sp.Integer(0), num, sp.Integer(0)
    lam_t, rem = sp.div(sp.Poly(num, t), sp.Poly(t ** 2 - Q, t))
    lam_t, rem = lam_t.as_expr(), rem.as_expr()
    return lam_t, sp.expand(rem).coeff(t, 0), sp.expand(rem).coeff(t, 1)


def _common_factor(alpha: sp.Expr, beta: sp.Expr, t: sp.Symbol | None, center: dict
                   ) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(g, α/g, β/g)``: a common factor ``g`` of α and β is positive (checked by posrep) and stays
    outside the square."""
    g = sp.Integer(1)
    if t is not None and beta != 0:
        g = sp.gcd(alpha, beta)
        if sp.sympify(g.subs(center)) < 0:
            g = -g
        if g.free_symbols:
            alpha, beta = sp.expand(sp.cancel(alpha / g)), sp.expand(sp.cancel(beta / g))
        else:
            g = sp.Integer(1)
    return g, alpha, beta


def _squared_form(ctx: TermwiseContext, alpha: sp.Expr, beta: sp.Expr, Qu: sp.Expr, t: sp.Symbol | None,
                  den: sp.Expr, center: dict) -> tuple[sp.Expr, int, sp.Expr, sp.Expr]:
    """``(P, sgn, π, D)``: the polynomial ``P = ±(α² − β²Q)`` left to SOS (``α`` itself without a
    radical), the sign pattern, the positive one ``π`` of ``α``, ``βt`` and the denominator."""
    a_c, b_c = sp.sympify(alpha.subs(center)), sp.sympify(beta.subs(center))
    if t is None or beta == 0:
        return alpha, 0, sp.Integer(1), den
    if a_c > 0 and b_c < 0 or (a_c == 0 and b_c == 0 and _probe_sign(alpha, ctx.us) > 0):
        pi = alpha
        return sp.expand(alpha ** 2 - beta ** 2 * Qu), 1, pi, 2 * pi * den
    if a_c < 0 and b_c > 0:
        pi = beta * t
        return sp.expand(beta ** 2 * Qu - alpha ** 2), -1, pi, 2 * pi * den
    raise FudgeFailure("no sign pattern")


def _polynomial_certificate(P: sp.Expr, ctx: TermwiseContext, deadline: float, cache: list[dict]) -> dict:
    """The SOS certificate of ``P >= 0`` in the u: a cached (permuted) one when it fits, else solved."""
    for c in cache:
        if sp.expand(_cert_terms_value(c, ctx.us) - P) == 0:
            return c
    if P == 0:
        pcert = _zero_close()
    else:
        left = deadline - time.monotonic()
        if left <= 0.5:
            raise FudgeFailure("out of time")
        pcert = polynomial_sos(P, ctx.us, left)
        if pcert is None or pcert.get("eq_terms"):
            raise FudgeFailure("no SOS certificate")
    cache.append(pcert)
    return pcert


def _square_terms(ctx: TermwiseContext, pcert: dict, square: sp.Expr | None, over_square: tuple[sp.Expr, PosRep],
                  over_p: tuple[sp.Expr, PosRep]) -> list[SosTerm]:
    """The SOS terms of ``square²/D + P/D'`` (``over_square = (D, its PosRep)``, ``over_p`` for
    ``D'``; ``D' = D`` unless the radical's base is a quotient; no ``square`` without a sign pattern)."""
    names = [str(u) for u in ctx.us]
    terms: list[SosTerm] = []
    if square is not None:
        terms += _over(sp.Integer(1), [], square, *over_square)
    for pt in pcert["terms"]:
        mult = [ctx.u_hyp[ctx.us[k]] for k in pt["mult"]]
        terms += _over(sp.Rational(pt["coeff"]), mult, expr_from_str(pt["poly"], names), *over_p)
    return terms


def _equality_multipliers(ctx: TermwiseContext, t: sp.Symbol | None, lam_t: sp.Expr,
                          quotients: tuple[dict, dict, dict], g: sp.Expr, sgn: int, beta: sp.Expr,
                          pi: sp.Expr) -> list[tuple[int, sp.Expr]]:
    """The ``(hyp, λ)`` pairs, ``λ`` still to be divided by den, of
    ``s − Σ terms = [(λ_t − sgn β²/(2π)) E_t + Σ_j (a_j + b_j t − sgn β² c_j/(2π)) X_j] / den``."""
    a_q, b_q, c_q = quotients
    eq: list[tuple[int, sp.Expr]] = []
    if t is not None:
        k_t = next(i for (tv, _, i, _) in ctx.radicals if tv == t)
        lt = lam_t - (g * sgn * beta ** 2 / (2 * pi) if sgn else 0)
        if lt != 0:
            eq.append((k_t, lt))
    for x, u in zip(ctx.syms, ctx.us):
        if ctx.q == 1:
            continue
        lx = a_q.get(x, 0) + b_q.get(x, 0) * (t if t is not None else 0) \
            - (g * sgn * beta ** 2 * c_q.get(x, 0) / (2 * pi) if sgn else 0)
        if lx != 0:
            eq.append((ctx.u_eq[u], -lx))    # eq(u**q = x) = u^q − x = −X
    return eq


def termwise_certificate(ctx: TermwiseContext, s: sp.Expr, t: sp.Symbol | None, Q: sp.Expr | None,
                         deadline: float, cache: list[dict]) -> SosCertificate:
    """A close certificate (over ``ctx.goal``'s context) of ``s >= 0``, ``s`` rational in the
    x, u and the radical ``t`` (``t² = Q``)."""
    num, den, center = _oriented_fraction(ctx, s, t, Q)
    lam_t, alpha0, beta0 = _split_radical(num, t, Q)
    # reduce x_j → u_j^q: α0 = α + Σ a_j X_j, β0 = β + Σ b_j X_j, Q = Q(u^q) + Σ c_j X_j
    alpha, a_q = _reduce_x(sp.expand(alpha0), ctx)
    beta, b_q = _reduce_x(sp.expand(beta0), ctx)
    Qu, c_q = _reduce_x(sp.expand(Q), ctx) if t is not None else (sp.Integer(0), {})
    if (alpha.free_symbols | beta.free_symbols) - set(ctx.us):
        raise FudgeFailure("the reduced numerator still has other variables")
    g, alpha, beta = _common_factor(alpha, beta, t, center)
    P, sgn, pi, D = _squared_form(ctx, alpha, beta, Qu, t, den, center)
    # a quotient base Q = N/M (M > 0) leaves P = P_num/M: its SOS terms are over D·M
    P, M = sp.fraction(sp.cancel(sp.together(P))) if P.is_rational_function(*ctx.us) and P != 0 else (P, 1)
    P, M = sp.expand(P), sp.expand(M)
    if P != 0 and sp.Poly(P, *ctx.us).total_degree() > MAX_POLY_DEGREE:
        raise FudgeFailure("polynomial degree too high")
    rep = posrep(g * D, ctx.var_hyp)
    rep_m = rep if M == 1 else posrep(g * D * M, ctx.var_hyp)
    # the polynomial part: reuse a permuted certificate when one fits, else solve
    pcert = _polynomial_certificate(P, ctx, deadline, cache)
    terms = _square_terms(ctx, pcert, alpha + beta * t if sgn != 0 else None, (D, rep), (D * M, rep_m))
    eq = _equality_multipliers(ctx, t, lam_t, (a_q, b_q, c_q), g, sgn, beta, pi)
    eq_terms = tuple(EqTerm(k, expr_to_str(lam / den)) for k, lam in eq)
    return SosCertificate(tuple(terms), eq_terms)


def _probe_sign(e: sp.Expr, us: list[sp.Symbol]) -> int:
    v = sp.sympify(e.subs({u: sp.Rational(3, 2) + i for i, u in enumerate(us)}))
    return 1 if v > 0 else -1


# ---------------------------------------------------------------- the proof tree


def _radical_of(term: sp.Expr) -> tuple[sp.Expr, int] | None | bool:
    """The single radical base of ``term`` (denominator 2), None when none, False when unsupported."""
    bases = set()
    for n in sp.preorder_traversal(term):
        if isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer:
            if n.exp.q != 2:
                return False
            bases.add(n.base)
    if not bases:
        return None
    if len(bases) > 1:
        return False
    return next(iter(bases)), 2


def _radical_bases(goal: Goal, plan: Plan) -> tuple[list[tuple[sp.Expr, int] | None | bool], list[sp.Expr]]:
    """Each term's radical (None: none) and the distinct radical bases, positive polynomials."""
    rads = [_radical_of(ti) for ti in plan.terms]
    if any(r is False for r in rads):
        raise FudgeFailure("unsupported radicals")
    bases: list[sp.Expr] = []
    for r in rads:
        if r is not None and r[0] not in bases:
            bases.append(r[0])
    for b in bases:
        if b.free_symbols - set(plan.syms) or not is_positive(b, goal, True):
            raise FudgeFailure("radical base not positive")
        if not b.is_polynomial(*plan.syms) and not (plan.r.q == 1 and b.is_rational_function(*plan.syms)):
            # a quotient base needs no root of a variable: x_j → u_j^q reduces polynomials only
            raise FudgeFailure("radical base not a polynomial")
    return rads, bases


def _strict_var_hyps(hyps: list[Relation], syms: list[sp.Symbol]) -> dict[sp.Symbol, int]:
    """The first hypothesis ``x > 0`` (or ``0 < x``) of each variable."""
    var_hyp: dict[sp.Symbol, int] = {}
    for i, h in enumerate(hyps):
        x = h.lhs if h.op == ">" and sp.sympify(h.rhs) == 0 else h.rhs if h.op == "<" and sp.sympify(h.lhs) == 0 else None
        if x in syms and x not in var_hyp:
            var_hyp[x] = i
    return var_hyp


def _name_roots(syms: list[sp.Symbol], us: list[sp.Symbol], q: int, hyps: list[Relation],
                var_hyp: dict[sp.Symbol, int], defs: dict[str, str]
                ) -> tuple[dict[sp.Symbol, int], dict[sp.Symbol, int]]:
    """Introduce ``u_j = x_j^(1/q)`` (appending to ``hyps``, ``var_hyp``, ``defs``): the indices of
    ``u_j > 0`` and of ``u_j^q = x_j``."""
    u_hyp, u_eq = {}, {}
    for x, u in zip(syms, us):
        if q == 1:
            u_hyp[u] = var_hyp[x]
            continue
        defs[str(u)] = expr_to_str(x ** sp.Rational(1, q))
        u_hyp[u] = var_hyp[u] = len(hyps)
        hyps.append(Relation(u, ">", sp.Integer(0)))
        u_eq[u] = len(hyps)
        hyps.append(Relation(u ** q, "=", x))
    return u_hyp, u_eq


def _name_radicals(bases: list[sp.Expr], ts: list[sp.Symbol], hyps: list[Relation],
                   var_hyp: dict[sp.Symbol, int], defs: dict[str, str]
                   ) -> list[tuple[sp.Symbol, sp.Expr, int, int]]:
    """Introduce ``t_i = √bases[i]`` (appending to ``hyps``, ``var_hyp``, ``defs``), as
    :attr:`TermwiseContext.radicals`."""
    radicals = []
    for b, tv in zip(bases, ts):
        defs[str(tv)] = expr_to_str(sp.sqrt(b))
        var_hyp[tv] = len(hyps)
        hyps.append(Relation(tv, ">", sp.Integer(0)))
        radicals.append((tv, b, len(hyps), var_hyp[tv]))
        hyps.append(Relation(tv ** 2, "=", b))
    return radicals


def _introduced_context(goal: Goal, plan: Plan, bases: list[sp.Expr]
                        ) -> tuple[TermwiseContext, dict[str, str], list[sp.Symbol]]:
    """The introduced goal (the roots ``u`` when ``q > 1``, the radicals ``t``), the ``introduce``
    definitions and the radicals' names."""
    syms, n, q = plan.syms, len(plan.syms), int(plan.r.q)
    unames = fresh_names(goal, [f"u{i + 1}" for i in range(n)]) if q > 1 else []
    g_tmp = Goal(goal.variables + tuple(unames), goal.hypotheses, goal.target)
    tnames = fresh_names(g_tmp, [f"t{i + 1}" for i in range(len(bases))])
    us = [var(u) for u in unames] if q > 1 else list(syms)
    ts = [var(t) for t in tnames]
    hyps = list(goal.hypotheses)
    var_hyp = _strict_var_hyps(hyps, syms)
    defs: dict[str, str] = {}
    u_hyp, u_eq = _name_roots(syms, us, q, hyps, var_hyp, defs)
    radicals = _name_radicals(bases, ts, hyps, var_hyp, defs)
    tgt = goal.target
    lhs = replace_radicals(sp.sympify(tgt.lhs), bases, ts)
    rhs = replace_radicals(sp.sympify(tgt.rhs), bases, ts)
    G2 = Goal(goal.variables + tuple(unames) + tuple(tnames), tuple(hyps), Relation(lhs, tgt.op, rhs))
    return TermwiseContext(G2, syms, us, q, u_hyp, u_eq, var_hyp, radicals), defs, ts


def _term_applications(ctx: TermwiseContext, plan: Plan, rads: list[tuple[sp.Expr, int] | None | bool],
                       bases: list[sp.Expr], ts: list[sp.Symbol], ws: list[sp.Expr],
                       deadline: float) -> list[FactApplication]:
    """One ``fact`` application ``T_i >= −K·w_i`` per term, each with its close certificate."""
    new_terms = [replace_radicals(ti, bases, ts) for ti in plan.terms]
    K = plan.K
    apps: list[FactApplication] = []
    first: list[dict] = []
    for i, (ti, wi) in enumerate(zip(new_terms, ws)):
        rad = rads[i]
        tv = ts[bases.index(rad[0])] if rad is not None else None
        Qb = rad[0] if rad is not None else None
        # the first term's polynomial certificate, permuted, usually fits the others
        cache = [_permute_cert(first[0], ctx, plan.perms[i])] if first else first
        cert = termwise_certificate(ctx, ti + K * wi, tv, Qb, deadline, cache)
        fact = Relation(ti, ">=", -K * wi)
        apps.append(FactApplication(relation_to_json(fact), cert, "1"))
    return apps


def build_proof(goal: Goal, plan: Plan, deadline: float) -> Step:
    rads, bases = _radical_bases(goal, plan)
    ctx, defs, ts = _introduced_context(goal, plan, bases)
    G2, us, syms, p = ctx.goal, ctx.us, plan.syms, int(plan.r.p)
    S = sp.Add(*[u ** p for u in us])
    ws = [us[syms.index(xv)] ** p / S for xv in plan.weight_vars]
    K = plan.K
    apps = _term_applications(ctx, plan, rads, bases, ts, ws, deadline)
    if K < 0:
        G3 = G2.with_target(Relation(sp.Add(*ws), ">=", sp.Integer(1)))
        m = -K
    else:
        G3 = G2.with_target(Relation(sp.Add(*ws), "<=", sp.Integer(1)))
        m = K
    close = Step("close", G3, [], _zero_close(), note="the weights sum to 1")
    scale = Step("scale", G2, [G3], LinearCertificate(expr_to_str(m), applications=tuple(apps)).to_json(),
                 [close], note=f"isolated fudging: each term ≥ {show_expr(-K)} · x ^ ({show_expr(plan.r)}) / "
                               f"Σ x ^ ({show_expr(plan.r)})")
    if not defs:    # nothing to name (rational terms, integer r)
        return scale
    return Step("introduce", goal, [G2], IntroduceCertificate(defs).to_json(), [scale],
                note="name the roots for isolated fudging")


# ---------------------------------------------------------------- entry points


def fudge_close(goal: Goal, time_limit: float = 20.0, *, check: bool = True) -> Step | None:
    """A complete proof tree of ``goal`` by isolated fudging, or None. With ``check`` the tree
    is kernel-checked here (and another plan tried when it fails); the search checks it anyway."""
    deadline = time.monotonic() + time_limit
    try:
        plans = make_plans(goal)
    except Exception:  # noqa: BLE001 - a proposer: an odd goal means "does not apply"
        return None
    for plan in plans:
        if time.monotonic() > deadline:
            return None
        try:
            step = build_proof(goal, plan, deadline)
        except Exception:  # noqa: BLE001, S112 - FudgeFailure, or sympy refusing a shape: next plan
            continue
        if not check or check_step(step).ok:
            return step
    return None


class IsolatedFudging:
    """Tactic generator: a complete proof tree by isolated fudging (``closes=True``)."""

    name = "isolated-fudging"

    def __init__(self, time_limit: float = 20.0, check: bool = False) -> None:
        self.time_limit = time_limit
        self.check = check      # the search kernel-checks a closing tree itself

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        step = fudge_close(goal, self.time_limit, check=self.check)
        if step is not None:
            yield Candidate(step, self.name, 10.0, prechecked=self.check, closes=True)
