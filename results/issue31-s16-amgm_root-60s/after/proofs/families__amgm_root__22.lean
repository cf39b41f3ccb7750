-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_22 (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : 3 * ((x + y) / 2) ≥ 3 * √(x * y) := by
  rw [ge_iff_le]
  -- introduce t1 = Real.sqrt (x * y)
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 2 = x * y → 3 * t1 ≤ 3 * x / 2 + 3 * y / 2 by
    linear_combination hkey1 (Real.sqrt (x * y)) (Real.sqrt_pos.mpr (by first | positivity | linarith)) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 hv2 hv3
  -- rewrite (multiplier 3/2)
  have hm4 : (0 : ℝ) < 3 / 2 := by positivity
  suffices hsub5 : 2 * t1 ≤ x + y by
    linear_combination (mul_nonneg hm4.le (sub_nonneg.mpr hsub5))
  -- rewrite (multiplier 1/(t1 + x + y))
  have hm6 : (0 : ℝ) < (t1 + x + y)⁻¹ := by positivity
  have hid10 : ((t1 + x + y)⁻¹) * ((x ^ 2 - 2 * t1 ^ 2 - t1 * x - t1 * y + 2 * x * y + y ^ 2) - (0)) = (x + y) - (2 * t1) := by
    have hne8 : (t1 + x + y) ≠ 0 := by positivity
    have hinv9 : (t1 + x + y) * (t1 + x + y)⁻¹ = 1 := mul_inv_cancel₀ hne8
    linear_combination ((-2 * t1 + x + y)) * hinv9
  suffices hsub7 : 0 ≤ x ^ 2 - 2 * t1 ^ 2 - t1 * x - t1 * y + 2 * x * y + y ^ 2 by
    linear_combination (mul_nonneg hm6.le (sub_nonneg.mpr hsub7)) + hid10
  -- close (sos)
  linear_combination (1 / 4) * (sq_nonneg (2 * x - t1 - y)) + (3 / 4) * (sq_nonneg (y - t1)) + 3 * hv3

#print axioms amgm_root_22
