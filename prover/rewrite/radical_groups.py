"""Radical groups: prove a sum of square roots group by group, each group by isolating radicals.

Why: goals such as ``Σ √(a+b−c) <= Σ √a`` (triangle) or ``1 + Σ√(ab) <= Σ√(ab+c)`` (``a+b+c = 1``)
have several radicals; clearing them all at once blows the degree up, and no single term is
bounded alone. The human proofs *group* the terms — ``√(a+b−c) + √(a+c−b) <= 2√a``, or
``√(ab+c) − √(ab) >= c`` — and prove each group with one or two squarings.

The technique, all of it re-checked by the kernel:

1. *Groups from the symmetry of the slack.* ``Γ`` are the permutations of the variables that
   keep the slack; a base term ``T0`` (one of the non-polynomial terms) with stabilizer ``H``
   is paired with, for every other orbit ``O`` of terms, one ``H``-orbit ``P ⊂ O`` (weighted
   ``|O| / (|Γ:H|·|P|)``); the group is ``F = T0 + Σ_O w·ΣP`` and its images ``F∘σ``
   (``σ`` over ``Γ/H``) add up to the non-polynomial part of the slack (checked exactly).
2. *A linear bound per group.* ``ℓ`` is ``F``'s tangent plane at the equality point
   ``(t, …, t)`` (on the equality constraints, which the fact's SOS may use), or ``0``.
   ``F − ℓ >= 0`` is sampled on the hypotheses' domain before anything is certified. (Then
   every term alone, then everything as one group, are tried too.)
3. *Certificate of a group fact.* With ``t_i = √Q_i`` introduced (``t_i² = Q_i``),
   ``F − ℓ = N/D`` with ``D`` visibly positive and ``N`` multilinear in the ``t_i``. One
   radical ``t`` at a time: ``N = A + B·t`` and, by the signs of ``A`` and ``B`` on the samples,
   ``N = A + B·t`` (both ``>= 0``), ``A·N = ((A + Bt)² + (A² − B²Q)) / 2`` (``A > 0 >= B``) or
   ``Bt·N = ((A + Bt)² + (B²Q − A²)) / 2`` (``B > 0 >= A``); the new polynomial has one radical
   fewer. A polynomial at the end goes to SOS over the goal's context (equality constraints
   included). The multipliers ``W`` (products of the ``A`` and ``Bt``) stay outside the
   certificate: the fact is ``W·N >= 0`` and the ``scale`` step uses it with the coefficient
   ``1/(W·D)``, which the kernel's positivity rules prove ``> 0`` — dividing inside the
   certificate would multiply its size by the number of monomials of ``W·D``. Expressions are
   homogenized with a constraint ``s = k`` first, so that ``1 − c`` under ``a + b + c = 1``
   becomes ``a + b``, visibly positive.
4. *The proof tree* ``introduce`` (the ``t_i``) → ``scale`` (one ``fact`` per group:
   ``slack = 1·(R + Σℓ) + Σ 1/(W_i·D_i)·(W_i·N_i)``, ``R`` the polynomial part of the slack)
   → ``close`` (``R + Σℓ >= 0`` by SOS, usually ``0`` modulo the constraints), proposed as a
   complete tree (``closes=True``).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import sympy as sp

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
from prover.rewrite.base import (
    Candidate,
    equality_hyps,
    fresh_names,
    is_polynomial,
    is_positive,
    symbols_of,
)
from prover.rewrite.facts import replace_radicals
from prover.rewrite.points import constraint_point, domain_points
from prover.rewrite.tangent_plane import tangent_plane
from prover.solvers.sos import sos_certificate
from prover.verify import check_step

#: At most this many variables (all permutations are enumerated).
MAX_VARS = 4
#: At most this many distinct radicals.
MAX_RADICALS = 6
#: Random points for the sign tests (a filter only).
SAMPLES = 300
#: Seconds one ``generate`` call may spend.
TIME_BUDGET = 5.0
#: Grouping options tried per goal.
MAX_OPTIONS = 12


class GroupFailure(Exception):
    """The technique does not apply (not an error)."""


# ---------------------------------------------------------------- certificates as data


@dataclass
class Cert:
    """``value = Σ c·Π slack(H_mult)·q² + Σ λ_k·eq(H_k)`` exactly (``c >= 0`` rational)."""

    terms: list[tuple[sp.Rational, list[int], sp.Expr]] = field(default_factory=list)
    eqs: dict[int, sp.Expr] = field(default_factory=dict)

    def add(self, other: Cert) -> Cert:
        eqs = dict(self.eqs)
        for k, lam in other.eqs.items():
            eqs[k] = eqs.get(k, 0) + lam
        return Cert(self.terms + other.terms, eqs)

    def add_eq(self, k: int, lam: sp.Expr) -> Cert:
        return self.add(Cert([], {k: lam}))

    def times_slack(self, k: int, slack: sp.Expr) -> Cert:
        """The certificate of ``value·slack(H_k)`` (``H_k`` an inequality)."""
        return Cert([(c, m + [k], q) for c, m, q in self.terms], {j: lam * slack for j, lam in self.eqs.items()})

    def scaled(self, r: sp.Rational) -> Cert:
        return Cert([(c * r, m, q) for c, m, q in self.terms], {j: lam * r for j, lam in self.eqs.items()})

    def certificate(self) -> SosCertificate:
        return SosCertificate(
            tuple(SosTerm(expr_to_str(c), expr_to_str(q), tuple(sorted(m)))
                  for c, m, q in self.terms if c != 0 and q != 0),
            tuple(EqTerm(k, expr_to_str(lam)) for k, lam in sorted(self.eqs.items()) if sp.cancel(lam) != 0))

    def to_json(self) -> dict:
        return self.certificate().to_json()


def cert_from_json(cert: dict, names: tuple[str, ...]) -> Cert:
    terms = [(sp.Rational(t["coeff"]), list(t["mult"]), expr_from_str(t["poly"], names)) for t in cert["terms"]]
    eqs: dict[int, sp.Expr] = {}
    for e in cert.get("eq_terms", []):
        eqs[e["hyp"]] = eqs.get(e["hyp"], 0) + expr_from_str(e["poly"], names)
    return Cert(terms, eqs)


# ---------------------------------------------------------------- the introduced context


@dataclass
class Radical:
    sym: sp.Symbol
    base: sp.Expr            # Q (in the original variables)
    hom: sp.Expr             # Q homogenized with the constraint (Q + μ·eq(s))
    mu: sp.Expr              # hom − base = μ·eq(H_s)
    pos_hyp: int             # t > 0 (or t >= 0)
    strict: bool
    eq_hyp: int              # t² = Q


@dataclass
class GroupContext:
    goal0: Goal
    goal2: Goal
    syms: list[sp.Symbol]
    rads: list[Radical]
    hom: tuple[int, sp.Expr, sp.Rational, int] | None   # (hyp, s, k, degree): eq(H) = s − k, s homogeneous
    points: list[list[float]]                           # values of syms + radicals
    deadline: float
    strict_hyp: dict[sp.Symbol, int] = field(default_factory=dict)   # v > 0
    slack_hyps: list[tuple[int, sp.Expr]] = field(default_factory=list)   # strict inequality slacks

    @property
    def all_syms(self) -> list[sp.Symbol]:
        return self.syms + [r.sym for r in self.rads]


def _homogeneous_constraint(goal: Goal, syms: list[sp.Symbol]) -> tuple[int, sp.Expr, sp.Rational, int] | None:
    """An equality ``s = k`` with ``s`` a homogeneous polynomial and ``k ≠ 0`` rational."""
    for i, e in equality_hyps(goal):
        if not is_polynomial(e, syms):
            continue
        p = sp.Poly(e, *syms)
        k = -p.coeff_monomial(1)
        s = sp.expand(e + k)
        if k == 0 or s == 0:
            continue
        degs = {sum(m) for m in sp.Poly(s, *syms).monoms()}
        if len(degs) == 1:
            return i, s, sp.Rational(k), degs.pop()
    return None


def _weights(ctx: GroupContext) -> dict[sp.Symbol, sp.Rational] | None:
    w: dict[sp.Symbol, sp.Rational] = {x: sp.Integer(1) for x in ctx.syms}
    for r in ctx.rads:
        degs = {sum(m) for m in sp.Poly(r.hom, *ctx.syms).monoms()}
        if len(degs) != 1:
            return None
        w[r.sym] = sp.Rational(degs.pop(), 2)
    return w


def homogenize(e: sp.Expr, ctx: GroupContext) -> tuple[sp.Expr, sp.Expr]:
    """``(e', ν)`` with ``e' = e + ν·eq(s = k)`` homogeneous (weights: ``x`` 1, ``t`` deg(Q)/2)."""
    if ctx.hom is None:
        return e, sp.Integer(0)
    w = _weights(ctx)
    if w is None:
        return e, sp.Integer(0)
    _, s, k, d = ctx.hom
    gens = ctx.all_syms
    p = sp.Poly(sp.expand(e), *gens)
    if p.is_zero:
        return e, sp.Integer(0)
    degs = {m: sum(w[g] * j for g, j in zip(gens, m)) for m in p.monoms()}
    top = max(degs.values())
    out, nu = sp.Integer(0), sp.Integer(0)
    for m, c in p.terms():
        mono = c * sp.Mul(*[g ** j for g, j in zip(gens, m)])
        gap = top - degs[m]
        if gap % d != 0:
            return e, sp.Integer(0)
        j = int(gap / d)
        if j == 0:
            out += mono
            continue
        # mono·((s/k)^j − 1) = mono·(s − k)·Σ_{i<j} s^i k^(j−1−i) / k^j
        out += mono * (s / k) ** j
        nu += mono * sp.Add(*[s ** i * k ** (j - 1 - i) for i in range(j)]) / k ** j
    return sp.expand(out), sp.expand(nu)


def reduce_radicals(e: sp.Expr, ctx: GroupContext) -> tuple[sp.Expr, Cert]:
    """``e = e' + Σ λ·eq``, ``e'`` of degree <= 1 in every radical, with ``t² → Q_hom``."""
    out = Cert()
    e = sp.expand(e)
    for r in ctx.rads:
        if not e.has(r.sym):
            continue
        q, rem = sp.div(sp.Poly(e, r.sym), sp.Poly(r.sym ** 2 - r.hom, r.sym))
        q = q.as_expr()
        if q != 0:
            # t² − Q_hom = eq(t² = Q) − μ·eq(s = k)
            out = out.add_eq(r.eq_hyp, q)
            if r.mu != 0:
                out = out.add_eq(ctx.hom[0], -q * r.mu)   # type: ignore[index]
        e = sp.expand(rem.as_expr())
    return e, out


# ---------------------------------------------------------------- positive representations


def pos_rep(D: sp.Expr, ctx: GroupContext, strict: bool = True) -> list[tuple[sp.Rational, list[int], sp.Expr]]:
    """``D = Σ d·Π slack(mult)·s²`` with ``d > 0``, every factor visibly positive (kernel-provable)."""
    D = sp.expand(D)
    if D.is_Rational:
        if D > 0 or (D == 0 and not strict):
            return [(sp.Rational(D), [], sp.Integer(1))]
        raise GroupFailure("nonpositive constant")
    const, factors = sp.factor_list(D, *[g for g in ctx.all_syms if D.has(g)])
    parts: list[list[tuple[sp.Rational, list[int], sp.Expr]]] = []
    sq = sp.Integer(1)
    sign = 1 if const > 0 else -1
    for f, e in factors:
        sq *= f ** (e // 2)
        if e % 2:
            rep, sgn = _factor_rep(f, ctx)
            sign *= sgn
            parts.append(rep)
    if sign < 0:
        raise GroupFailure("negative factor")
    out = [(abs(sp.Rational(const)), [], sq)]
    for rep in parts:
        out = [(c * d, m + mm, s * ss) for c, m, s in out for d, mm, ss in rep]
    return out


def _factor_rep(f: sp.Expr, ctx: GroupContext) -> tuple[list[tuple[sp.Rational, list[int], sp.Expr]], int]:
    """An irreducible factor as a positive combination (up to the sign returned)."""
    for sgn in (1, -1):
        g = sp.expand(sgn * f)
        for k, s in ctx.slack_hyps:
            r = sp.cancel(g / s)
            if r.is_Rational and r > 0:
                return [(sp.Rational(r), [k], sp.Integer(1))], sgn
        gens = [x for x in ctx.all_syms if g.has(x)]
        if not gens or not all(x in ctx.strict_hyp for x in gens):
            continue
        p = sp.Poly(g, *gens)
        if all(c > 0 for c in p.coeffs()):
            rep = []
            for m, c in p.terms():
                mult: list[int] = []
                s = sp.Integer(1)
                for x, j in zip(gens, m):
                    mult += [ctx.strict_hyp[x]] * (j % 2)
                    s *= x ** (j // 2)
                rep.append((sp.Rational(c), mult, s))
            return rep, sgn
    raise GroupFailure(f"factor {f} not visibly positive")


# ---------------------------------------------------------------- numeric signs (a filter)


def _values(e: sp.Expr, ctx: GroupContext) -> list[float]:
    fn = sp.lambdify(ctx.all_syms, e, "math")
    out = []
    for p in ctx.points:
        try:
            out.append(float(fn(*p)))
        except (ZeroDivisionError, OverflowError, ValueError):
            continue
    return out


def _sign(e: sp.Expr, ctx: GroupContext) -> int:
    """+1: ``>= 0`` on all samples, −1: ``<= 0``, 2: ≈ 0, 0: both signs."""
    vals = _values(e, ctx)
    if not vals:
        return 0
    tol = 1e-9 * max(1.0, max(abs(v) for v in vals))
    nonneg = all(v >= -tol for v in vals)
    nonpos = all(v <= tol for v in vals)
    if nonneg and nonpos:
        return 2
    return 1 if nonneg else (-1 if nonpos else 0)


# ---------------------------------------------------------------- certifying N >= 0


def poly_cert(P: sp.Expr, ctx: GroupContext) -> Cert:
    """``P >= 0`` for ``P`` in the original variables: visibly positive, else SOS over the context."""
    P = sp.expand(P)
    if P == 0:
        return Cert()
    try:
        return Cert([(c, m, s) for c, m, s in pos_rep(P, ctx, strict=False)])
    except GroupFailure:
        pass
    if _sign(P, ctx) not in (1, 2):
        raise GroupFailure("polynomial negative somewhere")
    left = ctx.deadline - time.monotonic()
    if left < 0.3:
        raise GroupFailure("out of time")
    cert = sos_certificate(ctx.goal0.with_target(Relation(P, ">=", sp.Integer(0))), min(left, 4.0))
    if cert is None or cert.get("method") != "sos":
        raise GroupFailure("no SOS certificate")
    return cert_from_json(cert, ctx.goal0.variables)


def certify(N: sp.Expr, ctx: GroupContext, depth: int = 0) -> tuple[Cert, sp.Expr]:
    """``(C, W)`` with ``W·N = value(C)``: a certificate of ``N >= 0`` up to a multiplier ``W``
    that the kernel's positivity rules prove ``> 0`` (``N`` polynomial in the variables and the
    radicals). Keeping ``W`` outside (the scale step divides by it in its coefficient) keeps the
    certificates small: no division by a sum of monomials inside them."""
    if time.monotonic() > ctx.deadline:
        raise GroupFailure("out of time")
    N, red = reduce_radicals(N, ctx)
    N2, nu = homogenize(N, ctx)
    if nu != 0:                       # N = N2 − ν·eq(s = k)
        red = red.add_eq(ctx.hom[0], -nu)    # type: ignore[index]
    N = N2
    present = [r for r in ctx.rads if N.has(r.sym)]
    if not present:
        return poly_cert(N, ctx).add(red), sp.Integer(1)
    for r in present:
        t = r.sym
        A, B = sp.expand(N.coeff(t, 0)), sp.expand(N.coeff(t, 1))
        sA, sB = _sign(A, ctx), _sign(B, ctx)
        try:
            if sA in (1, 2) and sB in (1, 2):
                cA, wA = certify(A, ctx, depth + 1)
                cB, wB = certify(B, ctx, depth + 1)
                c = times_pos(cA, wB, ctx).add(times_pos(cB, wA, ctx).times_slack(r.pos_hyp, t))
                W = wA * wB
            elif sA == 1 and sB in (-1, 2) and _kernel_positive(A, ctx):
                # A·N = ((A + Bt)² + M − B²·(t² − Q)) / 2,   M = A² − B²Q
                cM, wM = certify(sp.expand(A ** 2 - B ** 2 * r.hom), ctx, depth + 1)
                c = times_pos(Cert([(sp.Integer(1), [], A + B * t)]), wM, ctx).add(cM).scaled(sp.Rational(1, 2))
                c = c.add(_eq_t(ctx, r, -wM * B ** 2 / 2))
                W = wM * A
            elif sB == 1 and sA in (-1, 2) and r.strict and _kernel_positive(B * t, ctx):
                # Bt·N = ((A + Bt)² + M + B²·(t² − Q)) / 2,   M = B²Q − A²
                cM, wM = certify(sp.expand(B ** 2 * r.hom - A ** 2), ctx, depth + 1)
                c = times_pos(Cert([(sp.Integer(1), [], A + B * t)]), wM, ctx).add(cM).scaled(sp.Rational(1, 2))
                c = c.add(_eq_t(ctx, r, wM * B ** 2 / 2))
                W = wM * B * t
            else:
                continue
        except GroupFailure:
            continue
        return c.add(Cert([], {k: lam * W for k, lam in red.eqs.items()})), W
    raise GroupFailure("no radical can be isolated")


def times_pos(c: Cert, W: sp.Expr, ctx: GroupContext) -> Cert:
    """The certificate of ``value·W`` for a visibly positive ``W``."""
    if W == 1:
        return c
    rep = pos_rep(sp.expand(W), ctx, strict=False)
    return Cert([(k * d, m + mm, q * s) for k, m, q in c.terms for d, mm, s in rep],
                {j: lam * W for j, lam in c.eqs.items()})


def _kernel_positive(e: sp.Expr, ctx: GroupContext) -> bool:
    try:
        pos_rep(e, ctx)
    except GroupFailure:
        return False
    return is_positive(e, ctx.goal2, True)


def _eq_t(ctx: GroupContext, r: Radical, lam: sp.Expr) -> Cert:
    """``λ·(t² − Q_hom)`` as equality terms."""
    c = Cert([], {r.eq_hyp: lam})
    if r.mu != 0:
        c = c.add_eq(ctx.hom[0], -lam * r.mu)   # type: ignore[index]
    return c


@dataclass
class Fact:
    """``coefficient · slack(relation) = expr`` with ``relation`` certified by ``cert``."""

    relation: Relation
    cert: Cert
    coefficient: sp.Expr


def fact_cert(expr: sp.Expr, ctx: GroupContext) -> Fact:
    """``expr >= 0`` (rational in the variables and radicals) over the introduced context, as the
    polynomial fact ``W·num >= 0`` and the coefficient ``1/(W·den)``."""
    num, den = sp.fraction(sp.together(expr))
    num, den = sp.expand(num), sp.expand(den)
    if not is_positive(den, ctx.goal2, True):
        num, den = -num, -den
        if not is_positive(den, ctx.goal2, True):
            raise GroupFailure("denominator not visibly positive")
    cert, W = certify(num, ctx)
    return Fact(Relation(sp.expand(W * num), ">=", sp.Integer(0)), cert, 1 / (W * den))


# ---------------------------------------------------------------- the groups


def _symmetries(slack: sp.Expr, syms: list[sp.Symbol]) -> list[dict[sp.Symbol, sp.Symbol]]:
    out = []
    for p in itertools.permutations(syms):
        m = dict(zip(syms, p))
        if sp.expand(slack.xreplace(m) - slack) == 0:
            out.append(m)
    return out


def _key(e: sp.Expr) -> sp.Expr:
    return sp.expand(e)


def _orbits(nonpoly: list[sp.Expr], perms: list[dict], keys: dict[sp.Expr, sp.Expr]) -> list[list[sp.Expr]] | None:
    """The orbits of the terms under ``perms``; None when like terms merged differently (an image
    is not a term: no orbit structure)."""
    orbits: list[list[sp.Expr]] = []
    seen: set[sp.Expr] = set()
    for t in nonpoly:
        k = _key(t)
        if k in seen:
            continue
        orb = []
        for m in perms:
            k2 = _key(t.xreplace(m))
            if k2 not in keys:
                return None
            if keys[k2] not in orb:
                orb.append(keys[k2])
                seen.add(k2)
        orbits.append(orb)
    return orbits


def _coset_representatives(t0: sp.Expr, perms: list[dict]) -> list[dict]:
    """One permutation per distinct image of ``t0`` (the cosets ``Γ/H``)."""
    reps: list[dict] = []
    imgs: list[sp.Expr] = []
    for m in perms:
        k = _key(t0.xreplace(m))
        if k not in imgs:
            imgs.append(k)
            reps.append(m)
    return reps


def _sub_orbits(o: list[sp.Expr], H: list[dict], keys: dict[sp.Expr, sp.Expr]) -> list[list[sp.Expr]]:
    """The ``H``-orbits into which the orbit ``o`` splits."""
    sub: list[list[sp.Expr]] = []
    done: set[sp.Expr] = set()
    for t in o:
        if _key(t) in done:
            continue
        porb = []
        for h in H:
            th = keys[_key(t.xreplace(h))]
            if th not in porb:
                porb.append(th)
                done.add(_key(th))
        sub.append(porb)
    return sub


def _paired_groupings(orbits: list[list[sp.Expr]], perms: list[dict], keys: dict[sp.Expr, sp.Expr],
                      total: sp.Expr) -> Iterator[list[sp.Expr]]:
    """The pairings by symmetry: a base term with one weighted ``H``-orbit of every other orbit,
    and the group's images, when they add up to ``total``."""
    # the largest orbit first: more groups, smaller facts
    order = sorted(range(len(orbits)), key=lambda i: -len(orbits[i]))
    for i0 in order:
        t0 = orbits[i0][0]
        H = [m for m in perms if _key(t0.xreplace(m)) == _key(t0)]
        reps = _coset_representatives(t0, perms)
        index = len(reps)
        choices = []
        for j, o in enumerate(orbits):
            if j == i0:
                continue
            sub = _sub_orbits(o, H, keys)
            choices.append([(sp.Rational(len(o), index * len(p)), p) for p in sub])
        for combo in itertools.product(*choices):
            F = t0 + sp.Add(*[w * sp.Add(*p) for w, p in combo])
            groups = [F.xreplace(m) for m in reps]
            if sp.expand(sp.Add(*groups) - total) == 0:
                yield groups


def grouping_options(nonpoly: list[sp.Expr], perms: list[dict]) -> Iterator[list[sp.Expr]]:
    """Lists of groups (expressions in the original variables) summing to ``Σ nonpoly``: the
    pairings by symmetry first, then every term alone, then one group of everything."""
    total = sp.Add(*nonpoly)
    keys = {_key(t): t for t in nonpoly}
    orbits = _orbits(nonpoly, perms, keys)
    if orbits is None:          # like terms merged differently: no orbit structure
        yield [total]
        return
    if len(perms) == 1 or all(len(o) == 1 for o in orbits):
        yield [total]
        if len(nonpoly) > 1:
            yield list(nonpoly)
        return
    yield from _paired_groupings(orbits, perms, keys, total)
    yield list(nonpoly)        # every term alone (its own tangent plane)
    yield [total]              # everything in one group


# ---------------------------------------------------------------- building the proof


def _radicals(e: sp.Expr) -> list[sp.Expr] | None:
    bases: list[sp.Expr] = []
    for n in sp.preorder_traversal(e):
        if isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer:
            if n.exp.q != 2:
                return None
            if n.base not in bases:
                bases.append(n.base)
    return bases


def _context_points(goal: Goal, syms: list[sp.Symbol], centre: sp.Rational, bases: list[sp.Expr],
                    n: int) -> list[list[float]]:
    pts = domain_points(goal, syms, centre, n, random.Random(7))
    fns = [sp.lambdify(syms, b, "math") for b in bases]
    out = []
    for p in pts:
        xs = [p[x] for x in syms]
        try:
            vals = [f(*xs) for f in fns]
        except (ZeroDivisionError, OverflowError, ValueError):
            continue
        if any(v < 0 for v in vals):
            continue
        out.append(xs + [math.sqrt(v) for v in vals])
    return out


def _radical_bases(goal: Goal, slack: sp.Expr, syms: list[sp.Symbol]) -> list[sp.Expr] | None:
    """The slack's square-root bases, when there are a few and all are nonnegative polynomials."""
    bases = _radicals(slack)
    if not bases or len(bases) > MAX_RADICALS:
        return None
    for b in bases:
        if b.free_symbols - set(syms) or not is_polynomial(b, syms) or not is_positive(b, goal, False):
            return None
    return bases


def _strict_slacks(hyps: list[Relation], syms: list[sp.Symbol]
                   ) -> tuple[dict[sp.Symbol, int], list[tuple[int, sp.Expr]]]:
    """The strict inequality hypotheses: the first ``v > 0`` of each variable, and every slack."""
    strict_hyp: dict[sp.Symbol, int] = {}
    slack_hyps: list[tuple[int, sp.Expr]] = []
    for i, h in enumerate(hyps):
        if h.is_inequality and h.strict:
            s = sp.expand(h.slack())
            slack_hyps.append((i, s))
            if s in syms and s not in strict_hyp:
                strict_hyp[s] = i
    return strict_hyp, slack_hyps


def _introduce_radicals(goal: Goal, bases: list[sp.Expr], ts: list[sp.Symbol], hyps: list[Relation],
                        strict_hyp: dict[sp.Symbol, int]) -> tuple[list[Radical], dict[str, str]]:
    """``t_i = √bases[i]`` with ``t_i > 0`` (``>= 0`` when the base may vanish) and ``t_i² = Q_i``
    appended to ``hyps`` (and ``strict_hyp``): the radicals and the ``introduce`` definitions."""
    rads: list[Radical] = []
    defs: dict[str, str] = {}
    for b, tv in zip(bases, ts):
        strict = is_positive(b, goal, True)
        defs[str(tv)] = expr_to_str(sp.sqrt(b))
        k = len(hyps)
        hyps.append(Relation(tv, ">" if strict else ">=", sp.Integer(0)))
        hyps.append(Relation(tv ** 2, "=", b))
        if strict:
            strict_hyp[tv] = k
        hb, mu = b, sp.Integer(0)
        rads.append(Radical(tv, b, hb, mu, k, strict, k + 1))
    return rads, defs


def _split_polynomial(slack: sp.Expr, syms: list[sp.Symbol]) -> tuple[sp.Expr, list[sp.Expr]]:
    """The slack's polynomial part and its other summands."""
    poly_part, nonpoly = sp.Integer(0), []
    for a in sp.Add.make_args(sp.expand(slack, deep=False)):
        if is_polynomial(a, syms):
            poly_part += a
        else:
            nonpoly.append(a)
    return poly_part, nonpoly


def build(goal: Goal, time_limit: float = TIME_BUDGET) -> Step | None:
    """A complete proof tree of ``goal`` by radical groups, or None."""
    deadline = time.monotonic() + time_limit
    t = goal.target
    if t.op not in (">=", "<=", ">", "<"):
        return None
    syms = symbols_of(goal)
    if not 1 <= len(syms) <= MAX_VARS:
        return None
    slack = sp.sympify(t.slack())
    bases = _radical_bases(goal, slack, syms)
    if bases is None:
        return None
    centre = constraint_point(goal, syms)
    if centre is None:
        return None
    # the introduced goal
    tnames = fresh_names(goal, [f"t{i + 1}" for i in range(len(bases))])
    ts = [var(n) for n in tnames]
    hyps = list(goal.hypotheses)
    hom = _homogeneous_constraint(goal, syms)
    strict_hyp, slack_hyps = _strict_slacks(hyps, syms)
    rads, defs = _introduce_radicals(goal, bases, ts, hyps, strict_hyp)
    G2 = Goal(goal.variables + tuple(tnames), tuple(hyps),
              Relation(replace_radicals(sp.sympify(t.lhs), bases, ts), t.op,
                       replace_radicals(sp.sympify(t.rhs), bases, ts)))
    pts = _context_points(goal, syms, centre, bases, SAMPLES)
    if len(pts) < 30:
        return None
    ctx = GroupContext(goal, G2, syms, rads, hom, pts, deadline, strict_hyp, slack_hyps)
    if hom is not None:
        for r in rads:
            r.hom, nu = homogenize(r.base, GroupContext(goal, G2, syms, [], hom, [], deadline))
            r.mu = nu
    # the groups
    poly_part, nonpoly = _split_polynomial(slack, syms)
    perms = _symmetries(slack, syms)
    point = {x: centre for x in syms}
    for n_opt, groups in enumerate(grouping_options(nonpoly, perms)):
        if n_opt >= MAX_OPTIONS or time.monotonic() > deadline:
            break
        step = _try_groups(goal, G2, ctx, groups, poly_part, point, defs, bases, ts)
        if step is not None:
            return step
    return None


def _planes(F: sp.Expr, syms: list[sp.Symbol], point: dict) -> list[sp.Expr]:
    out: list[sp.Expr] = []
    try:
        p = tangent_plane(F, syms, point)
    except Exception:  # noqa: BLE001 - sympy refusing a shape: no plane
        p = None
    if p is not None:
        out.append(p)
    if sp.Integer(0) not in out:
        out.append(sp.Integer(0))
    return out


def _numeric_ok(e: sp.Expr, ctx: GroupContext) -> bool:
    return _sign(e, ctx) in (1, 2)


def _try_groups(goal: Goal, G2: Goal, ctx: GroupContext, groups: list[sp.Expr], poly_part: sp.Expr, point: dict,
                defs: dict[str, str], bases: list[sp.Expr], ts: list[sp.Symbol]) -> Step | None:
    syms = ctx.syms
    apps: list[FactApplication] = []
    rest = poly_part
    for F in groups:
        Ft = replace_radicals(F, bases, ts)
        done = False
        for plane in _planes(F, syms, point):
            if not _numeric_ok(Ft - plane, ctx):
                continue
            try:
                fact = fact_cert(Ft - plane, ctx)
            except GroupFailure:
                continue
            except (sp.PolynomialError, ValueError, TypeError, ZeroDivisionError):
                continue
            apps.append(FactApplication(relation_to_json(fact.relation), fact.cert.certificate(),
                                        expr_to_str(fact.coefficient)))
            rest += plane
            done = True
            break
        if not done:
            return None
    rest = sp.expand(rest)
    strict = goal.target.strict
    G3 = G2.with_target(Relation(rest, ">" if strict else ">=", sp.Integer(0)))
    if rest == 0 and not strict:
        close_cert: dict | None = SosCertificate().to_json()
    else:
        left = ctx.deadline - time.monotonic()
        if left < 0.3:
            return None
        close_cert = sos_certificate(goal.with_target(G3.target), min(left, 4.0))
    if close_cert is None:
        return None
    close = Step("close", G3, [], close_cert, note="the groups' linear bounds add up")
    scale = Step("scale", G2, [G3], LinearCertificate("1", applications=tuple(apps)).to_json(), [close],
                 note=f"radical groups: {len(apps)} group bounds")
    return Step("introduce", goal, [G2], IntroduceCertificate(defs).to_json(), [scale],
                note="name the square roots for the radical groups")


# ---------------------------------------------------------------- generator


class RadicalGroups:
    """Tactic generator: a complete proof tree by grouped radical bounds (``closes=True``)."""

    name = "radical-groups"

    def __init__(self, time_limit: float = TIME_BUDGET, check: bool = False) -> None:
        self.time_limit = time_limit
        self.check = check

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        try:
            step = build(goal, self.time_limit)
        except Exception:  # noqa: BLE001 - a proposer: an odd goal means "does not apply"
            step = None
        if step is None:
            return
        if self.check and not check_step(step).ok:
            return
        yield Candidate(step, self.name, 10.0, prechecked=self.check, closes=True)
