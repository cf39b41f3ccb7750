"""Integer powers (``zpow``): the replay model reads them, the renderer rewrites them away.

Statements of our own (not benchmark problems). Attacks: a wrong ``zpow_neg``/``zpow_ofNat`` fact,
a missing rewrite, ``ring`` asked to see ``x ^ (2 : ℤ)`` as ``x ^ 2``: each is refused by the model.
"""

from __future__ import annotations

import pytest

from prover.lean.render.common import RenderError
from prover.lean.render.zpow import rewrite_head, written_zpows
from prover.lean.replay import replay_text
from tests.solver_checks import proved_file_passes, tampered_fails

NEG_GOAL = "theorem zn (x : ℝ) (hx : 0 < x) : x ^ (-(2 : ℤ)) * x ^ 3 = x := by sorry"
IN_HYPOTHESIS = "theorem zh (x y : ℝ) (hx : 0 < x) (h : y = x ^ (-1 : ℤ)) : x * y = 1 := by sorry"
POSITIVE = "theorem zp (a : ℝ) : (2 * a) ^ (2 : ℤ) = 4 * a ^ 2 := by sorry"
SUM_BASE = ("theorem zs (a b : ℝ) (ha : 0 < a) (hb : 0 < b) :\n"
            "    a ^ (-(1 : ℤ)) + b ^ (-(1 : ℤ)) ≥ 4 * (a + b) ^ (-(1 : ℤ)) := by sorry")


@pytest.mark.parametrize("statement", [NEG_GOAL, IN_HYPOTHESIS, POSITIVE, SUM_BASE])
def test_integer_powers_are_proved_and_the_file_passes(statement: str) -> None:
    text = proved_file_passes(statement, "zpow_ofNat")
    assert statement.split(" := by")[0].split("theorem ")[1] in text     # the statement verbatim


def test_negative_power_attacks_are_refused() -> None:
    text = proved_file_passes(NEG_GOAL, "zpow_neg")
    # the fact without its inverse, and a natural power other than the literal
    assert tampered_fails(text, "= (x ^ (2 : ℤ))⁻¹ := zpow_neg", "= x ^ (2 : ℤ) := zpow_neg")
    assert tampered_fails(text, "= x ^ 2 := zpow_ofNat x 2", "= x ^ 3 := zpow_ofNat x 2")
    assert tampered_fails(text, "zpow_neg x 2", "zpow_neg x 3")
    # without the rewrite of the goal, ring meets the integer power as an atom
    rewrite = next(ln for ln in text.splitlines() if ln.strip().startswith("rw [") and " at " not in ln)
    assert tampered_fails(text, rewrite + "\n", "")


def test_hypothesis_rewrite_is_needed() -> None:
    text = proved_file_passes(IN_HYPOTHESIS, "rw [")
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("rw [") and ln.rstrip().endswith(" at h"))
    assert tampered_fails(text, line + "\n", "")


def _file(body: str, goal: str = "x ^ (2 : ℤ) = x ^ 2") -> str:
    return f"import Mathlib\n\ntheorem t (x : ℝ) : {goal} := by\n{body}\n"


def test_ring_does_not_read_an_integer_power_as_a_natural_one() -> None:
    assert not replay_text(_file("  ring")).ok
    assert not replay_text(_file("  linear_combination")).ok
    assert replay_text(_file("  exact zpow_ofNat x 2")).ok


def test_both_spellings_of_a_negative_literal_are_one_term() -> None:
    goal = "x ^ (-3 : ℤ) = (x ^ (3 : ℤ))⁻¹"
    assert replay_text(_file("  exact zpow_neg x 3", goal)).ok
    assert replay_text(_file("  exact zpow_neg x 3", "x ^ (-(3 : ℤ)) = (x ^ (3 : ℤ))⁻¹")).ok
    assert not replay_text(_file("  exact zpow_neg x 3", "x ^ (3 : ℤ) = (x ^ (3 : ℤ))⁻¹")).ok
    assert not replay_text(_file("  exact zpow_neg x 2", goal)).ok


def test_integer_arguments_and_exponents_outside_literals_are_not_modelled() -> None:
    assert not replay_text(_file("  exact zpow_neg x (2 + 1)", "x ^ (-3 : ℤ) = (x ^ (3 : ℤ))⁻¹")).ok
    text = "import Mathlib\n\ntheorem t (x : ℝ) (n : ℤ) : x ^ n = x ^ n := by\n  rfl\n"
    assert not replay_text(text).ok


def test_written_integer_powers_and_their_bases() -> None:
    found = written_zpows("(4 * b ^ 2) ^ (-(3 : ℤ)) + x₁ ^ (2 : ℤ) - y ^ (-1 : ℤ) + (4 * b ^ 2) ^ (-(3 : ℤ))")
    assert [(z.base, z.k, z.negative) for z in found] == [("(4 * b ^ 2)", 3, True), ("x₁", 2, False),
                                                         ("y", 1, True)]
    assert [z.natural() for z in found] == ["((4 * b ^ 2) ^ 3)⁻¹", "x₁ ^ 2", "(y ^ 1)⁻¹"]


def test_nested_or_unreadable_integer_powers_are_refused() -> None:
    nested = "theorem t (x : ℝ) : (x ^ (2 : ℤ)) ^ (-(3 : ℤ)) = 1"
    with pytest.raises(RenderError):
        rewrite_head(nested, written_zpows(nested))
    with pytest.raises(RenderError):
        written_zpows("theorem t (x : ℝ) : |x| ^ (2 : ℤ) = 1")
