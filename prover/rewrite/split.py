"""Case split on the order of the variables, one case per orbit of the goal's symmetry group.

For a fully symmetric goal one case ``a >= b >= c`` stands for all orderings; for a cyclic one,
``a >= b >= c`` and ``a >= c >= b``. The kernel re-checks the invariance (``split``/``order``).
Ordered cases let the closers use products of ``a - b >= 0`` style hypotheses.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.kernel.certificates import OrderSplit
from prover.problem import Relation, var
from prover.rewrite.base import Candidate

MAX_VARS = 4


def _zero(e: sp.Expr) -> bool:
    return sp.expand(sp.numer(sp.together(e))) == 0


def _hyp_forms(hyps: tuple[Relation, ...]) -> set[tuple[str, sp.Expr]]:
    out = set()
    for h in hyps:
        if h.op == "=":
            d = sp.expand(h.lhs - h.rhs)
            out |= {("=", d), ("=", -d)}
        else:
            out.add((">" if h.strict else ">=", sp.expand(h.slack())) if h.is_inequality else ("!=", h.lhs - h.rhs))
    return out


def invariant(goal: Goal, perm: dict[str, str]) -> bool:
    ren = {var(a): var(b) for a, b in perm.items()}
    t = goal.target
    if not _zero(sp.sympify(t.slack()).xreplace(ren) - t.slack()):
        return False
    forms = _hyp_forms(goal.hypotheses)
    renamed = _hyp_forms(tuple(Relation(sp.sympify(h.lhs).xreplace(ren), h.op, sp.sympify(h.rhs).xreplace(ren))
                               for h in goal.hypotheses))
    return renamed <= forms


def symmetry_of(goal: Goal, names: list[str]) -> str:
    cycle = dict(zip(names, names[1:] + names[:1]))
    if not invariant(goal, cycle):
        return "none"
    swap = {**{v: v for v in names}, names[0]: names[1], names[1]: names[0]}
    return "full" if invariant(goal, swap) else "cyclic"


def orbit_representatives(names: list[str], symmetry: str) -> list[list[str]]:
    n = len(names)
    if symmetry == "full":
        return [list(names)]
    group = [dict(zip(names, names[k:] + names[:k])) for k in range(n)] if symmetry == "cyclic" \
        else [dict(zip(names, names))]
    covered: set[tuple[str, ...]] = set()
    reps = []
    for p in itertools.permutations(names):
        if p in covered:
            continue
        reps.append(list(p))
        covered |= {tuple(g[v] for v in p) for g in group}
    return reps


def chain(order: list[str]) -> list[Relation]:
    return [Relation(var(x), ">=", var(y)) for x, y in itertools.pairwise(order)]


class SplitOrder:
    name = "split-order"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        names = [v for v in goal.variables if var(v) in goal.target.free_symbols()]
        if not 2 <= len(names) <= MAX_VARS or any(h.op == ">=" and sp.expand(h.slack()) in
                                                   {sp.expand(var(x) - var(y)) for x in names for y in names if x != y}
                                                   for h in goal.hypotheses):
            return   # already ordered
        sym = symmetry_of(goal, names)
        if sym == "none":
            return
        reps = orbit_representatives(names, sym)
        subgoals = [goal.with_hypotheses(chain(o)) for o in reps]
        cert = OrderSplit(tuple(names), sym, tuple(tuple(o) for o in reps))
        note = f"by symmetry ({sym}), assume " + "; or ".join(" ≥ ".join(o) for o in reps)
        yield Candidate(Step("split", goal, subgoals, cert.to_json(), note=note), self.name, 0.3)
