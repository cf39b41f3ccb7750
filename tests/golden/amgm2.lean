-- Rendered by prover; checked against Mathlib v4.16.0 (lean_project/).
import Mathlib

open Real

theorem amgm2 (a b : ℝ) :
    2 * a * b ≤ a ^ 2 + b ^ 2 := by
  -- close (sos)
  linear_combination (sq_nonneg (a - b))

#print axioms amgm2
