"""The exact linear-combination closer (``prover.solvers.linear_combination``): linear consequences
of the hypotheses, strict where a strict hypothesis (or a positive constant) carries it; the kernel
checks every certificate."""

from __future__ import annotations

from prover import parse
from prover.ir import Goal
from prover.kernel.check import check_step
from prover.solvers.closers import LinearCombinationCloser, close_step
from prover.solvers.linear_combination import linear_certificate


def _goal(text: str) -> Goal:
    return Goal.from_problem(parse(text))


def test_a_strict_consequence_among_many_hypotheses():
    g = _goal("theorem d (n S_1 S_2 S_3 : ℝ) (c_0 : 0 ≤ n) (c_1 : 0 < n) (c_2 : 1 ≤ n) (g_1 : S_2 - S_3 - n = 0) "
              "(g_2 : 0 < S_2) (g_3 : 0 ≤ S_3) (g_4 : 0 < -S_1 + S_2) : S_1 < S_2 := by sorry")
    step = LinearCombinationCloser().close(g, 0.0)
    assert step is not None and check_step(step, lambda _n: None).ok


def test_equalities_with_any_sign_and_a_constant_gap():
    g = _goal("theorem e (a b : ℝ) (h1 : a + b = 3) (h2 : a - b ≤ 1) : a < 3 := by sorry")
    cert = linear_certificate(g)
    assert cert is not None
    assert check_step(close_step(g, cert, "t"), lambda _n: None).ok


def test_no_certificate_for_what_does_not_follow():
    assert linear_certificate(_goal("theorem f (a b : ℝ) (h1 : a ≤ 1) (h2 : b ≤ 1) : a + b ≤ 1 := by sorry")) is None
    # strict goal from non-strict hypotheses only: a ≤ 1 does not give a < 1
    assert linear_certificate(_goal("theorem g (a : ℝ) (h1 : a ≤ 1) : a < 1 := by sorry")) is None
    # nonlinear: a * b ≥ 0 is no linear consequence of a ≥ 0, b ≥ 0
    assert linear_certificate(_goal("theorem h (a b : ℝ) (h1 : 0 ≤ a) (h2 : 0 ≤ b) : 0 ≤ a * b := by sorry")) is None
