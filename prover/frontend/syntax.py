"""Pratt parser for Lean 4 terms (numbers, ``+ - * / ^ ⁻¹``, ``√``/``sqrt``, ``|a|``/``abs``,
comparisons, ``∧``)
into a small AST; typing and sympy conversion happen in :mod:`prover.frontend.elaborate`.

Precedences follow Lean 4 core and Mathlib: ``∧`` 35 (right), comparisons 50 (no chaining),
``+ -`` 65 (left), ``* /`` 70 (left), unary ``-`` 75 (its operand at 75, so ``-x ^ 2`` is
``-(x ^ 2)``), ``^`` 75 (right), ``⁻¹`` and function application at max precedence (so
``sqrt x ^ 2`` is ``(sqrt x) ^ 2`` and ``√x⁻¹`` is ``√(x⁻¹)``), ``|a|`` at max precedence
(Mathlib's ``macro:max``, with its no-space rule; see :meth:`TermParser._abs`). ``x ∈ S a b`` (``infix:50``)
is read only for an interval ``S`` (``Set.Icc`` …, resolved by the caller's set resolver) applied
to exactly its bounds (node ``mem``). Unsupported constructs are refused where they are met,
naming the construct.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from prover.frontend.errors import Located
from prover.frontend.lexer import Token
from prover.frontend.names import (
    INTERVALS,
    MODELLED,
    SHORT_NAMES,
    NameContext,
    NameError_,
    resolve_function,
    resolve_interval,
)

MAX = 1024

#: op -> (precedence, minimum level of the left operand, precedence of the right operand)
BINARY: dict[str, tuple[int, int, int]] = {
    "+": (65, 65, 66), "-": (65, 65, 66), "*": (70, 70, 71), "/": (70, 70, 71),
    "^": (75, 76, 75), "∧": (35, 36, 35),
    "≤": (50, 51, 51), "<": (50, 51, 51), "≥": (50, 51, 51), ">": (50, 51, 51),
    "=": (50, 51, 51), "≠": (50, 51, 51), "<=": (50, 51, 51), ">=": (50, 51, 51),
}
RELATIONS = {"≤": "<=", "<": "<", "≥": ">=", ">": ">", "=": "=", "≠": "!=", "<=": "<=", ">=": ">="}

#: infix tokens we know but refuse: token -> (precedence, what it is)
UNSUPPORTED_INFIX: dict[str, tuple[int, str]] = {
    "∨": (30, "disjunction `∨`"), "→": (25, "implication `→`"), "->": (25, "implication `->`"),
    "↔": (20, "iff `↔`"), "<->": (20, "iff `<->`"), "%": (70, "modulo `%`"),
    "∣": (50, "divisibility `∣`"), "∉": (50, "non-membership `∉`"),
    "•": (73, "scalar multiplication `•`"), "∘": (90, "composition `∘`"), "×": (35, "product type `×`"),
    "!=": (50, "`!=` (Bool inequality; write `≠`)"), "·": (70, "`·`"),
    "..": (50, "range `..`"),
}

#: Lean tokens that contain a bar but are no bar of ``|a|`` (refused wherever they are met).
BAR_TOKENS = {
    "||": "`||` is one Lean token (Boolean or), not two bars: write `|(x - |y|)|` or `(|x|)`",
    "|||": "`|||` is one Lean token (bitwise or), not bars of absolute values",
    "|>": "`|>` is one Lean token (pipeline), not a bar then `>`: write `|x| > …` with a space",
    "|>.": "`|>.` is one Lean token (pipeline), not a bar of an absolute value",
    "<|": "`<|` is one Lean token (pipeline), not `<` then a bar: write `… < |x|` with a space",
    "<|>": "`<|>` is one Lean token (alternative), not bars of absolute values",
    "|ₘ": "multiplicative absolute value `|a|ₘ` (`mabs`) is not supported",
}

#: Resolves a function name applied to an argument: (name token, argument) -> node kind
#: (``"sqrt"``), raising :class:`Located` when the name does not denote a function we read.
Resolver = Callable[[Token, "SyntaxNode"], str]
#: Resolves the set name of a membership ``x ∈ S a b`` to a constant of :data:`INTERVALS`,
#: raising :class:`Located` otherwise.
SetResolver = Callable[[Token], str]


def lips_resolver(name: Token, argument: SyntaxNode) -> str:
    """The LIPS header's reading: ``sqrt`` is a prefix notation for ``Real.sqrt`` (with
    ``open Real``); every other name is resolved by :mod:`prover.frontend.names`."""
    try:
        return MODELLED[resolve_function(name.text, NameContext(opens=frozenset({"Real"}),
                                                                 sqrt_notation=True), True)]
    except NameError_ as exc:
        raise Located(str(exc), name.pos) from None


def lips_set_resolver(name: Token) -> str:
    """Set names under the LIPS header (``open Real``): as :mod:`prover.frontend.names` resolves."""
    try:
        return resolve_interval(name.text, NameContext(opens=frozenset({"Real"})))
    except NameError_ as exc:
        raise Located(str(exc), name.pos) from None


#: Functions of two arguments among :data:`SHORT_NAMES` (``max a b``, ``min a b``, ``Real.logb b x``).
BINARY_FUNCTIONS = frozenset({"max", "min", "logb"})
#: Functions of one argument read as Lean reads an application (``Real.exp x ^ 2`` is
#: ``(Real.exp x) ^ 2``, ``Real.exp -x`` is a subtraction): ``exp``, ``log``.
APPLIED_FUNCTIONS = frozenset({"exp", "log"})
#: How the refusal of an unknown function lists the ones we read.
KNOWN_FUNCTIONS_TEXT = ("only `Real.sqrt`, `sqrt`, `√`, `abs`, `|x|`, `max`, `min`, `Real.exp`, `Real.log` and "
                        "`Real.logb` are supported")


def is_function_name(name: str) -> bool:
    """Names read as functions (resolved by the resolver): ``sqrt`` and any ``….sqrt``."""
    return name.rpartition(".")[2] in SHORT_NAMES
TYPE_NAMES = {"ℝ": "R", "Real": "R", "ℕ": "N", "Nat": "N", "ℤ": "Z", "Int": "Z",
              "ℚ": "Q", "Rat": "Q", "ℂ": "C", "Complex": "C", "Prop": "Prop", "Type": "Type",
              "NNReal": "NNReal", "ℝ≥0": "NNReal", "EReal": "EReal", "Bool": "Bool"}

_LEADING_REFUSED = {
    "∀": "universal quantifier `∀` is not supported (declare variables as binders)",
    "∃": "existential quantifier `∃` is not supported",
    "¬": "negation `¬` is not supported (write `≠` or flip the comparison)",
    "∑": "big operator `∑` is not supported",
    "∏": "big operator `∏` is not supported",
    "λ": "lambda `λ` is not supported",
    "⟨": "anonymous constructor `⟨…⟩` is not supported",
    "·": "`·` placeholder is not supported",
    "@": "explicit application `@` is not supported",
    "⌊": "floor `⌊x⌋` is not supported",
    "⌈": "ceiling `⌈x⌉` is not supported",
    "ℯ": "`ℯ` is not supported",
    "∞": "`∞` is not supported",
    "!": "`!` is not supported",
}

_KEYWORDS_REFUSED = {"fun", "if", "then", "else", "let", "have", "show", "by", "match", "do",
                     "at", "with", "from", "calc", "Type", "Sort", "Prop", "where", "sorry"}

_FUNCTIONS_REFUSED = {
    "Real.sin", "Real.cos", "Real.tan", "Real.arctan",
    "Real.rpow", "Real.cosh", "Real.sinh", "sin", "cos", "tan",
    "Finset.sum", "Finset.prod", "Finset.range", "Finset.univ", "Real.nnabs", "Int.floor", "Int.ceil",
    "Nat.floor", "Nat.ceil", "Real.toNNReal", "deriv", "HPow.hPow", "Real.cbrt", "cbrt", "inv",
    "Nat.factorial", "Nat.choose", "choose", "norm", "dist", "Complex.abs", "id", "Real.arcsin",
    "Real.arccos", "Real.sqrt'", "Nat.succ", "Real.exp'", "Polynomial.eval", "Finset.card",
}

_SUPERSCRIPTS = "¹²³⁰⁴⁵⁶⁷⁸⁹"


@dataclass(frozen=True)
class SyntaxNode:
    kind: str                 # num var add sub mul div pow neg inv sqrt abs max min exp log ascribe rel and mem
    pos: int
    args: tuple[SyntaxNode, ...] = ()
    value: str = ""           # number text, variable name, relation op, ascribed type, interval
    level: int = MAX          # Lean precedence level of the term (for chaining checks)


def describe(tok: Token) -> str:
    return "end of input" if tok.kind == "eof" else f"`{tok.text}`"


class TermParser:
    """Parses terms from a token list, starting at ``index``; the caller reads on from ``index``."""

    def __init__(self, tokens: list[Token], index: int = 0, resolve: Resolver | None = None,
                 adjacent_arguments: bool = True, resolve_set: SetResolver | None = None,
                 functions: dict[str, int] | None = None,
                 big_sum: Callable[[TermParser, Token], SyntaxNode] | None = None) -> None:
        self.toks = tokens
        #: reads ``∑``/``∏`` (statements over n terms, :mod:`prover.frontend.nterm`); None: refused
        self.big_sum = big_sum
        #: function variables in scope (``(f : ℝ → ℝ)``): name -> arity; shared with the caller
        self.functions: dict[str, int] = functions if functions is not None else {}
        self.i = index
        self.resolve = resolve or lips_resolver
        self.resolve_set = resolve_set or lips_set_resolver
        #: ``sqrt(x)`` with no space: an application only under the LIPS prefix notation
        #: (Lean's ``argument`` parser needs whitespace before an argument).
        self.adjacent_arguments = adjacent_arguments
        #: how many ``|a|`` are open around the term being read (a bar touching the term before
        #: it closes the innermost one)
        self.abs_depth = 0

    # -- token helpers
    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def advance(self) -> Token:
        t = self.peek()
        self.i += 1
        return t

    def at(self, text: str) -> bool:
        t = self.peek()
        return t.kind in ("op", "ident") and t.text == text

    def expect(self, text: str, what: str = "") -> Token:
        if not self.at(text):
            t = self.peek()
            raise Located(f"expected `{text}`{what}, found {describe(t)}", t.pos)
        return self.advance()

    # -- the Pratt loop
    def term(self, min_prec: int = 0) -> SyntaxNode:
        left = self.leading(min_prec)
        while True:
            t = self.peek()
            if t.kind == "op" and t.text in BINARY:
                prec, lhs_min, rhs_prec = BINARY[t.text]
                if prec < min_prec:
                    break
                if left.level < lhs_min:
                    if prec == 50:
                        raise Located(f"chained comparison at `{t.text}` is not supported (split it with `∧`)",
                                      t.pos)
                    raise Located(f"`{t.text}` cannot follow this term without parentheses", t.pos)
                self.advance()
                right = self.term(rhs_prec)
                left = self._binary(t, left, right, prec)
            elif t.kind == "op" and t.text == "∈":
                if 50 < min_prec:
                    break
                if left.level < 51:
                    raise Located(f"`{t.text}` cannot follow this term without parentheses", t.pos)
                self.advance()
                left = self._membership(t, left)
            elif t.kind == "op" and t.text == "⁻¹":
                self.advance()
                left = SyntaxNode("inv", t.pos, (left,), level=MAX)
            elif t.kind == "op" and (t.text == "|" or t.text in BAR_TOKENS):
                self._closing_bar(t)
                break
            elif t.kind == "op" and t.text in UNSUPPORTED_INFIX:
                prec, what = UNSUPPORTED_INFIX[t.text]
                if prec < min_prec and t.text not in ("!=",):
                    break
                raise Located(f"{what} is not supported", t.pos)
            elif t.kind in ("num", "ident") or (t.kind == "op" and t.text in ("(", "√")):
                if t.kind == "ident" and t.text in _KEYWORDS_REFUSED:
                    break
                raise Located(f"unexpected {describe(t)} (missing operator, or an application of a "
                              "non-function?)", t.pos)
            elif t.kind == "?" and t.text in _SUPERSCRIPTS:
                raise Located(f"superscript `{t.text}` is not Lean syntax for a power (write `x ^ n`)", t.pos)
            else:
                break
        return left

    @staticmethod
    def _binary(t: Token, left: SyntaxNode, right: SyntaxNode, prec: int) -> SyntaxNode:
        if t.text in RELATIONS:
            return SyntaxNode("rel", t.pos, (left, right), RELATIONS[t.text], level=prec)
        if t.text == "∧":
            if left.kind == "and":   # `(A ∧ B) ∧ C`: `h.1` is `A ∧ B` in Lean, not `A`
                raise Located("a conjunction on the left of `∧` is not supported (write `A ∧ B ∧ C`)", t.pos)
            parts = (left, *(right.args if right.kind == "and" else (right,)))
            return SyntaxNode("and", t.pos, parts, level=prec)
        kind = {"+": "add", "-": "sub", "*": "mul", "/": "div", "^": "pow"}[t.text]
        return SyntaxNode(kind, t.pos, (left, right), level=prec)

    def leading(self, min_prec: int) -> SyntaxNode:
        t = self.peek()
        if t.kind == "num":
            self.advance()
            return SyntaxNode("num", t.pos, value=t.text)
        if t.kind == "ident":
            return self._identifier(t, min_prec)
        if t.kind == "op":
            if t.text == "(":
                return self._paren(t)
            if t.text == "√":
                self.advance()
                return SyntaxNode("sqrt", t.pos, (self._argument(t),))
            if t.text == "-":
                if min_prec > 75:
                    raise Located("a negation `-x` here needs parentheses: `(-x)`", t.pos)
                self.advance()
                return SyntaxNode("neg", t.pos, (self.term(75),), level=75)
            if t.text in BAR_TOKENS:
                raise Located(BAR_TOKENS[t.text], t.pos)
            if t.text in ("∑", "∏") and self.big_sum is not None:
                return self.big_sum(self, t)
            if t.text in _LEADING_REFUSED:
                raise Located(_LEADING_REFUSED[t.text], t.pos)
            if t.text == "π":      # a scoped notation: the resolver says whose
                self.advance()
                return SyntaxNode(self.resolve(t, SyntaxNode("var", t.pos, value="π")), t.pos)
            if t.text == "|":
                return self._abs(t)
        if t.kind == "?":
            if t.text in _SUPERSCRIPTS:
                raise Located(f"superscript `{t.text}` is not Lean syntax for a power (write `x ^ n`)", t.pos)
            raise Located(f"unexpected character `{t.text}`", t.pos)
        raise Located(f"expected an expression, found {describe(t)}", t.pos)

    def _identifier(self, t: Token, min_prec: int = 0) -> SyntaxNode:
        name = t.text
        if name in self.functions:
            if min_prec >= MAX:   # an argument (`√a i`, `Real.sqrt f x`) is read at max precedence
                raise Located(f"`{name} …` here is not an argument: an application is not read at max "
                              f"precedence, so Lean reads `(√{name}) …`; write `({name} …)`", t.pos)
            return self._application(t)
        if "." in name and name.rpartition(".")[2] == "pi":
            # `Real.pi` (qualified; a short `pi` is never it: `Real.pi` is protected, so even inside
            # `namespace Real` a short `pi` is a variable or unknown)
            self.advance()
            return SyntaxNode(self.resolve(t, SyntaxNode("var", t.pos, value=name)), t.pos)
        if is_function_name(name) and name.rpartition(".")[2] in BINARY_FUNCTIONS:
            return self._max_min(t)
        if is_function_name(name) and name.rpartition(".")[2] in APPLIED_FUNCTIONS:
            self.advance()
            args = self._arguments(t, 1)
            return SyntaxNode(self.resolve(t, args[0]), t.pos, tuple(args))
        if is_function_name(name):
            self.advance()
            nxt = self.peek()
            strict = not self.adjacent_arguments or name.rpartition(".")[2] != "sqrt"
            if strict and nxt.pos == t.pos + len(name) and nxt.kind != "eof":
                raise Located(f"`{name}{nxt.text}…`: Lean needs a space between a function and its "
                              f"argument (write `{name} {nxt.text}…`)", nxt.pos)
            arg = self._argument(t)
            return SyntaxNode(self.resolve(t, arg), t.pos, (arg,))
        if name in _FUNCTIONS_REFUSED:
            raise Located(f"function `{name}` is not supported", t.pos)
        if name in _KEYWORDS_REFUSED:
            raise Located(f"`{name}` is not supported in a statement", t.pos)
        if name in TYPE_NAMES:
            raise Located(f"unexpected type `{name}` in an expression", t.pos)
        self.advance()
        nxt = self.peek()
        starts_term = nxt.kind in ("num", "ident") or (nxt.kind == "op" and nxt.text in ("(", "√"))
        if starts_term and not (nxt.kind == "ident" and nxt.text in _KEYWORDS_REFUSED):
            raise Located(f"unknown function `{name}` ({KNOWN_FUNCTIONS_TEXT})", t.pos)
        return SyntaxNode("var", t.pos, value=name)

    def _application(self, fn: Token) -> SyntaxNode:
        """``f t₁ … tₙ`` of a function variable of arity ``n``: each argument at max precedence
        (a numeral, a name, a parenthesised term or ``√…``, then any postfix ``⁻¹``), so
        ``f x ^ 2`` is ``(f x) ^ 2``. ``f -1`` is ``f - 1`` in Lean (refused)."""
        self.advance()
        return SyntaxNode("app", fn.pos, tuple(self._arguments(fn, self.functions[fn.text])), fn.text)

    def _max_min(self, fn: Token) -> SyntaxNode:
        """``max a b`` / ``min a b`` (the root ``Max.max``/``Min.min``, as the resolver decides):
        both arguments read as :meth:`_application` reads a function's, so ``max a b ^ 2`` is
        ``(max a b) ^ 2`` and ``max a -b`` (a subtraction in Lean) is refused."""
        self.advance()
        args = self._arguments(fn, 2)
        return SyntaxNode(self.resolve(fn, args[0]), fn.pos, tuple(args))

    def _arguments(self, fn: Token, n: int) -> list[SyntaxNode]:
        """The ``n`` arguments of an application of ``fn`` (see :meth:`_application`)."""
        args: list[SyntaxNode] = []
        for _ in range(n):
            t = self.peek()
            before = self.toks[self.i - 1]
            if t.kind != "eof" and t.pos == before.pos + len(before.text):
                raise Located(f"Lean needs a space before an argument of `{fn.text}` "
                              f"(write `{fn.text} {t.text}…`)", t.pos)
            if t.kind == "op" and t.text == "-":
                raise Located(f"`{fn.text} -…` is a subtraction in Lean; write `{fn.text} (-…)`", t.pos)
            if (t.kind == "op" and t.text == "√") or (t.kind == "ident" and (
                    t.text in self.functions or is_function_name(t.text) or t.text in _FUNCTIONS_REFUSED)):
                raise Located(f"an application inside an argument of `{fn.text}` needs parentheses: "
                              f"`{fn.text} ({t.text} …)`", t.pos)
            starts = t.kind == "num" or (t.kind == "op" and t.text in ("(", "|", "π")) or (
                t.kind == "ident" and t.text not in _KEYWORDS_REFUSED and t.text not in TYPE_NAMES)
            if not starts:
                raise Located(f"`{fn.text}` is applied to {len(args)} of its {n} "
                              "arguments (only full applications are supported)", fn.pos)
            if t.kind == "ident" and "." in t.text and t.text.rpartition(".")[2] == "pi":
                node = self._identifier(t)  # the constant `Real.pi`
            elif t.kind == "ident":       # a name: no application of it here (checked above)
                self.advance()
                node = SyntaxNode("var", t.pos, value=t.text)
            else:
                node = self.leading(MAX)
            while self.peek().kind == "op" and self.peek().text == "⁻¹":
                node = SyntaxNode("inv", self.advance().pos, (node,), level=MAX)
            args.append(node)
        return args

    def _membership(self, op: Token, element: SyntaxNode) -> SyntaxNode:
        """``element ∈ S a b`` (``∈`` is ``infix:50``): ``S`` must resolve to an interval of
        :data:`INTERVALS`, applied to exactly its bounds. Node ``mem``: args ``(element, *bounds)``,
        value the interval's constant."""
        t = self.peek()
        if t.kind == "op" and t.text in ("{", "(", "["):
            raise Located("membership `∈` is supported only in an interval written `Set.Icc a b` "
                          "(`Set.Ioo`, `Set.Ico`, `Set.Ioc`, `Set.Ici`, …)", t.pos)
        if t.kind != "ident":
            raise Located(f"membership `∈` in {describe(t)} is not supported (only intervals `Set.Icc a b` …)",
                          t.pos)
        self.advance()
        interval = self.resolve_set(t)
        bounds = tuple(self._bound(t) for _ in INTERVALS[interval])
        return SyntaxNode("mem", op.pos, (element, *bounds), interval, level=50)

    def _bound(self, fn: Token) -> SyntaxNode:
        """One bound of an interval: an argument (a numeral, a variable or a parenthesised term,
        then any ``⁻¹``, which is ``postfix:max``)."""
        t = self.peek()
        if t.kind == "num":
            self.advance()
            node = SyntaxNode("num", t.pos, value=t.text)
        elif t.kind == "ident" and not is_function_name(t.text) and t.text not in _FUNCTIONS_REFUSED \
                and t.text not in _KEYWORDS_REFUSED and t.text not in TYPE_NAMES:
            self.advance()
            node = SyntaxNode("var", t.pos, value=t.text)
        elif t.kind == "op" and t.text == "(":
            node = self._paren(t)
        else:
            raise Located(f"`{fn.text}` needs its bounds as arguments (a numeral, a variable or a "
                          f"term in parentheses), found {describe(t)}", t.pos)
        while self.peek().kind == "op" and self.peek().text == "⁻¹":
            node = SyntaxNode("inv", self.advance().pos, (node,), level=MAX)
        return node

    def _argument(self, fn: Token) -> SyntaxNode:
        nxt = self.peek()
        if nxt.kind == "eof" or (nxt.kind == "op" and nxt.text not in ("(", "√", "-", "|")):
            raise Located(f"`{fn.text}` needs an argument", fn.pos)
        return self.term(MAX)

    @staticmethod
    def _touches(before: Token, after: Token) -> bool:
        """No white space (nor comment) between the two tokens: Lean's ``noWs``."""
        return after.pos == before.pos + len(before.text)

    def _abs(self, bar: Token) -> SyntaxNode:
        """``|a|``: Mathlib's ``macro:max atomic("|" noWs) a:term noWs "|" => `(abs $a)`` (global
        and hygienic: always the root ``abs``). No space after the opening bar nor before the
        closing one; the term inside is read at precedence 0 and ends at the first bar that
        touches the term before it (Lean has no trailing parser for ``|``). A bar after a space
        (``| x|``, ``|x |``, ``x |y|``) is refused: it is no bar of this notation."""
        nxt = self.peek(1)
        if nxt.kind == "eof":
            raise Located("unclosed absolute value: `|` is never closed", bar.pos)
        if not self._touches(bar, nxt):
            raise Located("a space after `|`: Lean reads no absolute value here (write `|x|`, no space "
                          "inside the bars)", bar.pos)
        self.advance()
        self.abs_depth += 1
        try:
            inner = self.term(0)
        finally:
            self.abs_depth -= 1
        close = self.peek()
        if close.kind == "eof":
            raise Located("unclosed absolute value: `|` is never closed", bar.pos)
        if not (close.kind == "op" and close.text == "|"):
            raise Located(f"expected `|` to close the absolute value, found {describe(close)}", close.pos)
        self.advance()
        return SyntaxNode("abs", bar.pos, (inner,), level=MAX)

    def _closing_bar(self, bar: Token) -> None:
        """A bar (or a Lean token holding one) after a term: only the closing bar of an open
        ``|a|``, touching the term, ends the term here; anything else is refused."""
        if bar.text in BAR_TOKENS:
            raise Located(BAR_TOKENS[bar.text], bar.pos)
        if not self._touches(self.toks[self.i - 1], bar):
            raise Located("a space before `|`: Lean reads no closing bar of an absolute value here "
                          "(write `|x|`, no space inside the bars)", bar.pos)
        if self.abs_depth == 0:
            raise Located("`|` closes no absolute value (no `|` opened it)", bar.pos)

    def _paren(self, open_tok: Token) -> SyntaxNode:
        self.advance()
        if self.at(")"):
            raise Located("empty parentheses `()`", open_tok.pos)
        inner = self.term(0)
        if self.at(":"):
            self.advance()
            ty = self.peek()
            if ty.kind != "ident" or ty.text not in TYPE_NAMES:
                raise Located(f"expected a type after `:`, found {describe(ty)}", ty.pos)
            self.advance()
            self._close(open_tok)
            return SyntaxNode("ascribe", open_tok.pos, (inner,), TYPE_NAMES[ty.text])
        if self.at(","):
            raise Located("tuple / anonymous constructor `(a, b)` is not supported", self.peek().pos)
        self._close(open_tok)
        return replace(inner, level=MAX)

    def _close(self, open_tok: Token) -> None:
        t = self.peek()
        if t.kind == "op" and t.text == ")":
            self.advance()
            return
        if t.kind == "eof":
            raise Located("unbalanced parentheses: `(` is never closed", open_tok.pos)
        raise Located(f"unbalanced parentheses: expected `)`, found {describe(t)}", t.pos)
