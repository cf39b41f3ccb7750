"""Homogenize a goal with an *inequality* constraint ``A <= B`` (or ``A >= B``), ``A``, ``B``
homogeneous of different degrees and positive (``a² + b² + c² + ab + bc + ca <= 2``).

With ``u = A/B`` (homogeneous of degree ``d > 0``, after swapping ``A`` and ``B`` if needed) the
hypothesis says ``u <= 1`` (or ``u >= 1``). Write the target slack as ``N/D`` (``D > 0``) and ``N``
as its homogeneous components ``N_e``. Choosing a degree ``T`` (the top or the bottom one) with
``(T − e)/d = j_e`` integral, ``N' = Σ N_e·u^(j_e)`` is homogeneous and
``N − N' = Σ N_e·(1 − u^(j_e))``; every summand is ``>= 0`` when ``N_e`` has the sign that the
constraint asks for (``N_e >= 0`` and ``j_e > 0`` under ``u <= 1``, …). That difference is
``c · slack(H)`` with ``c >= 0``, so the step is a ``scale`` with the hypothesis as its
application: ``slack(G) = (1/(D·B^J)) · slack(G') + c · slack(H)``, ``G'`` the polynomial
``B^J·N' >= 0`` (``J`` clears the powers of ``B``). The homogeneous subgoal is equivalent on the
constraint's boundary and often falls to SOS where the mixed-degree goal does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import sympy as sp

from prover.frontend.printer import show_relation
from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, HypothesisApplication, LinearCertificate
from prover.rewrite.base import (
    Candidate,
    is_polynomial,
    is_positive,
    is_rational_function,
    primitive_relation,
    target_fraction,
)

#: Above this many terms in the numerator the rewrite is not attempted.
MAX_TERMS = 600


@dataclass
class Bound:
    """Hypothesis ``hyp`` read as ``u = A/B`` with ``u <= 1`` (``upper``) or ``u >= 1``."""

    hyp: int
    A: sp.Expr
    B: sp.Expr
    d: int
    upper: bool


def bounds(goal: Goal, syms: list[sp.Symbol]) -> Iterator[Bound]:
    """Inequality hypotheses whose slack splits into two positive homogeneous parts."""
    for i, h in enumerate(goal.hypotheses):
        if not h.is_inequality:
            continue
        slack = sp.expand(h.slack())
        if not is_polynomial(slack, syms):
            continue
        comps = _components(slack, syms)
        if len(comps) != 2:
            continue
        (e1, low_part), (e2, high_part) = sorted(comps.items())
        # slack = high_part + low_part >= 0, u = A/B of degree e2 − e1
        if is_positive(high_part, goal) and is_positive(-low_part, goal):
            yield Bound(i, high_part, sp.expand(-low_part), e2 - e1, upper=False)     # A >= B: u >= 1
        elif is_positive(-high_part, goal) and is_positive(low_part, goal):
            yield Bound(i, sp.expand(-high_part), low_part, e2 - e1, upper=True)      # A <= B: u <= 1


def _components(n: sp.Expr, syms: list[sp.Symbol]) -> dict[int, sp.Expr]:
    out: dict[int, sp.Expr] = {}
    for monom, coeff in sp.Poly(n, *syms).terms():
        e = sum(monom)
        out[e] = out.get(e, sp.Integer(0)) + coeff * sp.Mul(*[s ** k for s, k in zip(syms, monom)])
    return out


def _target_components(goal: Goal) -> tuple[list[sp.Symbol], dict[int, sp.Expr], sp.Expr] | None:
    """The target slack ``N/D`` (``D > 0``) with ``N`` split into homogeneous components (at least two)."""
    frac = target_fraction(goal)
    if frac is None:
        return None
    syms, num, den = frac
    if num == 0 or len(sp.Add.make_args(num)) > MAX_TERMS:
        return None
    comps = _components(num, syms)
    return (syms, comps, den) if len(comps) >= 2 else None


def _geometric(u: sp.Expr, n: int) -> sp.Expr:
    return sp.Add(*[u ** k for k in range(n)])


class _ByComponents:
    """A generator that works on the target's homogeneous components (``N/D``, ``D > 0``)."""

    name = ""

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        comps_den = _target_components(goal)
        if comps_den is None:
            return
        syms, comps, den = comps_den
        yield from self._candidates(goal, syms, comps, den)

    def _candidates(self, goal: Goal, syms: list[sp.Symbol], comps: dict[int, sp.Expr],
                    den: sp.Expr) -> Iterator[Candidate]:
        raise NotImplementedError


class HomogenizeByBound(_ByComponents):
    name = "homogenize-by-bound"

    def _candidates(self, goal: Goal, syms: list[sp.Symbol], comps: dict[int, sp.Expr],
                    den: sp.Expr) -> Iterator[Candidate]:
        for bd in bounds(goal, syms):
            for top in (max(comps), min(comps)):
                step = self._step(goal, bd, comps, top, den, syms)
                if step is not None:
                    yield Candidate(step, self.name, 1.5)
                    return

    def _step(self, goal: Goal, bd: Bound, comps: dict[int, sp.Expr], top: int, den: sp.Expr,
              syms: list[sp.Symbol]) -> Step | None:
        if any((top - e) % bd.d for e in comps):
            return None
        u = bd.A / bd.B
        js = {e: (top - e) // bd.d for e in comps}
        J = max(max(js.values()), 0)
        low = min(min(js.values()), 0)
        # N' = Σ N_e·u^(j_e); A^(−low)·B^J·N' is a polynomial
        new_num = sp.expand(sp.Add(*[comps[e] * bd.A ** (js[e] - low) * bd.B ** (J - js[e]) for e in comps]))
        # c·slack(H) = Σ N_e (1 − u^j) / D ; slack(H) = (B − A) if upper else (A − B)
        terms = []
        for e, j in js.items():
            if j == 0:
                continue
            ne = comps[e]
            if j > 0:      # 1 − u^j = (1 − u)·Σ_{k<j} u^k
                factor, sign_needed = _geometric(u, j), 1 if bd.upper else -1
            else:          # 1 − u^j = (u^|j| − 1)/u^|j| = (u − 1)·Σ u^k / u^|j|
                factor, sign_needed = _geometric(u, -j) / u ** (-j), -1 if bd.upper else 1
            signed = ne if sign_needed > 0 else -ne
            if not is_positive(signed, goal, strict=False):
                return None
            # N_e(1 − u^j) = signed · factor · (|1 − u|) ; slack(H) = B·|1 − u| … divided by B
            terms.append(signed * factor / bd.B)
        if not terms:
            return None
        coeff = sp.Add(*terms) / den
        content, new = primitive_relation(new_num, syms, goal.target.strict)
        multiplier = content / (den * bd.A ** (-low) * bd.B ** J)
        sub = goal.with_target(new)
        cert = LinearCertificate(expr_to_str(multiplier),
                                 applications=(HypothesisApplication(bd.hyp, expr_to_str(coeff)),))
        h = goal.hypotheses[bd.hyp]
        return Step("scale", goal, [sub], cert.to_json(), note=f"homogenize with {show_relation(h)}")


def equality_scales(goal: Goal, syms: list[sp.Symbol]) -> Iterator[tuple[int, sp.Expr, sp.Expr, int]]:
    """``(hyp, A, B, d)`` for equality hypotheses equivalent to ``A = B`` with ``A``, ``B`` positive
    homogeneous of degrees ``deg B + d`` and ``deg B`` (``d > 0``); rational sides are cleared over
    a positive denominator (``a + b + c = 1/a + 1/b + 1/c`` → ``abc(a + b + c) = ab + bc + ca``)."""
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        eq = h.lhs - h.rhs
        if not is_rational_function(eq, syms):
            continue
        num, den = sp.fraction(sp.together(eq))
        if den != 1 and not (is_positive(den, goal) or is_positive(-den, goal)):
            continue
        comps = _components(sp.expand(num), syms) if sp.expand(num) != 0 else {}
        if len(comps) != 2:
            continue
        (e1, p1), (e2, p2) = sorted(comps.items())
        hi, lo = p2, -p1
        if not is_positive(hi, goal):
            hi, lo = -hi, -lo
        if is_positive(hi, goal) and is_positive(lo, goal):
            yield i, sp.expand(hi), sp.expand(lo), e2 - e1


class HomogenizeByEquality(_ByComponents):
    """The equality version of :class:`HomogenizeByBound`: ``N' = Σ N_e·u^(j_e)`` with ``u = A/B = 1``
    on the constraint, so ``N − N'`` is a multiple of the constraint (an ``eq_terms`` entry) and no
    sign conditions are needed. Rational targets are handled (``N/D`` with ``D > 0``)."""

    name = "homogenize-by-equality"

    def _candidates(self, goal: Goal, syms: list[sp.Symbol], comps: dict[int, sp.Expr],
                    den: sp.Expr) -> Iterator[Candidate]:
        for hyp, A, B, d in equality_scales(goal, syms):
            top = max(comps)
            if any((top - e) % d for e in comps):
                continue
            js = {e: (top - e) // d for e in comps}
            J = max(js.values())
            new_num = sp.expand(sp.Add(*[comps[e] * A ** js[e] * B ** (J - js[e]) for e in comps]))
            content, new = primitive_relation(new_num, syms, goal.target.strict)
            multiplier = content / (den * B ** J)
            h = goal.hypotheses[hyp]
            lam = sp.factor(sp.cancel(sp.together((goal.target.slack() - multiplier * new.slack())
                                                  / (h.lhs - h.rhs))))
            if lam.has(sp.zoo, sp.nan):
                continue
            lam_den = sp.fraction(lam)[1]
            if lam_den != 1 and not is_positive(lam_den, goal) and not is_positive(-lam_den, goal):
                continue
            cert = LinearCertificate(expr_to_str(multiplier), (EqTerm(hyp, expr_to_str(lam)),))
            yield Candidate(Step("rewrite", goal, [goal.with_target(new)], cert.to_json(),
                                 note=f"homogenize with {show_relation(h)}"), self.name, 1.5)
            return
