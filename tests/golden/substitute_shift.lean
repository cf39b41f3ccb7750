-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem substitute_shift (a : ℝ) (ha : a ≥ 1) :
    a ^ 2 ≥ 2 * a - 1 := by
  rw [ge_iff_le]
  -- substitute a = u + 1
  suffices hkey1 : ∀ u : ℝ, 1 ≤ u + 1 → 2 * u + 1 ≤ (u + 1) ^ 2 by
    linear_combination hkey1 (a - 1) (by first | positivity | linarith only [ha])
  intro u hv2
  -- close (sos)
  linear_combination (sq_nonneg (u))

#print axioms substitute_shift
