-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem equality_target (a b : ℝ) (h : a = b) :
    a ^ 2 = a * b := by
  -- close (sos)
  linear_combination a * h

#print axioms equality_target
