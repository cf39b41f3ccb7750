"""Lean 4 / Mathlib values of real expressions at exact rational points, as rigorous enclosures.

This is a *reference* evaluator for differential testing. Its core (everything but
:func:`eval_term`'s dispatch on the kernel's term dataclasses) is written from the Mathlib
definitions and shares no code with the front-end, the kernel or sympy:

=====================  =====================================================================
``a + b, a - b, a * b``  exact rational arithmetic
``a / b``, ``a⁻¹``       ``a * b⁻¹``; ``0⁻¹ = 0`` (``GroupWithZero``), so ``x / 0 = 0``
``a ^ (n : ℕ/ℤ)``        monoid power, ``0 ^ 0 = 1``; negative ``n``: ``(a ^ -n)⁻¹``
``Real.sqrt a``          ``0`` for ``a ≤ 0``
``Real.rpow a y``        ``a > 0``: ``exp (y · log a)``; ``a = 0``: ``1`` if ``y = 0`` else ``0``;
                         ``a < 0``: ``exp (y · log |a|) · cos (y · π)``
``Real.exp``             ``exp``
``Real.log a``           ``log |a|``, ``log 0 = 0``
``Real.logb b a``        ``Real.log a / Real.log b`` (so ``0`` when ``log b = 0``: ``b ∈ {0, ±1}``)
``Real.pi``              :data:`REAL_PI`: the rational enclosure of Mathlib's ``Real.pi_gt_d20`` /
                         ``Real.pi_lt_d20`` (``3.14159265358979323846 < π < 3.14159265358979323847``)
``|a|``, ``π``, ``e``    as usual (a kernel term's ``π``: :func:`pi`, mpmath's interval)
=====================  =====================================================================

Values are :class:`Enclosure` s — intervals with rational endpoints that are guaranteed to
contain the true value (``lo == hi`` when the value is known exactly). Roots are bounded with
exact integer ``n``-th roots; ``exp``/``log``/``cos``/``π`` use mpmath's outward-rounded
interval arithmetic in a private context. Where no finite enclosure is known (an inverse or a
``log`` of an enclosure that straddles 0) :class:`Undecidable` is raised; relation verdicts
turn that into ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath
from mpmath.ctx_iv import MPIntervalContext
from mpmath.libmp import to_rational

#: Relative precision (bits) of inexact endpoints; exact values keep up to MAX_EXACT_BITS bits.
PREC = 192
MAX_EXACT_BITS = 8192
#: Exponents p/q with |p| or q above this use exp/log instead of exact roots of powers.
MAX_ROOT_POWER = 64

_IV = MPIntervalContext()
_IV.prec = PREC + 64


class Undecidable(ArithmeticError):
    """No finite enclosure is known (e.g. ``1 / e`` where ``e`` straddles 0)."""


@dataclass(frozen=True, slots=True)
class Enclosure:
    """A closed interval ``[lo, hi]`` that contains the value; ``lo == hi`` means exact."""

    lo: Fraction
    hi: Fraction

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ValueError(f"empty enclosure [{self.lo}, {self.hi}]")

    @staticmethod
    def exact(q: Fraction | int) -> Enclosure:
        q = Fraction(q)
        return Enclosure(q, q)

    @property
    def is_exact(self) -> bool:
        return self.lo == self.hi

    def contains(self, q: Fraction | int) -> bool:
        return self.lo <= q <= self.hi

    def overlaps(self, other: Enclosure) -> bool:
        return self.lo <= other.hi and other.lo <= self.hi

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    def __float__(self) -> float:
        return float((self.lo + self.hi) / 2)

    def __str__(self) -> str:
        if self.is_exact:
            return str(self.lo)
        return f"[{_short(self.lo)}, {_short(self.hi)}]"


def _short(q: Fraction) -> str:
    """``q`` to 12 significant digits (beyond the float range too: ``exp`` reaches ``e ** 100000``)."""
    try:
        f = float(q)
        if f or not q:
            return f"{f:.12g}"
    except OverflowError:
        pass
    return mpmath.nstr(mpmath.mpf(q.numerator) / q.denominator, 12)


Point = Mapping[str, Fraction | int | Enclosure]

ZERO = Enclosure.exact(0)
ONE = Enclosure.exact(1)


def enclosure(v: Fraction | int | Enclosure) -> Enclosure:
    return v if isinstance(v, Enclosure) else Enclosure.exact(Fraction(v))


# ---------------------------------------------------------------- rounding


def _round(q: Fraction, up: bool) -> Fraction:
    """``q`` rounded outward to a dyadic with about PREC significant bits."""
    if q.numerator.bit_length() + q.denominator.bit_length() <= 2 * PREC:
        return q
    k = PREC - (q.numerator.bit_length() - q.denominator.bit_length())  # fractional bits kept
    if k >= 0:
        n, d = q.numerator << k, q.denominator
        f = n // d
        if up and f * d != n:
            f += 1
        return Fraction(f, 1 << k)
    n, d = q.numerator, q.denominator << -k
    f = n // d
    if up and f * d != n:
        f += 1
    return Fraction(f << -k)


def _make(lo: Fraction, hi: Fraction) -> Enclosure:
    """An enclosure with bounded sizes: exact values stay exact unless they are huge."""
    if lo == hi and lo.numerator.bit_length() + lo.denominator.bit_length() <= MAX_EXACT_BITS:
        return Enclosure(lo, lo)
    return Enclosure(_round(lo, False), _round(hi, True))


def _hull(*es: Enclosure) -> Enclosure:
    return _make(min(e.lo for e in es), max(e.hi for e in es))


# ---------------------------------------------------------------- field operations


def add(a: Enclosure, b: Enclosure) -> Enclosure:
    return _make(a.lo + b.lo, a.hi + b.hi)


def neg(a: Enclosure) -> Enclosure:
    return Enclosure(-a.hi, -a.lo)


def sub(a: Enclosure, b: Enclosure) -> Enclosure:
    return _make(a.lo - b.hi, a.hi - b.lo)


def mul(a: Enclosure, b: Enclosure) -> Enclosure:
    if a.is_exact and b.is_exact:
        return _make(a.lo * b.lo, a.lo * b.lo)
    ps = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    return _make(min(ps), max(ps))


def inv(a: Enclosure) -> Enclosure:
    """Lean's ``a⁻¹`` (``0⁻¹ = 0``)."""
    if a.is_exact:
        return ZERO if a.lo == 0 else _make(1 / a.lo, 1 / a.lo)
    if a.lo > 0 or a.hi < 0:
        return _make(1 / a.hi, 1 / a.lo)
    raise Undecidable("inverse of an enclosure that contains 0")


def div(a: Enclosure, b: Enclosure) -> Enclosure:
    """Lean's ``a / b = a * b⁻¹`` (``a / 0 = 0``)."""
    return mul(a, inv(b))


def npow(a: Enclosure, n: int) -> Enclosure:
    """Monoid / group-with-zero power ``a ^ n`` (``0 ^ 0 = 1``, ``a ^ -n = (a ^ n)⁻¹``)."""
    if n < 0:
        return inv(npow(a, -n))
    if n == 0:
        return ONE
    if a.is_exact:
        if a.lo.numerator.bit_length() * n > 4 * MAX_EXACT_BITS or a.lo.denominator.bit_length() * n > \
                4 * MAX_EXACT_BITS:
            return _npow_big(a.lo, n)
        v = a.lo ** n
        return _make(v, v)
    lo, hi = a.lo, a.hi
    if n % 2 == 1 or lo >= 0:
        return _make(_pow_round(lo, n, False), _pow_round(hi, n, True))
    if hi <= 0:
        return _make(_pow_round(hi, n, False), _pow_round(lo, n, True))
    m = max(-lo, hi)
    return _make(Fraction(0), _pow_round(m, n, True))


def _pow_round(q: Fraction, n: int, up: bool) -> Fraction:
    """``q ** n`` rounded outward (by repeated rounded squaring when it would be huge)."""
    if q.numerator.bit_length() * n <= MAX_EXACT_BITS and q.denominator.bit_length() * n <= MAX_EXACT_BITS:
        return _round(q ** n, up)
    e = _npow_big(q, n)
    return e.hi if up else e.lo


def _npow_big(q: Fraction, n: int) -> Enclosure:
    sign = -1 if (q < 0 and n % 2 == 1) else 1
    base = Enclosure(_round(abs(q), False), _round(abs(q), True))
    acc = ONE
    while n:
        if n & 1:
            acc = mul(acc, base)
        base = mul(base, base)
        n >>= 1
    return acc if sign > 0 else neg(acc)


def absolute(a: Enclosure) -> Enclosure:
    if a.lo >= 0:
        return a
    if a.hi <= 0:
        return neg(a)
    return Enclosure(Fraction(0), max(-a.lo, a.hi))


def maximum(a: Enclosure, b: Enclosure) -> Enclosure:
    """``max a b`` on ℝ (a linear order): monotone in both arguments."""
    return Enclosure(max(a.lo, b.lo), max(a.hi, b.hi))


def minimum(a: Enclosure, b: Enclosure) -> Enclosure:
    """``min a b`` on ℝ: monotone in both arguments."""
    return Enclosure(min(a.lo, b.lo), min(a.hi, b.hi))


# ---------------------------------------------------------------- roots


def iroot(m: int, n: int) -> int:
    """``⌊m^(1/n)⌋`` for integers ``m ≥ 0``, ``n ≥ 1`` (exact)."""
    if m < 0 or n < 1:
        raise ValueError("iroot needs m >= 0, n >= 1")
    if m < 2 or n == 1:
        return m
    x = 1 << ((m.bit_length() + n - 1) // n)  # x ≥ the root
    while True:
        y = ((n - 1) * x + m // x ** (n - 1)) // n
        if y >= x:
            break
        x = y
    while x ** n > m:
        x -= 1
    while (x + 1) ** n <= m:
        x += 1
    return x


def root_bounds(q: Fraction, n: int) -> tuple[Fraction, Fraction]:
    """Rational ``lo ≤ q^(1/n) ≤ hi`` for ``q ≥ 0`` (``lo == hi`` when the root is rational)."""
    if q < 0:
        raise ValueError("root of a negative number")
    if q == 0 or n == 1:
        return q, q
    p, d = q.numerator, q.denominator
    rp, rd = iroot(p, n), iroot(d, n)
    if rp ** n == p and rd ** n == d:
        r = Fraction(rp, rd)
        return r, r
    m = p * d ** (n - 1)  # q^(1/n) = m^(1/n) / d
    k = max(0, PREC + 8 - m.bit_length() // n)
    r = iroot(m << (n * k), n)
    den = d << k
    return _round(Fraction(r, den), False), _round(Fraction(r + 1, den), True)


def sqrt(a: Enclosure) -> Enclosure:
    """``Real.sqrt``: ``0`` on ``(-∞, 0]``; monotone, so the endpoints bound it."""
    lo, hi = max(a.lo, Fraction(0)), max(a.hi, Fraction(0))
    return _make(root_bounds(lo, 2)[0], root_bounds(hi, 2)[1])


# ---------------------------------------------------------------- mpmath interval bridge


def _to_iv(a: Enclosure):
    lo = _IV.mpf(a.lo.numerator) / _IV.mpf(a.lo.denominator)
    if a.is_exact:
        return lo
    hi = _IV.mpf(a.hi.numerator) / _IV.mpf(a.hi.denominator)
    return _IV.mpf([lo.a, hi.b])


def _from_iv(v) -> Enclosure:
    lo, hi = v._mpi_
    if (lo[1] == 0 and lo[2] != 0) or (hi[1] == 0 and hi[2] != 0):  # ±inf or nan
        raise Undecidable("transcendental function out of range")
    p, q = to_rational(lo)
    r, s = to_rational(hi)
    return _make(Fraction(p, q), Fraction(r, s))


def _iv_apply(f: Callable, *args: Enclosure) -> Enclosure:
    return _from_iv(f(*(_to_iv(a) for a in args)))


def pi() -> Enclosure:
    """``π`` of a kernel term (:func:`eval_term`): mpmath's outward-rounded interval."""
    return _from_iv(_IV.pi)


#: Lean's ``Real.pi`` (``π`` under Real's notation), as exact rationals that Mathlib proves: ``Real.pi_gt_d20 :
#: 3.14159265358979323846 < π`` and ``Real.pi_lt_d20 : π < 3.14159265358979323847`` (Mathlib/Data/Real/Pi/Bounds).
#: No floating point and no series: the reference value of :mod:`~prover.semantics.lean_ast`'s ``pi`` node
#: (independent of :func:`pi`, which evaluates the front-end's kernel terms).
REAL_PI = Enclosure(Fraction("3.14159265358979323846"), Fraction("3.14159265358979323847"))


def real_pi() -> Enclosure:
    """Mathlib's ``Real.pi`` as the rational enclosure :data:`REAL_PI` (width ``10⁻²⁰``)."""
    return REAL_PI


def e_const() -> Enclosure:
    return _from_iv(_IV.e)


#: |arguments| of ``exp`` beyond this are not evaluated: above, Undecidable; below, ``exp`` is
#: bounded by ``[0, exp (-EXP_LIMIT)]`` (monotone; the exact value would have millions of bits)
EXP_LIMIT = 100_000


def exp(a: Enclosure) -> Enclosure:
    if a.is_exact and a.lo == 0:
        return ONE
    if a.hi > EXP_LIMIT:
        raise Undecidable("exp of a huge argument")
    if a.lo < -EXP_LIMIT:
        return Enclosure(Fraction(0), _iv_apply(_IV.exp, Enclosure.exact(max(a.hi, Fraction(-EXP_LIMIT)))).hi)
    return _iv_apply(_IV.exp, a)


def log(a: Enclosure) -> Enclosure:
    """Mathlib's ``Real.log``: ``log |a|``, with ``log 0 = 0``."""
    if a.is_exact:
        if a.lo == 0 or abs(a.lo) == 1:
            return ZERO
        return _iv_apply(_IV.log, absolute(a))
    if a.lo > 0 or a.hi < 0:
        return _iv_apply(_IV.log, absolute(a))
    raise Undecidable("log of an enclosure that contains 0")


def logb(b: Enclosure, x: Enclosure) -> Enclosure:
    """Mathlib's ``Real.logb b x``: by definition ``Real.log x / Real.log b`` (base first), so
    ``log |x| / log |b|`` with ``log 0 = 0`` and ``x / 0 = 0``: ``logb 1 x = logb 0 x = logb (-1) x = 0``.

    An exactly zero denominator gives 0 whatever ``x`` (even where ``log x`` is undecidable); a
    denominator whose enclosure contains 0 without being exact is :class:`Undecidable` (by
    :func:`inv`), never a guess."""
    d = log(b)
    if d.is_exact and d.lo == 0:
        return ZERO
    return div(log(x), d)


def cos_pi(y: Fraction) -> Enclosure:
    """``cos (y · π)`` (exact when ``6y`` is an integer)."""
    r = y % 2
    exact = {Fraction(0): 1, Fraction(1, 2): 0, Fraction(1): -1, Fraction(3, 2): 0,
             Fraction(1, 3): Fraction(1, 2), Fraction(2, 3): Fraction(-1, 2),
             Fraction(4, 3): Fraction(-1, 2), Fraction(5, 3): Fraction(1, 2)}
    if r in exact:
        return Enclosure.exact(exact[r])
    return _from_iv(_IV.cos(_IV.pi * _to_iv(Enclosure.exact(r))))


# ---------------------------------------------------------------- real powers


def _pos_rpow_bounds(x: Fraction, y: Fraction, up: bool) -> Fraction:
    """A lower (``up=False``) or upper bound of ``x ^ y`` for exact ``x > 0`` and rational ``y``."""
    p, q = y.numerator, y.denominator
    if abs(p) <= MAX_ROOT_POWER and q <= MAX_ROOT_POWER and (x.numerator.bit_length() + x.denominator.bit_length()) * abs(p) \
            <= MAX_EXACT_BITS:
        lo, hi = root_bounds(x ** p, q)
        return hi if up else lo
    e = _iv_apply(lambda a, b: _IV.exp(b * _IV.log(a)), Enclosure.exact(x), Enclosure.exact(y))
    return e.hi if up else e.lo


def _pos_rpow(a: Enclosure, y: Fraction) -> Enclosure:
    """``a ^ y`` for ``a > 0`` (all of it) and exact rational ``y``: monotone in ``a``."""
    if y > 0:
        return _make(_pos_rpow_bounds(a.lo, y, False), _pos_rpow_bounds(a.hi, y, True))
    return _make(_pos_rpow_bounds(a.hi, y, False), _pos_rpow_bounds(a.lo, y, True))


def rpow(a: Enclosure, b: Enclosure) -> Enclosure:
    """Mathlib's ``Real.rpow a b`` (see the module docstring)."""
    if not b.is_exact:
        return _rpow_general(a, b)
    y = b.lo
    if y.denominator == 1:
        return npow(a, int(y))  # Real.rpow_intCast: x ^ (n : ℝ) = x ^ n for every x
    if a.is_exact and a.lo == 0:
        return ZERO  # y ≠ 0
    if a.lo > 0:
        return _pos_rpow(a, y)
    c = cos_pi(y)
    if a.hi < 0:
        return mul(_pos_rpow(neg(a), y), c)
    if y < 0:
        raise Undecidable("negative real power of an enclosure that contains 0")
    # a straddles 0 and y > 0: continuous at 0 with value 0 on both sides
    parts = [ZERO]
    if a.hi > 0:
        parts.append(Enclosure(Fraction(0), _pos_rpow_bounds(a.hi, y, True)))
    if a.lo < 0:
        parts.append(mul(Enclosure(Fraction(0), _pos_rpow_bounds(-a.lo, y, True)), c))
    return _hull(*parts)


def _rpow_general(a: Enclosure, b: Enclosure) -> Enclosure:
    """``a ^ b`` for an inexact exponent enclosure ``b``."""
    if a.lo > 0:
        return _iv_apply(lambda u, v: _IV.exp(v * _IV.log(u)), a, b)
    if a.hi < 0:
        return _iv_apply(lambda u, v: _IV.exp(v * _IV.log(u)) * _IV.cos(v * _IV.pi), neg(a), b)
    if a.is_exact:  # a = 0
        if b.lo > 0 or b.hi < 0:
            return ZERO
        raise Undecidable("0 ^ y with y undecided between 0 and not 0")
    if b.lo > 0:
        m = max(-a.lo, a.hi)
        bound = _iv_apply(lambda u, v: _IV.exp(v * _IV.log(u)), Enclosure.exact(m), b).hi
        return Enclosure(Fraction(0) if a.lo >= 0 else -bound, bound)
    raise Undecidable("real power of an enclosure that contains 0")


# ---------------------------------------------------------------- relations

_OPS = {"<=": "<=", "≤": "<=", "<": "<", ">=": ">=", "≥": ">=", ">": ">", "=": "=", "!=": "!=", "≠": "!="}


def compare(lhs: Enclosure, op: str, rhs: Enclosure) -> bool | None:
    """The truth value of ``lhs op rhs`` (``None`` when the enclosures cannot decide it)."""
    o = _OPS[op]
    dlo, dhi = lhs.lo - rhs.hi, lhs.hi - rhs.lo  # enclosure of lhs - rhs
    if o == "<=":
        return True if dhi <= 0 else False if dlo > 0 else None
    if o == "<":
        return True if dhi < 0 else False if dlo >= 0 else None
    if o == ">=":
        return True if dlo >= 0 else False if dhi < 0 else None
    if o == ">":
        return True if dlo > 0 else False if dhi <= 0 else None
    eq = True if (dlo == 0 and dhi == 0) else False if (dlo > 0 or dhi < 0) else None
    if o == "=":
        return eq
    return None if eq is None else not eq


@dataclass(frozen=True)
class RelValue:
    """Both sides of a relation at a point (``None``: undecidable) and its verdict."""

    lhs: Enclosure | None
    op: str
    rhs: Enclosure | None

    @property
    def verdict(self) -> bool | None:
        if self.lhs is None or self.rhs is None:
            return None
        return compare(self.lhs, self.op, self.rhs)


def guarded(f: Callable[[], Enclosure]) -> Enclosure | None:
    """``f()``, or ``None`` when it is :class:`Undecidable`."""
    try:
        return f()
    except Undecidable:
        return None


# ---------------------------------------------------------------- entry points


def eval_term(term: object, point: Point) -> Enclosure:
    """The Lean value of a kernel term (:mod:`prover.kernel.terms`) at ``point``.

    Only the term dataclasses are taken from the kernel; the meaning is this module's.
    Raises :class:`Undecidable` when no finite enclosure is known, KeyError for a missing variable.
    """
    from prover.kernel import terms as T

    def go(t: object) -> Enclosure:
        if isinstance(t, T.Num):
            return Enclosure.exact(t.value)
        if isinstance(t, T.Var):
            return enclosure(point[t.name])
        if isinstance(t, T.Add):
            acc = go(t.args[0])
            for u in t.args[1:]:
                acc = add(acc, go(u))
            return acc
        if isinstance(t, T.Mul):
            acc = go(t.args[0])
            for u in t.args[1:]:
                acc = mul(acc, go(u))
            return acc
        if isinstance(t, T.Pow):
            return npow(go(t.base), t.exp)
        if isinstance(t, T.Rpow):
            return rpow(go(t.base), go(t.exp))
        if isinstance(t, T.Sqrt):
            return sqrt(go(t.arg))
        if isinstance(t, T.Fn):
            f = {"exp": exp, "log": log, "abs": absolute}[t.name]
            return f(go(t.arg))
        if isinstance(t, T.Const):
            return pi() if t.name == "pi" else e_const()
        raise TypeError(f"not a kernel term: {t!r}")

    return go(term)


def eval_rel_term(rel: object, point: Point) -> RelValue:
    """Sides and verdict of a kernel :class:`~prover.kernel.terms.Rel` at ``point``."""
    lhs = guarded(lambda: eval_term(rel.lhs, point))  # type: ignore[attr-defined]
    rhs = guarded(lambda: eval_term(rel.rhs, point))  # type: ignore[attr-defined]
    return RelValue(lhs, rel.op, rhs)  # type: ignore[attr-defined]
