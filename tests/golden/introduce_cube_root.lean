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
    linear_combination hkey1 (x ^ (1 / 3 : ℝ)) (by positivity) (by rw [← Real.rpow_natCast, ← Real.rpow_mul (x := x) (by positivity)]; norm_num)
  intro t hv2 hv3
  -- close (sos)
  linear_combination (mul_nonneg (sub_pos.mpr hv2).le (sq_nonneg (t - 1))) + 2 * (sq_nonneg (t - 1)) + hv3

#print axioms introduce_cube_root
