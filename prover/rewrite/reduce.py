"""Reduce a polynomial goal modulo its equality hypotheses (``abc = 1``: ``a³bc`` → ``a²``).

``N = Σ q_j · eq(H_j) + R`` (multivariate division, graded order, so degrees drop); the new goal
is ``R >= 0`` and the quotients go into ``eq_terms``.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.rewrite.base import (
    Candidate,
    equality_hyps,
    is_polynomial,
    polynomial_target,
    primitive_relation,
    rewrite_step,
)

#: Above this many terms the division is not attempted.
MAX_TERMS = 400


class ReduceByConstraints:
    name = "reduce-by-constraints"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        pt = polynomial_target(goal)
        if pt is None or len(sp.Add.make_args(pt[1])) > MAX_TERMS:
            return
        syms, s = pt
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
        content, new = primitive_relation(rem, syms, goal.target.strict)
        lam = [(i, sp.expand(q)) for (i, _), q in zip(eqs, quotients) if q != 0]
        yield Candidate(rewrite_step(goal, new, content, lam, note="reduce modulo the equality hypotheses"),
                        self.name, 1.0)
