"""Named roots' powers go back to what they name: ``t^e`` → ``X^(e//k)·t^(e%k)`` when ``t^k = X``.

After ``t = ∛X`` is introduced and a lemma turned ``(t₁ + t₂ + t₃)³`` into ``9(t₁³ + t₂³ + t₃³)``,
the target holds only powers that the root equations define; replacing them gives a goal in the
original variables (rational functions, which the closers' normal form clears). A ``rewrite``
with multiplier 1 and ``eq_terms``: ``slack(G) − slack(G') = Σ λⱼ·eq(Hⱼ)``, each ``λⱼ`` computed
exactly (``cancel``) and the identity re-checked here before it is proposed (the kernel checks
it again). Only pure powers ``t^e`` are replaced; ``(t₁ + t₂)³`` is left for the lemmas.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_rational_function, positive_vars, rewrite_step, symbols_of

#: A goal without any root left in its target is what this is for; a partial one scores lower.
SCORE_ALL, SCORE_SOME = 6.0, 1.0


def root_power_hypotheses(goal: Goal) -> dict[sp.Symbol, tuple[int, int, sp.Expr, int]]:
    """``t ↦ (hypothesis index, k, X, sign)`` for ``t >= 0`` with ``t^k = X`` (``k >= 2``, ``X``
    free of ``t``, a rational function: no radical or ``|·|`` comes back); ``sign`` is +1 when
    ``eq(H) = t^k − X`` and −1 when ``eq(H) = X − t^k``."""
    nonneg = positive_vars(goal, False)
    syms = symbols_of(goal)
    out: dict[sp.Symbol, tuple[int, int, sp.Expr, int]] = {}
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        for side, other, sign in ((h.lhs, h.rhs, 1), (h.rhs, h.lhs, -1)):
            side = sp.sympify(side)
            if (isinstance(side, sp.Pow) and side.base in nonneg and side.exp.is_Integer and side.exp >= 2
                    and side.base not in sp.sympify(other).free_symbols and side.base not in out
                    and is_rational_function(other, syms)):
                out[side.base] = (i, int(side.exp), sp.sympify(other), sign)
    return out


def replace_root_powers(e: sp.Expr, t: sp.Symbol, k: int, x: sp.Expr) -> sp.Expr:
    """``e`` with every pure power ``t^e`` (``e >= k``) written ``X^(e//k)·t^(e%k)``."""
    return sp.sympify(e).replace(
        lambda n: isinstance(n, sp.Pow) and n.base == t and n.exp.is_Integer and n.exp >= k,
        lambda n: x ** (int(n.exp) // k) * t ** (int(n.exp) % k))


class EliminateRootPowers:
    name = "root-powers"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality:
            return
        roots = root_power_hypotheses(goal)
        lhs, rhs = sp.sympify(t.lhs), sp.sympify(t.rhs)
        eq_terms: list[tuple[int, sp.Expr]] = []
        for r, (i, k, x, sign) in roots.items():
            new_l, new_r = replace_root_powers(lhs, r, k, x), replace_root_powers(rhs, r, k, x)
            if new_l == lhs and new_r == rhs:
                continue
            before = Relation(lhs, t.op, rhs).slack()
            after = Relation(new_l, t.op, new_r).slack()
            lam = sp.cancel((before - after) / (r ** k - x)) * sign
            if sp.cancel(before - after - lam * sign * (r ** k - x)) != 0:
                return
            eq_terms.append((i, lam))
            lhs, rhs = new_l, new_r
        if not eq_terms:
            return
        new = Relation(lhs, t.op, rhs)
        left = (lhs.free_symbols | rhs.free_symbols) & set(roots)
        step = rewrite_step(goal, new, sp.Integer(1), eq_terms, note="powers of the named roots by their equations")
        yield Candidate(step, self.name, SCORE_SOME if left else SCORE_ALL)
