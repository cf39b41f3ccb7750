"""The replay model on theorems over n terms (``∑``, families ``a : Fin n → ℝ`` / ``ℕ → ℝ``): the
files the renderer emits (termwise lemma summed with ``Finset.sum_nonneg``/``sum_pos``/``sum_eq_zero``,
the linearity equation by ``simp only [...] <;> ring``, ``rw [← e]``, the atoms lemma applied with
``exact_mod_cast``/``Nat.cast_nonneg``) pass; wrong ones fail."""

from __future__ import annotations

from prover.lean.replay import OK, RingNormalizer, Scope, lex, parse_term, replay_text, show
from prover.lean.replay.sums import insert_casts
from prover.lean.replay.terms import NAT, REAL, alpha, canon

HEAD = "import Mathlib\n\n"

TERM_1 = """theorem foo_term_1 (a t_1 : ℝ) (ha : 0 < a) : 0 ≤ 1 * (a ^ 2) + (-2 * t_1) * (a) + t_1 ^ 2 := by
  linear_combination sq_nonneg (a - t_1)

"""
ATOMS = """theorem foo_atoms (n S_1 S_2 : ℝ) (hn : 0 < n) (hs : S_1 = n) (c_0 : 0 ≤ n) (g_1 : 0 ≤ 1 * S_2 + (-2 * 1) * S_1 + 1 ^ 2 * n) :
    S_2 ≥ n := by
  linarith

"""
STMT = ("theorem foo (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) :\n"
        "    ∑ i, a i ^ 2 ≥ n := by\n")
SUMMAND = "(1 * (a i ^ 2) + (-2 * 1) * (a i) + 1 ^ 2)"
LINEAR = "1 * ∑ i, a i ^ 2 + (-2 * 1) * ∑ i, a i + 1 ^ 2 * (n : ℝ)"
F_1 = (f"  have f_1 : 0 ≤ ∑ i, {SUMMAND} :=\n"
       "    Finset.sum_nonneg (fun i _ => foo_term_1 (a i) 1 (ha i))\n")
LEMMAS = "Finset.sum_add_distrib, ← Finset.mul_sum, Finset.sum_const, Finset.card_univ, Fintype.card_fin, nsmul_eq_mul"
E_1 = (f"  have e_1 : ∑ i, {SUMMAND} = {LINEAR} := by\n"
       f"    simp only [{LEMMAS}] <;> ring\n")
G_1 = (f"  have g_1 : 0 ≤ {LINEAR} := by\n"
       "    rw [← e_1]; exact f_1\n")
FINAL = "  exact foo_atoms (n : ℝ) _ _ (by exact_mod_cast hn) hs (Nat.cast_nonneg n) g_1\n"
EXAMPLE = HEAD + TERM_1 + ATOMS + STMT + F_1 + E_1 + G_1 + FINAL


def passes(text: str) -> None:
    r = replay_text(text)
    assert r.ok, r.summary() + "\n" + "\n".join(f"{s.line} {s.kind} {s.status} {s.reason}" for s in r.steps)


def fails(text: str):
    r = replay_text(text)
    assert not r.ok, r.summary()
    return r.first_failure


# ------------------------------------------------------------------ the renderer's example


def test_example_passes() -> None:
    passes(EXAMPLE)


def test_example_resources_are_reported() -> None:
    r = replay_text(EXAMPLE)
    names = [d.name for d in r.resources]
    assert names == ["foo_term_1", "foo_atoms", "foo"]
    main = r.resources[-1]
    assert main.ok and main.heartbeats > 0 and main.ring_calls >= 1


def test_fin_binder_written_out_passes() -> None:
    text = EXAMPLE.replace("(hs : ∑ i, a i = n)", "(hs : ∑ i : Fin n, a i = n)").replace(
        "∑ i, a i ^ 2 ≥ n := by", "∑ i : Fin n, a i ^ 2 ≥ n := by")
    passes(text)


def test_casts_written_with_arrow_and_ascription_pass() -> None:
    passes(EXAMPLE.replace("(hs : ∑ i, a i = n)", "(hs : ∑ i, a i = (n : ℝ))").replace(
        "+ 1 ^ 2 * (n : ℝ) := by", "+ 1 ^ 2 * ↑n := by"))


def test_card_fin_instead_of_card_univ_passes() -> None:
    passes(EXAMPLE.replace("Finset.card_univ, Fintype.card_fin", "Finset.card_fin"))


# ------------------------------------------------------------------ failures


def test_wrong_coefficient_in_linearity_equation_fails() -> None:
    bad = EXAMPLE.replace(E_1, E_1.replace("= 1 * ∑ i, a i ^ 2 + (-2 * 1) * ∑ i, a i",
                                           "= 1 * ∑ i, a i ^ 2 + (-3 * 1) * ∑ i, a i"))
    ff = fails(bad)
    assert ff.kind == "ring" and ff.status == "fail"


def test_missing_linearity_lemma_fails() -> None:
    for missing in ("Finset.card_univ, ", "← Finset.mul_sum, ", "Fintype.card_fin, ", "Finset.sum_const, "):
        lemmas = LEMMAS.replace(missing, "")
        bad = EXAMPLE.replace(f"simp only [{LEMMAS}]", f"simp only [{lemmas}]")
        ff = fails(bad)
        assert ff.kind == "ring" and ff.status == "fail", (missing, ff)
    # without nsmul_eq_mul a `n • 1 ^ 2` is left, which Mathlib's `ring` may normalise (`evalNSMul`):
    # not modelled, so not a pass either
    bad = EXAMPLE.replace(f"simp only [{LEMMAS}]", f"simp only [{LEMMAS.replace(', nsmul_eq_mul', '')}]")
    ff = fails(bad)
    assert ff.kind == "ring" and ff.status == "unsupported"


def test_sum_without_splitting_lemma_makes_no_progress() -> None:
    bad = EXAMPLE.replace(f"simp only [{LEMMAS}]", "simp only [Finset.card_univ]")
    ff = fails(bad)
    assert "no progress" in ff.reason


def test_termwise_lemma_not_the_summand_fails() -> None:
    # the lemma's instance is `… + 1 ^ 2`; the stated summand has `+ 2 ^ 2`
    bad = EXAMPLE.replace(F_1, F_1.replace("+ 1 ^ 2)", "+ 2 ^ 2)"))
    ff = fails(bad)
    assert ff.kind == "have" and "type mismatch" in ff.reason
    # the lemma instantiated at another scalar
    bad = EXAMPLE.replace("foo_term_1 (a i) 1 (ha i)", "foo_term_1 (a i) 2 (ha i)")
    assert "type mismatch" in fails(bad).reason


def test_termwise_lemma_needs_its_hypothesis() -> None:
    bad = EXAMPLE.replace("(ha : ∀ i, 0 < a i)", "(ha : ∀ i, 0 ≤ a i)")
    assert fails(bad).status != OK


def test_exact_mod_cast_to_a_different_fact_fails() -> None:
    atoms2 = ATOMS.replace("(hn : 0 < n)", "(hn : 2 ≤ n)")
    ff = fails(HEAD + TERM_1 + atoms2 + STMT + F_1 + E_1 + G_1 + FINAL)
    assert ff.kind == "exact_mod_cast" and ff.status == "fail"


def test_exact_mod_cast_of_each_nat_fact_passes() -> None:
    for nat_fact, real_fact in (("0 < n", "0 < n"), ("2 ≤ n", "2 ≤ n"), ("n ≠ 0", "n ≠ 0"),
                                ("1 ≤ n", "1 ≤ n"), ("n > 1", "n > 1")):
        stmt = STMT.replace("(hn : 0 < n)", f"(hn : {nat_fact})")
        atoms = ATOMS.replace("(hn : 0 < n)", f"(hn : {real_fact})")
        passes(HEAD + TERM_1 + atoms + stmt + F_1 + E_1 + G_1 + FINAL)


def test_exact_mod_cast_equivalent_but_different_is_not_a_pass() -> None:
    stmt = STMT.replace("(hn : 0 < n)", "(hn : 1 ≤ n)")
    r = replay_text(HEAD + TERM_1 + ATOMS + stmt + F_1 + E_1 + G_1 + FINAL)
    assert not r.ok and r.first_failure.status == "unsupported"


def test_nat_cast_nonneg_is_real_and_explicit() -> None:
    bad = EXAMPLE.replace("(Nat.cast_nonneg n)", "(Nat.cast_nonneg _)")
    passes(bad)     # `_` is determined by unification against `0 ≤ ↑n`
    bad = EXAMPLE.replace("(Nat.cast_nonneg n)", "Nat.cast_nonneg")
    assert fails(bad).status != OK


def test_wrong_rewrite_fails() -> None:
    bad = EXAMPLE.replace("rw [← e_1]; exact f_1", "rw [e_1]; exact f_1")
    ff = fails(bad)
    assert ff.kind == "rw" and "did not find" in ff.reason


# ------------------------------------------------------------------ strict and `=` facts

STRICT_TERM = """theorem bar_term_1 (a : ℝ) (ha : 0 < a) : 0 < a ^ 2 := by
  positivity

"""
STRICT_ATOMS = """theorem bar_atoms (S_1 : ℝ) (g_1 : 0 < S_1) : S_1 > 0 := by
  linarith

"""


def strict(stmt_hyps: str, nonempty: str, sset: str = "", fam: str = "Fin n → ℝ", ha: str = "∀ i, 0 < a i",
           app: str = "(fun i _ => bar_term_1 (a i) (ha i))") -> str:
    s = f"∑ i{sset}, (a i ^ 2)"
    return (HEAD + STRICT_TERM + STRICT_ATOMS
            + f"theorem bar (n : ℕ) {stmt_hyps}(a : {fam}) (ha : {ha}) :\n    ∑ i{sset}, a i ^ 2 > 0 := by\n"
            + f"  have f_1 : 0 < {s} :=\n    Finset.sum_pos {app} ({nonempty})\n"
            + "  exact bar_atoms _ f_1\n")


FIN_NONEMPTY = "Finset.univ_nonempty_iff.mpr ⟨⟨0, by omega⟩⟩"
RANGE_NONEMPTY = "Finset.nonempty_range_iff.mpr (by omega)"
RANGE = " ∈ Finset.range n"


def test_strict_fact_over_fin_passes() -> None:
    for hyp in ("(hn : 0 < n) ", "(hn : 2 ≤ n) ", "(hn : n ≠ 0) ", "(hn : n > 1) ", "(hn : 1 ≤ n) "):
        passes(strict(hyp, FIN_NONEMPTY))
    passes(strict("(hn : 0 < n) ", "Finset.univ_nonempty_iff.mpr (Fin.pos_iff_nonempty.mp hn)"))


def test_strict_fact_over_range_passes() -> None:
    for hyp in ("(hn : 0 < n) ", "(hn : 3 ≤ n) ", "(hn : n ≠ 0) "):
        passes(strict(hyp, RANGE_NONEMPTY, RANGE, "ℕ → ℝ", "∀ i ∈ Finset.range n, 0 < a i",
                      "(fun i hi => bar_term_1 (a i) (ha i hi))"))


def test_sum_pos_without_nonempty_argument_fails() -> None:
    text = strict("(hn : 0 < n) ", FIN_NONEMPTY).replace(f" ({FIN_NONEMPTY})", "")
    ff = fails(text)
    assert ff.kind == "have" and ff.status == "fail"


def test_omega_without_positive_n_fails() -> None:
    for hyp in ("", "(hn : 0 ≤ n) ", "(hn : n ≤ 5) ", "(hn : n ≠ 1) "):
        ff = fails(strict(hyp, FIN_NONEMPTY))
        assert ff.kind == "omega" and ff.status == "fail", ff
        ff = fails(strict(hyp, RANGE_NONEMPTY, RANGE, "ℕ → ℝ", "∀ i ∈ Finset.range n, 0 < a i",
                          "(fun i hi => bar_term_1 (a i) (ha i hi))"))
        assert ff.kind == "omega" and ff.status == "fail", ff


def test_nonempty_of_the_wrong_set_fails() -> None:
    ff = fails(strict("(hn : 0 < n) ", RANGE_NONEMPTY))
    assert ff.status == "fail"


def test_range_index_hypothesis_needs_membership() -> None:
    text = strict("(hn : 0 < n) ", RANGE_NONEMPTY, RANGE, "ℕ → ℝ", "∀ i ∈ Finset.range n, 0 < a i",
                  "(fun i _ => bar_term_1 (a i) (ha i))")
    assert fails(text).status == "fail"


def test_sum_eq_zero_passes() -> None:
    text = (HEAD + "theorem z_term_1 (a b : ℝ) (h : a = b) : a - b = 0 := by\n  linear_combination h\n\n"
            + "theorem z (n : ℕ) (a b : Fin n → ℝ) (h : ∀ i, a i = b i) : ∑ i, a i = ∑ i, b i := by\n"
            + "  have f_1 : ∑ i, (a i - b i) = 0 := Finset.sum_eq_zero (fun i _ => z_term_1 (a i) (b i) (h i))\n"
            + "  have e_1 : ∑ i, (a i - b i) = ∑ i, a i - ∑ i, b i := by\n"
            + "    simp only [Finset.sum_sub_distrib] <;> ring\n"
            + "  linear_combination e_1.symm.trans f_1\n")
    r = replay_text(text)
    # `e_1.symm.trans` is not modelled; the `have`s themselves pass
    assert [s.status for s in r.steps if s.kind in ("have", "simp only")] == [OK, OK, OK]
    text = text.replace("  linear_combination e_1.symm.trans f_1\n", "  linear_combination f_1 - e_1\n")
    passes(text)
    bad = text.replace("Finset.sum_sub_distrib", "Finset.sum_add_distrib")
    assert fails(bad).status != OK


# ------------------------------------------------------------------ range families, conjunctions, coefficients

CS_TERM = """theorem cs_term_1 (a b t_1 : ℝ) (ha : 0 ≤ a ∧ a ≤ 1) (hb : 0 < b) :
    0 ≤ 1 * (a ^ 2) + (-2 * t_1) * (a * b) + t_1 ^ 2 * (b ^ 2) := by
  linear_combination sq_nonneg (a - t_1 * b)

"""
CS_ATOMS = """theorem cs_atoms (t S_1 S_2 S_3 : ℝ) (g_1 : 0 ≤ 1 * S_1 + (-2 * t) * S_2 + t ^ 2 * S_3) :
    2 * t * S_2 ≤ S_1 + t ^ 2 * S_3 := by
  linarith

"""


def cs(coef: str = "t", extra_binders: str = "(t : ℝ) ", lemmas: str = "Finset.sum_add_distrib, ← Finset.mul_sum",
       sset: str = RANGE, fam: str = "ℕ → ℝ", guard: str = " ∈ Finset.range n", hi: str = "hi") -> str:
    r = sset
    summand = f"(1 * (a i ^ 2) + (-2 * {coef}) * (a i * b i) + {coef} ^ 2 * (b i ^ 2))"
    lin = (f"1 * ∑ i{r}, a i ^ 2 + (-2 * {coef}) * ∑ i{r}, a i * b i + {coef} ^ 2 * ∑ i{r}, b i ^ 2")
    hargs = f"i {hi}" if hi else "i"
    return (HEAD + CS_TERM + CS_ATOMS
            + f"theorem cs (n : ℕ) (hn : 2 ≤ n) (a b : {fam}) (ha : ∀ i{guard}, 0 ≤ a i ∧ a i ≤ 1)\n"
            + f"    (hb : ∀ i{guard}, 0 < b i) {extra_binders}:\n"
            + f"    2 * {coef} * ∑ i{r}, a i * b i ≤ ∑ i{r}, a i ^ 2 + {coef} ^ 2 * ∑ i{r}, b i ^ 2 := by\n"
            + f"  have f_1 : 0 ≤ ∑ i{r}, {summand} :=\n"
            + f"    Finset.sum_nonneg (fun i {hi or '_'} => cs_term_1 (a i) (b i) {coef} ⟨(ha {hargs}).1, (ha {hargs}).2⟩ "
            + f"(hb {hargs}))\n"
            + f"  have e_1 : ∑ i{r}, {summand} = {lin} := by\n"
            + f"    simp only [{lemmas}] <;> ring\n"
            + f"  have g_1 : 0 ≤ {lin} := by\n"
            + "    rw [← e_1]; exact f_1\n"
            + f"  exact cs_atoms {coef} _ _ _ g_1\n")


def test_range_families_with_conjunctions_pass() -> None:
    passes(cs())


def test_fin_families_with_conjunctions_pass() -> None:
    passes(cs(sset="", fam="Fin n → ℝ", guard="", hi=""))


def test_coefficient_with_sums_and_casts_passes() -> None:
    coef = "((∑ i ∈ Finset.range n, a i) / ∑ i ∈ Finset.range n, b i)"
    passes(cs(coef=coef, extra_binders=""))
    passes(cs(coef="(x * (n : ℝ))", extra_binders="(x : ℝ) "))


def test_range_sum_needs_card_range() -> None:
    text = (HEAD + "theorem r (n : ℕ) (a : ℕ → ℝ) :\n"
            + "    ∑ i ∈ Finset.range n, (a i + 2) = ∑ i ∈ Finset.range n, a i + 2 * (n : ℝ) := by\n"
            + "  simp only [Finset.sum_add_distrib, Finset.sum_const, Finset.card_range, nsmul_eq_mul] <;> ring\n")
    passes(text)
    ff = fails(text.replace("Finset.card_range, ", ""))
    assert ff.kind == "ring" and ff.status == "fail"
    # the Fin lemmas do not rewrite the cardinality of a range
    ff = fails(text.replace("Finset.card_range", "Finset.card_univ, Fintype.card_fin"))
    assert ff.kind == "ring" and ff.status == "fail"


def test_subtraction_needs_sum_sub_distrib() -> None:
    text = (HEAD + "theorem r (n : ℕ) (a b : Fin n → ℝ) :\n"
            + "    ∑ i, (a i - 3 * b i) = ∑ i, a i - 3 * ∑ i, b i := by\n"
            + "  simp only [Finset.sum_sub_distrib, ← Finset.mul_sum] <;> ring\n")
    passes(text)
    ff = fails(text.replace("Finset.sum_sub_distrib, ", ""))
    assert ff.status == "fail" and "no progress" in ff.reason     # nothing else rewrites `∑ i, (a i - …)`
    ff = fails(text.replace("Finset.sum_sub_distrib", "Finset.sum_add_distrib"))
    assert ff.status == "fail"


def test_simp_closing_the_goal_then_ring_has_no_goal() -> None:
    text = (HEAD + "theorem r (n : ℕ) (a b : Fin n → ℝ) :\n"
            + "    ∑ i, (a i + b i) = ∑ i, a i + ∑ i, b i := by\n"
            + "  simp only [Finset.sum_add_distrib] <;> ring\n")
    passes(text)
    assert fails(text.replace("<;> ring", "; ring")).reason.startswith("no goals")


def test_family_index_of_the_wrong_type_fails() -> None:
    text = (HEAD + "theorem r (n m : ℕ) (a : Fin m → ℝ) : ∑ i : Fin n, a i = ∑ i : Fin n, a i := by\n  ring\n")
    assert fails(text).status == "fail"


# ------------------------------------------------------------------ atoms and precedence


def _scope(**types: object) -> Scope:
    s = Scope()
    for name, ty in types.items():
        s, uid = s.bind(name)
        if ty != REAL:
            s.types[uid] = ty
    s, _ = s.bind("x")         # a real variable
    return s


FIN_N = ("app", ("const", "Fin"), (("fv", "n"),))


def test_range_and_fin_sums_are_different_atoms() -> None:
    text = (HEAD + "theorem r (n : ℕ) (x : ℝ) (h : ∑ i ∈ Finset.range n, x = 1) : ∑ i : Fin n, x = 1 := by\n"
            + "  linarith\n")
    assert fails(text).kind == "linarith"
    ok = text.replace(": ∑ i : Fin n, x = 1 := by", ": ∑ j ∈ Finset.range n, x = 1 := by")
    passes(ok)      # the same sum up to the bound variable's name is the same atom
    s = _scope(n=NAT)
    r = parse_term(lex("∑ i ∈ Finset.range n, x"), s)
    f = parse_term(lex("∑ i : Fin n, x"), s)
    assert canon(r) != canon(f)
    norm = RingNormalizer([r, f])
    assert not norm.norm(("sub", r, f)).is_zero()


def test_alpha_equivalent_sums_are_one_atom() -> None:
    s = _scope(n=NAT)
    s2, a = s.bind("a")
    s2.types[a] = ("imp", ("app", ("const", "Fin"), (("fv", s.names["n"]),)), REAL)
    t1 = parse_term(lex("∑ i, a i ^ 2"), s2)
    t2 = parse_term(lex("∑ j, a j ^ 2"), s2)
    assert t1 != t2 and alpha(t1) == alpha(t2)
    nested1 = parse_term(lex("∑ i, (∑ j, a j) * a i"), s2)
    nested2 = parse_term(lex("∑ k, (∑ i, a i) * a k"), s2)
    assert alpha(nested1) == alpha(nested2)


def test_sum_body_precedence() -> None:
    s = _scope(n=NAT)
    s2, a = s.bind("a")
    s2.types[a] = ("imp", ("app", ("const", "Fin"), (("fv", s.names["n"]),)), REAL)
    t = parse_term(lex("∑ i, a i + 1"), s2)
    assert t[0] == "add" and t[1][0] == "sum"                       # (∑ i, a i) + 1
    t = parse_term(lex("∑ i, a i * a i"), s2)
    assert t[0] == "sum" and t[3][0] == "mul"                       # ∑ i, (a i * a i)
    t = parse_term(lex("2 * ∑ i, a i + 1"), s2)
    assert t[0] == "add" and t[1][0] == "mul" and t[1][2][0] == "sum"
    t = parse_term(lex("∑ i, a i ^ 2 ≥ n"), s2)
    assert t[0] == "rel" and t[2][0] == "sum" and t[3] == ("cast", ("fv", s.names["n"]))


def test_sum_body_precedence_in_a_file() -> None:
    text = (HEAD + "theorem r (n : ℕ) (a : Fin n → ℝ) (h : ∑ i, (a i + 1) = 5) : ∑ i, a i + 1 = 5 := by\n"
            + "  linarith\n")
    assert fails(text).kind == "linarith"
    passes(text.replace(": ∑ i, a i + 1 = 5 :=", ": ∑ i, (a i + 1) = 5 :="))
    # `∑ i, a i - b i` leaves `b i` outside the binder: `i` is not in scope there
    text = (HEAD + "theorem r (n : ℕ) (a b : Fin n → ℝ) : ∑ i, a i - b i = 0 := by\n  sorry\n")
    assert fails(text).kind == "statement"


def test_casts_follow_binop() -> None:
    s = _scope(n=NAT)
    n = ("fv", s.names["n"])
    assert parse_term(lex("0 < n"), s) == ("rel", "<", ("num", 0), n)          # stays in ℕ
    assert parse_term(lex("(n : ℝ)"), s) == ("cast", n)
    assert parse_term(lex("(n - 1 : ℝ)"), s) == ("sub", ("cast", n), ("num", 1))
    assert parse_term(lex("x * n = 1"), s) == ("rel", "=", ("mul", ("fv", s.names["x"]), ("cast", n)), ("num", 1))
    assert parse_term(lex("(2 : ℝ) ≤ ↑n"), s) == ("rel", "≤", ("num", 2), ("cast", n))
    assert insert_casts(("rel", "<", ("num", 0), n), {}) == ("rel", "<", ("num", 0), n)
    assert show(parse_term(lex("∑ i ∈ Finset.range n, (i : ℝ)"), s)) == "∑ i ∈ Finset.range n, ↑i"


def test_nat_goal_is_not_proved_by_real_arithmetic() -> None:
    text = (HEAD + "theorem r (n : ℕ) (x : ℝ) (h : ∑ i : Fin n, x = 1) (h₁ : n ≤ 1) (h₂ : 1 ≤ n) : n = 1 := by\n"
            "  linarith\n")
    ff = fails(text)
    assert ff.kind == "linarith" and ff.status == "unsupported"
    # and a fact about ℕ is not a real fact for linarith: ↑n is another atom than n
    text = (HEAD + "theorem r (n : ℕ) (x : ℝ) (h : ∑ i : Fin n, x = n) (h₁ : n ≤ 1) : (n : ℝ) ≤ 1 := by\n"
            "  linarith\n")
    assert fails(text).kind == "linarith"


def test_sum_over_nat_univ_is_an_error() -> None:
    text = HEAD + "theorem r (a : ℕ → ℝ) : ∑ i, a i = ∑ i, a i := by\n  ring\n"
    assert fails(text).kind == "statement"


def test_deprecated_in_and_products_are_not_modelled() -> None:
    for stmt in ("theorem r (n : ℕ) (a : ℕ → ℝ) : ∑ i in Finset.range n, a i = 0 := by\n  sorry\n",
                 "theorem r (n : ℕ) (a : ℕ → ℝ) : ∏ i ∈ Finset.range n, a i = 0 := by\n  sorry\n"):
        ff = fails(HEAD + stmt)
        assert ff.status == "unsupported"


def test_family_without_sum_is_not_modelled() -> None:
    ff = fails(HEAD + "theorem r (f : ℕ → ℝ) : (1 : ℝ) = 1 := by\n  ring\n")
    assert ff.status == "unsupported" and ff.kind == "statement"


def test_index_cast_in_the_summand_passes() -> None:
    text = (HEAD + "theorem w_term_1 (a c : ℝ) (ha : 0 ≤ a) (hc : 0 ≤ c) : 0 ≤ c * a := by\n  positivity\n\n"
            + "theorem w (n : ℕ) (a : ℕ → ℝ) (ha : ∀ i ∈ Finset.range n, 0 ≤ a i) :\n"
            + "    0 ≤ ∑ i ∈ Finset.range n, (i : ℝ) * a i := by\n"
            + "  exact Finset.sum_nonneg (fun i hi => w_term_1 (a i) (i : ℝ) (ha i hi) (Nat.cast_nonneg i))\n")
    passes(text)
    assert fails(text.replace("(Nat.cast_nonneg i)", "(Nat.cast_nonneg n)")).status == "fail"


# ------------------------------------------------------------------ the case n = 0 (rcases, subst, simp)

SPLIT = ("  rcases Nat.eq_zero_or_pos n with h_n | h_n\n"
         "  · subst h_n\n"
         "    simp at *\n"
         "  · exact foo_split_atoms _\n")
SPLIT_ATOMS = "theorem foo_split_atoms (S : ℝ) : 0 ≤ S ^ 2 := by\n  positivity\n\n"


def split(stmt: str, zero: str = "    simp at *\n") -> str:
    return HEAD + SPLIT_ATOMS + stmt + SPLIT.replace("    simp at *\n", zero)


def test_empty_case_closed_by_simp_passes() -> None:
    # (∑ i : Fin 0, a i) ^ 2 ≥ 0 * 0: `0 ^ 2 ≤ 0`, `0 ≤ 0` by the zero lemmas and `le_refl`
    passes(split("theorem foo (n : ℕ) (a : Fin n → ℝ) : 0 ≤ (∑ i, a i) ^ 2 := by\n"))
    stmts = (("theorem foo (n : ℕ) (a : Fin n → ℝ) (x : ℝ) (hx : 0 < x) :\n"
              "    x * (∑ i, a i) ^ 2 ≤ x * n * ∑ i, a i ^ 2 + (∑ i, a i) ^ 2 := by\n"),
             "theorem foo (n : ℕ) (a : ℕ → ℝ) : (∑ i ∈ Finset.range n, a i) / n ≤ n + 1 := by\n",
             "theorem foo (n : ℕ) (a : Fin n → ℝ) : Real.sqrt (∑ i, a i ^ 2) < n * 3 + 1 := by\n")
    for stmt in stmts:
        text = split(stmt).replace("exact foo_split_atoms _", "sorry")
        r = replay_text(text)
        assert [s.status for s in r.steps if s.kind in ("rcases", "subst", "simp")] == [OK, OK, OK], stmt


def test_empty_case_closed_by_a_false_hypothesis() -> None:
    # `hs : ∑ i, a i = 2` is `0 = 2` at n = 0 (OfNat.zero_ne_ofNat): simp at * closes the goal
    text = split("theorem foo (n : ℕ) (a : Fin n → ℝ) (hs : ∑ i, a i = 2) : 4 ≤ n * ∑ i, a i ^ 2 := by\n")
    r = replay_text(text.replace("exact foo_split_atoms _", "sorry"))
    assert [s.status for s in r.steps if s.kind in ("subst", "simp")] == [OK, OK]


def test_empty_case_simp_is_never_a_pass_where_the_model_cannot_tell() -> None:
    # at n = 0 the goal is `s ^ 2 ≤ 0` given `0 = s`: simp does not substitute; not a pass
    text = split("theorem foo (n : ℕ) (a : Fin n → ℝ) (s : ℝ) (hs : ∑ i, a i = s) :\n"
                 "    s ^ 2 ≤ n * ∑ i, a i ^ 2 := by\n").replace("exact foo_split_atoms _", "sorry")
    ff = fails(text)
    assert ff.kind == "simp" and ff.status == "unsupported"
    # a false goal (`0 < 0` at n = 0) is not closed either
    text = split("theorem foo (n : ℕ) (a : Fin n → ℝ) : 0 < n + (∑ i, a i) ^ 2 := by\n")
    assert fails(text.replace("exact foo_split_atoms _", "sorry")).kind == "simp"
    # `2 ≤ 3` over ℝ: no simp lemma decides it (`Nat.ofNat_le` is not simp): not modelled
    text = split("theorem foo (n : ℕ) (a : Fin n → ℝ) : (∑ i, a i) + 2 ≤ 3 := by\n")
    assert fails(text.replace("exact foo_split_atoms _", "sorry")).status == "unsupported"


def test_the_second_case_knows_n_positive() -> None:
    text = split("theorem foo (n : ℕ) (a : Fin n → ℝ) : 0 ≤ (∑ i, a i) ^ 2 := by\n")
    passes(text)
    body = ("  · have c_1 : (0 : ℝ) < (n : ℝ) := Nat.cast_pos.mpr (by omega)\n"
            "    have c_2 : (1 : ℝ) ≤ (n : ℝ) := Nat.one_le_cast.mpr (by omega)\n"
            "    exact foo_split_atoms _\n")
    passes(text.replace("  · exact foo_split_atoms _\n", body))
    # without the split, `0 < n` is not known: omega fails
    bad = (HEAD + "theorem foo (n : ℕ) (a : Fin n → ℝ) : (0 : ℝ) < (n : ℝ) := by\n"
           "  exact Nat.cast_pos.mpr (by omega)\n")
    assert fails(bad).kind == "omega"
    # `Nat.cast_pos` is an iff: applied without `.mpr` it is a type mismatch
    assert fails(text.replace("exact foo_split_atoms _", "exact Nat.cast_pos h_n")).status != OK


def test_eq_zero_or_pos_is_the_core_statement() -> None:
    # `Nat.eq_zero_or_pos : ∀ (n : ℕ), n = 0 ∨ n > 0` (Lean core): the second case is `n > 0`
    text = (HEAD + "theorem foo (n : ℕ) (a : Fin n → ℝ) (x : ℝ) : (∑ i, a i) ^ 2 ≥ 0 := by\n"
            "  rcases Nat.eq_zero_or_pos n with h | h\n"
            "  · subst h\n    simp at *\n"
            "  · have : 0 < n := h\n    positivity\n")
    passes(text)
    assert fails(text.replace("Nat.eq_zero_or_pos n", "Nat.eq_zero_or_pos x")).status != OK
    assert fails(text.replace("Nat.eq_zero_or_pos n", "Nat.eq_zero_or_pos' n")).status == "fail"
    # subst of the positive case (not an equation) is refused
    assert fails(text.replace("  · have : 0 < n := h\n", "  · subst h\n")).status != OK


def test_subst_replaces_n_everywhere() -> None:
    text = (HEAD + "theorem foo (n : ℕ) (hn : n = 0) (a : Fin n → ℝ) (h : ∑ i, a i = n) : ∑ i, a i = n := by\n"
            "  subst hn\n  exact h\n")
    passes(text)
    # after subst, `n` is gone
    ff = fails(text.replace("  exact h\n", "  have : n = n := rfl\n  exact h\n"))
    assert ff.status != OK


# ------------------------------------------------------------------ the case n = 0 by a lemma of ours

EMPTY_LEMMA = ("theorem foo_empty (s : ℝ) (h_1 : 0 = s) : s ^ 2 ≤ 0 := by\n"
               "  linear_combination (sq_nonneg (s)) + (-(2 * s)) * h_1\n\n")


def by_lemma(lemmas: str = "Finset.univ_eq_empty, Finset.sum_empty, Nat.cast_zero", key: str = "foo_empty s (by linarith)") -> str:
    return (HEAD + EMPTY_LEMMA
            + "theorem foo (n : ℕ) (a : Fin n → ℝ) (s : ℝ) (hs : ∑ i, a i = s) : s ^ 2 ≤ n * ∑ i, a i ^ 2 := by\n"
            + "  rcases Nat.eq_zero_or_pos n with h_n | h_n\n"
            + "  · subst h_n\n"
            + f"    simp only [{lemmas}] at *\n"
            + f"    have k_0 := {key}\n"
            + "    linarith\n"
            + "  · sorry\n")


def test_empty_case_by_lemma_passes() -> None:
    r = replay_text(by_lemma())
    assert [s.status for s in r.steps if s.line < 10 or s.kind != "sorry"][:6] == [OK] * 6, r.summary()
    assert all(s.status == OK for s in r.steps if s.kind != "sorry" and s.kind != "·")


def test_empty_case_by_lemma_needs_every_rewrite() -> None:
    # without `Finset.sum_empty` the sums stay `∑ x ∈ ∅, …`: not modelled, never a pass
    r = replay_text(by_lemma("Finset.univ_eq_empty, Nat.cast_zero"))
    assert any(s.kind == "simp_only" and s.status == "unsupported" for s in r.steps)
    # without `Nat.cast_zero`, `↑0 * 0` is left: linarith sees the atom ↑0 … still linear (0 * ↑0)
    # but the hypothesis of the lemma must follow: a wrong instance fails
    r = replay_text(by_lemma(key="foo_empty (s + 1) (by linarith)"))
    assert any(s.kind == "linarith" and s.status == "fail" for s in r.steps)
    # the range lemmas do not rewrite a sum over Fin 0: simp made no progress on the sums
    r = replay_text(by_lemma("Finset.range_zero, Finset.sum_empty"))
    assert not all(s.status == OK for s in r.steps if s.kind != "sorry" and s.kind != "·")


# ------------------------------------------------------------------ Cauchy–Schwarz

def cs_text(args: str, goal: str, fam: str = "Fin n → ℝ", extra: str = "") -> str:
    return (HEAD + f"theorem foo (n : ℕ) (a b : {fam}) {extra}:\n    {goal} := by\n"
            f"  have h := Finset.sum_mul_sq_le_sq_mul_sq {args}\n  linarith\n")


def test_cauchy_schwarz_passes() -> None:
    passes(cs_text("Finset.univ a b", "(∑ i, a i * b i) ^ 2 ≤ (∑ i, a i ^ 2) * ∑ i, b i ^ 2"))
    passes(cs_text("Finset.univ a b", "0 ≤ (∑ i, b i ^ 2) * (∑ i, a i ^ 2) - (∑ j, a j * b j) ^ 2"))
    passes(cs_text("(Finset.range n) a b",
                   "(∑ i ∈ Finset.range n, a i * b i) ^ 2 ≤ (∑ i ∈ Finset.range n, a i ^ 2) * "
                   "∑ i ∈ Finset.range n, b i ^ 2", fam="ℕ → ℝ"))


def test_cauchy_schwarz_with_a_lambda_is_beta_reduced() -> None:
    # `inferType` instantiates with `instantiateBetaRevRange`: `(fun j => a j + x) i` is `a i + x`
    goal = "(∑ i, (a i + x) * b i) ^ 2 ≤ (∑ i, (a i + x) ^ 2) * ∑ i, b i ^ 2"
    passes(cs_text("Finset.univ (fun j => (a j) + x) b", goal, extra="(x : ℝ) "))
    # the lemma's product is `f i * g i`: with f and g swapped it is `b i * (a i + x)`, another atom
    ff = fails(cs_text("Finset.univ b (fun j => (a j) + x)", goal, extra="(x : ℝ) "))
    assert ff.kind == "linarith" and ff.status == "fail"


def test_cauchy_schwarz_misuses_fail() -> None:
    goal = "(∑ i, a i * b i) ^ 2 ≤ (∑ i, a i ^ 2) * ∑ i, b i ^ 2"
    # the wrong set: range sums are other atoms than Fin sums
    assert fails(cs_text("(Finset.range n) a b", goal)).status != OK
    # too many arguments; too few (a ∀ left) is not modelled
    assert fails(cs_text("Finset.univ a b a", goal)).status == "fail"
    assert fails(cs_text("Finset.univ a", goal)).status == "unsupported"
    # a real number is not a family
    assert fails(cs_text("Finset.univ a x", goal, extra="(x : ℝ) ")).status == "fail"


# ------------------------------------------------------------------ `_` must be determined by unification

def test_undetermined_placeholder_fails() -> None:
    lemma = "theorem foo_atoms (n S_1 S_2 : ℝ) (g_1 : 0 ≤ S_1) : 0 ≤ S_1 := by\n  linarith\n\n"
    stmt = "theorem foo (n : ℕ) (a b : Fin n → ℝ) (g : 0 ≤ ∑ i, a i) : 0 ≤ ∑ i, a i := by\n"
    # S_2 is in no hypothesis nor the conclusion: "don't know how to synthesize placeholder"
    ff = fails(HEAD + lemma + stmt + "  exact foo_atoms (n : ℝ) _ _ g\n")
    assert ff.kind == "exact" and "placeholder" in ff.reason
    passes(HEAD + lemma + stmt + "  exact foo_atoms (n : ℝ) _ (∑ i, b i) g\n")
    passes(HEAD + lemma + stmt + "  exact foo_atoms (n : ℝ) (∑ i, a i) (∑ i, b i) g\n")
    # an explicit atom that is not the hypothesis' sum is a type mismatch
    assert fails(HEAD + lemma + stmt + "  exact foo_atoms (n : ℝ) (∑ i, b i) (∑ i, b i) g\n").status == "fail"


# ------------------------------------------------------------------ Cauchy–Schwarz as (Σr)² ≤ Σf·Σg

SQ_TERMS = ("theorem q_f (a b : ℝ) (hb : 0 < b) : 0 ≤ b := by\n  linarith\n\n"
            "theorem q_g (a b : ℝ) (hb : 0 < b) : 0 ≤ (a ^ 2 / b) := by\n  positivity\n\n"
            "theorem q_t (a b : ℝ) (hb : 0 < b) : a ^ 2 = b * (a ^ 2 / b) := by\n"
            "  have hne : b ≠ 0 := by positivity\n  have hinv : b * b⁻¹ = 1 := mul_inv_cancel₀ hne\n"
            "  linear_combination (-(a ^ 2)) * hinv\n\n")


def sq_text(hf: str = "q_f", hg: str = "q_g", ht: str = "q_t", sset: str = "Finset.univ",
            goal: str = "(∑ i, a i) ^ 2 ≤ (∑ i, b i) * (∑ i, a i ^ 2 / b i)") -> str:
    return (HEAD + SQ_TERMS + "theorem foo (n : ℕ) (a b : Fin n → ℝ) (hb : ∀ i, 0 < b i) :\n"
            f"    {goal} := by\n"
            f"  have h := Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul {sset} (fun j hj => {hf} (a j) (b j) (hb j)) "
            f"(fun j hj => {hg} (a j) (b j) (hb j)) (fun j hj => {ht} (a j) (b j) (hb j))\n"
            "  linarith\n")


def test_sum_sq_le_sum_mul_sum_passes() -> None:
    passes(sq_text())
    passes(sq_text(goal="0 ≤ (∑ i, a i ^ 2 / b i) * (∑ i, b i) - (∑ j, a j) ^ 2"))


def test_sum_sq_le_sum_mul_sum_checks_its_proofs() -> None:
    # hf and hg swapped: ht's `b * (a ^ 2 / b)` is not `f * g` = `(a ^ 2 / b) * b`
    ff = fails(sq_text(hf="q_g", hg="q_f"))
    assert ff.status == "fail" and "type mismatch" in ff.reason
    # ht in the place of hf: not `0 ≤ _`
    assert fails(sq_text(hf="q_t")).status == "fail"
    # a sum over another set is another atom for linarith
    assert fails(sq_text(sset="(Finset.range n)")).status != OK


def test_sum_congr_rewrites_a_sum_of_the_cauchy_schwarz_fact() -> None:
    text = (HEAD + "theorem foo (n : ℕ) (a : Fin n → ℝ) :\n"
            "    0 ≤ -(∑ i, a i ^ 3) ^ 2 + (∑ i, a i ^ 2) * (∑ i, a i ^ 4) := by\n"
            "  have h := Finset.sum_mul_sq_le_sq_mul_sq Finset.univ a (fun j => (a j) ^ 2)\n"
            "  have hc_1 : ∑ j, ((a j) * ((a j) ^ 2)) = ∑ i, a i ^ 3 := Finset.sum_congr rfl (fun j _ => by ring)\n"
            "  have hc_2 : ∑ j, (((a j) ^ 2) ^ 2) = ∑ i, a i ^ 4 := Finset.sum_congr rfl (fun j _ => by ring)\n"
            "  rw [hc_1, hc_2] at h\n"
            "  linarith\n")
    passes(text)
    # without the rewriting, `∑ i, a i * a i ^ 2` is another atom than `∑ i, a i ^ 3`
    assert fails(text.replace("  rw [hc_1, hc_2] at h\n", "")).kind == "linarith"
    # a body ring does not prove equal fails; sets that differ are no `rfl`
    assert fails(text.replace("= ∑ i, a i ^ 4 :=", "= ∑ i, a i ^ 5 :=")).status == "fail"
    bad = text.replace("have hc_2 : ∑ j, (((a j) ^ 2) ^ 2) = ∑ i, a i ^ 4",
                       "have hc_2 : ∑ j, (((a j) ^ 2) ^ 2) = ∑ i : Fin 3, a 0 ^ 4")
    assert fails(bad).status != OK
