"""Tangent line trick: ``Σ_i g(x_i) + K >= 0`` under ``Σ x_i = S`` closes term by term.

With ``x0 = S/n`` and ``β = g'(x0)``, each ``G(x) = g(x) + K/n - β(x - x0)`` has a double root
at ``x0``: ``G = (x - x0)² R / D``. When ``R·D`` has nonnegative coefficients and ``x >= 0`` is
a hypothesis, ``G = Σ_k p_k · x^k · ((x - x0)/D)²`` is a sum of squares times hypothesis
products, and ``slack = Σ_i G(x_i) + β·(Σx - S)`` is an exact ``sos`` close certificate.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate, SosTerm
from prover.rewrite.base import Candidate, is_positive, is_rational_function, symbols_of
from prover.rewrite.facts import nonneg_hyp_of


def _separate(s: sp.Expr, syms: list[sp.Symbol]) -> tuple[dict[sp.Symbol, sp.Expr], sp.Expr] | None:
    """``s = Σ_x parts[x] + const`` with each part in one variable only."""
    parts: dict[sp.Symbol, sp.Expr] = {x: sp.Integer(0) for x in syms}
    const = sp.Integer(0)
    for t in sp.Add.make_args(s):
        fs = t.free_symbols & set(syms)
        if not fs:
            const += t
        elif len(fs) == 1:
            x = next(iter(fs))
            parts[x] += t
        else:
            return None
    return parts, const


def _linear_sum_constraint(goal: Goal, syms: list[sp.Symbol]) -> tuple[int, sp.Expr, sp.Expr] | None:
    """``(hyp index, S, λ0)`` for a hypothesis with ``Σx - S = λ0 · eq(H)``."""
    total = sp.Add(*syms)
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        eq = sp.expand(h.lhs - h.rhs)
        if not eq.is_polynomial(*syms) or sp.Poly(eq, *syms).total_degree() != 1:
            continue
        const = eq.subs({x: 0 for x in syms})
        lin = sp.expand(eq - const)
        ratio = sp.cancel(total / lin)
        if ratio.is_Rational and ratio != 0:
            return i, sp.expand(-const * ratio), ratio
    return None


def _quadratic_square(p: sp.Poly, x: sp.Symbol) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """``a x² + b x + c`` with ``a > 0`` and ``b² < 4ac`` as ``a (x + b/2a)² + (c - b²/4a)``."""
    if p.degree() != 2:
        return None
    a, b, c = p.all_coeffs()
    if a <= 0 or b * b - 4 * a * c >= 0:
        return None
    return [(a, 0, x + b / (2 * a)), (c - b * b / (4 * a), 0, sp.Integer(1))]


def square_decomposition(e: sp.Expr, x: sp.Symbol) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """``e = Σ c · x^k · q²`` with rationals ``c > 0`` (valid for ``x >= 0``), or None.

    Factors with nonnegative coefficients give monomials, positive definite quadratics complete
    the square, and the product of the factors' decompositions is expanded."""
    coeff, factors = sp.factor_list(sp.expand(e), x)
    if coeff <= 0:
        return None
    out: list[tuple[sp.Expr, int, sp.Expr]] = [(coeff, 0, sp.Integer(1))]
    for f, m in factors:
        p = sp.Poly(f, x)
        if m % 2 == 0:
            pieces = [(sp.Integer(1), 0, f ** (m // 2))]
        else:
            base = [(c, k, sp.Integer(1)) for (k,), c in p.terms()] if all(c >= 0 for c in p.coeffs()) \
                else _quadratic_square(p, x)
            if base is None:
                return None
            pieces = [(sp.Integer(1), 0, f ** (m // 2))]
            pieces = [(c1 * c2, k1 + k2, q1 * q2) for c1, k1, q1 in pieces for c2, k2, q2 in base]
        out = [(c1 * c2, k1 + k2, q1 * q2) for c1, k1, q1 in out for c2, k2, q2 in pieces]
    return [(c, k, q) for c, k, q in out if c != 0]


def positive_form(d: sp.Expr, x: sp.Symbol, goal: Goal) -> sp.Expr | None:
    """``d`` written so that positivity rules see it is positive (factored, squares completed)."""
    if is_positive(d, goal, strict=True):
        return d
    pieces = square_decomposition(d, x)
    if pieces is None:
        return None
    form = sp.Add(*[c * x ** k * q ** 2 for c, k, q in pieces], evaluate=False)
    return form if is_positive(form, goal, strict=True) else None


class TangentLine:
    name = "tangent-line"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality or t.strict:
            return
        syms = [x for x in symbols_of(goal) if x in t.free_symbols()]
        s = t.slack()
        if len(syms) < 2 or not is_rational_function(s, syms):
            return
        sep = _separate(s, syms)
        con = _linear_sum_constraint(goal, syms)
        if sep is None or con is None:
            return
        parts, const = sep
        hyp, total, lam0 = con
        n = len(syms)
        u = sp.Dummy("u")
        g = parts[syms[0]].subs(syms[0], u)
        if any(sp.cancel(parts[x].subs(x, u) - g) != 0 for x in syms[1:]):
            return
        x0 = total / n
        beta = sp.diff(g, u).subs(u, x0)
        if not beta.is_Rational:
            return
        terms: list[SosTerm] = []
        for x in syms:
            G = sp.cancel(parts[x] + const / n - beta * (x - x0))
            num, den = sp.fraction(G)
            if sp.Poly(den, x).LC() < 0:
                num, den = -num, -den
            den_form = positive_form(den, x, goal)
            if den_form is None:
                return
            q, r = sp.div(sp.Poly(num, x), sp.Poly((x - x0) ** 2, x))
            if not r.is_zero:
                return
            # G = (x-x0)² R / D = R·D · ((x-x0)/D)²
            pieces = square_decomposition(sp.expand(q.as_expr() * den), x)
            if pieces is None:
                return
            idx = nonneg_hyp_of(goal, x)
            for c, k, sq in pieces:
                if k and idx is None:
                    return
                terms.append(SosTerm(expr_to_str(c), expr_to_str(sq * (x - x0) / den_form), (idx,) * k))
        cert = SosCertificate(tuple(terms), (EqTerm(hyp, expr_to_str(beta * lam0)),))
        step = Step("close", goal, [], cert.to_json(), note=f"tangent line trick at {x0}")
        yield Candidate(step, self.name, 2.0)
