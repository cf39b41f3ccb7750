"""Changes of variables as ``substitute`` steps: Ravi (triangle sides), ``abc = 1`` → ratios,
and reciprocals ``a = 1/x``.

Each step records ``substitution`` (old var → f(new vars)), ``inverse`` (new var → g(old vars))
and, for every hypothesis of the new goal, a close certificate proving it (after the inverse
substitution) from the old goal's hypotheses in ``new_hypotheses``. ``eq_terms`` gives,
per old variable ``v`` whose ``f(g(v)) - v`` vanishes only modulo equality hypotheses, the
multipliers ``λ_j`` with ``f(g(v)) - v = Σ λ_j · eq(H_j)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    CloseCertificate,
    EqTerm,
    NewHypothesis,
    PositivityCertificate,
    SosCertificate,
    SosTerm,
    SubstituteCertificate,
)
from prover.problem import Relation, var
from prover.rewrite.base import (
    Candidate,
    SingleStepRewrite,
    denominator_has_sign,
    fresh_names,
    is_positive,
    is_rational_function,
    positive_vars,
    symbols_of,
)


def _linear_multiple(target: sp.Expr, base: sp.Expr) -> sp.Expr | None:
    """``c`` with ``target = c·base`` for a nonzero rational constant ``c`` (else None)."""
    target, base = sp.expand(target), sp.expand(base)
    if base == 0:
        return None
    c = sp.cancel(target / base)
    return c if c.is_Rational and c != 0 else None


def hypothesis_proof(h_new: Relation, inverse: dict[sp.Symbol, sp.Expr],
                     goal: Goal) -> CloseCertificate | None:
    """A close certificate for ``h_new`` (inverse-substituted) over ``goal``'s hypotheses."""
    back = Relation(sp.sympify(h_new.lhs).subs(inverse, simultaneous=True), h_new.op,
                    sp.sympify(h_new.rhs).subs(inverse, simultaneous=True))
    s = sp.together(back.slack())
    if back.op == "=":
        if sp.expand(sp.numer(s)) == 0:
            return SosCertificate()
        for j, h in enumerate(goal.hypotheses):
            if h.op != "=" or sp.expand(h.lhs - h.rhs) == 0:
                continue
            lam = sp.factor(sp.cancel(s / (h.lhs - h.rhs)))   # a rational function is fine here
            if not lam.free_symbols or is_positive(sp.denom(lam), goal, strict=True):
                return SosCertificate(eq_terms=(EqTerm(j, expr_to_str(lam)),))
        return None
    if back.is_inequality:
        for j, h in enumerate(goal.hypotheses):
            if not h.is_inequality or (back.strict and not h.strict):
                continue
            c = _linear_multiple(s, h.slack())
            if c is not None and c > 0:
                return SosCertificate((SosTerm(expr_to_str(c), "1", (j,)),))
        if is_positive(s, goal, strict=back.strict):
            return PositivityCertificate()
    return None


def _is_trivial(r: Relation) -> bool:
    return r.op == "=" and sp.expand(sp.numer(sp.together(r.lhs - r.rhs))) == 0


def _clean_equality(r: Relation, new_goal_vars: Goal) -> Relation:
    """``N/D = 0`` with ``D`` positive becomes the polynomial equation ``N = 0`` (written two-sided)."""
    if r.op != "=":
        return r
    num, den = sp.fraction(sp.together(r.lhs - r.rhs))
    if den == 1 or not is_positive(den, new_goal_vars, strict=True):
        return r
    num = sp.expand(num)
    pos = sp.Add(*[t for t in sp.Add.make_args(num) if not t.as_coeff_Mul()[0].is_negative])
    return Relation(pos, "=", sp.expand(pos - num))


def substitute_step(goal: Goal, new_vars: list[str], subst: dict[sp.Symbol, sp.Expr],
                    inverse: dict[sp.Symbol, sp.Expr], new_hyps: list[Relation],
                    drop: set[int], note: str,
                    inverse_eq_terms: dict[str, tuple[EqTerm, ...]] | None = None, *,
                    roots: bool = False, mapper: Callable[[sp.Expr], sp.Expr] | None = None) -> Step | None:
    """Build the step; ``drop`` are hypothesis indices of ``goal`` not carried over. ``mapper``
    writes an expression at the substitution (default: ``subs``), for a caller that knows a
    simpler form (the kernel checks it is the same function).

    Only for rational targets unless ``roots``: under a root, sympy may rewrite ``sqrt(2·z)`` as
    ``sqrt(2)·sqrt(z)``, atoms the kernel may not match (it checks the step either way), and each
    root costs the Lean connection a bridge (``congrArg Real.sqrt`` of a ``ring`` identity).
    """
    if not roots and not is_rational_function(goal.target.slack(), [var(v) for v in goal.variables]):
        return None
    def at(e: sp.Expr) -> sp.Expr:
        return mapper(sp.sympify(e)) if mapper else sp.sympify(e).subs(subst, simultaneous=True)

    hyps = list(new_hyps)
    for i, h in enumerate(goal.hypotheses):
        if i in drop:
            continue
        hs = Relation(at(h.lhs), h.op, at(h.rhs))
        hs = _clean_equality(hs, Goal(tuple(new_vars), tuple(new_hyps), goal.target))
        if not _is_trivial(hs) and hs not in hyps:
            hyps.append(hs)
    target = Relation(at(goal.target.lhs), goal.target.op, at(goal.target.rhs))
    proofs = []
    for k, h in enumerate(hyps):
        pr = hypothesis_proof(h, inverse, goal)
        if pr is None:
            return None
        proofs.append(NewHypothesis(k, pr))
    new_goal = Goal(tuple(new_vars), tuple(hyps), target)
    if not denominator_has_sign(target.slack(), new_goal):
        return None    # the kernel needs the new target's denominators nonzero from the new hypotheses
    cert = SubstituteCertificate(
        {str(k): expr_to_str(v) for k, v in subst.items()},
        {str(k): expr_to_str(v) for k, v in inverse.items()},
        dict(inverse_eq_terms or {}),
        tuple(proofs),
    )
    return Step("substitute", goal, [new_goal], cert.to_json(), note=note)


def _triangle_hyp(goal: Goal, a: sp.Symbol, b: sp.Symbol, c: sp.Symbol) -> int | None:
    """Index of a hypothesis saying ``a + b > c`` (or ``>=``)."""
    want = sp.expand(a + b - c)
    for i, h in enumerate(goal.hypotheses):
        if h.is_inequality and sp.expand(h.slack()) == want:
            return i
    return None


class RaviSubstitution:
    """Triangle sides ``a, b, c`` → ``a = y+z, b = z+x, c = x+y`` with ``x, y, z > 0``."""

    name = "ravi"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        syms = symbols_of(goal)
        if len(syms) != 3:
            return
        a, b, c = syms
        idx = [_triangle_hyp(goal, b, c, a), _triangle_hyp(goal, c, a, b), _triangle_hyp(goal, a, b, c)]
        if any(i is None for i in idx):
            return
        names = fresh_names(goal, ["x", "y", "z"])
        x, y, z = (var(n) for n in names)
        subst = {a: y + z, b: z + x, c: x + y}
        inverse = {x: (b + c - a) / 2, y: (c + a - b) / 2, z: (a + b - c) / 2}
        strict = all(goal.hypotheses[i].strict for i in idx)  # type: ignore[index]
        op = ">" if strict else ">="
        new_hyps = [Relation(v, op, sp.Integer(0)) for v in (x, y, z)]
        drop = set(idx) | {i for i, h in enumerate(goal.hypotheses)  # a > 0 etc. follow from x,y,z > 0
                           if h.is_inequality and sp.expand(h.slack()) in (a, b, c)}
        st = substitute_step(goal, names, subst, inverse, new_hyps, drop, "Ravi substitution")
        if st is not None:
            yield Candidate(st, self.name, 1.0)


class ProductOneSubstitution:
    """``a·b·c = 1`` with positive ``a, b, c`` → ratios of new positive variables."""

    name = "product-one"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        syms = symbols_of(goal)
        pos = positive_vars(goal)
        if len(syms) != 3 or not set(syms) <= pos:
            return
        a, b, c = syms
        hyp = None
        for i, h in enumerate(goal.hypotheses):
            if h.op == "=" and sp.expand(h.lhs - h.rhs) in (sp.expand(a * b * c - 1), sp.expand(1 - a * b * c)):
                hyp = i
        if hyp is None:
            return
        eqsign = 1 if sp.expand(goal.hypotheses[hyp].lhs - goal.hypotheses[hyp].rhs) == sp.expand(a * b * c - 1) \
            else -1
        names = fresh_names(goal, ["x", "y", "z"])
        x, y, z = (var(n) for n in names)
        new_hyps = [Relation(v, ">", sp.Integer(0)) for v in (x, y, z)]
        drop = {hyp} | {i for i, h in enumerate(goal.hypotheses)
                        if h.is_inequality and sp.expand(h.slack()) in (a, b, c)}
        variants = [
            # a = x/y, b = y/z, c = z/x;  x = 1, y = 1/a, z = 1/(ab):  z/x - c = -(abc-1)/(ab)
            ({a: x / y, b: y / z, c: z / x}, {x: sp.Integer(1), y: 1 / a, z: 1 / (a * b)}),
            # a = y/x, b = z/y, c = x/z;  x = 1, y = a, z = ab:  x/z - c = -(abc-1)/(ab)
            ({a: y / x, b: z / y, c: x / z}, {x: sp.Integer(1), y: a, z: a * b}),
        ]
        lam = {str(c): (EqTerm(hyp, expr_to_str(-eqsign / (a * b))),)}
        for k, (subst, inverse) in enumerate(variants):
            st = substitute_step(goal, names, subst, inverse, new_hyps, drop,
                                 f"substitution {', '.join(f'{o} = {v}' for o, v in subst.items())}",
                                 inverse_eq_terms=lam)
            if st is not None:
                yield Candidate(st, self.name, 0.9 - 0.1 * k)


def _fractions(goal: Goal) -> int:
    """Negative powers in the target's slack and the hypotheses (how "reciprocal" a goal looks)."""
    exprs = [sp.sympify(goal.target.slack())] + [sp.sympify(h.slack()) for h in goal.hypotheses]
    return sum(1 for e in exprs for n in sp.preorder_traversal(e) if isinstance(n, sp.Pow) and n.exp.is_negative)


class ReciprocalSubstitution:
    """All variables positive → ``v = 1/w``: turns ``1/(a^3(b+c))`` shapes into polynomials.

    Scored high (:data:`UNDO_SCORE`) when it at least halves the negative powers of the goal and
    its hypotheses: the goal is then a reciprocal image ``G(1/x)`` of a simpler one (a textbook
    inequality written in ``1/a``), and undoing that beats clearing its denominators, whose
    polynomial has a much higher degree. Only such an undoing substitution is proposed for a
    target with roots (``√(2·((1/a)² + (1/b)²)) ≥ …``)."""

    name = "reciprocal"
    #: score of an undoing substitution (an equivalence step, ranked before clearing the
    #: denominators, whose child the ranker prefers for having no fraction left); ordinary: ``0.5``
    UNDO_SCORE = 10.0

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        syms = symbols_of(goal)
        pos = positive_vars(goal)
        if not syms or not set(syms) <= pos:
            return
        s = goal.target.slack()
        # worth it only when variables sit in denominators
        if not any(isinstance(n, sp.Pow) and n.exp.is_negative for n in sp.preorder_traversal(s)):
            return
        names = fresh_names(goal, [f"{v}_" for v in goal.variables])
        new = [var(n) for n in names]
        subst = dict(zip(syms, (1 / w for w in new)))
        inverse = dict(zip(new, (1 / v for v in syms)))
        new_hyps = [Relation(w, ">", sp.Integer(0)) for w in new]
        drop = {i for i, h in enumerate(goal.hypotheses) if h.is_inequality and sp.expand(h.slack()) in syms}
        st = substitute_step(goal, names, subst, inverse, new_hyps, drop, "reciprocal substitution", roots=True)
        if st is None:
            return
        undoes = 2 * _fractions(st.subgoals[0]) <= _fractions(goal)
        rational = is_rational_function(goal.target.slack(), syms)
        if undoes or rational:      # under roots only to undo a reciprocal image
            yield Candidate(st, self.name, self.UNDO_SCORE if undoes else 0.5)


class ProductOneRatios(SingleStepRewrite):
    """For ``x_1 ⋯ x_n = 1`` with all ``x_i > 0``: ``x_i = y_i / y_{i+1}`` (cyclically; inverse
    ``y_1 = 1``, ``y_{i+1} = 1/(x_1⋯x_i)``, exact modulo the constraint), which makes the target
    homogeneous of degree 0 in the ``y``. Any ``n``, unlike :class:`ProductOneSubstitution`; the
    subgoal keeps only ``y_i > 0`` (a stronger goal: the closers' normal form starts with it)."""

    name = "product-one-ratios"

    def accepts(self, goal: Goal) -> bool:
        syms = symbols_of(goal)
        return len(syms) >= 2 and set(syms) <= positive_vars(goal)

    def apply(self, goal: Goal) -> Step | None:
        syms = symbols_of(goal)
        if not self.accepts(goal):
            return None
        prod = sp.Mul(*syms)
        for i, h in enumerate(goal.hypotheses):
            eq = sp.expand(h.lhs - h.rhs) if h.op == "=" else None
            if eq is not None and (sp.expand(eq - (prod - 1)) == 0 or sp.expand(eq + (prod - 1)) == 0):
                return self._step(goal, syms, i, eq)
        return None

    @staticmethod
    def _step(goal: Goal, syms: list[sp.Symbol], i: int, eq: sp.Expr) -> Step:
        n = len(syms)
        new = [f"y{k}" for k in range(n)]
        while any(v in goal.variables for v in new):
            new = ["y" + v for v in new]
        ys = [var(v) for v in new]
        fwd = {syms[k]: ys[k] / ys[(k + 1) % n] for k in range(n)}
        inv = {new[0]: sp.Integer(1)} | {new[k]: 1 / sp.Mul(*syms[:k]) for k in range(1, n)}
        eq_terms: dict[str, tuple[EqTerm, ...]] = {}
        for x, fx in fwd.items():
            back = fx.subs({var(k): e for k, e in inv.items()}, simultaneous=True)
            lam = sp.cancel((back - x) / eq)
            if lam != 0:
                eq_terms[str(x)] = (EqTerm(i, expr_to_str(lam)),)
        t = goal.target
        target = Relation(sp.sympify(t.lhs).subs(fwd, simultaneous=True), t.op,
                          sp.sympify(t.rhs).subs(fwd, simultaneous=True))
        hyps = tuple(Relation(y, ">", sp.Integer(0)) for y in ys)
        proofs = tuple(NewHypothesis(k, PositivityCertificate()) for k in range(n))
        cert = SubstituteCertificate({str(x): expr_to_str(e) for x, e in fwd.items()},
                                     {k: expr_to_str(e) for k, e in inv.items()}, eq_terms, proofs)
        return Step("substitute", goal, [Goal(tuple(new), hyps, target)], cert.to_json(),
                    note=f"x_i = y_i/y_(i+1) from hypothesis {i}")


class LinearisingSubstitution:
    """``v = 1/w + β`` for every positive variable (``w = 1/(v − β)``, β < 0), when it turns the one
    equality constraint into a *linear* one: ``ab + bc + ca + abc = 4`` is ``Σ 1/(a + 2) = 1``
    (β = −2: ``x + y + z = 1``), ``a + b + ab = 3`` is ``x + y = 1/2`` (β = −3). The textbook
    trick behind these constraints, found by trying β, never by the constraint's shape; the goal
    then lives on a simplex, where homogenising and SOS apply. ``v > 0`` becomes ``w > 0``,
    ``1 + β·w > 0``."""

    name = "linearising substitution"
    BETAS = tuple(sp.Rational(b) for b in ("-1", "-2", "-3", "-4", "-1/2", "-1/3", "-2/3", "-3/2", "-1/4", "-3/4"))
    SCORE = 2.0

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        syms = symbols_of(goal)
        if len(syms) < 2 or not set(syms) <= positive_vars(goal):
            return
        eqs = [i for i, h in enumerate(goal.hypotheses) if h.op == "="]
        if len(eqs) != 1:
            return
        h = goal.hypotheses[eqs[0]]
        e = sp.expand(h.lhs - h.rhs)
        if not e.is_polynomial(*syms) or sp.Poly(e, *syms).total_degree() < 2:
            return
        names = fresh_names(goal, [f"{v}_" for v in goal.variables])
        new = [var(n) for n in names]
        for beta in self.BETAS:
            subst = {v: 1 / w + beta for v, w in zip(syms, new)}
            num = sp.expand(sp.numer(sp.together(e.subs(subst, simultaneous=True))))
            if num.is_number or sp.Poly(num, *new).total_degree() > 1:
                continue
            inverse = {w: 1 / (v - beta) for v, w in zip(syms, new)}
            new_hyps = [Relation(w, ">", sp.Integer(0)) for w in new]
            new_hyps += [Relation(1 + beta * w, ">", sp.Integer(0)) for w in new]
            drop = {i for i, hh in enumerate(goal.hypotheses) if hh.is_inequality and sp.expand(hh.slack()) in syms}
            st = substitute_step(goal, names, subst, inverse, new_hyps, drop,
                                 f"linearising substitution {', '.join(f'{v} = 1/{w} + ({beta})' for v, w in zip(syms, new))}")
            if st is not None:
                yield Candidate(st, self.name, self.SCORE)
            return
