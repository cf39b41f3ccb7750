"""Does the sympy form of a parsed statement keep its Lean meaning? The kernel decides.

sympy simplifies while it builds terms (``x·y/y → x``, ``√x·√x → x``, ``(x^(2/3))^(3/2) → x``);
Lean's ``/`` is 0 at a zero denominator, ``Real.sqrt`` is 0 on negatives and ``Real.rpow`` of a
negative base is ``exp (y·log|x|)·cos (yπ)``, so some of these change the statement. The search
works on the sympy relations; :mod:`prover.frontend.faithful` records what Lean reads.

Each relation — the hypotheses in order, then the goal — is read back into kernel terms (sympy's
``str`` is the kernel's term grammar) and must be equivalent, by
:func:`prover.kernel.check.equivalent_relations`, to its faithful counterpart under the faithful
hypotheses before it. By induction the sympy hypotheses then hold exactly where Lean's do, and the
sympy goal is equivalent to Lean's there: the search proves the theorem Lean states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sympy as sp
from sympy.printing.str import StrPrinter

from prover.frontend.elaborate import Scope, proposition_parts
from prover.frontend.errors import Located
from prover.frontend.faithful import faithful_relation
from prover.frontend.syntax import SyntaxNode
from prover.kernel import check as kernel_check
from prover.kernel import terms as T
from prover.problem import FaithfulStatement, Relation

REFUSAL = ("this side simplifies (e.g. `x / x` to 1, `√x * √x` to x or `(x ^ a) ^ b` to "
           "x ^ (a * b)) to a form the kernel cannot show equal to Lean's meaning under the "
           "hypotheses before it (a denominator may vanish, or a root's or power's base be negative)")


class _AsciiNames(StrPrinter):
    """sympy's ``str`` with each variable printed under a plain name (``v0``, ``v1``…), so that a
    name the kernel grammar reads otherwise (``α``, ``Abs``) cannot change the term."""

    def __init__(self, names: Mapping[str, str]) -> None:
        super().__init__()
        self._names = names

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return self._names.get(expr.name, expr.name)


def kernel_term(e: sp.Expr, variables: Sequence[str]) -> T.Term:
    """The kernel's reading of a sympy expression over ``variables`` (raises ``TermError``)."""
    plain = {v: f"v{i}" for i, v in enumerate(variables)}
    text = _AsciiNames(plain).doprint(sp.sympify(e))
    term = T.parse_term(text, tuple(plain.values()))
    return T.substitute(term, {p: T.Var(v) for v, p in plain.items()})


def kernel_relation(rel: Relation, variables: Sequence[str]) -> T.Rel:
    return T.Rel(kernel_term(rel.lhs, variables), rel.op, kernel_term(rel.rhs, variables))


class Fidelity:
    """The faithful statement of one declaration, built and checked relation by relation."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.hypotheses: list[T.Rel] = []

    def hypothesis(self, prop: SyntaxNode, rels: Sequence[Relation], copies: int = 1) -> None:
        """One binder's proposition (its ``∧`` or ``∈`` parts give ``rels``), named ``copies`` times."""
        parts = proposition_parts(prop, self.scope)
        checked: list[T.Rel] = []
        for part, rel in zip(parts, rels):
            checked.append(self._check(part, rel, self.hypotheses + checked))
        self.hypotheses.extend(checked * copies)

    def goal(self, node: SyntaxNode, rel: Relation) -> FaithfulStatement:
        return FaithfulStatement(tuple(self.hypotheses), self._check(node, rel, self.hypotheses))

    def _check(self, node: SyntaxNode, rel: Relation, context: Sequence[T.Rel]) -> T.Rel:
        """The faithful relation of ``node``; refuses it unless ``rel`` means the same."""
        faithful = faithful_relation(node, self.scope)
        sides = node.args
        _check_size(faithful, node)
        try:
            read = kernel_relation(rel, list(self.scope.variables))
        except T.TermError as exc:
            raise Located(f"cannot check this comparison against Lean's meaning: {exc}", _start(node)) from None
        if kernel_check.equivalent_relations(context, read, faithful):
            return faithful
        # name the side that changed: the first whose two readings are not equal on their own
        for side, mine, lean in zip(sides, (read.lhs, read.rhs), (faithful.lhs, faithful.rhs)):
            if not kernel_check.equivalent_relations(context, T.Rel(mine, ">=", T.ZERO),
                                                     T.Rel(lean, ">=", T.ZERO)):
                raise Located(REFUSAL, _start(side))
        raise Located(REFUSAL, _start(sides[0]))


#: Bounds on one comparison's faithful term, after ``max``/``min`` (each an ``|a − b|``, its
#: arguments twice) and defined functions are expanded: nested applications grow exponentially,
#: and the kernel's equivalence check factors every ``|·|`` argument. Every statement of the
#: benchmarks has at most 153 nodes and 3 absolute values; a flat sum of 1,200 products (7,203
#: nodes, tests/test_frontend.py) is read in well under a second.
MAX_TERM_NODES = 50_000
MAX_ABS = 16


def _check_size(faithful: T.Rel, node: SyntaxNode) -> None:
    nodes = [t for side in (faithful.lhs, faithful.rhs) for t in T.walk(side)]
    bars = sum(1 for t in nodes if isinstance(t, T.Fn) and t.name == "abs")
    if len(nodes) > MAX_TERM_NODES or bars > MAX_ABS:
        raise Located(f"this comparison is too large to check against Lean's meaning ({len(nodes)} terms, {bars} "
                      f"absolute values once max/min and defined functions are expanded; at most "
                      f"{MAX_TERM_NODES:,} and {MAX_ABS})", _start(node))


_INFIX = ("add", "sub", "mul", "div", "pow", "inv", "rel", "and", "mem")


def _start(node: SyntaxNode) -> int:
    """Offset of the first token of a term (a binary node's ``pos`` is its operator's)."""
    while node.kind in _INFIX:
        node = node.args[0]
    return node.pos
