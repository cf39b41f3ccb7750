-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_17 (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) : x + 2 + (y + 2) + (z + 2) + (w + 2) ≥ 4 * ((x + 2) * (y + 2) * (z + 2) * (w + 2)) ^ (1 / 4 : ℝ) := by
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
  have hat2 : (x + 2) * (y + 2) * (z + 2) * (w + 2) = (w + 2) * (x + 2) * (y + 2) * (z + 2) := by ring
  have hat3 : ((x + 2) * (y + 2) * (z + 2) * (w + 2)) ^ (1 / 4 : ℝ) = ((w + 2) * (x + 2) * (y + 2) * (z + 2)) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat2
  have happ1 : ((w + 2) * (x + 2) * (y + 2) * (z + 2)) ^ (1 / 4 : ℝ) ≤ w / 4 + x / 4 + y / 4 + z / 4 + 2 := by
    linear_combination prover_amgm4_root (x + 2) (y + 2) (z + 2) (w + 2) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat3
  have hc4 : (0 : ℝ) ≤ 4 := by positivity
  have hm5 : (0 : ℝ) < 1 := by positivity
  have hid9 : (1) * ((w + x + y + z + 8) - (w + x + y + z + 8)) + 4 * ((w / 4 + x / 4 + y / 4 + z / 4 + 2) - (((w + 2) * (x + 2) * (y + 2) * (z + 2)) ^ (1 / 4 : ℝ))) = (x + 2 + (y + 2) + (z + 2) + (w + 2)) - (4 * ((x + 2) * (y + 2) * (z + 2) * (w + 2)) ^ (1 / 4 : ℝ)) := by
    have hat7 : (w + 2) * (x + 2) * (y + 2) * (z + 2) = (x + 2) * (y + 2) * (z + 2) * (w + 2) := by ring
    have hat8 : ((w + 2) * (x + 2) * (y + 2) * (z + 2)) ^ (1 / 4 : ℝ) = ((x + 2) * (y + 2) * (z + 2) * (w + 2)) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat7
    linear_combination (-4) * hat8
  suffices hsub6 : w + x + y + z + 8 ≤ w + x + y + z + 8 by
    linear_combination (mul_nonneg hm5.le (sub_nonneg.mpr hsub6)) + (mul_nonneg hc4 (sub_nonneg.mpr happ1)) + hid9
  -- close (positivity)
  have hpos10 : (0 : ℝ) ≤ 0 := by positivity
  linear_combination hpos10

#print axioms amgm_root_17
