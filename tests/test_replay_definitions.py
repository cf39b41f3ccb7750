"""The replay model on function variables defined by an equation (``f : ℝ → ℝ``, ``h₀ : ∀ x, f x = E``):
the expanded theorem, then the user's theorem proved from it by the renderer's fixed template
(``have key := T_expanded … (by have e := h; simp only [h₀] at e; linear_combination e)``,
``simp only [h₀]``, ``linear_combination key``)."""

from __future__ import annotations

import pytest

from prover.lean.replay import OK, UNSUPPORTED, NotModelled, Scope, lex, parse_term, replay_text, show
from prover.lean.replay.definitions import Definition, expand

HEAD = "import Mathlib\n\nopen Real\n\n"


def thm(statement: str, *body: str) -> str:
    return statement + " := by\n" + "".join(f"  {ln}\n" for ln in body) + "\n"


def passes(*decls: str) -> None:
    r = replay_text(HEAD + "".join(decls))
    assert r.ok, r.summary()


def first_failure(*decls: str):
    r = replay_text(HEAD + "".join(decls))
    assert not r.ok, r.summary()
    return r.first_failure


EXPANDED = thm("theorem foo_expanded (a b : ℝ) (h₁ : a * 6 + b - (a * 2 + b) = 12) : a * 12 + b - (a * 2 + b) = 30",
               "linear_combination 5 / 2 * h₁")
WRAPPER_STMT = "theorem foo (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 6 - f 2 = 12) : f 12 - f 2 = 30"
KEY = "have key := foo_expanded a b (by have e := h₁; simp only [h₀] at e; linear_combination e)"


def wrapper(stmt: str = WRAPPER_STMT, key: str = KEY, *rest: str) -> str:
    return thm(stmt, key, *(rest or ("simp only [h₀]", "linear_combination key")))


# ------------------------------------------------------------------ the template


def test_example_passes() -> None:
    passes(EXPANDED, wrapper())


def test_binder_forms_of_the_definition_pass() -> None:
    for hyp in ("∀ x : ℝ, f x = a * x + b", "∀ (x : ℝ), f x = a * x + b", "∀ y, f y = a * y + b"):
        passes(EXPANDED, wrapper(WRAPPER_STMT.replace("∀ x, f x = a * x + b", hyp)))


def test_wrong_body_fails() -> None:
    exp = thm("theorem p_expanded (a b : ℝ) (h₁ : a * 1 + b = 3) (h₂ : b = 1) : a * 2 + b = 5",
              "linear_combination 2 * h₁ - h₂")
    stmt = "theorem p (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 1 = 3) (h₂ : b = 1) : f 2 = 5"
    key = "have key := p_expanded a b (by have e := h₁; simp only [h₀] at e; linear_combination e) h₂"
    passes(exp, thm(stmt, key, "simp only [h₀]", "linear_combination key"))
    bad = thm(stmt.replace("a * x + b", "a * x"), key, "simp only [h₀]", "linear_combination key")
    ff = first_failure(exp, bad)
    assert ff.status != OK and "linear_combination" in ff.reason


def test_wrong_expanded_proof_fails() -> None:
    ff = first_failure(EXPANDED.replace("5 / 2 * h₁", "2 * h₁"), wrapper())
    assert "ring1 failed" in ff.reason


def test_wrong_number_of_arguments_fails() -> None:
    ff = first_failure(EXPANDED, wrapper(key=KEY.replace("foo_expanded a b", "foo_expanded a b a")))
    assert ff.status != OK
    ff = first_failure(EXPANDED, wrapper(key="have key := foo_expanded a b"))
    assert ff.status != OK


def test_theorem_arguments_are_substituted() -> None:
    swapped = KEY.replace("foo_expanded a b", "foo_expanded b a")
    assert first_failure(EXPANDED, wrapper(key=swapped)).status != OK


def test_projection_argument() -> None:
    exp = thm("theorem g_expanded (a : ℝ) (h₁ : a = 2) : a * 3 = 6", "linear_combination 3 * h₁")
    stmt = "theorem g (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = x * 3) (h : a ≤ 5 ∧ a = 2) : f a = 6"
    passes(exp, thm(stmt, "have key := g_expanded a h.2", "simp only [h₀]", "linear_combination key"))
    assert first_failure(exp, thm(stmt, "have key := g_expanded a h.1", "simp only [h₀]",
                                  "linear_combination key")).status != OK


def test_plain_hypothesis_argument_must_match() -> None:
    exp = thm("theorem g_expanded (a : ℝ) (h₁ : a = 2) : a * 3 = 6", "linear_combination 3 * h₁")
    stmt = "theorem g (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = x * 3) (h₁ : a = 2) : f a = 6"
    passes(exp, thm(stmt, "have key := g_expanded a h₁", "simp only [h₀]", "linear_combination key"))
    stmt2 = stmt.replace("(h₁ : a = 2)", "(h₁ : 2 = a)")
    assert first_failure(exp, thm(stmt2, "have key := g_expanded a h₁", "simp only [h₀]",
                                  "linear_combination key")).status != OK


# ------------------------------------------------------------------ simp only


def test_simp_with_a_non_definition_lemma_is_not_modelled() -> None:
    key = KEY.replace("simp only [h₀] at e", "simp only [h₀, h₁] at e")
    ff = first_failure(EXPANDED, wrapper(key=key))
    assert ff.status == UNSUPPORTED and "definition" in ff.reason
    ff = first_failure(EXPANDED, wrapper(key=KEY.replace("[h₀]", "[mul_comm]")))
    assert ff.status == UNSUPPORTED


def test_simp_on_a_goal_without_applications_fails() -> None:
    stmt = "theorem t (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x) (h₁ : a = 1) : a + 1 = 2"
    ff = first_failure(thm(stmt, "simp only [h₀]", "linear_combination h₁"))
    assert ff.status != OK and "simp made no progress" in ff.reason


def test_simp_that_would_close_the_goal_is_not_modelled() -> None:
    stmt = "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = x + 1) : f 2 = 2 + 1"
    ff = first_failure(thm(stmt, "simp only [h₀]"))
    assert ff.status == UNSUPPORTED and "rfl" in ff.reason


def test_closed_nat_exponent_after_simp_is_not_modelled() -> None:
    stmt = "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = x + 1) : f 2 ^ (2 * 3) = 729"
    ff = first_failure(thm(stmt, "simp only [h₀]", "ring"))
    assert ff.status == UNSUPPORTED and "ℕ" in ff.reason


def test_bound_names_shadow_outer_variables() -> None:
    stmt = "theorem t (x : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) (hx : x = 5) : f 3 = 6"
    passes(thm(stmt, "simp only [h₀]", "ring"))
    ff = first_failure(thm(stmt.replace("f 3 = 6", "f 3 = 2 * x - 4"), "simp only [h₀]", "ring"))
    assert ff.status != OK


def test_nested_application_is_expanded_innermost_first() -> None:
    stmt = ("theorem t (f g : ℝ → ℝ) (h₀ : ∀ x, f x = x ^ 2 + 1) (h₁ : ∀ y, g y = 3 * y) : "
            "f (g 1) = 10")
    passes(thm(stmt, "simp only [h₀, h₁]", "ring"))
    f, g, x, y = ("fv", "f"), ("fv", "g"), ("fv", "x"), ("fv", "y")
    defs = {"f": Definition("f", ("x",), ("add", ("pow", x, ("num", 2)), ("num", 1))),
            "g": Definition("g", ("y",), ("mul", ("num", 3), y))}
    got = expand(("app", f, (("app", g, (("num", 1),)),)), defs)
    assert show(got) == "(3 * 1) ^ 2 + 1"
    ff = first_failure(thm(stmt.replace("= 10", "= 9"), "simp only [h₀, h₁]", "ring"))
    assert "ring" in ff.kind


def test_two_argument_function() -> None:
    stmt = ("theorem t (a : ℝ) (f : ℝ → ℝ → ℝ) (h₀ : ∀ x y, f x y = a * x - y) (h₁ : f 2 1 = 5) : "
            "f 4 2 = 10")
    passes(thm(stmt, "simp only [h₀] at h₁", "simp only [h₀]", "linear_combination 2 * h₁"))


# ------------------------------------------------------------------ statements


def test_application_precedence() -> None:
    scope = Scope()
    scope, uid = scope.bind("f")
    scope.functions[uid] = 1
    t = parse_term(lex("f x ^ 2"), scope)
    assert t[0] == "pow" and t[1][0] == "app"                       # (f x) ^ 2
    t = parse_term(lex("f (x + 1)"), scope)
    assert t[0] == "app" and t[2][0][0] == "add"
    t = parse_term(lex("f x⁻¹"), scope)
    assert t[0] == "app" and t[2][0][0] == "inv"                    # f (x⁻¹)
    t = parse_term(lex("f -1"), scope)
    assert t[0] == "sub" and t[1] == ("fv", uid)                    # f - 1: not an application


def test_f_minus_one_is_refused() -> None:
    stmt = "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) : f -1 = -2"
    ff = first_failure(thm(stmt, "simp only [h₀]", "ring"))
    assert ff.status == UNSUPPORTED and "fully applied" in ff.reason


def test_wrong_arity_fails() -> None:
    stmt = "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) : f 1 2 = 2"
    assert first_failure(thm(stmt, "simp only [h₀]", "ring")).status != OK
    stmt = "theorem t (f : ℝ → ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) : f 1 2 = 2"
    assert first_failure(thm(stmt, "simp only [h₀]", "ring")).status == UNSUPPORTED
    stmt = "theorem t (f : ℝ → ℝ → ℝ) (h₀ : ∀ x y, f x y = x + y) : f 1 = f 1"
    assert first_failure(thm(stmt, "simp only [h₀]")).status == UNSUPPORTED


def test_definition_applying_another_function_is_not_modelled() -> None:
    stmt = "theorem t (f g : ℝ → ℝ) (h₀ : ∀ x, f x = g x + 1) (h₁ : ∀ x, g x = x) : f 1 = 2"
    ff = first_failure(thm(stmt, "simp only [h₀, h₁]", "ring"))
    assert ff.status == UNSUPPORTED and ff.kind == "statement"


@pytest.mark.parametrize("hyp", [
    "(h : ∀ x, f x ≥ 0)",                 # a ∀ hypothesis that is not a definition
    "(h : ∀ x, f x = f (x + 1))",         # the body applies the function
    "(h : ∀ x y, f x = y)",               # more parameters than the arity
    "(h : ∀ x x, f x = x)",               # parameters not distinct
    "(h : ∀ x, f 2 = x)",                 # the parameter not the argument
    "(h : ∀ x, f x = 2 ^ x)",             # a parameter in an exponent (a real power)
    "(h : ∀ (x y : ℝ), f x = y)",         # typed: more parameters than the arity
    "(h : ∀ (x x : ℝ), f x = x)",         # typed: parameters not distinct
    "(h : ∀ x : ℝ, 2 * x = f x)",         # the equation reversed
    "(h : 0 ≤ f)",                        # a bare function
])
def test_other_hypotheses_about_functions_are_not_modelled(hyp: str) -> None:
    ff = first_failure(thm(f"theorem t (f : ℝ → ℝ) {hyp} : (1 : ℝ) = 1", "ring"))
    assert ff.status == UNSUPPORTED and ff.kind == "statement"


def test_untyped_binders_elsewhere_stay_not_modelled() -> None:
    ff = first_failure(thm("theorem t (h : ∀ x, x ≥ 0) : (1 : ℝ) = 1", "ring"))
    assert ff.status == UNSUPPORTED
    with pytest.raises(NotModelled):
        parse_term(lex("∀ x, x = 1"), Scope())


def test_other_function_types_are_not_modelled() -> None:
    ff = first_failure(thm("theorem t (f : ℕ → ℝ) : (1 : ℝ) = 1", "ring"))
    assert ff.status == UNSUPPORTED and ff.kind == "statement"


# ------------------------------------------------------------------ have, ≠, rw, ∧


def test_have_of_a_projection_gets_its_type() -> None:
    stmt = "theorem t (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x) (h : f a = 4 ∧ a ≤ 3) : a = 2"
    passes(thm(stmt, "have e := h.1", "simp only [h₀] at e", "linear_combination e / 2"))


def test_ne_hypothesis_argument_passes() -> None:
    exp = thm("theorem baz_expanded (a b : ℝ) (h₂ : a * 2 + b ≠ 0) (h₃ : a = 1) : b + 2 ≠ 0",
              "intro h", "exact h₂ (by linear_combination h + 2 * h₃)")
    stmt = ("theorem baz (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₂ : f 2 ≠ 0) (h₃ : a = 1) : "
            "f 0 + 2 ≠ 0")
    key = ("have key := baz_expanded a b (by have e := h₂; simp only [h₀] at e; intro e'; "
           "exact e (by linear_combination e')) h₃")
    passes(exp, thm(stmt, key, "simp only [h₀]", "intro e'", "exact key (by linear_combination e')"))
    bad = key.replace("linear_combination e'))", "linear_combination 2 * e'))")
    assert first_failure(exp, thm(stmt, bad, "simp only [h₀]", "intro e'",
                                  "exact key (by linear_combination e')")).status != OK


def test_ne_hypothesis_without_application() -> None:
    exp = thm("theorem q_expanded (a : ℝ) (h : a - 1 ≠ 0) : a * 1 - 1 ≠ 0", "intro e", "exact h (by linear_combination e)")
    stmt = "theorem q (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x) (h : a - 1 ≠ 0) : f 1 - 1 ≠ 0"
    key = "have key := q_expanded a (by have e := h; intro e'; exact e (by linear_combination e'))"
    passes(exp, thm(stmt, key, "simp only [h₀]", "intro e'", "exact key (by linear_combination e')"))
    key2 = "have key := q_expanded a (by have e := h; simp only [h₀] at e; intro e'; exact e (by linear_combination e'))"
    ff = first_failure(exp, thm(stmt, key2, "simp only [h₀]", "intro e'", "exact key (by linear_combination e')"))
    assert "simp made no progress" in ff.reason


def test_rw_ge_iff_le_at_a_hypothesis() -> None:
    exp = thm("theorem r_expanded (a : ℝ) (h : 0 ≤ a * 2) : 0 ≤ a * 4", "linear_combination 2 * h")
    stmt = "theorem r (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x) (h : f 2 ≥ 0) : f 4 ≥ 0"
    key = "have key := r_expanded a (by have e := h; simp only [h₀] at e; rw [ge_iff_le] at e; linear_combination e)"
    passes(exp, thm(stmt, key, "simp only [h₀]", "rw [ge_iff_le]", "linear_combination key"))
    again = key.replace("rw [ge_iff_le] at e;", "rw [ge_iff_le] at e; rw [ge_iff_le] at e;")
    ff = first_failure(exp, thm(stmt, again, "simp only [h₀]", "rw [ge_iff_le]", "linear_combination key"))
    assert "did not find" in ff.reason


def test_rw_at_a_hypothesis_and_the_goal() -> None:
    exp = thm("theorem r_expanded (a : ℝ) (h : a * 2 ≥ 0) : a * 4 ≥ 0", "linear_combination 2 * h")
    stmt = "theorem r (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x) (h : f 2 ≥ 0) : f 4 ≥ 0"
    key = ("have hdef_key := r_expanded a (by have hdef_e := h; simp only [h₀] at hdef_e; "
           "rw [ge_iff_le] at hdef_e ⊢; linear_combination hdef_e)")
    passes(exp, thm(stmt, key, "simp only [h₀]", "rw [ge_iff_le] at hdef_key ⊢", "linear_combination hdef_key"))
    ff = first_failure(exp, thm(stmt, key, "rw [ge_iff_le] at hdef_key ⊢", "rw [ge_iff_le] at hdef_key ⊢",
                                "linear_combination hdef_key"))
    assert "did not find" in ff.reason and "hdef_key" in ff.reason


def test_rw_gt_iff_lt_at_a_hypothesis() -> None:
    stmt = "theorem t (a : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x) (h : f 1 > 0) : 0 < a * 3"
    passes(thm(stmt, "have e := h", "simp only [h₀] at e", "rw [gt_iff_lt] at e", "linear_combination 3 * e"))
    ff = first_failure(thm(stmt, "have e := h", "rw [gt_iff_lt] at e", "rw [gt_iff_lt] at e",
                           "linear_combination 3 * e"))
    assert "did not find" in ff.reason


def test_rw_rewrites_only_the_first_instance() -> None:
    stmt = "theorem t (a b : ℝ) (h : a ≥ 0 ∧ b ≥ 0) : a + b ≥ 0"
    ff = first_failure(thm(stmt, "rw [ge_iff_le] at h", "obtain ⟨h1, h2⟩ := h", "rw [ge_iff_le] at h2",
                           "rw [ge_iff_le] at h2", "linear_combination h1 + h2"))
    assert "did not find" in ff.reason
    passes(thm(stmt, "rw [ge_iff_le] at h", "rw [ge_iff_le] at h", "obtain ⟨h1, h2⟩ := h",
               "linear_combination h1 + h2"))


CONJ_EXPANDED = thm("theorem bar_expanded (a b : ℝ) (h₁ : a * 1 + b = 3 ∧ a * 2 + b = 5) : "
                    "a * 3 + b = 7 ∧ a * 0 + b = 1",
                    "obtain ⟨h1, h2⟩ := h₁", "refine ⟨?_, ?_⟩", "· linear_combination 2 * h2 - h1",
                    "· linear_combination 2 * h1 - h2")
CONJ_STMT = ("theorem bar (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 1 = 3 ∧ f 2 = 5) : "
             "f 3 = 7 ∧ f 0 = 1")
CONJ_KEY = ("have key := bar_expanded a b ⟨by have e := h₁.1; simp only [h₀] at e; linear_combination e, "
            "by have e := h₁.2; simp only [h₀] at e; linear_combination e⟩")
CONJ_TAIL = ("obtain ⟨k1, k2⟩ := key", "refine ⟨?_, ?_⟩", "· simp only [h₀]", "  linear_combination k1",
             "· simp only [h₀]", "  linear_combination k2")


def test_conjunction_goal_passes() -> None:
    passes(CONJ_EXPANDED, thm(CONJ_STMT, CONJ_KEY, *CONJ_TAIL))


def test_conjunction_goal_wrong_component_fails() -> None:
    tail = CONJ_TAIL[:3] + ("  linear_combination k2",) + CONJ_TAIL[4:]
    assert first_failure(CONJ_EXPANDED, thm(CONJ_STMT, CONJ_KEY, *tail)).status != OK


def test_conjunction_hypothesis_single_by_block() -> None:
    key = ("have key := bar_expanded a b (by have e := h₁; simp only [h₀] at e; "
           "exact ⟨by linear_combination e.1, by linear_combination e.2⟩)")
    passes(CONJ_EXPANDED, thm(CONJ_STMT, key, *CONJ_TAIL))
