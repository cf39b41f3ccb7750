import Mathlib

open Real

/-! Example statements for `prover prove examples/inequalities.lean#NAME` and
`prover parse examples/inequalities.lean#NAME` (see README.md). Each theorem is stated as in
Mathlib, with `sorry` for its proof; `prover` proves them all. -/

/-- Two-variable AM-GM. -/
theorem amgm_two (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by
  sorry

/-- The harmonic mean is at most the arithmetic mean of the reciprocals. -/
theorem am_hm (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 2 / (a + b) ≤ (1 / a + 1 / b) / 2 := by
  sorry

/-- Nesbitt's inequality. -/
theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) :
    a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by
  sorry

/-- Under `a + b + c = 3`, the pairwise products sum to at most 3. -/
theorem sum_products (a b c : ℝ) (h : a + b + c = 3) : a * b + b * c + c * a ≤ 3 := by
  sorry

/-- Schur's inequality of degree 1 for nonnegative reals. -/
theorem schur_one (a b c : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) :
    a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) ≥ 0 := by
  sorry

/-- A square root bound: `√(ab) ≤ (a + b) / 2`. -/
theorem sqrt_amgm (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : Real.sqrt (a * b) ≤ (a + b) / 2 := by
  sorry

/-- A function given by a defining equation: read with every `f t` unfolded. -/
theorem square_fn (a b : ℝ) (f : ℝ → ℝ) (hf : ∀ x, f x = x ^ 2) (ha : 0 < a) (hb : 0 < b) :
    f a + f b ≥ 2 * a * b := by
  sorry
