-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem scale_amgm (a b c : ℝ) (ha : a ≥ 0) (hb : b ≥ 0) :
    Real.sqrt (a * b) ≤ a / 2 + b / 2 + c ^ 2 := by
  have prover_amgm2_sqrt : ∀ x y : ℝ, 0 ≤ x → 0 ≤ y → Real.sqrt (x * y) ≤ (x + y) / 2 := by
    intro x y h1 h2
    have hs : Real.sqrt (x * y) ^ 2 = x * y := Real.sq_sqrt (mul_nonneg h1 h2)
    have hsq : Real.sqrt (x * y) ^ 2 ≤ ((x + y) / 2) ^ 2 := by
      linear_combination hs + (1 / 4 : ℝ) * sq_nonneg (x - y)
    have hm : 0 ≤ (x + y) / 2 := by positivity
    exact (abs_le_of_sq_le_sq' hsq hm).2
  have hpos0_1 : 0 ≤ a := ha
  have hpos0_2 : 0 ≤ b := hb
  -- scale
  -- amgm2_sqrt: prover_amgm2_sqrt
  have happ1 : Real.sqrt (a * b) ≤ a / 2 + b / 2 := by
    linear_combination prover_amgm2_sqrt (a) (b) (by positivity) (by positivity)
  have hm2 : (0 : ℝ) < 1 := by positivity
  suffices hsub3 : 0 ≤ c ^ 2 by
    linear_combination (mul_nonneg hm2.le (sub_nonneg.mpr hsub3)) + (sub_nonneg.mpr happ1)
  -- close (sos)
  linear_combination (sq_nonneg (c))

#print axioms scale_amgm
