"""Statements over n terms: ``(n : ℕ)``, families ``a : Fin n → ℝ`` / ``a : ℕ → ℝ``, sums ``∑``.

A theorem such as ::

    theorem t (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) :
        ∑ i, a i ^ 2 ≥ n

is read as two ordinary scalar statements, each re-read by the scalar front-end in the same file
context (the declaration's text replaced in place, so every ``open`` and ``namespace`` still applies):

* the **atom-level** statement: the scalars, ``(n : ℝ)`` and one real variable per distinct sum
  (``S_1 = ∑ i, a i``, …); the hypotheses that are not per-index, each ``∑ …`` replaced by ``(S_k)``;
  the goal likewise (``theorem t (n S_1 S_2 : ℝ) (hn : 0 < n) (hs : (S_1) = n) : (S_2) ≥ n``);
* the **per-index** statement: one real variable per family (``a`` for ``a i``) and the scalars, the
  per-index hypotheses (``ha : 0 < a``), and the sums' bodies (``a ^ 2``) as the goal's parts.

What makes the rewriting faithful (Lean 4 / Mathlib v4.16, docs/notes-sum-facts.md §1):

* ``∑ x ∈ s, f`` / ``∑ x in s, f`` / ``∑ x, f`` / ``∑ x : Fin n, f`` (global syntax), the body read at
  precedence 67, so ``∑ i, a i + 1`` is ``(∑ i, a i) + 1``; the sum is a term of its own, which
  ``(S_k)`` replaces exactly. Sums over ``Finset.univ : Finset (Fin n)`` (families ``Fin n → ℝ``) or
  over ``Finset.range n`` (families ``ℕ → ℝ``), one set per statement; both have ``n`` elements.
* In a real comparison, a bare ``n`` is a leaf of the ``binop%``/``binrel%`` tree, which Lean
  elaborates as the cast ``(n : ℝ)`` (so ``n - 1`` there is real subtraction): such leaves, and
  ``(n : ℝ)``, read as the real variable ``n``. A leaf elaborated on its own (``|n|``, ``max n 1``,
  ``n⁻¹``, an exponent, an argument) is refused. A comparison with no real term is over ℕ: only
  ``n ⋈ numeral`` is read (the cast is an order embedding, so it is the same comparison over ℝ).
* A body is a real term whose index appears only as the argument of a family (``a i``); the
  per-index statement replaces ``a i`` by ``a``, which elaborates the same way (a real leaf).

Everything else (products ``∏``, nested sums, index arithmetic ``a (i + 1)``, ``with`` filters,
two index sets, ``∀`` over anything but the index set, an ℕ body) is refused in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from prover.frontend.errors import Located, ParseError
from prover.frontend.lean_file import FileContext
from prover.frontend.lexer import Token
from prover.frontend.names import MODELLED, NameError_, resolve_function, resolve_type
from prover.frontend.syntax import TYPE_NAMES, SyntaxNode, TermParser, describe
from prover.kernel import ir as KI
from prover.kernel.sums import NTermStatement

#: Node kinds through which a bare ``n`` is still a leaf of the ``binop%`` tree (or an argument
#: elaborated at ℝ), so that Lean casts it: ``pow`` only for its base.
_CAST_THROUGH = {"add", "sub", "mul", "div", "neg", "rel", "sqrt", "exp", "log", "logb", "ascribe"}
_REAL_LEAVES = {"sqrt", "exp", "log", "logb", "pi"}


#: the scalar front-end: ``(parse_theorem, check_variable_name)`` (passed in: it imports this module)
ScalarReader = tuple[Callable[..., Any], Callable[[str, int], None]]


@dataclass(frozen=True)
class NTermReading:
    """The n-term structure of a statement the front-end read (``Problem.nterm``)."""

    statement: NTermStatement
    #: the user's text of each atom's sum (``∑ i, a i ^ 2``) and of its body at one index (``a ^ 2``)
    atom_source: tuple[str, ...]
    body_source: tuple[str, ...]
    #: per-index hypotheses: (binder name, number of comparisons, the proposition at one index
    #: (``0 < a``), how it quantifies: ``"all"`` (``∀ i``) or ``"mem"`` (``∀ i ∈ Finset.range n``,
    #: ``∀ i < n``)); the per-index statement's hypotheses are these, in order (a conjunction
    #: ``h`` gives ``h.1``, ``h.2``)
    index_binders: tuple[tuple[str, int, str, str], ...]
    #: the atom-level hypotheses as written (sums replaced by their atoms): (name, proposition)
    atom_binders: tuple[tuple[str, str], ...]
    atom_goal: str
    #: names of the statement's hypotheses over ℕ (``hn : 0 < n``), which the Lean file casts
    nat_hypotheses: tuple[str, ...]
    #: the atom-level and per-index declarations' texts, each inside the user's whole file
    atom_text: str
    index_text: str
    #: how to write a generated declaration into the user's file: text before and after it
    file_prefix: str = field(repr=False, default="")
    file_suffix: str = field(repr=False, default="")

    def in_file(self, declaration: str) -> str:
        """``declaration`` (a whole ``theorem …``) in place of the user's, in the user's file."""
        return self.file_prefix + declaration + self.file_suffix


def looks_like_nterm(tokens: list[Token], start: int) -> bool:
    """Does the declaration at ``tokens[start]`` sum (``∑``, ``∏``) or name ``Fin``? (A natural-number
    variable or a function ``ℕ → ℝ`` without a sum is refused by the scalar front-end.)"""
    for k in range(start, len(tokens)):
        t = tokens[k]
        if t.kind == "op" and t.text == ":=":
            return False
        if (t.kind == "op" and t.text in ("∑", "∏")) or (t.kind == "ident" and t.text == "Fin"):
            return True
    return False


@dataclass
class _Sum:
    start: int            # character span of the whole ``∑ …``
    end: int
    atom: int


@dataclass
class _Hyp:
    name: str
    start: int            # character span of the proposition
    end: int
    node: SyntaxNode
    kind: str             # "index" | "nat" | "real"
    sums: list[_Sum] = field(default_factory=list)
    parts: int = 1
    scalar: str = ""      # a per-index hypothesis at one index (``0 < a``)
    bound: str = "all"    # a per-index hypothesis: ``∀ i`` ("all") or over the index set ("mem")


class NTermDecl:
    """Reads one declaration (see the module docstring); :meth:`read` returns the two texts."""

    def __init__(self, text: str, tokens: list[Token], start: int, end: int, context: FileContext,
                 lips: bool, check_name: Callable[[str, int], None]) -> None:
        self.text, self.toks, self.end, self.context = text, tokens, end, context
        self.check_name = check_name
        self.families: dict[str, int] = {}
        self.style: str | None = None             # "fin" | "range"
        self.n: str | None = None
        self.scalars: list[str] = []
        self.binders: set[str] = set()
        self.hyps: list[_Hyp] = []
        self.bodies: list[str] = []               # per-index text of each atom's body
        self.atom_source: list[str] = []
        self._sums: list[_Sum] = []
        self._index: str | None = None            # the bound index while a body is read
        self.p = TermParser(tokens, start, resolve=self._resolve, adjacent_arguments=lips,
                            functions=self.families, big_sum=self._big_sum)

    # ------------------------------------------------------------ tokens and names
    def _end_of(self, k: int) -> int:
        t = self.toks[k]
        return t.pos + len(t.text)

    def _resolve(self, name: Token, argument: SyntaxNode) -> str:
        """Function names: only their arity matters here (the scalar front-end resolves them
        again in the generated texts, with the argument's type)."""
        try:
            return MODELLED[resolve_function(name.text, self.context.names, True)]
        except NameError_ as exc:
            raise Located(str(exc), name.pos) from None

    def _global(self, tok: Token, expected: str) -> None:
        """``tok`` is ``expected`` (``Fin``, ``Finset.range``) as Lean resolves it here."""
        if tok.kind != "ident" or tok.text != expected:
            raise Located(f"a sum or `∀` over {describe(tok)} is not supported (only `∑ i ∈ Finset.range n`, "
                          "`∑ i : Fin n` and `∑ i` over `Fin n`)", tok.pos)
        if tok.text.split(".")[0] in self.binders or not resolve_type(tok.text, self.context.names) \
                or any(o not in ("Real", "BigOperators", "Nat", "Topology", "Classical", "Rat", "NNReal")
                       for o in self.context.names.opens):
            raise Located(f"cannot tell what `{tok.text}` names here (a local, a declaration of this "
                          "file or an `open` namespace may shadow it)", tok.pos)

    def _bound(self, tok: Token) -> None:
        """``tok`` names the natural number ``n`` bounding the index set."""
        if tok.kind == "num":
            raise Located(f"a sum or `∀` over a numeral bound ({tok.text}) is not supported: write its terms out",
                          tok.pos)
        if tok.kind != "ident" or tok.text != self.n:
            raise Located(f"the index set must be bounded by the natural number `{self.n or 'n'}` of the "
                          f"statement (found {describe(tok)})", tok.pos)

    def _name(self, tok: Token) -> str:
        if tok.kind != "ident":
            raise Located(f"expected a name, found {describe(tok)}", tok.pos)
        self.check_name(tok.text, tok.pos)
        if tok.text in self.binders:
            raise Located(f"`{tok.text}` is bound twice (Lean's later binder shadows the earlier one)", tok.pos)
        return tok.text

    # ------------------------------------------------------------ sums
    def _big_sum(self, p: TermParser, tok: Token) -> SyntaxNode:
        """``∑ i, body`` / ``∑ i : Fin n, body`` / ``∑ i ∈ Finset.range n, body`` (``in`` too)."""
        if tok.text == "∏":
            raise Located("products `∏` are not supported (only sums `∑`)", tok.pos)
        if self._index is not None:
            raise Located("a sum inside a sum is not supported", tok.pos)
        start = tok.pos
        p.advance()
        index = p.advance()
        if index.kind != "ident" or index.text in self.families or index.text == self.n:
            raise Located(f"expected the sum's index (a fresh name), found {describe(index)}", index.pos)
        self._set(p, "sum")
        if p.at("with"):
            raise Located("a sum with a `with` filter is not supported", p.peek().pos)
        p.expect(",", " after the sum's index")
        self._index = index.text
        try:
            first = p.i
            body = p.term(67)
        finally:
            self._index = None
        end = self._end_of(p.i - 1)
        scalar = self._index_free(body, index.text, first, p.i, "a sum's body")
        if scalar in self.bodies:
            atom = self.bodies.index(scalar)
        else:
            atom = len(self.bodies)
            self.bodies.append(scalar)
            self.atom_source.append(self.text[start:end])
        self._sums.append(_Sum(start, end, atom))
        return SyntaxNode("bigsum", start, (), str(atom))

    def _set(self, p: TermParser, what: str) -> None:
        """The index set after the bound name: nothing / ``: Fin n`` (univ) / ``∈ Finset.range n``
        (``in``) / ``< n`` (a ``∀`` over ``range``). Fixes the statement's style."""
        t = p.peek()
        if t.kind == "op" and t.text == ":":
            p.advance()
            self._global(p.advance(), "Fin")
            self._bound(p.advance())
            style = "fin"
        elif (t.kind == "op" and t.text == "∈") or (t.kind == "ident" and t.text == "in"):
            p.advance()
            self._global(p.advance(), "Finset.range")
            self._bound(p.advance())
            style = "range"
        elif t.kind == "op" and t.text == "<" and what == "∀":
            p.advance()
            self._bound(p.advance())
            style = "range"
        elif t.kind == "op" and t.text in ("<", "≤", ">", "≥", "≠", "∉"):
            raise Located(f"a {what} over `{t.text}` is not supported (write `∈ Finset.range n`)", t.pos)
        elif t.kind == "op" and t.text == "(":
            raise Located(f"a parenthesised {what} binder is not supported", t.pos)
        else:
            if what == "sum" and self.style == "range":
                raise Located("`∑ i, …` sums over a finite type: with families `ℕ → ℝ` write "
                              "`∑ i ∈ Finset.range n, …`", t.pos)
            return
        if self.style is not None and style != self.style:
            raise Located("all sums and per-index hypotheses must range over the same set "
                          f"({'Fin n' if self.style == 'fin' else 'Finset.range n'} here)", t.pos)
        self.style = style

    def _index_free(self, node: SyntaxNode, index: str, first: int, stop: int, what: str) -> str:
        """The text of tokens ``first``..``stop`` with each ``a i`` written ``a``, after checking
        that the index appears only as a family's argument and ``n`` not at all."""
        apps = 0
        stack = [node]
        while stack:
            m = stack.pop()
            if m.kind == "app":
                arg = m.args[0]
                if m.value not in self.families or arg.kind != "var" or arg.value != index:
                    raise Located(f"a family may only be applied to the index `{index}` ({what})", m.pos)
                apps += 1
                continue
            if m.kind == "var" and m.value == index:
                raise Located(f"the index `{index}` may only appear as a family's argument `a {index}` "
                              f"({what})", m.pos)
            if m.kind == "var" and m.value == self.n:
                raise Located(f"`{self.n}` inside {what} is not supported", m.pos)
            stack.extend(m.args)
        if apps == 0:
            raise Located(f"{what} applies no family (`a {index}`)", node.pos)
        pieces, last = [], self.toks[first].pos
        for k in range(first, stop - 1):
            t, u = self.toks[k], self.toks[k + 1]
            if t.kind == "ident" and t.text in self.families and u.kind == "ident" and u.text == index:
                pieces.append(self.text[last:t.pos] + t.text)
                last = self._end_of(k + 1)
        pieces.append(self.text[last:self._end_of(stop - 1)])
        return "".join(pieces)

    # ------------------------------------------------------------ binders
    def read(self) -> tuple[str, str, str]:
        """The declaration's keyword and name, the atom-level text and the per-index text."""
        p = self.p
        kw = p.advance()
        name = "example" if kw.text == "example" else p.advance().text
        head = f"{kw.text} {name}" if kw.text != "example" else "example"
        while p.peek().kind == "op" and p.peek().text in ("(", "{", "⦃", "["):
            self._binder()
        colon = p.expect(":", " before the goal")
        goal = self._proposition("goal", p.i)
        if self.n is None or not self.families:
            raise Located("a sum needs `(n : ℕ)` and a family `(a : Fin n → ℝ)` or `(a : ℕ → ℝ)`", colon.pos)
        if goal.node.kind == "and":
            raise Located("a conjunction `∧` in the goal of a statement over n terms is not supported",
                          goal.node.pos)
        if not (p.i >= self.end or p.at(":=")):
            raise Located(f"unexpected {describe(p.peek())} after the goal", p.peek().pos)
        if not self.bodies:
            raise Located("a statement over n terms needs a sum `∑` in its hypotheses or goal", colon.pos)
        self.goal = goal
        return head, self._atom_text(head, goal), self._index_text(head)

    def _binder(self) -> None:
        p = self.p
        open_tok = p.advance()
        if open_tok.text == "[":
            raise Located("instance binder `[…]` is not supported", open_tok.pos)
        close = {"(": ")", "{": "}", "⦃": "⦄"}[open_tok.text]
        names: list[Token] = []
        while p.peek().kind == "ident" and p.peek().text not in TYPE_NAMES and p.peek().text != "Fin":
            names.append(p.advance())
        if not names:
            raise Located(f"expected binder names, found {describe(p.peek())}", p.peek().pos)
        p.expect(":", " in a binder")
        t = p.peek()
        if t.kind == "ident" and (t.text in TYPE_NAMES or t.text == "Fin"):
            self._typed(names, close)
        else:
            if open_tok.text != "(":
                raise Located("a hypothesis in `{…}` is not supported", open_tok.pos)
            self._hypothesis(names)
        p.expect(close, " to end the binder")

    def _typed(self, names: list[Token], close: str) -> None:
        p = self.p
        ty = p.advance()
        arrow = p.at("→")
        if ty.text == "Fin" or arrow:
            if ty.text == "Fin":
                self._global(ty, "Fin")
                self._bound(p.advance())
                style = "fin"
            else:
                if TYPE_NAMES.get(ty.text) != "N" or not resolve_type(ty.text, self.context.names):
                    raise Located("families must be `Fin n → ℝ` or `ℕ → ℝ`", ty.pos)
                style = "range"
            p.expect("→", " (a family `Fin n → ℝ`)")
            real = p.advance()
            if TYPE_NAMES.get(real.text) != "R" or not resolve_type(real.text, self.context.names):
                raise Located("families must be real-valued (`Fin n → ℝ`, `ℕ → ℝ`)", real.pos)
            if self.style is not None and self.style != style:
                raise Located("all families must have the same index type (`Fin n` or `ℕ`)", ty.pos)
            self.style = style
            for tok in names:
                self.families[self._name(tok)] = 1
                self.binders.add(tok.text)
            return
        kind = TYPE_NAMES[ty.text]
        if not resolve_type(ty.text, self.context.names):
            raise Located(f"cannot tell what `{ty.text}` names here", ty.pos)
        if kind == "N":
            if self.n is not None or len(names) != 1:
                raise Located("only one natural-number variable (the number of terms) is supported",
                              names[-1].pos)
            self.n = self._name(names[0])
            self.binders.add(self.n)
        elif kind == "R":
            for tok in names:
                self.scalars.append(self._name(tok))
                self.binders.add(tok.text)
        else:
            raise Located(f"variables of type `{ty.text}` are not supported", ty.pos)

    def _hypothesis(self, names: list[Token]) -> None:
        if len(names) != 1:
            raise Located("one name per hypothesis binder, please", names[1].pos)
        name = names[0].text
        if name in self.binders:
            raise Located(f"`{name}` is bound twice (Lean's later binder shadows the earlier one)", names[0].pos)
        self.binders.add(name)
        p = self.p
        if p.at("∀"):
            self.hyps.append(self._for_all(name))
            return
        hyp = self._proposition(name, p.i)
        self.hyps.append(hyp)

    def _for_all(self, name: str) -> _Hyp:
        p = self.p
        p.advance()
        index = p.advance()
        if index.kind != "ident" or index.text in self.families or index.text == self.n:
            raise Located(f"expected the index of `∀` (a fresh name), found {describe(index)}", index.pos)
        bound = "all" if p.peek().kind == "op" and p.peek().text in (",", ":") else "mem"
        self._set(p, "∀")
        p.expect(",", " after the bound index")
        first = p.i
        self._index = index.text
        try:
            node = p.term(0)
        finally:
            self._index = None
        parts = list(node.args) if node.kind == "and" else [node]
        if any(part.kind != "rel" for part in parts):
            raise Located("a per-index hypothesis must be comparisons (joined by `∧`)", node.pos)
        scalar = self._index_free(node, index.text, first, p.i, "a per-index hypothesis")
        return _Hyp(name, self.toks[first].pos, self._end_of(p.i - 1), node, "index", parts=len(parts),
                    scalar=scalar, bound=bound)

    def _proposition(self, name: str, first: int) -> _Hyp:
        before = len(self._sums)
        node = self.p.term(0)
        hyp = _Hyp(name, self.toks[first].pos, self._end_of(self.p.i - 1), node, "real",
                   sums=self._sums[before:])
        parts = list(node.args) if node.kind == "and" else [node]
        hyp.parts = len(parts)
        self._family_outside(node)
        if self.n is not None and any(_mentions(part, self.n) for part in parts):
            if not any(_is_real(part, self.scalars) for part in parts):
                for part in parts:
                    _nat_comparison(part, self.n)
                hyp.kind = "nat"
            else:
                for part in parts:
                    _cast_leaves(part, self.n, real=_is_real(part, self.scalars))
        return hyp

    def _family_outside(self, node: SyntaxNode) -> None:
        stack = [node]
        while stack:
            m = stack.pop()
            if m.kind == "app":
                raise Located(f"`{m.value} …` outside a sum: its index is not bound there", m.pos)
            stack.extend(m.args)

    # ------------------------------------------------------------ the generated texts
    def _replaced(self, hyp: _Hyp) -> str:
        out, last = [], hyp.start
        for s in hyp.sums:
            out.append(self.text[last:s.start] + f"({self.atom_names[s.atom]})")
            last = s.end
        out.append(self.text[last:hyp.end])
        return "".join(out)

    @property
    def atom_names(self) -> list[str]:
        used = {t.text for t in self.toks if t.kind == "ident"}
        prefix = next(p for p in ("S", "Sum", "S_sum", "Ssum") if not any(
            u == p or (u.startswith(p + "_") and u[len(p) + 1:].isdigit()) for u in used))
        return [f"{prefix}_{k + 1}" for k in range(len(self.bodies))]

    def _atom_text(self, head: str, goal: _Hyp) -> str:
        variables = " ".join([*self.scalars, self.n or "n", *self.atom_names])
        binders = [f"({variables} : ℝ)"]
        binders += [f"({h.name} : {self._replaced(h)})" for h in self.hyps if h.kind != "index"]
        return f"{head} {' '.join(binders)} : {self._replaced(goal)} := by sorry"

    def _index_text(self, head: str) -> str:
        variables = " ".join([*self.families, *self.scalars])
        binders = [f"({variables} : ℝ)"]
        binders += [f"({h.name} : {h.scalar})" for h in self.hyps if h.kind == "index"]
        goal = " ∧ ".join(f"({b}) = 0" for b in self.bodies)
        return f"{head} {' '.join(binders)} : {goal} := by sorry"


def _mentions(node: SyntaxNode, n: str) -> bool:
    stack = [node]
    while stack:
        m = stack.pop()
        if m.kind == "var" and m.value == n:
            return True
        stack.extend(m.args)
    return False


def _is_real(node: SyntaxNode, scalars: list[str]) -> bool:
    """Does the comparison have a real term (a scalar, a sum, a real function or ascription)?"""
    stack = [node]
    while stack:
        m = stack.pop()
        if m.kind == "bigsum" or m.kind in _REAL_LEAVES or (m.kind == "var" and m.value in scalars) \
                or (m.kind == "ascribe" and m.value == "R") or (m.kind == "num" and "." in m.value):
            return True
        stack.extend(m.args[:1] if m.kind == "pow" else m.args)
    return False


def _nat_comparison(node: SyntaxNode, n: str) -> None:
    """An ℕ comparison: only ``n ⋈ numeral`` (or ``numeral ⋈ n``)."""
    if node.kind == "rel":
        a, b = node.args
        if (a.kind == "var" and a.value == n and b.kind == "num" and b.value.isdigit()) or \
                (b.kind == "var" and b.value == n and a.kind == "num" and a.value.isdigit()):
            return
    raise Located(f"a comparison over ℕ must compare `{n}` with a numeral (write `({n} : ℝ)` for a real one)",
                  node.pos)


def _cast_leaves(node: SyntaxNode, n: str, real: bool) -> None:
    """Every ``n`` in a real comparison is a leaf Lean casts (see :data:`_CAST_THROUGH`)."""
    stack: list[tuple[SyntaxNode, bool]] = [(node, True)]
    while stack:
        m, ok = stack.pop()
        if m.kind == "var" and m.value == n and not ok:
            raise Located(f"`{n}` here is elaborated as a natural number on its own (write `({n} : ℝ)`)", m.pos)
        if m.kind == "ascribe" and m.value != "R":
            raise Located("only `(… : ℝ)` ascriptions are supported in a statement over n terms", m.pos)
        if m.kind == "pow":
            stack.append((m.args[0], ok))
            if _mentions(m.args[1], n):
                raise Located(f"`{n}` in an exponent is not supported (write `(… : ℝ) ^ ({n} : ℝ)`)", m.args[1].pos)
            stack.append((m.args[1], False))
            continue
        through = ok and m.kind in _CAST_THROUGH
        if m.kind == "ascribe" and m.value == "R":
            through = True
        stack.extend((a, through) for a in m.args)


def read_nterm(text: str, tokens: list[Token], start: int, end: int, context: FileContext, lips: bool,
               span: tuple[int, int], name: str | None, scalar: ScalarReader):
    """The Problem of an n-term declaration (the atom-level statement, ``nterm`` set); ``scalar``
    gives the scalar front-end's ``parse_theorem`` and ``check_variable_name``."""
    parse_theorem, check_name = scalar
    decl = NTermDecl(text, tokens, start, end, context, lips, check_name)
    _, atom_decl, index_decl = decl.read()
    prefix, suffix = text[:span[0]], text[span[1]:]
    try:
        atoms = parse_theorem(prefix + atom_decl + suffix, real_division=lips, name=name)
        index = parse_theorem(prefix + index_decl + suffix, real_division=lips, name=name)
    except ParseError as exc:
        raise Located(f"in a statement over n terms: {exc.message}", tokens[start].pos) from None
    return _problem(decl, atoms, index, atom_decl, index_decl, prefix, suffix)


def _problem(decl: NTermDecl, atoms, index, atom_decl: str, index_decl: str, prefix: str, suffix: str):
    from dataclasses import replace

    if atoms.faithful is None or index.faithful is None:
        raise Located("internal: the scalar front-end gave no faithful reading", 0)
    bodies = index.faithful.goal_parts or (index.faithful.goal,)
    statement = NTermStatement(
        n=decl.n or "n", index_set=decl.style or "fin", families=tuple(decl.families),
        scalars=tuple(decl.scalars), index_hypotheses=tuple(index.faithful.hypotheses),
        atoms=tuple(zip(decl.atom_names, (b.lhs for b in bodies))),
        statement=KI.Statement(tuple(atoms.variables), tuple(atoms.faithful.hypotheses), atoms.faithful.goal))
    reading = NTermReading(
        statement=statement, atom_source=tuple(decl.atom_source), body_source=tuple(decl.bodies),
        index_binders=tuple((h.name, h.parts, h.scalar, h.bound) for h in decl.hyps if h.kind == "index"),
        atom_binders=tuple((h.name, decl._replaced(h)) for h in decl.hyps if h.kind != "index"),
        atom_goal=decl._replaced(decl.goal),
        nat_hypotheses=tuple(h.name for h in decl.hyps if h.kind == "nat"),
        atom_text=atom_decl, index_text=index_decl, file_prefix=prefix, file_suffix=suffix)
    meta = dict(atoms.meta)
    meta["nterm"] = True
    return replace(atoms, meta=meta, nterm=reading)
