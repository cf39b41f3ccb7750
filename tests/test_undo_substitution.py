"""Undoing a change of variables (``prover.rewrite.undo``): a variable seen only through one
Möbius form ``φ(v)`` becomes ``u = φ(v)`` with the image of its domain as hypotheses. The maps
are read off the goal (never a family's name); the kernel checks every step, and a wrong range
for the new variable is refused by it."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from prover.api import prove
from prover.frontend import parse_theorem
from prover.ir import Goal, Proof, Step
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.problem import Relation, var
from prover.rewrite.rescale import RescaleVariables, monomial_pieces, symmetries
from prover.rewrite.undo import (
    GeneralisePowers,
    Mobius,
    UndoSubstitution,
    blocks,
    candidates,
    mobius_of,
    power_step,
)
from prover.search.best_first import goal_key
from prover.search.close import close_goal
from prover.verify import check_proof, check_step


def _goal(src: str) -> Goal:
    return Goal.from_problem(parse_theorem(src, real_division=True))


def _step(src: str) -> Step | None:
    cands = list(UndoSubstitution().generate(_goal(src)))
    assert len(cands) <= 1
    return cands[0].step if cands else None


def _only_open_subgoal(step: Step) -> bool:
    verdict = check_step(step)
    return all("open subgoal" in e for e in verdict.errors) and verdict.steps_checked == 1


def test_mobius_forms_and_blocks() -> None:
    c = var("c")
    assert mobius_of(1 / (1 + 1 / c), c) == Mobius(1, 0, 1, 1)
    assert mobius_of(c + 2, c) == Mobius(1, 2, 0, 1)
    assert mobius_of(c ** 2, c) is None and mobius_of(sp.sqrt(c), c) is None
    r, q = var("r"), var("q")
    e = q / sp.sqrt(q ** 2 + 8 * r / c) + 1 / (c * sp.sqrt(8 * q * r + c ** -2))
    assert blocks(e, c) == {1 / c, c ** -2}
    assert Mobius(0, 1, 1, 0) in candidates(e, c)


def test_one_reciprocal_variable_gives_the_seed_back() -> None:
    step = _step("theorem t (p q r : ℝ) (hp : 0 < p) (hq : 0 < q) (hr : 0 < r) : "
                 "1 / p / √((1 / p) ^ 2 + 8 * q * r) + q / √(q ^ 2 + 8 * r * (1 / p)) "
                 "+ r / √(r ^ 2 + 8 * (1 / p) * q) ≥ 1 := by sorry")
    assert step is not None and step.note == "undo p_ = 1/p"
    sub = step.subgoals[0]
    assert sub.variables == ("p_", "q", "r")
    assert Relation(var("p_"), ">", 0) in sub.hypotheses
    assert not any(n.is_Pow and n.exp.is_negative and n.base.is_Symbol
                   for n in sp.preorder_traversal(sp.sympify(sub.target.slack())))
    assert _only_open_subgoal(step)


def test_a_bounded_image_becomes_two_hypotheses() -> None:
    step = _step("theorem t (a c : ℝ) (ha : 0 < a) (hc : 0 < c) : "
                 "1 + √(a * (1 / (1 / c + 1))) ≤ √((1 + a) * (1 + 1 / (1 / c + 1))) := by sorry")
    assert step is not None and "c_ = c/(c + 1)" in step.note
    u = var("c_")
    assert {Relation(u, ">", 0), Relation(u, "<", 1)} <= set(step.subgoals[0].hypotheses)
    assert _only_open_subgoal(step)


def test_shifts_of_every_variable_of_a_real_statement() -> None:
    step = _step("theorem t (p q : ℝ) : √((p + 2) ^ 2 + 1) + √((q + 2) ^ 2 + 1) "
                 "≥ √((p + 2 + (q + 2)) ^ 2 + 4) := by sorry")
    assert step is not None and step.subgoals[0].hypotheses == ()
    assert "p_ = p + 2" in step.note and "q_ = q + 2" in step.note
    assert _only_open_subgoal(step)


def test_nothing_to_undo() -> None:
    assert _step("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2 := by sorry") is None
    assert _step("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
                 "a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry") is None
    # a pole inside the domain: 1/(v - 1) on v > 0 is no interval
    assert _step("theorem t (v : ℝ) (hv : 0 < v) : (1 / (v - 1)) ^ 2 + 1 ≥ 2 * (1 / (v - 1)) := by sorry") is None


def test_a_wrong_range_is_refused_by_the_kernel() -> None:
    step = _step("theorem t (a c : ℝ) (ha : 0 < a) (hc : 0 < c) : "
                 "1 + √(a * (1 / (1 / c + 1))) ≤ √((1 + a) * (1 + 1 / (1 / c + 1))) := by sorry")
    assert step is not None
    sub, u = step.subgoals[0], var("c_")
    assert Relation(u, "<", 1) in sub.hypotheses
    wrong = tuple(Relation(u, "<", sp.Rational(1, 2)) if h == Relation(u, "<", 1) else h for h in sub.hypotheses)
    mutated = Step(step.kind, step.goal, [Goal(sub.variables, wrong, sub.target)], step.certificate, note=step.note)
    assert not _only_open_subgoal(mutated)        # c/(c + 1) < 1/2 is false for c ≥ 1


def test_proved_through_the_undo_and_the_file_passes_the_replay_model() -> None:
    result = prove("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : "
                   "1 + √(a * (3 * b)) ≤ √((1 + a) * (1 + 3 * b)) := by sorry", time_limit=90)
    assert result.proved, result.status
    assert "rescale b = b/3" in json.dumps(result.proof.to_json())
    report = replay_text(result.lean_text())
    assert report.ok, report.summary()


def test_the_false_variant_is_not_proved() -> None:
    result = prove("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : "
                   "(11 : ℝ) / 10 * (1 + √(a * (3 * b))) ≤ √((1 + a) * (1 + 3 * b)) := by sorry", time_limit=20)
    assert not result.proved


def test_a_bounded_image_proved_and_its_file_passes_the_replay_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """``c_ < 1`` at ``c_ = c/(c + 1)`` is ``sub_pos.mp`` of a sign fact; the user's radicands
    ``a * (1 / (1 / c + 1))`` are bridged to ``a * (c / (c + 1))`` by a field identity. (Cauchy–Schwarz
    for two roots proves the statement directly; it is disabled here, the undo's path is the test.)"""
    monkeypatch.setenv("PROVER_DISABLE_GENERATORS", "cauchy-roots")
    result = prove("theorem t (a c : ℝ) (ha : 0 < a) (hc : 0 < c) : "
                   "1 + √(a * (1 / (1 / c + 1))) ≤ √((1 + a) * (1 + 1 / (1 / c + 1))) := by sorry", time_limit=90)
    assert result.proved, result.status
    text = result.lean_text()
    assert "sub_pos.mp" in text
    report = replay_text(text)
    assert report.ok, report.summary()


# ---------------------------------------------------------------- v^k → u (introduce, v left out)


def _power_step(src: str) -> Step | None:
    cands = list(GeneralisePowers().generate(_goal(src)))
    return cands[0].step if cands else None


def test_power_step_reads_the_exponents() -> None:
    x, y = var("x"), var("y")
    assert power_step(x ** 4 + 8 * x ** 2 * y ** 2, x) == 2
    assert power_step(sp.sqrt(x ** 6 + 1) / x ** 3, x) == 3
    assert power_step(x ** 2 + x, x) == 1 and power_step(sp.Abs(x) + x ** 2, x) == 1
    assert power_step(y ** 2, x) == 0


def test_squares_become_variables_and_the_old_ones_are_left_out() -> None:
    step = _power_step("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
                       "a ^ 2 / √((a ^ 2) ^ 2 + 8 * b ^ 2 * c ^ 2) + b ^ 2 / √((b ^ 2) ^ 2 + 8 * c ^ 2 * a ^ 2) "
                       "+ c ^ 2 / √((c ^ 2) ^ 2 + 8 * a ^ 2 * b ^ 2) ≥ 1 := by sorry")
    assert step is not None and step.kind == "introduce"
    sub = step.subgoals[0]
    assert sub.variables == ("a2", "b2", "c2")
    assert set(sub.hypotheses) == {Relation(var(v), ">", 0) for v in ("a2", "b2", "c2")}
    assert _only_open_subgoal(step)


def test_the_image_of_each_domain() -> None:
    real_even = _power_step("theorem t (x y : ℝ) : √((x + y ^ 2) ^ 2 + 4) ≤ √(x ^ 2 + 1) + √((y ^ 2) ^ 2 + 1) := by sorry")
    assert real_even is not None and real_even.subgoals[0].variables == ("x", "y2")
    assert real_even.subgoals[0].hypotheses == (Relation(var("y2"), ">=", 0),)
    real_odd = _power_step("theorem t (x : ℝ) : (x ^ 3) ^ 2 + 1 ≥ 2 * x ^ 3 := by sorry")
    assert real_odd is not None and real_odd.subgoals[0].hypotheses == ()
    # a bound of its own (x ≤ 3) is not an image read off here: x is left alone
    assert _power_step("theorem t (x : ℝ) (hx : 0 < x) (h3 : x ≤ 3) : x ^ 4 + 1 ≥ 2 * x ^ 2 := by sorry") is None


def test_the_kernel_refuses_a_left_out_variable_still_used_or_a_wrong_image() -> None:
    step = _power_step("theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : x ^ 4 + y ^ 2 ≥ 2 * x ^ 2 * y := by sorry")
    assert step is not None and _only_open_subgoal(step)
    sub = step.subgoals[0]
    assert sub.variables == ("y", "x2")           # y occurs bare (2 * x ^ 2 * y): kept
    # y left out of the variables while the target still names it: unreadable
    sneaky = Goal(("x2",), tuple(h for h in sub.hypotheses if var("y") not in h.free_symbols()), sub.target)
    d = Step(step.kind, step.goal, [sneaky], step.certificate, note=step.note)
    assert any("unknown name 'y'" in e for e in check_step(d).errors)
    # a new variable claimed positive beyond its image (x2 > 1 does not follow from x > 0)
    wrong = tuple(Relation(var("x2"), ">", 1) if h == Relation(var("x2"), ">", 0) else h for h in sub.hypotheses)
    bad = Step(step.kind, step.goal, [Goal(sub.variables, wrong, sub.target)], step.certificate, note=step.note)
    assert not _only_open_subgoal(bad)


def test_a_false_square_statement_is_not_proved() -> None:
    result = prove("theorem t (x y : ℝ) : (x ^ 2) ^ 2 + (y ^ 2) ^ 2 ≥ 3 * x ^ 2 * y ^ 2 := by sorry", time_limit=20)
    assert not result.proved


def test_a_generalised_proof_is_checked_and_its_file_passes_the_replay_model() -> None:
    problem = parse_theorem("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
                            "(a ^ 2) ^ 3 + (b ^ 2) ^ 3 + (c ^ 2) ^ 3 ≥ 3 * a ^ 2 * b ^ 2 * c ^ 2 := by sorry")
    (cand,) = GeneralisePowers().generate(Goal.from_problem(problem))
    child = close_goal(cand.step.subgoals[0], 30)
    assert child is not None
    s = cand.step
    proof = Proof(problem, Step(s.kind, s.goal, s.subgoals, s.certificate, [child], s.note))
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert "linear_combination hkey1 (a ^ 2) (b ^ 2) (c ^ 2)" in text
    report = replay_text(text)
    assert report.ok, report.summary()


# ---------------------------------------------------------------- rescaling towards a symmetric goal


def test_a_rescaling_that_restores_the_cyclic_seed() -> None:
    """``q ↦ 2q`` in ``27(p²q + q²r + r²p + pqr) ≤ 4(p + q + r)³`` lowers the coefficients' 2-adic
    spread 22 → 12 only (the 4 against 27 stays): kept because the target becomes cyclic again."""
    goal = _goal("theorem t (p q r : ℝ) (hp : 0 ≤ p) (hq : 0 ≤ q) (hr : 0 ≤ r) : 27 * (p ^ 2 * (2 * q) "
                 "+ (2 * q) ^ 2 * r + r ^ 2 * p + p * (2 * q) * r) ≤ 4 * (p + 2 * q + r) ^ 3 := by sorry")
    (cand,) = RescaleVariables().generate(goal)
    assert cand.exclusive and cand.step.note == "rescale q = q/2"
    p, q, r = (var(v) for v in "pqr")
    sub = cand.step.subgoals[0].target
    assert symmetries(sub.rhs - sub.lhs, [p, q, r]) == 3 > symmetries(goal.target.slack(), [p, q, r])
    assert _only_open_subgoal(cand.step)


def test_no_rescaling_without_a_gain_in_symmetry() -> None:
    """``q ↦ q/2`` lowers the 2-adic cost 7 → 4 but leaves the target without symmetry: not a
    symmetric fallback (the halving rescaling ``p ↦ 2p, r ↦ 4r`` is the ordinary one)."""
    goal = _goal("theorem t (p q r : ℝ) (hp : 0 ≤ p) (hq : 0 ≤ q) (hr : 0 ≤ r) : "
                 "p ^ 3 + 2 * p ^ 2 + 4 * p * q + 8 * q ^ 2 + 2 * r ≥ 0 := by sorry")
    syms = [var(v) for v in "pqr"]
    pieces = monomial_pieces([h.lhs - h.rhs for h in (goal.target, *goal.hypotheses)], syms)
    assert RescaleVariables._symmetric_scales(goal, syms, pieces) is None


def test_goals_equal_up_to_the_names_of_their_variables_are_one_search_state() -> None:
    """A change of variables and its inverse, each with fresh names (``t ↦ 1/t`` by one rewrite
    and back by another), lead to the goal already seen: deduplicated, not searched again."""
    a = _goal("theorem t (t1 t2 : ℝ) (h1 : 0 < t1) (h2 : 0 < t2) : t1 / t2 + t2 / t1 ≥ 2 := by sorry")
    b = _goal("theorem t (u v : ℝ) (h1 : 0 < u) (h2 : 0 < v) : u / v + v / u ≥ 2 := by sorry")
    c = _goal("theorem t (u v : ℝ) (h1 : 0 < u) (h2 : 0 < v) : u / v + v / u ≥ 3 := by sorry")
    assert goal_key((a,)) == goal_key((b,)) != goal_key((c,))


def test_a_map_onto_negatives_is_used_negated():
    """`4/(5b)` read off the slack as `-4/(5b)`: the positive variable stays positive (`b_ > 0`)."""
    from prover.frontend import parse_theorem
    from prover.ir import Goal
    from prover.rewrite.undo import UndoSubstitution

    goal = Goal.from_problem(parse_theorem(
        "theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : √(2 * ((1 / a) ^ 2 + (1 / b) ^ 2)) ≥ "
        "(4 : ℝ) / 5 * (1 / a + 1 / b) := by sorry"))
    (cand,) = list(UndoSubstitution().generate(goal))
    sub = cand.step.subgoals[0]
    assert all(h.op in (">", ">=") or (h.op == "<" and str(h.lhs) == "0") for h in sub.hypotheses)


def test_an_image_bounded_away_from_zero_also_states_positivity():
    """`x ↦ x + 1` undone on `x > 0`: `u > 1` and the implied `0 < u` (what sign facts look for)."""
    from prover.frontend import parse_theorem
    from prover.ir import Goal
    from prover.rewrite.undo import UndoSubstitution

    goal = Goal.from_problem(parse_theorem(
        "theorem t (p q : ℝ) (hp : 0 < p) (hq : 0 < q) : p + 1 + (q + 1) ≥ 2 * √((p + 1) * (q + 1)) := by sorry"))
    (cand,) = list(UndoSubstitution().generate(goal))
    shown = {(str(h.lhs), h.op, str(h.rhs)) for h in cand.step.subgoals[0].hypotheses}
    assert ("0", "<", "p_") in shown and ("p_", ">", "1") in shown


def test_positivity_is_stated_only_where_a_root_needs_it():
    """Without a root the implied `0 < u` is left out: elsewhere it drew the search into the undone
    shift instead of the direct route (567neq/P59)."""
    from prover.frontend import parse_theorem
    from prover.ir import Goal
    from prover.rewrite.undo import UndoSubstitution

    goal = Goal.from_problem(parse_theorem(
        "theorem t (p q : ℝ) (hp : 0 < p) (hq : 0 < q) : (p + 1) ^ 2 + (q + 1) ^ 2 ≥ 2 * (p + 1) * (q + 1) := by sorry"))
    cands = list(UndoSubstitution().generate(goal))
    assert cands, "the shift is still undone"
    shown = {(str(h.lhs), h.op, str(h.rhs)) for h in cands[0].step.subgoals[0].hypotheses}
    assert ("p_", ">", "1") in shown and ("0", "<", "p_") not in shown
