"""The variables of a monomial under a named root become roots themselves (``introduce``).

A named root ``t = (a·b·c)^(1/3)`` comes with ``t³ = a·b·c`` (:class:`IntroduceRoots`). The textbook
proofs of AM-GM and of Hölder's ``∏(aᵢ + bᵢ)^(1/n) ≥ ∏aᵢ^(1/n) + ∏bᵢ^(1/n)`` write ``a = x³``,
``b = y³``, ``c = z³``, so that ``t = xyz`` and the goal is a polynomial in ``x, y, z``. This rewrite
names ``x = a^(1/3)`` (``x > 0``, ``x³ = a``) for each positive variable of such a monomial whose
exponent is no multiple of ``k``; then :class:`~prover.rewrite.eliminate.EliminateVariables` writes
``a = x³`` everywhere, :class:`~prover.rewrite.constraint_roots.ConstraintRoots` turns
``t³ = (xyz)³`` into ``t = xyz``, and the eliminator again removes ``t``
(:func:`prover.rewrite.chain.normal_form` runs the four in turn).

Nothing here is trusted: the kernel checks the definitions' facts.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    IntroduceCertificate,
    NewHypothesis,
    PositivityCertificate,
    SosCertificate,
)
from prover.problem import Relation, var
from prover.rewrite.base import SingleStepRewrite, fresh_names, is_positive, symbols_of

#: Square roots keep their equation ``t² = ab``: the closers and the squaring steps already prove
#: ``√(ab) ≤ (a + b)/2`` that way, and ``a = x²`` would double every degree of the goal.
MIN_DEGREE = 3
#: Each new variable multiplies the goal's degree in it by ``k``: more than this, no step.
MAX_VARIABLES = 4


def _root_of_monomial(goal: Goal, h: Relation) -> tuple[int, dict[sp.Symbol, int]] | None:
    """``(k, {v: e})`` for a hypothesis ``t^k = c·∏ v^e`` (either side): ``t`` a variable,
    every ``v`` another variable known positive, ``c > 0`` rational, some ``e`` no multiple of ``k``
    (``k >= MIN_DEGREE``, at most ``MAX_VARIABLES`` variables)."""
    if h.op != "=":
        return None
    syms = set(symbols_of(goal))
    for power, mono in ((h.lhs, h.rhs), (h.rhs, h.lhs)):
        power, mono = sp.sympify(power), sp.expand(sp.sympify(mono))
        if not (power.is_Pow and power.base in syms and power.exp.is_Integer and power.exp >= MIN_DEGREE):
            continue
        k, t = int(power.exp), power.base
        c, rest = mono.as_coeff_Mul()
        if mono.is_Add or not c.is_Rational or c <= 0 or t in mono.free_symbols:
            continue
        exps: dict[sp.Symbol, int] = {}
        for f in sp.Mul.make_args(rest):
            base, e = f.as_base_exp()
            if base not in syms or not (e.is_Integer and e > 0):
                exps = {}
                break
            exps[base] = int(e)
        if exps and any(e % k for e in exps.values()) and len(exps) <= MAX_VARIABLES \
                and all(is_positive(v, goal, strict=True) for v in exps):
            return k, exps
    return None


class MonomialRootVariables(SingleStepRewrite):
    """``x = a^(1/k)`` for each variable ``a`` of a monomial ``t^k = c·∏ a^e`` (module docstring)."""

    name = "monomial-root-variables"

    def accepts(self, goal: Goal) -> bool:
        return any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        found = next((f for h in goal.hypotheses if (f := _root_of_monomial(goal, h)) is not None), None)
        if found is None:
            return None
        k, exps = found
        olds = sorted((v for v, e in exps.items() if e % k), key=str)
        names = fresh_names(goal, [f"{v.name}_{k}" for v in olds])
        defs: dict[str, str] = {}
        new_hyps: list[Relation] = []
        for name, v in zip(names, olds):
            defs[name] = expr_to_str(v ** sp.Rational(1, k))
            new_hyps += [Relation(var(name), ">", sp.Integer(0)), Relation(var(name) ** k, "=", v)]
        n0 = len(goal.hypotheses)
        proofs = tuple(NewHypothesis(n0 + i, PositivityCertificate() if i % 2 == 0 else SosCertificate())
                       for i in range(len(new_hyps)))
        new_goal = Goal(goal.variables + tuple(names), goal.hypotheses + tuple(new_hyps), goal.target)
        note = f"each variable under a root of degree {k} as a power {k} (x = a^(1/{k}))"
        return Step("introduce", goal, [new_goal], IntroduceCertificate(defs, proofs).to_json(), note=note)
