"""Separable goals: when no hypothesis links two groups of variables, prove each group's part alone.

The variables fall into groups (connected components of "occur together in a hypothesis"). When
the target mentions two or more groups and its sides split by group, the goal becomes one
``combine`` step (``slack(G) = Σ λ_j · Π slack(G_i)``, checked by the kernel) whose subgoals each
keep only their group's variables and hypotheses:

* **products** ``β·B₁·B₂ ≥ σ·S₁·S₂``: parts ``B_k ≥ r_k·S_k`` with ``r₁·r₂ = σ/β`` and the signs
  ``S_k ≥ 0`` (a constant ``S_k`` needs none), by
  ``B₁B₂ − κS₁S₂ = n₁n₂ + r₂S₂·n₁ + r₁S₁·n₂ + (r₁r₂ − κ)S₁S₂`` with ``n_k = B_k − r_k·S_k``;
* **sums** ``Σ_k (L_k − R_k) + c ≥ 0``: parts ``L_k ≥ R_k + m_k`` with ``Σ m_k + c ≥ 0``.

The constants ``r_k``, ``m_k`` come from each part's numeric minimum over its own hypotheses,
rationalised (nothing here is trusted: a wrong constant makes a false part, which the search's
counterexample filter drops, and the kernel checks every step). With three or more groups the
first group is split from the rest; the rest is separable again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from fractions import Fraction

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from prover.ir import Goal, Step
from prover.kernel.certificates import CombineCertificate, CombineTerm
from prover.oracles.model import GoalModel
from prover.problem import Relation
from prover.rewrite.base import Candidate, big_small

#: Seconds of numeric minimisation per proposal (all parts together).
MINIMUM_TIME = 2.0
SAMPLES = 400
STARTS = 4
#: Relative distance within which a float minimum is taken to be a nearby simple rational.
SNAP = 1e-7
MIXED = -1


# ---------------------------------------------------------------- groups


def variable_groups(goal: Goal, pieces: Iterable[sp.Expr] = ()) -> list[list[str]]:
    """The goal's variables in groups: two variables are in one group when a hypothesis (or one
    of ``pieces``, the parts of the target that must stay whole) mentions both, transitively.
    Groups and their variables in the goal's order."""
    parent = {v: v for v in goal.variables}

    def root(v: str) -> str:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    linked = [h.free_symbols() for h in goal.hypotheses] + [sp.sympify(p).free_symbols for p in pieces]
    for syms in linked:
        names = sorted(s.name for s in syms if s.name in parent)
        for other in names[1:]:
            parent[root(other)] = root(names[0])
    groups: dict[str, list[str]] = {}
    for v in goal.variables:
        groups.setdefault(root(v), []).append(v)
    return list(groups.values())


def split_sides(goal: Goal, pieces: Iterable[sp.Expr] = ()) -> dict[str, int] | None:
    """``variable -> 0`` for the first group the target mentions, ``1`` for the other groups it
    mentions; None when it mentions fewer than two."""
    used = {s.name for s in goal.target.free_symbols()}
    groups = [g for g in variable_groups(goal, pieces) if used & set(g)]
    if len(groups) < 2:
        return None
    return {v: (0 if k == 0 else 1) for k, g in enumerate(groups) for v in g}


def part_goal(goal: Goal, sides: dict[str, int], k: int, target: Relation) -> Goal:
    """Side ``k``'s subgoal: its variables and the hypotheses that mention only them."""
    names = {v for v, s in sides.items() if s == k}
    hyps = tuple(h for h in goal.hypotheses if h.free_symbols()
                 and {s.name for s in h.free_symbols()} <= names)
    return Goal(tuple(v for v in goal.variables if v in names), hyps, target)


def _side(e: sp.Expr, sides: dict[str, int]) -> int | None:
    """0 or 1 when ``e`` mentions only that side's variables, None for a constant, MIXED else."""
    found = {sides.get(s.name, MIXED) for s in e.free_symbols}
    if not found:
        return None
    return found.pop() if len(found) == 1 else MIXED


# ---------------------------------------------------------------- splitting the sides


def product_parts(e: sp.Expr, sides: dict[str, int]) -> tuple[sp.Rational, list[sp.Expr]] | None:
    """``e = c · P₀ · P₁`` with ``P_k`` the product of side ``k``'s factors (1 when none) and ``c``
    rational; None when a factor mixes the sides."""
    coeff, parts = sp.Integer(1), [[], []]
    for arg in sp.Mul.make_args(e):
        k = _side(arg, sides)
        if k == MIXED:
            return None
        if k is None:
            coeff *= arg
        else:
            parts[k].append(arg)
    return (coeff, [sp.Mul(*p) for p in parts]) if coeff.is_Rational else None


def sum_parts(big: sp.Expr, small: sp.Expr, sides: dict[str, int]
              ) -> tuple[sp.Rational, list[sp.Expr], list[sp.Expr]] | None:
    """``big − small = Σ_k (L_k − R_k) + c`` with ``L_k`` (``R_k``) the terms of ``big``
    (``small``) on side ``k``; None when a term mixes the sides."""
    const, left, right = sp.Integer(0), [sp.Integer(0)] * 2, [sp.Integer(0)] * 2
    for sign, side_expr, acc in ((1, big, left), (-1, small, right)):
        for term in sp.Add.make_args(side_expr):
            k = _side(term, sides)
            if k == MIXED:
                return None
            if k is None:
                const += sign * term
            else:
                acc[k] += term
    if not const.is_Rational or any(left[k] == 0 and right[k] == 0 for k in (0, 1)):
        return None
    return const, left, right


#: A mixed factor is factored only when it is a polynomial at most this large (``count_ops``):
#: the check runs on every goal the search expands.
FACTOR_OPS = 40


def _factors(arg: sp.Expr) -> list[sp.Expr]:
    """``arg`` as its irreducible factors when it is a small polynomial in several variables."""
    syms = arg.free_symbols
    if len(syms) < 2 or not arg.is_Add or sp.count_ops(arg) > FACTOR_OPS or not arg.is_polynomial(*syms):
        return [arg]
    coeff, factors = sp.factor_list(arg)
    if len(factors) < 2 and all(k == 1 for _, k in factors):
        return [arg]
    return [coeff] + [f**k for f, k in factors]


def product_form(goal: Goal) -> tuple[dict[str, int], sp.Expr, sp.Expr] | None:
    """The sides of a product split and the target's ``big``/``small`` sides as products (small
    polynomial factors factored); None when the factors link every group."""
    big, small = big_small(goal.target)
    pieces = [[f for arg in sp.Mul.make_args(e) for f in _factors(arg)] for e in (big, small)]
    sides = split_sides(goal, pieces[0] + pieces[1])
    if sides is None:
        return None
    return sides, sp.Mul(*pieces[0]), sp.Mul(*pieces[1])


def sum_form(goal: Goal) -> dict[str, int] | None:
    """The sides of a sum split: each term of the target stays whole."""
    big, small = big_small(goal.target)
    return split_sides(goal, [*sp.Add.make_args(big), *sp.Add.make_args(small)])


# ---------------------------------------------------------------- numeric minima (untrusted)


def _samples(model: GoalModel, rng: np.random.Generator, n: int) -> np.ndarray:
    k = len(model.syms)
    wide = np.exp(rng.uniform(math.log(1e-2), math.log(1e2), size=(n, k)))
    near = np.exp(rng.normal(0.0, 0.5, size=(n, k)))
    X = np.where(rng.random((n, k)) < 0.5, wide, near)
    X[0] = 1.0
    for i, s in enumerate(model.syms):
        if model.kind[s] == "free":
            X[1:, i] *= rng.choice([-1.0, 1.0], size=n - 1)
    return model.project(X, rng)


class _Stop(Exception):
    """Raised inside the objective at the deadline."""


def _local_minimum(model: GoalModel, fn, x0: np.ndarray, deadline: float) -> float:
    """Nelder-Mead over the free variables (log-coordinates for positive ones) from ``x0``; the
    least value of ``fn`` at a point where the hypotheses hold."""
    idx = model.free_index
    logc = [model.kind[model.syms[i]] != "free" and x0[i] > 0 for i in idx]
    refs = model.dep_values(x0)
    best = [math.inf]

    def value(u: np.ndarray) -> float:
        if time.monotonic() > deadline:
            raise _Stop
        free = np.array([math.exp(min(v, 50.0)) if lg else v for v, lg in zip(u, logc)])
        x = model.full_point(free, refs)
        if x is None:
            return 1e12
        _, viol = model.evaluate_point(x.tolist())
        try:
            v = float(fn(*x))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return 1e12
        if not math.isfinite(v) or not math.isfinite(viol):
            return 1e12
        if viol == 0:
            best[0] = min(best[0], v)
        return v + 1e3 * viol

    u0 = np.array([math.log(x0[i]) if lg else x0[i] for i, lg in zip(idx, logc)])
    if u0.size:
        try:
            minimize(value, u0, method="Nelder-Mead",
                     options={"maxfev": 150 * (u0.size + 1), "xatol": 1e-10, "fatol": 1e-14})
        except (_Stop, ValueError, OverflowError, FloatingPointError):
            pass
    return best[0]


def numeric_minimum(goal: Goal, f: sp.Expr, deadline: float, seed: int = 0) -> float | None:
    """The least value of ``f`` found over ``goal``'s hypotheses (samples, then local descent);
    None when no point was found or ``f`` looks unbounded below."""
    try:
        model = GoalModel(goal.with_target(Relation(f, ">=", sp.Integer(0))))
        g = model.target.slack()
        fn_np, fn = sp.lambdify(model.syms, g, "numpy"), sp.lambdify(model.syms, g, "math")
    except Exception:  # noqa: BLE001 - an expression the model cannot compile: no proposal
        return None
    X = _samples(model, np.random.default_rng(seed), SAMPLES)
    if X.shape[0] == 0:
        return None
    _, viol = model.evaluate(X)
    with np.errstate(all="ignore"):
        vals = np.broadcast_to(np.asarray(fn_np(*X.T), dtype=complex), (X.shape[0],))
    ok = (viol == 0) & np.isfinite(vals) & (vals.imag == 0)
    if not ok.any():
        return None
    real = np.where(ok, vals.real, np.inf)
    best = float(real.min())
    for j in np.argsort(real)[:STARTS]:
        if not ok[j] or time.monotonic() > deadline:
            break
        best = min(best, _local_minimum(model, fn, X[j], deadline))
    return best if best > -1e6 else None


def rational_below(m: float) -> sp.Rational:
    """A simple rational at ``m`` when one is within ``SNAP`` (a minimum such as 3/2), else a
    rational slightly below ``m``."""
    scale = max(1.0, abs(m))
    q = Fraction(m).limit_denominator(144)
    if abs(float(q) - m) <= SNAP * scale:
        return sp.Rational(q.numerator, q.denominator)
    q = Fraction(m - 1e-4 * scale).limit_denominator(10_000)
    return sp.Rational(q.numerator, q.denominator)


def close_enough(value: sp.Rational, minimum: float) -> bool:
    return float(value) <= minimum + SNAP * max(1.0, abs(minimum))


# ---------------------------------------------------------------- the steps


def _minimum(goal: Goal, sides: dict[str, int], k: int, f: sp.Expr, deadline: float) -> float | None:
    blank = Relation(sp.Integer(0), ">=", sp.Integer(0))
    return numeric_minimum(part_goal(goal, sides, k, blank), f, deadline, seed=k)


def combine_step(goal: Goal, subgoals: list[Goal], terms: list[tuple[sp.Rational, tuple[int, ...]]],
                 note: str) -> Step:
    """The ``combine`` step ``slack(goal) = Σ c · Π slack(subgoals[i])`` (zero weights left out)."""
    cert = CombineCertificate(tuple(CombineTerm(str(sp.Rational(c)), f) for c, f in terms if c != 0))
    return Step("combine", goal, subgoals, cert.to_json(), note=note)


def _product_constants(mins: list[float | None], kappa: sp.Rational) -> tuple[sp.Rational, sp.Rational] | None:
    """``(r₀, r₁)`` with ``r₀·r₁ = κ``, each at most its part's minimum (one of them simple)."""
    if any(m is None or m <= 0 for m in mins):
        return None
    r0 = rational_below(mins[0])
    if r0 > 0 and close_enough(kappa / r0, mins[1]):
        return r0, kappa / r0
    r1 = rational_below(mins[1])
    if r1 > 0 and close_enough(kappa / r1, mins[0]):
        return kappa / r1, r1
    return None


def _factor_relation(b: sp.Expr, s: sp.Expr, r: sp.Rational, strict: bool) -> tuple[Relation, sp.Rational]:
    """The part ``b ≥ r·s`` written readably, and ``α`` with ``b − r·s = α · slack(part)``."""
    op, flip = (">", "<") if strict else (">=", "<=")
    if s == 1:
        return Relation(b, op, r), sp.Integer(1)
    if b == 1:
        return Relation(s, flip, 1 / r), r
    return Relation(b, op, r * s), sp.Integer(1)


def product_step(goal: Goal, deadline: float) -> Step | None:
    """``β·B₀·B₁ ≥ σ·S₀·S₁`` from ``B_k ≥ r_k·S_k`` and ``S_k ≥ 0`` (module docstring)."""
    form = product_form(goal)
    if form is None:
        return None
    sides, big, small = form
    pb, ps = product_parts(big, sides), product_parts(small, sides)
    if pb is None or ps is None or pb[0] <= 0 or ps[0] <= 0:
        return None
    (beta, B), (sigma, S) = pb, ps
    kappa = sigma / beta
    mins = [_minimum(goal, sides, k, B[k] / S[k], deadline) for k in (0, 1)]
    r = _product_constants(mins, kappa)
    if r is None:
        return None
    subgoals, alpha, signs = [], [], []
    for k in (0, 1):
        rel, a = _factor_relation(B[k], S[k], r[k], goal.target.strict)
        subgoals.append(part_goal(goal, sides, k, rel))
        alpha.append(a)
    for k in (0, 1):
        if S[k] == 1:
            signs.append(())
            continue
        subgoals.append(part_goal(goal, sides, k, Relation(S[k], ">=", sp.Integer(0))))
        signs.append((len(subgoals) - 1,))
    terms = [(beta * alpha[0] * alpha[1], (0, 1)), (beta * r[1] * alpha[0], (0, *signs[1])),
             (beta * r[0] * alpha[1], (1, *signs[0])), (beta * (r[0] * r[1] - kappa), signs[0] + signs[1])]
    return combine_step(goal, subgoals, terms, "separate variables: a product of independent parts")


def _sum_relation(left: sp.Expr, right: sp.Expr, m: sp.Rational, strict: bool) -> Relation:
    """``left − right ≥ m`` written readably (``>`` when strict)."""
    op, flip = (">", "<") if strict else (">=", "<=")
    if right == 0:
        return Relation(left, op, m)
    if left == 0:
        return Relation(right, flip, -m)
    return Relation(left, op, right + m)


def part_constants(mins: list[float | None], const: sp.Expr) -> tuple[list[sp.Rational], sp.Expr] | None:
    """``([m₀, m₁], spare)`` with ``m_k`` at most part ``k``'s numeric minimum (snapped to a simple
    rational) and ``spare = m₀ + m₁ + const ≥ 0``, or None when the minima cannot carry ``const``."""
    if any(m is None for m in mins):
        return None
    ms = [rational_below(m) for m in mins]
    spare = ms[0] + ms[1] + const
    if spare < 0:
        ms[1], spare = -const - ms[0], sp.Integer(0)
        if not close_enough(ms[1], mins[1]):
            return None
    return ms, spare


def sum_step(goal: Goal, deadline: float) -> Step | None:
    """``Σ_k (L_k − R_k) + c ≥ 0`` from ``L_k − R_k ≥ m_k`` with ``m₀ + m₁ + c ≥ 0``."""
    sides = sum_form(goal)
    if sides is None:
        return None
    big, small = big_small(goal.target)
    split = sum_parts(big, small, sides)
    if split is None:
        return None
    const, left, right = split
    mins = [_minimum(goal, sides, k, left[k] - right[k], deadline) for k in (0, 1)]
    constants = part_constants(mins, const)
    if constants is None:
        return None
    ms, spare = constants
    strict = goal.target.strict and spare == 0
    subgoals = [part_goal(goal, sides, k, _sum_relation(left[k], right[k], ms[k], strict)) for k in (0, 1)]
    terms = [(sp.Integer(1), (0,)), (sp.Integer(1), (1,)), (spare, ())]
    return combine_step(goal, subgoals, terms, "separate variables: a sum of independent parts")


class SeparableGoals:
    """Proposes ``combine`` steps for goals whose variables split into independent groups."""

    name = "separable"

    def accepts(self, goal: Goal) -> bool:
        """Cheap (no minimisation): an inequality whose target's factors, or terms, fall into two
        groups of variables that no hypothesis links."""
        if not goal.target.is_inequality or split_sides(goal) is None:
            return False
        return product_form(goal) is not None or sum_form(goal) is not None

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        if not self.accepts(goal):
            return
        deadline = time.monotonic() + MINIMUM_TIME
        for build in (product_step, sum_step):
            step = build(goal, deadline)
            if step is not None:
                # the parts are smaller goals: offset the search's cost of several open goals
                yield Candidate(step, self.name, 1.0 + 2.0 * (len(step.subgoals) - 1))
