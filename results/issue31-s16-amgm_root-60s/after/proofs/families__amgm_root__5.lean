-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_5 (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : 6 * ((x + y) / 2) ≥ (19 : ℝ) / 20 * (6 * √(x * y)) := by
  rw [ge_iff_le]
  -- introduce t1 = Real.sqrt (x * y)
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 2 = x * y → 57 * t1 / 10 ≤ 3 * x + 3 * y by
    linear_combination hkey1 (Real.sqrt (x * y)) (Real.sqrt_pos.mpr (by first | positivity | linarith)) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 hv2 hv3
  -- rewrite (multiplier 3/10)
  have hm4 : (0 : ℝ) < 3 / 10 := by positivity
  suffices hsub5 : 19 * t1 ≤ 10 * x + 10 * y by
    linear_combination (mul_nonneg hm4.le (sub_nonneg.mpr hsub5))
  -- rewrite (multiplier 1/(t1 + x + y))
  have hm6 : (0 : ℝ) < (t1 + x + y)⁻¹ := by positivity
  have hid10 : ((t1 + x + y)⁻¹) * ((10 * x ^ 2 - 19 * t1 ^ 2 - 9 * t1 * x - 9 * t1 * y + 20 * x * y + 10 * y ^ 2) - (0)) = (10 * x + 10 * y) - (19 * t1) := by
    have hne8 : (t1 + x + y) ≠ 0 := by positivity
    have hinv9 : (t1 + x + y) * (t1 + x + y)⁻¹ = 1 := mul_inv_cancel₀ hne8
    linear_combination ((-19 * t1 + 10 * x + 10 * y)) * hinv9
  suffices hsub7 : 0 ≤ 10 * x ^ 2 - 19 * t1 ^ 2 - 9 * t1 * x - 9 * t1 * y + 20 * x * y + 10 * y ^ 2 by
    linear_combination (mul_nonneg hm6.le (sub_nonneg.mpr hsub7)) + hid10
  -- close (sos)
  linear_combination (1 / 250) * (sq_nonneg (50 * x - 23 * t1 - 20 * y)) + (7 / 750) * (sq_nonneg (30 * y - 23 * t1)) + (146 / 75) * (sq_nonneg (t1)) + (1 / 5) * (mul_nonneg (sub_pos.mpr hx).le (sub_pos.mpr hv2).le) + (1 / 5) * (mul_nonneg (sub_pos.mpr hy).le (sub_pos.mpr hv2).le) + 28 * hv3

#print axioms amgm_root_5
