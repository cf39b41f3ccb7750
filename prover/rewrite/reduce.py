"""Reduce a goal modulo its equality hypotheses (``abc = 1``: ``a³bc`` → ``a²``), the whole
polynomial (:class:`ReduceByConstraints`) or each fraction's numerator
(:class:`ReduceFractionsByConstraints`).

``N = Σ q_j · eq(H_j) + R`` (multivariate division, graded order, so degrees drop); the new goal
is ``R >= 0`` and the quotients go into ``eq_terms``.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation
from prover.rewrite.base import (
    Candidate,
    equality_hyps,
    is_polynomial,
    is_rational_function,
    polynomial_target,
    primitive_relation,
    rewrite_step,
    symbols_of,
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


#: Above this many terms on a side the fractions are not reduced.
MAX_FRACTION_TERMS = 12


class ReduceFractionsByConstraints:
    """Reduce each fraction's numerator modulo the polynomial equality hypotheses (``rewrite``)."""

    name = "reduce-fractions"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality:
            return
        syms = symbols_of(goal)
        if not is_rational_function(t.slack(), syms) or is_polynomial(sp.expand(t.slack()), syms):
            return
        eqs = [(i, e) for i, e in equality_hyps(goal) if e != 0 and is_polynomial(e, syms)]
        if not eqs:
            return
        lam = [sp.Integer(0)] * len(eqs)
        changed = False
        sides = []
        for k, side in enumerate((t.lhs, t.rhs)):
            out = sp.Integer(0)
            args = sp.Add.make_args(sp.sympify(side))
            if len(args) > MAX_FRACTION_TERMS:
                return
            for a in args:
                new, qs = self._reduce_term(a, syms, [e for _, e in eqs])
                if qs is not None:
                    changed = True
                    sgn = 1 if k == 1 else -1
                    lam = [l_ + sgn * q for l_, q in zip(lam, qs)]
                out += new
            sides.append(out)
        if not changed:
            return
        new_target = Relation(sides[0], t.op, sides[1])
        # slack = rhs - lhs for <=, lhs - rhs for >=: the λ above were for (rhs - lhs)
        if t.op in (">=", ">"):
            lam = [-l_ for l_ in lam]
        eq_terms = [(i, sp.cancel(l_)) for (i, _), l_ in zip(eqs, lam) if sp.cancel(l_) != 0]
        yield Candidate(rewrite_step(goal, new_target, sp.Integer(1), eq_terms,
                                     note="reduce the fractions' numerators modulo the equality hypotheses"),
                        self.name, 1.2)

    @staticmethod
    def _reduce_term(a: sp.Expr, syms: list[sp.Symbol], eqs: list[sp.Expr]
                     ) -> tuple[sp.Expr, list[sp.Expr] | None]:
        """``a = N/D`` → ``(R/D, [q_j/D])`` with ``N = Σ q_j·eq_j + R`` of lower degree."""
        if is_polynomial(a, syms):
            return a, None
        num, den = sp.fraction(sp.cancel(sp.together(a)))
        num = sp.expand(num)
        if not is_polynomial(num, syms) or num == 0:
            return a, None
        qs, rem = sp.reduced(num, eqs, *syms, order="grevlex")
        rem = sp.expand(rem)
        if rem == num or sp.Poly(rem, *syms).total_degree() >= sp.Poly(num, *syms).total_degree():
            return a, None
        den = sp.factor(den)
        return rem / den, [sp.expand(q) / den for q in qs]
