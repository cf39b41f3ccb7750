-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem conjunction_binder (a b : ℝ) (h : a > 0 ∧ b > 0) :
    a / b + b / a ≥ 2 := by
  have hpos0_1 : 0 < a := h.1
  have hpos0_2 : 0 < b := h.2
  rw [ge_iff_le]
  -- rewrite (multiplier 1/(a*b))
  have hm1 : (0 : ℝ) < a⁻¹ * b⁻¹ := by positivity
  have hid7 : (a⁻¹ * b⁻¹) * ((a ^ 2 + b ^ 2) - (2 * a * b)) = (a / b + b / a) - (2) := by
    have hne3 : a ≠ 0 := by positivity
    have hinv4 : a * a⁻¹ = 1 := mul_inv_cancel₀ hne3
    have hne5 : b ≠ 0 := by positivity
    have hinv6 : b * b⁻¹ = 1 := mul_inv_cancel₀ hne5
    linear_combination ((a * b⁻¹) + (-2)) * hinv4 + ((a⁻¹ * b) + (-2) * a * a⁻¹) * hinv6
  suffices hsub2 : 2 * a * b ≤ a ^ 2 + b ^ 2 by
    linear_combination (mul_nonneg hm1.le (sub_nonneg.mpr hsub2)) + hid7
  -- close (sos)
  linear_combination (sq_nonneg (a - b))

#print axioms conjunction_binder
