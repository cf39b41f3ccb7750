-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

theorem order_split_two (a b : ℝ) :
    0 ≤ (a - b) * (a ^ 3 - b ^ 3) := by
  -- split on the order of a, b
  suffices hcases5 : (a ≥ b → 0 ≤ (a - b) * (a ^ 3 - b ^ 3)) ∧ (b ≥ a → 0 ≤ (a - b) * (a ^ 3 - b ^ 3)) by
    obtain ⟨hcase1, hcase2⟩ := hcases5
    rcases le_total b a with hle6 | hle6
    · linear_combination hcase1 hle6
    · linear_combination hcase2 hle6
  refine ⟨fun hord3 => ?_, fun hord4 => ?_⟩
  · -- close (sos)
    linear_combination (sq_nonneg ((a + b / 2) * (a - b))) + (3 / 4) * (sq_nonneg (b * (a - b)))
  · -- close (sos)
    linear_combination (sq_nonneg ((a + b / 2) * (a - b))) + (3 / 4) * (sq_nonneg (b * (a - b)))

#print axioms order_split_two
