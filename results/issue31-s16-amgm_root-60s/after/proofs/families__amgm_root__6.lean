-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_6 (p q r : ℝ) (hp : 0 < p) (hq : 0 < q) (hr : 0 < r) : 3 * ((3 * (p + 1) + (q + 1) + (r + 1)) / 3) ≥ 3 * (3 * (p + 1) * (q + 1) * (r + 1)) ^ (1 / 3 : ℝ) := by
  have prover_amgm3_cbrt : ∀ x y z : ℝ, 0 ≤ x → 0 ≤ y → 0 ≤ z → (x * y * z) ^ (1 / 3 : ℝ) ≤ (x + y + z) / 3 := by
    intro x y z h1 h2 h3
    have hw : (0 : ℝ) ≤ (1 / 3 : ℝ) := by positivity
    have hs : (1 / 3 : ℝ) + (1 / 3 : ℝ) + (1 / 3 : ℝ) = 1 := by linear_combination
    have h : x ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ) * z ^ (1 / 3 : ℝ) ≤
        (1 / 3 : ℝ) * x + (1 / 3 : ℝ) * y + (1 / 3 : ℝ) * z :=
      Real.geom_mean_le_arith_mean3_weighted hw hw hw h1 h2 h3 hs
    have hm1 : (x * y * z) ^ (1 / 3 : ℝ) = (x * y) ^ (1 / 3 : ℝ) * z ^ (1 / 3 : ℝ) :=
      Real.mul_rpow (mul_nonneg h1 h2) h3
    have hm2 : (x * y) ^ (1 / 3 : ℝ) = x ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ) := Real.mul_rpow h1 h2
    linear_combination h + hm1 + z ^ (1 / 3 : ℝ) * hm2
  rw [ge_iff_le]
  -- scale
  -- amgm3_cbrt: prover_amgm3_cbrt
  have happ1 : ((q + 1) * (r + 1) * (3 * p + 3)) ^ (1 / 3 : ℝ) ≤ p + q / 3 + r / 3 + 5 / 3 := by
    linear_combination prover_amgm3_cbrt (q + 1) (r + 1) (3 * p + 3) (by positivity) (by positivity) (by positivity)
  have hc2 : (0 : ℝ) ≤ 3 := by positivity
  have hm3 : (0 : ℝ) < 1 := by positivity
  have hid7 : (1) * ((3 * p + q + r + 5) - (3 * p + q + r + 5)) + 3 * ((p + q / 3 + r / 3 + 5 / 3) - (((q + 1) * (r + 1) * (3 * p + 3)) ^ (1 / 3 : ℝ))) = (3 * ((3 * (p + 1) + (q + 1) + (r + 1)) / 3)) - (3 * (3 * (p + 1) * (q + 1) * (r + 1)) ^ (1 / 3 : ℝ)) := by
    have hat5 : (q + 1) * (r + 1) * (3 * p + 3) = 3 * (p + 1) * (q + 1) * (r + 1) := by ring
    have hat6 : ((q + 1) * (r + 1) * (3 * p + 3)) ^ (1 / 3 : ℝ) = (3 * (p + 1) * (q + 1) * (r + 1)) ^ (1 / 3 : ℝ) := congrArg (fun x => x ^ (1 / 3 : ℝ)) hat5
    linear_combination (-3) * hat6
  suffices hsub4 : 3 * p + q + r + 5 ≤ 3 * p + q + r + 5 by
    linear_combination (mul_nonneg hm3.le (sub_nonneg.mpr hsub4)) + (mul_nonneg hc2 (sub_nonneg.mpr happ1)) + hid7
  -- close (positivity)
  have hpos8 : (0 : ℝ) ≤ 0 := by positivity
  linear_combination hpos8

#print axioms amgm_root_6
