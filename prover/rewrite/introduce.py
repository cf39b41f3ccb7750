"""Roots and rational powers become new variables (``introduce`` steps).

``E^(p/q)`` with ``q > 1`` → ``t^p`` where ``t = E^(1/q)``; new hypotheses ``t >= 0`` (``> 0``
when ``E > 0``) and ``t^q = E``, each with a close certificate over the old context with the
definition substituted.
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
from prover.rewrite.base import SingleStepRewrite, fresh_names, is_positive


def root_atoms(e: sp.Expr) -> list[tuple[sp.Expr, int]]:
    """``(E, q)`` for every ``E^(p/q)`` in ``e`` with ``q > 1``, outermost first, deduplicated."""
    out: list[tuple[sp.Expr, int]] = []
    for n in sp.preorder_traversal(e):
        if isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer:
            item = (n.base, int(n.exp.q))
            if item not in out:
                out.append(item)
    return out


def _replace_root(e: sp.Expr, base: sp.Expr, q: int, t: sp.Symbol) -> sp.Expr:
    def repl(n: sp.Expr) -> sp.Expr:
        if isinstance(n, sp.Pow) and n.base == base and n.exp.is_Rational and not n.exp.is_Integer \
                and (n.exp * q).is_Integer:
            return t ** int(n.exp * q)
        return n
    return e.replace(lambda n: isinstance(n, sp.Pow) and n.base == base, repl)


class IntroduceRoots(SingleStepRewrite):
    """Every root in the target (with ``hypotheses``, in the hypotheses too) named at once; all
    roots of one base share one new variable (the lcm of their denominators)."""

    name = "introduce-roots"

    def __init__(self, *, hypotheses: bool = False) -> None:
        self.hypotheses = hypotheses

    def _relations(self, goal: Goal) -> list[Relation]:
        return [goal.target] + (list(goal.hypotheses) if self.hypotheses else [])

    def accepts(self, goal: Goal) -> bool:
        return any(root_atoms(sp.sympify(side)) for r in self._relations(goal) for side in (r.lhs, r.rhs))

    def apply(self, goal: Goal) -> Step | None:
        by_base: dict[sp.Expr, int] = {}
        for r in self._relations(goal):
            for side in (r.lhs, r.rhs):
                for base, q in root_atoms(sp.sympify(side)):
                    by_base[base] = int(sp.ilcm(by_base.get(base, 1), q))
        if not by_base:
            return None
        names = fresh_names(goal, [f"t{i}" for i in range(1, len(by_base) + 1)])
        if any(base.free_symbols & {var(n) for n in names} for base in by_base):
            return None  # nested roots: a later step handles the inner ones
        relations = self._relations(goal)
        defs: dict[str, str] = {}
        new_hyps: list[Relation] = []
        for name, (base, q) in zip(names, by_base.items()):
            tv = var(name)
            relations = [Relation(_replace_root(sp.sympify(r.lhs), base, q, tv), r.op,
                                  _replace_root(sp.sympify(r.rhs), base, q, tv)) for r in relations]
            defs[name] = expr_to_str(base ** sp.Rational(1, q))
            strict = is_positive(base, goal, strict=True)
            new_hyps += [Relation(tv, ">" if strict else ">=", sp.Integer(0)), Relation(tv ** q, "=", base)]
        target, hyps = relations[0], (tuple(relations[1:]) if self.hypotheses else goal.hypotheses)
        n0 = len(hyps)
        proofs = tuple(NewHypothesis(n0 + k, PositivityCertificate() if k % 2 == 0 else SosCertificate())
                       for k in range(len(new_hyps)))
        new_goal = Goal(goal.variables + tuple(names), hyps + tuple(new_hyps), target)
        some_left = any(isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer
                        for n in sp.preorder_traversal(target.lhs - target.rhs))
        note = "name the roots (some remain)" if some_left else "name the roots"
        return Step("introduce", goal, [new_goal], IntroduceCertificate(defs, proofs).to_json(), note=note)
