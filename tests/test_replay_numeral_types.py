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
