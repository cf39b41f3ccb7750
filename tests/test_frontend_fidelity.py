"""sympy's automatic simplification must never change a Lean statement's meaning unnoticed."""

import pytest

from prover.frontend import ParseError, parse_theorem

REFUSED = [
    "theorem t (x : ℝ) : x / x = 1",                        # false in Lean at x = 0
    "theorem t (x y : ℝ) : x * y / y = x",                  # false at y = 0, x ≠ 0
    "theorem t (x : ℝ) : √x * √x = x",                      # false for x < 0
    "theorem t (x : ℝ) : (√x) ^ 2 = x",
    "theorem t (x : ℝ) : 1 / x + x * (1 / x) * 2 = 1 / x + 2",
    "theorem t (x y : ℝ) : √(x * y / y) ≥ 0",
    "theorem t (a b : ℝ) (h : a / a = 1) : a ≠ 0",          # a hypothesis may not justify itself
]

ACCEPTED = [
    ("theorem t (x : ℝ) (h : x > 0) : x / x = 1", "1"),
    ("theorem t (x : ℝ) (h : x ≠ 0) : x / x = 1", "1"),
    ("theorem t (x y : ℝ) (h : y > 0) : √(x * y / y) ≥ 0", "sqrt(x)"),
]

#: Faithful in Lean by laws the kernel knows (docs/TRUST_BASE.md §1.3): (√2)² = 2,
#: √(x²) = |x| (Real.sqrt_sq_eq_abs), inverses as atoms (no denominator needs to be nonzero).
KERNEL_GAPS = [
    pytest.param("theorem t (x : ℝ) : 1 / √2 ≤ x ^ 2", "sqrt(2)/2"),
    pytest.param("theorem t (x : ℝ) : √(x ^ 2) ≥ 0", "Abs(x)"),
    pytest.param("theorem t (x : ℝ) : 1 / (x * x) ≥ x⁻¹ * x⁻¹", "x**(-2)"),
]


@pytest.mark.parametrize("text", REFUSED)
def test_unfaithful_simplification_is_refused(text):
    with pytest.raises(ParseError, match="simplifies"):
        parse_theorem(text)


@pytest.mark.parametrize("text,lhs", ACCEPTED + KERNEL_GAPS)
def test_faithful_simplification_is_kept(text, lhs):
    assert str(parse_theorem(text).goal.lhs) == lhs


@pytest.mark.parametrize("text", [
    "theorem t (a b : ℝ) (h : a > 0) : a ≤ a / b ^ (1 / 4 : ℝ)",       # printed back as a/b**(1/4)
    pytest.param("theorem t (a b : ℝ) (h : a > 0) : a ≤ -(1 / 2) ^ a",  # sympy: -1/2**a
                 marks=pytest.mark.xfail(strict=True, raises=ParseError,
                                         reason="needs Real.inv_rpow: (1/2)^a = (2^a)⁻¹")),
    # |b|^(-1/4): Real.sqrt_sq_eq_abs, and Real.rpow_neg on |b| ≥ 0
    "theorem t (a b : ℝ) (h : a > 0) : a ≤ 1 / Real.sqrt (b ^ 2) ^ (1 / 4 : ℝ)",
])
def test_harmless_rewrites_found_by_the_property_test_are_accepted(text):
    parse_theorem(text)
