-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_1 (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : √(a * b) ≤ (a + b) / 2 := by
  -- introduce t1 = Real.sqrt (a * b)
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 2 = a * b → t1 ≤ a / 2 + b / 2 by
    linear_combination hkey1 (Real.sqrt (a * b)) (Real.sqrt_pos.mpr (by first | positivity | linarith)) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 hv2 hv3
  -- rewrite (multiplier 1/2)
  have hm4 : (0 : ℝ) < 1 / 2 := by positivity
  suffices hsub5 : 2 * t1 ≤ a + b by
    linear_combination (mul_nonneg hm4.le (sub_nonneg.mpr hsub5))
  -- rewrite (multiplier 1/(a + b + t1))
  have hm6 : (0 : ℝ) < (a + b + t1)⁻¹ := by positivity
  have hid10 : ((a + b + t1)⁻¹) * ((a ^ 2 + 2 * a * b - a * t1 + b ^ 2 - b * t1 - 2 * t1 ^ 2) - (0)) = (a + b) - (2 * t1) := by
    have hne8 : (a + b + t1) ≠ 0 := by positivity
    have hinv9 : (a + b + t1) * (a + b + t1)⁻¹ = 1 := mul_inv_cancel₀ hne8
    linear_combination ((a + b - 2 * t1)) * hinv9
  suffices hsub7 : 0 ≤ a ^ 2 + 2 * a * b - a * t1 + b ^ 2 - b * t1 - 2 * t1 ^ 2 by
    linear_combination (mul_nonneg hm6.le (sub_nonneg.mpr hsub7)) + hid10
  -- close (sos)
  linear_combination (1 / 4) * (sq_nonneg (2 * a - b - t1)) + (3 / 4) * (sq_nonneg (b - t1)) + 3 * hv3

#print axioms amgm_root_1
