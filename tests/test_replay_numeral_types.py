"""Numerals whose type nothing fixes: Lean elaborates them at ℕ, where a real power has no meaning.

``binrel%`` elaborates both sides of a relation with the type of their leaves; with numerals
only, the default type ℕ is taken and ``HPow ℕ ℝ _`` has no instance, so
``16 ^ (1 / 3 : ℝ) = 2 * 2 ^ (1 / 3 : ℝ)`` is an error while ``(16 : ℝ) ^ (1 / 3 : ℝ) = …``
and any statement with a real variable elaborate. The model must fail the first (it once passed
it), and the renderer must never write it.
"""

from __future__ import annotations

import pytest

from prover.lean.render.common import at_real
from prover.lean.replay import replay_text

HEADER = "import Mathlib\n\nopen Real\n\n"
CHAIN = ("Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)")


def _file(statement: str, proof: str = CHAIN, binders: str = "") -> str:
    return f"{HEADER}theorem t {binders}: True := by\n  have h : {statement} := {proof}\n  trivial\n"


def _have_verdict(lean: str) -> str:
    return next(v.status for v in replay_text(lean).steps if v.kind == "have")


@pytest.mark.parametrize("statement", [
    "2 ^ (2 / 3 : ℝ) = 2 ^ (1 / 3 : ℝ) * 2 ^ (1 / 3 : ℝ)",
    "16 ^ (1 / 3 : ℝ) ≠ 0",
    "(2 ^ (1 / 3 : ℝ)) ^ 3 = 2",
])
def test_a_numerals_only_real_power_statement_fails(statement: str) -> None:
    assert _have_verdict(_file(statement)) == "fail"


@pytest.mark.parametrize("statement", [
    "(2 : ℝ) ^ (2 / 3 : ℝ) = 2 ^ (1 / 3 : ℝ) * 2 ^ (1 / 3 : ℝ)",
    "(2 ^ (2 / 3 : ℝ) : ℝ) = 2 ^ (1 / 3 : ℝ) * 2 ^ (1 / 3 : ℝ)",
    "x ^ (2 / 3 : ℝ) = x ^ (1 / 3 : ℝ) * x ^ (1 / 3 : ℝ)",
    "Real.sqrt 2 ^ (2 / 3 : ℝ) = Real.sqrt 2 ^ (1 / 3 : ℝ) * Real.sqrt 2 ^ (1 / 3 : ℝ)",
])
def test_a_typed_leaf_makes_the_statement_real(statement: str) -> None:
    assert _have_verdict(_file(statement, binders="(x : ℝ) (hx : 0 < x) ")) == "ok"


def test_at_real_ascribes_only_numerals_only_statements() -> None:
    assert at_real("2 ^ (2 / 3 : ℝ) = 2 ^ (1 / 3 : ℝ) * 2") == "(2 ^ (2 / 3 : ℝ) : ℝ) = 2 ^ (1 / 3 : ℝ) * 2"
    assert at_real("(1 + 2 ^ (1 / 3 : ℝ)) * (1 + 2 ^ (1 / 3 : ℝ))⁻¹ = 1") == \
        "((1 + 2 ^ (1 / 3 : ℝ)) * (1 + 2 ^ (1 / 3 : ℝ))⁻¹ : ℝ) = 1"
    assert at_real("x ^ (1 / 3 : ℝ) = 2") == "x ^ (1 / 3 : ℝ) = 2"
    assert at_real("Real.sqrt 2 ^ 2 = 2") == "Real.sqrt 2 ^ 2 = 2"
    assert _have_verdict(_file(at_real("2 ^ (2 / 3 : ℝ) = 2 ^ (1 / 3 : ℝ) * 2 ^ (1 / 3 : ℝ)"))) == "ok"


@pytest.mark.parametrize("statement", [
    "abs (120 / 100 * 30 - 130 / 100 * 20) = 10",     # abs has no type of its own: ℕ, no `Neg ℕ`
    "|3 - 5| = 2",
    "7 / 2 * 2 = 7",                                  # ℕ: 7 / 2 = 3, a different statement
    "max (1 - 2) 0 = 0",
])
def test_a_numerals_only_statement_that_means_otherwise_at_nat_fails(statement: str) -> None:
    assert _have_verdict(_file(statement, "by linarith")) == "fail"


@pytest.mark.parametrize("statement", [
    "(abs (120 / 100 * 30 - 130 / 100 * 20) : ℝ) = 10",
    "|(3 : ℝ) - 5| = 2",
    "(7 / 2 * 2 : ℝ) = 7",
    "2 + 3 = 5",
])
def test_the_same_statements_typed_real_pass(statement: str) -> None:
    body = "abs_of_neg (by linarith)" if statement.startswith("|(3") else "by linarith"
    if "abs (120" in statement:
        body = "by\n    have h1 : (abs (120 / 100 * 30 - 130 / 100 * 20) : ℝ) = (120 / 100 * 30 - 130 / 100 * 20) := " \
               "abs_of_nonneg (by linarith)\n    linear_combination h1"
    if statement.startswith("|(3"):
        body = "by\n    have h1 : |(3 : ℝ) - 5| = -((3 : ℝ) - 5) := abs_of_neg (by linarith)\n    linear_combination h1"
    assert _have_verdict(_file(statement, body)) == "ok"


def test_at_real_ascribes_a_statement_under_abs_alone() -> None:
    assert at_real("abs (3 - 5) = 2") == "(abs (3 - 5) : ℝ) = 2"
    assert at_real("abs (x - 5) = 2") == "abs (x - 5) = 2"
