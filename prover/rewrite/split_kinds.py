"""Two inequalities added: a target whose terms are of different kinds (radicals, fractions,
polynomials) is proved part by part.

Why: textbooks and composed statements add two inequalities over the same variables
(``Σ 1/(1 + x²) + √((1 + x)(1 + y)) ≥ 3/2 + 1 + √(xy)``); the sum hides each part's own method (a
tangent line for the fractions, Cauchy for the roots), and the closers then face radicals and
fractions at once. For each kind ``K`` present, the target ``A_K + B + c ≥ 0`` (``A_K`` the terms of
kind ``K``, ``B`` the others, ``c`` the constant) becomes the parts ``A_K ≥ m_A`` and ``B ≥ m_B``
with ``m_A + m_B + c ≥ 0``, the constants at each part's numeric minimum over the goal's hypotheses
(rational, snapped to a simple value: the equality case of the sum is each part's own). A
``combine`` step ``slack(G) = slack(A) + slack(B) + spare``: the kernel checks the identity and that
each part keeps the goal's hypotheses; a constant chosen too high makes a false part, which the
counterexample filter drops. Nothing here is trusted.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.problem import Relation
from prover.rewrite.base import Candidate
from prover.rewrite.separable import MINIMUM_TIME, combine_step, numeric_minimum, part_constants

#: Below the separable rewrite's (variables that never meet are surely split; kinds may not be).
SCORE = 1.0
#: Terms of a target read at most (a larger sum is left to the other rewrites).
MAX_TERMS = 40


def term_kind(term: sp.Expr) -> str:
    """``radical`` (a non-integer power of a non-constant), ``fraction`` (a variable in a
    denominator) or ``polynomial``."""
    if any(p.exp.is_Rational and not p.exp.is_Integer and p.base.free_symbols
           for p in term.atoms(sp.Pow)):
        return "radical"
    if any(p.exp.is_negative and p.base.free_symbols for p in term.atoms(sp.Pow)):
        return "fraction"
    return "polynomial"


def _terms(goal: Goal) -> tuple[dict[str, sp.Expr], sp.Expr] | None:
    """The target's slack as ``{kind: sum of its terms}`` and the constant (products of a number
    and a sum distributed at the top level only)."""
    slack = sp.expand(goal.target.slack(), deep=False, power_base=False, power_exp=False,
                      multinomial=False, log=False)
    terms = sp.Add.make_args(slack)
    if len(terms) > MAX_TERMS:
        return None
    parts: dict[str, sp.Expr] = {}
    const = sp.Integer(0)
    for t in terms:
        if not t.free_symbols:
            const += t
            continue
        k = term_kind(t)
        parts[k] = parts.get(k, sp.Integer(0)) + t
    return parts, const


def split_steps(goal: Goal, deadline: float) -> Iterator[Step]:
    """The ``combine`` steps for ``goal`` (see the module docstring), one per kind that splits."""
    t = goal.target
    if not t.is_inequality:
        return
    read = _terms(goal)
    if read is None or len(read[0]) < 2:
        return
    parts, const = read
    kinds = sorted(parts) if len(parts) > 2 else sorted(parts)[:1]
    for k in kinds:
        a = parts[k]
        b = sp.Add(*(v for kk, v in parts.items() if kk != k))
        step = _split(goal, a, b, const, deadline, k)
        if step is not None:
            yield step


def _split(goal: Goal, a: sp.Expr, b: sp.Expr, const: sp.Expr, deadline: float, kind: str) -> Step | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")    # a sampled point on a pole: that sample only
        mins = [numeric_minimum(goal, part, deadline, seed=i) for i, part in enumerate((a, b))]
    constants = part_constants(mins, const)
    if constants is None:
        return None
    ms, spare = constants
    op = ">" if goal.target.strict and spare == 0 else ">="
    subgoals = [goal.with_target(Relation(part, op, m)) for part, m in zip((a, b), ms)]
    terms = [(sp.Integer(1), (0,)), (sp.Integer(1), (1,)), (spare, ())]
    return combine_step(goal, subgoals, terms, f"split the {kind} terms from the others")


class SplitByKind:
    """Proposes ``combine`` steps that prove the terms of one kind apart from the others."""

    name = "split-kinds"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        deadline = time.monotonic() + MINIMUM_TIME
        for step in split_steps(goal, deadline):
            yield Candidate(step, self.name, SCORE)
