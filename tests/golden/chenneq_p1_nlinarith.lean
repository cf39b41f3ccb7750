-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem P1 (a b c : ℝ) :
    a * b + a * c + b * c ≤ a ^ 2 + b ^ 2 + c ^ 2 := by
  -- close (sos)
  nlinarith [(sq_nonneg (a - b)), (sq_nonneg (b - c)), (sq_nonneg (c - a))]

#print axioms P1
