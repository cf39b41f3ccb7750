"""Exact rational helpers for certificates: polynomials as ``{exponent tuple: fmpq}`` dicts,
sympy conversion, and exact linear algebra (nullspace, least-norm and pivot projections, LDLᵀ,
small-denominator PSD decompositions) on python-flint's ``fmpq_mat``. Floats only propose
candidates (:func:`small_psd_decomposition`); every decision is exact."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import flint
import numpy as np
import sympy as sp

Exp = tuple[int, ...]
PolyDict = dict[Exp, flint.fmpq]


# ---------------------------------------------------------------- numbers


def to_fmpq(x) -> flint.fmpq:
    """Exact conversion from sympy Rational / Fraction / int / gmpy mpq."""
    if isinstance(x, flint.fmpq):
        return x
    if isinstance(x, int):
        return flint.fmpq(x)
    if isinstance(x, Fraction):
        return flint.fmpq(x.numerator, x.denominator)
    r = sp.Rational(x)
    return flint.fmpq(int(r.p), int(r.q))


def to_rational(x: flint.fmpq) -> sp.Rational:
    return sp.Rational(int(x.p), int(x.q))


def round_fmpq(x: float, denom: int) -> flint.fmpq:
    return flint.fmpq(round(x * denom), denom)


# ---------------------------------------------------------------- polynomials


def poly_from_expr(expr: sp.Expr, syms: Sequence[sp.Symbol]) -> PolyDict:
    """Exact polynomial dict; raises ``ValueError`` when ``expr`` is not a polynomial over QQ."""
    try:
        P = sp.Poly(sp.expand(expr), *syms, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed) as exc:
        raise ValueError(f"not a polynomial over QQ: {exc}") from None
    out: PolyDict = {}
    for m, c in P.as_dict().items():
        q = to_fmpq(sp.Rational(c))
        if q != 0:
            out[tuple(m)] = q
    return out


def poly_to_expr(p: PolyDict, syms: Sequence[sp.Symbol]) -> sp.Expr:
    return sp.Add(*[to_rational(c) * sp.Mul(*[s ** e for s, e in zip(syms, m)]) for m, c in p.items()])


def poly_mul(p: PolyDict, q: PolyDict) -> PolyDict:
    out: PolyDict = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(a + b for a, b in zip(m1, m2))
            out[m] = out.get(m, flint.fmpq(0)) + c1 * c2
    return {m: c for m, c in out.items() if c != 0}


def poly_add(p: PolyDict, q: PolyDict, scale: flint.fmpq | int = 1) -> PolyDict:
    out = dict(p)
    for m, c in q.items():
        out[m] = out.get(m, flint.fmpq(0)) + c * scale
    return {m: c for m, c in out.items() if c != 0}


def degree(p: PolyDict) -> int:
    return max((sum(m) for m in p), default=0)


def is_homogeneous(p: PolyDict) -> bool:
    return len({sum(m) for m in p}) <= 1


def monomials(nvars: int, deg: int, *, homogeneous: bool) -> list[Exp]:
    """Exponent tuples of total degree ``deg`` (or ``<= deg``), graded order."""
    out: list[Exp] = []
    for d in ([deg] if homogeneous else range(deg + 1)):
        for comb in itertools.combinations_with_replacement(range(nvars), d):
            e = [0] * nvars
            for i in comb:
                e[i] += 1
            out.append(tuple(e))
    return out


# ---------------------------------------------------------------- linear algebra


def nullspace(rows: list[list[flint.fmpq]], ncols: int) -> list[list[flint.fmpq]]:
    """Basis of ``{x : M x = 0}`` for the rational matrix with the given rows."""
    if not rows:
        return [[flint.fmpq(int(i == j)) for i in range(ncols)] for j in range(ncols)]
    M = flint.fmpq_mat(len(rows), ncols, [c for r in rows for c in r])
    R, rank = M.rref()
    pivots: list[int] = []
    for i in range(rank):
        for j in range(ncols):
            if R[i, j] != 0:
                pivots.append(j)
                break
    free = [j for j in range(ncols) if j not in pivots]
    basis = []
    for f in free:
        v = [flint.fmpq(0)] * ncols
        v[f] = flint.fmpq(1)
        for i, pj in enumerate(pivots):
            v[pj] = -R[i, f]
        basis.append(v)
    return basis


class AffineProjector:
    """Exact least-norm projection onto ``{x : A x = b}``: ``x = x0 + Aᵀ y``. The independent
    rows and the Gram matrix are computed once; each projection is one rational solve."""

    def __init__(self, A: flint.fmpq_mat, b: flint.fmpq_mat):
        self.A, self.b = A, b
        At = A.transpose()
        R, rank = At.rref()     # pivot columns of Aᵀ = independent rows of A
        pivots: list[int] = []
        row = 0
        for j in range(At.ncols()):
            if row < rank and R[row, j] != 0:
                pivots.append(j)
                row += 1
        self.pivots = pivots
        n = A.ncols()
        self.Ai = flint.fmpq_mat(len(pivots), n, [A[i, j] for i in pivots for j in range(n)])
        self.Ait = self.Ai.transpose()
        self.G = self.Ai * self.Ait if pivots else None
        self.bi = flint.fmpq_mat(len(pivots), 1, [b[i, 0] for i in pivots])
        self.consistent: bool | None = None

    def project(self, x0: flint.fmpq_mat) -> flint.fmpq_mat | None:
        """The projection of ``x0``, or None when ``A x = b`` has no solution."""
        if self.consistent is False:
            return None
        if self.G is None:
            x = x0
        else:
            try:
                y = self.G.solve(self.bi - self.Ai * x0)
            except (ZeroDivisionError, ValueError):
                return None
            x = x0 + self.Ait * y
        if self.consistent is None:     # the dropped rows are implied iff the first result fits
            self.consistent = self.A * x == self.b
            if not self.consistent:
                return None
        return x


def project_affine(A: flint.fmpq_mat, b: flint.fmpq_mat, x0: flint.fmpq_mat) -> flint.fmpq_mat | None:
    """One-off :class:`AffineProjector` projection."""
    return AffineProjector(A, b).project(x0)


def ldl_psd(M: list[list[flint.fmpq]]) -> list[tuple[flint.fmpq, list[flint.fmpq]]] | None:
    """Exact LDLᵀ of a symmetric matrix: ``M = Σ d_k ℓ_k ℓ_kᵀ`` with all ``d_k > 0``, or None
    when ``M`` is not positive semidefinite."""
    n = len(M)
    A = [list(r) for r in M]
    out: list[tuple[flint.fmpq, list[flint.fmpq]]] = []
    for k in range(n):
        d = A[k][k]
        if d < 0:
            return None
        if d == 0:
            if any(A[k][j] != 0 for j in range(k + 1, n)):
                return None
            continue
        ell = [flint.fmpq(0)] * n
        for j in range(k, n):
            ell[j] = A[k][j] / d
        for i in range(k + 1, n):
            if A[k][i] == 0:
                continue
            f = A[k][i] / d
            for j in range(i, n):
                A[i][j] -= f * A[k][j]
                A[j][i] = A[i][j]
        out.append((d, ell))
    return out


# ---------------------------------------------------------------- small certificates


def rational_digits(x: flint.fmpq) -> int:
    """Decimal digits of numerator and denominator (the size a rational adds to a certificate)."""
    return len(str(abs(int(x.p)))) + (len(str(int(x.q))) if x.q != 1 else 0)


class PivotSolver:
    """``A x = b`` solved for pivot unknowns with every other unknown fixed at a given value: the
    reduced row echelon form of ``[A | b]`` (columns in ``order``, so pivots go to the earliest
    possible columns) is computed once; each solve is one rational matrix-vector product. Unlike
    :class:`AffineProjector` (least norm, via ``(A Aᵀ)⁻¹``) the result keeps the denominators of
    the fixed values and of the echelon form."""

    def __init__(self, A: flint.fmpq_mat, b: flint.fmpq_mat, order: Sequence[int] | None = None):
        m, n = A.nrows(), A.ncols()
        self.A, self.b, self.n = A, b, n
        order = list(range(n)) if order is None else list(order)
        aug = flint.fmpq_mat(m, n + 1, [A[i, j] if j < n else b[i, 0]
                                         for i in range(m) for j in (*order, n)])
        R, rank = aug.rref()
        piv = _pivot_columns(R, rank)
        self.consistent = n not in piv            # a pivot on b: no solution at all
        self.pivots = [order[j] for j in piv if j < n]
        pos = set(piv)
        self.free = [order[j] for j in range(n) if j not in pos]
        self.rhs = flint.fmpq_mat(len(self.pivots), 1, [R[i, n] for i in range(len(self.pivots))])
        freecols = [j for j in range(n) if j not in pos]
        self.Rf = flint.fmpq_mat(len(self.pivots), len(freecols),
                                 [R[i, j] for i in range(len(self.pivots)) for j in freecols])

    def solve(self, x0: Sequence[flint.fmpq]) -> list[flint.fmpq] | None:
        """``x`` with ``x[f] = x0[f]`` on the free unknowns and ``A x = b`` exactly, or None when
        the system has no solution."""
        if not self.consistent or len(x0) != self.n:
            return None
        x = list(x0)
        if self.pivots:
            xf = flint.fmpq_mat(len(self.free), 1, [x0[f] for f in self.free])
            xp = self.rhs - self.Rf * xf if self.free else self.rhs
            for i, p in enumerate(self.pivots):
                x[p] = xp[i, 0]
        if self.A * flint.fmpq_mat(self.n, 1, x) != self.b:
            return None
        return x


def _pivot_columns(R: flint.fmpq_mat, rank: int) -> list[int]:
    """The pivot column of each of the first ``rank`` rows of a reduced row echelon form."""
    out: list[int] = []
    j = 0
    for i in range(rank):
        while R[i, j] == 0:
            j += 1
        out.append(j)
    return out


#: denominators of the rounded LDLᵀ factors in :func:`small_psd_decomposition`, small first
SMALL_DENOMS = (10**2, 10**3, 10**4, 10**5, 10**6, 10**8)


def small_psd_decomposition(M: list[list[flint.fmpq]], *, denoms: Sequence[int] = SMALL_DENOMS,
                            margin: float = 0.5) -> list[tuple[flint.fmpq, list[flint.fmpq]]] | None:
    """``M = Σ d_k ℓ_k ℓ_kᵀ`` exactly with every ``d_k ≥ 0`` and small denominators, or None.

    Floats only propose: ``M − εI = L D Lᵀ`` numerically (``ε = margin·λ_min``), ``L`` (unit
    lower triangular) and ``D ≥ 0`` rounded at denominator ``den`` (:func:`rounded_ldl`); the
    exact remainder must be diagonally dominant (:func:`decomposition_with`). None when no
    denominator works (e.g. ``M`` singular or indefinite), so the caller can fall back to
    :func:`ldl_psd`."""
    n = len(M)
    if n == 0:
        return []
    Mq = flint.fmpq_mat(n, n, [x for row in M for x in row])
    factors = float_ldl(np.array([[float(x) for x in row] for row in M]), margin)
    if factors is None:
        return None
    for den in denoms:
        Lt, dt = rounded_ldl(factors, den)
        out = decomposition_with(Mq, Lt, dt)
        if out is not None:
            return out
    return None


def decomposition_with(M: flint.fmpq_mat, Lt: flint.fmpq_mat,
                       dt: list[flint.fmpq]) -> list[tuple[flint.fmpq, list[flint.fmpq]]] | None:
    """``M = Σ_k d_k ℓ_k ℓ_kᵀ + R`` with ``ℓ_k`` the columns of ``Lt``, when the exact remainder
    ``R`` is diagonally dominant with a nonnegative diagonal (all ``d_k ≥ 0`` required):
    ``R = Σ_{i<j} |R_ij| (e_i + sgn R_ij e_j)(…)ᵀ + Σ_i (R_ii − Σ_{j≠i} |R_ij|) e_i e_iᵀ``. The
    identity is checked exactly before returning; None when it does not hold."""
    n = M.nrows()
    if any(d < 0 for d in dt):
        return None
    Dt = flint.fmpq_mat(n, n, [dt[i] if i == j else 0 for i in range(n) for j in range(n)])
    rest = _diagonally_dominant_terms(M - Lt * Dt * Lt.transpose())
    if rest is None:
        return None
    out = _merged([(dt[k], [Lt[i, k] for i in range(n)]) for k in range(n) if dt[k] != 0] + rest)
    return out if _weighted_squares(out, n) == M else None


def _merged(terms: list[tuple[flint.fmpq, list[flint.fmpq]]]) -> list[tuple[flint.fmpq, list[flint.fmpq]]]:
    """Weights of equal rows added (``L̃``'s last column and a diagonal square are both ``e_n``)."""
    acc: dict[tuple, tuple[flint.fmpq, list[flint.fmpq]]] = {}
    for d, ell in terms:
        key = tuple(ell)
        acc[key] = (acc[key][0] + d, ell) if key in acc else (d, ell)
    return list(acc.values())


def float_ldl(F: np.ndarray, margin: float = 0.5,
              mask: Sequence[bool] | None = None) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Unit lower triangular ``L``, ``d ≥ 0`` and ``ε = margin·λ_min(F)`` with
    ``F − εE ≈ L diag(d) Lᵀ`` (``E`` the identity, or the diagonal 0/1 matrix of ``mask``); None
    when ``F`` is not (numerically) positive definite."""
    F = (F + F.T) / 2
    if not np.all(np.isfinite(F)):
        return None
    lam = float(np.linalg.eigvalsh(F)[0]) if F.size else 0.0
    if lam <= 0:
        return None
    try:
        E = np.eye(len(F)) if mask is None else np.diag(np.array(mask, dtype=float))
        C = np.linalg.cholesky(F - margin * lam * E)
    except np.linalg.LinAlgError:
        return None
    diag = np.diag(C)
    return C / diag, diag ** 2, margin * lam


def rounded_ldl(factors: tuple[np.ndarray, np.ndarray, float], den: int) -> tuple[flint.fmpq_mat, list[flint.fmpq]]:
    """:func:`float_ldl`'s ``L`` (unit diagonal kept) and ``d`` (clipped at 0) rounded at ``den``."""
    L, d, _ = factors
    n = len(d)
    Lt = flint.fmpq_mat(n, n, [flint.fmpq(1) if i == j else (round_fmpq(L[i, j], den) if i > j else 0)
                               for i in range(n) for j in range(n)])
    return Lt, [max(flint.fmpq(0), round_fmpq(x, den)) for x in d]


def _diagonally_dominant_terms(R: flint.fmpq_mat) -> list[tuple[flint.fmpq, list[flint.fmpq]]] | None:
    """The pair and diagonal squares of a diagonally dominant symmetric ``R`` (nonnegative
    diagonal), or None when it is not."""
    n = R.nrows()
    zero, one = flint.fmpq(0), flint.fmpq(1)
    out: list[tuple[flint.fmpq, list[flint.fmpq]]] = []
    slack = [R[i, i] for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            r = R[i, j]
            if r == 0:
                continue
            ell = [zero] * n
            ell[i], ell[j] = one, (one if r > 0 else -one)
            out.append((abs(r), ell))
            slack[i] -= abs(r)
            slack[j] -= abs(r)
    if any(s < 0 for s in slack):
        return None
    for i, s in enumerate(slack):
        if s != 0:
            out.append((s, [one if k == i else zero for k in range(n)]))
    return out


def _weighted_squares(terms: list[tuple[flint.fmpq, list[flint.fmpq]]], n: int) -> flint.fmpq_mat:
    """``Σ d ℓ ℓᵀ`` as an exact matrix."""
    if not terms:
        return flint.fmpq_mat(n, n)
    k = len(terms)
    V = flint.fmpq_mat(n, k, [terms[c][1][i] for i in range(n) for c in range(k)])
    W = flint.fmpq_mat(n, k, [terms[c][1][i] * terms[c][0] for i in range(n) for c in range(k)])
    return V * W.transpose()
