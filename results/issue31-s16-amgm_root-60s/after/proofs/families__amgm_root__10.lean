-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_10 (p q r : ℝ) (hp : 0 < p) (hq : 0 < q) (hr : 0 < r) : (p ^ 2 + q ^ 2 + r ^ 2) / 3 ≥ (19 : ℝ) / 20 * (p ^ 2 * q ^ 2 * r ^ 2) ^ (1 / 3 : ℝ) := by
  rw [ge_iff_le]
  -- introduce t1 = |p| ^ (1 / 3 : ℝ), t2 = |q| ^ (1 / 3 : ℝ), t3 = |r| ^ (1 / 3 : ℝ)
  suffices hkey1 : ∀ t1 t2 t3 : ℝ, 0 < t1 → t1 ^ 3 = |p| → 0 < t2 → t2 ^ 3 = |q| → 0 < t3 → t3 ^ 3 = |r| → 19 * t1 ^ 2 * t2 ^ 2 * t3 ^ 2 / 20 ≤ p ^ 2 / 3 + q ^ 2 / 3 + r ^ 2 / 3 by
    have hrp2 : |p| ^ (2 / 3 : ℝ) = |p| ^ (1 / 3 : ℝ) * |p| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp3 : |p| ^ (1 : ℝ) = |p| ^ (2 / 3 : ℝ) * |p| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp4 : |p| ^ (1 : ℝ) = |p| := Real.rpow_one (|p|)
    have hrp5 : (|p| ^ (1 / 3 : ℝ)) ^ 3 = |p| := by linear_combination (-(|p| ^ (1 / 3 : ℝ))) * hrp2 + -hrp3 + hrp4
    have hrp6 : |q| ^ (2 / 3 : ℝ) = |q| ^ (1 / 3 : ℝ) * |q| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp7 : |q| ^ (1 : ℝ) = |q| ^ (2 / 3 : ℝ) * |q| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp8 : |q| ^ (1 : ℝ) = |q| := Real.rpow_one (|q|)
    have hrp9 : (|q| ^ (1 / 3 : ℝ)) ^ 3 = |q| := by linear_combination (-(|q| ^ (1 / 3 : ℝ))) * hrp6 + -hrp7 + hrp8
    have hrp10 : |r| ^ (2 / 3 : ℝ) = |r| ^ (1 / 3 : ℝ) * |r| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp11 : |r| ^ (1 : ℝ) = |r| ^ (2 / 3 : ℝ) * |r| ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp12 : |r| ^ (1 : ℝ) = |r| := Real.rpow_one (|r|)
    have hrp13 : (|r| ^ (1 / 3 : ℝ)) ^ 3 = |r| := by linear_combination (-(|r| ^ (1 / 3 : ℝ))) * hrp10 + -hrp11 + hrp12
    linear_combination hkey1 (|p| ^ (1 / 3 : ℝ)) (|q| ^ (1 / 3 : ℝ)) (|r| ^ (1 / 3 : ℝ)) (by positivity) hrp5 (by positivity) hrp9 (by positivity) hrp13
  intro t1 t2 t3 hv14 hv15 hv16 hv17 hv18 hv19
  -- scale
  -- amgm3: replayed from its kernel certificate
  have hsc21 : 0 ≤ t1 ^ 2 := by positivity
  have hsc22 : 0 ≤ t2 ^ 2 := by positivity
  have hsc23 : 0 ≤ t3 ^ 2 := by positivity
  have happ20 : 3 * t1 ^ 2 * t2 ^ 2 * t3 ^ 2 ≤ t1 ^ 6 + t2 ^ 6 + t3 ^ 6 := by
    linear_combination (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc21) (sq_nonneg (t1 ^ 2 - t2 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc21) (sq_nonneg (t2 ^ 2 - t3 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc21) (sq_nonneg (t3 ^ 2 - t1 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc22) (sq_nonneg (t1 ^ 2 - t2 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc22) (sq_nonneg (t2 ^ 2 - t3 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc22) (sq_nonneg (t3 ^ 2 - t1 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc23) (sq_nonneg (t1 ^ 2 - t2 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc23) (sq_nonneg (t2 ^ 2 - t3 ^ 2))) + (1 / 2) * (mul_nonneg (sub_nonneg.mpr hsc23) (sq_nonneg (t3 ^ 2 - t1 ^ 2)))
  have hc24 : (0 : ℝ) ≤ 19 / 60 := by positivity
  have hm25 : (0 : ℝ) < 1 := by positivity
  suffices hsub26 : 19 * t1 ^ 6 / 60 + 19 * t2 ^ 6 / 60 + 19 * t3 ^ 6 / 60 ≤ p ^ 2 / 3 + q ^ 2 / 3 + r ^ 2 / 3 by
    linear_combination (mul_nonneg hm25.le (sub_nonneg.mpr hsub26)) + (mul_nonneg hc24 (sub_nonneg.mpr happ20))
  -- introduce t11 = |p|, t21 = |q|, t31 = |r|
  suffices hkey27 : ∀ t11 t21 t31 : ℝ, t1 ^ 3 = t11 → t2 ^ 3 = t21 → t3 ^ 3 = t31 → 0 < t11 → t11 = p → 0 < t21 → t21 = q → 0 < t31 → t31 = r → 19 * t1 ^ 6 / 60 + 19 * t2 ^ 6 / 60 + 19 * t3 ^ 6 / 60 ≤ p ^ 2 / 3 + q ^ 2 / 3 + r ^ 2 / 3 by
    have hab28 : |p| = p := abs_of_pos (by first | positivity | linarith)
    have hab29 : |q| = q := abs_of_pos (by first | positivity | linarith)
    have hab30 : |r| = r := abs_of_pos (by first | positivity | linarith)
    linear_combination hkey27 (|p|) (|q|) (|r|) (by linear_combination hv15) (by linear_combination hv17) (by linear_combination hv19) (abs_pos_of_pos (by first | positivity | linarith)) (by linear_combination hab28) (abs_pos_of_pos (by first | positivity | linarith)) (by linear_combination hab29) (abs_pos_of_pos (by first | positivity | linarith)) (by linear_combination hab30)
  intro t11 t21 t31 hv31 hv32 hv33 hv34 hv35 hv36 hv37 hv38 hv39
  -- rewrite (multiplier 1)
  have hm40 : (0 : ℝ) < 1 := by positivity
  suffices hsub41 : 19 * t11 ^ 2 / 60 + 19 * t21 ^ 2 / 60 + 19 * t31 ^ 2 / 60 ≤ p ^ 2 / 3 + q ^ 2 / 3 + r ^ 2 / 3 by
    linear_combination (mul_nonneg hm40.le (sub_nonneg.mpr hsub41)) + (19 * t1 ^ 3 / 60 + 19 * t11 / 60) * hv31 + (19 * t2 ^ 3 / 60 + 19 * t21 / 60) * hv32 + (19 * t3 ^ 3 / 60 + 19 * t31 / 60) * hv33
  -- rewrite (multiplier 1/60)
  have hm42 : (0 : ℝ) < 1 / 60 := by positivity
  suffices hsub43 : 19 * t11 ^ 2 + 19 * t21 ^ 2 + 19 * t31 ^ 2 ≤ 20 * p ^ 2 + 20 * q ^ 2 + 20 * r ^ 2 by
    linear_combination (mul_nonneg hm42.le (sub_nonneg.mpr hsub43))
  -- close (sos)
  linear_combination (1 / 4) * (sq_nonneg (2 * p - t11)) + (1 / 4) * (sq_nonneg (2 * q - t21)) + (1 / 4) * (sq_nonneg (2 * r - t31)) + (3 / 4) * (sq_nonneg (t11)) + (3 / 4) * (sq_nonneg (t21)) + (3 / 4) * (sq_nonneg (t31)) + (19 * p + 20 * t11) * hv35 + (19 * q + 20 * t21) * hv37 + (19 * r + 20 * t31) * hv39

#print axioms amgm_root_10
