"""Conversions between sympy expressions (what the search works on) and kernel terms.

Outside the kernel, untrusted: the search may simplify freely; the kernel only ever sees the
terms read from text by its own parser (:func:`prover.kernel.terms.parse_term`). Reading text
into sympy also goes through that parser, so no proof file is ever handed to sympy's ``eval``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from prover.kernel import terms as T
from prover.problem import exp as lean_exp
from prover.problem import log as lean_log
from prover.problem import var

_FN = {"exp": lean_exp, "log": lean_log, "abs": sp.Abs}
_CONST = {"pi": sp.pi, "E": sp.E}


def term_to_sympy(t: T.Term) -> sp.Expr:
    """The sympy expression of a kernel term (sympy evaluates as it builds: untrusted use only)."""
    memo: dict[T.Term, sp.Expr] = {}

    def go(u: T.Term) -> sp.Expr:
        r = memo.get(u)
        if r is not None:
            return r
        if isinstance(u, T.Num):
            r = sp.Rational(u.value.numerator, u.value.denominator)
        elif isinstance(u, T.Var):
            r = var(u.name)
        elif isinstance(u, T.Add):
            r = sp.Add(*[go(a) for a in u.args])
        elif isinstance(u, T.Mul):
            r = sp.Mul(*[go(a) for a in u.args])
        elif isinstance(u, T.Pow):
            r = sp.Pow(go(u.base), u.exp)
        elif isinstance(u, T.Rpow):
            r = sp.Pow(go(u.base), go(u.exp))
        elif isinstance(u, T.Sqrt):
            r = sp.sqrt(go(u.arg))
        elif isinstance(u, T.Fn):
            r = _FN[u.name](go(u.arg))
        else:
            r = _CONST[u.name]
        memo[u] = r
        return r

    return go(t)


def sympy_to_term(e: sp.Expr | int, variables: Sequence[str]) -> T.Term:
    """The kernel term of a sympy expression, read from its text as the kernel would read it."""
    return T.parse_term(str(sp.sympify(e)), tuple(variables))


def relation_to_rel(r, variables: Sequence[str]) -> T.Rel:
    """A ``prover.problem.Relation`` as a kernel relation."""
    return T.Rel(sympy_to_term(r.lhs, variables), r.op, sympy_to_term(r.rhs, variables))
