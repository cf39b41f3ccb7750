"""Points of a goal: where it is tight, and sampled points of its domain.

Shared by the rewrites (tangent planes, radical groups, product bounds, denominator signs) and by
the catalogue matcher. None of this is trusted: an equality point only chooses where to expand,
and sampled points only filter candidates (floats), which the kernel then checks exactly.

Three equality points, for three uses (they differ on purpose):

* :func:`equality_points` — common values ``t`` with ``(t, …, t)`` a root of the target's slack
  and on every equality constraint (tangent planes, product bounds);
* :func:`constraint_point` — the least ``c`` with ``(c, …, c)`` on every equality constraint,
  whatever the target (radical groups);
* :func:`equal_variables_point` — a point with all variables equal where every hypothesis holds
  and the target is tight, solved exactly (may be irrational), else None (catalogue matching and
  the proof page).
"""

from __future__ import annotations

import math
import random

import sympy as sp

from prover.ir import Goal
from prover.problem import var
from prover.rewrite.base import equality_hyps, is_polynomial, positive_vars

# ---------------------------------------------------------------- equality points on the diagonal


def positive_rational_roots(e: sp.Expr, t: sp.Symbol) -> list[sp.Rational] | None:
    """Positive rational roots of the numerator of ``e(t)``, ascending; None when ``e`` vanishes
    identically, ``[]`` when the numerator is not a polynomial in ``t``."""
    num = sp.expand(sp.numer(sp.together(e)))
    if num == 0:
        return None
    try:
        roots = sp.Poly(num, t).ground_roots()
    except (sp.PolynomialError, ValueError):
        return []
    return sorted(r for r in roots if r.is_Rational and r > 0)


def diagonal_constraint_values(goal: Goal, syms: list[sp.Symbol]) -> list[sp.Rational] | None:
    """The positive rationals ``t`` with ``(t, …, t)`` on every equality hypothesis, ascending;
    None when no equality hypothesis restricts the diagonal (none, or all vanish on it)."""
    t = sp.Dummy("t", positive=True)
    diag = {x: t for x in syms}
    roots: list[set[sp.Rational]] = []
    for _, e in equality_hyps(goal):
        r = positive_rational_roots(e.subs(diag), t)
        if r is not None:
            roots.append(set(r))
    return sorted(set.intersection(*roots)) if roots else None


def equality_points(goal: Goal, syms: list[sp.Symbol], slack: sp.Expr) -> list[sp.Rational]:
    """Common values ``t`` with ``(t, …, t)`` an equality case of the goal within its constraints
    (``slack`` vanishing identically on the diagonal: the constraints fix the scale, 1 without)."""
    t = sp.Dummy("t", positive=True)
    cands = positive_rational_roots(slack.subs({x: t for x in syms}), t)
    on_constraints = diagonal_constraint_values(goal, syms)
    if cands is None:
        return [sp.Integer(1)] if on_constraints is None else on_constraints
    return cands if on_constraints is None else [c for c in cands if c in on_constraints]


def constraint_point(goal: Goal, syms: list[sp.Symbol]) -> sp.Rational | None:
    """The least ``c`` with ``(c, …, c)`` on every equality constraint (1 without constraints;
    None when the constraints have no common positive rational point on the diagonal)."""
    values = diagonal_constraint_values(goal, syms)
    if values is None:
        return sp.Integer(1)
    return values[0] if values else None


def equal_variables_point(goal: Goal) -> dict[sp.Symbol, sp.Expr] | None:
    """A point where every variable is equal, the hypotheses hold and the target is tight; None
    when there is no such point (then candidates are not filtered by their equality case)."""
    syms = [var(v) for v in goal.variables]
    if not syms:
        return None
    t = sp.Symbol("t_eq", positive=True)
    values: set = set()
    for h in goal.hypotheses:
        if h.op == "=":
            eq = sp.together((h.lhs - h.rhs).subs({s: t for s in syms}))
            if eq == 0:
                continue
            sols = [s for s in sp.solve(sp.numer(eq), t) if s.is_number and s.is_positive]
            if len(sols) != 1:
                return None
            values.add(sols[0])
    if len(values) > 1:
        return None
    point = {s: (values.pop() if values else sp.Integer(1)) for s in syms}
    try:
        for h in goal.hypotheses:
            sl = sp.simplify(h.slack().subs(point))
            ok = {"=": sl == 0, "!=": sl != 0, ">=": sl >= 0, "<=": sl >= 0, ">": sl > 0, "<": sl > 0}[h.op]
            if not ok:
                return None
        if sp.simplify(goal.target.slack().subs(point)) != 0:
            return None
    except TypeError:  # a comparison sympy cannot decide
        return None
    return point


# ---------------------------------------------------------------- sampling (a filter, not trust)


def sample_points(goal: Goal, syms: list[sp.Symbol], centre: sp.Rational, n: int,
                  rng: random.Random) -> list[dict[sp.Symbol, float]]:
    """Points satisfying the inequality hypotheses (positive variables sampled log-uniformly)."""
    pos = positive_vars(goal, strict=False)
    ineqs = [sp.lambdify(syms, h.slack(), "math") for h in goal.hypotheses if h.is_inequality]
    c = float(centre)
    out: list[dict[sp.Symbol, float]] = []
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        near = tries % 3 == 0
        vals = []
        for x in syms:
            if near:
                v = c * math.exp(rng.uniform(-0.3, 0.3))
            elif x in pos:
                v = c * math.exp(rng.uniform(-4.0, 4.0))
            else:
                v = rng.uniform(-10 * (abs(c) + 1), 10 * (abs(c) + 1))
            vals.append(v)
        try:
            if all(f(*vals) >= 0 for f in ineqs):
                out.append(dict(zip(syms, vals)))
        except (ZeroDivisionError, OverflowError, ValueError):
            continue
    return out


def solved_constraint(goal: Goal, syms: list[sp.Symbol]) -> tuple[sp.Symbol, sp.Expr] | None:
    """``(v, f)`` with ``v = f(others)`` equivalent to an equality hypothesis of degree 1 in ``v``."""
    for _, e in equality_hyps(goal):
        if not is_polynomial(e, syms):
            continue
        for v in reversed(syms):
            p = sp.Poly(e, v)
            if p.degree() == 1:
                e1, e0 = p.all_coeffs()
                return v, sp.cancel(-e0 / e1)
    return None


def project_points(goal: Goal, syms: list[sp.Symbol], points: list[dict[sp.Symbol, float]],
                   solved: tuple[sp.Symbol, sp.Expr]) -> list[dict[sp.Symbol, float]]:
    """The points moved onto the constraint (``v := f(others)``), kept when the hypotheses hold."""
    v, f = solved
    others = [x for x in syms if x != v]
    fn = sp.lambdify(others, f, "math")
    ineqs = [sp.lambdify(syms, h.slack(), "math") for h in goal.hypotheses if h.is_inequality]
    out = []
    for p in points:
        q = dict(p)
        try:
            q[v] = float(fn(*[p[x] for x in others]))
            if all(h(*[q[x] for x in syms]) >= 0 for h in ineqs):
                out.append(q)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            continue
    return out


def domain_points(goal: Goal, syms: list[sp.Symbol], centre: sp.Rational, n: int,
                  rng: random.Random) -> list[dict[sp.Symbol, float]]:
    """Sampled points of the goal's whole domain: :func:`sample_points` moved onto the equality
    constraint it solves; ``[]`` when there is an equality it cannot solve (no evidence either way)."""
    points = sample_points(goal, syms, centre, n, rng)
    solved = solved_constraint(goal, syms)
    if solved is not None:
        return project_points(goal, syms, points, solved)
    if any(True for _ in equality_hyps(goal)):
        return []
    return points
