"""The kernel's reading stays small: factoring and rational roots are bounded before sympy works.

Each case below once hung the front-end's fidelity check (found by the front-end fuzzer with
absolute values); now it is skipped (factoring is a convenience) or refused with one line."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.frontend import ParseError, parse_theorem
from prover.kernel.algebra import FACTOR_MAX_COEFF_BITS, factorable


def test_a_polynomial_with_a_huge_coefficient_is_not_factored():
    x, y = sp.symbols("x y")
    assert factorable(x * y + 1)
    assert not factorable(x * y / sp.Integer(3) ** 1000)
    assert not factorable(x * y * (2 ** (FACTOR_MAX_COEFF_BITS + 1)) + 1)


def test_a_root_of_huge_index_is_refused_with_one_line():
    text = ("theorem t (a b : ℝ) (f : ℝ → ℝ) (hf : ∀ t, f t = (|t| ^ 2) ^ (3 : ℝ) - t) (h2 : a ∈ Set.Ioi b) "
            "(h1 : b ∈ Set.Iio 0) : f (1 / 3) ≤ |(|-(f (|(|(|b| - 0.5)| ^ (f (1 / 6) : ℝ))|))|)| - 1 := by sorry")
    with pytest.raises(ParseError) as err:
        parse_theorem(text)
    assert "\n" not in str(err.value)


def test_a_small_root_of_a_rational_is_still_read():
    for side in ("x * (2 : ℝ) ^ (1 / 3 : ℝ) ≥ x", "x * (5 / 4 : ℝ) ^ (1 / 2 : ℝ) ≥ x"):
        assert parse_theorem(f"theorem t (x : ℝ) (hx : 0 < x) : {side} := by sorry").goal is not None
