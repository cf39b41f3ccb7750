"""The Lean replay model (``prover.lean.replay``): a static model of Lean, not Lean.

Negative examples are the defect classes of issue 13, cut down from real rendered output
(results/final-120s-*); positive examples are hand-written Lean that Mathlib v4.16.0 accepts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.replay import (
    LINE_BUDGET,
    OK,
    NotModelled,
    Scope,
    lex,
    parse_term,
    prover_lemma_signatures,
    replay_file,
    replay_text,
    show,
)

GOLDEN = Path(__file__).parent / "golden"
HEAD = "import Mathlib\n\nopen Real\n\n"


def thm(statement: str, *body: str) -> str:
    return HEAD + statement + " := by\n" + "".join(f"  {ln}\n" for ln in body)


def failing(text: str) -> list:
    r = replay_text(text)
    assert not r.ok, r.summary()
    return r.failures


# ------------------------------------------------------------------ parsing


def term(src: str) -> str:
    return show(parse_term(lex(src), Scope()))


def test_lean_precedences() -> None:
    t = parse_term(lex("-x ^ 2"), Scope())
    assert t[0] == "neg" and t[1][0] == "pow"                      # -(x ^ 2), not (-x) ^ 2
    t = parse_term(lex("√x ^ 2"), Scope())
    assert t[0] == "pow" and t[1][0] == "app"                       # (√x) ^ 2
    t = parse_term(lex("a - b - c"), Scope())
    assert t[0] == "sub" and t[1][0] == "sub"                       # left associative
    t = parse_term(lex("a ^ b ^ c"), Scope())
    assert t[0] == "pow" and t[2][0] == "pow"                       # right associative
    t = parse_term(lex("2 * a * b ≤ a ^ 2 + b ^ 2"), Scope())
    assert t[0] == "rel" and t[2][0] == "mul" and t[3][0] == "add"
    assert term("(sub_pos.mpr h).le") == "(sub_pos.mpr h).le"
    assert term("x ^ (1 / 3 : ℝ)") == "x ^ (1 / 3 : ℝ)"              # the ascription makes rpow
    assert term("(0 : ℝ) ≤ x") == "0 ≤ x"


# ------------------------------------------------------------------ accepted Lean


def test_accepts_linear_combination_amgm2() -> None:
    r = replay_text(thm("theorem amgm (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "linear_combination sq_nonneg (x - y)"))
    assert r.ok, r.summary()


def test_accepts_sub_nonneg_have_with_its_exact_type() -> None:
    r = replay_text(thm("theorem t (x y : ℝ) (hxy : y ≤ x) :\n    0 ≤ x - y",
                        "have h : 0 ≤ x - y := sub_nonneg.mpr hxy", "linear_combination h"))
    assert r.ok, r.summary()


def test_accepts_positivity_on_sum_of_squares_plus_one() -> None:
    r = replay_text(thm("theorem t (x y : ℝ) :\n    0 < x ^ 2 + y ^ 2 + 1", "positivity"))
    assert r.ok, r.summary()


def test_accepts_positivity_from_hypotheses_quotients_and_roots() -> None:
    r = replay_text(thm("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 ≤ b) :\n    0 < a / (a + b) + √(a * b) + a ^ (1 / 3 : ℝ)",
                        "positivity"))
    assert r.ok, r.summary()


def test_accepts_denominators_cleared_by_a_supplied_inverse_fact() -> None:
    # ring never cancels x * x⁻¹; the fact mul_inv_cancel₀ hx supplies it
    text = thm("theorem t (x : ℝ) (hx : x ≠ 0) :\n    x * (1 / x) = 1", "linear_combination mul_inv_cancel₀ hx")
    assert replay_text(text).ok
    bad = thm("theorem t (x : ℝ) (hx : x ≠ 0) :\n    x * (1 / x) = 1", "linear_combination")
    assert "ring1 failed" in failing(bad)[0].reason


def test_accepts_inequality_slack_and_equalities_with_coefficients() -> None:
    text = thm("theorem t (a b : ℝ) (h : a + b = 2) :\n    a * b ≤ 1",
               "linear_combination (1 / 4) * sq_nonneg (a - b) + (a / 4 + b / 4 + 1 / 2) * h")
    assert replay_text(text).ok
    # a positive constant slack is allowed (Ring.proveLE), a negative one is not
    assert replay_text(thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2 + 1", "linear_combination sq_nonneg x")).ok
    assert "comparison failed" in failing(thm("theorem t (x : ℝ) :\n    1 ≤ x ^ 2",
                                              "linear_combination sq_nonneg x"))[0].reason


def test_accepts_structured_proofs_with_linarith_side_goals() -> None:
    text = thm("theorem t (a : ℝ) (ha : a ≥ 1) :\n    a ^ 2 ≥ 2 * a - 1",
               "rw [ge_iff_le]",
               "suffices hkey : ∀ u : ℝ, 1 ≤ u + 1 → 2 * u + 1 ≤ (u + 1) ^ 2 by",
               "  linear_combination hkey (a - 1) (by linarith)",
               "intro u hv",
               "linear_combination sq_nonneg u")
    r = replay_text(text)
    assert r.ok, r.summary()


def test_accepts_case_splits_with_first() -> None:
    text = thm("theorem t (a b : ℝ) :\n    0 ≤ (a - b) * (a ^ 3 - b ^ 3)",
               "suffices hc : (a ≥ b → 0 ≤ (a - b) * (a ^ 3 - b ^ 3)) ∧ (b ≥ a → 0 ≤ (a - b) * (a ^ 3 - b ^ 3)) by",
               "  obtain ⟨h1, h2⟩ := hc",
               "  rcases le_total a b with h | h <;>",
               "    first",
               "    | linear_combination h1 (by linarith)",
               "    | linear_combination h2 (by linarith)",
               "refine ⟨fun _ => ?_, fun _ => ?_⟩",
               "· linear_combination sq_nonneg ((a + b / 2) * (a - b)) + (3 / 4) * sq_nonneg (b * (a - b))",
               "· linear_combination sq_nonneg ((a + b / 2) * (a - b)) + (3 / 4) * sq_nonneg (b * (a - b))")
    r = replay_text(text)
    assert r.ok, r.summary()


# ------------------------------------------------------------------ rejected: issue 13's defect classes


def test_rejects_have_whose_stated_type_is_not_the_terms_type() -> None:
    # mo-int-20/P15: the term proves 0 ≤ 4 - (a^2 + b^2 + c^2); Lean does not unfold real `+`
    text = thm("theorem P15 (a b c : ℝ) (h : a ^ 2 + b ^ 2 + c ^ 2 ≤ 4) :\n    0 ≤ 4 - a ^ 2 - b ^ 2 - c ^ 2",
               "have happ : 0 ≤ 4 - a ^ 2 - b ^ 2 - c ^ 2 := (sub_nonneg.mpr h)", "linear_combination happ")
    f = failing(text)
    assert f[0].kind == "have" and "type mismatch" in f[0].reason
    assert "4 - (a ^ 2 + b ^ 2 + c ^ 2)" in f[0].reason


def test_rejects_positivity_on_a_subtraction() -> None:
    # mo-int-20/P16: a denominator b^2 - 4b + 9 (positive, but not by positivity's rules)
    text = thm("theorem P16 (b : ℝ) (hb : 0 < b) :\n    (0 : ℝ) < 1 / (b ^ 2 - 4 * b + 9)", "positivity")
    f = failing(text)
    assert f[0].kind == "positivity" and "b ^ 2 - 4 * b" in f[0].reason
    # chenneq/P17: √(a + b - c) with only a + b > c known
    text = thm("theorem P17 (a b c : ℝ) (h : a + b > c) (hc : 0 < c) :\n    0 < Real.sqrt (a + b - c)", "positivity")
    assert failing(text)[0].kind == "positivity"


def test_rejects_field_simp_then_ring_as_not_modelled() -> None:
    text = thm("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) :\n    a / b + b / a = (a ^ 2 + b ^ 2) / (a * b)",
               "have hid : a / b + b / a = (a ^ 2 + b ^ 2) / (a * b) := by", "  field_simp", "  ring",
               "linear_combination hid")
    f = failing(text)
    assert [x.kind for x in f] == ["field_simp", "ring"]
    assert all(x.status == "unsupported" and "not modelled" in x.reason for x in f)


def test_rejects_huge_lines_and_large_files_without_heartbeats() -> None:
    # mo-int-20/P1-sized: a single tactic line of ~400 KB
    coeff = "1" * 400_000
    text = thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2", f"linear_combination ({coeff} / {coeff}) * sq_nonneg x")
    f = failing(text)
    kinds = {x.kind for x in f}
    assert kinds == {"budget"}
    assert any(f"{LINE_BUDGET}-character line budget" in x.reason for x in f)
    assert any("maxHeartbeats" in x.reason for x in f)


def test_rejects_nlinarith_and_unknown_tactics() -> None:
    f = failing(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "nlinarith [sq_nonneg (x - y)]"))
    assert f[0].status == "unsupported" and "nlinarith" in f[0].reason
    f = failing(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "polyrith"))
    assert "not modelled" in f[0].reason


def test_rejects_a_shadowed_hypothesis_name() -> None:
    # chenneq/P17: two binders named hc; the second one is what `hc` means
    text = thm("theorem P17 (a b c : ℝ) (hc : c > 0) (hc : b + c > a) :\n    0 < c",
               "have hpos : 0 < c := hc", "linear_combination hpos")
    f = failing(text)
    assert f[0].kind == "have" and "b + c > a" in f[0].reason


def test_rejects_unifying_nothing_for_implicit_weights() -> None:
    # the weighted AM-GM path: implicit weights never unified, so `by positivity` sees ?w
    text = thm("theorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n    a ^ (1 / 2 : ℝ) * b ^ (1 / 2 : ℝ) ≤ a / 2 + b / 2",
               "linear_combination Real.geom_mean_le_arith_mean2_weighted (by positivity) (by positivity) "
               "(by positivity) (by positivity) (by norm_num)")
    assert "metavariables" in failing(text)[0].reason


def test_rejects_wrong_certificates_and_illegal_combinations() -> None:
    f = failing(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "linear_combination sq_nonneg (x + y)"))
    assert "linear_combination" in f[0].reason
    f = failing(thm("theorem t (x y : ℝ) (h : x ≤ y) :\n    y ≤ x", "linear_combination -1 * h"))
    assert "nonnegative" in f[0].reason
    f = failing(thm("theorem t (x : ℝ) :\n    x * x⁻¹ = 1", "linear_combination"))   # ring does not cancel
    assert f[0].kind == "linear_combination"


def test_rejects_names_outside_the_whitelist() -> None:
    f = failing(thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2", "linear_combination pow_two_nonneg x"))
    assert "not whitelisted" in f[0].reason


def test_no_goals_left_and_unsolved_goals_are_failures() -> None:
    f = failing(thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2", "positivity", "positivity"))
    assert "no goals" in f[0].reason
    f = failing(thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2", "have h : 0 ≤ x ^ 2 := sq_nonneg x"))
    assert "unsolved goals" in f[0].reason


# ------------------------------------------------------------------ files, CLI, whitelist


def test_prover_lemmas_are_read_from_lean_project() -> None:
    sigs = prover_lemma_signatures()
    assert "Prover.Lemmas.amgm2_sqrt" in sigs and "Prover.Lemmas.schur" in sigs
    text = ("import Mathlib\nimport ProverLemmas\n\ntheorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n"
            "    Real.sqrt (a * b) ≤ a / 2 + b / 2 := by\n"
            "  linear_combination Prover.Lemmas.amgm2_sqrt (a) (b) (by positivity) (by positivity)\n")
    r = replay_text(text)
    assert r.ok, r.summary()
    # without the import the name is unknown
    assert not replay_text(text.replace("import ProverLemmas\n", "")).ok


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.lean")), ids=lambda p: p.stem)
def test_every_golden_file_gets_a_verdict_per_tactic(path: Path) -> None:
    r = replay_file(path)
    assert r.steps
    assert all(s.status in ("ok", "fail", "unsupported") for s in r.steps)
    if any("field_simp" in ln or "nlinarith" in ln for ln in path.read_text(encoding="utf-8").splitlines()):
        assert not r.ok                     # never a pass through an unmodelled tactic


def test_cli_replay_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.lean"
    good.write_text(thm("theorem amgm (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "linear_combination sq_nonneg (x - y)"))
    bad = tmp_path / "bad.lean"
    bad.write_text(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "nlinarith [sq_nonneg (x - y)]"))
    runner = CliRunner()
    r = runner.invoke(app, ["lean", "replay", str(good)])
    assert r.exit_code == 0 and "PASS (replay model, not Lean)" in r.stdout
    r = runner.invoke(app, ["lean", "replay", str(bad)])
    assert r.exit_code == 1 and "nlinarith" in r.stdout
    assert runner.invoke(app, ["lean", "replay", str(tmp_path / "missing.lean")]).exit_code == 2


def test_verdicts_are_typed() -> None:
    r = replay_text(thm("theorem amgm (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", "linear_combination sq_nonneg (x - y)"))
    (s,) = r.steps
    assert (s.line, s.kind, s.status) == (7, "linear_combination", OK)


def test_a_tactic_broken_over_lines_still_counts_whole_against_the_budget() -> None:
    terms = " +\n    ".join(["0 * sq_nonneg x"] * 1500)
    text = thm("theorem t (x : ℝ) :\n    0 ≤ x ^ 2", f"linear_combination sq_nonneg x +\n    {terms}")
    r = replay_text(text)
    assert r.longest_line < 20_000 < r.longest_tactic
    assert any("tactic budget" in f.reason for f in r.failures)


@pytest.mark.parametrize("tactic", ["rw [foo", "exact ⟨a, b", "obtain ⟨x, y", "exact (fun x => x",
                                    "rcases h with ⟨x", "linarith [foo"])
def test_unclosed_brackets_are_a_syntax_failure_not_a_hang(tactic: str) -> None:
    import signal

    def _timeout(signum, frame):
        raise AssertionError(f"replay hangs on {tactic!r}")

    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(10)
    try:
        r = replay_text(f"theorem t (a : ℝ) : a = a := by\n  {tactic}\n")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert not r.ok, r.summary()


def test_real_division_macro_makes_a_divided_exponent_real() -> None:
    """Under the benchmark macro ``x ^ (1 / 3)`` is ``x ^ (1 / 3 : ℝ)``; without it Lean reads
    ``1 / 3`` in ℕ (``= 0``), so the two are different terms and ``ring`` cannot connect them."""
    macro = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))\n\n"
    body = "theorem t (x : ℝ) (hx : 0 < x) : x ^ (1 / 3) = x ^ (1 / 3 : ℝ) := by\n  linear_combination\n"
    assert replay_text("import Mathlib\n\n" + macro + body).ok
    assert not replay_text("import Mathlib\n\n" + body).ok


def test_real_division_macro_reaches_function_arguments() -> None:
    """The exponent rule also holds inside an application's arguments (``Real.sqrt (x ^ (1 / 3))``)."""
    macro = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))\n\n"
    body = ("theorem t (x : ℝ) (hx : 0 < x) : Real.sqrt (x ^ (1 / 3)) = Real.sqrt (x ^ (1 / 3 : ℝ)) := by\n"
            "  linear_combination\n")
    assert replay_text("import Mathlib\n\n" + macro + body).ok


def test_suffices_statement_over_several_lines_then_its_block() -> None:
    """A ``suffices … by`` whose statement is broken over continuation lines (the renderer's line
    budget): the lines after the one ending with ``by`` are its block, checked as such."""
    body = ["suffices hs : 0 ≤ (x - y) ^ 2 +",
            "    0 by",
            "  linear_combination hs",
            "positivity"]
    assert replay_text(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", *body)).ok
    wrong = ["suffices hs : 0 ≤ (x - y) ^ 2 +",
             "    0 by",
             "  linear_combination 2 * hs",
             "positivity"]
    assert failing(thm("theorem t (x y : ℝ) :\n    2 * x * y ≤ x ^ 2 + y ^ 2", *wrong))


# ------------------------------------------------------------------ |x|, real numeral exponents


def test_absolute_value_bars_and_alternative_bars() -> None:
    """``|a|`` is Mathlib's ``atomic("|" noWs) term noWs "|"``: a bar with no space on its inner
    side; a bar with spaces on both sides separates alternatives, and ``| a |`` is no term."""
    assert term("|a| + |b|") == "|a| + |b|"
    assert parse_term(lex("|(|a| - b)| * |a|"), Scope())[0] == "mul"
    assert term("|a| ^ 2") == "|a| ^ 2"
    with pytest.raises(NotModelled):
        parse_term(lex("| a |"), Scope())
    body = ["have h1 : |x| = x := abs_of_pos (by first | positivity | linarith)", "linear_combination h1"]
    assert replay_text(thm("theorem t (x : ℝ) (hx : 0 < x) :\n    |x| = x", *body)).ok


def test_abs_application_and_bars_are_one_term() -> None:
    """``|a|`` is Mathlib's notation (a macro) for ``abs a``: a statement written ``abs (x - 2)``
    and a proof written ``|x - 2|`` speak of one term (miniF2F amc12_2000_p5); ``abs`` of
    another argument stays another term."""
    stmt = "theorem t (x p : ℝ) (h : abs (x - 2) = p) :\n    |x - 2| = p"
    assert replay_text(thm(stmt, "linear_combination h")).ok
    assert failing(thm(stmt.replace("|x - 2|", "|x - 3|"), "linear_combination h"))
    assert failing(thm(stmt.replace("abs (x - 2)", "abs (x - 3)"), "linear_combination h"))


def test_fun_against_a_disequality_unfolds_ne() -> None:
    """``a ≠ b`` is ``a = b → False`` by definition (``Ne``), and Lean's ``fun`` binder elaborator
    whnfs its expected type: ``fun h => h₁ (by linear_combination h)`` proves ``x + 2 ≠ 0`` from
    ``h₁ : x ≠ -2`` (miniF2F mathd_algebra_267). Attacks: the wrong constant, a binder against an
    ``=`` goal, an ``h₁`` of the other sign."""
    stmt = "theorem t (x : ℝ) (h₁ : x ≠ -2) :\n    x + 2 ≠ 0"
    proof = "exact fun h => h₁ (by linear_combination h)"
    assert replay_text(thm(stmt, proof)).ok
    assert replay_text(thm(stmt.replace("x + 2 ≠ 0", "¬(x + 2 = 0)"), proof)).ok
    assert failing(thm(stmt.replace("x + 2 ≠ 0", "x + 3 ≠ 0"), proof))
    assert failing(thm(stmt.replace("x ≠ -2", "x ≠ 2"), proof))
    assert failing(thm(stmt.replace("x + 2 ≠ 0", "x + 2 = 0"), proof))


def test_assumption_finds_a_shadowed_hypothesis_by_its_type() -> None:
    """``assumption`` closes a goal some hypothesis states, a shadowed one (``h✝``) included; a goal
    no hypothesis states fails, and the visible name still means the later hypothesis."""
    stmt = "theorem t (x : ℝ) (h : 0 < x) (h : x < 1) :\n    0 < x"
    assert replay_text(thm(stmt, "assumption")).ok
    assert replay_text(thm(stmt, "have h2 : 0 < x := by assumption", "linear_combination h2")).ok
    assert failing(thm(stmt.replace("    0 < x", "    0 < x + 1"), "assumption"))
    assert failing(thm(stmt, "linear_combination h"))


def test_a_theorem_heads_binder_text_is_the_visible_one() -> None:
    from prover.lean.render.statement import _binder_text, written_hypothesis

    head = "theorem t (x : ℝ) (h : 0 < x) (h : x < 1) : x < 2"
    assert written_hypothesis(head, "h") == "x < 1"
    assert _binder_text(head, "h", visible=False) == "0 < x"


def test_real_numeral_exponents_are_the_same_term() -> None:
    """``x ^ ((2:ℝ)/3)`` and ``x ^ (2 / 3 : ℝ)`` elaborate to the same real power (``binop%`` puts
    every numeral of ``(2:ℝ)/3`` in ℝ), so ``ring`` sees one atom; with ``(2:ℕ)`` it does not."""
    assert term("x ^ ((2:ℝ)/3)") == term("x ^ (2 / 3 : ℝ)") == term("x ^ (2 / (3 : ℝ))")
    assert replay_text(thm("theorem t (x : ℝ) (hx : 0 < x) :\n    x ^ ((2:ℝ)/3) = x ^ (2 / 3 : ℝ)",
                           "linear_combination")).ok
    assert failing(thm("theorem t (x : ℝ) (hx : 0 < x) :\n    x ^ ((2:ℕ)/3) = x ^ (2 / 3 : ℝ)",
                       "linear_combination"))
    assert failing(thm("theorem t (x : ℝ) (hx : 0 < x) :\n    x ^ (2/3) = x ^ (2 / 3 : ℝ)", "linear_combination"))


def test_accepts_the_absolute_value_and_root_lemmas() -> None:
    body = ["have h1 : |x| = -x := abs_of_neg (by linarith)",
            "have h2 : (0 : ℝ) < |x| := abs_pos_of_neg h",
            "have h3 : Real.sqrt (x ^ 2) = |x| := Real.sqrt_sq_eq_abs x",
            "have h4 : |x| ^ 2 = x ^ 2 := sq_abs x",
            "have h5 : (0 : ℝ) ≤ |x| := abs_nonneg x",
            "have h6 : Real.sqrt (x ^ 2) = (x ^ 2) ^ (1 / 2 : ℝ) := Real.sqrt_eq_rpow (x ^ 2)",
            "linear_combination h3 + h1"]
    assert replay_text(thm("theorem t (x : ℝ) (h : x < 0) :\n    Real.sqrt (x ^ 2) = -x", *body)).ok


def test_rejects_absolute_values_without_their_sign() -> None:
    """``|x| = x`` needs ``0 ≤ x``: not from nothing, not from ``x < 0``, not by ``ring``."""
    f = failing(thm("theorem t (x : ℝ) :\n    |x| = x", "have h1 : |x| = x := abs_of_pos (by positivity)",
                    "linear_combination h1"))
    assert f[0].kind == "positivity"
    f = failing(thm("theorem t (x : ℝ) (hx : 0 ≤ x) :\n    |x| = x", "have h1 : |x| = x := abs_of_pos hx",
                    "linear_combination h1"))
    assert f[0].kind == "have"
    assert failing(thm("theorem t (x : ℝ) (hx : 0 < x) :\n    |x| = x", "linear_combination"))
    f = failing(thm("theorem t (x : ℝ) (hx : x < 0) :\n    |x| = x", "have h1 : |x| = x := abs_of_neg hx",
                    "linear_combination h1"))
    assert f[0].kind == "have"
    # √(x²) is |x|, not x, without a sign
    assert failing(thm("theorem t (x : ℝ) :\n    Real.sqrt (x ^ 2) = x",
                       "have h1 : Real.sqrt (x ^ 2) = x := Real.sqrt_sq_eq_abs x", "linear_combination h1"))


def test_rejects_a_root_written_differently() -> None:
    """``ring`` compares the arguments of ``Real.sqrt`` syntactically: ``Real.sqrt (2 * (a + b))``
    and ``Real.sqrt (2 * a + 2 * b)`` are two atoms."""
    assert failing(thm("theorem t (a b : ℝ) :\n    Real.sqrt (2 * (a + b)) = Real.sqrt (2 * a + 2 * b)",
                       "linear_combination"))


QM_AM = ("import Mathlib\nimport ProverLemmas\n\nopen Real\n\n"
         "theorem t (a b : ℝ) :\n    a / 2 + b / 2 ≤ Real.sqrt (a ^ 2 / 2 + b ^ 2 / 2) := by\n")


def test_rejects_a_lemma_whose_root_is_written_differently() -> None:
    """``qm_am2_sqrt a b : (a + b) / 2 ≤ Real.sqrt ((a ^ 2 + b ^ 2) / 2)``: its root is another atom
    than ``Real.sqrt (a ^ 2 / 2 + b ^ 2 / 2)`` to ``ring`` (chenneq/P7), so the combination fails."""
    f = failing(QM_AM + "  linear_combination Prover.Lemmas.qm_am2_sqrt (a) (b)\n")
    assert f[0].kind == "linear_combination"


def test_accepts_the_root_bridged_by_congr_arg() -> None:
    """``congrArg Real.sqrt h : √X₁ = √X₂`` for ``h : X₁ = X₂`` (by ``ring``) bridges the two atoms."""
    bridged = QM_AM + ("  have h1 : (a ^ 2 + b ^ 2) / 2 = a ^ 2 / 2 + b ^ 2 / 2 := by ring\n"
                       "  have h2 : Real.sqrt ((a ^ 2 + b ^ 2) / 2) = Real.sqrt (a ^ 2 / 2 + b ^ 2 / 2) := "
                       "congrArg Real.sqrt h1\n"
                       "  linear_combination Prover.Lemmas.qm_am2_sqrt (a) (b) + h2\n")
    r = replay_text(bridged)
    assert r.ok, r.summary()
    # the bridge with the wrong sign, or without its fact, leaves the two atoms
    assert failing(bridged.replace("(a) (b) + h2", "(a) (b) - h2"))
    assert failing(bridged.replace("(a) (b) + h2", "(a) (b)"))


def test_rejects_congr_arg_that_is_not_exact() -> None:
    """``congrArg`` passes only when its equation is proved (``ring`` on ``X₁ = X₂``), its type is
    the function applied to both sides, and the function is one the model writes exactly."""
    stmt = "theorem t (a b : ℝ) :\n    Real.sqrt (a + b) = Real.sqrt (b + a)"
    assert replay_text(thm(stmt, "have h1 : a + b = b + a := by ring",
                           "have h2 : Real.sqrt (a + b) = Real.sqrt (b + a) := congrArg Real.sqrt h1",
                           "linear_combination h2")).ok
    # an equation that is not a ring identity
    f = failing(thm(stmt, "have h1 : a + b = b + 2 * a := by ring",
                    "have h2 : Real.sqrt (a + b) = Real.sqrt (b + 2 * a) := congrArg Real.sqrt h1",
                    "linear_combination h2"))
    assert f[0].kind == "ring"
    # a stated type that is not the function at the equation's sides
    f = failing(thm(stmt, "have h1 : a + b = b + a := by ring",
                    "have h2 : Real.sqrt (a + b) = Real.sqrt (a + b + 0) := congrArg Real.sqrt h1",
                    "linear_combination h2"))
    assert f[0].kind == "have"
    # |·| and a real power with a numeral exponent are modelled; other functions are not
    body = ["have h1 : a + b = b + a := by ring", "have h2 : |a + b| = |b + a| := congrArg abs h1",
            "have h3 : (a + b) ^ (1 / 3 : ℝ) = (b + a) ^ (1 / 3 : ℝ) := congrArg (fun x => x ^ (1 / 3 : ℝ)) h1",
            "linear_combination h2"]
    assert replay_text(thm("theorem t (a b : ℝ) :\n    |a + b| = |b + a|", *body)).ok
    # Real.exp and Real.log are modelled (exp/log statements), and any `fun` (congrArg holds for
    # every function; its body is checked as a real term at both sides); Real.sin is not
    assert replay_text(thm("theorem t (a b : ℝ) :\n    Real.exp (a + b) = Real.exp (b + a)",
                           "have h1 : a + b = b + a := by ring",
                           "have h2 : Real.exp (a + b) = Real.exp (b + a) := congrArg Real.exp h1",
                           "linear_combination h2")).ok
    assert replay_text(thm("theorem t (a b : ℝ) :\n    a + b = b + a", "have h1 : a + b = b + a := by ring",
                           "have h2 : (a + b) ^ (a : ℝ) = (b + a) ^ (a : ℝ) := congrArg (fun x => x ^ (a : ℝ)) h1",
                           "linear_combination h1")).ok
    f = failing(thm("theorem t (a b : ℝ) :\n    a + b = b + a", "have h1 : a + b = b + a := by ring",
                    "have h2 : (a + b) ^ (a : ℝ) = (b + a) ^ (b : ℝ) := congrArg (fun x => x ^ (a : ℝ)) h1",
                    "linear_combination h1"))
    assert f[0].kind == "have"        # the stated type is not the function at the two sides
    for fn, ty in (("Real.sin", "Real.sin (a + b) = Real.sin (b + a)"),):
        f = failing(thm("theorem t (a b : ℝ) :\n    a + b = b + a", "have h1 : a + b = b + a := by ring",
                        f"have h2 : {ty} := congrArg {fn} h1", "linear_combination h1"))
        assert f[0].status == "unsupported"


def test_or_intro_against_the_expected_disjunction() -> None:
    """``Or.inl h``/``Or.inr h`` prove ``A ∨ B`` from ``h : A``/``h : B`` (Lean core), as the leaves of
    an order split give their ordering's disjunct of the one case lemma."""
    assert replay_text(thm("theorem t (a b : ℝ) :\n    b ≥ a ∨ a ≥ b", "rcases le_total a b with h1 | h1",
                           "· exact Or.inl h1", "· exact Or.inr h1")).ok
    ok = thm("theorem t (a b : ℝ) (h : a ≤ b) (h0 : 0 ≤ b) :\n    a ≤ b",
             "have h2 : (b ≥ a ∧ 0 ≤ b) ∨ (a ≥ b) := Or.inl ⟨h, h0⟩", "rcases h2 with ⟨h3, h4⟩ | h3",
             "· linear_combination h3", "· linear_combination h")
    assert replay_text(ok).ok, replay_text(ok).summary()
    # the wrong side, a proof of the wrong proposition, no disjunction expected
    assert failing(ok.replace("Or.inl ⟨h, h0⟩", "Or.inr ⟨h, h0⟩"))
    assert failing(ok.replace("Or.inl ⟨h, h0⟩", "Or.inl ⟨h0, h⟩"))
    assert failing(ok.replace("(b ≥ a ∧ 0 ≤ b) ∨ (a ≥ b)", "b ≥ a ∧ 0 ≤ b"))
