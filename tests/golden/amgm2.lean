-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem amgm2 (a b : ℝ) :
    2 * a * b ≤ a ^ 2 + b ^ 2 := by
  -- close (sos)
  linear_combination (sq_nonneg (a - b))

#print axioms amgm2
