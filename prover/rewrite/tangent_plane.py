"""Tangent-plane trick: bound each fraction of the goal by its tangent plane at the equality point.

Why: many cyclic Olympiad inequalities ``Σ x³/(2y+z)² >= (x+y+z)/9`` are too large for SOS
after clearing denominators, but every summand ``T_i`` lies above its tangent plane ``L_i`` at
the equality point (all variables equal), and ``Σ L_i + R >= 0`` is then a small polynomial
goal. This generalises :mod:`prover.rewrite.tangent` (one-variable terms under ``Σx = S``) to
terms in several variables.

:class:`TangentPlane` writes ``slack(G) = Σ_i T_i + R`` (``T_i`` non-polynomial rational terms,
``R`` polynomial), finds the equality point ``(t, …, t)`` (``t`` a positive rational root of
``slack(t, …, t)`` that satisfies the equality hypotheses; ``t = 1`` when the diagonal slack
vanishes identically), and keeps the terms where ``T_i − L_i >= 0`` survives numerical
sampling of the hypotheses' domain. Each ``L_i <= T_i`` becomes a ``fact`` application with
its own exact close certificate: ``T_i − L_i = P/D`` with ``D > 0``; SOS gives
``P = Σ c·Π slack(H)·q² + Σ λ·eq(H)``; with ``D = c₀·D₀·S²`` (``S`` the square part,
``D₀ = Σ d_k·monomial``) every term is divided by ``D`` as ``c·d_k/c₀ · Π slack(H)·monomial ·
(q/(S·D₀))²``. The step is ``scale``: ``slack(G) = m·slack(G') + Σ_i 1·(T_i − L_i)``.

The reciprocal substitution's output is brought to the degree-1 shape the tangent plane needs
by :class:`prover.rewrite.reduce.ReduceFractionsByConstraints`.

Nothing here is trusted: the kernel checks every step and every fact certificate.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

import sympy as sp

from prover.ir import Goal, Step, expr_from_str, expr_to_str, relation_to_json
from prover.kernel.certificates import EqTerm, FactApplication, LinearCertificate, SosCertificate, SosTerm
from prover.problem import Relation
from prover.rewrite.base import (
    Candidate,
    equality_hyps,
    is_polynomial,
    is_positive,
    is_rational_function,
    primitive_relation,
    symbols_of,
)
from prover.rewrite.facts import nonneg_hyp_of
from prover.rewrite.points import equality_points, project_points, sample_points, solved_constraint
from prover.solvers.sos import sos_certificate

#: Random points used to test ``T_i − L_i >= 0`` before asking for a certificate.
SAMPLES = 400
#: Seconds of SOS search per fact.
SOS_TIME = 2.0
#: Seconds one ``generate`` call may spend (SOS attempts stop when it is spent).
TIME_BUDGET = 3.0
#: Fractions with more additive terms than this are not reduced / not bounded.
MAX_TERMS = 12


# ---------------------------------------------------------------- splitting the slack

@dataclass
class Split:
    """``slack = Σ terms + poly`` with each term a non-polynomial rational function."""

    terms: list[sp.Expr]
    poly: sp.Expr


def split_slack(s: sp.Expr, syms: list[sp.Symbol]) -> Split | None:
    """The additive pieces of ``s``: fractions kept apart, polynomial pieces summed."""
    if not is_rational_function(s, syms):
        return None
    terms: list[sp.Expr] = []
    poly = sp.Integer(0)
    for t in sp.Add.make_args(sp.expand(s, deep=False)):
        if is_polynomial(t, syms):
            poly += t
        else:
            terms.append(t)
    if not terms or len(terms) > MAX_TERMS:
        return None
    return Split(terms, sp.expand(poly))


# ---------------------------------------------------------------- sampling (a filter, not trust)
# (the equality point and the sampled points themselves: prover.rewrite.points)

def _nonneg_on(f: sp.Expr, syms: list[sp.Symbol], points: list[dict[sp.Symbol, float]]) -> bool:
    fn = sp.lambdify(syms, f, "math")
    for p in points:
        vals = [p[x] for x in syms]
        try:
            v = fn(*vals)
        except (ZeroDivisionError, OverflowError, ValueError):
            continue
        scale = 1.0 + max(abs(x) for x in vals) ** 3
        if v < -1e-9 * scale:
            return False
    return True


# ---------------------------------------------------------------- the fact certificates

def positive_denominator(d: sp.Expr, goal: Goal, syms: list[sp.Symbol]
                         ) -> tuple[sp.Rational, sp.Expr, list[tuple[sp.Rational, list[int]]]] | None:
    """``d = c₀ · S² · D₀`` with ``c₀ > 0``, ``D₀ = Σ d_k · Π_{j∈mult_k} slack(H_j)`` (``d_k > 0``).

    Returns ``(c₀, S·D₀, [(d_k, mult_k)])`` or None when ``D₀`` has a negative coefficient or a
    variable without a hypothesis ``x >= 0``."""
    c0, factors = sp.factor_list(sp.expand(d), *syms)
    square = sp.Integer(1)
    rest = sp.Integer(1)
    for f, m in factors:
        square *= f ** (m // 2)
        if m % 2:
            rest *= f
    rest = sp.expand(rest)
    if c0 < 0:
        c0, rest = -c0, sp.expand(-rest)
    if c0 == 0:
        return None
    pieces: list[tuple[sp.Rational, list[int]]] = []
    for mono, coeff in sp.Poly(rest, *syms).terms():
        if coeff <= 0:
            return None
        mult: list[int] = []
        for x, k in zip(syms, mono):
            if k:
                j = nonneg_hyp_of(goal, x)
                if j is None:
                    return None
                mult += [j] * k
        pieces.append((sp.Rational(coeff), mult))
    return sp.Rational(c0), sp.expand(square) * rest, pieces


def _product_constraint(goal: Goal, syms: list[sp.Symbol]) -> tuple[int, sp.Expr, sp.Expr] | None:
    """``(hyp, r, λ)`` for an equality ``eq(H) = s·(m − c)`` with ``m`` a monomial, ``c > 0``:
    ``r = m/c`` equals 1 on the context and ``r − 1 = λ·eq(H)``."""
    for i, e in equality_hyps(goal):
        if not is_polynomial(e, syms):
            continue
        p = sp.Poly(e, *syms)
        if len(p.terms()) != 2:
            continue
        (m1, c1), (m2, c2) = p.terms()
        if sum(m2) != 0 or sum(m1) == 0:
            continue
        mono = sp.Mul(*[x ** k for x, k in zip(syms, m1)])
        c = -sp.Rational(c2) / sp.Rational(c1)
        if c <= 0:
            continue
        # e = c1·(m − c)  ⇒  m/c − 1 = e/(c1·c)
        return i, mono / c, 1 / (sp.Rational(c1) * c)
    return None


def _homogeneous_degree(e: sp.Expr, syms: list[sp.Symbol]) -> int | None:
    lam = sp.Dummy("lam", positive=True)
    r = sp.cancel(e.subs({x: lam * x for x in syms}, simultaneous=True) / e)
    if r.free_symbols - {lam}:
        return None
    d = sp.degree(sp.numer(r), lam) - sp.degree(sp.denom(r), lam)
    return int(d) if sp.cancel(r - lam ** d) == 0 else None


@dataclass
class Plane:
    """``plane <= term`` with its close certificate over the goal's context."""

    term: sp.Expr
    plane: sp.Expr
    proof: SosCertificate


def _sos_over_positive(syms: list[sp.Symbol], num: sp.Expr, sos_time: float) -> dict | None:
    """SOS certificate of ``num >= 0`` over ``x_j > 0`` (hypothesis ``j`` is ``x_j > 0``)."""
    g = Goal(tuple(str(x) for x in syms), tuple(Relation(x, ">", sp.Integer(0)) for x in syms),
             Relation(num, ">=", sp.Integer(0)))
    cert = sos_certificate(g, sos_time)
    if cert is None or cert.get("method") != "sos" or cert.get("eq_terms"):
        return None
    return cert


def _fact_terms(cert: dict, syms: list[sp.Symbol], pieces: list[tuple[sp.Rational, list[int]]], c0: sp.Rational,
                base: sp.Expr, reciprocal: bool, hyp_of: list[int | None]) -> list[SosTerm]:
    """The SOS terms of ``num/den`` over ``u > 0`` (``den = c₀·base·D₀``), written back in ``x``."""
    to_u = {x: 1 / x for x in syms}
    names = tuple(str(x) for x in syms)
    terms: list[SosTerm] = []
    for t in cert["terms"]:
        c = sp.Rational(t["coeff"])
        q = expr_from_str(t["poly"], names)
        for dk, mult in pieces:
            mult_u = list(t["mult"]) + mult        # indices j: the factor u_j
            poly = q / base
            if reciprocal:                          # u_j = x_j · (1/x_j)²
                poly = poly.subs(to_u, simultaneous=True)
                for j in mult_u:
                    poly = poly / syms[j]
            terms.append(SosTerm(expr_to_str(c * dk / c0), expr_to_str(poly),
                                 tuple(hyp_of[j] for j in mult_u)))
    return terms


def _power_eq_term(term: sp.Expr, power: int, constraint: tuple[int, sp.Expr, sp.Expr]) -> EqTerm:
    """``term − T'`` (``T' = term·r^power``) as a multiple of the constraint's ``eq``."""
    hyp, r, lam = constraint
    # term − T' = −term·(r^k − 1) = −term·(r − 1)·Σ_{j<k} r^j            (k > 0)
    #           =  term·(r − 1)·Σ_{j<|k|} r^j / r^|k|                     (k < 0)
    k = abs(power)
    geo = sp.Add(*[r ** j for j in range(k)])
    factor = -term * geo if power > 0 else term * geo / r ** k
    return EqTerm(hyp, expr_to_str(factor * lam))


def plane_fact(goal: Goal, term: sp.Expr, syms: list[sp.Symbol], centre: sp.Rational,
               reciprocal: bool, power: int, constraint: tuple[int, sp.Expr, sp.Expr] | None,
               points: list[dict[sp.Symbol, float]], sos_time: float = SOS_TIME) -> Plane | None:
    """The tangent plane of ``T' = term·r^power`` (``r = 1`` on the context) at ``(t, …, t)``,
    linear in the coordinates ``u = x`` (or ``u = 1/x`` when ``reciprocal``), with a proof of
    ``plane <= term``: an SOS certificate of ``T' − plane >= 0`` over ``u > 0`` written back in
    ``x``, plus ``(term − T') = −term·(r^power − 1)``, a multiple of the constraint."""
    hyp_of = [nonneg_hyp_of(goal, x) for x in syms]
    if any(j is None for j in hyp_of) or (reciprocal and not all(goal.hypotheses[j].strict for j in hyp_of)):
        return None
    if power and constraint is None:
        return None
    r = constraint[1] if constraint else sp.Integer(1)
    t_x = sp.cancel(term * r ** power)
    to_u = {x: 1 / x for x in syms} if reciprocal else {}
    t_u = sp.cancel(t_x.subs(to_u, simultaneous=True)) if reciprocal else t_x
    u0 = 1 / centre if reciprocal else centre
    plane_u = tangent_plane(t_u, syms, {x: u0 for x in syms})
    if plane_u is None:
        return None
    plane_x = sp.expand(plane_u.subs(to_u, simultaneous=True)) if reciprocal else plane_u
    if not _nonneg_on(t_x - plane_x, syms, points):
        return None
    num, den = sp.fraction(sp.cancel(sp.together(t_u - plane_u)))
    num, den = sp.expand(num), sp.expand(den)
    if not is_polynomial(num, syms) or not is_polynomial(den, syms):
        return None
    upos = Goal(goal.variables, tuple(Relation(x, ">", sp.Integer(0)) for x in syms), goal.target) \
        if len(syms) == len(goal.variables) else None
    pd = positive_denominator(den, upos, syms) if upos is not None else None
    if pd is None:
        return None
    c0, base, pieces = pd
    terms: list[SosTerm] = []
    if num != 0:
        cert = _sos_over_positive(syms, num, sos_time)
        if cert is None:
            return None
        terms = _fact_terms(cert, syms, pieces, c0, base, reciprocal, hyp_of)
    eq_terms = [_power_eq_term(term, power, constraint)] if power else []  # type: ignore[arg-type]
    return Plane(term, plane_x, SosCertificate(tuple(terms), tuple(eq_terms)))


def context_plane_fact(goal: Goal, term: sp.Expr, syms: list[sp.Symbol], centre: sp.Rational,
                       points: list[dict[sp.Symbol, float]], sos_time: float = SOS_TIME) -> Plane | None:
    """The tangent plane in ``x`` when ``plane <= term`` holds only within the goal's equality
    constraints (``1/(3+a²+b²) <= …`` needs ``a + b + c = 3``): SOS over the whole context."""
    plane = tangent_plane(term, syms, {x: centre for x in syms})
    if plane is None or not _nonneg_on(term - plane, syms, points):
        return None
    num, den = sp.fraction(sp.cancel(sp.together(term - plane)))
    num, den = sp.expand(num), sp.expand(den)
    if not is_polynomial(num, syms) or not is_polynomial(den, syms):
        return None
    pd = positive_denominator(den, goal, syms)
    if pd is None:
        return None
    c0, base, pieces = pd
    cert = sos_certificate(goal.with_target(Relation(num, ">=", sp.Integer(0))), sos_time) if num != 0 \
        else SosCertificate().to_json()
    if cert is None or cert.get("method") != "sos":
        return None
    names = goal.variables
    terms = tuple(SosTerm(expr_to_str(sp.Rational(t["coeff"]) * dk / c0),
                          expr_to_str(expr_from_str(t["poly"], names) / base), (*t["mult"], *mult))
                  for t in cert["terms"] for dk, mult in pieces)
    eq_terms = tuple(EqTerm(e["hyp"], expr_to_str(expr_from_str(e["poly"], names) / den))
                     for e in cert.get("eq_terms", []))
    return Plane(term, plane, SosCertificate(terms, eq_terms))


def _shape(term: sp.Expr, syms: list[sp.Symbol]) -> str:
    """The term up to a permutation of the variables (cyclic sums repeat one failure)."""
    return min(sp.srepr(term.subs(dict(zip(syms, perm)), simultaneous=True))
               for perm in itertools.permutations(syms)) if len(syms) <= 4 else sp.srepr(term)


def tangent_plane(term: sp.Expr, syms: list[sp.Symbol], point: dict[sp.Symbol, sp.Rational]) -> sp.Expr | None:
    """``T(p) + ∇T(p)·(x − p)`` with exact rational coefficients, or None."""
    val = sp.cancel(term.subs(point))
    if not val.is_Rational:
        return None
    plane = val
    for x in syms:
        g = sp.cancel(sp.diff(term, x).subs(point))
        if not g.is_Rational:
            return None
        plane += g * (x - point[x])
    return sp.expand(plane)


# ---------------------------------------------------------------- generators

class TangentPlane:
    """Replace each fraction of the slack by its tangent plane at the equality point (``scale``).

    The plane is taken in the coordinates ``x`` or ``1/x``, after multiplying the fraction by a
    power of a product constraint ``m = c`` chosen to make it homogeneous of degree 1 in those
    coordinates (``1/(a⁵(b+2c)²)`` under ``abc = 1`` is ``x³/(2y+z)²`` with ``x = 1/a``)."""

    name = "tangent-plane"

    def __init__(self, samples: int = SAMPLES, sos_time: float = SOS_TIME, seed: int = 0,
                 time_budget: float = TIME_BUDGET) -> None:
        self.time_budget = time_budget
        self.samples = samples
        self.sos_time = sos_time
        self.seed = seed

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality:
            return
        syms = symbols_of(goal)
        if len(syms) < 2 or not set(syms) <= t.free_symbols():
            return
        s = t.slack()
        split = split_slack(s, syms)
        if split is None:
            return
        # the kernel must see every denominator of the goal nonzero
        if not all(is_positive(sp.denom(sp.together(term)), goal, strict=True) for term in split.terms):
            return
        deadline = time.monotonic() + self.time_budget
        for centre in equality_points(goal, syms, s)[:2]:
            step = self._step(goal, syms, split, centre, deadline)
            if step is not None:
                yield Candidate(step, self.name, 1.5)

    def _options(self, term: sp.Expr, syms: list[sp.Symbol],
                 constraint: tuple[int, sp.Expr, sp.Expr] | None) -> list[tuple[bool, int]]:
        """``(reciprocal, power)`` pairs worth trying: degree 1 in the plane's coordinates."""
        d = _homogeneous_degree(term, syms)
        if d is None:
            return [(False, 0), (True, 0)]
        dm = _homogeneous_degree(constraint[1], syms) if constraint else None
        out: list[tuple[bool, int]] = []
        for rec in (False, True):
            want = -1 if rec else 1
            if d == want:
                out.append((rec, 0))
            elif dm and (want - d) % dm == 0 and abs((want - d) // dm) <= 4:
                out.append((rec, (want - d) // dm))
        return out

    def _step(self, goal: Goal, syms: list[sp.Symbol], split: Split, centre: sp.Rational,
              deadline: float) -> Step | None:
        rng = random.Random(self.seed)
        pts = sample_points(goal, syms, centre, self.samples, rng)
        if len(pts) < self.samples // 4:
            return None
        constraint = _product_constraint(goal, syms)
        solved = solved_constraint(goal, syms)
        pts_ctx = project_points(goal, syms, pts, solved) if solved else []
        apps: list[FactApplication] = []
        rest = split.poly
        failed: set[tuple[str, object]] = set()
        for term in split.terms:
            found: Plane | None = None
            shape = _shape(term, syms)
            tries: list[object] = list(self._options(term, syms, constraint))
            if len(pts_ctx) >= self.samples // 8:
                tries.append("context")
            for opt in tries:
                left = deadline - time.monotonic()
                if left <= 0.2:
                    break
                if (shape, opt) in failed:
                    continue
                if opt == "context":
                    found = context_plane_fact(goal, term, syms, centre, pts_ctx, min(self.sos_time, left))
                else:
                    rec, power = opt  # type: ignore[misc]
                    found = plane_fact(goal, term, syms, centre, rec, power, constraint, pts,
                                       min(self.sos_time, left))
                if found is not None:
                    break
                failed.add((shape, opt))
            if found is None:
                rest += term
                continue
            fact = relation_to_json(Relation(found.plane, "<=", term))
            apps.append(FactApplication(fact, found.proof, "1"))
            rest += found.plane
        if not apps:
            return None
        strict = goal.target.strict
        rest = sp.expand(rest)
        if rest.is_Number:
            if rest < 0 or (strict and rest == 0):
                return None
            content, new = sp.Integer(1), Relation(rest, ">" if strict else ">=", sp.Integer(0))
        elif is_polynomial(rest, syms):
            content, new = primitive_relation(rest, syms, strict)
        else:
            content, new = sp.Integer(1), _readable(rest, strict)
        # without equality constraints the samples lie in the domain: drop a visibly false subgoal
        if not any(True for _ in equality_hyps(goal)) and not _nonneg_on(new.slack(), syms, pts):
            return None
        cert = LinearCertificate(expr_to_str(content), applications=tuple(apps))
        return Step("scale", goal, [goal.with_target(new)], cert.to_json(),
                    note=f"tangent planes at ({', '.join([str(centre)] * len(syms))})")


def _readable(expr: sp.Expr, strict: bool) -> Relation:
    """``expr >= 0`` with the positive terms on the left."""
    left = [a for a in sp.Add.make_args(expr) if not a.as_coeff_Mul()[0].is_negative]
    right = [-a for a in sp.Add.make_args(expr) if a.as_coeff_Mul()[0].is_negative]
    return Relation(sp.Add(*left), ">" if strict else ">=", sp.Add(*right))
