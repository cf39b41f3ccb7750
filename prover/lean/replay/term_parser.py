"""Name resolution (``Scope``) and the Pratt parser of Lean terms over tokens."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from prover.lean.replay.lexing import ABS_BAR, Tok
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.sums import infer_index, insert_casts, sum_set
from prover.lean.replay.terms import (
    NAT,
    REAL,
    clean,
    family_domain,
    fin_bound,
    real_exponents,
    show,
    untyped_numerals,
)

KEYWORDS = {"with", "at", "by", "from", "fun", "then", "else", "using", "in", "do", "if", "have", "show",
            "suffices", "calc", "obtain", "rcases", "intro", "exact", "refine", "apply", "theorem", "lemma",
            "generalizing", "only", "deriving", "where", "let", "match", "end", "λ"}
_REL_OPS = {"≤": "≤", "<": "<", "=": "=", "≠": "≠", "≥": "≥", ">": ">", "<=": "≤", ">=": "≥", "!=": "≠"}
_BIN = {"+": (65, 66, "add"), "-": (65, 66, "sub"), "*": (70, 71, "mul"), "/": (70, 71, "div"),
        "^": (75, 75, "pow"), "∧": (35, 35, "and"), "∨": (30, 30, "or"), "→": (25, 25, "imp"),
        "->": (25, 25, "imp"), "↔": (20, 21, "iff")}


class Scope:
    """Name resolution: local names (latest binding wins) and the opened namespaces."""

    def __init__(self, names: dict[str, str] | None = None, opens: tuple[str, ...] = (),
                 namespace: str = "", counter: itertools.count | None = None, real_division: bool = False,
                 functions: dict[str, int] | None = None, types: dict[str, Any] | None = None):
        self.names = dict(names or {})
        #: the function locals in scope (``f : ℝ → ℝ``): uid -> arity
        self.functions = dict(functions or {})
        #: the types of the variables that are not real (``n : ℕ``, ``i : Fin n``, ``a : Fin n → ℝ``),
        #: by uid; shared (not copied) by the scopes :meth:`bind` makes, so that the types of bound
        #: variables stay known to the cast pass after parsing (uids are unique)
        self.types: dict[str, Any] = types if types is not None else {}
        self.opens = opens
        self.namespace = namespace
        self.counter = counter or itertools.count(1)
        #: the benchmark macro ``x / y => HDiv.hDiv (x : ℝ) (y : ℝ)`` is in effect
        self.real_division = real_division

    def fresh(self, name: str) -> str:
        return f"{name}#{next(self.counter)}"

    def bind(self, name: str) -> tuple[Scope, str]:
        uid = self.fresh(name)
        s = Scope(self.names, self.opens, self.namespace, self.counter, self.real_division, self.functions,
                  self.types)
        s.names[name] = uid
        return s, uid


def _big_int(digits: str) -> int:
    """``int(digits)`` without Python's 4300-digit limit (Lean numerals are unbounded)."""
    if len(digits) <= 4000:
        return int(digits)
    half = len(digits) // 2
    return _big_int(digits[:half]) * 10 ** (len(digits) - half) + _big_int(digits[half:])


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
        return t.kind == "sym" and t.text in ("(", "⟨", "_", "?_", "ℝ", "ℕ", "ℤ")

    def ident(self, text: str) -> Any:
        parts = text.split(".")
        if parts[0] in self.scope.names:
            t: Any = ("fv", self.scope.names[parts[0]])
            for p in parts[1:]:
                t = ("proj", t, p)
            return t
        if text == "π" and "Real" in self.scope.opens and "Nat" not in self.scope.opens:
            # `Real`'s scoped notation (with `Nat`'s too the token is ambiguous: not modelled)
            return ("const", "Real.pi")
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
                elif self.at("∈"):            # ``∀ i ∈ s, p`` is ``∀ i, i ∈ s → p`` (binder predicate)
                    self.next()
                    ty = ("in", self.expr(0))
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
        if s in ("ℝ", "ℕ", "ℤ"):
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
            if t.text == "↑":               # ``syntax:max "↑" term:max``: a coercion, resolved by the cast pass
                self.next()
                return ("coe", self.arg())
            if t.text == "∑":
                self.next()
                return self.big_sum()
            if t.text == "∏":
                raise NotModelled("not modelled: ∏ (finite products)")
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

    def big_sum(self) -> Any:
        """``∑ i, body`` / ``∑ i : Fin N, body`` / ``∑ i ∈ Finset.range N, body`` (Mathlib's
        ``bigsum`` syntax: the body is parsed at precedence 67, so ``∑ i, a i + 1`` is
        ``(∑ i, a i) + 1``). Other binders (``in``, ``<``, ``with``, several names) are not modelled."""
        tok = self.next()
        if tok.kind != "ident" or tok.text in KEYWORDS:
            raise NotModelled(f"not modelled: ∑ with the binder {tok.text!r}")
        ty = s = None
        if self.at(":"):
            self.next()
            ty = clean(self.expr(0))
            if ty != NAT and fin_bound(ty) is None:
                raise NotModelled(f"not modelled: a sum over the type {ty}")
        elif self.at("∈"):
            self.next()
            s = clean(self.expr(0))
        elif self.peek().kind == "ident" and self.peek().text == "in":
            raise NotModelled("not modelled: the deprecated `∑ x in s, f x` (write `∑ x ∈ s, f x`)")
        if not self.at(","):
            raise NotModelled(f"not modelled: ∑ binder followed by {self.peek().text!r}")
        self.next()
        scope, uid = self.scope.bind(tok.text)
        if ty is not None:
            scope.types[uid] = ty
        elif s is not None and s != ("const", "Finset.univ"):
            scope.types[uid] = NAT
        saved, self.scope = self.scope, scope
        body = self.expr(67)
        self.scope = saved
        return ("sum", sum_set(uid, ty, s, body, self.scope.types), uid, body)

    def quantified(self, kind: str, bs: list[tuple[str, Any]]) -> Any:
        scope, uids = self.scope, []
        untyped = [ty is None for _, ty in bs]
        if any(untyped) and kind != "forall":
            raise NotModelled("syntax: binders without a type are not modelled")
        for nm, ty in bs:
            scope, uid = scope.bind(nm)
            if isinstance(ty, tuple) and ty[0] == "in":
                if kind != "forall":
                    raise NotModelled("syntax: `∃ x ∈ s` is not modelled")
                ty = ("in", clean(ty[1]))
            elif ty is not None:
                ty = clean(ty)
                if ty == NAT or fin_bound(ty) is not None:
                    scope.types[uid] = ty
            uids.append((uid, ty))
        saved, self.scope = self.scope, scope
        body = self.expr(0)
        self.scope = saved
        typed: list[tuple[str, Any]] = []
        guards: dict[str, Any] = {}
        for uid, ty in uids:
            if isinstance(ty, tuple) and ty[0] == "in":
                # ``∀ i ∈ s, p`` (Mathlib's binder predicate): ``∀ i, i ∈ s → p``
                st = ty[1]
                if st[0] == "app" and st[1] == ("const", "Finset.range") and len(st[2]) == 1:
                    ity = NAT
                else:
                    raise NotModelled(f"not modelled: `∀ x ∈ {st}` (only `Finset.range N`)")
                self.scope.types[uid] = ity
                guards[uid] = st
                typed.append((uid, ity))
            elif ty is None:
                ity = infer_index(body, uid, self.scope.types)
                if ity is not None:
                    self.scope.types[uid] = ity
                typed.append((uid, ity))
            else:
                typed.append((uid, ty))
        if any(ty is None for _, ty in typed):
            if not all(ty is None for _, ty in typed):
                raise NotModelled("syntax: binders without a type are not modelled")
            typed = [(uid, REAL) for uid, _ in typed]
            if not _defines_function(body, [uid for uid, _ in typed], self.scope.functions):
                raise NotModelled("syntax: binders without a type are not modelled (only in `∀ x, f x = E` "
                                  "for a function local `f`, and an index `∀ i, P (a i)` of a family `a`)")
        for uid, ty in reversed(typed):
            if uid in guards:
                body = ("imp", ("mem", ("fv", uid), guards[uid]), body)
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
            if s == "∈":            # infix:50, a proposition ``Membership.mem``
                if rbp > 50:
                    break
                self.next()
                left = ("mem", left, self.expr(51))
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


def _defines_function(body: Any, params: list[str], functions: dict[str, int]) -> bool:
    """``body`` is ``f x₁ … xₙ = E`` with ``f`` a function local of arity ``n`` and ``xᵢ`` the
    ``params`` in order: Lean infers ``xᵢ : ℝ`` from ``f``'s type (the only untyped ∀ modelled)."""
    if not (isinstance(body, tuple) and body[0] == "rel" and body[1] == "="):
        return False
    lhs = body[2]
    return (lhs[0] == "app" and lhs[1][0] == "fv" and functions.get(lhs[1][1]) == len(params)
            and lhs[2] == tuple(("fv", p) for p in params))


def parse_term(toks: list[Tok], scope: Scope, *, whole: bool = True) -> Any:
    p = TermParser(toks, scope)
    t = p.expr(0)
    if whole and not p.done():
        raise NotModelled(f"syntax: unexpected {p.peek().text!r} after a term")
    t = insert_casts(t, scope.types)
    untyped = untyped_numerals(t)
    if untyped is not None:
        raise ModelError(f"`{show(clean(untyped))[:120]}`: no leaf fixes the type, so its numerals elaborate at ℕ, "
                         "where a real power, |·| and negation do not exist and - and / truncate (write `(n : ℝ)`)")
    t = clean(t)
    return real_exponents(t) if scope.real_division else t


def register_type(scope: Scope, uid: str, ty: Any) -> None:
    """Record a binder's type when it is not real (``ℕ``, ``Fin N``, a family ``Fin N → ℝ``)."""
    if ty == NAT or fin_bound(ty) is not None or family_domain(ty) is not None:
        scope.types[uid] = ty
