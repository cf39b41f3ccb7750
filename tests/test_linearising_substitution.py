"""The linearising substitution ``v = 1/w + β`` (``prover.rewrite.substitute.LinearisingSubstitution``):
it fires only when the one equality constraint becomes linear, the kernel checks the step, and the
rendered file passes the replay model (the new hypotheses ``0 < 1 - 2 * (1 / (a + 2))`` and the
linear constraint are proved from their reduced forms, which ``positivity``/``linarith`` cannot)."""

from __future__ import annotations

import sympy as sp

from prover.api import prove
from prover.frontend import parse_theorem
from prover.ir import Goal
from prover.lean.replay import replay_text
from prover.problem import var
from prover.rewrite.substitute import LinearisingSubstitution


def _candidates(src: str) -> list:
    return list(LinearisingSubstitution().generate(Goal.from_problem(parse_theorem(src))))


def test_the_schur_constraint_becomes_a_simplex() -> None:
    (cand,) = _candidates("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
                          "(h : a * b + b * c + c * a + a * b * c = 4) : a * b * c ≤ 1 := by sorry")
    sub = cand.step.subgoals[0]
    eqs = [h for h in sub.hypotheses if h.op == "="]
    assert len(eqs) == 1 and sp.Poly(sp.expand(eqs[0].lhs - eqs[0].rhs), *[var(v) for v in sub.variables]).total_degree() == 1
    assert "-2" in cand.step.note


def test_two_variables_with_another_shift() -> None:
    (cand,) = _candidates("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) (h : a + b + a * b = 3) : a + b ≥ 2 := by sorry")
    assert "-3" in cand.step.note


def test_no_substitution_when_no_shift_linearises() -> None:
    assert _candidates("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
                       "(h : a ^ 2 + b ^ 2 + c ^ 2 = 3) : a + b + c ≤ 3 := by sorry") == []
    assert _candidates("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
                       "(h : a + b + c = 3) : a * b * c ≤ 1 := by sorry") == []      # already linear
    assert _candidates("theorem t (a b : ℝ) (hb : 0 < b) (h : a + b + a * b = 3) : a + b ≥ 2 := by sorry") == []


def test_proved_and_the_file_passes_the_replay_model() -> None:
    result = prove("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
                   "(h : a * b + b * c + c * a + a * b * c = 4) : a * b * c ≤ 1 := by sorry", time_limit=90)
    assert result.proved, result.status
    report = replay_text(result.lean_text())
    assert report.ok, report.summary()


def test_the_false_variant_is_not_proved() -> None:
    result = prove("theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
                   "(h : a * b + b * c + c * a + a * b * c = 4) : a * b * c ≤ 9 / 10 := by sorry", time_limit=20)
    assert not result.proved
