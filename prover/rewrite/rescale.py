"""Rescale variables ``x ↦ x/k`` (``k`` rational) when that makes the coefficients simpler (``substitute``).

A problem stated on a scaled variable (Schur with ``a ↦ 2a``: ``2a(2a − b)(2a − c) + …``) hides
the seed's structure: the polynomial is no longer symmetric, so the closers' order split and
difference substitution do not see the seed. Substituting ``a = a'/2`` gives the seed back.

Detection, from the goal's polynomials (the numerator and denominator of the target's slack and
of every hypothesis, the arguments of roots and ``|·|`` too, with those subterms as opaque
symbols): for each prime ``p`` of the coefficients, ``x_i ↦ x_i / p^(e_i)`` shifts the ``p``-adic
valuation of the coefficient of ``Π x_i^(m_i)`` by ``−Σ e_i·m_i``. The cost of a polynomial is
``Σ_m (v_m − min v)`` (the valuations left after dividing out its content: the size of its
coefficients in powers of ``p``); the exponents ``e`` with the least total cost over all the
goal's polynomials are chosen among ``|e_i| <= R`` (smallest ``Σ|e_i|`` among equals). The step is
proposed only when it lowers the cost for some prime, so a goal whose coefficients are already
as small as scaling can make them is left alone.

The step is ``substitute`` with ``x ↦ x/k`` and inverse ``x ↦ k·x`` (names kept); each hypothesis
is the substituted one divided by its content (proved from the old one, a positive multiple),
the target is the substituted one. Nothing here is trusted: the kernel checks the step.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import numpy as np
import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import NewHypothesis, SubstituteCertificate
from prover.problem import Relation, var
from prover.rewrite.base import Candidate, SingleStepRewrite, is_polynomial, symbols_of
from prover.rewrite.substitute import hypothesis_proof
from prover.rewrite.undo import SCORE as UNDO_SCORE
from prover.rewrite.undo import named_root
from prover.verify import Kernel, KernelError

#: At most this many variables; exponents ``|e_i| <= RANGE[n]`` (the grid has ``(2R+1)^n`` points).
RANGE = {1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 6: 1}
#: Primes considered (those that divide some coefficient), at most ``MAX_PRIMES`` of them.
PRIMES = (2, 3, 5, 7)
MAX_PRIMES = 3
#: Polynomials with more terms than this are left out of the cost (a cheap proposal).
MAX_TERMS = 400
#: The least drop of the cost (in powers of ``p``) for which a rescaling is proposed: one power
#: (``2/3·x + y/3`` → ``x/3 + y/3``) is a matter of taste; ``√(2a) + √b`` → ``√a + √b`` gains 3/2.
MIN_GAIN = 1.5


#: One term of a polynomial piece: the exponents of the variables (rational: ``x^(2/3)``) and
#: the coefficient as a product of rational powers of rationals (``2^(2/3)·4/3``).
Term = tuple[tuple[sp.Rational, ...], tuple[tuple[sp.Rational, sp.Rational], ...]]


def _monomial(e: sp.Expr, syms: set[sp.Symbol]) -> bool:
    """``e`` is a product of rationals and integer powers of variables."""
    return all(f.is_Rational or f in syms or (f.is_Pow and f.base in syms and f.exp.is_Integer)
               for f in sp.Mul.make_args(e))


def _monomial_factor(n: sp.Expr, syms: set[sp.Symbol]) -> bool:
    """A factor a rescaling scales as a monomial: ``m^r`` for a rational ``r`` and a monomial ``m``
    (``√(ab)`` scales as ``a^(1/2)·b^(1/2)``: for the cost only, never for a step)."""
    return isinstance(n, sp.Pow) and n.exp.is_Rational and _monomial(n.base, syms)


def _opaque(n: sp.Expr, syms: set[sp.Symbol]) -> bool:
    return ((isinstance(n, sp.Pow) and not n.exp.is_Integer and not _monomial_factor(n, syms))
            or isinstance(n, sp.Function))


def _term(t: sp.Expr, syms: list[sp.Symbol]) -> Term:
    exps = [sp.Integer(0)] * len(syms)
    coeff: list[tuple[sp.Rational, sp.Rational]] = []
    for f in sp.Mul.make_args(t):
        base, ex = f.as_base_exp()
        if not ex.is_Rational:
            continue
        for g in sp.Mul.make_args(base):      # (c·Π x^k)^r = c^r·Π x^(k·r) for the cost
            b, k = g.as_base_exp()
            if b in syms:
                exps[syms.index(b)] += k * ex
            elif b.is_Rational:
                coeff.append((b, k * ex))
    return tuple(exps), tuple(coeff)


def monomial_pieces(exprs: list[sp.Expr], syms: list[sp.Symbol]) -> list[list[Term]]:
    """The polynomial pieces of ``exprs`` (see the module docstring) as lists of terms; a subterm
    that is not a monomial factor (``√(a + b)``, ``|x|``) is an opaque factor that no rescaling
    touches, and its arguments are pieces of their own."""
    out: list[list[Term]] = []
    symset = set(syms)
    stack = [sp.sympify(e) for e in exprs]
    while stack:
        cur = stack.pop()
        mapping: dict[sp.Expr, sp.Symbol] = {}
        it = sp.preorder_traversal(cur)
        for n in it:
            if _opaque(n, symset):
                mapping[n] = sp.Dummy("o")
                stack.extend(n.args[:1] if isinstance(n, sp.Pow) else n.args)
                it.skip()
        num, den = sp.fraction(sp.together(cur.xreplace(mapping)))
        for part in (num, den):
            terms = sp.Add.make_args(sp.expand(part))
            if part.free_symbols & symset and 2 <= len(terms) <= MAX_TERMS:
                out.append([_term(t, syms) for t in terms])
    return out


def _valuation(coeff: tuple[tuple[sp.Rational, sp.Rational], ...], p: int) -> float:
    v = sp.Integer(0)
    for base, ex in coeff:
        q = sp.Rational(base)
        v += ex * (sp.multiplicity(p, abs(int(q.p))) - sp.multiplicity(p, int(q.q)))
    return float(v)


def _cost_table(pieces: list[list[Term]], p: int, grid: np.ndarray) -> np.ndarray:
    """Cost of every exponent vector of ``grid`` (rows) for prime ``p``, summed over the pieces."""
    cost = np.zeros(len(grid))
    for terms in pieces:
        M = np.array([[float(x) for x in exps] for exps, _ in terms])
        v = np.array([_valuation(c, p) for _, c in terms])
        shifted = v[None, :] - grid @ M.T
        cost += (shifted - shifted.min(axis=1, keepdims=True)).sum(axis=1)
    return cost


def _primes(pieces: list[list[Term]]) -> list[int]:
    bases = {sp.Rational(b) for terms in pieces for _, c in terms for b, _ in c}
    return [p for p in PRIMES if any(q.p % p == 0 or q.q % p == 0 for q in bases)][:MAX_PRIMES]


def _worth_it(before: float, after: float) -> bool:
    """A rescaling worth a candidate: the cost at least halved and lowered by ``MIN_GAIN`` or more."""
    return after <= before / 2 and before - after >= MIN_GAIN


def best_scales(pieces: list[list[Term]], n: int, *, worth_it: Callable[[float, float], bool] | None = None
                ) -> list[sp.Rational] | None:
    """``k_i`` per variable (``x_i ↦ x_i / k_i``) lowering the cost, or None when none does;
    ``worth_it(before, after)`` decides per prime (default :func:`_worth_it`)."""
    primes = _primes(pieces)
    if n not in RANGE or not primes:
        return None
    R = RANGE[n]
    grid = np.array(list(itertools.product(range(-R, R + 1), repeat=n)), dtype=float)
    order = np.lexsort((np.abs(grid).sum(axis=1),))        # smallest Σ|e_i| first among equal costs
    zero = int(np.where(~grid.any(axis=1))[0][0])
    scales = [sp.Integer(1)] * n
    for p in primes:
        cost = np.round(_cost_table(pieces, p, grid), 6)    # fractional valuations: no float ties
        best = order[int(np.argmin(cost[order]))]
        if (worth_it or _worth_it)(float(cost[zero]), float(cost[best])):
            scales = [s * sp.Integer(p) ** int(e) for s, e in zip(scales, grid[best])]
    if all(s == 1 for s in scales) or (n > 1 and len(set(scales)) == 1):
        return None     # the same factor for every variable only renormalises the constants
    return scales


def symmetries(e: sp.Expr, syms: list[sp.Symbol]) -> int:
    """How many permutations of ``syms`` leave the polynomial ``e`` unchanged (at most 4 variables)."""
    if not 2 <= len(syms) <= 4:
        return 1
    e = sp.expand(e)
    return sum(1 for perm in itertools.permutations(syms)
               if sp.expand(e.xreplace(dict(zip(syms, perm))) - e) == 0)


def _normalised(r: Relation, syms: list[sp.Symbol]) -> Relation:
    """``r`` divided by the positive content of its polynomial slack (``0 <= a/2`` → ``0 <= a``)."""
    s = sp.expand(r.lhs - r.rhs)
    if s == 0 or not is_polynomial(s, syms):
        return r
    content = abs(sp.Poly(s, *syms).primitive()[0])
    if content in (0, 1):
        return r
    return Relation(sp.expand(r.lhs / content), r.op, sp.expand(r.rhs / content))


def _has_number(e: sp.Expr) -> bool:
    """A coefficient or constant other than ``0``, ``±1`` (exponents do not count)."""
    def big(n: sp.Expr) -> bool:
        return isinstance(n, sp.Rational) and (abs(n.p) > 1 or n.q > 1)

    return big(e) or any(big(a) for n in sp.preorder_traversal(e) if n.is_Add or n.is_Mul for a in n.args)


class RescaleVariables(SingleStepRewrite):
    """``x ↦ x/k`` for the variables whose rescaling makes the goal's coefficients smaller."""

    name = "rescale"
    score = UNDO_SCORE

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        """An equivalence that undoes a scaled statement (Schur at ``2a``), so the only step
        proposed at its goal, as :mod:`prover.rewrite.undo`'s: a child left in roots would rank
        far behind the naming of the roots, and every generator applies to the child."""
        for c in super().generate(goal):
            moved = [var(x) for x in c.step.certificate["substitution"]]
            c.exclusive = not any(named_root(goal, x) for x in moved)
            if not c.exclusive:
                c.score = 0.9       # named roots rescaled: one candidate among the others
            yield c

    def accepts(self, goal: Goal) -> bool:
        if len(goal.variables) not in RANGE:
            return False
        return any(_has_number(sp.sympify(side)) for r in (goal.target, *goal.hypotheses) for side in (r.lhs, r.rhs))

    def apply(self, goal: Goal) -> Step | None:
        syms = symbols_of(goal)
        rels = (goal.target, *goal.hypotheses)
        pieces = monomial_pieces([r.lhs - r.rhs for r in rels], syms)
        scales = best_scales(pieces, len(syms)) or self._symmetric_scales(goal, syms, pieces)
        if scales is None:
            return None
        fwd = {x: x / k for x, k in zip(syms, scales) if k != 1}
        inv = {x: k * x for x, k in zip(syms, scales) if k != 1}
        return _step(goal, syms, fwd, inv)


    @staticmethod
    def _symmetric_scales(goal: Goal, syms: list[sp.Symbol], pieces: list[list[Term]]) -> list[sp.Rational] | None:
        """A smaller lowering of the cost (by :data:`MIN_GAIN`, not halved) is kept when it makes
        the polynomial target more symmetric: ``27·(p²(2q) + (2q)²r + r²p + p(2q)r) ≤ 4(p + 2q + r)³``
        at ``q ↦ q/2`` is the cyclic seed (the spread between 4 and 27 stays, so the cost only drops
        22 → 12)."""
        slack = goal.target.slack()
        if not is_polynomial(slack, syms):
            return None
        scales = best_scales(pieces, len(syms), worth_it=lambda before, after: before - after >= MIN_GAIN)
        if scales is None:
            return None
        moved = sp.sympify(slack).subs({x: x / k for x, k in zip(syms, scales)}, simultaneous=True)
        return scales if symmetries(moved, syms) > symmetries(slack, syms) else None


def _step(goal: Goal, syms: list[sp.Symbol], fwd: dict, inv: dict) -> Step | None:
    def moved(r: Relation) -> Relation:
        return Relation(sp.sympify(r.lhs).subs(fwd, simultaneous=True), r.op,
                        sp.sympify(r.rhs).subs(fwd, simultaneous=True))

    hyps: list[Relation] = []
    for h in goal.hypotheses:
        new = _normalised(moved(h), syms)
        if new not in hyps:
            hyps.append(new)
    proofs = []
    for k, h in enumerate(hyps):
        pr = hypothesis_proof(h, inv, goal)
        if pr is None:
            return None
        proofs.append(NewHypothesis(k, pr))
    cert = SubstituteCertificate({str(x): expr_to_str(e) for x, e in fwd.items()},
                                 {str(x): expr_to_str(e) for x, e in inv.items()}, {}, tuple(proofs))
    note = "rescale " + ", ".join(f"{x} = {e}" for x, e in fwd.items())
    step = Step("substitute", goal, [Goal(goal.variables, tuple(hyps), moved(goal.target))], cert.to_json(),
                note=note)
    try:
        Kernel().check_one(step)   # sympy's forms under a root may differ from the kernel's reading
    except KernelError:
        return None
    return step
