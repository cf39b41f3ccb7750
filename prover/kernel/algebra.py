"""Exact algebra for the kernel: expressions → rational functions over ℚ in variables and atoms.

Why this module exists: sympy evaluates expressions with *complex* semantics while Lean's reals
are truncated (``x / 0 = 0``, ``√x = 0`` for ``x < 0``, ``x ^ (p/q)`` odd for ``x < 0``). So sympy
rewrites such as ``√x · √x → x`` or ``(x / y) · y → x`` are wrong in Lean. The kernel therefore
never multiplies or raises original expressions with sympy. It first *atomizes* each expression
structurally:

* ``+``, ``·`` and integer powers are kept (they mean the same in Lean and in a field);
* a negative integer power ``b ** -n`` records ``b`` as a *denominator*: the conversion is faithful
  to Lean only where every recorded denominator is nonzero, which the caller must prove;
* anything else (``√``, ``x ** (p/q)``, ``x ** y``, ``exp``, ``log``, ``Abs``, ``pi`` …) becomes a
  fresh symbol, the same symbol for the same head applied to arguments equal as rational functions
  (the arguments' own denominators are recorded too, so equal arguments have equal Lean values).

After that, all arithmetic happens on polynomials/rational functions over ℚ (sympy's sparse
``PolyRing`` over ``QQ``, fractions kept as numerator/denominator pairs), which is exact and means
the same in Lean once denominators are nonzero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from sympy import QQ
from sympy.polys.rings import ring as poly_ring

from prover.kernel import terms as T


class KernelError(Exception):
    """A reason to reject: the message is shown to the user as is."""


MAX_EXPONENT = T.LIMITS.max_exponent
#: total degree above which a power of a polynomial is not expanded (real certificates stay far below)
MAX_DEGREE = 2_000
#: Most terms a power of a sparse polynomial may have, bounded *before* it is expanded
#: (docs/TRUST_BASE.md §1.1): a certificate whose expansion could be larger is rejected at once,
#: never expanded slowly. The saved proofs need at most 455.
MAX_TERMS = 100_000
#: Most coefficient multiplications one identity check (:func:`residual`: its powers, products
#: and divisions of sparse polynomials, each bounded before it is computed) may cost.
MAX_WORK = 10_000_000
#: Most terms an expression may expand to before sympy's ``expand``/``cancel`` (slower than the
#: sparse polynomials: 10,000 terms take it seconds) is called on it; the saved proofs need 4,060.
MAX_EXPAND_TERMS = 16_000


@dataclass(frozen=True)
class AtomDef:
    """What an atom symbol stands for: ``head`` applied to atomized ``args``.

    Heads: ``"pow"`` (args: base, exponent; exponent a positive non-integer rational, ``1/2`` for
    ``Real.sqrt``, or an atomized expression for a variable exponent), ``"exp"``, ``"log"``,
    ``"abs"``, ``"pi"``, ``"E"``.
    """

    head: str
    args: tuple[sp.Expr, ...]
    original: T.Term
    dens: tuple = ()  # the arguments' requirements (denominators nonzero, NonNeg): ``args`` mean
    #                   Lean's values only where these hold (positivity checks them before use)


@dataclass(frozen=True)
class NonNeg:
    """A requirement ``expr >= 0`` (atomized) under which a conversion is faithful to Lean:
    ``x ^ (-r) = (x ^ r)⁻¹`` holds in Mathlib only for ``x >= 0`` (``Real.rpow_neg``)."""

    expr: sp.Expr


def _canon(e: sp.Expr) -> sp.Expr:
    """Canonical form of an atomized expression (rational function in symbols only)."""
    return _cancel(e) if e.free_symbols else e


def _cancel(e: sp.Expr) -> sp.Expr:
    """``sp.cancel(e)``, refused first when its expansion could exceed the budgets."""
    guard_expansion(e)
    return sp.cancel(e)


# ---------------------------------------------------------------- a-priori size bounds


def comb_capped(n: int, k: int, cap: int) -> int:
    """``C(n, k)``, or ``cap + 1`` as soon as it is known to exceed ``cap`` (no huge integers)."""
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    val = 1
    for i in range(1, k + 1):
        val = val * (n - k + i) // i    # C(n - k + i, i), exact; grows with i since n - k >= k
        if val > cap:
            return cap + 1
    return val


def _monomials_up_to(variables: int, degree: int, cap: int) -> int:
    """How many monomials of total degree ``<= degree`` ``variables`` variables have (capped)."""
    return comb_capped(variables + degree, variables, cap)


def expansion_size(e: sp.Expr, cap: int | None = None) -> int:
    """An upper bound (capped at ``cap + 1``) on the number of terms of the numerator and of the
    denominator of ``e`` (an atomized expression: symbols, rationals, ``+``, ``·``, integer
    powers) once expanded over a common denominator: a power of ``t`` terms to the ``k``-th has at
    most ``C(t + k - 1, k)`` terms, a product at most the product of the counts, a sum of
    fractions at most ``(Σ numerators) · Π denominators``; and a polynomial of total degree ``D``
    in ``v`` variables at most ``C(v + D, v)``. Integers only: exact, no floats."""
    cap = MAX_EXPAND_TERMS if cap is None else cap
    memo: dict[sp.Expr, tuple[int, int, int, int]] = {}

    def bounded(x: sp.Expr, n: int, d: int, dn: int, dd: int) -> tuple[int, int, int, int]:
        v = len(x.free_symbols)
        return (min(n, _monomials_up_to(v, dn, cap), cap + 1), min(d, _monomials_up_to(v, dd, cap), cap + 1),
                dn, dd)

    def go(x: sp.Expr) -> tuple[int, int, int, int]:   # (numerator terms, denominator terms, degrees)
        r = memo.get(x)
        if r is not None:
            return r
        if x.is_Symbol:
            r = (1, 1, 1, 0)
        elif x.is_Add or x.is_Mul:
            parts = [go(a) for a in x.args]
            den = dd = 1
            for _, d, _, ddeg in parts:
                den, dd = min(den * d, cap + 1), dd + ddeg
            dd -= 1
            if x.is_Mul:
                num, dn = 1, 0
                for n, _, ndeg, _ in parts:
                    num, dn = min(num * n, cap + 1), dn + ndeg
            else:
                num = min(sum(n for n, _, _, _ in parts) * den, cap + 1)
                dn = max(ndeg for _, _, ndeg, _ in parts) + dd
            r = bounded(x, num, den, dn, dd)
        elif x.is_Pow and x.exp.is_Integer:
            n, d, dn, dd = go(x.base)
            k = abs(int(x.exp))
            n, d = (comb_capped(t + k - 1, k, cap) if t > 1 else t for t in (n, d))
            r = bounded(x, *((n, d, k * dn, k * dd) if x.exp >= 0 else (d, n, k * dd, k * dn)))
        else:
            r = (1, 1, 0, 0)   # a rational (or anything else: an atom)
        memo[x] = r
        return r

    n, d, _, _ = go(e)
    return max(n, d)


def expandable(e: sp.Expr) -> bool:
    """Whether ``e``'s expansion stays within :data:`MAX_EXPAND_TERMS` (:func:`expansion_size`)."""
    return expansion_size(e) <= MAX_EXPAND_TERMS


def factorable(P: sp.Expr) -> bool:
    """Whether factoring the expanded polynomial ``P`` over ℚ is cheap enough to try: at most
    :data:`FACTOR_MAX_TERMS` terms of total degree at most :data:`FACTOR_MAX_DEGREE` with
    coefficients of at most :data:`FACTOR_MAX_COEFF_BITS` bits (``x**10000 - 1`` alone takes sympy
    seconds)."""
    args = sp.Add.make_args(P)
    if len(args) > FACTOR_MAX_TERMS:
        return False
    for t in args:
        c = t.as_coeff_Mul()[0]
        if c.is_Rational and max(int(c.p).bit_length(), int(c.q).bit_length()) > FACTOR_MAX_COEFF_BITS:
            return False
    return all(sum(abs(d) for b, d in t.as_powers_dict().items() if b.free_symbols) <= FACTOR_MAX_DEGREE
               for t in args)


def guard_expansion(e: sp.Expr) -> None:
    """Refuse (:class:`KernelError`) to expand ``e`` when :func:`expansion_size` exceeds
    :data:`MAX_EXPAND_TERMS`."""
    if not expandable(e):
        raise KernelError(f"an expression could expand to more than {MAX_EXPAND_TERMS} terms: too large to check")


_SYMBOLS: dict[str, sp.Symbol] = {}


def variable_symbol(name: str) -> sp.Symbol:
    """The sympy symbol standing for a problem variable inside the kernel's atomized algebra."""
    s = _SYMBOLS.get(name)
    if s is None:
        s = _SYMBOLS[name] = sp.Symbol(name, real=True)
    return s


FACTOR_MAX_TERMS = 60      # factoring is a convenience (normal forms, positivity): only small polynomials
FACTOR_MAX_DEGREE = 200    # … of small total degree
FACTOR_MAX_COEFF_BITS = 256   # … and coefficients of moderate size (sympy's Wang factoring searches
                              # primes past the coefficients' bound: a 1,300-bit one took minutes)
ROOT_MAX_BITS = 1 << 16    # ``c^(1/q)`` of a rational ``a/b`` is normalised through ``a·b^(q-1)``: bounded
_SQUAREFREE_MAX = 10**12   # integers whose square part is extracted by trial division


def _finite(b: sp.Expr, what: str) -> sp.Expr:
    """``b`` unless a division by zero inside made it sympy's ``zoo``/``nan`` (Lean's ``x / 0 = 0``
    is not sympy's): then refused, as for ``exp``/``log``."""
    if b.has(sp.zoo, sp.nan, sp.oo):
        raise KernelError(f"{what} of a term with a division by zero")
    return b


@dataclass
class Atomizer:
    """One consistent table of atoms; use one per step check so atoms match across parts.

    Converts kernel terms (:mod:`prover.kernel.terms`) to rational functions of variable and atom
    symbols. Only field operations on symbols are built here, so sympy's automatic evaluation
    has nothing to simplify but rational-function algebra, which is exact; every denominator is
    recorded so that the caller proves it nonzero (Lean's ``x / 0 = 0``).

    Atoms are put in a normal form by laws that hold for **every** real argument in Mathlib
    (listed in docs/TRUST_BASE.md §1.3): ``|ab| = |a||b|``, ``|a⁻¹| = |a|⁻¹``, ``√(a²b) = |a|√b``,
    ``√(c·b) = √c·√b`` for a rational ``c ≥ 0``, ``√(k²m) = k√m``, ``(Π aᵢ^(2kᵢ))^r = Π |aᵢ|^(2kᵢr)``.
    With ``inv_atoms`` every inverse ``t⁻¹`` is itself an atom (split over the factors of ``t``,
    ``(ab)⁻¹ = a⁻¹b⁻¹``, ``(-a)⁻¹ = -a⁻¹``), which needs no denominator to be nonzero: Lean's
    inverse is total.
    """

    atoms: dict[tuple, sp.Symbol] = field(default_factory=dict)
    defs: dict[sp.Symbol, AtomDef] = field(default_factory=dict)
    inv_atoms: bool = False
    #: atoms that are roots of positive integers: ``s ↦ (m, q)`` with ``s = m^(1/q)``, so ``s^q = m``
    #: (``Real.sq_sqrt``, ``Real.rpow_inv_natCast_pow``)
    sqrt_consts: dict[sp.Symbol, tuple[int, int]] = field(default_factory=dict)

    def convert(self, e: T.Term, subs: dict[str, T.Term] | None = None) -> tuple[sp.Expr, list]:
        """Return (atomized expression, requirements: denominators that must be nonzero and
        :class:`NonNeg` entries). ``subs`` replaces variables by terms *structurally*, so ``s ** 2``
        with ``s ↦ sqrt(x)`` becomes ``A**2`` for the atom ``A = √x``, never ``x``."""
        if subs:
            e = T.substitute(e, subs)
        dens: list = []
        out = self._conv(e, dens)
        return out, _dedupe(dens)

    # ---------------------------------------------------------------- internals

    def _conv(self, e: T.Term, dens: list) -> sp.Expr:
        if isinstance(e, T.Num):
            return sp.Rational(e.value.numerator, e.value.denominator)
        if isinstance(e, T.Var):
            return variable_symbol(e.name)
        if isinstance(e, T.Add):
            return sp.Add(*[self._conv(a, dens) for a in e.args])
        if isinstance(e, T.Mul):
            return sp.Mul(*[self._conv(a, dens) for a in e.args])
        if isinstance(e, T.Pow):
            if abs(e.exp) > MAX_EXPONENT:
                raise KernelError(f"exponent {e.exp} is too large (limit {MAX_EXPONENT})")
            cb = self._conv(e.base, dens)
            if e.exp >= 0:
                return cb ** e.exp
            if self.inv_atoms:
                return self._inv(cb, e.base) ** (-e.exp)
            dens.append(cb)
            return cb ** e.exp
        if isinstance(e, T.Sqrt):
            return self._rpow(e.arg, Fraction(1, 2), e, dens)
        if isinstance(e, T.Rpow):
            ex = e.exp
            if isinstance(ex, T.Num):
                r = ex.value
                if r.denominator == 1:  # not built by the parser; read as Lean's rpow_intCast
                    return self._conv(T.Pow(e.base, r.numerator), dens)
                if r < 0:
                    # x^(-r) = (x^r)⁻¹ only for x >= 0 in Mathlib (Real.rpow_neg)
                    root = self._rpow(e.base, -r, T.Rpow(e.base, T.Num(-r)), dens)
                    dens.append(NonNeg(self._conv(e.base, dens)))
                    if self.inv_atoms:
                        return self._inv(root, T.Rpow(e.base, T.Num(-r)))
                    dens.append(root)
                    return 1 / root
                return self._rpow(e.base, r, e, dens)
            return self._atom("pow", (e.base, ex), (), e, dens)
        if isinstance(e, T.Fn):
            if e.name == "abs":
                arg_dens: list = []
                b = _finite(self._conv(e.arg, arg_dens), "|·|")
                dens.extend(arg_dens)
                return self._abs(b, e, arg_dens, dens)
            if e.name in ("exp", "log"):
                arg_dens = []
                b = self._conv(e.arg, arg_dens)
                dens.extend(arg_dens)
                if b.has(sp.zoo, sp.nan, sp.oo):   # a division by 0 inside: Lean's x / 0 = 0, not sympy's
                    raise KernelError(f"{e.name} of a term with a division by zero")
                return self._exp(b, e, arg_dens, dens) if e.name == "exp" else self._log(b, e, arg_dens)
            return self._atom(e.name, (e.arg,), (), e, dens)
        if isinstance(e, T.Const):
            if e.name == "E":   # Real.exp 1
                return self._exp(sp.Integer(1), e, [], dens)
            return self._atom(e.name, (), (), e, dens)
        raise KernelError(f"unsupported term {e!r}")

    def _atom(self, head: str, args: Sequence[T.Term], consts: tuple[sp.Expr, ...], original: T.Term,
              dens: list) -> sp.Symbol:
        """The symbol for ``head(args…, consts…)``; ``args`` are converted, ``consts`` are rationals."""
        arg_dens: list = []
        conv = tuple(self._conv(a, arg_dens) for a in args) + consts
        dens.extend(arg_dens)
        return self._symbol(head, conv, original, arg_dens)

    def _symbol(self, head: str, conv: tuple[sp.Expr, ...], original: T.Term, arg_dens: list) -> sp.Symbol:
        key = (head,) + tuple(_canon(a) for a in conv)
        sym = self.atoms.get(key)
        if sym is None:
            sym = sp.Dummy(f"atom{len(self.atoms)}", real=True)
            self.atoms[key] = sym
            self.defs[sym] = AtomDef(head, conv, original, tuple(_dedupe(arg_dens)))
        return sym

    # -------- normal forms of atoms (each law holds for every real argument)

    def _inv(self, P: sp.Expr, original: T.Term) -> sp.Expr:
        """``P⁻¹`` as atoms: ``(c·Π fᵢ^eᵢ)⁻¹ = c⁻¹·Π (fᵢ⁻¹)^eᵢ`` (``mul_inv``, ``inv_pow``; ``0⁻¹ = 0``)."""
        c, factors = _factors(P)
        if c == 0:
            return sp.Integer(0)
        out: sp.Expr = 1 / c
        for f, e in factors:
            out *= self._symbol("inv", (f,), original, []) ** e
        return out

    def _abs(self, B: sp.Expr, original: T.Term, arg_dens: list, dens: list) -> sp.Expr:
        """``|N/D| = |N|/|D|`` (``abs_div``), ``|c·Π fᵢ^eᵢ| = |c|·Π |fᵢ|^eᵢ`` (``abs_mul``,
        ``abs_pow``), ``|f|^(2k) = f^(2k)``."""
        num, den = sp.fraction(_cancel(B)) if B.free_symbols else (B, sp.Integer(1))
        out = self._abs_poly(num, original, arg_dens)
        if den != 1:
            d = self._abs_poly(den, original, arg_dens)
            dens.append(d)
            out = out / d
        return out

    def _abs_poly(self, P: sp.Expr, original: T.Term, arg_dens: list) -> sp.Expr:
        c, factors = _factors(P)
        out: sp.Expr = abs(c)
        for f, e in factors:
            out *= f**e if e % 2 == 0 else self._symbol("abs", (f,), original, arg_dens) ** e
        return out

    def _exp(self, B: sp.Expr, original: T.Term, arg_dens: list, dens: list) -> sp.Expr:
        """``exp B`` in normal form: for a polynomial ``B = c₀ + Σ cᵢ·mᵢ`` (monomials ``mᵢ``,
        rationals ``cᵢ``), ``Π exp(mᵢ)^cᵢ · exp(1)^c₀`` (``Real.exp_add``, ``Real.exp_zero``,
        ``Real.exp_nat_mul``, ``Real.exp_neg``; a non-integer ``c`` is ``Real.exp_mul``'s
        ``rpow``): each law holds for every real argument. Any other ``B`` is one atom."""
        if B.free_symbols:
            num, den = sp.fraction(_cancel(B))
            if den.free_symbols:
                return self._symbol("exp", (_canon(B),), original, arg_dens)
            B = _expand(num / den)
        out: sp.Expr = sp.Integer(1)
        for term in sp.Add.make_args(B):
            c, m = term.as_coeff_Mul()
            if c == 0:
                continue
            base = self._symbol("exp", (m,), original, arg_dens)
            out *= self._exp_power(base, sp.Rational(c), original, arg_dens, dens)
        return out

    def _exp_power(self, A: sp.Symbol, c: sp.Rational, original: T.Term, arg_dens: list,
                   dens: list) -> sp.Expr:
        """``A ^ c`` for an ``exp`` atom ``A`` (positive): ``A⁻¹`` a denominator (or an ``inv``
        atom), a non-integer ``c`` the ``rpow`` atom the kernel gives ``A ^ c`` anyway."""
        if c.is_Integer:
            if c >= 0:
                return A ** int(c)
            if self.inv_atoms:
                return self._inv(A, original) ** int(-c)
            dens.append(A)
            return A ** int(c)
        if c > 0:
            return self._sqrt(A, original, arg_dens, dens) if c == sp.Rational(1, 2) \
                else self._symbol("pow", (A, c), original, arg_dens)
        root = self._exp_power(A, -c, original, arg_dens, dens)
        if self.inv_atoms:
            return self._inv(root, original)
        dens.append(root)
        return 1 / root

    def _log(self, B: sp.Expr, original: T.Term, arg_dens: list) -> sp.Expr:
        """``log B`` in normal form by laws that hold for every real argument: ``log 0 = 0``,
        ``log (-x) = log x`` (``Real.log_neg_eq_log``), ``log (x ^ n) = n · log x`` and
        ``log x⁻¹ = -log x`` (``Real.log_pow``, ``Real.log_inv``), ``log (exp y) = y``
        (``Real.log_exp``), ``log (x·y) = log x + log y`` for factors known nonzero (``Real.log_mul``:
        rationals ``≠ 0``, ``exp`` atoms), a rational as primes (``log (a/b) = Σ eₚ·log p``)."""
        if not B.free_symbols:
            return self._log_rational(sp.Rational(B), original)
        num, den = sp.fraction(_cancel(B))
        cn, fn = _factors(num)
        cd, fd = _factors(den)
        factors = fn + [(f, -e) for f, e in fd]
        c = sp.Rational(cn) / sp.Rational(cd)
        if all(self._is_exp(f) for f, _ in factors):
            out = self._log_rational(c, original)
            for f, e in factors:
                out += e * self.defs[f].args[0]
            return out
        if len(factors) == 1 and abs(c) == 1:
            f, e = factors[0]
            return e * self._symbol("log", (f,), original, arg_dens)
        key = _canon(-B if c < 0 else B)
        return self._symbol("log", (key,), original, arg_dens)

    def _is_exp(self, f: sp.Expr) -> bool:
        d = self.defs.get(f) if isinstance(f, sp.Symbol) else None
        return d is not None and d.head == "exp"

    def _log_rational(self, c: sp.Rational, original: T.Term) -> sp.Expr:
        """``log c`` for a rational ``c``: 0 at 0, else ``Σ eₚ · log p`` over the primes of ``|c|``
        (numerators and denominators below 10¹²; a larger one is its own atom)."""
        if c == 0:
            return sp.Integer(0)
        out: sp.Expr = sp.Integer(0)
        for n, sign in ((abs(int(c.p)), 1), (int(c.q), -1)):
            if n == 1:
                continue
            parts = sp.factorint(n) if n <= _SQUAREFREE_MAX else {n: 1}
            for p, e in parts.items():
                out += sign * e * self._symbol("log", (sp.Integer(p),), original, [])
        return out

    def _rpow(self, base: T.Term, r: Fraction, original: T.Term, dens: list) -> sp.Expr:
        """``base ^ r`` for a positive non-integer rational ``r`` (``r = 1/2``: ``Real.sqrt``)."""
        arg_dens: list = []
        B = _finite(self._conv(base, arg_dens), "a root or real power")
        dens.extend(arg_dens)
        if r == Fraction(1, 2):
            return self._sqrt(B, original, arg_dens, dens)
        rr = sp.Rational(r.numerator, r.denominator)
        if not B.free_symbols and B > 0:
            return self._rational_root(sp.Rational(B) ** int(rr.p), int(rr.q), original)
        num, den = sp.fraction(_cancel(B)) if B.free_symbols else (B, sp.Integer(1))
        if den.free_symbols or not num.free_symbols:
            return self._symbol("pow", (B, rr), original, arg_dens)
        c, factors = _factors(num / den)
        if c > 0:
            # (c·Π aᵢ^eᵢ)^r = c^r · Π aᵢ^(eᵢ·r) for nonnegative aᵢ (Real.mul_rpow, Real.rpow_natCast_mul):
            # an even power f^(2k) is |f|^(2k), an |f| atom is nonnegative
            parts = []
            for f, e in factors:
                if e % 2 == 0:
                    parts.append((self._abs_poly(f, original, arg_dens), e))
                elif f in self.defs and self.defs[f].head == "abs":
                    parts.append((f, e))
                else:
                    break
            else:
                out = self._rational_root(c ** int(rr.p), int(rr.q), original)
                for a, e in parts:
                    k = rr * e
                    out *= a**k if k.is_Integer else self._symbol("pow", (a, k), original, arg_dens)
                return out
        return self._symbol("pow", (B, rr), original, arg_dens)

    def _sqrt(self, B: sp.Expr, original: T.Term, arg_dens: list, dens: list) -> sp.Expr:
        """``√B`` in normal form: ``√(c·Π f^(2k)·O / D) = √|c| · Π |f|^k · √(±O/D)``
        (``Real.sqrt_mul`` with the nonnegative ``|c|``, ``f^(2k)``; ``Real.sqrt_sq_eq_abs``), and
        ``√((±D)⁻¹) = (√(±D))⁻¹`` (``Real.sqrt_inv``); ``√c = 0`` for a rational ``c < 0``."""
        half = sp.Rational(1, 2)
        num, den = sp.fraction(_cancel(B)) if B.free_symbols else (B, sp.Integer(1))
        if not num.free_symbols and not den.free_symbols:
            q = sp.Rational(num) / sp.Rational(den)
            return self._sqrt_rational(q, original) if q >= 0 else sp.Integer(0)
        if not den.free_symbols:
            num, den = num / den, sp.Integer(1)
        c, factors = _factors(num)
        odd = sp.Mul(*[f for f, e in factors if e % 2])
        if c < 0:
            c, odd = -c, -odd
        out = self._sqrt_rational(c, original)
        for f, e in factors:
            if e >= 2:
                out *= self._abs_poly(f, original, arg_dens) ** (e // 2)
        if den == 1:
            if not odd.free_symbols:   # √(±1): 1, or 0 for the negative sign (Real.sqrt_eq_zero')
                return out * self._sqrt_rational(odd, original) if odd > 0 else sp.Integer(0)
            return out * self._symbol("pow", (_expand(odd), half), original, arg_dens)
        if odd in (1, -1):
            inner = self._sqrt(_expand(odd * den), original, arg_dens, dens)
            if self.inv_atoms:
                return out * self._inv(inner, original)
            dens.append(inner)
            return out / inner
        return out * self._symbol("pow", (odd / den, half), original, arg_dens)

    def _sqrt_rational(self, c: sp.Rational, original: T.Term) -> sp.Expr:
        """``√c`` for a rational ``c ≥ 0`` (see :meth:`_rational_root`)."""
        return self._rational_root(sp.Rational(c), 2, original) if c != 0 else sp.Integer(0)

    def _rational_root(self, c: sp.Rational, q: int, original: T.Term) -> sp.Expr:
        """``c^(1/q)`` for a rational ``c > 0``: ``(a/b)^(1/q) = (a·b^(q-1))^(1/q) / b`` and
        ``(kᵠ·m)^(1/q) = k·m^(1/q)`` (``Real.mul_rpow``, ``Real.div_rpow``, ``Real.pow_rpow_inv_natCast``
        on nonnegative numbers); the atom ``m^(1/q)`` is recorded with ``(m^(1/q))^q = m``.
        ``c^(p/q)`` is passed as ``(c^p)^(1/q)`` (``Real.rpow_natCast_mul``, ``c ≥ 0``)."""
        c = sp.Rational(c)
        if c == 0:
            return sp.Integer(0)
        a, b = int(c.p), int(c.q)
        if (q - 1) * b.bit_length() > ROOT_MAX_BITS:     # b^(q-1) alone would be a huge integer
            raise KernelError(f"a root of a rational with a {q}-th root index: too large to check")
        k, m = _root_part(a * b ** (q - 1), q)
        coeff = sp.Rational(k, b)
        if m == 1:
            return coeff
        sym = self._symbol("pow", (sp.Integer(m), sp.Rational(1, q)), original, [])
        self.sqrt_consts[sym] = (m, q)
        return coeff * sym


def _expand(e: sp.Expr) -> sp.Expr:
    """``sp.expand(e)``, refused first when it could exceed the budgets."""
    guard_expansion(e)
    return sp.expand(e)


def _factors(P: sp.Expr) -> tuple[sp.Rational, list[tuple[sp.Expr, int]]]:
    """``P = c · Π fᵢ^eᵢ`` with rational ``c`` (exact factoring over ℚ for small polynomials,
    else the whole polynomial as one factor)."""
    guard_expansion(P)
    P = sp.expand(P)
    if not P.free_symbols:
        return sp.Rational(P), []
    if factorable(P):
        try:
            c, fs = sp.factor_list(P)
            return sp.Rational(c), [(sp.expand(f), int(e)) for f, e in fs]
        except (sp.PolynomialError, ValueError, TypeError):
            pass
    return sp.Integer(1), [(P, 1)]


def _root_part(n: int, q: int) -> tuple[int, int]:
    """``n = kᵠ · m`` with ``m`` free of q-th powers (trial division for ``n`` below 10¹²; else ``k = 1``)."""
    if n > _SQUAREFREE_MAX:
        return 1, n
    k, m, d = 1, 1, 2
    while d * d <= n:
        e = 0
        while n % d == 0:
            n //= d
            e += 1
        k *= d ** (e // q)
        m *= d ** (e % q)
        d += 1
    return k, m * n


def _dedupe(items: Iterable[sp.Expr]) -> list[sp.Expr]:
    seen: list[sp.Expr] = []
    for d in items:
        if d not in seen:
            seen.append(d)
    return seen


# ---------------------------------------------------------------- exact rational-function arithmetic


def has_negative_power(e: sp.Expr) -> bool:
    return any(n.is_Pow and n.exp.is_negative for n in sp.preorder_traversal(e))


def residual(exprs: Sequence[sp.Expr], sqrt_consts: dict | None = None):
    """Numerator (a sparse polynomial over QQ) of the sum of atomized expressions, brought to a
    common denominator without gcds (fast); the sum is 0 as a rational function iff it is 0."""
    syms: set[sp.Symbol] = set()
    for e in exprs:
        syms |= e.free_symbols
    gens = sorted(syms, key=lambda s: (s.name, s.sort_key())) or [sp.Dummy("one")]
    R, *ring_gens = poly_ring(gens, QQ)
    memo: dict[sp.Expr, tuple] = {g: (rg, R.one) for g, rg in zip(gens, ring_gens)}
    # terms over the same denominator are added first (a certificate's squares usually share
    # one), so that each distinct denominator enters the common one once
    work = Work()
    groups: dict = {}
    for e in exprs:
        n2, d2 = _to_frac(e, R, memo, work)
        groups[d2] = groups.get(d2, R.zero) + n2
    num, den = R.zero, R.one
    for d2, n2 in groups.items():
        num, den = _frac_add(num, den, n2, d2, R, work)
    if sqrt_consts:
        num = _reduce_square_roots(num, R, [(gens.index(s), m) for s, m in sqrt_consts.items() if s in syms])
    return num


def _reduce_square_roots(num, R, roots: list[tuple[int, tuple[int, int]]]):
    """Replace ``s^k`` by ``m^(k//q) · s^(k mod q)`` for each atom ``s = m^(1/q)`` (``s^q = m``):
    the reduced polynomial has the same value as ``num`` at the atoms' values, so if it is the
    zero polynomial the sum is 0 (when it is not, the sum is simply not shown to be 0)."""
    if not roots:
        return num
    out: dict = {}
    for monom, coeff in num.terms():
        mon = list(monom)
        for i, (m, q) in roots:
            k = mon[i]
            if k >= q:
                coeff = coeff * QQ(m) ** (k // q)
                mon[i] = k % q
        t = tuple(mon)
        out[t] = out.get(t, QQ(0)) + coeff
    return R.from_dict({k: v for k, v in out.items() if v != 0}) if any(v != 0 for v in out.values()) else R.zero


def _frac_add(n1, d1, n2, d2, R, work: Work):
    if d1 == d2:
        return n1 + n2, d1
    if d1 == R.one:
        return work.times(n1, d2) + n2, d2
    if d2 == R.one:
        return n1 + work.times(n2, d1), d1
    # one denominator a multiple of the other (s³ and s², after a substitution x ↦ x/s): keep the
    # larger, instead of multiplying them (exact: d1 = q·d2 with a zero remainder)
    q = work.exact_quotient(d1, d2)
    if q is not None:
        return n1 + work.times(n2, q), d1
    q = work.exact_quotient(d2, d1)
    if q is not None:
        return work.times(n1, q) + n2, d2
    return work.times(n1, d2) + work.times(n2, d1), work.times(d1, d2)


def _box(p, k: int, cap: int) -> int:
    """Monomials with each variable's exponent at most ``k`` times its degree in the nonzero
    ``p`` (a bound on the terms of ``p**k``; ``k = 1``: on the monomials dividing ``p``'s),
    capped at ``cap + 1``."""
    box = 1
    for deg in p.degrees():
        box *= k * deg + 1
        if box > cap:
            return cap + 1
    return box


def power_cost(p, k: int) -> tuple[int, int]:
    """Upper bounds on (terms, coefficient multiplications) of ``p**k`` for a nonzero sparse
    polynomial ``p`` of ``t`` terms, known before computing it: at most ``C(t + k - 1, k)``
    terms (the multisets of ``k`` terms) and at most the monomials of the exponent box. The work
    follows sympy's algorithm: for ``t <= 5`` a multinomial expansion visiting every multiset
    (``t`` multiplications each); else repeated squaring, at most ``2·bits(k)`` products of
    ``p**a · p**b`` with ``a + b <= k``, so one factor of at most ``p**ceil(k/2)``'s terms."""
    t = len(p)
    if t <= 1 or k <= 1:
        return t, t
    multisets = comb_capped(t + k - 1, k, MAX_WORK)
    terms = min(multisets, _box(p, k, MAX_TERMS))
    if t <= 5:
        return terms, multisets * t
    half = power_cost(p, (k + 1) // 2)[0]
    return terms, 2 * k.bit_length() * terms * half


class Work:
    """What one identity check (:func:`residual`) may still spend: every power, product and
    division of sparse polynomials is charged its a-priori cost (coefficient multiplications)
    *before* it is computed, and refused (:class:`KernelError`) past :data:`MAX_WORK` in all,
    or past :data:`MAX_TERMS` terms for one power."""

    def __init__(self, limit: int = MAX_WORK) -> None:
        self.left = limit

    def charge(self, cost: int, what: str) -> None:
        if cost > self.left:
            raise KernelError(f"{what} is too large to expand (the identity would take more than "
                              f"{MAX_WORK} coefficient multiplications)")
        self.left -= cost

    def power(self, p, k: int):
        if p and k > 1:
            terms, cost = power_cost(p, k)
            if terms > MAX_TERMS:
                raise KernelError(f"a power of a polynomial with {len(p)} terms to the {k}th is too large to "
                                  f"expand (more than {MAX_TERMS} terms)")
            self.charge(cost, f"a power of a polynomial with {len(p)} terms to the {k}th")
        return p**k

    def times(self, p, q):
        self.charge(len(p) * len(q), f"a product of polynomials with {len(p)} and {len(q)} terms")
        return p * q

    def exact_quotient(self, p, q):
        """``p / q`` if ``q`` divides the nonzero ``p`` exactly, else None. Only an economy (a
        smaller common denominator), so it is tried only where it can succeed (each variable's
        degree and the leading monomial of ``q`` divide ``p``'s) and its cost, about
        ``len(p) · (len(p) + len(q))`` for sympy's division (it looks for the leading term at
        every step), fits what is left of the budget; else None, at no cost."""
        if any(dq > dp for dp, dq in zip(p.degrees(), q.degrees())):
            return None
        if any(a < b for a, b in zip(p.LM, q.LM)):
            return None
        cost = len(p) * (len(p) + len(q))
        if cost > self.left:
            return None
        self.left -= cost
        quotient, remainder = p.div(q)
        return None if remainder else quotient


def _to_frac(e: sp.Expr, R, memo: dict, work: Work) -> tuple:
    r = memo.get(e)
    if r is not None:
        return r
    if e.is_Rational:
        r = (R.ground_new(QQ(int(e.p), int(e.q))), R.one)
    elif e.is_Symbol:
        raise KernelError(f"unexpected symbol {e}")
    elif e.is_Add:
        n, d = R.zero, R.one
        for a in e.args:
            n, d = _frac_add(n, d, *_to_frac(a, R, memo, work), R, work)
    elif e.is_Mul:
        n, d = R.one, R.one
        for a in e.args:
            n2, d2 = _to_frac(a, R, memo, work)
            n, d = work.times(n, n2), work.times(d, d2)
    elif e.is_Pow and e.exp.is_Integer:
        n, d = _to_frac(e.base, R, memo, work)
        k = int(e.exp)
        degree = max((sum(m) for p in (n, d) for m in p.monoms()), default=0)
        if abs(k) * degree > MAX_DEGREE:
            raise KernelError(f"a power of degree {abs(k) * degree} is too large to expand (limit {MAX_DEGREE})")
        n, d = (work.power(n, k), work.power(d, k)) if k >= 0 else (work.power(d, -k), work.power(n, -k))
    else:
        raise KernelError(f"not a rational function: {e}")
    if r is None:
        if d == 0:
            raise KernelError(f"division by the zero polynomial in {e}")
        r = (n, d)
    memo[e] = r
    return r
