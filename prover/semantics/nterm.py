"""Statements over ``n`` terms: reader, printer and evaluator with Lean 4 / Mathlib meaning.

Independent of :mod:`prover.frontend` (its own tokenizer, parser and typing rules; only the node type
:class:`~prover.semantics.lean_ast.LExpr` and the values of :mod:`~prover.semantics.lean_eval` are shared
with the rest of ``prover.semantics``). The generator and the differential fuzzer that use it are in
:mod:`prover.semantics.fuzz_nterm`.

The language (the front-end's accepted n-term subset, plus what it must refuse, so that both can be
written, read back and classified):

* binders ``(n : ℕ)`` (a natural-number variable), ``(x y : ℝ)`` (scalars), ``(a b : Fin n → ℝ)`` and
  ``(a : ℕ → ℝ)`` (families), hypotheses ``(h : P)`` and per-index hypotheses ``(h : ∀ i, P)``,
  ``(h : ∀ i : Fin n, P)``, ``(h : ∀ i ∈ Finset.range n, P)`` (``P`` a comparison or a conjunction);
* terms: those of :mod:`~prover.semantics.lean_ast` (numerals, scalars, ``+ - * / ^ ⁻¹``, ``√``,
  ``Real.sqrt``, ``|…|``, ascriptions) plus the nodes ``nvar`` (the natural number ``n``: ``value`` its
  name), ``fam`` (a family application ``a i``: ``value`` the family, ``args`` the argument) and
  ``sum``/``prod`` (:func:`big`: ``∑ i, body`` over ``Finset.univ``, ``∑ i : Fin n, body``,
  ``∑ i ∈ Finset.range n, body``, the deprecated ``∑ i in Finset.range n, body``, and the refused
  ``∑ i < n, body``, ``∑ i ∈ s with p, body``, ``∏ …``).

Lean's grammar, implemented here (Mathlib ``bigsum``: ``"∑ " bigOpBinders ("with " term)? ", " term:67``,
a leading parser at max precedence): the body is parsed at precedence 67, so ``∑ i, a i + 1`` is
``(∑ i, a i) + 1``, ``∑ i, a i * b i`` is ``∑ i, (a i * b i)``, ``c * ∑ i, a i ^ 2`` is
``c * (∑ i, a i ^ 2)``, ``∑ i, a i / ∑ j, b j`` is a nested sum, and ``x * ∑ i, a i * y`` is
``x * ∑ i, (a i * y)``. A family application is an application (``a i ^ 2`` is ``(a i) ^ 2``,
``-a i`` is ``-(a i)``), its argument at max precedence with ``⁻¹`` binding to it (``a i⁻¹`` is
``a (i⁻¹)``: a Lean error); ``√`` is ``prefix:max`` (``√a i`` is ``(√a) i``: a Lean error).

Elaboration (``binop%``): a comparison is real when a leaf of either side is real (a scalar, a family
application, a sum with a real body, a root, ``(… : ℝ)``); then every ℕ leaf is cast, so
``∑ i, a i ≥ n - 1`` compares with the real ``↑n - 1`` and ``n / 2`` is the real ``↑n / 2``, while
``((n - 1 : ℕ) : ℝ)`` truncates. An exponent is elaborated on its own (``a i ^ (1 / 2)`` is
``a i ^ 0``). A sum's value is its body's type: a body with no real leaf is a ℕ sum (refused). The
index type of ``∑ i, body`` (``Finset.univ``) and of ``∀ i, P`` is the domain of the first family
applied to ``i`` (textual order, as Lean elaborates): none is an error (``∑ i, c``: the type is not
determined), ``ℕ`` for a ``∑ i`` over ``univ`` is an error (no ``Fintype ℕ``); a ``ℕ → ℝ`` family at a
``Fin n`` index is read at ``↑i`` (Lean's coercion), a ``Fin n → ℝ`` family at a natural index is an
error.

Evaluation (:class:`Evaluator`) is at an :class:`NPoint`: the natural ``n``, each family's values (a
``Fin n → ℝ`` family: ``n`` values; a ``ℕ → ℝ`` family: its values at ``0 … n − 1`` then at some
indices beyond), scalar values. Sums run over ``i < n`` and can only see the first ``n`` values (an
index beyond raises IndexError: the evaluator never looks there). A per-index hypothesis over the
index set (``Fin n``, ``Finset.range n``) is checked at ``i < n``; an unbounded ``∀ i`` over a
``ℕ → ℝ`` family quantifies over all naturals: it is checked at ``i < n`` and, separately, at the
extra indices the point gives (:meth:`Evaluator.index_hypothesis` returns both verdicts; a point
where it fails only beyond ``n`` lies outside Lean's hypotheses). Values are
:class:`~prover.semantics.lean_eval.Enclosure` s (exact rationals where the field operations and
integer powers are used; Lean's ``x / 0 = 0``, ``Real.sqrt`` of a negative is 0).

:func:`refusal` says why the front-end must refuse a statement (a Lean error, or a construct outside the
accepted subset: ``n`` in an exponent, ℕ arithmetic in a ℕ comparison, the index outside a family
application, sums over two sets, nested sums, ``∏``, ``with``, ``∑ i < n``, a ℕ body, index arithmetic
``a (i + 1)`` as docs/design-nterm-sums.md plans), or None.

:func:`reference_reading` is a faithful reading of an accepted statement into the front-end's format
(:class:`prover.kernel.sums.NTermStatement`): used to test the fuzzer itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics.lean_ast import LeanTypeError, LExpr, LHyp, LRel, ReadError, scan
from prover.semantics.lean_eval import Enclosure, RelValue

MAX = A.MAX
#: precedence of a big operator's body (Mathlib: ``", " term:67``)
BODY_PREC = 67
#: binder styles of ``∑``: ``∑ i,`` / ``∑ i : Fin n,`` / ``∑ i ∈ Finset.range n,`` / ``∑ i in …`` / ``∑ i < n,``
STYLES = ("univ", "fin", "mem", "in", "lt")
UNIV = LExpr("univ")


# ---------------------------------------------------------------- syntax tree


def nvar(name: str) -> LExpr:
    """The natural-number variable ``name`` (a ℕ leaf: cast where the tree is real)."""
    return LExpr("nvar", (), name)


def fam(family: str, argument: LExpr) -> LExpr:
    """The family application ``family argument`` (``a i``)."""
    return LExpr("fam", (argument,), family)


def big(style: str, index: str, bound: LExpr, body: LExpr, kind: str = "sum", filt: LRel | None = None) -> LExpr:
    """``∑ index …, body`` (``kind`` ``"prod"``: ``∏``); ``bound`` the ``n`` of ``Fin n`` /
    ``Finset.range n`` / ``< n`` (:data:`UNIV` for ``∑ i,``); ``filt`` a ``with`` filter."""
    if style not in STYLES:
        raise ValueError(f"unknown big-operator style {style!r}")
    value = f"{style}|{index}" + (f"|{filt.op}" if filt is not None else "")
    args = (bound, body) + ((filt.lhs, filt.rhs) if filt is not None else ())
    return LExpr(kind, args, value)


@dataclass(frozen=True)
class BigParts:
    style: str
    index: str
    bound: LExpr
    body: LExpr
    filter: LRel | None


def big_parts(e: LExpr) -> BigParts:
    style, index, *op = e.value.split("|")
    filt = LRel(op[0], e.args[2], e.args[3]) if op else None
    return BigParts(style, index, e.args[0], e.args[1], filt)


@dataclass(frozen=True)
class Binder:
    """``(names : ℕ)`` (``type`` ``"ℕ"``), ``(names : ℝ)`` (``"ℝ"``), ``(names : Fin bound → ℝ)``
    (``"fin"``) or ``(names : ℕ → ℝ)`` (``"nat"``)."""

    names: tuple[str, ...]
    type: str
    bound: str = ""


@dataclass(frozen=True)
class IndexHyp:
    """``name : ∀ index, P`` (``binder`` ``""``), ``∀ index : Fin bound, P`` (``"fin"``) or
    ``∀ index ∈ Finset.range bound, P`` (``"range"``); ``parts`` the conjunction ``P``."""

    name: str
    index: str
    binder: str
    parts: tuple[LRel, ...]
    bound: LExpr | None = None


Item = Binder | LHyp | IndexHyp


@dataclass(frozen=True)
class NStatement:
    name: str
    items: tuple[Item, ...]
    goal: LRel

    @property
    def nat_names(self) -> tuple[str, ...]:
        return tuple(x for b in self.items if isinstance(b, Binder) and b.type == "ℕ" for x in b.names)

    @property
    def n(self) -> str | None:
        names = self.nat_names
        return names[0] if names else None

    @property
    def scalars(self) -> tuple[str, ...]:
        return tuple(x for b in self.items if isinstance(b, Binder) and b.type == "ℝ" for x in b.names)

    @property
    def families(self) -> dict[str, str]:
        """Family name -> domain (``"fin"`` or ``"nat"``), in declaration order."""
        return {x: b.type for b in self.items if isinstance(b, Binder) and b.type in ("fin", "nat") for x in b.names}

    @property
    def index_hypotheses(self) -> tuple[IndexHyp, ...]:
        return tuple(h for h in self.items if isinstance(h, IndexHyp))

    def outer(self) -> list[tuple[str, LRel]]:
        """The hypotheses that are not per-index, conjunctions split, in order (name, relation)."""
        return [(h.name, r) for h in self.items if isinstance(h, LHyp) for r in h.parts]

    def relations(self) -> Iterator[LRel]:
        """Every relation of the statement (outer, per-index parts, the goal)."""
        for h in self.items:
            if isinstance(h, (LHyp, IndexHyp)):
                yield from h.parts
        yield self.goal


def subterms(e: LExpr) -> Iterator[LExpr]:
    yield e
    for a in e.args:
        yield from subterms(a)


def statement_nodes(s: NStatement) -> Iterator[LExpr]:
    for r in s.relations():
        yield from subterms(r.lhs)
        yield from subterms(r.rhs)


def sums_of(s: NStatement) -> list[LExpr]:
    return [e for e in statement_nodes(s) if e.kind in ("sum", "prod")]


# ---------------------------------------------------------------- printing

_LEVEL = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "neg": 75}
_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "^"}
_BIG = {"sum": "∑", "prod": "∏"}


def level(e: LExpr) -> int:
    """The precedence at which ``e``'s text parses (a big operator: max as a leading parser; what may
    follow it is :func:`show`'s business)."""
    k = e.kind
    if k in _LEVEL:
        return _LEVEL[k]
    if k == "sqrt":
        return MAX if e.value.startswith("√") else MAX - 1
    if k == "abs":
        return MAX if e.value == "|" else MAX - 1
    if k in ("fam", "max", "min", "exp", "log"):
        return MAX - 1
    return MAX


def _wrap(e: LExpr, need: int, follow: int) -> str:
    return show(e, follow) if level(e) >= need else f"({show(e)})"


def _argument(e: LExpr) -> str:
    """An application argument (max precedence); ``x⁻¹`` of an atom is written bare."""
    if e.kind in ("num", "var", "nvar", "paren", "cast") or (e.kind == "abs" and e.value == "|"):
        return show(e)
    if e.kind == "inv" and e.args[0].kind in ("num", "var", "nvar"):
        return show(e)
    return f"({show(e)})"


def show(e: LExpr, follow: int = 0) -> str:
    """Lean text of ``e``. ``follow``: the precedence of the operator written right after it (0: none),
    so that a big operator whose body would swallow that operator is parenthesized."""
    k, a = e.kind, e.args
    if k in ("num", "var", "nvar"):
        return e.value
    if k == "paren":
        return f"({show(a[0])})"
    if k == "cast":
        return f"({show(a[0])} : {e.value})"
    if k in ("add", "sub", "mul", "div"):
        lv = _LEVEL[k]
        return f"{_wrap(a[0], lv, lv)} {_SYM[k]} {_wrap(a[1], lv + 1, follow)}"
    if k == "pow":
        return f"{_wrap(a[0], 76, 75)} ^ {_wrap(a[1], 75, follow)}"
    if k == "neg":
        return f"-{show(a[0], follow)}" if level(a[0]) >= MAX - 1 else f"-({show(a[0])})"
    if k == "inv":
        return f"{_wrap(a[0], MAX, MAX)}⁻¹"
    if k == "sqrt":
        if e.value == "√bare":   # `√a i`: Lean reads `(√a) i`
            return f"√{show(a[0])}"
        if e.value == "√":
            arg = a[0]
            bare = level(arg) == MAX and arg.kind not in ("sum", "prod")
            return f"√{show(arg, MAX) if bare else '(' + show(arg) + ')'}"
        return f"{e.value} {_argument(a[0])}"
    if k == "abs":
        if e.value != "|":
            return f"abs {_argument(a[0])}"
        inner = show(a[0])
        return f"|({inner})|" if inner.startswith("|") or inner.endswith("|") else f"|{inner}|"
    if k == "fam":
        return f"{e.value} {_argument(a[0])}"
    if k in _BIG:
        p = big_parts(e)
        inner_follow = 0 if follow >= BODY_PREC else follow
        text = f"{_BIG[k]} {_binder_text(p)}, {_wrap(p.body, BODY_PREC, inner_follow)}"
        return f"({text})" if follow >= BODY_PREC else text
    raise ValueError(f"cannot print node {k!r}")


def _binder_text(p: BigParts) -> str:
    if p.style == "univ":
        head = p.index
    elif p.style == "fin":
        head = f"{p.index} : Fin {_argument(p.bound)}"
    elif p.style in ("mem", "in"):
        head = f"{p.index} {'∈' if p.style == 'mem' else 'in'} Finset.range {_argument(p.bound)}"
    else:
        head = f"{p.index} < {_argument(p.bound)}"
    if p.filter is not None:
        head += f" with {show_rel(p.filter)}"
    return head


def show_rel(r: LRel) -> str:
    return f"{show(r.lhs, 50)} {r.op} {show(r.rhs, 35)}"


def show_parts(parts: Sequence[LRel]) -> str:
    return " ∧ ".join(show_rel(r) for r in parts)


def show_index_hyp(h: IndexHyp) -> str:
    bound = "" if h.bound is None else _argument(h.bound)
    head = {"": h.index, "fin": f"{h.index} : Fin {bound}", "range": f"{h.index} ∈ Finset.range {bound}"}[h.binder]
    return f"∀ {head}, {show_parts(h.parts)}"


def show_binder(b: Binder) -> str:
    names = " ".join(b.names)
    ty = {"ℕ": "ℕ", "ℝ": "ℝ", "fin": f"Fin {b.bound} → ℝ", "nat": "ℕ → ℝ"}[b.type]
    return f"({names} : {ty})"


def show_statement(s: NStatement) -> str:
    parts = [f"theorem {s.name}"]
    for it in s.items:
        if isinstance(it, Binder):
            parts.append(show_binder(it))
        elif isinstance(it, IndexHyp):
            parts.append(f"({it.name} : {show_index_hyp(it)})")
        else:
            parts.append(f"({it.name} : {show_parts(it.parts)})")
    return " ".join(parts) + f" : {show_rel(s.goal)} := by sorry"


def strip_parens(e: LExpr) -> LExpr:
    """``e`` without ``paren`` nodes (the reader drops parentheses)."""
    if e.kind == "paren":
        return strip_parens(e.args[0])
    return LExpr(e.kind, tuple(strip_parens(x) for x in e.args), e.value) if e.args else e


def strip_statement(s: NStatement) -> NStatement:
    def rel(r: LRel) -> LRel:
        return LRel(r.op, strip_parens(r.lhs), strip_parens(r.rhs))

    items: list[Item] = []
    for it in s.items:
        if isinstance(it, LHyp):
            items.append(LHyp(it.name, tuple(map(rel, it.parts))))
        elif isinstance(it, IndexHyp):
            items.append(IndexHyp(it.name, it.index, it.binder, tuple(map(rel, it.parts)), it.bound))
        else:
            items.append(it)
    return NStatement(s.name, tuple(items), rel(s.goal))


# ---------------------------------------------------------------- reading

_IDENT = r"[A-Za-z_][A-Za-z0-9_'₀-₉]*"
_TOKEN = re.compile(rf"\s*(?:(\d+(?:\.\d+)?)|({_IDENT}(?:\.{_IDENT})*)|"
                    r"(:=|<=|>=|->|⁻¹|[-+*/^(){}√:≤<≥>=≠∧∈ℝℕ∀,→|∑∏]))")


class _Reader(A._Reader):
    """:mod:`lean_ast`'s reader with big operators, family applications, the ℕ variable and the
    n-term binders."""

    def __init__(self, text: str, body_prec: int = BODY_PREC) -> None:
        self.toks, self.spaced = scan(text, _TOKEN)
        self.i = 0
        self.functions = {}
        self.bound = set()
        self.nat: set[str] = set()
        self.families: dict[str, str] = {}
        self.indices: list[str] = []
        self.body_prec = body_prec

    def _name(self, t: str) -> LExpr:
        return nvar(t) if t in self.nat and t not in self.indices else A.var(t)

    def leading(self) -> LExpr:
        t = self.peek()
        if t in ("∑", "∏"):
            self.take()
            return self.big("sum" if t == "∑" else "prod")
        if t in self.families and t not in self.indices:
            self.take()
            if not self._argument_follows():
                return A.var(t)   # unapplied: a type error, classified by `refusal`
            return fam(t, self.argument())
        if t == "√":
            self.take()
            if self.peek() in self.families and self._argument_follows_at(self.i + 1):
                name = self.take()
                return A.op1("sqrt", fam(name, self.argument()), "√bare")
            return A.op1("sqrt", self.expr(MAX), "√")
        if t in self.nat and t not in self.indices:
            self.take()
            return nvar(t)
        return super().leading()

    def _argument_follows_at(self, k: int) -> bool:
        save = self.i
        self.i = k
        try:
            return self._argument_follows()
        finally:
            self.i = save

    def argument(self) -> LExpr:
        t = self.peek()
        if t in ("(", "|"):
            out = self.leading()
        elif t and t[0].isdigit():
            self.take()
            out = A.num(t)
        elif t and A._is_ident(t):
            self.take()
            out = self._name(t)
        else:
            raise ReadError(f"unsupported argument {t!r}")
        while self.peek() == "⁻¹":
            self.take()
            out = A.op1("inv", out)
        return out

    def big(self, kind: str) -> LExpr:
        index = self.take()
        if not A._is_ident(index):
            raise ReadError(f"bad bound name {index!r}")
        t = self.peek()
        bound = UNIV
        if t in (",", "with"):
            style = "univ"
        elif t == ":":
            self.take()
            if self.take() != "Fin":
                raise ReadError("only `∑ i : Fin n,` is read")
            style, bound = "fin", self.argument()
        elif t in ("∈", "in"):
            self.take()
            if self.take() != "Finset.range":
                raise ReadError("only `Finset.range` sets are read")
            style, bound = ("mem" if t == "∈" else "in"), self.argument()
        elif t == "<":
            self.take()
            style, bound = "lt", self.argument()
        else:
            raise ReadError(f"unexpected {t!r} in a big-operator binder")
        self.indices.append(index)
        try:
            filt = None
            if self.peek() == "with":
                self.take()
                filt = self.rel()
            self.take(",")
            body = self.expr(self.body_prec)
        finally:
            self.indices.pop()
        return big(style, index, bound, body, kind, filt)

    def statement(self) -> NStatement:  # type: ignore[override]
        kw = self.take()
        if kw not in ("theorem", "lemma", "example"):
            raise ReadError("expected `theorem`")
        name = "example" if kw == "example" else self.take()
        items: list[Item] = []
        while self.peek() == "(":
            self.take()
            names = []
            while self.peek() not in (":", ""):
                names.append(self.take())
            self.take(":")
            binder = self.binder_type(tuple(names))
            if binder is not None:
                items.append(binder)
            else:
                items.extend(self.hypothesis_items(names))
            self.take(")")
        self.take(":")
        goal = self.parenthesized_prop()
        if len(goal) != 1:
            raise ReadError("conjunction in the goal")
        return NStatement(name, tuple(items), goal[0])

    def binder_type(self, names: tuple[str, ...]) -> Binder | None:
        toks, i = self.toks, self.i

        def at(k: int) -> str:
            return toks[k] if k < len(toks) else ""

        if at(i) in ("ℕ", "Nat") and at(i + 1) == ")":
            self.i += 1
            self.nat.update(names)
            return Binder(names, "ℕ")
        if at(i) in ("ℝ", "Real") and at(i + 1) == ")":
            self.i += 1
            self.bound.update(names)
            return Binder(names, "ℝ")
        if at(i) == "Fin" and at(i + 2) == "→" and at(i + 3) in ("ℝ", "Real") and at(i + 4) == ")":
            self.i += 4
            self.families.update((x, "fin") for x in names)
            return Binder(names, "fin", at(i + 1))
        if at(i) in ("ℕ", "Nat") and at(i + 1) == "→" and at(i + 2) in ("ℝ", "Real") and at(i + 3) == ")":
            self.i += 3
            self.families.update((x, "nat") for x in names)
            return Binder(names, "nat")
        return None

    def hypothesis_items(self, names: list[str]) -> list[Item]:
        if self.peek() != "∀":
            parts = self.prop()
            return [LHyp(x, parts) for x in names]
        self.take()
        index = self.take()
        binder, bound = "", None
        if self.peek() == ":":
            self.take()
            if self.take() != "Fin":
                raise ReadError("only `∀ i : Fin n,` is read")
            binder, bound = "fin", self.argument()
        elif self.peek() == "∈":
            self.take()
            if self.take() != "Finset.range":
                raise ReadError("only `∀ i ∈ Finset.range n,` is read")
            binder, bound = "range", self.argument()
        self.take(",")
        self.indices.append(index)
        try:
            parts = self.prop()
        finally:
            self.indices.pop()
        return [IndexHyp(x, index, binder, parts, bound) for x in names]


def read_nterm(text: str, body_prec: int = BODY_PREC) -> NStatement:
    """Read an n-term declaration (parentheses dropped). ``body_prec``: the precedence of a big
    operator's body (Lean's is 67; another value reads as a front-end that got it wrong would)."""
    r = _Reader(text, body_prec)
    out = r.statement()
    if r.peek() not in ("", ":="):
        raise ReadError(f"unexpected {r.peek()!r} after the statement")
    return out


# ---------------------------------------------------------------- typing and refusal


class Refusal(Exception):
    """A statement the front-end must refuse: ``category`` (a Lean error or an unsupported construct)."""

    def __init__(self, category: str, message: str) -> None:
        super().__init__(f"{category}: {message}")
        self.category = category
        self.message = message


#: categories of :func:`refusal` that are Lean errors (the others are valid Lean outside the subset)
LEAN_ERROR = "Lean error"


def contains(e: LExpr, kind: str) -> bool:
    return any(x.kind == kind for x in subterms(e))


def first_family(terms: Sequence[LExpr], index: str, families: Mapping[str, str]) -> str | None:
    """The domain of the first family applied to the bare ``index`` in ``terms`` (textual order, as
    Lean elaborates them), or None: it fixes the type of an unannotated bound ``index``."""
    for t in terms:
        for x in subterms(t):
            if x.kind == "fam" and x.value in families and x.args[0] == A.var(index):
                return families[x.value]
    return None


def is_real(e: LExpr, indices: Mapping[str, Any] | set[str] | frozenset[str] = frozenset()) -> bool:
    """Does Lean elaborate ``e`` as ℝ (a real leaf somewhere, the exponent of ``^`` aside)?
    ``indices``: the bound indices in scope (index-typed leaves, not real)."""
    k = e.kind
    if k == "var":
        return e.value not in indices
    if k in ("fam", "sqrt", "abs", "exp", "log", "max", "min", "logb", "pi", "app"):
        return True
    if k in ("num", "nvar", "univ"):
        return False
    if k == "cast":
        return e.value == "ℝ"
    if k == "pow":
        return is_real(e.args[0], indices)
    if k in _BIG:
        p = big_parts(e)
        return is_real(p.body, set(indices) | {p.index})
    return any(is_real(x, indices) for x in e.args)


def _own_type(e: LExpr, indices: Mapping[str, Any]) -> str:
    """``"real"``, ``"nat"`` (a ℕ-typed leaf and no real one) or ``"poly"`` (numerals only)."""
    if is_real(e, indices):
        return "real"
    for x in subterms(e):
        if x.kind == "nvar" or (x.kind == "var" and x.value in indices) or (x.kind == "cast" and x.value == "ℕ"):
            return "nat"
    return "poly"


def _need_real(real: bool, what: str) -> None:
    """Refuse ``what`` (a real-only construct) in a ℕ term: Lean does not elaborate it there."""
    if not real:
        raise Refusal(LEAN_ERROR, f"{what} in a ℕ term")


@dataclass
class _Checker:
    stmt: NStatement
    sets: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.families = self.stmt.families
        self.scalars = set(self.stmt.scalars)
        self.n = self.stmt.n

    def run(self) -> None:
        s = self.stmt
        if self.n is None:
            raise Refusal("no natural number", "no `(n : ℕ)` binder")
        if len(s.nat_names) > 1:
            raise Refusal("two natural numbers", f"ℕ variables {s.nat_names}")
        for b in s.items:
            if isinstance(b, Binder) and b.type == "fin" and b.bound != self.n:
                raise Refusal("index set", f"`Fin {b.bound}` is not `Fin {self.n}`")
        for h in s.items:
            if isinstance(h, IndexHyp):
                self.index_hyp(h)
            elif isinstance(h, LHyp):
                for r in h.parts:
                    self.outer(r)
        self.outer(s.goal)
        if len(set(self.sets)) > 1:
            raise Refusal("sums over two different sets", ", ".join(sorted({f"{t} {b}" for t, b in self.sets})))
        for t, b in self.sets:
            if b != self.n:
                raise Refusal("index set", f"a sum over {'Fin' if t == 'fin' else 'Finset.range'} {b}")

    def outer(self, r: LRel) -> None:
        real = is_real(r.lhs) or is_real(r.rhs)
        if not real:
            for side in (r.lhs, r.rhs):
                s = strip_parens(side)
                if contains(s, "nvar") and s.kind != "nvar":
                    raise Refusal("ℕ arithmetic in an ℕ comparison", show_rel(r))
        self.check(r.lhs, real, {})
        self.check(r.rhs, real, {})

    def index_hyp(self, h: IndexHyp) -> None:
        terms = [x for r in h.parts for x in (r.lhs, r.rhs)]
        if any(contains(t, "sum") or contains(t, "prod") for t in terms):
            raise Refusal("sum inside a per-index hypothesis", show_index_hyp(h))
        if h.binder == "":
            t = first_family(terms, h.index, self.families)
            if t is None:
                raise Refusal(LEAN_ERROR, f"the type of `{h.index}` in `∀ {h.index},` is not determined")
        else:
            t = "fin" if h.binder == "fin" else "nat"
            if h.bound != nvar(self.n):
                raise Refusal("index set", f"a per-index hypothesis over {show(h.bound) if h.bound else '?'}")
        scope = {h.index: t}
        for r in h.parts:
            real = is_real(r.lhs, scope) or is_real(r.rhs, scope)
            self.check(r.lhs, real, scope)
            self.check(r.rhs, real, scope)

    def check(self, e: LExpr, real: bool, scope: dict[str, str]) -> None:
        k, a = e.kind, e.args
        if k == "num":
            if not real and not e.value.isdigit():
                raise Refusal(LEAN_ERROR, f"decimal {e.value} in a ℕ term")
        elif k == "var":
            self.variable(e.value, real, scope)
        elif k == "nvar":
            pass
        elif k == "fam":
            _need_real(real, f"`{e.value} …`")
            self.family(e, scope)
        elif k == "prod":
            raise Refusal("product", "`∏`")
        elif k == "sum":
            self.big(e, real, scope)
        elif k in ("add", "sub", "mul", "div", "paren"):
            for x in a:
                self.check(x, real, scope)
        else:
            self.function(e, real, scope)

    def variable(self, name: str, real: bool, scope: dict[str, str]) -> None:
        """A bare identifier: only a real scalar (not an index, not an unapplied family)."""
        if name in scope:
            raise Refusal("index outside a family application", f"`{name}` used as a value")
        if name in self.families:
            raise Refusal(LEAN_ERROR, f"the family `{name}` is not applied")
        if name not in self.scalars:
            raise Refusal(LEAN_ERROR, f"unknown identifier `{name}` (a free index?)")
        _need_real(real, f"the real variable `{name}`")

    def function(self, e: LExpr, real: bool, scope: dict[str, str]) -> None:
        """A function or power node (``√``, ``|·|``, ``⁻¹``, ``-``, ``exp`` …, casts, ``^``): where
        it needs a real context, and the type its arguments are checked at."""
        k, a = e.kind, e.args
        if k == "sqrt":
            if e.value == "√bare":
                raise Refusal(LEAN_ERROR, "`√a i` is `(√a) i`")
            _need_real(real, "`√`")
            self.check(a[0], True, scope)
        elif k in ("abs", "inv"):
            if _own_type(a[0], scope) == "nat":
                raise Refusal(LEAN_ERROR, f"`{'⁻¹' if k == 'inv' else 'abs'}` of a ℕ term")
            _need_real(real, f"`{k}`")
            self.check(a[0], True, scope)
        elif k == "neg":
            _need_real(real, "`-`")
            self.check(a[0], True, scope)
        elif k in ("exp", "log", "max", "min"):
            _need_real(real, f"`{k}`")
            for x in a:
                self.check(x, True, scope)
        elif k == "cast":
            if e.value == "ℝ":
                _need_real(real, "`(… : ℝ)`")
            self.check(a[0], e.value == "ℝ", scope)
        elif k == "pow":
            if contains(a[1], "nvar"):
                raise Refusal("n in an exponent", show(e))
            exp_real = is_real(a[1], scope)
            if exp_real and not real:
                raise Refusal(LEAN_ERROR, "a real exponent in a ℕ term")
            self.check(a[0], real, scope)
            self.check(a[1], exp_real, scope)
        else:
            raise Refusal(LEAN_ERROR, f"unknown node {k}")

    def family(self, e: LExpr, scope: dict[str, str]) -> None:
        arg, domain = e.args[0], self.families.get(e.value)
        if domain is None:
            raise Refusal(LEAN_ERROR, f"`{e.value}` is not a family")
        if arg.kind == "var" and arg.value in scope:
            if domain == "fin" and scope[arg.value] == "nat":
                raise Refusal(LEAN_ERROR, f"`{e.value} : Fin {self.n} → ℝ` at a natural index")
            return
        if arg.kind == "var" and arg.value not in self.scalars:
            raise Refusal(LEAN_ERROR, f"unknown identifier `{arg.value}` in `{show(e)}` (a free index)")
        if any(x.kind == "var" and x.value in scope for x in subterms(arg)):
            if arg.kind == "inv":
                raise Refusal(LEAN_ERROR, f"`{e.value} {show(arg)}` is `{e.value} ({show(arg)})`")
            raise Refusal("index arithmetic", f"`{show(e)}`")
        raise Refusal("family at a fixed index", f"`{show(e)}`")

    def big(self, e: LExpr, real: bool, scope: dict[str, str]) -> None:
        p = big_parts(e)
        if p.filter is not None:
            raise Refusal("with filter", f"`∑ … with {show_rel(p.filter)}`")
        if p.style == "lt":
            raise Refusal("∑ i < n", "`∑ i < n,` (a sum over Finset.Iio n)")
        if contains(p.body, "sum") or contains(p.body, "prod"):
            raise Refusal("nested sum", show(e))
        if p.style == "univ":
            t = first_family([p.body], p.index, self.families)
            if t is None:
                raise Refusal(LEAN_ERROR, f"the index type of `∑ {p.index}, …` is not determined")
            if t == "nat":
                raise Refusal(LEAN_ERROR, "`∑ i, b i` with `b : ℕ → ℝ` (no Fintype ℕ)")
            bound = self.n or ""
        else:
            t = "fin" if p.style == "fin" else "nat"
            bound = show(p.bound)
        inner = {**scope, p.index: t}
        if not is_real(p.body, inner):
            raise Refusal("ℕ-typed sum body", show(e))
        if not real:
            raise Refusal(LEAN_ERROR, "a real sum in a ℕ term")
        self.check(p.body, True, inner)
        self.sets.append((t, bound))


def refusal(stmt: NStatement) -> Refusal | None:
    """Why the front-end must refuse ``stmt`` (None: it is in the accepted subset, or valid Lean that
    the front-end may read or refuse)."""
    try:
        _Checker(stmt).run()
    except Refusal as exc:
        return exc
    return None


# ---------------------------------------------------------------- points and evaluation


@dataclass(frozen=True)
class NPoint:
    """``n``; each family's values (``Fin n → ℝ``: ``n`` of them; ``ℕ → ℝ``: at ``0 … n − 1``, then
    at ``n, n + 1, …`` for an unbounded ``∀ i``); scalar values."""

    n: int
    families: Mapping[str, Sequence[Fraction]]
    scalars: Mapping[str, Fraction]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n}
        out.update({f: [str(v) for v in vs] for f, vs in self.families.items()})
        out.update({s: str(v) for s, v in self.scalars.items()})
        return out


class _Prefix(Sequence):
    """The first ``n`` values of a family: looking at an index beyond raises IndexError."""

    def __init__(self, values: Sequence[Fraction], n: int) -> None:
        self.values, self.n = values, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):  # type: ignore[override]
        if not isinstance(i, int) or not 0 <= i < self.n:
            raise IndexError(f"index {i} outside the index set (n = {self.n})")
        return self.values[i]


@dataclass(frozen=True)
class IndexVerdict:
    """A per-index hypothesis at a point: its truth at every ``i < n`` and (an unbounded ``∀ i`` over
    a ``ℕ → ℝ`` family) at the extra indices the point gives (None: not applicable or undecided)."""

    in_range: bool | None
    beyond: bool | None = None
    unbounded: bool = False


def _and(verdicts: Sequence[bool | None]) -> bool | None:
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True


class Evaluator:
    """Lean's values of a statement's relations at a point (see the module docstring)."""

    def __init__(self, stmt: NStatement, point: NPoint) -> None:
        self.stmt, self.point, self.n = stmt, point, point.n
        self.families = stmt.families
        self.prefix = {f: _Prefix(point.families[f], point.n) for f in self.families if f in point.families}
        self.view: Mapping[str, Sequence[Fraction]] = self.prefix

    # -- terms
    def real(self, e: LExpr, env: Mapping[str, int]) -> Enclosure:
        k, a = e.kind, e.args
        if k == "num":
            return Enclosure.exact(Fraction(e.value))
        if k == "var":
            if e.value in env:
                raise LeanTypeError(f"the index `{e.value}` used as a value")
            return L.enclosure(self.point.scalars[e.value])
        if k == "nvar":
            return Enclosure.exact(self.n)
        if k == "fam":
            return Enclosure.exact(self.view[e.value][self._index(a[0], env)])
        if k == "sum":
            return self._sum(e, env)
        if k in ("paren",):
            return self.real(a[0], env)
        if k == "cast":
            return self.real(a[0], env) if e.value == "ℝ" else Enclosure.exact(self.nat(a[0], env))
        if k == "sqrt" and e.value == "√bare":
            raise LeanTypeError("`√a i` does not elaborate")
        if k in A._REAL_OPS:
            return A._REAL_OPS[k](*(self.real(x, env) for x in a))
        if k == "pow":
            base = self.real(a[0], env)
            if is_real(a[1], env):
                exponent = self.real(a[1], env)
                A._check_power_size(base, max(abs(exponent.lo), abs(exponent.hi)))
                return L.rpow(base, exponent)
            m = self.nat(a[1], env)
            A._check_power_size(base, m)
            return L.npow(base, m)
        raise LeanTypeError(f"`{k}` is not evaluated")

    def _index(self, arg: LExpr, env: Mapping[str, int]) -> int:
        if arg.kind != "var" or arg.value not in env:
            raise LeanTypeError(f"a family applied to `{show(arg)}`")
        return env[arg.value]

    def _sum(self, e: LExpr, env: Mapping[str, int]) -> Enclosure:
        p = big_parts(e)
        if p.filter is not None or p.style == "lt":
            raise LeanTypeError("a filtered sum / `∑ i < n` is not evaluated")
        if p.style != "univ" and p.bound != nvar(self.stmt.n or ""):
            raise LeanTypeError(f"a sum over {show(p.bound)}")
        inner = {**env, p.index: 0}
        if not is_real(p.body, inner):
            raise LeanTypeError("a ℕ sum is not evaluated")
        saved, self.view = self.view, self.prefix
        try:
            acc = L.ZERO
            for i in range(self.n):
                acc = L.add(acc, self.real(p.body, {**env, p.index: i}))
            return acc
        finally:
            self.view = saved

    def nat(self, e: LExpr, env: Mapping[str, int]) -> int:
        k, a = e.kind, e.args
        if k == "num":
            if not e.value.isdigit():
                raise LeanTypeError(f"decimal {e.value} in a ℕ term")
            return int(e.value)
        if k == "nvar":
            return self.n
        if k == "paren":
            return self.nat(a[0], env)
        if k == "cast":
            if e.value != "ℕ":
                raise LeanTypeError("real ascription inside a ℕ term")
            return self.nat(a[0], env)
        if k in ("add", "sub", "mul", "div", "pow"):
            x, y = self.nat(a[0], env), self.nat(a[1], env)
            if k == "add":
                return x + y
            if k == "sub":
                return max(0, x - y)
            if k == "mul":
                return x * y
            if k == "div":
                return 0 if y == 0 else x // y
            if y > 10_000:
                raise LeanTypeError("ℕ exponent too large to evaluate")
            return x ** y
        raise LeanTypeError(f"`{k}` in a ℕ term")

    # -- relations
    def rel(self, r: LRel, env: Mapping[str, int] | None = None) -> RelValue:
        env = env or {}
        op = A.ASCII_OP[r.op]
        if not (is_real(r.lhs, env) or is_real(r.rhs, env)):
            return RelValue(Enclosure.exact(self.nat(r.lhs, env)), op, Enclosure.exact(self.nat(r.rhs, env)))
        return RelValue(self._guarded(r.lhs, env), op, self._guarded(r.rhs, env))

    def _guarded(self, e: LExpr, env: Mapping[str, int]) -> Enclosure | None:
        try:
            return L.guarded(lambda: self.real(e, env))
        except OverflowError:
            return None

    def index_domain(self, h: IndexHyp) -> tuple[str, bool]:
        """The index type (``"fin"``/``"nat"``) of ``h`` and whether it is unbounded (all naturals)."""
        if h.binder == "fin":
            return "fin", False
        if h.binder == "range":
            if h.bound != nvar(self.stmt.n or ""):
                raise LeanTypeError(f"a per-index hypothesis over {show(h.bound) if h.bound else '?'}")
            return "nat", False
        t = first_family([x for r in h.parts for x in (r.lhs, r.rhs)], h.index, self.families)
        if t is None:
            raise LeanTypeError(f"the type of `{h.index}` is not determined")
        return t, t == "nat"

    def index_at(self, h: IndexHyp, i: int, full: bool = False) -> bool | None:
        """``h``'s conjunction at index ``i`` (``full``: the family values beyond ``n`` may be read)."""
        saved = self.view
        self.view = self.point.families if full else self.prefix
        try:
            return _and([self.rel(r, {h.index: i}).verdict for r in h.parts])
        finally:
            self.view = saved

    def index_hypothesis(self, h: IndexHyp) -> IndexVerdict:
        _, unbounded = self.index_domain(h)
        in_range = _and([self.index_at(h, i) for i in range(self.n)])
        if not unbounded:
            return IndexVerdict(in_range)
        fams = [f for f, d in self.families.items() if d == "nat" and any(
            x.kind == "fam" and x.value == f for r in h.parts for x in (*subterms(r.lhs), *subterms(r.rhs)))]
        extra = min((len(self.point.families[f]) for f in fams), default=self.n)
        beyond = _and([self.index_at(h, i, full=True) for i in range(self.n, extra)])
        return IndexVerdict(in_range, beyond, True)


@dataclass(frozen=True)
class NStatementValue:
    """Lean's values at a point: per-index hypotheses, the other hypotheses (conjunctions split,
    in order) and the goal."""

    index: tuple[tuple[str, IndexVerdict], ...]
    hypotheses: tuple[tuple[str, RelValue], ...]
    goal: RelValue


def evaluate(stmt: NStatement | str, point: NPoint) -> NStatementValue:
    """Every relation of ``stmt`` (text is read by :func:`read_nterm`) at ``point``."""
    if isinstance(stmt, str):
        stmt = read_nterm(stmt)
    ev = Evaluator(stmt, point)
    return NStatementValue(tuple((h.name, ev.index_hypothesis(h)) for h in stmt.index_hypotheses),
                           tuple((name, ev.rel(r)) for name, r in stmt.outer()), ev.rel(stmt.goal))


# ---------------------------------------------------------------- a faithful reading (to test the fuzzer)


class Unsupported(ValueError):
    """Outside what :func:`reference_reading` writes as kernel terms."""


_KERNEL_OP = {"≤": "<=", "<": "<", "≥": ">=", ">": ">", "=": "=", "≠": "!="}


def reference_reading(stmt: NStatement, check: bool = True) -> Any:
    """The :class:`prover.kernel.sums.NTermStatement` a faithful front-end gives for ``stmt`` (one atom
    per distinct sum, ``S1, S2, …``; ℕ comparisons read over ℝ; unbounded ``∀ i`` over a ``ℕ → ℝ``
    family read as holding on the index set, a weakening). Raises :class:`Refusal` for a statement
    to refuse and :class:`Unsupported` for what it does not write (ℕ arithmetic on ``n`` under an
    ascription, ``n`` inside a sum's body). ``check=False`` skips :func:`refusal` (a careless reader)."""
    from prover.kernel import terms as T
    from prover.kernel.ir import Statement
    from prover.kernel.sums import NTermStatement

    why = refusal(stmt) if check else None
    if why is not None:
        raise why
    reader = _KernelReader(stmt, T)
    n = reader.n
    fin = any(big_parts(e).style in ("univ", "fin") for e in sums_of(stmt))
    index_hyps = tuple(reader.rel(r, h.index) for h in stmt.index_hypotheses for r in h.parts)
    hyps = tuple(reader.rel(r) for _, r in stmt.outer())
    goal = reader.rel(stmt.goal)
    variables = stmt.scalars + (n,) + tuple(name for name, _ in reader.bodies)
    return NTermStatement(n, "fin" if fin else "range", tuple(stmt.families), stmt.scalars, index_hyps,
                          tuple(reader.bodies), Statement(variables, hyps, goal))


class _KernelReader:
    """:func:`reference_reading`'s kernel terms (module ``T``, :mod:`prover.kernel.terms`) for the
    expressions of ``stmt``: each distinct sum (up to its index's name) is an atom ``S1, S2, …``
    whose body, read over its index, is kept in :attr:`bodies`."""

    def __init__(self, stmt: NStatement, T: Any) -> None:
        self.stmt = stmt
        self.T = T
        self.n = stmt.n or ""
        self.atoms: dict[LExpr, str] = {}
        self.bodies: list[tuple[str, Any]] = []

    def nat_term(self, e: LExpr) -> Any:
        """A closed ℕ term, evaluated (ℕ arithmetic on ``n`` is not written)."""
        if contains(e, "nvar"):
            raise Unsupported(f"ℕ arithmetic on n: {show(e)}")
        return self.T.Num(Fraction(Evaluator(self.stmt, NPoint(0, {}, {})).nat(e, {})))

    def sum_atom(self, e: LExpr) -> Any:
        p = big_parts(e)
        key = LExpr("sum", (UNIV, _rename(p.body, p.index, "@")), "")
        if key not in self.atoms:
            self.atoms[key] = f"S{len(self.atoms) + 1}"
            self.bodies.append((self.atoms[key], self.conv(p.body, p.index)))
        return self.T.Var(self.atoms[key])

    def conv(self, e: LExpr, index: str | None) -> Any:
        """``e`` as a kernel term (``index``: the bound index when inside a sum's body)."""
        T, k, a = self.T, e.kind, e.args
        if k == "num":
            return T.Num(Fraction(e.value))
        if k in ("var", "fam"):
            return T.Var(e.value)
        if k == "nvar":
            if index is not None:
                raise Unsupported("n inside a sum")
            return T.Var(self.n)
        if k == "paren":
            return self.conv(a[0], index)
        if k == "cast":
            return self.conv(a[0], index) if e.value == "ℝ" else self.nat_term(a[0])
        if k == "sum":
            return self.sum_atom(e)
        if k == "add":
            return T.add(self.conv(a[0], index), self.conv(a[1], index))
        if k == "sub":
            return T.sub(self.conv(a[0], index), self.conv(a[1], index))
        if k == "mul":
            return T.mul(self.conv(a[0], index), self.conv(a[1], index))
        if k == "div":
            return T.div(self.conv(a[0], index), self.conv(a[1], index))
        if k == "neg":
            return T.neg(self.conv(a[0], index))
        if k == "inv":
            return T.inv(self.conv(a[0], index))
        if k == "sqrt":
            return T.Sqrt(self.conv(a[0], index))
        if k == "abs":
            return T.Fn("abs", self.conv(a[0], index))
        if k == "pow":
            exponent = self.conv(a[1], index) if is_real(a[1]) else self.nat_term(a[1])
            return T.power(self.conv(a[0], index), exponent)
        raise Unsupported(f"node {k}")

    def rel(self, r: LRel, index: str | None = None) -> Any:
        return self.T.Rel(self.conv(r.lhs, index), _KERNEL_OP[r.op], self.conv(r.rhs, index))


def _rename(e: LExpr, old: str, new: str) -> LExpr:
    if e.kind == "var" and e.value == old:
        return A.var(new)
    if e.kind in _BIG and big_parts(e).index == old:
        return e
    return LExpr(e.kind, tuple(_rename(x, old, new) for x in e.args), e.value) if e.args else e
