"""Shared pieces of the symbolic rewrite generators.

A generator looks at one :class:`~prover.ir.Goal` and yields :class:`Candidate` steps
(``rewrite``/``substitute``/``introduce``) whose certificates follow the spec in
``prover/ir.py``. Nothing here is trusted: the search runs the kernel's ``check_step``
on every candidate before using it, so a wrong candidate is only wasted time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, LinearCertificate, NewHypothesis
from prover.problem import Relation, var
from prover.solvers.signs import obviously_positive, positive_vars  # also the rewrites' imports
from prover.verify import prove_positive


@dataclass
class Candidate:
    """A proposed step for a goal; ``score`` is the proposer's own preference (higher = better)."""

    step: Step
    source: str
    score: float = 0.0
    prechecked: bool = False    # the proposer already ran the kernel on the step
    closes: bool = False        # ``step`` is a complete proof tree of the goal (no open subgoals)
    #: the step loses nothing (its subgoals hold wherever the goal does, on the goal's natural
    #: domain) and removes what the others would work around: the search asks no further
    #: generator at this goal (the monotone peel ``√a ≤ √b`` → ``a ≤ b``)
    exclusive: bool = False


class TacticGenerator(Protocol):
    """Anything that proposes steps for a goal (symbolic rewrites, catalogue lemmas, an LLM)."""

    name: str

    def generate(self, goal: Goal) -> Iterable[Candidate]: ...


class Rewrite(Protocol):
    """One deterministic one-subgoal step: ``accepts`` is a cheap look at the goal's shape,
    ``apply`` builds the step (or None when it does not apply after all). The closers'
    normal form (:mod:`prover.rewrite.chain`) runs a list of these; the search runs the same
    objects through ``generate``."""

    name: str

    def accepts(self, goal: Goal) -> bool: ...

    def apply(self, goal: Goal) -> Step | None: ...


class SingleStepRewrite:
    """Base of a :class:`Rewrite` that is also a :class:`TacticGenerator` (one candidate)."""

    name = "rewrite"
    score = 1.0

    def accepts(self, goal: Goal) -> bool:
        return True

    def apply(self, goal: Goal) -> Step | None:
        raise NotImplementedError

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if self.accepts(goal):
            step = self.apply(goal)
            if step is not None:
                yield Candidate(step, self.name, self.score)


# ---------------------------------------------------------------- expression helpers

def symbols_of(goal: Goal) -> list[sp.Symbol]:
    return [var(v) for v in goal.variables]


def is_rational_function(e: sp.Expr, syms: Iterable[sp.Symbol]) -> bool:
    """True when ``e`` uses only + - * / and integer powers of the given symbols."""
    syms = set(syms)
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Symbol):
            if node not in syms:
                return False
        elif isinstance(node, sp.Pow):
            if not node.exp.is_Integer:
                return False
        elif isinstance(node, (sp.Add, sp.Mul, sp.Number)):
            if isinstance(node, sp.Number) and not node.is_Rational:
                return False
        elif node.is_Atom:
            return False
        else:
            return False
    return True


def is_polynomial(e: sp.Expr, syms: Iterable[sp.Symbol]) -> bool:
    syms = list(syms)
    return is_rational_function(e, syms) and (not syms or sp.sympify(e).is_polynomial(*syms))


def poly_relation(expr: sp.Expr, strict: bool) -> Relation:
    """``expr >= 0`` (``> 0``) written readably: positive terms on the left, the others on the right."""
    expr = sp.expand(expr)
    left: list[sp.Expr] = []
    right: list[sp.Expr] = []
    for t in sp.Add.make_args(expr):
        c, _ = t.as_coeff_Mul()
        (right if c.is_negative else left).append(t if not c.is_negative else -t)
    lhs = sp.Add(*left)
    rhs = sp.Add(*right)
    return Relation(lhs, ">" if strict else ">=", rhs)


def polynomial_target(goal: Goal) -> tuple[list[sp.Symbol], sp.Expr] | None:
    """The goal's symbols and expanded slack, when the target is a polynomial inequality."""
    t = goal.target
    if not t.is_inequality:
        return None
    syms = symbols_of(goal)
    s = sp.expand(t.slack())
    return (syms, s) if is_polynomial(s, syms) else None


def target_fraction(goal: Goal) -> tuple[list[sp.Symbol], sp.Expr, sp.Expr] | None:
    """``(symbols, N, D)`` with ``slack(target) = N/D``, ``N`` expanded and ``D > 0`` provable;
    None for an equality target, a non-rational slack or a denominator of unknown sign."""
    t = goal.target
    if not t.is_inequality:
        return None
    syms = symbols_of(goal)
    s = t.slack()
    if not is_rational_function(s, syms):
        return None
    num, den = sp.fraction(sp.together(s))
    num = sp.expand(num)
    if den != 1 and not is_positive(den, goal, strict=True):
        num, den = -num, -den
        if not is_positive(den, goal, strict=True):
            return None
    return syms, num, den


def primitive_relation(expr: sp.Expr, syms: list[sp.Symbol], strict: bool) -> tuple[sp.Expr, Relation]:
    """``expr = content · P`` with ``content > 0`` rational; returns ``(content, P >= 0)``."""
    if sp.expand(expr) == 0:
        return sp.Integer(1), poly_relation(sp.Integer(0), strict)
    content, prim = sp.Poly(expr, *syms).primitive()
    if content < 0:
        content, prim = -content, -prim
    return content, poly_relation(prim.as_expr(), strict)


def fresh_names(goal: Goal, wanted: list[str]) -> list[str]:
    """``wanted`` renamed (x -> x1, x2…) so that none clashes with the goal's variables."""
    taken = set(goal.variables)
    out: list[str] = []
    for w in wanted:
        name, i = w, 1
        while name in taken:
            name = f"{w}{i}"
            i += 1
        taken.add(name)
        out.append(name)
    return out


# ---------------------------------------------------------------- positivity (a filter, not trust)

def _sign_positive(e: sp.Expr, pos: set[sp.Symbol], nonneg: set[sp.Symbol], strict: bool) -> bool:
    if e.is_Number:
        return bool(e > 0) if strict else bool(e >= 0)
    if isinstance(e, sp.Symbol):
        return e in pos or (not strict and e in nonneg)
    if e.is_Add:
        parts = [_sign_positive(a, pos, nonneg, False) for a in e.args]
        if not all(parts):
            return False
        return not strict or any(_sign_positive(a, pos, nonneg, True) for a in e.args)
    if e.is_Mul:
        return all(_sign_positive(a, pos, nonneg, strict) for a in e.args)
    if e.is_Pow:
        if e.exp.is_Integer and int(e.exp) % 2 == 0 and not strict:
            return True
        if e.exp.is_Integer and int(e.exp) < 0:
            return _sign_positive(e.base, pos, nonneg, True)
        return _sign_positive(e.base, pos, nonneg, strict)
    if isinstance(e, sp.Function) and e.func == sp.sqrt:  # pragma: no cover - sympy folds sqrt to Pow
        return _sign_positive(e.args[0], pos, nonneg, strict)
    return False


def is_positive(expr: sp.Expr, goal: Goal, strict: bool = True) -> bool:
    """Whether ``expr`` is provably > 0 (>= 0) under the goal's hypotheses.

    A fast look at the coefficients first, then the kernel's positivity rules, else (when they
    raise) a small sign analysis. The kernel
    re-checks every step, so this only decides which candidates are worth proposing.
    """
    expr = sp.sympify(expr)
    if obviously_positive(expr, positive_vars(goal, True), positive_vars(goal, False), strict=strict):
        return True
    try:
        return bool(prove_positive(expr, list(goal.hypotheses), strict))
    except Exception:  # noqa: BLE001, S110 - fall back to the local analysis
        pass
    pos = positive_vars(goal, True)
    nonneg = positive_vars(goal, False)
    return _sign_positive(expr, pos, nonneg, strict)


# ---------------------------------------------------------------- step builders

def rewrite_step(goal: Goal, new_target: Relation, multiplier: sp.Expr,
                 eq_terms: Iterable[tuple[int, sp.Expr]] = (), note: str = "",
                 new_goal: Goal | None = None, new_hypotheses: Iterable[NewHypothesis] | None = None) -> Step:
    """A ``rewrite`` step ``slack(G) = m·slack(G') + Σ λ_j·eq(H_j)``."""
    sub = new_goal if new_goal is not None else goal.with_target(new_target)
    cert = LinearCertificate(expr_to_str(multiplier), tuple(EqTerm(i, expr_to_str(p)) for i, p in eq_terms),
                             new_hypotheses=tuple(new_hypotheses or ()))
    return Step("rewrite", goal, [sub], cert.to_json(), note=note)


def big_small(t: Relation) -> tuple[sp.Expr, sp.Expr]:
    """The target as ``big ≥ small`` (``>``): its slack is ``big − small``."""
    lhs, rhs = sp.sympify(t.lhs), sp.sympify(t.rhs)
    return (lhs, rhs) if t.op in (">=", ">") else (rhs, lhs)


def equality_hyps(goal: Goal) -> Iterator[tuple[int, sp.Expr]]:
    """``(index, eq(H))`` for every equality hypothesis, ``eq(H) = lhs - rhs``."""
    for i, h in enumerate(goal.hypotheses):
        if h.op == "=":
            yield i, sp.expand(h.lhs - h.rhs)


def replace_radical(e: sp.Expr, base: sp.Expr, t: sp.Symbol) -> sp.Expr:
    """``e`` with every ``base^q`` (``q`` a non-integer rational; the callers only have halves)
    written ``t^int(2q)``: ``t`` stands for ``√base``."""
    return e.replace(lambda n: isinstance(n, sp.Pow) and n.base == base and n.exp.is_Rational
                     and not n.exp.is_Integer, lambda n: t ** int(n.exp * 2))


Factors = list[tuple[sp.Expr, int]]


def fraction_factors(e: sp.Expr) -> tuple[sp.Expr, Factors, Factors] | None:
    """``e = c · Π fᵢ^kᵢ / Π gⱼ^mⱼ`` over irreducible factors, common ones cancelled:
    ``(c, [(fᵢ, kᵢ)], [(gⱼ, mⱼ)])``; None when ``e`` is zero. The expanded numerator and the
    denominator are factored separately: sympy's ``factor`` on an unexpanded multivariate
    rational function can take minutes (a 4-variable cyclic sum after ``x -> 4x/(a+b+c+d)``)."""
    num, den = sp.fraction(sp.together(e))
    num = sp.expand(num)
    if num == 0:
        return None
    cn, fn = sp.factor_list(num) if num.free_symbols else (num, [])
    cd, fd = sp.factor_list(den) if den.free_symbols else (den, [])
    top: dict[sp.Expr, int] = {}
    for f, k in fn:
        top[f] = top.get(f, 0) + k
    bottom: dict[sp.Expr, int] = {}
    for f, k in fd:
        if f in top:
            common = min(top[f], k)
            top[f] -= common
            k -= common
        if k:
            bottom[f] = bottom.get(f, 0) + k
    return cn / cd, [(f, k) for f, k in top.items() if k], list(bottom.items())


def factor_fraction(e: sp.Expr) -> sp.Expr:
    """``e`` as one fraction with factored numerator and denominator, common factors cancelled
    (:func:`fraction_factors`; the same as ``sp.factor(sp.together(e))`` up to form)."""
    ff = fraction_factors(e)
    if ff is None:
        return sp.Integer(0)
    c, top, bottom = ff
    return c * sp.Mul(*[f ** k for f, k in top]) / sp.Mul(*[f ** k for f, k in bottom])


def denominator_has_sign(e: sp.Expr, goal: Goal) -> bool:
    """Every factor of ``e``'s denominator is provably positive or provably negative."""
    den = sp.fraction(factor_fraction(e))[1]
    if den.is_Rational:
        return True
    _, fs = sp.factor_list(den)
    return all(is_positive(f, goal) or is_positive(-f, goal) for f, _ in fs)


def is_polynomial_goal(goal: Goal) -> bool:
    """The target's slack is a polynomial in the goal's variables."""
    try:
        sp.Poly(sp.expand(goal.target.slack()), *symbols_of(goal))
        return True
    except sp.PolynomialError:
        return False
