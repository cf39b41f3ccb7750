"""Cauchy–Schwarz for two square roots: ``√(a₁b₁) + √(a₂b₂) ≤ √((a₁ + a₂)(b₁ + b₂))`` (``a_i, b_i ≥ 0``).

Why: ``1 + √(ab) ≤ √((1 + a)(1 + b))``, ``√(ab) + √(pq) ≤ √((a + p)(b + q))``,
``a + √(bc) ≤ √((a + b)(a + c))`` are one inequality (Cauchy–Schwarz for the vectors
``(√a₁, √a₂)``, ``(√b₁, √b₂)``) in many disguises; after a substitution (``q ↦ 2(q + 2)``,
``z ↦ 1/z``) the search's squarings no longer find it within the budget. The textbook proof is
short and is built here, not searched for.

The match: a goal ``T₁ + T₂ ≤ c·√(A·B)`` (``T_i`` a rational multiple of a square root, or a
part without roots, ``T = √(T²)``); the products ``a_ib_i = P_i`` (``T_i/(cμ) = √P_i``) are split
into factors so that ``a₁ + a₂ = A`` and ``b₁ + b₂ = B`` exactly (one term's split fixes the other
term's). ``μ = 1``, or ``μ < 1`` taken from a term's coefficient when the small side was weakened
(``(19/20)·(…)``): then ``slack(G) = cμ·slack(G₁) + c(1 − μ)·√(AB)`` (a ``combine`` with
``0 ≤ √(AB)``).

The proof of ``G₁: u₁ + u₂ ≤ √(AB)``: name the roots (``s_i² = P_i``, ``s² = AB``), square
(``s² − (u₁ + u₂)² = a₁b₂ + a₂b₁ − 2u₁u₂`` modulo the equations), square again
(``(a₁b₂ + a₂b₁)² − 4a₁b₁a₂b₂ = (a₁b₂ − a₂b₁)²``). Nothing here is trusted: the whole tree is
checked by the kernel before it is proposed.
"""

from __future__ import annotations

import itertools
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
)
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, big_small, fraction_factors, fresh_names, is_positive, rewrite_step
from prover.rewrite.minkowski import square_with_sign
from prover.rewrite.separable import combine_step
from prover.verify import check_step

#: Factor splits tried per product (exponent choices of its factors).
MAX_SPLITS = 64


@dataclass(frozen=True)
class Piece:
    """``u = r·√P`` (``root`` the ``√P`` of the goal) or ``u = value`` without roots (``P = value²``)."""

    r: sp.Rational
    root: sp.Expr | None
    product: sp.Expr
    value: sp.Expr


@dataclass(frozen=True)
class Match:
    """``a_ib_i = P_i`` with ``Σa = A``, ``Σb = B``, for the two pieces."""

    pieces: tuple[Piece, Piece]
    a: tuple[sp.Expr, sp.Expr]
    b: tuple[sp.Expr, sp.Expr]


def _root_and_radicand(big: sp.Expr) -> tuple[sp.Rational, sp.Expr, sp.Expr] | None:
    """``big = c·√Q``: ``(c, √Q, Q)``, ``c > 0`` rational."""
    c, rest = sp.sympify(big).as_coeff_Mul()
    if c.is_Rational and c > 0 and isinstance(rest, sp.Pow) and rest.exp == sp.S.Half:
        return c, rest, rest.base
    return None


def _is_root(e: sp.Expr) -> bool:
    return any(isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer
               for n in sp.preorder_traversal(e))


def pieces_of(small: sp.Expr, scale: sp.Rational) -> tuple[Piece, Piece] | None:
    """The small side divided by ``scale`` as two pieces: its square-root terms and, when there is
    one, the sum of its terms without roots."""
    plain, roots = sp.Integer(0), []
    for t in sp.Add.make_args(sp.expand(small / scale, deep=False)):
        if _is_root(t):
            roots.append(t)
        else:
            plain += t
    pieces = [Piece(sp.Integer(1), None, sp.expand(plain ** 2), plain)] if plain != 0 else []
    for t in roots:
        r, rest = t.as_coeff_Mul()
        if not (r.is_Rational and r > 0 and isinstance(rest, sp.Pow) and rest.exp == sp.S.Half):
            return None
        pieces.append(Piece(r, rest, r ** 2 * rest.base, t))
    return (pieces[0], pieces[1]) if len(pieces) == 2 else None


def splits(product: sp.Expr) -> Iterator[tuple[sp.Expr, sp.Expr]]:
    """``(a, b)`` with ``a·b = product``: ``a`` takes some of the factors (and the constant or not)."""
    ff = fraction_factors(product)
    if ff is None:
        return
    c, top, bottom = ff
    factors = [(f, k) for f, k in top] + [(f, -k) for f, k in bottom]
    choices = [range(k + 1) if k > 0 else range(k, 1) for _, k in factors]
    for n, exps in enumerate(itertools.product(*choices)):
        if n >= MAX_SPLITS:
            return
        a = sp.Mul(*(f ** e for (f, _), e in zip(factors, exps)))
        for coeff_a in {sp.Integer(1), c}:
            yield coeff_a * a, sp.cancel(product / (coeff_a * a))


def find_match(pieces: tuple[Piece, Piece], A: sp.Expr, B: sp.Expr) -> Match | None:
    """A split of one piece's product whose complements ``A − a``, ``B − b`` multiply to the other's."""
    for first in (0, 1):
        p, q = pieces[first], pieces[1 - first]
        for X, Y in ((A, B), (B, A)):
            for a, b in splits(p.product):
                a2, b2 = sp.cancel(X - a), sp.cancel(Y - b)
                if a2 == 0 or b2 == 0 or sp.cancel(a2 * b2 - q.product) != 0:
                    continue
                aa, bb = ((a, a2), (b, b2)) if first == 0 else ((a2, a), (b2, b))
                return Match(pieces, aa, bb) if X is A else Match(pieces, bb, aa)
    return None


def _named(goal: Goal, match: Match, root: sp.Expr
           ) -> tuple[Goal, dict[str, str], list[sp.Expr], dict[int, int], int, sp.Symbol]:
    """``introduce`` of the pieces' roots and of ``s = √(AB)``: the inner goal ``u₁ + u₂ ≤ s``,
    the definitions, the pieces' values in the new variables, ``piece -> index of s_i² = P_i``,
    the index of ``s² = AB``, and ``s``."""
    radicals = [p.root for p in match.pieces if p.root is not None] + [root]
    names = fresh_names(goal, [f"s{i + 1}" for i in range(len(radicals))])
    hyps, defs, eq_of = list(goal.hypotheses), {}, {}
    syms = [var(n) for n in names]
    for rad, sv in zip(radicals, syms):
        defs[str(sv)] = expr_to_str(rad)
        hyps.append(Relation(sv, ">" if is_positive(rad.base, goal, True) else ">=", sp.Integer(0)))
        hyps.append(Relation(sv ** 2, "=", rad.base))
    values, k = [], 0
    for i, p in enumerate(match.pieces):
        if p.root is None:
            values.append(p.value)
        else:
            values.append(p.r * syms[k])
            eq_of[i] = len(goal.hypotheses) + 2 * k + 1
            k += 1
    s = syms[-1]
    inner = Goal(goal.variables + tuple(names), tuple(hyps), Relation(values[0] + values[1], "<=", s))
    return inner, defs, values, eq_of, len(hyps) - 1, s


def pair_proof(goal: Goal, match: Match, root: sp.Expr) -> Step:
    """The proof of ``goal: u₁ + u₂ ≤ √(AB)`` (module docstring)."""
    inner, defs, (v1, v2), eq_of, e_s, s = _named(goal, match, root)
    (a1, a2), (b1, b2) = match.a, match.b
    cross = sp.expand(a1 * b2 + a2 * b1)
    product = sp.expand(2 * v1 * v2)
    eqs = [(e_s, sp.Integer(1))] + [(eq_of[i], -match.pieces[i].r ** 2) for i in eq_of]
    # (a₁b₂ + a₂b₁)² − 4v₁²v₂² = (a₁b₂ − a₂b₁)² + 4(a₁b₁a₂b₂ − v₁²v₂²), the last modulo s_i² = P_i
    p1, p2 = match.pieces
    if 0 in eq_of and 1 in eq_of:
        k = 4 * p1.r ** 2 * p2.r ** 2
        eq_terms = [EqTerm(eq_of[0], expr_to_str(sp.expand(-k * (v2 / p2.r) ** 2))),
                    EqTerm(eq_of[1], expr_to_str(sp.expand(-k * p1.product / p1.r ** 2)))]
    else:
        i = next(iter(eq_of))
        other = match.pieces[1 - i]
        k = 4 * match.pieces[i].r ** 2
        eq_terms = [EqTerm(eq_of[i], expr_to_str(sp.expand(-k * other.value ** 2)))]
    lagrange = sp.cancel(a1 * b2 - a2 * b1)
    sos = SosCertificate((SosTerm("1", expr_to_str(lagrange)),) if lagrange != 0 else (), tuple(eq_terms))
    amgm_goal = inner.with_target(Relation(cross, ">=", product))
    amgm = square_with_sign(amgm_goal, cross, product, Step("close", inner, [], sos.to_json(), note="AM-GM"))
    total = v1 + v2
    squared = inner.with_target(Relation(s ** 2, ">=", sp.expand(total ** 2)))
    isolate = replace(rewrite_step(squared, amgm_goal.target, sp.Integer(1), eqs, note="Cauchy: the cross term"),
                      children=[amgm])
    tree = square_with_sign(inner, s, total, isolate)
    return Step("introduce", goal, [inner], IntroduceCertificate(defs).to_json(), [tree],
                note="Cauchy-Schwarz for two square roots: name the roots")


def cauchy_tree(goal: Goal) -> Step | None:
    """A complete, kernel-checked tree for ``goal`` by Cauchy–Schwarz for two roots, or None."""
    if goal.target.op not in ("<=", ">="):
        return None
    big, small = big_small(goal.target)
    found = _root_and_radicand(big)
    if found is None:
        return None
    c, root, Q = found
    factors = [f for f in sp.Mul.make_args(Q) if not f.is_Number]
    if len(factors) != 2:
        return None
    k = sp.Mul(*(f for f in sp.Mul.make_args(Q) if f.is_Number))
    A, B = k * factors[0], factors[1]
    for mu in _scales(small, c):
        pieces = pieces_of(small, c * mu)
        match = find_match(pieces, A, B) if pieces is not None else None
        if match is None:
            continue
        step = _with_scale(goal, match, root, Q, c, mu)
        if check_step(step).ok:
            return step
    return None


def _scales(small: sp.Expr, c: sp.Rational) -> list[sp.Rational]:
    """``μ = 1``, then ``μ < 1`` from the small side's coefficients (a weakened small side)."""
    out = [sp.Integer(1)]
    for t in sp.Add.make_args(sp.expand(small)):
        r = t.as_coeff_Mul()[0]
        if r.is_Rational and 0 < r / c < 1 and r / c not in out:
            out.append(r / c)
    return out[:3]


def _with_scale(goal: Goal, match: Match, root: sp.Expr, Q: sp.Expr, c: sp.Rational, mu: sp.Rational) -> Step:
    u = match.pieces[0].value + match.pieces[1].value
    g1 = goal.with_target(Relation(u, "<=", root))
    proof1 = pair_proof(g1, match, root)
    if c * mu == 1:
        return proof1 if goal.target == g1.target else replace(
            rewrite_step(goal, g1.target, sp.Integer(1), note="Cauchy-Schwarz"), children=[proof1])
    if mu == 1:
        return replace(rewrite_step(goal, g1.target, c, note="Cauchy-Schwarz, scaled"), children=[proof1])
    g2 = goal.with_target(Relation(root, ">=", sp.Integer(0)))
    step = combine_step(goal, [g1, g2], [(c * mu, (0,)), (c * (1 - mu), (1,))],
                        "Cauchy-Schwarz for the unweakened sides, and the root's sign")
    return replace(step, children=[proof1, Step("close", g2, [], PositivityCertificate().to_json(), note="positivity")])


class CauchyRoots:
    """Proposes the complete tree of :func:`cauchy_tree` (``closes=True``)."""

    name = "cauchy-roots"

    def accepts(self, goal: Goal) -> bool:
        """Cheap: ``T₁ + T₂ ≤ c·√(A·B)`` with two pieces on the small side."""
        if goal.target.op not in ("<=", ">="):
            return False
        big, small = big_small(goal.target)
        found = _root_and_radicand(big)
        if found is None or len([f for f in sp.Mul.make_args(found[2]) if not f.is_Number]) != 2:
            return False
        return pieces_of(small, found[0]) is not None

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if not self.accepts(goal):
            return
        try:
            tree = cauchy_tree(goal)
        except (ArithmeticError, ValueError, TypeError, sp.PolynomialError):
            tree = None    # a proposer: an odd goal means "does not apply"
        if tree is not None:
            yield Candidate(tree, self.name, 10.0, closes=True, prechecked=True)
