-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_23 (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : (x + 1 + (y + 1)) / 2 ≥ √((x + 1) * (y + 1)) := by
  rw [ge_iff_le]
  -- introduce t1 = Real.sqrt ((x + 1) * (y + 1))
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 2 = (x + 1) * (y + 1) → t1 ≤ x / 2 + y / 2 + 1 by
    linear_combination hkey1 (Real.sqrt ((x + 1) * (y + 1))) (Real.sqrt_pos.mpr (by first | positivity | linarith)) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 hv2 hv3
  -- scale
  have hfact4 : 0 ≤ x ^ 2 - 2 * t1 * x - 2 * t1 * y - 4 * t1 + 2 * x * y + 4 * x + y ^ 2 + 4 * y + 4 := by
    linear_combination (1 / 2) * (sq_nonneg (x - 2 * t1 + y + 2)) + (1 / 2) * (sq_nonneg (x - y)) + 2 * hv3
  have hc5 : (0 : ℝ) ≤ 1 / (2 * x + 2 * y + 4) := by positivity
  have hm6 : (0 : ℝ) < 1 := by positivity
  have hid10 : (1) * ((0) - (0)) + (1 / (2 * x + 2 * y + 4)) * ((x ^ 2 - 2 * t1 * x - 2 * t1 * y - 4 * t1 + 2 * x * y + 4 * x + y ^ 2 + 4 * y + 4) - (0)) = (x / 2 + y / 2 + 1) - (t1) := by
    have hne8 : (2 * x + 2 * y + 4) ≠ 0 := by positivity
    have hinv9 : (2 * x + 2 * y + 4) * (2 * x + 2 * y + 4)⁻¹ = 1 := mul_inv_cancel₀ hne8
    linear_combination (((1 / 2) * x + (1 / 2) * y - t1 + 1)) * hinv9
  suffices hsub7 : (0 : ℝ) ≤ 0 by
    linear_combination (mul_nonneg hm6.le (sub_nonneg.mpr hsub7)) + (mul_nonneg hc5 (sub_nonneg.mpr hfact4)) + hid10
  -- close (sos)
  linear_combination

#print axioms amgm_root_23
