"""The independent reader/evaluator of statements over n terms (prover.semantics.nterm): Lean's
precedence of `∑` (body at 67), `binop%` casts of the natural number `n`, empty sums, per-index
hypotheses (over the index set, and unbounded over ℕ), and what the front-end must refuse."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction as F

import pytest

from prover.semantics import nterm as N
from prover.semantics.fuzz_nterm import NTermGenerator
from prover.semantics.lean_eval import Enclosure
from prover.semantics.nterm import NPoint

E = Enclosure.exact

HEAD_FIN = "theorem t (n : ℕ) (a b : Fin n → ℝ) (c : ℝ)"
HEAD_NAT = "theorem t (n : ℕ) (a b : ℕ → ℝ) (c : ℝ)"


def goal(text: str, n: int, a: Sequence = (), b: Sequence = (), c: object = 0, head: str = HEAD_FIN):
    """Lean's value of the goal of ``head : text`` at the point."""
    stmt = N.read_nterm(f"{head} : {text} := by sorry")
    point = NPoint(n, {"a": tuple(map(F, a)), "b": tuple(map(F, b))}, {"c": F(c)})
    return N.evaluate(stmt, point).goal


def lhs(text: str, n: int, a: Sequence = (), b: Sequence = (), c: object = 0, head: str = HEAD_FIN) -> Enclosure:
    v = goal(text + " ≥ 0", n, a, b, c, head).lhs
    assert v is not None
    return v


# ---------------------------------------------------------------- precedence of ∑


def test_body_is_parsed_at_67() -> None:
    a, b = (1, 2), (3, 5)
    assert lhs("∑ i, a i + 1", 2, a, b) == E(4)                   # (∑ a) + 1, not ∑ (a + 1) = 5
    assert lhs("∑ i, (a i + 1)", 2, a, b) == E(5)
    assert lhs("∑ i, a i - 1", 2, a, b) == E(2)
    assert lhs("∑ i, a i * b i", 2, a, b) == E(13)                # ∑ (a * b)
    assert lhs("∑ i, a i / b i", 2, a, b) == E(F(1, 3) + F(2, 5))
    assert lhs("∑ i, a i ^ 2", 2, a, b) == E(5)
    assert lhs("(∑ i, a i) ^ 2", 2, a, b) == E(9)
    assert lhs("c * ∑ i, a i ^ 2", 2, a, b, c=2) == E(10)          # c * (∑ a²)
    assert lhs("c * ∑ i, a i ^ 2 + 1", 2, a, b, c=2) == E(11)
    assert lhs("c * ∑ i, a i * c", 2, a, b, c=2) == E(12)          # c * ∑ (a * c)
    assert lhs("(∑ i, a i) * c", 2, a, b, c=2) == E(6)
    assert lhs("∑ i, -a i", 2, a, b) == E(-3)
    assert lhs("-∑ i, a i + 1", 2, a, b) == E(-2)                 # (-(∑ a)) + 1
    assert lhs("-∑ i, a i * b i", 2, a, b) == E(-13)
    assert lhs("∑ i, (a i - b i)", 2, a, b) == E(-5)
    assert lhs("∑ i, a i - ∑ j, b j", 2, a, b) == E(-5)
    assert lhs("(∑ i, a i) / ∑ i, b i", 2, a, b) == E(F(3, 8))
    assert lhs("∑ i : Fin n, a i ^ 2 / b i", 2, a, b) == E(F(1, 3) + F(4, 5))
    s = N.read_nterm(f"{HEAD_FIN} : ∑ i, a i ≤ c := by sorry")
    assert s.goal.lhs.kind == "sum" and s.goal.rhs == N.A.var("c")   # ∑ i, f i ≤ C is (∑ i, f i) ≤ C


def test_printer_parenthesizes_what_the_body_would_swallow() -> None:
    i = N.A.var("i")
    s = N.big("univ", "i", N.UNIV, N.fam("a", i))
    c = N.A.var("c")
    assert N.show(N.A.op2("add", s, N.A.num(1))) == "∑ i, a i + 1"
    assert N.show(N.A.op2("mul", s, c)) == "(∑ i, a i) * c"
    assert N.show(N.A.op2("mul", c, s)) == "c * ∑ i, a i"
    assert N.show(N.A.op2("mul", N.A.op2("mul", c, s), c)) == "c * (∑ i, a i) * c"
    assert N.show(N.A.op2("pow", s, N.A.num(2))) == "(∑ i, a i) ^ 2"
    assert N.show(N.A.op1("inv", s)) == "(∑ i, a i)⁻¹"
    assert N.show(N.big("univ", "i", N.UNIV, N.A.op2("add", N.fam("a", i), N.A.num(1)))) == "∑ i, (a i + 1)"
    assert N.show(N.A.op1("sqrt", N.fam("a", i), "√")) == "√(a i)"
    assert N.show(N.A.op1("inv", N.fam("a", i))) == "(a i)⁻¹"
    assert N.show(N.big("mem", "i", N.nvar("n"), N.fam("a", i))) == "∑ i ∈ Finset.range n, a i"
    assert N.show(N.big("in", "i", N.A.op2("add", N.nvar("n"), N.A.num(1)), N.fam("a", i))) == \
        "∑ i in Finset.range (n + 1), a i"


def test_generated_statements_read_back() -> None:
    gen = NTermGenerator(7)
    for k in range(400):
        stmt, _ = gen.statement(k)
        assert N.read_nterm(N.show_statement(stmt)) == N.strip_statement(stmt), N.show_statement(stmt)


# ---------------------------------------------------------------- casts of n


def test_n_is_cast_in_a_real_comparison() -> None:
    assert goal("∑ i, a i ≥ n - 1", 0).rhs == E(-1)                # ↑n - 1 over ℝ, not 0 - 1 = 0 over ℕ
    assert goal("∑ i, a i ≥ n / 2", 3, (0, 0, 0)).rhs == E(F(3, 2))  # ↑n / 2, not 3 / 2 = 1
    assert goal("∑ i, a i ≥ (n - 1 : ℝ)", 0).rhs == E(-1)
    assert goal("∑ i, a i ≥ ((n - 1 : ℕ) : ℝ)", 0).rhs == E(0)     # ℕ subtraction, then the cast
    assert goal("∑ i, a i ≥ ((n / 2 : ℕ) : ℝ)", 3, (0, 0, 0)).rhs == E(1)
    assert goal("∑ i, a i = 2 * n - 1", 0).rhs == E(-1)
    assert goal("∑ i, a i ≤ 1 / n", 0).rhs == E(0)                 # 1 / (0 : ℝ) = 0
    root2 = goal("∑ i, a i ≤ √n", 2, (0, 0)).rhs                  # Real.sqrt ↑n
    assert root2 is not None and F(141421, 100000) < root2.lo <= root2.hi < F(141422, 100000)
    assert goal("∑ i, a i ≤ -n", 2, (0, 0)).rhs == E(-2)
    assert goal("∑ i, a i ≤ (n : ℝ) / 2", 1, (0,)).rhs == E(F(1, 2))
    assert goal("∑ i, a i ≤ n ^ 2", 3, (0, 0, 0)).rhs == E(9)


def test_nat_hypotheses_on_n_are_over_nat() -> None:
    text = f"{HEAD_FIN} (hn : 0 < n) (h2 : 2 ≤ n) (h3 : n ≠ 0) (h4 : n > 1) : ∑ i, a i ≥ 0 := by sorry"
    stmt = N.read_nterm(text)
    for n, want in ((0, [False, False, False, False]), (1, [True, False, True, False]), (2, [True] * 4)):
        v = N.evaluate(stmt, NPoint(n, {"a": (F(0),) * n, "b": (F(0),) * n}, {"c": F(0)}))
        assert [rv.verdict for _, rv in v.hypotheses] == want
    assert N.refusal(stmt) is None


# ---------------------------------------------------------------- empty sums, values


def test_empty_sums_are_zero() -> None:
    assert goal("∑ i, a i = 0", 0).verdict is True
    assert goal("∑ i, a i + 1 > ∑ i, (a i + 1)", 0).verdict is True          # 1 > 0
    assert goal("(∑ i, a i) / ∑ i, b i = 0", 0).verdict is True
    assert goal("∑ i ∈ Finset.range n, a i ^ 2 = 0", 0, head=HEAD_NAT).verdict is True
    assert goal("∑ i : Fin n, c = n * c", 0, c=3).verdict is True
    assert goal("∑ i : Fin n, c = n * c", 3, c=3).lhs == E(9)
    assert goal("∑ i ∈ Finset.range n, (1 : ℝ) = n", 5, head=HEAD_NAT).verdict is True


def test_mathlib_values_in_bodies() -> None:
    assert lhs("∑ i, a i / 0", 2, (1, 2)) == E(0)
    assert lhs("∑ i, 1 / (a i - a i)", 2, (1, 2)) == E(0)
    assert lhs("∑ i, √(a i)", 2, (-4, 4)) == E(2)                  # Real.sqrt of a negative is 0
    assert lhs("∑ i, Real.sqrt (a i)", 2, (9, 4)) == E(5)
    assert lhs("∑ i, (a i)⁻¹", 2, (0, 4)) == E(F(1, 4))
    assert lhs("∑ i, a i ^ (1 / 2)", 3, (4, 9, 0)) == E(3)        # a ℕ exponent: 1 / 2 = 0
    assert lhs("∑ i, a i ^ (1 / 2 : ℝ)", 2, (4, 9)) == E(5)
    assert lhs("∑ i, |a i|", 2, (-1, 2)) == E(3)
    assert lhs("∑ i, a i * (1 - 2)", 2, (1, 2)) == E(-3)           # a real tree: 1 - 2 = -1
    assert lhs("∑ i, 0.5 * a i + 2⁻¹", 2, (1, 2)) == E(2)


def test_range_sums_never_look_beyond_n() -> None:
    seen: list[int] = []

    class Recording(tuple):
        def __getitem__(self, i):  # type: ignore[override]
            seen.append(i)
            return super().__getitem__(i)

    stmt = N.read_nterm(f"{HEAD_NAT} (h : ∀ i, 0 < a i) : ∑ i ∈ Finset.range n, a i ^ 2 ≥ ∑ i in Finset.range n, b i "
                        ":= by sorry")
    point = NPoint(2, {"a": Recording(map(F, (1, 2, -5, 7))), "b": Recording(map(F, (1, 1, 9, 9)))}, {"c": F(0)})
    ev = N.Evaluator(stmt, point)
    assert ev.rel(stmt.goal).lhs == E(5) and ev.rel(stmt.goal).rhs == E(2)
    assert seen and max(seen) < 2
    seen.clear()
    v = ev.index_hypothesis(stmt.index_hypotheses[0])    # ∀ i over ℕ: also the values beyond n
    assert v == N.IndexVerdict(True, False, True) and max(seen) == 3


def test_per_index_hypotheses() -> None:
    def verdicts(hyp: str, n: int, a: Sequence, head: str = HEAD_NAT) -> N.IndexVerdict:
        stmt = N.read_nterm(f"{head} (h : {hyp}) : ∑ i ∈ Finset.range n, a i ≥ 0 := by sorry")
        point = NPoint(n, {"a": tuple(map(F, a)), "b": tuple(map(F, a))}, {"c": F(1)})
        return N.evaluate(stmt, point).index[0][1]

    assert verdicts("∀ i ∈ Finset.range n, 0 < a i", 2, (1, 2, -1, -1)) == N.IndexVerdict(True)
    assert verdicts("∀ i, 0 < a i", 2, (1, 2, -1, 3)) == N.IndexVerdict(True, False, True)
    assert verdicts("∀ i, 0 < a i ∧ a i ≤ c", 2, (1, 2, 1, 1)) == N.IndexVerdict(False, True, True)
    assert verdicts("∀ i ∈ Finset.range n, 0 < a i", 0, (-1, -1)) == N.IndexVerdict(True)   # vacuous
    assert verdicts("∀ i ∈ Finset.range n, a i ≠ 0 ∧ b i ≤ 1", 2, (1, 0)) == N.IndexVerdict(False)
    fin = "theorem t (n : ℕ) (a b : Fin n → ℝ) (c : ℝ)"
    stmt = N.read_nterm(f"{fin} (h : ∀ i : Fin n, 0 ≤ a i) (h' : ∀ i, a i ≤ 1) : ∑ i, a i ≥ 0 := by sorry")
    v = N.evaluate(stmt, NPoint(2, {"a": (F(0), F(1)), "b": (F(0), F(0))}, {"c": F(0)}))
    assert [x for _, x in v.index] == [N.IndexVerdict(True), N.IndexVerdict(True)]
    assert N.refusal(stmt) is None


# ---------------------------------------------------------------- what must be refused


@pytest.mark.parametrize(("text", "category"), [
    ("∑ i, a i ^ n ≥ 0", "n in an exponent"),
    ("c ^ (n : ℝ) ≥ ∑ i, a i", "n in an exponent"),
    ("∑ i : Fin n, (i : ℝ) ≥ 0", "index outside a family application"),
    ("∑ i, (i : ℝ) ≥ 0", N.LEAN_ERROR),                                # and the type of i is not determined
    ("∑ i, a i * i ≥ 0", "index outside a family application"),
    ("∑ i, a i - b i ≥ 0", N.LEAN_ERROR),                              # the second `i` is free
    ("∑ i, a i / ∑ j, b j ≥ 0", "nested sum"),                         # ∑ i, (a i / ∑ j, b j)
    ("∑ i, ∑ j, a i * b j ≥ 0", "nested sum"),
    ("∏ i, a i ≥ 0", "product"),
    ("∑ i with 0 < a i, a i ≥ 0", "with filter"),
    ("∑ i < n, a i ≥ 0", "∑ i < n"),
    ("∑ i : Fin n, 1 ≥ ∑ i, a i", "ℕ-typed sum body"),
    ("∑ i, a i⁻¹ ≥ 0", N.LEAN_ERROR),                                  # a (i⁻¹)
    ("∑ i, √a i ≥ 0", N.LEAN_ERROR),                                   # (√a) i
    ("∑ i, c ≥ 0", N.LEAN_ERROR),                                      # the index type is not determined
    ("∑ i ∈ Finset.range n, a i ≥ 0", N.LEAN_ERROR),                   # a Fin family at a natural index
    ("∑ i, a i ≥ ∑ i : Fin (n + 1), b i", "sums over two different sets"),
])
def test_refusals_fin(text: str, category: str) -> None:
    why = N.refusal(N.read_nterm(f"{HEAD_FIN} : {text} := by sorry"))
    assert why is not None and why.category == category, why


@pytest.mark.parametrize(("text", "category"), [
    ("(h : n - 1 > 0) : ∑ i ∈ Finset.range n, a i ≥ 0", "ℕ arithmetic in an ℕ comparison"),
    ("(h : n / 2 ≥ 1) : ∑ i ∈ Finset.range n, a i ≥ 0", "ℕ arithmetic in an ℕ comparison"),
    (": ∑ i, a i ≥ 0", N.LEAN_ERROR),                                  # no Fintype ℕ
    (": ∑ i ∈ Finset.range n, a (i + 1) ≥ 0", "index arithmetic"),
    (": ∑ i ∈ Finset.range n, a i ≥ ∑ i ∈ Finset.range (n + 1), b i", "sums over two different sets"),
    (": ∑ i ∈ Finset.range n, 2 ≥ ∑ i ∈ Finset.range n, a i", "ℕ-typed sum body"),
    ("(h : ∀ i, 0 < c) : ∑ i ∈ Finset.range n, a i ≥ 0", N.LEAN_ERROR),   # the type of i is not determined
])
def test_refusals_nat(text: str, category: str) -> None:
    why = N.refusal(N.read_nterm(f"{HEAD_NAT} {text} := by sorry"))
    assert why is not None and why.category == category, why


@pytest.mark.parametrize("text", [
    f"{HEAD_FIN} (hn : 0 < n) (ha : ∀ i, 0 < a i ∧ a i ≤ 1) (hs : ∑ i, a i = n) : ∑ i, a i ^ 2 ≥ n := by sorry",
    (f"{HEAD_NAT} (hb : ∀ i ∈ Finset.range n, 0 < b i) : (∑ i ∈ Finset.range n, a i) ^ 2 / ∑ i ∈ Finset.range n, b i "
    "≤ ∑ i ∈ Finset.range n, a i ^ 2 / b i := by sorry"),
    f"{HEAD_NAT} : ∑ i in Finset.range n, a i ≥ n / 2 - 1 := by sorry",
    f"{HEAD_FIN} (h : n ≠ 0) : c * ∑ i : Fin n, (a i - b i) ≤ ((n - 1 : ℕ) : ℝ) := by sorry",
])
def test_accepted_subset(text: str) -> None:
    assert N.refusal(N.read_nterm(text)) is None


# ---------------------------------------------------------------- the faithful reference reading


def test_reference_reading_agrees_with_the_evaluator() -> None:
    from prover.semantics.fuzz_nterm import _atom_values, _term_rel, points_for

    gen = NTermGenerator(3)
    rng = random.Random(0)
    compared = 0
    for k in range(150):
        stmt, _ = gen.statement(k)
        try:
            reading = N.reference_reading(stmt)
        except (N.Refusal, N.Unsupported):
            continue
        for point in points_for(stmt, 4, rng):
            ev = N.Evaluator(stmt, point)
            env = {**point.scalars, stmt.n: F(point.n), **_atom_values(reading, point)}
            for (_, r), fr in zip(stmt.outer() + [("goal", stmt.goal)],
                                  list(reading.statement.hypotheses) + [reading.statement.goal]):
                lean, ref = ev.rel(r), _term_rel(fr, env)
                if lean.verdict is not None and ref.verdict is not None:
                    assert lean.verdict == ref.verdict, (N.show_statement(stmt), point)
                    compared += 1
    assert compared > 300
