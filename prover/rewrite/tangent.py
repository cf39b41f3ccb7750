"""Tangent line trick: ``Σ_x g_x(x) + K >= 0`` under ``Σ_x φ_x(x) + c₀ = 0`` closes term by term.

At the point where every ``φ_x`` takes its share ``−c₀/n`` and with one slope ``β = g_x'/φ_x'`` there
(the same for every variable), each ``G_x = g_x − g_x(x₀) − β·(φ_x − φ_x(x₀))`` has a double root at
``x₀``: ``G = (x − x₀)² R / D``. When ``R·D`` splits into nonnegative coefficients, positive definite
quadratics and bounds ``B − x`` that hypotheses state, ``G`` is a sum of squares times hypothesis
products, and ``slack = Σ G_x + β·(constraint) + rest`` (``rest ≥ 0`` a constant) is an exact ``sos``
close certificate. Used as a closer (:func:`tangent_line_step`), also after reading the others' sum
through a linear constraint and after stating the bounds ``x < S/w`` the constraint implies.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, NewHypothesis, SosCertificate, SosTerm
from prover.problem import Relation
from prover.rewrite.base import Candidate, is_positive, is_rational_function, rewrite_step, symbols_of
from prover.rewrite.facts import nonneg_hyp_of


def _separate(s: sp.Expr, syms: list[sp.Symbol]) -> tuple[dict[sp.Symbol, sp.Expr], sp.Expr] | None:
    """``s = Σ_x parts[x] + const`` with each part in one variable only."""
    parts: dict[sp.Symbol, sp.Expr] = {x: sp.Integer(0) for x in syms}
    const = sp.Integer(0)
    for t in sp.Add.make_args(s):
        fs = t.free_symbols & set(syms)
        if not fs:
            const += t
        elif len(fs) == 1:
            x = next(iter(fs))
            parts[x] += t
        else:
            return None
    return parts, const


def _separable_constraints(goal: Goal, syms: list[sp.Symbol]) -> Iterator[tuple[int, dict[sp.Symbol, sp.Expr], sp.Expr]]:
    """``(hyp index, φ, c₀)`` for each equality hypothesis ``Σ_x φ_x(x) + c₀ = 0`` (lhs − rhs) whose
    terms each hold one variable, every variable of ``syms`` with a non-constant ``φ_x``."""
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        eq = sp.expand(sp.sympify(h.lhs) - sp.sympify(h.rhs))
        if eq.free_symbols - set(syms) or not is_rational_function(eq, syms):
            continue
        sep = _separate(eq, syms)
        if sep is not None and all(sep[0][x].free_symbols for x in syms):
            yield i, sep[0], sep[1]


def _touch_points(g: sp.Expr, phi: sp.Expr, share: sp.Expr, x: sp.Symbol, goal: Goal) -> dict[sp.Expr, sp.Expr]:
    """``{β: x₀}`` over the rational roots ``x₀`` of ``φ(x) = share`` allowed by the sign of ``x``
    (a hypothesis ``x ≥ 0``/``x > 0``): ``β = g'(x₀)/φ'(x₀)``, the slope that makes
    ``g − β·φ`` stationary there (a Lagrange multiplier of the constraint)."""
    num = sp.fraction(sp.cancel(phi - share))[0]
    if not num.free_symbols:
        return {}
    signed = nonneg_hyp_of(goal, x) is not None
    out: dict[sp.Expr, sp.Expr] = {}
    for r in sp.roots(sp.Poly(num, x), filter="Q"):
        if signed and r <= 0:
            continue
        try:
            dphi, dg = sp.diff(phi, x).subs(x, r), sp.diff(g, x).subs(x, r)
        except ZeroDivisionError:
            continue
        if dphi.is_Rational and dg.is_Rational and dphi != 0:
            out.setdefault(dg / dphi, r)
    return out


def _term_squares(G: sp.Expr, x: sp.Symbol, x0: sp.Expr, goal: Goal) -> list[SosTerm] | None:
    """``G(x) = (x − x₀)²·R/D`` as ``Σ c·x^k·((x − x₀)·q/D)²`` (``c > 0``; ``x^k`` with odd ``k``
    from a hypothesis ``x ≥ 0``), or None."""
    num, den = sp.fraction(sp.cancel(G))
    if num == 0:
        return []
    if sp.Poly(den, x).LC() < 0:
        num, den = -num, -den
    den_form = positive_form(den, x, goal)
    if den_form is None:
        return None
    q, r = sp.div(sp.Poly(num, x), sp.Poly((x - x0) ** 2, x))
    if not r.is_zero:
        return None
    # G = (x-x0)² R / D = R·D · ((x-x0)/D)²
    idx = nonneg_hyp_of(goal, x)
    terms: list[SosTerm] = []
    for part, bounds in _bounded_parts(sp.expand(q.as_expr() * den), x, goal):
        pieces = square_decomposition(part, x)
        if pieces is None or idx is None and any(k for _, k, _ in pieces):
            return None
        terms += [SosTerm(expr_to_str(c), expr_to_str(sq * (x - x0) / den_form), (idx,) * k + bounds)
                  for c, k, sq in pieces]
    return terms


def _bounded_parts(p: sp.Expr, x: sp.Symbol, goal: Goal) -> list[tuple[sp.Expr, tuple[int, ...]]]:
    """``p`` as ``Σ pᵢ·Π (slack of a bound hypothesis)``: an odd linear factor ``c·(B' − x)``
    (``c > 0``) with a hypothesis ``x ≤ B`` (``x < B``), ``B ≤ B'``, is ``c·(B − x) + c·(B' − B)`` —
    the tangent line holds on ``x ≤ B'``, a range the constraint's bound contains. One such factor
    is split (the others stay in ``p``); ``[(p, ())]`` when there is none."""
    if not p.free_symbols:
        return [(p, ())]
    coeff, factors = sp.factor_list(p, x)
    for n, (f, m) in enumerate(factors):
        if m % 2 == 0 or f.free_symbols != {x} or sp.Poly(f, x).degree() != 1:
            continue
        if sp.Poly(f, x).LC() > 0:       # c·(x − B')^m = −c·(B' − x)^m for odd m
            f, sign = -f, -1
        else:
            sign = 1
        slope, b_root = sp.Poly(f, x).LC(), sp.solve(f, x)[0]
        j = _upper_bound_hypothesis(goal, x, b_root)
        if j is None:
            continue
        bound = goal.hypotheses[j]
        rest = sign * coeff * f ** (m - 1) * sp.Mul(*(g ** k for i, (g, k) in enumerate(factors) if i != n))
        # f = −slope·(B' − x) = −slope·(B − x) − slope·(B' − B), with B − x the hypothesis' slack
        gap = -slope * (b_root - (sp.sympify(bound.rhs) if bound.op in ("<", "<=") else sp.sympify(bound.lhs)))
        return [(part, bounds) for part, bounds in ((sp.expand(-slope * rest), (j,)), (sp.expand(gap * rest), ()))
                if part != 0]
    return [(p, ())]


def _upper_bound_hypothesis(goal: Goal, x: sp.Symbol, b_root: sp.Expr) -> int | None:
    """The index of a hypothesis ``x < B`` / ``x ≤ B`` (``B`` a number, ``B ≤ b_root``)."""
    for i, h in enumerate(goal.hypotheses):
        lhs, rhs = sp.sympify(h.lhs), sp.sympify(h.rhs)
        if h.op in ("<", "<=") and lhs == x and rhs.is_Rational and rhs <= b_root:
            return i
        if h.op in (">", ">=") and rhs == x and lhs.is_Rational and lhs <= b_root:
            return i
    return None


def _quadratic_square(p: sp.Poly, x: sp.Symbol) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """``a x² + b x + c`` with ``a > 0`` and ``b² < 4ac`` as ``a (x + b/2a)² + (c - b²/4a)``."""
    if p.degree() != 2:
        return None
    a, b, c = p.all_coeffs()
    if a <= 0 or b * b - 4 * a * c >= 0:
        return None
    return [(a, 0, x + b / (2 * a)), (c - b * b / (4 * a), 0, sp.Integer(1))]


def square_decomposition(e: sp.Expr, x: sp.Symbol) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """``e = Σ c · x^k · q²`` with rationals ``c > 0`` (valid for ``x >= 0``), or None.

    Factors with nonnegative coefficients give monomials, positive definite quadratics complete
    the square, and the product of the factors' decompositions is expanded."""
    coeff, factors = sp.factor_list(sp.expand(e), x)
    if coeff <= 0:
        return None
    out: list[tuple[sp.Expr, int, sp.Expr]] = [(coeff, 0, sp.Integer(1))]
    for f, m in factors:
        p = sp.Poly(f, x)
        if m % 2 == 0:
            pieces = [(sp.Integer(1), 0, f ** (m // 2))]
        else:
            base = [(c, k, sp.Integer(1)) for (k,), c in p.terms()] if all(c >= 0 for c in p.coeffs()) \
                else _quadratic_square(p, x)
            if base is None:
                return None
            pieces = [(sp.Integer(1), 0, f ** (m // 2))]
            pieces = [(c1 * c2, k1 + k2, q1 * q2) for c1, k1, q1 in pieces for c2, k2, q2 in base]
        out = [(c1 * c2, k1 + k2, q1 * q2) for c1, k1, q1 in out for c2, k2, q2 in pieces]
    return [(c, k, q) for c, k, q in out if c != 0]


def positive_form(d: sp.Expr, x: sp.Symbol, goal: Goal) -> sp.Expr | None:
    """``d`` written so that positivity rules see it is positive (factored, squares completed)."""
    if is_positive(d, goal, strict=True):
        return d
    pieces = square_decomposition(d, x)
    if pieces is None:
        return None
    form = sp.Add(*[c * x ** k * q ** 2 for c, k, q in pieces], evaluate=False)
    return form if is_positive(form, goal, strict=True) else None


#: largest target (operations) expanded to find its terms in one variable each
EXPAND_OPS = 400


def tangent_line_step(goal: Goal) -> Step | None:
    """The first :class:`TangentLine` close step for ``goal``, or None (a closer: milliseconds);
    else the same after :func:`others_by_constraint` (a ``rewrite`` step with the close below it)."""
    step = next((c.step for c in TangentLine().generate(goal)), None)
    if step is not None:
        return step
    chain: list[Step] = []
    for make in (others_by_constraint, upper_bounds_by_constraint):
        at = chain[-1].subgoals[0] if chain else goal
        if make is upper_bounds_by_constraint and not _separated(at):
            break               # no tangent line without terms in one variable each: nothing to bound
        step = make(at)
        if step is None:
            continue
        chain.append(step)
        close = next((c.step for c in TangentLine().generate(step.subgoals[0])), None)
        if close is not None:
            for parent, child in zip(chain, [*chain[1:], close]):
                parent.children = [child]
            return chain[0]
    return None


def upper_bounds_by_constraint(goal: Goal) -> Step | None:
    """``x < S`` for each variable of a constraint ``Σ x = S`` whose other variables are positive, as
    new hypotheses (a ``rewrite`` step, multiplier 1, each bound SOS-proved): the range on which a
    tangent line ``g(x) ≥ α + βx`` may have to hold."""
    t = goal.target
    if not t.is_inequality:
        return None
    syms = [x for x in symbols_of(goal) if x in t.free_symbols()]
    for hyp, total, S in _sum_constraints(goal, syms):
        h = goal.hypotheses[hyp]
        sign = 1 if sp.expand(sp.sympify(h.lhs) - sp.sympify(h.rhs) - (total - S)) == 0 else -1
        positive = {x: i for x in syms if (i := _positive_hypothesis(goal, x)) is not None}
        if len(positive) < len(syms):
            continue
        hyps, proofs = list(goal.hypotheses), []
        for x in syms:
            w = total.coeff(x)
            bound = Relation(x, "<", S / w)
            if bound in hyps:
                continue
            # S/w − x = (Σ_{y ≠ x} w_y·y − (Σ w_y·y − S))/w: the others' positivity and the constraint
            proof = SosCertificate(tuple(SosTerm(str(total.coeff(y) / w), "1", (positive[y],))
                                         for y in syms if y != x),
                                   (EqTerm(hyp, str(-sign / w)),))
            hyps.append(bound)
            proofs.append(NewHypothesis(len(hyps) - 1, proof))
        if proofs:
            new_goal = Goal(goal.variables, tuple(hyps), t)
            return rewrite_step(goal, t, sp.Integer(1), new_goal=new_goal, new_hypotheses=proofs,
                                note=f"each variable below {S} (the constraint, the others positive)")
    return None


def _separated(goal: Goal) -> bool:
    """Whether the target's slack is a sum of terms in one variable each (as written)."""
    t = goal.target
    syms = [x for x in symbols_of(goal) if x in t.free_symbols()]
    return t.is_inequality and _separate(sp.sympify(t.slack()), syms) is not None


def others_by_constraint(goal: Goal) -> Step | None:
    """Each target term that holds the other variables only as their sum in a linear constraint
    ``Σ x = S`` reads it as ``S − x`` (``1/(a² + b + c)`` under ``a + b + c = 3`` is
    ``1/(a² − a + 3)``): a ``rewrite`` step, multiplier 1, one equality term per changed term
    (``t − t' = λ·(Σx − S)`` with ``λ`` factored, so its denominators stay the terms' own)."""
    t = goal.target
    if not t.is_inequality or sp.count_ops(t.slack()) > EXPAND_OPS:
        return None
    syms = [x for x in symbols_of(goal) if x in t.free_symbols()]
    for hyp, total, S in _sum_constraints(goal, syms):
        h = goal.hypotheses[hyp]
        eq = sp.expand(sp.sympify(h.lhs) - sp.sympify(h.rhs))        # ±(total − S)
        new_terms, eq_terms = [], []
        for term in sp.Add.make_args(sp.sympify(t.slack())):
            new = term
            for x in syms:
                w = total.coeff(x)
                new = new.subs(total - w * x, S - w * x)
            if new == term or len(new.free_symbols) != 1:
                new = term          # only what becomes a term in one variable (the tangent line's)
            new_terms.append(new)
            if new != term:
                eq_terms.append((hyp, sp.factor(sp.cancel(term - new) / eq)))
        if eq_terms:
            target = Relation(sp.Add(*new_terms), ">" if t.strict else ">=", sp.Integer(0))
            return rewrite_step(goal, target, sp.Integer(1), eq_terms,
                                note=f"the others' sum by the constraint {total} = {S}")
    return None


def _positive_hypothesis(goal: Goal, x: sp.Symbol) -> int | None:
    """The index of a hypothesis ``0 < x`` (``x > 0``)."""
    for i, h in enumerate(goal.hypotheses):
        if h.strict and sp.expand(h.slack()) == x:
            return i
    return None


def _sum_constraints(goal: Goal, syms: list[sp.Symbol]) -> Iterator[tuple[int, sp.Expr, sp.Expr]]:
    """``(hyp index, Σ w_x·x, S)`` for each hypothesis ``Σ w_x·x = S`` over ``syms`` (three or
    more), every weight ``w_x`` a positive rational, ``S`` a number."""
    if len(syms) < 3:
        return
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        diff = sp.expand(sp.sympify(h.lhs) - sp.sympify(h.rhs))
        if diff.free_symbols != set(syms) or not diff.is_polynomial(*syms) \
                or sp.Poly(diff, *syms).total_degree() != 1:
            continue
        S = -diff.subs({x: 0 for x in syms})
        total = sp.expand(diff + S)
        weights = [total.coeff(x) for x in syms]
        if all(w.is_Rational for w in weights) and (all(w > 0 for w in weights) or all(w < 0 for w in weights)):
            yield (i, total, S) if weights[0] > 0 else (i, -total, -S)


class TangentLine:
    """Per-term tangent lines under a separable constraint ``Σ φ_x(x) + c₀ = 0``: at the point where
    every ``φ_x`` takes its equal share ``−c₀/n`` (the equality case of a symmetric inequality and of
    its substitutions ``x ↦ 2x``, ``x ↦ x²``, ``x ↦ 1/x``), one slope ``β`` makes each goal term
    ``g_x − β·φ_x`` touch its value there; ``slack = Σ G_x + β·(constraint) + R`` with each ``G_x``
    a square times a nonnegative part and ``R ≥ 0`` the constant a weakened bound leaves."""

    name = "tangent-line"

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        t = goal.target
        if not t.is_inequality or t.strict:
            return
        syms = [x for x in symbols_of(goal) if x in t.free_symbols()]
        s = t.slack()
        if len(syms) < 2 or not is_rational_function(s, syms):
            return
        sep = _separate(s, syms)
        if sep is None and sp.count_ops(s) <= EXPAND_OPS:
            sep = _separate(sp.expand(s), syms)     # `3 * (Σ g(x))`, `(3 * d) ^ 2`: distributed
        if sep is None:
            return
        parts, const = sep
        for hyp, phi, c0 in _separable_constraints(goal, syms):
            step = _tangent_step(goal, syms, parts, const, hyp, phi, c0)
            if step is not None:
                yield Candidate(step, self.name, 2.0)
                return


def _tangent_step(goal: Goal, syms: list[sp.Symbol], parts: dict[sp.Symbol, sp.Expr], const: sp.Expr,
                  hyp: int, phi: dict[sp.Symbol, sp.Expr], c0: sp.Expr) -> Step | None:
    share = -c0 / len(syms)
    touch = {x: _touch_points(parts[x], phi[x], share, x, goal) for x in syms}
    common = set.intersection(*(set(t) for t in touch.values()))
    for beta in sorted(common, key=lambda b: (abs(b), b)):
        points = {x: touch[x][beta] for x in syms}
        rest = sp.cancel(sum((parts[x].subs(x, points[x]) for x in syms), const))
        if not rest.is_Rational or rest < 0:
            continue
        terms: list[SosTerm] = []
        for x in syms:
            G = parts[x] - parts[x].subs(x, points[x]) - beta * (phi[x] - phi[x].subs(x, points[x]))
            squares = _term_squares(G, x, points[x], goal)
            if squares is None:
                break
            terms += squares
        else:
            if rest > 0:
                terms.append(SosTerm(expr_to_str(rest), "1", ()))
            cert = SosCertificate(tuple(terms), (EqTerm(hyp, expr_to_str(beta)),))
            at = ", ".join(f"{x} = {points[x]}" for x in syms)
            return Step("close", goal, [], cert.to_json(), note=f"tangent line trick at {at}")
    return None
