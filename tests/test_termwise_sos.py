"""Isolated fudging (prover/rewrite/termwise_sos.py): proofs of cyclic sums term by term, never of
false variants; every produced tree is re-checked by the kernel here."""

from __future__ import annotations

import sympy as sp

from prover.frontend.statement import parse_theorem
from prover.ir import Goal, Proof
from prover.problem import var
from prover.rewrite.termwise_sos import IsolatedFudging, fudge_close, make_plans
from prover.verify import check_proof

HYPS = "(a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0)"
IMO2001 = f"theorem imo2001 {HYPS} : 1 ≤ a / Real.sqrt (a ^ 2 + 8 * b * c) + b / Real.sqrt (b ^ 2 + 8 * c * a) + c / Real.sqrt (c ^ 2 + 8 * a * b) := by sorry"


def _problem(text: str):
    return parse_theorem(text, real_division=True)


def test_imo2001_exponent_is_four_thirds() -> None:
    plans = make_plans(Goal.from_problem(_problem(IMO2001)))
    assert [p.r for p in plans] == [sp.Rational(4, 3)]
    assert plans[0].weight_vars == [var("a"), var("b"), var("c")]


def test_imo2001_proved_and_checked() -> None:
    problem = _problem(IMO2001)
    goal = Goal.from_problem(problem)
    step = fudge_close(goal, time_limit=60)
    assert step is not None
    assert [s.kind for s in step.walk()] == ["introduce", "scale", "close"]
    assert len(step.children[0].certificate["applications"]) == 3
    verdict = check_proof(Proof(problem, step))
    assert verdict.ok, verdict.errors
    cands = list(IsolatedFudging(time_limit=60).generate(goal))
    assert len(cands) == 1 and cands[0].closes


def test_rational_cyclic_sum_needs_no_radical() -> None:
    # a²/(a²+2bc) >= a²/(a²+b²+c²) termwise (r = 2): the branch without a radical
    problem = _problem(f"theorem t {HYPS} : a ^ 2 / (a ^ 2 + 2 * b * c) + b ^ 2 / (b ^ 2 + 2 * c * a) + c ^ 2 / (c ^ 2 + 2 * a * b) ≥ 1 := by sorry")
    step = fudge_close(Goal.from_problem(problem), time_limit=30)
    assert step is not None
    assert check_proof(Proof(problem, step)).ok


def test_false_variants_are_not_proved() -> None:
    variants = [
        # constant too large
        f"theorem f1 {HYPS} : 101 / 100 ≤ a / Real.sqrt (a ^ 2 + 8 * b * c) + b / Real.sqrt (b ^ 2 + 8 * c * a) + c / Real.sqrt (c ^ 2 + 8 * a * b) := by sorry",
        # 9 instead of 8: false at a = b = c
        f"theorem f2 {HYPS} : 1 ≤ a / Real.sqrt (a ^ 2 + 9 * b * c) + b / Real.sqrt (b ^ 2 + 9 * c * a) + c / Real.sqrt (c ^ 2 + 9 * a * b) := by sorry",
        # the reverse direction: tangent at a = b = c, false for a large
        f"theorem f3 {HYPS} : a / Real.sqrt (a ^ 2 + 8 * b * c) + b / Real.sqrt (b ^ 2 + 8 * c * a) + c / Real.sqrt (c ^ 2 + 8 * a * b) ≤ 1 := by sorry",
    ]
    for text in variants:
        goal = Goal.from_problem(_problem(text))
        assert fudge_close(goal, time_limit=20) is None, text


def test_reverse_variant_has_the_tangent_exponent_but_fails_numerically() -> None:
    # the plan filter, not the SOS solver, rejects it (cheap)
    text = f"theorem f {HYPS} : a / Real.sqrt (a ^ 2 + 8 * b * c) + b / Real.sqrt (b ^ 2 + 8 * c * a) + c / Real.sqrt (c ^ 2 + 8 * a * b) ≤ 1 := by sorry"
    assert make_plans(Goal.from_problem(_problem(text))) == []


LOOSE = "a / Real.sqrt (a ^ 2 + b * c) + b / Real.sqrt (b ^ 2 + c * a) + c / Real.sqrt (c ^ 2 + a * b)"


def test_goal_not_tight_at_the_centre_tries_simple_exponents() -> None:
    """``Σ a/√(a²+bc) >= 1`` is tight only on the boundary (``a → ∞``): no tangency at
    ``a = b = c`` forces ``r``; ``r = 1`` (``a/√(a²+bc) >= a/(a+b+c)``) holds and is proved."""
    problem = _problem(f"theorem loose {HYPS} : {LOOSE} ≥ 1 := by sorry")
    goal = Goal.from_problem(problem)
    plans = make_plans(goal)
    assert plans and plans[0].r == 1 and len(plans) <= 3
    step = fudge_close(goal, time_limit=60)
    assert step is not None
    verdict = check_proof(Proof(problem, step))
    assert verdict.ok, verdict.errors


def test_loose_false_variant_is_not_proved() -> None:
    """Past the infimum 1 (``a = 1000, b = c = 1``: about 1.06) no termwise bound can hold."""
    problem = _problem(f"theorem loose_false {HYPS} : {LOOSE} ≥ 11 / 10 := by sorry")
    goal = Goal.from_problem(problem)
    step = fudge_close(goal, time_limit=30)
    assert step is None or not check_proof(Proof(problem, step)).ok


ROOTS_OF_QUOTIENTS = "Real.sqrt (a / (b + c)) + Real.sqrt (b / (c + a)) + Real.sqrt (c / (a + b))"
LEAN_HYPS = "(a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c)"


def test_root_of_a_quotient_with_mathlib_style_hypotheses() -> None:
    """``Σ √(a/(b+c)) >= 2``: hypotheses written ``0 < a`` (Mathlib's style), a radical whose base
    is a quotient (``t² = a/(b+c)``: the squared part's SOS terms are over ``D·(b+c)``), equality
    on the boundary; ``r = 1`` is ``√(a/(b+c)) >= 2a/(a+b+c)``."""
    problem = parse_theorem(f"theorem roots {LEAN_HYPS} : {ROOTS_OF_QUOTIENTS} ≥ 2 := by sorry")
    step = fudge_close(Goal.from_problem(problem), time_limit=60)
    assert step is not None
    verdict = check_proof(Proof(problem, step))
    assert verdict.ok, verdict.errors
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    report = replay_text(render_proof(Proof(problem, step)))
    assert report.ok, report.summary()


def test_root_of_a_quotient_false_variant_is_not_proved() -> None:
    """Near ``(1, 1, 0)`` the sum is close to 2: ``>= 41/20`` is false."""
    problem = parse_theorem(f"theorem roots_false {LEAN_HYPS} : {ROOTS_OF_QUOTIENTS} ≥ 41 / 20 := by sorry")
    step = fudge_close(Goal.from_problem(problem), time_limit=30)
    assert step is None or not check_proof(Proof(problem, step)).ok
