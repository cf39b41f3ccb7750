"""SOS closer: a Gram-matrix SDP (cvxpy + Clarabel/SCS) turned into an exact certificate.

We look for ``slack(target) = Σ_k m_k · v_kᵀ Q_k v_k + Σ_j λ_j · eq(H_j)`` where each ``m_k`` is a
product of inequality-hypothesis slacks (``1``, single hypotheses, pairs, and all products of
nonnegative variables — the latter is equivalent to the substitution ``a = x²``), ``Q_k ⪰ 0`` and
``λ_j`` are free polynomials. Tight inequalities make the Gram matrices singular, so after each
solve the numerical kernel is rationalised and the face is reduced (``Q = N X Nᵀ``) before the
next solve (facial reduction). The numerical ``X`` is rounded at several denominators, projected
exactly onto the coefficient equations, and accepted only if exact LDLᵀ shows it PSD; the LDLᵀ
rows become the certificate's weighted squares (``prover/ir.py``, close method ``sos``).

Exact face restrictions before the first solve (each only a guess that narrows the SDP; a
wrong one costs a failed attempt, never a wrong certificate): zeros of the target on a small
rational grid of the *closed* inequality region (a strict ``a > 0`` still allows ``a = 0``:
the certificate is a polynomial identity) and, when the equality multipliers are not used,
off the equality constraints; flat directions at interior zeros (Hessian kernel: a quartic
contact forces ``∇q(z)·d = 0``); and, when every multiplier is a monomial, the half Newton
polytope (``μ + 2u ∈ conv(supp p)`` for a square ``x^μ·(…x^u…)²``). Together these make
degree-9 symmetric forms with several equality cases strictly feasible on the reduced face.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import flint
import numpy as np
import scipy.linalg
import scipy.sparse as sps
import sympy as sp

from prover.ir import Goal, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate, SosTerm
from prover.problem import var
from prover.solvers import sos_zeros
from prover.solvers.rational_linalg import (
    AffineProjector,
    Exp,
    PolyDict,
    degree,
    is_homogeneous,
    ldl_psd,
    monomials,
    nullspace,
    poly_from_expr,
    poly_mul,
    poly_to_expr,
    round_fmpq,
)

if TYPE_CHECKING:
    import cvxpy

DEBUG = bool(os.environ.get("PROVER_SOS_DEBUG"))
MAX_BASIS = 45          # per Gram block, before facial reduction
MAX_UNKNOWNS = 6000     # total scalar unknowns of one SDP
DENOMS = (1, 2, 4, 6, 12, 10, 24, 60, 100, 720, 1000, 10**4, 10**5, 10**6, 10**7)


@dataclass
class Block:
    mult: tuple[int, ...]               # hypothesis indices (repeats allowed)
    mpoly: PolyDict                     # product of their slacks
    basis: list[Exp]
    N: list[list[flint.fmpq]]           # basis-size × r reduction (columns span the face)

    @property
    def r(self) -> int:
        return len(self.N[0]) if self.N else 0


@dataclass
class EqMult:
    hyp: int
    epoly: PolyDict
    basis: list[Exp]


@dataclass
class PolyProblem:
    """``p >= 0`` to be shown on the set described by the hypotheses (all exact dicts)."""

    syms: list[sp.Symbol]
    p: PolyDict
    ineqs: list[tuple[int, PolyDict, bool]] = field(default_factory=list)   # (hyp, slack, strict)
    eqs: list[tuple[int, PolyDict]] = field(default_factory=list)


def poly_problem(goal: Goal) -> PolyProblem | None:
    """The goal as polynomial data, or None when the target slack is not a polynomial."""
    syms = [var(v) for v in goal.variables]
    try:
        p = poly_from_expr(goal.target.slack(), syms)
    except ValueError:
        return None
    if goal.target.op in ("=", "!="):
        return None
    ineqs, eqs = [], []
    for i, h in enumerate(goal.hypotheses):
        try:
            s = poly_from_expr(h.slack(), syms)
        except ValueError:
            continue
        if h.op == "=":
            if s:
                eqs.append((i, s))
        elif h.is_inequality:
            ineqs.append((i, s, h.strict))
    return PolyProblem(syms, p, ineqs, eqs)


# ---------------------------------------------------------------- multipliers


def _var_index(s: PolyDict) -> int | None:
    """Index of the variable when the slack is exactly one variable (``x >= 0``)."""
    if len(s) == 1:
        (m, c), = s.items()
        if c > 0 and sum(m) == 1:
            return m.index(1)
    return None


def candidate_multipliers(pp: PolyProblem, max_deg: int, *, pairs: bool = True) -> list[tuple[tuple[int, ...], PolyDict]]:
    """Products of hypothesis slacks of degree <= max_deg: all subsets of the nonnegative
    variables, every other hypothesis alone and (optionally) in pairs."""
    one: PolyDict = {tuple([0] * len(pp.syms)): flint.fmpq(1)}
    varhyps: dict[int, tuple[int, PolyDict]] = {}
    others: list[tuple[int, PolyDict]] = []
    for h, s, _strict in pp.ineqs:
        vi = _var_index(s)
        if vi is not None and vi not in varhyps:
            varhyps[vi] = (h, s)
        elif vi is None and s and degree(s) <= max_deg and not _is_positive_constant(s):
            others.append((h, s))
    out: dict[tuple[int, ...], PolyDict] = {(): one}
    vh = list(varhyps.values())
    for k in range(1, len(vh) + 1):
        for comb in itertools.combinations(vh, k):
            if k > max_deg:
                break
            mp = one
            for _, s in comb:
                mp = poly_mul(mp, s)
            out[tuple(sorted(h for h, _ in comb))] = mp
    singles = [(h, s) for h, s in others]
    for h, s in singles:
        out[(h,)] = s
        for hv, sv in vh:
            if degree(s) + 1 <= max_deg:
                out[tuple(sorted((h, hv)))] = poly_mul(s, sv)
    if pairs:
        for (h1, s1), (h2, s2) in itertools.combinations_with_replacement(singles, 2):
            if degree(s1) + degree(s2) <= max_deg:
                out[tuple(sorted((h1, h2)))] = poly_mul(s1, s2)
    return list(out.items())


def _is_positive_constant(s: PolyDict) -> bool:
    return len(s) <= 1 and all(sum(m) == 0 and c > 0 for m, c in s.items())


# ---------------------------------------------------------------- the SDP


def _homogeneous_problem(pp: PolyProblem) -> bool:
    """Search homogeneous certificates only: the target is homogeneous and, for a target of degree
    at most 2, so is every hypothesis (``y ≥ 1 − x ⊢ y ≥ −x`` needs the constant 1; above degree 2
    the constraints are used through the equality multipliers, as before)."""
    if not is_homogeneous(pp.p):
        return False
    return degree(pp.p) > 2 or all(is_homogeneous(g[1]) for g in (*pp.ineqs, *pp.eqs))


def _identity(n: int) -> list[list[flint.fmpq]]:
    return [[flint.fmpq(int(i == j)) for j in range(n)] for i in range(n)]


def build_blocks(pp: PolyProblem, deg: int, *, use_eqs: bool, pairs: bool = True,
                 homogeneous: bool = False) -> tuple[list[Block], list[EqMult]] | None:
    """``homogeneous`` forces a homogeneous basis (hypotheses that are not homogeneous then unused)."""
    n = len(pp.syms)
    homog = (homogeneous or _homogeneous_problem(pp)) and not (use_eqs and pp.eqs)
    blocks: list[Block] = []
    for mult, mp in candidate_multipliers(pp, deg, pairs=pairs):
        dm = degree(mp)
        if homog:
            if not is_homogeneous(mp) or (deg - dm) % 2 or dm > deg:
                continue
            basis = monomials(n, (deg - dm) // 2, homogeneous=True)
        else:
            if dm > deg:
                continue
            basis = monomials(n, (deg - dm) // 2, homogeneous=False)
        if len(basis) > MAX_BASIS:
            if mult:
                continue
            return None
        blocks.append(Block(mult, mp, basis, _identity(len(basis))))
    if not (use_eqs and pp.eqs):
        _newton_prune(pp, blocks)
    # without equality multipliers the certificate is an identity on the whole closed
    # inequality region, so zeros off the equality constraints reduce the face too
    zeros = find_zeros(pp if (use_eqs and pp.eqs) else PolyProblem(pp.syms, pp.p, pp.ineqs, []))
    dirs = {} if (use_eqs and pp.eqs) else {z: flat_directions(pp, z) for z in zeros}
    for b in blocks:
        _reduce_at_zeros(b, zeros, dirs)
    eqm: list[EqMult] = []
    if use_eqs:
        for h, e in pp.eqs:
            de = degree(e)
            if de <= deg:
                eqm.append(EqMult(h, e, monomials(n, deg - de, homogeneous=False)))
    unknowns = sum(len(b.basis) * (len(b.basis) + 1) // 2 for b in blocks) + sum(len(e.basis) for e in eqm)
    if unknowns > MAX_UNKNOWNS:
        return None
    return blocks, eqm


#: membership tests of the Newton polytope of a support, kept across calls: the search asks the
#: same polynomial again and again (rounds, multipliers, sibling goals)
_NEWTON_CACHE: dict[frozenset, Callable[[tuple[int, ...]], bool]] = {}
_NEWTON_CACHE_SIZE = 256


def _newton_membership(support: frozenset) -> Callable[[tuple[int, ...]], bool]:
    """``w ↦ w ∈ conv(support)``: a bounding-box test first (exact, cheap), then an LP."""
    hit = _NEWTON_CACHE.get(support)
    if hit is not None:
        return hit
    from scipy.optimize import linprog
    pts = np.array([list(m) for m in support], dtype=float).T          # n × s
    lo, hi = pts.min(axis=1), pts.max(axis=1)
    A_eq = np.vstack([pts, np.ones((1, pts.shape[1]))])
    memo: dict[tuple[int, ...], bool] = {}

    def inside(w: tuple[int, ...]) -> bool:
        if w not in memo:
            if any(x < a or x > b for x, a, b in zip(w, lo, hi)):
                memo[w] = False
            else:
                res = linprog(np.zeros(pts.shape[1]), A_eq=A_eq, b_eq=np.array(list(w) + [1.0], dtype=float),
                              bounds=(0, None), method="highs")
                memo[w] = res.status == 0
        return memo[w]

    if len(_NEWTON_CACHE) >= _NEWTON_CACHE_SIZE:
        _NEWTON_CACHE.pop(next(iter(_NEWTON_CACHE)))
    _NEWTON_CACHE[support] = inside
    return inside


def _newton_prune(pp: PolyProblem, blocks: list[Block]) -> None:
    """Drop basis monomials outside the half Newton polytope. When every multiplier is a
    monomial ``x^μ`` in nonnegative variables, ``x = y²`` turns the certificate into a plain SOS
    of ``p(y²)`` whose squares are ``(y^μ q(y²))²``, so a square's monomial ``x^u`` needs
    ``μ + 2u ∈ conv(supp p)``. (A pruning guess: the certificate is checked exactly anyway.)"""
    if any(len(b.mpoly) != 1 or next(iter(b.mpoly.values())) <= 0 for b in blocks) or len(pp.p) < 2:
        return
    inside = _newton_membership(frozenset(pp.p))
    for b in blocks:
        mu = next(iter(b.mpoly))
        keep = [u for u in b.basis if inside(tuple(m + 2 * e for m, e in zip(mu, u)))]
        if len(keep) < len(b.basis):
            b.basis = keep
            b.N = _identity(len(keep))


def _eval_poly(p: PolyDict, z: tuple[flint.fmpq, ...]) -> flint.fmpq:
    tot = flint.fmpq(0)
    for m, c in p.items():
        t = c
        for zi, e in zip(z, m):
            if e:
                t *= zi ** e
        tot += t
    return tot


ZERO_GRID = (0, 1, 2, 3, flint.fmpq(1, 2), flint.fmpq(1, 3))


def find_zeros(pp: PolyProblem, max_points: int = 3000) -> list[tuple[flint.fmpq, ...]]:
    """Rational points of a small grid where the target vanishes and every hypothesis holds
    (checked exactly); they force kernel vectors of the Gram matrices (facial reduction)."""
    n = len(pp.syms)
    if len(ZERO_GRID) ** n > max_points:
        return []
    out = []
    homog = is_homogeneous(pp.p)
    for z in itertools.product(ZERO_GRID, repeat=n):
        z = tuple(flint.fmpq(x) for x in z)
        if all(x == 0 for x in z):
            continue
        if homog and any(x != 0 for x in z) and min(x for x in z if x != 0) != 1:
            continue   # one representative per ray
        if _eval_poly(pp.p, z) != 0:
            continue
        # the closure of the set counts: the certificate is a polynomial identity, so at a zero
        # where every slack is >= 0 every term is >= 0 and must vanish (strict or not)
        if any(_eval_poly(s, z) < 0 for _, s, _strict in pp.ineqs):
            continue
        if any(_eval_poly(e, z) != 0 for _, e in pp.eqs):
            continue
        out.append(z)
    return out + _sign_variants(pp, out)


def _diff(p: PolyDict, i: int) -> PolyDict:
    out: PolyDict = {}
    for m, c in p.items():
        if m[i]:
            e = list(m)
            e[i] -= 1
            out[tuple(e)] = c * m[i]
    return out


def flat_directions(pp: PolyProblem, z: tuple[flint.fmpq, ...]) -> list[list[flint.fmpq]]:
    """Directions ``d`` in which the target is flat to third order at an interior zero ``z``
    (a basis of the exact kernel of its Hessian): there ``p(z+td) = O(t⁴)``, so every square
    ``q²`` with a multiplier positive at ``z`` has ``q(z+td) = O(t²)``, i.e. ``∇q(z)·d = 0`` — a
    further face restriction (e.g. a quartic contact at ``a = b = c`` such as ``(c−1)⁴`` along
    ``a = b = 1``). For a homogeneous target ``z`` itself is in the kernel; its row is implied
    (``∇q(z)·z = deg q · q(z) = 0``) and harmless."""
    if any(_eval_poly(s, z) <= 0 for _, s, _strict in pp.ineqs):
        return []        # on the boundary the one-sided neighbourhood proves nothing here
    n = len(z)
    grads = [_diff(pp.p, i) for i in range(n)]
    H = [[_eval_poly(_diff(grads[i], j), z) for j in range(n)] for i in range(n)]
    return nullspace(H, n)


def _sign_variants(pp: PolyProblem, zeros: list[tuple[flint.fmpq, ...]]) -> list[tuple[flint.fmpq, ...]]:
    """Zeros with some coordinates negated (the grid is nonnegative; a target without sign
    hypotheses, e.g. after ``a = x³``, often also vanishes at ``(−1, 1, 1)``), checked exactly."""
    out: list[tuple[flint.fmpq, ...]] = []
    seen = set(zeros)
    for z in zeros:
        for signs in itertools.product((1, -1), repeat=len(z)):
            w = tuple(x * sg for x, sg in zip(z, signs))
            if w in seen or -1 not in signs:
                continue
            seen.add(w)
            if _eval_poly(pp.p, w) != 0:
                continue
            if any(_eval_poly(sl, w) < 0 or (strict and _eval_poly(sl, w) == 0) for _, sl, strict in pp.ineqs):
                continue
            if any(_eval_poly(e, w) != 0 for _, e in pp.eqs):
                continue
            out.append(w)
    return out


def _reduce_at_zeros(b: Block, zeros: list[tuple[flint.fmpq, ...]],
                     dirs: dict[tuple[flint.fmpq, ...], list[list[flint.fmpq]]] | None = None) -> None:
    """``m(z) > 0`` and ``m·σ <= p = 0`` at z force ``σ(z) = 0``, i.e. ``Q v(z) = 0``; a flat
    direction ``d`` at z (:func:`flat_directions`) also forces ``Q (∇v(z)·d) = 0``."""
    rows = []
    one = flint.fmpq(1)
    for z in zeros:
        if _eval_poly(b.mpoly, z) > 0:
            rows.append([_eval_poly({m: one}, z) for m in b.basis])
            for d in (dirs or {}).get(z, []):
                row = []
                for m in b.basis:
                    v = flint.fmpq(0)
                    for j, dj in enumerate(d):
                        if dj != 0 and m[j]:
                            e = list(m)
                            e[j] -= 1
                            v += dj * m[j] * _eval_poly({tuple(e): one}, z)
                    row.append(v)
                rows.append(row)
    if rows:
        C = nullspace(rows, len(b.basis))
        b.N = [[C[c][i] for c in range(len(C))] for i in range(len(b.basis))] if C else [[] for _ in b.basis]


def _basis_polys(b: Block) -> list[PolyDict]:
    """u_s = Σ_i N[i][s] x^{basis_i}: the reduced basis polynomials of a block."""
    out = []
    for s in range(b.r):
        u: PolyDict = {}
        for i, m in enumerate(b.basis):
            if b.N[i][s] != 0:
                u[m] = b.N[i][s]
        out.append(u)
    return out


@dataclass
class System:
    """Linear coefficient equations ``A x = rhs`` over the unknowns (upper-triangular entries of
    every reduced Gram matrix, then the λ coefficients)."""

    monos: list[Exp]
    cols: list[dict[int, flint.fmpq]]      # sparse columns
    rhs: list[flint.fmpq]
    layout: list[tuple[str, int, int, int]]   # ("X", block, s, t) or ("L", eq, idx, 0)


def build_system(pp: PolyProblem, blocks: list[Block], eqm: list[EqMult]) -> System:
    mono_index: dict[Exp, int] = {m: i for i, m in enumerate(pp.p)}
    cols: list[dict[Exp, flint.fmpq]] = []
    layout: list[tuple[str, int, int, int]] = []
    two = flint.fmpq(2)
    for k, b in enumerate(blocks):
        us = _basis_polys(b)
        mus = [poly_mul(b.mpoly, u) for u in us]
        for s in range(b.r):
            for t in range(s, b.r):
                col = poly_mul(mus[s], us[t])
                if s != t:
                    col = {m: c * two for m, c in col.items()}
                cols.append(col)
                layout.append(("X", k, s, t))
    for j, e in enumerate(eqm):
        for i, mu in enumerate(e.basis):
            cols.append({tuple(a + c for a, c in zip(m, mu)): c0 for m, c0 in e.epoly.items()})
            layout.append(("L", j, i, 0))
    for col in cols:
        for m in col:
            if m not in mono_index:
                mono_index[m] = len(mono_index)
    monos = list(mono_index)
    icols = [{mono_index[m]: c for m, c in col.items() if c != 0} for col in cols]
    rhs = [pp.p.get(m, flint.fmpq(0)) for m in monos]
    return System(monos, icols, rhs, layout)


def _sdp_triplets(sysm: System, blocks: list[Block], eqm: list[EqMult]
                  ) -> tuple[dict[int, tuple[list, list, list]], tuple[list, list, list]]:
    """The system's columns as sparse ``(rows, cols, values)``: per block (against ``vec(X_k)``,
    column-major) and for the λ coefficients (one run of indices per equality multiplier)."""
    lam_off = {}
    off = 0
    for j, e in enumerate(eqm):
        lam_off[j] = off
        off += len(e.basis)
    mats: dict[int, tuple[list, list, list]] = {k: ([], [], []) for k in range(len(blocks))}
    lrows, lcols, lvals = [], [], []
    for col, lay in zip(sysm.cols, sysm.layout):
        if lay[0] == "X":
            _, k, s, t = lay
            r = blocks[k].r
            rr, cc, vv = mats[k]
            for mi, c in col.items():
                rr.append(mi)
                cc.append(s + t * r)
                vv.append(float(c))
        else:
            _, j, i, _ = lay
            for mi, c in col.items():
                lrows.append(mi)
                lcols.append(lam_off[j] + i)
                lvals.append(float(c))
    return mats, (lrows, lcols, lvals)


def _solve(prob: cvxpy.Problem, time_limit: float) -> bool:
    """Solve with Clarabel, SCS as the fallback; False when both fail."""
    import cvxpy as cp
    try:
        prob.solve(solver="CLARABEL", time_limit=max(1.0, time_limit), max_threads=1)
    except (cp.error.SolverError, Exception):  # noqa: BLE001 - any solver failure is "no certificate"
        try:
            prob.solve(solver="SCS", time_limit_secs=min(3.0, max(0.5, time_limit)))
        except Exception:  # noqa: BLE001
            return False
    return True


#: seconds for the tight SCS retry of an inaccurate Clarabel solution
SCS_RETRY_TIME = 5.0


def _solve_tight(prob: cvxpy.Problem, time_limit: float) -> None:
    if time_limit < 0.5:
        return
    with contextlib.suppress(Exception):  # a failed retry leaves "no certificate"
        prob.solve(solver="SCS", eps_abs=1e-9, eps_rel=1e-9, max_iters=200_000, time_limit_secs=time_limit)


def solve_sdp(sysm: System, blocks: list[Block], eqm: list[EqMult], time_limit: float) -> tuple[list[np.ndarray], np.ndarray] | None:
    """Numerical SDP: maximise the smallest eigenvalue of the reduced Gram matrices."""
    import cvxpy as cp  # imported here: ~1.4 s, and only needed when an SDP is solved
    m = len(sysm.monos)
    scale = max(abs(float(c)) for c in sysm.rhs) or 1.0
    Xs = [cp.Variable((b.r, b.r), symmetric=True) if b.r > 0 else None for b in blocks]
    nl = sum(len(e.basis) for e in eqm)
    lam = cp.Variable(nl) if nl else None
    mats, (lrows, lcols, lvals) = _sdp_triplets(sysm, blocks, eqm)
    expr = 0
    for k, b in enumerate(blocks):
        if Xs[k] is None:
            continue
        rr, cc, vv = mats[k]
        Ak = sps.csr_matrix((vv, (rr, cc)), shape=(m, b.r * b.r))
        expr = expr + Ak @ cp.vec(Xs[k], order="F")
    if lam is not None:
        Al = sps.csr_matrix((lvals, (lrows, lcols)), shape=(m, nl))
        expr = expr + Al @ lam
    rhs = np.array([float(c) / scale for c in sysm.rhs])
    tvar = cp.Variable()
    cons = [expr == rhs]
    for k, X in enumerate(Xs):
        if X is not None:
            cons.append(X - tvar * np.eye(blocks[k].r) >> 0)
    cons.append(tvar <= 1)
    prob = cp.Problem(cp.Maximize(tvar), cons)
    t0 = time.monotonic()
    if not _solve(prob, time_limit):
        return None
    if prob.status == "optimal_inaccurate" and (tvar.value is None or tvar.value < -1e-6):
        # Clarabel's numerical trouble on a face with a thin interior (IMO 2006/3 after the
        # reduction at its irrational zeros: Clarabel −4·10⁻⁴, SCS at tight tolerance +2·10⁻⁵)
        _solve_tight(prob, min(SCS_RETRY_TIME, time_limit - (time.monotonic() - t0)))
    if prob.status not in ("optimal", "optimal_inaccurate") or tvar.value is None:
        return None
    if tvar.value < -1e-6:
        return None
    out = [np.array(X.value) * scale if X is not None else np.zeros((0, 0)) for X in Xs]
    lv = np.array(lam.value) * scale if lam is not None else np.zeros(0)
    return out, lv


# ---------------------------------------------------------------- rounding


def _exact_matrix(sysm: System) -> AffineProjector:
    m, N = len(sysm.monos), len(sysm.cols)
    entries = [flint.fmpq(0)] * (m * N)
    for j, col in enumerate(sysm.cols):
        for i, c in col.items():
            entries[i * N + j] = c
    return AffineProjector(flint.fmpq_mat(m, N, entries), flint.fmpq_mat(m, 1, sysm.rhs))


def _numeric_vector(sysm: System, Xs: list[np.ndarray], lv: np.ndarray, eqm: list[EqMult]) -> list[float]:
    lam_off, off = {}, 0
    for j, e in enumerate(eqm):
        lam_off[j] = off
        off += len(e.basis)
    out = []
    for lay in sysm.layout:
        if lay[0] == "X":
            _, k, s, t = lay
            out.append(float(Xs[k][s, t]))
        else:
            out.append(float(lv[lam_off[lay[1]] + lay[2]]))
    return out


def try_round(sysm: System, proj: AffineProjector, blocks: list[Block], xnum: list[float],
              deadline: float, min_eig: float) -> tuple[list[list[tuple[flint.fmpq, list[flint.fmpq]]]], list[flint.fmpq]] | None:
    """Round at increasing denominators, project exactly, check PSD exactly."""
    N = len(xnum)
    size = max((b.r for b in blocks), default=1)
    # rounding error ~ size/D must stay below the smallest eigenvalue: skip hopeless denominators
    if min_eig > 1e-9:
        denoms = [D for D in DENOMS if D * min_eig >= 0.05 * size][:7] or list(DENOMS[-2:])
    else:       # singular: only small denominators can land exactly on the face
        denoms = [1, 2, 4, 6, 12, 24, 60, 720, 10**4, 10**6]
    fproj = _FloatProjection.of(proj)
    for D in denoms:
        if time.monotonic() > deadline:
            return None
        q0 = [round_fmpq(v, D) for v in xnum]
        if fproj is not None and fproj.clearly_indefinite(sysm, blocks, q0):
            continue
        x0 = flint.fmpq_mat(N, 1, q0)
        x = proj.project(x0)
        if x is None:
            return None
        xs = [x[i, 0] for i in range(N)]
        ldls = _check_psd(sysm, blocks, xs)
        if ldls is not None:
            return ldls, xs
    return None


@dataclass
class _FloatProjection:
    """The projector's least-norm projection in floats, to skip a rounding whose exact projection
    would certainly fail the PSD check (a rejection only: acceptance stays exact)."""

    A: np.ndarray
    b: np.ndarray
    pinv: np.ndarray

    #: relative eigenvalue margin; looser than PSD_REJECT since the float projection carries the
    #: conditioning of ``A``
    MARGIN = 1e-6

    @staticmethod
    def of(proj: AffineProjector) -> _FloatProjection | None:
        cached = getattr(proj, "_float", None)
        if cached is None:
            cached = False
            if proj.G is not None:
                A = np.array([[float(proj.Ai[i, j]) for j in range(proj.Ai.ncols())]
                              for i in range(proj.Ai.nrows())])
                b = np.array([float(proj.bi[i, 0]) for i in range(proj.bi.nrows())])
                try:
                    cached = _FloatProjection(A, b, np.linalg.pinv(A))
                except np.linalg.LinAlgError:
                    cached = False
            proj._float = cached
        return cached or None

    def clearly_indefinite(self, sysm: System, blocks: list[Block], q0: list[flint.fmpq]) -> bool:
        x0 = np.array([float(q) for q in q0])
        x = x0 + self.pinv @ (self.b - self.A @ x0)
        return any(_float_indefinite(M, self.MARGIN) for M in _gram_matrices_float(sysm, blocks, x))


def _gram_matrices_float(sysm: System, blocks: list[Block], x: np.ndarray) -> list[np.ndarray]:
    Ms = [np.zeros((b.r, b.r)) for b in blocks]
    for v, lay in zip(x, sysm.layout):
        if lay[0] == "X":
            _, k, s, t = lay
            Ms[k][s, t] = Ms[k][t, s] = v
    return Ms


def _gram_matrices(sysm: System, blocks: list[Block], xs: list) -> list[list[list]]:
    Ms = [[[flint.fmpq(0)] * b.r for _ in range(b.r)] for b in blocks]
    for v, lay in zip(xs, sysm.layout):
        if lay[0] == "X":
            _, k, s, t = lay
            Ms[k][s][t] = v
            Ms[k][t][s] = v
    return Ms


#: a float eigenvalue below ``-PSD_REJECT·max(1, top)`` rejects a rounded Gram matrix before its
#: exact LDLᵀ (most rounded candidates fail, and the exact failure costs ~0.1 s each); only a
#: rejection, never an acceptance, is decided in floats
PSD_REJECT = 1e-9


def _float_indefinite(M: np.ndarray, margin: float) -> bool:
    """An eigenvalue below ``-margin·max(1, top)``: certainly not PSD (a rejection only)."""
    if not M.size:
        return False
    w = np.linalg.eigvalsh(M)
    return bool(w[0] < -margin * max(1.0, abs(float(w[-1]))))


def _clearly_indefinite(M: list[list[flint.fmpq]]) -> bool:
    return _float_indefinite(np.array([[float(x) for x in row] for row in M]), PSD_REJECT)


def _check_psd(sysm: System, blocks: list[Block], xs: list[flint.fmpq]):
    Ms = _gram_matrices(sysm, blocks, xs)
    if any(_clearly_indefinite(M) for M in Ms):
        return None
    out = []
    for M in Ms:
        ldl = ldl_psd(M)
        if ldl is None:
            return None
        out.append(ldl)
    return out


# ---------------------------------------------------------------- facial reduction


def _rationalize_kernel(X: np.ndarray, rel_tol: float = 1e-5, max_den: int = 200, *,
                        verify: bool = True) -> list[list[flint.fmpq]]:
    """Rational basis (rows) of the numerical kernel of a PSD matrix (eigenvalues below
    ``rel_tol``·max(top, 1)), via its reduced echelon form with small-denominator rounding.
    A wrong guess only costs a failed attempt: the certificate is checked exactly."""
    if X.size == 0:
        return []
    w, V = np.linalg.eigh((X + X.T) / 2)
    top = max(float(w[-1]), 1e-12)
    K = V[:, w < rel_tol * max(top, 1.0)]
    d = K.shape[1]
    if d == 0:
        return []
    _, _, piv = scipy.linalg.qr(K.T, pivoting=True)
    P = sorted(piv[:d])
    B = K @ np.linalg.inv(K[P, :])          # r × d, identity on rows P
    rows = [[_to_q(B[i, c], max_den) for i in range(B.shape[0])] for c in range(d)]
    # a guess the matrix does not annihilate (an irrational kernel rounded to small
    # denominators) would make the next SDP infeasible: refuse it
    for row in rows if verify else ():
        k = np.array([float(x) for x in row])
        if np.linalg.norm(X @ k) > 1e-4 * top * np.linalg.norm(k):
            return []
    return rows


def _to_q(x: float, max_den: int) -> flint.fmpq:
    f = Fraction(x).limit_denominator(max_den)
    return flint.fmpq(f.numerator, f.denominator)


def reduce_face(blocks: list[Block], Xs: list[np.ndarray], *, verify: bool = True) -> bool:
    """Restrict each block to the orthogonal complement of its rationalised kernel; False if
    nothing changed. With ``verify`` only a rounded kernel that the matrix annihilates counts."""
    changed = False
    for b, X in zip(blocks, Xs):
        kern = _rationalize_kernel(X, verify=verify)
        if not kern:
            continue
        C = nullspace(kern, b.r)            # r × r' as a list of r'-many r-vectors
        newN = [[sum((b.N[i][s] * C[c][s] for s in range(b.r)), flint.fmpq(0)) for c in range(len(C))]
                for i in range(len(b.basis))]
        b.N = newN if C else [[] for _ in b.basis]
        changed = True
    return changed


#: share of the time left that the numeric zero search may take (it is a guess; the SDP and the
#: other closers need the rest)
NUMERIC_ZEROS_SHARE = 0.25


def reduce_at_numeric_zeros(pp: PolyProblem, blocks: list[Block], deadline: float | None = None) -> bool:
    """Restrict each block to the vectors orthogonal to ``v(z)`` at the target's irrational
    zeros in the hypotheses' closure (:mod:`prover.solvers.sos_zeros`), when their span is a
    recognised rational subspace; False if nothing changed. Not with equality hypotheses (a
    zero off the constraint set forces nothing)."""
    if pp.eqs:
        return False
    t0 = time.monotonic()
    until = None if deadline is None else t0 + NUMERIC_ZEROS_SHARE * max(0.0, deadline - t0)
    zeros = [z for z in sos_zeros.numeric_zeros(pp.p, len(pp.syms), deadline=until) if _zero_in_region(pp, z)]
    if DEBUG:
        print("numeric zeros", len(zeros), f"{time.monotonic() - t0:.2f} s")
    if not zeros:
        return False
    changed = False
    for b in blocks:
        if b.r == 0:
            continue
        vecs = [sos_zeros.monomial_vector(z, b.basis) for z in zeros
                if sos_zeros.value(b.mpoly, z) > _NUMERIC_POSITIVE]
        span = sos_zeros.rational_span(vecs)
        if not span:
            continue
        RN = [[sum((row[i] * b.N[i][s] for i in range(len(b.basis))), flint.fmpq(0)) for s in range(b.r)]
              for row in span]
        Y = nullspace(RN, b.r)           # r'-many r-vectors
        if len(Y) == b.r:
            continue
        b.N = ([[sum((b.N[i][s] * y[s] for s in range(b.r)), flint.fmpq(0)) for y in Y]
                for i in range(len(b.basis))] if Y else [[] for _ in b.basis])
        changed = True
    return changed


_NUMERIC_POSITIVE = 1e-20


def _zero_in_region(pp: PolyProblem, z) -> bool:
    """Every inequality slack is >= 0 at z (to numerical tolerance; a wrong call only costs a
    failed attempt). For a homogeneous target z stands for its ray and -z is tried as well."""
    def inside(w) -> bool:
        return all(sos_zeros.value(s, w) >= -1e-30 for _, s, _strict in pp.ineqs)
    if inside(z):
        return True
    if is_homogeneous(pp.p):
        neg = [-x for x in z]
        if inside(neg):
            z[:] = neg
            return True
    return False


# ---------------------------------------------------------------- certificate


def _certificate(pp: PolyProblem, sysm: System, blocks: list[Block], eqm: list[EqMult], ldls,
                 xs) -> SosCertificate:
    terms: list[SosTerm] = []
    for b, ldl in zip(blocks, ldls):
        us = _basis_polys(b)
        for d, ell in ldl:
            q: PolyDict = {}
            for s, c in enumerate(ell):
                if c != 0:
                    for m, cu in us[s].items():
                        q[m] = q.get(m, flint.fmpq(0)) + c * cu
            q = {m: c for m, c in q.items() if c != 0}
            if not q:
                continue
            # normalise q to integer coprime coefficients; move the scale into coeff
            den = 1
            for c in q.values():
                den = den * int(c.q) // _gcd(den, int(c.q))
            qi = {m: c * den for m, c in q.items()}
            g = 0
            for c in qi.values():
                g = _gcd(g, int(c.p))
            qi = {m: c / g for m, c in qi.items()}
            coeff = d * flint.fmpq(g, den) ** 2
            terms.append(SosTerm(str(sp.Rational(int(coeff.p), int(coeff.q))),
                                 expr_to_str(poly_to_expr(qi, pp.syms)), tuple(b.mult)))
    eq_terms: list[EqTerm] = []
    lam_vals: dict[int, PolyDict] = {}
    for v, lay in zip(xs, sysm.layout):
        if lay[0] == "L" and v != 0:
            j, i = lay[1], lay[2]
            lam_vals.setdefault(j, {})[eqm[j].basis[i]] = v
    for j, lp in lam_vals.items():
        eq_terms.append(EqTerm(eqm[j].hyp, expr_to_str(poly_to_expr(lp, pp.syms))))
    return SosCertificate(tuple(terms), tuple(eq_terms))


def _gcd(a: int, b: int) -> int:
    import math
    return math.gcd(a, b)


def sos_poly(pp: PolyProblem, deg: int, *, use_eqs: bool, deadline: float, pairs: bool = True,
             max_rounds: int = 4, homogeneous: bool = False) -> SosCertificate | None:
    """One SOS attempt at a fixed degree bound."""
    built = build_blocks(pp, deg, use_eqs=use_eqs, pairs=pairs, homogeneous=homogeneous)
    if built is None:
        return None
    blocks, eqm = built
    tried_numeric = False
    for _ in range(max_rounds):
        if time.monotonic() > deadline:
            return None
        blocks = [b for b in blocks if b.r > 0]
        if not blocks and not eqm:
            return None
        sysm = build_system(pp, blocks, eqm)
        sol = solve_sdp(sysm, blocks, eqm, deadline - time.monotonic())
        if sol is None:
            return None
        Xs, lv = sol
        if DEBUG:
            print("sos round", [b.r for b in blocks], "min eig",
                  [round(float(np.linalg.eigvalsh(X).min()), 9) for X in Xs if X.size])
        min_eig = min((float(np.linalg.eigvalsh(X).min()) for X in Xs if X.size), default=1.0)
        proj = _exact_matrix(sysm)
        xnum = _numeric_vector(sysm, Xs, lv, eqm)
        res = try_round(sysm, proj, blocks, xnum, deadline, min_eig)
        if res is not None:
            ldls, xs = res
            return _certificate(pp, sysm, blocks, eqm, ldls, xs)
        # the SDP's kernel when it rounds to a kernel the matrix annihilates; else the
        # target's irrational zeros (once); else the unverified rounded kernel (a last guess)
        if reduce_face(blocks, Xs):
            continue
        if not tried_numeric:
            tried_numeric = True
            if reduce_at_numeric_zeros(pp, blocks, deadline):
                continue
        if not reduce_face(blocks, Xs, verify=False):
            return None
    return None


def sos_certificate(goal: Goal, time_limit: float = 10.0, *, max_extra_degree: int = 2) -> dict | None:
    """A ``close`` certificate (method ``sos``) for a goal whose target slack is a polynomial,
    or None. A strict target is shown as ``p = ε·m + (SOS certificate of p − ε·m)`` with ``m`` a
    product of strict hypotheses (or 1), as the kernel requires. The JSON form of
    :func:`sos_close_certificate`."""
    cert = sos_close_certificate(goal, time_limit, max_extra_degree=max_extra_degree)
    return None if cert is None else cert.to_json()


def sos_close_certificate(goal: Goal, time_limit: float = 10.0, *,
                          max_extra_degree: int = 2) -> SosCertificate | None:
    """:func:`sos_certificate` as a typed :class:`~prover.kernel.certificates.SosCertificate`."""
    deadline = time.monotonic() + time_limit
    pp = poly_problem(goal)
    if pp is None:
        return None
    if goal.target.strict:
        return _strict_certificate(goal, pp, deadline, max_extra_degree)
    if not pp.p:
        return SosCertificate()
    return _nonstrict(pp, deadline, max_extra_degree)


def _nonstrict(pp: PolyProblem, deadline: float, max_extra_degree: int) -> SosCertificate | None:
    d0 = degree(pp.p)
    homog = _homogeneous_problem(pp)
    degs = [d0] if homog else list(range(d0, d0 + max_extra_degree + 1))
    attempts = [(deg, use_eqs, False) for deg in degs for use_eqs in ([False, True] if pp.eqs else [False])]
    if not homog and is_homogeneous(pp.p):
        # a homogeneous target under other hypotheses: the small homogeneous search first (its
        # certificate, where one exists, is found quickly whatever the load)
        attempts.insert(0, (d0, False, True))
    for deg, use_eqs, homogeneous in attempts:
        if time.monotonic() > deadline:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cert = sos_poly(pp, deg, use_eqs=use_eqs, deadline=deadline, homogeneous=homogeneous)
        if cert is not None:
            return cert
    return None


def _strict_certificate(goal: Goal, pp: PolyProblem, deadline: float,
                        max_extra_degree: int) -> SosCertificate | None:
    """Split off a positive part ``ε·m`` and certify ``p − ε·m >= 0`` (see :func:`_strict_parts`)."""
    for mult, part in _strict_parts(pp)[:10]:
        for eps in (flint.fmpq(1, 100), flint.fmpq(1, 10000)):
            p2 = dict(pp.p)
            for mono, c in part.items():
                p2[mono] = p2.get(mono, flint.fmpq(0)) - eps * c
            p2 = {m: c for m, c in p2.items() if c != 0}
            sub = PolyProblem(pp.syms, p2, pp.ineqs, pp.eqs)
            cert = _nonstrict(sub, deadline, max_extra_degree) if p2 else SosCertificate()
            if cert is not None:
                eps_term = SosTerm(str(sp.Rational(int(eps.p), int(eps.q))), "1", tuple(mult))
                return SosCertificate((*cert.terms, eps_term), cert.eq_terms)
            if time.monotonic() > deadline:
                return None
    return None


def _strict_parts(pp: PolyProblem) -> list[tuple[list[int], PolyDict]]:
    """Candidate positive parts ``m`` (with the strict hypotheses whose product they are):
    ``1`` for a non-homogeneous target, else a monomial of the target's degree in the variables
    with a strict hypothesis ``x > 0`` (products of strict variables also for a non-homogeneous
    target that only tends to 0: 4a² − bc + 1 on ab + bc + ca = 1 as a → 0); then the slack of
    each other strict hypothesis (``x − 1 < 2 ⊢ x < 3``: ``3 − x = ε·(3 − x) + (1 − ε)(3 − x)``)."""
    n = len(pp.syms)
    strict_vars: dict[int, int] = {}
    for h, s, strict in pp.ineqs:
        vi = _var_index(s)
        if strict and vi is not None and vi not in strict_vars:
            strict_vars[vi] = h
    d0 = degree(pp.p)
    monos: list[tuple[int, ...]] = []
    if is_homogeneous(pp.p) and d0 > 0:
        used = sorted({i for m in pp.p for i, e in enumerate(m) if e})
        if used and all(i in strict_vars for i in used):
            exps = [0] * n
            for k in range(d0):
                exps[used[k % len(used)]] += 1
            monos.append(tuple(exps))
    if not _homogeneous_problem(pp) or d0 == 0:
        # (after the homogeneous part of a homogeneous target: y ≥ 1 − x ⊢ y > −x needs the constant)
        monos.append(tuple([0] * n))
        sv = sorted(strict_vars)
        for k in (1, 2):
            for combo in itertools.combinations_with_replacement(sv, k):
                monos.append(tuple(combo.count(i) for i in range(n)))
    parts = [([strict_vars[i] for i, e in enumerate(mono) for _ in range(e)], {mono: flint.fmpq(1)})
             for mono in monos[:8]]
    for h, s, strict in pp.ineqs:
        if strict and _var_index(s) is None and s:
            parts.append(([h], s))
    return parts
    return None
