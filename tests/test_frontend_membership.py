"""Interval membership hypotheses ``(hx : x ∈ Set.Icc a b)`` (issue 28): read as Mathlib defines
them (``Set.mem_Icc`` … are ``Iff.rfl``: ``a ≤ x ∧ x ≤ b``), or refused with one line; names
resolved as Lean resolves them; printed back in membership form; rendered with the parts copied
into the context (``positivity``/``linarith`` do not see through ``∈``)."""

from __future__ import annotations

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.printer import print_theorem
from prover.frontend.statement import parse_theorem
from prover.lean.replay import replay_text
from prover.problem import Relation, var

x, y, a, b = var("x"), var("y"), var("a"), var("b")


def _hyps(text: str, name: str | None = None) -> list[tuple[str, Relation]]:
    return [(h.name, h.rel) for h in parse_theorem(text, name=name).hypotheses]


def _thm(hyp: str, variables: str = "x a b") -> str:
    return f"theorem t ({variables} : ℝ) (hx : {hyp}) : x ≤ x + 1 := by sorry"


@pytest.mark.parametrize("interval, parts", [
    ("Set.Icc a b", [("hx.1", Relation(a, "<=", x)), ("hx.2", Relation(x, "<=", b))]),
    ("Set.Ico a b", [("hx.1", Relation(a, "<=", x)), ("hx.2", Relation(x, "<", b))]),
    ("Set.Ioc a b", [("hx.1", Relation(a, "<", x)), ("hx.2", Relation(x, "<=", b))]),
    ("Set.Ioo a b", [("hx.1", Relation(a, "<", x)), ("hx.2", Relation(x, "<", b))]),
    ("Set.Ici a", [("hx", Relation(a, "<=", x))]),
    ("Set.Ioi a", [("hx", Relation(a, "<", x))]),
    ("Set.Iic b", [("hx", Relation(x, "<=", b))]),
    ("Set.Iio b", [("hx", Relation(x, "<", b))]),
])
def test_each_interval_reads_as_mathlib_defines_it(interval: str, parts: list) -> None:
    text = _thm(f"x ∈ {interval}")
    problem = parse_theorem(text)
    assert [(h.name, h.rel) for h in problem.hypotheses] == parts
    assert problem.meta["memberships"] == [[0, interval.split()[0]]]
    # printed back in membership form, and read again the same
    printed = print_theorem(problem)
    assert f"(hx : x ∈ {interval})" in printed
    again = parse_theorem(printed)
    assert again == problem and again.meta["memberships"] == problem.meta["memberships"]


def test_bounds_keep_their_order_and_terms_are_read_exactly() -> None:
    # swapped bounds: an empty interval, still read literally (b ≤ x ≤ a), never "fixed"
    assert _hyps(_thm("x ∈ Set.Icc b a")) == [("hx.1", Relation(b, "<=", x)), ("hx.2", Relation(x, "<=", a))]
    assert _hyps(_thm("x + 1 ∈ Set.Ioo (a * 2) (1 / 2)")) == [
        ("hx.1", Relation(2 * a, "<", x + 1)), ("hx.2", Relation(x + 1, "<", sp_half()))]
    # a numeral element is real here (the set's element type is ℝ, from `x`)
    assert _hyps(_thm("2 ∈ Set.Icc x (7 / 2)")) == [("hx.1", Relation(x, "<=", 2)),
                                                     ("hx.2", Relation(2, "<=", sp_half() * 7))]
    # x⁻¹ as a bound is an argument (postfix max), not `(Set.Icc x)⁻¹`
    assert _hyps(_thm("x ∈ Set.Icc a⁻¹ b"))[0] == ("hx.1", Relation(1 / a, "<=", x))


def sp_half():
    import sympy as sp

    return sp.Rational(1, 2)


def test_several_names_and_other_hypotheses_keep_the_numbering() -> None:
    text = "theorem t (x y : ℝ) (h0 : 0 < y) (hx hy : x ∈ Set.Ioc 0 y) (h : y ∈ Set.Iio 3) : x ≤ 3 := by sorry"
    problem = parse_theorem(text)
    assert [h.name for h in problem.hypotheses] == ["h0", "hx.1", "hx.2", "hy.1", "hy.2", "h"]
    assert problem.meta["memberships"] == [[1, "Set.Ioc"], [3, "Set.Ioc"], [5, "Set.Iio"]]
    assert parse_theorem(print_theorem(problem)) == problem
    assert "(hx : x ∈ Set.Ioc 0 y) (hy : x ∈ Set.Ioc 0 y) (h : y ∈ Set.Iio 3)" in print_theorem(problem)


@pytest.mark.parametrize("text, why", [
    ("theorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry", "unknown identifier `Icc`"),
    ("open Set Finset in theorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry", "ambiguous"),
    ("open Finset in theorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry", "`Finset.Icc` is not supported"),
    ("theorem t (x : ℝ) (hx : x ∈ Finset.Icc 0 1) : x ≤ 1 := by sorry", "`Finset.Icc` is not supported"),
    ("theorem t (x : ℝ) (hx : x ∉ Set.Icc 0 1) : x ≤ 1 := by sorry", "non-membership `∉`"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.univ) : x ≤ 1 := by sorry", "`Set.univ` is not supported"),
    ("theorem t (x : ℝ) (hx : x ∈ {y | 0 < y}) : x ≤ 1 := by sorry", "only in an interval"),
    ("theorem t (x : ℝ) (hx : x ∈ (Set.Icc 0 1)) : x ≤ 1 := by sorry", "only in an interval"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0) : x ≤ 1 := by sorry", "needs its bounds"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1 2) : x ≤ 1 := by sorry", "unexpected `2`"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1 ≤ 2) : x ≤ 1 := by sorry", "chained comparison"),
    ("theorem t (x : ℝ) (hx : 0 ≤ x ∈ Set.Ici 0) : x ≤ 1 := by sorry", "cannot follow"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1 ∧ x ≠ 2) : x ≤ 1 := by sorry", "inside a conjunction"),
    ("theorem t (x : ℝ) : x ∈ Set.Icc 0 1 := by sorry", "in the goal"),
    ("theorem t (x : ℝ) (hx : 2 ∈ Set.Icc 0 3) : x ≤ 1 := by sorry", "typed ℕ"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc (0 : ℕ) 3) : x ≤ 1 := by sorry", "other than ℝ"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 (3 : ℤ)) : x ≤ 1 := by sorry", "other than ℝ"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 √2) : x ≤ 1 := by sorry", "needs its bounds"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 (1 / 0)) : x ≤ 1 := by sorry", "division by zero"),
    ("theorem t (x : ℝ) (hx : x ∈ Set.Foo 0 1) : x ≤ 1 := by sorry", "`Set.Foo` is not supported"),
    ("theorem t (x : ℝ) (hx : x ∈ _root_.Icc 0 1) : x ≤ 1 := by sorry", "unknown identifier"),
    # a local named like the set shadows every global
    ("theorem t (x Icc : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry", "names a local"),
    ("theorem t (x Set : ℝ) (hx : x ∈ Set.Icc 0 1) : x ≤ 1 := by sorry", "names a local"),
    # a user's declaration that may be what the name means
    ("theorem Set.Icc : True := trivial\ntheorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ≤ 1 := by sorry",
     "declared earlier in this file"),
    ("open Set\ntheorem Icc : True := trivial\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry",
     "declared earlier in this file"),
    (("namespace Set\ntheorem Icc' : True := trivial\nend Set\nopen Set\n"
      "theorem t (x : ℝ) (hx : x ∈ Icc' 0 1) : x ≤ 1 := by sorry"), "`Icc'` is not supported"),
    # an unmodelled namespace may hold its own `Foo.Set.Icc` / `Foo.Icc`
    ("namespace Foo\ntheorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ≤ 1 := by sorry\nend Foo", "not modelled"),
    ("open Set\nnamespace Foo\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry\nend Foo", "not modelled"),
])
def test_refusals_are_one_line_and_name_the_construct(text: str, why: str) -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text, name="t")
    msg = str(exc.value)
    assert "\n" not in msg and why in msg, msg


@pytest.mark.parametrize("text", [
    "open Set in theorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry",
    "open Set\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry",
    "open Real Set\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry",
    "namespace Set\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry\nend Set",
    "namespace Real\ntheorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ≤ 1 := by sorry\nend Real",
    "theorem t (x : ℝ) (hx : x ∈ _root_.Set.Icc 0 1) : x ≤ 1 := by sorry",
    "open Finset\ntheorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ≤ 1 := by sorry",
])
def test_names_that_resolve_to_set_icc(text: str) -> None:
    assert _hyps(text, "t") == [("hx.1", Relation(0, "<=", x)), ("hx.2", Relation(x, "<=", 1))]


def test_open_set_does_not_leak_past_its_scope() -> None:
    text = "section\nopen Set\nend\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry"
    with pytest.raises(ParseError, match="unknown identifier `Icc`"):
        parse_theorem(text, name="t")
    with pytest.raises(ParseError, match="unknown identifier `Icc`"):
        parse_theorem("open Set in theorem s : (1 : ℝ) ≤ 1 := by sorry\n"
                      "theorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ≤ 1 := by sorry", name="t")


def test_faithful_statement_has_the_parts() -> None:
    from prover.kernel import terms as T

    problem = parse_theorem(_thm("x ∈ Set.Ioc (a / 2) b"))
    assert problem.faithful is not None and len(problem.faithful.hypotheses) == 2
    lo, hi = problem.faithful.hypotheses
    assert (lo.op, lo.rhs, hi.op, hi.lhs, hi.rhs) == ("<", T.Var("x"), "<=", T.Var("x"), T.Var("b"))


# ---------------------------------------------------------------- the replay model


_HEAD = "import Mathlib\n\ntheorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) (hy : x ∈ Set.Ioi 0) :\n    0 ≤ x * x := by\n"


@pytest.mark.parametrize("body, ok", [
    ("  have h : 0 ≤ x := hx.1\n  positivity\n", True),
    ("  have h : x ≤ 1 := hx.2\n  have h2 : 0 ≤ x := hx.1\n  exact mul_nonneg h2 h2\n", True),
    ("  have h : 0 < x := hy\n  positivity\n", True),
    ("  have h : 0 ≤ x := hx.2\n  positivity\n", False),      # the wrong part
    ("  have h : 0 ≤ x := hx\n  positivity\n", False),        # a conjunction is not one relation
    ("  have h : 0 ≤ x := hy\n  positivity\n", False),        # `Ioi` is strict
    ("  have h : 0 < x := hx.1\n  positivity\n", False),
])
def test_replay_model_unfolds_membership_only_where_lean_does(body: str, ok: bool) -> None:
    assert replay_text(_HEAD + body).ok is ok


def test_replay_model_positivity_does_not_see_through_membership() -> None:
    text = "import Mathlib\n\ntheorem t (x : ℝ) (hy : x ∈ Set.Ioi 0) :\n    0 < x := by\n  positivity\n"
    assert not replay_text(text).ok
    text = "import Mathlib\n\ntheorem t (x : ℝ) (hy : x ∈ Set.Ioi 0) :\n    0 < x := by\n  linarith\n"
    assert not replay_text(text).ok


# ---------------------------------------------------------------- end to end


def test_prove_with_icc_hypothesis_renders_and_replays() -> None:
    from prover.api import prove

    result = prove("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ^ 2 ≤ x := by sorry", time_limit=30)
    assert result.proved and result.check().ok
    text = result.lean_text()
    assert "(hx : x ∈ Set.Icc 0 1)" in text
    assert "have hmem_1 : 0 ≤ x := hx.1" in text and "have hmem_2 : x ≤ 1 := hx.2" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_prove_with_one_sided_intervals_renders_and_replays() -> None:
    from prover.api import prove

    result = prove("theorem t (a b : ℝ) (ha : a ∈ Set.Ioi 0) (hb : b ∈ Set.Ici 1) : a ≤ a * b := by sorry",
                   time_limit=30)
    assert result.proved and result.check().ok
    text = result.lean_text()
    assert "have hmem_1 : 0 < a := ha" in text and "have hmem_2 : 1 ≤ b := hb" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_false_statement_with_interval_is_not_proved() -> None:
    from prover.api import prove

    result = prove("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 2) : x ^ 2 ≤ x := by sorry", time_limit=10)
    assert not result.proved


def test_bounds_written_otherwise_are_carried_over_exactly() -> None:
    from prover.api import prove

    result = prove("theorem t (x y : ℝ) (hx : x + y ∈ Set.Ioo (2 * 3 - 6) 1) (hy : 0 ≤ y) : 0 < x + y := by sorry",
                   time_limit=30)
    assert result.proved
    text = result.lean_text()
    # the user's statement verbatim; the part at its written type, then our form by a ring identity
    assert "(hx : x + y ∈ Set.Ioo (2 * 3 - 6) 1)" in text
    assert "have hmem_1w : 2 * 3 - 6 < x + y := hx.1" in text
    assert "have hmem_1 : 0 < x + y := by linear_combination hmem_1w" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_bare_icc_after_open_set_renders_with_set_icc() -> None:
    from prover.api import prove

    result = prove("open Set\n\ntheorem t (x : ℝ) (hx : x ∈ Icc 0 1) : x ^ 2 ≤ x := by sorry", time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "(hx : x ∈ Set.Icc 0 1)" in text and "open Set" not in text   # the file opens Real only
    assert replay_text(text).ok
