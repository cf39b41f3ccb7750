"""A static *model* of Lean 4 + Mathlib v4.16.0 for the subset of Lean our renderer emits.

**This is a model, not Lean.** No Lean runs on our machines; this module reads a rendered
``.lean`` file, tracks every goal's local context, and checks each tactic against an explicit,
conservative model of what Lean and Mathlib do with it. ``prover lean check`` with a real
``lake`` stays the final word wherever Lean is installed. The model is built to be *sound for
rejection counts*: everything it cannot model exactly is reported as a failure ("not
modelled"), never as a pass; where the model is unsure it is stricter than Lean (it may reject
a file Lean accepts, it should never accept one Lean rejects).

What is modelled (see ``docs/lean-names.md`` for the whitelist and the Mathlib sources read):

* **Terms and ``have``.** Terms are parsed with Lean 4's precedences (``-x ^ 2`` is
  ``-(x ^ 2)``, ``√x ^ 2`` is ``(√x) ^ 2``). A proof term's type is computed from the
  whitelisted lemma signatures (implicit arguments by first-order unification, ``by`` arguments
  as postponed goals); ``have h : T := e`` passes only when that type equals ``T``
  *syntactically* (up to ``≥``/``>`` being ``≤``/``<`` flipped and ``(c : ℝ)`` ascriptions):
  Lean does not unfold real ``+``/``-``, so ``0 ≤ 4 - a - b`` is not ``0 ≤ 4 - (a + b)``.
  ``|a|`` is read by Mathlib's rule (no space inside the bars; a bar with spaces on both sides
  separates alternatives), and an exponent ``((2:ℝ)/3)`` is the term ``(2 / 3 : ℝ)`` (``binop%``).
  ``congrArg f h`` (Lean core) has type ``f a₁ = f a₂`` for ``h : a₁ = a₂`` with ``f`` one of
  ``Real.sqrt``, ``abs``, ``fun x => x ^ (r : ℝ)`` (numeral ``r``; only against a stated type).
  ``Or.inl h``/``Or.inr h`` (Lean core) only against an expected disjunction, ``h`` against its side.
* **``linear_combination e``** as in Mathlib after PR #16841 (in v4.16.0): ``e`` is expanded
  like ``expandLinearCombo`` (constants added to proofs are dropped; a negated or subtracted
  inequality is an error; a coefficient of an inequality must be proved nonnegative — positive
  to keep ``<`` — by the positivity model), the relation is combined by ``Ineq.relImpRelData``,
  and the remainder ``(a' - b') - (a - b)`` is normalised with **``ring``'s semantics**: a
  commutative ring with rational numerals; ``x⁻¹`` of a single monomial distributes
  (``(c·x^n·y)⁻¹ = c⁻¹·(x⁻¹)^n·y⁻¹``) and the inverse of an atom is a new atom; the inverse of
  a sum is an atom keyed by the sum's normal form; ``a / b = a * b⁻¹``; nothing cancels
  ``x * x⁻¹`` (only a supplied fact such as ``mul_inv_cancel₀ h : x * x⁻¹ = 1`` does). An
  equality goal needs remainder 0; ``≤`` a numeral remainder ``≤ 0`` (``Ring.proveLE``), ``<``
  a numeral ``< 0``. Every other function application (``Real.sqrt``, ``rpow``, …) is an
  atom compared syntactically.
* **``positivity``** by the extensions of Mathlib's ``Positivity/Core.lean`` and ``Basic.lean``
  plus ``Real.sqrt``/``rpow``/``Real.exp``: ``+``, ``*``, ``/``, ``⁻¹``, ``^`` (even literal
  powers), ``√``, ``rpow``, ``exp``, ``|·|``, numerals (``norm_num`` on closed rational
  expressions), and hypotheses ``0 ≤ e``/``0 < e``/``e ≠ 0``/``c ≤ e``/``c < e``/``c = e`` whose
  ``e`` is *syntactically* the subterm (``compareHyp``). No subtraction, no negation.
* **``linarith``** (in ``by linarith`` side goals) as Positivstellensatz degree 1 over the
  hypotheses that are comparisons (hypotheses over ``LINARITH_HYP_SIZE`` term nodes are left
  out, which can only make the model fail more often), nonlinear monomials as atoms; a
  certificate is searched with HiGHS and accepted only after an exact rational check.
* **Structure**: ``have``, ``suffices … by``, ``obtain ⟨…⟩``, ``rcases … with h | h``,
  ``refine ⟨fun … => ?_, …⟩``, ``intro``, ``exact``, ``show``, ``apply`` (of a whitelisted
  lemma), ``constructor``, ``rw [ge_iff_le]``/``rw [gt_iff_lt]``, ``·`` bullets, ``first | …``
  (only with finishing alternatives), ``t <;> t'``, shadowed names (a re-bound name hides the old hypothesis from names, not from
  ``positivity``/``linarith``).
* **Names**: every global constant must be whitelisted (``MATHLIB_SIGNATURES`` or a
  ``ProverLemmas`` theorem read from ``lean_project/ProverLemmas/*.lean``).
* **Size**: at most ``LINE_BUDGET`` characters a line, ``TACTIC_BUDGET`` a tactic (over all the
  lines it spans), ``FILE_BUDGET`` a file, and
  ``set_option maxHeartbeats N in`` before a declaration when the file exceeds
  ``HEARTBEAT_THRESHOLD`` characters.

Not modelled (each is a failure): ``field_simp``, ``nlinarith``, ``polyrith``, ``norm_num``,
``simp``, ``ring_nf``, ``rw`` with other lemmas, ``linear_combination (norm := …)``/``(exp := …)``,
``calc`` (``Checker.calc`` is written but the tactic parser does not produce it yet), casts, ``∃``,
``Finset`` sums, and every name outside the whitelist.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

#: Longest tactic line and largest file we accept (characters), and the file size above which a
#: ``set_option maxHeartbeats N in`` must precede each declaration.
LINE_BUDGET = 20_000
#: A tactic's text over all its lines (breaking a long term over lines does not make it smaller).
TACTIC_BUDGET = 20_000
FILE_BUDGET = 200_000
HEARTBEAT_THRESHOLD = 20_000

REAL_DIVISION_MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"

OK, FAIL, UNSUPPORTED = "ok", "fail", "unsupported"


# ====================================================================== report


@dataclass
class StepVerdict:
    """The model's verdict on one tactic (or file-level check) at ``line``."""

    line: int
    kind: str
    status: str            # ok | fail | unsupported
    reason: str = ""
    text: str = ""

    @property
    def ok(self) -> bool:
        return self.status == OK

    def category(self) -> str:
        """A short failure class for tables: the reason up to its first colon."""
        return "" if self.ok else (self.reason.split(":", 1)[0] or self.status)


@dataclass
class ReplayReport:
    """Per-tactic verdicts of the replay model on one file (``ok`` only if every one passes)."""

    path: str
    steps: list[StepVerdict] = field(default_factory=list)
    chars: int = 0
    longest_line: int = 0
    #: the longest tactic, counted over all its lines (a term broken over lines is one tactic)
    longest_tactic: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps)

    @property
    def failures(self) -> list[StepVerdict]:
        return [s for s in self.steps if not s.ok]

    @property
    def first_failure(self) -> StepVerdict | None:
        return next((s for s in self.steps if not s.ok), None)

    def counts(self) -> dict[str, int]:
        out = {OK: 0, FAIL: 0, UNSUPPORTED: 0}
        for s in self.steps:
            out[s.status] += 1
        return out

    def summary(self) -> str:
        c = self.counts()
        head = "PASS" if self.ok else "FAIL"
        msg = (f"{head} (replay model, not Lean): {c[OK]} ok, {c[FAIL]} failed, "
               f"{c[UNSUPPORTED]} not modelled; {self.chars} chars, longest line {self.longest_line}, "
               f"longest tactic {self.longest_tactic}")
        ff = self.first_failure
        if ff is not None:
            msg += f"\nfirst failure: line {ff.line} [{ff.kind}] {ff.reason}"
        return msg


class ModelError(Exception):
    """A check the model rejects (``fail``)."""


class NotModelled(Exception):
    """Something outside the modelled subset (``unsupported``)."""


# ====================================================================== lexer


@dataclass(frozen=True)
class Tok:
    kind: str      # ident | num | sym | eof
    text: str
    line: int
    col: int


_SYMBOLS = sorted([":=", "<;>", "=>", "->", "<=", ">=", "!=", "⁻¹", "?_", "..", "<|", "|>",
                   "(", ")", "[", "]", "{", "}", "⟨", "⟩", ",", ":", ";", "+", "-", "*", "/", "^",
                   "<", ">", "=", "≤", "≥", "≠", "→", "↔", "∧", "∨", "¬", "∀", "∃", "√", "·", "←",
                   "|", "%", "•", "$", "@", "!", "#", "λ", "ℝ", "ℕ", "ℤ", "ℚ", "∣", "×", "∑", "∏",
                   "'", "`", "&", "~", "\\", "."], key=len, reverse=True)
_SUBSCRIPTS = set("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ")
_NOT_LETTERS = set("λΠΣℝℕℤℚ∑∏")


def _id_start(ch: str) -> bool:
    return ch == "_" or (ch.isalpha() and ch not in _NOT_LETTERS)


def _id_rest(ch: str) -> bool:
    return ch.isalnum() and ch not in _NOT_LETTERS or ch in "_'!?" or ch in _SUBSCRIPTS


def _ident_end(text: str, i: int) -> int:
    """End of the (possibly dotted) identifier starting at ``text[i]``."""
    n = len(text)
    j = i + 1
    while j < n:
        if _id_rest(text[j]) or (text[j] == "." and j + 1 < n
                                 and (_id_start(text[j + 1]) or text[j + 1].isdigit())):
            j += 1
        else:
            break
    return j


def _digits_end(text: str, j: int) -> int:
    while j < len(text) and text[j].isdigit():
        j += 1
    return j


def _number_end(text: str, i: int) -> int:
    """End of the numeral (``12`` or ``1.5``) starting at ``text[i]``."""
    j = _digits_end(text, i)
    if j + 1 < len(text) and text[j] == "." and text[j + 1].isdigit():
        j = _digits_end(text, j + 1)
    return j


def _symbol_at(text: str, i: int) -> str:
    for s in _SYMBOLS:
        if text.startswith(s, i):
            return s
    return text[i]


#: The token of a ``|`` of Mathlib's ``|a|`` notation (``atomic("|" noWs) term noWs "|"``): a bar
#: with no space on at least one side. A bar with spaces on both sides separates alternatives
#: (``first | … | …``, ``h | h``); ``| a |`` is no absolute value (the model rejects it).
ABS_BAR = "|abs"


def _lex_token(text: str, i: int, out: list[Tok], line: int, col: int) -> int:
    """Append the token(s) starting at ``text[i]`` to ``out``; return the index after them."""
    ch, n = text[i], len(text)
    if ch == "«":
        j = text.index("»", i)
        out.append(Tok("ident", text[i + 1:j], line, col))
        return j + 1
    if ch == "?" and text.startswith("?_", i):
        out.append(Tok("sym", "?_", line, col))
        return i + 2
    if ch == "_" and not (i + 1 < n and _id_rest(text[i + 1])):
        out.append(Tok("sym", "_", line, col))
        return i + 1
    if _id_start(ch):
        j = _ident_end(text, i)
        out.append(Tok("ident", text[i:j], line, col))
        return j
    if ch.isdigit():
        j = _number_end(text, i)
        out.append(Tok("num", text[i:j], line, col))
        return j
    if ch == "." and out and out[-1].text in (")", "⟩") and i + 1 < n and (
            _id_start(text[i + 1]) or text[i + 1].isdigit()):
        j = i + 1
        while j < n and (_id_rest(text[j]) or text[j] == "."):
            j += 1
        for part in text[i + 1:j].split("."):
            out.append(Tok("proj", part, line, col))
        return j
    s = _symbol_at(text, i)
    if s == "|" and not (_space_at(text, i - 1) and _space_at(text, i + 1)):
        s = ABS_BAR
    out.append(Tok("sym", s, line, col))
    return i + 1 if s == ABS_BAR else i + len(s)


def _space_at(text: str, i: int) -> bool:
    return i < 0 or i >= len(text) or text[i].isspace()


def lex(text: str, line: int = 1) -> list[Tok]:
    """Tokens of a Lean fragment (comments must already be removed)."""
    out: list[Tok] = []
    i, n, col0 = 0, len(text), 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            col0 = i
            continue
        if ch.isspace():
            i += 1
            continue
        i = _lex_token(text, i, out, line, i - col0)
    return out


# ====================================================================== terms
#
# Terms are tuples (hashable, compared structurally):
#   ("num", n)  ("dec", text)  ("fv", uid)  ("const", name)  ("mvar", k)
#   ("add"|"sub"|"mul"|"div"|"pow", a, b)  ("neg", a)  ("inv", a)  ("abs", a)
#   ("app", f, (args…))  ("proj", t, field)  ("ascr", t, type)
#   ("rel", op, a, b) op ∈ ≤ < = ≠ ≥ >   ("and"|"or"|"iff"|"imp", a, b)  ("not", a)
#   ("forall", uid, type, body)  ("exists", uid, type, body)
#   ("anon", (items…))  ("fun", (uids…), body)  ("by", Tactic)  ("hole",)  ("shole",)
#   ("type", "ℝ")

REAL = ("type", "ℝ")
NAT = ("type", "ℕ")
ZERO = ("num", 0)
KEYWORDS = {"with", "at", "by", "from", "fun", "then", "else", "using", "in", "do", "if", "have", "show",
            "suffices", "calc", "obtain", "rcases", "intro", "exact", "refine", "apply", "theorem", "lemma",
            "generalizing", "only", "deriving", "where", "let", "match", "end", "λ"}
_REL_OPS = {"≤": "≤", "<": "<", "=": "=", "≠": "≠", "≥": "≥", ">": ">", "<=": "≤", ">=": "≥", "!=": "≠"}
_BIN = {"+": (65, 66, "add"), "-": (65, 66, "sub"), "*": (70, 71, "mul"), "/": (70, 71, "div"),
        "^": (75, 75, "pow"), "∧": (35, 35, "and"), "∨": (30, 30, "or"), "→": (25, 25, "imp"),
        "->": (25, 25, "imp"), "↔": (20, 21, "iff")}
_ARITH = {"add", "sub", "mul", "div", "pow", "neg", "inv"}


class Scope:
    """Name resolution: local names (latest binding wins) and the opened namespaces."""

    def __init__(self, names: dict[str, str] | None = None, opens: tuple[str, ...] = (),
                 namespace: str = "", counter: itertools.count | None = None, real_division: bool = False):
        self.names = dict(names or {})
        self.opens = opens
        self.namespace = namespace
        self.counter = counter or itertools.count(1)
        #: the benchmark macro ``x / y => HDiv.hDiv (x : ℝ) (y : ℝ)`` is in effect
        self.real_division = real_division

    def fresh(self, name: str) -> str:
        return f"{name}#{next(self.counter)}"

    def bind(self, name: str) -> tuple[Scope, str]:
        uid = self.fresh(name)
        s = Scope(self.names, self.opens, self.namespace, self.counter, self.real_division)
        s.names[name] = uid
        return s, uid


def _big_int(digits: str) -> int:
    """``int(digits)`` without Python's 4300-digit limit (Lean numerals are unbounded)."""
    if len(digits) <= 4000:
        return int(digits)
    half = len(digits) // 2
    return _big_int(digits[:half]) * 10 ** (len(digits) - half) + _big_int(digits[half:])


def _num_str(n: int) -> str:
    try:
        return str(n)
    except ValueError:
        return f"<{n.bit_length()}-bit numeral>"


def uid_name(uid: str) -> str:
    return uid.split("#", 1)[0]


_OPENERS = ("(", "[", "⟨", "{")
_CLOSERS = (")", "]", "⟩", "}")


class _TokenCursor:
    """A position in a token list (shared by the term and the tactic parsers)."""

    toks: list[Tok]
    i: int

    def peek(self, k: int = 0) -> Tok:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else Tok("eof", "", -1, -1)

    def next(self) -> Tok:
        t = self.peek()
        self.i += 1
        return t

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def balanced_slice(self, stop: Callable[[Tok], bool]) -> list[Tok]:
        """Tokens up to an unmatched closing bracket or a depth-0 token where ``stop`` holds."""
        depth, start = 0, self.i
        while not self.done():
            t = self.peek()
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and stop(t):
                break
            self.i += 1
        return self.toks[start:self.i]


class TermParser(_TokenCursor):
    """Pratt parser of Lean terms over a token list, resolving local names through ``scope``."""

    def __init__(self, toks: list[Tok], scope: Scope):
        self.toks = toks
        self.i = 0
        self.scope = scope

    # -- token helpers
    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t.kind in ("sym", "ident") and t.text in texts

    def expect(self, text: str) -> Tok:
        t = self.next()
        if t.text != text or t.kind == "eof":
            raise NotModelled(f"syntax: expected {text!r}, found {t.text or 'end of input'!r}")
        return t

    # -- arguments / atoms
    def starts_arg(self) -> bool:
        t = self.peek()
        if t.kind == "num":
            return True
        if t.kind == "ident":
            return t.text not in KEYWORDS
        return t.kind == "sym" and t.text in ("(", "⟨", "_", "?_", "ℝ", "ℕ")

    def ident(self, text: str) -> Any:
        parts = text.split(".")
        if parts[0] in self.scope.names:
            t: Any = ("fv", self.scope.names[parts[0]])
            for p in parts[1:]:
                t = ("proj", t, p)
            return t
        return ("const", text)

    def by_block(self) -> Any:
        """``by`` in term position: the tokens up to the enclosing bracket."""
        return ("by", tuple(self.balanced_slice(lambda t: t.kind == "sym" and t.text == ",")))

    def binders(self, stop: str) -> list[tuple[str, Any]]:
        """``x y : T`` / ``(x y : T) (h : P)`` / ``x y`` up to ``stop`` (names and types)."""
        out: list[tuple[str, Any]] = []
        while not self.done() and not self.at(stop):
            if self.at("(", "{"):
                close = ")" if self.next().text == "(" else "}"
                names = []
                while self.peek().kind == "ident" or self.at("_"):
                    names.append(self.next().text)
                self.expect(":")
                ty = self.expr(0)
                self.expect(close)
                out += [(nm, ty) for nm in names]
            elif self.peek().kind == "ident" or self.at("_"):
                names = []
                while self.peek().kind == "ident" or self.at("_"):
                    names.append(self.next().text)
                ty = None
                if self.at(":"):
                    self.next()
                    ty = self.expr(0)
                out += [(nm, ty) for nm in names]
            else:
                raise NotModelled(f"syntax: binder {self.peek().text!r}")
        return out

    def atom(self) -> Any:
        t = self.next()
        if t.kind == "num":
            return ("num", _big_int(t.text)) if t.text.isdigit() else ("dec", t.text)
        if t.kind == "ident":
            if t.text in KEYWORDS:
                raise NotModelled(f"syntax: unexpected keyword {t.text!r}")
            return self.ident(t.text)
        if t.kind == "eof":
            raise NotModelled("syntax: unexpected end of term")
        s = t.text
        if s == "(":
            if self.at("by"):
                self.next()
                inner: Any = self.by_block()
            else:
                inner = self.expr(0)
            if self.at(":"):
                self.next()
                ty = self.expr(0)
                self.expect(")")
                return ("ascr", inner, ty)
            if self.at(","):
                raise NotModelled("syntax: tuples are not modelled")
            self.expect(")")
            return inner
        if s == "⟨":
            items = []
            while not self.done() and not self.at("⟩"):
                items.append(self.expr(0))
                if self.at(","):
                    self.next()
                elif not self.at("⟩"):
                    raise NotModelled(f"syntax: in ⟨…⟩ found {self.peek().text!r}")
            self.next()
            return ("anon", tuple(items))
        if s == "_":
            return ("hole",)
        if s == "?_":
            return ("shole",)
        if s in ("ℝ", "ℕ"):
            return ("type", s)
        raise NotModelled(f"syntax: unexpected {s!r}")

    def arg(self) -> Any:
        a = self.atom()
        while True:
            t = self.peek()
            if t.kind == "proj":
                self.next()
                a = ("proj", a, t.text)
            elif t.kind == "sym" and t.text == "⁻¹":
                self.next()
                a = ("inv", a)
            else:
                return a

    def prefix(self) -> Any:
        t = self.peek()
        if t.kind == "sym":
            if t.text == "-":
                self.next()
                return ("neg", self.expr(75))
            if t.text == "√":
                self.next()
                return ("app", ("const", "Real.sqrt"), (self.expr(100),))
            if t.text == "¬":
                self.next()
                return ("not", self.expr(40))
            if t.text in ("∀", "∃"):
                self.next()
                bs = self.binders(",")
                self.expect(",")
                return self.quantified("forall" if t.text == "∀" else "exists", bs)
            if t.text == ABS_BAR:
                self.next()
                inner = self.expr(0)
                self.expect(ABS_BAR)
                return ("abs", inner)
        if t.kind == "ident" and t.text in ("fun", "λ") or t.kind == "sym" and t.text == "λ":
            self.next()
            names = []
            while not self.done() and not self.at("=>"):
                nt = self.next()
                if nt.kind != "ident" and nt.text != "_":
                    raise NotModelled("syntax: only plain names are modelled as fun binders")
                names.append(nt.text)
            self.expect("=>")
            scope, uids = self.scope, []
            for nm in names:
                scope, uid = scope.bind(nm)
                uids.append(uid)
            saved, self.scope = self.scope, scope
            body = self.expr(0)
            self.scope = saved
            return ("fun", tuple(uids), body)
        if t.kind == "ident" and t.text == "by":
            self.next()
            return self.by_block()
        a = self.arg()
        if a[0] in ("const", "fv", "proj", "app") or a[0] == "ascr":
            args = []
            while self.starts_arg():
                args.append(self.arg())
            if args:
                a = ("app", a, tuple(args))
        return a

    def quantified(self, kind: str, bs: list[tuple[str, Any]]) -> Any:
        scope, uids = self.scope, []
        for nm, ty in bs:
            if ty is None:
                raise NotModelled("syntax: binders without a type are not modelled")
            scope, uid = scope.bind(nm)
            uids.append((uid, ty))
        saved, self.scope = self.scope, scope
        body = self.expr(0)
        self.scope = saved
        for uid, ty in reversed(uids):
            body = (kind, uid, ty, body)
        return body

    def expr(self, rbp: int) -> Any:
        left = self.prefix()
        while True:
            t = self.peek()
            if t.kind != "sym":
                break
            s = t.text
            if s in _REL_OPS:
                if rbp > 50:
                    break
                self.next()
                left = ("rel", _REL_OPS[s], left, self.expr(51))
                continue
            if s == "⁻¹":
                self.next()
                left = ("inv", left)
                continue
            if s in _BIN:
                lbp, r, node = _BIN[s]
                if lbp < rbp:
                    break
                self.next()
                left = (node, left, self.expr(r))
                continue
            break
        return left


def parse_term(toks: list[Tok], scope: Scope, *, whole: bool = True) -> Any:
    p = TermParser(toks, scope)
    t = p.expr(0)
    if whole and not p.done():
        raise NotModelled(f"syntax: unexpected {p.peek().text!r} after a term")
    return real_exponents(clean(t)) if scope.real_division else clean(t)


def _has_division(t: Any) -> bool:
    """A ``/`` anywhere in the term (argument tuples included, as :func:`has_mvar` walks)."""
    return isinstance(t, tuple) and bool(t) and (t[0] == "div" or any(_has_division(x) for x in t))


def _closed(t: Any) -> bool:
    """No variable in the term (numerals and operations only)."""
    return not isinstance(t, tuple) or not t or (t[0] != "fv" and all(_closed(x) for x in t))


def real_exponents(t: Any) -> Any:
    """Under the real-division macro a ``/`` is real division, so a numeral exponent with one is
    real: ``x ^ (1 / 3)`` is ``x ^ (1 / 3 : ℝ)`` (``rpow``; without the macro Lean reads
    ``1 / 3 : ℕ``)."""
    if not isinstance(t, tuple) or not t:
        return t
    if isinstance(t[0], tuple):           # a tuple of arguments
        return tuple(real_exponents(x) for x in t)
    if t[0] == "pow":
        base, e = real_exponents(t[1]), real_exponents(t[2])
        if _has_division(e) and _closed(e) and not (isinstance(e, tuple) and e[0] == "ascr" and e[2] == REAL):
            e = ("ascr", e, REAL)     # an exponent with a real variable is real already
        return ("pow", base, e)
    if t[0] in ("num", "dec", "fv", "const", "type"):
        return t
    return (t[0],) + tuple(real_exponents(x) if isinstance(x, tuple) else x for x in t[1:])


def _real_numeral(t: Any) -> bool:
    """A closed ``+ - * /`` tree of numerals with some part ascribed ``ℝ`` (``(2:ℝ)/3``):
    Lean's ``binop%`` elaborates all its numerals at ℝ. Any other node (``-x``, ``^``, a cast to
    ``ℕ``) makes it False."""
    def walk(x: Any) -> tuple[bool, bool]:           # (a numeral tree, some ℝ ascription inside)
        if not isinstance(x, tuple) or not x:
            return False, False
        if x[0] == "num":
            return True, False
        if x[0] == "ascr":
            ok, _ = walk(x[1])
            return ok and x[2] == REAL, True
        if x[0] in ("add", "sub", "mul", "div"):
            (a, ra), (b, rb) = walk(x[1]), walk(x[2])
            return a and b, ra or rb
        return False, False
    ok, real = walk(t)
    return ok and real


def clean(t: Any, in_exponent: bool = False) -> Any:
    """Canonical form: ``(e : ℝ)`` dropped except as an exponent (where it makes ``rpow``),
    ``√``/``Real.sqrt``/``sqrt`` (under ``open Real``) unified, ``≥``/``>`` kept as written."""
    if not isinstance(t, tuple):
        return t
    tag = t[0]
    if tag == "ascr":
        inner = clean(t[1])
        if t[2] == REAL and not in_exponent:
            return inner
        return ("ascr", inner, clean(t[2]))
    if tag == "pow":
        if _real_numeral(t[2]) and t[2][0] != "ascr":
            # ``x ^ ((2:ℝ)/3)``: ``binop%`` elaborates every numeral leaf of ``(2:ℝ)/3`` at ℝ, the
            # same term as ``x ^ (2 / 3 : ℝ)``
            return ("pow", clean(t[1]), ("ascr", clean(t[2]), REAL))
        return ("pow", clean(t[1]), clean(t[2], True))
    if tag in ("num", "dec", "fv", "const", "mvar", "hole", "shole", "type", "by"):
        return t
    if tag == "app":
        return ("app", clean(t[1]), tuple(clean(a) for a in t[2]))
    if tag in ("forall", "exists"):
        return (tag, t[1], clean(t[2]), clean(t[3]))
    if tag == "fun":
        return ("fun", t[1], clean(t[2]))
    if tag == "anon":
        return ("anon", tuple(clean(a) for a in t[1]))
    if tag == "proj":
        return ("proj", clean(t[1]), t[2])
    if tag == "rel":
        return ("rel", t[1], clean(t[2]), clean(t[3]))
    return (tag,) + tuple(clean(a) for a in t[1:])


def canon(t: Any) -> Any:
    """``≥``/``>`` unfolded to ``≤``/``<`` (reducible definitions in Lean), recursively."""
    if not isinstance(t, tuple):
        return t
    if t[0] == "rel" and t[1] in ("≥", ">"):
        return ("rel", "≤" if t[1] == "≥" else "<", canon(t[3]), canon(t[2]))
    if t[0] in ("by", "const", "fv", "num", "mvar", "dec", "type"):
        return t
    return tuple(canon(a) if isinstance(a, tuple) else a for a in t)


# ---------------------------------------------------------------- printing

_PREC = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "neg": 75, "rel": 50, "and": 35,
         "or": 30, "imp": 25, "iff": 20, "not": 40, "forall": 0, "exists": 0, "fun": 0}


def show(t: Any, prec: int = 0) -> str:
    """Lean-like text of a term (for messages)."""
    tag = t[0]
    if tag == "num":
        return _num_str(t[1])
    if tag == "dec":
        return t[1]
    if tag == "fv":
        return uid_name(t[1])
    if tag == "const":
        return t[1]
    if tag == "mvar":
        return f"?m{t[1]}"
    if tag == "type":
        return t[1]
    if tag in ("hole", "shole"):
        return "_" if tag == "hole" else "?_"
    if tag == "by":
        return "by …"
    ops = {"add": " + ", "sub": " - ", "mul": " * ", "div": " / ", "pow": " ^ ", "and": " ∧ ", "or": " ∨ ",
           "imp": " → ", "iff": " ↔ "}
    if tag in ops:
        p = _PREC[tag]
        right = tag in ("pow", "and", "or", "imp")
        s = show(t[1], p + (1 if right else 0)) + ops[tag] + show(t[2], p if right else p + 1)
        return f"({s})" if p < prec else s
    if tag == "rel":
        s = f"{show(t[2], 51)} {t[1]} {show(t[3], 51)}"
        return f"({s})" if prec > 50 else s
    if tag == "neg":
        s = "-" + show(t[1], 75)
        return f"({s})" if prec > 75 else s
    if tag == "not":
        return "¬" + show(t[1], 40)
    if tag == "inv":
        return show(t[1], 1024) + "⁻¹"
    if tag == "abs":
        return f"|{show(t[1])}|"
    if tag == "app":
        s = " ".join([show(t[1], 1024)] + [show(a, 1025) for a in t[2]])
        return f"({s})" if prec > 1024 else s
    if tag == "proj":
        return f"{show(t[1], 1025)}.{t[2]}"
    if tag == "ascr":
        return f"({show(t[1])} : {show(t[2])})"
    if tag in ("forall", "exists"):
        q = "∀" if tag == "forall" else "∃"
        s = f"{q} {uid_name(t[1])} : {show(t[2])}, {show(t[3])}"
        return f"({s})" if prec > 0 else s
    if tag == "anon":
        return "⟨" + ", ".join(show(a) for a in t[1]) + "⟩"
    if tag == "fun":
        s = "fun " + " ".join(uid_name(u) for u in t[1]) + " => " + show(t[2])
        return f"({s})" if prec > 0 else s
    return str(t)


def subst(t: Any, m: dict) -> Any:
    """Replace ``("fv", uid)``/``("mvar", k)`` by ``m[uid]``/``m[("mvar", k)]`` everywhere."""
    if not isinstance(t, tuple):
        return t
    tag = t[0]
    if tag == "fv":
        return m.get(t[1], t)
    if tag == "mvar":
        r = m.get(t)
        return subst(r, m) if r is not None else t
    if tag in ("num", "dec", "const", "type", "by", "hole", "shole"):
        return t
    return tuple(subst(a, m) if isinstance(a, tuple) else a for a in t)


def has_mvar(t: Any) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == "mvar":
        return True
    if t[0] == "by":
        return False
    return any(has_mvar(a) for a in t if isinstance(a, tuple))


def free_fvars(t: Any, acc: set | None = None) -> set:
    acc = set() if acc is None else acc
    if isinstance(t, tuple) and t:
        if t[0] == "fv":
            acc.add(t[1])
        elif t[0] != "by":
            for a in t:
                if isinstance(a, tuple):
                    free_fvars(a, acc)
    return acc


# ====================================================================== signatures

#: The whitelisted Mathlib names, specialised to ℝ: name -> (file at v4.16.0, signature as
#: Lean binders and type). Each one is recorded with its source in docs/lean-names.md.
MATHLIB_SIGNATURES: dict[str, tuple[str, str]] = {
    "sub_nonneg": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : 0 ≤ a - b ↔ b ≤ a"),
    "sub_pos": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : 0 < a - b ↔ b < a"),
    "sub_nonpos": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : a - b ≤ 0 ↔ a ≤ b"),
    "sub_neg": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : a - b < 0 ↔ a < b"),
    "mul_pos": ("Mathlib/Algebra/Order/GroupWithZero/Unbundled.lean",
                "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a * b"),
    "mul_nonneg": ("Mathlib/Algebra/Order/GroupWithZero/Unbundled.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a * b"),
    "add_pos": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a + b"),
    "add_nonneg": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a + b"),
    "div_pos": ("Mathlib/Algebra/Order/Field/Basic.lean", "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a / b"),
    "div_nonneg": ("Mathlib/Algebra/Order/Field/Basic.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a / b"),
    "sq_nonneg": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a : ℝ) : 0 ≤ a ^ 2"),
    "pow_pos": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a : ℝ} (H : 0 < a) (n : ℕ) : 0 < a ^ n"),
    "pow_nonneg": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a : ℝ} (H : 0 ≤ a) (n : ℕ) : 0 ≤ a ^ n"),
    "le_total": ("Mathlib/Order/Defs/LinearOrder.lean", "(a b : ℝ) : a ≤ b ∨ b ≤ a"),
    "le_of_lt": ("Mathlib/Order/Defs/PartialOrder.lean", "{a b : ℝ} (h : a < b) : a ≤ b"),
    "ne_of_gt": ("Mathlib/Order/Defs/PartialOrder.lean", "{a b : ℝ} (h : a > b) : a ≠ b"),
    "mul_inv_cancel₀": ("Mathlib/Algebra/GroupWithZero/Defs.lean", "{a : ℝ} (h : a ≠ 0) : a * a⁻¹ = 1"),
    "Real.sqrt_nonneg": ("Mathlib/Data/Real/Sqrt.lean", "(x : ℝ) : 0 ≤ √x"),
    "Real.sqrt_pos": ("Mathlib/Data/Real/Sqrt.lean", "{x : ℝ} : 0 < √x ↔ 0 < x"),
    "Real.sq_sqrt": ("Mathlib/Data/Real/Sqrt.lean", "{a : ℝ} (h : 0 ≤ a) : √a ^ 2 = a"),
    "Real.sqrt_sq": ("Mathlib/Data/Real/Sqrt.lean", "{a : ℝ} (h : 0 ≤ a) : √(a ^ 2) = a"),
    "Real.exp_pos": ("Mathlib/Analysis/SpecialFunctions/Exp.lean", "(x : ℝ) : 0 < Real.exp x"),
    "Real.rpow_natCast": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                          "(x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ n"),
    "Real.rpow_mul": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                      "{x : ℝ} (hx : 0 ≤ x) (y z : ℝ) : x ^ (y * z) = (x ^ y) ^ z"),
    "Real.geom_mean_le_arith_mean2_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ p₁ p₂ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) (hw : w₁ + w₂ = 1) : "
         "p₁ ^ w₁ * p₂ ^ w₂ ≤ w₁ * p₁ + w₂ * p₂")),
    "Real.geom_mean_le_arith_mean3_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ w₃ p₁ p₂ p₃ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hw₃ : 0 ≤ w₃) (hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) "
         "(hp₃ : 0 ≤ p₃) (hw : w₁ + w₂ + w₃ = 1) : p₁ ^ w₁ * p₂ ^ w₂ * p₃ ^ w₃ ≤ w₁ * p₁ + w₂ * p₂ + w₃ * p₃")),
    "Real.geom_mean_le_arith_mean4_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ w₃ w₄ p₁ p₂ p₃ p₄ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hw₃ : 0 ≤ w₃) (hw₄ : 0 ≤ w₄) "
         "(hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) (hp₃ : 0 ≤ p₃) (hp₄ : 0 ≤ p₄) (hw : w₁ + w₂ + w₃ + w₄ = 1) : "
         "p₁ ^ w₁ * p₂ ^ w₂ * p₃ ^ w₃ * p₄ ^ w₄ ≤ w₁ * p₁ + w₂ * p₂ + w₃ * p₃ + w₄ * p₄")),
    "two_mul_le_add_sq": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2"),
    "four_mul_le_sq_add": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a b : ℝ) : 4 * a * b ≤ (a + b) ^ 2"),
    "Real.rpow_one": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean", "(x : ℝ) : x ^ (1 : ℝ) = x"),
    "Real.rpow_of_add_eq": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                            ("{x y z w : ℝ} (hx : 0 ≤ x) (hw : w ≠ 0) (h : y + z = w) : "
                             "x ^ (w : ℝ) = x ^ (y : ℝ) * x ^ (z : ℝ)")),
    "abs_nonneg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "(a : ℝ) : 0 ≤ |a|"),
    "abs_of_nonneg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 ≤ a) : |a| = a"),
    "abs_of_pos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 < a) : |a| = a"),
    "abs_of_nonpos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a ≤ 0) : |a| = -a"),
    "abs_of_neg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a < 0) : |a| = -a"),
    "abs_pos_of_pos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 < a) : 0 < |a|"),
    "abs_pos_of_neg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a < 0) : 0 < |a|"),
    "sq_abs": ("Mathlib/Algebra/Order/Ring/Abs.lean", "(a : ℝ) : |a| ^ 2 = a ^ 2"),
    "Real.sqrt_sq_eq_abs": ("Mathlib/Data/Real/Sqrt.lean", "(x : ℝ) : √(x ^ 2) = |x|"),
    "Real.sqrt_eq_rpow": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean", "(x : ℝ) : √x = x ^ (1 / (2 : ℝ))"),
    "abs_le_of_sq_le_sq'": ("Mathlib/Algebra/Order/Ring/Abs.lean",
                            "{a b : ℝ} (h : a ^ 2 ≤ b ^ 2) (hb : 0 ≤ b) : -b ≤ a ∧ a ≤ b"),
    "abs_lt_of_sq_lt_sq'": ("Mathlib/Algebra/Order/Ring/Abs.lean",
                            "{a b : ℝ} (h : a ^ 2 < b ^ 2) (hb : 0 ≤ b) : -b < a ∧ a < b"),
}

#: Rewrite lemmas ``rw`` may use (target rewriting of ``≥``/``>`` only).
RW_LEMMAS = {"ge_iff_le": ("Mathlib/Order/Basic.lean", "{a b : ℝ} : a ≥ b ↔ b ≤ a"),
             "gt_iff_lt": ("Mathlib/Order/Basic.lean", "{a b : ℝ} : a > b ↔ b < a")}

#: Value-level functions (atoms for ``ring``), with ``open Real`` short names.
FUNCTIONS = {"Real.sqrt", "Real.exp", "Real.log", "abs"}
_OPEN_REAL = {"sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log"}


@dataclass
class Signature:
    """A telescope ``binders → conclusion``; binders are ``(uid, type, explicit)``."""

    binders: tuple[tuple[str, Any, bool], ...]
    concl: Any
    source: str = ""


def parse_signature(text: str, scope: Scope | None = None, source: str = "") -> Signature:
    """``(x y : ℝ) {a : ℝ} (h : P) : Q`` as a :class:`Signature`."""
    scope = scope or Scope()
    toks = lex(text)
    p = TermParser(toks, scope)
    binders: list[tuple[str, Any, bool]] = []
    while p.at("(", "{", "["):
        open_ = p.next().text
        close = {"(": ")", "{": "}", "[": "]"}[open_]
        if open_ == "[":
            raise NotModelled("instance binders are not modelled")
        names = []
        while p.peek().kind == "ident" or p.at("_"):
            names.append(p.next().text)
        p.expect(":")
        ty = clean(p.expr(0))
        p.expect(close)
        for nm in names:
            p.scope, uid = p.scope.bind(nm)
            binders.append((uid, ty, open_ == "("))
    p.expect(":")
    concl = clean(p.expr(0))
    if not p.done():
        raise NotModelled(f"syntax: signature ends with {p.peek().text!r}")
    if scope.real_division:
        concl = real_exponents(concl)
        binders = [(uid, real_exponents(ty), explicit) for uid, ty, explicit in binders]
    return Signature(tuple(binders), concl, source)


_SIG_CACHE: dict[str, Signature] = {}


def mathlib_signature(name: str) -> Signature | None:
    if name in _SIG_CACHE:
        return _SIG_CACHE[name]
    entry = MATHLIB_SIGNATURES.get(name) or RW_LEMMAS.get(name)
    if entry is None:
        return None
    sig = parse_signature(entry[1], source=entry[0])
    _SIG_CACHE[name] = sig
    return sig


def prover_lemmas_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "lean_project" / "ProverLemmas"


_PROVER_LEMMAS: dict[str, Signature] | None = None


def prover_lemma_signatures(directory: Path | None = None) -> dict[str, Signature]:
    """The theorems of ``lean_project/ProverLemmas/*.lean`` (full names), read from the source."""
    global _PROVER_LEMMAS
    if _PROVER_LEMMAS is not None and directory is None:
        return _PROVER_LEMMAS
    out: dict[str, Signature] = {}
    d = directory or prover_lemmas_dir()
    for f in sorted(d.glob("*.lean")) if d.is_dir() else []:
        src = LeanSource(f.read_text(encoding="utf-8"))
        for decl in src.declarations():
            try:
                out[decl.full_name] = parse_signature(decl.signature_text, source=f"lean_project/ProverLemmas/{f.name}")
            except (NotModelled, ModelError):
                continue
    if directory is None:
        _PROVER_LEMMAS = out
    return out


# ====================================================================== source structure


def strip_comments(text: str) -> str:
    """Block comments (nested) and line comments replaced by spaces, newlines kept."""
    out, i, n, depth = [], 0, len(text), 0
    while i < n:
        if text.startswith("/-", i):
            depth += 1
            out.append("  ")
            i += 2
            continue
        if depth and text.startswith("-/", i):
            depth -= 1
            out.append("  ")
            i += 2
            continue
        ch = text[i]
        if depth:
            out.append("\n" if ch == "\n" else " ")
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass
class Decl:
    kind: str              # theorem | lemma | example
    name: str
    full_name: str
    line: int
    signature_text: str    # binders and type, without the name and ":= by"
    body: list[tuple[int, str]]   # (line number, text) of the tactic block
    heartbeats: int | None
    proof_style: str       # "by" | "term"
    term_text: str = ""


def _split_header(htext: str, sig_start: int, start: int,
                  body: list[tuple[int, str]]) -> tuple[str, str, str, list[tuple[int, str]]]:
    """Signature, proof style, proof term and body of a declaration header (``:= by tac`` joins the body)."""
    mm = re.search(r":=\s*(by)?\s*$", htext)
    sig = htext[sig_start:]
    style = "by"
    term = ""
    if mm:
        sig = sig[: len(sig) - len(mm.group(0))] if sig.endswith(mm.group(0)) else sig
        sig = re.sub(r":=\s*(by)?\s*$", "", sig)
        style = "by" if mm.group(1) else "term"
    else:
        idx = htext.find(":= by ")
        if idx >= 0:
            sig = htext[sig_start:idx]
            body = [(start + 1, " " * 2 + htext[idx + 6:])] + body
        else:
            idx = htext.find(":=")
            sig = htext[sig_start:idx] if idx >= 0 else sig
            style = "term"
            term = htext[idx + 2:] if idx >= 0 else ""
    return sig, style, term, body


def _track_namespace(ns: list[str], s: str) -> None:
    """Update the open-namespace stack ``ns`` for a ``namespace``/``end`` command."""
    m = re.match(r"namespace\s+(\S+)", s)
    if m:
        ns.append(m.group(1))
    elif re.match(r"end\b", s):
        parts = s.split()
        if ns and (len(parts) == 1 or ns[-1] == parts[1]):
            ns.pop()


class LeanSource:
    """Top-level commands of a Lean file: imports, opens, namespaces, declarations."""

    def __init__(self, text: str):
        self.text = text
        self.clean = strip_comments(text)
        self.lines = self.clean.split("\n")
        self.raw_lines = text.split("\n")

    def declarations(self) -> list[Decl]:
        return [c for c in self.commands() if isinstance(c, Decl)]

    def commands(self) -> list[Any]:
        """Declarations and ``(line, kind, text)`` tuples for the other commands."""
        out: list[Any] = []
        ns: list[str] = []
        heart: int | None = None
        i, n = 0, len(self.lines)
        while i < n:
            ln = self.lines[i]
            s = ln.strip()
            if not s:
                i += 1
                continue
            if ln[0].isspace():
                out.append((i + 1, "stray", s))
                i += 1
                continue
            m = re.match(r"set_option\s+maxHeartbeats\s+(\d+)\s+in\b(.*)$", s)
            if m:
                heart = int(m.group(1))
                rest = m.group(2).strip()
                if not rest:
                    i += 1
                    continue
                s = rest
            m = re.match(r"(theorem|lemma|example)\b\s*(«[^»]+»|[^\s({\[:]*)", s)
            if m:
                decl, i = self.declaration(m, s, i, ns, heart)
                out.append(decl)
                heart = None
                continue
            _track_namespace(ns, s)
            out.append((i + 1, "command", s))
            i += 1
        return out

    def declaration(self, m: re.Match[str], s: str, start: int, ns: list[str],
                    heart: int | None) -> tuple[Decl, int]:
        """The declaration whose first line (index ``start``) is ``s``, and the index after it."""
        kind, name = m.group(1), m.group(2).strip("«»")
        header, j = self.header_lines(s, start)
        htext = " ".join(header)
        body, k = self.body_lines(j + 1)
        sig, style, term, body = _split_header(htext, m.end(), start, body)
        full = ".".join(ns + [name]) if name else ""
        return Decl(kind, name, full, start + 1, sig.strip(), body, heart, style, term), k

    def header_lines(self, s: str, i: int) -> tuple[list[str], int]:
        """The header's stripped lines up to ``:=`` (or the next top-level line) and its last index."""
        header = [s]
        j, n = i, len(self.lines)
        while not re.search(r":=\s*(by)?\s*$", " ".join(header)) and j + 1 < n:
            nxt = self.lines[j + 1]
            if nxt.strip() and not nxt[0].isspace():
                break
            j += 1
            header.append(nxt.strip())
        return header, j

    def body_lines(self, k: int) -> tuple[list[tuple[int, str]], int]:
        """The indented (or blank) lines from index ``k``, trailing blanks dropped, and the index after."""
        n = len(self.lines)
        body: list[tuple[int, str]] = []
        while k < n and (not self.lines[k].strip() or self.lines[k][0].isspace()):
            body.append((k + 1, self.lines[k]))
            k += 1
        while body and not body[-1][1].strip():
            body.pop()
        return body, k


# ====================================================================== ring normal form

try:
    import flint  # python-flint
except ImportError:  # pragma: no cover - declared dependency
    flint = None


class RingNormalizer:
    """Polynomials over ℚ in atoms, with Mathlib ``ring``'s treatment of ``⁻¹`` and ``/``."""

    def __init__(self, terms: list[Any]):
        if flint is None:
            raise NotModelled("python-flint is needed for ring normalisation")
        cap = 1 + sum(_atom_bound(t) for t in terms)
        self.cap = cap
        try:
            self.ctx = flint.fmpq_mpoly_ctx.get(("x", cap), "lex")
        except AttributeError:  # older python-flint
            self.ctx = flint.fmpq_mpoly_ctx(cap, flint.Ordering.lex, "x")
        self.gens = self.ctx.gens()
        self.atoms: dict[Any, int] = {}
        self.keys: list[Any] = []

    def const(self, c: Fraction | int) -> Any:
        c = Fraction(c)
        return self.ctx.constant(flint.fmpq(c.numerator, c.denominator))

    def atom(self, key: Any) -> Any:
        k = self.atoms.get(key)
        if k is None:
            k = len(self.keys)
            if k >= self.cap:
                raise NotModelled("ring normal form: too many atoms")
            self.atoms[key] = k
            self.keys.append(key)
        return self.gens[k]

    def norm(self, t: Any) -> Any:
        tag = t[0]
        if tag == "num":
            return self.const(t[1])
        if tag == "add":
            return self.norm(t[1]) + self.norm(t[2])
        if tag == "sub":
            return self.norm(t[1]) - self.norm(t[2])
        if tag == "mul":
            return self.norm(t[1]) * self.norm(t[2])
        if tag == "neg":
            return -self.norm(t[1])
        if tag == "div":
            return self.norm(t[1]) * self.inv(self.norm(t[2]))
        if tag == "inv":
            return self.inv(self.norm(t[1]))
        if tag == "pow" and t[2][0] == "num":
            return self.norm(t[1]) ** t[2][1]
        if tag in ("mvar", "by", "hole", "shole", "rel", "and", "or", "imp", "iff", "not", "forall",
                   "exists", "anon", "fun", "dec", "type"):
            raise NotModelled(f"ring: not a real-valued term: {show(t)}")
        return self.atom(("term", t))

    def inv(self, p: Any) -> Any:
        if p.is_zero():
            return p
        terms = list(p.terms())
        if len(terms) == 1:
            exps, c = terms[0]
            out = self.const(Fraction(int(c.q), int(c.p)))
            for i, e in enumerate(exps):
                if e:
                    out = out * self.atom(("inv", self.keys[i])) ** int(e)
            return out
        return self.atom(("invsum", self.sum_key(p)))

    @staticmethod
    def sum_key(p: Any) -> tuple:
        """The atom key of ``p⁻¹`` for a multi-term ``p``: its terms, independent of order."""
        return tuple(sorted((tuple(int(x) for x in ex), (int(c.p), int(c.q))) for ex, c in p.terms()))

    def sum_poly(self, key: tuple) -> Any:
        """The polynomial whose inverse is the atom ``("invsum", key)``."""
        d = {}
        for exps, (num, den) in key:
            e = [0] * len(self.gens)
            e[:len(exps)] = exps
            d[tuple(e)] = flint.fmpq(num, den)
        return self.ctx.from_dict(d)

    @staticmethod
    def constant_value(p: Any) -> Fraction | None:
        if p.is_zero():
            return Fraction(0)
        terms = list(p.terms())
        if len(terms) == 1 and not any(terms[0][0]):
            c = terms[0][1]
            return Fraction(int(c.p), int(c.q))
        return None


def _atom_bound(t: Any) -> int:
    """An upper bound on the atoms ``ring`` can create from ``t``."""
    if not isinstance(t, tuple):
        return 0
    tag = t[0]
    if tag in ("add", "sub", "mul"):
        return _atom_bound(t[1]) + _atom_bound(t[2])
    if tag == "div":
        return _atom_bound(t[1]) + 2 * _atom_bound(t[2]) + 1
    if tag == "inv":
        return 2 * _atom_bound(t[1]) + 1
    if tag == "neg":
        return _atom_bound(t[1])
    if tag == "pow" and t[2][0] == "num":
        return _atom_bound(t[1])
    if tag == "num":
        return 0
    return 1


def num_value(t: Any) -> Fraction | None:
    """``norm_num``'s value of a closed rational expression (``x / 0 = 0``), else None."""
    tag = t[0]
    if tag == "num":
        return Fraction(t[1])
    if tag == "neg":
        v = num_value(t[1])
        return None if v is None else -v
    if tag in ("add", "sub", "mul", "div"):
        a, b = num_value(t[1]), num_value(t[2])
        if a is None or b is None:
            return None
        if tag == "add":
            return a + b
        if tag == "sub":
            return a - b
        if tag == "mul":
            return a * b
        return a / b if b else Fraction(0)
    if tag == "inv":
        v = num_value(t[1])
        return None if v is None else (1 / v if v else Fraction(0))
    if tag == "pow" and t[2][0] == "num":
        v = num_value(t[1])
        return None if v is None else v ** t[2][1]
    return None


# ====================================================================== goals and contexts


@dataclass(frozen=True)
class Local:
    uid: str
    name: str
    is_var: bool
    type: Any            # REAL for variables, a proposition for hypotheses


@dataclass
class Goal:
    ctx: tuple[Local, ...]
    target: Any
    unknown: str = ""    # non-empty: the goal after an unmodelled tactic (its reason)

    def scope(self, base: Scope) -> Scope:
        s = Scope({}, base.opens, base.namespace, base.counter, base.real_division)
        for loc in self.ctx:
            s.names[loc.name] = loc.uid
        return s

    def local(self, uid: str) -> Local | None:
        for loc in reversed(self.ctx):
            if loc.uid == uid:
                return loc
        return None

    def add(self, loc: Local) -> Goal:
        return Goal(self.ctx + (loc,), self.target, self.unknown)

    def with_target(self, t: Any) -> Goal:
        return Goal(self.ctx, t, self.unknown)


def _is_prop(t: Any) -> bool:
    return isinstance(t, tuple) and t[0] in ("rel", "and", "or", "imp", "iff", "not", "forall", "exists") or (
        t == ("const", "True") or t == ("const", "False"))


def _rel(t: Any) -> tuple[str, Any, Any] | None:
    """``(op, a, b)`` of a comparison with ``≥``/``>`` unfolded (``whnfR``), else None."""
    if isinstance(t, tuple) and t[0] == "rel":
        op, a, b = t[1], t[2], t[3]
        if op == "≥":
            return "≤", b, a
        if op == ">":
            return "<", b, a
        return op, a, b
    return None


# ====================================================================== elaboration


class Elab:
    """One term elaboration: metavariable assignments and postponed ``by`` goals."""

    def __init__(self, checker: Checker, goal: Goal):
        self.checker = checker
        self.goal = goal
        self.assign: dict[Any, Any] = {}
        self.postponed: list[tuple[Any, Any, Goal]] = []   # (mvar, tactic tokens, goal)
        self.new_goals: list[tuple[Any, Goal]] = []        # ?_ holes in refine
        self.counter = itertools.count(1)
        self.names: set[str] = set()

    def mvar(self) -> Any:
        return ("mvar", next(self.counter))

    def inst(self, t: Any) -> Any:
        return subst(t, self.assign)

    # -- unification (first order, syntactic modulo ≥/> and mvars)
    def unify(self, a: Any, b: Any) -> bool:
        a, b = canon(self.inst(a)), canon(self.inst(b))
        return self._unify(a, b)

    def _unify(self, a: Any, b: Any) -> bool:
        if a == b:
            return True
        if isinstance(a, tuple) and a[0] == "mvar":
            if a in self.assign:
                return self._unify(self.inst(a), b)
            self.assign[a] = b
            return True
        if isinstance(b, tuple) and b[0] == "mvar":
            return self._unify(b, a)
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b) or not a:
            return False
        if not isinstance(a[0], str):          # an argument tuple
            return all(self._unify(canon(self.inst(x)), canon(self.inst(y))) for x, y in zip(a, b))
        if a[0] != b[0]:
            return False
        if a[0] in ("forall", "exists"):
            if not self._unify(a[2], b[2]):
                return False
            return self._unify(a[3], subst(b[3], {b[1]: ("fv", a[1])}))
        for x, y in zip(a[1:], b[1:]):
            if isinstance(x, tuple) and isinstance(y, tuple):
                if not self._unify(canon(self.inst(x)), canon(self.inst(y))):
                    return False
            elif x != y:
                return False
        return True

    def bound_local(self, uid: str) -> Local:
        """The goal's hypothesis or variable ``uid`` (an error when it is not in scope)."""
        loc = self.goal.local(uid)
        if loc is None:
            raise ModelError(f"unknown identifier {uid_name(uid)}")
        return loc

    # -- values
    def value(self, t: Any) -> Any:
        """``t`` checked as a real-valued expression (mvars allowed); returns it instantiated."""
        tag = t[0]
        if tag == "num":
            return t
        if tag == "dec":
            raise NotModelled(f"decimal literal {t[1]} is not modelled")
        if tag == "hole":
            return self.mvar()
        if tag == "mvar":
            return t
        if tag == "fv":
            loc = self.bound_local(t[1])
            if not loc.is_var:
                raise ModelError(f"{loc.name} is a proof, expected a real number")
            if loc.type != REAL:
                raise NotModelled(f"variable {loc.name} : {show(loc.type)} is not real")
            return t
        if tag in ("add", "sub", "mul", "div"):
            return (tag, self.value(t[1]), self.value(t[2]))
        if tag in ("neg", "inv", "abs"):
            return (tag, self.value(t[1]))
        if tag == "pow":
            base = self.value(t[1])
            e = t[2]
            if e[0] == "num":
                return ("pow", base, e)
            if e[0] == "ascr" and e[2] == REAL:
                return ("pow", base, ("ascr", self.value(e[1]), REAL))
            if e[0] == "ascr" and e[2] == NAT:
                raise NotModelled("natural-number casts in exponents are not modelled")
            return ("pow", base, self.value(e))
        if tag == "ascr":
            if t[2] == REAL:
                return self.value(t[1])
            raise NotModelled(f"type ascription ({show(t)}) is not modelled")
        if tag == "app" and t[1][0] == "const":
            name = self.checker.global_name(t[1][1])
            if name in FUNCTIONS and len(t[2]) == 1:
                self.names.add(name)
                return ("app", ("const", name), (self.value(t[2][0]),))
            raise NotModelled(f"function {t[1][1]} is not modelled as a real-valued function")
        if tag == "const":
            raise ModelError(f"unknown identifier {t[1]}")
        raise NotModelled(f"not a real-valued term: {show(t)}")

    # -- proofs
    def telescope(self, t: Any) -> tuple[list[tuple[str, Any, bool]], Any]:
        """The type of a proof-valued head as binders and conclusion (fresh mvars not yet made)."""
        tag = t[0]
        if tag == "fv":
            loc = self.bound_local(t[1])
            if loc.is_var:
                raise ModelError(f"{loc.name} is a real number, expected a proof")
            return _pi_binders(loc.type)
        if tag == "const":
            name, projs = self.checker.split_const(t[1])
            if name is None:
                raise ModelError(f"unknown or not whitelisted: {t[1]}")
            self.names.add(name)
            sig = self.checker.signature(name)
            binders, concl = list(sig.binders), sig.concl
            if projs:
                prop = self.apply_telescope(binders, concl, [], expected=None)
                for p in projs:
                    binders, concl = self.project(prop, p)
                    prop = _pi_close(binders, concl) if binders else concl
            return binders, concl
        if tag == "proj":
            prop = self.proof(t[1])
            return self.project(prop, t[2])
        if tag == "app":
            prop = self.proof(t)
            return _pi_binders(prop)
        prop = self.proof(t)
        return _pi_binders(prop)

    def project(self, prop: Any, fld: str) -> tuple[list[tuple[str, Any, bool]], Any]:
        prop = canon(self.inst(prop))
        tag = prop[0]
        if fld in ("mpr", "2") and tag == "iff":
            return [("_h", prop[2], True)], prop[1]
        if fld in ("mp", "1") and tag == "iff":
            return [("_h", prop[1], True)], prop[2]
        if fld == "1" and tag == "and":
            return [], prop[1]
        if fld == "2" and tag == "and":
            return [], prop[2]
        if tag == "rel":
            op, a, b = prop[1], prop[2], prop[3]
            if fld == "le" and op == "<":
                self.names.add("LT.lt.le")
                return [], ("rel", "≤", a, b)
            if fld == "ne" and op == "<":
                self.names.add("LT.lt.ne")
                return [], ("rel", "≠", a, b)
            if fld == "ne'" and op == "<":
                self.names.add("LT.lt.ne'")
                return [], ("rel", "≠", b, a)
            if fld == "symm" and op in ("=", "≠"):
                return [], ("rel", op, b, a)
        raise NotModelled(f"projection .{fld} of a proof of {show(prop)} is not modelled")

    def apply_telescope(self, binders: list[tuple[str, Any, bool]], concl: Any, args: list[Any],
                        expected: Any) -> Any:
        m: dict[Any, Any] = {}
        args = list(args)
        remaining: list[tuple[str, Any, bool]] = []
        for k, (uid, ty, explicit) in enumerate(binders):
            ty_i = subst(ty, m)
            if not explicit:
                if ty_i in (REAL, NAT):
                    m[uid] = self.mvar()
                    continue
                raise NotModelled("implicit proof arguments are not modelled")
            if not args:
                remaining = [(u, subst(t2, m), e) for u, t2, e in binders[k:]]
                break
            a = args.pop(0)
            if ty_i == REAL:
                m[uid] = self.value(a)
            elif ty_i == NAT:
                if a[0] != "num":
                    raise NotModelled("natural-number arguments other than literals are not modelled")
                m[uid] = a
            else:
                self.proof_against(a, ty_i)
        if args:
            # more arguments than binders: the conclusion must itself be a ∀/→
            prop = subst(concl, m)
            bs, c = _pi_binders(canon(self.inst(prop)) if prop[0] != "forall" else prop)
            if not bs:
                raise ModelError(f"too many arguments for a proof of {show(self.inst(prop))}")
            return self.apply_telescope(bs, c, args, expected)
        out = subst(concl, m)
        if remaining:
            out = _pi_close(remaining, out)
        return out

    def proof_against(self, a: Any, ty: Any) -> None:
        """Elaborate proof ``a`` against the expected proposition ``ty``."""
        if a[0] == "by":
            mv = self.mvar()
            self.postponed.append((mv, a[1], self.goal.with_target(ty)))
            return
        if a[0] == "hole":
            raise ModelError(f"don't know how to synthesize placeholder for {show(self.inst(ty))}")
        if a[0] == "shole":
            self.new_goals.append((ty, self.goal))
            return
        got = self.proof(a, ty)
        if not self.unify(got, ty):
            raise ModelError(f"type mismatch: term has type {show(self.inst(got))} "
                             f"but is expected to have type {show(self.inst(ty))}")

    def proof(self, t: Any, expected: Any = None) -> Any:
        """The proposition proved by ``t`` (may contain mvars)."""
        tag = t[0]
        if tag == "ascr":
            self.proof_against(t[1], t[2])
            return t[2]
        if tag == "by":
            if expected is None:
                raise NotModelled("a `by` block without a known goal")
            mv = self.mvar()
            self.postponed.append((mv, t[1], self.goal.with_target(expected)))
            return expected
        if tag == "anon":
            if expected is None:
                raise NotModelled("anonymous constructor without an expected type")
            exp = canon(self.inst(expected))
            items = list(t[1])
            if exp[0] != "and":
                raise NotModelled(f"anonymous constructor for {show(exp)} is not modelled")
            if len(items) < 2:
                raise ModelError("anonymous constructor needs two components")
            self.proof_against(items[0], exp[1])
            rest = ("anon", tuple(items[1:])) if len(items) > 2 else items[1]
            self.proof_against(rest, exp[2])
            return expected
        if tag == "fun":
            if expected is None:
                raise NotModelled("fun without an expected type")
            return self.fun(t, expected)
        if tag == "shole":
            if expected is None:
                raise NotModelled("?_ without an expected type")
            self.new_goals.append((expected, self.goal))
            return expected
        if tag == "app":
            head, args = t[1], list(t[2])
            if head == ("const", "congrArg"):
                return self.congr_arg(args, expected)
            if head in (("const", "Or.inl"), ("const", "Or.inr")):
                return self.or_intro(head[1], args, expected)
            binders, concl = self.telescope(head)
            return self.apply_telescope(binders, concl, args, expected)
        binders, concl = self.telescope(t)
        if binders and any(not e for _, _, e in binders):
            return self.apply_telescope(binders, concl, [], expected)
        return _pi_close(binders, concl) if binders else concl

    def congr_arg(self, args: list[Any], expected: Any) -> Any:
        """``congrArg f h : f a₁ = f a₂`` for ``h : a₁ = a₂`` (Lean core, ``Init/Prelude.lean``), with ``f``
        one of the real functions whose application the model writes exactly: ``Real.sqrt``
        (``sqrt`` under ``open Real``), ``abs`` (``|a₁| = |a₂|``), and ``fun x => x ^ (r : ℝ)``
        with a closed real exponent; the last only against a stated type, since Lean's type of it
        is the beta-redex ``(fun x => x ^ r) a₁ = …``, equal to the stated one by beta only."""
        if len(args) != 2:
            raise NotModelled("congrArg with other than two arguments is not modelled")
        apply = self._congr_function(args[0], expected)
        prop = canon(self.inst(self.proof(args[1])))
        if prop[0] != "rel" or prop[1] != "=":
            raise ModelError(f"congrArg: the argument proves {show(prop)[:200]}, not an equality")
        self.names.add("congrArg")
        return ("rel", "=", apply(self.value(prop[2])), apply(self.value(prop[3])))

    def or_intro(self, name: str, args: list[Any], expected: Any) -> Any:
        """``Or.inl h : a ∨ b`` for ``h : a``, ``Or.inr h : a ∨ b`` for ``h : b`` (Lean core,
        ``Init/Prelude.lean``): elaborated against the expected disjunction, whose sides are the
        implicit ``a b`` (as Lean's elaborator finds them from the expected type)."""
        if expected is None:
            raise NotModelled(f"{name} without an expected type")
        if len(args) != 1:
            raise NotModelled(f"{name} with other than one argument is not modelled")
        exp = canon(self.inst(expected))
        if exp[0] != "or":
            raise ModelError(f"{name}: the expected type {show(exp)[:200]} is not a disjunction")
        self.names.add(name)
        self.proof_against(args[0], exp[1] if name == "Or.inl" else exp[2])
        return expected

    def _congr_function(self, f: Any, expected: Any) -> Callable[[Any], Any]:
        if f[0] == "const":
            name = self.checker.global_name(f[1])
            if name == "Real.sqrt":
                return lambda x: ("app", ("const", "Real.sqrt"), (x,))
            if name == "abs":
                return lambda x: ("abs", x)
        if f[0] == "fun" and len(f[1]) == 1 and expected is not None:
            uid, body = f[1][0], f[2]
            e = body[2] if body[0] == "pow" else None
            if e is not None and body[1] == ("fv", uid) and e[0] == "ascr" and e[2] == REAL and _closed(e[1]) \
                    and num_value(e[1]) is not None:
                return lambda x: ("pow", x, e)
        raise NotModelled(f"congrArg with the function {show(f)[:100]} is not modelled")

    def fun(self, t: Any, expected: Any) -> Any:
        uids = list(t[1])
        body = t[2]
        exp = self.inst(expected)
        saved = self.goal
        m: dict[Any, Any] = {}
        for uid in uids:
            e = exp
            if e[0] == "forall":
                self.goal = self.goal.add(Local(uid, uid_name(uid), True, e[2]))
                exp = subst(e[3], {e[1]: ("fv", uid)})
            elif e[0] == "imp":
                self.goal = self.goal.add(Local(uid, uid_name(uid), False, e[1]))
                exp = e[2]
            else:
                raise ModelError(f"fun binder {uid_name(uid)} but the goal {show(e)} is not a ∀ or →")
        del m
        self.proof_against(body, exp)
        self.goal = saved
        return expected


def _pi_binders(prop: Any) -> tuple[list[tuple[str, Any, bool]], Any]:
    binders: list[tuple[str, Any, bool]] = []
    while isinstance(prop, tuple) and prop[0] in ("forall", "imp"):
        if prop[0] == "forall":
            binders.append((prop[1], prop[2], True))
            prop = prop[3]
        else:
            binders.append(("_h", prop[1], True))
            prop = prop[2]
    return binders, prop


def _pi_close(binders: list[tuple[str, Any, bool]], concl: Any) -> Any:
    out = concl
    for uid, ty, _ in reversed(binders):
        out = ("forall", uid, ty, out) if ty in (REAL, NAT) else ("imp", ty, out)
    return out


# ====================================================================== positivity


_POS, _NONNEG, _NONZERO = "pos", "nonneg", "nonzero"


def _or_else(r1: str | None, r2_fn: Any) -> str | None:
    if r1 == _POS:
        return r1
    try:
        r2 = r2_fn()
    except ModelError:
        r2 = None
    if r1 is None:
        return r2
    if r2 == _POS:
        return _POS
    if {r1, r2} == {_NONNEG, _NONZERO}:
        return _POS
    return r1


def positivity_core(e: Any, ctx: tuple[Local, ...]) -> str | None:
    """Mathlib's ``Positivity.core`` on ``e`` (``None`` when it fails)."""
    result: str | None = None
    ext = _positivity_ext(e, ctx)
    if ext is not None:
        result = ext
    result = _or_else(result, lambda: _norm_num_positivity(e))
    if result == _POS:
        return result
    for loc in ctx:
        if not loc.is_var:
            result = _or_else(result, lambda loc=loc: _compare_hyp(e, loc.type))
    return result


def _positivity_ext(e: Any, ctx: tuple[Local, ...]) -> str | None:
    tag = e[0]
    if tag == "add":
        a, b = positivity_core(e[1], ctx), positivity_core(e[2], ctx)
        if a == _POS and b in (_POS, _NONNEG) or b == _POS and a == _NONNEG:
            return _POS
        if a == _NONNEG and b == _NONNEG:
            return _NONNEG
        return None
    if tag in ("mul", "div"):
        a, b = positivity_core(e[1], ctx), positivity_core(e[2], ctx)
        if a == _POS and b == _POS:
            return _POS
        if a in (_POS, _NONNEG) and b in (_POS, _NONNEG):
            return _NONNEG
        if a in (_POS, _NONZERO) and b in (_POS, _NONZERO):
            return _NONZERO
        return None
    if tag == "inv":
        return positivity_core(e[1], ctx)
    if tag == "pow":
        expo = e[2]
        if expo[0] == "num":
            if expo[1] == 0:
                return _POS
            even = _NONNEG if expo[1] % 2 == 0 else None
            return _or_else(even, lambda: _pow_from_base(positivity_core(e[1], ctx)))
        # a real exponent (rpow): evalRpowZero / evalRpow
        if expo[0] == "ascr" and expo[1] == ZERO:
            return _POS
        r = positivity_core(e[1], ctx)
        return r if r in (_POS, _NONNEG) else None
    if tag == "app" and e[1] == ("const", "Real.sqrt"):
        return _POS if positivity_core(e[2][0], ctx) == _POS else _NONNEG
    if tag == "app" and e[1] == ("const", "Real.exp"):
        return _POS
    if tag == "abs":
        r = positivity_core(e[1], ctx)
        if r in (_POS, _NONZERO):
            return _POS
        return _NONNEG if r is None else None
    return None


def _pow_from_base(r: str | None) -> str | None:
    return r


def _norm_num_positivity(e: Any) -> str | None:
    v = num_value(e)
    if v is None:
        return None
    return _POS if v > 0 else _NONNEG if v == 0 else _NONZERO


def _compare_hyp(e: Any, h: Any) -> str | None:
    if not (isinstance(h, tuple) and h[0] == "rel"):
        return None
    op, lo, hi = h[1], h[2], h[3]
    if op == "≤" and hi == e:
        if lo == ZERO:
            return _NONNEG
        r = _norm_num_positivity(lo)
        return r if r in (_POS, _NONNEG) else None
    if op == "<" and hi == e:
        if lo == ZERO:
            return _POS
        return _POS if _norm_num_positivity(lo) in (_POS, _NONNEG) else None
    if op == "=":
        if e == hi:
            return _NONNEG if lo == ZERO else _norm_num_positivity(lo)
        if e == lo:
            return _NONNEG if hi == ZERO else _norm_num_positivity(hi)
    if op == "≠" and (lo == ZERO and hi == e or hi == ZERO and lo == e):
        return _NONZERO
    return None


def positivity_goal(target: Any, ctx: tuple[Local, ...]) -> None:
    """Close ``0 ≤ e`` / ``0 < e`` / ``e ≠ 0`` as Mathlib's ``positivity`` does, or raise."""
    t = canon(target)
    if t[0] != "rel":
        raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    op, a, b = t[1], t[2], t[3]
    if op in ("≤", "<"):
        if a != ZERO:
            raise ModelError(f"positivity: not a positivity goal (left side is not 0): {show(target)}")
        want, e = op, b
    elif op == "≠":
        if b == ZERO:
            want, e = "≠", a
        elif a == ZERO:
            want, e = "≠", b
        else:
            raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    else:
        raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    r = positivity_core(e, ctx)
    okay = (want == "<" and r == _POS or want == "≤" and r in (_POS, _NONNEG)
            or want == "≠" and r in (_POS, _NONZERO))
    if not okay:
        what = {"<": "positivity", "≤": "nonnegativity", "≠": "nonzeroness"}[want]
        culprit = _positivity_culprit(e, ctx)
        raise ModelError(f"positivity: failed to prove {what} of {show(e)[:300]}"
                         + (f" (no extension or hypothesis for {show(culprit)[:200]})" if culprit else ""))


def _positivity_culprit(e: Any, ctx: tuple[Local, ...]) -> Any:
    """The innermost subterm positivity cannot say anything about (for messages)."""
    if positivity_core(e, ctx) is not None:
        return None
    if e[0] in ("add", "mul", "div"):
        for sub in (e[1], e[2]):
            c = _positivity_culprit(sub, ctx)
            if c is not None:
                return c
    if e[0] in ("inv", "pow", "abs"):
        c = _positivity_culprit(e[1], ctx)
        if c is not None:
            return c
    return e


# ====================================================================== linarith


def linarith_goal(target: Any, ctx: tuple[Local, ...]) -> None:
    """Mathlib's ``linarith`` as an exact Positivstellensatz-degree-1 search: the negated goal
    and the comparison hypotheses, nonlinear monomials as atoms (``linear_forms``)."""
    t = canon(target)
    if t[0] == "rel" and t[1] == "=":
        linarith_goal(("rel", "≤", t[2], t[3]), ctx)
        linarith_goal(("rel", "≤", t[3], t[2]), ctx)
        return
    facts: list[tuple[Any, str]] = []        # (term p, rel) meaning p rel 0 with rel ∈ {<, ≤, =}
    for loc in ctx:
        if loc.is_var:
            continue
        r = _rel(loc.type)
        if r is None or r[0] == "≠" or _size(loc.type, LINARITH_HYP_SIZE) > LINARITH_HYP_SIZE:
            continue          # dropping a hypothesis only weakens the model (sound, maybe incomplete)
        op, a, b = r
        facts.append((("sub", a, b), op))        # a - b op 0
    if t[0] == "rel" and t[1] in ("≤", "<"):
        a, b = t[2], t[3]
        facts.append((("sub", b, a), "<" if t[1] == "≤" else "≤"))   # negation: b - a < 0 / ≤ 0
    elif t != ("const", "False"):
        raise ModelError(f"linarith: goal {show(target)} is not a linear comparison")
    try:
        norm = RingNormalizer([f for f, _ in facts])
        polys = [(norm.norm(_linarith_term(f)), op) for f, op in facts]
    except NotModelled as exc:
        raise ModelError(f"linarith: {exc}") from None
    if not _farkas(polys):
        raise ModelError(f"linarith failed to find a contradiction for {show(target)[:300]}")


#: Hypotheses larger than this (term nodes) are left out of the linarith model: a subset of the
#: facts can only make it fail more often, never pass where Lean's linarith fails.
LINARITH_HYP_SIZE = 400


def _size(t: Any, cap: int) -> int:
    """Number of nodes of ``t``, counting stops above ``cap``."""
    n, stack = 0, [t]
    while stack and n <= cap:
        x = stack.pop()
        n += 1
        if isinstance(x, tuple):
            stack.extend(a for a in x if isinstance(a, tuple))
    return n


def _linarith_term(t: Any) -> Any:
    """``linear_forms``: division only by numerals is arithmetic; any other ``/``, ``⁻¹`` is an atom."""
    tag = t[0]
    if tag == "div":
        if num_value(t[2]) is not None:
            return ("div", _linarith_term(t[1]), t[2])
        return ("atom", t)
    if tag == "inv":
        return t if num_value(t[1]) is not None else ("atom", t)
    if tag in ("add", "sub", "mul"):
        return (tag, _linarith_term(t[1]), _linarith_term(t[2]))
    if tag == "neg":
        return ("neg", _linarith_term(t[1]))
    if tag == "pow" and t[2][0] == "num":
        return ("pow", _linarith_term(t[1]), t[2])
    return t


def _farkas(polys: list[tuple[Any, str]]) -> bool:
    """Whether multipliers λ (λ ≥ 0 for ``<``/``≤``, free for ``=``) give ``Σ λ_i p_i`` equal to a
    constant ``c`` with ``c > 0``, or ``c = 0`` and a strict fact weighted positively (facts are
    ``p_i op 0``). The LP is solved in floating point (HiGHS) and its answer is accepted only
    after an exact rational check of the certificate; without a verified certificate: False."""
    import numpy as np
    from scipy.optimize import linprog

    # a fact with a monomial no other fact has gets λ = 0: drop it (exact), repeatedly
    monos = [dict(zip(p.monoms(), p.coeffs())) for p, _ in polys]
    alive = set(range(len(polys)))
    while True:
        count: Counter = Counter(m for k in alive for m in monos[k] if any(m))
        drop = {k for k in alive if any(count[m] == 1 for m in monos[k] if any(m))}
        if not drop:
            break
        alive -= drop
    order = sorted(alive)
    polys = [polys[k] for k in order]
    monos = [monos[k] for k in order]
    n = len(polys)
    if n == 0:
        return False
    cols: dict[tuple, dict[int, Fraction]] = {}
    const: dict[int, Fraction] = {}
    for k, terms in enumerate(monos):
        for key, c in terms.items():
            v = Fraction(int(c.p), int(c.q))
            if any(key):
                cols.setdefault(key, {})[k] = v
            else:
                const[k] = v
    keys = list(cols)
    a_eq = np.array([[float(cols[key].get(k, 0)) for k in range(n)] for key in keys]) if keys else None
    strict = [1.0 if op == "<" else 0.0 for _, op in polys]
    cvec = np.array([float(const.get(k, 0)) for k in range(n)])
    bounds = [(-1.0 if op == "=" else 0.0, 1.0) for _, op in polys]
    objective = -(cvec + np.array(strict))
    try:
        res = linprog(objective, A_ub=-cvec.reshape(1, -1), b_ub=np.zeros(1),
                      A_eq=a_eq, b_eq=np.zeros(len(keys)) if keys else None, bounds=bounds, method="highs")
    except ValueError:
        return False
    if res.status != 0 or -res.fun <= 1e-9:
        return False
    lam = [Fraction(float(x)).limit_denominator(10**6) for x in res.x]
    for k, (_, op) in enumerate(polys):
        if op != "=" and lam[k] < 0:
            lam[k] = Fraction(0)
    if any(sum((v * lam[k] for k, v in col.items()), Fraction(0)) != 0 for col in cols.values()):
        return False
    c = sum((v * lam[k] for k, v in const.items()), Fraction(0))
    s = sum((lam[k] for k, (_, op) in enumerate(polys) if op == "<"), Fraction(0))
    return c > 0 or (c == 0 and s > 0)


# ====================================================================== tactics


@dataclass
class Item:
    """One tactic of a block: its tokens and, when its first line ends with ``by``, the block."""

    line: int
    toks: list[Tok]
    block: list[Item] | None = None
    text: str = ""
    bullet: bool = False


def split_block(lines: list[tuple[int, str]]) -> list[Item]:
    """Tactic items of an indented block (Lean's column rule)."""
    lines = [(n, s) for n, s in lines if s.strip()]
    if not lines:
        return []
    col = len(lines[0][1]) - len(lines[0][1].lstrip())
    groups: list[list[tuple[int, str]]] = []
    for n, s in lines:
        ind = len(s) - len(s.lstrip())
        if ind <= col or not groups:
            groups.append([(n, s)])
        else:
            groups[-1].append((n, s))
    items = []
    for g in groups:
        n0, first = g[0]
        stripped = first.strip()
        if stripped.startswith(("·", ". ")):
            inner_col = len(first) - len(first.lstrip()) + 2
            sub = [(n0, " " * inner_col + stripped[1:].lstrip())] + g[1:]
            items.append(Item(n0, [], split_block(sub), stripped, bullet=True))
            continue
        head = next((k for k, (_, s) in enumerate(g[:-1]) if re.search(r"(^|\s)by\s*$", s.strip())), None)
        if head is not None:
            # a header over several lines (continuation lines indented deeper) ending with ``by``:
            # the lines after it are the block, whatever their column relative to the header's
            text = "\n".join(s for _, s in g[:head + 1])
            items.append(Item(n0, lex(text, n0), split_block(g[head + 1:]),
                              " ".join(s.strip() for _, s in g[:head + 1])))
            continue
        text = "\n".join(s for _, s in g)
        items.append(Item(n0, lex(text, n0), None, " ".join(s.strip() for _, s in g)))
    return items


class Checker:
    """Runs the model over one file and collects verdicts."""

    def __init__(self, src: LeanSource, path: str = "<string>"):
        self.src = src
        self.report = ReplayReport(path)
        self.opens: tuple[str, ...] = ()
        self.namespace = ""
        #: the benchmark macro ``x / y => HDiv.hDiv (x : ℝ) (y : ℝ)`` is in effect (then a ``/`` in
        #: an exponent is a real division, and the power is ``rpow``)
        self.real_division = False
        self.imports: set[str] = set()
        self.local_decls: dict[str, Signature] = {}
        self.counter = itertools.count(1)
        self.base = Scope(counter=self.counter)

    # -- verdicts
    def verdict(self, line: int, kind: str, status: str, reason: str = "", text: str = "") -> None:
        self.report.steps.append(StepVerdict(line, kind, status, reason, text[:200]))

    # -- names
    def global_name(self, name: str) -> str:
        if "Real" in self.opens and name in _OPEN_REAL:
            return _OPEN_REAL[name]
        return name

    def known(self, name: str) -> bool:
        return self.resolve_decl(name) is not None

    def resolve_decl(self, name: str) -> str | None:
        name = self.global_name(name)
        cands = [name]
        if self.namespace:
            parts = self.namespace.split(".")
            cands = [".".join(parts[:k] + [name]) for k in range(len(parts), 0, -1)] + [name]
        if "Real" in self.opens:
            cands.append("Real." + name)
        for c in cands:
            if c in self.local_decls or c in MATHLIB_SIGNATURES or c in RW_LEMMAS:
                return c
            if "ProverLemmas" in self.imports and c in prover_lemma_signatures():
                return c
        return None

    def split_const(self, text: str) -> tuple[str | None, list[str]]:
        parts = text.split(".")
        for k in range(len(parts), 0, -1):
            full = self.resolve_decl(".".join(parts[:k]))
            if full is not None:
                return full, parts[k:]
        return None, []

    def signature(self, name: str) -> Signature:
        if name in self.local_decls:
            return self.local_decls[name]
        sig = mathlib_signature(name)
        if sig is None:
            sig = prover_lemma_signatures().get(name)
        if sig is None:
            raise ModelError(f"unknown or not whitelisted: {name}")
        return sig

    # -- file
    def run(self) -> ReplayReport:
        text = self.src.text
        self.report.chars = len(text)
        lens = [len(ln) for ln in self.src.raw_lines] or [0]
        self.report.longest_line = max(lens)
        for k, ln in enumerate(self.src.raw_lines, 1):
            if len(ln) > LINE_BUDGET:
                self.verdict(k, "budget", FAIL, f"size: line of {len(ln)} characters exceeds the "
                             f"{LINE_BUDGET}-character line budget", ln[:80])
        if len(text) > FILE_BUDGET:
            self.verdict(1, "budget", FAIL, f"size: file of {len(text)} characters exceeds the "
                         f"{FILE_BUDGET}-character file budget")
        ns: list[str] = []
        for cmd in self.src.commands():
            if isinstance(cmd, Decl):
                self.namespace = ".".join(ns)
                self.run_decl(cmd)
                continue
            line, kind, s = cmd
            self.command(line, kind, s, ns)
        if not any(isinstance(c, Decl) for c in self.src.commands()):
            self.verdict(1, "statement", FAIL, "structure: no theorem in the file")
        return self.report

    def command(self, line: int, kind: str, s: str, ns: list[str]) -> None:
        if kind == "stray":
            self.verdict(line, "syntax", UNSUPPORTED, "not modelled: indented text outside a declaration", s)
            return
        m = re.match(r"import\s+(.+)$", s)
        if m:
            for mod in m.group(1).split():
                if mod in ("Mathlib", "ProverLemmas") or mod.startswith("ProverLemmas."):
                    self.imports.add("ProverLemmas" if mod.startswith("ProverLemmas") else mod)
                else:
                    self.verdict(line, "import", UNSUPPORTED, f"not modelled: import {mod}", s)
            return
        m = re.match(r"open\s+(.+)$", s)
        if m:
            self.opens = self.opens + tuple(m.group(1).split())
            return
        m = re.match(r"namespace\s+(\S+)$", s)
        if m:
            ns.append(m.group(1))
            return
        if re.match(r"end\b", s):
            parts = s.split()
            if ns and (len(parts) == 1 or parts[1] == ns[-1]):
                ns.pop()
            return
        if s == REAL_DIVISION_MACRO:
            self.real_division = True
            return
        m = re.match(r"#print\s+axioms\s+(\S+)$", s)
        if m:
            name = m.group(1).strip("«»")
            if not any(d.name == name or d.full_name == name for d in self.src.declarations()):
                self.verdict(line, "#print", FAIL, f"structure: #print axioms names {name}, not a declaration", s)
            return
        if s.startswith("set_option"):
            self.verdict(line, "set_option", UNSUPPORTED, "not modelled: set_option without `in`", s)
            return
        self.verdict(line, "command", UNSUPPORTED, f"not modelled: command {s.split()[0]}", s)

    def run_decl(self, d: Decl) -> None:
        if len(self.src.text) > HEARTBEAT_THRESHOLD and d.heartbeats is None:
            self.verdict(d.line, "budget", FAIL, f"size: file over {HEARTBEAT_THRESHOLD} characters without "
                         "`set_option maxHeartbeats N in` before the declaration", d.name)
        try:
            sig = parse_signature(d.signature_text, Scope(counter=self.counter, opens=self.opens,
                                                          real_division=self.real_division))
            self.check_statement(sig)
        except (NotModelled, ModelError) as exc:
            self.verdict(d.line, "statement", FAIL if isinstance(exc, ModelError) else UNSUPPORTED,
                         f"statement: {exc}", d.signature_text)
            return
        if d.full_name:
            self.local_decls[d.full_name] = sig
        if d.proof_style != "by":
            self.verdict(d.line, "statement", UNSUPPORTED, "not modelled: term-mode proof", d.term_text)
            return
        # the theorem's context: binders become locals (names may repeat: later ones shadow)
        ctx: list[Local] = []
        m: dict[Any, Any] = {}
        for uid, ty, _ in sig.binders:
            ty = subst(ty, m)
            ctx.append(Local(uid, uid_name(uid), ty == REAL, ty))
        goal = Goal(tuple(ctx), sig.concl)
        items = split_block(d.body)
        if not items:
            self.verdict(d.line, "statement", FAIL, "structure: empty proof")
            return
        left = self.run_block(items, [goal])
        if left:
            self.verdict(items[-1].line, "end", FAIL,
                         f"unsolved goals: {len(left)} left, first ⊢ {show(left[0].target)[:300]}")

    def check_statement(self, sig: Signature) -> None:
        for _, ty, _ in sig.binders:
            if ty not in (REAL,) and not _is_prop(ty):
                raise NotModelled(f"binder of type {show(ty)}")
        if not _is_prop(sig.concl):
            raise NotModelled(f"conclusion {show(sig.concl)} is not a proposition")

    # -- blocks
    def run_block(self, items: list[Item], goals: list[Goal]) -> list[Goal]:
        for it in items:
            if not goals:
                self.verdict(it.line, self._kind(it), FAIL, "no goals: the previous tactics closed the goal",
                             it.text)
                continue
            goals = self.run_item(it, goals)
        return goals

    @staticmethod
    def _kind(it: Item) -> str:
        if it.bullet:
            return "·"
        return it.toks[0].text if it.toks else "?"

    def run_item(self, it: Item, goals: list[Goal]) -> list[Goal]:
        if not it.bullet:
            self.report.longest_tactic = max(self.report.longest_tactic, len(it.text))
            if len(it.text) > TACTIC_BUDGET:
                self.verdict(it.line, "budget", FAIL, f"size: tactic of {len(it.text)} characters exceeds the "
                             f"{TACTIC_BUDGET}-character tactic budget", it.text[:80])
        if it.bullet:
            g, rest = goals[0], goals[1:]
            left = self.run_block(it.block or [], [g])
            if left and not left[0].unknown:
                self.verdict(it.line, "·", FAIL, f"unsolved goals after the bullet: ⊢ {show(left[0].target)[:300]}",
                             it.text)
            return rest
        if goals[0].unknown:
            self.verdict(it.line, self._kind(it), UNSUPPORTED,
                         f"not modelled: goal unknown after {goals[0].unknown}", it.text)
            if it.block:
                self.skip_block(it.block, goals[0].unknown)
            return goals
        try:
            return self.tactic(it.toks, it.block, goals, it.line, it.text)
        except (NotModelled, ModelError) as exc:
            self.verdict(it.line, self._kind(it), UNSUPPORTED if isinstance(exc, NotModelled) else FAIL,
                         str(exc), it.text)
            return goals[1:]
        except RecursionError:
            self.verdict(it.line, self._kind(it), UNSUPPORTED, "not modelled: term too deeply nested", it.text)
            return goals[1:]
        except Exception as exc:  # noqa: BLE001 - a defect of the model itself: never a pass
            self.verdict(it.line, self._kind(it), UNSUPPORTED,
                         f"not modelled: internal model error ({type(exc).__name__}: {str(exc)[:120]})", it.text)
            return goals[1:]

    def skip_block(self, items: list[Item], why: str) -> None:
        for it in items:
            self.verdict(it.line, self._kind(it), UNSUPPORTED, f"not modelled: goal unknown after {why}", it.text)
            if it.block:
                self.skip_block(it.block, why)

    # -- tactic sequences from tokens
    def tactic(self, toks: list[Tok], block: list[Item] | None, goals: list[Goal], line: int,
               text: str) -> list[Goal]:
        p = TacParser(toks, block)
        tac = p.seq()
        if not p.done():
            raise NotModelled(f"syntax: unexpected {p.peek().text!r} in a tactic")
        return self.exec(tac, goals, line, text)

    def exec(self, tac: Any, goals: list[Goal], line: int, text: str) -> list[Goal]:
        kind = tac[0]
        if kind == "seq":
            for t in tac[1]:
                if not goals:
                    self.verdict(line, _tac_kind(t), FAIL, "no goals", text)
                    continue
                goals = self.exec(t, goals, line, text)
            return goals
        if kind == "then":           # t1 <;> t2
            first, second = tac[1], tac[2]
            g0, rest = goals[0], goals[1:]
            produced = self.exec(first, [g0], line, text)
            out: list[Goal] = []
            for g in produced:
                out += self.exec(second, [g], line, text)
            return out + rest
        if kind == "first":
            return self.exec_first(tac, goals, line, text)
        g, rest = goals[0], goals[1:]
        if g.unknown:
            self.verdict(line, kind, UNSUPPORTED, f"not modelled: goal unknown after {g.unknown}", text)
            return goals
        try:
            new = self.atomic(tac, g, line, text)
        except (NotModelled, ModelError) as exc:
            status = UNSUPPORTED if isinstance(exc, NotModelled) else FAIL
            reason = str(exc)
            if status == UNSUPPORTED and not reason.startswith(("not modelled", "syntax")):
                reason = "not modelled: " + reason
            self.verdict(line, kind, status, reason, text)
            if kind in _NON_FINISHING:
                return [Goal(g.ctx, g.target, f"{kind} (line {line})")] + rest
            return rest
        return new + rest

    def exec_first(self, tac: Any, goals: list[Goal], line: int, text: str) -> list[Goal]:
        g, rest = goals[0], goals[1:]
        alts = tac[1]
        if not all(_finishing(a) for a in alts):
            self.verdict(line, "first", UNSUPPORTED, "not modelled: `first` with a non-finishing alternative", text)
            return rest
        reasons = []
        for a in alts:
            sub = Checker.__new__(Checker)
            sub.__dict__.update(self.__dict__)
            sub.report = ReplayReport(self.report.path)
            left = sub.exec(a, [g], line, text)
            if not left and all(s.ok for s in sub.report.steps):
                self.verdict(line, "first", OK, "", text)
                return rest
            bad = next((s for s in sub.report.steps if not s.ok), None)
            reasons.append(bad.reason if bad else "goal left open")
        self.verdict(line, "first", FAIL if all(not r.startswith("not modelled") for r in reasons) else UNSUPPORTED,
                     "first: no alternative passes the model (first: " + (reasons[0][:200] if reasons else "") + ")",
                     text)
        return rest

    # -- atomic tactics
    def parse(self, toks: list[Tok], g: Goal) -> Any:
        return parse_term(list(toks), g.scope(self.base_scope()))

    def base_scope(self) -> Scope:
        return Scope(opens=self.opens, namespace=self.namespace, counter=self.counter,
                     real_division=self.real_division)

    def elab(self, g: Goal) -> Elab:
        return Elab(self, g)

    def finish_elab(self, el: Elab, line: int, text: str) -> None:
        """Run the postponed ``by`` goals of a term (after unification)."""
        for _mv, toks, goal in el.postponed:
            target = el.inst(goal.target)
            if has_mvar(target):
                raise ModelError(f"a `by` argument's goal still contains metavariables: {show(target)[:200]} "
                                 "(its implicit arguments are never unified)")
            left = self.tactic(list(toks), None, [goal.with_target(target)], line, text)
            if left and not left[0].unknown:
                raise ModelError(f"unsolved goals in `by` argument: ⊢ {show(left[0].target)[:200]}")

    def atomic(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        kind = tac[0]
        if kind == "have":
            return self.atomic_have(tac, g, line, text)
        if kind == "suffices":
            return self.atomic_suffices(tac, g, line, text)
        if kind == "linear_combination":
            self.linear_combination(tac, g, line, text)
            self.verdict(line, "linear_combination", OK, "", text)
            return []
        if kind == "positivity":
            positivity_goal(g.target, g.ctx)
            self.verdict(line, "positivity", OK, "", text)
            return []
        if kind == "linarith":
            if tac[1]:
                raise NotModelled("linarith with extra terms is not modelled")
            linarith_goal(g.target, g.ctx)
            self.verdict(line, "linarith", OK, "", text)
            return []
        if kind in ("ring", "ring1"):
            return self.atomic_ring(kind, g, line, text)
        if kind == "exact":
            self.elab_term_against_goal(tac[1], g, line, text)
            self.verdict(line, "exact", OK, "", text)
            return []
        if kind == "refine":
            el = self.elab_term_against_goal(tac[1], g, line, text)
            self.verdict(line, "refine", OK, "", text)
            return [gg.with_target(el.inst(t)) for t, gg in el.new_goals]
        if kind == "apply":
            return self.apply(tac, g, line, text)
        if kind == "intro":
            return self.atomic_intro(tac[1], g, line, text)
        if kind in ("obtain", "rcases"):
            return self.atomic_destruct(tac, g, line, text)
        if kind == "show":
            return self.atomic_show(tac, g, line, text)
        if kind == "constructor":
            t = canon(g.target)
            if t[0] != "and":
                raise NotModelled(f"constructor on {show(t)[:100]}")
            self.verdict(line, "constructor", OK, "", text)
            return [g.with_target(t[1]), g.with_target(t[2])]
        if kind == "rw":
            return self.rewrite(tac, g, line, text)
        if kind == "calc":
            return self.calc(tac, g, line, text)
        if kind == "skip":
            self.verdict(line, "skip", OK, "", text)
            return [g]
        raise NotModelled(f"not modelled: tactic `{kind}`" + (f" ({_WHY.get(kind)})" if kind in _WHY else ""))

    def atomic_have(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        _, name, ty_toks, how, body = tac
        el = self.elab(g)
        if ty_toks is not None:
            ty = self.have_typed(el, ty_toks, how, body, g, line, text)
        else:
            ty = self.have_untyped(el, name, how, body, g, line, text)
        uid = self.base.fresh(name)
        return [g.add(Local(uid, name, False, ty))]

    def have_typed(self, el: Elab, ty_toks: Any, how: str, body: Any, g: Goal, line: int, text: str) -> Any:
        """``have name : ty := …``: the stated type (kept even when its proof fails, as Lean does)."""
        ty = self.parse(ty_toks, g)
        if not _is_prop(canon(ty)):
            raise NotModelled(f"have of a non-proposition {show(ty)}")
        if how == "term":
            try:
                term = self.parse(body, g)
                el.proof_against(term, ty)
                self.finish_elab(el, line, text)
                self.verdict(line, "have", OK, "", text)
            except (NotModelled, ModelError) as exc:
                # Lean reports the error and keeps `name : ty` (elaborated as sorry)
                self.verdict(line, "have", UNSUPPORTED if isinstance(exc, NotModelled) else FAIL,
                             str(exc), text)
        else:
            self.verdict(line, "have", OK, "", text)
            self.run_by(body, g.with_target(ty), line, text)
        return ty

    def have_untyped(self, el: Elab, name: str, how: str, body: Any, g: Goal, line: int, text: str) -> Any:
        """``have name := term``: the type inferred from the term."""
        if how != "term":
            raise NotModelled("have without a type proved by tactics")
        term = self.parse(body, g)
        ty = el.proof(term)
        self.finish_elab(el, line, text)
        ty = el.inst(ty)
        if has_mvar(ty):
            raise ModelError(f"have {name}: type contains metavariables: {show(ty)[:200]}")
        self.verdict(line, "have", OK, "", text)
        return ty

    def atomic_suffices(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        _, name, ty_toks, how, body = tac
        ty = self.parse(ty_toks, g)
        uid = self.base.fresh(name)
        g2 = g.add(Local(uid, name, False, ty))
        self.verdict(line, "suffices", OK, "", text)
        if how == "by":
            self.run_by(body, g2, line, text)
        else:
            el = self.elab(g2)
            el.proof_against(self.parse(body, g2), g.target)
            self.finish_elab(el, line, text)
        return [g.with_target(ty)]

    def atomic_ring(self, kind: str, g: Goal, line: int, text: str) -> list[Goal]:
        t = canon(g.target)
        if t[0] != "rel" or t[1] != "=":
            raise ModelError(f"{kind}: goal is not an equality: {show(t)[:200]}")
        el = self.elab(g)
        lhs, rhs = el.value(t[2]), el.value(t[3])
        norm = RingNormalizer([lhs, rhs])
        if not (norm.norm(lhs) - norm.norm(rhs)).is_zero():
            raise ModelError(f"{kind}: the sides differ in ring normal form")
        self.verdict(line, kind, OK, "", text)
        return []

    def elab_term_against_goal(self, toks: list[Tok], g: Goal, line: int, text: str) -> Elab:
        """Elaborate the term of ``exact``/``refine`` against the goal (shared by both tactics)."""
        el = self.elab(g)
        el.proof_against(self.parse(toks, g), g.target)
        self.finish_elab(el, line, text)
        self.check_names(el, line, text)
        return el

    def atomic_intro(self, names: list[str], g: Goal, line: int, text: str) -> list[Goal]:
        cur = g
        for nm in names:
            t = cur.target
            uid = self.base.fresh(nm)
            if t[0] == "forall":
                cur = Goal(cur.ctx + (Local(uid, nm, t[2] == REAL, t[2]),), subst(t[3], {t[1]: ("fv", uid)}))
            elif t[0] == "imp":
                cur = Goal(cur.ctx + (Local(uid, nm, False, t[1]),), t[2])
            else:
                raise ModelError(f"intro {nm}: the goal {show(t)[:200]} is not a ∀ or →")
        self.verdict(line, "intro", OK, "", text)
        return [cur]

    def atomic_destruct(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        """``obtain pat := term`` / ``rcases term with pat`` (same model for both)."""
        kind, pat, term_toks = tac[0], tac[1], tac[2]
        el = self.elab(g)
        prop = el.proof(self.parse(term_toks, g))
        self.finish_elab(el, line, text)
        self.check_names(el, line, text)
        goals = self.destruct(pat, el.inst(prop), g)
        self.verdict(line, kind, OK, "", text)
        return goals

    def atomic_show(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        ty = self.parse(tac[1], g)
        el = self.elab(g)
        if not el.unify(ty, g.target):
            raise ModelError(f"show: {show(ty)[:200]} is not the goal {show(g.target)[:200]}")
        self.verdict(line, "show", OK, "", text)
        return [g.with_target(ty)]

    def check_names(self, el: Elab, line: int, text: str) -> None:
        del el, line, text

    def run_by(self, body: Any, g: Goal, line: int, text: str) -> list[Goal]:
        if isinstance(body, list) and body and isinstance(body[0], Item):
            left = self.run_block(body, [g])
        else:
            left = self.tactic(list(body), None, [g], line, text)
        if left and not left[0].unknown:
            self.verdict(line, "by", FAIL, f"unsolved goals: ⊢ {show(left[0].target)[:300]}", text)
        return left

    def destruct(self, pat: Any, prop: Any, g: Goal) -> list[Goal]:
        """rcases patterns: a name, ``⟨p, q, …⟩`` for ∧, ``p | q`` for ∨."""
        kind = pat[0]
        if kind == "name":
            uid = self.base.fresh(pat[1])
            return [g.add(Local(uid, pat[1], False, prop))]
        if kind == "tuple":
            parts = list(pat[1])
            if len(parts) == 1:
                return self.destruct(parts[0], prop, g)
            p = canon(prop)
            if p[0] != "and":
                raise ModelError(f"rcases: ⟨…⟩ pattern on {show(prop)[:200]}, not a conjunction")
            goals = self.destruct(parts[0], p[1], g)
            rest = ("tuple", tuple(parts[1:]))
            out = []
            for gg in goals:
                out += self.destruct(rest, p[2], gg)
            return out
        if kind == "alts":
            parts = list(pat[1])
            if len(parts) == 1:
                return self.destruct(parts[0], prop, g)
            p = canon(prop)
            if p[0] != "or":
                raise ModelError(f"rcases: `|` pattern on {show(prop)[:200]}, not a disjunction")
            left = self.destruct(parts[0], p[1], g)
            right = self.destruct(("alts", tuple(parts[1:])), p[2], g)
            return left + right
        raise NotModelled(f"rcases pattern {pat}")

    def apply(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        el = self.elab(g)
        term = self.parse(tac[1], g)
        head, args = (term[1], list(term[2])) if term[0] == "app" else (term, [])
        binders, concl = el.telescope(head)
        prop = el.apply_telescope(binders, concl, args, None)
        bs, c = _pi_binders(el.inst(prop))
        m: dict[Any, Any] = {}
        premises = []
        for uid, ty, _ in bs:
            if ty in (REAL, NAT):
                m[uid] = el.mvar()
            else:
                premises.append(subst(ty, m))
        c = subst(c, m)
        if not el.unify(c, g.target):
            raise ModelError(f"apply: {show(el.inst(c))[:200]} does not match the goal {show(g.target)[:200]}")
        self.finish_elab(el, line, text)
        new = [el.inst(p) for p in premises]
        if any(has_mvar(p) for p in new):
            raise NotModelled("apply leaving metavariables in new goals")
        self.verdict(line, "apply", OK, "", text)
        return [g.with_target(p) for p in new]

    def rewrite(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        rules, loc = tac[1], tac[2]
        if loc:
            raise NotModelled("not modelled: rw at a hypothesis")
        t = g.target
        for rev, rule in rules:
            name = rule[1] if rule[0] == "const" else None
            if rev or name not in RW_LEMMAS:
                raise NotModelled(f"not modelled: rw with {'← ' if rev else ''}{show(rule)[:100]}")
            op = "≥" if name == "ge_iff_le" else ">"
            new, hit = _rewrite_rel(t, op)
            if not hit:
                raise ModelError(f"rw [{name}]: did not find an instance of the pattern `_ {op} _` in the goal")
            t = new
        self.verdict(line, "rw", OK, "", text)
        c = canon(t)
        if c[0] == "rel" and c[1] in ("≤", "=") and c[2] == c[3]:
            return []          # rw closes the goal with rfl
        return [g.with_target(t)]

    def calc(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        steps = tac[1]
        first_lhs = None
        prev_rhs = None
        rel = "="
        for rel_toks, proof in steps:
            r = self.parse(rel_toks, g)
            rr = _rel(r)
            if rr is None or rr[0] not in ("=", "≤", "<"):
                raise NotModelled(f"calc step {show(r)[:100]}")
            op, a, b = rr
            if a == ("hole",):
                if prev_rhs is None:
                    raise ModelError("calc: first step starts with _")
                a = prev_rhs
            elif prev_rhs is not None and a != prev_rhs:
                raise ModelError("calc: step does not start where the previous one ended")
            if first_lhs is None:
                first_lhs = a
            step_goal = g.with_target(("rel", op, a, b))
            if proof[0] == "by":
                self.run_by(proof[1], step_goal, line, text)
            else:
                el = self.elab(step_goal)
                el.proof_against(self.parse(proof[1], step_goal), step_goal.target)
                self.finish_elab(el, line, text)
            rel = {("=", "="): "=", ("=", "≤"): "≤", ("≤", "="): "≤", ("≤", "≤"): "≤"}.get(
                (rel, op), "<")
            prev_rhs = b
        goal = canon(g.target)
        got = ("rel", rel, first_lhs, prev_rhs)
        if goal != got:
            raise ModelError(f"calc proves {show(got)[:200]}, the goal is {show(goal)[:200]}")
        self.verdict(line, "calc", OK, "", text)
        return []

    # -- linear_combination
    def linear_combination(self, tac: Any, g: Goal, line: int, text: str) -> None:
        opts, e_toks = tac[1], tac[2]
        if opts:
            raise NotModelled("linear_combination (norm := …)/(exp := …) is not modelled")
        goal = _rel(canon(g.target))
        if goal is None or goal[0] == "≠":
            raise ModelError(f"linear_combination: goal {show(g.target)[:200]} is not an (in)equality")
        gop, ga, gb = goal
        el = self.elab(g)
        if e_toks:
            exp = self.lc_expand(self.parse(e_toks, g), el, g)
        else:
            exp = ("const", ZERO)
        if exp[0] == "const":
            hop, ha, hb = "=", ZERO, ZERO
        else:
            _, hop, ha, hb = exp
        self.finish_elab(el, line, text)
        table = {("=", "="): "=", ("=", "≤"): "≤", ("=", "<"): "<", ("≤", "≤"): "≤", ("≤", "<"): "<",
                 ("<", "≤"): "≤", ("<", "<"): "≤"}
        new = table.get((hop, gop))
        if new is None:
            raise ModelError("linear_combination: cannot prove an equality from inequality hypotheses")
        lhs = el.inst(("sub", ("add", ga, hb), ("add", gb, ha)))
        if has_mvar(lhs):
            raise ModelError("linear_combination: metavariables remain in the combination")
        lhs = el.value(lhs)
        norm = RingNormalizer([lhs])
        c = RingNormalizer.constant_value(norm.norm(lhs))
        if new == "=":
            if c != 0:
                raise ModelError("linear_combination: ring1 failed, the goal minus the combination is not 0 "
                                 "in ring normal form" + ("" if c is None else f" (it is the constant {c})"))
        elif c is None:
            raise ModelError("linear_combination: ring failed, ring expressions not equal up to an additive "
                             "constant")
        elif new == "≤" and c > 0 or new == "<" and c >= 0:
            raise ModelError(f"linear_combination: comparison failed, the remainder is the constant {c}")

    def lc_expand(self, e: Any, el: Elab, g: Goal) -> Any:
        """``expandLinearCombo``: ``("proof", rel, lhs, rhs)`` or ``("const", value)``."""
        tag = e[0]
        if tag in ("add", "sub"):
            a, b = self.lc_expand(e[1], el, g), self.lc_expand(e[2], el, g)
            if a[0] == "const" and b[0] == "const":
                return ("const", (tag, a[1], b[1]))
            if tag == "add":
                if a[0] == "proof" and b[0] == "proof":
                    rel = max(a[1], b[1], key=_REL_ORDER.index)
                    return ("proof", rel, ("add", a[2], b[2]), ("add", a[3], b[3]))
                return a if a[0] == "proof" else b
            if a[0] == "proof" and b[0] == "const":
                return a
            if b[1] != "=":
                raise ModelError("linear_combination: coefficients of inequalities must be nonnegative "
                                 "(an inequality is subtracted)")
            if a[0] == "const":
                return ("proof", "=", b[3], b[2])
            return ("proof", a[1], ("add", a[2], b[3]), ("add", a[3], b[2]))
        if tag == "neg":
            a = self.lc_expand(e[1], el, g)
            if a[0] == "const":
                return ("const", ("neg", a[1]))
            if a[1] != "=":
                raise ModelError("linear_combination: coefficients of inequalities must be nonnegative "
                                 "(an inequality is negated)")
            return ("proof", "=", a[3], a[2])
        if tag in ("mul", "div"):
            a, b = self.lc_expand(e[1], el, g), self.lc_expand(e[2], el, g)
            if a[0] == "const" and b[0] == "const":
                return ("const", (tag, a[1], b[1]))
            if a[0] == "proof" and b[0] == "proof":
                raise ModelError("linear_combination supports only linear operations (proof times proof)")
            if tag == "div" and b[0] == "proof":
                raise ModelError("linear_combination supports only linear operations (division by a proof)")
            p, c = (a, b[1]) if a[0] == "proof" else (b, a[1])
            rel = p[1]
            if rel != "=":
                r = positivity_core(el.inst(c), g.ctx)
                if rel == "≤" and r not in (_POS, _NONNEG) or rel == "<" and r not in (_POS, _NONNEG):
                    raise ModelError(f"linear_combination: positivity cannot show the coefficient "
                                     f"{show(el.inst(c))[:200]} is nonnegative")
                if rel == "<" and r == _NONNEG:
                    rel = "≤"
            if tag == "div":
                return ("proof", rel, ("div", p[2], c), ("div", p[3], c))
            if a[0] == "proof":
                return ("proof", rel, ("mul", p[2], c), ("mul", p[3], c))
            return ("proof", rel, ("mul", c, p[2]), ("mul", c, p[3]))
        # a leaf: a proof of a comparison, or a value
        if _looks_like_proof(e, g, self):
            prop = canon(el.inst(el.proof(e)))
            r = _rel(prop)
            if r is None or r[0] == "≠":
                raise NotModelled(f"linear_combination term proving {show(prop)[:200]}, not an (in)equality")
            return ("proof", r[0], r[1], r[2])
        return ("const", el.value(e))


_REL_ORDER = ["=", "≤", "<"]
_NON_FINISHING = {"have", "suffices", "intro", "obtain", "rcases", "refine", "rw", "show", "constructor", "apply",
                  "field_simp", "norm_num", "simp", "ring_nf", "unknown", "push_cast", "nlinarith_pre"}
_WHY = {"field_simp": "runs the full simp set: its result is not computable here",
        "nlinarith": "heuristic product search", "polyrith": "calls an external oracle",
        "norm_num": "simp set with extensions", "simp": "simp set", "ring_nf": "normal form not modelled",
        "nlinarith_pre": ""}


def _looks_like_proof(e: Any, g: Goal, checker: Checker) -> bool:
    head = e
    while head[0] in ("app", "proj"):
        head = head[1]
    if head[0] == "fv":
        loc = g.local(head[1])
        return loc is not None and not loc.is_var
    if head[0] == "const":
        return checker.global_name(head[1]) not in FUNCTIONS
    return head[0] in ("by", "anon", "ascr") and e[0] != "ascr"


def _rewrite_rel(t: Any, op: str) -> tuple[Any, bool]:
    if not isinstance(t, tuple):
        return t, False
    if t[0] == "rel" and t[1] == op:
        return ("rel", "≤" if op == "≥" else "<", t[3], t[2]), True
    if t[0] in ("and", "or", "imp", "iff", "not"):
        parts = [_rewrite_rel(a, op) for a in t[1:]]
        return (t[0],) + tuple(p for p, _ in parts), any(h for _, h in parts)
    return t, False


def _finishing(tac: Any) -> bool:
    return tac[0] in ("linear_combination", "positivity", "linarith", "exact", "ring", "ring1") or (
        tac[0] == "seq" and tac[1] and _finishing(tac[1][-1]))


def _tac_kind(t: Any) -> str:
    return t[0]


# ---------------------------------------------------------------- tactic parser

_EXTRA_ARG_TACTICS = ("linarith", "nlinarith", "polyrith", "field_simp", "norm_num", "simp", "ring_nf", "simp_all",
                      "norm_cast", "push_cast", "gcongr", "nlinarith!", "linarith!", "aesop", "omega", "decide",
                      "simpa", "exact_mod_cast", "assumption", "trivial", "tauto", "bound")


class TacParser(_TokenCursor):
    """Tactic syntax over tokens (terms are kept as token slices, parsed per goal)."""

    def __init__(self, toks: list[Tok], block: list[Item] | None = None):
        self.toks = toks
        self.i = 0
        self.block = block

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t.kind != "eof" and t.text in texts

    def expect(self, text: str) -> None:
        t = self.next()
        if t.text != text:
            raise NotModelled(f"syntax: expected {text!r}, found {t.text or 'end'!r}")

    def seq(self) -> Any:
        tacs = [self.then()]
        while self.at(";"):
            self.next()
            if self.done():
                break
            tacs.append(self.then())
        return tacs[0] if len(tacs) == 1 else ("seq", tacs)

    def then(self) -> Any:
        t = self.one()
        while self.at("<;>"):
            self.next()
            t = ("then", t, self.one())
        return t

    def term_slice(self, stops: tuple[str, ...] = ()) -> list[Tok]:
        """Tokens of a term: up to a top-level ``;``, ``<;>``, ``|`` or a stop word."""
        return self.balanced_slice(lambda t: t.kind == "sym" and t.text in (";", "<;>", "|") or t.text in stops)

    def by_body(self) -> Any:
        """After ``by``: the nested block, or the rest of the tokens."""
        if self.done() and self.block is not None:
            b, self.block = self.block, None
            return b
        depth, start = 0, self.i
        while not self.done():
            t = self.peek()
            if t.text in _OPENERS:
                depth += 1
            elif t.text in _CLOSERS:
                if depth == 0:
                    break
                depth -= 1
            self.i += 1
        return self.toks[start:self.i]

    def one(self) -> Any:
        t = self.next()
        if t.kind == "eof":
            raise NotModelled("syntax: missing tactic")
        s = t.text
        if s == "(":
            inner = self.seq()
            self.expect(")")
            return inner
        if s == "first":
            return self.first_alts()
        if s in ("have", "suffices"):
            return self.have_or_suffices(s)
        if s == "linear_combination":
            opts = self.linear_combination_opts()
            return ("linear_combination", opts, self.term_slice())
        if s in ("positivity", "ring", "ring1", "constructor", "skip"):
            return (s,)
        if s in _EXTRA_ARG_TACTICS:
            return self.extra_args(s)
        if s == "exact" or s == "refine" or s == "apply":
            return (s, self.term_slice())
        if s == "show":
            return ("show", self.term_slice())
        if s == "intro":
            names = []
            while self.peek().kind == "ident" or self.at("_"):
                names.append(self.next().text)
            return ("intro", names)
        if s in ("obtain", "rcases"):
            if s == "obtain":
                pat = self.pattern()
                self.expect(":=")
                return ("obtain", pat, self.term_slice())
            term = self.term_slice(("with",))
            self.expect("with")
            return ("rcases", self.pattern(), term)
        if s == "rw" or s == "rewrite":
            return self.rewrite_rules()
        if s == "calc":
            raise NotModelled("calc is only modelled with one step a line")
        raise NotModelled(f"not modelled: tactic `{s}`")

    def first_alts(self) -> Any:
        alts = []
        while self.at("|"):
            self.next()
            alts.append(self.then())
        if not alts:
            raise NotModelled("syntax: first without alternatives")
        return ("first", alts)

    def have_or_suffices(self, s: str) -> Any:
        name = "this"
        if self.peek().kind == "ident" and self.peek(1).text in (":", ":="):
            name = self.next().text
        ty = None
        if self.at(":"):
            self.next()
            ty = self.term_slice((":=", "by", "from"))
        if s == "suffices":
            if ty is None:
                raise NotModelled("syntax: suffices without a type")
            if self.at("by"):
                self.next()
                return ("suffices", name, ty, "by", self.by_body())
            if self.at("from"):
                self.next()
                return ("suffices", name, ty, "term", self.term_slice())
            raise NotModelled("syntax: suffices without by/from")
        self.expect(":=")
        if self.at("by"):
            self.next()
            return ("have", name, ty, "by", self.by_body())
        return ("have", name, ty, "term", self.term_slice())

    def linear_combination_opts(self) -> list[str]:
        """Texts of the leading ``(norm := …)`` / ``(exp := …)`` options."""
        opts = []
        while self.at("(") and self.peek(1).text in ("norm", "exp") and self.peek(2).text == ":=":
            depth = 0
            while True:
                tk = self.next()
                opts.append(tk.text)
                depth += tk.text == "("
                depth -= tk.text == ")"
                if depth == 0 or tk.kind == "eof":
                    break
        return opts

    def extra_args(self, s: str) -> Any:
        """A closing tactic with its (unmodelled) arguments kept as tokens."""
        extra = []
        if self.at("only"):
            self.next()
        if self.at("["):
            extra = self.term_slice()
        while not self.done() and not self.at(";", "<;>", "|", ")"):
            extra.append(self.next())
        if s == "linarith":
            return ("linarith", extra)
        return (s, extra)

    def rewrite_rules(self) -> Any:
        self.expect("[")
        rules = []
        while not self.done() and not self.at("]"):
            rev = False
            if self.at("←", "<-"):
                self.next()
                rev = True
            toks = self.term_slice((",",))
            # a rule is a term up to a top-level comma
            rules.append((rev, _rule_term(toks)))
            if self.at(","):
                self.next()
        self.expect("]")
        loc = None
        if self.at("at"):
            self.next()
            loc = self.next().text
        return ("rw", rules, loc)

    def pattern(self) -> Any:
        alts = [self.pattern1()]
        while self.at("|"):
            self.next()
            alts.append(self.pattern1())
        return alts[0] if len(alts) == 1 else ("alts", tuple(alts))

    def pattern1(self) -> Any:
        if self.at("⟨"):
            self.next()
            parts = []
            while not self.done() and not self.at("⟩"):
                parts.append(self.pattern())
                if self.at(","):
                    self.next()
            self.expect("⟩")
            return ("tuple", tuple(parts))
        if self.at("("):
            self.next()
            p = self.pattern()
            self.expect(")")
            return p
        t = self.next()
        if t.kind != "ident" and t.text != "_":
            raise NotModelled(f"syntax: rcases pattern {t.text!r}")
        return ("name", t.text)


def _rule_term(toks: list[Tok]) -> Any:
    if len(toks) == 1 and toks[0].kind == "ident":
        return ("const", toks[0].text)
    return ("tokens", " ".join(t.text for t in toks))


# ====================================================================== entry points


def replay_text(text: str, path: str = "<string>") -> ReplayReport:
    """Run the replay model over Lean source ``text``."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200_000))   # long sums are left-nested terms
    try:
        return Checker(LeanSource(text), path).run()
    finally:
        sys.setrecursionlimit(limit)


def replay_file(path: str | Path) -> ReplayReport:
    """Run the replay model over a ``.lean`` file (see the module docstring: a model, not Lean)."""
    p = Path(path)
    return replay_text(p.read_text(encoding="utf-8"), str(p))
