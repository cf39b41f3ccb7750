"""``Real.logb b x`` in the independent Lean-semantics reader and evaluator (prover.semantics.lean_ast,
lean_eval): Lean's application grammar (base first, both arguments at max precedence), Mathlib's value
``Real.log x / Real.log b`` (``log 0 = 0``, ``log x = log |x|``, ``x / 0 = 0``), undecidable rather than
wrong where the base's logarithm is near 0, and a few hand-written differential cases against the real
front-end (refused, or Lean's value at points)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics.fuzz_frontend import FuzzReport, check_statement

x, y, two = A.var("x"), A.var("y"), A.num(2)


def _value(text: str, **point) -> L.Enclosure:
    e = A.read_lean(text)
    assert isinstance(e, A.LExpr)
    return A.value(e, {k: F(v) for k, v in point.items()})


def _close(e: L.Enclosure, q: float) -> bool:
    return float(e.lo) - 1e-12 <= q <= float(e.hi) + 1e-12 and e.width < F(1, 10 ** 30)


# ---------------------------------------------------------------- reading: Lean's application grammar


@pytest.mark.parametrize("text, shape", [
    ("Real.logb 2 x", A.logb(two, x)),                                               # base first
    ("Real.logb x 2", A.logb(x, two)),
    ("Real.logb 2 x ^ 2", A.op2("pow", A.logb(two, x), two)),                      # (Real.logb 2 x) ^ 2
    ("Real.logb 2 x⁻¹", A.logb(two, A.op1("inv", x))),                             # Real.logb 2 (x⁻¹)
    ("Real.logb 2⁻¹ x", A.logb(A.op1("inv", two), x)),                             # Real.logb (2⁻¹) x
    ("-Real.logb 2 x", A.op1("neg", A.logb(two, x))),
    ("Real.logb 2 x * y", A.op2("mul", A.logb(two, x), y)),
    ("Real.logb (-2) 8", A.logb(A.op1("neg", two), A.num(8))),
    ("Real.logb (1 / 2) (x * y)", A.logb(A.op2("div", A.num(1), two), A.op2("mul", x, y))),
    ("Real.logb 2 (Real.logb 2 x)", A.logb(two, A.logb(two, x))),
    ("Real.logb 2 |x|", A.logb(two, A.op1("abs", x, "|"))),
    ("Real.logb 2 (Real.exp x)", A.logb(two, A.exp_log("exp", x))),
    ("logb 2 x + _root_.Real.logb 3 y", A.op2("add", A.logb(two, x, "logb"), A.logb(A.num(3), y, "_root_.Real.logb"))),
])
def test_application_grammar(text: str, shape: A.LExpr) -> None:
    assert A.strip_parens(A.read_lean(text)) == shape
    assert A.strip_parens(A.read_lean(A.show(shape))) == shape          # the printer round-trips


@pytest.mark.parametrize("text", [
    "Real.logb 2",              # partial application: a function, not a real
    "Real.logb 2 -x",           # `(Real.logb 2) - x` in Lean: not read
    "Real.logb -2 x",
    "Real.logb 2 Real.log x",   # an application as an argument needs parentheses
    "Real.logb 2 x y",          # three arguments
    "Real.logb 2 √x",
])
def test_what_is_no_application_is_not_read(text: str) -> None:
    with pytest.raises(A.ReadError):
        A.read_lean(text)


def test_printer_writes_the_traps_bare() -> None:
    assert A.show(A.op2("pow", A.logb(two, x), two)) == "Real.logb 2 x ^ 2"
    assert A.show(A.logb(two, A.op1("inv", x))) == "Real.logb 2 x⁻¹"
    assert A.show(A.logb(A.op1("inv", two), x)) == "Real.logb 2⁻¹ x"
    assert A.show(A.op1("neg", A.logb(two, x))) == "-Real.logb 2 x"
    assert A.show(A.op1("inv", A.logb(two, x))) == "(Real.logb 2 x)⁻¹"
    assert A.show(A.logb(A.op1("neg", two), A.op2("mul", x, y))) == "Real.logb (-2) (x * y)"
    assert A.show(A.op1("sqrt", A.logb(two, x), "√")) == "√(Real.logb 2 x)"
    assert A.show(A.logb(two, x, "logb")) == "logb 2 x"


# ---------------------------------------------------------------- values: Mathlib's definition


def test_mathlib_values() -> None:
    assert _close(_value("Real.logb 2 8"), 3.0)
    assert _close(_value("Real.logb (-2) 8"), 3.0)                                  # log |−2|
    assert _close(_value("Real.logb 2 (-8)"), 3.0)                                  # log |−8|
    assert _close(_value("Real.logb (1 / 2) 8"), -3.0)                              # the base at ℝ: 1/2
    assert _close(_value("Real.logb 2⁻¹ 8"), -3.0)
    assert _close(_value("Real.logb x 2", x=4), 0.5)                                # base first
    assert _close(_value("Real.logb 10 x ^ 2", x=100), 4.0)                         # (logb 10 100) ^ 2
    assert _close(_value("Real.logb 10 (x ^ 2)", x=100), 4.0)
    assert _close(_value("Real.logb 2 x⁻¹", x=8), -3.0)
    assert _close(_value("Real.logb 2 (1 - 9)"), 3.0)              # the argument is elaborated at ℝ


@pytest.mark.parametrize("text, point", [
    ("Real.logb 1 x", {"x": 5}),          # log 1 = 0: x / 0 = 0
    ("Real.logb 0 x", {"x": 5}),          # log 0 = 0
    ("Real.logb (-1) x", {"x": 5}),       # log |−1| = 0
    ("Real.logb 2 0", {}),                # log 0 = 0
    ("Real.logb 2 1", {}),
    ("Real.logb x x", {"x": 1}),          # 0, not 1
    ("Real.logb x x", {"x": 0}),
    ("Real.logb x x", {"x": -1}),
    ("Real.logb x 0", {"x": 7}),
    ("Real.logb 0 0", {}),
])
def test_exact_zeros(text: str, point: dict) -> None:
    assert _value(text, **point) == L.Enclosure.exact(0)


def test_the_value_is_the_quotient_of_logarithms() -> None:
    for b, v in ((F(3), F(7)), (F(-5), F(1, 9)), (F(1, 10), F(-2)), (F(9, 10), F(1000))):
        e = _value("Real.logb b v", b=b, v=v)
        assert _close(e, math.log(abs(v)) / math.log(abs(b)))
    assert _close(_value("Real.logb x x", x=-3), 1.0)
    assert _close(_value("Real.logb x y * Real.logb y x", x=3, y=F(1, 5)), 1.0)


def test_a_base_near_one_is_undecidable_not_wrong() -> None:
    near_one = L.Enclosure(F(999, 1000), F(1001, 1000))          # log of it straddles 0
    with pytest.raises(L.Undecidable):
        L.logb(near_one, L.Enclosure.exact(8))
    assert L.logb(L.Enclosure.exact(1), L.Enclosure(F(-1), F(1))) == L.Enclosure.exact(0)   # exact 0 base
    with pytest.raises(L.Undecidable):
        L.logb(L.Enclosure.exact(2), L.Enclosure(F(-1), F(1)))   # log of an argument around 0
    # the base `√2 * √2 - 1` is 1 (so the value is 0), but its enclosure only brackets 1: undecided
    t = "theorem t : Real.logb (√2 * √2 - 1) 8 = 0 := by sorry"
    rv = A.eval_lean(t, {}).goal
    assert rv.lhs is None and rv.verdict is None
    t = "theorem t : Real.logb (√2 * √2) 8 = 3 := by sorry"       # a base bracketed away from ±1, 0
    assert _close(A.eval_lean(t, {}).goal.lhs, 3.0)


def test_statements_and_types() -> None:
    assert A.eval_lean("theorem t : Real.logb 1 8 = 0 := by sorry", {}).goal.verdict is True
    assert A.eval_lean("theorem t : Real.logb 0 8 = 0 := by sorry", {}).goal.verdict is True
    rv = A.eval_lean("theorem t (x : ℝ) : Real.logb x x = 1 := by sorry", {"x": F(1)}).goal
    assert rv.verdict is False                                       # logb 1 1 = 0
    assert A.eval_lean("theorem t : Real.logb 2 8 = 3 := by sorry", {}).goal.verdict is None   # equal sides
    assert A.type_error(A.read_lean("theorem t : Real.logb 2 8 < 4 := by sorry")) is None   # real
    assert A.type_error(A.read_lean("theorem t : (Real.logb 2 8 : ℕ) < 4 := by sorry"))
    assert A.is_real(A.read_lean("Real.logb 2 8"))


# ---------------------------------------------------------------- differential against the front-end

CASES = [
    "theorem t : Real.logb 2 8 = 3 := by sorry",
    "theorem t : Real.logb (-2) 8 = 3 := by sorry",
    "theorem t (x : ℝ) : Real.logb 1 x = 0 := by sorry",
    "theorem t (x : ℝ) : Real.logb 0 x = 0 := by sorry",
    "theorem t (x : ℝ) : Real.logb 2 x ^ 2 ≥ 0 := by sorry",
    "theorem t (x : ℝ) : Real.logb 2 x⁻¹ = -Real.logb 2 x := by sorry",
    "theorem t (x : ℝ) : Real.logb 2⁻¹ x = -Real.logb 2 x := by sorry",
    "theorem t (x : ℝ) : Real.logb x 2 ≤ 1 := by sorry",
    "theorem t (x : ℝ) (h : 1 < x) : Real.logb x x = 1 := by sorry",
    "theorem t (x : ℝ) : Real.logb x x = 1 := by sorry",
    "theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.logb 3 (x * y) = Real.logb 3 x + Real.logb 3 y := by sorry",
    "theorem t (x : ℝ) : Real.logb 2 (x ^ 2) = 2 * Real.logb 2 x := by sorry",
    "theorem t (x : ℝ) (h : Real.logb 10 x ≤ 0) : x ≤ 1 := by sorry",
    "theorem t (x : ℝ) : Real.logb 2 (Real.exp x) = x / Real.log 2 := by sorry",
    "theorem t (x : ℝ) : Real.logb (1 / 2) x + Real.logb 2 x = 0 := by sorry",
]


@pytest.mark.parametrize("text", CASES)
def test_front_end_refuses_or_reads_as_lean(text: str) -> None:
    try:
        parse_theorem(text)
    except ParseError as exc:
        assert "\n" not in str(exc) and str(exc).strip()
        return
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {}, 16, report, parse_theorem)
    assert report.pairs > 0
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]] + report.crashes[:3]


@pytest.mark.parametrize("text", [
    "open Real\ntheorem t (x : ℝ) : logb 2 x = 0 := by sorry",            # may be another `logb`
    "theorem t (x : ℝ) : Real.logb 2 = 0 := by sorry",                    # partial application
    "theorem t (x : ℝ) : Real.logb 2 -x = 0 := by sorry",                 # a subtraction in Lean
    "theorem t (x : ℝ) : (Real.logb 2 8 : ℕ) = 3 := by sorry",             # `Real.logb` is real
])
def test_front_end_refuses_what_lean_rejects_or_may_read_otherwise(text: str) -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text)
    assert "\n" not in str(exc.value)
