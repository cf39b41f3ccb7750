"""Reduce a polynomial goal modulo its equality hypotheses (``abc = 1``: ``a³bc`` → ``a²``).

``N = Σ q_j · eq(H_j) + R`` (multivariate division, graded order, so degrees drop); the new goal
is ``R >= 0`` and the quotients go into ``eq_terms``.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.kernel.ir import Goal
from prover.rewrite.base import (
    Candidate,
    equality_hyps,
    is_polynomial,
    poly_relation,
    rewrite_step,
    symbols_of,
)

#: Above this many terms the division is not attempted.
MAX_TERMS = 400


class ReduceByConstraints:
    name = "reduce-by-constraints"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality:
            return
        syms = symbols_of(goal)
        s = sp.expand(t.slack())
        if not is_polynomial(s, syms) or len(sp.Add.make_args(s)) > MAX_TERMS:
            return
        eqs = [(i, e) for i, e in equality_hyps(goal) if e != 0 and is_polynomial(e, syms)]
        if not eqs:
            return
        quotients, rem = sp.reduced(s, [e for _, e in eqs], *syms, order="grevlex")
        rem = sp.expand(rem)
        if rem == s or not any(q != 0 for q in quotients):
            return
        if sp.Poly(rem, *syms).total_degree() >= sp.Poly(s, *syms).total_degree() and \
                len(sp.Add.make_args(rem)) >= len(sp.Add.make_args(s)):
            return
        content, prim = sp.Poly(rem, *syms).primitive() if rem != 0 else (sp.Integer(1), sp.Poly(0, *syms))
        if content < 0:
            content, prim = -content, -prim
        new = poly_relation(prim.as_expr(), t.strict)
        lam = [(i, sp.expand(q)) for (i, _), q in zip(eqs, quotients) if q != 0]
        yield Candidate(rewrite_step(goal, new, content, lam, note="reduce modulo the equality hypotheses"),
                        self.name, 1.0)
