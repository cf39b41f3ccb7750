-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_15 (x y z : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) : (1 / x) ^ 2 + (1 / y) ^ 2 + (1 / z) ^ 2 ≥ (4 : ℝ) / 5 * (3 * (1 / x * (1 / y) * (1 / z)) ^ (2 / 3 : ℝ)) := by
  rw [ge_iff_le]
  -- substitute x = 1 / x_, y = 1 / y_, z = 1 / z_
  suffices hkey1 : ∀ x_ y_ z_ : ℝ, 0 < x_ → 0 < y_ → 0 < z_ → 12 * (x_ * y_ * z_) ^ (2 / 3 : ℝ) / 5 ≤ x_ ^ 2 + y_ ^ 2 + z_ ^ 2 by
    have hpair2 : 4 / 5 * (3 * (1 / x * (1 / y) * (1 / z)) ^ (2 / 3 : ℝ)) = 12 * (1 / x * (1 / y) * (1 / z)) ^ (2 / 3 : ℝ) / 5 := by
      ring
    have hpair3 : (1 / x) ^ 2 = (1 / x) ^ 2 := by
      ring
    have hpair4 : (1 / y) ^ 2 = (1 / y) ^ 2 := by
      ring
    have hpair5 : (1 / z) ^ 2 = (1 / z) ^ 2 := by
      ring
    linear_combination hkey1 (1 / x) (1 / y) (1 / z) (by positivity) (by positivity) (by positivity) + hpair2 + (-1) * hpair3 + (-1) * hpair4 + (-1) * hpair5
  intro x_ y_ z_ hv6 hv7 hv8
  -- introduce t1 = (x_ * y_ * z_) ^ (1 / 3 : ℝ)
  suffices hkey9 : ∀ t1 : ℝ, 0 < t1 → t1 ^ 3 = x_ * y_ * z_ → 12 * t1 ^ 2 / 5 ≤ x_ ^ 2 + y_ ^ 2 + z_ ^ 2 by
    have hrp14 : (x_ * y_ * z_) ^ (2 / 3 : ℝ) = (x_ * y_ * z_) ^ (1 / 3 : ℝ) * (x_ * y_ * z_) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp15 : ((x_ * y_ * z_) ^ (1 / 3 : ℝ)) ^ 2 = (x_ * y_ * z_) ^ (2 / 3 : ℝ) := by linear_combination -hrp14
    have hrp10 : (x_ * y_ * z_) ^ (2 / 3 : ℝ) = (x_ * y_ * z_) ^ (1 / 3 : ℝ) * (x_ * y_ * z_) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp11 : (x_ * y_ * z_) ^ (1 : ℝ) = (x_ * y_ * z_) ^ (2 / 3 : ℝ) * (x_ * y_ * z_) ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp12 : (x_ * y_ * z_) ^ (1 : ℝ) = (x_ * y_ * z_) := Real.rpow_one (x_ * y_ * z_)
    have hrp13 : ((x_ * y_ * z_) ^ (1 / 3 : ℝ)) ^ 3 = (x_ * y_ * z_) := by linear_combination (-((x_ * y_ * z_) ^ (1 / 3 : ℝ))) * hrp10 + -hrp11 + hrp12
    linear_combination hkey9 ((x_ * y_ * z_) ^ (1 / 3 : ℝ)) (by positivity) hrp13 + (-(12 / 5)) * hrp15
  intro t1 hv16 hv17
  -- rewrite (multiplier 1/5)
  have hm18 : (0 : ℝ) < 1 / 5 := by positivity
  suffices hsub19 : 12 * t1 ^ 2 ≤ 5 * x_ ^ 2 + 5 * y_ ^ 2 + 5 * z_ ^ 2 by
    linear_combination (mul_nonneg hm18.le (sub_nonneg.mpr hsub19))
  -- rewrite (multiplier 1/(t1 + x_ + y_ + z_))
  have hm20 : (0 : ℝ) < (t1 + x_ + y_ + z_)⁻¹ := by positivity
  have hid24 : ((t1 + x_ + y_ + z_)⁻¹) * ((5 * t1 * x_ ^ 2 - 12 * t1 ^ 3 - 12 * x_ * t1 ^ 2 - 12 * y_ * t1 ^ 2 - 12 * z_ * t1 ^ 2 + 5 * t1 * y_ ^ 2 + 5 * t1 * z_ ^ 2 + 5 * x_ ^ 3 + 5 * y_ * x_ ^ 2 + 5 * z_ * x_ ^ 2 + 5 * x_ * y_ ^ 2 + 5 * x_ * z_ ^ 2 + 5 * y_ ^ 3 + 5 * z_ * y_ ^ 2 + 5 * y_ * z_ ^ 2 + 5 * z_ ^ 3) - (0)) = (5 * x_ ^ 2 + 5 * y_ ^ 2 + 5 * z_ ^ 2) - (12 * t1 ^ 2) := by
    have hne22 : (t1 + x_ + y_ + z_) ≠ 0 := by positivity
    have hinv23 : (t1 + x_ + y_ + z_) * (t1 + x_ + y_ + z_)⁻¹ = 1 := mul_inv_cancel₀ hne22
    linear_combination ((-12 * t1 ^ 2 + 5 * x_ ^ 2 + 5 * y_ ^ 2 + 5 * z_ ^ 2)) * hinv23
  suffices hsub21 : 0 ≤ 5 * t1 * x_ ^ 2 - 12 * t1 ^ 3 - 12 * x_ * t1 ^ 2 - 12 * y_ * t1 ^ 2 - 12 * z_ * t1 ^ 2 + 5 * t1 * y_ ^ 2 + 5 * t1 * z_ ^ 2 + 5 * x_ ^ 3 + 5 * y_ * x_ ^ 2 + 5 * z_ * x_ ^ 2 + 5 * x_ * y_ ^ 2 + 5 * x_ * z_ ^ 2 + 5 * y_ ^ 3 + 5 * z_ * y_ ^ 2 + 5 * y_ * z_ ^ 2 + 5 * z_ ^ 3 by
    linear_combination (mul_nonneg hm20.le (sub_nonneg.mpr hsub21)) + hid24
  -- close (sos)
  linear_combination (1 / 125) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (25 * x_ - 2 * t1 - 5 * y_ - 5 * z_))) + (1 / 523604250) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (59670 * y_ - 8127 * t1 - 48230 * z_))) + (83 / 4607717400) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (11440 * z_ - 8127 * t1))) + (242457 / 371800) * (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (t1))) + (1 / 862407) * (mul_nonneg (sub_pos.mpr hv7).le (sq_nonneg (2457 * x_ - 297 * t1 - 351 * y_ - 1859 * z_))) + (1 / 733045950) * (mul_nonneg (sub_pos.mpr hv7).le (sq_nonneg (59670 * y_ - 6399 * t1 - 21580 * z_))) + (83 / 4607717400) * (mul_nonneg (sub_pos.mpr hv7).le (sq_nonneg (11440 * z_ - 8127 * t1))) + (242457 / 371800) * (mul_nonneg (sub_pos.mpr hv7).le (sq_nonneg (t1))) + (1 / 862407) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (2457 * x_ - 297 * t1 - 1859 * y_ - 351 * z_))) + (166 / 19835361) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (598 * y_ - 297 * t1 - 351 * z_))) + (1 / 8551400) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (5720 * z_ - 2083 * t1))) + (242457 / 371800) * (mul_nonneg (sub_pos.mpr hv8).le (sq_nonneg (t1))) + (1 / 24505) * (mul_nonneg (sub_pos.mpr hv16).le (sq_nonneg (377 * x_ - 455 * t1 + 75 * y_ + 75 * z_))) + (151 / 5538130) * (mul_nonneg (sub_pos.mpr hv16).le (sq_nonneg (452 * y_ - 455 * t1 + 75 * z_))) + (151 / 7741630) * (mul_nonneg (sub_pos.mpr hv16).le (sq_nonneg (527 * z_ - 455 * t1))) + (11312 / 14229) * (mul_nonneg (sub_pos.mpr hv16).le (sq_nonneg (t1))) + (23 / 27) * (mul_nonneg (mul_nonneg (sub_pos.mpr hv6).le (sub_pos.mpr hv7).le) (sub_pos.mpr hv8).le) + (14 / 13) * (mul_nonneg (mul_nonneg (sub_pos.mpr hv6).le (sub_pos.mpr hv7).le) (sub_pos.mpr hv16).le) + (14 / 13) * (mul_nonneg (mul_nonneg (sub_pos.mpr hv6).le (sub_pos.mpr hv8).le) (sub_pos.mpr hv16).le) + (14 / 13) * (mul_nonneg (mul_nonneg (sub_pos.mpr hv7).le (sub_pos.mpr hv8).le) (sub_pos.mpr hv16).le) + (835 / 27) * hv17

#print axioms amgm_root_15
