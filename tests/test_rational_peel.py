"""Rational peel (issue #31): ``F(X) ≤ F(Y)`` from ``X ≤ Y`` for one rational ``F`` on both sides —
the textbook transformations ``1/t`` (sides swap), ``t/(1+t)``, ``t + 1/t`` on ``t ≥ 1``, ``t³`` —
as a ``combine`` step ``F(Y) − F(X) = (Y − X)·Q(X, Y)`` the kernel checks exactly. The attacks:
a step whose order subgoal is reversed, or whose factor is not the difference quotient, is
rejected by the kernel; an affine ``F`` or a side without the other's function gives no step."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from prover.api import prove
from prover.frontend import parse_theorem
from prover.ir import Goal, Proof
from prover.kernel.check import Kernel, KernelError
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.problem import Relation, var
from prover.rewrite import RationalPeel, symbolic_generators
from prover.rewrite.rational_peel import peel_steps
from prover.search.close import close_goal
from prover.verify import check_proof

HEAD = "theorem t (p q : ℝ) (hp : 0 < p) (hq : 0 < q) : "
P, Q = var("p"), var("q")


def _goal(stmt: str) -> Goal:
    return Goal.from_problem(parse_theorem(HEAD + stmt))


def _steps(stmt: str) -> list:
    return list(peel_steps(_goal(stmt)))


def test_reciprocals_swap_the_sides_and_the_kernel_accepts() -> None:
    [step] = _steps("1 / (p * q + 1) ≥ 1 / (p + q + 3)")
    order, factor = step.subgoals
    assert order.target == Relation(P * Q + 1, "<=", P + Q + 3)
    assert factor.target.lhs == 0 and sp.simplify(factor.target.rhs - 1 / ((P * Q + 1) * (P + Q + 3))) == 0
    assert order.hypotheses == factor.hypotheses == step.goal.hypotheses
    Kernel().check_one(step)


def test_t_over_one_plus_t_and_t_plus_one_over_t_and_cubes() -> None:
    for stmt, f in [("p * q / (1 + p * q) ≤ (p ^ 2 + q ^ 2) / (1 + (p ^ 2 + q ^ 2))", "t/(t + 1)"),
                    ("(p * q + 1) + 1 / (p * q + 1) ≤ (p ^ 2 + q ^ 2 + 1) + 1 / (p ^ 2 + q ^ 2 + 1)", "t + 1/t"),
                    ("(p * q) ^ 3 ≤ ((p ^ 2 + q ^ 2) / 2) ^ 3", "t**3")]:
        steps = _steps(stmt)
        assert steps, stmt
        for step in steps:
            Kernel().check_one(step)
        assert any(sp.simplify(sp.sympify(step.note.split("↦ ")[1].split(":")[0]) - sp.sympify(f)) == 0
                   for step in steps), [s.note for s in steps]


def test_a_constant_side_is_read_through_a_rational_root_of_f() -> None:
    steps = _steps("(1 : ℝ) / 2 ≤ (p + 1) / (1 + (p + 1))")
    assert any(s.subgoals[0].target == Relation(sp.Integer(1), "<=", P + 1) for s in steps)
    for s in steps:
        Kernel().check_one(s)


def test_an_even_power_against_a_constant_tries_the_nonnegative_root_first() -> None:
    """``X² ≤ 1``: ``t² = 1`` has the roots 1 and −1; the first step peels to ``X ≤ 1`` (sympy's first
    root alone gave only ``X ≤ −1``, false for a positive ``X``), and both are kernel-checked."""
    steps = _steps("(p / (p + q) + q / (p + q)) ^ 2 ≤ 1")
    assert steps and steps[0].subgoals[0].target.rhs == 1
    assert {s.subgoals[0].target.rhs for s in steps} <= {1, -1}
    for s in steps:
        Kernel().check_one(s)


def test_strict_goals_give_strict_subgoals() -> None:
    [step] = _steps("1 / (p * q + 1) > 1 / (p + q + 3)")
    assert all(s.target.op == "<" for s in step.subgoals)
    Kernel().check_one(step)


def test_no_step_for_affine_functions_or_different_functions() -> None:
    assert _steps("2 * (p * q) + 1 ≤ 2 * (p ^ 2 + q ^ 2) + 1") == []
    assert _steps("1 / (p * q + 1) ≥ (p + q) / (p + q + 3)") == []


def test_tampered_steps_are_rejected_by_the_kernel() -> None:
    [step] = _steps("1 / (p * q + 1) ≥ 1 / (p + q + 3)")
    order, factor = step.subgoals
    reversed_order = order.with_target(Relation(order.target.rhs, "<=", order.target.lhs))
    for bad in (dataclasses.replace(step, subgoals=[reversed_order, factor]),
                dataclasses.replace(step, subgoals=[order, factor.with_target(Relation(sp.Integer(0), "<=", sp.Integer(1)))]),
                dataclasses.replace(step, certificate={"terms": [{"coeff": "2", "factors": [0, 1]}]})):
        with pytest.raises(KernelError):
            Kernel().check_one(bad)


def test_the_generator_is_in_the_default_list_and_a_peel_proof_renders_and_replays() -> None:
    assert any(isinstance(g, RationalPeel) for g in symbolic_generators())
    # the 4-term AM-GM under t ↦ t/(1+t) (families/amgm_root's transformation), peeled; the closers'
    # normal form now proves it whole too (the root's variables as fourth powers), so the peel
    # step is built here and its two subgoals closed
    problem = parse_theorem("theorem t (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) : "
                            "4 * (x * y * z * w) ^ (1 / 4 : ℝ) / (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ)) ≤ "
                            "(x + y + z + w) / (1 + (x + y + z + w))")
    step = next(c.step for c in RationalPeel().generate(Goal.from_problem(problem)))
    step.children = [close_goal(g, 60) for g in step.subgoals]
    assert all(c is not None for c in step.children)
    proof = Proof(problem, step)
    assert check_proof(proof).ok
    rep = replay_text(render_proof(proof))
    assert rep.ok, rep.summary()


def test_the_search_proves_the_peeled_statement() -> None:
    res = prove("theorem t (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) : "
                "4 * (x * y * z * w) ^ (1 / 4 : ℝ) / (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ)) ≤ "
                "(x + y + z + w) / (1 + (x + y + z + w))", time_limit=120)
    assert res.status == "proved", res.status
