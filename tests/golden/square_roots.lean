-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem sqrt_sum_as_printed (a b : ℝ) (h0 : 0 ≤ a) (h1 : 0 ≤ b) :
    Real.sqrt a + Real.sqrt b ≤ Real.sqrt (2 * a + 2 * b) := by
  -- introduce t1 = Real.sqrt a, t2 = Real.sqrt b, t3 = Real.sqrt (2 * a + 2 * b)
  suffices hkey1 : ∀ t1 t2 t3 : ℝ, 0 ≤ t1 → t1 ^ 2 = a → 0 ≤ t2 → t2 ^ 2 = b → 0 ≤ t3 → t3 ^ 2 = 2 * a + 2 * b → t1 + t2 ≤ t3 by
    linear_combination hkey1 (Real.sqrt a) (Real.sqrt b) (Real.sqrt (2 * a + 2 * b)) (Real.sqrt_nonneg _) (Real.sq_sqrt (by first | positivity | linarith)) (Real.sqrt_nonneg _) (Real.sq_sqrt (by first | positivity | linarith)) (Real.sqrt_nonneg _) (Real.sq_sqrt (by first | positivity | linarith))
  intro t1 t2 t3 hv2 hv3 hv4 hv5 hv6 hv7
  -- square both sides: the big side is nonnegative and the squares compare
  suffices hsqs10 : (0 ≤ t3) ∧ (t1 ^ 2 + 2 * t1 * t2 + t2 ^ 2 ≤ t3 ^ 2) by
    obtain ⟨hsq8, hsq9⟩ := hsqs10
    have hsq11 : (t1 + t2) ^ 2 ≤ t3 ^ 2 := by linear_combination hsq9
    linear_combination (abs_le_of_sq_le_sq' hsq11 hsq8).2
  refine ⟨?_, ?_⟩
  · -- close (positivity)
    positivity
  · -- close (sos)
    linear_combination (sq_nonneg (t1 - t2)) + 2 * hv3 + 2 * hv5 + (-1) * hv7

#print axioms sqrt_sum_as_printed
