"""The closer: normalise a goal to polynomial form, then try, within the time limit,
positivity, SOS (with multipliers; then after multiplying by ``(Σx)^k``), and difference
substitution. Returns a ``Step`` tree whose root's goal is the given goal, or None."""

from __future__ import annotations

import time

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import LinearCertificate, PositivityCertificate, SosCertificate
from prover.normalize.pipeline import (
    Normalized,
    normalize,
    obviously_positive,
    positive_vars,
    product_constraint_substitute,
)
from prover.problem import Relation, var
from prover.solvers.difference_substitution import monomial_certificate, nonneg_hyp_index, sds_close
from prover.solvers.sos import sos_certificate


def _close(goal: Goal, cert: dict, note: str) -> Step:
    return Step("close", goal, [], cert, note=note)


def _no_lemmas(name: str) -> None:
    """Lemma lookup for checking close steps, which use no catalogue lemma: none is found."""


#: Largest power of a compound base that :func:`close_trivial` expands to look for an identity.
TRIVIAL_MAX_POWER = 30


def _looks_nonneg(e: sp.Expr, nonneg: set[sp.Symbol]) -> bool:
    """A fast syntactic filter (no proof): ``e`` is built from nonnegative pieces — rationals
    ``>= 0``, variables with a sign hypothesis, even powers, square roots (``√`` is ``>= 0`` in
    Lean, also of a negative number), ``|·|``, ``exp`` — by ``+``, ``·`` and powers."""
    if e.is_Rational:
        return bool(e >= 0)
    if e.is_Symbol:
        return e in nonneg
    if e.is_Add or e.is_Mul:
        return all(_looks_nonneg(a, nonneg) for a in e.args)
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Integer and ex % 2 == 0 or ex.is_Rational and ex.q == 2:
            return True
        return _looks_nonneg(base, nonneg)
    return isinstance(e, (sp.Abs, sp.exp))


def _looks_identity(e: sp.Expr) -> bool:
    """Does sympy expand ``e`` to 0 (skipped when a compound base has a large power)?"""
    for t in e.atoms(sp.Pow):
        if not t.base.is_Atom and t.exp.is_Integer and abs(t.exp) > TRIVIAL_MAX_POWER:
            return False
    return sp.expand(e) == 0


def close_trivial(goal: Goal) -> Step | None:
    """A one-step proof of a goal that needs no search, checked by the kernel here (so only
    accepted steps come out): an ``=`` target that is an identity (``a = a``,
    ``(a+b)^2 = a^2 + 2*a*b + b^2``: an sos certificate with no terms), or a target the
    positivity rules prove as it stands (``√x ≥ 0``, ``x^2 ≥ 0``, ``a^2 + b^2 ≥ 0``).
    A quick syntactic look decides whether the kernel is asked at all (it can take seconds to
    refuse a large goal)."""
    from prover.kernel.check import check_step

    slack = goal.target.slack()
    if goal.target.op == "=":
        if not _looks_identity(slack):
            return None
        step = _close(goal, SosCertificate().to_json(), "identity")
    elif goal.target.op == "!=":
        return None
    else:
        if not _looks_nonneg(slack, positive_vars(goal)[1]):
            return None
        step = _close(goal, PositivityCertificate().to_json(), "positivity")
    return step if check_step(step, _no_lemmas).ok else None


def _positivity(goal: Goal) -> Step | None:
    sv, nv = positive_vars(goal)
    if obviously_positive(goal.target.slack(), sv, nv, strict=goal.target.strict):
        return _close(goal, PositivityCertificate().to_json(), "positivity")
    return None


def _sos_leaf(goal: Goal, time_limit: float) -> Step | None:
    cert = sos_certificate(goal, time_limit)
    return _close(goal, cert, "sos") if cert is not None else None


def multiply_by_sum(goal: Goal, k: int) -> Step | None:
    """Rewrite ``p >= 0`` as ``(Σx)^k · p >= 0`` (multiplier ``1/(Σx)^k``, positive) over the
    variables of the target that are known nonnegative."""
    hyp = nonneg_hyp_index(goal)
    p = goal.target.slack()
    vs = [v for v in goal.variables if var(v) in p.free_symbols]
    if not vs or any(v not in hyp for v in vs):
        return None
    s = sp.Add(*[var(v) for v in vs])
    sv, nv = positive_vars(goal)
    if not obviously_positive(s, sv, nv, strict=True):
        return None
    target = Relation(sp.expand(s ** k * p), ">" if goal.target.strict else ">=", sp.Integer(0))
    sub = goal.with_target(target)
    cert = LinearCertificate(expr_to_str(1 / s ** k)).to_json()
    return Step("rewrite", goal, [sub], cert, note=f"multiply by (sum)^{k}")


def close_polynomial(goal: Goal, deadline: float) -> Step | None:
    """Close a goal whose target slack is a polynomial."""
    st = _positivity(goal)
    if st is not None:
        return st
    cert = monomial_certificate(goal, goal.target.slack()) if not goal.target.strict else None
    if cert is not None:
        return _close(goal, cert, "nonnegative coefficients")
    left = deadline - time.monotonic()
    st = _sos_leaf(goal, min(left, max(2.0, 0.3 * left)))
    if st is not None:
        return st
    left = deadline - time.monotonic()
    if left > 0.5:
        st = sds_close(goal, min(left, max(2.0, 0.25 * left)),
                       fallback=lambda g, t: sos_certificate(g, t))
        if st is not None:
            return st
    for k in (1, 2):
        left = deadline - time.monotonic()
        if left <= 0.5:
            return None
        rw = multiply_by_sum(goal, k)
        if rw is None:
            break
        leaf = _sos_leaf(rw.subgoals[0], left if k == 2 else max(2.0, 0.6 * left))
        if leaf is not None:
            rw.children = [leaf]
            return rw
    return None


def close_goal(goal: Goal, time_limit: float = 10.0) -> Step | None:
    """A kernel-checkable proof tree for ``goal``, or None within ``time_limit`` seconds.
    Never raises on a goal it cannot handle (a solver failure means: no proof)."""
    try:
        return _close_goal(goal, time_limit)
    except (ArithmeticError, ValueError, TypeError, AttributeError, KeyError, IndexError,
            NotImplementedError, RecursionError, sp.PolynomialError):
        return None


def _close_goal(goal: Goal, time_limit: float) -> Step | None:
    deadline = time.monotonic() + time_limit
    st = close_trivial(goal)
    if st is not None:
        return st
    if not goal.target.is_inequality:
        return None
    tried: list[Normalized] = []
    variants: list[tuple[float, dict]] = [(0.6, {"homogenize": True}), (1.0, {"homogenize": False})]
    if product_constraint_substitute(goal) is not None:   # x1⋯xn = 1: make it homogeneous first
        variants.insert(0, (0.5, {"product_substitution": True}))
    for share, opts in variants:
        left = deadline - time.monotonic()
        if left <= 0.5:
            break
        try:
            norm = normalize(goal, **opts)
        except (sp.PolynomialError, ValueError, TypeError, ZeroDivisionError):
            continue
        if norm.goal is None or any(_same(norm, t) for t in tried):
            continue
        tried.append(norm)
        left = deadline - time.monotonic()
        leaf = close_polynomial(norm.goal, time.monotonic() + share * left)
        if leaf is not None:
            return norm.attach(leaf)
    return None


def _same(a: Normalized, b: Normalized) -> bool:
    return a.goal == b.goal
