import Mathlib

open Real

/-! Six theorems with `sorry` for `prover lean fill` (see README.md): four it proves (one with
`Real.exp`), one that is false (a counterexample is reported) and one it cannot read (`Real.sin` is
not supported). -/

theorem amgm_two (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by
  sorry

theorem two_ratios (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2 := by
  sorry

theorem sum_products (a b c : ℝ) (h : a + b + c = 3) : a * b + b * c + c * a ≤ 3 := by
  sorry

theorem too_strong (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a * b ≤ a ^ 2 := by
  sorry

theorem with_exp (x : ℝ) : Real.exp x ≥ 1 + x := by
  sorry

theorem with_sin (x : ℝ) : Real.sin x ≤ 1 := by
  sorry
