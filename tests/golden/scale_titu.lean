-- Rendered by prover; checked against Mathlib v4.16.0 (lean_project/).
import Mathlib
import ProverLemmas

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem scale_titu (x y a b : ℝ) (ha : a > 0) (hb : b > 0) :
    (x + y) ^ 2 / (a + b) ≤ x ^ 2 + y ^ 2 / b + x ^ 2 / a := by
  have hpos0_1 : 0 < a := ha
  have hpos0_2 : 0 < b := hb
  -- scale
  have happ1 : (x + y) ^ 2 / (a + b) ≤ y ^ 2 / b + x ^ 2 / a := by
    linear_combination Prover.titu2 (x) (y) (a) (b) (by positivity) (by positivity)
  have hc2 : (0 : ℝ) ≤ 1 := by positivity
  have hm3 : (0 : ℝ) < 1 := by positivity
  suffices hsub4 : 0 ≤ x ^ 2 by
    linear_combination (mul_nonneg hm3.le (sub_nonneg.mpr hsub4)) + (mul_nonneg hc2 (sub_nonneg.mpr happ1))
  -- close (sos)
  linear_combination (sq_nonneg (x))

#print axioms scale_titu
