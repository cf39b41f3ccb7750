"""The independent Lean/Mathlib evaluator (prover.semantics.lean_eval) and the Lean subset reader."""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath
import pytest

from prover.kernel.terms import parse_term
from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics.fuzz_frontend import StatementGenerator
from prover.semantics.lean_ast import eval_lean
from prover.semantics.lean_eval import Enclosure, Undecidable, compare, eval_term

E = Enclosure.exact


def val(text: str, **point: object) -> Enclosure:
    return eval_lean(text, {k: F(v) for k, v in point.items()})  # type: ignore[arg-type]


def encloses(e: Enclosure, x: float | mpmath.mpf, tol: float = 0.0) -> bool:
    return float(e.lo) - tol <= x <= float(e.hi) + tol


# ---------------------------------------------------------------- field and powers


def test_lean_division_inverse_and_zero_powers() -> None:
    assert val("x / 0", x=5) == E(0)
    assert val("x / x", x=0) == E(0)
    assert val("x⁻¹", x=0) == E(0)
    assert val("x ^ 0", x=0) == E(1)
    assert val("(x : ℝ) ^ (0 : ℝ)", x=0) == E(1)
    assert val("x ^ (1 / 2 : ℝ)", x=0) == E(0)
    assert val("x ^ (-1 : ℝ)", x=0) == E(0)          # rpow 0 y = 0 for y ≠ 0
    assert val("x ^ 3 - 2 * x", x=F(-3, 2)) == E(F(-3, 8))
    assert L.npow(E(0), -2) == E(0)


def test_sqrt_is_zero_on_negatives_and_exact_on_squares() -> None:
    assert val("√x", x=-4) == E(0)
    assert val("Real.sqrt x", x=F(9, 4)) == E(F(3, 2))
    s = val("√x", x=2)
    assert not s.is_exact and s.lo ** 2 <= 2 <= s.hi ** 2 and s.width < F(1, 10 ** 40)
    assert val("√x * √x", x=-1) == E(0)
    assert val("√(√x)", x=-16) == E(0)


def test_rpow_mathlib_values_at_negative_bases() -> None:
    assert val("x ^ (1 / 3 : ℝ)", x=-8) == E(1)                 # 2 · cos(π/3)
    assert val("x ^ ((2 : ℝ) / 3)", x=-1) == E(F(-1, 2))        # cos(2π/3)
    assert val("(x ^ (2 / 3 : ℝ)) ^ (3 / 2 : ℝ)", x=-1) == E(0)  # (-1/2)^(3/2): cos(3π/2) = 0
    assert val("x ^ (2 / 3 : ℝ)", x=8) == E(4)
    assert val("x ^ (-4 / 3 : ℝ)", x=F(27, 8)) == E(F(16, 81))
    quarter = val("x ^ (1 / 4 : ℝ)", x=-1)                       # cos(π/4)
    assert encloses(quarter, 0.5 ** 0.5, 1e-15) and quarter.width < F(1, 10 ** 40)
    assert val("x ^ (3 / 2 : ℝ)", x=-4) == E(0)                  # 8 · cos(3π/2)
    assert val("x ^ (2 : ℝ)", x=-3) == E(9)                      # rpow_intCast


def test_rpow_enclosures_are_sound_against_mpmath() -> None:
    rng = random.Random(7)
    mpmath.mp.dps = 60
    for _ in range(300):
        x = F(rng.randint(-50, 50), rng.randint(1, 9))
        p, q = rng.randint(-7, 7), rng.randint(2, 7)
        y = F(p, q)
        got = L.rpow(E(x), E(y))
        if x > 0:
            ref = mpmath.power(mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(p) / q)
        elif x == 0:
            ref = mpmath.mpf(0) if y != 0 else mpmath.mpf(1)
        else:
            ref = mpmath.power(mpmath.mpf(-x.numerator) / x.denominator, mpmath.mpf(p) / q) * \
                mpmath.cos(mpmath.mpf(p) / q * mpmath.pi)
        r = F(mpmath.nstr(ref, 55))
        assert got.lo - F(1, 10 ** 40) <= r <= got.hi + F(1, 10 ** 40), (x, y, got, ref)
        assert got.width < F(1, 10 ** 30)


def test_roots_exact_and_bounds() -> None:
    assert L.iroot(10 ** 30, 3) == 10 ** 10
    assert L.iroot(26, 3) == 2
    assert L.root_bounds(F(27, 64), 3) == (F(3, 4), F(3, 4))
    lo, hi = L.root_bounds(F(5, 7), 5)
    assert lo ** 5 <= F(5, 7) <= hi ** 5 and lo < hi


def test_transcendentals() -> None:
    assert L.log(E(0)) == E(0) and L.log(E(-1)) == E(0)
    assert L.log(E(-2)) == L.log(E(2))                      # log x = log |x|
    assert encloses(L.log(E(2)), 0.6931471805599453, 1e-15)
    assert L.exp(E(0)) == E(1)
    assert encloses(L.exp(E(1)), 2.718281828459045, 1e-15)
    assert encloses(L.pi(), 3.141592653589793, 1e-15) and L.pi().width < F(1, 10 ** 50)
    assert L.absolute(Enclosure(F(-2), F(1))) == Enclosure(F(0), F(2))
    with pytest.raises(Undecidable):
        L.log(Enclosure(F(-1, 10), F(1, 10)))


def test_undecidable_and_straddling() -> None:
    with pytest.raises(Undecidable):
        L.inv(Enclosure(F(-1, 100), F(1, 100)))
    # y > 0: rpow is continuous at 0, so a straddling base still has an enclosure
    e = L.rpow(Enclosure(F(-1, 8), F(1, 8)), E(F(1, 3)))
    assert e.lo <= 0 <= e.hi and e.hi <= F(1, 2)
    assert L.sqrt(Enclosure(F(-1), F(4))) == Enclosure(F(0), F(2))
    assert L.npow(Enclosure(F(-2), F(1)), 2) == Enclosure(F(0), F(4))


def test_compare() -> None:
    assert compare(E(1), "<=", E(1)) is True
    assert compare(E(1), "<", E(1)) is False
    assert compare(E(1), "=", E(1)) is True and compare(E(1), "≠", E(2)) is True
    near = Enclosure(F(1), F(1) + F(1, 10 ** 30))
    assert compare(near, "<=", E(1)) is None and compare(near, "=", E(1)) is None
    assert compare(near, ">=", E(1)) is True


def test_eval_term_kernel_terms_have_lean_meaning() -> None:
    vs = ["x"]
    at = {"x": F(-1)}
    assert eval_term(parse_term("sqrt(x)**2", vs), at) == E(0)
    assert eval_term(parse_term("x**(2/3)", vs), at) == E(F(-1, 2))
    assert eval_term(parse_term("x/x", vs), {"x": F(0)}) == E(0)
    assert eval_term(parse_term("log(x) + Abs(x) + exp(0)", vs), at) == E(2)
    assert encloses(eval_term(parse_term("pi + E", vs), at), 3.141592653589793 + 2.718281828459045, 1e-14)
    r = L.eval_rel_term(type("R", (), {"lhs": parse_term("x", vs), "op": "<=", "rhs": parse_term("0", vs)})(), at)
    assert r.verdict is True


# ---------------------------------------------------------------- the Lean subset


def test_lean_typing_nat_exponents_and_terms() -> None:
    assert val("x ^ (1 / 2)", x=9) == E(1)            # ℕ exponent 1 / 2 = 0
    assert val("x ^ (2 - 3)", x=9) == E(1)            # ℕ truncated subtraction
    assert val("x ^ (1 / 2 : ℝ)", x=9) == E(3)
    assert val("x ^ ((1 : ℝ) / 2)", x=9) == E(3)
    assert val("x * (1 / 2)", x=4) == E(2)            # a real tree: real division
    assert val("0.5 * x", x=4) == E(2)
    assert eval_lean("1 / 2 = 0", {}).verdict is True  # numeral-only comparison: ℕ


def test_statement_value_and_precedence() -> None:
    s = eval_lean("theorem t (x y : ℝ) (h : 0 < y ∧ x ≠ 0) : x / x ≤ 1 := by sorry", {"x": F(0), "y": F(1)})
    assert [h.verdict for h in s.hypotheses] == [True, False] and s.goal.verdict is True
    assert val("-x ^ 2", x=3) == E(-9)
    assert val("√x⁻¹", x=F(1, 4)) == E(2)             # √(x⁻¹)
    assert val("√x ^ 2", x=-1) == E(0)                # (√x) ^ 2
    assert val("x ^ 3 ^ 2", x=2) == E(512)             # right associative


def test_printer_reader_round_trip() -> None:
    gen = StatementGenerator(3)
    for i in range(300):
        stmt, _ = gen.statement(i)
        back = A.read_lean(A.show_statement(stmt))
        assert isinstance(back, A.LStatement)
        strip = A.strip_parens
        assert strip(back.goal.lhs) == strip(stmt.goal.lhs) and strip(back.goal.rhs) == strip(stmt.goal.rhs)
        assert [(strip(r.lhs), r.op, strip(r.rhs)) for r in back.flat_hypotheses()] == \
            [(strip(r.lhs), r.op, strip(r.rhs)) for r in stmt.flat_hypotheses()]
