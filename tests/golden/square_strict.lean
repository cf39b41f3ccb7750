-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem square_strict (x : ℝ) (hx : 0 ≤ x) :
    Real.sqrt x < Real.sqrt (x + 1) := by
  -- introduce t1 = Real.sqrt x, t2 = Real.sqrt (x + 1)
  suffices hkey1 : ∀ t1 t2 : ℝ, 0 ≤ t1 → t1 ^ 2 = x → 0 < t2 → t2 ^ 2 = x + 1 → t1 < t2 by
    linear_combination hkey1 (Real.sqrt x) (Real.sqrt (x + 1)) (Real.sqrt_nonneg _) (Real.sq_sqrt (by first | positivity | linarith)) (Real.sqrt_pos.mpr (by first | positivity | linarith)) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 t2 hv2 hv3 hv4 hv5
  -- square both sides: the big side is nonnegative and the squares compare
  suffices hsqs8 : (0 ≤ t2) ∧ (t1 ^ 2 < t2 ^ 2) by
    obtain ⟨hsq6, hsq7⟩ := hsqs8
    linear_combination (abs_lt_of_sq_lt_sq' hsq7 hsq6).2
  refine ⟨?_, ?_⟩
  · -- close (positivity)
    positivity
  · -- close (sos)
    linear_combination hv3 + (-1) * hv5

#print axioms square_strict
