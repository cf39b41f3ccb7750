"""Difference substitution (SDS) for polynomial goals on the nonnegative orthant.

Split on the ordering of the variables (one case per orbit when the goal is symmetric or
cyclic — the kernel re-checks the invariance), then in the case ``v1 >= v2 >= … >= vn``
substitute ``vn = s_n``, ``v_i = s_i + v_{i+1}`` (all ``s >= 0``). If every coefficient of the
expanded target is nonnegative, the case closes with a ``sos`` certificate whose terms are the
monomials themselves (odd powers as hypothesis multipliers, even parts as squares); otherwise a
given fallback closer (SOS with multipliers) is tried on the substituted goal.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import OrderSplit, SosCertificate, SosTerm, SubstituteCertificate
from prover.problem import Relation, var

CertificateOracle = Callable[[Goal, float], dict | None]


def nonneg_hyp_index(goal: Goal) -> dict[str, int]:
    """Variable name -> index of a hypothesis ``x >= 0`` or ``x > 0`` for it."""
    out: dict[str, int] = {}
    for i, h in enumerate(goal.hypotheses):
        if h.is_inequality:
            s = sp.expand(h.slack())
            if s.is_Symbol and str(s) in goal.variables and str(s) not in out:
                out[str(s)] = i
    return out


def _perm_goal(goal: Goal, perm: dict[sp.Symbol, sp.Symbol]) -> tuple[sp.Expr, set]:
    t = sp.expand(goal.target.slack().subs(perm, simultaneous=True))
    hs = {(sp.expand(h.slack().subs(perm, simultaneous=True)), h.op) for h in goal.hypotheses}
    return t, hs


def symmetry(goal: Goal, names: list[str]) -> str | None:
    """``"full"``/``"cyclic"`` when target and hypothesis set are invariant, else None."""
    syms = [var(v) for v in names]
    base_t = sp.expand(goal.target.slack())
    base_h = {(sp.expand(h.slack()), h.op) for h in goal.hypotheses}

    def invariant(images: list[sp.Symbol]) -> bool:
        t, hs = _perm_goal(goal, dict(zip(syms, images)))
        return sp.expand(t - base_t) == 0 and hs == base_h

    n = len(syms)
    if n < 2:
        return None
    cyc = syms[1:] + syms[:1]
    if not invariant(cyc):
        return None
    if n == 2 or invariant([syms[1], syms[0]] + syms[2:]):
        return "full"
    return "cyclic"


def orbit_representatives(names: list[str], sym: str | None) -> list[list[str]]:
    perms = [list(p) for p in itertools.permutations(names)]
    if sym == "full":
        return [list(names)]
    if sym == "cyclic":
        seen, reps = set(), []
        n = len(names)
        for p in perms:
            key = tuple(p)
            if key in seen:
                continue
            reps.append(p)
            for k in range(n):
                # rotating the variable names maps ordering p to its image under the k-th rotation
                rot = {names[i]: names[(i + k) % n] for i in range(n)}
                seen.add(tuple(rot[x] for x in p))
        return reps
    return perms


def _fresh(goal: Goal, n: int) -> list[str]:
    out, i = [], 0
    while len(out) < n:
        name = f"d{i}"
        if name not in goal.variables:
            out.append(name)
        i += 1
    return out


def monomial_certificate(goal: Goal, p: sp.Expr) -> dict | None:
    """``p`` with nonnegative coefficients in variables that each have a hypothesis ``x >= 0``:
    each monomial is ``c · Π(odd-power variables) · (even part)²``."""
    syms = [var(v) for v in goal.variables]
    hyp = nonneg_hyp_index(goal)
    P = sp.Poly(sp.expand(p), *syms)
    terms: list[SosTerm] = []
    for m, c in P.terms():
        if c < 0:
            return None
        mult, q = [], sp.Integer(1)
        for s, e in zip(syms, m):
            if e % 2:
                if str(s) not in hyp:
                    return None
                mult.append(hyp[str(s)])
            q *= s ** (e // 2)
        terms.append(SosTerm(str(sp.Rational(c)), expr_to_str(q), tuple(mult)))
    return SosCertificate(tuple(terms)).to_json()


def sds_close(goal: Goal, time_limit: float, fallback: CertificateOracle | None = None) -> Step | None:
    """An order split + substitution proof of a polynomial goal, or None."""
    deadline = time.monotonic() + time_limit
    if goal.target.strict or not goal.target.is_inequality:
        return None
    hyp = nonneg_hyp_index(goal)
    names = [v for v in goal.variables if var(v) in goal.target.slack().free_symbols]
    if len(names) < 2 or len(names) > 4 or any(v not in hyp for v in names):
        return None
    sym = symmetry(goal, names)
    reps = orbit_representatives(names, sym)
    subgoals, children = [], []
    for order in reps:
        chain = tuple(Relation(var(order[i]), ">=", var(order[i + 1])) for i in range(len(order) - 1))
        case = goal.with_hypotheses(chain)
        child = _close_case(case, order, deadline, fallback)
        if child is None:
            return None
        subgoals.append(case)
        children.append(child)
    cert = OrderSplit(tuple(names), sym or "none", tuple(tuple(o) for o in reps) if sym else None)
    return Step("split", goal, subgoals, cert.to_json(), children, note="difference substitution")


def substitute_polynomial(p: sp.Expr, sub: dict[str, sp.Expr]) -> sp.Expr:
    """``p`` with variables replaced by polynomials, expanded — in a sparse polynomial ring
    (much faster than sympy's ``subs`` + ``expand`` on the degree-10 forms SDS meets)."""
    syms = sorted(p.free_symbols | {s for e in sub.values() for s in e.free_symbols}, key=str)
    R, *gens = sp.ring(syms, sp.QQ)
    by_sym = dict(zip(syms, gens))
    pr = R(sp.expand(p))
    images = [(by_sym[var(k)], R(e)) for k, e in sub.items() if var(k) in by_sym]
    return pr.compose(images).as_expr()


def _close_case(case: Goal, order: list[str], deadline: float, fallback: CertificateOracle | None) -> Step | None:
    n = len(order)
    new = _fresh(case, n)
    others = [v for v in case.variables if v not in order]
    sub: dict[str, sp.Expr] = {}
    inv: dict[str, sp.Expr] = {}
    for i, v in enumerate(order):
        sub[v] = sp.Add(*[var(new[j]) for j in range(i, n)])
        inv[new[i]] = var(v) - var(order[i + 1]) if i + 1 < n else var(v)
    target = Relation(substitute_polynomial(case.target.slack(), sub), ">=", sp.Integer(0))
    last = case.hypotheses[nonneg_hyp_index(case)[order[-1]]]
    hyps = tuple(Relation(var(x), ">=", sp.Integer(0)) for x in new[:-1]) + (
        Relation(var(new[-1]), ">" if last.strict else ">=", sp.Integer(0)),)
    g2 = Goal(tuple(others + new), hyps, target)
    cert = monomial_certificate(g2, target.lhs)
    if cert is None and fallback is not None:
        left = deadline - time.monotonic()
        if left <= 0.2:
            return None
        cert = fallback(g2, left)
    if cert is None:
        return None
    leaf = Step("close", g2, [], cert, note="difference substitution case")
    step_cert = SubstituteCertificate({k: expr_to_str(e) for k, e in sub.items()},
                                      {k: expr_to_str(e) for k, e in inv.items()})
    return Step("substitute", case, [g2], step_cert.to_json(), [leaf], note=f"order {' >= '.join(order)}")
