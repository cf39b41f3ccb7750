-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_3 (a b c d : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (hd : 0 < d) : 4 * (a * b * c * d) ^ (1 / 4 : ℝ) ≤ a + b + c + d := by
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
  -- scale
  -- amgm4_root: prover_amgm4_root
  have hat2 : b * c * d * a = a * b * c * d := by ring
  have hat3 : (b * c * d * a) ^ (1 / 4 : ℝ) = (a * b * c * d) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat2
  have happ1 : (a * b * c * d) ^ (1 / 4 : ℝ) ≤ a / 4 + b / 4 + c / 4 + d / 4 := by
    linear_combination prover_amgm4_root (b) (c) (d) (a) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat3
  have hc4 : (0 : ℝ) ≤ 4 := by positivity
  have hm5 : (0 : ℝ) < 1 := by positivity
  suffices hsub6 : a + b + c + d ≤ a + b + c + d by
    linear_combination (mul_nonneg hm5.le (sub_nonneg.mpr hsub6)) + (mul_nonneg hc4 (sub_nonneg.mpr happ1))
  -- close (positivity)
  have hpos7 : (0 : ℝ) ≤ 0 := by positivity
  linear_combination hpos7

#print axioms amgm_root_3
