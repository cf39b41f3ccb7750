"""Cubing both sides: ``S <= L`` from ``S³ <= L³`` (a ``rewrite``; ``x ↦ x³`` is increasing).

Why: after cube roots are named (``t = ∛X``, ``t³ = X``) a goal such as ``t₁ + t₂ + t₃ <= L``
is not polynomial in what the constraints speak about; its cube is, once the power-mean lemma
``(t₁ + t₂ + t₃)³ <= 9(t₁³ + t₂³ + t₃³)`` and the root equations remove the ``tᵢ``. The step is
the identity ``L − S = (L³ − S³) / (S² + S·L + L²)``: a ``rewrite`` with multiplier
``1 / (S² + S·L + L²)``, which the kernel proves positive (both sides positive), so no new step
kind and no trust in monotonicity. The cubed side is left unexpanded so that the catalogue sees
``(t₁ + t₂ + t₃)³``.

Proposed only when a side holds a named cube root (a variable ``t`` with ``t > 0`` or ``t >= 0``
and a hypothesis ``t³ = X``) and both sides are provably positive; never for a side that is
already a cube (or holds the cube of a sum with a root).
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, rewrite_step
from prover.rewrite.root_powers import root_power_hypotheses

#: The move that opens a named cube root to the power-mean lemmas (no other rewrite removes it):
#: ranked above the generic rewrites, whose polynomial subgoals still carry the root.
SCORE = 6.0


def cube_root_variables(goal: Goal) -> set[sp.Symbol]:
    """Variables ``t`` with ``t >= 0`` (or ``> 0``) and a hypothesis ``t³ = X`` (``X`` free of
    ``t`` and of radicals: only then does cubing lead back to the original variables)."""
    return {t for t, (_, k, _, _) in root_power_hypotheses(goal).items() if k == 3}


def _low_powers(e: sp.Expr, roots: set[sp.Symbol]) -> bool:
    """Every named cube root occurs in ``e`` to a power below 3 (``t₁ + t₂``, ``a·t``): cubing
    then gives the power-mean lemmas a sum to work on, not ``t¹²``."""
    return all(int(n.exp) < 3 for n in sp.preorder_traversal(sp.sympify(e))
               if isinstance(n, sp.Pow) and n.base in roots and n.exp.is_Integer)


def _bare(e: sp.Expr, t: sp.Symbol) -> bool:
    """``t`` occurs in ``e`` other than through ``t^(3j)`` (which its equation already removes)."""
    rest = sp.sympify(e).replace(lambda n: isinstance(n, sp.Pow) and n.base == t and n.exp.is_Integer
                                 and n.exp % 3 == 0, lambda n: sp.Integer(1))
    return t in rest.free_symbols


def _cubed_root_sum(e: sp.Expr, roots: set[sp.Symbol]) -> bool:
    """``e`` already holds a cube (or higher power) of an expression with a named root: cubed before."""
    return any(isinstance(n, sp.Pow) and n.exp.is_Integer and n.exp >= 3 and not isinstance(n.base, sp.Symbol)
               and n.base.free_symbols & roots for n in sp.preorder_traversal(e))


class CubeGoals:
    name = "cube"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if t.op not in ("<=", "<", ">=", ">"):
            return
        roots = cube_root_variables(goal)
        if not roots:
            return
        lo, hi = (t.lhs, t.rhs) if t.op in ("<=", "<") else (t.rhs, t.lhs)
        if not any(_bare(side, r) for side in (lo, hi) for r in roots):
            return
        if not (_low_powers(lo, roots) and _low_powers(hi, roots)):
            return
        if any(_cubed_root_sum(side, roots) for side in (lo, hi)):
            return
        if not (is_positive(lo, goal) and is_positive(hi, goal)):
            return
        op = "<" if t.strict else "<="
        # positive denominators leave the cube: ``(N_lo·D_hi)³ <= (N_hi·D_lo)³`` (no fractions
        # for the ranking to count; the power-mean lemmas still see the cubed sum as a factor)
        (n_lo, d_lo), (n_hi, d_hi) = (sp.fraction(sp.together(side)) for side in (lo, hi))
        if d_lo == 1 and d_hi == 1 or not is_positive(d_lo * d_hi, goal):
            n_lo, d_lo, n_hi, d_hi = lo, sp.Integer(1), hi, sp.Integer(1)
        new = Relation(n_lo ** 3 * d_hi ** 3, op, n_hi ** 3 * d_lo ** 3)
        multiplier = 1 / ((d_lo * d_hi) ** 3 * (lo ** 2 + lo * hi + hi ** 2))
        step = rewrite_step(goal, new, multiplier, note="cube both sides (x ↦ x³ is increasing)")
        yield Candidate(step, self.name, SCORE)


__all__ = ["CubeGoals", "cube_root_variables"]
