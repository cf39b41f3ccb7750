-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_2 (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : (a + b + c) / 3 ≥ (a * b * c) ^ (1 / 3 : ℝ) := by
  rw [ge_iff_le]
  -- introduce t1 = (a * b * c) ^ (1 / 3 : ℝ)
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 3 = a * b * c → t1 ≤ a / 3 + b / 3 + c / 3 by
    have hrp2 : (a * b * c) ^ (2 / 3 : ℝ) = (a * b * c) ^ (1 / 3 : ℝ) * (a * b * c) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp3 : (a * b * c) ^ (1 : ℝ) = (a * b * c) ^ (2 / 3 : ℝ) * (a * b * c) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp4 : (a * b * c) ^ (1 : ℝ) = (a * b * c) := Real.rpow_one (a * b * c)
    have hrp5 : ((a * b * c) ^ (1 / 3 : ℝ)) ^ 3 = (a * b * c) := by linear_combination (-((a * b * c) ^ (1 / 3 : ℝ))) * hrp2 + -hrp3 + hrp4
    linear_combination hkey1 ((a * b * c) ^ (1 / 3 : ℝ)) (by positivity) hrp5
  intro t1 hv6 hv7
  -- rewrite (multiplier 1/3)
  have hm8 : (0 : ℝ) < 1 / 3 := by positivity
  suffices hsub9 : 3 * t1 ≤ a + b + c by
    linear_combination (mul_nonneg hm8.le (sub_nonneg.mpr hsub9))
  -- rewrite (multiplier (a + b + c + t1)**(-2))
  have hm10 : (0 : ℝ) < (a + b + c + t1)⁻¹ ^ 2 := by positivity
  have hid14 : ((a + b + c + t1)⁻¹ ^ 2) * ((a ^ 3 + 3 * b * a ^ 2 + 3 * c * a ^ 2 - t1 * a ^ 2 + 3 * a * b ^ 2 + 6 * a * b * c - 2 * a * b * t1 + 3 * a * c ^ 2 - 2 * a * c * t1 - 5 * a * t1 ^ 2 + b ^ 3 + 3 * c * b ^ 2 - t1 * b ^ 2 + 3 * b * c ^ 2 - 2 * b * c * t1 - 5 * b * t1 ^ 2 + c ^ 3 - t1 * c ^ 2 - 5 * c * t1 ^ 2 - 3 * t1 ^ 3) - (0)) = (a + b + c) - (3 * t1) := by
    have hne12 : (a + b + c + t1) ≠ 0 := by positivity
    have hinv13 : (a + b + c + t1) * (a + b + c + t1)⁻¹ = 1 := mul_inv_cancel₀ hne12
    linear_combination ((a + b + c - 3 * t1) * (a * (a + b + c + t1)⁻¹ + b * (a + b + c + t1)⁻¹ + c * (a + b + c + t1)⁻¹ + t1 * (a + b + c + t1)⁻¹ + 1)) * hinv13
  suffices hsub11 : 0 ≤ a ^ 3 + 3 * b * a ^ 2 + 3 * c * a ^ 2 - t1 * a ^ 2 + 3 * a * b ^ 2 + 6 * a * b * c - 2 * a * b * t1 + 3 * a * c ^ 2 - 2 * a * c * t1 - 5 * a * t1 ^ 2 + b ^ 3 + 3 * c * b ^ 2 - t1 * b ^ 2 + 3 * b * c ^ 2 - 2 * b * c * t1 - 5 * b * t1 ^ 2 + c ^ 3 - t1 * c ^ 2 - 5 * c * t1 ^ 2 - 3 * t1 ^ 3 by
    linear_combination (mul_nonneg hm10.le (sub_nonneg.mpr hsub11)) + hid14
  -- close (sos)
  linear_combination (1 / 21908520) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (1545 * a + 6406 * b - 3818 * c - 4133 * t1))) + (71 / 393744790) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (1545 * a + 2588 * c - 4133 * t1))) + (45299 / 98344) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (t1 - a))) + (1 / 11696400) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (1927 * a + 3420 * b + 94 * c - 5441 * t1))) + (1 / 100698413036400) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (17218702 * c - 11446679 * a - 5772023 * t1))) + (3517363066 / 7360995105) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (t1 - a))) + (1 / 34446240) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (10072 * b - 6641 * a + 94 * c - 3525 * t1))) + (1 / 296559770790240) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (10016499 * a + 17218702 * c - 27235201 * t1))) + (3517363066 / 7360995105) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (t1 - a))) + (1 / 25520040) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (3169 * a + 7462 * b + 3630 * c - 14261 * t1))) + (479 / 35383535460) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (3169 * a + 11092 * c - 14261 * t1))) + (43199039 / 18967320) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (t1 - a))) + 16 * hv7

#print axioms amgm_root_2
