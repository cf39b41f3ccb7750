"""The kernel's own term language: immutable terms with Lean/Mathlib semantics over ℝ.

Why: sympy simplifies while it builds expressions (``sqrt(x)**2 → x``, ``(x**(2/3))**(3/2) → x``,
``x/x → 1``) with complex-number semantics, and its parser calls ``eval``. Neither may sit in the
trusted path. Every expression string of a proof file is read here by a small whitelist parser
(no ``eval``, no attribute access, no calls but the listed functions, bounded sizes) into these
terms, built without any simplification except exact folding of rational constants.

Grammar (the syntax ``str()`` of a sympy expression prints, so producers can keep writing it)::

    expr  := term (("+" | "-") term)*
    term  := unary (("*" | "/") unary)*
    unary := "-" unary | power
    power := atom ("**" unary)?               (right associative)
    atom  := INTEGER | NAME | FUNC "(" expr ")" | "(" expr ")"
    FUNC  := sqrt | exp | log | Abs           NAME := a declared variable | pi | E

Meaning of each node (Lean 4 / Mathlib, ``ℝ``):

=================  ==========================================================================
``Num(q)``         the rational ``q``
``Var(x)``         a real variable
``Add(ts)``        ``t₁ + t₂ + …``
``Mul(ts)``        ``t₁ * t₂ * …``
``Pow(b, n)``      ``b ^ n`` for an integer ``n`` (``n < 0``: ``(b ^ -n)⁻¹``, with ``0⁻¹ = 0``)
``Rpow(b, e)``     ``Real.rpow b e`` (``e`` a non-integer rational or a non-constant term);
                   for ``b < 0`` Mathlib's value ``exp (e · log |b|) · cos (e · π)``
``Sqrt(t)``        ``Real.sqrt t`` (``0`` for ``t < 0``); ``t ** (1/2)`` is read as ``Sqrt(t)``
                   (``Real.sqrt_eq_rpow``)
``Fn(f, t)``       ``Real.exp t``, ``Real.log t`` (``log 0 = 0``, ``log (-x) = log x``), ``|t|``
``Const(c)``       ``π`` (``pi``), ``Real.exp 1`` (``E``)
=================  ==========================================================================

Limits (:class:`Limits`): text length, digits of a literal, integer exponents, nesting depth
and node count are bounded; past them the text is rejected with :class:`TermError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction


class TermError(ValueError):
    """An expression the kernel refuses to read (malformed, unknown name, too large)."""


@dataclass(frozen=True)
class Limits:
    max_chars: int = 4_000_000
    max_digits: int = 5_000       # digits of one literal or folded constant
    max_exponent: int = 10_000    # |integer exponent|
    max_depth: int = 120          # nesting of parentheses / operators
    max_nodes: int = 2_000_000


LIMITS = Limits()

FUNCTIONS = ("sqrt", "exp", "log", "Abs")
CONSTANTS = ("pi", "E")
OPS = ("<=", "<", ">=", ">", "=", "!=")


# ---------------------------------------------------------------- terms


@dataclass(frozen=True, slots=True)
class Num:
    value: Fraction


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Add:
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Mul:
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Pow:
    base: Term
    exp: int


@dataclass(frozen=True, slots=True)
class Rpow:
    base: Term
    exp: Term


@dataclass(frozen=True, slots=True)
class Sqrt:
    arg: Term


@dataclass(frozen=True, slots=True)
class Fn:
    name: str  # "exp" | "log" | "abs"
    arg: Term


@dataclass(frozen=True, slots=True)
class Const:
    name: str  # "pi" | "E"


Term = Num | Var | Add | Mul | Pow | Rpow | Sqrt | Fn | Const

ZERO, MINUS_ONE = Num(Fraction(0)), Num(Fraction(-1))


def _check_size(q: Fraction, limits: Limits) -> Fraction:
    bits = limits.max_digits * 10 // 3  # about 3.32 bits per decimal digit
    if q.numerator.bit_length() > bits or q.denominator.bit_length() > bits:
        raise TermError(f"a number has more than {limits.max_digits} digits")
    return q


# -------- constructors (no simplification beyond exact constant folding, Lean's 0⁻¹ = 0)


def add(*ts: Term) -> Term:
    flat: list[Term] = []
    for t in ts:
        flat.extend(t.args if isinstance(t, Add) else (t,))
    if all(isinstance(t, Num) for t in flat):
        return Num(sum((t.value for t in flat), Fraction(0)))  # type: ignore[union-attr]
    return flat[0] if len(flat) == 1 else Add(tuple(flat))


def mul(*ts: Term) -> Term:
    flat: list[Term] = []
    for t in ts:
        flat.extend(t.args if isinstance(t, Mul) else (t,))
    q = Fraction(1)
    rest: list[Term] = []
    for t in flat:
        if isinstance(t, Num):
            q *= t.value
        else:
            rest.append(t)
    q = _check_size(q, LIMITS)
    if not rest:
        return Num(q)
    if q != 1:
        rest.insert(0, Num(q))
    return rest[0] if len(rest) == 1 else Mul(tuple(rest))


def neg(t: Term) -> Term:
    return Num(-t.value) if isinstance(t, Num) else mul(MINUS_ONE, t)


def sub(a: Term, b: Term) -> Term:
    return add(a, neg(b))


def power(base: Term, exp: Term, limits: Limits = LIMITS) -> Term:
    """``base ** exp`` read as Lean reads it: integer exponents are ``^``/``zpow``, others rpow."""
    if isinstance(exp, Num) and exp.value.denominator == 1:
        n = exp.value.numerator
        if abs(n) > limits.max_exponent:
            raise TermError(f"exponent {n} is too large (at most {limits.max_exponent})")
        if isinstance(base, Num):
            b = base.value
            if n < 0 and b == 0:
                return ZERO  # Lean: (0 ^ k)⁻¹ = 0⁻¹ = 0
            if b not in (0, 1, -1) and abs(n) * max(b.numerator.bit_length(), b.denominator.bit_length()) \
                    > limits.max_digits * 10 // 3:
                raise TermError(f"a number has more than {limits.max_digits} digits")
            return Num(b ** n)
        return Pow(base, n)
    if isinstance(exp, Num) and exp.value == Fraction(1, 2):
        return Sqrt(base)
    return Rpow(base, exp)


def inv(t: Term) -> Term:
    return power(t, MINUS_ONE)


def div(a: Term, b: Term) -> Term:
    return mul(a, inv(b))


# ---------------------------------------------------------------- relations


@dataclass(frozen=True, slots=True)
class Rel:
    """``lhs op rhs``; ``op`` one of :data:`OPS` (``!=`` is Lean's ``≠``)."""

    lhs: Term
    op: str
    rhs: Term

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise TermError(f"unknown relation operator {self.op!r}")

    @property
    def strict(self) -> bool:
        return self.op in ("<", ">")

    @property
    def is_inequality(self) -> bool:
        return self.op in ("<=", "<", ">=", ">")

    def slack(self) -> Term:
        """Must be ``>= 0`` (``> 0`` if strict); for ``=``/``!=`` it is ``lhs - rhs``. Built
        structurally: nothing is simplified."""
        if self.op in ("<=", "<"):
            return sub(self.rhs, self.lhs)
        return sub(self.lhs, self.rhs)

    def show(self) -> str:
        return f"{show(self.lhs)} {self.op} {show(self.rhs)}"


# ---------------------------------------------------------------- traversal


def children(t: Term) -> tuple[Term, ...]:
    if isinstance(t, (Add, Mul)):
        return t.args
    if isinstance(t, Pow):
        return (t.base,)
    if isinstance(t, Rpow):
        return (t.base, t.exp)
    if isinstance(t, (Sqrt, Fn)):
        return (t.arg,)
    return ()


def walk(t: Term) -> Iterator[Term]:
    stack = [t]
    while stack:
        u = stack.pop()
        yield u
        stack.extend(children(u))


def variables_of(t: Term) -> set[str]:
    return {u.name for u in walk(t) if isinstance(u, Var)}


def substitute(t: Term, mapping: Mapping[str, Term]) -> Term:
    """Replace variables structurally (no simplification: ``s**2`` with ``s ↦ sqrt(x)`` stays a
    square of a root)."""
    memo: dict[Term, Term] = {}

    def go(u: Term) -> Term:
        r = memo.get(u)
        if r is not None:
            return r
        if isinstance(u, Var):
            r = mapping.get(u.name, u)
        elif isinstance(u, Add):
            r = Add(tuple(go(a) for a in u.args))
        elif isinstance(u, Mul):
            r = Mul(tuple(go(a) for a in u.args))
        elif isinstance(u, Pow):
            r = Pow(go(u.base), u.exp)
        elif isinstance(u, Rpow):
            r = Rpow(go(u.base), go(u.exp))
        elif isinstance(u, Sqrt):
            r = Sqrt(go(u.arg))
        elif isinstance(u, Fn):
            r = Fn(u.name, go(u.arg))
        else:
            r = u
        memo[u] = r
        return r

    return go(t)


def substitute_rel(r: Rel, mapping: Mapping[str, Term]) -> Rel:
    return Rel(substitute(r.lhs, mapping), r.op, substitute(r.rhs, mapping))


# ---------------------------------------------------------------- printing


def show(t: Term) -> str:
    """The grammar's text for ``t`` (``parse_term(show(t)) == t``)."""
    return _show(t, 0)


def _q(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _base(t: Term) -> str:
    s = _show(t, 3)
    return f"({s})" if isinstance(t, (Pow, Rpow)) else s


_FN_TEXT = {"exp": "exp", "log": "log", "abs": "Abs"}


def _show(t: Term, prec: int) -> str:
    # prec: 0 sum context, 1 product operand, 2 power base / unary operand
    if isinstance(t, Num):
        s = _q(t.value)
        return f"({s})" if (prec >= 1 and (t.value < 0 or t.value.denominator != 1)) else s
    if isinstance(t, Var):
        return t.name
    if isinstance(t, Const):
        return t.name
    if isinstance(t, Add):
        s = " + ".join(_show(a, 1) for a in t.args)
        return f"({s})" if prec >= 1 else s
    if isinstance(t, Mul):
        s = "*".join(_show(a, 2) for a in t.args)
        return f"({s})" if prec >= 2 else s
    if isinstance(t, Pow):
        return f"{_base(t.base)}**({t.exp})" if t.exp < 0 else f"{_base(t.base)}**{t.exp}"
    if isinstance(t, Rpow):
        return f"{_base(t.base)}**({_show(t.exp, 0)})"
    if isinstance(t, Sqrt):
        return f"sqrt({_show(t.arg, 0)})"
    if isinstance(t, Fn):
        return f"{_FN_TEXT[t.name]}({_show(t.arg, 0)})"
    raise TermError(f"not a term: {t!r}")  # pragma: no cover


# ---------------------------------------------------------------- parsing

_TOKEN = re.compile(r"\s*(?:(\d+)|([^\W\d_][\w']*)|(\*\*|[-+*/(),]))")


@dataclass
class _Parser:
    text: str
    variables: frozenset[str]
    limits: Limits
    pos: int = 0
    depth: int = 0
    nodes: int = 0
    tok: tuple[str, str] = ("end", "")

    def next(self) -> None:
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            rest = self.text[self.pos:].lstrip()
            if not rest:
                self.tok = ("end", "")
                return
            raise TermError(f"unexpected character {rest[0]!r} at {len(self.text) - len(rest)}")
        self.pos = m.end()
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            raise TermError(f"expression has more than {self.limits.max_nodes} tokens")
        if m.group(1) is not None:
            if len(m.group(1)) > self.limits.max_digits:
                raise TermError(f"a literal has more than {self.limits.max_digits} digits")
            self.tok = ("num", m.group(1))
        elif m.group(2) is not None:
            self.tok = ("name", m.group(2))
        else:
            self.tok = ("op", m.group(3))

    def expect(self, op: str) -> None:
        if self.tok != ("op", op):
            raise TermError(f"expected {op!r}, found {self.tok[1] or 'end of text'!r}")
        self.next()

    def enter(self) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise TermError(f"expression nested deeper than {self.limits.max_depth}")

    def expr(self) -> Term:
        self.enter()
        terms = [self.term()]
        while self.tok in (("op", "+"), ("op", "-")):
            minus = self.tok[1] == "-"
            self.next()
            t = self.term()
            terms.append(neg(t) if minus else t)
        self.depth -= 1
        return add(*terms) if len(terms) > 1 else terms[0]

    def term(self) -> Term:
        t = self.unary()
        while self.tok in (("op", "*"), ("op", "/")):
            op = self.tok[1]
            self.next()
            u = self.unary()
            t = mul(t, u) if op == "*" else div(t, u)
        return t

    def unary(self) -> Term:
        if self.tok == ("op", "-"):
            self.enter()
            self.next()
            t = neg(self.unary())
            self.depth -= 1
            return t
        return self.power()

    def power(self) -> Term:
        base = self.atom()
        if self.tok == ("op", "**"):
            self.enter()
            self.next()
            ex = self.unary()
            self.depth -= 1
            return power(base, ex, self.limits)
        return base

    def atom(self) -> Term:
        kind, val = self.tok
        if kind == "num":
            self.next()
            return Num(Fraction(int(val)))
        if kind == "name":
            self.next()
            if val in FUNCTIONS:
                self.expect("(")
                arg = self.expr()
                self.expect(")")
                if val == "sqrt":
                    return Sqrt(arg)
                return Fn("abs" if val == "Abs" else val, arg)
            if val in self.variables:
                return Var(val)
            if val in CONSTANTS:
                return Const(val)
            raise TermError(f"unknown name {val!r} (not a variable of this goal)")
        if (kind, val) == ("op", "("):
            self.enter()
            self.next()
            t = self.expr()
            self.expect(")")
            self.depth -= 1
            return t
        raise TermError(f"unexpected {val or 'end of text'!r}")


def parse_term(text: object, variables: frozenset[str] | set[str] | tuple[str, ...] | list[str],
               limits: Limits = LIMITS) -> Term:
    """Read one expression of the grammar above; only ``variables`` may occur."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise TermError(f"expected an expression string, got {type(text).__name__}")
    if len(text) > limits.max_chars:
        raise TermError(f"expression longer than {limits.max_chars} characters")
    p = _Parser(text, frozenset(variables), limits)
    p.next()
    if p.tok == ("end", ""):
        raise TermError("empty expression")
    t = p.expr()
    if p.tok != ("end", ""):
        raise TermError(f"unexpected {p.tok[1]!r} after the expression")
    return t
