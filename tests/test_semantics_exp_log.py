"""``Real.exp`` / ``Real.log`` in the independent Lean-semantics reader and evaluator
(prover.semantics.lean_ast, lean_eval): Lean's application grammar, Mathlib's values, and a few
hand-written differential cases against the real front-end (refused, or Lean's value at points)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics.fuzz_frontend import FuzzReport, check_statement


def _value(text: str, **point) -> L.Enclosure:
    e = A.read_lean(text)
    assert isinstance(e, A.LExpr)
    return A.value(e, {k: F(v) for k, v in point.items()})


def _close(e: L.Enclosure, q: float) -> bool:
    return float(e.lo) - 1e-12 <= q <= float(e.hi) + 1e-12 and e.width < F(1, 10 ** 30)


# ---------------------------------------------------------------- reading: Lean's application grammar


@pytest.mark.parametrize("text, shape", [
    ("Real.exp x ^ 2", A.op2("pow", A.exp_log("exp", A.var("x")), A.num(2))),     # (Real.exp x) ^ 2
    ("Real.log x⁻¹", A.exp_log("log", A.op1("inv", A.var("x")))),                  # Real.log (x⁻¹)
    ("Real.exp (Real.log x)", A.exp_log("exp", A.exp_log("log", A.var("x")))),
    ("-Real.log x ^ 2", A.op1("neg", A.op2("pow", A.exp_log("log", A.var("x")), A.num(2)))),
    ("Real.log x * y", A.op2("mul", A.exp_log("log", A.var("x")), A.var("y"))),
    ("Real.log |x|", A.exp_log("log", A.op1("abs", A.var("x"), "|"))),
    ("exp x + log 2", A.op2("add", A.exp_log("exp", A.var("x"), "exp"), A.exp_log("log", A.num(2), "log"))),
    ("rexp x", A.exp_log("exp", A.var("x"), "rexp")),
])
def test_application_grammar(text: str, shape: A.LExpr) -> None:
    assert A.strip_parens(A.read_lean(text)) == shape
    assert A.strip_parens(A.read_lean(A.show(shape))) == shape          # the printer round-trips


@pytest.mark.parametrize("text", ["Real.exp -x", "Real.exp Real.log x", "Real.log", "Real.exp √x"])
def test_what_is_no_application_is_not_read(text: str) -> None:
    with pytest.raises(A.ReadError):
        A.read_lean(text)


def test_printer_writes_the_traps_bare() -> None:
    x = A.var("x")
    assert A.show(A.op2("pow", A.exp_log("exp", x), A.num(2))) == "Real.exp x ^ 2"
    assert A.show(A.exp_log("log", A.op1("inv", x))) == "Real.log x⁻¹"
    assert A.show(A.op1("neg", A.exp_log("log", x))) == "-Real.log x"
    assert A.show(A.exp_log("log", A.op2("mul", x, A.var("y")))) == "Real.log (x * y)"
    assert A.show(A.exp_log("exp", A.op1("neg", x), "exp")) == "exp (-x)"


# ---------------------------------------------------------------- values: Mathlib's


def test_mathlib_values() -> None:
    assert _close(_value("Real.log (-2)"), 0.6931471805599453)                     # log x = log |x|
    assert _value("Real.log 0") == L.Enclosure.exact(0)                             # log 0 = 0
    assert _value("Real.log (-1)") == L.Enclosure.exact(0)
    assert _value("Real.log (1 - 3)") == _value("Real.log 2")     # the argument is elaborated at ℝ
    assert _value("Real.exp 0") == L.Enclosure.exact(1)
    assert _close(_value("Real.exp x ^ 2", x=1), 7.38905609893065)                  # (e ^ 1) ^ 2
    assert _close(_value("Real.exp (x ^ 2)", x=2), 54.598150033144236)
    assert _close(_value("Real.log x⁻¹", x=F(1, 4)), 1.3862943611198906)
    assert _close(_value("Real.exp (Real.log x)", x=-3), 3.0)                        # |x|, not x
    assert _value("Real.exp (Real.log x)", x=0) == L.Enclosure.exact(1)             # exp (log 0) = 1
    assert _close(_value("Real.log (x * y)", x=-2, y=-3), 1.791759469228055)


def test_statements_and_types() -> None:
    t = "theorem t (x : ℝ) (h : 0 < x) : Real.log (-2) = Real.log 2 := by sorry"
    assert A.eval_lean(t, {"x": F(1)}).goal.verdict is None           # equal sides: undecided, not false
    rv = A.eval_lean("theorem t : Real.log 0 = 0 := by sorry", {}).goal
    assert rv.verdict is True
    assert A.eval_lean("theorem t (x : ℝ) : Real.exp x ^ 2 > Real.exp x := by sorry", {"x": F(1)}).goal.verdict
    assert A.type_error(A.read_lean("theorem t : Real.log 2 < 1 := by sorry")) is None   # real
    assert A.type_error(A.read_lean("theorem t : (Real.log 2 : ℕ) < 1 := by sorry"))
    assert A.elaborates_at_nat(A.read_lean("1 - 3")) and not A.elaborates_at_nat(A.read_lean("-2"))


def test_exp_out_of_range() -> None:
    with pytest.raises(L.Undecidable):
        L.exp(L.Enclosure.exact(10 ** 6))
    tiny = L.exp(L.Enclosure.exact(-10 ** 9))          # [0, exp (-100000)]: no million-bit value
    assert tiny.lo == 0 and 0 < tiny.hi < F(1, 10 ** 40000)
    assert "e+868" in str(L.exp(L.Enclosure(F(2000), F(2001))))             # printable beyond floats


# ---------------------------------------------------------------- differential against the front-end

CASES = [
    "theorem t : Real.log (-2) = Real.log 2 := by sorry",
    "theorem t : Real.log 0 = 0 := by sorry",
    "theorem t (x : ℝ) : Real.exp x ^ 2 ≥ Real.exp (x ^ 2) := by sorry",
    "theorem t (x : ℝ) : Real.exp x ^ 2 = Real.exp (2 * x) := by sorry",
    "theorem t (x : ℝ) : Real.log x⁻¹ = -Real.log x := by sorry",
    "theorem t (x : ℝ) : Real.exp (Real.log x) = x := by sorry",
    "theorem t (x : ℝ) : Real.log (Real.exp x) = x := by sorry",
    "theorem t (x y : ℝ) : Real.log (x * y) = Real.log x + Real.log y := by sorry",
    "theorem t (x : ℝ) : Real.log (x ^ 2) = 2 * Real.log x := by sorry",
    "theorem t (x : ℝ) : Real.log (1 - 3) > 0 := by sorry",
    "theorem t (x : ℝ) (h : Real.log x ≤ 0) : Real.exp (-x) ≥ x := by sorry",
    "theorem t (x : ℝ) : (Real.log x) ^ 2 + 1 ≥ 2 * Real.log x := by sorry",
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
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]]
