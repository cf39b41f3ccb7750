import Mathlib

/-!
# Catalogue lemmas that Mathlib (v4.16.0) lacks in the shape the prover uses

Each lemma is an instance `lhs ≤ rhs` with explicit variables first and side conditions
after them, in the order of the catalogue entry (`tactics/`), so a rendered `scale` step
can apply it as `Prover.name x₁ … xₙ h₁ … hₖ`.

Every proof replays an exact certificate: an identity checked by `ring` (inside
`linear_combination` or after `field_simp`) plus nonnegativity facts. The identities are
re-checked with exact arithmetic by `tests/test_lean_project.py`.
-/

namespace Prover

/-- Cauchy–Schwarz for three terms, from Lagrange's identity. -/
theorem cauchy_schwarz3 (a₁ a₂ a₃ b₁ b₂ b₃ : ℝ) :
    (a₁ * b₁ + a₂ * b₂ + a₃ * b₃) ^ 2 ≤
      (a₁ ^ 2 + a₂ ^ 2 + a₃ ^ 2) * (b₁ ^ 2 + b₂ ^ 2 + b₃ ^ 2) := by
  linear_combination sq_nonneg (a₁ * b₂ - a₂ * b₁) + sq_nonneg (a₁ * b₃ - a₃ * b₁) +
    sq_nonneg (a₂ * b₃ - a₃ * b₂)

/-- AM-GM for two nonnegative reals, square-root form. -/
theorem amgm2_sqrt (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :
    2 * Real.sqrt (a * b) ≤ a + b := by
  rw [Real.sqrt_mul ha b]
  have h₁ : Real.sqrt a ^ 2 = a := Real.sq_sqrt ha
  have h₂ : Real.sqrt b ^ 2 = b := Real.sq_sqrt hb
  linear_combination sq_nonneg (Real.sqrt a - Real.sqrt b) + h₁ + h₂

/-- AM-GM for three cubes: `3abc ≤ a³ + b³ + c³` for nonnegative reals. -/
theorem amgm3_cubes (a b c : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) :
    3 * (a * b * c) ≤ a ^ 3 + b ^ 3 + c ^ 3 := by
  have hs : 0 ≤ a + b + c := add_nonneg (add_nonneg ha hb) hc
  linear_combination (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (a - b)) +
    (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (b - c)) +
    (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (c - a))

/-- Titu / Cauchy–Engel for two terms with positive denominators. -/
theorem titu2 (x y a b : ℝ) (ha : 0 < a) (hb : 0 < b) :
    (x + y) ^ 2 / (a + b) ≤ x ^ 2 / a + y ^ 2 / b := by
  have hab : 0 < a + b := add_pos ha hb
  have key : x ^ 2 / a + y ^ 2 / b - (x + y) ^ 2 / (a + b) =
      (x * b - y * a) ^ 2 / (a * b * (a + b)) := by
    field_simp
    ring
  have hnn : 0 ≤ (x * b - y * a) ^ 2 / (a * b * (a + b)) := by positivity
  linarith

/-- Schur's inequality (t = 1) for an ordered triple `a ≥ b ≥ c ≥ 0`. -/
theorem schur_ordered (a b c : ℝ) (hc : 0 ≤ c) (hab : b ≤ a) (hbc : c ≤ b) :
    0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) := by
  have h₁ : 0 ≤ (a - b) ^ 2 * (a + b - c) := mul_nonneg (sq_nonneg _) (by linarith)
  have h₂ : 0 ≤ c * ((a - c) * (b - c)) :=
    mul_nonneg hc (mul_nonneg (by linarith) (by linarith))
  linear_combination h₁ + h₂

/-- Schur's inequality (t = 1) for nonnegative reals: reduce to the ordered case. -/
theorem schur (a b c : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) :
    0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) := by
  rcases le_total b a with h₁ | h₁ <;> rcases le_total c b with h₂ | h₂ <;>
    rcases le_total c a with h₃ | h₃ <;>
    first
    | linear_combination schur_ordered a b c hc (by linarith) (by linarith)
    | linear_combination schur_ordered a c b hb (by linarith) (by linarith)
    | linear_combination schur_ordered b a c hc (by linarith) (by linarith)
    | linear_combination schur_ordered b c a ha (by linarith) (by linarith)
    | linear_combination schur_ordered c a b hb (by linarith) (by linarith)
    | linear_combination schur_ordered c b a ha (by linarith) (by linarith)

end Prover
