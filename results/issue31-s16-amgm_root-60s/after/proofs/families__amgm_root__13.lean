-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem amgm_root_13 (a b c d : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (hd : 0 < d) : 4 * (a * b * c * d) ^ (1 / 4 : ℝ) + 3 * (b + c + a) ^ 2 ≤ a + b + c + d + (b ^ 2 + 2) * (c ^ 2 + 2) * (a ^ 2 + 2) := by
  have prover_amgm4_root : ∀ x y z w : ℝ, 0 ≤ x → 0 ≤ y → 0 ≤ z → 0 ≤ w → (x * y * z * w) ^ (1 / 4 : ℝ) ≤ (x + y + z + w) / 4 := by
    intro x y z w h1 h2 h3 h4
    have hw : (0 : ℝ) ≤ (1 / 4 : ℝ) := by positivity
    have hs : (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) = 1 := by linear_combination
    have h : x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) ≤
        (1 / 4 : ℝ) * x + (1 / 4 : ℝ) * y + (1 / 4 : ℝ) * z + (1 / 4 : ℝ) * w :=
      Real.geom_mean_le_arith_mean4_weighted hw hw hw hw h1 h2 h3 h4 hs
    have hm1 : (x * y * z * w) ^ (1 / 4 : ℝ) = (x * y * z) ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) :=
      Real.mul_rpow (mul_nonneg (mul_nonneg h1 h2) h3) h4
    have hm2 : (x * y * z) ^ (1 / 4 : ℝ) = (x * y) ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) :=
      Real.mul_rpow (mul_nonneg h1 h2) h3
    have hm3 : (x * y) ^ (1 / 4 : ℝ) = x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) := Real.mul_rpow h1 h2
    linear_combination h + hm1 + w ^ (1 / 4 : ℝ) * hm2 + z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) * hm3
  -- scale
  -- amgm4_root: prover_amgm4_root
  have hat2 : b * c * d * a = a * b * c * d := by ring
  have hat3 : (b * c * d * a) ^ (1 / 4 : ℝ) = (a * b * c * d) ^ (1 / 4 : ℝ) := congrArg (fun x => x ^ (1 / 4 : ℝ)) hat2
  have happ1 : (a * b * c * d) ^ (1 / 4 : ℝ) ≤ a / 4 + b / 4 + c / 4 + d / 4 := by
    linear_combination prover_amgm4_root (b) (c) (d) (a) (by positivity) (by positivity) (by positivity) (by positivity) + (-1) * hat3
  have hc4 : (0 : ℝ) ≤ 4 := by positivity
  have hm5 : (0 : ℝ) < 1 := by positivity
  suffices hsub6 : a + b + c + d + 3 * (a + b + c) ^ 2 ≤ a + b + c + d + (a ^ 2 + 2) * (b ^ 2 + 2) * (c ^ 2 + 2) by
    linear_combination (mul_nonneg hm5.le (sub_nonneg.mpr hsub6)) + (mul_nonneg hc4 (sub_nonneg.mpr happ1))
  -- close (sos)
  linear_combination (1 / 123810129) * (sq_nonneg (198 * a * b * c - 4438 * a * b - 4438 * a * c + 11127 * a + 10261 * b * c + 64 * b + 64 * c - 12838)) + (1 / 15328440916708257) * (sq_nonneg (2190474 * a * b * c - 49097594 * a * b + 114458179 * a * c - 50038330 * b * c + 123806033 * b + 708032 * c - 142026794)) + (1 / 15504772402044705) * (sq_nonneg (2190474 * a * b * c + 115398915 * a * b - 50038330 * a * c - 50038330 * b * c + 124514065 * c - 142026794)) + (1 / 63326279698982386234473) * (sq_nonneg (228537503723 * a * b - 115757368610 * a * b * c + 142473856956 * a * c + 142473856956 * b * c - 397727849025)) + (38233517 / 10437480763153438315640225173917) * (sq_nonneg (371011360679 * a * c - 115757368610 * a * b * c + 142473856956 * b * c - 397727849025)) + (191167585 / 38322190472302858397457) * (sq_nonneg (9282929 * b * c - 2092694 * a * b * c - 7190235)) + (123352214889 / 172151918305) * (sq_nonneg (a * b * c - 1)) + (1 / 24690813) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (67 * b * c + 4438 * b - 465 * c - 4040))) + (4903 / 98096600049) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (67 * b * c + 3973 * c - 4040))) + (36724348 / 44207571) * (mul_nonneg (sub_pos.mpr ha).le (sq_nonneg (b * c - 1))) + (1 / 24690813) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (67 * a * c + 4438 * a - 465 * c - 4040))) + (4903 / 98096600049) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (67 * a * c + 3973 * c - 4040))) + (36724348 / 44207571) * (mul_nonneg (sub_pos.mpr hb).le (sq_nonneg (a * c - 1))) + (1 / 24690813) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (67 * a * b + 4438 * a - 465 * b - 4040))) + (4903 / 98096600049) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (67 * a * b + 3973 * b - 4040))) + (36724348 / 44207571) * (mul_nonneg (sub_pos.mpr hc).le (sq_nonneg (a * b - 1))) + (532 / 11127) * (mul_nonneg (mul_nonneg (sub_pos.mpr ha).le (sub_pos.mpr hb).le) (sq_nonneg (c - 1))) + (532 / 11127) * (mul_nonneg (mul_nonneg (sub_pos.mpr ha).le (sub_pos.mpr hc).le) (sq_nonneg (b - 1))) + (532 / 11127) * (mul_nonneg (mul_nonneg (sub_pos.mpr hb).le (sub_pos.mpr hc).le) (sq_nonneg (a - 1)))

#print axioms amgm_root_13
