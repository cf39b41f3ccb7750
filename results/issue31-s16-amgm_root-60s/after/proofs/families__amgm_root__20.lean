-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_20 (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) : 4 * (x * y * z * w) ^ (1 / 4 : ℝ) / (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ)) ≤ (x + y + z + w) / (1 + (x + y + z + w)) := by
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
  -- combine 2 independent parts
  suffices hparts3 : (4 * (w * x * y * z) ^ (1 / 4 : ℝ) ≤ w + x + y + z) ∧ (0 ≤ 1 / (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) / (w + x + y + z + 1)) by
    obtain ⟨hpart1, hpart2⟩ := hparts3
    have hid14 : ((x + y + z + w) / (1 + (x + y + z + w))) - (4 * (x * y * z * w) ^ (1 / 4 : ℝ) / (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))) = 1 * ((w + x + y + z) - (4 * (w * x * y * z) ^ (1 / 4 : ℝ))) * ((1 / (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) / (w + x + y + z + 1)) - (0)) := by
      have hat4 : x * y * z * w = w * x * y * z := by ring
      have hat5 : (x * y * z * w) ^ (1 / 4 : ℝ) = (w * x * y * z) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat4
      have hne6 : (1 + (x + y + z + w)) ≠ 0 := by positivity
      have hinv7 : (1 + (x + y + z + w)) * (1 + (x + y + z + w))⁻¹ = 1 := mul_inv_cancel₀ hne6
      have hne8 : (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ)) ≠ 0 := by positivity
      have hinv9 : (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ)) * (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹ = 1 := mul_inv_cancel₀ hne8
      have hne10 : (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) ≠ 0 := by positivity
      have hinv11 : (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) * (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹ = 1 := mul_inv_cancel₀ hne10
      have hne12 : (16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) ≠ 0 := by positivity
      have hinv13 : (16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1) * (16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹ = 1 := mul_inv_cancel₀ hne12
      linear_combination (-(4 / (16 * ((x * y * z * w) ^ (1 / 4 : ℝ)) * ((w * x * y * z) ^ (1 / 4 : ℝ)) + 4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 4 * ((w * x * y * z) ^ (1 / 4 : ℝ)) + 1))) * hat5 + ((4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) * (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) + (-4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 4 * ((w * x * y * z) ^ (1 / 4 : ℝ))) * ((16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹)) * hinv7 + ((x + y + z + w - 4 * ((w * x * y * z) ^ (1 / 4 : ℝ))) * ((1 + (x + y + z + w))⁻¹ * (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹) + (-x - y - z - w) * ((1 + (x + y + z + w))⁻¹) + (-4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 4 * ((w * x * y * z) ^ (1 / 4 : ℝ))) * ((16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹) * (x + y + z + w + 1) * ((1 + (x + y + z + w))⁻¹)) * hinv9 + ((-x - y - z - w) * ((1 + (x + y + z + w))⁻¹) * (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) + (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) * (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) * (x + y + z + w + 1) * ((1 + (x + y + z + w))⁻¹) + (-4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 4 * ((w * x * y * z) ^ (1 / 4 : ℝ))) * ((16 * (x * y * z * w) ^ (1 / 4 : ℝ) * (w * x * y * z) ^ (1 / 4 : ℝ) + 4 * (x * y * z * w) ^ (1 / 4 : ℝ) + 4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹) * (x + y + z + w + 1) * ((1 + (x + y + z + w))⁻¹) * (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹)) * hinv11 + ((x + y + z + w - 4 * ((w * x * y * z) ^ (1 / 4 : ℝ))) * ((1 + (x + y + z + w))⁻¹ * (4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹) * (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) + (-x - y - z - w) * ((1 + (x + y + z + w))⁻¹) * (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) + 1) * ((1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) * (4 * ((w * x * y * z) ^ (1 / 4 : ℝ)) + 1) * ((4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹) + (4 * ((x * y * z * w) ^ (1 / 4 : ℝ)) * (1 + 4 * (x * y * z * w) ^ (1 / 4 : ℝ))⁻¹) * (x + y + z + w + 1) * ((1 + (x + y + z + w))⁻¹) * (4 * ((w * x * y * z) ^ (1 / 4 : ℝ)) + 1) * ((4 * (w * x * y * z) ^ (1 / 4 : ℝ) + 1)⁻¹)) * hinv13
    linear_combination (mul_nonneg (sub_nonneg.mpr hpart1) (sub_nonneg.mpr hpart2)) + (-1) * hid14
  refine ⟨?_, ?_⟩
  · -- scale
    -- amgm4_root: prover_amgm4_root
    have hat16 : x * y * z * w = w * x * y * z := by ring
    have hat17 : (x * y * z * w) ^ (1 / 4 : ℝ) = (w * x * y * z) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat16
    have happ15 : (w * x * y * z) ^ (1 / 4 : ℝ) ≤ w / 4 + x / 4 + y / 4 + z / 4 := by
      linear_combination prover_amgm4_root (x) (y) (z) (w) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat17
    have hc18 : (0 : ℝ) ≤ 4 := by positivity
    have hm19 : (0 : ℝ) < 1 := by positivity
    suffices hsub20 : w + x + y + z ≤ w + x + y + z by
      linear_combination (mul_nonneg hm19.le (sub_nonneg.mpr hsub20)) + (mul_nonneg hc18 (sub_nonneg.mpr happ15))
    -- close (positivity)
    have hpos21 : (0 : ℝ) ≤ 0 := by positivity
    linear_combination hpos21
  · -- close (positivity)
    positivity

#print axioms amgm_root_20
