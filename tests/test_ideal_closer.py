"""The ideal-membership closer (issue #28 item 5): equalities implied by equality hypotheses,
certified by exact multipliers (``eq_terms``) the kernel checks, rendered as one
``linear_combination`` that passes the replay model."""

from __future__ import annotations

import itertools
import time

import pytest
import sympy as sp

from prover.api import parse, prove
from prover.ir import Goal, expr_from_str
from prover.kernel.check import check_step
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.search.close import close_goal
from prover.solvers.closers import IdealMembership, close_step, default_closers
from prover.solvers.ideal import ideal_certificate
from tests.solver_checks import proved_file_passes, tampered_fails


def _goal(statement: str) -> Goal:
    return Goal.from_problem(parse(statement))


def _close(statement: str, seconds: float = 10.0):
    goal = _goal(statement)
    return goal, IdealMembership().close(goal, time.monotonic() + seconds)


def _accepted(step) -> bool:
    return check_step(step, lambda name: None).ok


PROVABLE = {
    "linear, two unknowns": "theorem t (d e : ℝ) (h₀ : 2 * d = 17 * e - 8) (h₁ : 2 * e = d - 9) : e = 2 := by sorry",
    "linear, three unknowns": ("theorem t (x y z : ℝ) (h₀ : x + y + z = 6) (h₁ : x - y = 1) (h₂ : y - z = 1) :"
                               " x * z = 3 := by sorry"),
    "nonlinear goal": "theorem t (a b : ℝ) (h₀ : a + b = 7) (h₁ : a - b = 1) : a * b = 12 := by sorry",
    "division by a constant": "theorem t (x : ℝ) (h₀ : x / 50 = 40) : x = 2000 := by sorry",
    "quadratic in the squares": ("theorem t (x y : ℝ) (h₀ : x ^ 2 + y ^ 2 = 5) (h₁ : x ^ 2 - y ^ 2 = 3) :"
                                 " x ^ 4 = 16 := by sorry"),
    "a cubic multiplier": "theorem t (x : ℝ) (h₀ : 2 * x = 10) : x ^ 3 = 125 := by sorry",
    "inverses of nonzero variables": ("theorem t (x y : ℝ) (h₀ : x ≠ 0) (h₁ : y ≠ 0) (h₂ : x + y = 4 * x * y) :"
                                      " 1 / x + 1 / y = 4 := by sorry"),
    "a variable in a denominator": "theorem t (x : ℝ) (h₀ : x ≠ 0) (h₁ : 3 + 1 / x = 7 / x) : x = 2 := by sorry",
    # miniF2F amc12_2000_p11: the nonzero facts are parts of a conjunction (Lean: («h₀»).2)
    "nonzero facts in a conjunction": ("theorem t (a b : ℝ) (h₀ : a ≠ 0 ∧ b ≠ 0) (h₁ : a * b = a - b) :"
                                       " a / b + b / a - a * b = 2 := by sorry"),
    # miniF2F mathd_algebra_116: √131 as an atom with √131² = 131 (Lean: a Real.sq_sqrt fact)
    "a constant square root": ("theorem t (k x : ℝ) (h₀ : x = (13 - Real.sqrt 131) / 4)"
                               " (h₁ : 2 * x ^ 2 - 13 * x + k = 0) : k = 19 / 4 := by sorry"),
    "a denominator's nonzero subtraction": ("theorem t (n : ℝ) (h₀ : n - 3 ≠ 0) (h₁ : (n + 5) / (n - 3) = 2) :"
                                            " n = 11 := by sorry"),
}


@pytest.mark.parametrize("name", sorted(PROVABLE))
def test_closer_proves_and_the_kernel_accepts(name: str) -> None:
    _, step = _close(PROVABLE[name])
    assert step is not None, name
    assert step.kind == "close" and step.certificate["terms"] == []
    assert step.certificate["eq_terms"]
    assert _accepted(step)


def test_nonlinear_multipliers_are_exact() -> None:
    goal, step = _close(PROVABLE["nonlinear goal"])
    total = sum(expr_from_str(t["poly"], goal.variables) * goal.hypotheses[t["hyp"]].slack()
                for t in step.certificate["eq_terms"])
    assert sp.expand(total - goal.target.slack()) == 0


@pytest.mark.parametrize("statement", [
    "theorem t (a b : ℝ) (h₀ : a + b = 2) : a = 1 := by sorry",                          # not in the ideal
    "theorem t (a b : ℝ) (h₀ : a + b = 7) (h₁ : a - b = 1) : a * b = 13 := by sorry",    # false
    "theorem t (x : ℝ) (h₀ : x ^ 2 = 4) : x = 2 := by sorry",                           # needs a sign
    "theorem t (x y : ℝ) (h₀ : x * y = x) : y = 1 := by sorry",                         # x may be 0
])
def test_goal_outside_the_ideal_is_refused(statement: str) -> None:
    goal, step = _close(statement)
    assert step is None
    assert ideal_certificate(goal, 5.0) is None


def test_false_equality_is_never_proved() -> None:
    res = prove("theorem t (a b : ℝ) (h₀ : a + b = 7) (h₁ : a - b = 1) : a * b = 13 := by sorry", time_limit=10)
    assert res.status != "proved"


def test_refusal_is_cheap_without_an_equality_goal_or_hypothesis() -> None:
    closer = IdealMembership()
    for statement in ["theorem t (a b : ℝ) (h₀ : a + b = 2) : a * b ≤ 1 := by sorry",
                      "theorem t (a b : ℝ) (h₀ : 0 < a) : a * b = b * a + 0 * a := by sorry"]:
        t = time.monotonic()
        assert closer.close(_goal(statement), time.monotonic() + 10) is None
        assert time.monotonic() - t < 0.05


def test_kernel_rejects_a_tampered_certificate() -> None:
    goal, step = _close(PROVABLE["nonlinear goal"])
    cert = {**step.certificate, "eq_terms": [dict(t) for t in step.certificate["eq_terms"]]}
    cert["eq_terms"][0]["poly"] = f"({cert['eq_terms'][0]['poly']}) + 1"
    assert not _accepted(close_step(goal, cert, "tampered"))
    dropped = {**step.certificate, "eq_terms": step.certificate["eq_terms"][:1]}
    assert not _accepted(close_step(goal, dropped, "tampered"))
    # a multiplier with a denominator the hypotheses do not make nonzero
    goal2, step2 = _close(PROVABLE["inverses of nonzero variables"])
    bare = Goal(goal2.variables, goal2.hypotheses[2:], goal2.target)
    shifted = {**step2.certificate, "eq_terms": [{**t, "hyp": t["hyp"] - 2} for t in step2.certificate["eq_terms"]]}
    assert not _accepted(close_step(bare, shifted, "no nonzero hypotheses"))


def test_registered_and_run_on_equality_goals() -> None:
    assert any(isinstance(c, IdealMembership) for c in default_closers())
    goal = _goal(PROVABLE["nonlinear goal"])
    step = close_goal(goal, 10.0)
    assert step is not None and step.note == "ideal membership"
    # an explicit closer list without an equality closer: nothing runs on the equality
    assert close_goal(goal, 10.0, closers=default_closers()[:-1]) is None


@pytest.mark.parametrize("name", ["linear, two unknowns", "nonlinear goal", "division by a constant",
                                  "inverses of nonzero variables", "a variable in a denominator",
                                  "nonzero facts in a conjunction", "a denominator's nonzero subtraction",
                                  "a constant square root"])
def test_rendered_lean_passes_replay(name: str) -> None:
    res = prove(PROVABLE[name], time_limit=20)
    assert res.status == "proved"
    text = render_proof(res.proof)
    assert "linear_combination" in text
    report = replay_text(text)
    assert report.ok, text


def test_time_budget_is_kept_on_a_large_system() -> None:
    hyps = " ".join(f"(h{i} : {a} * {b} + {c} * {d} - {e} = {i + 1})" for i, (a, b, c, d, e) in enumerate(
        [("a", "b", "c", "d", "e"), ("b", "c", "d", "e", "f"), ("c", "d", "e", "f", "g"),
         ("d", "e", "f", "g", "a"), ("e", "f", "g", "a", "b"), ("f", "g", "a", "b", "c")]))
    goal = _goal(f"theorem t (a b c d e f g : ℝ) {hyps} : a * b * c + d * e * f = g ^ 3 + 1 := by sorry")
    t = time.monotonic()
    assert ideal_certificate(goal, 1.0) is None
    assert time.monotonic() - t < 3.0


def test_an_outer_alarm_is_not_cancelled() -> None:
    import signal

    from prover.alarm import alarm_after

    class Outer(Exception):
        pass

    with alarm_after(30, Outer):
        assert ideal_certificate(_goal(PROVABLE["nonlinear goal"]), 5.0) is not None
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 20


def test_a_denominator_nonzero_by_a_disequality_renders_with_sub_ne_zero() -> None:
    """``x + 2/x = y + 2/y, x ≠ y ⊢ x·y = 2`` divides by ``x − y``: its ``≠ 0`` fact is
    ``sub_ne_zero.mpr h₂`` (whitelisted, Mathlib/Algebra/Group/Basic.lean), and the file passes."""
    from prover.api import prove
    from prover.lean.replay import replay_text

    result = prove("theorem t (x y : ℝ) (h₀ : x ≠ 0) (h₁ : y ≠ 0) (h₂ : x ≠ y) "
                   "(h₃ : x + 2 / x = y + 2 / y) : x * y = 2 := by sorry", time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "sub_ne_zero.mpr h₂" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_a_product_denominator_nonzero_by_its_factors_renders_with_mul_ne_zero_iff() -> None:
    """Dividing by ``b·(a − b)``: its ``≠ 0`` is ``mul_ne_zero_iff.mpr ⟨h₀.2, sub_ne_zero.mpr h₁⟩``
    (whitelisted, Mathlib/Algebra/GroupWithZero/Defs.lean), and the file passes."""
    from prover.api import prove
    from prover.lean.replay import replay_text

    result = prove("theorem t (a b : ℝ) (h₀ : a ≠ 0 ∧ b ≠ 0) (h₁ : a ≠ b) (h₃ : 2 * a ^ 2 + b = 0) "
                   "(h₄ : a * b + b ^ 2 + b = 0) : a = 1 ∧ b = -2 := by sorry", time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "mul_ne_zero_iff.mpr ⟨h₀.2, (sub_ne_zero.mpr h₁)⟩" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_top_level_factors_split_only_a_product() -> None:
    from prover.lean.render.close import _top_level_factors

    assert _top_level_factors("b * (a - b) * c") == ["b", "(a - b)", "c"]
    assert _top_level_factors("b * a - b") == ["b * a - b"]
    assert _top_level_factors("(a - b) ^ 2 * c") == ["(a - b) ^ 2", "c"]
    assert _top_level_factors("(a - b) ^ 2 + c") == ["(a - b) ^ 2 + c"]


def test_a_squared_difference_denominator_is_nonzero_by_pow_ne_zero() -> None:
    """Dividing by ``4·(3a − b)²`` under ``3a ≠ b``: its ``≠ 0`` is ``pow_ne_zero 2 (sub_ne_zero.mpr h₁)``
    inside ``mul_ne_zero_iff`` (``pow_ne_zero``: Mathlib/Algebra/GroupWithZero/Basic.lean), and the file
    passes; with another exponent in the fact, or the fact dropped, it does not."""
    fact = "(pow_ne_zero 2 (sub_ne_zero.mpr h₁))"
    text = proved_file_passes("theorem t (a b : ℝ) (h₁ : 3 * a ≠ b) (h₂ : (3 * a) ^ 2 + a * (3 * a) + b = 0) "
                              "(h₃ : b ^ 2 + a * b + b = 0) : a + b = -1 := by sorry", fact)
    assert tampered_fails(text, fact, "(pow_ne_zero 3 (sub_ne_zero.mpr h₁))")
    assert tampered_fails(text, fact, "(by positivity)")


def test_a_shifted_disequality_proves_a_sum_denominator_nonzero() -> None:
    """``x ≠ -3`` and a denominator ``x + 3`` (no subtraction, so no ``sub_ne_zero``; ``positivity``
    knows nothing of ``x``): ``fun hz => h₀ (by linear_combination hz)``, read by Lean's binder
    elaborator through ``Ne``; the model rejects it with the wrong constant or a wrong scale."""
    from prover.lean.render.close import _nonzero_hypothesis
    from prover.lean.render.common import RenderContext

    term = "(fun hz1 => h₀ (by linear_combination hz1))"
    text = proved_file_passes("theorem t (x : ℝ) (h₀ : x ≠ -3) (h₁ : (x - 1) / (x + 3) = 2) : x = -7 := by sorry",
                              term)
    assert tampered_fails(text, term, "(fun hz1 => h₀ (by linear_combination 2 * hz1))")
    assert tampered_fails(text, term, "(by positivity)")
    goal = _goal("theorem t (x : ℝ) (h₀ : x ≠ -3) : x = 1 := by sorry")
    ctx = RenderContext(names=["h₀"], counter=itertools.count(1), lemmas=None, close_style="linear_combination")
    x = goal.hypotheses[0].lhs
    assert _nonzero_hypothesis(goal, ctx, -2 * x - 6, subtraction=True) == \
        "(fun hz1 => h₀ (by linear_combination (-(1 / 2)) * hz1))"
    assert _nonzero_hypothesis(goal, ctx, x + 2, subtraction=False) is None
    assert _nonzero_hypothesis(goal, ctx, x ** 2 + 3 * x, subtraction=False) is None
