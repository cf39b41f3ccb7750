"""Small certificates for rendering: SOS ``close`` certificates re-written with short rationals.

The SOS solver (``prover.solvers.sos``) projects a rounded Gram matrix exactly onto the
coefficient equations (denominators the size of a Gram determinant) and writes it as an exact
LDLᵀ (heights growing with the block size), so its certificates carry rationals of hundreds or
thousands of digits. Lean does not need that: any exact identity
``slack = Σ c·Π slack(H)·q² + Σ λ·eq`` with ``c ≥ 0`` proves the goal. This pass rewrites a
certificate, block by block (a block: the squares sharing one hypothesis product ``m``):

1. the block's Gram matrix ``Q = Σ c·q qᵀ`` (exact) on the monomials of its squares; its kernel
   (numerical, rationalised with small denominators: a tight inequality has one) gives the face
   ``Q = N X Nᵀ``, ``u = Nᵀ·monomials`` its basis polynomials, with ``N`` the identity on the
   free coordinates so that ``X`` is a principal submatrix of ``Q``;
2. ``X − δ·I = L D Lᵀ`` numerically (``δ`` half the smallest eigenvalue), ``L`` and ``D`` rounded
   to short rationals (``D`` downwards): the squares ``D̃_i·m·(L̃ᵀu)_i²``;
3. what is left, ``r = slack − Σ squares``, is written exactly as ``Σ m·uᵀ R u + Σ λ·eq`` with
   ``R ≈ δ·I``: the coefficient equations in reduced echelon form (columns ordered λ, diagonal,
   off-diagonal, so pivots fall on the unconstrained and the dominant unknowns; computed once
   per certificate), the free unknowns set to short rationals (``δ`` on the diagonal, 0 off it,
   the old λ rounded), the pivots solved exactly;
4. when every ``R`` is diagonally dominant it is a sum of short squares:
   ``|R_st|·m·(u_s ± u_t)²`` and ``(R_ss − Σ_t |R_st|)·m·u_s²``. Coarse roundings are tried
   first (``_TRIES``); a failed diagonal dominance tries the next.

Terms with a constant square (the ``ε·m`` term of a strict target) are kept verbatim. A
rewritten certificate is **accepted only when the kernel checks it** (``check_close``) and its
text is shorter; otherwise the original stays. Floats only propose; nothing is trusted.
:func:`shrink_proof` applies this to a whole proof (a copy: saved proof files are not changed),
within a time budget.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from fractions import Fraction
from math import floor, gcd, log10

import flint
import numpy as np
import scipy.linalg
import sympy as sp

from prover.ir import Goal, Proof, Step, expr_from_str, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate, SosTerm
from prover.solvers.rational_linalg import nullspace, poly_add, poly_mul, to_fmpq

#: Certificates whose JSON text is shorter than this are left alone (already small).
MIN_CERT_CHARS = 4_000
#: Default time budget of :func:`shrink_proof` for a whole proof (seconds). The work is bounded
#: by ``MAX_UNKNOWNS``; the budget is a safety net set high so that the rendered text does not
#: depend on the machine's load (the same proof renders to the same file).
PROOF_BUDGET_S = 60.0
#: Certificates whose coefficient equations would have more unknowns than this are left alone
#: (the exact echelon form would take longer than the budget).
MAX_UNKNOWNS = 1_500
#: A certificate of more than ``LARGE_CERT_CHARS`` characters (half the replay model's file
#: budget: its file would not fit) may have up to ``LARGE_MAX_UNKNOWNS`` unknowns. The saved
#: family proofs whose files went over the budget (SOS certificates of 0.25–1.3 M characters)
#: have 1,695–1,945 unknowns and shrink in 3–7 s (Intel Xeon, 2 cores, 2026-12-07); the many
#: small certificates with more unknowns (up to 43 k) stay as they are.
LARGE_CERT_CHARS = 100_000
LARGE_MAX_UNKNOWNS = 3_000

Exp = tuple[int, ...]
PolyDict = dict[Exp, flint.fmpq]


class _Fail(Exception):
    """This attempt gives no certificate (the caller keeps the original)."""


# ---------------------------------------------------------------- numbers and polynomials


_q = to_fmpq


def _f(x: flint.fmpq) -> float:
    return float(Fraction(int(x.p), int(x.q)))


def _round(x: float, den: int) -> flint.fmpq:
    return flint.fmpq(round(x * den), den)


def _round_down_sig(x: float, digits: int) -> flint.fmpq:
    """The largest number ``≤ x`` with about ``digits`` significant decimal digits (``x > 0``)."""
    e = digits - 1 - floor(log10(x))
    if e >= 0:
        return flint.fmpq(floor(x * 10 ** e), 10 ** e)
    return flint.fmpq(floor(x / 10 ** (-e)) * 10 ** (-e))


def _poly(text: str, syms: list[sp.Symbol], variables: tuple[str, ...]) -> PolyDict:
    e = expr_from_str(text, list(variables))
    try:
        P = sp.Poly(sp.expand(e), *syms, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
        raise _Fail("not a polynomial") from None
    return {tuple(m): _q(sp.Rational(c)) for m, c in P.as_dict().items() if c != 0}


_mul = poly_mul
_add = poly_add


def _text(p: PolyDict, syms: list[sp.Symbol]) -> str:
    e = sp.Add(*[sp.Rational(int(c.p), int(c.q)) * sp.Mul(*[s ** k for s, k in zip(syms, m)]) for m, c in p.items()])
    return expr_to_str(e)


def _primitive(p: PolyDict) -> tuple[flint.fmpq, PolyDict]:
    """``p = s·p'`` with ``p'`` integer coprime; returns ``(s, p')``."""
    den = 1
    for c in p.values():
        den = den * int(c.q) // gcd(den, int(c.q))
    g = 0
    for c in p.values():
        g = gcd(g, int(c.p) * (den // int(c.q)))
    s = flint.fmpq(g, den)
    return s, {m: c / s for m, c in p.items()}


def _rational_kernel(X: np.ndarray, max_den: int = 200) -> list[list[flint.fmpq]]:
    """Rows spanning the numerical kernel of a PSD matrix, rounded to small denominators."""
    w, V = np.linalg.eigh((X + X.T) / 2)
    top = max(float(w[-1]), 1.0)
    K = V[:, w < 1e-7 * top]
    d = K.shape[1]
    if d == 0:
        return []
    _, _, piv = scipy.linalg.qr(K.T, pivoting=True)
    P = sorted(piv[:d])
    B = K @ np.linalg.inv(K[P, :])          # identity on the rows P
    out = []
    for c in range(d):
        out.append([_q(Fraction(float(B[i, c])).limit_denominator(max_den)) for i in range(B.shape[0])])
    return out


# ---------------------------------------------------------------- one block


@dataclass
class _Block:
    mult: tuple[int, ...]
    mpoly: PolyDict
    u: list[PolyDict]            # face basis polynomials
    X: np.ndarray                # numerical Gram matrix in the u basis


def _block(mult: tuple[int, ...], mpoly: PolyDict, squares: list[tuple[flint.fmpq, PolyDict]]) -> _Block:
    monos = sorted({m for _, q in squares for m in q})
    idx = {m: i for i, m in enumerate(monos)}
    n = len(monos)
    Q = [[flint.fmpq(0)] * n for _ in range(n)]
    for c, q in squares:
        items = [(idx[m], v) for m, v in q.items()]
        for i, a in items:
            ca = c * a
            for j, b in items:
                if j >= i:
                    Q[i][j] += ca * b
    for i in range(n):
        for j in range(i):
            Q[i][j] = Q[j][i]
    Qf = np.array([[_f(x) for x in row] for row in Q])
    kern = _rational_kernel(Qf)
    N = nullspace(kern, n)            # columns of the face, identity on the free coordinates
    if not N:
        raise _Fail("empty face")
    free = [next(i for i in range(n) if v[i] == 1 and all(w[i] == 0 for w in N if w is not v)) for v in N]
    u = [{monos[i]: v[i] for i in range(n) if v[i] != 0} for v in N]
    X = Qf[np.ix_(free, free)]
    return _Block(mult, mpoly, u, X)


def _rounded_factor(X: np.ndarray, den: int) -> tuple[np.ndarray, list[list[flint.fmpq]]]:
    """``X ≈ L̃ diag(d) L̃ᵀ`` with ``L̃`` unit lower triangular, rounded at ``den``: (d, columns of L̃)."""
    C = np.linalg.cholesky(X)
    d = np.diag(C) ** 2
    L = C / np.diag(C)
    r = X.shape[0]
    cols = [[flint.fmpq(1) if j == i else (_round(float(L[j, i]), den) if j > i else flint.fmpq(0))
             for j in range(r)] for i in range(r)]
    return d, cols


# ---------------------------------------------------------------- the certificate


@dataclass
class _Problem:
    goal: Goal
    syms: list[sp.Symbol]
    p: PolyDict                             # target slack minus the fixed terms
    fixed: list[dict]                       # terms kept verbatim
    blocks: list[_Block]
    eqs: list[tuple[int, PolyDict, list[Exp], np.ndarray]]   # (hyp, eq poly, λ basis, λ numeric)


def _read(goal: Goal, cert: dict) -> _Problem:
    from prover.solvers.rational_linalg import monomials
    from prover.solvers.sos import poly_problem

    pp = poly_problem(goal)
    if pp is None:
        raise _Fail("target is not polynomial")
    syms = list(pp.syms)
    vs = goal.variables
    slack = {h: s for h, s, _ in pp.ineqs}
    eqd = dict(pp.eqs)
    p = dict(pp.p)
    fixed: list[dict] = []
    groups: dict[tuple[int, ...], list[tuple[flint.fmpq, PolyDict]]] = {}
    mpolys: dict[tuple[int, ...], PolyDict] = {}
    one: PolyDict = {tuple([0] * len(syms)): flint.fmpq(1)}
    for t in cert.get("terms", []):
        c = _q(t["coeff"])
        mult = tuple(int(k) for k in t.get("mult", []))
        if any(k not in slack for k in mult):
            raise _Fail("multiplier is not a polynomial inequality")
        if mult not in mpolys:
            mp = one
            for k in mult:
                mp = _mul(mp, slack[k])
            mpolys[mult] = mp
        q = _poly(t["poly"], syms, vs)
        if c == 0 or not q:
            continue
        if all(not any(m) for m in q):          # a constant square: kept as it is
            fixed.append(t)
            p = _add(p, _mul(mpolys[mult], _mul(q, q)), -c)
            continue
        groups.setdefault(mult, []).append((c, q))
    blocks = [_block(mult, mpolys[mult], sq) for mult, sq in groups.items()]
    eqs = []
    for t in cert.get("eq_terms", []):
        k = int(t["hyp"])
        if k not in eqd:
            raise _Fail("eq_terms hypothesis is not a polynomial equality")
        lam = _poly(t["poly"], syms, vs)
        deg = max((sum(m) for m in lam), default=0)
        basis = monomials(len(syms), deg, homogeneous=False)
        num = np.array([_f(lam.get(m, flint.fmpq(0))) for m in basis])
        eqs.append((k, eqd[k], basis, num))
    return _Problem(goal, syms, p, fixed, blocks, eqs)


class _System:
    """The coefficient equations of ``Σ_k m_k·sᵀE_k s + Σ λ·eq = p`` over the unknowns ``E_k``
    (symmetric, in the basis ``s`` of block ``k``) and the λ coefficients, in reduced echelon
    form. Columns are ordered λ, diagonal, off-diagonal, so pivots fall first on unconstrained
    unknowns, then on the dominant ones."""

    def __init__(self, P: _Problem, bases: list[list[PolyDict]]):
        cols: list[PolyDict] = []
        layout: list[tuple] = []
        for j, (_, e, basis, _) in enumerate(P.eqs):
            for i, mu in enumerate(basis):
                cols.append({tuple(a + b for a, b in zip(m, mu)): c for m, c in e.items()})
                layout.append(("L", j, i, 0))
        prods = [[_mul(b.mpoly, x) for x in s] for b, s in zip(P.blocks, bases)]
        for k, s in enumerate(bases):
            for i in range(len(s)):
                cols.append(_mul(prods[k][i], s[i]))
                layout.append(("D", k, i, i))
        two = flint.fmpq(2)
        for k, s in enumerate(bases):
            for i in range(len(s)):
                for j in range(i + 1, len(s)):
                    cols.append({m: c * two for m, c in _mul(prods[k][i], s[j]).items()})
                    layout.append(("O", k, i, j))
        monos: dict[Exp, int] = {}
        for col in cols:
            for m in col:
                monos.setdefault(m, len(monos))
        for m in P.p:
            monos.setdefault(m, len(monos))
        self.monos = list(monos)
        self.layout = layout
        m, n = len(self.monos), len(cols)
        entries = [flint.fmpq(0)] * (m * (n + m))
        for j, col in enumerate(cols):
            for mono, c in col.items():
                entries[monos[mono] * (n + m) + j] = c
        for i in range(m):
            entries[i * (n + m) + n + i] = flint.fmpq(1)
        R, rank = flint.fmpq_mat(m, n + m, entries).rref()
        self.pivots: list[int] = []
        for i in range(rank):
            j = next(j for j in range(n + m) if R[i, j] != 0)
            if j >= n:
                break                      # the remaining rows are relations among the equations
            self.pivots.append(j)
        self.rank = len(self.pivots)
        self.R, self.n, self.m = R, n, m

    def solve(self, rhs: PolyDict, free: list[flint.fmpq]) -> list[flint.fmpq] | None:
        """The exact solution with the free unknowns at ``free`` (pivot entries ignored), or
        None when ``rhs`` is outside the span of the columns."""
        n, m, R = self.n, self.m, self.R
        b = [rhs.get(mono, flint.fmpq(0)) for mono in self.monos]
        nz = [j for j in range(m) if b[j] != 0]
        tb = []
        for i in range(R.nrows()):
            acc = flint.fmpq(0)
            for j in nz:
                c = R[i, n + j]
                if c != 0:
                    acc += c * b[j]
            tb.append(acc)
        if any(tb[i] != 0 for i in range(self.rank, R.nrows())):
            return None
        pivset = set(self.pivots)
        x = [flint.fmpq(0) if j in pivset else free[j] for j in range(n)]
        fz = [j for j in range(n) if j not in pivset and x[j] != 0]
        for i, pj in enumerate(self.pivots):
            acc = tb[i]
            for j in fz:
                c = R[i, j]
                if c != 0:
                    acc -= c * x[j]
            x[pj] = acc
        return x


def _attempt(P: _Problem, S: _System, den: int, digits: int) -> dict | None:
    """One rounding: ``X − δI ≈ L̃ D̃ L̃ᵀ`` with ``L̃`` at denominator ``den`` and ``D̃`` (rounded
    down) with ``digits`` significant digits; the rest ``Σ m·uᵀRu + Σ λ·eq`` solved exactly with
    the free unknowns of ``R`` at ``δ`` (diagonal) and 0 (off-diagonal). None unless every ``R``
    is diagonally dominant."""
    terms: list[tuple[flint.fmpq, PolyDict, tuple[int, ...]]] = []
    rhs = dict(P.p)
    deltas = []
    for b in P.blocks:
        w = np.linalg.eigvalsh(b.X)
        if float(w[0]) <= 1e-9 * max(1.0, float(w[-1])):
            raise _Fail("singular face")
        delta = 0.5 * float(w[0])
        deltas.append(delta)
        d, cols = _rounded_factor(b.X - delta * np.eye(len(b.u)), den)
        for di, col in zip(d, cols):
            s: PolyDict = {}
            for j, c in enumerate(col):
                if c != 0:
                    s = _add(s, b.u[j], c)
            dq = _round_down_sig(float(di), digits)
            rhs = _add(rhs, _mul(b.mpoly, _mul(s, s)), -dq)
            terms.append((dq, s, b.mult))
    free: list[flint.fmpq] = []
    for lay in S.layout:
        if lay[0] == "L":
            free.append(_round(float(P.eqs[lay[1]][3][lay[2]]), 10 ** digits))
        elif lay[0] == "D":
            free.append(_round_down_sig(deltas[lay[1]], digits))
        else:
            free.append(flint.fmpq(0))
    x = S.solve(rhs, free)
    if x is None:
        return None
    lam: dict[int, PolyDict] = {}
    R: list[dict[tuple[int, int], flint.fmpq]] = [{} for _ in P.blocks]
    for v, lay in zip(x, S.layout):
        if v == 0:
            continue
        if lay[0] == "L":
            lam.setdefault(lay[1], {})[P.eqs[lay[1]][2][lay[2]]] = v
        else:
            R[lay[1]][(lay[2], lay[3])] = v
    for k, b in enumerate(P.blocks):
        Rk, u = R[k], b.u
        rest = {i: Rk.get((i, i), flint.fmpq(0)) for i in range(len(u))}
        for (i, j), v in Rk.items():
            if i != j:
                rest[i] -= abs(v)
                rest[j] -= abs(v)
        if any(v < 0 for v in rest.values()):
            return None                      # not diagonally dominant
        for i, v in rest.items():
            if v > 0:
                terms.append((v, u[i], b.mult))
        for (i, j), v in Rk.items():
            if i != j:
                terms.append((abs(v), _add(u[i], u[j], flint.fmpq(1 if v > 0 else -1)), b.mult))
    return _json(P, terms, lam)


def _json(P: _Problem, terms: list[tuple[flint.fmpq, PolyDict, tuple[int, ...]]], lam: dict[int, PolyDict]) -> dict:
    merged: dict[tuple, list] = {}            # equal squares with equal multipliers: one term
    for c, s, mult in terms:
        g, s1 = _primitive(s)
        key = (mult, tuple(sorted(s1.items())))
        if key in merged:
            merged[key][0] += c * g * g
        else:
            merged[key] = [c * g * g, s1, mult]
    out_terms = [SosTerm(str(sp.Rational(int(coeff.p), int(coeff.q))), _text(s1, P.syms), tuple(mult))
                 for coeff, s1, mult in merged.values()]
    out_terms += [SosTerm.from_json(t) for t in P.fixed]
    eq_terms = [EqTerm(P.eqs[j][0], _text(lp, P.syms)) for j, lp in sorted(lam.items())]
    return SosCertificate(tuple(out_terms), tuple(eq_terms)).to_json()


#: (denominator of L̃, significant digits of the diagonal and λ targets), coarse to fine.
_TRIES = ((1000, 4), (10 ** 4, 5), (10 ** 5, 6), (10 ** 6, 7), (10 ** 8, 9))


def shrink_close(goal: Goal, cert: dict, *, deadline: float | None = None) -> dict | None:
    """A kernel-checked SOS certificate for ``goal`` with short rationals, shorter than ``cert``
    as JSON text, or None."""
    from prover.kernel.check import KernelError, check_close

    if cert.get("method") != "sos" or goal.target.op in ("=", "!="):
        return None
    deadline = deadline if deadline is not None else time.monotonic() + PROOF_BUDGET_S
    size = len(json.dumps(cert))
    try:
        P = _read(goal, cert)
        unknowns = sum(len(b.u) * (len(b.u) + 1) // 2 for b in P.blocks) + sum(len(e[2]) for e in P.eqs)
        if time.monotonic() > deadline or unknowns > (LARGE_MAX_UNKNOWNS if size > LARGE_CERT_CHARS else MAX_UNKNOWNS):
            return None
        S = _System(P, [b.u for b in P.blocks])
    except (_Fail, np.linalg.LinAlgError, ValueError, ZeroDivisionError, KeyError, TypeError, StopIteration):
        return None
    for den, digits in _TRIES:
        if time.monotonic() > deadline:
            return None
        try:
            new = _attempt(P, S, den, digits)
        except (_Fail, np.linalg.LinAlgError, ValueError, ZeroDivisionError):
            return None
        if new is None:
            continue
        if len(json.dumps(new)) >= size:
            return None
        try:
            check_close(goal, new)
        except KernelError:
            continue
        return new
    return None


# ---------------------------------------------------------------- whole proofs


def shrink_step(step: Step, deadline: float) -> Step:
    """A copy of ``step``'s tree with every large SOS certificate shrunk (when the kernel
    accepts the smaller one) until ``deadline``."""
    cert = step.certificate
    if (step.kind == "close" and cert.get("method") == "sos" and time.monotonic() < deadline
            and len(json.dumps(cert)) >= MIN_CERT_CHARS):
        try:
            new = shrink_close(step.goal, cert, deadline=deadline)
        except Exception:  # noqa: BLE001 - shrinking is optional: any defect keeps the original
            new = None
        if new is not None:
            cert = new
    kids = [shrink_step(c, deadline) for c in step.children]
    return Step(step.kind, step.goal, list(step.subgoals), cert, kids, step.note)


def shrink_proof(proof: Proof, *, budget_s: float = PROOF_BUDGET_S) -> Proof:
    """``proof`` with its large SOS certificates replaced by kernel-checked short ones (a new
    object: ``proof`` and its file are untouched). Steps past the time budget keep theirs."""
    deadline = time.monotonic() + budget_s
    if proof.parts:    # a conjunction goal: every part's tree
        parts = [shrink_step(r, deadline) for r in proof.parts]
        return Proof(proof.problem, parts[0], dict(proof.meta), parts=parts)
    root = shrink_step(proof.root, deadline)
    return Proof(proof.problem, root, dict(proof.meta))
