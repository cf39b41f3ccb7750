"""Rigorous sign decisions for exact real numbers built from a problem's expressions.

A counterexample is only reported when the violation is *certain*. Points are exact (rationals,
or algebraic numbers such as ``CRootOf``/radicals when an equality constraint was solved for one
variable). Values are computed by a hybrid evaluation: sub-terms that stay rational are computed
exactly with sympy Rationals; every other sub-term (radicals, rational powers, roots of
polynomials, ``exp``/``log``) becomes an mpmath interval with outward rounding, refined at
increasing precision. An interval that excludes 0 decides the sign; an exact zero is only
recognised when the value is rational, or by ``sympy.minimal_polynomial`` (algebraic numbers).

Domain: a point is only *valid* where Lean's total functions agree with real analysis — every
square-root/real-power base is ``>= 0`` (``> 0`` for negative or variable exponents), every
denominator is nonzero and every logarithm's argument is positive. Outside that domain the
evaluation raises :class:`DomainError`, so a reported counterexample refutes the Lean statement
too (Lean would read ``x / 0`` as ``0`` and ``sqrt`` of a negative as ``0``; we never rely on it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Union

import sympy as sp
from mpmath import iv

Interval = type(iv.mpf(1))
Value = Union[sp.Rational, "Interval"]

#: Interval precisions (bits) tried in turn before giving up on deciding a sign.
PRECISIONS = (80, 240, 800)


class DomainError(ValueError):
    """The point is outside the domain where the expression means what it says."""


class Undecided(ValueError):
    """Interval arithmetic at the tried precisions could not settle the question."""


@contextmanager
def _iv_prec(bits: int) -> Iterator[None]:
    old = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = old


def _to_iv(q: sp.Rational) -> Interval:
    return iv.mpf(int(q.p)) / iv.mpf(int(q.q))


def _is_exact(v: Value) -> bool:
    return isinstance(v, sp.Rational)


def _as_iv(v: Value) -> Interval:
    return _to_iv(v) if _is_exact(v) else v


def _sign_iv(v: Interval) -> int | None:
    if v.a > 0:
        return 1
    if v.b < 0:
        return -1
    return None


def _ev(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], bits: int) -> Value:
    if e.is_Symbol:
        if e not in env:
            raise ValueError(f"no value for {e}")
        return _ev(sp.sympify(env[e]), {}, bits)
    if e.is_Rational:
        return sp.Rational(e)
    if isinstance(e, sp.Float):
        raise TypeError("floating-point number in an exact evaluation")
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    if isinstance(e, sp.CRootOf):
        if not e.is_real:
            raise DomainError("complex root")
        eps = sp.Rational(1, 2 ** (bits + 8))
        q = e.eval_rational(dx=eps, dy=eps)
        return _to_iv(q) + iv.mpf([-1, 1]) * _to_iv(eps)
    if e.is_Add or e.is_Mul:
        vals = [_ev(a, env, bits) for a in e.args]
        exact = [v for v in vals if _is_exact(v)]
        inexact = [v for v in vals if not _is_exact(v)]
        if e.is_Add:
            acc: Value = sp.Add(*exact) if exact else sp.Integer(0)
            for v in inexact:
                acc = _as_iv(acc) + v
            return acc
        acc = sp.Mul(*exact) if exact else sp.Integer(1)
        if acc == 0:
            return sp.Integer(0)
        for v in inexact:
            acc = _as_iv(acc) * v
        return acc
    if e.is_Pow:
        return _pow(e, env, bits)
    if isinstance(e, sp.exp):
        return iv.exp(_as_iv(_ev(e.args[0], env, bits)))
    if isinstance(e, sp.log):
        a = _positive(_ev(e.args[0], env, bits), "log of a non-positive number")
        return sp.Integer(0) if a == 1 else iv.log(_as_iv(a))
    if isinstance(e, sp.Abs):
        a = _ev(e.args[0], env, bits)
        if _is_exact(a):
            return abs(a)
        s = _sign_iv(a)
        if s is None:
            return iv.mpf([0, max(abs(a.a), abs(a.b))])
        return a if s > 0 else -a
    raise ValueError(f"cannot evaluate {type(e).__name__} exactly")


def _pow(e: sp.Pow, env: Mapping[sp.Symbol, sp.Expr], bits: int) -> Value:
    base_e, exp_e = e.args
    b = _ev(base_e, env, bits)
    if exp_e.is_Integer:
        n = int(exp_e)
        if _is_exact(b):
            if b == 0 and n < 0:
                raise DomainError("division by zero")
            return b**n
        if n < 0 and _sign_iv(b) is None:
            raise Undecided("denominator interval contains 0")
        return b**n if n >= 0 else 1 / (b ** (-n))
    # non-integer exponent: base must be >= 0 (exactly 0 only with a positive constant exponent)
    if exp_e.is_Rational:
        if _is_exact(b) and b == 0:
            if exp_e > 0:
                return sp.Integer(0)
            raise DomainError("negative power of zero")
        b = _positive(b, "real power of a negative number")
        if _is_exact(b):
            r = b**exp_e  # sympy keeps perfect powers exact
            if r.is_Rational:
                return sp.Rational(r)
        return iv.exp(iv.log(_as_iv(b)) * _to_iv(sp.Rational(exp_e)))
    b = _positive(b, "variable power of a non-positive number")
    x = _ev(exp_e, env, bits)
    if (_is_exact(b) and b == 1) or (_is_exact(x) and x == 0):
        return sp.Integer(1)
    return iv.exp(iv.log(_as_iv(b)) * _as_iv(x))


def _positive(v: Value, what: str) -> Value:
    """``v`` itself once it is certainly > 0; DomainError if certainly <= 0, else Undecided."""
    if _is_exact(v):
        if v <= 0:
            raise DomainError(what)
    elif not v.a > 0:
        raise (DomainError if v.b <= 0 else Undecided)(what)
    return v


def evaluate(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], bits: int = PRECISIONS[0]) -> Value:
    """Exact rational or a rigorous enclosing interval for ``e`` at the point ``env``."""
    with _iv_prec(bits):
        return _ev(sp.sympify(e), env, bits)


def sign(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr]) -> int:
    """The certain sign (-1, 0, 1) of ``e`` at ``env``.

    Raises :class:`DomainError` when the point is outside the expression's domain and
    :class:`Undecided` when the sign could not be established rigorously.
    """
    for bits in PRECISIONS:
        try:
            v = evaluate(e, env, bits)
        except Undecided:
            continue
        if _is_exact(v):
            return int(bool(v > 0)) - int(bool(v < 0))
        s = _sign_iv(v)
        if s is not None:
            return s
    if _is_zero_algebraic(e, env):
        return 0
    raise Undecided(f"cannot decide the sign of {e}")


def _is_zero_algebraic(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr]) -> bool:
    """Exact zero test for algebraic values (minimal polynomial is ``x``)."""
    val = sp.sympify(e).xreplace(dict(env))
    if val.has(sp.exp, sp.log) or not val.is_algebraic:
        return False
    try:
        z = sp.Dummy("z")
        return sp.minimal_polynomial(val, z) == z
    except (NotImplementedError, ValueError, sp.PolynomialError):
        return False
