-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem P3 (a b c : ℝ) (ha : a ≥ 0) (hb : b ≥ 0) (hc : c ≥ 0) :
    b * a ^ 2 + a * c ^ 2 + c * b ^ 2 ≤ a ^ 3 + b ^ 3 + c ^ 3 := by
  have hpos0_1 : 0 ≤ a := ha
  have hpos0_2 : 0 ≤ b := hb
  have hpos0_3 : 0 ≤ c := hc
  -- close (sos)
  linear_combination (2 / 3) * (mul_nonneg (sub_nonneg.mpr ha) (sq_nonneg (a - b))) + (1 / 3) * (mul_nonneg (sub_nonneg.mpr hb) (sq_nonneg (a - b))) + (2 / 3) * (mul_nonneg (sub_nonneg.mpr hb) (sq_nonneg (b - c))) + (1 / 3) * (mul_nonneg (sub_nonneg.mpr hc) (sq_nonneg (b - c))) + (2 / 3) * (mul_nonneg (sub_nonneg.mpr hc) (sq_nonneg (c - a))) + (1 / 3) * (mul_nonneg (sub_nonneg.mpr ha) (sq_nonneg (c - a)))

#print axioms P3
