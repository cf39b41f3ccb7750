-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem introduce_sqrt (x : ℝ) (hx : x ≥ 0) :
    2 * Real.sqrt x ≤ x + 1 := by
  have hpos0_1 : 0 ≤ x := hx
  -- introduce s = Real.sqrt x
  suffices hkey1 : ∀ s : ℝ, 0 ≤ s → s ^ 2 = x → 2 * s ≤ x + 1 by
    linear_combination hkey1 (Real.sqrt x) (Real.sqrt_nonneg _) (Real.sq_sqrt (by first | positivity | linarith))
  intro s hv2 hv3
  -- close (sos)
  linear_combination (sq_nonneg (s - 1)) + hv3

#print axioms introduce_sqrt
