"""Absolute values in statements (issue #28): ``|t|`` read by Mathlib's rule
(``macro:max atomic("|" noWs) term noWs "|"``, hygienic: always the root ``abs``) and ``abs t`` as
an application of the root ``abs`` (resolved as Lean resolves names), or refused with one line.
The sympy form is ``Abs``, the faithful form ``Fn("abs", …)``; both are checked against the
independent reader/evaluator :mod:`prover.semantics.lean_ast` at points with 0 and negatives."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
import sympy as sp

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.kernel import terms as T
from prover.problem import Relation, var
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_frontend import FuzzReport, StatementGenerator, check_statement
from prover.semantics.lean_eval import Enclosure

x, y = var("x"), var("y")
X, Y = T.Var("x"), T.Var("y")


def _goal(goal: str, variables: str = "x y", hyps: str = "") -> Relation:
    return parse_theorem(f"theorem t ({variables} : ℝ) {hyps}: {goal} := by sorry").goal


def _faithful(goal: str, variables: str = "x y") -> T.Rel:
    return parse_theorem(f"theorem t ({variables} : ℝ) : {goal} := by sorry").faithful.goal


def _refusal(text: str) -> str:
    with pytest.raises(ParseError) as ei:
        parse_theorem(text)
    msg = str(ei.value)
    assert "\n" not in msg and "(column" in msg, msg
    return msg


# ---------------------------------------------------------------- reading and precedence


@pytest.mark.parametrize("lhs, expected", [
    ("|x|", sp.Abs(x)),
    ("|x| ^ 2", sp.Pow(sp.Abs(x), 2, evaluate=False)),   # kept: sympy would make it x ^ 2
    ("-|x|", -sp.Abs(x)),
    ("|-x|", sp.Abs(x)),
    ("2 * |x - 1|", 2 * sp.Abs(x - 1)),
    ("|x| * |y|", sp.Abs(x) * sp.Abs(y)),
    ("|x|*|y|", sp.Abs(x) * sp.Abs(y)),
    ("|x| / 2", sp.Abs(x) / 2),
    ("|x| - 1", sp.Abs(x) - 1),
    ("|x - 1|", sp.Abs(x - 1)),
    ("|(x - |y|)|", sp.Abs(x - sp.Abs(y))),
    ("|x - |y| + 1|", sp.Abs(x - sp.Abs(y) + 1)),
    ("|x * |y| - x|", sp.Abs(x * sp.Abs(y) - x)),
    ("(|x|)", sp.Abs(x)),
    ("|x|⁻¹", 1 / sp.Abs(x)),
    ("√|x|", sp.sqrt(sp.Abs(x))),
    ("Real.sqrt |x|", sp.sqrt(sp.Abs(x))),
    ("abs x", sp.Abs(x)),
    ("abs (x - 1)", sp.Abs(x - 1)),
    ("abs x ^ 3", sp.Pow(sp.Abs(x), 3, evaluate=False)),
    ("abs (x) * 2", 2 * sp.Abs(x)),
    ("_root_.abs x", sp.Abs(x)),
    ("|(3 : ℝ) - 5|", sp.Integer(2)),
])
def test_reading_and_precedence(lhs: str, expected: sp.Expr) -> None:
    assert _goal(f"{lhs} ≤ 7").lhs == expected


def test_faithful_terms_are_abs_nodes_with_lean_precedence() -> None:
    assert _faithful("|x| ^ 2 ≥ 0").lhs == T.Pow(T.Fn("abs", X), 2)
    assert _faithful("-|x| ≤ 0").lhs == T.mul(T.MINUS_ONE, T.Fn("abs", X))
    assert _faithful("|-x| ≥ 0").lhs == T.Fn("abs", T.mul(T.MINUS_ONE, X))
    assert _faithful("|x| - 1 ≤ 0").lhs == T.add(T.Fn("abs", X), T.Num(F(-1)))
    assert _faithful("|x - 1| ≤ 0").lhs == T.Fn("abs", T.add(X, T.Num(F(-1))))
    assert _faithful("abs (x * y) ≥ 0").lhs == T.Fn("abs", T.mul(X, Y))
    assert _faithful("|(2 : ℝ) - 5| = 3").lhs == T.Num(F(3))


def test_hypotheses_and_definitions_read_abs() -> None:
    p = parse_theorem("theorem t (x : ℝ) (h : |x - 1| < 2) : x < 3 := by sorry")
    assert p.hypotheses[0].rel == Relation(sp.Abs(x - 1), "<", 2)
    p = parse_theorem("theorem t (x : ℝ) (f : ℝ → ℝ) (hf : ∀ t, f t = |t| + 1) : f x ≥ 1 := by sorry")
    assert p.goal == Relation(sp.Abs(x) + 1, ">=", 1)


def test_integer_ascription_keeps_abs_in_z() -> None:
    assert _goal("|(-2 : ℤ)| = 2", "x").lhs == 2


# ---------------------------------------------------------------- refusals, one line each


@pytest.mark.parametrize("goal, why", [
    ("| x| ≥ 0", "space after `|`"),
    ("|x | ≥ 0", "space before `|`"),
    ("| x | ≥ 0", "space after `|`"),
    ("|x ≥ 0", "close the absolute value"),
    ("x ≥ |y", "close the absolute value"),
    ("x| ≥ 0", "closes no absolute value"),
    ("|x - |y|| ≥ 0", "`||` is one Lean token"),
    ("||x| - 1| ≥ 0", "`||` is one Lean token"),
    ("|x|>0", "`|>` is one Lean token"),
    ("0<|x|", "`<|` is one Lean token"),
    ("|x|ₘ ≥ 0", "mabs"),
    ("|x| |y| ≥ 0", "space before `|`"),
    ("|x|y ≥ 0", "unexpected `y`"),
    ("|x * |y| ≥ 0", "close the absolute value"),
    ("|x", "close the absolute value"),
    ("abs(x) ≥ 0", "needs a space"),
    ("abs x|y| ≥ 0", "closes no absolute value"),
    ("abs ≥ 0", "needs an argument"),
    ("|2 - 3| ≥ 0", "numeral-only"),
    ("x ^ |2 - 3| ≥ 0", "numeral-only"),
    ("Real.abs x ≥ 0", "unknown identifier `Real.abs`"),
    ("Complex.abs x ≥ 0", "not supported"),
    ("x.abs ≥ 0", "needs an argument"),
    ("x.abs 2 ≥ 0", "cannot resolve"),
    # sympy's simplification the kernel cannot show equal to Lean's term: refused, never guessed
    ("abs |x| ≥ 0", "simplifies"),
    ("|x| ^ 2 * |y| ^ 2 ≥ 0", "simplifies"),
])
def test_refused_with_one_line(goal: str, why: str) -> None:
    assert why in _refusal(f"theorem t (x y : ℝ) : {goal} := by sorry")


@pytest.mark.parametrize("text, why", [
    # `open Complex` adds Complex.abs, which takes ↑x : ℂ: Lean reports an ambiguity
    ("open Complex in\ntheorem t (x : ℝ) : abs x ≥ 0 := by sorry", "ambiguous"),
    ("open Complex\ntheorem t (x : ℝ) : abs 2 ≥ (0 : ℝ) := by sorry", "ambiguous"),
    # a local named `abs` shadows the function in Lean: refused
    ("theorem t (abs : ℝ) : abs ≥ 0 := by sorry", "variable name `abs`"),
    ("theorem t (x : ℝ) (abs : 0 < x) : abs x ≥ 0 := by sorry", "shadow"),
    ("theorem t (abs : ℝ → ℝ) (x : ℝ) : abs x ≥ 0 := by sorry", "variable name `abs`"),
    ("theorem t (x : ℝ) (f : ℝ → ℝ) (hf : ∀ abs, f abs = abs (abs)) : f x ≥ 0 := by sorry",
     "variable name `abs`"),
    # an earlier declaration named abs may be what `abs` means
    ("theorem abs (x : ℝ) : x = x := by sorry\ntheorem t (x : ℝ) : abs x ≥ 0 := by sorry", "declared earlier"),
    # inside an unmodelled namespace `abs` may name Foo.abs
    ("namespace Foo\ntheorem t (x : ℝ) : abs x ≥ 0 := by sorry\nend Foo", "cannot resolve"),
])
def test_names_refused_where_lean_reads_something_else(text: str, why: str) -> None:
    assert why in _refusal_named(text)


def _refusal_named(text: str) -> str:
    with pytest.raises(ParseError) as ei:
        parse_theorem(text, name="t")
    msg = str(ei.value)
    assert "\n" not in msg
    return msg


def test_notation_is_hygienic_and_namespaces_resolve() -> None:
    # `|x|` is always the root abs, whatever is open
    p = parse_theorem("open Complex in\ntheorem t (x : ℝ) : |x| ≥ 0 := by sorry")
    assert p.goal.lhs == sp.Abs(x)
    # inside `namespace Real` there is no Real.abs: the root one
    p = parse_theorem("namespace Real\ntheorem t (x : ℝ) : abs x ≥ 0 := by sorry\nend Real", name="t")
    assert p.goal.lhs == sp.Abs(x)


# ---------------------------------------------------------------- attacks


@pytest.mark.parametrize("text", [
    # true only under the wrong reading |x - 1| (x = 0: |0| - 1 = -1 < 0)
    "theorem t (x : ℝ) : |x| - 1 ≥ 0 := by sorry",
    # -|x| ≤ 0 is true; the wrong reading |-x| ≤ 0 is false, and vice versa for ≥
    "theorem t (x : ℝ) : -|x| ≥ 0 := by sorry",
    "theorem t (x : ℝ) : |x| ^ 2 < 0 := by sorry",
    "theorem t (x y : ℝ) : |x + y| = |x| + |y| := by sorry",
    "theorem t (x : ℝ) : 2 * |x - 1| ≤ |2 * x| := by sorry",
])
def test_false_statements_stay_false(text: str) -> None:
    """Each goal is false at some point in Lean; the front-end's reading (if it accepts) must be
    false there too: the differential check finds no disagreement."""
    report = _check(text, points=16)
    assert report.failures == 0 and not report.side_mismatches


def test_readings_differ_where_lean_says_they_do() -> None:
    assert _goal("|x| - 1 ≥ 0", "x") != _goal("|x - 1| ≥ 0", "x")
    assert _goal("-|x| ≤ 0", "x").lhs == -sp.Abs(x)
    assert _goal("|-x| ≤ 0", "x").lhs == sp.Abs(x)
    # the differential check catches a front-end that reads `|x| - 1` as `|x - 1|`
    wrong = _check("theorem t (x : ℝ) : |x| - 1 ≥ 0 := by sorry",
                   parse=lambda s: parse_theorem(s.replace("|x| - 1", "|x - 1|")))
    assert wrong.disagreements or wrong.side_mismatches


# ---------------------------------------------------------------- differential against lean_ast


def _check(text: str, points: int = 12, parse=parse_theorem) -> FuzzReport:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {}, points, report, parse)
    return report


DIFFERENTIAL = [
    "|x| - 1", "|x - 1|", "-|x|", "|-x|", "|x| ^ 2", "|x| ^ 3", "2 * |x - 1|", "|x| * |y|",
    "|(x - |y|)|", "|x| / 2", "abs (x * y) - x", "abs x ^ 2 - x", "√|x| * 2", "|x|⁻¹ + |y|", "|x| ^ 2 - x ^ 2",
    "|x - |y| + 1|", "|x * y - 1| / (|y| + 1)",
]
POINTS = [F(0), F(-1), F(2), F(-3, 2), F(1, 3), F(-7)]


@pytest.mark.parametrize("lhs", DIFFERENTIAL)
def test_values_match_lean_ast_at_points(lhs: str) -> None:
    text = f"theorem t (x y : ℝ) : {lhs} ≤ 5 := by sorry"
    problem = parse_theorem(text)
    lean = A.read_lean(text)
    assert isinstance(lean, A.LStatement)
    rng = random.Random(lhs)
    for px in POINTS:
        py = rng.choice(POINTS)
        point = {"x": px, "y": py}
        ref = A.value(lean.goal.lhs, point)
        got = problem.goal.lhs.subs({x: sp.Rational(px.numerator, px.denominator),
                                     y: sp.Rational(py.numerator, py.denominator)})
        if got.has(sp.zoo, sp.nan):   # sympy's 1/0; Lean's 0⁻¹ = 0 is the faithful form's (below)
            continue
        if ref.is_exact:
            assert sp.Rational(got) == sp.Rational(ref.lo.numerator, ref.lo.denominator), (lhs, point)
        else:
            assert ref.lo <= F(str(sp.N(got, 30))) <= ref.hi or ref.hi - ref.lo < F(1, 10 ** 6)
    report = _check(text)
    assert report.failures == 0 and not report.side_mismatches


def test_short_seeded_fuzz_with_abs_has_no_failures() -> None:
    gen = StatementGenerator(7, definitions=0.2, absolute=0.3)
    report = FuzzReport(seed=7)
    wrapped = 0
    for i in range(40):
        stmt, signs = gen.statement(i)
        wrapped += "|" in A.show_statement(stmt) or "abs " in A.show_statement(stmt)
        check_statement(i, stmt, signs, 4, report, parse_theorem)
    assert wrapped >= 10 and report.accepted >= 5
    assert report.failures == 0, report.to_json()["examples"][:3]


def test_unclosed_bar_at_the_end_of_the_text() -> None:
    assert "never closed" in _refusal_named("theorem t (x : ℝ) : x ≤ |x")


def test_lean_ast_reads_abs_on_its_own() -> None:
    for text, val in [("|x| - 1", F(2)), ("|x - 1|", F(4)), ("-|x|", F(-3)), ("|-x|", F(3)),
                      ("abs (x + 1) * 2", F(4)), ("|(|x| - 5)|", F(2)), ("|x| ^ 2", F(9))]:
        assert A.eval_lean(text, {"x": F(-3)}) == Enclosure.exact(val)
        e = A.read_lean(text)
        assert A.read_lean(A.show(e)) == e   # printed back and read again the same
    for bad in ("| x|", "|x |", "|x||y|", "|x", "|x|>0"):
        with pytest.raises(A.ReadError):
            A.read_lean(bad)
    assert A.type_error(A.read_lean("|2 - 3| = 1")) is not None   # ℕ has no abs
    assert A.type_error(A.read_lean("|(2 : ℝ) - 3| = 1")) is None


def test_lips_convention_reads_abs_and_keeps_lean_spacing() -> None:
    p = parse_theorem("theorem t (x : ℝ) : |1 / 2 - x| ≥ abs (x / 2) := by sorry", real_division=True)
    assert p.goal == Relation(sp.Abs(x - sp.Rational(1, 2)), ">=", sp.Abs(x) / 2)
    # the LIPS prefix notation `sqrt` takes an adjacent argument; the function `abs` does not
    assert parse_theorem("theorem t (x : ℝ) : sqrt|x| ≥ 0 := by sorry", real_division=True).goal.lhs == \
        sp.sqrt(sp.Abs(x))
    with pytest.raises(ParseError, match="needs a space"):
        parse_theorem("theorem t (x : ℝ) : abs(x) ≥ 0 := by sorry", real_division=True)
