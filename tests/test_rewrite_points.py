"""The shared goal helpers: equality points and sampled points (prover/rewrite/points.py), the
hypothesis of a variable (prover/rewrite/facts.py), ``replace_radical`` (prover/rewrite/base.py)."""

from __future__ import annotations

import random

import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal
from prover.rewrite import points as P
from prover.rewrite.base import replace_radical, symbols_of
from prover.rewrite.facts import nonneg_hyp_index, nonneg_hyp_of
from prover.tactics.match import equality_point

a, b, c, t = sp.symbols("a b c t", real=True)
POS3 = "(a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0)"


def goal(text: str) -> Goal:
    return Goal.from_problem(parse_theorem(f"theorem t {text} := by sorry"))


def test_positive_rational_roots() -> None:
    x = sp.Symbol("x", positive=True)
    assert P.positive_rational_roots((x - 2) * (x + 3) * (2 * x - 1) / (x + 1), x) == [sp.Rational(1, 2), 2]
    assert P.positive_rational_roots(x - x, x) is None          # vanishes identically
    assert P.positive_rational_roots(x ** 2 - 2, x) == []          # no rational root


def test_three_equality_points_for_three_uses() -> None:
    g = goal(f"{POS3} (h : a + b + c = 3) : a^2+b^2+c^2 ≥ 3")
    syms = symbols_of(g)
    assert P.equality_points(g, syms, g.target.slack()) == [1]
    assert P.constraint_point(g, syms) == 1
    assert P.equal_variables_point(g) == {a: 1, b: 1, c: 1}
    # tight at a = 2 on the diagonal: the tangent planes' point; no constraint: 1 for the radical
    # groups; not tight at all-equal-to-1 and no constraint fixing the scale: none for the matcher
    g = goal("(a : ℝ) : a^2 + 4 ≥ 4*a")
    syms = symbols_of(g)
    assert P.equality_points(g, syms, g.target.slack()) == [2]
    assert P.constraint_point(g, syms) == 1
    assert P.equal_variables_point(g) is None
    # constraints with no common point on the diagonal
    g = goal("(a b : ℝ) (ha : 0 < a) (hb : 0 < b) (h : a + b = 1) (h2 : a * b = 3) : a + b ≥ 1")
    syms = symbols_of(g)
    assert P.diagonal_constraint_values(g, syms) == []
    assert P.equality_points(g, syms, g.target.slack()) == []
    assert P.constraint_point(g, syms) is None


def test_the_constraints_fix_the_scale_of_a_homogeneous_slack() -> None:
    g = goal("(a b : ℝ) (ha : 0 < a) (hb : 0 < b) (h : a * b = 4) : a^2 + b^2 ≥ 2*a*b")
    syms = symbols_of(g)
    assert P.diagonal_constraint_values(g, syms) == [2]
    assert P.equality_points(g, syms, g.target.slack()) == [2]
    assert P.constraint_point(g, syms) == 2


def test_the_matcher_keeps_its_name() -> None:
    assert equality_point is P.equal_variables_point


def test_sampled_points_satisfy_the_hypotheses_and_the_solved_constraint() -> None:
    g = goal(f"{POS3} (h : a + b + c = 3) : a^2+b^2+c^2 ≥ 3")
    syms = symbols_of(g)
    assert P.solved_constraint(g, syms) == (c, 3 - a - b)
    pts = P.domain_points(g, syms, sp.Integer(1), 40, random.Random(1))
    assert pts and all(p[a] > 0 and p[b] > 0 and p[c] >= 0 for p in pts)
    assert all(abs(p[a] + p[b] + p[c] - 3) < 1e-9 for p in pts)
    # the same as sampling, then projecting by hand
    raw = P.sample_points(g, syms, sp.Integer(1), 40, random.Random(1))
    assert P.project_points(g, syms, raw, (c, 3 - a - b)) == pts
    # an equality that is not solved for a variable of degree 1: no evidence at all
    g = goal(f"{POS3} (h : a^2 + b^2 + c^2 = 3) : a + b + c ≤ 3")
    assert P.solved_constraint(g, symbols_of(g)) is None
    assert P.domain_points(g, symbols_of(g), sp.Integer(1), 20, random.Random(1)) == []


def test_the_hypothesis_of_a_variable() -> None:
    g = goal("(a b c : ℝ) (h0 : a + b > c) (ha : 0 < a) (hb : b ≥ 0) (ha' : a ≥ 0) : a + b + c ≥ 0")
    assert [nonneg_hyp_of(g, x) for x in (a, b, c)] == [1, 2, None]
    assert nonneg_hyp_index(g) == {"a": 1, "b": 2}
    assert nonneg_hyp_of(g, sp.Symbol("a")) is None   # compared exactly, assumptions included
    assert nonneg_hyp_index(g).get("a") == 1          # by name


def test_replace_radical() -> None:
    e = sp.sqrt(a + b) + (a + b) ** sp.Rational(3, 2) + sp.sqrt(a)
    assert replace_radical(e, a + b, t) == t + t ** 3 + sp.sqrt(a)
