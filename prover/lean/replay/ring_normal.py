"""``ring``'s normal form (polynomials over ℚ in atoms, python-flint) and ``norm_num``'s values."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prover.lean.replay.report import NotModelled
from prover.lean.replay.terms import alpha, show

try:
    import flint  # python-flint
except ImportError:  # pragma: no cover - declared dependency
    flint = None


class RingNormalizer:
    """Polynomials over ℚ in atoms, with Mathlib ``ring``'s treatment of ``⁻¹`` and ``/``."""

    def __init__(self, terms: list[Any]):
        if flint is None:
            raise NotModelled("python-flint is needed for ring normalisation")
        cap = 1 + sum(_atom_bound(t) for t in terms)
        self.cap = cap
        try:
            self.ctx = flint.fmpq_mpoly_ctx.get(("x", cap), "lex")
        except AttributeError:  # older python-flint
            self.ctx = flint.fmpq_mpoly_ctx(cap, flint.Ordering.lex, "x")
        self.gens = self.ctx.gens()
        self.atoms: dict[Any, int] = {}
        self.keys: list[Any] = []
        #: monomial operations so far (the resource model's count of ``ring``'s work): an addition
        #: costs the terms of both sides (``evalAdd`` merges them), a product the product of the
        #: term counts plus the result's terms, a power the result's terms times the base's
        self.ops = 0

    def const(self, c: Fraction | int) -> Any:
        c = Fraction(c)
        return self.ctx.constant(flint.fmpq(c.numerator, c.denominator))

    def atom(self, key: Any) -> Any:
        k = self.atoms.get(key)
        if k is None:
            k = len(self.keys)
            if k >= self.cap:
                raise NotModelled("ring normal form: too many atoms")
            self.atoms[key] = k
            self.keys.append(key)
        return self.gens[k]

    def norm(self, t: Any) -> Any:
        tag = t[0]
        if tag == "num":
            self.ops += 1
            return self.const(t[1])
        if tag == "cast" and isinstance(t[1], tuple) and t[1] and t[1][0] == "num":
            return self.norm(t[1])   # `((2 : ℕ) : ℝ)`: ring evaluates a numeral's cast (norm_num's `Nat.cast`)
        if tag == "dec":   # `3.141592`: `ring` evaluates `OfScientific` literals exactly (norm_num's `derive`)
            self.ops += 1
            return self.const(Fraction(t[1]))
        if tag in ("add", "sub"):
            a, b = self.norm(t[1]), self.norm(t[2])
            self.ops += len(a) + len(b)
            return a + b if tag == "add" else a - b
        if tag == "mul":
            a, b = self.norm(t[1]), self.norm(t[2])
            r = a * b
            self.ops += len(a) * len(b) + len(r)
            return r
        if tag == "neg":
            a = self.norm(t[1])
            self.ops += len(a)
            return -a
        if tag == "div":
            a, b = self.norm(t[1]), self.inv(self.norm(t[2]))
            r = a * b
            self.ops += len(a) * len(b) + len(r)
            return r
        if tag == "inv":
            return self.inv(self.norm(t[1]))
        if tag == "pow" and t[2][0] == "num":
            a = self.norm(t[1])
            r = a ** t[2][1]
            self.ops += len(r) * max(1, len(a))
            return r
        if tag in ("mvar", "by", "hole", "shole", "rel", "and", "or", "imp", "iff", "not", "forall",
                   "exists", "anon", "fun", "type"):
            raise NotModelled(f"ring: not a real-valued term: {show(t)}")
        self.ops += 1
        # an atom (a function application, a sum …) compared as a term up to bound-variable names
        return self.atom(("term", alpha(t)))

    def inv(self, p: Any) -> Any:
        self.ops += max(1, len(p))
        if p.is_zero():
            return p
        terms = list(p.terms())
        if len(terms) == 1:
            exps, c = terms[0]
            out = self.const(Fraction(int(c.q), int(c.p)))
            for i, e in enumerate(exps):
                if e:
                    out = out * self.atom(("inv", self.keys[i])) ** int(e)
            return out
        return self.atom(("invsum", self.sum_key(p)))

    @staticmethod
    def sum_key(p: Any) -> tuple:
        """The atom key of ``p⁻¹`` for a multi-term ``p``: its terms, independent of order."""
        return tuple(sorted((tuple(int(x) for x in ex), (int(c.p), int(c.q))) for ex, c in p.terms()))

    def sum_poly(self, key: tuple) -> Any:
        """The polynomial whose inverse is the atom ``("invsum", key)``."""
        d = {}
        for exps, (num, den) in key:
            e = [0] * len(self.gens)
            e[:len(exps)] = exps
            d[tuple(e)] = flint.fmpq(num, den)
        return self.ctx.from_dict(d)

    @staticmethod
    def constant_value(p: Any) -> Fraction | None:
        if p.is_zero():
            return Fraction(0)
        terms = list(p.terms())
        if len(terms) == 1 and not any(terms[0][0]):
            c = terms[0][1]
            return Fraction(int(c.p), int(c.q))
        return None


def _atom_bound(t: Any) -> int:
    """An upper bound on the atoms ``ring`` can create from ``t``."""
    if not isinstance(t, tuple):
        return 0
    tag = t[0]
    if tag in ("add", "sub", "mul"):
        return _atom_bound(t[1]) + _atom_bound(t[2])
    if tag == "div":
        return _atom_bound(t[1]) + 2 * _atom_bound(t[2]) + 1
    if tag == "inv":
        return 2 * _atom_bound(t[1]) + 1
    if tag == "neg":
        return _atom_bound(t[1])
    if tag == "pow" and t[2][0] == "num":
        return _atom_bound(t[1])
    if tag == "num":
        return 0
    return 1


def num_value(t: Any) -> Fraction | None:
    """``norm_num``'s value of a closed rational expression (``x / 0 = 0``), else None."""
    tag = t[0]
    if tag == "num":
        return Fraction(t[1])
    if tag == "neg":
        v = num_value(t[1])
        return None if v is None else -v
    if tag in ("add", "sub", "mul", "div"):
        a, b = num_value(t[1]), num_value(t[2])
        if a is None or b is None:
            return None
        if tag == "add":
            return a + b
        if tag == "sub":
            return a - b
        if tag == "mul":
            return a * b
        return a / b if b else Fraction(0)
    if tag == "inv":
        v = num_value(t[1])
        return None if v is None else (1 / v if v else Fraction(0))
    if tag == "pow" and t[2][0] == "num":
        v = num_value(t[1])
        return None if v is None else v ** t[2][1]
    return None
