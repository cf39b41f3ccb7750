"""Per-term tangent lines under a separable constraint ``Σ φ_x(x) + c₀ = 0`` (``prover.rewrite.tangent``):
the constraint and the terms may differ per variable (substitutions ``x ↦ x²``, ``d ↦ 3d``,
``x ↦ 1/x`` of a symmetric statement), and a weakened bound leaves a positive constant. Each step
is checked by the kernel; false or untight statements get no step."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.ir import Goal
from prover.problem import Relation, var
from prover.rewrite.tangent import tangent_line_step
from prover.verify import Kernel

a, b, c, d = (var(x) for x in "abcd")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (a, b, c, d))


def _goal(target: Relation, constraint: Relation, hyps: tuple[Relation, ...] = POS) -> Goal:
    return Goal(("a", "b", "c", "d"), hyps + (constraint,), target)


def _checked(goal: Goal) -> str:
    step = tangent_line_step(goal)
    assert step is not None and step.kind == "close" and step.certificate["method"] == "sos"
    Kernel(None).check_one(step)
    return step.note


def test_squares_in_the_constraint_and_a_rescaled_variable() -> None:
    """Σ 1/(1 + x⁴) ≥ 2 under a² + b² + c² + (3d)² = 4: touching at a = b = c = 1, d = 1/3."""
    f = sum(1 / (1 + x ** 4) for x in (a, b, c)) + 1 / (1 + (3 * d) ** 4)
    note = _checked(_goal(Relation(f, ">=", sp.Integer(2)), Relation(a ** 2 + b ** 2 + c ** 2 + (3 * d) ** 2, "=", sp.Integer(4))))
    assert "d = 1/3" in note


def test_a_weakened_bound_leaves_a_constant() -> None:
    f = sum(x / (3 + x ** 2) for x in (a, b, c, d))
    _checked(_goal(Relation(f, "<=", sp.Rational(21, 20)), Relation(a + b + c + d, "=", sp.Integer(4))))


def test_reciprocals_in_the_constraint() -> None:
    """x ↦ 1/x of Σ x/(3 + x²) ≤ 1 under Σ x = 4."""
    f = sum((1 / x) / (3 + (1 / x) ** 2) for x in (a, b, c, d))
    _checked(_goal(Relation(f, "<=", sp.Integer(1)), Relation(1 / a + 1 / b + 1 / c + 1 / d, "=", sp.Integer(4))))


def test_false_or_untight_bounds_get_no_step() -> None:
    f = sum(x / (3 + x ** 2) for x in (a, b, c, d))
    con = Relation(a + b + c + d, "=", sp.Integer(4))
    assert tangent_line_step(_goal(Relation(f, "<=", sp.Rational(99, 100)), con)) is None   # false at 1,1,1,1
    g = sum(1 / (1 + x ** 4) for x in (a, b, c, d))
    assert tangent_line_step(_goal(Relation(g, ">=", sp.Rational(21, 10)),
                                   Relation(a ** 2 + b ** 2 + c ** 2 + d ** 2, "=", sp.Integer(4)))) is None


def test_no_step_where_a_term_bound_needs_a_sign_the_hypotheses_do_not_give() -> None:
    """x/(3 + x²) ≤ 1/4 + (x − 1)/8 fails for x < −3: without ``x > 0`` nothing is proposed."""
    f = sum(x / (3 + x ** 2) for x in (a, b, c, d))
    assert tangent_line_step(_goal(Relation(f, "<=", sp.Integer(1)), Relation(a + b + c + d, "=", sp.Integer(4)), ())) is None


def test_the_closer_runs_it_first() -> None:
    from prover.search.close import close_goal

    f = sum(1 / (1 + x ** 4) for x in (a, b, c)) + 1 / (1 + (3 * d) ** 4)
    step = close_goal(_goal(Relation(f, ">=", sp.Integer(2)), Relation(a ** 2 + b ** 2 + c ** 2 + (3 * d) ** 2, "=", sp.Integer(4))), 10)
    assert step is not None and "tangent line" in step.note


def _check_tree(step) -> None:
    Kernel(None).check_one(step)
    assert len(step.children) == len(step.subgoals)
    for child in step.children:
        _check_tree(child)


def _abc(target: Relation, constraint: Relation, hyps: tuple[Relation, ...] = POS[:3]) -> Goal:
    return Goal(("a", "b", "c"), hyps + (constraint,), target)


def test_the_others_sum_read_through_the_constraint_and_bounded_range() -> None:
    """Σ 1/(a² + b + c) ≤ 1 under a + b + c = 3: b + c is 3 − a, and 1/(a² − a + 3) ≤ 1/3 + (a − 1)/9
    holds only for a ≤ 3 — the bound a < 3 comes from the constraint and b, c > 0."""
    f = 1 / (a ** 2 + b + c) + 1 / (b ** 2 + c + a) + 1 / (c ** 2 + a + b)
    step = tangent_line_step(_abc(Relation(f, "<=", sp.Integer(1)), Relation(a + b + c, "=", sp.Integer(3))))
    assert step is not None and step.kind == "rewrite"
    _check_tree(step)
    bounds = step.children[0]
    assert Relation(a, "<", sp.Integer(3)) in bounds.subgoals[0].hypotheses


def test_a_weighted_constraint_gives_each_variable_its_own_bound() -> None:
    """Σ 1/(1 + x²) ≤ 27/10 with a ↦ a/2: the constraint a/2 + b + c = 1 bounds a by 2."""
    f = 1 / (1 + (a / 2) ** 2) + 1 / (1 + b ** 2) + 1 / (1 + c ** 2)
    step = tangent_line_step(_abc(Relation(f, "<=", sp.Rational(27, 10)),
                                  Relation(a / 2 + b + c, "=", sp.Integer(1))))
    assert step is not None
    _check_tree(step)
    assert Relation(a, "<", sp.Integer(2)) in step.subgoals[0].hypotheses


def test_no_bounds_without_the_others_positive_and_no_proof_of_a_false_bound() -> None:
    from prover.rewrite.tangent import upper_bounds_by_constraint

    f = 1 / (1 + a ** 2) + 1 / (1 + b ** 2) + 1 / (1 + c ** 2)
    con = Relation(a + b + c, "=", sp.Integer(1))
    unsigned = _abc(Relation(f, "<=", sp.Rational(27, 10)), con, POS[:2])
    assert upper_bounds_by_constraint(unsigned) is None          # c may be negative: a < 1 is not implied
    assert tangent_line_step(_abc(Relation(f, "<=", sp.Rational(26, 10)), con)) is None   # false at 1/3


@pytest.mark.parametrize("name", ["tangent_sum3_3", "tangent_sum3_23", "tangent_sum4_12"])
def test_saved_tangent_proofs_render_and_replay(name: str) -> None:
    """Proofs found by ``prover prove`` on train-family statements: the others' sum read through the
    constraint (two equality terms of one hypothesis in one rewrite: the renderer adds them), the
    bounds as new hypotheses, and the tangent close; every file passes the replay model (session 25's
    proof of ``tangent_sum4_12`` cleared every denominator: a 56 KB file over the tactic budget)."""
    from pathlib import Path

    from prover.ir import Proof
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    proof = Proof.loads((Path(__file__).parent / "data" / "tangent_render" / f"{name}.proof.json").read_text())
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert replay_text(text).ok, text


def _peel_goal(bound: sp.Expr) -> Goal:
    """``S / (1 + S) ≥ bound`` for ``S = Σ 1/(1 + x²)`` under ``a + b + c + d = 4`` (``S ≥ 2``, so the
    transformed bound is ``2/3``): the tangent-line sum behind the textbook ``t ↦ t/(1+t)``."""
    s = sum(1 / (1 + x ** 2) for x in (a, b, c, d))
    return _goal(Relation(s / (1 + s), ">=", bound), Relation(a + b + c + d, "=", sp.Integer(4)))


@pytest.mark.parametrize("bound", [sp.Rational(2, 3), sp.Rational(3, 5)])
def test_a_peel_then_the_tangent_line_closes(bound: sp.Expr) -> None:
    from prover.search.close import close_goal, peeled_tangent_step
    from tests.solver_checks import kernel_accepts

    goal = _peel_goal(bound)
    step = peeled_tangent_step(goal)
    assert step is not None and step.kind == "combine" and "peel" in step.note
    assert step.children[0].kind == "close" and "tangent line" in step.children[0].note
    assert kernel_accepts(goal, step)
    assert close_goal(goal, 20).note == step.note         # the closer takes it before normalising


def test_no_peeled_tangent_for_a_false_bound() -> None:
    from prover.search.close import peeled_tangent_step

    assert peeled_tangent_step(_peel_goal(sp.Rational(7, 10))) is None
