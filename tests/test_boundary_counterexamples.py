"""Counterexamples at the boundary, with Lean's semantics (``x / 0 = 0``, ``√(-x) = 0``,
``0 ^ 0 = 1``): the oracle tries variables at 0 (alone and together) and small values, confirms
exactly, and never reports a point for a statement that is true in Lean.

Each reported point is re-checked here by an independent evaluator of Lean's semantics."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp
from typer.testing import CliRunner

from prover.cli import app
from prover.frontend import parse_theorem
from prover.ir import Goal
from prover.oracles import find_counterexample
from prover.problem import Relation, var

x, a, b = var("x"), var("a"), var("b")


def lean_value(e: sp.Expr, point: dict[str, Fraction]) -> Fraction | None:
    """Exact value of ``e`` with Lean 4 / Mathlib semantics (None: an rpow of a negative base
    other than a square root, which this checker does not evaluate)."""
    if e.is_Symbol:
        return point[str(e)]
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Add or e.is_Mul:
        vals = [lean_value(t, point) for t in e.args]
        if any(v is None for v in vals):
            return None
        acc = Fraction(0) if e.is_Add else Fraction(1)
        for v in vals:
            acc = acc + v if e.is_Add else acc * v
        return acc
    if e.is_Pow:
        base = lean_value(e.args[0], point)
        ex = e.args[1]
        if base is None:
            return None
        if ex.is_Integer:
            n = int(ex)
            if base == 0 and n < 0:
                return Fraction(0)          # 0⁻¹ = 0
            return base**n
        if ex.is_Rational:
            if base == 0:
                return Fraction(0)          # 0 ^ y = 0 for y ≠ 0
            if base < 0:
                return Fraction(0) if ex.q == 2 else None   # √(negative) = 0
            root = sp.Rational(base.numerator, base.denominator) ** ex
            return Fraction(str(root)) if root.is_Rational else None
    return None


def lean_holds(rel: Relation, point: dict[str, Fraction]) -> bool | None:
    lhs, rhs = lean_value(sp.sympify(rel.lhs), point), lean_value(sp.sympify(rel.rhs), point)
    if lhs is None or rhs is None:
        return None
    return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs, "=": lhs == rhs,
            "!=": lhs != rhs}[rel.op]


def refutes_in_lean(goal: Goal, ce: dict) -> bool:
    point = {k: Fraction(str(v)) for k, v in ce.items()}
    return all(lean_holds(h, point) is True for h in goal.hypotheses) and lean_holds(goal.target, point) is False


# (statement, false in Lean?) — pairs that differ only at the boundary
PAIRS = [
    ("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : a / b + b / a ≥ 2", True),    # a = 0: 0 + 0 < 2
    ("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2", False),
    ("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : a / b ≥ 0", False),           # b = 0: 0 ≥ 0
    ("theorem t (x : ℝ) : (x ^ 2 + x) / x = x + 1", True),                            # x = 0: 0 ≠ 1
    ("theorem t (x : ℝ) (hx : x ≠ 0) : (x ^ 2 + x) / x = x + 1", False),
    ("theorem t (x : ℝ) : Real.sqrt x + x ≥ 0", True),                                # x = -1: 0 - 1
    ("theorem t (x : ℝ) (hx : 0 ≤ x) : Real.sqrt x + x ≥ 0", False),
    ("theorem t (x : ℝ) : Real.sqrt x ≥ 0", False),                                   # √ is 0 below 0
    ("theorem t (a b : ℝ) (h : a ≥ b) : 1 / (a - b) > 0", True),                      # a = b: 0 > 0
    ("theorem t (a b : ℝ) (h : a ≥ b) : 1 / (a - b) ≥ 0", False),
    ("theorem t (x : ℝ) (hx : 0 ≤ x) : x / (x + 1) < 1", False),
    ("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : (a + b) / (a * b) ≥ 0", False),  # a = 0: 0
    ("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : (a + b) / (a * b) > 0", True),
]


@pytest.mark.parametrize(("text", "false"), PAIRS, ids=[f"{'F' if f else 'T'}{i}" for i, (_, f) in enumerate(PAIRS)])
def test_boundary_pairs(text: str, false: bool) -> None:
    goal = Goal.from_problem(parse_theorem(text))
    ce = find_counterexample(goal, 1.0 if not false else 5.0)
    if false:
        assert ce is not None, text
        assert refutes_in_lean(goal, dict(ce)), dict(ce)
        assert ce.slack_float <= 0 and ce.slack.is_Rational, ce.slack  # Lean's value, not zoo
    else:
        assert ce is None, dict(ce)


def test_oracle_on_goals_the_front_end_refuses() -> None:
    """``x / x = 1`` (sympy would make it 1) and ``√x · √x ≥ x`` (sympy: ``x ≥ x``) are refused by
    the front-end as unfaithful; the oracle itself evaluates their unsimplified form as Lean does."""
    x_over_x = sp.Mul(x, sp.Pow(x, -1), evaluate=False)
    g = Goal(("x",), (), Relation(x_over_x, "=", sp.Integer(1)))
    ce = find_counterexample(g, 2.0)
    assert ce is not None and dict(ce) == {"x": 0}
    sq = sp.Mul(sp.sqrt(x), sp.sqrt(x), evaluate=False)
    assert find_counterexample(Goal(("x",), (), Relation(sq, ">=", x)), 1.0) is None  # x < 0: 0 ≥ x
    ce = find_counterexample(Goal(("x",), (), Relation(sq, "=", x)), 2.0)            # x < 0: 0 ≠ x
    assert ce is not None and ce["x"] < 0


def test_zero_to_the_zero_is_one() -> None:
    g = Goal(("a",), (Relation(a, ">=", 0),), Relation(a**a, ">=", sp.Rational(1, 2)))
    assert find_counterexample(g, 1.0) is None      # 0 ^ 0 = 1 and a^a ≥ e^(-1/e) > 1/2
    g = Goal(("a",), (Relation(a, ">=", 0),), Relation(a**a, "<", 1))
    ce = find_counterexample(g, 2.0)   # a = 0 or a ≥ 1 (a^a = 1 at 0: Lean's 0 ^ 0)
    assert ce is not None and (ce["a"] == 0 or ce["a"] >= 1)


def test_cli_reports_the_boundary_counterexample() -> None:
    res = CliRunner().invoke(app, ["prove", "--json", "--time-limit", "20",
                                   "theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : a / b + b / a ≥ 2 := by sorry"])
    assert res.exit_code == 1, res.output
    out = json.loads(res.stdout)
    assert out["status"] == "counterexample"
    ce = {k: Fraction(v) for k, v in out["counterexample"].items()}
    assert ce["a"] == 0 or ce["b"] == 0
    goal = Goal.from_problem(parse_theorem("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : a / b + b / a ≥ 2"))
    assert refutes_in_lean(goal, ce)
