-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem combine_constrained (x y z w : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (hw : 0 < w) (h1 : x + 2 * y = 3) (h2 : 2 * w + z = 3) :
    w * x * y * z ≤ 81 / 64 := by
  -- combine 4 independent parts
  suffices hparts5 : (x * y ≤ 9 / 8) ∧ (w * z ≤ 9 / 8) ∧ (0 ≤ x * y) ∧ (0 ≤ w * z) by
    obtain ⟨hpart1, hpart2, hpart3, hpart4⟩ := hparts5
    linear_combination (mul_nonneg (sub_nonneg.mpr hpart1) (sub_nonneg.mpr hpart2)) + (mul_nonneg (sub_nonneg.mpr hpart1) (sub_nonneg.mpr hpart4)) + (mul_nonneg (sub_nonneg.mpr hpart2) (sub_nonneg.mpr hpart3))
  refine ⟨?_, ?_, ?_, ?_⟩
  · -- close (sos)
    linear_combination 2 * (sq_nonneg (y - 3 / 4)) + y * h1
  · -- close (sos)
    linear_combination 2 * (sq_nonneg (w - 3 / 4)) + w * h2
  · -- close (sos)
    linear_combination (mul_nonneg (sub_pos.mpr hx).le (sub_pos.mpr hy).le)
  · -- close (sos)
    linear_combination (mul_nonneg (sub_pos.mpr hz).le (sub_pos.mpr hw).le)

#print axioms combine_constrained
