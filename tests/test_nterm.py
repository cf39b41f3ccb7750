"""Statements over n terms end to end: read (or refused in one line), proved by the methods of
``prover.nterm`` and checked by the kernel, FALSE ones not proved."""

from __future__ import annotations

import pytest

from prover import parse, prove
from prover.frontend.errors import ParseError

FIN = "(n : ℕ) (a : Fin n → ℝ)"
PROVED = {
    "tangent": f"theorem t {FIN} (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) : ∑ i, 1 / a i ≥ n := by sorry",
    "qm_without_hn": f"theorem q {FIN} : (∑ i, a i) ^ 2 ≤ n * ∑ i, a i ^ 2 := by sorry",
    "titu_range": ("theorem r (n : ℕ) (hn : 0 < n) (a b : ℕ → ℝ) (hb : ∀ i ∈ Finset.range n, 0 < b i) : "
                   "(∑ i ∈ Finset.range n, a i) ^ 2 / ∑ i ∈ Finset.range n, b i ≤ "
                   "∑ i ∈ Finset.range n, a i ^ 2 / b i := by sorry"),
    "chebyshev": f"theorem c {FIN} (ha : ∀ i, 0 ≤ a i) : n * ∑ i, a i ^ 3 ≥ (∑ i, a i) * ∑ i, a i ^ 2 := by sorry",
    "termwise_strict": f"theorem w {FIN} (hn : n ≠ 0) : ∑ i, a i < ∑ i, (a i ^ 2 + 1) := by sorry",
}


@pytest.mark.parametrize("name", sorted(PROVED))
def test_proved_and_checked(name):
    res = prove(PROVED[name], time_limit=60)
    assert res.proved, (name, res)
    assert res.check().ok


def test_false_statements_are_not_proved():
    for text in (f"theorem f1 {FIN} (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) : ∑ i, a i ^ 2 ≥ n + 1 := by sorry",
                 f"theorem f2 {FIN} : (∑ i, a i) ^ 2 ≤ ∑ i, a i ^ 2 := by sorry",    # false for n = 2
                 f"theorem f3 {FIN} : ∑ i, a i ^ 2 > 0 := by sorry"):             # false at n = 0
        assert not prove(text, time_limit=10).proved, text


def test_the_reading_replaces_each_sum_by_an_atom():
    p = parse(f"theorem t {FIN} (hs : ∑ i, a i = n) : ∑ i, a i + 1 ≥ ∑ j : Fin n, (a j + 1) - n := by sorry")
    st = p.nterm.statement
    assert [str(b) for _, b in st.atoms] == ["Var(name='a')", "Add(args=(Var(name='a'), Num(value=Fraction(1, 1))))"]
    assert p.variables == ["n", "S_1", "S_2"]       # (∑ i, a i) + 1: the body stops before `+`


@pytest.mark.parametrize(("text", "what"), [
    (f"theorem e {FIN} : ∑ i, a i ^ n ≥ 0 := by sorry", "inside a sum"),
    (f"theorem e {FIN} (x : ℝ) : ∑ i, a i ≥ x ^ n := by sorry", "exponent"),
    (f"theorem e {FIN} (h : n - 1 > 0) : ∑ i, a i ≥ 0 := by sorry", "numeral"),
    ("theorem e (n : ℕ) (a b : Fin n → ℝ) : ∑ i, a i - b i ≥ 0 := by sorry", "outside a sum"),
    (f"theorem e {FIN} : ∑ i, √a i ≥ 0 := by sorry", "not an argument"),
    ("theorem e (a : ℝ) : ∑ i in Finset.range 3, a ≥ 0 := by sorry", "numeral bound"),
    (f"theorem e {FIN} : ∏ i, a i ≥ 0 := by sorry", "products"),
    (f"theorem e {FIN} : ∑ i, ∑ j, a i * a j ≥ 0 := by sorry", "inside a sum"),
    (f"theorem e {FIN} : ∑ i, (1 : ℝ) ≥ 0 := by sorry", "no family"),
])
def test_refused_in_one_line(text, what):
    with pytest.raises(ParseError) as ei:
        parse(text)
    assert what in ei.value.message and "\n" not in str(ei.value)
