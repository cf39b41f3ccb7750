"""The goal's slack as a nonnegative combination of the hypotheses' slacks (``linarith``'s job).

``slack(target) = Σ λᵢ·slack(Hᵢ) + Σ μⱼ·(lhs − rhs)(Eⱼ) + c`` with ``λᵢ ≥ 0`` over inequality
hypotheses, ``μⱼ`` free over equalities and a constant ``c ≥ 0``, as polynomials (coefficients
matched): a linear program (HiGHS through scipy, floats, untrusted), whose support is then solved
exactly over ℚ and the certificate checked by the kernel. A strict target needs a strict part:
``c > 0`` or some ``λᵢ > 0`` on a strict hypothesis. Why: the SOS closer solves the same
degree-0 problem through an SDP with rounding, and fails on some plain linear consequences (a
summed fact ``0 < S₂ − S₁`` giving ``S₁ < S₂`` among seven hypotheses).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from prover.ir import Goal, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate, SosTerm

MAX_HYPOTHESES = 60
MAX_MONOMIALS = 400


def linear_certificate(goal: Goal) -> dict | None:
    """An ``sos`` certificate (JSON) of degree 0 in the multipliers, or None."""
    target = goal.target
    if target.op not in (">=", ">", "<=", "<") or len(goal.hypotheses) > MAX_HYPOTHESES:
        return None
    syms = sorted({s for h in (*goal.hypotheses, target) for s in (h.lhs - h.rhs).free_symbols}, key=str)
    try:
        rows = [(i, h.op, sp.Poly(sp.expand(h.slack() if h.op != "=" else h.lhs - h.rhs), *syms).as_dict())
                for i, h in enumerate(goal.hypotheses) if h.op in (">=", ">", "<=", "<", "=")]
        t = sp.Poly(sp.expand(target.slack()), *syms).as_dict() if syms else {(): sp.expand(target.slack())}
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return None
    monomials = sorted({m for _, _, d in rows for m in d} | set(t), key=str)
    if len(monomials) > MAX_MONOMIALS:
        return None
    return _solve(goal, rows, t, monomials)


def _solve(goal: Goal, rows: list, t: dict, monomials: list) -> dict | None:
    import numpy as np
    from scipy.optimize import linprog

    zero = tuple(0 for _ in next(iter(t))) if t and next(iter(t)) != () else ()
    cols = rows + [(-1, ">=", {zero: sp.Integer(1)})]           # the constant c ≥ 0
    a = np.array([[float(d.get(m, 0)) for _, _, d in cols] for m in monomials])
    b = np.array([float(t.get(m, 0)) for m in monomials])
    bounds = [(None, None) if op == "=" else (0, None) for _, op, _ in cols]
    strict = [j for j, (_, op, _) in enumerate(cols) if op in (">", "<") or j == len(cols) - 1]
    objective = np.zeros(len(cols))
    if goal.target.strict:
        objective[strict] = -1.0
        bounds = [(lo, 1e6 if hi is None else hi) for lo, hi in bounds]
    try:
        res = linprog(objective, A_eq=a, b_eq=b, bounds=bounds, method="highs")
    except ValueError:
        return None
    if res.status != 0:
        return None
    support = [j for j, x in enumerate(res.x) if abs(x) > 1e-9]
    exact = _exact(cols, support, t, monomials)
    if exact is None or (goal.target.strict and not any(exact.get(j, 0) > 0 for j in strict)):
        return None
    return _certificate(cols, exact)


def _exact(cols: list, support: list[int], t: dict, monomials: list) -> dict[int, Fraction] | None:
    """The support's coefficients solved exactly over ℚ (one solution, nonnegative where needed)."""
    unknowns = sp.symbols(f"x0:{len(support)}")
    eqs = [sp.Add(*(sp.Rational(cols[j][2].get(m, 0)) * u for j, u in zip(support, unknowns)))
           - sp.Rational(t.get(m, 0)) for m in monomials]
    sol = sp.linsolve(eqs, unknowns)
    if not sol:
        return None
    values = next(iter(sol))
    free = {s for v in values for s in sp.sympify(v).free_symbols}
    values = [sp.sympify(v).subs({s: 0 for s in free}) for v in values]
    out = {}
    for j, v in zip(support, values):
        if not v.is_Rational or (cols[j][1] != "=" and v < 0):
            return None
        out[j] = Fraction(int(v.p), int(v.q))
    return out


def _certificate(cols: list, coeffs: dict[int, Fraction]) -> dict:
    terms, eq_terms = [], []
    for j, c in coeffs.items():
        if c == 0:
            continue
        index, op, _ = cols[j]
        text = expr_to_str(sp.Rational(c.numerator, c.denominator))
        if op == "=":
            eq_terms.append(EqTerm(index, text))
        else:
            terms.append(SosTerm(text, "1", () if index < 0 else (index,)))
    return SosCertificate(tuple(terms), tuple(eq_terms)).to_json()
