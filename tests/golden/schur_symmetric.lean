-- Rendered by prover for Mathlib v4.16.0 (lean_project/); not compiled when written: check it with `prover lean check FILE`.
import Mathlib

open Real

-- Benchmark convention: every `/` is real division.
macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))

theorem schur (a b c : ℝ) (ha : a ≥ 0) (hb : b ≥ 0) (hc : c ≥ 0) :
    0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) := by
  have hpos0_1 : 0 ≤ a := ha
  have hpos0_2 : 0 ≤ b := hb
  have hpos0_3 : 0 ≤ c := hc
  -- split on the order of a, b, c (full symmetry)
  suffices hcases7 : ∀ a b c : ℝ, 0 ≤ a → 0 ≤ b → 0 ≤ c → a ≥ b → b ≥ c → 0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) by
    have hcase1 := hcases7
    rcases le_total b a with hle8 | hle8
    · rcases le_total c b with hle9 | hle9
      · linear_combination hcase1 (a) (b) (c) ha hb hc hle8 hle9
      · rcases le_total c a with hle10 | hle10
        · linear_combination hcase1 (a) (c) (b) ha hc hb hle10 hle9
        · linear_combination hcase1 (c) (a) (b) hc ha hb hle10 hle8
    · rcases le_total c a with hle11 | hle11
      · linear_combination hcase1 (b) (a) (c) hb ha hc hle8 hle11
      · rcases le_total c b with hle12 | hle12
        · linear_combination hcase1 (b) (c) (a) hb hc ha hle12 hle11
        · linear_combination hcase1 (c) (b) (a) hc hb ha hle12 hle8
  refine fun a b c hh2 hh3 hh4 hord5 hord6 => ?_
  -- close (sos)
  linear_combination (mul_nonneg (sub_nonneg.mpr hord5) (sq_nonneg (a - b))) + 2 * (mul_nonneg (sub_nonneg.mpr hord6) (sq_nonneg (a - b))) + (mul_nonneg (sub_nonneg.mpr hh4) (sq_nonneg (a - b))) + (mul_nonneg (mul_nonneg (sub_nonneg.mpr hh4) (sub_nonneg.mpr hord5)) (sub_nonneg.mpr hord6)) + (mul_nonneg (sub_nonneg.mpr hh4) (sq_nonneg (b - c)))

#print axioms schur
