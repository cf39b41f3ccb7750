"""The renderer of statements over n terms (``prover.lean.render.nterm``) on proofs the prover finds:
each rendered file passes the replay model, and the Lean forms that fixed a failure are there.
Each test proves one small statement (a second or a few) and replays the whole file."""

from __future__ import annotations

import pytest

import prover
from prover.lean.render import render_proof
from prover.lean.replay import replay_text


def _render(statement: str) -> str:
    res = prover.prove(statement + " := by sorry", time_limit=20)
    if not res.proved:
        pytest.skip("the prover did not find a proof within the time limit")
    text = render_proof(res.proof)
    r = replay_text(text)
    assert r.ok, r.summary() + "\n" + text
    return text


def _main(text: str) -> str:
    """The user's theorem (the last one of the file)."""
    return text[text.rindex("\ntheorem "):]


def test_divided_parameter_combination_has_the_right_sign() -> None:
    # g_k : 0 ≤ G from l_k : 0 ≤ L needs `linear_combination l_k + c` with L - G = c (the
    # field identity of `L = G`, not of `G = L`)
    text = _render("theorem am_hm_1 (n : ℕ) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) :\n"
                   "    (∑ i, a i) * (∑ i, 1 / a i) ≥ (n : ℝ) ^ 2")
    assert "mul_inv_cancel₀" in _main(text)


def test_empty_case_needing_its_hypotheses_uses_the_empty_lemma() -> None:
    # at n = 0: `0 = s ⊢ s ^ 2 ≤ ↑0 * 0`, which `simp at *` does not close
    text = _render("theorem tsc4 (n : ℕ) (a : Fin n → ℝ) (s : ℝ) (hs : ∑ i, a i = s) :\n"
                   "    s ^ 2 ≤ n * ∑ i, a i ^ 2")
    main = _main(text)
    if "Nat.eq_zero_or_pos" in main:
        assert "simp at *" not in main
        assert "simp only [Finset.univ_eq_empty, Finset.sum_empty, Nat.cast_zero] at *" in main
        assert "theorem tsc4_empty" in text


def test_identity_with_a_denominator_is_a_lemma() -> None:
    # the termwise identity (a² + a) / a - a - 1 = 0 holds for a > 0, but `ring` does not prove it
    text = _render("theorem idt (n : ℕ) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) :\n"
                   "    ∑ i, (a i ^ 2 + a i) / a i ≥ ∑ i, a i")
    if "theorem idt_identity_" in text:
        assert "mul_inv_cancel₀" in text.split("theorem idt_identity_")[1]


def test_identity_with_a_root_rewrites_it() -> None:
    # √(4a) - 2√a = 0 is an identity for the kernel (a ≥ 0); Lean needs Real.sqrt_mul and sqrt_sq
    text = _render("theorem st7 (n : ℕ) (a : ℕ → ℝ) (ha : ∀ i ∈ Finset.range n, 0 ≤ a i)\n"
                   "    (hs : ∑ i ∈ Finset.range n, a i = n) : ∑ i ∈ Finset.range n, Real.sqrt (4 * a i) ≤ 2 * n")
    if "theorem st7_identity_" in text:
        assert "Real.sqrt_mul" in text and "rw [←" in text


def test_parameter_coefficient_is_written_as_in_the_summand() -> None:
    # the parameter t = 1 / n: the summand's `(1 / (1 / n)) ^ 2` is not `n ^ 2` for `ring`
    text = _render("theorem tsc5 (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i)\n"
                   "    (hs : ∑ i, a i = 1) : ∑ i, 1 / a i ≥ (n : ℝ) ^ 2")
    assert "tsc5_atoms (n : ℝ) (" in _main(text)      # atoms given as their sums, not `_`


def test_cauchy_schwarz_functions_in_the_order_of_the_atom() -> None:
    # the atom is `b i * a i`: Finset.sum_mul_sq_le_sq_mul_sq s b a, whose product is `b i * a i`
    text = _render("theorem csu (n : ℕ) (a b : Fin n → ℝ) :\n"
                   "    (∑ i, b i * a i) ^ 2 ≤ (∑ i, a i ^ 2) * (∑ i, b i ^ 2)")
    if "Finset.sum_mul_sq_le_sq_mul_sq" in text:
        assert "Finset.sum_mul_sq_le_sq_mul_sq Finset.univ b a" in text


def test_sq_le_mul_fact(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cauchy–Schwarz as (Σr)² ≤ Σf·Σg from three termwise lemmas (only that method searched)
    from prover.nterm import search

    if not hasattr(search, "_methods"):
        pytest.skip("the search's methods are not where this test looks for them")
    methods = search._methods
    monkeypatch.setattr(search, "_methods",
                        lambda state: [m for m in methods(state) if m[0] in ("facts", "sq_le_mul")])
    text = _render("theorem sqm (n : ℕ) (a b : Fin n → ℝ) (hb : ∀ i, 0 < b i) :\n"
                   "    (∑ i, b i) * (∑ i, a i ^ 2 / b i) ≥ (∑ i, a i) ^ 2")
    assert "Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul Finset.univ (fun j hj => sqm_term_" in text


def test_cauchy_schwarz_for_powers_rewrites_its_sums() -> None:
    # Cauchy–Schwarz with f = a, g = a²: the lemma's `∑ i, a i * a i ^ 2` is the atom `∑ i, a i ^ 3`
    # only up to ring: Finset.sum_congr rfl, then rw at h
    text = _render("theorem cs4 (n : ℕ) (a : Fin n → ℝ) : (∑ i, a i ^ 3) ^ 2 ≤ (∑ i, a i ^ 2) * ∑ i, a i ^ 4")
    if "Finset.sum_mul_sq_le_sq_mul_sq" in text:
        assert "Finset.sum_congr rfl" in text and "] at h" in text
