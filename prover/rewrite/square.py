"""Squaring with a proved sign: ``S <= L`` from ``0 <= L`` and ``S² <= L²`` (``square`` steps).

Why: after the roots are named (``u = √a``, ``u² = a``) a goal such as ``u + v <= w`` with
``w² = 2(u² + v²)`` has the certificate ``(w − u − v)(w + u + v) = (u − v)²``, which needs a
division by ``w + u + v`` (possibly 0); squaring both sides gives the polynomial goal
``(u + v)² <= w²``, which SOS closes modulo the equations ``u² = a`` …. The same removes ``|·|``
(``(|a|·|b|)² = a²b²``), which sympy makes of ``√(a²b²)``.

What is proposed (the kernel checks every step; nothing here is trusted):

* the **sides as written**: ``square`` with subgoals ``0 <= L`` and ``S² <= L²`` (``<`` for a
  strict goal), when ``L`` looks nonnegative (the sign helpers, after reducing ``w² → X`` by the
  root equations; the subgoal is still proved by the search) and a side holds a radical: ``|·|``,
  a named root (a variable ``w`` with ``w >= 0`` and ``w² = X`` among the hypotheses; odd powers
  only) or a square root; when positivity and SOS (the closers' normal form) finish both
  subgoals within ``CLOSE_TIME`` seconds, the same step is also proposed as a complete tree (the
  search would otherwise spend an expansion on each trivial subgoal);
* the **radical isolated**: the radical terms of the slack that come with a minus sign go to the
  small side, everything else to the big side (``a² + 2|ab| + b² <= t²`` becomes
  ``2|ab| <= t² − a² − b²``), as a ``rewrite`` step (``slack(G) = 1·slack(G')``); the next
  expansion squares it.

``S²``/``L²`` are expanded when they hold no root (sympy writes ``√x²`` as ``x``, Lean does not:
the kernel reads ``√x ^ 2`` as the square of an atom, so a side that is a root itself or a
product with one is not squared here; its root is named first by ``introduce``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step
from prover.kernel.certificates import PositivityCertificate, SquareCertificate
from prover.kernel.check import check_step
from prover.problem import Relation
from prover.rewrite.base import Candidate, big_small, is_positive, positive_vars, rewrite_step
from prover.rewrite.chain import normalize
from prover.rewrite.degree_parts import degree_parts
from prover.solvers.closers import close_polynomial, close_step

#: Terms of the slack above which no split into radical and other terms is tried.
MAX_TERMS = 60
#: Candidate scores: the sign subgoal ``0 <= L`` closes by positivity (one goal is then left, and
#: the search charges for two), or needs the root equations (an SOS certificate); an isolation.
SIGN_KNOWN, SIGN_MODULO_ROOTS, ISOLATE = 5.0, 2.0, 2.0
#: A square step whose two subgoals the closers finish at once is proposed as a complete tree
#: (scored like the other complete trees); seconds of closing per goal, both subgoals together.
CLOSED, CLOSE_TIME = 10.0, 1.5
#: Larger squared goals are left to the search (their SOS takes longer than ``CLOSE_TIME``).
CLOSE_MAX_TERMS = 40


def root_variables(goal: Goal) -> dict[sp.Symbol, sp.Expr]:
    """``w -> X`` for every variable with hypotheses ``w >= 0`` (or ``> 0``) and ``w**2 = X``."""
    nonneg = positive_vars(goal, False)
    out: dict[sp.Symbol, sp.Expr] = {}
    for h in goal.hypotheses:
        if h.op != "=":
            continue
        for lhs, rhs in ((h.lhs, h.rhs), (h.rhs, h.lhs)):
            lhs = sp.sympify(lhs)
            if lhs.is_Pow and lhs.exp == 2 and lhs.base in nonneg and lhs.base not in sp.sympify(rhs).free_symbols:
                out.setdefault(lhs.base, sp.sympify(rhs))
    return out


def _square_of(e: sp.Expr, syms: set) -> bool:
    e = sp.sympify(e)
    return bool(e.is_Pow and e.exp == 2 and e.base in syms)


def _is_root(n: sp.Expr) -> bool:
    return isinstance(n, sp.Pow) and n.exp.is_Rational and not n.exp.is_Integer and n.exp.q == 2


def has_radical(e: sp.Expr, roots: dict[sp.Symbol, sp.Expr]) -> bool:
    """``e`` holds ``|·|``, a square root, or an odd power of a named root."""
    for n in sp.preorder_traversal(e):
        if isinstance(n, sp.Abs) or _is_root(n):
            return True
    for term in sp.Add.make_args(sp.expand(e)):
        powers = term.as_powers_dict()
        if any(int(powers.get(w, 0)) % 2 == 1 for w in roots if w in term.free_symbols):
            return True
    return False


def reduce_roots(e: sp.Expr, roots: dict[sp.Symbol, sp.Expr], rounds: int = 3) -> sp.Expr:
    """``e`` with ``w^k`` → ``X^(k//2)·w^(k%2)`` for every named root ``w = √X`` (untrusted: a
    filter for the sign pre-check only)."""
    def repl(n: sp.Expr) -> sp.Expr:
        k = int(n.exp)
        return roots[n.base] ** (k // 2) * n.base ** (k % 2)

    for _ in range(rounds):
        new = sp.expand(sp.expand(e).replace(
            lambda n: n.is_Pow and n.base in roots and n.exp.is_Integer and n.exp >= 2, repl))
        if new == e:
            break
        e = new
    return e


def squared(e: sp.Expr) -> sp.Expr | None:
    """``e²`` as the kernel reads it, or None when sympy would turn a root's square into its
    argument: expanded when ``e`` holds no root (``|·|`` is fine: ``|f|² = f²`` in Lean and in
    the kernel's ``square`` rule, and so is a root of a constant: ``(√2)² = 2`` is one of the
    kernel's laws for constant roots), kept as ``e**2`` for a sum with roots of variables."""
    if not any(_is_root(n) and n.free_symbols for n in sp.preorder_traversal(e)):
        return sp.expand(e**2)
    return e**2 if e.is_Add else None


def isolated(goal: Goal, roots: dict[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, sp.Expr] | None:
    """``(S, L)`` with ``L − S`` the slack: the radical terms with a minus sign on the small side
    (or, when every radical term is positive, the radical terms on the big side)."""
    big, small = big_small(goal.target)
    slack = sp.expand(big - small)
    terms = sp.Add.make_args(slack)
    if len(terms) > MAX_TERMS:
        return None
    radical = [t for t in terms if has_radical(t, roots)]
    negative = [t for t in radical if t.as_coeff_Mul()[0] < 0]
    if negative:
        s = -sp.Add(*negative)
        return s, slack + s
    if radical:
        big_part = sp.Add(*radical)
        return big_part - slack, big_part
    return None


def square_step(goal: Goal, small: sp.Expr, big: sp.Expr) -> Step | None:
    """``square``: subgoals ``0 <= big`` and ``small² <= big²`` (strict as the goal)."""
    s2, b2 = squared(small), squared(big)
    if s2 is None or b2 is None:
        return None
    op = "<" if goal.target.strict else "<="
    subgoals = [goal.with_target(Relation(sp.Integer(0), "<=", big)), goal.with_target(Relation(s2, op, b2))]
    return Step("square", goal, subgoals, SquareCertificate().to_json(), note="square both sides (the big side is >= 0)")


def close_quickly(goal: Goal, deadline: float) -> Step | None:
    """A proof tree of ``goal`` by the kernel's positivity rules, else by the closers' normal form
    and SOS before ``deadline``; None otherwise (untrusted: the search has the kernel check it)."""
    slack = sp.expand(sp.sympify(goal.target.slack()))
    if all(t.as_coeff_Mul()[0] > 0 for t in sp.Add.make_args(slack)):
        # a sum of positive terms: positivity (a factored square is left to SOS, which Lean's
        # `positivity` would not prove as rendered)
        leaf = close_step(goal, PositivityCertificate().to_json(), "positivity")
        if check_step(leaf, _no_lemmas).ok:
            return leaf
    if len(sp.Add.make_args(slack)) > CLOSE_MAX_TERMS:
        return None
    try:
        norm = normalize(goal, homogenize=False)
        if norm.goal is None or time.monotonic() >= deadline:
            return None
        found = close_polynomial(norm.goal, deadline)
    except (ArithmeticError, ValueError, TypeError, AttributeError, KeyError, IndexError,
            NotImplementedError, RecursionError, sp.PolynomialError):
        return None
    return None if found is None else norm.attach(found)


def closed_square(step: Step, deadline: float) -> Step | None:
    """``step`` with both subgoals closed (a complete tree), or None."""
    children = []
    for sub in step.subgoals:
        child = close_quickly(sub, deadline)
        if child is None:
            return None
        children.append(child)
    return Step(step.kind, step.goal, list(step.subgoals), step.certificate, children, note=step.note)


def _no_lemmas(name: str) -> None:
    """No catalogue lemma: a positivity close uses none."""


def _two_degree_parts(goal: Goal) -> bool:
    """The slack is two homogeneous parts of different degrees under homogeneous hypotheses:
    each part is then ``>= 0`` alone (:mod:`prover.rewrite.degree_parts` splits them), and
    squaring the sum would only mix them."""
    parts = degree_parts(goal)
    return parts is not None and len(parts) == 2 and not any(p.is_Number for p in parts)


def _nonneg(e: sp.Expr, goal: Goal, roots: dict[sp.Symbol, sp.Expr]) -> bool:
    return is_positive(e, goal, strict=False) or is_positive(reduce_roots(e, roots), goal, strict=False)


class SquareGoals:
    """Proposes ``square`` steps (and the ``rewrite`` that isolates a radical first) for goals whose
    target holds a radical: ``|·|``, a square root or a named root."""

    name = "square"

    def accepts(self, goal: Goal) -> bool:
        """Cheap: an inequality target with ``|·|``, a square root, or a variable that a hypothesis
        ``w**2 = X`` names as a root."""
        if not goal.target.is_inequality:
            return False
        e = sp.sympify(goal.target.slack())
        if e.has(sp.Abs) or any(_is_root(n) for n in sp.preorder_traversal(e)):
            return True
        syms = e.free_symbols
        return any(h.op == "=" and _square_of(h.lhs, syms) for h in goal.hypotheses)

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if not self.accepts(goal):
            return
        roots = root_variables(goal)
        big, small = big_small(goal.target)
        if not has_radical(big - small, roots) or _two_degree_parts(goal):
            return
        if is_positive(big, goal, strict=False):
            sign_score = SIGN_KNOWN      # 0 <= L closes at once (positivity): offset the extra goal
        elif is_positive(reduce_roots(big, roots), goal, strict=False):
            sign_score = SIGN_MODULO_ROOTS
        else:
            sign_score = None
        step = square_step(goal, small, big) if sign_score is not None else None
        if step is not None:
            closed = closed_square(step, time.monotonic() + CLOSE_TIME)
            if closed is not None:
                yield Candidate(closed, self.name, CLOSED, closes=True)
            yield Candidate(step, self.name, sign_score)
        iso = isolated(goal, roots)
        if iso is None:
            return
        s, b = iso
        if sp.expand(s - small) == 0 and sp.expand(b - big) == 0:
            return
        if not _nonneg(b, goal, roots) or squared(s) is None or squared(b) is None:
            return
        op = "<" if goal.target.strict else "<="
        step = rewrite_step(goal, Relation(s, op, b), sp.Integer(1), note="isolate the radical terms before squaring")
        yield Candidate(step, self.name, ISOLATE)
