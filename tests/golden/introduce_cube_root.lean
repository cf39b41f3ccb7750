-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem introduce_cube_root (x : ℝ) (hx : x > 0) :
    3 * x ^ (1 / 3 : ℝ) ≤ x + 2 := by
  have hpos0_1 : 0 < x := hx
  -- introduce t = x ^ (1 / 3 : ℝ)
  suffices hkey1 : ∀ t : ℝ, 0 < t → t ^ 3 = x → 3 * t ≤ x + 2 by
    have hrp2 : x ^ (2 / 3 : ℝ) = x ^ (1 / 3 : ℝ) * x ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp3 : x ^ (1 : ℝ) = x ^ (2 / 3 : ℝ) * x ^ (1 / 3 : ℝ) := Real.rpow_of_add_eq (by first | positivity | linarith) (by positivity) (by linear_combination)
    have hrp4 : x ^ (1 : ℝ) = x := Real.rpow_one x
    have hrp5 : (x ^ (1 / 3 : ℝ)) ^ 3 = x := by linear_combination (-(x ^ (1 / 3 : ℝ))) * hrp2 + -hrp3 + hrp4
    linear_combination hkey1 (x ^ (1 / 3 : ℝ)) (by positivity) hrp5
  intro t hv6 hv7
  -- close (sos)
  linear_combination (mul_nonneg (sub_pos.mpr hv6).le (sq_nonneg (t - 1))) + 2 * (sq_nonneg (t - 1)) + hv7

#print axioms introduce_cube_root
