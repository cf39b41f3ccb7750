"""Equalities with denominators as one ``linear_combination`` that Mathlib's ``ring1`` checks.

``ring`` works in the field ℝ without ever cancelling a denominator: ``(a + b)⁻¹`` is an atom
(the inverse of a multi-term sum, after normalising it), ``(2 * a * b ^ 2)⁻¹`` distributes into
``2⁻¹ * a⁻¹ * (b⁻¹) ^ 2``, and ``(a⁻¹)⁻¹`` is a new atom. An identity of rational functions
``L = R`` is therefore proved by supplying, for every inverse atom ``u = P⁻¹`` that occurs, the
fact ``P * P⁻¹ = 1`` (``mul_inv_cancel₀``, with ``P ≠ 0`` proved in the context) with an exact
polynomial coefficient ``c_u`` such that ``L − R − Σ given − Σ c_u·(P·u − 1)`` is 0 in ``ring``'s
normal form. This replaces ``field_simp; ring`` (whose effect depends on the whole simp set).

The coefficients are computed by eliminating the atoms one at a time, outermost first:
with ``f = P·u − 1`` and ``E = Σₖ eₖ·uᵏ``, a top coefficient divisible by ``P`` is reduced
(``e·uᵏ = (e/P)·uᵏ⁻¹·(f + 1)``); otherwise ``Pᴺ·E = f·A + E′`` with ``E′`` free of ``u`` and
``E = −f·(1 + Pu + … + (Pu)ᴺ⁻¹)·E + uᴺ·(f·A + E′)``. Each step is exact polynomial algebra
over ℚ; nothing here is trusted: the replay model and Lean recheck the combination.

The normal form is the replay model's (``prover.lean.replay.RingNormalizer``) applied to the
very Lean text that is emitted, so the computed atoms are the ones ``ring`` sees in that text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from prover.lean import replay as rp
from prover.lean.render.common import RenderContext, RenderError

#: The most atoms one identity may eliminate, and the largest coefficient text (characters).
MAX_INVERSE_ATOMS = 24
MAX_COEFFICIENT_CHARS = 60_000


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
        terms = list(p.terms())
        if len(terms) > 1:
            key = tuple(sorted((tuple(int(x) for x in ex), (int(c.p), int(c.q))) for ex, c in terms))
            self.origin.setdefault(("invsum", key), b)
        return out


def _parse(text: str, variables: list[str]) -> Any:
    scope = rp.Scope({v: v for v in variables}, opens=("Real",))
    try:
        return rp.parse_term(rp.lex(text), scope)
    except (rp.NotModelled, rp.ModelError) as exc:
        raise RenderError(f"field identity: cannot read {text[:80]!r}: {exc}") from None


# ------------------------------------------------------------------ polynomial helpers (dict form)


def _split(p: Any, i: int) -> dict[int, Any]:
    """``p`` as ``{k: coefficient of gen_i^k}`` (coefficients free of gen ``i``)."""
    ctx = p.context()
    parts: dict[int, dict] = {}
    for exps, c in p.to_dict().items():
        k = exps[i]
        e = list(exps)
        e[i] = 0
        parts.setdefault(k, {})[tuple(e)] = c
    return {k: ctx.from_dict(d) for k, d in parts.items()}


def _degree(p: Any, i: int) -> int:
    return 0 if p.is_zero() else int(p.degrees()[i])


class _Eliminator:
    """Coefficients ``c_u`` with ``E = Σ c_u·(P_u·u − 1)`` for the inverse atoms of a normaliser."""

    def __init__(self, norm: _Recording):
        self.norm = norm
        self.base: dict[int, Any] = {}           # atom index -> P (its inverse's argument)
        for key, idx in list(norm.atoms.items()):
            self._register(key, idx)

    def _register(self, key: Any, idx: int) -> None:
        if key[0] == "inv":
            self.base[idx] = self.norm.gens[self.norm.atoms[key[1]]]
        elif key[0] == "invsum":
            ctx = self.norm.ctx
            d = {}
            for exps, (p, q) in key[1]:
                e = [0] * len(self.norm.gens)
                for j, x in enumerate(exps):
                    e[j] = x
                d[tuple(e)] = Fraction(p, q)
            self.base[idx] = ctx.from_dict({k: _fmpq(v) for k, v in d.items()})

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

    def solve(self, e: Any) -> dict[int, Any]:
        present = self._present(e)
        if not present:
            if not e.is_zero():
                raise RenderError("field identity: the two sides differ (not an identity of rational functions)")
            return {}
        if len(self.base) > MAX_INVERSE_ATOMS:
            raise RenderError(f"field identity: more than {MAX_INVERSE_ATOMS} inverse atoms")
        inner = set().union(*(self._inside(i) for i in present))
        outer = [i for i in present if i not in inner] or present
        return self._eliminate(e, outer[0])

    def _eliminate(self, e: Any, i: int) -> dict[int, Any]:
        u, p = self.norm.gens[i], self.base[i]
        coeff = {}
        c_u = e.context().constant(0)
        parts = _split(e, i)
        n = max(parts)
        # cheap reduction: a top coefficient divisible by P loses one power of u
        while n > 0:
            q, r = divmod(parts[n], p)
            if not r.is_zero():
                break
            c_u += q * u ** (n - 1)
            parts[n - 1] = parts.get(n - 1, e.context().constant(0)) + q
            del parts[n]
            n = max(parts) if parts else 0
            while n > 0 and parts[n].is_zero():
                del parts[n]
                n = max(parts) if parts else 0
        if n == 0:
            rest = parts.get(0, e.context().constant(0))
            coeff = self.solve(rest)
            coeff[i] = coeff.get(i, e.context().constant(0)) + c_u
            return coeff
        # general step: Pⁿ·E₀ = f·A + E′ for the unreduced part E₀ = Σ eₖ uᵏ
        e0 = sum((c * u ** k for k, c in parts.items()), e.context().constant(0))
        pu = p * u
        a = e.context().constant(0)
        e_prime = e.context().constant(0)
        for k, c in parts.items():
            e_prime += c * p ** (n - k)
            s = sum((pu ** j for j in range(k)), e.context().constant(0))
            a += c * p ** (n - k) * s
        coeff = {j: u ** n * c for j, c in self.solve(e_prime).items()}
        s_n = sum((pu ** j for j in range(n)), e.context().constant(0))
        coeff[i] = coeff.get(i, e.context().constant(0)) + c_u - s_n * e0 + u ** n * a
        return coeff


def _fmpq(v: Fraction) -> Any:
    return rp.flint.fmpq(v.numerator, v.denominator)


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
                    else f"({self.poly(self._key_poly(key))})⁻¹"
        return self.texts[i]

    def _key_poly(self, key: Any) -> Any:
        d = {}
        for exps, (p, q) in key[1]:
            e = [0] * len(self.norm.gens)
            for j, x in enumerate(exps):
                e[j] = x
            d[tuple(e)] = _fmpq(Fraction(p, q))
        return self.norm.ctx.from_dict(d)

    def base_text(self, i: int) -> str:
        """The written term whose inverse atom ``i`` is (for the fact ``P * P⁻¹ = 1``)."""
        key = self.norm.keys[i]
        if key[0] == "inv":
            return self.atom(self.norm.atoms[key[1]])
        if key in self.norm.origin:
            return f"({rp.show(self.norm.origin[key])})"
        return f"({self.poly(self._key_poly(key))})"

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


# ------------------------------------------------------------------ the public entry


def prove_equality(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                   facts: list[EqFact] | tuple[EqFact, ...] = ()) -> tuple[list[str], str]:
    """``(lines, combination)`` such that ``lines`` followed by ``linear_combination combination``
    proves ``lhs = rhs`` (Lean texts over the real ``variables``) in a context where every
    denominator is provably nonzero by ``positivity``.

    ``facts`` are equalities already known (hypotheses, lemma instances) entering the
    combination with their coefficients; the returned combination adds one
    ``c_u * hinvN`` per inverse atom, where ``hinvN : P * P⁻¹ = 1`` is stated in ``lines``."""
    goal = ("sub", _parse(lhs, variables), _parse(rhs, variables))
    for fct in facts:
        goal = ("sub", goal, ("mul", _parse(fct.coeff, variables),
                              ("sub", _parse(fct.lhs, variables), _parse(fct.rhs, variables))))
    norm = _Recording([goal])
    try:
        e = norm.norm(goal)
    except (rp.NotModelled, rp.ModelError) as exc:
        raise RenderError(f"field identity: {exc}") from None
    elim = _Eliminator(norm)
    coeff = elim.solve(e)
    check = e
    for i, c in coeff.items():
        check -= c * (elim.base[i] * norm.gens[i] - 1)
    if not check.is_zero():
        raise RenderError("field identity: internal error, the elimination does not reproduce the identity")
    printer = _Printer(norm)
    lines: list[str] = []
    terms = [f"({fct.coeff}) * {fct.proof}" if fct.coeff.strip() != "1" else fct.proof for fct in facts]
    for i in sorted(coeff):
        c = coeff[i]
        if c.is_zero():
            continue
        text = printer.poly(c)
        if len(text) > MAX_COEFFICIENT_CHARS:
            raise RenderError(f"field identity: a coefficient of {len(text)} characters")
        base = printer.base_text(i)
        hne, hinv = ctx.fresh("hne"), ctx.fresh("hinv")
        lines.append(f"have {hne} : {base} ≠ 0 := by positivity")
        lines.append(f"have {hinv} : {base} * {base}⁻¹ = 1 := mul_inv_cancel₀ {hne}")
        terms.append(f"({text}) * {hinv}")
    return lines, " + ".join(terms) if terms else ""
