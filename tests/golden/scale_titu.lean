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
    have hid12 : (y ^ 2 / b + x ^ 2 / a) - ((x + y) ^ 2 / (a + b)) = 1 * (a) * (a) * (b) * ((b * x - a * y) / (a * b * (a + b))) ^ 2 + 1 * (a) * (b) * (b) * ((b * x - a * y) / (a * b * (a + b))) ^ 2 := by
      have hne4 : b ≠ 0 := by positivity
      have hinv5 : b * b⁻¹ = 1 := mul_inv_cancel₀ hne4
      have hne6 : a ≠ 0 := by positivity
      have hinv7 : a * a⁻¹ = 1 := mul_inv_cancel₀ hne6
      have hne8 : (a + b) ≠ 0 := by positivity
      have hinv9 : (a + b) * (a + b)⁻¹ = 1 := mul_inv_cancel₀ hne8
      have hne10 : (a * b * (a + b)) ≠ 0 := by positivity
      have hinv11 : (a * b * (a + b)) * (a * b * (a + b))⁻¹ = 1 := mul_inv_cancel₀ hne10
      linear_combination ((y ^ 2 * b ^ 2 * a ^ 3 + y ^ 2 * b * a ^ 4 - 2 * y * b ^ 3 * x * a ^ 2 - 2 * y * b ^ 2 * x * a ^ 3 + b ^ 4 * x ^ 2 * a + b ^ 3 * x ^ 2 * a ^ 2) * ((a * b * (a + b))⁻¹ ^ 2) + (y ^ 2 + 2 * y * x + x ^ 2) * ((a + b)⁻¹) + (-x ^ 2 * a⁻¹)) * hinv5 + ((y ^ 2 * b ^ 2 * a ^ 3 + y ^ 2 * b * a ^ 4 - 2 * y * b ^ 3 * x * a ^ 2 - 2 * y * b ^ 2 * x * a ^ 3 + b ^ 4 * x ^ 2 * a + b ^ 3 * x ^ 2 * a ^ 2) * ((a * b * (a + b))⁻¹ ^ 2) * b * b⁻¹ + (-y ^ 2 * b⁻¹) + (y ^ 2 + 2 * y * x + x ^ 2) * ((a + b)⁻¹) * b * b⁻¹) * hinv7 + ((y ^ 2 * b ^ 2 * a ^ 3 + y ^ 2 * b * a ^ 4 - 2 * y * b ^ 3 * x * a ^ 2 - 2 * y * b ^ 2 * x * a ^ 3 + b ^ 4 * x ^ 2 * a + b ^ 3 * x ^ 2 * a ^ 2) * ((a * b * (a + b))⁻¹ ^ 2) * b * b⁻¹ * a * a⁻¹ + (-y ^ 2 * b⁻¹) * a * a⁻¹ + (-x ^ 2 * a⁻¹) * b * b⁻¹) * hinv9 + ((-y ^ 2 * b⁻¹) * a * a⁻¹ * (b + a) * ((a + b)⁻¹) * (b ^ 2 * a * (a * b * (a + b))⁻¹ + b * a ^ 2 * (a * b * (a + b))⁻¹ + 1) + (y ^ 2 + 2 * y * x + x ^ 2) * ((a + b)⁻¹) * b * b⁻¹ * a * a⁻¹ * (b ^ 2 * a * (a * b * (a + b))⁻¹ + b * a ^ 2 * (a * b * (a + b))⁻¹ + 1) + (-x ^ 2 * a⁻¹) * b * b⁻¹ * (b + a) * ((a + b)⁻¹) * (b ^ 2 * a * (a * b * (a + b))⁻¹ + b * a ^ 2 * (a * b * (a + b))⁻¹ + 1)) * hinv11
    linear_combination (mul_nonneg (mul_nonneg (mul_nonneg (sub_pos.mpr hsc2).le (sub_pos.mpr hsc2).le) (sub_pos.mpr hsc3).le) (sq_nonneg ((b * x - a * y) / (a * b * (a + b))))) + (mul_nonneg (mul_nonneg (mul_nonneg (sub_pos.mpr hsc2).le (sub_pos.mpr hsc3).le) (sub_pos.mpr hsc3).le) (sq_nonneg ((b * x - a * y) / (a * b * (a + b))))) + (-1) * hid12
  have hm13 : (0 : ℝ) < 1 := by positivity
  suffices hsub14 : 0 ≤ x ^ 2 by
    linear_combination (mul_nonneg hm13.le (sub_nonneg.mpr hsub14)) + (sub_nonneg.mpr happ1)
  -- close (sos)
  linear_combination (sq_nonneg (x))

#print axioms scale_titu
