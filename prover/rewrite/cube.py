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

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, LemmaApplication, LinearCertificate
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, rewrite_step
from prover.rewrite.root_powers import root_power_hypotheses

#: The move that opens a named cube root to the power-mean lemmas (no other rewrite removes it):
#: ranked above the generic rewrites, whose polynomial subgoals still carry the root.
SCORE = 6.0
#: The power mean for a sum of ``n`` cube roots: lemma, its variables, ``n²``.
POWER_MEANS = {2: ("power_mean2_cube", ("x", "y"), 4), 3: ("power_mean3_cube", ("x", "y", "z"), 9)}
#: Cube, power mean and the roots' equations in one step: the goal is then in the original
#: variables (what the three separate steps reach only when the ranking lets them).
POWER_MEAN_SCORE = 8.0


def cube_root_variables(goal: Goal) -> set[sp.Symbol]:
    """Variables ``t`` with ``t >= 0`` (or ``> 0``) and a hypothesis ``t³ = X`` (``X`` free of
    ``t`` and of radicals: only then does cubing lead back to the original variables)."""
    return {t for t, (_, k, _, _) in root_power_hypotheses(goal).items() if k == 3}


def _low_powers(e: sp.Expr, roots: set[sp.Symbol]) -> bool:
    """Every named cube root occurs in ``e`` to a power below 3 (``t₁ + t₂``, ``a·t``): cubing
    then gives the power-mean lemmas a sum to work on, not ``t¹²``."""
    return all(int(n.exp) < 3 for n in sp.preorder_traversal(sp.sympify(e))
               if isinstance(n, sp.Pow) and n.base in roots and n.exp.is_Integer)


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
        # below the cube every occurrence of a root is one its equation cannot remove
        if not (lo.free_symbols | hi.free_symbols) & roots or not (_low_powers(lo, roots) and _low_powers(hi, roots)):
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


class PowerMeanCubeRoots:
    """``t₁ + … + tₙ <= L`` (``tᵢ = ∛Xᵢ`` named, ``n = 2, 3``) from ``n²·ΣXᵢ <= L³`` in one
    ``scale`` step: with ``S = Σtᵢ``, ``Q = S² + S·L + L²`` and ``L = N/D`` (``D > 0``),
    ``L − S = (N³ − n²D³ΣXᵢ)/(D³Q) + (n²Σtᵢ³ − S³)/Q − (n²/Q)·Σ(tᵢ³ − Xᵢ)``: the power-mean
    lemma with weight ``1/Q``, the root equations as ``eq_terms``, multiplier ``1/(D³Q)``."""

    name = "power-mean-cube-roots"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if t.op not in ("<=", "<", ">=", ">"):
            return
        lo, hi = (t.lhs, t.rhs) if t.op in ("<=", "<") else (t.rhs, t.lhs)
        terms = sp.Add.make_args(sp.expand(lo))
        roots = {r: (i, x, sign) for r, (i, k, x, sign) in root_power_hypotheses(goal).items() if k == 3}
        if len(terms) not in POWER_MEANS or not all(x in roots for x in terms) or hi.free_symbols & set(roots):
            return
        if not is_positive(hi, goal):
            return
        n_hi, d_hi = sp.fraction(sp.together(hi))
        if d_hi != 1 and not is_positive(d_hi, goal):
            n_hi, d_hi = hi, sp.Integer(1)
        lemma, names, n2 = POWER_MEANS[len(terms)]
        op = "<" if t.strict else "<="
        new = Relation(sp.expand(n2 * d_hi ** 3 * sp.Add(*[roots[r][1] for r in terms])), op,
                       n_hi ** 3)   # expanded: D³/a cancels
        q = lo ** 2 + lo * hi + hi ** 2
        eq_terms = [EqTerm(roots[r][0], expr_to_str(-roots[r][2] * n2 / q)) for r in terms]
        app = LemmaApplication(lemma, {v: expr_to_str(r) for v, r in zip(names, terms)}, expr_to_str(1 / q))
        cert = LinearCertificate(expr_to_str(1 / (d_hi ** 3 * q)), tuple(eq_terms), (app,))
        step = Step("scale", goal, [goal.with_target(new)], cert.to_json(),
                    note=f"cube both sides, {lemma}, the roots' equations")
        yield Candidate(step, self.name, POWER_MEAN_SCORE)
