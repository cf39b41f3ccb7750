-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_16 (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) : 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) / (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) ≤ (1 / x + 1 / y + 1 / z + 1 / w) / (1 + (1 / x + 1 / y + 1 / z + 1 / w)) := by
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
  -- substitute x = 1 / x_, y = 1 / y_, z = 1 / z_, w = 1 / w_
  suffices hkey1 : ∀ x_ y_ z_ w_ : ℝ, 0 < x_ → 0 < y_ → 0 < z_ → 0 < w_ → 4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) / (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1) ≤ (w_ + x_ + y_ + z_) / (w_ + x_ + y_ + z_ + 1) by
    have hat2 : 1 / x * (1 / y) * (1 / z) * (1 / w) = 1 / w * (1 / x) * (1 / y) * (1 / z) := by ring
    have hat3 : (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) = (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat2
    have hne26 : (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) ≠ 0 := by positivity
    have hinv27 : (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) * (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ))⁻¹ = 1 := mul_inv_cancel₀ hne26
    have hne28 : (4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1) ≠ 0 := by positivity
    have hinv29 : (4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1) * (4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹ = 1 := mul_inv_cancel₀ hne28
    have hne30 : (16 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) + 4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1) ≠ 0 := by positivity
    have hinv31 : (16 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) + 4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1) * (16 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) + 4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹ = 1 := mul_inv_cancel₀ hne30
    linear_combination hkey1 (1 / x) (1 / y) (1 / z) (1 / w) (by positivity) (by positivity) (by positivity) (by positivity) + (4 / (16 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ)) + 4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) + 4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ)) + 1)) * hat3 + ((4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) - 4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ))) * ((16 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) + 4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹) + (4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ)) * (4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹)) * hinv27 + ((-4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) * (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ))⁻¹) + (4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) - 4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ))) * ((16 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ) + 4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹) * (4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ))⁻¹)) * hinv29 + ((-4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) * (1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ))⁻¹) * (4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ)) + 1) * ((4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹) + (4 * ((1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ)) * (4 * (1 / w * (1 / x) * (1 / y) * (1 / z)) ^ (1 / 4 : ℝ) + 1)⁻¹) * (4 * ((1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (1 / x * (1 / y) * (1 / z) * (1 / w)) ^ (1 / 4 : ℝ))⁻¹)) * hinv31
  intro x_ y_ z_ w_ hv32 hv33 hv34 hv35
  -- combine 2 independent parts
  suffices hparts38 : (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) ≤ w_ + x_ + y_ + z_) ∧ (0 ≤ 1 / (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1) / (w_ + x_ + y_ + z_ + 1)) by
    obtain ⟨hpart36, hpart37⟩ := hparts38
    have hid43 : ((w_ + x_ + y_ + z_) / (w_ + x_ + y_ + z_ + 1)) - (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) / (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1)) = 1 * ((w_ + x_ + y_ + z_) - (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ))) * ((1 / (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1) / (w_ + x_ + y_ + z_ + 1)) - (0)) := by
      have hne39 : (w_ + x_ + y_ + z_ + 1) ≠ 0 := by positivity
      have hinv40 : (w_ + x_ + y_ + z_ + 1) * (w_ + x_ + y_ + z_ + 1)⁻¹ = 1 := mul_inv_cancel₀ hne39
      have hne41 : (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1) ≠ 0 := by positivity
      have hinv42 : (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1) * (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1)⁻¹ = 1 := mul_inv_cancel₀ hne41
      linear_combination ((4 * ((w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ)) * (4 * (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) + 1)⁻¹)) * hinv40 + ((-w_ - x_ - y_ - z_) * ((w_ + x_ + y_ + z_ + 1)⁻¹)) * hinv42
    linear_combination (mul_nonneg (sub_nonneg.mpr hpart36) (sub_nonneg.mpr hpart37)) + (-1) * hid43
  refine ⟨?_, ?_⟩
  · -- scale
    -- amgm4_root: prover_amgm4_root
    have hat45 : x_ * y_ * z_ * w_ = w_ * x_ * y_ * z_ := by ring
    have hat46 : (x_ * y_ * z_ * w_) ^ (1 / 4 : ℝ) = (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat45
    have happ44 : (w_ * x_ * y_ * z_) ^ (1 / 4 : ℝ) ≤ w_ / 4 + x_ / 4 + y_ / 4 + z_ / 4 := by
      linear_combination prover_amgm4_root (x_) (y_) (z_) (w_) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat46
    have hc47 : (0 : ℝ) ≤ 4 := by positivity
    have hm48 : (0 : ℝ) < 1 := by positivity
    suffices hsub49 : w_ + x_ + y_ + z_ ≤ w_ + x_ + y_ + z_ by
      linear_combination (mul_nonneg hm48.le (sub_nonneg.mpr hsub49)) + (mul_nonneg hc47 (sub_nonneg.mpr happ44))
    -- close (positivity)
    have hpos50 : (0 : ℝ) ≤ 0 := by positivity
    linear_combination hpos50
  · -- close (positivity)
    positivity

#print axioms amgm_root_16
