"""``|p|`` with a known sign of ``p`` becomes a variable equal to ``±p`` (``introduce`` steps).

sympy writes ``√(x²)`` and ``(x²)^(2/3)`` as ``|x|`` and ``|x|^(4/3)``; the kernel reads ``|x|`` as an
atom that no ring law relates to ``x``, so a goal such as ``|x|^(4/3)·|y|^(2/3) <= 2x²/3 + y²/3``
is out of the closers' reach even with ``x > 0``. The way through the kernel: introduce
``t := √(p²)`` (Lean's value is ``|p|``; the kernel's atom for it is the same as for ``|p|``, so
``|p|`` in the goal may be written ``t``), whose definition facts are ``t >= 0`` and ``t² = p²``
(``Real.sq_sqrt``). When ``p > 0`` (``p < 0``) is provable, the subgoal also states ``t = p``
(``t = −p``), proved from ``t² = p²`` by ``t − p = (t² − p²)/(t + p)`` with ``t + p > 0``;
:class:`~prover.rewrite.eliminate.EliminateVariables` then renames ``t`` back to ``p``. When only
``p >= 0`` (``p <= 0``) is known, ``t = p`` (``t = −p``) is the kernel's own definition fact of
``√(p²)`` (``Real.sqrt_sq``; ``abs_of_nonpos``); where the kernel does not prove that sign the
subgoal keeps ``t >= 0`` and ``t² = p²``.

Nothing here is trusted: the kernel checks the step.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel import terms as T
from prover.kernel.certificates import (
    EqTerm,
    IntroduceCertificate,
    NewHypothesis,
    PositivityCertificate,
    SignSplit,
    SosCertificate,
)
from prover.kernel.check import introduce_facts
from prover.problem import Relation, var
from prover.rewrite.base import SingleStepRewrite, fresh_names, is_positive, is_rational_function, symbols_of


def _relations(goal: Goal) -> list[Relation]:
    return [goal.target, *goal.hypotheses]


def has_abs(goal: Goal) -> bool:
    """Whether an ``|·|`` occurs in the goal's target or hypotheses."""
    return any(sp.sympify(side).has(sp.Abs) for r in _relations(goal) for side in (r.lhs, r.rhs))


def abs_arguments(goal: Goal) -> list[sp.Expr]:
    """``p`` for every ``|p|`` of the goal with ``p`` a rational function of the variables, in order."""
    syms = symbols_of(goal)
    out: list[sp.Expr] = []
    for r in _relations(goal):
        for side in (r.lhs, r.rhs):
            for n in sp.preorder_traversal(sp.sympify(side)):
                if isinstance(n, sp.Abs) and n.args[0] not in out and is_rational_function(n.args[0], syms):
                    out.append(n.args[0])
    return out


def _sign(p: sp.Expr, goal: Goal) -> tuple[int, bool] | None:
    """``(s, strict)`` with ``s·p > 0`` (strict) or ``s·p >= 0`` provable; None when neither sign is."""
    for s in (1, -1):
        if is_positive(s * p, goal, strict=True):
            return s, True
    for s in (1, -1):
        if is_positive(s * p, goal, strict=False):
            return s, False
    return None


def _square_fact(facts: list[T.Rel], name: str) -> int | None:
    """Index of the definition fact ``name ^ 2 = …`` among ``facts``."""
    for i, f in enumerate(facts):
        if isinstance(f.lhs, T.Pow) and f.lhs.exp == 2 and f.lhs.base == T.Var(name) and f.op == "=":
            return i
    return None


def _sign_fact(facts: list[T.Rel], name: str) -> bool:
    """Whether the kernel states ``name = ±p`` among its facts of ``name := √(p²)``."""
    return any(f.op == "=" and f.lhs == T.Var(name) and not isinstance(f.rhs, T.Sqrt) for f in facts)


def _replace(r: Relation, mapping: dict[sp.Expr, sp.Symbol]) -> Relation:
    return Relation(sp.sympify(r.lhs).subs(mapping), r.op, sp.sympify(r.rhs).subs(mapping))


class AbsAsVariable(SingleStepRewrite):
    """Every ``|p|`` of known sign named at once: ``t := √(p²)``, with ``t = ±p`` when strict."""

    name = "abs-as-variable"
    score = 0.9

    def accepts(self, goal: Goal) -> bool:
        return has_abs(goal)

    def apply(self, goal: Goal) -> Step | None:
        signed = [(p, sg) for p in abs_arguments(goal) if (sg := _sign(p, goal)) is not None]
        if not signed:
            return None
        names = fresh_names(goal, [f"t{i}" for i in range(1, len(signed) + 1)])
        defs = {n: f"sqrt(({expr_to_str(p)})**2)" for n, (p, _) in zip(names, signed)}
        facts = introduce_facts(goal, defs)
        n0 = len(goal.hypotheses)
        mapping = {sp.Abs(p): var(n) for n, (p, _) in zip(names, signed)}
        hyps = [_replace(h, mapping) for h in goal.hypotheses]
        proofs: list[NewHypothesis] = []
        for n, (p, (s, strict)) in zip(names, signed):
            t = var(n)
            k = _square_fact(facts, n)
            if k is None:
                return None
            hyps.append(Relation(t, ">" if strict else ">=", sp.Integer(0)))
            proofs.append(NewHypothesis(len(hyps) - 1, PositivityCertificate()))
            if strict:
                hyps.append(Relation(t, "=", s * p))
                lam = expr_to_str(1 / (t + s * p))
                proofs.append(NewHypothesis(len(hyps) - 1, SosCertificate(eq_terms=(EqTerm(n0 + k, lam),))))
            elif _sign_fact(facts, n):
                hyps.append(Relation(t, "=", s * p))      # the kernel's own fact (Real.sqrt_sq)
            else:
                hyps.append(Relation(t ** 2, "=", p ** 2))
                proofs.append(NewHypothesis(len(hyps) - 1, SosCertificate(eq_terms=(EqTerm(n0 + k, "1"),))))
        new_goal = Goal(goal.variables + tuple(names), tuple(hyps), _replace(goal.target, mapping))
        return Step("introduce", goal, [new_goal], IntroduceCertificate(defs, tuple(proofs)).to_json(),
                    note="name |p| of known sign")


MAX_SIGN_SPLITS = 3
"""Splits on unsigned ``|p|`` arguments along one branch (at most ``2 ** 3`` cases)."""


class AbsSignSplit(SingleStepRewrite):
    """Cases ``p >= 0`` and ``p <= 0`` for the first ``|p|`` whose sign is not provable, so that
    :class:`AbsAsVariable` names it ``±p`` in each case (``|x − 1| < 2 ⊢ x < 3``). The kernel's
    ``split``/``sign`` rule checks the two cases; nothing here is trusted."""

    name = "abs-sign-split"
    score = 0.85

    def accepts(self, goal: Goal) -> bool:
        return has_abs(goal)

    def apply(self, goal: Goal) -> Step | None:
        if _sign_splits_so_far(goal) >= MAX_SIGN_SPLITS:
            return None
        p = next((q for q in abs_arguments(goal) if _sign(q, goal) is None), None)
        if p is None:
            return None
        cases = [goal.with_hypotheses([Relation(p, op, sp.Integer(0))]) for op in (">=", "<=")]
        return Step("split", goal, cases, SignSplit(expr_to_str(p)).to_json(), note="sign of an |p| argument")


def _sign_splits_so_far(goal: Goal) -> int:
    """How many hypotheses of the form ``p ⋛ 0`` with ``|p|`` in the goal it already has."""
    args = {sp.expand(p) for p in abs_arguments(goal)}
    return sum(1 for h in goal.hypotheses
               if h.op in (">=", "<=") and sp.sympify(h.rhs) == 0 and sp.expand(h.lhs) in args)
