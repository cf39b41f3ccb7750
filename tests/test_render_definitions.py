"""Statements with defined functions render as two theorems: the expanded statement (our printing,
proved as any other) and the user's statement verbatim, proved from it by the fixed template that
the replay model checks (`simp only [h₀]`, exact ring identities)."""

from __future__ import annotations

import pytest

from prover.frontend import parse_theorem
from prover.lean.in_place import auxiliary_declarations, insert_proof, proof_body
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.search.driver import prove_problem

CASES = {
    "eq": "theorem eq_t (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 6 - f 2 = 12) : "
          "f 12 - f 2 = 30 := by sorry",
    "ge": "theorem ge_t (x y : ℝ) (f g : ℝ → ℝ) (hx : 0 < x) (hy : 0 < y) (h₀ : ∀ t, f t = t ^ 2) "
          "(h₁ : ∀ t, g t = 2 * t) (h : f x + f y ≥ 2) : f (x + y) ≥ g (x * y) + 2 := by sorry",
    "binary": "theorem bin_t (a b : ℝ) (F : ℝ → ℝ → ℝ) (hF : ∀ a b, F a b = a ^ 2 + b ^ 2) : "
              "F a b ≥ 2 * a * b := by sorry",
    "ne": "theorem ne_t (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = x + 1) (h₁ : f a ≠ f b) (h₂ : f a = 3) : "
          "a = 2 := by sorry",
    "conj": "theorem conj_t (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) (h : f a = 4 ∧ a ≥ 0) : "
            "f a = 4 ∧ a = 2 := by sorry",
}


def _proved(text: str):
    problem = parse_theorem(text)
    problem.meta["lean"] = text
    result = prove_problem(problem, time_limit=30)
    assert result.status == "proved"
    return result.proof


@pytest.mark.parametrize("case", sorted(CASES))
def test_rendered_file_states_both_theorems_and_passes_the_replay_model(case):
    text = CASES[case]
    lean = render_proof(_proved(text))
    name = text.split()[1]
    assert f"theorem {name}_expanded" in lean
    assert text[:text.index(":= by")].strip() + " := by" in lean     # the user's statement verbatim
    assert f"have hdef_key := {name}_expanded" in lean
    report = replay_text(lean)
    assert report.ok, report


def test_a_saved_proof_renders_the_same_file():
    """The proof file keeps which hypotheses define functions: a run's saved proofs (eval, the replay
    baseline) render the user's theorem as the search's own proof does, not a refusal."""
    from prover.ir import Proof

    proof = _proved(CASES["binary"])
    loaded = Proof.loads(proof.dumps())
    assert loaded.problem.meta["definitions"] == proof.problem.meta["definitions"]
    assert render_proof(loaded) == render_proof(proof)


def test_in_place_puts_the_expanded_theorem_before_the_users():
    text = CASES["eq"]
    lean = render_proof(_proved(text))
    source = "import Mathlib\n\n" + text + "\n"
    updated = insert_proof(source, "eq_t", lean)
    assert updated.index("theorem eq_t_expanded") < updated.index("theorem eq_t (")
    assert "sorry" not in updated
    assert proof_body(lean)[0].strip().startswith("have hdef_key")
    assert auxiliary_declarations(lean).startswith("theorem eq_t_expanded")
    assert replay_text(updated).ok


def test_the_expanded_theorem_is_the_users_text_unfolded():
    """Stated as `simp only [h₀]` leaves the user's text (radicands as written), so the bridge to
    it is syntactic and the expanded proof bridges the user's own radicands."""
    from prover.lean.render.definitions import expanded_head

    head = expanded_head("theorem y (a b c : ℝ) (F : ℝ → ℝ → ℝ → ℝ) (hF : ∀ a b c, F a b c = √(a * b * (1 / c) * 3)) "
                         "(ha : 0 < a) {hb : 0 < b} : F a b c ≤ √(a ^ 3 + b ^ 3)", "y_expanded")
    assert head == ("theorem y_expanded (a : ℝ) (b : ℝ) (c : ℝ) (ha : 0 < a) (hb : 0 < b) :\n"
                    "    Real.sqrt (a * b * (1 / c) * 3) ≤ Real.sqrt (a ^ 3 + b ^ 3)")


def test_a_theorem_of_a_whole_file_renders_from_its_own_text():
    """`FILE.lean#name`: the user's theorem is that declaration's own text (a doc comment before it
    left out), the expanded one stated before it."""
    from pathlib import Path

    from prover.api import prove

    root = Path(__file__).resolve().parent.parent
    result = prove(f"{root}/examples/inequalities.lean#square_fn", time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "theorem square_fn_expanded (a : ℝ) (b : ℝ)" in text
    assert "theorem square_fn (a b : ℝ) (f : ℝ → ℝ) (hf : ∀ x, f x = x ^ 2)" in text
    assert replay_text(text).ok


def test_a_defining_equation_shadowed_by_a_hypothesis_is_named_again_by_assumption():
    """`(hs : ∀ t, s_1 t = …) … (hs : 0 < s)`: in Lean `hs` is the later one and the equation is
    inaccessible (`hs✝`), so `simp only [hs]` would rewrite with the wrong fact. The file names the
    equation again, `have hdef_hs : ∀ t, … := by assumption` (Lean's `assumption` searches the whole
    context by type), and rewrites with that; `hs` itself still means `0 < s`. Rewriting with `hs`,
    or stating another equation, fails the model."""
    text = ("theorem sh (p s : ℝ) (s_1 : ℝ → ℝ) (hs : ∀ t, s_1 t = 3 * t + 1) (hp : 0 < p) (hs : 0 < s) : "
            "s_1 (p + s) ≥ s_1 0 := by sorry")
    lean = render_proof(_proved(text))
    assert "have hdef_hs : ∀ t, s_1 t = 3 * t + 1 := by assumption" in lean
    assert replay_text(lean).ok, replay_text(lean).summary()
    assert not replay_text(lean.replace("simp only [hdef_hs]", "simp only [hs]")).ok
    assert not replay_text(lean.replace("s_1 t = 3 * t + 1 := by assumption", "s_1 t = 3 * t + 2 := by assumption")).ok
