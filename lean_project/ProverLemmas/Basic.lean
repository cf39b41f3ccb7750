import Mathlib

/-!
# Catalogue lemmas trusted to Lean (Mathlib v4.16.0)

The non-polynomial lemmas of the catalogue (`tactics/lemmas/*.json`, `trust: "lean"`) that
Mathlib lacks in this shape, with complete proofs. Convention (the renderer relies on it): the
variables are explicit arguments in catalogue order, then one hypothesis per side condition, and
the statement is the catalogue's `lhs ≤ rhs`. The polynomial identities behind the proofs are
re-checked with exact arithmetic by `tests/test_lean_project.py`.

The proofs use only what `prover lean replay` checks (`have`, `linear_combination`, `positivity`,
`rcases le_total`, the Mathlib lemmas listed in docs/lean-names.md): a rendered file never imports
this library; it states and proves the lemmas it uses itself, from this text
(`prover.lean.render.local_lemmas`, as `prover_<name>`).
-/

namespace Prover.Lemmas

/-- Three-term AM-GM for cubes: `3XYZ ≤ X³ + Y³ + Z³` for `X, Y, Z ≥ 0`
(`X³ + Y³ + Z³ − 3XYZ = ½ (X + Y + Z) ((X − Y)² + (Y − Z)² + (Z − X)²)`). -/
theorem cubes_amgm (X Y Z : ℝ) (hX : 0 ≤ X) (hY : 0 ≤ Y) (hZ : 0 ≤ Z) :
    3 * (X * Y * Z) ≤ X ^ 3 + Y ^ 3 + Z ^ 3 := by
  have hs : 0 ≤ X + Y + Z := add_nonneg (add_nonneg hX hY) hZ
  linear_combination (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (X - Y)) +
    (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (Y - Z)) +
    (1 / 2 : ℝ) * mul_nonneg hs (sq_nonneg (Z - X))

/-- Schur's inequality (t = 1) for an ordered triple `a ≥ b ≥ c ≥ 0`:
`(a − b)²(a + b − c) + c(a − c)(b − c)`, each factor a linear combination of the hypotheses. -/
theorem schur_ordered (a b c : ℝ) (hc : 0 ≤ c) (hab : b ≤ a) (hbc : c ≤ b) :
    0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) := by
  have h₀ : 0 ≤ a + b - c := by linear_combination hab + 2 * hbc + hc
  have h₁ : 0 ≤ (a - b) ^ 2 * (a + b - c) := mul_nonneg (sq_nonneg (a - b)) h₀
  have hac : 0 ≤ a - c := by linear_combination hab + hbc
  have hbc' : 0 ≤ b - c := by linear_combination hbc
  have h₂ : 0 ≤ c * ((a - c) * (b - c)) := mul_nonneg hc (mul_nonneg hac hbc')
  linear_combination h₁ + h₂

/-- Schur's inequality (t = 1) for nonnegative reals: one case per order of `a, b, c`
(`le_total`), each the ordered case at that order. -/
theorem schur (a b c : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) :
    0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b) := by
  rcases le_total b a with hba | hab
  · rcases le_total c b with hcb | hbc
    · linear_combination schur_ordered a b c hc hba hcb
    · rcases le_total c a with hca | hac
      · linear_combination schur_ordered a c b hb hca hbc
      · linear_combination schur_ordered c a b hb hac hba
  · rcases le_total c b with hcb | hbc
    · rcases le_total c a with hca | hac
      · linear_combination schur_ordered b a c hc hab hca
      · linear_combination schur_ordered b c a ha hcb hac
    · linear_combination schur_ordered c b a ha hbc hab

/-- Catalogue `schur1_nonneg`: Schur t = 1 in expanded form, for `x, y, z ≥ 0`. -/
theorem schur1_nonneg (x y z : ℝ) (h1 : 0 ≤ x) (h2 : 0 ≤ y) (h3 : 0 ≤ z) :
    x ^ 2 * y + x ^ 2 * z + y ^ 2 * x + y ^ 2 * z + z ^ 2 * x + z ^ 2 * y ≤
      x ^ 3 + y ^ 3 + z ^ 3 + 3 * x * y * z := by
  linear_combination schur x y z h1 h2 h3

/-- Catalogue `amgm2_sqrt`: `√(xy) ≤ (x + y)/2` for `x, y ≥ 0`: both sides are nonnegative and
`((x + y)/2)² − (√(xy))² = ¼(x − y)²`. -/
theorem amgm2_sqrt (x y : ℝ) (h1 : 0 ≤ x) (h2 : 0 ≤ y) :
    Real.sqrt (x * y) ≤ (x + y) / 2 := by
  have hs : Real.sqrt (x * y) ^ 2 = x * y := Real.sq_sqrt (mul_nonneg h1 h2)
  have hsq : Real.sqrt (x * y) ^ 2 ≤ ((x + y) / 2) ^ 2 := by
    linear_combination hs + (1 / 4 : ℝ) * sq_nonneg (x - y)
  have hm : 0 ≤ (x + y) / 2 := by positivity
  exact (abs_le_of_sq_le_sq' hsq hm).2

/-- Catalogue `amgm3_cbrt`: `(xyz)^(1/3) ≤ (x + y + z)/3` for `x, y, z ≥ 0`, from Mathlib's
weighted AM-GM with weights `1/3` and `Real.mul_rpow` twice. -/
theorem amgm3_cbrt (x y z : ℝ) (h1 : 0 ≤ x) (h2 : 0 ≤ y) (h3 : 0 ≤ z) :
    (x * y * z) ^ (1 / 3 : ℝ) ≤ (x + y + z) / 3 := by
  have hw : (0 : ℝ) ≤ (1 / 3 : ℝ) := by positivity
  have hs : (1 / 3 : ℝ) + (1 / 3 : ℝ) + (1 / 3 : ℝ) = 1 := by linear_combination
  have h : x ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ) * z ^ (1 / 3 : ℝ) ≤
      (1 / 3 : ℝ) * x + (1 / 3 : ℝ) * y + (1 / 3 : ℝ) * z :=
    Real.geom_mean_le_arith_mean3_weighted hw hw hw h1 h2 h3 hs
  have hm1 : (x * y * z) ^ (1 / 3 : ℝ) = (x * y) ^ (1 / 3 : ℝ) * z ^ (1 / 3 : ℝ) :=
    Real.mul_rpow (mul_nonneg h1 h2) h3
  have hm2 : (x * y) ^ (1 / 3 : ℝ) = x ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ) := Real.mul_rpow h1 h2
  linear_combination h + hm1 + z ^ (1 / 3 : ℝ) * hm2

/-- Catalogue `amgm4_root`: `(xyzw)^(1/4) ≤ (x + y + z + w)/4` for `x, y, z, w ≥ 0`, from
Mathlib's weighted AM-GM with weights `1/4` and `Real.mul_rpow` three times. -/
theorem amgm4_root (x y z w : ℝ) (h1 : 0 ≤ x) (h2 : 0 ≤ y) (h3 : 0 ≤ z) (h4 : 0 ≤ w) :
    (x * y * z * w) ^ (1 / 4 : ℝ) ≤ (x + y + z + w) / 4 := by
  have hw : (0 : ℝ) ≤ (1 / 4 : ℝ) := by positivity
  have hs : (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) + (1 / 4 : ℝ) = 1 := by linear_combination
  have h : x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) ≤
      (1 / 4 : ℝ) * x + (1 / 4 : ℝ) * y + (1 / 4 : ℝ) * z + (1 / 4 : ℝ) * w :=
    Real.geom_mean_le_arith_mean4_weighted hw hw hw hw h1 h2 h3 h4 hs
  have hm1 : (x * y * z * w) ^ (1 / 4 : ℝ) = (x * y * z) ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) :=
    Real.mul_rpow (mul_nonneg (mul_nonneg h1 h2) h3) h4
  have hm2 : (x * y * z) ^ (1 / 4 : ℝ) = (x * y) ^ (1 / 4 : ℝ) * z ^ (1 / 4 : ℝ) :=
    Real.mul_rpow (mul_nonneg h1 h2) h3
  have hm3 : (x * y) ^ (1 / 4 : ℝ) = x ^ (1 / 4 : ℝ) * y ^ (1 / 4 : ℝ) := Real.mul_rpow h1 h2
  linear_combination h + hm1 + w ^ (1 / 4 : ℝ) * hm2 + z ^ (1 / 4 : ℝ) * w ^ (1 / 4 : ℝ) * hm3

/-- Catalogue `qm_am2_sqrt`: `(x + y)/2 ≤ √((x² + y²)/2)`: the square root is nonnegative and
`(√((x² + y²)/2))² − ((x + y)/2)² = ¼(x − y)²`. -/
theorem qm_am2_sqrt (x y : ℝ) :
    (x + y) / 2 ≤ Real.sqrt ((x ^ 2 + y ^ 2) / 2) := by
  have hs : Real.sqrt ((x ^ 2 + y ^ 2) / 2) ^ 2 = (x ^ 2 + y ^ 2) / 2 := Real.sq_sqrt (by positivity)
  have hsq : ((x + y) / 2) ^ 2 ≤ Real.sqrt ((x ^ 2 + y ^ 2) / 2) ^ 2 := by
    linear_combination (1 / 4 : ℝ) * sq_nonneg (x - y) - hs
  exact (abs_le_of_sq_le_sq' hsq (Real.sqrt_nonneg ((x ^ 2 + y ^ 2) / 2))).2

/-- Catalogue `tangent_sqrt`: the tangent line of `√` at `t > 0` lies above it:
`√x ≤ (x + t)/(2√t)` for `x ≥ 0`; the gap is `(√x − √t)²/(2√t)`. -/
theorem tangent_sqrt (x t : ℝ) (h1 : 0 ≤ x) (h2 : 0 < t) :
    Real.sqrt x ≤ (x + t) / (2 * Real.sqrt t) := by
  have hx : Real.sqrt x ^ 2 = x := Real.sq_sqrt h1
  have ht : Real.sqrt t ^ 2 = t := Real.sq_sqrt (le_of_lt h2)
  have hne : Real.sqrt t ≠ 0 := by positivity
  have hinv : Real.sqrt t * (Real.sqrt t)⁻¹ = 1 := mul_inv_cancel₀ hne
  have key : 0 ≤ (Real.sqrt x - Real.sqrt t) ^ 2 / (2 * Real.sqrt t) := by positivity
  linear_combination key + (1 / 2 * (Real.sqrt t)⁻¹) * hx + (1 / 2 * (Real.sqrt t)⁻¹) * ht -
    Real.sqrt x * hinv

/-- Catalogue `holder_3x2`: Hölder for two terms and three sequences of nonnegative reals.
The difference of the two sides is the sum of two instances of `cubes_amgm`. -/
theorem holder_3x2 (a1 a2 b1 b2 c1 c2 : ℝ) (h1 : 0 ≤ a1) (h2 : 0 ≤ a2) (h3 : 0 ≤ b1)
    (h4 : 0 ≤ b2) (h5 : 0 ≤ c1) (h6 : 0 ≤ c2) :
    (a1 * b1 * c1 + a2 * b2 * c2) ^ 3 ≤ (a1 ^ 3 + a2 ^ 3) * (b1 ^ 3 + b2 ^ 3) * (c1 ^ 3 + c2 ^ 3) := by
  have hp := cubes_amgm (a1 * b1 * c2) (a1 * b2 * c1) (a2 * b1 * c1)
    (by positivity) (by positivity) (by positivity)
  have hq := cubes_amgm (a2 * b2 * c1) (a2 * b1 * c2) (a1 * b2 * c2)
    (by positivity) (by positivity) (by positivity)
  linear_combination hp + hq

end Prover.Lemmas
