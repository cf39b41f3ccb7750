-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem sign_split (a b : ℝ) :
    a * b ≤ a ^ 2 + b ^ 2 := by
  -- split on the sign of a * b
  rcases le_total 0 (a * b) with hsign1 | hsign1
  · -- close (sos)
    linear_combination (sq_nonneg (a - b)) + (sub_nonneg.mpr hsign1)
  · -- close (sos)
    linear_combination (sq_nonneg (a)) + (sq_nonneg (b)) + (sub_nonneg.mpr hsign1)

#print axioms sign_split
