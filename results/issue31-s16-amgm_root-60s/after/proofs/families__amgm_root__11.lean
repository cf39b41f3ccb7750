-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_11 (p q r s : ℝ) (hp : 0 < p) (hq : 0 < q) (hr : 0 < r) (hs : 0 < s) : p + 1 + (q + 1) + (r + 1) + (s + 1) ≥ 4 * ((p + 1) * (q + 1) * (r + 1) * (s + 1)) ^ (1 / 4 : ℝ) := by
  have prover_amgm4_root : ∀ x y z w : ℝ, 0 ≤ x → 0 ≤ y → 0 ≤ z → 0 ≤ w → (x * y * z * w) ^ (1 / 4 : ℝ) ≤ (x + y + z + w) / 4 := by
    intro x y z w h1 h2 h3 h4
    have hw : (0 : ℝ) ≤ (1 / 4 : ℝ) := by positivity
    have hs : (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) = 1 := by linear_combination
    have h : x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) ≤
        (1 / 4 : ℝ) * x + (1 / 4 : ℝ) * y + (1 / 4 : ℝ) * z + (1 / 4 : ℝ) * w :=
      Real.geom_mean_le_arith_mean4_weighted hw hw hw hw h1 h2 h3 h4 hs
    have hm1 : (x * y * z * w) ^ (1 / 4 : ℝ) = (x * y * z) ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) :=
      Real.mul_rpow (mul_nonneg (mul_nonneg h1 h2) h3) h4
    have hm2 : (x * y * z) ^ (1 / 4 : ℝ) = (x * y) ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) :=
      Real.mul_rpow (mul_nonneg h1 h2) h3
    have hm3 : (x * y) ^ (1 / 4 : ℝ) = x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) := Real.mul_rpow h1 h2
    linear_combination h + hm1 + w ^ (1 / 4 : ℝ) * hm2 + z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) * hm3
  rw [ge_iff_le]
  -- scale
  -- amgm4_root: prover_amgm4_root
  have hat2 : (q + 1) * (r + 1) * (s + 1) * (p + 1) = (p + 1) * (q + 1) * (r + 1) * (s + 1) := by ring
  have hat3 : ((q + 1) * (r + 1) * (s + 1) * (p + 1)) ^ (1 / 4 : ℝ) = ((p + 1) * (q + 1) * (r + 1) * (s + 1)) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat2
  have happ1 : ((p + 1) * (q + 1) * (r + 1) * (s + 1)) ^ (1 / 4 : ℝ) ≤ p / 4 + q / 4 + r / 4 + s / 4 + 1 := by
    linear_combination prover_amgm4_root (q + 1) (r + 1) (s + 1) (p + 1) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat3
  have hc4 : (0 : ℝ) ≤ 4 := by positivity
  have hm5 : (0 : ℝ) < 1 := by positivity
  suffices hsub6 : p + q + r + s + 4 ≤ p + q + r + s + 4 by
    linear_combination (mul_nonneg hm5.le (sub_nonneg.mpr hsub6)) + (mul_nonneg hc4 (sub_nonneg.mpr happ1))
  -- close (positivity)
  have hpos7 : (0 : ℝ) ≤ 0 := by positivity
  linear_combination hpos7

#print axioms amgm_root_11
