-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem combine_product_strict (a c : ℝ) :
    (a ^ 2 + 1) * (c ^ 2 + 1) > 1 / 4 := by
  rw [gt_iff_lt]
  -- combine 2 independent parts
  suffices hparts3 : (1 / 2 < a ^ 2 + 1) ∧ (1 / 2 < c ^ 2 + 1) by
    obtain ⟨hpart1, hpart2⟩ := hparts3
    linear_combination (mul_pos (sub_pos.mpr hpart1) (sub_pos.mpr hpart2)) + (1 / 2) * (sub_pos.mpr hpart1).le + (1 / 2) * (sub_pos.mpr hpart2).le
  refine ⟨?_, ?_⟩
  · -- close (sos)
    linear_combination (sq_nonneg (a))
  · -- close (sos)
    linear_combination (sq_nonneg (c))

#print axioms combine_product_strict
