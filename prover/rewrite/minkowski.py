"""Minkowski pairs: two square roots of sums of squares on the big side become one (``combine``).

Why: ``Σ_i √(u_i² + v_i²) ≥ √((Σu_i)² + (Σv_i)²)`` (the triangle inequality) is how textbooks
prove a sum of three or more such radicals against one; clearing all the radicals at once gives
degrees no closer reaches, and a radical pair alone has a short proof (name the roots, square
twice, Lagrange's identity), built here rather than searched for.

The step: a goal ``P + rest ≥ small`` whose big side has two terms ``c₁√R₁``, ``c₂√R₂`` with
``R_j`` written as sums of squares (``a² + 1``, ``(a + b)² + 4``, ``x⁴ + 9``; rational constants
that are squares; coefficients that are squares) becomes the ``combine`` of

* ``G₁: c₁√R₁ + c₂√R₂ ≥ √M``, ``M = Σ_k (c₁u_k ± c₂v_σ(k))²`` (Minkowski for this pair), and
* ``G₂: √M + rest ≥ small``,

``slack(G) = slack(G₁) + slack(G₂)`` exactly. The pairing ``σ`` of the components and their signs
are chosen on sampled points of the goal's domain: ``G₂`` must hold at every sample, and the
pairing that loses least (smallest mean ``slack(G₁)``) comes first. When every ``G₁`` of a
chain of merges has its proof (:func:`pair_proof`) and the last ``G₂`` closes at once (``√M ≥ √M``,
or by positivity), the whole tree is proposed (``closes=True``); otherwise the best merges are
proposed with both parts open. Nothing here is trusted: the kernel checks every step.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    EqTerm,
    IntroduceCertificate,
    PositivityCertificate,
    SosCertificate,
    SosTerm,
    SquareCertificate,
)
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, big_small, fresh_names, is_positive, rewrite_step
from prover.rewrite.points import domain_points
from prover.rewrite.separable import combine_step
from prover.solvers.sos import sos_certificate
from prover.verify import check_step

#: At most this many components per radicand (merges are k!·2^k).
MAX_COMPONENTS = 3
#: Radicands with more terms than this are not expanded to look for squares.
MAX_EXPANDED_TERMS = 6
SAMPLES = 48
#: Candidates proposed per goal (best pairings first).
PROPOSALS = 2
#: Seconds for a whole chain of merges (each pair's proof is built, not searched).
CHAIN_TIME = 6.0
#: Seconds of SOS for a chain's last goal when its radicals cancel.
SOS_TIME = 2.0
ONE = sp.Integer(1)


def square_root_of_term(term: sp.Expr) -> sp.Expr | None:
    """``w`` with ``w² = term`` when ``term`` is visibly a square (``c·∏ b_i^(2e_i)``, ``c`` the
    square of a positive rational), else None."""
    coeff, rest = term.as_coeff_Mul()
    if not coeff.is_Rational or coeff <= 0:
        return None
    root = sp.sqrt(coeff)
    if not root.is_Rational:
        return None
    out = root
    for factor in sp.Mul.make_args(rest):
        if factor == 1:
            continue
        base, exp = factor.as_base_exp()
        if not (exp.is_Integer and exp > 0 and exp % 2 == 0):
            return None
        out *= base ** (exp // 2)
    return out


def square_components(radicand: sp.Expr) -> list[sp.Expr] | None:
    """The radicand as a sum of at least two squares ``Σ w_k²``, read as written (then expanded
    when short), at most :data:`MAX_COMPONENTS` of them; None otherwise."""
    forms = [radicand]
    expanded = sp.expand(radicand)
    if expanded != radicand and len(sp.Add.make_args(expanded)) <= MAX_EXPANDED_TERMS:
        forms.append(expanded)
    for form in forms:
        roots = [square_root_of_term(t) for t in sp.Add.make_args(form)]
        if all(r is not None for r in roots) and 2 <= len(roots) <= MAX_COMPONENTS:
            return roots
    return None


def _radical_terms(big: sp.Expr) -> list[tuple[sp.Expr, sp.Rational, list[sp.Expr]]]:
    """``(term, c, [w_k])`` for the terms ``c·√R`` of ``big`` (``c > 0`` rational) whose radicand
    is a sum of squares ``Σ w_k²``."""
    out = []
    for term in sp.Add.make_args(big):
        coeff, rest = term.as_coeff_Mul()
        if not (coeff.is_Rational and coeff > 0 and isinstance(rest, sp.Pow) and rest.exp == sp.S.Half):
            continue
        comps = square_components(rest.base)
        if comps is not None:
            out.append((term, coeff, comps))
    return out


@dataclass(frozen=True)
class Merge:
    """``k·√M``, ``M = Σ_i (l_i + r_i)²`` with ``k²·Σ l_i² = c₁²R₁`` and ``k²·Σ r_i² = c₂²R₂`` (as
    polynomials); ``k = c₁`` when ``c₁ = c₂`` (``½√A + ½√B ≥ ½√M`` keeps ``M`` the statement's own
    radicand, so that the last goal is one root against a multiple of itself), else 1."""

    left: tuple[sp.Expr, ...]
    right: tuple[sp.Expr, ...]
    k: sp.Rational = ONE

    @property
    def root(self) -> sp.Expr:
        return self.k * sp.sqrt(self.radicand)

    @property
    def radicand(self) -> sp.Expr:
        return sum(((a + b) ** 2 for a, b in zip(self.left, self.right)), sp.Integer(0))


def merges(left: list[sp.Expr], right: list[sp.Expr], scale: sp.Rational = ONE) -> Iterator[Merge]:
    """The merges ``Σ_k (l_k ± r_σ(k))²`` over the pairings ``σ`` and signs; the shorter list is
    padded with zeros."""
    k = max(len(left), len(right))
    left = left + [sp.Integer(0)] * (k - len(left))
    right = right + [sp.Integer(0)] * (k - len(right))
    seen: set[sp.Expr] = set()
    for perm in itertools.permutations(range(k)):
        for signs in itertools.product((1, -1), repeat=k):
            m = Merge(tuple(left), tuple(s * right[perm[i]] for i, s in enumerate(signs)), scale)
            if m.radicand not in seen:
                seen.add(m.radicand)
                yield m


@dataclass(frozen=True)
class Pair:
    """Two radical terms ``t₁ = c₁√R₁``, ``t₂ = c₂√R₂`` of the big side, their merge, and the
    parts ``G₁: t₁ + t₂ ≥ √M`` and ``G₂`` (the goal with ``√M`` for ``t₁ + t₂``)."""

    t1: sp.Expr
    t2: sp.Expr
    merge: Merge
    g1: Relation
    g2: Relation


def _pair_merges(c1: sp.Rational, w1: list[sp.Expr], c2: sp.Rational, w2: list[sp.Expr]) -> Iterator[Merge]:
    """The merges of ``c₁√(Σw₁²)`` and ``c₂√(Σw₂²)`` (:class:`Merge`'s ``k``)."""
    k = c1 if c1 == c2 else sp.Integer(1)
    return merges([c1 / k * w for w in w1], [c2 / k * w for w in w2], k)


def _slack_values(goal: Goal, rel: Relation, points: list[dict[sp.Symbol, float]]) -> list[float] | None:
    """``slack(rel)`` at each point (None when one is undefined there)."""
    syms = [var(v) for v in goal.variables]
    f = sp.lambdify(syms, rel.slack(), "math")
    out = []
    for p in points:
        try:
            value = float(f(*[p[s] for s in syms]))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return None
        if not math.isfinite(value):
            return None
        out.append(value)
    return out


def _ranked_pairs(goal: Goal, big: sp.Expr, small: sp.Expr,
                  points: list[dict[sp.Symbol, float]]) -> list[tuple[float, Pair]]:
    """``(loss, pair)`` for every pair and pairing whose ``G₂`` holds at every sample."""
    strict = goal.target.strict
    out = []
    radicals = _radical_terms(big)
    for (t1, c1, w1), (t2, c2, w2) in itertools.combinations(radicals, 2):
        rest = big - t1 - t2
        for merge in _pair_merges(c1, w1, c2, w2):
            root = merge.root
            if rest == 0 and sp.expand(small - root) == 0:
                continue    # the goal is this pair's own Minkowski inequality (radical groups')
            g1 = Relation(t1 + t2, ">=", root)
            g2 = Relation(root + rest, ">" if strict else ">=", small)
            v2, v1 = _slack_values(goal, g2, points), _slack_values(goal, g1, points)
            if v1 is None or v2 is None:
                continue
            scale = [1.0 + abs(x) for x in v1]
            if all(x >= -1e-9 * s for x, s in zip(v2, scale)):
                out.append((sum(v1) / len(v1), Pair(t1, t2, merge, g1, g2)))
    out.sort(key=lambda c: c[0])
    return out


def _one_pair(big: sp.Expr, small: sp.Expr, goal_op: str) -> Pair | None:
    """The goal ``c₁√R₁ + c₂√R₂ ≥ √M`` itself, for one of the pair's merges ``M``."""
    radicals = _radical_terms(big)
    if len(radicals) != 2 or sp.expand(big - radicals[0][0] - radicals[1][0]) != 0:
        return None
    (t1, c1, w1), (t2, c2, w2) = radicals
    for m in _pair_merges(c1, w1, c2, w2):
        if sp.expand(small - m.root) == 0:
            # the goal's own orientation: the tree must prove the goal as written
            g1 = Relation(t1 + t2, ">=", small) if goal_op in (">=", ">") else Relation(small, "<=", t1 + t2)
            return Pair(t1, t2, m, g1, Relation(small, ">=", small))
    return None


def _closed_identity_or_sign(goal: Goal) -> Step | None:
    """The last goal of a chain closed at once: its slack is ``0`` (``√M ≥ √M``) or a sum of terms
    with positive coefficients that the kernel's positivity rules prove (``√M ≥ (9/10)·√M``).
    or a polynomial once the radicals cancel (SOS). A slack with radicals and a negative term is
    left to the search even when the kernel's positivity accepts it: its normal forms
    (``√((x/2)² + 1) = √(x² + 4)/2``) are not Lean's ``positivity``."""
    slack = sp.expand(goal.target.slack())
    if slack == 0:
        cert: dict | None = SosCertificate().to_json()
    elif all(t.as_coeff_Mul()[0] > 0 for t in sp.Add.make_args(slack)):
        cert = PositivityCertificate().to_json()
    elif slack.is_polynomial(*[var(v) for v in goal.variables]):
        # the radicals cancelled: a polynomial left, for SOS (``(a² + 1)(b² + 1) − (ab + 1)²``)
        cert = sos_certificate(goal.with_target(Relation(slack, ">=", sp.Integer(0))), SOS_TIME)
    else:
        return None
    if cert is None:
        return None
    step = Step("close", goal, [], cert, note="the merged radicals")
    return step if check_step(step).ok else None


def _pair_step(goal: Goal, pair: Pair) -> Step:
    subgoals = [goal.with_target(pair.g1), goal.with_target(pair.g2)]
    return combine_step(goal, subgoals, [(sp.Integer(1), (0,)), (sp.Integer(1), (1,))],
                        "Minkowski: two square roots of sums of squares become one")


def _named_roots(goal: Goal, pair: Pair) -> tuple[Goal, dict[str, str], list[sp.Symbol], list[int]]:
    """The ``introduce`` of ``s₁ = √R₁``, ``s₂ = √R₂``, ``s₃ = √M`` (``s_i ≥ 0``, ``> 0`` when
    ``R_i`` is visibly positive, and ``s_i² = R_i``): the new goal ``c₁s₁ + c₂s₂ ≥ s₃``, the
    definitions, the new variables and the indices of their equations."""
    bases = [pair.t1.as_coeff_Mul()[1].base, pair.t2.as_coeff_Mul()[1].base, pair.merge.radicand]
    names = fresh_names(goal, ["s1", "s2", "s3"])
    syms = [var(n) for n in names]
    hyps, eqs, defs = list(goal.hypotheses), [], {}
    for b, sv in zip(bases, syms):
        defs[str(sv)] = expr_to_str(sp.sqrt(b))
        hyps.append(Relation(sv, ">" if is_positive(b, goal, True) else ">=", sp.Integer(0)))
        eqs.append(len(hyps))
        hyps.append(Relation(sv ** 2, "=", b))
    c1, c2 = pair.t1.as_coeff_Mul()[0], pair.t2.as_coeff_Mul()[0]
    total, merged = c1 * syms[0] + c2 * syms[1], pair.merge.k * syms[2]
    target = Relation(total, ">=", merged) if goal.target.op == ">=" else Relation(merged, "<=", total)
    inner = Goal(goal.variables + tuple(names), tuple(hyps), target)
    return inner, defs, syms, eqs


def square_with_sign(goal: Goal, big: sp.Expr, small: sp.Expr, squares: Step) -> Step:
    """``big ≥ small`` from ``big ≥ 0`` (positivity) and ``big² ≥ small²`` (proved by ``squares``)."""
    sign = goal.with_target(Relation(big, ">=", sp.Integer(0)))
    sq = goal.with_target(Relation(sp.expand(big ** 2), ">=", sp.expand(small ** 2)))
    return Step("square", goal, [sign, sq], SquareCertificate().to_json(),
                [Step("close", sign, [], PositivityCertificate().to_json(), note="positivity"),
                 replace(squares, goal=sq)], note="square both sides (the big side is >= 0)")


def pair_proof(goal: Goal, pair: Pair) -> Step:
    """The textbook proof of ``G₁: c₁√R₁ + c₂√R₂ ≥ k√M``: name the roots, square
    (``(c₁s₁ + c₂s₂)² − k²s₃² = 2(c₁c₂s₁s₂ − k²Σl_ir_i)`` modulo ``s_i² = R_i``), square again, and
    Lagrange's identity ``(Σl²)(Σr²) − (Σlr)² = Σ_{i<j}(l_ir_j − l_jr_i)²`` (times ``k⁴``)."""
    g1 = goal.with_target(pair.g1)
    inner, defs, (s1, s2, s3), (e1, e2, e3) = _named_roots(g1, pair)
    c1, c2 = pair.t1.as_coeff_Mul()[0], pair.t2.as_coeff_Mul()[0]
    left, right, k = pair.merge.left, pair.merge.right, pair.merge.k
    cross = sp.expand(k ** 2 * sum((a * b for a, b in zip(left, right)), sp.Integer(0)))
    product = c1 * c2 * s1 * s2
    r1 = sp.expand(k ** 2 * sum((a ** 2 for a in left), sp.Integer(0)) / c1 ** 2)
    lagrange = [sp.expand(left[i] * right[j] - left[j] * right[i])
                for i, j in itertools.combinations(range(len(left)), 2)]
    sos = SosCertificate(tuple(SosTerm(str(k ** 4), expr_to_str(q)) for q in lagrange if q != 0),
                         (EqTerm(e1, expr_to_str(sp.expand(c1 ** 2 * c2 ** 2 * s2 ** 2))),
                          EqTerm(e2, expr_to_str(sp.expand(c1 ** 2 * c2 ** 2 * r1)))))
    cauchy_goal = inner.with_target(Relation(product, ">=", cross))
    # the closing steps' goals are set by _square (each goes on its own subgoal)
    cauchy = square_with_sign(cauchy_goal, product, cross, Step("close", inner, [], sos.to_json(), note="Lagrange's identity"))
    big = c1 * s1 + c2 * s2
    squared = inner.with_target(Relation(sp.expand(big ** 2), ">=", sp.expand((k * s3) ** 2)))
    isolate = replace(rewrite_step(squared, cauchy_goal.target, sp.Integer(2),
                                   [(e1, c1 ** 2), (e2, c2 ** 2), (e3, -k ** 2)],
                                   note="Minkowski: the cross term"), children=[cauchy])
    tree = square_with_sign(inner, big, k * s3, isolate)
    return Step("introduce", g1, [inner], IntroduceCertificate(defs).to_json(), [tree],
                note="Minkowski for two radicals: name the roots")


def _proved_pair(goal: Goal, pair: Pair) -> Step | None:
    step = pair_proof(goal, pair)
    return step if check_step(step).ok else None


def proved_chain(goal: Goal, points: list[dict[sp.Symbol, float]], deadline: float) -> Step | None:
    """A complete tree: pairs merged one after the other, each pair's Minkowski inequality proved
    by :func:`pair_proof`, until the goal closes at once."""
    big, small = big_small(goal.target)
    own = _one_pair(big, small, goal.target.op)
    if own is not None:
        return _proved_pair(goal, own)
    for _, pair in _ranked_pairs(goal, big, small, points)[:PROPOSALS]:
        if time.monotonic() > deadline:
            return None
        first = _proved_pair(goal, pair)
        if first is None:
            continue
        rest_goal = goal.with_target(pair.g2)
        rest = _closed_identity_or_sign(rest_goal) or proved_chain(rest_goal, points, deadline)
        if rest is not None:
            return replace(_pair_step(goal, pair), children=[first, rest])
    return None


class MinkowskiPairs:
    """Proposes ``combine`` steps that merge two square roots of sums of squares (module docstring):
    a complete tree when every merge and the last goal are proved here, else the best merges."""

    name = "minkowski-pairs"

    def __init__(self, time_limit: float = CHAIN_TIME) -> None:
        self.time_limit = time_limit

    def accepts(self, goal: Goal) -> bool:
        """Cheap: an inequality whose big side has two square roots of visible sums of squares."""
        if not goal.target.is_inequality:
            return False
        return len(_radical_terms(big_small(goal.target)[0])) >= 2

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if not self.accepts(goal):
            return
        syms = [var(v) for v in goal.variables]
        points = domain_points(goal, syms, sp.Integer(1), SAMPLES, random.Random(0))
        if not points:
            return
        try:
            tree = proved_chain(goal, points, time.monotonic() + self.time_limit)
        except (ArithmeticError, ValueError, TypeError, sp.PolynomialError):
            tree = None    # a proposer: an odd goal means "no complete tree"
        if tree is not None:
            yield Candidate(tree, self.name, 10.0, closes=True)
            return
        big, small = big_small(goal.target)
        for _, pair in _ranked_pairs(goal, big, small, points)[:PROPOSALS]:
            yield Candidate(_pair_step(goal, pair), self.name, 3.0)
