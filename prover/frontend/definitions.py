"""Function variables given by a defining equation: ``(f : ℝ → ℝ) (h : ∀ x, f x = E)``.

Why this reading is exact: the theorem quantifies over every ``f`` with ``∀ x, f x = E``; such an
``f`` is ``fun x => E`` (``funext``), so every application ``f t`` in the other hypotheses and the
goal is ``E`` with ``x`` replaced by ``t`` — the same proposition, hypothesis by hypothesis. The
definition hypothesis itself is then true by construction and is left out.

Lean's elaboration is kept: the argument of ``f : ℝ → ℝ`` is elaborated at ``ℝ`` and so is the
body (``f x : ℝ``), so an expansion is ``((E[x := (t : ℝ)]) : ℝ)`` — ``f (1 / 3)`` is real
division. Parameters shadow outer variables inside ``E``; the body may use the variables declared
before the hypothesis and the parameters, nothing else, and applies no function variable (so the
expansion terminates). Everything else about function variables is refused with one line: a
function used before its equation or without one, two equations for one function, a guarded
equation (``∀ x > 0, …``, ``x ≠ 0 → …``), a function not applied to all its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from prover.frontend.errors import Located
from prover.frontend.syntax import TYPE_NAMES, SyntaxNode, TermParser, describe

#: An expansion larger than this many term nodes is refused (nested applications of a body that
#: uses its parameter twice double at each level).
MAX_EXPANDED_NODES = 20_000

_GUARDED = "only a defining equation `∀ x, f x = …` is supported under `∀` (no condition on `x`)"


@dataclass(frozen=True)
class Definition:
    """``hypothesis : ∀ params, function params = body`` (the body as parsed, unexpanded)."""

    function: str
    params: tuple[str, ...]
    body: SyntaxNode
    hypothesis: str
    pos: int


def function_arity(p: TermParser, close: str) -> int | None:
    """The arity of a binder type ``ℝ → ℝ (→ ℝ)*`` ending at ``close`` (tokens not consumed), or
    None when the type is not an arrow type."""
    k, arity = 0, 0
    while True:
        t, arrow = p.peek(k), p.peek(k + 1)
        if not (t.kind == "ident" and t.text in TYPE_NAMES):
            return None
        if arrow.kind == "op" and arrow.text in ("→", "->"):
            arity += 1
            k += 2
            continue
        return arity if arity and arrow.kind == "op" and arrow.text == close else None


def arrow_types(p: TermParser, arity: int) -> list:
    """Consume the ``arity + 1`` type names of an arrow type (and its arrows); return the names."""
    names = []
    for i in range(arity + 1):
        names.append(p.advance())
        if i < arity:
            p.advance()
    return names


def _params(p: TermParser) -> list:
    """The bound names of ``∀ x y, …``, ``∀ x : ℝ, …``, ``∀ (x y : ℝ) (z : ℝ), …``; types must be
    real (checked by the caller through ``check_type``)."""
    names, types = [], []
    while True:
        t = p.peek()
        if t.kind == "op" and t.text == "(":
            p.advance()
            group = []
            while p.peek().kind == "ident" and p.peek().text not in TYPE_NAMES:
                group.append(p.advance())
            p.expect(":", " in a `∀` binder")
            types.append(p.advance())
            p.expect(")")
            if not group:
                raise Located("expected names in a `∀` binder", t.pos)
            names += group
        elif t.kind == "ident" and t.text not in TYPE_NAMES and t.text != "fun":
            names.append(p.advance())
        else:
            break
    if not names:
        raise Located(f"expected a bound name after `∀`, found {describe(p.peek())}", p.peek().pos)
    if p.at(":"):
        p.advance()
        types.append(p.advance())
    if not p.at(","):
        raise Located(_GUARDED, p.peek().pos)
    p.advance()
    return names, types


def read_definition(p: TermParser, hypothesis: str, functions: dict[str, int],
                    defined: dict[str, Definition], known: set[str], check_type, check_name) -> Definition:
    """Parse ``∀ params, f params = body`` (the ``∀`` is next). ``known`` are the variables in
    scope; ``check_type(token)`` refuses a bound type other than ℝ, ``check_name(token)`` a bound
    name that is not a plain name there (a notation token of an opened namespace, ``φ``)."""
    forall = p.advance()
    names, types = _params(p)
    for ty in types:
        check_type(ty)
    for n in names:
        check_name(n)
    prop = p.term(0)
    if prop.kind != "rel" or prop.value != "=" or prop.args[0].kind != "app":
        raise Located(_GUARDED + "; the equation must read `f x = …`", prop.pos)
    head, body = prop.args
    fn = head.value
    params = tuple(n.text for n in names)
    if len(set(params)) != len(params):
        raise Located("a bound name is repeated in the `∀`", forall.pos)
    if tuple(a.value if a.kind == "var" else None for a in head.args) != params:
        raise Located(f"the equation must apply `{fn}` to the bound names in order "
                      f"(`{fn} {' '.join(params)} = …`)", head.pos)
    if fn in defined:
        raise Located(f"`{fn}` has a second defining equation (the first is `{defined[fn].hypothesis}`)",
                      head.pos)
    for node in _nodes(body):
        if node.kind == "app":
            raise Located(f"the body of `{fn}` applies the function `{node.value}` (not supported)", node.pos)
        if node.kind == "var" and node.value not in params and node.value not in known:
            raise Located(f"unknown identifier `{node.value}` in the body of `{fn}`", node.pos)
    return Definition(fn, params, body, hypothesis, forall.pos)


def _nodes(node: SyntaxNode):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.args)


def uses_functions(node: SyntaxNode) -> list[SyntaxNode]:
    """The applications in ``node`` (outermost first)."""
    return [n for n in _nodes(node) if n.kind == "app"]


def check_defined(node: SyntaxNode, defined: dict[str, Definition]) -> None:
    """Refuse an application of a function whose defining equation has not come yet."""
    for app in uses_functions(node):
        if app.value not in defined:
            raise Located(f"`{app.value}` is used before (or without) its defining equation "
                          f"`∀ x, {app.value} x = …`", app.pos)


def expand(node: SyntaxNode, defined: dict[str, Definition]) -> SyntaxNode:
    """``node`` with every application replaced by its definition's body, arguments and the
    result ascribed ``ℝ`` (innermost first). Refuses an expansion over MAX_EXPANDED_NODES."""
    budget = [MAX_EXPANDED_NODES]
    out = _expand(node, defined, budget)
    return out


def _expand(node: SyntaxNode, defined: dict[str, Definition], budget: list[int]) -> SyntaxNode:
    budget[0] -= 1
    if budget[0] < 0:
        raise Located(f"expanding the defined functions gives a term of over {MAX_EXPANDED_NODES} nodes",
                      node.pos)
    if not node.args:
        return node
    args = tuple(_expand(a, defined, budget) for a in node.args)
    if node.kind != "app":
        return replace(node, args=args)
    d = defined[node.value]
    mapping = {x: SyntaxNode("ascribe", a.pos, (a,), "R") for x, a in zip(d.params, args)}
    body = _substitute(d.body, mapping, budget, node.pos)
    return SyntaxNode("ascribe", node.pos, (body,), "R")


def _substitute(node: SyntaxNode, mapping: dict[str, SyntaxNode], budget: list[int], pos: int) -> SyntaxNode:
    budget[0] -= 1
    if budget[0] < 0:
        raise Located(f"expanding the defined functions gives a term of over {MAX_EXPANDED_NODES} nodes", pos)
    if node.kind == "var" and node.value in mapping:
        budget[0] -= sum(1 for _ in _nodes(mapping[node.value]))
        return mapping[node.value]
    if not node.args:
        return node
    return replace(node, args=tuple(_substitute(a, mapping, budget, pos) for a in node.args))
