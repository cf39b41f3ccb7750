"""Lean 4 declarations (``theorem``/``lemma``/``example``) into :class:`~prover.problem.Problem`.

``theorem NAME binders : goal := proof`` — binders are ``(a b : ℝ)``, ``{a : ℝ}``, ``⦃a : ℝ⦄``
(real variables, in order of declaration) or hypotheses ``(h : prop)``; a hypothesis that is a
conjunction ``A ∧ B`` becomes hypotheses ``h.1``, ``h.2`` (the printer joins them back). The
proof after ``:=`` is ignored. A source whose header carries the LIPS macro that makes every
``/`` real division is read with ``real_division=True``.
"""

from __future__ import annotations

import keyword
import re
import unicodedata

import sympy as sp

from prover.frontend.elaborate import Scope, elab_proposition, elab_relation
from prover.frontend.errors import Located, ParseError
from prover.frontend.fidelity import Fidelity
from prover.frontend.lexer import Token, literal_problem, tokenize
from prover.frontend.syntax import TYPE_NAMES, TermParser, describe
from prover.problem import Hypothesis, Problem, var

DECL_KEYWORDS = ("theorem", "lemma", "example")
_MODIFIERS = {"private", "protected", "noncomputable", "nonrec", "unsafe", "partial"}
_CLOSERS = {"(": ")", "{": "}", "⦃": "⦄"}
_RESERVED_VARS = {"sqrt", "Rational", "Integer", "exp", "log", "Symbol", "Pow", "Mul", "Add"}
_LIPS_DIV_MACRO = re.compile(r"macro_rules\s*\|\s*`\(\s*\$x\s*/\s*\$y\s*\)\s*=>\s*`\(\s*HDiv\.hDiv\s*\(\s*\$x\s*:\s*ℝ")


def has_real_division_macro(text: str) -> bool:
    """Does the source define the LIPS macro that makes every ``/`` real division?"""
    return bool(_LIPS_DIV_MACRO.search(text))


def parse_theorem(text: str, *, real_division: bool = False, name: str | None = None) -> Problem:
    """Parse the one declaration in ``text`` (or the one called ``name``) into a Problem.

    Raises :class:`ParseError` (one line, with the 1-based column) on anything unsupported.
    """
    try:
        tokens = tokenize(text)
        starts = [i for i, t in enumerate(tokens) if t.kind == "ident" and t.text in DECL_KEYWORDS]
        if not starts:
            raise Located("no `theorem`, `lemma` or `example` found", _first_pos(tokens))
        real_division = real_division or has_real_division_macro(text)
        if name is None:
            if len(starts) > 1:
                raise Located(f"{len(starts)} declarations found; choose one (FILE.lean#name)",
                              tokens[starts[1]].pos)
            _check_literals(tokens, starts[0])
            return _Decl(tokens, starts[0], real_division).parse()
        for i in starts:
            nxt = tokens[i + 1]
            if tokens[i].text != "example" and nxt.kind == "ident" and nxt.text == name:
                _check_literals(tokens, i)
                return _Decl(tokens, i, real_division).parse()
        raise Located(f"no declaration named `{name}`", 0)
    except Located as exc:
        raise exc.to_parse_error(text) from None
    except RecursionError:
        raise ParseError("expression nested too deeply", 1) from None


def declaration_names(text: str) -> list[str]:
    """Names of the declarations in a Lean source (``example`` for anonymous ones)."""
    try:
        tokens = tokenize(text)
    except Located as exc:
        raise exc.to_parse_error(text) from None
    out = []
    for i, t in enumerate(tokens):
        if t.kind == "ident" and t.text in DECL_KEYWORDS:
            out.append("example" if t.text == "example" else tokens[i + 1].text)
    return out


def _check_literals(tokens: list[Token], start: int, stop_at_proof: bool = True) -> None:
    """Refuse over-long numerals in the statement that starts at ``tokens[start]`` (up to its
    ``:=``; the proof is never read) before anything tries to convert them."""
    for t in tokens[start:]:
        if stop_at_proof and t.kind == "op" and t.text == ":=":
            return
        if t.kind == "num":
            why = literal_problem(t.text)
            if why is not None:
                raise Located(why, t.pos)


def _first_pos(tokens: list[Token]) -> int:
    return tokens[0].pos if tokens else 0


def check_variable_name(name: str, pos: int) -> None:
    ok = (name.isidentifier() and not keyword.iskeyword(name) and name not in _RESERVED_VARS
          and unicodedata.normalize("NFKC", name) == name)
    if not ok:
        raise Located(f"variable name `{name}` is not supported (use letters, digits and `_`)", pos)


class _Decl:
    def __init__(self, tokens: list[Token], start: int, real_division: bool) -> None:
        self.p = TermParser(tokens, start)
        self.scope = Scope({}, real_division)
        self.fidelity = Fidelity(self.scope)
        self.hyps: list[Hypothesis] = []
        self.implicit: set[str] = set()

    def parse(self) -> Problem:
        p = self.p
        kw = p.advance()
        if kw.text == "example":
            name = "example"
        else:
            t = p.peek()
            if t.kind != "ident" or t.text in DECL_KEYWORDS:
                raise Located(f"expected a name after `{kw.text}`, found {describe(t)}", t.pos)
            name = p.advance().text
        while p.peek().kind == "op" and p.peek().text in ("(", "{", "⦃", "["):
            self._binder()
        t = p.peek()
        if not p.at(":"):
            if t.kind == "op" and t.text == ":=":
                raise Located("missing `: goal` before `:=`", t.pos)
            raise Located(f"expected a binder or `:` before the goal, found {describe(t)}", t.pos)
        colon = p.advance()
        t = p.peek()
        if t.kind == "eof" or (t.kind == "op" and t.text == ":="):
            raise Located("empty goal after `:`", colon.pos)
        goal_node = p.term(0)
        if goal_node.kind == "and":
            raise Located("conjunction `∧` in the goal is not supported (state each part separately)",
                          goal_node.pos)
        t = p.peek()
        if not (t.kind == "eof" or (t.kind == "op" and t.text == ":=") or
                (t.kind == "ident" and t.text in DECL_KEYWORDS)):
            extra = " (unbalanced parentheses?)" if t.text == ")" else ""
            raise Located(f"unexpected {describe(t)} after the goal{extra}", t.pos)
        goal = elab_relation(goal_node, self.scope)
        faithful = self.fidelity.goal(goal_node, goal)
        variables = list(self.scope.variables)
        meta = {"implicit_variables": sorted(self.implicit)} if self.implicit else {}
        return Problem(name=name, variables=variables, hypotheses=self.hyps, goal=goal,
                       real_division=self.scope.real_division, meta=meta, faithful=faithful)

    def _binder(self) -> None:
        p = self.p
        open_tok = p.advance()
        if open_tok.text == "[":
            raise Located("instance binder `[…]` is not supported", open_tok.pos)
        close = _CLOSERS[open_tok.text]
        names: list[Token] = []
        while p.peek().kind == "ident" and p.peek().text not in TYPE_NAMES:
            names.append(p.advance())
        if not names:
            raise Located(f"expected binder names after `{open_tok.text}`, found {describe(p.peek())}",
                          p.peek().pos)
        if p.at(close):
            raise Located(f"binder `{names[0].text}` has no type", names[0].pos)
        p.expect(":", " in a binder")
        t = p.peek()
        if t.kind == "ident" and t.text in TYPE_NAMES and p.peek(1).kind == "op" and p.peek(1).text == close:
            self._variables(names, t, open_tok.text != "(")
            p.advance()
            p.advance()
            return
        prop = p.term(0)
        if not p.at(close):
            t = p.peek()
            if t.kind == "op" and t.text == ":=":
                raise Located("default values in binders are not supported", t.pos)
            if t.kind == "eof":
                raise Located(f"unbalanced parentheses: `{open_tok.text}` is never closed", open_tok.pos)
            raise Located(f"expected `{close}` to end the binder, found {describe(t)}", t.pos)
        p.advance()
        rels = elab_proposition(prop, self.scope)
        self.fidelity.hypothesis(prop, rels, copies=len(names))
        for n in names:
            if len(rels) == 1:
                self.hyps.append(Hypothesis(n.text, rels[0]))
            else:
                self.hyps.extend(Hypothesis(f"{n.text}.{k}", r) for k, r in enumerate(rels, 1))

    def _variables(self, names: list[Token], ty: Token, implicit: bool) -> None:
        kind = TYPE_NAMES[ty.text]
        if kind != "R":
            raise Located(f"variables of type `{ty.text}` are not supported (only ℝ)", ty.pos)
        for n in names:
            check_variable_name(n.text, n.pos)
            if n.text in self.scope.variables:
                raise Located(f"variable `{n.text}` is declared twice", n.pos)
            self.scope.variables[n.text] = var(n.text)
            if implicit:
                self.implicit.add(n.text)


def parse_expression(text: str, variables: list[str], *, real_division: bool = False) -> sp.Expr:
    """Parse one Lean expression over the given real variables (used by tests and tools)."""
    from prover.frontend.elaborate import elab_expr

    try:
        tokens = tokenize(text)
        _check_literals(tokens, 0, stop_at_proof=False)
        p = TermParser(tokens)
        node = p.term(0)
        if p.peek().kind != "eof":
            raise Located(f"unexpected {describe(p.peek())}", p.peek().pos)
        return elab_expr(node, Scope({v: var(v) for v in variables}, real_division))
    except Located as exc:
        raise exc.to_parse_error(text) from None
    except RecursionError:
        raise ParseError("expression nested too deeply", 1) from None


__all__ = ["ParseError", "declaration_names", "has_real_division_macro", "parse_expression", "parse_theorem"]
