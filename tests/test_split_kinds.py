"""Two inequalities added, proved part by part (``prover.rewrite.split_kinds``): the terms of one
kind (radicals, fractions, polynomials) against the others, the constant split at each part's
minimum; every step kernel-checked, and no step where the parts' minima cannot carry the constant."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal
from prover.kernel.check import Kernel, KernelError
from prover.problem import Relation
from prover.rewrite.split_kinds import split_steps, term_kind


def _goal(stmt: str) -> Goal:
    return Goal.from_problem(parse_theorem(stmt))


def _steps(stmt: str) -> list:
    import time

    return list(split_steps(_goal(stmt), time.monotonic() + 5))


def test_kinds() -> None:
    x, y = sp.symbols("x y", positive=True)
    assert term_kind(sp.sqrt(x * y)) == "radical"
    assert term_kind(1 / (1 + x ** 2)) == "fraction"
    assert term_kind(3 * x * y + sp.sqrt(2) * x) == "polynomial"


def test_a_tangent_sum_plus_a_root_inequality_splits_at_the_equality_case() -> None:
    stmt = ("theorem t (x y z : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (h : x + y + 1 / z = 3) : "
            "1 / (1 + x ^ 2) + 1 / (1 + y ^ 2) + 1 / (1 + (1 / z) ^ 2) + √((1 + y) * (1 + x)) "
            "≥ (3 : ℝ) / 2 + (1 + √(y * x)) := by sorry")
    [step] = _steps(stmt)
    Kernel().check_one(step)
    fractions, roots = (s.target for s in step.subgoals)
    assert fractions.rhs == sp.Rational(3, 2) and roots.rhs == 1
    assert all(s.hypotheses == step.goal.hypotheses for s in step.subgoals)


def test_no_split_where_the_parts_cannot_carry_the_constant() -> None:
    assert _steps("theorem t (a : ℝ) (ha : 0 < a) : a + 1 / a ≥ 2 := by sorry") == []
    assert _steps("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2 := by sorry") == []


def test_a_strict_goal_gets_strict_parts_or_a_positive_spare() -> None:
    stmt = ("theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : "
            "x ^ 2 + y ^ 2 - 2 * x * y + √(x * y + 1) > (1 : ℝ) / 2 := by sorry")
    steps = _steps(stmt)
    assert steps
    for step in steps:
        Kernel().check_one(step)
        tampered = step.goal.with_target(Relation(step.goal.target.lhs, ">", step.goal.target.rhs + 1))
        with pytest.raises(KernelError):
            Kernel().check_one(type(step)(step.kind, tampered, step.subgoals, step.certificate))
