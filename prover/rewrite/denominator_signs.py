"""Denominators that are positive only thanks to the constraints become hypotheses.

``ab + bc + ca = 1 ⊢ Σ 1/(4a² − bc + 1) >= 1``: the positivity rules cannot see that
``4a² − bc + 1 = 4a² + ab + ca > 0``, so no rewrite of the target can be checked (Lean's
``x/0 = 0`` makes every identity with an unproved denominator unsound). For each such factor of a
denominator that is positive (or negative) at sampled points of the domain, SOS over the goal's
context proves ``D > 0``; the step is a ``rewrite`` with multiplier 1 that only adds those facts
(``new_hypotheses``), after which the usual rewrites apply.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.kernel.certificates import LinearCertificate, NewHypothesis
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, is_rational_function, symbols_of
from prover.rewrite.points import domain_points
from prover.solvers.sos import sos_close_certificate

#: seconds of SOS per denominator factor
SOS_TIME = 2.0
BUDGET = 6.0
SAMPLES = 200


def denominator_factors(e: sp.Expr, syms: list[sp.Symbol]) -> list[sp.Expr]:
    """The distinct non-constant irreducible factors of the denominators in ``e``."""
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Pow) and node.exp.is_Integer and node.exp < 0 and node.base.free_symbols:
            _, fs = sp.factor_list(sp.expand(node.base), *syms)
            for f, _ in fs:
                if f.free_symbols and f not in out and -f not in out:
                    out.append(f)
    return out


def _domain_points(goal: Goal, syms: list[sp.Symbol]) -> list[dict[sp.Symbol, float]]:
    return domain_points(goal, syms, sp.Integer(1), SAMPLES, random.Random(7))


def _sign_on(f: sp.Expr, syms: list[sp.Symbol], points: list[dict[sp.Symbol, float]]) -> int:
    """+1 / −1 when ``f`` has that strict sign at every point (and there are enough), else 0."""
    if len(points) < 20:
        return 0
    fn = sp.lambdify(syms, f, "math")
    signs = set()
    for p in points:
        try:
            v = fn(*[p[x] for x in syms])
        except (ZeroDivisionError, OverflowError, ValueError):
            return 0
        signs.add(1 if v > 1e-12 else -1 if v < -1e-12 else 0)
    return signs.pop() if len(signs) == 1 and 0 not in signs else 0


class DenominatorSigns:
    name = "denominator-signs"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality or not any(h.op == "=" or h.is_inequality for h in goal.hypotheses):
            return
        syms = symbols_of(goal)
        if not is_rational_function(t.slack(), syms):
            return
        unknown = [f for f in denominator_factors(t.lhs - t.rhs, syms)
                   if not is_positive(f, goal) and not is_positive(-f, goal)]
        if not unknown:
            return
        points = _domain_points(goal, syms)
        deadline = time.monotonic() + BUDGET
        facts: list[Relation] = []
        proofs: list[NewHypothesis] = []
        for f in unknown:
            sign = _sign_on(f, syms, points)
            if sign == 0 or time.monotonic() > deadline:
                return
            fact = Relation(sp.expand(sign * f), ">", sp.Integer(0))
            proof = sos_close_certificate(goal.with_target(fact), min(SOS_TIME, deadline - time.monotonic()))
            if proof is None:
                return
            proofs.append(NewHypothesis(len(goal.hypotheses) + len(facts), proof))
            facts.append(fact)
        sub = Goal(goal.variables, goal.hypotheses + tuple(facts), t)
        cert = LinearCertificate("1", new_hypotheses=tuple(proofs))
        note = "denominators positive by the constraints: " + ", ".join(f"{r.lhs} > 0" for r in facts)
        yield Candidate(Step("rewrite", goal, [sub], cert.to_json(), note=note), self.name, 2.0)
