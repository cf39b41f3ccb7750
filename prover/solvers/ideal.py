"""Equalities from equality hypotheses: ideal membership over ℚ with explicit multipliers.

For a goal ``lhs = rhs`` under equality hypotheses ``Hₖ : aₖ = bₖ`` this finds rational functions
``λₖ`` with ``lhs − rhs = Σ λₖ · (aₖ − bₖ)`` exactly, the ``eq_terms`` of an
:class:`~prover.kernel.certificates.SosCertificate` with no square terms (the kernel's form of a
proof of an equality target; Lean: ``linear_combination Σ λₖ * hₖ``).

Method (nothing here is trusted; the kernel checks the identity and every denominator):

1. every slack is brought over one denominator, ``N/D``; atoms that are not polynomial (``√x``,
   ``exp``, real powers) become fresh variables — a square root of a positive rational
   ``√c`` also contributes the relation ``s² − c`` (true of the number, so its multiplier is
   dropped at the end);
2. the factors that may be inverted — of the denominators, of ``≠`` hypotheses and of strict
   inequality hypotheses — each get a variable ``tᵢ`` with ``tᵢ·fᵢ − 1`` (Rabinowitsch), so that
   ``x + 2/x = y + 2/y, x ≠ y ⊢ x·y = 2`` is in reach;
3. a Gröbner basis (sympy) decides membership of the goal's numerator ``N_g`` in the ideal of the
   hypotheses' numerators ``Nₖ`` and the relations above: a goal not in it is refused at once;
4. the cofactors ``N_g = Σ μₖ·Nₖ + Σ νᵢ·(tᵢfᵢ − 1) + …`` are found by exact linear algebra
   (python-flint) for multipliers of increasing degree; then ``tᵢ = 1/fᵢ`` and
   ``λₖ = μₖ · Dₖ / D_g``.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass

import flint
import sympy as sp

from prover.alarm import alarm_after
from prover.ir import Goal, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate
from prover.problem import var
from prover.solvers.rational_linalg import monomials, to_fmpq, to_rational

#: Variables (problem variables, atoms, inverse variables) above which nothing is attempted.
MAX_VARIABLES = 10
#: Inverse variables ``tᵢ`` at most (denominator factors first, then ``≠`` and strict hypotheses).
MAX_INVERSES = 5
#: Largest total degree of a generator or of the goal's numerator.
MAX_INPUT_DEGREE = 8
#: Degrees above the goal's numerator tried for ``Σ μₖ·Nₖ``.
EXTRA_DEGREE = 4
#: Unknown multiplier coefficients above which a degree is not tried.
MAX_UNKNOWNS = 4000


class _Timeout(Exception):
    pass


class _NotPolynomial(Exception):
    pass


@dataclass
class _Atoms:
    """Non-polynomial subterms replaced by fresh symbols; ``aux`` holds relations they satisfy."""

    subs: dict[sp.Expr, sp.Symbol]
    aux: list[sp.Expr]

    def symbol(self, e: sp.Expr) -> sp.Symbol:
        s = self.subs.get(e)
        if s is None:
            s = sp.Dummy(f"atom{len(self.subs)}")
            self.subs[e] = s
            if e.is_Pow and e.base.is_Rational and e.base > 0 and e.exp == sp.Rational(1, 2):
                self.aux.append(s ** 2 - e.base)
        return s

    def replace(self, e: sp.Expr) -> sp.Expr:
        if e.is_Rational or e.is_Symbol:
            return e
        if e.is_Add or e.is_Mul:
            return e.func(*[self.replace(a) for a in e.args])
        if e.is_Pow:
            base, ex = e.args
            if ex.is_Integer:
                return self.replace(base) ** ex
            if base.is_Rational and base > 0 and ex.is_Rational and ex.q == 2:
                return self.symbol(sp.sqrt(base)) ** ex.p     # c^(p/2) = (√c)^p
            return self.symbol(e)
        if e.is_number and not e.is_real:
            raise _NotPolynomial(str(e))
        return self.symbol(e)


def _fraction(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    num, den = sp.fraction(sp.cancel(sp.together(e)))
    return sp.expand(num), sp.expand(den)


def _monic_factors(e: sp.Expr, gens: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """The non-constant irreducible factors of a polynomial, each primitive with a positive
    leading coefficient (so that ``f`` and ``−f`` are one factor)."""
    if not e.free_symbols:
        return []
    _, factors = sp.factor_list(e, *gens)
    out = []
    for f, _k in factors:
        p = sp.Poly(f, *gens)
        if p.is_ground:
            continue
        p = p.primitive()[1]
        if p.LC() < 0:
            p = -p
        out.append(p.as_expr())
    return out


def ideal_certificate(goal: Goal, time_limit: float) -> SosCertificate | None:
    """An ``eq_terms``-only certificate for the equality ``goal`` from its equality hypotheses,
    or None (not an equality, not in the ideal, too large, or out of time)."""
    if goal.target.op != "=" or time_limit <= 0:
        return None
    eq_idx = [k for k, h in enumerate(goal.hypotheses) if h.op == "="]
    if not eq_idx:
        return None
    deadline = time.monotonic() + time_limit
    try:
        with _alarm(time_limit):
            return _certificate(goal, eq_idx, deadline)
    except (_Timeout, _NotPolynomial, sp.PolynomialError, sp.CoercionFailed, ValueError,
            TypeError, ZeroDivisionError, NotImplementedError, RecursionError):
        return None


def _alarm(seconds: float) -> contextlib.AbstractContextManager:
    """SIGALRM after ``seconds`` (Gröbner bases cannot be stopped otherwise), unless a timer of the
    caller is already running (``prover prove``'s limit, when closers are not isolated in a forked
    child): that one is never cancelled, and it bounds this call."""
    try:
        outer = signal.getitimer(signal.ITIMER_REAL)[0]
    except (AttributeError, ValueError):
        outer = 0.0
    return contextlib.nullcontext() if outer > 0 else alarm_after(seconds, _Timeout)


def _certificate(goal: Goal, eq_idx: list[int], deadline: float) -> SosCertificate | None:
    xs = [var(v) for v in goal.variables]
    atoms = _Atoms({}, [])
    g_num, g_den = _fraction(atoms.replace(goal.target.slack()))
    hyps = [_fraction(atoms.replace(goal.hypotheses[k].slack())) for k in eq_idx]
    # the factors that may be inverted: denominators, then ≠ and strict hypotheses
    base = xs + list(atoms.subs.values())
    invertible: list[sp.Expr] = []

    def add_factors(e: sp.Expr) -> None:
        if not e.free_symbols <= set(base) or not e.is_polynomial(*base):
            return
        for f in _monic_factors(e, base):
            if f not in invertible:
                invertible.append(f)

    for _, d in [(g_num, g_den), *hyps]:
        add_factors(d)
    for h in goal.hypotheses:
        if h.op in ("!=", "<", ">") and len(invertible) < MAX_INVERSES:
            n, _ = _fraction(h.slack())
            if n.is_polynomial(*base):
                add_factors(n)
    invertible = invertible[:MAX_INVERSES]
    ts = [sp.Dummy(f"inv{i}") for i in range(len(invertible))]
    # the generators: hypotheses' numerators (multipliers kept), then the relations (dropped)
    gens_exprs = [n for n, _ in hyps] + [t * f - 1 for t, f in zip(ts, invertible)] + list(atoms.aux)
    used = set(g_num.free_symbols).union(*[g.free_symbols for g in gens_exprs])
    syms = [s for s in base + ts if s in used]
    if not syms or len(syms) > MAX_VARIABLES:
        return None
    polys = [sp.Poly(g, *syms, domain="QQ") for g in gens_exprs]
    target = sp.Poly(g_num, *syms, domain="QQ")
    if target.is_zero:
        return None          # an identity: close_trivial's case
    live = [i for i, p in enumerate(polys) if not p.is_zero]
    if any(polys[i].total_degree() > MAX_INPUT_DEGREE for i in live) or target.total_degree() > MAX_INPUT_DEGREE:
        return None
    G = sp.groebner([polys[i] for i in live], *syms, order="grevlex", domain="QQ")
    if not G.contains(target):
        return None
    mus = _cofactors(target, [polys[i] for i in live], syms, deadline)
    if mus is None:
        return None
    full = dict(zip(live, mus))
    inverse = {t: 1 / f for t, f in zip(ts, invertible)}
    back = {s: e for e, s in atoms.subs.items()}
    eq_terms = []
    for j, k in enumerate(eq_idx):
        mu = full.get(j)
        if mu is None or mu.is_zero:
            continue
        d_k = hyps[j][1]
        text = _multiplier_text(mu.as_expr().subs(inverse) * d_k / g_den, back)
        if text is not None:
            eq_terms.append(EqTerm(k, text))
    if not eq_terms:
        return None
    return SosCertificate((), tuple(eq_terms))


def _multiplier_text(lam: sp.Expr, back: dict[sp.Symbol, sp.Expr]) -> str | None:
    """``λ`` as ``(N)/(f₁)/(f₂)…``, one division per irreducible factor of its denominator (the
    kernel proves each factor nonzero on its own: ``x ≠ 0`` and ``y ≠ 0`` give ``x·y ≠ 0`` only
    this way); None for 0."""
    num, den = sp.fraction(sp.cancel(sp.together(lam)))
    if num == 0:
        return None
    if not den.free_symbols:
        return expr_to_str(sp.factor(num / den).xreplace(back))
    c, factors = sp.factor_list(den)
    text = f"({expr_to_str(sp.factor(num / c).xreplace(back))})"
    for f, k in factors:
        text += f"/({expr_to_str(f.xreplace(back))})" * k
    return text


def _cofactors(target: sp.Poly, gens: list[sp.Poly], syms: list[sp.Symbol],
               deadline: float) -> list[sp.Poly] | None:
    """``μ`` with ``target = Σ μⱼ·gensⱼ`` exactly, of the least total degree found (each
    ``deg μⱼ + deg gensⱼ ≤ D`` for ``D = deg target, deg target + 1, …``), or None."""
    n = len(syms)
    t_dict = {m: to_fmpq(c) for m, c in target.as_dict().items()}
    g_dicts = [{m: to_fmpq(c) for m, c in g.as_dict().items()} for g in gens]
    g_degs = [g.total_degree() for g in gens]
    lo = max(target.total_degree(), max(g_degs))
    for D in range(lo, lo + EXTRA_DEGREE + 1):
        if time.monotonic() >= deadline:
            return None
        cols: list[tuple[int, tuple[int, ...]]] = []
        for j, dg in enumerate(g_degs):
            cols += [(j, m) for m in monomials(n, D - dg, homogeneous=False)]
        if len(cols) > MAX_UNKNOWNS:
            return None
        rows: dict[tuple[int, ...], int] = {}
        entries: list[tuple[int, int, flint.fmpq]] = []
        for c, (j, m) in enumerate(cols):
            for gm, gc in g_dicts[j].items():
                mono = tuple(a + b for a, b in zip(m, gm))
                r = rows.setdefault(mono, len(rows))
                entries.append((r, c, gc))
        if any(m not in rows for m in t_dict):
            continue
        ncols = len(cols) + 1
        M = flint.fmpq_mat(len(rows), ncols)
        for r, c, v in entries:
            M[r, c] += v
        for m, v in t_dict.items():
            M[rows[m], len(cols)] = v
        sol = _particular_solution(M, len(cols))
        if sol is None:
            continue
        mus: list[dict] = [{} for _ in gens]
        for c, v in enumerate(sol):
            if v != 0:
                j, m = cols[c]
                mus[j][m] = to_rational(v)
        return [sp.Poly.from_dict(mu, *syms, domain="QQ") if mu else sp.Poly(0, *syms, domain="QQ") for mu in mus]
    return None


def _particular_solution(M: flint.fmpq_mat, nunk: int) -> list[flint.fmpq] | None:
    """A solution of ``A x = b`` for the augmented ``M = [A | b]`` (free unknowns 0), or None."""
    R, rank = M.rref()
    sol = [flint.fmpq(0)] * nunk
    for i in range(rank):
        piv = next(j for j in range(nunk + 1) if R[i, j] != 0)
        if piv == nunk:
            return None          # 0 = 1: inconsistent
        sol[piv] = R[i, nunk]
    return sol
