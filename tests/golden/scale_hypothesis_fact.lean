-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem scale_hypothesis_fact (a b : ℝ) (ha : a > 0) (hb : b > 0) (h : a + b ≤ 2) :
    a * b ≤ 1 := by
  have hpos0_1 : 0 < a := ha
  have hpos0_2 : 0 < b := hb
  -- scale
  have hfact1 : a * b ≤ (a + b) ^ 2 / 4 := by
    linear_combination (1 / 4) * (sq_nonneg (a - b))
  have hc2 : (0 : ℝ) ≤ a / 4 + b / 4 + 1 / 2 := by positivity
  have hm3 : (0 : ℝ) < 1 := by positivity
  suffices hsub4 : (0 : ℝ) ≤ 0 by
    linear_combination (mul_nonneg hm3.le (sub_nonneg.mpr hsub4)) + (sub_nonneg.mpr hfact1) + (mul_nonneg hc2 (sub_nonneg.mpr h))
  -- close (sos)
  linear_combination

#print axioms scale_hypothesis_fact
