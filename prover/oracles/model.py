"""A goal compiled for counterexample search, and exact confirmation of candidate points.

Floats are only used to *find* candidates. :meth:`GoalModel.confirm` turns a float point into an
exact one (rationals with a bounded denominator; the variable eliminated by an equality
hypothesis becomes an exact real root of a polynomial with rational coefficients, so the
equality holds exactly) and accepts it only when every hypothesis holds and the target fails
with certainty (see :mod:`prover.oracles.exact_sign`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from prover.ir import Goal
from prover.oracles.exact_sign import DomainError, Undecided, evaluate, lean_value, sign
from prover.problem import Relation, var

#: Denominator bounds tried, simplest first, when rationalizing a float point.
DENOMINATORS = (1, 2, 4, 10, 20, 100, 1000, 10**4, 10**6, 10**9, 10**12)

#: Values of the variables not at 0 in a boundary point, one function of (position among
#: them, may it be negative) per pattern: all 1, all -1, 2, 1/2, 1 2 3 …, small, alternating.
_FILLS: tuple[Callable[[int, bool], sp.Rational], ...] = (
    lambda i, neg: sp.Integer(1),
    lambda i, neg: sp.Integer(-1 if neg else 1),
    lambda i, neg: sp.Integer(2),
    lambda i, neg: sp.Rational(1, 2),
    lambda i, neg: sp.Integer(i + 1),
    lambda i, neg: sp.Rational(-1 if neg else 1, 100),
    lambda i, neg: sp.Integer(-1 if neg and i % 2 else 1),
)


@dataclass
class Counterexample(Mapping):
    """A point satisfying the hypotheses exactly where the target certainly fails.

    Behaves as a read-only mapping ``variable name -> exact value`` (sympy Rational, or an
    algebraic number for a variable solved from an equality hypothesis).
    """

    point: dict[str, sp.Expr]
    slack: sp.Expr  # exact value of slack(target) at the point (negative, or 0 for strict goals)
    slack_float: float
    method: str
    notes: list[str] = field(default_factory=list)

    def __getitem__(self, k: str) -> sp.Expr:
        return self.point[k]

    def __iter__(self) -> Iterator[str]:
        return iter(self.point)

    def __len__(self) -> int:
        return len(self.point)

    def to_json(self) -> dict:
        return {"point": {k: str(v) for k, v in self.point.items()}, "slack": str(self.slack),
                "slack_float": self.slack_float, "method": self.method}


class Unsupported(ValueError):
    """The goal has a shape this oracle cannot confirm exactly (e.g. two equality hypotheses)."""


def _lambdify(syms: list[sp.Symbol], e: sp.Expr, modules: str = "numpy") -> Callable:
    return sp.lambdify(syms, e, modules=modules)


#: Errors of float arithmetic on a lambdified expression (an integer too large for a float, such
#: as a 1000-digit numeral, raises ``OverflowError``).
_FLOAT_ERRORS = (OverflowError, ZeroDivisionError, ValueError, TypeError, FloatingPointError)


def _call(f: Callable, *args: Any) -> Any:
    """``f(*args)`` for a lambdified expression, nan where floats cannot evaluate it: no
    counterexample is looked for at such points (the exact checks never use floats)."""
    try:
        return f(*args)
    except _FLOAT_ERRORS:
        return np.nan


@dataclass
class _Elimination:
    """Equality ``eq`` solved for ``dep``: a root of ``num``, a polynomial in ``dep`` whose
    coefficients involve only free variables and variables solved before."""

    eq: Relation
    dep: sp.Symbol
    index: int  # position of dep among the model's variables
    num: sp.Expr
    den: sp.Expr
    coeffs: list[Callable]  # float coefficients of num in dep (over all variables), highest first
    ray: list[Callable]  # coefficients of num(t * x) in t (for scaling samples onto it)


def _real_roots(cs: np.ndarray) -> np.ndarray | None:
    """Real roots of the polynomial with coefficients ``cs`` (highest degree first)."""
    if not np.all(np.isfinite(cs)):
        return None
    nz = np.flatnonzero(cs != 0)
    if nz.size == 0 or nz[0] == len(cs) - 1:
        return None
    cs = cs[nz[0]:]
    if len(cs) == 2:
        return np.array([-cs[1] / cs[0]])
    roots = np.roots(cs)
    return roots[np.abs(roots.imag) <= 1e-9 * (1 + np.abs(roots.real))].real


def _root_powers(eq: Relation, kind: dict[sp.Symbol, str]) -> dict[sp.Symbol, int]:
    """Variables to replace by ``w ** k`` so that an equality with roots becomes polynomial.

    ``a + b + c = a^(1/7) + b^(1/7) + c^(1/7)`` with ``a, b, c > 0`` becomes, writing ``a = w^7``,
    ``w^7 + ... = w + ...``. Only for variables known to be ``>= 0``, where ``(w^k)^r = w^(k r)``.
    """
    dens: dict[sp.Symbol, int] = {}
    for t in (eq.lhs - eq.rhs).atoms(sp.Pow):
        if t.base in kind and t.exp.is_Rational and not t.exp.is_Integer:
            dens[t.base] = int(sp.ilcm(dens.get(t.base, 1), t.exp.q))
    if not dens or any(kind[v] == "free" for v in dens):
        return {}
    return dens


def _subst_powers(r: Relation, powers: dict[sp.Symbol, int]) -> Relation:
    tmp = {v: sp.Dummy(str(v)) for v in powers}

    def sub(e: sp.Expr) -> sp.Expr:
        e = e.replace(lambda t: t.is_Pow and t.base in powers and t.exp.is_Rational,
                      lambda t: tmp[t.base] ** (t.exp * powers[t.base]))
        e = e.xreplace({v: tmp[v] ** k for v, k in powers.items()})
        return e.xreplace({d: v for v, d in tmp.items()})

    return Relation(sub(r.lhs), r.op, sub(r.rhs))


def _sympified(r: Relation) -> Relation:
    return Relation(sp.sympify(r.lhs), r.op, sp.sympify(r.rhs))


def _target_fails(target: Relation, s: int) -> bool:
    if target.op in ("<=", ">="):
        return s < 0
    if target.op in ("<", ">"):
        return s <= 0
    if target.op == "=":
        return s != 0
    return s == 0  # "!="


def _enclosure_midpoint(e: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, float]:
    """``e`` at ``point`` from the rigorous interval evaluation (informational, never a decision)."""
    try:
        v = evaluate(e, point)
    except ValueError:
        return sp.nan, float("nan")
    if isinstance(v, sp.Rational):
        return v, float(v)
    mid = v.mid.a  # an mpf
    return sp.Float(mid, 30), float(mid)


def _hyp_holds(h: Relation, s: int) -> bool:
    return not _target_fails(h, s)


class GoalModel:
    """Float evaluation of a goal (for search) plus exact confirmation of candidates."""

    def __init__(self, goal: Goal) -> None:
        self.goal = goal
        self.syms = [var(v) for v in goal.variables]
        self.target = _sympified(goal.target)
        unknown = self.target.free_symbols() - set(self.syms)
        if unknown:
            raise Unsupported(f"target mentions unknown symbols {sorted(map(str, unknown))}")
        self.kind: dict[sp.Symbol, str] = {s: "free" for s in self.syms}
        hyps = [_sympified(h) for h in goal.hypotheses]
        sign_hyps = []
        for h in hyps:
            sl = h.slack()
            if sl in self.kind and h.op in (">", ">=", "<", "<="):
                sign_hyps.append(h)
                if h.strict:
                    self.kind[sl] = "pos"
                elif self.kind[sl] == "free":
                    self.kind[sl] = "nonneg"
        eqs = [h for h in hyps if h.op == "="]
        #: ``v -> k``: the model's variable ``v`` stands for the goal's ``v ** k`` (see _root_powers)
        self.powers = _root_powers(eqs[0], self.kind) if len(eqs) == 1 else {}
        if self.powers:
            hyps = [h if h in sign_hyps else _subst_powers(h, self.powers) for h in hyps]
            self.target = _subst_powers(self.target, self.powers)
            eqs = [h for h in hyps if h.op == "="]
        self.ineqs: list[Relation] = [h for h in hyps if h.op != "="]
        self.elims = self._eliminate_all(eqs)
        deps = {el.dep for el in self.elims}
        self.free = [s for s in self.syms if s not in deps]
        self.free_index = [self.syms.index(s) for s in self.free]
        self._f_slack = _lambdify(self.syms, self.target.slack())
        self._f_scale = _lambdify(self.syms, sp.Abs(self.target.lhs) + sp.Abs(self.target.rhs))
        self._f_hyps = [_lambdify(self.syms, h.slack()) for h in self.ineqs]
        self._p_slack = _lambdify(self.syms, self.target.slack(), "math")
        self._p_scale = _lambdify(self.syms, sp.Abs(self.target.lhs) + sp.Abs(self.target.rhs), "math")
        self._p_hyps = [_lambdify(self.syms, h.slack(), "math") for h in self.ineqs]

    # ---------------------------------------------------------------- equality elimination

    def _eliminate_all(self, eqs: list[Relation]) -> list[_Elimination]:
        """Pick one variable per equality and an order in which each can be solved.

        Each equality must be polynomial in its variable once the free variables and the
        variables solved before are known (``s**2 = a*b`` from an ``introduce`` step, or
        ``a + b + c = 3``); otherwise :class:`Unsupported`.
        """
        infos = []
        for eq in eqs:
            num, den = sp.fraction(sp.together(eq.lhs - eq.rhs))
            num = sp.expand(num)
            if not num.is_polynomial(*self.syms) or not den.is_polynomial(*self.syms):
                raise Unsupported("equality hypothesis is not rational in the variables")
            cands = {s: sp.degree(num, s) for s in self.syms if num.has(s)}
            if not cands:
                raise Unsupported("equality hypothesis has no variable")
            infos.append((eq, num, den, cands))
        deps: dict[int, sp.Symbol] = {}
        for i in sorted(range(len(infos)), key=lambda i: len(infos[i][3])):
            elsewhere = {s for j, inf in enumerate(infos) if j != i for s in inf[3]}
            opts = [s for s in infos[i][3] if s not in deps.values()]
            if not opts:
                raise Unsupported("equalities share their variables")
            cands = infos[i][3]
            deps[i] = min(opts, key=lambda s: (s in elsewhere, cands[s], -self.syms.index(s)))
        order: list[int] = []
        while len(order) < len(infos):
            ready = [i for i in range(len(infos)) if i not in order and all(
                j in order or j == i or not infos[i][1].has(deps[j]) for j in range(len(infos)))]
            if not ready:
                raise Unsupported("equalities cannot be solved one after the other")
            order.append(ready[0])
        return [self._elimination(infos[i][0], deps[i], infos[i][1], infos[i][2]) for i in order]

    def _elimination(self, eq: Relation, dep: sp.Symbol, num: sp.Expr, den: sp.Expr) -> _Elimination:
        coeffs = [_lambdify(self.syms, c) for c in sp.Poly(num, dep).all_coeffs()]
        t = sp.Dummy("t")
        scaled = sp.expand(num.xreplace({s: t * s for s in self.syms}))
        ray = [_lambdify(self.syms, c) for c in sp.Poly(scaled, t).all_coeffs()]
        return _Elimination(eq, dep, self.syms.index(dep), num, den, coeffs, ray)

    # ---------------------------------------------------------------- float evaluation

    def dep_values(self, x: np.ndarray) -> list[float]:
        return [float(x[el.index]) for el in self.elims]

    def full_point(self, free_vals: np.ndarray, refs: list[float] | None) -> np.ndarray | None:
        """Complete a point given the free variables, solving the equalities in order (the
        root nearest to ``refs`` - the previous values - is kept)."""
        x = np.full(len(self.syms), np.nan)
        x[self.free_index] = free_vals
        for k, el in enumerate(self.elims):
            with np.errstate(all="ignore"):
                cs = np.array([float(_call(c, *x)) for c in el.coeffs])
            real = _real_roots(cs)
            if real is None:
                return None
            kind = self.kind[el.dep]
            if kind != "free":
                real = real[real > 0] if kind == "pos" else real[real >= 0]
            if real.size == 0:
                return None
            x[el.index] = real[np.argmin(np.abs(real - refs[k]))] if refs is not None else real[0]
        return x

    def project(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Move samples onto the equalities; rows that cannot be moved are dropped."""
        if not self.elims:
            return X
        if len(self.elims) == 1:
            return self.scale_onto_equality(X, rng)
        rows = [self.full_point(x[self.free_index], self.dep_values(x)) for x in X]
        return np.array([r for r in rows if r is not None]).reshape(-1, X.shape[1])

    def scale_onto_equality(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Move samples along their rays ``t * x`` (t > 0) onto the (single) equality surface.

        Rows that cannot be moved are dropped.
        """
        (el,) = self.elims
        cols = [X[:, i] for i in range(X.shape[1])]
        with np.errstate(all="ignore"):
            C = np.stack([np.broadcast_to(np.asarray(_call(f, *cols), dtype=float), (X.shape[0],))
                          for f in el.ray], axis=1)
        nzcols = [j for j in range(C.shape[1]) if np.any(C[:, j] != 0)]
        deg = C.shape[1] - 1
        if len(nzcols) == 2:  # c_p t^p + c_q t^q = 0: closed form (homogeneous constraints)
            (j1, j2), (p, q) = nzcols, (deg - nzcols[0], deg - nzcols[1])
            with np.errstate(all="ignore"):
                ratio = -C[:, j2] / C[:, j1]
                t = np.where(ratio > 0, ratio ** (1.0 / (p - q)), np.nan)
            keep = np.isfinite(t) & (t > 0)
            return X[keep] * t[keep, None]
        rows = []
        for x, cs in zip(X, C):
            r = _real_roots(cs)
            ts = r[r > 0] if r is not None else r
            if ts is not None and ts.size:
                rows.append(x * rng.choice(ts))
        return np.array(rows).reshape(-1, X.shape[1])

    def evaluate(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(normalized target slack, hypothesis violation) for points ``X`` (shape N x n).

        Invalid points (nan/inf anywhere) get violation ``inf``.
        """
        X = np.atleast_2d(X)
        cols = [X[:, i] for i in range(X.shape[1])]
        n = X.shape[0]
        with np.errstate(all="ignore"):
            s = np.broadcast_to(np.asarray(_call(self._f_slack, *cols), dtype=complex), (n,))
            sc = np.broadcast_to(np.asarray(_call(self._f_scale, *cols), dtype=complex), (n,))
            bad = ~np.isfinite(s) | (np.abs(s.imag) > 0) | ~np.isfinite(sc)
            norm = s.real / (np.abs(sc.real) + 1e-9)
            viol = np.zeros(n)
            for f, h in zip(self._f_hyps, self.ineqs):
                v = np.broadcast_to(np.asarray(_call(f, *cols), dtype=complex), (n,))
                bad |= ~np.isfinite(v) | (np.abs(v.imag) > 0)
                vr = v.real
                if h.op == "!=":
                    viol += (np.abs(vr) < 1e-12) * 1.0
                else:
                    scale = 1.0 + np.abs(vr)
                    viol += np.maximum(0.0, -vr) / scale + ((vr <= 0) if h.strict else 0) * 1e-6
        viol = np.where(bad, np.inf, viol)
        norm = np.where(bad, np.inf, norm)
        return norm, viol

    def evaluate_point(self, x) -> tuple[float, float]:
        """:meth:`evaluate` for one point, with plain floats (much faster than numpy)."""
        try:
            s = self._p_slack(*x)
            sc = self._p_scale(*x)
            viol = 0.0
            for f, h in zip(self._p_hyps, self.ineqs):
                v = f(*x)
                if isinstance(v, complex) or not math.isfinite(v):
                    return math.inf, math.inf
                if h.op == "!=":
                    viol += 1.0 if abs(v) < 1e-12 else 0.0
                else:
                    viol += max(0.0, -v) / (1.0 + abs(v)) + (1e-6 if h.strict and v <= 0 else 0.0)
            if isinstance(s, complex) or isinstance(sc, complex) or not (math.isfinite(s) and math.isfinite(sc)):
                return math.inf, math.inf
            return s / (abs(sc) + 1e-9), viol
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return math.inf, math.inf

    # ---------------------------------------------------------------- exact confirmation

    def confirm(self, x: np.ndarray | list, method: str, exact: dict | None = None) -> Counterexample | None:
        """Exact counterexample near the float point ``x`` (or at ``exact``), else None."""
        tried: set[tuple] = set()
        candidates = []
        if exact is not None:
            candidates.append({s: sp.Rational(exact[s]) for s in self.free if s in exact})
        for dmax in DENOMINATORS:
            cand = {}
            for s, xv in zip(self.syms, x):
                if s not in self.free:
                    continue
                if not np.isfinite(xv):
                    return None
                q = Fraction(float(xv)).limit_denominator(dmax)
                cand[s] = sp.Rational(q.numerator, q.denominator)
            candidates.append(cand)
        for cand in candidates:
            key = tuple(sorted((str(k), v) for k, v in cand.items()))
            if key in tried or len(cand) != len(self.free):
                continue
            tried.add(key)
            ce = self._check(cand, x, method)
            if ce is not None:
                return ce
        return None

    def boundary_points(self, limit: int = 200) -> Iterator[dict[sp.Symbol, sp.Rational]]:
        """Exact points on the boundary of the sign hypotheses, where float sampling never
        looks (a zero denominator is nan there, but 0 in Lean): every non-empty set of the
        variables that may be 0 (no ``v > 0`` hypothesis) set to 0, alone and in combination,
        the others filled by a few patterns (negative values only for variables without a sign
        hypothesis); then the fills alone. At most ``limit`` points, without repeats."""
        zeroable = [s for s in self.free if self.kind[s] != "pos"]
        subsets = [set(c) for k in range(1, len(zeroable) + 1) for c in itertools.combinations(zeroable, k)]
        seen: set[tuple] = set()
        for zeros in subsets + [set()]:
            others = [s for s in self.free if s not in zeros]
            for fill in _FILLS:
                point = {s: sp.Integer(0) for s in zeros}
                point.update({s: fill(i, self.kind[s] == "free") for i, s in enumerate(others)})
                key = tuple(point[s] for s in self.free)
                if key in seen:
                    continue
                seen.add(key)
                yield point
                if len(seen) >= limit:
                    return

    def confirm_exact(self, point: Mapping[sp.Symbol, sp.Expr], method: str) -> Counterexample | None:
        """:meth:`confirm` at the exact values ``point`` of the free variables (the variables
        solved from equalities take the real root nearest to 1)."""
        if set(point) != set(self.free):
            return None
        x = [float(point[s]) if s in point else 1.0 for s in self.syms]
        return self._check(dict(point), x, method)

    def _check(self, free_vals: dict, x, method: str) -> Counterexample | None:
        point = dict(free_vals)
        for el in self.elims:  # exact real roots, in solving order
            p = sp.Poly(el.num.xreplace(point), el.dep)
            if p.degree() < 1 or not all(c.is_Rational for c in p.all_coeffs()):
                return None
            try:
                roots = p.real_roots()
            except (NotImplementedError, sp.PolynomialError):
                return None
            if not roots:
                return None
            near = float(x[el.index])
            point[el.dep] = min(set(roots), key=lambda r: abs(float(r.evalf(30)) - near))
        try:
            for el in self.elims:
                if sign(el.den, point) == 0:
                    return None
                # the root solves the equality with its denominators cleared: only valid where
                # every denominator is nonzero and every root is real, so check that classically
                evaluate(el.eq.lhs - el.eq.rhs, point, lean=False)
            for h in self.ineqs:  # Lean's semantics: x / 0 = 0, √(negative) = 0 …
                if not _hyp_holds(h, sign(h.slack(), point)):
                    return None
            s = sign(self.target.slack(), point)
            for side in (self.target.lhs, self.target.rhs):  # each side has a value we can trust
                evaluate(side, point)
        except (DomainError, Undecided, ValueError, TypeError, ZeroDivisionError):
            return None
        if not _target_fails(self.target, s):
            return None
        notes: list[str] = []
        try:  # the exact value, as Lean computes it (sympy alone would give zoo for x / 0)
            slack = lean_value(self.target.slack(), point)
            sf = float(sp.N(slack, 30))
        except (TypeError, ValueError):  # too costly to build exactly: the rigorous enclosure's midpoint
            slack, sf = _enclosure_midpoint(self.target.slack(), point)
            notes.append("slack: midpoint of a rigorous enclosure (the exact value is too costly to build)")
        return Counterexample({str(k): point[k] ** self.powers.get(k, 1) for k in self.syms}, slack, sf, method,
                              notes)

    def _exponents(self) -> np.ndarray:
        return np.array([self.powers.get(s, 1) for s in self.syms], dtype=float)

    def original_point(self, X: np.ndarray) -> np.ndarray:
        """Float points of the model (rows) as values of the goal's own variables."""
        return X ** self._exponents() if self.powers else X

    def model_point(self, X: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`original_point` (variables with a power are ``>= 0``)."""
        return np.abs(X) ** (1.0 / self._exponents()) if self.powers else X
