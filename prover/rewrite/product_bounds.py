"""Product bounds: replace the univariate factors of a product by simpler bounds (``scale``).

Why: a target such as ``(a⁵−a²+3)(b⁵−b²+3)(c⁵−c²+3) ≥ (a+b+c)³`` (USAMO 2004) is a degree-15
polynomial goal out of the closers' reach, while the human proof first bounds each factor on
its own, ``a⁵−a²+3 ≥ a³+2`` (``(a³−1)(a²−1) ≥ 0``), and then proves the lower-degree
``(a³+2)(b³+2)(c³+2) ≥ (a+b+c)³``. This generator does the first half generally: every factor
``f(x)`` of the product that is a univariate polynomial of degree ≥ 2 is replaced by
``g(x) = α·x^m + β`` (``m`` below ``deg f``; ``α, β ≥ 0``) with the same value and derivative at
the equality point ``x = t`` (so nothing is lost there), provided ``f ≥ g`` holds (an exact SOS
fact over the hypotheses on ``x``). For a product on the smaller side the bound goes the other
way (``f ≤ g``). The step is a ``scale`` with one ``fact`` application per factor, telescoped:

    f₁f₂f₃ − g₁g₂g₃ = (f₁−g₁)·f₂f₃ + g₁·(f₂−g₂)·f₃ + g₁g₂·(f₃−g₃),

whose coefficients are products of the ``g``'s and the ``f``'s, each written in a form the
kernel's positivity rules accept (``f = g + (f−g)`` with ``f−g`` factored or as its SOS).
Several exponents ``m`` are proposed (the degree of the other side first); a false subgoal is
dropped by the search's counterexample filter. Nothing here is trusted: the kernel checks the
step and every fact certificate.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import sympy as sp

from prover.frontend.printer import show_expr
from prover.ir import Goal, Step, expr_to_str, relation_to_json
from prover.kernel.certificates import FactApplication, LinearCertificate, SosCertificate, SosTerm
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, symbols_of
from prover.rewrite.points import equality_points
from prover.solvers.sos import sos_close_certificate

#: Seconds of SOS search per univariate fact.
SOS_TIME = 3.0
#: Seconds for one goal, all candidates together.
TIME_BUDGET = 12.0
#: Exponents ``m`` proposed per goal.
MAX_CANDIDATES = 3


@dataclass
class Factor:
    """One factor of the product; ``x`` is set when it is a univariate polynomial of degree ≥ 2."""

    expr: sp.Expr
    x: sp.Symbol | None = None


@dataclass
class Bound:
    """``g`` with ``f >= g`` (lower) or ``f <= g`` (upper); ``proof`` certifies the fact."""

    g: sp.Expr
    fact: Relation
    proof: SosCertificate
    f_form: sp.Expr           # f written so that positivity proves it >= 0


def product_factors(side: sp.Expr, syms: list[sp.Symbol]) -> list[Factor] | None:
    """The factors of ``side`` (integer powers repeated), or None when no factor is replaceable."""
    out: list[Factor] = []
    for f in sp.Mul.make_args(side):
        reps = 1
        if f.is_Pow and f.exp.is_Integer and int(f.exp) > 1:
            f, reps = f.base, int(f.exp)
        free = f.free_symbols & set(syms)
        x = None
        if len(free) == 1 and f.free_symbols == free:
            (v,) = free
            if f.is_polynomial(v) and sp.degree(f, v) >= 2:
                x = v
        out.extend(Factor(f, x) for _ in range(reps))
    if not any(fc.x is not None for fc in out) or sum(1 for fc in out if fc.expr.free_symbols) < 2:
        return None
    return out


def simple_bound(f: sp.Expr, x: sp.Symbol, t: sp.Rational, m: int) -> sp.Expr | None:
    """``α x^m + β`` touching ``f`` at ``x = t`` to first order, with ``α, β >= 0`` (not both 0)."""
    if t == 0:
        return None
    ft = f.subs(x, t)
    dft = sp.diff(f, x).subs(x, t)
    alpha = sp.Rational(dft) / (m * sp.Rational(t) ** (m - 1))
    beta = sp.Rational(ft) - alpha * sp.Rational(t) ** m
    if alpha < 0 or beta < 0 or (alpha == 0 and beta == 0):
        return None
    return alpha * x ** m + beta


def _fact_certificate(goal: Goal, fact: Relation, x: sp.Symbol, sos_time: float) -> SosCertificate | None:
    """A close certificate of ``fact`` (in ``x`` only) over ``goal``'s context: SOS over the
    hypotheses that mention only ``x``, with the hypothesis indices mapped back."""
    idx = [i for i, h in enumerate(goal.hypotheses)
           if h.is_inequality and h.lhs.free_symbols | h.rhs.free_symbols <= {x}]
    small = Goal((str(x),), tuple(goal.hypotheses[i] for i in idx), fact)
    cert = sos_close_certificate(small, sos_time)
    if cert is None or cert.eq_terms:
        return None
    return SosCertificate(tuple(SosTerm(t.coeff, t.poly, tuple(idx[k] for k in t.mult)) for t in cert.terms))


def _sos_form(goal: Goal, cert: SosCertificate) -> sp.Expr:
    """``Σ c·Π slack(H_k)·q²`` of a certificate, unexpanded (positivity reads it term by term)."""
    parts = []
    for term in cert.terms:
        q = sp.sympify(term.poly, locals={str(s): s for s in symbols_of(goal)})
        mult = sp.Mul(*[goal.hypotheses[k].slack() for k in term.mult])
        parts.append(sp.Mul(sp.Rational(term.coeff), mult, sp.Pow(q, 2, evaluate=False), evaluate=False))
    return sp.Add(*parts, evaluate=False)


def nonneg_form(goal: Goal, f: sp.Expr, g: sp.Expr, lower: bool, cert: SosCertificate) -> sp.Expr | None:
    """``f`` written so that the positivity rules prove it ``>= 0``: as given, or ``g ± (f−g)``
    with the difference factored or as its SOS certificate (for a lower bound ``f = g + (f−g)``)."""
    if is_positive(f, goal, strict=False):
        return f
    if not lower:
        return None
    diff = sp.factor(f - g)
    for form in (sp.Add(g, diff, evaluate=False), sp.Add(g, _sos_form(goal, cert), evaluate=False)):
        if is_positive(form, goal, strict=False):
            return form
    return None


class ProductBounds:
    """Bound each univariate factor of a product by ``α x^m + β`` tangent at the equality point."""

    name = "product-bounds"

    def __init__(self, sos_time: float = SOS_TIME, time_budget: float = TIME_BUDGET,
                 max_candidates: int = MAX_CANDIDATES) -> None:
        self.sos_time = sos_time
        self.time_budget = time_budget
        self.max_candidates = max_candidates

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality:
            return
        syms = symbols_of(goal)
        big, small = (t.rhs, t.lhs) if t.op in ("<", "<=") else (t.lhs, t.rhs)
        deadline = time.monotonic() + self.time_budget
        centres: list[sp.Rational] | None = None
        for side, other, lower in ((big, small, True), (small, big, False)):
            factors = product_factors(side, syms)
            if factors is None:
                continue
            if centres is None:
                centres = equality_points(goal, syms, t.slack())[:2]
            for centre in centres:
                n = 0
                for m in self._exponents(factors, other, syms):
                    if time.monotonic() > deadline or n >= self.max_candidates:
                        return
                    step = self._step(goal, factors, other, lower, centre, m, deadline)
                    if step is not None:
                        n += 1
                        yield Candidate(step, self.name, 1.2 - 0.1 * n)

    @staticmethod
    def _exponents(factors: list[Factor], other: sp.Expr, syms: list[sp.Symbol]) -> list[int]:
        """Exponents below the smallest replaced degree, the other side's degree first."""
        top = min(sp.degree(fc.expr, fc.x) for fc in factors if fc.x is not None)
        try:
            d_other = sp.Poly(other, *syms).total_degree() if other.free_symbols else 0
        except sp.PolynomialError:
            d_other = 1
        return sorted(range(1, top), key=lambda m: (abs(m - d_other), m))

    def _step(self, goal: Goal, factors: list[Factor], other: sp.Expr, lower: bool,
              centre: sp.Rational, m: int, deadline: float) -> Step | None:
        memo: dict[tuple[sp.Expr, sp.Symbol], Bound | None] = {}
        bounds: list[Bound | None] = []
        for fc in factors:
            if fc.x is None:
                bounds.append(None)
                continue
            key = (fc.expr, fc.x)
            if key not in memo:
                left = deadline - time.monotonic()
                memo[key] = self._bound(goal, fc, lower, centre, m, min(self.sos_time, left)) if left > 0.2 else None
                if memo[key] is None:
                    return None
            bounds.append(memo[key])
        # unchanged factors and every f / g must be provably nonnegative for the coefficients
        forms_f: list[sp.Expr] = []
        for fc, bd in zip(factors, bounds):
            if bd is None:
                if not is_positive(fc.expr, goal, strict=False):
                    return None
                forms_f.append(fc.expr)
            else:
                forms_f.append(bd.f_form)
        apps: list[FactApplication] = []
        for k, bd in enumerate(bounds):
            if bd is None:
                continue
            before = [b.g if b is not None else forms_f[j] for j, b in enumerate(bounds[:k])]
            after = forms_f[k + 1:]
            # lower: Πf − Πg telescoped with g's before k and f's after; upper: the same with roles swapped
            coeff = sp.Mul(*before, *after, evaluate=False) if lower else \
                sp.Mul(*[forms_f[j] for j in range(k)], *[b.g if b is not None else forms_f[j]
                                                           for j, b in enumerate(bounds) if j > k], evaluate=False)
            apps.append(FactApplication(relation_to_json(bd.fact), bd.proof, expr_to_str(coeff)))
        new_side = sp.Mul(*[bd.g if bd is not None else fc.expr for fc, bd in zip(factors, bounds)])
        t = goal.target
        big_on_right = t.op in ("<", "<=")
        replaced_right = big_on_right if lower else not big_on_right
        new = Relation(other, t.op, new_side) if replaced_right else Relation(new_side, t.op, other)
        cert = LinearCertificate("1", applications=tuple(apps))
        shown = ", ".join(sorted({f"{show_expr(fc.expr)} {'≥' if lower else '≤'} {show_expr(bd.g)}"
                                  for fc, bd in zip(factors, bounds)
                                  if bd is not None}))
        return Step("scale", goal, [goal.with_target(new)], cert.to_json(), note=f"product bounds: {shown}")

    def _bound(self, goal: Goal, fc: Factor, lower: bool, centre: sp.Rational, m: int,
               sos_time: float) -> Bound | None:
        assert fc.x is not None
        g = simple_bound(fc.expr, fc.x, centre, m)
        if g is None:
            return None
        fact = Relation(g, "<=", fc.expr) if lower else Relation(fc.expr, "<=", g)
        cert = _fact_certificate(goal, fact, fc.x, sos_time)
        if cert is None:
            return None
        form = nonneg_form(goal, fc.expr, g, lower, cert)
        if form is None:
            return None
        return Bound(g, fact, cert, form)
