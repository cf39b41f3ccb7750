"""``Real.pi`` (and the token ``π``) in the independent Lean-semantics reader and evaluator
(prover.semantics.lean_ast, lean_eval): an atom of Lean's grammar (``Real.pi ^ 2``, ``-Real.pi ^ 2``,
``Real.pi⁻¹``, an application argument), real (it makes a numeral tree real; ``(Real.pi : ℕ)`` does not
elaborate), valued by the exact rational enclosure Mathlib proves (``Real.pi_gt_d20``/``Real.pi_lt_d20``);
``π``/``pi`` read as the constant unless the statement binds them; and hand-written differential cases
against the real front-end (refused, or Lean's value at points)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics.fuzz_frontend import FuzzReport, check_statement, has_pi

x, two, PI = A.var("x"), A.num(2), A.real_pi()


def _value(text: str, **point) -> L.Enclosure:
    e = A.read_lean(text)
    assert isinstance(e, A.LExpr)
    return A.value(e, {k: F(v) for k, v in point.items()})


def _close(e: L.Enclosure, q: float, width: F = F(1, 10 ** 15)) -> bool:
    return float(e.lo) - 1e-12 <= q <= float(e.hi) + 1e-12 and e.width < width


def _goal(text: str, **point) -> bool | None:
    return A.eval_lean(text, {k: F(v) for k, v in point.items()}).goal.verdict


# ---------------------------------------------------------------- the value


def test_the_enclosure_is_mathlibs_d20_bounds_and_contains_pi() -> None:
    assert L.REAL_PI.lo == F("3.14159265358979323846") and L.REAL_PI.hi == F("3.14159265358979323847")
    assert L.real_pi() == L.REAL_PI and not L.REAL_PI.is_exact
    with mpmath.workdps(60):                                  # π to 50 places, rounded: ±10⁻⁵⁰
        digits = F(mpmath.nstr(mpmath.pi, 52, strip_zeros=False))
    assert L.REAL_PI.lo < digits - F(1, 10 ** 50) and digits + F(1, 10 ** 50) < L.REAL_PI.hi
    assert _value("Real.pi") == L.REAL_PI
    for spelling in ("π", "_root_.Real.pi", "pi", "NNReal.pi"):   # every spelling is evaluated as Real.pi
        assert _value(spelling) == L.REAL_PI


@pytest.mark.parametrize("text, point, expected", [
    ("Real.pi ^ 2", {}, math.pi ** 2),
    ("-Real.pi ^ 2", {}, -math.pi ** 2),                         # -(π ^ 2)
    ("Real.pi⁻¹", {}, 1 / math.pi),
    ("2 * Real.pi", {}, 2 * math.pi),
    ("Real.pi / 2", {}, math.pi / 2),
    ("√Real.pi", {}, math.sqrt(math.pi)),
    ("Real.exp Real.pi", {}, math.exp(math.pi)),
    ("Real.log Real.pi", {}, math.log(math.pi)),
    ("Real.log Real.pi⁻¹", {}, -math.log(math.pi)),               # Real.log (π⁻¹)
    ("|x - Real.pi|", {"x": 3}, math.pi - 3),
    ("22 / 7 - Real.pi", {}, 22 / 7 - math.pi),                   # real division: π makes the tree real
    ("x ^ Real.pi", {"x": 2}, 2 ** math.pi),
    ("x ^ Real.pi", {"x": -1}, math.cos(math.pi * math.pi)),      # Mathlib: exp (π log 1) · cos (π · π)
    ("x ^ Real.pi", {"x": -2}, 2 ** math.pi * math.cos(math.pi * math.pi)),
    ("Real.pi ^ (1 / 2 : ℝ)", {}, math.sqrt(math.pi)),
    ("Real.logb 2 Real.pi", {}, math.log2(math.pi)),
    ("max x Real.pi", {"x": 1}, math.pi),
])
def test_values(text: str, point: dict, expected: float) -> None:
    assert _close(_value(text, **point), expected)


def test_exact_values_and_decisions() -> None:
    assert _value("x ^ Real.pi", x=0) == L.Enclosure.exact(0)       # 0 ^ y = 0 for y ≠ 0
    assert _value("Real.pi ^ (1 / 2)") == L.Enclosure.exact(1)      # a ℕ exponent: 1 / 2 = 0
    assert _value("Real.pi ^ 0") == L.Enclosure.exact(1)
    assert _goal("theorem t : Real.pi > 3.1415926535897932384 := by sorry") is True
    assert _goal("theorem t : Real.pi < 3.1415926535897932385 := by sorry") is True
    assert _goal("theorem t : Real.pi ≥ 3.14159265358979323846 := by sorry") is True   # closed enclosure
    assert _goal("theorem t : Real.pi > 3.14159265358979323846 := by sorry") is None   # its end: undecided
    assert _goal("theorem t : Real.pi < 22 / 7 := by sorry") is True
    assert _goal("theorem t : Real.pi < 7 / 2 := by sorry") is True          # 7 / 2 = 3.5 at ℝ (ℕ: 3)
    assert _goal("theorem t : Real.pi > 7 / 2 - 1 := by sorry") is True      # 2.5 (ℕ: 2)
    assert _goal("theorem t : Real.pi ^ 2 < 10 := by sorry") is True
    assert _goal("theorem t : Real.pi⁻¹ < 1 / 3 := by sorry") is True
    assert _goal("theorem t : -Real.pi ^ 2 < -9 := by sorry") is True
    assert _goal("theorem t : Real.pi > 3.1416 := by sorry") is False
    assert _goal("theorem t : Real.pi ^ (1 / 2) = 1 := by sorry") is True    # π ^ 0
    # an irrational value is never decided equal to itself from enclosures: undecided, not wrong
    assert _goal("theorem t : Real.pi / Real.pi = 1 := by sorry") is None
    assert _goal("theorem t : Real.pi = Real.pi := by sorry") is None


def test_types() -> None:
    assert A.is_real(PI) and A.is_real(A.op2("div", A.num(7), A.op2("sub", A.num(2), PI)))
    assert A.type_error(A.read_lean("theorem t : Real.pi < 4 := by sorry")) is None
    assert A.type_error(A.read_lean("theorem t : (Real.pi : ℝ) < 4 := by sorry")) is None
    assert A.type_error(A.read_lean("theorem t : (Real.pi : ℕ) < 4 := by sorry"))   # no coercion ℝ → ℕ
    assert A.type_error(A.read_lean("theorem t : 2 ^ Real.pi > 0 := by sorry"))     # HPow ℕ ℝ: none
    assert A.type_error(A.read_lean("theorem t : (2 : ℝ) ^ Real.pi > 0 := by sorry")) is None
    assert A.type_error(A.read_lean("theorem t (x : ℝ) : x ^ (Real.pi : ℕ) > 0 := by sorry"))
    assert not A.elaborates_at_nat(PI)


# ---------------------------------------------------------------- reading and printing


@pytest.mark.parametrize("text, shape", [
    ("Real.pi", PI),
    ("π", A.real_pi("π")),
    ("pi", A.real_pi("pi")),                                       # a short `pi` not bound: a constant
    ("_root_.Real.pi", A.real_pi("_root_.Real.pi")),
    ("NNReal.pi", A.real_pi("NNReal.pi")),
    ("Real.pi ^ 2", A.op2("pow", PI, two)),
    ("-Real.pi ^ 2", A.op1("neg", A.op2("pow", PI, two))),
    ("Real.pi⁻¹", A.op1("inv", PI)),
    ("2 * Real.pi", A.op2("mul", two, PI)),
    ("Real.pi / 2", A.op2("div", PI, two)),
    ("√Real.pi", A.op1("sqrt", PI, "√")),
    ("Real.exp Real.pi", A.exp_log("exp", PI)),                    # an atom: an application argument
    ("Real.log Real.pi⁻¹", A.exp_log("log", A.op1("inv", PI))),
    ("Real.logb 2 π", A.logb(two, A.real_pi("π"))),
    ("max x Real.pi", A.op2("max", x, PI)),
    ("x ^ Real.pi", A.op2("pow", x, PI)),
    ("π * x", A.op2("mul", A.real_pi("π"), x)),
])
def test_reading(text: str, shape: A.LExpr) -> None:
    assert A.read_lean(text) == shape
    assert A.read_lean(A.show(shape)) == shape


@pytest.mark.parametrize("text", [
    "Real.pi", "-Real.pi", "Real.pi ^ 2", "-(Real.pi ^ 2)", "Real.pi⁻¹", "2 * Real.pi", "Real.pi / 2", "√Real.pi",
    "Real.exp Real.pi", "Real.log Real.pi⁻¹", "|x - Real.pi|", "x ^ Real.pi", "π / 2", "_root_.Real.pi * x",
    "max x π", "Real.sqrt Real.pi", "Real.logb Real.pi x",
])
def test_printing_round_trips(text: str) -> None:
    assert A.show(A.read_lean(text)) == text


def test_a_bound_pi_is_the_variable() -> None:
    s = A.read_lean("theorem t (π : ℝ) (h : 0 < π) : π > pi := by sorry")   # no notation here: π is a name
    assert isinstance(s, A.LStatement)
    assert s.variables == ("π",) and s.goal.lhs == A.var("π") and s.goal.rhs == A.real_pi("pi")
    s = A.read_lean("theorem t (x : ℝ) (f : ℝ → ℝ) (hf : ∀ pi, f pi = pi * Real.pi) : f pi > 0 := by sorry")
    assert isinstance(s, A.LStatement)
    assert s.hypotheses[0].definition.body == A.op2("mul", A.var("pi"), PI)    # the parameter
    assert s.goal.lhs == A.app("f", A.real_pi("pi"))                            # outside its scope: a constant
    s = A.read_lean("theorem t (x : ℝ) (h : x ∈ Set.Icc 0 (Real.pi)) : x ≤ 4 := by sorry")
    assert isinstance(s, A.LStatement) and s.hypotheses[0].membership.bounds == (A.num(0), PI)
    assert has_pi(s)


@pytest.mark.parametrize("text", [
    "theorem t : Real.pi 2 > 3 := by sorry",          # not a function
    "theorem t : Real.pi x > 3 := by sorry",
])
def test_unreadable(text: str) -> None:
    with pytest.raises(A.ReadError):
        A.read_lean(text)


# ---------------------------------------------------------------- differential against the front-end

CASES = [
    "theorem t : Real.pi > 3 := by sorry",
    "theorem t : Real.pi < 22 / 7 := by sorry",
    "theorem t : Real.pi < 7 / 2 := by sorry",
    "theorem t : Real.pi > 7 / 2 - 1 := by sorry",
    "theorem t : Real.pi < 3.1416 := by sorry",
    "theorem t : Real.pi ^ 2 < 10 := by sorry",
    "theorem t : -Real.pi ^ 2 < -9 := by sorry",
    "theorem t : Real.pi⁻¹ < 1 / 3 := by sorry",
    "theorem t : 2 * Real.pi > 6 := by sorry",
    "theorem t : Real.pi / 2 > 1.5 := by sorry",
    "theorem t : √Real.pi < 2 := by sorry",
    "theorem t : √(Real.pi - 3) < 1 / 2 := by sorry",
    "theorem t : Real.exp (Real.pi) > 23 := by sorry",
    "theorem t : Real.log (Real.pi / 2) < 1 / 2 := by sorry",
    "theorem t : _root_.Real.pi > 3 := by sorry",
    "theorem t (x : ℝ) : Real.pi * x ^ 2 ≥ 3 * x ^ 2 := by sorry",
    "theorem t (x : ℝ) : |x - Real.pi| ≥ x - 4 := by sorry",
    "theorem t (x : ℝ) (h : 0 < x) : x ^ Real.pi > x ^ (3 : ℝ) := by sorry",
    "theorem t (x : ℝ) : x ^ Real.pi ≤ |x| ^ Real.pi := by sorry",
    "theorem t (x : ℝ) (h : x > -Real.pi) : x + 4 > 0 := by sorry",
    "theorem t (x : ℝ) (h : 0 ≤ x) (h' : x ≤ 1) : Real.pi * x ^ 2 ≤ Real.pi := by sorry",
    "theorem t (x : ℝ) : (Real.pi) * x ≤ 4 * x := by sorry",
    "theorem t (x : ℝ) (f : ℝ → ℝ) (hf : ∀ y, f y = y * Real.pi) : f x ≥ 3 * x := by sorry",
    "theorem t (x : ℝ) : (2 : ℝ) ^ Real.pi > x ^ 2 := by sorry",
    "theorem t (x : ℝ) : Real.logb 2 (Real.pi) * x ≤ x := by sorry",
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
    report = FuzzReport(seed=0)   # the front-end reads the text as written (the printer drops parentheses)
    check_statement(0, stmt, {}, 16, report, lambda _printed: parse_theorem(text))
    assert report.pairs > 0
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]] + report.crashes[:3]


@pytest.mark.parametrize("text", [
    "theorem t : (Real.pi : ℕ) > 3 := by sorry",                         # Real.pi is real
    "theorem t : Real.pi 2 > 3 := by sorry",                             # not a function
    "theorem t : 2 ^ Real.pi > 3 := by sorry",                           # HPow ℕ ℝ
    "theorem t : π > 3 := by sorry",                                     # no notation `π` here
    "open Real Nat\ntheorem t : π > 3 := by sorry",                      # two notations `π`
    "open Nat Real\ntheorem t : π > 3 := by sorry",
    "open Real\nopen scoped Nat\ntheorem t : π > 3 := by sorry",
    "open Nat\ntheorem t : π > 3 := by sorry",                           # Nat.primeCounting
    "open Real\ntheorem t : pi > 3 := by sorry",                         # Real.pi is protected
    "open NNReal\ntheorem t : pi > 3 := by sorry",                       # NNReal.pi : ℝ≥0
    "open Real\ntheorem t (π : ℝ) : π > 3 := by sorry",                  # `π` is a token here
    "theorem t : Real.π > 3 := by sorry",                                # one identifier, unknown
])
def test_front_end_refuses_what_lean_rejects_or_may_read_otherwise(text: str) -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text, name="t")
    assert "\n" not in str(exc.value)
