"""Roots and rational powers become new variables (``introduce`` steps).

``E^(p/q)`` with ``q > 1`` → ``t^p`` where ``t = E^(1/q)``; new hypotheses ``t >= 0`` (``> 0``
when ``E > 0``) and ``t^q = E``, each with a close certificate over the old context with the
definition substituted.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    CloseCertificate,
    IntroduceCertificate,
    NewHypothesis,
    PositivityCertificate,
    SosCertificate,
)
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, fresh_names, is_positive


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


class IntroduceRoots:
    name = "introduce-roots"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        atoms = root_atoms(t.lhs) + [a for a in root_atoms(t.rhs) if a not in root_atoms(t.lhs)]
        if not atoms:
            return
        # replace all roots of the same base at once (lcm of the denominators)
        by_base: dict[sp.Expr, int] = {}
        for base, q in atoms:
            by_base[base] = int(sp.ilcm(by_base.get(base, 1), q))
        names = fresh_names(goal, [f"t{i}" for i in range(1, len(by_base) + 1)])
        lhs, rhs = sp.sympify(t.lhs), sp.sympify(t.rhs)
        defs: dict[str, str] = {}
        new_hyps: list[Relation] = []
        proofs: list[NewHypothesis] = []
        hyps = list(goal.hypotheses)
        for name, (base, q) in zip(names, by_base.items()):
            if base.free_symbols & {var(n) for n in names}:
                return  # nested roots: a later step handles the inner ones
            tv = var(name)
            lhs, rhs = _replace_root(lhs, base, q, tv), _replace_root(rhs, base, q, tv)
            defs[name] = expr_to_str(base ** sp.Rational(1, q))
            strict = is_positive(base, goal, strict=True)
            pr: CloseCertificate
            for rel, pr in ((Relation(tv, ">" if strict else ">=", sp.Integer(0)), PositivityCertificate()),
                            (Relation(tv ** q, "=", base), SosCertificate())):
                proofs.append(NewHypothesis(len(hyps) + len(new_hyps), pr))
                new_hyps.append(rel)
        new_goal = Goal(goal.variables + tuple(names), tuple(hyps + new_hyps), Relation(lhs, t.op, rhs))
        if any(isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer
               for n in sp.preorder_traversal(lhs - rhs)):
            note = "name the roots (some remain)"
        else:
            note = "name the roots"
        cert = IntroduceCertificate(defs, tuple(proofs))
        yield Candidate(Step("introduce", goal, [new_goal], cert.to_json(), note=note), self.name, 1.0)
