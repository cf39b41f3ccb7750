"""Signs of variables that the hypotheses imply only together become hypotheses.

``a − b ≥ 0, b − c ≥ 0, c − d ≥ 0, d > 0`` imply ``a > 0``, but the kernel's positivity rules
read one hypothesis at a time, so a lemma whose side condition is ``a ≥ 0`` (weighted AM-GM with
the weight ``a``, a factor ``a`` moved across the relation) cannot be applied. For each variable
without a sign hypothesis, SOS over the goal's context (here a linear combination of the
hypotheses, found in a fraction of a second) proves ``x > 0``, else ``x ≥ 0``; the step is a
``rewrite`` with multiplier 1 that only adds those facts (``new_hypotheses``), as
:mod:`prover.rewrite.denominator_signs` does for denominators.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.kernel.certificates import LinearCertificate, NewHypothesis
from prover.problem import Relation
from prover.rewrite.base import Candidate, symbols_of
from prover.solvers.sos import sos_close_certificate

#: seconds of SOS per fact, and for the whole step
SOS_TIME, BUDGET = 2.5, 6.0   # the first SOS call also imports cvxpy (~1.5 s)
#: candidate score: the facts change nothing by themselves, but unlock the lemmas that need them
SCORE = 2.0


def _signed(goal: Goal) -> set[sp.Symbol]:
    """Variables with a hypothesis ``x ≥ 0`` / ``x > 0`` (slack exactly ``x``)."""
    out = set()
    for h in goal.hypotheses:
        if h.is_inequality:
            x = sp.expand(h.slack())
            if x.is_Symbol:
                out.add(x)
    return out


def _mentioned(goal: Goal, x: sp.Symbol) -> bool:
    """``x`` occurs in an inequality hypothesis that is not a sign of one variable."""
    return any(h.is_inequality and x in sp.expand(h.slack()).free_symbols and not sp.expand(h.slack()).is_Symbol
               for h in goal.hypotheses)


class VariableSigns:
    name = "variable-signs"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if not goal.target.is_inequality:
            return
        signed = _signed(goal)
        todo = [x for x in symbols_of(goal) if x not in signed and _mentioned(goal, x)]
        if not todo:
            return
        deadline = time.monotonic() + BUDGET
        facts: list[Relation] = []
        proofs: list[NewHypothesis] = []
        for x in todo:
            for op in (">", ">="):
                if time.monotonic() > deadline:
                    break
                fact = Relation(x, op, sp.Integer(0))
                proof = sos_close_certificate(goal.with_target(fact), min(SOS_TIME, deadline - time.monotonic()),
                                              max_extra_degree=0)
                if proof is not None:
                    proofs.append(NewHypothesis(len(goal.hypotheses) + len(facts), proof))
                    facts.append(fact)
                    break
        if not facts:
            return
        sub = Goal(goal.variables, goal.hypotheses + tuple(facts), goal.target)
        cert = LinearCertificate("1", new_hypotheses=tuple(proofs))
        note = "signs implied by the hypotheses together: " + ", ".join(f"{r.lhs} {r.op} 0" for r in facts)
        yield Candidate(Step("rewrite", goal, [sub], cert.to_json(), note=note), self.name, SCORE)
