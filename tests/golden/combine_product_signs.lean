-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem combine_product_signs (a b c d : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) (hd : 0 ≤ d) :
    16 * a * b * c * d ≤ (a + b) ^ 2 * (c + d) ^ 2 := by
  -- combine 4 independent parts
  suffices hparts5 : (4 * a * b ≤ (a + b) ^ 2) ∧ (4 * c * d ≤ (c + d) ^ 2) ∧ (0 ≤ a * b) ∧ (0 ≤ c * d) by
    obtain ⟨hpart1, hpart2, hpart3, hpart4⟩ := hparts5
    linear_combination (mul_nonneg (sub_nonneg.mpr hpart1) (sub_nonneg.mpr hpart2)) + 4 * (mul_nonneg (sub_nonneg.mpr hpart1) (sub_nonneg.mpr hpart4)) + 4 * (mul_nonneg (sub_nonneg.mpr hpart2) (sub_nonneg.mpr hpart3))
  refine ⟨?_, ?_, ?_, ?_⟩
  · -- close (sos)
    linear_combination (sq_nonneg (a - b))
  · -- close (sos)
    linear_combination (sq_nonneg (c - d))
  · -- close (sos)
    linear_combination (mul_nonneg (sub_nonneg.mpr ha) (sub_nonneg.mpr hb))
  · -- close (sos)
    linear_combination (mul_nonneg (sub_nonneg.mpr hc) (sub_nonneg.mpr hd))

#print axioms combine_product_signs
