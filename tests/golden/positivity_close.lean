-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem positivity_close (a b : ℝ) (ha : a > 0) (hb : b > 0) :
    a * b + a / b ≥ 0 := by
  have hpos0_1 : 0 < a := ha
  have hpos0_2 : 0 < b := hb
  rw [ge_iff_le]
  -- close (positivity)
  positivity

#print axioms positivity_close
