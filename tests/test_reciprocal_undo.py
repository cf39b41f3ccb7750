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
