-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_7 (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : 2 * (a ^ 2 + b ^ 2 + c ^ 2) ≥ 2 * (3 * (a * b * c) ^ (2 / 3 : ℝ)) := by
  rw [ge_iff_le]
  -- introduce t1 = (a * b * c) ^ (1 / 3 : ℝ)
  suffices hkey1 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 3 = a * b * c → 6 * t1 ^ 2 ≤ 2 * a ^ 2 + 2 * b ^ 2 + 2 * c ^ 2 by
    have hrp6 : (a * b * c) ^ (2 / 3 : ℝ) = (a * b * c) ^ (1 / 3 : ℝ) * (a * b * c) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp7 : ((a * b * c) ^ (1 / 3 : ℝ)) ^ 2 = (a * b * c) ^ (2 / 3 : ℝ) := by linear_combination -hrp6
    have hrp2 : (a * b * c) ^ (2 / 3 : ℝ) = (a * b * c) ^ (1 / 3 : ℝ) * (a * b * c) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp3 : (a * b * c) ^ (1 : ℝ) = (a * b * c) ^ (2 / 3 : ℝ) * (a * b * c) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp4 : (a * b * c) ^ (1 : ℝ) = (a * b * c) := Real.rpow_one (a * b * c)
    have hrp5 : ((a * b * c) ^ (1 / 3 : ℝ)) ^ 3 = (a * b * c) := by linear_combination (-((a * b * c) ^ (1 / 3 : ℝ))) * hrp2 + -hrp3 + hrp4
    linear_combination hkey1 ((a * b * c) ^ (1 / 3 : ℝ)) (by positivity) hrp5 + (-6) * hrp7
  intro t1 hv8 hv9
  -- rewrite (multiplier 2)
  have hm10 : (0 : ℝ) < 2 := by positivity
  suffices hsub11 : 3 * t1 ^ 2 ≤ a ^ 2 + b ^ 2 + c ^ 2 by
    linear_combination (mul_nonneg hm10.le (sub_nonneg.mpr hsub11))
  -- rewrite (multiplier 1/(a + b + c + t1))
  have hm12 : (0 : ℝ) < (a + b + c + t1)⁻¹ := by positivity
  have hid16 : ((a + b + c + t1)⁻¹) * ((a ^ 3 + b * a ^ 2 + c * a ^ 2 + t1 * a ^ 2 + a * b ^ 2 + a * c ^ 2 - 3 * a * t1 ^ 2 + b ^ 3 + c * b ^ 2 + t1 * b ^ 2 + b * c ^ 2 - 3 * b * t1 ^ 2 + c ^ 3 + t1 * c ^ 2 - 3 * c * t1 ^ 2 - 3 * t1 ^ 3) - (0)) = (a ^ 2 + b ^ 2 + c ^ 2) - (3 * t1 ^ 2) := by
    have hne14 : (a + b + c + t1) ≠ 0 := by positivity
    have hinv15 : (a + b + c + t1) * (a + b + c + t1)⁻¹ = 1 := mul_inv_cancel₀ hne14
    linear_combination ((a ^ 2 + b ^ 2 + c ^ 2 - 3 * t1 ^ 2)) * hinv15
  suffices hsub13 : 0 ≤ a ^ 3 + b * a ^ 2 + c * a ^ 2 + t1 * a ^ 2 + a * b ^ 2 + a * c ^ 2 - 3 * a * t1 ^ 2 + b ^ 3 + c * b ^ 2 + t1 * b ^ 2 + b * c ^ 2 - 3 * b * t1 ^ 2 + c ^ 3 + t1 * c ^ 2 - 3 * c * t1 ^ 2 - 3 * t1 ^ 3 by
    linear_combination (mul_nonneg hm12.le (sub_nonneg.mpr hsub13)) + hid16
  -- close (sos)
  linear_combination (1 / 64) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (8 * a - 3 * b - 3 * c - 2 * t1))) + (1 / 59328) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (309 * b - 283 * c - 26 * t1))) + (481 / 1854) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (c - t1))) + (1 / 1008) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (42 * a - 9 * b - 32 * c - t1))) + (1 / 11536) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (103 * b - 74 * c - 29 * t1))) + (481 / 1854) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (c - t1))) + (1 / 1008) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (42 * a - 32 * b - 9 * c - t1))) + (37 / 5040) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (10 * b - 9 * c - t1))) + (13 / 40) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (c - t1))) + (1 / 216) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (18 * a + b + c - 20 * t1))) + (17 / 4104) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (19 * b + c - 20 * t1))) + (85 / 57) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (c - t1))) + 8 * hv9

#print axioms amgm_root_7
