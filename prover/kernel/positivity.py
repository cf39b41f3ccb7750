"""Structural positivity rules (part of the kernel's trust base, listed in docs/TRUST_BASE.md).

``prove_positive(expr, hyps, strict)`` proves ``expr >= 0`` (``> 0`` if ``strict``) using only:

1. rational constants;
2. hypothesis slacks: an expression equal, as a rational function and up to a positive rational
   factor, to the slack of a hypothesis ``>=``/``>``/``<=``/``<`` (``=`` gives both signs, not
   strict; ``!=`` only gives "nonzero");
3. sums (all ``>= 0``; strict needs one ``> 0``);
4. products (every factor of known sign, an even number of them negative; strict needs all strict);
5. integer powers (even power ``>= 0``, strict if the base is nonzero; odd power and negative power
   keep the sign of the base — Lean's ``x⁻¹`` has the sign of ``x``, ``0⁻¹ = 0``);
6. ``√x`` (and ``x ** (±1/2)``) ``>= 0`` always, ``> 0`` if ``x > 0``;
7. ``x ** (p/q)`` and ``x ** y`` (symbolic ``y``): ``>= 0`` if ``x >= 0``, ``> 0`` if ``x > 0``;
8. ``exp``, ``pi``, ``E`` are ``> 0``, so is ``log p`` for an integer ``p ≥ 2``; ``|x| >= 0``, ``> 0``
   if ``x`` is nonzero.

Each expression is tried as given, then expanded, then factored; nothing more (no solver, no
floats). Expressions are handled in atomized form (see :mod:`prover.kernel.algebra`): the caller's
denominators must be nonzero; :func:`prove_positive` proves them itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from prover.kernel import terms as T
from prover.kernel.algebra import (
    FACTOR_MAX_TERMS,
    Atomizer,
    KernelError,
    NonNeg,
    expandable,
    factorable,
    has_negative_power,
)


def _key(e: sp.Expr) -> tuple[tuple[sp.Expr, sp.Expr], sp.Rational] | None:
    """Normal form up to a rational factor: ((monic numerator, monic denominator), factor)."""
    if not e.free_symbols or not expandable(e):
        return None     # too large to normalise: matches no hypothesis (sound: proves less)
    gens = sorted(e.free_symbols, key=sp.default_sort_key)
    if has_negative_power(e):
        num, den = sp.fraction(sp.cancel(e))
        pn, pd = sp.Poly(num, *gens), sp.Poly(den, *gens)
    else:
        pn = sp.Poly(e, *gens)
        pd = sp.Poly(1, *gens)
        num, den = pn.as_expr(), sp.Integer(1)
    cn, cd = pn.LC(), pd.LC()
    if cn == 0:
        return None
    return (sp.expand(num / cn), sp.expand(den / cd)), sp.Rational(cn) / sp.Rational(cd)




class Positivity:
    """Positivity prover for one context (hypotheses) and one atom table."""

    def __init__(self, hyps: Sequence, atomizer: Atomizer | None = None):
        self.at = atomizer or Atomizer()
        self._hyps = list(hyps)
        self._memo: dict[tuple[sp.Expr, bool], bool] = {}
        self._facts_cache: dict[tuple, list[tuple[int, str]]] | None = None
        self._fact_symbols_cache: set[frozenset] | None = None

    @property
    def _fact_symbols(self) -> set[frozenset]:
        """Free-symbol sets of the facts: a cheap filter before computing normal forms."""
        facts = self._facts
        if self._fact_symbols_cache is None:
            self._fact_symbols_cache = {frozenset(k[0].free_symbols | k[1].free_symbols) for k in facts}
        return self._fact_symbols_cache

    @property
    def _facts(self) -> dict[tuple, list[tuple[int, str]]]:
        """key -> list of (factor sign, kind), kind in {"gt", "ge", "eq", "ne"}; built on first use."""
        if self._facts_cache is None:
            self._facts_cache = {}
            self._build_facts(self._hyps)
        return self._facts_cache

    def _build_facts(self, hyps: Sequence) -> None:
        pending: list[tuple[sp.Expr, list[sp.Expr], str]] = []
        for h in hyps:
            rel: T.Rel = h
            try:
                conv, dens = self.at.convert(rel.slack())
            except KernelError:
                continue
            kind = {"<": "gt", ">": "gt", "<=": "ge", ">=": "ge", "=": "eq", "!=": "ne"}[rel.op]
            if dens:
                pending.append((conv, dens, kind))
            else:
                self._add_fact(conv, kind)
        # hypotheses with denominators are usable once those are proved nonzero without them
        usable = [(c, k) for c, dens, k in pending if all(self.requirement(d) for d in dens)]
        for conv, kind in usable:
            self._add_fact(conv, kind)
        self._memo.clear()

    def _add_fact(self, conv: sp.Expr, kind: str) -> None:
        if not conv.free_symbols:
            return
        k = _key(conv)
        if k is None:
            return
        key, c = k
        self._fact_symbols_cache = None
        self._facts_cache.setdefault(key, []).append((1 if c > 0 else -1, kind))

    # ---------------------------------------------------------------- public entry points

    def prove(self, expr: T.Term, strict: bool) -> bool:
        """``expr`` is a kernel term: convert it and prove its requirements (denominators)."""
        try:
            conv, dens = self.at.convert(expr)
        except KernelError:
            return False
        return all(self.requirement(d) for d in dens) and self.prove_conv(conv, strict)

    def requirement(self, d) -> bool:
        """A conversion requirement holds: a denominator is nonzero, a :class:`NonNeg` is >= 0."""
        if isinstance(d, NonNeg):
            return self.prove_conv(d.expr, False)
        return self.nonzero_conv(d)

    def prove_conv(self, e: sp.Expr, strict: bool) -> bool:
        """``e`` is atomized and its denominators are already known nonzero."""
        if self._rules(e, strict):
            return True
        if not expandable(e):
            return False  # too large to expand (MAX_TERMS): not proved, never expanded slowly
        ex = sp.expand(e)
        if ex != e and self._rules(ex, strict):
            return True
        if len(sp.Add.make_args(ex)) > FACTOR_MAX_TERMS or not factorable(ex):
            return False  # factoring is meant to be cheap
        try:
            fa = sp.factor(e)
        except (sp.PolynomialError, ValueError):
            return False
        return fa != e and fa != ex and self._rules(fa, strict)

    def nonzero_conv(self, e: sp.Expr) -> bool:
        if e.is_Rational:
            return e != 0
        if self._match_ne(e):
            return True
        return self.prove_conv(e, True) or self.prove_conv(-e, True)

    # ---------------------------------------------------------------- rules

    def _match(self, e: sp.Expr, strict: bool) -> bool:
        if frozenset(e.free_symbols) not in self._fact_symbols:
            return False
        k = _key(e)
        if k is None:
            return False
        key, c = k
        sign = 1 if c > 0 else -1
        for fsign, kind in self._facts.get(key, ()):
            if kind == "eq" and not strict:
                return True
            if kind == "gt" and fsign == sign:
                return True
            if kind == "ge" and fsign == sign and not strict:
                return True
        return False

    def _match_ne(self, e: sp.Expr) -> bool:
        if frozenset(e.free_symbols) not in self._fact_symbols:
            return False
        k = _key(e)
        return k is not None and any(kind in ("ne", "gt") for _, kind in self._facts.get(k[0], ()))

    def _rules(self, e: sp.Expr, strict: bool) -> bool:
        m = self._memo.get((e, strict))
        if m is None:
            self._memo[(e, strict)] = False  # guards against cycles
            m = self._rules_uncached(e, strict)
            self._memo[(e, strict)] = m
            if m and strict:
                self._memo[(e, False)] = True
        return m

    def _nonzero_rules(self, e: sp.Expr) -> bool:
        return self._rules(e, True) or self._rules(-e, True) or self._match_ne(e)

    def _rules_uncached(self, e: sp.Expr, strict: bool) -> bool:
        if e.is_Rational:
            return e > 0 if strict else e >= 0
        if self._match(e, strict):
            return True
        if e.is_Symbol:
            d = self.at.defs.get(e)
            return d is not None and all(self.requirement(x) for x in d.dens) and \
                self._atom(d.head, d.args, strict)
        if e.is_Add:
            strict_seen = False
            for a in e.args:
                if self._rules(a, True):
                    strict_seen = True
                elif not self._rules(a, False):
                    return _univariate_positive(e)
            return strict_seen or not strict
        if e.is_Mul:
            negatives = 0
            for f in e.args:
                if self._rules(f, strict):
                    continue
                if self._rules(-f, strict):
                    negatives += 1
                    continue
                return False
            return negatives % 2 == 0
        if e.is_Pow and e.exp.is_Integer:
            b, n = e.base, int(e.exp)
            if n % 2 == 0:
                return not strict or self._nonzero_rules(b)
            return self._rules(b, strict)
        return False

    def _atom(self, head: str, args: tuple[sp.Expr, ...], strict: bool) -> bool:
        if head in ("exp", "pi", "E"):
            return True
        if head == "log" and len(args) == 1 and args[0].is_Integer and args[0] >= 2:
            return True    # log p > 0 for an integer p ≥ 2 (Real.log_pos; logs of rationals are Σ eₚ·log p)
        if head == "inv":  # t⁻¹ has the sign of t (0⁻¹ = 0)
            return self._rules(args[0], strict)
        if head == "abs":
            return not strict or self._nonzero_rules(args[0])
        if head == "pow":
            base, ex = args
            if ex.is_Rational and abs(ex) == sp.Rational(1, 2) and not strict:
                return True
            return self._rules(base, strict)
        return False


#: Sturm sequences (root counting) only up to this degree: their cost grows fast with it.
UNIVARIATE_MAX_DEGREE = 400


def _univariate_positive(e: sp.Expr) -> bool:
    """A polynomial in one problem variable with no real root and a positive leading
    coefficient is positive everywhere (``a² − 4a + 9``). Decided exactly: sympy counts real
    roots over ℚ with Sturm sequences. Atoms (roots, powers) are not variables here."""
    syms = e.free_symbols
    if len(syms) != 1:
        return False
    (x,) = syms
    if isinstance(x, sp.Dummy) or not e.is_polynomial(x) or not expandable(e):
        return False
    try:
        p = sp.Poly(e, x, domain="QQ")
    except (sp.PolynomialError, sp.CoercionFailed):
        return False
    return 0 < p.degree() <= UNIVARIATE_MAX_DEGREE and p.degree() % 2 == 0 and p.LC() > 0 and p.count_roots() == 0


def prove_positive(expr: T.Term, hyps: Sequence[T.Rel], strict: bool) -> bool:
    """``expr >= 0`` (``> 0`` if strict) under ``hyps`` by the rules above."""
    return Positivity(hyps).prove(expr, strict)


def prove_nonzero(expr: T.Term, hyps: Sequence[T.Rel]) -> bool:
    """``expr != 0`` under ``hyps``: its denominators nonzero and ``expr > 0``, ``< 0`` or a ``!=`` hypothesis."""
    pos = Positivity(hyps)
    try:
        conv, dens = pos.at.convert(expr)
    except KernelError:
        return False
    return all(pos.requirement(d) for d in dens) and pos.nonzero_conv(conv)
