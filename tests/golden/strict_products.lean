-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem strict_products (a b : ℝ) (ha : a > 0) (hb : b > 0) :
    0 < a * b + a := by
  have hpos0_1 : 0 < a := ha
  have hpos0_2 : 0 < b := hb
  -- close (sos)
  linear_combination (mul_pos (sub_pos.mpr ha) (sub_pos.mpr hb)) + (sub_pos.mpr ha).le

#print axioms strict_products
