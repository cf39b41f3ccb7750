-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem scale_titu (x y a b : ℝ) (ha : a > 0) (hb : b > 0) :
    (x + y) ^ 2 / (a + b) ≤ x ^ 2 + y ^ 2 / b + x ^ 2 / a := by
  have hpos0_1 : 0 < a := ha
  have hpos0_2 : 0 < b := hb
  -- scale
  -- titu2: replayed from its kernel certificate
  have hsc2 : 0 < a := by positivity
  have hsc3 : 0 < b := by positivity
  have happ1 : (x + y) ^ 2 / (a + b) ≤ y ^ 2 / b + x ^ 2 / a := by
    have hid4 : y ^ 2 / b - (x + y) ^ 2 / (a + b) + x ^ 2 / a = 1 * (a) * (a) * (b) * ((b * x - a * y) / (a * b * (a + b))) ^ 2 + 1 * (a) * (b) * (b) * ((b * x - a * y) / (a * b * (a + b))) ^ 2 := by
      field_simp
      ring
    linear_combination (mul_nonneg (mul_nonneg (mul_nonneg (sub_pos.mpr hsc2).le (sub_pos.mpr hsc2).le) (sub_pos.mpr hsc3).le) (sq_nonneg ((b * x - a * y) / (a * b * (a + b))))) + (mul_nonneg (mul_nonneg (mul_nonneg (sub_pos.mpr hsc2).le (sub_pos.mpr hsc3).le) (sub_pos.mpr hsc3).le) (sq_nonneg ((b * x - a * y) / (a * b * (a + b))))) + (-1) * hid4
  have hc5 : (0 : ℝ) ≤ 1 := by positivity
  have hm6 : (0 : ℝ) < 1 := by positivity
  suffices hsub7 : 0 ≤ x ^ 2 by
    linear_combination (mul_nonneg hm6.le (sub_nonneg.mpr hsub7)) + (mul_nonneg hc5 (sub_nonneg.mpr happ1))
  -- close (sos)
  linear_combination (sq_nonneg (x))

#print axioms scale_titu
