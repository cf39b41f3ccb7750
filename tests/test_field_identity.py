"""Identities with denominators proved by ``linear_combination`` with ``mul_inv_cancel₀`` facts
(``prover.lean.render.field_identity``), each checked by the replay model (not Lean)."""

from __future__ import annotations

import itertools
import random

import pytest
import sympy as sp

from prover.lean.render.common import RenderContext, RenderError, factored_text
from prover.lean.render.field_identity import EqFact, prove_equality
from prover.lean.replay import replay_text
from prover.lean.syntax import lean_expr, split_denominators


def _ctx() -> RenderContext:
    return RenderContext([], itertools.count(1), None, "linear_combination")


def _theorem(binders: str, lhs: str, rhs: str, variables: list[str], facts=()) -> str:
    lines, comb = prove_equality(lhs, rhs, variables, _ctx(), facts)
    body = "\n".join(f"  {x}" for x in lines + [f"linear_combination {comb}".rstrip()])
    return f"import Mathlib\n\ntheorem t {binders} :\n    {lhs} = {rhs} := by\n{body}\n"


POSITIVE = "(a b c x : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (hx : 0 < x)"
VARS = ["a", "b", "c", "x"]


@pytest.mark.parametrize("lhs,rhs", [
    ("a / (a + b) + b / (a + b)", "1"),
    ("1 / (a * b) * (a + b)", "1 / a + 1 / b"),
    ("(1 / a)⁻¹", "a"),
    ("x ^ 2 / (x + 1) ^ 2 + 1 / (x + 1)", "(x ^ 2 + x + 1) / (x ^ 2 + 2 * x + 1)"),
    ("a / (b / c + c / b)", "a * b * c / (b ^ 2 + c ^ 2)"),
    ("1 / ((a + b) * (b + c)) * (a + 2 * b + c)", "1 / (a + b) + 1 / (b + c)"),
])
def test_identities_with_denominators_replay(lhs: str, rhs: str) -> None:
    text = _theorem(POSITIVE, lhs, rhs, VARS)
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    assert "field_simp" not in text


def test_polynomial_identity_needs_no_fact() -> None:
    lines, comb = prove_equality("(a + b) ^ 2", "a ^ 2 + 2 * a * b + b ^ 2", VARS, _ctx())
    assert lines == [] and comb == ""


def test_given_equalities_enter_with_their_coefficients() -> None:
    facts = [EqFact("1 / a", "h", "a * b", "1")]
    lines, comb = prove_equality("b", "1 / a", ["a", "b"], _ctx(), facts)
    text = ("import Mathlib\n\ntheorem t (a b : ℝ) (ha : 0 < a) (h : a * b = 1) :\n    b = 1 / a := by\n"
            + "".join(f"  {x}\n" for x in lines) + f"  linear_combination {comb}\n")
    assert replay_text(text).ok, text


def test_a_non_identity_is_refused() -> None:
    with pytest.raises(RenderError, match="differ"):
        prove_equality("a / (a + b)", "1", VARS, _ctx())


def test_x_over_x_needs_a_nonzero_fact_lean_cannot_supply_without_hypotheses() -> None:
    # x / x = 1 is false in Lean at x = 0 (x / 0 = 0): the certificate must rest on `x ≠ 0`,
    # and without a hypothesis positivity cannot give it, so the file must not pass.
    text = _theorem("(x : ℝ)", "x / x", "1", ["x"])
    assert "mul_inv_cancel₀" in text
    assert not replay_text(text).ok
    assert replay_text(_theorem("(x : ℝ) (hx : 0 < x)", "x / x", "1", ["x"])).ok


def test_factored_multiplier_text() -> None:
    a, b = sp.symbols("a b")
    text = factored_text(3 * a / ((a + b) ** 2 * (a ** 2 + b)))
    assert text.count("⁻¹") == 2 and "(a + b)⁻¹ ^ 2" in text


def test_random_rational_identities_replay() -> None:
    """Sums of fractions over random positive denominators against their combined form."""
    rng = random.Random(1)
    a, b, c = sp.symbols("a b c")
    pool = [a + b, b + c, a + 1, a * b + 1, a ** 2 + b ** 2 + 1, c + 2]
    for _ in range(6):
        dens = rng.sample(pool, 2)
        nums = [sp.Integer(rng.randint(1, 4)) * rng.choice([a, b, c, sp.Integer(1)]) for _ in dens]
        lhs = " + ".join(f"({lean_expr(n)}) / ({lean_expr(d)})" for n, d in zip(nums, dens))
        combined = sp.expand(nums[0] * dens[1] + nums[1] * dens[0])
        rhs = f"({lean_expr(combined)}) / (({lean_expr(dens[0])}) * ({lean_expr(dens[1])}))"
        text = _theorem(POSITIVE, lhs, rhs, VARS)
        assert replay_text(text).ok, text


@pytest.mark.parametrize(("lhs", "rhs", "proof"), [
    # 1 - c² > 0 only because a + b + c = 1 and a, b > 0: an SOS certificate, then `.ne'`
    ("a / (1 - c ^ 2) * (1 - c ^ 2)", "a", ".ne'"),
    # (a - 1)(b - 1)(c - 1) < 0: three negative factors, each from a certificate, then `.ne`
    ("a / ((a - 1) * (b - 1) * (c - 1)) * ((a - 1) * (b - 1) * (c - 1))", "a", ".ne"),
])
def test_denominators_nonzero_only_under_a_constraint(lhs: str, rhs: str, proof: str) -> None:
    from prover.ir import Goal, Step
    from prover.lean.render.close import positive_fact_prover
    from prover.problem import Relation, var

    a, b, c = (var(v) for v in "abc")
    hyps = tuple(Relation(0, "<", v) for v in (a, b, c)) + (Relation(a + b + c, "=", 1),)
    goal = Goal(("a", "b", "c"), hyps, Relation(a, "=", a))
    ctx = RenderContext(["ha", "hb", "hc", "h"], itertools.count(1), None, "linear_combination")
    without = prove_equality(lhs, rhs, ["a", "b", "c"], _ctx())[0]
    assert all("by positivity" in ln for ln in without if "≠ 0" in ln)
    lines, comb = prove_equality(lhs, rhs, ["a", "b", "c"], ctx,
                                 positive=positive_fact_prover(Step("close", goal, [], {}), goal, ctx))
    assert any(ln.rstrip().endswith(proof) and "≠ 0" in ln for ln in lines)
    body = "\n".join(f"  {x}" for x in lines + [f"linear_combination {comb}".rstrip()])
    text = (f"import Mathlib\n\ntheorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) "
            f"(h : a + b + c = 1) :\n    {lhs} = {rhs} := by\n{body}\n")
    rep = replay_text(text)
    assert rep.ok, rep.summary()
    # without the sign facts the model refuses the same identity (positivity sees no sign)
    body0 = "\n".join(f"  {x}" for x in without + [f"linear_combination {prove_equality(lhs, rhs, ['a', 'b', 'c'], _ctx())[1]}"])
    assert not replay_text(text.split(":= by\n")[0] + ":= by\n" + body0 + "\n").ok


def _constrained_goal(extra=()):
    """a, b, c > 0, ab + bc + ca = 1 (567neq P13), with ``extra`` strict hypotheses."""
    from prover.ir import Goal
    from prover.problem import Relation, var

    a, b, c = (var(v) for v in "abc")
    hyps = tuple(Relation(v, ">", 0) for v in (a, b, c)) + (Relation(a * b + b * c + c * a, "=", 1),)
    hyps += tuple(extra)
    names = ["ha", "hb", "hc", "h"] + [f"hn{k + 1}" for k in range(len(extra))]
    ctx = RenderContext(names, itertools.count(1), None, "linear_combination")
    return Goal(("a", "b", "c"), hyps, Relation(a, "<=", a + 1)), ctx, (a, b, c)


def test_a_sign_fact_is_read_off_a_hypothesis_before_any_search() -> None:
    from prover.ir import Step
    from prover.lean.render.close import hypothesis_fact, positive_fact_lines
    from prover.problem import Relation, var

    a, b, c = (var(v) for v in "abc")
    goal, ctx, _ = _constrained_goal([Relation(8 * c ** 2 - 2 * a * b + 2, ">", 0)])
    f = 4 * c ** 2 - a * b + 1
    lines = hypothesis_fact(goal, ctx, lean_expr(f), f)
    assert lines == [f"have hf1 : (0 : ℝ) < {lean_expr(f)} := by linear_combination (1 / 2) * hn1"]
    assert hypothesis_fact(goal, ctx, lean_expr(-f), -f) == []      # the other sign: none
    assert positive_fact_lines(Step("close", goal, [], {}), goal, ctx, lean_expr(f), f)[0].endswith("hn1")
    text = ("import Mathlib\n\ntheorem t (a b c : ℝ) (hn1 : 8 * c ^ 2 - 2 * a * b + 2 > 0) :\n"
            f"    (0 : ℝ) < {lean_expr(f)} := by\n  {lines[0]}\n  exact hf1\n")
    assert replay_text(text).ok, text


def test_a_multiplier_factor_negative_under_the_constraint_is_written_negated() -> None:
    """567neq P13: the multiplier 1/((4a² − bc + 1)(4c² − ab + 1)) factors as −1/((…)(ab − 4c² − 1));
    the hypothesis 0 < 4c² − ab + 1 gives the sign, so the factor is printed 4c² − ab + 1 (no
    ``(-1) *``, no ``positivity`` on a subtraction)."""
    from prover.ir import Step
    from prover.lean.render.linear import positive_factor_facts
    from prover.problem import Relation, var

    a, b, c = (var(v) for v in "abc")
    goal, ctx, _ = _constrained_goal([Relation(4 * a ** 2 - b * c + 1, ">", 0),
                                              Relation(-a * b + 4 * c ** 2 + 1, ">", 0)])
    m = 1 / ((4 * a ** 2 - b * c + 1) * (-a * b + 4 * c ** 2 + 1))
    lines, negative, only_nonneg = positive_factor_facts(Step("close", goal, [], {}), goal, ctx, m)
    assert negative == {a * b - 4 * c ** 2 - 1} and not only_nonneg
    assert sorted(ln.split(" := ")[1] for ln in lines) == ["by linear_combination hn1", "by linear_combination hn2"]
    text = factored_text(m, negative)
    assert "(-1)" not in text and "(4 * c ^ 2 - a * b + 1)⁻¹" in text and "(4 * a ^ 2 - b * c + 1)⁻¹" in text


def test_a_multiplier_factor_without_a_sign_fact_is_refused() -> None:
    from prover.ir import Step
    from prover.lean.render.linear import positive_factor_facts

    goal, ctx, (a, b, _) = _constrained_goal()
    with pytest.raises(RenderError, match="no sign fact"):
        positive_factor_facts(Step("close", goal, [], {}), goal, ctx, 1 / (a - b))


def test_a_denominator_with_a_subtraction_gets_its_nonzero_fact_from_a_sign_fact() -> None:
    from prover.ir import Step
    from prover.lean.render.close import positive_fact_prover
    from prover.problem import Relation, var

    a, b, c = (var(v) for v in "abc")
    goal, ctx, _ = _constrained_goal([Relation(-a * b + 4 * c ** 2 + 1, ">", 0)])
    lhs, rhs = "a / (a * b - 4 * c ^ 2 - 1) * (a * b - 4 * c ^ 2 - 1)", "a"
    lines, comb = prove_equality(lhs, rhs, ["a", "b", "c"], ctx,
                                 positive=positive_fact_prover(Step("close", goal, [], {}), goal, ctx))
    assert not any("positivity" in ln for ln in lines)
    assert any(ln.endswith("by linear_combination hn1") for ln in lines)
    body = "\n".join(f"  {x}" for x in lines + [f"linear_combination {comb}"])
    text = ("import Mathlib\n\ntheorem t (a b c : ℝ) (hn1 : 0 < 4 * c ^ 2 - a * b + 1) :\n"
            f"    {lhs} = {rhs} := by\n{body}\n")
    rep = replay_text(text)
    assert rep.ok, rep.summary() + "\n" + text
    # a prover that finds no sign: refused, not `positivity` on the subtraction
    with pytest.raises(RenderError, match="no sign fact"):
        prove_equality(lhs, rhs, ["a", "b", "c"], _ctx(), positive=lambda base: None)


def test_denominator_factors_are_signed_as_the_goal_writes_them() -> None:
    from prover.lean.render.common import negated_factors, written_denominators
    from prover.lean.render.field_identity import _flattened_summands, signed_summands

    a, b = sp.symbols("a b")
    written = written_denominators(a * b / (4 - a * b) + 1 / (a + b))
    assert written == {4 - a * b, a + b}
    lam = a / ((a * b - 4) * (a ** 2 + 1))
    assert negated_factors(lam, written) == {a * b - 4}
    assert "(4 - a * b)⁻¹" in factored_text(lam, negated_factors(lam, written))
    # a flattened summand meets the kept summand's atom (4 - a * b)⁻¹, not (a * b - 4)⁻¹
    parts = signed_summands("a / ((a * b - 4) * (a / b + 1)) + b / (4 - a * b)", ["a", "b"])
    flat = _flattened_summands(parts, ["a", "b"])
    assert list(flat.values()) and all("(4 - a * b)⁻¹" in v for v in flat.values())


def _inverse_sum(n: int) -> tuple[str, str, list[str]]:
    """``Σ xᵢ·s² / Dᵢ`` and the one combined fraction ``s²·N / (D₁ ⋯ Dₙ)`` (as ``lean_expr`` prints
    it), with ``Dᵢ = s³ + 16·xᵢ³`` expanded: the shape of a homogenised cyclic sum (mo-int-20/P19)."""
    xs = sp.symbols("a b c d")[:n]
    s = sum(xs)
    dens = [sp.expand(s ** 3 + 16 * x ** 3) for x in xs]
    terms = [x * s ** 2 / d for x, d in zip(xs, dens)]
    num = sp.expand(sum(x * sp.Mul(*[e for j, e in enumerate(dens) if j != i]) for i, x in enumerate(xs)))
    combined = s ** 2 * num * sp.Mul(*[1 / d for d in dens])
    with split_denominators():
        return " + ".join(f"({lean_expr(t)})" for t in terms), lean_expr(combined), [str(x) for x in xs]


def test_a_combined_fraction_is_printed_over_its_factors_and_its_identity_stays_small() -> None:
    """``ring`` inverts an expanded product of sums as one atom; printed ``N / D₁ / D₂ / D₃``
    (:func:`prover.lean.syntax.split_denominators`, the printing of a file whose goals combine fractions) each
    factor is the atom the summands share, and a coefficient keeps ``e_α`` and the atoms as factors
    (multiplied out, every term of ``e_α`` repeated a 300-character atom: 35,000 characters on P19)."""
    lhs, rhs, xs = _inverse_sum(3)
    assert rhs.count(" / (") == 3 and ") * (" not in rhs.split(" / ")[-1]
    binders = "(a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c)"
    lines, comb = prove_equality(lhs, rhs, xs, _ctx())
    body = "\n".join(f"  {x}" for x in lines + [f"linear_combination {comb}"])
    text = f"import Mathlib\n\ntheorem t {binders} :\n    {lhs} = {rhs} := by\n{body}\n"
    report = replay_text(text)
    assert report.ok, report.summary()
    atom = lean_expr(sp.expand(sum(sp.symbols("a b c")) ** 3 + 16 * sp.Symbol("a") ** 3))
    assert comb.count(atom) <= 6, comb.count(atom)
    assert len(comb) < 8_000, len(comb)


def test_a_written_product_of_sums_in_a_denominator_is_split_into_its_factors() -> None:
    """The user's ``N / ((a + b) * (b + c))``: one inverse atom per written factor, no ``cancel``."""
    from prover.lean.render.field_identity import _split_denominator

    assert _split_denominator("a * c / ((a + b) ^ 2 * (b + c))", ["a", "b", "c"]) == \
        "(a * c) * (a + b)⁻¹ ^ 2 * (b + c)⁻¹"
    assert _split_denominator("a / (a + b)", ["a", "b"]) is None            # one factor: nothing to split
    assert _split_denominator("a / ((a + 1 / b) * (b + c))", ["a", "b", "c"]) is None   # nested
    text = _theorem(POSITIVE, "c / ((a + b) * (b + c)) + a / (a + b)", "(c + a * (b + c)) / (a + b) / (b + c)", VARS)
    assert replay_text(text).ok, text


def test_an_inverse_power_is_related_to_the_inverse_by_inv_pow() -> None:
    """``ring`` inverts ``(a + b + c) ^ 6`` expanded, as an atom apart from ``(a + b + c)⁻¹``; the
    fact ``inv_pow`` relates the two in one term, where the ``mul_inv_cancel₀`` facts alone cost the
    binomial expansion of every power below 6 (567neq/P53's file went from 674,000 characters to
    35,000)."""
    lhs = "x / (a + b + c) ^ 6 + a ^ 2 / (a + b + c) ^ 2"
    rhs = "x * (1 / (a + b + c)) ^ 6 + (a / (a + b + c)) ^ 2"
    text = _theorem(POSITIVE, lhs, rhs, VARS)
    assert "inv_pow (a + b + c) 6" in text
    assert replay_text(text).ok, text
    assert len(text) < 1_000


@pytest.mark.parametrize("wrong", ["inv_pow (a + b + c) 5", "inv_pow (a + b) 6"])
def test_an_inv_pow_fact_of_another_power_or_base_fails_the_model(wrong: str) -> None:
    text = _theorem(POSITIVE, "x / (a + b + c) ^ 6", "x * ((a + b + c)⁻¹) ^ 6", VARS)
    assert "inv_pow (a + b + c) 6" in text
    report = replay_text(text.replace("inv_pow (a + b + c) 6", wrong))
    assert not report.ok


def test_a_geometric_multiplier_is_written_as_powers_of_the_product() -> None:
    """``x·sⁿ·(s⁻¹)ⁿ = x`` takes ``x·Σ_{i<n} (s·s⁻¹)ⁱ`` times ``s·s⁻¹ = 1``; written expanded, the
    powers of ``s = a + b + c`` cost hundreds of terms (69,000 characters for four variables at
    degree 12, mo-int-20/P19), written as powers of the product a few dozen characters."""
    lhs, rhs = "x * (a + b + c) ^ 5 * (1 / (a + b + c)) ^ 5", "x"
    text = _theorem(POSITIVE, lhs, rhs, VARS)
    assert "((a + b + c) * (a + b + c)⁻¹) ^ 4" in text
    assert replay_text(text).ok, text
    wrong = text.replace("((a + b + c) * (a + b + c)⁻¹) ^ 4", "((a + b + c) * (a + b + c)⁻¹) ^ 5")
    assert not replay_text(wrong).ok


def test_a_power_of_a_sum_of_nested_fractions_is_flattened_inside_the_power() -> None:
    """``(Σ 1 / (1 / x + 1 / y)) ^ 3`` (families/recip_pair's monotone cube): clearing every level
    inside the power against the multiplier's denominators was about 7e6 terms; the base is
    flattened first (``B = B'``, then ``B ^ 3 = B' ^ 3``) and the identity replays."""
    lhs = "(1 / (1 / a + 1 / b) + 1 / (1 / b + 1 / c) + 1 / (1 / c + 1 / a)) ^ 3"
    rhs = "(a * b / (a + b) + b * c / (b + c) + c * a / (c + a)) ^ 3"
    text = _theorem(POSITIVE, lhs, rhs, VARS)
    assert "hflat" in text
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    wrong = _theorem(POSITIVE, lhs, rhs, VARS).replace(f"{rhs} := by", rhs.replace("c * a / (c + a)", "c * a / (c + b)") + " := by", 1)
    assert not replay_text(wrong).ok


def _reduced(lhs: str) -> str:
    from prover.frontend import parse_expression
    return lean_expr(sp.cancel(sp.together(parse_expression(lhs, VARS, real_division=True))))


NESTED_TWICE = "1 / ((1 / a) ^ 2 / (1 / a + 1 / b) + (1 / b) ^ 2 / (1 / b + 1 / c) + (1 / c) ^ 2 / (1 / c + 1 / a))"


@pytest.mark.parametrize("lhs,crossed", [
    (NESTED_TWICE, True),
    ("(a / (b + c) + b / (c + a) + c / (a + b)) / (a / (b + c) + b / (c + a) + c / (a + b) + 1)", True),
    ("x / ((1 / a + 1 / b + 1 / c) / 2)", True),       # ``(S / 2)⁻¹``: one atom for ring, not ``2·S⁻¹``
    ("x / ((1 / a + 1 / b) * (1 / b + 1 / c))", False),  # a product of sums below the line
    ("x / (1 / a + 1 / b) / (1 / b + 1 / c) ^ 2", True),  # several factors below the line
])
def test_a_summand_with_fractions_in_its_denominator_is_cross_multiplied(lhs: str, crossed: bool) -> None:
    """``X / Y = P / Q`` by ``X'·Q = P·Y'`` and the factors' ``f·f⁻¹ = 1`` (families shapiro,
    tangent_sum3, nesbitt_power: one elimination over the summand wrote tactics of 30–70 k); the
    shorter of that and one elimination is kept, and either replays."""
    rhs = _reduced(lhs)
    text = _theorem(POSITIVE, lhs, rhs, VARS)
    assert ("hcross" in text) == crossed
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    wrong = text.replace(f"= {rhs} := by", f"= 2 * ({rhs}) := by", 1)
    assert wrong != text and not replay_text(wrong).ok


def test_cross_multiplying_keeps_a_twice_nested_summand_small(monkeypatch: pytest.MonkeyPatch) -> None:
    import prover.lean.render.field_identity as fi
    crossed = _theorem(POSITIVE, NESTED_TWICE, _reduced(NESTED_TWICE), VARS)
    monkeypatch.setattr(fi, "_cross_multiplied", lambda *args: None)
    whole = _theorem(POSITIVE, NESTED_TWICE, _reduced(NESTED_TWICE), VARS)
    assert "hcross" not in whole
    assert len(crossed) < len(whole) / 2, (len(crossed), len(whole))


def test_the_cross_multiplied_combination_is_checked_before_it_is_written() -> None:
    from prover.lean.render.field_identity import reproduces
    assert reproduces("a * a⁻¹", "1", [("1", "a * a⁻¹", "1")], VARS)
    assert not reproduces("a * a⁻¹", "1", [], VARS)
    assert not reproduces("a / (1 / a + 1 / b)", "a * a * b / (a + b)", [], VARS)


def test_a_long_combination_has_its_largest_terms_proved_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """``c * h`` (``h : L = 1``) moved into ``have hpart : c * (L - 1) = 0``: the same sum for
    ``ring``, in smaller tactics (families tangent_sum4: one tactic of 25 k characters)."""
    import prover.lean.render.field_identity as fi
    lhs = "x ^ 2 / (x + 1) ^ 2 + 1 / (x + 1) + a / (a + b)"
    monkeypatch.setattr(fi, "SPLIT_AT", 10)
    monkeypatch.setattr(fi, "SPLIT_TO", 5)
    text = _theorem(POSITIVE, lhs, "(x ^ 2 + x + 1) / (x + 1) ^ 2 + 1 / (1 + b / a)", VARS)
    assert "hpart" in text
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    wrong = text.replace(" - 1) = 0 := mul_eq_zero_of_right", " - 2) = 0 := mul_eq_zero_of_right", 1)
    assert wrong != text and not replay_text(wrong).ok
    # any coefficient makes a true ``hpart``; a changed one must break the final combination
    head = next(ln for ln in text.splitlines() if "have hpart" in ln)
    scaled = head.replace(" : (", " : 2 * (", 1)
    assert scaled != head and not replay_text(text.replace(head, scaled, 1)).ok


def test_a_coefficient_over_the_budget_is_cut_into_summands(monkeypatch: pytest.MonkeyPatch) -> None:
    """A term ``c * h`` whose ``c`` alone is over the tactic budget: ``c``'s summands (inside a
    product's sum factor) go to several ``hpart`` facts (families iran96: a 28 k coefficient)."""
    import prover.lean.render.field_identity as fi
    monkeypatch.setattr(fi, "SPLIT_AT", 10)
    monkeypatch.setattr(fi, "SPLIT_TO", 5)
    monkeypatch.setattr(fi, "PART_BUDGET", 60)
    fact = "(a + 1) * (a + 1)⁻¹ = 1"
    coeff = "(x * (a + b + x ^ 2 + 3 * b * x + a * b * x + 7 * a ^ 2) * (b + 1)⁻¹)"
    cache = fi.FactCache(names={fact: "hinv"})
    terms = [f"{coeff} * hinv", "2 * hinv"]
    lines = fi._split_off(terms, cache, RenderContext([], itertools.count(1), None, "linear"))
    assert len(lines) > 2 and all(len(ln) < 200 for ln in lines), lines

    def theorem(body: list[str], comb: str) -> str:
        return ("import Mathlib\n\ntheorem t (a b x : ℝ) (ha : 0 < a) (hb : 0 < b) (hx : 0 < x) :\n"
                f"    ({coeff} + 2) * ((a + 1) * (a + 1)⁻¹ - 1) = 0 := by\n"
                "  have hne : (a + 1) ≠ 0 := by positivity\n"
                f"  have hinv : {fact} := mul_inv_cancel₀ hne\n"
                + "".join(f"  {ln}\n" for ln in body) + f"  linear_combination {comb}\n")
    text = theorem(lines, " + ".join(terms))
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    dropped = theorem(lines[1:], " + ".join(terms))          # a part proved but not used
    assert not replay_text(dropped).ok


@pytest.mark.parametrize("seed", range(20))
def test_sum_pieces_add_up_to_the_text(seed: int) -> None:
    import random

    from prover.lean.render.field_identity import sum_pieces
    rng = random.Random(seed)
    names = ["a", "b", "x", "(a + 1)⁻¹", "(x + b) ^ 2"]

    def monomial() -> str:
        return " * ".join([str(rng.randint(1, 9))] + rng.sample(names, rng.randint(1, 3)))

    def term(depth: int) -> str:
        if depth == 0 or rng.random() < 0.3:
            return monomial()
        inner = " + ".join(term(depth - 1) for _ in range(rng.randint(2, 5)))
        return rng.choice(["-", ""]) + f"{monomial()} * ({inner}) * {rng.choice(names)}"
    text = " + ".join(term(3) for _ in range(rng.randint(1, 4)))
    limit = rng.randint(60, 200)
    pieces = sum_pieces(text, limit)
    if pieces is None:
        return
    assert all(len(p) <= limit for p in pieces)
    variables = ["a", "b", "x"]
    total = sum(_lean_value(p, variables) for p in pieces)
    assert sp.simplify(total - _lean_value(text, variables)) == 0


def _lean_value(text: str, variables: list[str]) -> sp.Expr:
    from prover.frontend import parse_expression
    return parse_expression(text, variables)


def test_sum_pieces_refuses_what_is_not_a_sum_of_its_parts() -> None:
    from prover.lean.render.field_identity import sum_pieces
    assert sum_pieces("(a + b + c) ^ 2", 8) is None                   # a power of a sum
    assert sum_pieces("a - (b + c + d)", 8) is None                   # a difference
    assert sum_pieces("2 * a * b * c * x", 8) is None                 # one monomial
    assert sum_pieces("(a + b) / (c + d)", 8) is None                 # a quotient
    assert sum_pieces("x * (a + b + c) * y", 12) == ["x * (a) * y", "x * (b) * y", "x * (c) * y"]
