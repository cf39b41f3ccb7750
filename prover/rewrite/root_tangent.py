"""Tangent bounds of named square roots, term by term: ``√X ≤ (X + k²)/(2k)`` and ``√X ≥ 2kX/(X + k²)``.

Why: a cyclic sum such as ``Σ 1/(a·√(2(a² + bc))) ≥ 9/(2(ab + bc + ca))`` (567neq/P69) has one
radical per term; squaring never removes them all, and the human proof bounds each root by
AM-GM at the equality point, ``2k·√X ≤ X + k²`` with ``k = √X`` there, leaving a rational
inequality. After :class:`~prover.rewrite.introduce.IntroduceRoots` a root is a variable ``t``
with ``t ≥ 0`` and ``t² = X``; every term ``α·t`` or ``α/t`` of the target (``α`` free of the
roots, of known sign) is replaced by the bound that moves the slack down:

==========  =====================  ==========================  ============================
term        bound used             slack(G) − slack(G') per term   coefficient of ``F``
==========  =====================  ==========================  ============================
``α·t``     ``t ≥ 2kX/(X + k²)``   ``α·t·F/(X + k²)``          ``α·t/(X + k²)``  (``α > 0``)
``α/t``     ``1/t ≥ 2k/(X + k²)``  ``α·F/(t·(X + k²))``        ``α/(t·(X + k²))``  (``α > 0``)
``α·t``     ``t ≤ (X + k²)/(2k)``  ``−α·F/(2k)``               ``−α/(2k)``  (``α < 0``)
``α/t``     ``1/t ≤ (X + k²)/(2kX)``  ``−α·F/(2kX)``           ``−α/(2kX)``  (``α < 0``)
==========  =====================  ==========================  ============================

with ``F = X + k² − 2k·t ≥ 0``, a fact proved by ``(t − k)²`` and the root's equation, each
identity holding modulo ``t² = X`` (the ``eq_terms``, computed exactly here). ``k`` is
``√X(e)·(Σx/n)^d`` for ``X`` homogeneous of degree ``2d`` (``e`` the diagonal point, the
constraints' or ``(1, …, 1)``), or the constant ``√X(e)`` under a constraint; only when ``√X(e)``
is rational. The step is a ``scale`` (multiplier 1, one fact application per term); a bound that
is too weak gives a false subgoal, which the search's counterexample filter drops. Nothing here
is trusted: the kernel checks the step before it is proposed. When SOS closes the rational
subgoal within ``CLOSE_TIME`` the step comes as a complete tree.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str, relation_to_json
from prover.kernel.certificates import EqTerm, FactApplication, LinearCertificate, SosCertificate, SosTerm
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, symbols_of
from prover.rewrite.points import constraint_point
from prover.rewrite.root_powers import replace_root_powers, root_power_hypotheses
from prover.rewrite.square import close_quickly
from prover.verify import Kernel, KernelError

#: The subgoal has no root left (a rational goal for the closers), like the exact root-power
#: rewrite (6); a bound too weak for it is dropped by the counterexample filter when popped.
SCORE = 7.0
#: ``t ↦ (hypothesis index, 2, X, sign)`` as :func:`root_power_hypotheses` gives it
Roots = dict[sp.Symbol, tuple[int, int, sp.Expr, int]]
#: The rational subgoal is tried by SOS at once (seconds); closed, the step is proposed as a
#: complete tree: its subgoal is large and would be ranked after smaller, unpromising ones.
CLOSE_TIME = 3.0


def _homogeneous_degree(x: sp.Expr, syms: list[sp.Symbol]) -> int | None:
    lam = sp.Dummy("lam", positive=True)
    ratio = sp.cancel(sp.sympify(x).subs({s: lam * s for s in syms}, simultaneous=True) / x)
    if ratio.free_symbols - {lam}:
        return None
    d = sp.degree(ratio, lam) if ratio.is_polynomial(lam) else None
    return int(d) if d is not None and sp.expand(ratio - lam ** d) == 0 else None


def centre(goal: Goal, roots: set[sp.Symbol]) -> tuple[list[sp.Symbol], sp.Rational, bool] | None:
    """``(variables, c, constrained)``: the goal's variables other than the roots and the diagonal
    point ``(c, …, c)`` of its constraints (1 without)."""
    syms = [s for s in symbols_of(goal) if s not in roots]
    own = tuple(h for h in goal.hypotheses if not (sp.sympify(h.lhs - h.rhs).free_symbols & roots))
    c = constraint_point(Goal(goal.variables, own, goal.target), syms)
    if c is None or not syms:
        return None
    return syms, c, any(h.op == "=" for h in own)


def tangent_point(x: sp.Expr, syms: list[sp.Symbol], c: sp.Rational, constrained: bool) -> sp.Expr | None:
    """``k`` with ``k = √X`` at ``(c, …, c)``, homogeneous like ``√X`` where it can be; None when
    ``√X`` is irrational there."""
    value = sp.sympify(x).subs({s: c for s in syms})
    if not (value.is_Rational and value > 0):
        return None
    root = sp.sqrt(value)
    if not root.is_Rational:
        return None
    d = _homogeneous_degree(x, syms)
    if d is not None and d % 2 == 0:
        mean = sp.Add(*syms) / (len(syms) * c)          # 1 at the point
        return root * mean ** (d // 2)
    return root if constrained else None


def _bounded_term(term: sp.Expr, sign: int, t: sp.Symbol, x: sp.Expr, k: sp.Expr,
                  goal: Goal) -> tuple[sp.Expr, sp.Expr] | None:
    """``(term', c)`` for ``sign·term`` in the slack: ``sign·(term − term') = c·F`` modulo
    ``t² = X``, with ``c`` provably ``>= 0``; None for a term that is not ``α·t^±1``."""
    alpha, rest = term.as_independent(t, as_Add=False)
    if rest == t:
        e = 1
    elif rest == 1 / t:
        e = -1
    else:
        return None
    if is_positive(sign * alpha, goal, strict=False):
        if e == 1:
            return alpha * 2 * k * x / (x + k ** 2), sign * alpha * t / (x + k ** 2)
        return alpha * 2 * k / (x + k ** 2), sign * alpha / (t * (x + k ** 2))
    if is_positive(-sign * alpha, goal, strict=False):
        if e == 1:
            return alpha * (x + k ** 2) / (2 * k), -sign * alpha / (2 * k)
        return alpha * (x + k ** 2) / (2 * k * x), -sign * alpha / (2 * k * x)
    return None


class RootTangentBounds:
    """Every ``α·t`` / ``α/t`` term of a named square root ``t`` bounded by AM-GM at the
    equality point, in one ``scale`` step (see the module docstring)."""

    name = "root-tangent-bounds"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        tgt = goal.target
        if not tgt.is_inequality:
            return
        roots = {r: v for r, v in root_power_hypotheses(goal).items() if v[1] == 2}
        if not roots or not (sp.sympify(tgt.lhs - tgt.rhs).free_symbols & set(roots)):
            return
        point = centre(goal, set(roots))
        if point is None:
            return
        syms, c, constrained = point
        ks: dict[sp.Symbol, sp.Expr | None] = {}
        for r, (_, _, x, _) in roots.items():
            if x.free_symbols & set(roots):
                return
            ks[r] = tangent_point(x, syms, c, constrained)
        step = self._step(goal, roots, ks)
        if step is None:
            return
        closed = close_quickly(step.subgoals[0], time.monotonic() + CLOSE_TIME)
        if closed is not None:
            yield Candidate(Step(step.kind, goal, list(step.subgoals), step.certificate, [closed], note=step.note),
                            self.name, SCORE, prechecked=True, closes=True)
        else:
            yield Candidate(step, self.name, SCORE, prechecked=True)

    def _step(self, goal: Goal, roots: Roots, ks: dict[sp.Symbol, sp.Expr | None]) -> Step | None:
        tgt = goal.target
        big, small = (tgt.rhs, tgt.lhs) if tgt.op in ("<", "<=") else (tgt.lhs, tgt.rhs)
        used: dict[sp.Symbol, list[sp.Expr]] = {}
        sides = []
        for side, sign in ((big, 1), (small, -1)):
            parts = []
            for term in sp.Add.make_args(sp.sympify(side)):
                hit = [r for r in roots if r in term.free_symbols]
                if len(hit) == 1 and ks[hit[0]] is not None:
                    r = hit[0]
                    done = _bounded_term(term, sign, r, roots[r][2], ks[r], goal)
                    if done is None:
                        return None
                    parts.append(done[0])
                    used.setdefault(r, []).append(done[1])
                elif hit:
                    return None
                else:
                    parts.append(term)
            sides.append(sp.Add(*parts))
        if not used:
            return None
        new_big, new_small = sides
        new = Relation(new_small, tgt.op, new_big) if tgt.op in ("<", "<=") else Relation(new_big, tgt.op, new_small)
        apps, rest = [], tgt.slack() - new.slack()
        for r, coeffs in used.items():
            i, _, x, sgn = roots[r]
            k = ks[r]
            fact = Relation(2 * k * r, "<=", x + k ** 2)
            proof = SosCertificate((SosTerm("1", expr_to_str(r - k)),), (EqTerm(i, expr_to_str(-sgn)),))
            coeff = sp.Add(*coeffs)
            apps.append(FactApplication(relation_to_json(fact), proof, expr_to_str(coeff)))
            rest -= coeff * (x + k ** 2 - 2 * k * r)
        eq_terms = _eq_terms(rest, roots, used)
        if eq_terms is None:
            return None
        cert = LinearCertificate("1", tuple(eq_terms), tuple(apps))
        step = Step("scale", goal, [goal.with_target(new)], cert.to_json(),
                    note="square roots bounded by AM-GM at the equality point")
        try:
            Kernel().check_one(step)
        except KernelError:
            return None
        return step


def _eq_terms(rest: sp.Expr, roots: Roots, used: dict[sp.Symbol, list[sp.Expr]]) -> list[EqTerm] | None:
    """``rest = Σ pᵢ·eq(Hᵢ)`` over the roots' equations (``eq(H) = sign·(t² − X)``), or None:
    with ``rest = N/D``, ``N'`` is ``N`` with ``t^e`` written ``X^(e//2)·t^(e%2)`` and
    ``p = sign·(N − N')/((t² − X)·D)``; one root after the other, the last remainder must be 0."""
    out = []
    for r in used:
        i, _, x, sgn = roots[r]
        num, den = sp.fraction(sp.cancel(sp.together(rest)))
        num = sp.expand(num)
        reduced = replace_root_powers(num, r, 2, x)
        q = sp.cancel((num - reduced) / (r ** 2 - x))
        if q != 0:
            out.append(EqTerm(i, expr_to_str(sgn * q / den)))
        rest = reduced / den
    return out if sp.cancel(sp.together(rest)) == 0 else None
