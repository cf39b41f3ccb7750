"""Expressions of the family generator: Lean 4 text, float evaluation (numpy), exact constants.

An :class:`E` is a small tree (``num`` with a Fraction value, ``var``, ``add sub mul div``,
``pow`` with a natural exponent, ``rpow`` with a Fraction exponent, ``sqrt``). It prints as Lean 4
text that reads the same with and without the LIPS real-division convention: every rational
constant is written ``(p : ℝ) / q``, every real exponent ``(p / q : ℝ)``, square roots ``√x`` /
``√(…)``. Floats are used only to *reject* candidates (:func:`evalf`); nothing exact is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

MAX = 1024


@dataclass(frozen=True)
class E:
    kind: str
    args: tuple[E, ...] = ()
    value: object = None

    def __add__(self, o: E | int | Fraction) -> E:
        return E("add", (self, lift(o)))

    def __radd__(self, o: int | Fraction) -> E:
        return E("add", (lift(o), self))

    def __sub__(self, o: E | int | Fraction) -> E:
        return E("sub", (self, lift(o)))

    def __rsub__(self, o: int | Fraction) -> E:
        return E("sub", (lift(o), self))

    def __mul__(self, o: E | int | Fraction) -> E:
        return E("mul", (self, lift(o)))

    def __rmul__(self, o: int | Fraction) -> E:
        return E("mul", (lift(o), self))

    def __truediv__(self, o: E | int | Fraction) -> E:
        return E("div", (self, lift(o)))

    def __rtruediv__(self, o: int | Fraction) -> E:
        return E("div", (lift(o), self))

    def __pow__(self, n: int) -> E:
        assert isinstance(n, int) and n >= 0
        return E("pow", (self,), n)


def lift(x: E | int | Fraction) -> E:
    return x if isinstance(x, E) else E("num", (), Fraction(x))


def V(name: str) -> E:
    return E("var", (), name)


def C(p: int, q: int = 1) -> E:
    return E("num", (), Fraction(p, q))


def sqrt(e: E | int) -> E:
    return E("sqrt", (lift(e),))


def rpow(e: E, p: int, q: int) -> E:
    return E("rpow", (e,), Fraction(p, q))


def S(terms: list[E]) -> E:
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


def P(terms: list[E]) -> E:
    out = terms[0]
    for t in terms[1:]:
        out = out * t
    return out


def cyc(f, names: list[str]) -> E:
    """``Σ_cyc f(x₀, x₁, …)`` over the cyclic shifts of ``names``."""
    n = len(names)
    return S([f(*[V(names[(i + j) % n]) for j in range(n)]) for i in range(n)])


_LEVEL = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "rpow": 75, "sqrt": MAX - 1}
_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def level(e: E) -> int:
    if e.kind == "num":
        f = e.value
        assert isinstance(f, Fraction)
        return MAX if f.denominator == 1 and f >= 0 else 70
    return _LEVEL.get(e.kind, MAX)


def wrap(e: E, need: int) -> str:
    s = show(e)
    return s if level(e) >= need else f"({s})"


def show(e: E) -> str:
    k, a = e.kind, e.args
    if k == "num":
        f = e.value
        assert isinstance(f, Fraction) and f >= 0, f
        return str(f.numerator) if f.denominator == 1 else f"({f.numerator} : ℝ) / {f.denominator}"
    if k == "var":
        return str(e.value)
    if k in _SYM:
        lv = _LEVEL[k]
        return f"{wrap(a[0], lv)} {_SYM[k]} {wrap(a[1], lv + 1)}"
    if k == "pow":
        return f"{wrap(a[0], MAX)} ^ {e.value}"
    if k == "rpow":
        f = e.value
        assert isinstance(f, Fraction)
        return f"{wrap(a[0], MAX)} ^ ({f.numerator} / {f.denominator} : ℝ)"
    if k == "sqrt":
        inner = a[0]
        return f"√{show(inner)}" if inner.kind in ("var",) or (inner.kind == "num" and level(inner) == MAX) \
            else f"√({show(inner)})"
    raise ValueError(k)


def subst(e: E, m: dict[str, E]) -> E:
    if e.kind == "var":
        return m.get(str(e.value), e)
    if not e.args:
        return e
    return E(e.kind, tuple(subst(x, m) for x in e.args), e.value)


def free_vars(e: E) -> set[str]:
    if e.kind == "var":
        return {str(e.value)}
    out: set[str] = set()
    for x in e.args:
        out |= free_vars(x)
    return out


def const_value(e: E) -> Fraction | None:
    """The exact value of a variable-free expression when it is rational, else None."""
    k, a = e.kind, e.args
    if k == "num":
        return e.value  # type: ignore[return-value]
    if k == "var":
        return None
    vals = [const_value(x) for x in a]
    if any(v is None for v in vals):
        return None
    if k == "pow":
        return vals[0] ** int(e.value)  # type: ignore[operator]
    if k in ("sqrt", "rpow"):
        x = vals[0]
        assert x is not None
        ex = Fraction(1, 2) if k == "sqrt" else e.value
        assert isinstance(ex, Fraction)
        if x < 0:
            return None
        r = _root(x, ex.denominator)
        return None if r is None else r ** ex.numerator
    x, y = vals
    assert x is not None and y is not None
    if k == "div":
        return None if y == 0 else x / y
    return {"add": x + y, "sub": x - y, "mul": x * y}[k]


def _iroot(n: int, k: int) -> int | None:
    if n < 0:
        return None
    r = round(n ** (1.0 / k)) if n else 0
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _root(x: Fraction, k: int) -> Fraction | None:
    n, d = _iroot(x.numerator, k), _iroot(x.denominator, k)
    return None if n is None or d is None else Fraction(n, d)


def is_const(e: E) -> bool:
    return not free_vars(e)


def fold(e: E) -> E:
    """A variable-free subexpression with a rational value becomes that number."""
    if e.kind in ("num", "var"):
        return e
    if is_const(e):
        v = const_value(e)
        if v is not None and v >= 0:
            return E("num", (), v)
    out = E(e.kind, tuple(fold(x) for x in e.args), e.value)
    one = E("num", (), Fraction(1))
    if out.kind == "div" and out.args[0] == one and out.args[1].kind == "div" and out.args[1].args[0] == one:
        return out.args[1].args[1]  # 1 / (1 / x) = x (in Lean too, x = 0 included)
    if out.kind == "mul" and out.args[0] == one:
        return out.args[1]
    return out


def evalf(e: E, env: dict[str, np.ndarray]) -> np.ndarray:
    """Float value (numpy arrays, vectorised over points). Only used to reject candidates."""
    k, a = e.kind, e.args
    if k == "num":
        return np.float64(float(e.value))  # type: ignore[arg-type]
    if k == "var":
        return env[str(e.value)]
    if k == "pow":
        return evalf(a[0], env) ** int(e.value)  # type: ignore[arg-type]
    if k == "sqrt":
        return np.sqrt(evalf(a[0], env))
    if k == "rpow":
        return np.power(evalf(a[0], env), float(e.value))  # type: ignore[arg-type]
    x, y = evalf(a[0], env), evalf(a[1], env)
    if k == "add":
        return x + y
    if k == "sub":
        return x - y
    if k == "mul":
        return x * y
    return x / y


def evalabs(e: E, env: dict[str, np.ndarray]) -> np.ndarray:
    """A magnitude of ``e``: every subtraction read as addition, variables by absolute value (the
    scale against which a slack is measured, so that ``Schur ≥ 0`` is tight at a = b = c)."""
    k, a = e.kind, e.args
    if k == "var":
        return np.abs(env[str(e.value)])
    if k in ("num",):
        return np.abs(evalf(e, env))
    if k == "pow":
        return evalabs(a[0], env) ** int(e.value)  # type: ignore[arg-type]
    if k == "sqrt":
        return np.sqrt(evalabs(a[0], env))
    if k == "rpow":
        return np.power(evalabs(a[0], env), float(e.value))  # type: ignore[arg-type]
    if k == "div":
        return evalabs(a[0], env) / np.abs(evalf(a[1], env))
    x, y = evalabs(a[0], env), evalabs(a[1], env)
    return x * y if k == "mul" else x + y


def sign_class(e: E, dom: dict[str, str]) -> str | None:
    """``"pos"`` / ``"nonneg"`` when the expression is syntactically > 0 / ≥ 0 on the domain
    (every variable ``pos`` / ``nonneg`` / ``real``), else None. Used by the transformations that
    need a sign (products, monotone maps) so that they keep truth by construction."""
    k, a = e.kind, e.args
    if k == "num":
        f = e.value
        assert isinstance(f, Fraction)
        return "pos" if f > 0 else "nonneg" if f == 0 else None
    if k == "var":
        d = dom[str(e.value)]
        return d if d in ("pos", "nonneg") else None
    if k == "pow":
        s = sign_class(a[0], dom)
        if int(e.value) % 2 == 0:  # type: ignore[arg-type]
            return "pos" if s == "pos" else "nonneg"
        return s
    if k in ("sqrt", "rpow"):
        s = sign_class(a[0], dom)
        return s if k == "rpow" else ("pos" if s == "pos" else "nonneg")
    if k == "sub":
        v = const_value(e) if is_const(e) else None
        return None if v is None or v < 0 else "pos" if v > 0 else "nonneg"
    s1, s2 = sign_class(a[0], dom), sign_class(a[1], dom)
    if s1 is None or s2 is None:
        return None
    if k == "add":
        return "pos" if "pos" in (s1, s2) else "nonneg"
    return "pos" if s1 == s2 == "pos" else "nonneg"
