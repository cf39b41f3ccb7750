"""Irrational zeros of an SOS target, for facial reduction.

A Gram matrix ``Q ⪰ 0`` with ``p = v(x)ᵀ Q v(x)`` must satisfy ``Q v(z) = 0`` at every real
zero ``z`` of ``p`` (times a multiplier positive there). :func:`prover.solvers.sos.find_zeros`
finds the rational zeros on a small grid; IMO 2006/3's
``81 (a²+b²+c²)⁴ − 512 X²`` vanishes only at the six permutations of
``(1 + 3/√2, 1, 1 − 3/√2)``, and the Gram matrices of its SOS decompositions are all singular
there, so rounding fails unless the face is known. Because the zero set of a rational polynomial
is closed under Galois conjugation when every conjugate is real, the span of the ``v(z)`` is
often a *rational* subspace even though no ``z`` is rational.

This module finds such zeros numerically (multi-start local minimisation, then Newton refinement
at 60 digits with mpmath), and returns an exact rational basis of the span of the ``v(z)``
when every entry of its reduced echelon form is recognised as a small rational to 35 digits.
It is an untrusted oracle: a wrong face only makes an SOS attempt fail; the certificate is
checked exactly by the kernel.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction

import flint
import mpmath
import numpy as np

from prover.solvers.rational_linalg import Exp, PolyDict, is_homogeneous

DIGITS = 60
STARTS = 40
MAX_VARS = 4
MAX_DENOMINATOR = 10**9
RECOGNISE_TOL = mpmath.mpf(10) ** -35


def _np_poly(p: PolyDict) -> tuple[np.ndarray, np.ndarray]:
    """Exponent matrix (terms × variables) and float coefficients, for vectorised evaluation."""
    return np.array(list(p), dtype=float), np.array([float(c) for c in p.values()])


def _eval_np(E: np.ndarray, cs: np.ndarray, x: np.ndarray) -> float:
    return float(cs @ np.prod(x[None, :] ** E, axis=1))


def _mp_poly(p: PolyDict):
    """(coefficient as mpf, exponent) pairs of ``p``, and of each partial derivative."""
    terms = [(mpmath.mpf(int(c.p)) / int(c.q), m) for m, c in p.items()]
    return terms


def _mp_eval(terms, x) -> mpmath.mpf:
    s = mpmath.mpf(0)
    for c, m in terms:
        t = c
        for xi, e in zip(x, m):
            if e:
                t *= xi ** e
        s += t
    return s


def _mp_grad(terms, x, free: Sequence[int]) -> list[mpmath.mpf]:
    out = []
    for i in free:
        s = mpmath.mpf(0)
        for c, m in terms:
            if not m[i]:
                continue
            t = c * m[i]
            for j, (xj, e) in enumerate(zip(x, m)):
                ee = e - 1 if j == i else e
                if ee:
                    t *= xj ** ee
            s += t
        out.append(s)
    return out


def _mp_hess(terms, x, free: Sequence[int]) -> mpmath.matrix:
    H = mpmath.matrix(len(free), len(free))
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            s = mpmath.mpf(0)
            for c, m in terms:
                if not m[i] or not m[j] or (i == j and m[i] < 2):
                    continue
                t = c * m[i] * (m[j] - 1 if i == j else m[j])
                for k, (xk, e) in enumerate(zip(x, m)):
                    ee = e - (i == k) - (j == k)
                    if ee:
                        t *= xk ** ee
                s += t
            H[a, b] = s
    return H


def _refine(terms, x0: np.ndarray, homog: bool) -> list[mpmath.mpf] | None:
    """Newton on ∇p = 0 (on the chart ``x_k = 1`` of the largest coordinate when ``p`` is
    homogeneous); None unless it converges to a zero of ``p``."""
    n = len(x0)
    if homog:
        k = int(np.argmax(np.abs(x0)))
        x = [mpmath.mpf(float(v / x0[k])) for v in x0]
        x[k] = mpmath.mpf(1)
        free = [i for i in range(n) if i != k]
    else:
        x = [mpmath.mpf(float(v)) for v in x0]
        free = list(range(n))
    scale = max(abs(c) for c, _ in terms)
    for _ in range(80):
        g = _mp_grad(terms, x, free)
        if max(abs(v) for v in g) < scale * mpmath.mpf(10) ** -(DIGITS - 8):
            break
        H = _mp_hess(terms, x, free)
        try:
            step = mpmath.lu_solve(H, mpmath.matrix(g))
        except ZeroDivisionError:
            return None
        for a, i in enumerate(free):
            x[i] -= step[a]
    size = max(abs(v) for v in x)
    if abs(_mp_eval(terms, x)) > scale * size ** max(sum(m) for _, m in terms) * mpmath.mpf(10) ** -(DIGITS - 12):
        return None
    return x


def numeric_zeros(p: PolyDict, nvars: int, seed: int = 0, *,
                  deadline: float | None = None) -> list[list[mpmath.mpf]]:
    """Real zeros of ``p ≥ 0`` found from random starts (one per ray when ``p`` is homogeneous),
    each refined to about 50 digits; empty for more than :data:`MAX_VARS` variables. No new
    start after ``deadline`` (``time.monotonic()``)."""
    if nvars > MAX_VARS or not p:
        return []
    from scipy.optimize import minimize

    homog = is_homogeneous(p)
    d = max(sum(m) for m in p)
    rng = np.random.default_rng(seed)
    E, cs = _np_poly(p)

    def f(x: np.ndarray) -> float:
        v = _eval_np(E, cs, x)
        return v / float(np.dot(x, x)) ** (d / 2) if homog else v

    found: list[np.ndarray] = []
    scale = max(abs(float(c)) for c in p.values())
    for _ in range(STARTS):
        if deadline is not None and time.monotonic() > deadline:
            break
        r = minimize(f, rng.normal(size=nvars), method="BFGS", options={"gtol": 1e-12})
        if not np.all(np.isfinite(r.x)) or r.fun > 1e-8 * scale:
            continue
        x = r.x / np.linalg.norm(r.x) if homog else r.x
        if homog:
            x = x * np.sign(x[np.argmax(np.abs(x))])
        if not any(np.allclose(x, y, atol=1e-6) for y in found):
            found.append(x)
    out: list[list[mpmath.mpf]] = []
    with mpmath.workdps(DIGITS):
        terms = _mp_poly(p)
        for x0 in found:
            z = _refine(terms, x0, homog)
            if z is not None and not any(max(abs(a - b) for a, b in zip(z, w)) < mpmath.mpf(10) ** -30 for w in out):
                out.append(z)
    return out


def _recognise(x: mpmath.mpf) -> flint.fmpq | None:
    f = Fraction(mpmath.nstr(x, DIGITS - 5, strip_zeros=False)).limit_denominator(MAX_DENOMINATOR)
    if abs(mpmath.mpf(f.numerator) / f.denominator - x) > RECOGNISE_TOL * max(1, abs(x)):
        return None
    return flint.fmpq(f.numerator, f.denominator)


def rational_span(vectors: list[list[mpmath.mpf]]) -> list[list[flint.fmpq]] | None:
    """An exact basis (reduced echelon rows) of the span of high-precision vectors, or None when
    that span is not recognised as a rational subspace."""
    if not vectors:
        return []
    with mpmath.workdps(DIGITS):
        rows = [list(v) for v in vectors]
        ncols = len(rows[0])
        tol = mpmath.mpf(10) ** -(DIGITS // 2) * max(max(abs(x) for x in r) for r in rows)
        piv_rows: list[list[mpmath.mpf]] = []
        r = 0
        for col in range(ncols):
            best = max(range(r, len(rows)), key=lambda i: abs(rows[i][col]), default=None)
            if best is None or abs(rows[best][col]) <= tol:
                continue
            rows[r], rows[best] = rows[best], rows[r]
            pivot = rows[r][col]
            rows[r] = [x / pivot for x in rows[r]]
            for i in range(len(rows)):
                if i != r and rows[i][col] != 0:
                    f = rows[i][col]
                    rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
            r += 1
            if r == len(rows):
                break
        piv_rows = rows[:r]
        out = []
        for row in piv_rows:
            q = [_recognise(x) for x in row]
            if any(v is None for v in q):
                return None
            out.append(q)
    return out


def monomial_vector(z: Sequence[mpmath.mpf], basis: Sequence[Exp]) -> list[mpmath.mpf]:
    with mpmath.workdps(DIGITS):
        return [mpmath.fprod([zi ** e for zi, e in zip(z, m)]) for m in basis]


def value(p: PolyDict, z: Sequence[mpmath.mpf]) -> mpmath.mpf:
    with mpmath.workdps(DIGITS):
        return _mp_eval(_mp_poly(p), z)
