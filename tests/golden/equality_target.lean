-- Rendered by prover; checked against Mathlib v4.16.0 (lean_project/).
import Mathlib

open Real

theorem equality_target (a b : ℝ) (h : a = b) :
    a ^ 2 = a * b := by
  -- close (sos)
  linear_combination a * h

#print axioms equality_target
