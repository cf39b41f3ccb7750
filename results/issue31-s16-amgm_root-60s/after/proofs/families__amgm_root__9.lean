-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_9 (a b c d : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (hd : 0 < d) : (4 : ℝ) / 5 * ((9 : ℝ) / 10 * (4 * (1 / a * (1 / b) * (1 / c) * (1 / d)) ^ (1 / 4 : ℝ))) ≤ 1 / a + 1 / b + 1 / c + 1 / d := by
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
  -- substitute a = 1 / a_, b = 1 / b_, c = 1 / c_, d = 1 / d_
  suffices hkey1 : ∀ a_ b_ c_ d_ : ℝ, 0 < a_ → 0 < b_ → 0 < c_ → 0 < d_ → 72 * (a_ * b_ * c_ * d_) ^ (1 / 4 : ℝ) / 25 ≤ a_ + b_ + c_ + d_ by
    have hpair2 : 4 / 5 * (9 / 10 * (4 * (1 / a * (1 / b) * (1 / c) * (1 / d)) ^ (1 / 4 : ℝ))) = 72 * (1 / a * (1 / b) * (1 / c) * (1 / d)) ^ (1 / 4 : ℝ) / 25 := by
      ring
    have hpair3 : 1 / a = 1 / a := by
      ring
    have hpair4 : 1 / b = 1 / b := by
      ring
    have hpair5 : 1 / c = 1 / c := by
      ring
    have hpair6 : 1 / d = 1 / d := by
      ring
    linear_combination hkey1 (1 / a) (1 / b) (1 / c) (1 / d) (by positivity) (by positivity) (by positivity) (by positivity) + hpair2 + (-1) * hpair3 + (-1) * hpair4 + (-1) * hpair5 + (-1) * hpair6
  intro a_ b_ c_ d_ hv7 hv8 hv9 hv10
  -- scale
  -- amgm4_root: prover_amgm4_root
  have hat12 : b_ * c_ * d_ * a_ = a_ * b_ * c_ * d_ := by ring
  have hat13 : (b_ * c_ * d_ * a_) ^ (1 / 4 : ℝ) = (a_ * b_ * c_ * d_) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat12
  have happ11 : (a_ * b_ * c_ * d_) ^ (1 / 4 : ℝ) ≤ a_ / 4 + b_ / 4 + c_ / 4 + d_ / 4 := by
    linear_combination prover_amgm4_root (b_) (c_) (d_) (a_) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat13
  have hc14 : (0 : ℝ) ≤ 72 / 25 := by positivity
  have hm15 : (0 : ℝ) < 1 := by positivity
  suffices hsub16 : 18 * a_ / 25 + 18 * b_ / 25 + 18 * c_ / 25 + 18 * d_ / 25 ≤ a_ + b_ + c_ + d_ by
    linear_combination (mul_nonneg hm15.le (sub_nonneg.mpr hsub16)) + (mul_nonneg hc14 (sub_nonneg.mpr happ11))
  -- close (positivity)
  have hpos17 : (0 : ℝ) ≤ 7 * a_ / 25 + 7 * b_ / 25 + 7 * c_ / 25 + 7 * d_ / 25 := by positivity
  linear_combination hpos17

#print axioms amgm_root_9
