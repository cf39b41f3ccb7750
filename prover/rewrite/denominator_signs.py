"""Denominators that are positive only thanks to the constraints become hypotheses.

``ab + bc + ca = 1 ⊢ Σ 1/(4a² − bc + 1) >= 1``: the positivity rules cannot see that
``4a² − bc + 1 = 4a² + ab + ca > 0``, so no rewrite of the target can be checked (Lean's
``x/0 = 0`` makes every identity with an unproved denominator unsound). For each such factor of a
denominator that is positive (or negative) at sampled points of the domain, SOS over the goal's
context proves ``D > 0``; the step is a ``rewrite`` with multiplier 1 that only adds those facts
(``new_hypotheses``), after which the usual rewrites apply.

Before SOS, a cheap certificate: with a homogeneous constraint ``p = k`` the factor lifted to
its top degree (``1 ↦ (ab + bc + ca)``) often has only positive coefficients in positive
variables; then ``D = Σ cₘ·m + λ·(p − k)`` with every monomial ``m`` a product of the
variables' sign hypotheses is the proof (milliseconds instead of seconds of SDP).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    CloseCertificate,
    EqTerm,
    LinearCertificate,
    NewHypothesis,
    SosCertificate,
    SosTerm,
)
from prover.problem import Relation
from prover.rewrite.base import Candidate, equality_hyps, is_positive, is_rational_function, symbols_of
from prover.rewrite.homogenize import homogeneous_constraint, homogenize
from prover.rewrite.points import domain_points
from prover.solvers.sos import sos_close_certificate

#: seconds of SOS per denominator factor (the isolated group running this gets at most 10 s)
SOS_TIME = 3.0
BUDGET = 8.0
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


def _sign_hypotheses(goal: Goal, syms: list[sp.Symbol]) -> dict[sp.Symbol, tuple[int, bool]]:
    """``x ↦ (index, strict)`` of a hypothesis whose slack is exactly ``x`` (``x > 0`` or ``x >= 0``)."""
    out: dict[sp.Symbol, tuple[int, bool]] = {}
    for i, h in enumerate(goal.hypotheses):
        if h.is_inequality:
            x = sp.expand(h.slack())
            if x in syms and (x not in out or (h.strict and not out[x][1])):
                out[x] = (i, h.strict)
    return out


def constraint_positivity(fact: sp.Expr, goal: Goal, syms: list[sp.Symbol]) -> CloseCertificate | None:
    """A certificate of ``fact > 0``: ``fact = Σ cₘ·m + λ·eq(H)`` with ``cₘ > 0`` and each monomial
    ``m`` a product of sign hypotheses, where ``fact − λ·eq(H)`` is ``fact`` homogenized by the
    constraint ``H`` (None when no constraint makes every coefficient positive)."""
    signs = _sign_hypotheses(goal, syms)
    for i, eq in equality_hyps(goal):
        hc = homogeneous_constraint(eq, syms)
        if hc is None:
            continue
        p, k, d = hc
        lifted = homogenize(sp.expand(fact), p, k, d, syms)
        if lifted is None:
            continue
        lam, rem = sp.div(sp.Poly(sp.expand(fact - lifted), *syms), sp.Poly(eq, *syms))
        poly = sp.Poly(lifted, *syms)
        if not rem.is_zero or any(c <= 0 for c in poly.coeffs()):
            continue
        terms = []
        strict = False
        for monom, c in poly.terms():
            if any(e and x not in signs for x, e in zip(syms, monom)):
                break
            mult = tuple(signs[x][0] for x, e in zip(syms, monom) for _ in range(e))
            strict = strict or all(signs[x][1] for x, e in zip(syms, monom) if e)
            terms.append(SosTerm(expr_to_str(c), "1", mult))
        else:
            if strict:
                return SosCertificate(tuple(terms), (EqTerm(i, expr_to_str(lam.as_expr())),))
    return None


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
            proof = constraint_positivity(fact.lhs, goal, syms) or sos_close_certificate(
                goal.with_target(fact), min(SOS_TIME, deadline - time.monotonic()))
            if proof is None:
                return
            proofs.append(NewHypothesis(len(goal.hypotheses) + len(facts), proof))
            facts.append(fact)
        sub = Goal(goal.variables, goal.hypotheses + tuple(facts), t)
        cert = LinearCertificate("1", new_hypotheses=tuple(proofs))
        note = "denominators positive by the constraints: " + ", ".join(f"{r.lhs} > 0" for r in facts)
        yield Candidate(Step("rewrite", goal, [sub], cert.to_json(), note=note), self.name, 2.0)
