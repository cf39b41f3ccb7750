"""A tiny Lean 4 statement language for differential testing: AST, printer, reader, evaluator.

Independent of :mod:`prover.frontend` (its own tokenizer and parser) and of the kernel. It
covers what the fuzzer generates: real variables, natural and decimal numerals,
``+ - * / ⁻¹``, unary ``-``, ``√``/``Real.sqrt``, ``^`` with a natural or real exponent,
ascriptions ``(e : ℝ)``/``(e : ℕ)``, comparisons ``≤ < ≥ > = ≠``, ``∧`` in hypotheses, interval
memberships ``(h : x ∈ Set.Icc a b)`` (``Ioo``, ``Ico``, ``Ioc``, ``Ici``, ``Iic``, ``Ioi``, ``Iio``:
read as Mathlib defines them, :func:`membership_parts`), and
declarations ``theorem NAME (x y : ℝ) (h : P) : Q := by sorry``.

Elaboration follows Lean 4: a term's leaves decide its type (``binop%``): a real variable, a
root or a ``(… : ℝ)`` makes the tree real; a numeral-only tree is ℕ (``1 / 3 = 0``,
``1 - 2 = 0``). The exponent of ``^`` is elaborated on its own, so ``x ^ (1 / 2)`` is
``x ^ 0`` and ``x ^ (1 / 2 : ℝ)`` is ``Real.rpow x (1/2)``.

``real_division=True`` (in :func:`is_real`, :func:`value`, :func:`rel_value`, :func:`evaluate`,
:func:`eval_lean`, :func:`type_error`) reads a file where the LIPS macro
``macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))`` is in effect: every ``/``
is first expanded as Lean expands that macro (:func:`expand_real_division`: both operands
ascribed ``ℝ``), so ``1 / 3`` is the real 1/3 and makes the enclosing tree real, and
``x ^ (1 / 2)`` is ``Real.rpow x (1/2)``. The default reading is unchanged.

The reader also takes implicit binders ``{a b : ℝ}`` (same meaning) and the applications
``sqrt e`` and ``N.sqrt e`` (spelling ``"sqrt"``, ``"NNReal.sqrt"``, …: what such a name means
depends on the file's ``open`` commands and Mathlib, which the caller decides; every root node is
evaluated as ``Real.sqrt``). The printer writes a root
node with any other spelling (``"NNReal.sqrt"``, …) as that name applied to its argument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from prover.semantics import lean_eval as L
from prover.semantics.lean_eval import Enclosure, Point, RelValue

MAX = 1024
RELATIONS = ("≤", "<", "≥", ">", "=", "≠")
ASCII_OP = {"≤": "<=", "<": "<", "≥": ">=", ">": ">", "=": "=", "≠": "!="}


class LeanTypeError(ValueError):
    """A term Lean would not elaborate (e.g. ``-`` or a variable inside a ℕ term)."""


class ReadError(ValueError):
    """Text outside the subset :func:`read_lean` reads."""


@dataclass(frozen=True)
class LExpr:
    """``kind``: num var add sub mul div neg inv sqrt pow cast paren.

    ``value``: the numeral text (``"3"``, ``"0.5"``), variable name, root spelling (``"√"``,
    ``"Real.sqrt"``, ``"sqrt"``, or any other function name for printing) or ascribed type
    (``"ℝ"``/``"ℕ"``). ``paren`` only prints parentheses.
    """

    kind: str
    args: tuple[LExpr, ...] = ()
    value: str = ""


@dataclass(frozen=True)
class LRel:
    op: str  # one of RELATIONS
    lhs: LExpr
    rhs: LExpr


#: Interval short name -> the relations ``x ∈ I`` is by definition (Mathlib's ``Set.mem_Icc`` …
#: are ``Iff.rfl``): ``("lo", op)`` is ``lo op x``, ``("hi", op)`` is ``x op hi``, bounds in order.
INTERVALS = {
    "Icc": (("lo", "≤"), ("hi", "≤")), "Ico": (("lo", "≤"), ("hi", "<")),
    "Ioc": (("lo", "<"), ("hi", "≤")), "Ioo": (("lo", "<"), ("hi", "<")),
    "Ici": (("lo", "≤"),), "Ioi": (("lo", "<"),), "Iic": (("hi", "≤"),), "Iio": (("hi", "<"),),
}


@dataclass(frozen=True)
class LMem:
    """``element ∈ spelling b₁ b₂``: ``spelling`` as written (``Set.Icc``, ``Icc``,
    ``Finset.Icc`` …); which constant it names is the file context's business. Its meaning here
    is the interval of its last component (:data:`INTERVALS`) over the set's element type."""

    spelling: str
    element: LExpr
    bounds: tuple[LExpr, ...]


def membership_parts(m: LMem) -> tuple[LRel, ...]:
    """The relations ``m`` unfolds to. Lean elaborates the element and the bounds at one type
    (the set's): ℝ when any of them is a real tree, so each is then ascribed ``ℝ``; a numeral-only
    membership is over ℕ."""
    shape = INTERVALS[m.spelling.rpartition(".")[2]]
    real = any(is_real(e) for e in (m.element, *m.bounds))

    def at(e: LExpr) -> LExpr:
        return op1("cast", e, "ℝ") if real else e

    x = at(m.element)
    return tuple(LRel(op, at(b), x) if side == "lo" else LRel(op, x, at(b))
                 for (side, op), b in zip(shape, m.bounds))


@dataclass(frozen=True)
class LHyp:
    name: str
    parts: tuple[LRel, ...]  # a conjunction when there are several
    #: ``name : x ∈ Set.Icc a b`` (then ``parts`` are :func:`membership_parts`)
    membership: LMem | None = None


def membership_hyp(name: str, m: LMem) -> LHyp:
    return LHyp(name, membership_parts(m), m)


def map_hypothesis(h: LHyp, f) -> LHyp:
    """``h`` with ``f`` applied to every term (a membership's operands, then its parts again)."""
    if h.membership is not None:
        m = h.membership
        return membership_hyp(h.name, LMem(m.spelling, f(m.element), tuple(f(b) for b in m.bounds)))
    return LHyp(h.name, tuple(LRel(r.op, f(r.lhs), f(r.rhs)) for r in h.parts))


@dataclass(frozen=True)
class LStatement:
    name: str
    variables: tuple[str, ...]
    hypotheses: tuple[LHyp, ...]
    goal: LRel

    def flat_hypotheses(self) -> list[LRel]:
        """Hypotheses with conjunctions split, in order (as the front-end numbers them)."""
        return [r for h in self.hypotheses for r in h.parts]


@dataclass(frozen=True)
class StatementValue:
    hypotheses: tuple[RelValue, ...] = field(default_factory=tuple)
    goal: RelValue | None = None


# ---------------------------------------------------------------- constructors


def num(n: int | str) -> LExpr:
    return LExpr("num", (), str(n))


def var(name: str) -> LExpr:
    return LExpr("var", (), name)


def op2(kind: str, a: LExpr, b: LExpr) -> LExpr:
    return LExpr(kind, (a, b))


def op1(kind: str, a: LExpr, value: str = "") -> LExpr:
    return LExpr(kind, (a,), value)


def strip_parens(e: LExpr) -> LExpr:
    if e.kind == "paren":
        return strip_parens(e.args[0])
    return LExpr(e.kind, tuple(strip_parens(a) for a in e.args), e.value) if e.args else e


# ---------------------------------------------------------------- printing

_LEVEL = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "neg": 75, "sqrt": 100}
_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "^"}


def _level(e: LExpr) -> int:
    if e.kind == "sqrt":
        return 100 if e.value == "√" else MAX - 1  # an application
    return _LEVEL.get(e.kind, MAX)


def show(e: LExpr) -> str:
    """Lean text of ``e`` with the parentheses its precedences need (plus ``paren`` nodes)."""
    k, a = e.kind, e.args
    if k in ("num", "var"):
        return e.value
    if k == "paren":
        return f"({show(a[0])})"
    if k == "cast":
        return f"({show(a[0])} : {e.value})"
    if k in ("add", "sub", "mul", "div"):
        lv = _LEVEL[k]
        return f"{_wrap(a[0], lv)} {_SYM[k]} {_wrap(a[1], lv + 1)}"
    if k == "pow":
        return f"{_wrap(a[0], 76)} ^ {_wrap(a[1], 75)}"
    if k == "neg":
        return f"-{_wrap(a[0], MAX)}"
    if k == "inv":
        return f"{_wrap(a[0], MAX)}⁻¹"
    if k == "sqrt":
        if e.value == "√":
            arg = a[0]
            ok = arg.kind in ("num", "var", "paren", "cast", "inv") or (arg.kind == "sqrt" and arg.value == "√")
            return f"√{show(arg) if ok else '(' + show(arg) + ')'}"
        arg = a[0]
        name = e.value or "Real.sqrt"
        return f"{name} {show(arg) if arg.kind in ('num', 'var', 'paren', 'cast') else '(' + show(arg) + ')'}"
    raise ValueError(f"unknown node {k!r}")


def _wrap(e: LExpr, need: int) -> str:
    s = show(e)
    return s if _level(e) >= need else f"({s})"


def show_rel(r: LRel) -> str:
    return f"{show(r.lhs)} {r.op} {show(r.rhs)}"


def show_membership(m: LMem) -> str:
    args = [show(b) if b.kind in ("num", "var", "paren", "cast") else f"({show(b)})" for b in m.bounds]
    return f"{show(m.element)} ∈ {' '.join([m.spelling, *args])}"


def show_hypothesis(h: LHyp) -> str:
    if h.membership is not None:
        return show_membership(h.membership)
    return " ∧ ".join(show_rel(r) for r in h.parts)


def show_statement(s: LStatement) -> str:
    parts = [f"theorem {s.name}"]
    if s.variables:
        parts.append(f"({' '.join(s.variables)} : ℝ)")
    for h in s.hypotheses:
        parts.append(f"({h.name} : {show_hypothesis(h)})")
    return " ".join(parts) + f" : {show_rel(s.goal)} := by sorry"


# ---------------------------------------------------------------- reading

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_']*(?:\.[A-Za-z_][A-Za-z0-9_']*)*)|"
                    r"(:=|<=|>=|⁻¹|[-+*/^(){}√:≤<≥>=≠∧∈ℝℕ]))")
_BIN = {"+": ("add", 65), "-": ("sub", 65), "*": ("mul", 70), "/": ("div", 70), "^": ("pow", 75)}
_REL_TEXT = {"≤": "≤", "<": "<", "≥": "≥", ">": ">", "=": "=", "≠": "≠", "<=": "≤", ">=": "≥"}


class _Reader:
    def __init__(self, text: str) -> None:
        self.toks: list[str] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise ReadError(f"unexpected text at {pos}: {text[pos:pos + 10]!r}")
            self.toks.append(m.group(m.lastindex or 0))
            pos = m.end()
        self.i = 0

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def take(self, want: str | None = None) -> str:
        t = self.peek()
        if want is not None and t != want:
            raise ReadError(f"expected {want!r}, found {t!r}")
        self.i += 1
        return t

    def expr(self, min_prec: int = 0) -> LExpr:
        left = self.leading()
        while True:
            t = self.peek()
            if t in _BIN and _BIN[t][1] >= min_prec:
                kind, prec = _BIN[t]
                self.take()
                right = self.expr(prec if kind == "pow" else prec + 1)
                left = op2(kind, left, right)
            elif t == "⁻¹":
                self.take()
                left = op1("inv", left)
            else:
                return left

    def leading(self) -> LExpr:
        t = self.take()
        if not t:
            raise ReadError("unexpected end of text")
        if t[0].isdigit():
            return num(t)
        if t == "(":
            inner = self.expr(0)
            if self.peek() == ":":
                self.take()
                ty = self.take()
                if ty not in ("ℝ", "ℕ"):
                    raise ReadError(f"unsupported type {ty!r}")
                self.take(")")
                return op1("cast", inner, ty)
            self.take(")")
            return inner
        if t == "-":
            return op1("neg", self.expr(75))
        if t == "√":
            return op1("sqrt", self.expr(100), "√")
        if t.endswith(".sqrt") or (t == "sqrt" and self._argument_follows()):
            return op1("sqrt", self.argument(), t)
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*", t):
            return var(t)
        raise ReadError(f"unexpected token {t!r}")

    def _argument_follows(self) -> bool:
        """Does an application argument follow (``sqrt`` applied rather than a variable)?"""
        t = self.peek()
        return t == "(" or bool(t) and (t[0].isdigit() or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*", t) is not None)

    def argument(self) -> LExpr:
        t = self.take()
        if t == "(":
            self.i -= 1
            return self.leading()
        if t and (t[0].isdigit() or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*", t)):
            return num(t) if t[0].isdigit() else var(t)
        raise ReadError(f"unsupported function argument {t!r}")

    def rel(self) -> LRel:
        lhs = self.expr(51)
        op = self.take()
        if op not in _REL_TEXT:
            raise ReadError(f"expected a comparison, found {op!r}")
        return LRel(_REL_TEXT[op], lhs, self.expr(51))

    def prop(self) -> tuple[LRel, ...]:
        parts = [self.rel()]
        while self.peek() == "∧":
            self.take()
            parts.append(self.rel())
        return tuple(parts)

    def parenthesized_prop(self) -> tuple[LRel, ...]:
        """A proposition, also in parentheses: ``(a ≤ b)``."""
        start = self.i
        try:
            return self.prop()
        except ReadError:
            self.i = start
            if self.peek() != "(":
                raise
            self.take()
            parts = self.prop()
            self.take(")")
            return parts

    def statement(self) -> LStatement:
        kw = self.take()
        if kw not in ("theorem", "lemma", "example"):
            raise ReadError("expected `theorem`")
        name = "example" if kw == "example" else self.take()
        variables: list[str] = []
        hyps: list[LHyp] = []
        while self.peek() in ("(", "{"):
            close = ")" if self.take() == "(" else "}"
            names = []
            while self.peek() != ":":
                names.append(self.take())
            self.take(":")
            if self.peek() in ("ℝ", "Real") and self.toks[self.i + 1] == close:
                self.take()
                variables.extend(names)
            else:
                start = self.i
                element = self.expr(51)
                if self.peek() == "∈":
                    self.take()
                    spelling = self.take()
                    short = spelling.rpartition(".")[2]
                    if short not in INTERVALS:
                        raise ReadError(f"membership in {spelling!r}")
                    m = LMem(spelling, element, tuple(self.argument() for _ in INTERVALS[short]))
                    hyps.extend(membership_hyp(n, m) for n in names)
                else:
                    self.i = start
                    parts = self.prop()
                    hyps.extend(LHyp(n, parts) for n in names)
            self.take(close)
        self.take(":")
        goal = self.parenthesized_prop()
        if len(goal) != 1:
            raise ReadError("conjunction in the goal")
        return LStatement(name, tuple(variables), tuple(hyps), goal[0])


def read_lean(text: str) -> LStatement | LRel | LExpr:
    """Read a declaration, a comparison or an expression of the subset (parentheses dropped)."""
    r = _Reader(text)
    if r.peek() in ("theorem", "lemma", "example"):
        out: LStatement | LRel | LExpr = r.statement()
        if r.peek() not in ("", ":="):
            raise ReadError(f"unexpected {r.peek()!r} after the statement")
        return out
    e = r.expr(51)
    if r.peek() in _REL_TEXT:
        op = r.take()
        out = LRel(_REL_TEXT[op], e, r.expr(51))
    else:
        out = e
    if r.peek():
        raise ReadError(f"unexpected {r.peek()!r}")
    return out


# ---------------------------------------------------------------- elaboration and evaluation


def expand_real_division(obj: LStatement | LRel | LExpr) -> LStatement | LRel | LExpr:
    """``obj`` with every ``a / b`` written as the LIPS macro expands it: ``(a : ℝ) / (b : ℝ)``.

    The macro's ``HDiv.hDiv ($x : ℝ) ($y : ℝ)`` elaborates like ``binop%`` over two ℝ-ascribed
    leaves (a ℝ-typed leaf makes the enclosing tree real either way), so the default reading of
    the expanded tree is Lean's reading of ``obj`` under the macro.
    """
    if isinstance(obj, LStatement):
        hyps = tuple(map_hypothesis(h, _expand) for h in obj.hypotheses)
        return LStatement(obj.name, obj.variables, hyps, _expand_rel(obj.goal))
    if isinstance(obj, LRel):
        return _expand_rel(obj)
    return _expand(obj)


def _expand_rel(r: LRel) -> LRel:
    return LRel(r.op, _expand(r.lhs), _expand(r.rhs))


def _expand(e: LExpr) -> LExpr:
    args = tuple(_expand(a) for a in e.args)
    if e.kind == "div":
        return LExpr("div", tuple(LExpr("cast", (a,), "ℝ") for a in args))
    return LExpr(e.kind, args, e.value) if args else e


def is_real(e: LExpr, real_division: bool = False) -> bool:
    """Does Lean elaborate this tree as ℝ (rather than a numeral-only ℕ term)?"""
    if real_division:
        return is_real(_expand(e))
    k = e.kind
    if k in ("var", "sqrt"):
        return True
    if k == "cast":
        return e.value == "ℝ"
    if k == "num":
        return False
    if k == "pow":
        return is_real(e.args[0])
    return any(is_real(a) for a in e.args)


def _nat_value(e: LExpr) -> int:
    k, a = e.kind, e.args
    if k == "num":
        if not e.value.isdigit():
            raise LeanTypeError(f"decimal {e.value} in a ℕ term")
        return int(e.value)
    if k in ("paren",):
        return _nat_value(a[0])
    if k == "cast":
        if e.value != "ℕ":
            raise LeanTypeError("real ascription inside a ℕ term")
        return _nat_value(a[0])
    if k == "add":
        return _nat_value(a[0]) + _nat_value(a[1])
    if k == "sub":
        return max(0, _nat_value(a[0]) - _nat_value(a[1]))  # truncated subtraction
    if k == "mul":
        return _nat_value(a[0]) * _nat_value(a[1])
    if k == "div":
        d = _nat_value(a[1])
        return 0 if d == 0 else _nat_value(a[0]) // d
    if k == "pow":
        n = _nat_value(a[1])
        if n > 10_000:
            raise LeanTypeError("ℕ exponent too large to evaluate")
        return _nat_value(a[0]) ** n
    raise LeanTypeError(f"`{k}` in a ℕ term")


def value(e: LExpr, point: Point, real_division: bool = False) -> Enclosure:
    """The real value of ``e`` (elaborated at type ℝ) at ``point``; may raise Undecidable."""
    if real_division:
        return value(_expand(e), point)
    k, a = e.kind, e.args
    if k == "num":
        return Enclosure.exact(Fraction(e.value))
    if k == "var":
        return L.enclosure(point[e.value])
    if k == "paren":
        return value(a[0], point)
    if k == "cast":
        return value(a[0], point) if e.value == "ℝ" else Enclosure.exact(_nat_value(a[0]))
    if k == "add":
        return L.add(value(a[0], point), value(a[1], point))
    if k == "sub":
        return L.sub(value(a[0], point), value(a[1], point))
    if k == "mul":
        return L.mul(value(a[0], point), value(a[1], point))
    if k == "div":
        return L.div(value(a[0], point), value(a[1], point))
    if k == "neg":
        return L.neg(value(a[0], point))
    if k == "inv":
        return L.inv(value(a[0], point))
    if k == "sqrt":
        return L.sqrt(value(a[0], point))
    if k == "pow":
        base = value(a[0], point)
        if is_real(a[1]):
            return L.rpow(base, value(a[1], point))
        return L.npow(base, _nat_value(a[1]))
    raise ValueError(f"unknown node {k!r}")


def rel_value(r: LRel, point: Point, real_division: bool = False) -> RelValue:
    if real_division:
        r = _expand_rel(r)
    op = ASCII_OP[r.op]
    if not (is_real(r.lhs) or is_real(r.rhs)):
        lv, rv = Enclosure.exact(_nat_value(r.lhs)), Enclosure.exact(_nat_value(r.rhs))
        return RelValue(lv, op, rv)
    return RelValue(L.guarded(lambda: value(r.lhs, point)), op, L.guarded(lambda: value(r.rhs, point)))


def evaluate(obj: LStatement | LRel | LExpr, point: Point, real_division: bool = False):
    """Enclosure / RelValue / StatementValue of ``obj`` at ``point`` (see :func:`eval_lean`);
    ``real_division``: read with the LIPS real-division macro in effect."""
    if real_division:
        obj = expand_real_division(obj)
    if isinstance(obj, LExpr):
        return value(obj, point)
    if isinstance(obj, LRel):
        return rel_value(obj, point)
    if isinstance(obj, LStatement):
        return StatementValue(tuple(rel_value(r, point) for r in obj.flat_hypotheses()),
                              rel_value(obj.goal, point))
    raise TypeError(f"cannot evaluate {type(obj).__name__}")


def eval_lean(source: str | LStatement | LRel | LExpr, point: Point, real_division: bool = False):
    """The Lean value at ``point`` of Lean text or a tree of this module (``real_division``: in
    a file where the LIPS real-division macro is in effect).

    An expression gives an :class:`~prover.semantics.lean_eval.Enclosure`, a comparison a
    :class:`~prover.semantics.lean_eval.RelValue`, a declaration a :class:`StatementValue`. Text
    is read by the independent reader :func:`read_lean` (the generated subset of Lean 4); the
    values are :mod:`prover.semantics.lean_eval`'s (which does not import this module).
    """
    return evaluate(read_lean(source) if isinstance(source, str) else source, point, real_division)


# ---------------------------------------------------------------- elaboration errors


def type_error(obj: LStatement | LRel | LExpr, real_division: bool = False) -> str | None:
    """Why Lean would not elaborate ``obj`` (None: it elaborates), by the subset's typing rules.

    A comparison is real when either side is; inside a ℕ tree (numeral-only, an exponent with
    no real leaf, a ``(… : ℕ)`` ascription) a decimal, ``-x``, ``x⁻¹``, a ``(… : ℝ)`` term or a
    real exponent is an error. Under ``real_division`` a ``/`` inside a ℕ ascription is one too
    (the macro's operands are ascribed ℝ).
    """
    if real_division:
        obj = expand_real_division(obj)
    rels = ([r for h in obj.hypotheses for r in h.parts] + [obj.goal] if isinstance(obj, LStatement)
            else [obj] if isinstance(obj, LRel) else [])
    try:
        if isinstance(obj, LExpr):
            _check(obj, True)
        for r in rels:
            real = is_real(r.lhs) or is_real(r.rhs)
            _check(r.lhs, real)
            _check(r.rhs, real)
    except LeanTypeError as exc:
        return str(exc)
    return None


def _check(e: LExpr, real: bool) -> None:
    """Raise LeanTypeError where ``e``, elaborated as ℝ (``real``) or as ℕ, is ill-typed."""
    k, a = e.kind, e.args
    if k == "num":
        if not real and not e.value.isdigit():
            raise LeanTypeError(f"decimal {e.value} in a ℕ term")
    elif k in ("var", "sqrt", "neg", "inv"):
        if not real:
            raise LeanTypeError(f"`{k}` in a ℕ term")
        for x in a:
            _check(x, True)
    elif k == "cast":
        if e.value == "ℝ" and not real:
            raise LeanTypeError("real ascription inside a ℕ term")
        _check(a[0], e.value == "ℝ")
    elif k == "pow":
        exp_real = is_real(a[1])
        if exp_real and not real:
            raise LeanTypeError("a real exponent on a ℕ base")
        _check(a[0], real)
        _check(a[1], exp_real)
    else:  # paren add sub mul div
        for x in a:
            _check(x, real)
