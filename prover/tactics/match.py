"""Matching catalogue lemmas against a goal: candidate ``scale`` steps (``prover/ir.py``).

A lemma ``A <= B`` can shrink the goal's *big* side (the side the slack counts positively: ``rhs``
of ``<=``, ``lhs`` of ``>=``) or grow its *small* side, at monotone positions:

* a sub-sum ``c·σ(X)`` of a side (``c > 0`` rational), ``σ`` an instance of the lemma variables;
* a factor of a summand ``K·f`` whose sub-sum is ``c·σ(X)``, with ``K ≥ 0`` (coefficient ``K·c``);
* a denominator of a summand ``K/g`` with ``g ⊇ c·σ(X)`` (coefficient ``K·c/(g·g')``, ``g·g' > 0``).

On the big side ``B`` is replaced by ``A`` (and ``A`` by ``B`` in denominators); on the small side
the other way round. Each candidate satisfies ``slack(G) = slack(G') + coefficient·(σB − σA)``
exactly, its side conditions and coefficient are proved by the kernel's positivity rules, and —
when the goal's equality point is known (e.g. all variables equal under the equality hypotheses)
— the instance must be tight there (``σA = σB``), so that ``G'`` keeps the goal's equality case.
Matching is modulo commutativity/associativity (sympy's canonical sums and products, sub-sums by
backtracking) and constant factors (one common rational ratio ``c``).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, LemmaApplication, LinearCertificate
from prover.problem import Relation, var
from prover.rewrite.points import equal_variables_point
from prover.tactics.lemma import LemmaStatement
from prover.verify import Positivity, prove_nonzero

if TYPE_CHECKING:
    from prover.verify import Kernel

MAX_PATTERN_TERMS = 8
MAX_MATCHES = 64


@dataclass(frozen=True)
class Match:
    """``c·σ(pattern)`` equals the sum of the side terms at ``used``."""

    subst: tuple[tuple[str, sp.Expr], ...]
    ratio: sp.Rational
    used: tuple[int, ...]


@dataclass
class LemmaCandidate:
    lemma: str
    instance: dict[str, sp.Expr]
    coefficient: sp.Expr
    old: Relation
    new: Relation
    where: str
    #: equality side conditions that hold by the goal's equalities (see LemmaApplication)
    side_equalities: tuple[tuple[int, tuple[EqTerm, ...]], ...] = ()

    def step(self, goal: Goal) -> Step:
        sub = goal.with_target(self.new)
        app = LemmaApplication(self.lemma, {v: expr_to_str(e) for v, e in self.instance.items()},
                               expr_to_str(self.coefficient), self.side_equalities)
        cert = LinearCertificate("1", applications=(app,))
        return Step("scale", goal, [sub], cert.to_json(), note=f"{self.lemma} at {self.where}")


# ------------------------------------------------------------------ pattern matching


def _wilds(lemma: LemmaStatement) -> dict[sp.Symbol, sp.Wild]:
    return {var(v): sp.Wild(f"w_{v}") for v in lemma.variables}


def _split_coeff(e: sp.Expr) -> tuple[sp.Rational, sp.Expr]:
    c, rest = e.as_coeff_Mul()
    return sp.Rational(c), rest


def _plausible(s: sp.Expr, p: sp.Expr) -> bool:
    """Cheap structural filter before sympy's (slow, sometimes equation-solving) matcher."""
    if isinstance(p, sp.Wild):
        return True
    if p.is_Pow:
        if isinstance(p.base, sp.Wild):
            return s.is_Pow or s.is_Mul or s.is_Symbol
        return s.is_Pow and (not p.exp.is_number or s.exp == p.exp)
    if p.is_Mul:
        return s.is_Mul and len(s.args) >= len(p.args)
    return type(s) is type(p)


def _power_over_wild(p: sp.Expr) -> tuple[sp.Wild, int, sp.Wild] | None:
    """``(x, k, a)`` when the pattern term is ``x^k / a`` (two wilds, ``k ≥ 2``): Titu's
    summands, which sympy's matcher solves badly (``(a−1)²/(a²+1)`` gave
    ``x = 1/√(a²+1)``, ``a = (a−1)^−2``)."""
    if not p.is_Mul or len(p.args) != 2:
        return None
    num = [f for f in p.args if f.is_Pow and isinstance(f.base, sp.Wild) and f.exp.is_Integer and f.exp >= 2]
    den = [f for f in p.args if f.is_Pow and isinstance(f.base, sp.Wild) and f.exp == -1]
    if len(num) != 1 or len(den) != 1 or num[0].base == den[0].base:
        return None
    return num[0].base, int(num[0].exp), den[0].base


def _exact_root(n: sp.Expr, k: int) -> sp.Expr | None:
    """``r`` with ``r^k = n`` read off the structure (powers whose exponent ``k`` divides), or None."""
    parts = []
    for f in sp.Mul.make_args(n):
        base, e = f.as_base_exp()
        if not (e.is_Integer and e % k == 0):
            return None
        parts.append(base ** (e // k))
    return sp.Mul(*parts)


#: Match modes: a sum's terms must all be matched the same way (see :func:`_fraction_matches`).
SYMPY, ROOT, TIMES_NUMERATOR = "sympy", "root", "times numerator"


def _fraction_matches(s: sp.Expr, shape: tuple[sp.Wild, int, sp.Wild]) -> list[tuple[dict, str]]:
    """``n/d`` as ``x^k/a`` structurally: ``x = n^(1/k)`` where ``n`` is a ``k``-th power
    (``ROOT``), and ``x = n``, ``a = n^(k−1)·d`` (``TIMES_NUMERATOR``: ``a/(b+c) = a²/(a(b+c))``,
    ``a²/(b²+3) = (a²)²/(a²(b²+3))``, the numerators-squared form of Titu)."""
    x, k, a = shape
    n, d = sp.fraction(s)
    if d == 1 or n.is_number:
        return []
    out = []
    r = _exact_root(n, k)
    if r is not None:
        out.append(({x: r, a: d}, ROOT))
    if _monomial(n):  # (a−1)·… would need a sign the positivity rules rarely prove, at a high cost
        out.append(({x: n, a: sp.expand_power_base(n ** (k - 1)) * d}, TIMES_NUMERATOR))
    return out


def _monomial(e: sp.Expr) -> bool:
    """A product of variables to positive integer powers (``a``, ``a²``, ``ab``)."""
    for f in sp.Mul.make_args(e):
        base, ex = f.as_base_exp()
        if not (base.is_Symbol and ex.is_Integer and ex > 0):
            return False
    return True


@functools.lru_cache(maxsize=65536)
def _term_matches(side_term: sp.Expr, pat_term: sp.Expr) -> tuple[tuple[dict, sp.Rational, str], ...]:
    cs, s = _split_coeff(side_term)
    cp, p = _split_coeff(pat_term)
    if cp == 0:
        return ()
    if p == 1:  # a constant pattern term matches a constant side term
        return (({}, cs / cp, SYMPY),) if s == 1 else ()
    if s == 1:
        return ()
    shape = _power_over_wild(p)
    if shape is not None:
        found = _fraction_matches(s, shape)
        if found:
            return tuple((m, cs / cp, mode) for m, mode in found)
    if not _plausible(s, p):
        return ()
    m = s.match(p)
    return ((m, cs / cp, SYMPY),) if m is not None else ()


def match_sum(terms: list[sp.Expr], pattern: sp.Expr) -> list[Match]:
    """All ways (up to :data:`MAX_MATCHES`) to find ``c·pattern`` (wilds instantiated) as a
    sub-sum of ``terms``, with one common ratio ``c > 0``."""
    pats = list(sp.Add.make_args(pattern))
    if len(pats) > MAX_PATTERN_TERMS or len(pats) > len(terms):
        return []
    options = [[(j, m, r, mode) for j, t in enumerate(terms) for m, r, mode in _term_matches(t, p) if r > 0]
               for p in pats]
    if any(not o for o in options):
        return []
    order = sorted(range(len(pats)), key=lambda i: len(options[i]))
    out: list[Match] = []
    seen: set = set()

    def extend(k: int, subst: dict, ratio, used: list[int], mode: str | None) -> None:
        if len(out) >= MAX_MATCHES:
            return
        if k == len(order):
            key = (tuple(sorted((str(a), str(b)) for a, b in subst.items())), ratio, tuple(sorted(used)))
            if key not in seen:
                seen.add(key)
                out.append(Match(tuple(sorted(((str(a), b) for a, b in subst.items()), key=lambda t: t[0])),
                                 ratio, tuple(sorted(used))))
            return
        for j, m, r, how in options[order[k]]:
            if j in used or (ratio is not None and r != ratio) or (mode is not None and how != mode):
                continue
            if any(w in subst and subst[w] != e for w, e in m.items()):
                continue
            extend(k + 1, {**subst, **m}, r, used + [j], how)

    extend(0, {}, None, [], None)
    return out


# ------------------------------------------------------------------ the goal's equality point


#: The all-variables-equal point where the goal is tight (one copy: :mod:`prover.rewrite.points`).
equality_point = equal_variables_point


def _tight(expr: sp.Expr, point: dict | None) -> bool:
    """Is the instance tight at the goal's equality point? A heuristic filter only (a candidate it
    drops is merely not proposed; every proposed step is still checked exactly by the kernel)."""
    if point is None:
        return True
    v = expr.subs(point)
    if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False
    if v == 0:
        return True
    try:
        return abs(complex(v.evalf(40))) < 1e-25
    except (TypeError, ValueError):
        return False


def _pows(goal: Goal) -> set[sp.Expr]:
    out: set[sp.Expr] = set()
    for r in (*goal.hypotheses, goal.target):
        for side in (r.lhs, r.rhs):
            out |= sp.sympify(side).atoms(sp.Pow)
    return out


def _native(e: sp.Expr, goal_pows: set[sp.Expr]) -> bool:
    """Instances may not invent radicals or reciprocals the goal does not have (``x ↦ 1/sqrt(a)``
    to match ``x^2`` against ``1/a`` is true but useless, and outside the kernel's identities)."""
    for p in e.atoms(sp.Pow):
        if (not p.exp.is_Integer or p.exp.is_negative) and p not in goal_pows:
            return False
    return True


def _denominators_nonzero(goal: Goal, pos: Positivity) -> bool:
    """Can the kernel's positivity rules prove every denominator of the goal's slack nonzero? (It
    requires that of every rewrite or scale step of the goal.)"""
    return pos.denominators_nonzero(goal.target.slack())


def _local_step(goal: Goal, cand: LemmaCandidate, change: sp.Expr) -> Step:
    """The candidate's kernel obligation restricted to the replaced part: ``change`` (how much the
    slack drops: old minus new on the big side, new minus old on the small side — the untouched
    summands cancel in sympy before the kernel sees them) must equal ``coefficient·(σB − σA)``,
    with the same side conditions and coefficient sign under the goal's hypotheses. Together with
    the construction (the rest of the goal is unchanged) this is the full step's identity, without
    putting the goal's whole fraction over one denominator; the full proof is checked again by
    the kernel at the end."""
    zero = sp.Integer(0)
    local = Goal(goal.variables, goal.hypotheses, Relation(zero, "<=", change))
    tmp = LemmaCandidate(cand.lemma, cand.instance, cand.coefficient, local.target, Relation(zero, "<=", zero),
                         cand.where, cand.side_equalities)
    return tmp.step(local)


def _kernel_accepts(step: Step, kernel) -> bool:
    """The kernel's verdict on this one step (its subgoal left open)."""
    from prover.kernel.algebra import KernelError

    try:
        kernel.check_one(step)
    except (KernelError, ValueError, TypeError, ZeroDivisionError):
        return False
    return True


# ------------------------------------------------------------------ candidate scalings


def _side_roles(rel: Relation) -> list[tuple[str, sp.Expr, str]]:
    if rel.op in ("<=", "<"):
        return [("rhs", rel.rhs, "big"), ("lhs", rel.lhs, "small")]
    if rel.op in (">=", ">"):
        return [("lhs", rel.lhs, "big"), ("rhs", rel.rhs, "small")]
    return []


def _instance(lemma: LemmaStatement, match: Match, wild_of: dict, point: dict | None) -> dict[str, sp.Expr] | None:
    by_wild = {str(w): e for w, e in match.subst}
    inst: dict[str, sp.Expr] = {}
    for v in lemma.variables:
        w = str(wild_of[var(v)])
        if w in by_wild:
            inst[v] = by_wild[w]
    schema = lemma.meta.get("schema") or {}
    missing = [v for v in lemma.variables if v not in inst]
    if missing:
        # a tangent-line schema: the point variable is the matched argument's value at the equality point
        if schema.get("kind") != "tangent_line" or missing != [schema.get("point")] or point is None:
            return None
        arg = next(v for v in lemma.variables if v != schema["point"])
        val = sp.simplify(inst[arg].subs(point))
        if not val.is_number:
            return None
        inst[schema["point"]] = val
    return inst


def _by_equality(s: sp.Expr, goal: Goal) -> tuple[EqTerm, ...] | None:
    """``s = λ·eq(H)`` for one equality hypothesis ``H`` and a rational ``λ`` (a side condition
    ``w₁ + … = 1`` that the goal's ``a + b + c + d = 1`` gives), or None."""
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        e = sp.expand(h.slack())
        if e == 0:
            continue
        lam = sp.cancel(sp.together(s / e))
        if lam.is_Rational and lam != 0:
            return (EqTerm(i, expr_to_str(lam)),)
    return None


def _side_conditions_hold(lemma: LemmaStatement, inst: dict[str, sp.Expr], goal: Goal,
                          pos: Positivity) -> tuple[tuple[int, tuple[EqTerm, ...]], ...] | None:
    """None when a side condition fails; else the equality side conditions that hold only by
    the goal's equalities, with their equality terms."""
    subs = {var(v): e for v, e in inst.items()}
    hyps = list(goal.hypotheses)
    by_eq: list[tuple[int, tuple[EqTerm, ...]]] = []
    for k, sc in enumerate(lemma.side_conditions):
        s = sc.slack().subs(subs, simultaneous=True)
        if sc.op == "=":
            if sp.cancel(sp.together(s)) != 0:
                terms = _by_equality(s, goal)
                if terms is None:
                    return None
                by_eq.append((k, terms))
        elif sc.op == "!=":
            if not prove_nonzero(s, hyps):
                return None
        elif not pos.prove(sp.sympify(s), sc.strict):
            return None
    return tuple(by_eq)


def _replace_side(rel: Relation, side: str, new: sp.Expr) -> Relation:
    return Relation(new, rel.op, rel.rhs) if side == "lhs" else Relation(rel.lhs, rel.op, new)


@dataclass
class _Scaling:
    """What the candidates of one lemma on one goal share; ``out`` collects them."""

    goal: Goal
    lemma: LemmaStatement
    point: dict | None
    allow_constants: bool
    deadline: float | None
    wild_of: dict[sp.Symbol, sp.Wild]
    pos: Positivity
    goal_pows: set[sp.Expr]
    schema_point: str | None
    kernel: Kernel
    role_of: dict[str, str]
    out: list[LemmaCandidate] = field(default_factory=list)
    #: ``(side, new side, coefficient)`` already considered: matches giving the same step (Titu's
    #: 4! orders of its pairs) are checked once, and a later instance with the same new goal is
    #: not tried when the first failed a filter
    seen: set = field(default_factory=set)

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def _consider(sc: _Scaling, side: str, where: str, match: Match, X: sp.Expr, Y: sp.Expr,
              build: Callable[[sp.Expr, sp.Expr], sp.Expr], coeff_of: Callable[[sp.Expr, sp.Expr], sp.Expr]) -> None:
    """Append the candidate replacing ``X`` by ``Y`` at ``match`` (the new side by ``build``, its
    coefficient by ``coeff_of``) when its instance, side conditions, coefficient sign, tightness
    and the kernel's local check all pass."""
    if sc.expired():
        return
    lemma, goal, rel = sc.lemma, sc.goal, sc.goal.target
    inst = _instance(lemma, match, sc.wild_of, sc.point)
    if inst is None or not all(_native(e, sc.goal_pows) for e in inst.values()):
        return
    if not sc.allow_constants and any(e.is_number for v, e in inst.items() if v != sc.schema_point):
        return
    subs = {var(v): e for v, e in inst.items()}
    x_i = X.xreplace({w: subs[s] for s, w in sc.wild_of.items()})
    y_i = Y.xreplace({w: subs[s] for s, w in sc.wild_of.items()})
    new_side = build(x_i, y_i)
    coef = coeff_of(x_i, y_i)
    key = (side, new_side, coef)
    if key in sc.seen:
        return
    sc.seen.add(key)
    side_eqs = None if coef == 0 else _side_conditions_hold(lemma, inst, goal, sc.pos)
    if side_eqs is None:
        return
    if not sc.pos.prove(sp.sympify(coef), False):
        return
    if not _tight(lemma.rhs.subs(subs, simultaneous=True) - lemma.lhs.subs(subs, simultaneous=True), sc.point):
        return
    cand = LemmaCandidate(lemma.name, inst, coef, rel, _replace_side(rel, side, new_side), where, side_eqs)
    old_side = rel.lhs if side == "lhs" else rel.rhs
    change = (old_side - new_side) if sc.role_of[side] == "big" else (new_side - old_side)
    if _kernel_accepts(_local_step(goal, cand, change), sc.kernel):
        sc.out.append(cand)


def _side_candidates(sc: _Scaling, side: str, expr: sp.Expr, role: str, A: sp.Expr, B: sp.Expr,
                     may_lower: bool, may_upper: bool) -> None:
    """The candidates at the linear and denominator positions of one side of the target."""
    terms = list(sp.Add.make_args(expr))
    # linear positions: B -> A on the big side, A -> B on the small side
    lin = [(B, A)] if role == "big" and may_lower else ([(A, B)] if role == "small" and may_upper else [])
    # denominators: A -> B on the big side, B -> A on the small side
    den = [(A, B)] if role == "big" and may_upper else ([(B, A)] if role == "small" and may_lower else [])
    for X, Y in lin:
        for m in match_sum(terms, X):
            rest = sp.Add(*[t for j, t in enumerate(terms) if j not in m.used])
            _consider(sc, side, f"{side} sub-sum", m, X, Y,
                      lambda x, y, rest=rest, c=m.ratio: rest + c * y, lambda x, y, c=m.ratio: c)
        for j, K, f, others, m, frest in _inner_matches(terms, X, denominators=False):
            _consider(sc, side, f"{side} term {j} factor", m, X, Y,
                      lambda x, y, o=others, K=K, fr=frest, c=m.ratio: o + K * (fr + c * y),
                      lambda x, y, K=K, c=m.ratio: K * c)
    for X, Y in den:
        for j, K, g, others, m, grest in _inner_matches(terms, X, denominators=True):
            _consider(sc, side, f"{side} term {j} denominator", m, X, Y,
                      lambda x, y, o=others, K=K, gr=grest, c=m.ratio: o + K / (gr + c * y),
                      lambda x, y, K=K, g=g, gr=grest, c=m.ratio: sp.Mul(K, c, sp.Pow(g, -1),
                                                                   sp.Pow(gr + c * y, -1)))


def candidates(goal: Goal, lemma: LemmaStatement, *, point: dict | None | str = "auto",
               allow_constants: bool = False, deadline: float | None = None) -> list[LemmaCandidate]:
    """Valid scalings of ``goal`` by ``lemma`` (see the module docstring). Instances mapping a lemma
    variable to a constant (``a <= (a^2 + 1)/2`` from AM-GM) are skipped unless
    ``allow_constants``; a tangent-line schema's point variable is always a constant."""
    rel = goal.target
    if rel.op not in ("<=", "<", ">=", ">"):
        return []
    if point == "auto":
        point = equality_point(goal)
    wild_of = _wilds(lemma)
    A, B = lemma.lhs.subs(wild_of), lemma.rhs.subs(wild_of)
    direction = lemma.meta.get("direction", "both")
    may_lower, may_upper = direction in ("both", "lower"), direction in ("both", "upper")
    pos = Positivity(list(goal.hypotheses))
    if not _denominators_nonzero(goal, pos):
        return []  # the kernel checks no rewrite or scale of this goal (see _local_step)
    goal_pows = _pows(goal)
    schema_point = (lemma.meta.get("schema") or {}).get("point")
    from prover.verify import Kernel

    kernel = Kernel({lemma.name: lemma}.get)  # one per lemma: its certificate is checked once
    role_of = {side: role for side, _, role in _side_roles(rel)}
    sc = _Scaling(goal, lemma, point, allow_constants, deadline, wild_of, pos, goal_pows, schema_point,
                  kernel, role_of)
    for side, expr, role in _side_roles(rel):
        if sc.expired():
            break
        _side_candidates(sc, side, expr, role, A, B, may_lower, may_upper)
    return sc.out   # one candidate per (side, new side, coefficient): see _Scaling.seen


#: Most sub-products of one summand tried against a product pattern (``C(factors, k)``).
MAX_SUBPRODUCTS = 64


def _pattern_factors(pattern: sp.Expr) -> int:
    """The number of factors of a one-term product of powers with variable exponents
    (``p₁^w₁·p₂^w₂``, weighted AM-GM), else 0. Only such patterns are looked for among the
    sub-products of a summand: a product of plain variables (``2xy``) would match almost every
    sub-product of every monomial."""
    if isinstance(pattern, sp.Add) or not isinstance(pattern, sp.Mul):
        return 0
    factors = [f for f in pattern.args if not f.is_number]
    if not all(f.is_Pow and f.exp.has(sp.Wild) for f in factors):
        return 0
    return len(factors)


def _subproduct_matches(j: int, factors: list[sp.Expr], others: sp.Expr, pattern: sp.Expr, k: int):
    """A product pattern (weighted AM-GM's ``p₁^w₁·…·p₄^w₄``) as ``k`` of the factors of a summand
    ``K·f``: ``(a+2b+3c+4d)·a^a·b^b·c^c·d^d`` holds it with ``K = a+2b+3c+4d``."""
    symbolic = [i for i, f in enumerate(factors) if not f.is_number]
    if len(symbolic) <= k:
        return
    for n, chosen in enumerate(itertools.combinations(symbolic, k)):
        if n >= MAX_SUBPRODUCTS:
            return
        f = sp.Mul(*(factors[i] for i in chosen))
        K = sp.Mul(*(g for i, g in enumerate(factors) if i not in chosen))
        for m in match_sum([f], pattern):
            yield j, K, f, others, m, sp.Integer(0)


def _inner_matches(terms: list[sp.Expr], pattern: sp.Expr, *, denominators: bool):
    """Matches of ``pattern`` inside a factor ``f`` of a summand ``K·f`` (or ``K/f`` with
    ``denominators``), or, for a product pattern, as a sub-product ``f`` of a summand:
    yields ``(j, K, f, other summands, match, rest of f)``."""
    k = 0 if denominators else _pattern_factors(pattern)
    for j, t in enumerate(terms):
        factors = list(sp.Mul.make_args(t))
        others = sp.Add(*(terms[:j] + terms[j + 1:]))
        if k >= 2:
            yield from _subproduct_matches(j, factors, others, pattern, k)
        for i, f in enumerate(factors):
            if denominators:
                if not (f.is_Pow and f.exp == -1):
                    continue
                f = f.base
            elif len(factors) < 2 or f.is_number or (f.is_Pow and f.exp.is_negative):
                continue
            K = sp.Mul(*(factors[:i] + factors[i + 1:]))
            fterms = list(sp.Add.make_args(f))
            for m in match_sum(fterms, pattern):
                yield j, K, f, others, m, sp.Add(*[u for k, u in enumerate(fterms) if k not in m.used])


def scale_steps(goal: Goal, lemmas: Iterable[LemmaStatement] | None = None, *,
                point: dict | None | str = "auto", limit: int = 100,
                allow_constants: bool = False, time_limit: float | None = None) -> list[Step]:
    """LemmaCandidate ``scale`` steps for ``goal`` from the given lemmas (default: the whole catalogue).
    With ``time_limit`` (seconds) it returns what it found by then instead of running on."""
    if lemmas is None:
        from prover.tactics.catalogue import load_catalogue

        lemmas = load_catalogue().values()
    if point == "auto":
        point = equality_point(goal)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    steps: list[Step] = []
    for lem in lemmas:
        if deadline is not None and time.monotonic() > deadline:
            break
        for c in candidates(goal, lem, point=point, allow_constants=allow_constants, deadline=deadline):
            steps.append(c.step(goal))
            if len(steps) >= limit:
                return steps
    return steps


__all__ = ["LemmaCandidate", "Match", "candidates", "equality_point", "match_sum", "scale_steps"]
