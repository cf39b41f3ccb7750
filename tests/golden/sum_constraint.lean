-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem sum_constraint (a b : ℝ) (h : a + b = 2) :
    a * b ≤ 1 := by
  -- close (sos)
  linear_combination (1 / 4) * (sq_nonneg (a - b)) + (a / 4 + b / 4 + 1 / 2) * h

#print axioms sum_constraint
