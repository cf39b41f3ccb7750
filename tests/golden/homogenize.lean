-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem homogenize (a b : ℝ) (h : a + b = 1) :
    a ^ 2 + b ^ 2 ≥ 1 / 2 := by
  rw [ge_iff_le]
  -- rewrite (multiplier 1/2)
  have hm1 : (0 : ℝ) < 1 / 2 := by positivity
  suffices hsub2 : (a + b) ^ 2 ≤ 2 * a ^ 2 + 2 * b ^ 2 by
    linear_combination (mul_nonneg hm1.le (sub_nonneg.mpr hsub2)) + (-(a / 2) - b / 2 - 1 / 2) * h
  -- close (sos)
  linear_combination (sq_nonneg (a - b))

#print axioms homogenize
