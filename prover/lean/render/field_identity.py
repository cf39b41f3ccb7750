"""Equalities with denominators as one ``linear_combination`` that Mathlib's ``ring1`` checks.

``ring`` works in the field ℝ without ever cancelling a denominator: ``(a + b)⁻¹`` is an atom
(the inverse of a multi-term sum, after normalising it), ``(2 * a * b ^ 2)⁻¹`` distributes into
``2⁻¹ * a⁻¹ * (b⁻¹) ^ 2``, and ``(a⁻¹)⁻¹`` is a new atom. An identity of rational functions
``L = R`` is therefore proved by supplying, for every inverse atom ``u = P⁻¹`` that occurs, the
fact ``P * P⁻¹ = 1`` (``mul_inv_cancel₀``, with ``P ≠ 0`` proved in the context) with an exact
polynomial coefficient ``c_u`` such that ``L − R − Σ given − Σ c_u·(P·u − 1)`` is 0 in ``ring``'s
normal form. This replaces ``field_simp; ring`` (whose effect depends on the whole simp set).

The coefficients are computed level by level, outermost atoms first (see
:meth:`_Eliminator.solve`); each step is exact polynomial algebra over ℚ. Nothing here is
trusted: the replay model and Lean recheck the combination.

The normal form is the replay model's (``prover.lean.replay.RingNormalizer``) applied to the
very Lean text that is emitted, so the computed atoms are the ones ``ring`` sees in that text.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from prover.frontend import ParseError, parse_expression
from prover.lean import replay as rp
from prover.lean.render.budget import wrap_line
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    at_real,
    equality_lines,
    factored_text,
    geometric_sum,
    negated_factors,
    written_denominators,
)
from prover.lean.render.statement import split_top

#: The most atoms one identity may eliminate, and the largest coefficient text (characters).
MAX_INVERSE_ATOMS = 24
MAX_COEFFICIENT_CHARS = 60_000
#: The largest expansion (terms, a crude upper bound) one elimination level may compute.
MAX_EXPANDED_TERMS = 2_000_000


@dataclass(frozen=True)
class EqFact:
    """An equality ``lhs = rhs`` proved by the Lean term ``proof``, used with coefficient ``coeff``."""

    coeff: str
    proof: str
    lhs: str
    rhs: str


class _Recording(rp.RingNormalizer):
    """The replay normal form, remembering the written term behind every inverse atom."""

    def __init__(self, terms: list[Any]):
        super().__init__(terms)
        self.origin: dict[Any, Any] = {}

    def norm(self, t: Any) -> Any:
        if t[0] == "div":
            return self.norm(t[1]) * self._inverse(t[2])
        if t[0] == "inv":
            return self._inverse(t[1])
        return super().norm(t)

    def _inverse(self, b: Any) -> Any:
        p = self.norm(b)
        out = self.inv(p)
        if len(list(p.terms())) > 1:
            self.origin.setdefault(("invsum", self.sum_key(p)), b)
        return out


def _parse(text: str, variables: list[str]) -> Any:
    scope = rp.Scope({v: v for v in variables}, opens=("Real",))
    try:
        return rp.parse_term(rp.lex(text), scope)
    except (rp.NotModelled, rp.ModelError) as exc:
        raise RenderError(f"field identity: cannot read {text[:80]!r}: {exc}") from None


# ------------------------------------------------------------------ polynomial helpers (dict form)


class _Eliminator:
    """Coefficients ``c_u`` with ``E = Σ c_u·(P_u·u − 1)`` for the inverse atoms of a normaliser."""

    def __init__(self, norm: _Recording):
        self.norm = norm
        self.printer = _Printer(norm)
        self.base: dict[int, Any] = {}           # atom index -> P (its inverse's argument)
        for key, idx in list(norm.atoms.items()):
            self._register(key, idx)

    def _register(self, key: Any, idx: int) -> None:
        if key[0] == "inv":
            self.base[idx] = self.norm.gens[self.norm.atoms[key[1]]]
        elif key[0] == "invsum":
            self.base[idx] = self.norm.sum_poly(key[1])

    def _inside(self, i: int) -> set[int]:
        """Inverse atoms occurring in ``P_i`` (directly or deeper)."""
        out: set[int] = set()
        todo = [i]
        while todo:
            j = todo.pop()
            for k, x in enumerate(self.base[j].degrees()):
                if x and k in self.base and k not in out:
                    out.add(k)
                    todo.append(k)
        return out

    def _present(self, e: Any) -> list[int]:
        if e.is_zero():
            return []
        return [i for i, x in enumerate(e.degrees()) if x and i in self.base]

    def outer_parts(self, e: Any) -> tuple[list[int], dict[tuple[int, ...], Any]]:
        """The outermost inverse atoms of ``e`` and ``e = Σ_α e_α·u^α`` over them."""
        present = self._present(e)
        inner = set().union(*(self._inside(i) for i in present)) if present else set()
        outer = [i for i in present if i not in inner]
        parts: dict[tuple[int, ...], dict] = {}
        for exps, c in e.to_dict().items():
            alpha = tuple(int(exps[k]) for k in outer)
            rest = list(exps)
            for k in outer:
                rest[k] = 0
            parts.setdefault(alpha, {})[tuple(rest)] = c
        return outer, {a: e.context().from_dict(d) for a, d in parts.items()}

    def solve(self, e: Any, text: str | None = None, common: bool = False) -> dict[FactKey, list[Product]]:
        """Coefficients of the facts ``Π P_k^{a_k}·Π u_k^{a_k} = 1`` (keys ``((k, a_k), …)``)
        whose combination is ``e``, eliminating the outermost atoms first.

        With ``β`` the top exponents, ``γ = β − α`` and ``v_k = P_k·u_k``:

        * telescoped: ``E = u^β·B − Σ_α e_α·u^α·(v^γ − 1)``, ``v^γ − 1`` split into multiples
          of the single facts ``v_k − 1``;
        * common (``common=True``): ``E = −E·(P^β·u^β − 1) + u^β·Σ_α e_α·P^γ·(v^α − 1) + u^β·B``,
          which prints ``E`` once (as ``text``) and each ``e_α`` once;

        where ``B = Σ_α e_α·P^γ`` is free of these atoms and solved recursively (often 0)."""
        if len(self.base) > MAX_INVERSE_ATOMS:
            raise RenderError(f"field identity: more than {MAX_INVERSE_ATOMS} inverse atoms")
        outer, parts = self.outer_parts(e)
        if not outer:
            if not e.is_zero():
                raise RenderError("field identity: the two sides differ (not an identity of rational functions)")
            return {}
        ctx = e.context()
        one = ctx.constant(1)
        beta = [max(a[j] for a in parts) for j in range(len(outer))]
        u_beta = _monomial([(self.norm.gens[k], beta[j]) for j, k in enumerate(outer)], one)
        coeff: dict[FactKey, list[Product]] = {}

        def add(key: FactKey, term: Product) -> None:
            if key:
                coeff.setdefault(key, []).append(term)

        if common:
            add(_key(outer, beta), ((ctx.constant(-1), 1, None), (e, 1, text)))
        cost = sum(self._expansion_bound(e_alpha, [(k, beta[j] - alpha[j]) for j, k in enumerate(outer)])
                   for alpha, e_alpha in parts.items())
        if cost > MAX_EXPANDED_TERMS:
            raise RenderError(f"field identity: clearing {len(outer)} denominators would expand to about "
                              f"{cost:.2g} terms (Lean's ring could not normalise it either)")
        b = ctx.constant(0)
        for alpha, e_alpha in parts.items():
            gamma = [beta[j] - alpha[j] for j in range(len(outer))]
            p_gamma = tuple((self.base[k], gamma[j], None) for j, k in enumerate(outer) if gamma[j])
            b += _expand([p_gamma], ctx) * e_alpha
            if common:
                add(_key(outer, alpha), ((u_beta, 1, None), (e_alpha, 1, None)) + p_gamma)
                continue
            u_alpha = _monomial([(self.norm.gens[k], alpha[j]) for j, k in enumerate(outer)], one)
            # ``e_α`` and ``u^α`` as two factors: multiplied out, every term of ``e_α`` would
            # repeat the atoms' texts (a sum's inverse is hundreds of characters, mo-int-20/P19)
            prefix: Product = (((-e_alpha * u_alpha, 1, None),) if len(e_alpha) == 1
                               else ((-e_alpha, 1, None), (u_alpha, 1, None)))
            for j, k in enumerate(outer):
                if gamma[j]:
                    v = self.base[k] * self.norm.gens[k]
                    add(((k, 1),), prefix + ((_geometric(v, gamma[j], ctx), 1, self._geometric_text(k, gamma[j])),))
                    prefix = prefix + self._v_factors(k, gamma[j])
        for key, terms in self.solve(b).items():
            for t in terms:
                add(key, ((u_beta, 1, None),) + t)
        return coeff

    def _expansion_bound(self, e: Any, powers: list[tuple[int, int]]) -> float:
        """A bound on the terms of ``e·Π P_k^{γ_k}``: the product of the term counts, or the number
        of monomials of its degree in the generators involved, whichever is smaller."""
        product = len(e) * _power_terms([(len(self.base[k]), g) for k, g in powers])
        degree = e.total_degree() + sum(self.base[k].total_degree() * g for k, g in powers)
        used = {i for i, x in enumerate(e.degrees()) if x}
        for k, g in powers:
            if g:
                used |= {i for i, x in enumerate(self.base[k].degrees()) if x}
        return min(product, float(math.comb(len(used) + int(degree), len(used))))

    def fact_poly(self, key: FactKey) -> Any:
        """``Π P_k^{a_k}·u_k^{a_k}`` of a fact."""
        one = self.norm.ctx.constant(1)
        return _monomial([(self.base[k] * self.norm.gens[k], a) for k, a in key], one)

    def telescope(self, key: FactKey) -> dict[FactKey, list[Product]]:
        """The fact ``v^a = 1`` from the single facts ``v_k = 1``: ``v^a − 1 = Σ_k (v_k^{a_k} − 1)·Π_{j<k} v_j^{a_j}``."""
        ctx = self.norm.ctx
        out: dict[FactKey, list[Product]] = {}
        prefix: Product = ()
        for k, a in key:
            v = self.base[k] * self.norm.gens[k]
            out[((k, 1),)] = [prefix + ((_geometric(v, a, ctx), 1, None),)]
            prefix = prefix + self._v_factors(k, a)
        return out

    def _geometric_text(self, k: int, n: int) -> str | None:
        """``Σ_{i<n} (P_k·u_k)^i`` written with ``P_k·u_k`` as a product, when that is shorter
        than the expansion (homogenising by ``a + b + c + d = 4`` at degree 12: the expanded
        ``Σ sⁱ·tⁱ`` was 69,000 characters, mo-int-20/P19; ``ring`` expands it either way)."""
        if n < 2:
            return None
        v = f"({self.printer.base_text(k)} * {self.printer.atom(k)})"
        text = " + ".join(["1", v] + [f"{v} ^ {i}" for i in range(2, n)])
        expanded = _geometric(self.base[k] * self.norm.gens[k], n, self.norm.ctx)
        return text if len(text) < len(expanded) * 8 and len(text) < len(self.printer.poly(expanded)) else None

    def _v_factors(self, k: int, a: int) -> Product:
        """``v_k^a = P_k^a·u_k^a`` as two factors: printed ``(P) ^ a * u ^ a``, not multiplied out
        (the expanded ``P·u`` repeats the atom's text once per term of ``P``)."""
        return ((self.base[k], a, None), (self.norm.gens[k], a, None))


#: A fact ``Π P_k^{a_k}·Π u_k^{a_k} = 1`` named by its ``((atom, a_k), …)``; ``((k, 1),)`` is ``P_k·u_k = 1``.
FactKey = tuple[tuple[int, int], ...]
#: A product of factors ``(polynomial, exponent, text or None)`` kept unexpanded (``ring`` expands it).
Product = tuple[tuple[Any, int, "str | None"], ...]


def _key(outer: list[int], exps: list[int] | tuple[int, ...]) -> FactKey:
    return tuple((k, int(a)) for k, a in zip(outer, exps) if a)


def _power_terms(factors: list[tuple[int, int]]) -> float:
    """An upper bound on the terms of ``Π fᵢ^{eᵢ}`` given each ``fᵢ``'s number of terms."""
    out = 1.0
    for n, e in factors:
        out *= float(n) ** e
    return out


def _monomial(factors: list[tuple[Any, int]], one: Any) -> Any:
    out = one
    for f, n in factors:
        out *= f ** n
    return out


def _geometric(v: Any, n: int, ctx: Any) -> Any:
    return sum((v ** t for t in range(n)), ctx.constant(0))


def _expand(terms: list[Product], ctx: Any) -> Any:
    out = ctx.constant(0)
    for t in terms:
        x = ctx.constant(1)
        for f, n, _ in t:
            x *= f ** n
        out += x
    return out


# ------------------------------------------------------------------ printing


class _Printer:
    def __init__(self, norm: _Recording):
        self.norm = norm
        self.texts: dict[int, str] = {}

    def atom(self, i: int) -> str:
        if i not in self.texts:
            key = self.norm.keys[i]
            if key[0] == "term":
                t = key[1]
                s = rp.show(t)
                self.texts[i] = s if t[0] in ("fv", "const", "num") else f"({s})"
            elif key[0] == "inv":
                self.texts[i] = f"{self.atom(self.norm.atoms[key[1]])}⁻¹"
            else:
                self.texts[i] = f"({rp.show(self.norm.origin[key])})⁻¹" if key in self.norm.origin \
                    else f"({self.poly(self.norm.sum_poly(key[1]))})⁻¹"
        return self.texts[i]

    def base_text(self, i: int) -> str:
        """The written term whose inverse atom ``i`` is (for the fact ``P * P⁻¹ = 1``)."""
        key = self.norm.keys[i]
        if key[0] == "inv":
            return self.atom(self.norm.atoms[key[1]])
        if key in self.norm.origin:
            return f"({rp.show(self.norm.origin[key])})"
        return f"({self.poly(self.norm.sum_poly(key[1]))})"

    def factor(self, f: Any, n: int, text: str | None) -> str | None:
        """One factor's text (``None`` for the factor 1)."""
        if text is None:
            if f.is_one():
                return None
            text = self.poly(f)
            text = text if "-" not in text and " " not in text else f"({text})"
        else:
            text = f"({text})"
        return text if n == 1 else f"{text} ^ {n}"

    def products(self, terms: list[Product]) -> str:
        """``Σ Π factorᵉ`` with each factor printed expanded and the products left to ``ring``."""
        out = []
        for t in terms:
            if any(f.is_zero() for f, _, _ in t):
                continue
            factors = [x for x in (self.factor(*fct) for fct in t) if x is not None]
            out.append(" * ".join(factors) if factors else "1")
        return " + ".join(out) if out else "0"

    def fact_lhs(self, key: FactKey) -> str:
        """``P₁ ^ a₁ * … * P₁⁻¹ ^ a₁ * …``: the left side of the fact ``key``."""
        parts = [self.base_text(k) + (f" ^ {a}" if a > 1 else "") for k, a in key]
        parts += [self.atom(k) + (f" ^ {a}" if a > 1 else "") for k, a in key]
        return " * ".join(parts)

    def poly(self, p: Any) -> str:
        if p.is_zero():
            return "0"
        parts = []
        for exps, c in sorted(p.to_dict().items(), reverse=True):
            c = Fraction(int(c.p), int(c.q))
            factors = []
            for j, x in enumerate(exps):
                if x:
                    a = self.atom(j)
                    factors.append(a if x == 1 else f"{a} ^ {int(x)}")
            mag = abs(c)
            num = f"{mag.numerator}" if mag.denominator == 1 else f"({mag.numerator} / {mag.denominator})"
            if factors and mag == 1:
                body = " * ".join(factors)
            else:
                body = " * ".join([num] + factors)
            parts.append(("-" if c < 0 else "+", body))
        text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sign, body in parts[1:]:
            text += f" {sign} {body}"
        return text


# ------------------------------------------------------------------ summands and nested fractions

#: A signed top-level summand of a Lean term: ``(±1, text, rational function)``.
Summand = tuple[int, str, sp.Expr]


def signed_summands(text: str, variables: list[str]) -> list[Summand] | None:
    """The signed top-level summands of a Lean term (text and rational function); None when a
    summand cannot be read back."""
    scope = rp.Scope({v: v for v in variables}, opens=("Real",))
    try:
        term = rp.parse_term(rp.lex(text), scope)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    out: list[Summand] = []

    def walk(t: object, sign: int) -> bool:
        if isinstance(t, tuple) and t and t[0] in ("add", "sub"):
            return walk(t[1], sign) and walk(t[2], sign if t[0] == "add" else -sign)
        if isinstance(t, tuple) and t and t[0] == "neg":
            return walk(t[1], -sign)
        shown = rp.show(t)
        try:
            out.append((sign, shown, parse_expression(shown, variables, real_division=True)))
        except (ParseError, RecursionError):
            return False
        return True
    return out if walk(term, 1) else None



def _nested(t: Any, inside: bool = False) -> bool:
    """Whether a parsed term has a division or inverse inside a denominator, or a denominator
    that is a product or power with a sum in it (``ring`` inverts the expanded product as one
    atom, unrelated to the inverses of its factors that other summands have)."""
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] in ("div", "inv"):
        if inside or _product_of_sums(t[-1]):
            return True
        return (t[0] == "div" and _nested(t[1], inside)) or _nested(t[-1], True)
    return any(_nested(x, inside) for x in t[1:])


def _product_of_sums(t: Any) -> bool:
    """A product with two or more factors that have a sum in them (``(a + b) * (b + c)``); a power
    of one sum alone (``(a + b + c) ^ 7``) is left whole, as the goal's own multiplier writes it."""
    def factors(x: Any) -> list[Any]:
        return factors(x[1]) + factors(x[2]) if isinstance(x, tuple) and x and x[0] == "mul" else [x]

    def has_sum(x: Any) -> bool:
        return isinstance(x, tuple) and bool(x) and (x[0] in ("add", "sub") or any(has_sum(y) for y in x[1:]))
    return isinstance(t, tuple) and bool(t) and t[0] == "mul" and sum(has_sum(x) for x in factors(t)) >= 2


# ------------------------------------------------------------------ the public entry


#: ``base text -> (lines, term)``: ``lines`` prove a sign fact of a denominator that ``positivity``
#: cannot see (by a kernel certificate), ``term`` proves ``base ≠ 0`` from it; None when there is none.
PositiveFact = Callable[[str], "tuple[list[str], str] | None"]


@dataclass
class FactCache:
    """Facts ``P * P⁻¹ = 1`` (and products) already stated in the current tactic block, by their
    statement: several identities proved in one block (the summands of a connection) state each
    once. Only share a cache among calls whose lines go into the same block."""

    names: dict[str, str] = field(default_factory=dict)
    #: placeholder key -> statement, for every candidate emitted since the last rename
    pending: dict[str, str] = field(default_factory=dict)

    def resolve(self, mapping: dict[str, str]) -> None:
        """Record the facts of the candidate that was kept (its placeholders were renamed)."""
        for key, statement in self.pending.items():
            if key in mapping:
                self.names.setdefault(statement, mapping[key])
        self.pending.clear()


def prove_equality(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                   facts: list[EqFact] | tuple[EqFact, ...] = (),
                   positive: PositiveFact | None = None,
                   cache: FactCache | None = None) -> tuple[list[str], str]:
    """``(lines, combination)`` such that ``lines`` followed by ``linear_combination combination``
    proves ``lhs = rhs`` (Lean texts over the real ``variables``) in a context where every
    denominator is provably nonzero by ``positivity``.

    ``facts`` are equalities already known (hypotheses, lemma instances) entering the
    combination with their coefficients. The returned combination adds multiples of
    ``hinvN : P * P⁻¹ = 1`` facts (and of products of them, each stated and proved in ``lines``);
    it is empty when ``ring`` alone proves the identity. A denominator with a subtraction gets
    its ``P ≠ 0`` from ``positive`` (a sign fact; refused without one), the others from
    ``positivity``."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200_000))   # long sums are left-nested terms
    try:
        pos = _cached(positive, variables)
        cache = cache if cache is not None else FactCache()
        return _smaller_of_two(lhs, rhs, variables, ctx, facts, pos, cache)
    except RecursionError:
        raise RenderError("field identity: a term nested too deeply to read") from None
    finally:
        sys.setrecursionlimit(limit)


def _smaller_of_two(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                    facts: list[EqFact] | tuple[EqFact, ...], positive: PositiveFact,
                    cache: FactCache) -> tuple[list[str], str]:
    """The identity proved with nested summands flattened first and as it is written; the shorter
    text (flattening pays off when several denominators meet, and costs when few do), unless
    only the longer keeps every tactic within the replay budget. Each try
    works on a copy of the cache; the kept one's facts are recorded."""
    tries: list[tuple[list[str], str, FactCache]] = []
    errors: list[RenderError] = []
    for flatten in (True, False):
        trial = FactCache(dict(cache.names))
        try:
            if flatten:
                pre, l2, r2, flat = _flatten_nested(lhs, rhs, variables, ctx, positive, trial)
                if not flat:
                    continue
                lines, comb = _prove_equality(l2, r2, variables, ctx, facts, positive, trial)
                tries.append((pre + lines, " + ".join(x for x in (comb, *flat) if x), trial))
            else:
                lines, comb = _prove_equality(lhs, rhs, variables, ctx, facts, positive, trial)
                tries.append((lines, comb, trial))
        except RenderError as exc:
            errors.append(exc)
    if not tries:
        raise errors[-1]
    lines, comb, trial = min(tries, key=_candidate_key)
    cache.names.update(trial.names)
    return lines, comb


def _candidate_key(candidate: tuple[list[str], str, FactCache]) -> tuple[bool, int]:
    """Shorter first, but a candidate with a tactic over the replay budget only when all are."""
    lines, comb = candidate[0], candidate[1]
    largest = max([len(comb) + len("linear_combination ")] + [len(x) for x in lines])
    return largest > rp.TACTIC_BUDGET, sum(map(len, lines)) + len(comb)


def _flatten_nested(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                    positive: PositiveFact, cache: FactCache) -> tuple[list[str], str, str, list[str]]:
    """Each summand with a fraction inside a denominator (``y0 ^ 3 / (y2 ^ 3 * (y0 / y1 + y1 / y2))``)
    replaced by its reduced form over factored denominators, the two proved equal on their own
    (``have hflatN``). ``ring`` sees ``(y0 / y1 + y1 / y2)⁻¹`` as an atom with atoms inside; one
    identity over all summands would clear every such level against every other denominator.
    Returns ``(lines, lhs', rhs', weighted facts)`` with ``lhs − rhs = lhs' − rhs' + Σ facts``."""
    lines: list[str] = []
    flat: list[str] = []
    sides = []
    summands = [(side_sign, signed_summands(text, variables)) for side_sign, text in ((1, lhs), (-1, rhs))]
    if any(parts is None for _, parts in summands):
        return [], lhs, rhs, []
    news = _flattened_summands([x for _, parts in summands for x in parts], variables)
    for side_sign, parts in summands:
        out = []
        for sign, s_text, s_expr in parts:
            new = news.get(s_text)
            power = _flatten_power(s_text, variables, ctx, positive, cache)
            if power is not None:
                lines += power[0]
                flat.append(power[2] if side_sign * sign > 0 else f"(-1) * {power[2]}")
                out.append((sign, power[1]))
                continue
            if new is not None:
                try:
                    sub_lines, comb = _summand_identity(s_text, new, variables, ctx, positive, cache)
                except RenderError:
                    new = None
            if new is None:
                out.append((sign, s_text))
                continue
            name = _placeholder("hflat")
            lines += sub_lines
            lines += equality_lines(name, s_text, new, comb)
            flat.append(name if side_sign * sign > 0 else f"(-1) * {name}")
            out.append((sign, new))
        sides.append(out)
    if not flat:
        return [], lhs, rhs, []
    lines, flat = _rename(lines, flat, ctx)
    return lines, _join(sides[0]), _join(sides[1]), flat


def _summand_identity(s_text: str, new: str, variables: list[str], ctx: RenderContext,
                      positive: PositiveFact, cache: FactCache) -> tuple[list[str], str]:
    """``(lines, combination)`` proving one nested summand equal to its reduced form: by
    :func:`_cross_multiplied` when its denominator has fractions in it, else (or when that
    fails) by one elimination over the whole summand."""
    trial = FactCache(dict(cache.names))
    try:
        crossed = _cross_multiplied(s_text, new, variables, ctx, positive, trial)
    except RenderError:
        crossed = None
    if crossed is not None:
        cache.names.update(trial.names)
        return crossed
    return _prove_equality(s_text, new, variables, ctx, (), positive, cache)


def _cross_multiplied(s_text: str, new: str, variables: list[str], ctx: RenderContext,
                      positive: PositiveFact, cache: FactCache) -> tuple[list[str], str] | None:
    """``X / Y = P / Q`` (``Y`` with fractions in it, ``P / Q`` the reduced form ``new``) one
    level at a time: each factor of ``X`` and ``Y`` flattened summand by summand (``X − X'``,
    ``Y − Y'`` sums of ``hflat`` facts), the cross product ``X'·Q = P·Y'`` proved with only the
    flattened factors' denominators, then ``X·Y⁻¹ − P·Q⁻¹ = Y⁻¹Q⁻¹·(X'Q − PY') + Y⁻¹Q⁻¹Q·(X − X')
    − Y⁻¹Q⁻¹P·(Y − Y') − XY⁻¹·(QQ⁻¹ − 1) + PQ⁻¹·(YY⁻¹ − 1)``, ``Y⁻¹`` and ``Q⁻¹`` the products of
    their factors' inverses as ``ring`` reads the summand and ``new``. One elimination over the
    whole summand clears every level of ``Y`` against every other denominator (tactics of
    30–70 k characters). None when the denominator has no fraction in it."""
    scope = rp.Scope({v: v for v in variables}, opens=("Real",))
    try:
        num_t, den_t = _quotient_factors(rp.parse_term(rp.lex(s_text), scope))
        p_f, q_f = (list(map(rp.show, fs)) for fs in _quotient_factors(rp.parse_term(rp.lex(new), scope)))
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    if not q_f or not any(_has_division(f) for f in den_t):
        return None
    num, den = list(map(rp.show, num_t)), list(map(rp.show, den_t))
    lines: list[str] = []
    num2, num_flat = _flattened_factors(num, lines, variables, ctx, positive, cache)
    den2, den_flat = _flattened_factors(den, lines, variables, ctx, positive, cache)
    x, x2, y2, p, q = (_product(fs) for fs in (num, num2, den2, p_f, q_f))
    e_lhs, e_rhs = f"({x2}) * ({q})", f"({p}) * ({y2})"
    e_lines, e_comb = _prove_equality(e_lhs, e_rhs, variables, ctx, (), positive, cache)
    h_cross = ctx.fresh("hcross")
    lines += e_lines + equality_lines(h_cross, e_lhs, e_rhs, e_comb)
    y_inv, q_inv = _inverse(den), _inverse(q_f)
    inv = f"{y_inv} * {q_inv}"
    terms, checks = [f"({inv}) * {h_cross}"], [(inv, e_lhs, e_rhs)]
    for part in (_difference_terms(num, num2, num_flat, f"{inv} * ({q})"),
                 _difference_terms(den, den2, den_flat, f"-({p}) * {inv}"),
                 _unit_terms(q_f, f"-({x}) * {y_inv}", positive, cache, ctx, lines),
                 _unit_terms(den, f"({p}) * {q_inv}", positive, cache, ctx, lines)):
        terms += part[0]
        checks += part[1]
    if not reproduces(s_text, new, checks, variables):
        raise RenderError("field identity: the cross-multiplied combination does not reproduce the summand")
    return lines, " + ".join(terms)


#: ``(coefficient, lhs, rhs)``: a combination term ``coefficient · (lhs − rhs)``, for checking.
Weighted = tuple[str, str, str]


def reproduces(lhs: str, rhs: str, checks: list[Weighted], variables: list[str]) -> bool:
    """Whether ``lhs − rhs − Σ c·(l − r)`` is 0 in the replay model's ``ring`` normal form."""
    goal = ("sub", _parse(lhs, variables), _parse(rhs, variables))
    for coeff, left, right in checks:
        goal = ("sub", goal, ("mul", _parse(coeff, variables),
                              ("sub", _parse(left, variables), _parse(right, variables))))
    try:
        return _Recording([goal]).norm(goal).is_zero()
    except (rp.NotModelled, rp.ModelError):
        return False


def _product(factors: list[str]) -> str:
    return " * ".join(f"({f})" for f in factors) or "1"


def _inverse(factors: list[str]) -> str:
    return " * ".join(f"({f})⁻¹" for f in factors) or "1"


def _flattened_factors(factors: list[str], lines: list[str], variables: list[str], ctx: RenderContext,
                       positive: PositiveFact, cache: FactCache) -> tuple[list[str], list[list[str]]]:
    """Each factor with its nested summands flattened (:func:`_flatten_nested`), and the facts
    whose sum is ``factor − flattened``; their proofs go to ``lines``."""
    out: list[str] = []
    flats: list[list[str]] = []
    for f in factors:
        pre, f2, _, flat = _flatten_nested(f, "0", variables, ctx, positive, cache)
        lines += pre
        out.append(f2 if flat else f)
        flats.append(flat)
    return out, flats


def _difference_terms(a: list[str], b: list[str], flats: list[list[str]],
                      mult: str) -> tuple[list[str], list[Weighted]]:
    """Combination terms for ``mult · (Π a − Π b)``, ``aⱼ − bⱼ`` the sum of ``flats[j]``:
    ``Π a − Π b = Σⱼ Π_{i<j} bᵢ · (aⱼ − bⱼ) · Π_{i>j} aᵢ``; and the same as weighted differences."""
    out: list[str] = []
    checks: list[Weighted] = []
    for j, flat in enumerate(flats):
        coeff = " * ".join([mult] + [f"({x})" for x in b[:j] + a[j + 1:]])
        out += [_scaled(coeff, fx) for fx in flat]
        if flat:
            checks.append((coeff, a[j], b[j]))
    return out, checks


def _unit_terms(factors: list[str], mult: str, positive: PositiveFact, cache: FactCache,
                ctx: RenderContext, lines: list[str]) -> tuple[list[str], list[Weighted]]:
    """Combination terms for ``mult · (Π f · Π f⁻¹ − 1)`` from each factor's ``f * f⁻¹ = 1``:
    ``Σⱼ Π_{i<j} (fᵢ·fᵢ⁻¹) · (fⱼ·fⱼ⁻¹ − 1)``."""
    out: list[str] = []
    checks: list[Weighted] = []
    for j, f in enumerate(factors):
        unit = _unit_fact(f, positive, cache, ctx, lines)
        coeff = " * ".join([mult] + [f"({g}) * ({g})⁻¹" for g in factors[:j]])
        out.append(f"({coeff}) * {unit}")
        checks.append((coeff, f"({f}) * ({f})⁻¹", "1"))
    return out, checks


def _quotient_factors(t: Any) -> tuple[list[Any], list[Any]]:
    """A product's factors above and below the line (``a / b / c`` → ``[a], [b, c]``; ``(g)⁻¹ ^ 2``
    → ``g`` twice below), split as ``ring`` splits an inverse: over a monomial
    (``(x / (y + z))⁻¹ = x⁻¹ · (y + z)``), never over a product with a sum above its line
    (``(S / 2)⁻¹`` is the inverse of the expanded sum ``S·2⁻¹``, one atom, not ``2·S⁻¹``)."""
    num: list[Any] = []
    den: list[Any] = []

    def walk(x: Any, up: bool) -> None:
        if _tag(x) in ("mul", "div", "inv") and not up and not _monomial_quotient(x):
            den.append(x)
        elif _tag(x) in ("mul", "div"):
            walk(x[1], up)
            walk(x[2], up if x[0] == "mul" else not up)
        elif _tag(x) == "inv":
            walk(x[1], not up)
        elif up and _tag(x) == "pow" and _tag(x[1]) == "inv" and _tag(x[2]) == "num" and 1 <= x[2][1] <= 8:
            den.extend([x[1][1]] * x[2][1])
        elif not (_tag(x) == "num" and x[1] == 1):
            (num if up else den).append(x)
    walk(t, True)
    return num, den


def _tag(t: Any) -> str | None:
    return t[0] if isinstance(t, tuple) and t else None


def _monomial_quotient(t: Any) -> bool:
    """Whether ``ring`` reads a product/quotient as one monomial: no sum above its line."""
    return not any(_sum_like(f) for f in _quotient_factors(t)[0])


def _sum_like(t: Any) -> bool:
    if _tag(t) in ("add", "sub"):
        return True
    return _tag(t) in ("neg", "pow") and _sum_like(t[1])


def _scaled(coeff: str, term: str) -> str:
    """``(coeff) * term`` for a combination term ``h`` or ``(-1) * h``."""
    if term.startswith("(-1) * "):
        return f"(-({coeff})) * {term[len('(-1) * '):]}"
    return f"({coeff}) * {term}"


def _unit_fact(base: str, positive: PositiveFact, cache: FactCache, ctx: RenderContext,
               lines: list[str]) -> str:
    """The name of ``(base) * (base)⁻¹ = 1``, stated (with ``base ≠ 0``) in ``lines`` unless the
    block has it already."""
    statement = f"({base}) * ({base})⁻¹ = 1"
    if statement in cache.names:
        return cache.names[statement]
    hne, hinv = ctx.fresh("hne"), ctx.fresh("hinv")
    lines += _unit_lines(f"({base})", f"({base})⁻¹", hne, hinv, positive)
    cache.names[statement] = hinv
    return hinv


def _unit_lines(base: str, atom: str, hne: str, hinv: str, positive: PositiveFact) -> list[str]:
    """``hne : base ≠ 0`` (by ``positivity`` or the sign fact ``positive`` finds) and
    ``hinv : base * atom = 1`` by ``mul_inv_cancel₀``."""
    sign = positive(base)
    lines = [f"have {hne} : {base} ≠ 0 := by positivity"] if sign is None \
        else sign[0] + [f"have {hne} : {base} ≠ 0 := {sign[1]}"]
    return lines + [f"have {hinv} : {at_real(f'{base} * {atom} = 1')} := mul_inv_cancel₀ {hne}"]


def _flatten_power(s_text: str, variables: list[str], ctx: RenderContext, positive: PositiveFact,
                   cache: FactCache) -> tuple[list[str], str, str] | None:
    """``(lines, (B') ^ k, name)`` for a summand ``(B) ^ k`` with fractions nested in ``B``'s
    summands (a monotone power of a sum of fractions, ``(Σ 1 / (1 / x + 1 / y)) ^ 3``): ``B = B'``
    by :func:`_flatten_nested`, then ``(B) ^ k = (B') ^ k`` from it, ``Bᵏ − B'ᵏ = (B − B')·Σ Bⁱ·B'^(k−1−i)``.
    Clearing every level of ``B`` inside the power against every other denominator is what
    made such identities too large. None for other summands."""
    try:
        t = rp.parse_term(rp.lex(s_text), rp.Scope({v: v for v in variables}, real_division=True))
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    if t[0] != "pow" or t[2][0] != "num" or not 2 <= int(t[2][1]) <= 8 or t[1][0] not in ("add", "sub", "div"):
        return None
    k, b = int(t[2][1]), rp.show(t[1])
    pre, b2, _, flat = _flatten_nested(b, "0", variables, ctx, positive, cache)
    if not flat:
        return None
    hb, hp = _placeholder("hflat"), _placeholder("hflat")
    lines = pre + equality_lines(hb, f"({b})", f"({b2})", " + ".join(flat)) \
        + equality_lines(hp, f"({b}) ^ {k}", f"({b2}) ^ {k}", f"({geometric_sum(f'({b})', f'({b2})', k)}) * {hb}")
    return lines, f"({b2}) ^ {k}", hp


def _flattened_summands(parts: list[Summand], variables: list[str]) -> dict[str, str]:
    """The reduced form of each summand with nested fractions (by its text), each denominator
    factor signed as the summands kept as written have it (``a * b - 4`` written ``4 - a * b``
    where a kept summand divides by that: ``ring`` then meets one inverse atom for both)."""
    split = {s_text: _split_denominator(s_text, variables) for _, s_text, _ in parts}
    news = {s_text: split[s_text] or _flattened(s_text, s_expr, variables) for _, s_text, s_expr in parts}
    written = written_denominators(*(s_expr for _, s_text, s_expr in parts if news[s_text] is None))
    reduced = [(s_text, s_expr) for _, s_text, s_expr in parts if news[s_text] is not None and not split[s_text]]
    negative = set().union(*(negated_factors(s_expr, written) for _, s_expr in reduced))
    if negative:
        news.update({s_text: _flattened(s_text, s_expr, variables, negative) for s_text, s_expr in reduced})
    return {k: v for k, v in news.items() if v is not None}


def _split_denominator(text: str, variables: list[str]) -> str | None:
    """``N * (F₁)⁻¹ ^ k₁ * …`` for a summand written ``N / (F₁ ^ k₁ * …)`` whose only nesting is a
    product of sums in the denominator (``N`` and the ``Fᵢ`` free of division), or None.

    The written factors become the inverse atoms as they stand, with no ``cancel`` and no
    factorisation: on a combined fraction of degree 12 in four variables (mo-int-20/P19) those
    took minutes, while ``ring`` needs only one atom per factor that the other summands share."""
    try:
        t = rp.parse_term(rp.lex(text), rp.Scope({v: v for v in variables}, opens=("Real",)))
    except (rp.NotModelled, rp.ModelError):
        return None
    if not (isinstance(t, tuple) and t and t[0] == "div" and _product_of_sums(t[2])) or _has_division(t[1]):
        return None
    factors: list[tuple[Any, int]] = []
    todo = [t[2]]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple) and x and x[0] == "mul":
            todo += [x[2], x[1]]
            continue
        if isinstance(x, tuple) and x and x[0] == "pow" and isinstance(x[2], tuple) and x[2][0] == "num":
            base, k = x[1], x[2][1]
        else:
            base, k = x, 1
        if _has_division(base) or not isinstance(k, int) or k < 1:
            return None
        factors.append((base, k))
    parts = [f"({rp.show(t[1])})"]
    parts += [f"({rp.show(base)})⁻¹" + (f" ^ {k}" if k > 1 else "") for base, k in factors]
    return " * ".join(parts)


def _has_division(t: Any) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    return t[0] in ("div", "inv") or any(_has_division(x) for x in t[1:])


def _flattened(text: str, expr: sp.Expr, variables: list[str],
               negative: set[sp.Expr] | frozenset[sp.Expr] = frozenset()) -> str | None:
    """The reduced form of a summand with nested fractions, or None when it has none; factors in
    ``negative`` are written negated (:func:`factored_text`)."""
    try:
        if not _nested(rp.parse_term(rp.lex(text), rp.Scope({v: v for v in variables}, opens=("Real",)))):
            return None
    except (rp.NotModelled, rp.ModelError):
        return None
    if any(not (a.is_Symbol or a.is_number) for a in expr.atoms(sp.Function, sp.Pow)
           if isinstance(a, sp.Function) or (a.is_Pow and not a.exp.is_Integer)):
        return None                              # roots, functions: not a rational function
    return factored_text(sp.cancel(sp.together(expr)), negative)


def _join(parts: list[tuple[int, str]]) -> str:
    if not parts:
        return "0"
    out = ""
    for sign, text in parts:
        out += (f" {'+' if sign > 0 else '-'} " if out else ("" if sign > 0 else "-")) + f"({text})"
    return out


def _cached(positive: PositiveFact | None, variables: list[str]) -> PositiveFact:
    """``positive`` asked once per base (both strategies emit the same facts); for a base without
    a subtraction it only names a stated hypothesis ``positivity`` cannot see (None: ``positivity``
    proves it). A polynomial base with a subtraction that
    ``positive`` finds no sign fact for is refused: ``positivity`` has no subtraction, so its
    ``P ≠ 0`` would not replay (other bases, ``Real.exp (a - b)``, are left to ``positivity``).
    Without ``positive`` every ``P ≠ 0`` is left to ``positivity`` (the caller has stated the sign
    facts it finds by ``compareHyp``)."""
    seen: dict[str, tuple[list[str], str] | None] = {}

    def get(base: str) -> tuple[list[str], str] | None:
        if positive is None:
            return None
        if base not in seen:
            seen[base] = positive(base)
        if seen[base] is None and "-" in base and _is_polynomial(base, variables):
            raise RenderError(f"field identity: no sign fact for the denominator {base[:200]}")
        return seen[base]
    return get


def _is_polynomial(text: str, variables: list[str]) -> bool:
    try:
        e = parse_expression(text, variables)
    except (ParseError, RecursionError):
        return False
    return e.is_polynomial(*e.free_symbols)


def _prove_equality(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                    facts: list[EqFact] | tuple[EqFact, ...], positive: PositiveFact,
                    cache: FactCache | None = None) -> tuple[list[str], str]:
    goal = ("sub", _parse(lhs, variables), _parse(rhs, variables))
    text = f"({lhs}) - ({rhs})"
    for fct in facts:
        goal = ("sub", goal, ("mul", _parse(fct.coeff, variables),
                              ("sub", _parse(fct.lhs, variables), _parse(fct.rhs, variables))))
        text += f" - ({fct.coeff}) * (({fct.lhs}) - ({fct.rhs}))"
    norm = _Recording([goal])
    try:
        e = norm.norm(goal)
    except (rp.NotModelled, rp.ModelError) as exc:
        raise RenderError(f"field identity: {exc}") from None
    elim = _Eliminator(norm)
    printer = elim.printer
    given = [f"({fct.coeff}) * {fct.proof}" if fct.coeff.strip() != "1" else fct.proof for fct in facts]
    e, powers = _power_atoms(e, norm, printer)
    if powers:
        given += powers
        text = None
    best: tuple[list[str], list[str]] | None = None
    cache = cache if cache is not None else FactCache()
    for common in (False, True):
        coeff = elim.solve(e, text, common=common)
        _verify(e, coeff, elim)
        candidate = _emit(coeff, elim, printer, positive, cache)
        if best is None or _size(candidate) < _size(best):
            best = candidate
        if not coeff:
            break
    lines, terms = _rename(best[0], best[1], ctx, cache)
    big = max((len(t) for t in terms), default=0)
    if big > MAX_COEFFICIENT_CHARS:
        raise RenderError(f"field identity: a coefficient of {big} characters")
    lines += _split_off(terms, cache, ctx)          # replaces the terms it proves apart
    return lines, " + ".join(given + terms)


#: A combination longer than this has its largest terms proved apart (:func:`_split_off`) until
#: it is at most ``SPLIT_TO`` characters.
SPLIT_AT, SPLIT_TO = rp.TACTIC_BUDGET * 3 // 4, rp.TACTIC_BUDGET // 2
#: The characters a split-off coefficient may take in its ``have hpart`` tactic (the rest of the
#: tactic — its name, ``L``, the proof term, the indentation — under 200 characters besides ``L``).
PART_BUDGET = rp.TACTIC_BUDGET - 200


def _split_off(terms: list[str], cache: FactCache, ctx: RenderContext) -> list[str]:
    """``have hpartN : c * (L - 1) = 0 := mul_eq_zero_of_right _ (sub_eq_zero_of_eq h)`` for the
    largest terms ``c * h`` of a long combination (``h : L = 1`` a fact of this block), each
    replaced in ``terms`` by ``hpartN``: the same sum for ``ring``, in tactics within the size
    budget and a combination of fewer summands (its nesting depth). A coefficient over the budget
    is cut into summands (:func:`sum_pieces`), one ``hpart`` each. The term proof writes ``c``
    once (a ``linear_combination c * h`` proof would write it twice)."""
    if len(" + ".join(terms)) <= SPLIT_AT:
        return []
    statements = {name: st for st, name in cache.names.items() if st.endswith(" = 1")}
    lines: list[str] = []
    for i in sorted(range(len(terms)), key=lambda i: -len(terms[i])):
        if len(" + ".join(terms)) <= SPLIT_TO:
            break
        coeff, _, name = terms[i].rpartition(" * ")
        if not coeff or name not in statements:
            continue
        lhs = statements[name][:-len(" = 1")]
        pieces = sum_pieces(coeff, PART_BUDGET - len(lhs) - len(name))
        if pieces is None:
            continue                         # a term that alone is over the budget stays
        parts = []
        for piece in pieces:
            part = ctx.fresh("hpart")
            lines += wrap_line(f"have {part} : ({piece}) * ({lhs} - 1) = 0 := "
                               f"mul_eq_zero_of_right _ (sub_eq_zero_of_eq {name})")
            parts.append(part)
        terms[i] = " + ".join(parts)
    return lines


def sum_pieces(text: str, limit: int) -> list[str] | None:
    """Texts whose sum is the term ``text`` (as ``ring`` reads it), each at most ``limit``
    characters: a sum is cut between its summands, a product in its largest parenthesised sum
    factor (``A * (s₁ + s₂) * B`` → ``A * (s₁) * B``, ``A * (s₂) * B``); None when some part
    cannot be cut that small (a single long monomial, a power of a sum, a difference)."""
    if len(text) <= limit:
        return [text]
    inner = _unwrapped(text)
    summands = split_top(inner, "+")
    if len(summands) > 1:
        return _chunked(summands, limit)
    if len(split_top(inner.lstrip("-"), "-")) > 1:
        return None                          # a depth-0 difference: its parts are not summands
    factors = split_top(inner, "*")
    big = max(range(len(factors)), key=lambda k: len(factors[k]))
    if len(factors) < 2 or _unwrapped(factors[big]) == factors[big]:
        return None
    rest = len(inner) - len(factors[big])
    pieces = sum_pieces(factors[big], limit - rest - 2)
    if pieces is None or len(pieces) < 2:
        return None
    return [" * ".join(factors[:big] + [f"({p})"] + factors[big + 1:]) for p in pieces]


def _chunked(summands: list[str], limit: int) -> list[str] | None:
    """Consecutive summands joined into sums of at most ``limit`` characters (a summand over it
    cut by :func:`sum_pieces` first)."""
    chunks: list[str] = []
    for summand in summands:
        pieces = sum_pieces(summand, limit)
        if pieces is None:
            return None
        for piece in pieces:
            if chunks and len(chunks[-1]) + 3 + len(piece) <= limit:
                chunks[-1] += " + " + piece
            else:
                chunks.append(piece)
    return chunks


def _unwrapped(text: str) -> str:
    """``text`` without parentheses around the whole of it (``(a) * (b)`` keeps its own)."""
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for k, ch in enumerate(text):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and k < len(text) - 1:
                return text
        text = text[1:-1]
    return text


def _power_atoms(e: Any, norm: _Recording, printer: _Printer) -> tuple[Any, list[str]]:
    """``e`` with every inverse atom ``(Bᵏ)⁻¹`` (``Bᵏ`` expanded: ``ring`` inverts the expanded
    power as one atom) replaced by ``(B⁻¹)ᵏ`` when ``B⁻¹`` is an atom too, and the terms
    ``c * inv_pow B k`` (``B⁻¹ ^ k = (B ^ k)⁻¹``) that account for it. Eliminated through
    ``Bᵏ·(Bᵏ)⁻¹ = 1`` instead, ``(Bᵏ)⁻¹`` against ``(B⁻¹)ᵏ`` costs the binomial expansion of
    every ``Bʲ·(B⁻¹)ʲ``, j < k (567neq/P53: tens of thousands of characters for ``B = a + b + c``)."""
    sums = {i: norm.sum_poly(key[1]) for i, key in enumerate(norm.keys) if key[0] == "invsum"}
    terms: list[str] = []
    by_degree = sorted(sums.items(), key=lambda item: item[1].total_degree())
    done: set[int] = set()
    while True:
        present = {i for i, x in enumerate(e.degrees()) if x} if not e.is_zero() else set()
        todo = sorted((present & set(sums)) - done)
        if not todo:
            break
        i = todo[0]
        done.add(i)
        for j, base in by_degree:       # the smallest base first: (s²)³ is s⁶ too
            if j == i or base.total_degree() < 1 or sums[i].total_degree() % base.total_degree():
                continue
            k = sums[i].total_degree() // base.total_degree()
            if k < 2 or len(sums[i]) < len(base) or base ** k != sums[i]:
                continue
            w = norm.gens[j] ** k
            # c = (e − e|u:=w) / (u − w), term by term: (uᵃ − wᵃ)/(u − w) = Σ_{r<a} uʳ·w^(a−1−r)
            c = norm.ctx.constant(0)
            replaced = norm.ctx.constant(0)
            for exps, coef in e.to_dict().items():
                a = int(exps[i])
                rest = list(exps)
                rest[i] = 0
                mono = norm.ctx.from_dict({tuple(rest): coef})
                replaced += mono * w ** a
                for r in range(a):
                    c += mono * norm.gens[i] ** r * w ** (a - 1 - r)
            e = replaced
            # e_old = e_new + c·(u − w) = e_new − c·(w − u), and inv_pow B k states w = u
            body = printer.products([_factored(-c)])
            if body != "0":
                wrapped = body if " " not in body and not body.startswith("-") else f"({body})"
                terms.append(f"{wrapped} * inv_pow {printer.base_text(j)} {k}")
            break
    return e, terms


def _factored(p: Any) -> Product:
    """``p`` as the product of its irreducible factors (one factor when it has none): the
    coefficient of an ``inv_pow`` fact is the whole numerator over that power, often a product
    written factored in the goal (mo-int-20/P19: 15,000 characters expanded)."""
    try:
        const, factors = p.factor()
    except (AttributeError, NotImplementedError, ValueError):
        return ((p, 1, None),)
    if len(factors) < 2 and all(k == 1 for _, k in factors):
        return ((p, 1, None),)
    one = p.context().constant(1)
    return ((one * const, 1, None),) + tuple((f, int(k), None) for f, k in factors)


def _verify(e: Any, coeff: dict[FactKey, list[Product]], elim: _Eliminator) -> None:
    check = e
    for key, terms in coeff.items():
        check -= _expand(terms, elim.norm.ctx) * (elim.fact_poly(key) - 1)
    if not check.is_zero():
        raise RenderError("field identity: internal error, the elimination does not reproduce the identity")


def _size(candidate: tuple[list[str], list[str]]) -> int:
    return sum(len(x) for x in candidate[0]) + sum(len(x) for x in candidate[1])


def _emit(coeff: dict[FactKey, list[Product]], elim: _Eliminator,
          printer: _Printer, positive: PositiveFact, cache: FactCache) -> tuple[list[str], list[str]]:
    """The ``have`` lines (``P ≠ 0``, ``P * P⁻¹ = 1``, products of those) and the weighted terms.
    Names are placeholders, renamed to fresh names of the context once a candidate is chosen."""
    single = sorted({k for key in coeff for k, _ in key})
    lines: list[str] = []
    names: dict[FactKey, str] = {}
    for k in single:
        base = printer.base_text(k)
        statement = f"{base} * {printer.atom(k)} = 1"
        if statement in cache.names:
            names[((k, 1),)] = cache.names[statement]
            continue
        hne, hinv = _placeholder("hne"), _placeholder("hinv")
        cache.pending[hinv[1:-1]] = statement
        lines += _unit_lines(base, printer.atom(k), hne, hinv, positive)
        names[((k, 1),)] = hinv
    terms: list[str] = []
    for key in sorted(coeff):
        body = printer.products(coeff[key])
        if body == "0":
            continue
        if key not in names:
            _product_fact(key, elim, printer, names, lines, cache)
        wrapped = body if " " not in body and not body.startswith("-") else f"({body})"
        terms.append(names[key] if body == "1" else f"{wrapped} * {names[key]}")
    return lines, terms


def _product_fact(key: FactKey, elim: _Eliminator, printer: _Printer, names: dict[FactKey, str],
                  lines: list[str], cache: FactCache) -> str:
    """The name of the fact ``Π P_k^{a_k}·Π u_k^{a_k} = 1``, proving it (and the facts of its
    prefixes) as needed. Up to two atoms: one telescoped ``linear_combination``; more: a chain,
    ``F_j = F_{j−1}·V_j`` by ``linear_combination V_j * F_{j−1} + G_j`` (``V_j = P_j^a·u_j^a``), so
    that no tactic repeats the growing prefix product in every term (quadratic in the atoms)."""
    if key in names:
        return names[key]
    statement = f"{printer.fact_lhs(key)} = 1"
    if statement in cache.names:
        names[key] = cache.names[statement]
        return names[key]
    name = _placeholder("hinv")
    cache.pending[name[1:-1]] = statement
    if len(key) <= 2:
        parts = [f"{printer.products(c)} * {names[k]}" for k, c in elim.telescope(key).items()]
        comb = " + ".join(parts)
    else:
        prev = _product_fact(key[:-1], elim, printer, names, lines, cache)
        k, a = key[-1]
        last = _product_fact((key[-1],), elim, printer, names, lines, cache)
        power = "" if a == 1 else f" ^ {a}"
        comb = f"({printer.base_text(k)}{power} * {printer.atom(k)}{power}) * {prev} + {last}"
    lines.append(f"have {name} : {printer.fact_lhs(key)} = 1 := by")
    lines.append(f"  linear_combination {comb}")
    names[key] = name
    return name


_PLACEHOLDER = "⟪{}⟫"


_PLACEHOLDERS = itertools.count(1)


def _placeholder(prefix: str) -> str:
    return _PLACEHOLDER.format(f"{prefix}:{next(_PLACEHOLDERS)}")


def _rename(lines: list[str], terms: list[str], ctx: RenderContext,
            cache: FactCache | None = None) -> tuple[list[str], list[str]]:
    mapping: dict[str, str] = {}

    def sub(m: re.Match) -> str:
        key = m.group(1)
        if key not in mapping:
            mapping[key] = ctx.fresh(key.split(":")[0])
        return mapping[key]

    pat = re.compile("⟪([^⟫]+)⟫")
    out = [pat.sub(sub, x) for x in lines], [pat.sub(sub, x) for x in terms]
    if cache is not None:
        cache.resolve(mapping)
    return out
