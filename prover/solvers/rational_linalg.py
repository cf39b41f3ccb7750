"""Exact rational helpers for certificates: polynomials as ``{exponent tuple: fmpq}`` dicts,
sympy conversion, and exact linear algebra (nullspace, least-norm projection, LDLᵀ) on
python-flint's ``fmpq_mat``. Nothing here uses floats in a decision."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import flint
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
