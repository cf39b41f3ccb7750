-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem combine_sum_strict (x y : ℝ) :
    x ^ 2 + y ^ 2 + 3 > 2 * x + 2 * y := by
  rw [gt_iff_lt]
  -- combine 2 independent parts
  suffices hparts3 : (2 * x ≤ x ^ 2 + 1) ∧ (2 * y ≤ y ^ 2 + 1) by
    obtain ⟨hpart1, hpart2⟩ := hparts3
    linear_combination (sub_nonneg.mpr hpart1) + (sub_nonneg.mpr hpart2)
  refine ⟨?_, ?_⟩
  · -- close (sos)
    linear_combination (sq_nonneg (x - 1))
  · -- close (sos)
    linear_combination (sq_nonneg (y - 1))

#print axioms combine_sum_strict
