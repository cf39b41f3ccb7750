"""Lean 4 declarations (``theorem``/``lemma``/``example``) into :class:`~prover.problem.Problem`.

``theorem NAME binders : goal := proof`` — binders are ``(a b : ℝ)``, ``{a : ℝ}``, ``⦃a : ℝ⦄``
(real variables, in order of declaration) or hypotheses ``(h : prop)``; a hypothesis that is a
conjunction ``A ∧ B`` becomes hypotheses ``h.1``, ``h.2`` (the printer joins them back); a
membership ``h : x ∈ Set.Icc a b`` becomes ``h.1 : a ≤ x``, ``h.2 : x ≤ b`` (one-sided intervals:
``h``), recorded in ``meta["memberships"]``; a goal ``A ∧ B`` has its parts in ``goal_parts``. The
proof after ``:=`` is ignored. A source whose header carries the LIPS macro that makes every
``/`` real division is read with ``real_division=True``.
"""

from __future__ import annotations

import keyword
import unicodedata
from dataclasses import replace

import sympy as sp

from prover.frontend.definitions import (
    Definition,
    arrow_types,
    check_defined,
    expand,
    function_arity,
    read_definition,
    uses_functions,
)
from prover.frontend.elaborate import Scope, elab_proposition, elab_relation, is_real
from prover.frontend.errors import Located, ParseError
from prover.frontend.fidelity import Fidelity
from prover.frontend.lean_file import (
    DECLARATIONS,
    Declaration,
    FileContext,
    context_before,
    declarations,
    is_real_division_macro,
    split_commands,
    unquote,
)
from prover.frontend.lexer import Token, literal_problem, tokenize
from prover.frontend.names import (
    MODELLED,
    SHORT_NAMES,
    NameError_,
    resolve_function,
    resolve_interval,
    resolve_type,
)
from prover.frontend.nterm import looks_like_nterm, read_nterm
from prover.frontend.syntax import TYPE_NAMES, SyntaxNode, TermParser, describe
from prover.problem import Hypothesis, Problem, var

DECL_KEYWORDS = DECLARATIONS
_CLOSERS = {"(": ")", "{": "}", "⦃": "⦄"}
#: names sympy or the proof format gives a meaning (`pi`, `E`: the constants π and e, written so in a
#: proof's JSON: a variable of that name would be read back as the constant)
_RESERVED_VARS = {"sqrt", "abs", "Abs", "max", "min", "Max", "Min", "Rational", "Integer", "exp", "log", "Symbol", "Pow",
                  "Mul", "Add", "pi", "E"}
#: Size bounds checked before anything is elaborated (a statement beyond them is refused).
MAX_VARIABLES = 32
MAX_HYPOTHESES = 64
MAX_STATEMENT_TOKENS = 20_000


def has_real_division_macro(text: str) -> bool:
    """Is the LIPS real-division ``macro_rules`` a command of ``text`` (not in a comment or a
    string)? Whether it is in effect at a theorem is :func:`parse_theorem`'s business."""
    try:
        tokens = tokenize(text)
    except Located:
        return False
    return any(c.keyword == "macro_rules" and is_real_division_macro(tokens[c.key + 1:c.end])
               for c in split_commands(tokens, text))


def is_whole_file(text: str) -> bool:
    """Does ``text`` carry its own header (a command such as ``import`` or ``open`` before its
    first declaration)? Such a benchmark entry is a whole Lean file and declares its own context;
    a bare declaration is read under the LIPS header its benchmark documents."""
    try:
        tokens = tokenize(text)
    except Located:
        return False
    commands = split_commands(tokens, text)
    return bool(commands) and commands[0].keyword not in DECLARATIONS


def parse_theorem(text: str, *, real_division: bool = False, name: str | None = None) -> Problem:
    """Parse the one declaration in ``text`` (or the one called ``name``) into a Problem.

    ``text`` is read as Lean reads a file: the commands before the declaration (``open``,
    ``namespace``, the real-division ``macro_rules`` …) decide what it means, and a command whose
    effect is not modelled is refused (:mod:`.lean_file`). ``real_division=True`` declares the LIPS
    header (``open Real``, the prefix notation ``sqrt``, the real-division macro) in front of the
    text, as the LIPS benchmark files do. Raises :class:`ParseError` (one line, with the 1-based
    column) on anything unsupported.
    """
    try:
        tokens = tokenize(text)
        commands = split_commands(tokens, text)
        decls = declarations(tokens, commands)
        if not decls:
            raise Located("no `theorem`, `lemma` or `example` found", _first_pos(tokens))
        target = _choose(decls, tokens, name)
        context = context_before(tokens, text, commands, target.index, lips=real_division)
        _check_literals(tokens, target.key)
        if looks_like_nterm(tokens, target.key):
            command = commands[target.index]
            span = (tokens[target.key].pos, tokens[command.end - 1].pos + len(tokens[command.end - 1].text))
            return read_nterm(text, tokens, target.key, command.end, context, real_division, span, name,
                              (parse_theorem, check_variable_name))
        return _Decl(tokens, target.key, context, commands[target.index].end, lips=real_division).parse()
    except Located as exc:
        raise exc.to_parse_error(text) from None
    except RecursionError:
        raise ParseError("expression nested too deeply", 1) from None


def _choose(decls: list[Declaration], tokens: list[Token], name: str | None) -> Declaration:
    if name is None:
        if len(decls) > 1:
            raise Located(f"{len(decls)} declarations found; choose one (FILE.lean#name)",
                          tokens[decls[1].key].pos)
        return decls[0]
    named = [d for d in decls if d.keyword != "example" and d.name == name]
    if not named:
        raise Located(f"no declaration named `{name}`", 0)
    if len(named) > 1:
        raise Located(f"`{name}` is declared twice (Lean rejects the second)", tokens[named[1].key].pos)
    return named[0]


def declaration_names(text: str) -> list[str]:
    """Names of the declarations in a Lean source (``example`` for anonymous ones)."""
    try:
        tokens = tokenize(text)
    except Located as exc:
        raise exc.to_parse_error(text) from None
    return [d.name for d in declarations(tokens, split_commands(tokens, text))]


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
    if name in _RESERVED_VARS:
        raise Located(f"variable name `{name}` is reserved (a constant or function of the proof format): rename it", pos)
    if not ok:
        raise Located(f"variable name `{name}` is not supported (use letters, digits and `_`)", pos)


class _Decl:
    def __init__(self, tokens: list[Token], start: int, context: FileContext, end: int, *,
                 lips: bool = False) -> None:
        if end - start > MAX_STATEMENT_TOKENS:
            raise Located(f"statement of {end - start} tokens is too long (at most {MAX_STATEMENT_TOKENS})",
                          tokens[start].pos)
        #: function variables (``(f : ℝ → ℝ)``) -> arity, and their defining equations
        self.functions: dict[str, int] = {}
        self.definitions: dict[str, Definition] = {}
        self.uses: dict[str, list[int]] = {"hypotheses": [], "goal_parts": []}
        self.p = TermParser(tokens, start, resolve=self._resolve, adjacent_arguments=lips,
                            resolve_set=self._resolve_set, functions=self.functions)
        self.end = end
        self.lips = lips
        self.context = context
        self.scope = Scope({}, context.real_division)
        self.fidelity = Fidelity(self.scope)
        self.hyps: list[Hypothesis] = []
        self.implicit: set[str] = set()
        self.binder_names: set[str] = set()
        #: ``[index of the first hypothesis, interval constant]`` per membership binder
        self.memberships: list[list] = []

    def _resolve_set(self, name: Token) -> str:
        """The interval constant the set name ``name`` of ``x ∈ name a b`` elaborates to. A local
        of that name (a variable or a hypothesis) shadows every global, so it is refused."""
        head = name.text.split(".")[0]
        if head in self.scope.variables or head in self.binder_names:
            raise Located(f"`{name.text}` names a local here (a binder), not an interval", name.pos)
        try:
            return resolve_interval(name.text, self.context.names)
        except NameError_ as exc:
            raise Located(str(exc), name.pos) from None

    def _resolve(self, name: Token, argument: SyntaxNode) -> str:
        """The node kind of the function ``name`` applied to ``argument``, as Lean resolves it."""
        try:
            return MODELLED[resolve_function(name.text, self.context.names, is_real(argument, self.scope))]
        except NameError_ as exc:
            raise Located(str(exc), name.pos) from None

    def _bind(self, name: Token, variable: bool) -> None:
        """A binder name, not a token of an open scoped notation. A variable and a hypothesis
        never share a name: Lean's later binder shadows the earlier one, so the terms after it
        would mean something else. (Two hypotheses may: no term refers to a hypothesis.)"""
        if name.text in self.context.names.scoped_tokens():
            raise Located(f"`{name.text}` is a notation after the `open`s here, not a name", name.pos)
        clash = name.text in self.scope.variables or (variable and name.text in self.binder_names)
        if clash:
            raise Located(f"`{name.text}` is bound twice (Lean's later binder shadows the earlier one)",
                          name.pos)
        if not variable:
            if name.text in SHORT_NAMES:   # a local shadows the function in every term after it
                raise Located(f"a hypothesis named `{name.text}` would shadow the function `{name.text}` "
                              "(rename it)", name.pos)
            self.binder_names.add(name.text)

    def parse(self) -> Problem:
        p = self.p
        kw = p.advance()
        if kw.text == "example":
            name = "example"
        else:
            t = p.peek()
            if t.kind != "ident" or t.text in DECL_KEYWORDS:
                raise Located(f"expected a name after `{kw.text}`, found {describe(t)}", t.pos)
            name = unquote(p.advance().text)
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
        parts = list(goal_node.args) if goal_node.kind == "and" else [goal_node]
        for part in parts:
            if part.kind == "mem":
                raise Located("membership `∈` in the goal is not supported (state its comparisons with `∧`)",
                              part.pos)
        t = p.peek()
        if not (p.i >= self.end or (t.kind == "op" and t.text == ":=")):
            extra = " (unbalanced parentheses?)" if t.text == ")" else ""
            raise Located(f"unexpected {describe(t)} after the goal{extra}", t.pos)
        self.uses["goal_parts"] = [k for k, part in enumerate(parts) if uses_functions(part)]
        parts = [self._expanded(part) for part in parts]
        goals = [elab_relation(part, self.scope) for part in parts]
        faithfuls = [self.fidelity.goal(part, g) for part, g in zip(parts, goals)]
        goal, faithful = goals[0], faithfuls[0]
        goal_parts: tuple = ()
        if len(parts) > 1:   # `A ∧ B ∧ C`: each part is proved on its own (same hypotheses)
            goal_parts = tuple(goals)
            faithful = replace(faithful, goal_parts=tuple(f.goal for f in faithfuls))
        variables = list(self.scope.variables)
        meta: dict = {"implicit_variables": sorted(self.implicit)} if self.implicit else {}
        meta["lips_header"] = self.lips   # declared by the data, not read from the text
        if self.memberships:
            meta["memberships"] = self.memberships
        if self.definitions:
            meta["definitions"] = [{"function": d.function, "params": list(d.params), "hypothesis": d.hypothesis,
                                    "arity": len(d.params)} for d in self.definitions.values()]
            #: which hypotheses (indices) and goal parts apply a defined function as written
            meta["definition_uses"] = self.uses
        return Problem(name=name, variables=variables, hypotheses=self.hyps, goal=goal,
                       real_division=self.scope.real_division, meta=meta, faithful=faithful,
                       goal_parts=goal_parts)

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
        arity = function_arity(p, close)
        if arity:
            self._functions(names, arity)
            p.advance()
            return
        for n in names:
            self._bind(n, variable=False)
        if len(self.hyps) + len(names) > MAX_HYPOTHESES:
            raise Located(f"more than {MAX_HYPOTHESES} hypotheses", names[0].pos)
        if p.at("∀"):
            self._definition(names, open_tok, close)
            return
        raw = p.term(0)
        prop = self._expanded(raw)
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
        part_uses = _part_uses(raw, len(rels))
        for n in names:
            if prop.kind == "mem":
                self.memberships.append([len(self.hyps), prop.value])
            self.uses["hypotheses"] += [len(self.hyps) + k for k, u in enumerate(part_uses) if u]
            if len(rels) == 1:
                self.hyps.append(Hypothesis(n.text, rels[0]))
            else:
                self.hyps.extend(Hypothesis(f"{n.text}.{k}", r) for k, r in enumerate(rels, 1))

    def _functions(self, names: list[Token], arity: int) -> None:
        """``(f g : ℝ → ℝ)``: function variables, read through their defining equations."""
        for ty in arrow_types(self.p, arity):
            self._check_real(ty)
        for n in names:
            check_variable_name(n.text, n.pos)
            self._bind(n, variable=True)
            if n.text in self.functions:
                raise Located(f"`{n.text}` is bound twice (Lean's later binder shadows the earlier one)", n.pos)
            self.functions[n.text] = arity

    def _check_real(self, ty: Token) -> None:
        if ty.kind != "ident" or ty.text not in TYPE_NAMES or TYPE_NAMES[ty.text] != "R":
            raise Located(f"functions of type other than ℝ → ℝ are not supported (found {describe(ty)})", ty.pos)
        if not resolve_type(ty.text, self.context.names):
            raise Located(f"cannot tell what `{ty.text}` names here (write `ℝ`)", ty.pos)

    def _definition(self, names: list[Token], open_tok: Token, close: str) -> None:
        """``(h : ∀ x, f x = E)``: recorded, not a hypothesis (see :mod:`.definitions`)."""
        if len(names) != 1:
            raise Located("a defining equation needs a binder of its own", names[1].pos)
        d = read_definition(self.p, names[0].text, self.functions, self.definitions,
                            set(self.scope.variables), self._check_real, self._check_bound_name)
        if not self.p.at(close):
            raise Located(f"expected `{close}` to end the binder, found {describe(self.p.peek())}",
                          self.p.peek().pos)
        self.p.advance()
        self._check_body(d)
        self.definitions[d.function] = d

    def _check_bound_name(self, name: Token) -> None:
        """A ``∀``-bound name: a plain name here (not a notation token after the ``open``s)."""
        if name.text in self.context.names.scoped_tokens():
            raise Located(f"`{name.text}` is a notation after the `open`s here, not a name", name.pos)
        check_variable_name(name.text, name.pos)

    def _check_body(self, d: Definition) -> None:
        """The body elaborates as a real term with real parameters (a placeholder per parameter,
        so that a parameter shadows an outer variable of its name)."""
        from prover.frontend.elaborate import elab
        from prover.frontend.syntax import SyntaxNode

        shadow = dict(self.scope.variables)
        shadow.update({x: var(f"_param_{k}") for k, x in enumerate(d.params)})
        elab(SyntaxNode("ascribe", d.body.pos, (d.body,), "R"), "R", Scope(shadow, self.scope.real_division))

    def _expanded(self, node):
        """``node`` with every defined function's application replaced by its body."""
        if not self.functions:
            return node
        check_defined(node, self.definitions)
        return expand(node, self.definitions)

    def _variables(self, names: list[Token], ty: Token, implicit: bool) -> None:
        kind = TYPE_NAMES[ty.text]
        if not resolve_type(ty.text, self.context.names):
            raise Located(f"cannot tell what `{ty.text}` names here (write `ℝ`)", ty.pos)
        if len(self.scope.variables) + len(names) > MAX_VARIABLES:
            raise Located(f"more than {MAX_VARIABLES} variables", names[0].pos)
        if kind != "R":
            raise Located(f"variables of type `{ty.text}` are not supported (only ℝ)", ty.pos)
        for n in names:
            check_variable_name(n.text, n.pos)
            self._bind(n, variable=True)
            if n.text in self.scope.variables:
                raise Located(f"variable `{n.text}` is declared twice", n.pos)
            self.scope.variables[n.text] = var(n.text)
            if implicit:
                self.implicit.add(n.text)


def _part_uses(raw, n: int) -> list[bool]:
    """Per comparison of a hypothesis (``n`` of them), does its text apply a function variable?
    A conjunction's parts are its own; a membership's parts share the whole."""
    if raw.kind == "and" and len(raw.args) == n:
        return [bool(uses_functions(a)) for a in raw.args]
    return [bool(uses_functions(raw))] * n


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


__all__ = ["ParseError", "declaration_names", "has_real_division_macro", "is_whole_file", "parse_expression",
           "parse_theorem"]
