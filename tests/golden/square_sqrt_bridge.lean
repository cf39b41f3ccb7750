-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem amgm2_sqrt_sq {a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : Real.sqrt (a ^ 2 * b ^ 2) ≤ (a ^ 2 + b ^ 2) / 2 := by
  -- square both sides: the big side is nonnegative and the squares compare
  suffices hsqs3 : (0 ≤ a ^ 2 / 2 + b ^ 2 / 2) ∧ (a ^ 2 * b ^ 2 ≤ a ^ 4 / 4 + a ^ 2 * b ^ 2 / 2 + b ^ 4 / 4) by
    obtain ⟨hsq1, hsq2⟩ := hsqs3
    have hsq4 : 0 ≤ (a ^ 2 + b ^ 2) / 2 := by linear_combination hsq1
    have hsql5 : Real.sqrt (a ^ 2 * b ^ 2) ^ 2 = a ^ 2 * b ^ 2 := Real.sq_sqrt (by positivity)
    have hsq6 : (Real.sqrt (a ^ 2 * b ^ 2)) ^ 2 ≤ ((a ^ 2 + b ^ 2) / 2) ^ 2 := by linear_combination hsq2 + (1) * hsql5
    linear_combination (abs_le_of_sq_le_sq' hsq6 hsq4).2
  refine ⟨?_, ?_⟩
  · -- close (positivity)
    positivity
  · -- close (sos)
    linear_combination (1 / 4) * (sq_nonneg (a ^ 2 - b ^ 2))

#print axioms amgm2_sqrt_sq
