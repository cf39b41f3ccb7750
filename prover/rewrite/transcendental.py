"""``Real.exp`` and ``Real.log`` terms (and ``π``) become new variables with Mathlib's facts (``introduce`` steps).

The closers work on polynomials and rational functions; ``exp X`` and ``log X`` are atoms to them.
Naming ``u := exp X`` brings the facts the kernel itself states for that definition
(``check._definition_facts``: ``u > 0`` by ``Real.exp_pos``, ``u ≥ X + 1`` by
``Real.add_one_le_exp``), and ``v := log X`` where ``X > 0`` is provable brings ``v ≤ X − 1``
(``Real.log_le_sub_one_of_pos``) and ``v ≥ 1 − X⁻¹`` (``Real.one_sub_inv_le_log_of_pos``). So
``4·exp x + exp (−x) ≥ 4`` becomes ``4u + u⁻¹ ≥ 4`` with ``u > 0``, and ``log (1 + x) ≤ x`` a fact;
``p := π`` brings ``3.141592 < p < 3.141593`` (``Real.pi_gt_d6``, ``Real.pi_lt_d6``).

Each term gets its own variable (so the target is the user's, atom for atom: Lean's ``ring``
connects them), and ``exp`` terms whose arguments are integer multiples of one polynomial are
related: ``exp (2x) = (exp x)²``, ``exp (−x) · exp x = 1`` (``Real.exp_add`` and ``Real.exp_neg``
are laws of the kernel's normal form, so the kernel checks each relation as an identity). Nothing here is trusted: the facts are asked of the kernel
(:func:`~prover.kernel.check.introduce_facts`) and the kernel checks the step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import gcd, lcm

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import IntroduceCertificate, NewHypothesis, SosCertificate
from prover.kernel.check import introduce_facts
from prover.problem import Relation, var
from prover.problem import exp as lean_exp
from prover.problem import log as lean_log
from prover.rewrite.base import Candidate, SingleStepRewrite, fresh_names, rewrite_step, symbols_of
from prover.rewrite.monotone import common_factor_step, function_peel
from prover.sympy_terms import term_to_sympy


def _relations(goal: Goal) -> list[Relation]:
    return [goal.target, *goal.hypotheses]


def transcendental_nodes(goal: Goal) -> list[sp.Expr]:
    """Every ``exp``/``log`` subterm and ``π`` of the goal, in order of first appearance, deduplicated."""
    out: list[sp.Expr] = []
    for r in _relations(goal):
        for side in (r.lhs, r.rhs):
            for n in sp.preorder_traversal(sp.sympify(side)):
                if (isinstance(n, (sp.exp, sp.log)) or n is sp.pi) and n not in out:
                    out.append(n)
    return out


def _direction(arg: sp.Expr, syms: list[sp.Symbol]) -> tuple[Fraction, sp.Expr] | None:
    """``arg = c·P`` with ``P`` a primitive integer polynomial of positive leading sign; None when
    ``arg`` is not a polynomial in the goal's variables."""
    if not arg.free_symbols <= set(syms) or not arg.is_polynomial(*syms):
        return None
    c, P = sp.expand(arg).as_content_primitive()
    if P.could_extract_minus_sign():
        c, P = -c, sp.expand(-P)
    return Fraction(int(sp.Rational(c).p), int(sp.Rational(c).q)), P


def _rational_gcd(values: list[Fraction]) -> Fraction:
    num = 0
    den = 1
    for v in values:
        num = gcd(num, abs(v.numerator))
        den = lcm(den, v.denominator)
    return Fraction(num, den)


def _integral(e: sp.Expr) -> bool:
    return all(sp.Rational(c).q == 1 for c in sp.Poly(e, *sorted(e.free_symbols, key=str)).coeffs()) \
        if e.free_symbols else sp.Rational(e).q == 1


def _placeholder(i: int) -> sp.Symbol:
    return sp.Symbol(f"_tr{i}")


def exp_log_names(goal: Goal) -> tuple[dict[sp.Expr, sp.Expr], list[sp.Expr], list[Relation]]:
    """``(replacement of each exp/log term, definitions in order, relations)``: each term is a
    placeholder ``_trᵢ`` standing for the ``i``-th definition's new variable; ``exp`` terms whose
    arguments are integer multiples ``kᵢ·B`` of one ``B`` are related to ``w := exp B`` (a
    definition of its own when no term is it): ``uᵢ = w ^ kᵢ``, or ``uᵢ · w ^ (−kᵢ) = 1``."""
    syms = symbols_of(goal)
    groups: dict[sp.Expr, list[tuple[sp.Expr, Fraction]]] = {}
    defs: list[sp.Expr] = []
    repl: dict[sp.Expr, sp.Expr] = {}
    for n in transcendental_nodes(goal):
        repl[n] = _placeholder(len(defs))
        defs.append(n)
        d = _direction(n.args[0], syms) if isinstance(n, sp.exp) else None
        if d is not None:
            groups.setdefault(d[1], []).append((n, d[0]))
    relations = _sum_relations(defs, repl, syms) + _log_relations(defs, repl)
    for P, members in groups.items():
        g = _rational_gcd([c for _, c in members])
        base = sp.expand(sp.Rational(g.numerator, g.denominator) * P)
        if len(members) < 2 or not _integral(base):   # exp (x/2): rpow atoms, not powers of exp x
            continue
        w = next((repl[n] for n, c in members if c == g), None)
        if w is None:
            w = _placeholder(len(defs))
            defs.append(lean_exp(base))
        for n, c in members:
            k = int(c / g)
            if repl[n] != w:
                relations.append(Relation(repl[n], "=", w ** k) if k > 0 else
                                 Relation(repl[n] * w ** (-k), "=", sp.Integer(1)))
    return repl, defs, relations


#: ``exp`` terms compared pairwise for sums of arguments (at most this many: cubic in their number)
MAX_SUM_RELATED = 8


def _sum_relations(nodes: list[sp.Expr], repl: dict[sp.Expr, sp.Expr], syms: list[sp.Symbol]) -> list[Relation]:
    """``exp A = exp B · exp C`` where ``A = B + C`` (``Real.exp_add``), among the goal's ``exp`` terms
    with polynomial arguments: ``exp (x + y)`` against ``exp x``, ``exp y``; ``exp (x − y)`` against
    ``exp x``, ``exp y`` (``exp (x − y) · exp y = exp x``)."""
    terms = [n for n in nodes if isinstance(n, sp.exp) and _direction(n.args[0], syms) is not None]
    if len(terms) > MAX_SUM_RELATED:
        return []
    args = [sp.expand(n.args[0]) for n in terms]
    out: list[Relation] = []
    for i, a in enumerate(args):
        for j, k in itertools.combinations(range(len(args)), 2):
            if i in (j, k):
                continue
            if sp.expand(a - args[j] - args[k]) == 0:
                out.append(Relation(repl[terms[i]], "=", repl[terms[j]] * repl[terms[k]]))
    return out


#: Numerators and denominators factored into primes for ``log q`` (the kernel's own bound).
MAX_FACTORED = 10**12


def _log_parts(arg: sp.Expr) -> list[tuple[sp.Expr, int]] | None:
    """``log arg = Σ e·log b`` by the kernel's laws (``Real.log_pow``, ``Real.log_neg_eq_log``,
    ``Real.log_mul`` for nonzero rationals): a rational as primes, ``f ^ k`` as ``k·log f``.
    None where ``arg`` is neither (``log (x·y)`` is not ``log x + log y`` at 0)."""
    if arg.is_Rational:
        parts: list[tuple[sp.Expr, int]] = []
        for n, sign in ((abs(int(arg.p)), 1), (int(arg.q), -1)):
            if 1 < n <= MAX_FACTORED:
                parts += [(sp.Integer(p), sign * e) for p, e in sp.factorint(n).items()]
            elif n > MAX_FACTORED:
                return None
        return parts or None
    if isinstance(arg, sp.Pow) and arg.exp.is_Integer and arg.exp != 0 and not arg.base.is_number:
        return [(arg.base, int(arg.exp))]
    return None


def _log_relations(defs: list[sp.Expr], repl: dict[sp.Expr, sp.Expr]) -> list[Relation]:
    """``log q = Σ eₚ·log p`` for a rational ``q`` and ``log (f ^ k) = k·log f`` (``log 8 = 3·log 2``,
    ``log (b ^ 2) = 2·log b``): identities of the kernel's normal form, so that logarithms of one
    base written differently are related. A base with no term of its own gets a definition."""
    out: list[Relation] = []
    for n in list(defs):
        if not isinstance(n, sp.log):
            continue
        parts = _log_parts(n.args[0])
        if parts is None or parts == [(n.args[0], 1)]:
            continue
        total: sp.Expr = sp.Integer(0)
        for base, e in parts:
            node = lean_log(base)
            if node not in repl:
                repl[node] = _placeholder(len(defs))
                defs.append(node)
            total += e * repl[node]
        if total != repl[n]:
            out.append(Relation(repl[n], "=", total))
    return out


def numeral_log_step(goal: Goal) -> Step | None:
    """A comparison of logarithms of positive rationals and numbers (``Real.logb 2 5 > 2``):
    over primes the slack is ``N / D`` with ``N = Σ cₚ·log p`` (no constant term) and ``D`` a
    combination of prime logs with positive coefficients (so ``D > 0``); it is ``m·log Q`` with
    ``Q = Π p^(k·cₚ)`` and ``m = 1/(k·D) > 0`` (an identity of the kernel's normal form), so the target
    becomes ``log Q > 0`` (``≥``), which ``Real.log_pos``/``log_neg`` then decide."""
    t = goal.target
    nodes = transcendental_nodes(goal)
    if not t.is_inequality or not nodes or not all(
            isinstance(n, sp.log) and n.args[0].is_Rational and n.args[0] > 0 for n in nodes):
        return None
    slack = sp.sympify(t.slack())
    if slack.free_symbols or (len(nodes) == 1 and slack == nodes[0]):
        return None            # not a numeral comparison, or already `log Q ⋈ 0`
    primes: dict[sp.Expr, sp.Symbol] = {}
    sub = {}
    for n in nodes:
        parts = _log_parts(n.args[0])
        if parts is None:
            return None
        sub[n] = sp.Add(*(e * primes.setdefault(b, sp.Symbol(f"_lp{b}")) for b, e in parts))
    num, den = sp.fraction(sp.together(slack.xreplace(sub)))
    gens = list(primes.values())
    if not gens:
        return None
    pn, pd = sp.Poly(sp.expand(num), *gens), sp.Poly(sp.expand(den), *gens)
    if pn.is_zero or pn.total_degree() > 1 or pn.coeff_monomial(1) != 0 or pd.coeff_monomial(1) != 0 \
            or pd.total_degree() > 1 or any(c <= 0 for c in pd.coeffs()):
        return None
    coeffs = {b: sp.Rational(pn.coeff_monomial(g)) for b, g in primes.items()}
    k = lcm(*(int(c.q) for c in coeffs.values()))
    q = sp.Mul(*(sp.Integer(b) ** int(k * c) for b, c in coeffs.items()))
    back = {g: lean_log(b) for b, g in primes.items()}
    m = 1 / (k * pd.as_expr().xreplace(back))
    target = Relation(lean_log(q), ">" if t.strict else ">=", sp.Integer(0))
    return rewrite_step(goal, target, m, note="logarithms of numerals as one: log Q compared with 0")


def _replace(e: sp.Expr, repl: dict[sp.Expr, sp.Expr], names: dict[sp.Symbol, sp.Symbol]) -> sp.Expr:
    return sp.sympify(e).xreplace(repl).xreplace(names)


class ExpLogAsVariables(SingleStepRewrite):
    """Every ``exp``/``log`` term of the goal named at once, with the kernel's facts about each."""

    name = "exp-log-as-variables"
    score = 0.95

    def accepts(self, goal: Goal) -> bool:
        return bool(transcendental_nodes(goal))

    def generate(self, goal: Goal) -> Iterator[Candidate]:
        """The step, ``exclusive``: it loses nothing (the target is the goal's, the facts are true),
        and a step before it (a rescaling ``x ↦ x/2``) would print ``exp`` terms in forms Lean's
        ``ring`` cannot connect with the user's. Not where ``exp a ≤ exp b`` peels (better)."""
        numeral = numeral_log_step(goal) if self.accepts(goal) else None
        if numeral is not None:        # an equivalence (a positive multiplier)
            yield Candidate(numeral, self.name, self.score, exclusive=True)
            return
        if self.accepts(goal) and function_peel(goal) is None and common_factor_step(goal) is None:
            step = self.apply(goal)
            if step is not None:
                yield Candidate(step, self.name, self.score, exclusive=True)

    def apply(self, goal: Goal) -> Step | None:
        repl, defs, relations = exp_log_names(goal)
        if not defs:
            return None
        names = fresh_names(goal, [f"u{i}" for i in range(1, len(defs) + 1)])
        placeholders = {sp.Symbol(f"_tr{i}"): var(n) for i, n in enumerate(names)}
        definitions = {n: expr_to_str(d) for n, d in zip(names, defs)}
        facts, defined = [], set()
        for f in introduce_facts(goal, definitions):
            lhs, rhs = term_to_sympy(f.lhs), term_to_sympy(f.rhs)
            if f.op == "=" and lhs in placeholders.values() and lhs not in defined:
                defined.add(lhs)   # each definition's first fact is ``v = D`` itself
                continue
            facts.append(Relation(_replace(lhs, repl, placeholders), f.op, _replace(rhs, repl, placeholders)))
        hyps = [Relation(_replace(h.lhs, repl, placeholders), h.op, _replace(h.rhs, repl, placeholders))
                for h in goal.hypotheses]
        target = Relation(_replace(goal.target.lhs, repl, placeholders), goal.target.op,
                          _replace(goal.target.rhs, repl, placeholders))
        related = [Relation(r.lhs.xreplace(placeholders), "=", r.rhs.xreplace(placeholders)) for r in relations]
        n0 = len(hyps) + len(facts)
        # exp (2x) = (exp x)²: an identity of the kernel's normal form once the definitions are put back
        proofs = tuple(NewHypothesis(n0 + k, SosCertificate()) for k in range(len(related)))
        new_goal = Goal(goal.variables + tuple(names), tuple(hyps) + tuple(facts) + tuple(related), target)
        return Step("introduce", goal, [new_goal], IntroduceCertificate(definitions, proofs).to_json(),
                    note="name exp/log terms")
