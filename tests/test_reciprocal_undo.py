"""A goal that is a reciprocal image ``G(1/x)`` of a simpler one (a family transformation
``x ↦ 1/x``) is undone first: the reciprocal substitution is scored above clearing denominators,
and its subgoal is the simpler goal, which the closers prove."""

from __future__ import annotations

from prover.frontend.statement import parse_theorem
from prover.ir import Goal
from prover.rewrite.substitute import ReciprocalSubstitution
from prover.search.close import close_goal
from prover.verify import check_step

H = "(x y z : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z)"


def _candidates(text: str) -> list:
    return list(ReciprocalSubstitution().generate(Goal.from_problem(parse_theorem(text))))


def test_a_reciprocal_image_is_undone_first_and_its_subgoal_closes() -> None:
    text = (f"theorem t {H} (h : 1 / x * (1 / y) * (1 / z) = 1) : (1 / x) ^ 2 / (1 / y + 1 / z) + "
            "(1 / y) ^ 2 / (1 / z + 1 / x) + (1 / z) ^ 2 / (1 / x + 1 / y) ≥ (3 : ℝ) / 2 := by sorry")
    (cand,) = _candidates(text)
    assert cand.score == ReciprocalSubstitution.UNDO_SCORE
    sub = cand.step.subgoals[0]
    assert not any(str(h.rhs) == "1" and "/" in str(h.lhs) for h in sub.hypotheses)   # xyz = 1, no fraction
    verdict = check_step(cand.step)     # the step itself is accepted; only its subgoal is open
    assert verdict.errors and all("open subgoal" in e for e in verdict.errors), verdict.errors
    closed = close_goal(sub, 30)
    assert closed is not None and check_step(closed).ok


def test_an_ordinary_goal_with_denominators_keeps_the_low_score() -> None:
    text = f"theorem t {H} : x / (y + z) + y / (z + x) + z / (x + y) ≥ 3 / 2 := by sorry"
    scores = [c.score for c in _candidates(text)]
    assert scores and all(s < ReciprocalSubstitution.UNDO_SCORE for s in scores)


def test_a_reciprocal_image_under_a_root_is_undone_and_renders() -> None:
    """Under a root only the undoing substitution is proposed; the Lean connection bridges the
    user's root ``√(2·((1/a)² + (1/b)²))`` to the instance's ``√(2·(1/a)² + 2·(1/b)²)``."""
    from prover.ir import Proof
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    text = ("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : "
            "√(2 * ((1 / a) ^ 2 + (1 / b) ^ 2)) ≥ (4 : ℝ) / 5 * (1 / a + 1 / b) := by sorry")
    problem = parse_theorem(text)
    (cand,) = _candidates(text)
    assert cand.score == ReciprocalSubstitution.UNDO_SCORE
    closed = close_goal(cand.step.subgoals[0], 30)
    assert closed is not None
    cand.step.children = [closed]
    verdict = check_proof(Proof(problem, cand.step))
    assert verdict.ok, verdict.errors
    report = replay_text(render_proof(Proof(problem, cand.step)))
    assert report.ok, report.summary()
    assert "congrArg Real.sqrt" in render_proof(Proof(problem, cand.step))


def test_no_substitution_under_a_root_that_undoes_nothing() -> None:
    text = f"theorem t {H} : √(x / (y + z)) + √(y / (z + x)) + √(z / (x + y)) ≥ 2 := by sorry"
    assert _candidates(text) == []
