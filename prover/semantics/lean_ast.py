"""A tiny Lean 4 statement language for differential testing: AST, printer, reader, evaluator.

Independent of :mod:`prover.frontend` (its own tokenizer and parser) and of the kernel. It
covers what the fuzzer generates: real variables, natural and decimal numerals,
``+ - * / ⁻¹``, unary ``-``, ``√``/``Real.sqrt``, ``^`` with a natural or real exponent,
absolute values ``|e|`` (Mathlib's ``atomic("|" noWs) term noWs "|"``: no space after the opening
bar nor before the closing one) and ``abs e`` (``abs : α → α``: the type of its argument, none in ℕ),
ascriptions ``(e : ℝ)``/``(e : ℕ)``, comparisons ``≤ < ≥ > = ≠``, ``∧`` in hypotheses, interval
memberships ``(h : x ∈ Set.Icc a b)`` (``Ioo``, ``Ico``, ``Ioc``, ``Ici``, ``Iic``, ``Ioi``, ``Iio``:
read as Mathlib defines them, :func:`membership_parts`), and
declarations ``theorem NAME (x y : ℝ) (h : P) : Q := by sorry``.

``Real.exp t`` and ``Real.log t`` (nodes ``exp``/``log``) are read with Lean's application grammar:
the argument at max precedence (an atom, a parenthesised term, a bar pair), a postfix ``⁻¹`` binding
to it, so ``Real.exp x ^ 2`` is ``(Real.exp x) ^ 2``, ``Real.log x⁻¹`` is ``Real.log (x⁻¹)``,
``Real.exp -x`` is no application (a subtraction: not read) and an application inside an argument
needs parentheses. The argument is elaborated at ℝ whatever its leaves (``Real.log (1 - 3)`` is
``Real.log (-2)``); the values are Mathlib's (``Real.log 0 = 0``, ``Real.log x = Real.log |x|``).
The spellings ``N.exp``/``N.log`` (any ``N``), ``exp``/``log`` and ``rexp`` applied to an argument
are read too and kept in ``value``: which constant such a name denotes depends on the file's
``open`` commands and Mathlib, which the caller decides; every such node is evaluated as
``Real.exp``/``Real.log``.

``Real.logb b x`` (node ``logb``, arguments ``(b, x)``: the base first) is read with the same grammar,
both arguments at max precedence (``Real.logb 2 x ^ 2`` is ``(Real.logb 2 x) ^ 2``, ``Real.logb 2 x⁻¹``
is ``Real.logb 2 (x⁻¹)``, ``Real.logb 2 -x`` is no application, ``Real.logb 2`` alone is not read);
both arguments are elaborated at ℝ and the value is Mathlib's definition ``Real.log x / Real.log b``
(so ``Real.logb 1 x = Real.logb 0 x = 0``: ``x / 0 = 0``; ``Real.logb (-2) 8 = 3``). Any spelling
``N.logb`` and the short ``logb`` applied to two arguments are read and kept in ``value`` (the caller
decides which constant the name denotes); every such node is evaluated as ``Real.logb``.

``Real.pi`` (node ``pi``, no arguments; ``value`` its spelling) is an atom: ``Real.pi ^ 2`` is
``(Real.pi) ^ 2``, ``-Real.pi ^ 2`` is ``-(Real.pi ^ 2)``, ``Real.pi⁻¹`` is ``(Real.pi)⁻¹``, ``Real.exp Real.pi``
and ``max x Real.pi`` take it as an argument, ``Real.pi 2`` is no term (not read). It is real (it makes a
numeral tree real: ``Real.pi < 7 / 2`` compares with the real 7/2; ``(Real.pi : ℕ)`` and ``2 ^ Real.pi`` in a
ℕ tree are type errors) and is evaluated as the rational enclosure :data:`lean_eval.REAL_PI` (Mathlib's
``Real.pi_gt_d20``/``Real.pi_lt_d20``). The reader also takes the token ``π`` and any ``N.pi`` (``_root_.Real.pi``,
``NNReal.pi``, …) and a short ``pi`` as ``pi`` nodes keeping the spelling, except that ``π`` or ``pi`` bound by
the statement (a variable, a definition's parameter) is that variable: which constant ``π`` (a scoped notation
of ``Real`` and of ``Nat``), ``pi`` (``Real.pi`` is protected: never a short ``pi``) or ``N.pi`` denotes depends
on the file's ``open`` commands and namespaces, which the caller decides (fuzz_context.resolve_pi); every
``pi`` node is evaluated as ``Real.pi``.

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

Functions given by an equation: binders ``(f g : ℝ → ℝ)``, ``(f : ℝ → ℝ → ℝ)``
(:class:`LFun`), definition hypotheses ``(h : ∀ x, f x = E)`` (also ``∀ x : ℝ,``,
``∀ (x y : ℝ),``: :class:`LDef`) and applications ``f t₁ … tₙ`` (node ``app``: application binds
tightest, its arguments are at max precedence, so ``f x ^ 2`` is ``(f x) ^ 2`` and ``f x⁻¹`` is
``f (x⁻¹)``). An application is real (``f : ℝ → ℝ``) and each argument is elaborated at ℝ
whatever its leaves (``f (1 / 3)`` is ``f`` at the real 1/3); the body is a real term with real
parameters, which shadow the theorem's variables. Evaluation is by environment: ``f t`` is the
body's value with each parameter bound to its argument's value (no substitution). The reader
takes a body over the parameters and the variables declared before the hypothesis, applying no
function, and exactly one equation per function. A definition hypothesis is true by
construction: it contributes no relation (:meth:`LStatement.flat_hypotheses`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from prover.semantics import lean_eval as L
from prover.semantics.lean_eval import Enclosure, Point, RelValue

MAX = 1024
RELATIONS = ("≤", "<", "≥", ">", "=", "≠")
ASCII_OP = {"≤": "<=", "<": "<", "≥": ">=", ">": ">", "=": "=", "≠": "!="}


class LeanTypeError(ValueError):
    """A term Lean would not elaborate (e.g. ``-`` or a variable inside a ℕ term)."""


def scan(text: str, token: re.Pattern[str]) -> tuple[list[str], list[bool]]:
    """The tokens of ``text`` (``->`` read as ``→``) and, per token, whether white space precedes
    it (Lean's ``noWs``), with a sentinel ``True`` at the end."""
    toks: list[str] = []
    spaced: list[bool] = []
    pos = 0
    while pos < len(text):
        m = token.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ReadError(f"unexpected text at {pos}: {text[pos:pos + 10]!r}")
        tok = m.group(m.lastindex or 0)
        toks.append("→" if tok == "->" else tok)
        spaced.append(m.start(m.lastindex or 0) > pos or pos == 0)
        pos = m.end()
    spaced.append(True)
    return toks, spaced


class ReadError(ValueError):
    """Text outside the subset :func:`read_lean` reads."""


@dataclass(frozen=True)
class LExpr:
    """``kind``: num var add sub mul div neg inv sqrt abs max min exp log logb pi pow cast paren app.

    ``value``: the numeral text (``"3"``, ``"0.5"``), variable name, root spelling (``"√"``,
    ``"Real.sqrt"``, ``"sqrt"``, or any other function name for printing), absolute value
    spelling (``"|"`` for bars, ``"abs"`` for the application), ascribed type
    (``"ℝ"``/``"ℕ"``), ``exp``/``log``/``logb``/``pi`` spelling (``"Real.exp"``, ``"exp"``, ``"rexp"``,
    ``"Real.logb"``, ``"logb"``, ``"Real.pi"``, ``"π"``, ``"pi"``, …) or
    applied function variable (``app``: ``args`` are its arguments).
    ``paren`` only prints parentheses.
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
class LFun:
    """A function variable ``name : ℝ → … → ℝ`` with ``arity`` real arguments."""

    name: str
    arity: int = 1


@dataclass(frozen=True)
class LDef:
    """``∀ params, function params = body``; ``binder`` is how the bound names are written:
    ``""`` (``∀ x y,``), ``":"`` (``∀ x y : ℝ,``) or ``"()"`` (``∀ (x y : ℝ),``)."""

    function: str
    params: tuple[str, ...]
    body: LExpr
    binder: str = ""


@dataclass(frozen=True)
class LHyp:
    name: str
    parts: tuple[LRel, ...]  # a conjunction when there are several; () for a definition
    #: ``name : x ∈ Set.Icc a b`` (then ``parts`` are :func:`membership_parts`)
    membership: LMem | None = None
    #: ``name : ∀ x, f x = E`` (then ``parts`` is empty: true by construction)
    definition: LDef | None = None


def membership_hyp(name: str, m: LMem) -> LHyp:
    return LHyp(name, membership_parts(m), m)


def definition_hyp(name: str, d: LDef) -> LHyp:
    return LHyp(name, (), definition=d)


def map_hypothesis(h: LHyp, f) -> LHyp:
    """``h`` with ``f`` applied to every term (a membership's operands, then its parts again; a
    definition's body)."""
    if h.definition is not None:
        return definition_hyp(h.name, replace(h.definition, body=f(h.definition.body)))
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
    functions: tuple[LFun, ...] = ()

    def flat_hypotheses(self) -> list[LRel]:
        """Hypotheses with conjunctions split, in order (as the front-end numbers them); a
        definition hypothesis gives none (the front-end drops it: true by construction)."""
        return [r for h in self.hypotheses for r in h.parts]

    def definitions(self) -> dict[str, LDef]:
        """Function name -> its defining equation (the last one, if written twice)."""
        return {h.definition.function: h.definition for h in self.hypotheses if h.definition is not None}


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


def app(function: str, *args: LExpr) -> LExpr:
    return LExpr("app", tuple(args), function)


#: the spelling of each transcendental function node when none is given
EXP_LOG = {"exp": "Real.exp", "log": "Real.log"}


def exp_log(kind: str, arg: LExpr, spelling: str = "") -> LExpr:
    """``Real.exp arg`` / ``Real.log arg`` (``kind``: ``"exp"``/``"log"``), spelled ``spelling``."""
    return LExpr(kind, (arg,), spelling or EXP_LOG[kind])


#: the spelling of a ``logb`` node when none is given
LOGB = "Real.logb"


def logb(base: LExpr, arg: LExpr, spelling: str = "") -> LExpr:
    """``Real.logb base arg`` (Mathlib: ``Real.log arg / Real.log base``), spelled ``spelling``."""
    return LExpr("logb", (base, arg), spelling or LOGB)


#: kinds printed as an application of a function name (``-`` before one needs no parentheses)
APPLIED = ("exp", "log", "logb")

#: the spelling of a ``pi`` node when none is given
PI = "Real.pi"


def real_pi(spelling: str = "") -> LExpr:
    """Mathlib's constant ``Real.pi`` (an atom), spelled ``spelling`` (``"π"``, ``"_root_.Real.pi"``, …)."""
    return LExpr("pi", (), spelling or PI)


def is_pi_name(t: str) -> bool:
    """A name the reader takes for a ``pi`` node (unless bound): ``π``, ``pi`` or any ``N.pi``."""
    return t in ("π", "pi") or (t.rpartition(".")[2] == "pi" and "." in t)


#: the kinds printed bare as an application argument (atoms)
ATOMS = ("num", "var", "paren", "cast", "pi")


def strip_parens(e: LExpr) -> LExpr:
    if e.kind == "paren":
        return strip_parens(e.args[0])
    return LExpr(e.kind, tuple(strip_parens(a) for a in e.args), e.value) if e.args else e


# ---------------------------------------------------------------- printing

_LEVEL = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "neg": 75, "sqrt": 100}
_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "^"}


def _level(e: LExpr) -> int:
    if e.kind == "abs":
        return MAX if e.value == "|" else MAX - 1
    if e.kind == "sqrt":
        return 100 if e.value == "√" else MAX - 1  # an application
    if e.kind == "app":
        return MAX - 1 if e.args else MAX
    if e.kind in ("max", "min", "exp", "log", "logb"):
        return MAX - 1
    return _LEVEL.get(e.kind, MAX)


def _show_argument(e: LExpr) -> str:
    """An application argument: at max precedence, so anything but an atom is parenthesized."""
    return show(e) if e.kind in ATOMS else f"({show(e)})"


def show(e: LExpr) -> str:
    """Lean text of ``e`` with the parentheses its precedences need (plus ``paren`` nodes)."""
    k, a = e.kind, e.args
    if k in ("num", "var"):
        return e.value
    if k == "pi":
        return e.value or PI
    if k == "paren":
        return f"({show(a[0])})"
    if k == "cast":
        return f"({show(a[0])} : {e.value})"
    if k in ("add", "sub", "mul", "div"):
        lv = _LEVEL[k]
        return f"{_wrap(a[0], lv)} {_SYM[k]} {_wrap(a[1], lv + 1)}"
    if k == "pow":
        return f"{_wrap(a[0], 76)} ^ {_wrap(a[1], 75)}"
    if k == "neg":   # `-Real.log x` is `-(Real.log x)`: `-` takes a term at 75, an application
        return f"-{show(a[0])}" if a[0].kind in APPLIED else f"-{_wrap(a[0], MAX)}"
    if k == "inv":
        return f"{_wrap(a[0], MAX)}⁻¹"
    if k == "sqrt":
        if e.value == "√":
            arg = a[0]
            ok = arg.kind in ATOMS + ("inv",) or (arg.kind == "sqrt" and arg.value == "√")
            return f"√{show(arg) if ok else '(' + show(arg) + ')'}"
        return f"{e.value or 'Real.sqrt'} {_show_argument(a[0])}"
    if k == "abs":
        if e.value != "|":
            return f"{e.value} {_show_argument(a[0])}"
        inner = show(a[0])   # a bar touching another is the token `||`: parenthesize
        return f"|({inner})|" if inner.startswith("|") or inner.endswith("|") else f"|{inner}|"
    if k == "app":
        return " ".join([e.value, *(_show_argument(x) for x in a)])
    if k in ("max", "min"):
        return f"{k} {_show_argument(a[0])} {_show_argument(a[1])}"
    if k in EXP_LOG:   # `Real.log x⁻¹` is `Real.log (x⁻¹)` (`⁻¹` is postfix:max): printed bare
        return f"{e.value or EXP_LOG[k]} {_show_bare_inverse(a[0])}"
    if k == "logb":
        return f"{e.value or LOGB} {_show_bare_inverse(a[0])} {_show_bare_inverse(a[1])}"
    raise ValueError(f"unknown node {k!r}")


def _show_bare_inverse(arg: LExpr) -> str:
    """An application argument, ``x⁻¹``/``2⁻¹`` written bare (``⁻¹`` is ``postfix:max``: it binds to
    the argument, so ``Real.log x⁻¹`` is ``Real.log (x⁻¹)``)."""
    bare = arg.kind == "inv" and arg.args[0].kind in ("num", "var", "pi")
    return show(arg) if bare else _show_argument(arg)


def _wrap(e: LExpr, need: int) -> str:
    s = show(e)
    return s if _level(e) >= need else f"({s})"


def show_rel(r: LRel) -> str:
    return f"{show(r.lhs)} {r.op} {show(r.rhs)}"


def show_membership(m: LMem) -> str:
    args = [show(b) if b.kind in ATOMS else f"({show(b)})" for b in m.bounds]
    return f"{show(m.element)} ∈ {' '.join([m.spelling, *args])}"


def show_definition(d: LDef) -> str:
    names = " ".join(d.params)
    bound = {"": names, ":": f"{names} : ℝ", "()": f"({names} : ℝ)"}[d.binder]
    return f"∀ {bound}, {show_rel(LRel('=', app(d.function, *map(var, d.params)), d.body))}"


def show_hypothesis(h: LHyp) -> str:
    if h.definition is not None:
        return show_definition(h.definition)
    if h.membership is not None:
        return show_membership(h.membership)
    return " ∧ ".join(show_rel(r) for r in h.parts)


def show_function_binders(functions: tuple[LFun, ...]) -> list[str]:
    """``(f g : ℝ → ℝ)``: consecutive functions of one arity share a binder."""
    out: list[str] = []
    i = 0
    while i < len(functions):
        j = i
        while j < len(functions) and functions[j].arity == functions[i].arity:
            j += 1
        names = " ".join(f.name for f in functions[i:j])
        out.append(f"({names} : {' → '.join(['ℝ'] * (functions[i].arity + 1))})")
        i = j
    return out


def show_statement(s: LStatement) -> str:
    """Variables first, then function variables, then the hypotheses in order."""
    parts = [f"theorem {s.name}"]
    if s.variables:
        parts.append(f"({' '.join(s.variables)} : ℝ)")
    parts += show_function_binders(s.functions)
    for h in s.hypotheses:
        parts.append(f"({h.name} : {show_hypothesis(h)})")
    return " ".join(parts) + f" : {show_rel(s.goal)} := by sorry"


# ---------------------------------------------------------------- reading

_IDENT = r"[A-Za-z_][A-Za-z0-9_'₀-₉]*"
_TOKEN = re.compile(rf"\s*(?:(\d+(?:\.\d+)?)|({_IDENT}(?:\.{_IDENT})*)|"
                    r"(:=|<=|>=|->|⁻¹|\|\|\|?|\|>\.?|<\|>?|[-+*/^(){}√:≤<≥>=≠∧∈ℝℕ∀,→|π]))")
_BIN = {"+": ("add", 65), "-": ("sub", 65), "*": ("mul", 70), "/": ("div", 70), "^": ("pow", 75)}
_REL_TEXT = {"≤": "≤", "<": "<", "≥": "≥", ">": ">", "=": "=", "≠": "≠", "<=": "≤", ">=": "≥"}


class _Reader:
    def __init__(self, text: str) -> None:
        #: the tokens, and white space before each (a sentinel at the end): Lean's ``noWs`` test
        self.toks, self.spaced = scan(text, _TOKEN)
        self.i = 0
        self.functions: dict[str, int] = {}  # function variables declared so far -> arity
        self.bound: set[str] = set()         # variables (and a definition's parameters) in scope

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
        if t == "|":
            return self._bars()
        if t in self.functions:
            args = []
            while self._argument_follows():
                args.append(self.argument())
            return app(t, *args)
        if is_pi_name(t):
            return self._pi_or_variable(t)
        if t.endswith(".sqrt") or (t == "sqrt" and self._argument_follows()):
            return op1("sqrt", self.argument(), t)
        if t == "abs" and self._argument_follows():
            return op1("abs", self.argument(), "abs")
        kind = _exp_log_kind(t)
        if kind and (t.endswith(f".{kind}") or self._argument_follows()):
            return exp_log(kind, self.argument(), t)
        if t.rpartition(".")[2] == "logb" and (t.endswith(".logb") or self._argument_follows()):
            return self._logb(t)
        if t in ("max", "min") and self._argument_follows():
            first = self.argument()
            if not self._argument_follows():
                raise ReadError(f"`{t}` needs two arguments")
            return op2(t, first, self.argument())
        if _is_ident(t):
            return var(t)
        raise ReadError(f"unexpected token {t!r}")

    def _pi_or_variable(self, t: str) -> LExpr:
        """A ``pi`` node spelled ``t`` (``Real.pi``, ``π``, ``pi``, any ``N.pi``), or the variable ``π``/``pi``
        where the statement binds that name (a local shadows the constant; a bound ``π`` is no notation)."""
        return var(t) if t in self.bound else real_pi(t)

    def _logb(self, spelling: str) -> LExpr:
        """``logb b x`` after the name: two arguments at max precedence (no partial application)."""
        base = self.argument()
        if not self._argument_follows():
            raise ReadError(f"`{spelling}` needs two arguments (found {self.peek()!r})")
        return logb(base, self.argument(), spelling)

    def _bars(self) -> LExpr:
        """``|e|`` after its opening bar: no space after that bar, the term at precedence 0, then
        a closing bar with no space before it."""
        if self.spaced[self.i]:
            raise ReadError("space after the opening bar `|`")
        inner = self.expr(0)
        if self.peek() != "|" or self.spaced[self.i]:
            raise ReadError(f"expected a closing bar `|` touching the term, found {self.peek()!r}")
        self.take()
        return op1("abs", inner, "|")

    def _argument_follows(self) -> bool:
        """Does an application argument follow (``sqrt`` applied rather than a variable)? An
        argument needs a space before it; a bar opens one only with no space after it."""
        t = self.peek()
        if t == "|":
            return self.spaced[self.i] and not self.spaced[self.i + 1]
        return t == "(" or bool(t) and (t[0].isdigit() or _is_ident(t) or is_pi_name(t))

    def argument(self) -> LExpr:
        """An argument at max precedence: an atom, with ``⁻¹`` (``postfix:max``): ``f x⁻¹`` is
        ``f (x⁻¹)``."""
        t = self.take()
        if t in ("(", "|"):
            self.i -= 1
            out = self.leading()
        elif t and is_pi_name(t):
            out = self._pi_or_variable(t)
        elif t and (t[0].isdigit() or _is_ident(t)):
            out = num(t) if t[0].isdigit() else var(t)
        else:
            raise ReadError(f"unsupported function argument {t!r}")
        while self.peek() == "⁻¹":
            self.take()
            out = op1("inv", out)
        return out

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
        functions: list[LFun] = []
        hyps: list[LHyp] = []
        while self.peek() in ("(", "{"):
            close = ")" if self.take() == "(" else "}"
            names = []
            while self.peek() != ":":
                names.append(self.take())
            self.take(":")
            arity = self.arrow_type(close)
            if arity == 0:
                variables.extend(names)
                self.bound.update(names)
            elif arity is not None:
                functions.extend(LFun(n, arity) for n in names)
                self.functions.update((n, arity) for n in names)
            else:
                hyps.extend(self.hypothesis(names, variables))
            self.take(close)
        self.take(":")
        goal = self.parenthesized_prop()
        if len(goal) != 1:
            raise ReadError("conjunction in the goal")
        _check_one_definition_each(functions, hyps)
        return LStatement(name, tuple(variables), tuple(hyps), goal[0], tuple(functions))

    def arrow_type(self, close: str) -> int | None:
        """Consume a binder type ``ℝ (→ ℝ)*`` followed by ``close`` and give its number of
        arrows (0: a real variable); None (nothing consumed) for any other binder type."""
        k = self.i
        while k < len(self.toks) and self.toks[k] in ("ℝ", "Real"):
            if k + 1 < len(self.toks) and self.toks[k + 1] == close:
                arity = (k - self.i) // 2
                self.i = k + 1
                return arity
            if k + 1 >= len(self.toks) or self.toks[k + 1] != "→":
                return None
            k += 2
        return None

    def hypothesis(self, names: list[str], declared: list[str]) -> list[LHyp]:
        """The hypotheses ``(names : P)``: a definition, a membership or a proposition."""
        if self.peek() == "∀":
            d = self.definition(declared)
            return [definition_hyp(n, d) for n in names]
        start = self.i
        element = self.expr(51)
        if self.peek() == "∈":
            self.take()
            spelling = self.take()
            short = spelling.rpartition(".")[2]
            if short not in INTERVALS:
                raise ReadError(f"membership in {spelling!r}")
            m = LMem(spelling, element, tuple(self.argument() for _ in INTERVALS[short]))
            return [membership_hyp(n, m) for n in names]
        self.i = start
        parts = self.prop()
        return [LHyp(n, parts) for n in names]

    def definition(self, declared: list[str]) -> LDef:
        """``∀ params, f params = body``: the body over the params and the variables ``declared``
        before it (anything else is a Lean error: unknown identifier), applying no function."""
        self.take("∀")
        params, binder = self.bound_names()
        outside, self.bound = self.bound, self.bound | set(params)
        lhs = self.expr(51)
        if self.take() != "=":
            raise ReadError("a definition is `∀ x, f x = …`")
        body = self.expr(51)
        self.bound = outside
        if lhs.kind != "app" or lhs.args != tuple(map(var, params)):
            raise ReadError("a definition is `∀ x y, f x y = …` (the bound names in order)")
        if any(e.kind == "app" for e in subterms(body)):
            raise ReadError(f"the body of `{lhs.value}` applies a function")
        unknown = sorted(free_variables(body) - set(params) - set(declared))
        if unknown:
            raise ReadError(f"unknown identifier `{unknown[0]}` in the body of `{lhs.value}`")
        return LDef(lhs.value, params, body, binder)

    def bound_names(self) -> tuple[tuple[str, ...], str]:
        """The names bound by ``∀ x y,``, ``∀ x y : ℝ,`` or ``∀ (x y : ℝ) (z : ℝ),`` and the style."""
        names: list[str] = []
        binder = "()" if self.peek() == "(" else ""
        while binder and self.peek() == "(":
            self.take()
            while self.peek() not in (":", ""):
                names.append(self.take())
            self.take(":")
            self.real_type()
            self.take(")")
        while not binder and self.peek() not in (",", ":", ""):
            names.append(self.take())
        if not binder and self.peek() == ":":
            self.take()
            self.real_type()
            binder = ":"
        self.take(",")
        if not names or len(set(names)) != len(names) or \
                any(not _is_ident(n) or n in self.functions for n in names):
            raise ReadError(f"unsupported bound names {names}")
        return tuple(names), binder

    def real_type(self) -> None:
        if self.take() not in ("ℝ", "Real"):
            raise ReadError("a bound name of a definition must be real")


def _exp_log_kind(t: str) -> str:
    """``"exp"``/``"log"`` for a name that may denote ``Real.exp``/``Real.log`` (``exp``, ``rexp``,
    ``N.exp``, ``log``, ``N.log``), else ``""``."""
    if t == "rexp":
        return "exp"
    short = t.rpartition(".")[2]
    return short if short in EXP_LOG else ""


def _is_ident(t: str) -> bool:
    return re.fullmatch(_IDENT, t) is not None


def subterms(e: LExpr) -> Iterator[LExpr]:
    """``e`` and all its subterms, outermost first."""
    yield e
    for a in e.args:
        yield from subterms(a)


def free_variables(e: LExpr) -> set[str]:
    return {x.value for x in subterms(e) if x.kind == "var"}


def _check_one_definition_each(functions: list[LFun], hyps: list[LHyp]) -> None:
    """Evaluation needs exactly one defining equation per function variable."""
    defined = [h.definition.function for h in hyps if h.definition is not None]
    for f in functions:
        if defined.count(f.name) != 1:
            raise ReadError(f"`{f.name}` needs exactly one defining equation, has {defined.count(f.name)}")


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
        return replace(obj, hypotheses=hyps, goal=_expand_rel(obj.goal))
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
    if k in ("var", "sqrt", "app", "exp", "log", "logb", "pi"):
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


#: function variable -> its defining equation (:meth:`LStatement.definitions`)
Definitions = Mapping[str, LDef]


def value(e: LExpr, point: Point, real_division: bool = False, defs: Definitions | None = None) -> Enclosure:
    """The real value of ``e`` (elaborated at type ℝ) at ``point``; may raise Undecidable.
    ``defs``: the definitions of the function variables ``e`` applies."""
    if real_division:
        return value(_expand(e), point, defs=_expand_definitions(defs))
    k, a = e.kind, e.args

    def v(x: LExpr) -> Enclosure:
        return value(x, point, defs=defs)

    if k == "num":
        return Enclosure.exact(Fraction(e.value))
    if k == "var":
        return L.enclosure(point[e.value])
    if k == "pi":
        return L.real_pi()
    if k in ("paren", "cast"):
        return v(a[0]) if k == "paren" or e.value == "ℝ" else Enclosure.exact(_nat_value(a[0]))
    if k in _REAL_OPS:
        return _REAL_OPS[k](*map(v, a))
    if k == "pow":
        base = v(a[0])
        if is_real(a[1]):
            exponent = v(a[1])
            _check_power_size(base, max(abs(exponent.lo), abs(exponent.hi)))
            return L.rpow(base, exponent)
        n = _nat_value(a[1])
        _check_power_size(base, n)
        return L.npow(base, n)
    if k == "app":
        return _apply(e, point, defs)
    raise ValueError(f"unknown node {k!r}")


#: a power whose value would have more bits than this is not evaluated (Undecidable)
MAX_POWER_BITS = 200_000


def _check_power_size(base: Enclosure, exponent: Fraction | int) -> None:
    """Raise Undecidable where ``base ^ e`` (``|e| ≤ exponent``) is too large to compute exactly:
    nested applications reach such powers (``f (f x)`` with ``f t = t ^ t``)."""
    bits = max(abs(q.numerator.bit_length() - q.denominator.bit_length()) for q in (base.lo, base.hi))
    trivial = base.is_exact and abs(base.lo) in (0, 1)
    if not trivial and (exponent > 10 ** 6 or bits * exponent > MAX_POWER_BITS):
        raise L.Undecidable("power too large to evaluate")


_REAL_OPS = {"add": L.add, "sub": L.sub, "mul": L.mul, "div": L.div, "neg": L.neg, "inv": L.inv,
             "sqrt": L.sqrt, "abs": L.absolute, "max": L.maximum, "min": L.minimum,
             "exp": L.exp, "log": L.log, "logb": L.logb}


def _apply(e: LExpr, point: Point, defs: Definitions | None) -> Enclosure:
    """``f t₁ … tₙ``: the body of ``f`` in the environment ``point`` with each parameter bound to
    its argument's value (each argument elaborated at ℝ), parameters shadowing variables."""
    d = (defs or {}).get(e.value)
    if d is None:
        raise ValueError(f"no definition of the function `{e.value}`")
    if len(d.params) != len(e.args):
        raise LeanTypeError(f"`{e.value}` takes {len(d.params)} arguments, given {len(e.args)}")
    env = dict(point)
    env.update(zip(d.params, (value(x, point, defs=defs) for x in e.args)))
    return value(d.body, env, defs=defs)


def _expand_definitions(defs: Definitions | None) -> Definitions | None:
    return None if defs is None else {f: replace(d, body=_expand(d.body)) for f, d in defs.items()}


def rel_value(r: LRel, point: Point, real_division: bool = False, defs: Definitions | None = None) -> RelValue:
    """``defs``: the definitions of the function variables ``r`` applies."""
    if real_division:
        r, defs = _expand_rel(r), _expand_definitions(defs)
    op = ASCII_OP[r.op]
    if not (is_real(r.lhs) or is_real(r.rhs)):
        lv, rv = Enclosure.exact(_nat_value(r.lhs)), Enclosure.exact(_nat_value(r.rhs))
        return RelValue(lv, op, rv)
    return RelValue(guarded(lambda: value(r.lhs, point, defs=defs)), op,
                    guarded(lambda: value(r.rhs, point, defs=defs)))


def guarded(f: Callable[[], Enclosure]) -> Enclosure | None:
    """``f()``, or None when it is undecidable or too large to compute (nested applications of a
    power, e.g. ``f (f (f x))`` with ``f x = x ^ (5 / 2 : ℝ)``, overflow the interval library)."""
    try:
        return L.guarded(f)
    except OverflowError:
        return None


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
        defs = obj.definitions()
        return StatementValue(tuple(rel_value(r, point, defs=defs) for r in obj.flat_hypotheses()),
                              rel_value(obj.goal, point, defs=defs))
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
    (the macro's operands are ascribed ℝ). An application is real, its arguments and a definition's
    body are elaborated at ℝ; a function variable applied to other than its arity of arguments, an
    undeclared one, and a body naming other than the parameters and the theorem's variables are
    errors (:func:`_check_functions`).
    """
    if real_division:
        obj = expand_real_division(obj)
    rels = ([r for h in obj.hypotheses for r in h.parts] + [obj.goal] if isinstance(obj, LStatement)
            else [obj] if isinstance(obj, LRel) else [])
    try:
        if isinstance(obj, LExpr):
            _check(obj, True)
        if isinstance(obj, LStatement):
            _check_functions(obj, rels)
        for r in rels:
            real = is_real(r.lhs) or is_real(r.rhs)
            _check(r.lhs, real)
            _check(r.rhs, real)
    except LeanTypeError as exc:
        return str(exc)
    return None


def elaborates_at_nat(e: LExpr) -> bool:
    """Does ``e`` elaborate as a ℕ term (numerals, ``+ - * / ^``, ``(… : ℕ)``)?"""
    try:
        _check(e, False)
    except LeanTypeError:
        return False
    return True


def _check(e: LExpr, real: bool) -> None:
    """Raise LeanTypeError where ``e``, elaborated as ℝ (``real``) or as ℕ, is ill-typed."""
    k, a = e.kind, e.args
    if k == "num":
        if not real and not e.value.isdigit():
            raise LeanTypeError(f"decimal {e.value} in a ℕ term")
    elif k in ("var", "sqrt", "abs", "neg", "inv", "app", "max", "min", "exp", "log", "logb", "pi"):
        # ℕ has no `abs`; max/min read at ℝ only; the arguments of exp/log/logb are elaborated at ℝ;
        # `Real.pi : ℝ` (no coercion ℝ → ℕ: `(Real.pi : ℕ)` does not elaborate)
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


def _check_functions(s: LStatement, rels: list[LRel]) -> None:
    """Raise LeanTypeError for a misused function variable or an ill-typed definition."""
    arity = {f.name: f.arity for f in s.functions}
    defs = [h.definition for h in s.hypotheses if h.definition is not None]
    terms = [x for r in rels for x in (r.lhs, r.rhs)] + [d.body for d in defs]
    for e in (x for t in terms for x in subterms(t)):
        if e.kind == "var" and e.value in arity:
            raise LeanTypeError(f"the function `{e.value}` is not applied")
        if e.kind == "app" and arity.get(e.value) != len(e.args):
            raise LeanTypeError(f"`{e.value}` applied to {len(e.args)} arguments: "
                                + ("unknown identifier" if e.value not in arity else f"it takes {arity[e.value]}"))
    for d in defs:
        if arity.get(d.function) != len(d.params):
            raise LeanTypeError(f"a definition of `{d.function}` with {len(d.params)} parameters")
        unknown = sorted(free_variables(d.body) - set(d.params) - set(s.variables))
        if unknown:
            raise LeanTypeError(f"unknown identifier `{unknown[0]}` in the body of `{d.function}`")
        _check(d.body, True)
