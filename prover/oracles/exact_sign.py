"""Rigorous sign decisions for exact real numbers built from a problem's expressions.

A counterexample is only reported when the violation is *certain*. Points are exact (rationals,
or algebraic numbers such as ``CRootOf``/radicals when an equality constraint was solved for one
variable). Values are computed by a hybrid evaluation: sub-terms that stay rational are computed
exactly with sympy Rationals; every other sub-term (radicals, rational powers, roots of
polynomials, ``exp``/``log``) becomes an mpmath interval with outward rounding, refined at
increasing precision. An interval that excludes 0 decides the sign; an exact zero is only
recognised when the value is rational, or by ``sympy.minimal_polynomial`` (algebraic numbers).

Semantics (``lean=True``, the default): Lean 4 / Mathlib's total functions, so that a point
where a denominator vanishes is a point like any other — ``x / 0 = x · 0⁻¹ = 0`` (``b ** -n`` is
0 at ``b = 0``), ``Real.sqrt`` of a negative number is 0, ``0 ^ y = 0`` for a real ``y ≠ 0`` and
``0 ^ 0 = 1``, ``Real.log 0 = 0`` and ``Real.log x = Real.log |x|``. A rational power ``b ** (p/2)``
of a negative ``b`` is 0 both as ``Real.sqrt`` and as Mathlib's ``rpow`` (``exp (y log |b|) ·
cos (y π)`` with ``cos (p π / 2) = 0``); any other real power of a negative base, whose Mathlib
value is not worth computing here, raises :class:`DomainError` (the point is skipped, never
misjudged). A counterexample found this way refutes the Lean statement itself, provided the
expression is the statement's sympy form, which the front-end checks keeps its Lean meaning.

With ``lean=False`` (classical analysis) a point is only *valid* where every square-root/real-
power base is ``>= 0`` (``> 0`` for negative or variable exponents), every denominator is nonzero
and every logarithm's argument is positive; elsewhere :class:`DomainError` is raised. This is for
steps that use field laws (an equation solved after clearing its denominators).
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
#: Highest root degree :func:`lean_value` builds exactly: sympy's automatic simplification of
#: ``(p/q) ** (m/n)`` computes ``q ** (n - m)`` and factors it, which hangs for large ``n``
#: (``w ** w`` at ``w = 8107/3624075``).
MAX_EXACT_ROOT_DEGREE = 64


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


def _ev(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], bits: int, lean: bool = True) -> Value:
    if e.is_Symbol:
        if e not in env:
            raise ValueError(f"no value for {e}")
        return _ev(sp.sympify(env[e]), {}, bits, lean)
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
        vals = [_ev(a, env, bits, lean) for a in e.args]
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
        return _pow(e, env, bits, lean)
    if isinstance(e, sp.exp):
        return iv.exp(_as_iv(_ev(e.args[0], env, bits, lean)))
    if isinstance(e, sp.log):
        a = _ev(e.args[0], env, bits, lean)
        if lean:  # Real.log 0 = 0, Real.log x = Real.log |x|
            if _is_exact(a) and a == 0:
                return sp.Integer(0)
            a = _abs(a)
        a = _positive(a, "log of a non-positive number")
        return sp.Integer(0) if a == 1 else iv.log(_as_iv(a))
    if isinstance(e, sp.Abs):
        return _abs(_ev(e.args[0], env, bits, lean))
    raise ValueError(f"cannot evaluate {type(e).__name__} exactly")


def _abs(a: Value) -> Value:
    if _is_exact(a):
        return abs(a)
    s = _sign_iv(a)
    if s is None:
        return iv.mpf([0, max(abs(a.a), abs(a.b))])
    return a if s > 0 else -a


def _lean_pow_of_negative(exp_e: sp.Expr) -> Value:
    """Mathlib's ``b ^ y`` for ``b < 0`` and a non-integer ``y``, where it is easy: 0 when
    ``y = p/2`` (``Real.sqrt``, and ``rpow`` since ``cos (p π / 2) = 0``); else DomainError."""
    if exp_e.is_Rational and exp_e.q == 2:
        return sp.Integer(0)
    raise DomainError("real power of a negative number (Mathlib's rpow value is not used)")


def _pow(e: sp.Pow, env: Mapping[sp.Symbol, sp.Expr], bits: int, lean: bool = True) -> Value:
    base_e, exp_e = e.args
    b = _ev(base_e, env, bits, lean)
    if exp_e.is_Integer:
        n = int(exp_e)
        if _is_exact(b):
            if b == 0 and n < 0:
                if lean:
                    return sp.Integer(0)  # 0⁻¹ = 0 in Lean
                raise DomainError("division by zero")
            return b**n
        if n < 0 and _sign_iv(b) is None:
            raise Undecided("denominator interval contains 0")
        return b**n if n >= 0 else 1 / (b ** (-n))
    # non-integer exponent
    if exp_e.is_Rational:
        if _is_exact(b) and b == 0:
            if exp_e > 0 or lean:
                return sp.Integer(0)  # Lean: 0 ^ y = 0 for y != 0
            raise DomainError("negative power of zero")
        if lean:
            if _is_exact(b) and b < 0 or not _is_exact(b) and b.b < 0:
                return _lean_pow_of_negative(exp_e)
            if not _is_exact(b) and not b.a > 0 and exp_e.q == 2 and exp_e > 0:
                # an interval around 0: b^(p/2) is 0 left of 0 and increasing right of it
                top = iv.exp(iv.log(iv.mpf(b.b)) * _to_iv(sp.Rational(exp_e))) if b.b > 0 else iv.mpf(0)
                return iv.mpf([0, top.b])
        b = _positive(b, "real power of a negative number")
        if _is_exact(b):
            r = b**exp_e  # sympy keeps perfect powers exact
            if r.is_Rational:
                return sp.Rational(r)
        return iv.exp(iv.log(_as_iv(b)) * _to_iv(sp.Rational(exp_e)))
    if lean and _is_exact(b) and b == 0:  # 0 ^ y: 1 if y = 0, else 0
        y = _ev(exp_e, env, bits, lean)
        if _is_exact(y):
            return sp.Integer(1) if y == 0 else sp.Integer(0)
        if _sign_iv(y) is None:
            raise Undecided("0 ^ y with y near 0")
        return sp.Integer(0)
    b = _positive(b, "variable power of a non-positive number")
    x = _ev(exp_e, env, bits, lean)
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


def evaluate(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], bits: int = PRECISIONS[0], *,
             lean: bool = True) -> Value:
    """Exact rational or a rigorous enclosing interval for ``e`` at the point ``env`` (with
    Lean's semantics unless ``lean=False``; see the module docstring)."""
    with _iv_prec(bits):
        return _ev(sp.sympify(e), env, bits, lean)


def sign(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], *, lean: bool = True) -> int:
    """The certain sign (-1, 0, 1) of ``e`` at ``env``.

    Raises :class:`DomainError` when the point is outside the expression's domain (with
    ``lean=True``: only a real power of a negative base that is not a square root) and
    :class:`Undecided` when the sign could not be established rigorously.
    """
    for bits in PRECISIONS:
        try:
            v = evaluate(e, env, bits, lean=lean)
        except Undecided:
            continue
        if _is_exact(v):
            return int(bool(v > 0)) - int(bool(v < 0))
        s = _sign_iv(v)
        if s is not None:
            return s
    if _is_zero_algebraic(e, env, lean):
        return 0
    raise Undecided(f"cannot decide the sign of {e}")


def lean_value(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    """``e`` at ``env`` as an exact sympy number, applying Lean's values where sympy's differ
    (``0⁻¹``, roots of negative numbers, ``log 0``); Undecided when a base's sign is unknown."""
    if e.is_Symbol:
        if e not in env:
            raise ValueError(f"no value for {e}")
        return sp.sympify(env[e])
    if not e.args or isinstance(e, sp.CRootOf):
        return e
    args = [lean_value(a, env) for a in e.args]
    if e.is_Pow:
        b, x = args
        zero = b.is_zero
        if zero is None:
            raise Undecided("cannot tell whether a base is 0")
        if zero:
            if x.is_zero is None:
                raise Undecided("cannot tell whether an exponent is 0")
            return sp.Integer(1) if x.is_zero else sp.Integer(0)
        if not x.is_Integer:
            if x.is_Rational and x.q > MAX_EXACT_ROOT_DEGREE:
                raise Undecided(f"a root of degree {x.q} is too costly to build exactly")
            negative = b.is_negative
            if negative is None:
                raise Undecided("cannot tell the sign of a base")
            if negative:
                return _lean_pow_of_negative(x)
        return sp.Pow(b, x)
    if isinstance(e, sp.log):
        (a,) = args
        if a.is_zero is None or a.is_negative is None:
            raise Undecided("cannot tell the sign of a logarithm's argument")
        return sp.Integer(0) if a.is_zero else sp.log(-a if a.is_negative else a)
    return e.func(*args)


def _has_costly_root(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr]) -> bool:
    """Whether ``e`` at ``env`` has a rational power of degree above ``MAX_EXACT_ROOT_DEGREE``."""
    for p in e.atoms(sp.Pow):
        x = p.exp.xreplace(dict(env))
        if x.is_Rational and x.q > MAX_EXACT_ROOT_DEGREE:
            return True
    return False


def _is_zero_algebraic(e: sp.Expr, env: Mapping[sp.Symbol, sp.Expr], lean: bool = True) -> bool:
    """Exact zero test for algebraic values (minimal polynomial is ``x``)."""
    e = sp.sympify(e)
    try:
        if lean:
            val = lean_value(e, env)
        elif _has_costly_root(e, env):
            return False
        else:
            val = e.xreplace(dict(env))
    except ValueError:  # DomainError, Undecided, or a missing value
        return False
    if val.has(sp.exp, sp.log) or not val.is_algebraic or not val.is_real:
        return False
    try:
        z = sp.Dummy("z")
        return sp.minimal_polynomial(val, z) == z
    except (NotImplementedError, ValueError, sp.PolynomialError):
        return False
