"""Undo a change of variables the statement was written in: ``v`` that occurs only through one
Möbius form ``φ(v) = (αv + β)/(γv + δ)`` becomes a new variable ``u = φ(v)`` (``substitute``).

A textbook inequality is often stated at a transformed point: ``1/p`` for ``p`` (one variable,
where :class:`~prover.rewrite.substitute.ReciprocalSubstitution` needs all), ``p + 2`` for ``p``
(Minkowski on shifted points), ``1/(1/c + 1)`` for ``c``. The transformed goal has more
operations, and for roots the closers' normal form works on a bigger polynomial than the seed's.
Nothing here looks at a family: the candidates ``φ`` are read off the goal itself, as the
*blocks* of each variable (the largest subterms whose only variable is ``v``: ``1/p`` in
``8·r/p``, ``(p + 2)²`` in ``√((p + 2)² + 1)``), and a substitution is kept only when it makes the
goal and its hypotheses smaller (fewer operations, no new root).

The new variable's hypotheses are the image of ``v``'s domain (``v > 0``, ``v ≥ 0`` or all of
ℝ) under the monotone ``φ``: ``1/(1/c + 1)`` on ``c > 0`` is ``0 < u < 1``, ``v + 2`` on ``v > 0``
is ``u > 2``; each is proved from the goal's hypotheses and the kernel checks the step. The step
is an equivalence, so it is the only step proposed at its goal (``exclusive``: the generators
listed after it are not asked; they all apply to the child, the statement the textbook proves).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import IntroduceCertificate, NewHypothesis, PositivityCertificate
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, fresh_names, positive_vars, symbols_of
from prover.rewrite.substitute import substitute_step

#: an equivalence step whose child is the untransformed statement: expanded before anything else
SCORE = 10.0
#: a candidate must remove at least this many operations (:func:`_size`)
MIN_GAIN = 2


@dataclass(frozen=True)
class Mobius:
    """``u = (αv + β)/(γv + δ)`` with ``αδ − βγ ≠ 0``; its inverse ``v = (δu − β)/(α − γu)``."""

    alpha: sp.Rational
    beta: sp.Rational
    gamma: sp.Rational
    delta: sp.Rational

    def forward(self, v: sp.Expr) -> sp.Expr:
        return (self.alpha * v + self.beta) / (self.gamma * v + self.delta)

    def inverse(self, u: sp.Expr) -> sp.Expr:
        return (self.delta * u - self.beta) / (self.alpha - self.gamma * u)

    @property
    def is_scaling(self) -> bool:
        """``u = k·v`` (the identity included): :class:`~prover.rewrite.rescale.RescaleVariables`'
        job, whose coefficient cost could otherwise undo this generator's choice and back again."""
        return self.gamma == 0 and self.beta == 0


def mobius_of(block: sp.Expr, v: sp.Symbol) -> Mobius | None:
    """``block`` as a Möbius map of ``v`` with rational coefficients (None when it is not one)."""
    num, den = sp.fraction(sp.cancel(sp.together(block)))
    try:
        pn, pd = sp.Poly(num, v), sp.Poly(den, v)
    except sp.PolynomialError:
        return None
    if pn.degree() > 1 or pd.degree() > 1 or not all(c.is_Rational for c in pn.all_coeffs() + pd.all_coeffs()):
        return None
    a, b = (pn.all_coeffs() if pn.degree() == 1 else [sp.Integer(0), pn.LC()])
    c, d = (pd.all_coeffs() if pd.degree() == 1 else [sp.Integer(0), pd.LC()])
    if a * d - b * c == 0:
        return None
    return Mobius(sp.Rational(a), sp.Rational(b), sp.Rational(c), sp.Rational(d))


def blocks(e: sp.Expr, v: sp.Symbol) -> set[sp.Expr]:
    """The largest subterms of ``e`` whose only free symbol is ``v``."""
    out: set[sp.Expr] = set()

    def walk(n: sp.Expr) -> None:
        fs = n.free_symbols
        if v not in fs:
            return
        if fs == {v}:
            out.add(n)
            return
        for a in n.args:
            walk(a)

    walk(e)
    return out


def candidates(e: sp.Expr, v: sp.Symbol) -> list[Mobius]:
    """The Möbius maps a block of ``v`` is, or is an integer power of."""
    maps: list[Mobius] = []
    for b in blocks(e, v):
        for n in sp.preorder_traversal(b):
            if v not in n.free_symbols:
                continue
            for form in (n, n.base if n.is_Pow and n.exp.is_Integer else None):
                m = mobius_of(form, v) if form is not None else None
                if m is not None and not m.is_scaling and m not in maps:
                    maps.append(m)
    return maps


def _size(exprs: list[sp.Expr]) -> int:
    """Operations, a denominator counting as three (the ranker's and the closers' real cost)."""
    return sum(int(sp.count_ops(x)) + 2 * sum(1 for n in sp.preorder_traversal(x) if n.is_Pow and n.exp.is_negative)
               for x in exprs)


def _roots(exprs: list[sp.Expr]) -> int:
    return sum(1 for x in exprs for n in sp.preorder_traversal(x)
               if n.is_Pow and n.exp.is_Rational and not n.exp.is_Integer)


def _image(m: Mobius, lo: sp.Expr | None, strict: bool) -> list[tuple[sp.Expr, str]] | None:
    """The bounds ``(c, op)`` meaning ``u op c`` for ``u = φ(v)``, ``v`` over ``(lo, ∞)``
    (``[lo, ∞)`` unless ``strict``; all of ℝ when ``lo`` is None): None when ``φ`` has a pole
    there (the new variable's domain would not be an interval)."""
    u = sp.Symbol("u")
    if lo is None:
        return [] if m.gamma == 0 else None
    pole = -m.delta / m.gamma if m.gamma != 0 else None
    if pole is not None and (pole > lo or (pole == lo and not strict)):
        return None
    f = m.forward(u)
    ends = [(f.subs(u, lo), strict), (sp.limit(f, u, sp.oo), True)]
    increasing = m.alpha * m.delta - m.beta * m.gamma > 0 if m.gamma != 0 else m.alpha / m.delta > 0
    out: list[tuple[sp.Expr, str]] = []
    for (value, open_end), at_low in zip(ends, (True, False)):
        if value.is_infinite:
            continue
        above = increasing == at_low
        out.append((value, (">" if open_end else ">=") if above else ("<" if open_end else "<=")))
    return out


def _nonpositive(image: list[tuple[sp.Expr, str]]) -> bool:
    """Does the image lie in ``(-∞, 0]`` (an upper bound ``u < c`` / ``u ≤ c`` with ``c ≤ 0``)?
    Such a map is used negated: the same size, and positivity, the closers' sign facts and the
    other generators all work on positive variables."""
    return any(op in ("<", "<=") and value <= 0 for value, op in image)


class UndoSubstitution:
    """Each variable seen only through one Möbius form becomes that form (module docstring)."""

    name = "undo-substitution"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        chosen = self._choose(goal)
        if not chosen:
            return
        syms = symbols_of(goal)
        renamed = iter(fresh_names(goal, [f"{v}_" for v in goal.variables if var(v) in chosen]))
        names = [next(renamed) if var(v) in chosen else v for v in goal.variables]
        new = dict(zip(syms, (var(n) for n in names)))
        pos, nonneg = positive_vars(goal), positive_vars(goal, strict=False)
        # ``0 < u`` is stated only where a root needs it: elsewhere the extra fact made an undone
        # shift look better than the direct route (567neq/P59 lost at e7b44f9 against 9ffd430).
        with_roots = _roots([goal.target.lhs, goal.target.rhs]) > 0
        subst, inverse, new_hyps, drop = {}, {}, [], set()
        for v, m in chosen.items():
            u = new[v]
            subst[v], inverse[u] = m.inverse(u), m.forward(v)
            lo = sp.Integer(0) if v in nonneg else None
            image = _image(m, lo, v in pos) or []
            for value, op in image:
                new_hyps.append(Relation(u, op, value))
            if with_roots and any(op in (">", ">=") and value > 0 for value, op in image):
                new_hyps.append(Relation(sp.Integer(0), "<", u))   # implied; what the roots' sign facts look for
            drop |= {i for i, h in enumerate(goal.hypotheses) if h.is_inequality and h.free_symbols() == {v}}
        step = substitute_step(goal, names, subst, inverse, new_hyps, drop,
                               "undo " + ", ".join(f"{new[v]} = {m.forward(v)}" for v, m in chosen.items()),
                               roots=True, mapper=lambda e: moved_blocks(e, chosen, new))
        if step is not None:
            yield Candidate(step, self.name, SCORE, exclusive=True)

    @staticmethod
    def _exprs(goal: Goal) -> list[sp.Expr]:
        return [sp.sympify(goal.target.slack())] + [sp.sympify(h.slack()) for h in goal.hypotheses]

    def _choose(self, goal: Goal) -> dict[sp.Symbol, Mobius]:
        """Variable by variable (each on the goal the earlier choices left), the map that makes
        the goal smallest; kept when the goal shrinks by :data:`MIN_GAIN` in all."""
        exprs = self._exprs(goal)
        size, roots = _size(exprs), _roots(exprs)
        pos, nonneg = positive_vars(goal), positive_vars(goal, strict=False)
        chosen: dict[sp.Symbol, Mobius] = {}
        current = list(exprs)
        for v in symbols_of(goal):
            own = [i for i, h in enumerate((None, *goal.hypotheses))
                   if h is None or not (h.is_inequality and h.free_symbols() == {v})]
            if named_root(goal, v) or _sign_needed(goal, v, {i - 1 for i in range(len(exprs)) if i not in own}):
                continue
            best, best_exprs = None, None
            best_key = (_size([current[i] for i in own]), 0)
            for m in candidates(sp.Add(*(current[i] for i in own)), v):
                lo = sp.Integer(0) if v in nonneg else None
                image = _image(m, lo, v in pos)
                if image is None:
                    continue
                if lo is not None and _nonpositive(image):
                    m = Mobius(-m.alpha, -m.beta, m.gamma, m.delta)   # keep a positive variable positive
                moved = [moved_blocks(current[i], {v: m}, {v: v}) for i in own]
                key = (_size(moved), int(sp.count_ops(m.forward(v))))   # equals: the simpler map
                if _roots(moved) <= roots and key < best_key:
                    best, best_exprs, best_key = m, moved, key
            if best is not None:
                chosen[v] = best
                for i, e in zip(own, best_exprs):
                    current[i] = e
        return chosen if _size(current) <= size - MIN_GAIN else {}


def moved_blocks(e: sp.Expr, maps: dict[sp.Symbol, Mobius], new: dict[sp.Symbol, sp.Symbol]) -> sp.Expr:
    """``e`` at ``v = φ⁻¹(u)``, each block of ``v`` simplified on its own (``1/(1/c + 1)`` → ``u``)."""
    e = sp.sympify(e)
    for v, m in maps.items():
        e = e.xreplace({b: sp.factor(sp.cancel(sp.together(b.subs(v, m.inverse(new[v])))))
                        for b in blocks(e, v)})
    return e


def power_step(e: sp.Expr, v: sp.Symbol) -> int:
    """The gcd of the exponents with which ``v`` occurs in ``e`` (``v`` itself counts 1, so does
    a non-integer exponent): ``e`` is a function of ``v^k`` for this ``k``; 0 when ``v`` does not occur."""
    g = 0

    def walk(n: sp.Expr) -> None:
        nonlocal g
        if n == v:
            g = 1
        elif n.is_Pow and n.base == v:
            g = int(sp.igcd(g, abs(int(n.exp)))) if n.exp.is_Integer else 1
        else:
            for a in n.args:
                walk(a)

    walk(sp.sympify(e))
    return g


class GeneralisePowers:
    """A variable seen only through ``v^k`` (``k ≥ 2``: the statement written at ``x ↦ x²``)
    becomes ``u = v^k`` (``introduce``), ``v`` itself left out of the subgoal; ``u > 0`` for
    ``v > 0``, ``u ≥ 0`` for ``v ≥ 0`` or an even ``k``, nothing for an odd ``k`` over ℝ: the image
    of ``v``'s domain, so the subgoal says the same (``exclusive``, as :class:`UndoSubstitution`)."""

    name = "generalise-powers"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        exprs = UndoSubstitution._exprs(goal)
        pos, nonneg = positive_vars(goal), positive_vars(goal, strict=False)
        own_sign = {v: {i for i, h in enumerate(goal.hypotheses) if h.is_inequality and h.free_symbols() == {v}}
                    for v in symbols_of(goal)}
        chosen: dict[sp.Symbol, int] = {}
        for v in symbols_of(goal):
            k = math.gcd(*[power_step(e, v) for i, e in enumerate(exprs) if i - 1 not in own_sign[v]])
            if k >= 2 and not named_root(goal, v) and not _sign_needed(goal, v, own_sign[v]):
                chosen[v] = k
        if chosen:
            step = self._step(goal, chosen, own_sign, pos, nonneg)
            if step is not None:
                yield Candidate(step, self.name, SCORE, exclusive=True)

    @staticmethod
    def _step(goal: Goal, chosen: dict[sp.Symbol, int], own_sign: dict[sp.Symbol, set[int]],
              pos: set[sp.Symbol], nonneg: set[sp.Symbol]) -> Step | None:
        names = fresh_names(goal, [f"{v}{k}" for v, k in chosen.items()])
        new = {v: var(n) for v, n in zip(chosen, names)}

        def at(e: sp.Expr) -> sp.Expr:
            return sp.sympify(e).replace(lambda n: n.is_Pow and n.base in chosen,
                                         lambda n: new[n.base] ** (n.exp / chosen[n.base]))

        dropped = set().union(*(own_sign[v] for v in chosen))
        hyps = [Relation(at(h.lhs), h.op, at(h.rhs)) for i, h in enumerate(goal.hypotheses) if i not in dropped]
        fresh: list[Relation] = []
        for v, k in chosen.items():
            if v in pos:
                fresh.append(Relation(new[v], ">", sp.Integer(0)))
            elif v in nonneg or k % 2 == 0:
                fresh.append(Relation(new[v], ">=", sp.Integer(0)))
        target = Relation(at(goal.target.lhs), goal.target.op, at(goal.target.rhs))
        kept = tuple(x for x in goal.variables if var(x) not in chosen)
        sub = Goal(kept + tuple(names), tuple(hyps + fresh), target)
        proofs = tuple(NewHypothesis(len(hyps) + i, PositivityCertificate()) for i in range(len(fresh)))
        defs = {n: expr_to_str(v ** chosen[v]) for v, n in zip(chosen, names)}
        note = "generalise " + ", ".join(f"{n} = {v}^{chosen[v]}" for v, n in zip(chosen, names))
        return Step("introduce", goal, [sub], IntroduceCertificate(defs, proofs).to_json(), note=note)


def named_root(goal: Goal, v: sp.Symbol) -> bool:
    """``v`` is a root the search named (a hypothesis ``v ^ q = X`` or ``v = X``): not a variable
    the statement was written in. Changing it again only walks away from the steps made for it
    (a reciprocal of ``t`` undone by the reciprocal substitution, rescaled back and forth)."""
    return any(h.op == "=" and (h.lhs == v or (sp.sympify(h.lhs).is_Pow and sp.sympify(h.lhs).base == v))
               for h in goal.hypotheses)


def _sign_needed(goal: Goal, v: sp.Symbol, own: set[int]) -> bool:
    """``v`` has a hypothesis of its own other than ``v > 0``/``v ≥ 0`` (``v ≤ 3``): its image is
    not read off here, and leaving it out would make the subgoal stronger, so ``v`` is left alone."""
    return any(sp.expand(goal.hypotheses[i].slack()) != v for i in own)
