"""The closer the search calls on every goal: a one-step proof when none is needed
(:func:`close_trivial`), else the goal in the closers' normal form
(:func:`prover.rewrite.chain.normalize`, with and without homogenisation) finished by the
registered closers (:func:`prover.solvers.closers.default_closers`); an ``=`` goal goes, as
stated, to the closers marked ``equalities`` (ideal membership). Returns a ``Step`` tree whose
root's goal is the given goal, or None."""

from __future__ import annotations

import time
from collections.abc import Sequence

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import PositivityCertificate, SosCertificate
from prover.rewrite.chain import Normalized, normalize
from prover.rewrite.monotone import MonotonePeel
from prover.rewrite.rational_peel import RationalPeel
from prover.rewrite.substitute import ProductOneRatios
from prover.rewrite.tangent import tangent_line_step
from prover.solvers.closers import Closer, close_polynomial, close_step, default_closers
from prover.solvers.signs import positive_vars


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
    absurd = _absurd(goal)
    if absurd is not None:
        return absurd
    if goal.target.op == "=":
        if not _looks_identity(slack):
            return None
        step = close_step(goal, SosCertificate().to_json(), "identity")
    elif goal.target.op == "!=":
        return None
    else:
        if not _looks_nonneg(slack, positive_vars(goal, False)):
            return None
        step = close_step(goal, PositivityCertificate().to_json(), "positivity")
    return step if check_step(step, _no_lemmas).ok else None


def _absurd(goal: Goal) -> Step | None:
    """A goal under a false numeric equality hypothesis ``c = d`` (``c ≠ d``; e.g. a constraint on
    sums at n = 0): ``slack(target) = (slack(target) / (c − d)) · (c − d)``, one ``eq_terms`` entry."""
    from prover.kernel.certificates import EqTerm
    from prover.kernel.check import check_step

    if goal.target.op == "!=":
        return None
    for i, h in enumerate(goal.hypotheses):
        gap = h.lhs - h.rhs
        if h.op == "=" and gap.is_Rational and gap != 0:
            cert = SosCertificate(eq_terms=(EqTerm(i, expr_to_str(goal.target.slack() / gap)),))
            step = close_step(goal, cert.to_json(), "a false hypothesis")
            return step if check_step(step, _no_lemmas).ok else None
    return None


def close_goal(goal: Goal, time_limit: float = 10.0, closers: Sequence[Closer] | None = None) -> Step | None:
    """A kernel-checkable proof tree for ``goal``, or None within ``time_limit`` seconds: the
    goal in normal form (:func:`prover.rewrite.chain.normalize`), then ``closers`` (default
    :func:`default_closers`). Never raises on a goal it cannot handle (a solver failure means:
    no proof)."""
    try:
        return _close_goal(goal, time_limit, closers)
    except (ArithmeticError, ValueError, TypeError, AttributeError, KeyError, IndexError,
            NotImplementedError, RecursionError, sp.PolynomialError):
        return None


#: Peel candidates tried under a constraint before the tangent line (each costs one tangent attempt).
MAX_PEELS = 3


def peeled_tangent_step(goal: Goal) -> Step | None:
    """A monotone or rational peel (``S/(1+S) ≤ 1/2`` → ``S ≤ 1``) whose first subgoal the tangent
    line closes and whose other subgoals (the difference quotient's sign) :func:`close_trivial`
    does; None otherwise. Only under an equality constraint, where tangent lines live: the
    transformations ``t ↦ t/(1+t)``, ``t ↦ t²`` of a tangent-line sum otherwise reach the closers
    whole and come back as one large cleared polynomial."""
    if not any(h.op == "=" for h in goal.hypotheses):
        return None
    tried = 0
    for gen in (MonotonePeel(), RationalPeel()):
        for cand in gen.generate(goal):
            if tried >= MAX_PEELS:
                return None
            tried += 1
            peel = cand.step
            first = tangent_line_step(peel.subgoals[0]) if peel.subgoals else None
            rest = [close_trivial(g) for g in peel.subgoals[1:]]
            if first is not None and all(r is not None for r in rest):
                peel.children = [first, *rest]
                return peel
    return None


def _close_goal(goal: Goal, time_limit: float, closers: Sequence[Closer] | None) -> Step | None:
    deadline = time.monotonic() + time_limit
    st = close_trivial(goal)
    if st is not None:
        return st
    if goal.target.op == "=":       # the closers for equalities, on the goal as stated
        eq_closers = [c for c in (default_closers() if closers is None else closers)
                      if getattr(c, "equalities", False)]
        return close_polynomial(goal, deadline, eq_closers) if eq_closers else None
    if not goal.target.is_inequality:
        return None
    if closers is None:      # per-term tangent lines first: a short certificate where one exists
        step = tangent_line_step(goal) or peeled_tangent_step(goal)
        if step is not None:
            return step
    tried: list[Normalized] = []
    variants: list[tuple[float, dict]] = [(0.6, {"homogenize": True}), (1.0, {"homogenize": False})]
    if ProductOneRatios().apply(goal) is not None:   # x1⋯xn = 1: make it homogeneous first
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
        leaf = close_polynomial(norm.goal, time.monotonic() + share * left, closers)
        if leaf is not None:
            return norm.attach(leaf)
    return None


def _same(a: Normalized, b: Normalized) -> bool:
    return a.goal == b.goal
