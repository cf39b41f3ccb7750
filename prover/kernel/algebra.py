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

import sympy as sp
from sympy import QQ
from sympy.polys.rings import ring as poly_ring


class KernelError(Exception):
    """A reason to reject: the message is shown to the user as is."""


MAX_EXPONENT = 10_000  # a guard against certificates that would take forever to expand


@dataclass(frozen=True)
class AtomDef:
    """What an atom symbol stands for: ``head`` applied to atomized ``args``.

    Heads: ``"pow"`` (args: base, exponent; exponent a non-integer rational or an atomized
    expression), ``"exp"``, ``"log"``, ``"abs"``, ``"pi"``, ``"E"``, or a sympy function name.
    """

    head: str
    args: tuple[sp.Expr, ...]
    original: sp.Expr
    dens: tuple[sp.Expr, ...] = ()  # the arguments' denominators: ``args`` mean Lean's values only
    #                                 where these are nonzero (positivity checks them before use)


def _canon(e: sp.Expr) -> sp.Expr:
    """Canonical form of an atomized expression (rational function in symbols only)."""
    return sp.cancel(e) if e.free_symbols else e


@dataclass
class Atomizer:
    """One consistent table of atoms; use one per step check so atoms match across parts."""

    atoms: dict[tuple, sp.Symbol] = field(default_factory=dict)
    defs: dict[sp.Symbol, AtomDef] = field(default_factory=dict)

    def convert(self, e: sp.Expr, subs: dict[sp.Symbol, sp.Expr] | None = None) -> tuple[sp.Expr, list[sp.Expr]]:
        """Return (atomized expression, denominators as atomized expressions).

        ``subs`` replaces variables by (original, not yet atomized) expressions *structurally*, so
        ``s ** 2`` with ``s ↦ √x`` becomes ``A**2`` for the atom ``A = √x``, never ``x``.
        """
        dens: list[sp.Expr] = []
        sub_conv: dict[sp.Symbol, tuple[sp.Expr, list[sp.Expr]]] = {}
        if subs:
            for k, v in subs.items():
                sub_conv[k] = self.convert(sp.sympify(v))
        out = self._conv(sp.sympify(e), sub_conv, dens)
        return out, _dedupe(dens)

    # ---------------------------------------------------------------- internals

    def _conv(self, e: sp.Expr, subs: dict, dens: list[sp.Expr]) -> sp.Expr:
        if e.is_Symbol:
            if e in subs:
                conv, d = subs[e]
                dens.extend(d)
                return conv
            if e in self.defs:
                raise KernelError(f"reserved symbol {e} in an expression")
            return e
        if e.is_Rational:
            return e
        if e.is_Add:
            return sp.Add(*[self._conv(a, subs, dens) for a in e.args])
        if e.is_Mul:
            return sp.Mul(*[self._conv(a, subs, dens) for a in e.args])
        if e.is_Pow:
            base, ex = e.args
            if ex.is_Integer:
                if abs(ex) > MAX_EXPONENT:
                    raise KernelError(f"exponent {ex} is too large (limit {MAX_EXPONENT})")
                cb = self._conv(base, subs, dens)
                if ex < 0:
                    dens.append(cb)
                return cb ** ex
            if ex.is_Rational and ex < 0:
                # x^(-r) is read as 1 / x^r: one atom per root whichever way it was written
                # (sympy turns 1/√x into x^(-1/2)); its denominator must then be proved nonzero.
                root = self._atom("pow", (base,), (-ex,), sp.Pow(base, -ex), subs, dens)
                dens.append(root)
                return 1 / root
            if ex.is_Rational:
                return self._atom("pow", (base,), (ex,), e, subs, dens)
            return self._atom("pow", (base, ex), (), e, subs, dens)
        if e is sp.pi:
            return self._atom("pi", (), (), e, subs, dens)
        if e is sp.E:
            return self._atom("E", (), (), e, subs, dens)
        if not e.args:
            raise KernelError(f"non-real or undefined number {e} (sympy evaluated with complex "
                              "semantics, which differ from Lean's)")
        for cls, head in ((sp.exp, "exp"), (sp.log, "log"), (sp.Abs, "abs")):
            if isinstance(e, cls):
                return self._atom(head, e.args, (), e, subs, dens)
        if isinstance(e, sp.Function) and not isinstance(e, sp.core.function.AppliedUndef):
            return self._atom(type(e).__name__, e.args, (), e, subs, dens)
        raise KernelError(f"unsupported expression {e} ({type(e).__name__})")

    def _atom(self, head: str, args: Sequence[sp.Expr], consts: tuple[sp.Expr, ...], original: sp.Expr,
              subs: dict, dens: list[sp.Expr]) -> sp.Symbol:
        """The symbol for ``head(args…, consts…)``; ``args`` are converted, ``consts`` are rationals."""
        arg_dens: list[sp.Expr] = []
        conv = tuple(self._conv(a, subs, arg_dens) for a in args) + consts
        dens.extend(arg_dens)
        key = (head,) + tuple(_canon(a) for a in conv)
        sym = self.atoms.get(key)
        if sym is None:
            sym = sp.Dummy(f"atom{len(self.atoms)}", real=True)
            self.atoms[key] = sym
            self.defs[sym] = AtomDef(head, conv, original, tuple(_dedupe(arg_dens)))
        return sym


def _dedupe(items: Iterable[sp.Expr]) -> list[sp.Expr]:
    seen: list[sp.Expr] = []
    for d in items:
        if d not in seen:
            seen.append(d)
    return seen


# ---------------------------------------------------------------- exact rational-function arithmetic


def has_negative_power(e: sp.Expr) -> bool:
    return any(n.is_Pow and n.exp.is_negative for n in sp.preorder_traversal(e))


def residual(exprs: Sequence[sp.Expr]):
    """Numerator (a sparse polynomial over QQ) of the sum of atomized expressions, brought to a
    common denominator without gcds (fast); the sum is 0 as a rational function iff it is 0."""
    syms: set[sp.Symbol] = set()
    for e in exprs:
        syms |= e.free_symbols
    gens = sorted(syms, key=lambda s: (s.name, s.sort_key())) or [sp.Dummy("one")]
    R, *ring_gens = poly_ring(gens, QQ)
    memo: dict[sp.Expr, tuple] = {g: (rg, R.one) for g, rg in zip(gens, ring_gens)}
    num, den = R.zero, R.one
    for e in exprs:
        n2, d2 = _to_frac(e, R, memo)
        num, den = _frac_add(num, den, n2, d2, R)
    return num


def _frac_add(n1, d1, n2, d2, R):
    if d1 == d2:
        return n1 + n2, d1
    if d1 == R.one:
        return n1 * d2 + n2, d2
    if d2 == R.one:
        return n1 + n2 * d1, d1
    return n1 * d2 + n2 * d1, d1 * d2


def _to_frac(e: sp.Expr, R, memo: dict) -> tuple:
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
            n, d = _frac_add(n, d, *_to_frac(a, R, memo), R)
    elif e.is_Mul:
        n, d = R.one, R.one
        for a in e.args:
            n2, d2 = _to_frac(a, R, memo)
            n, d = n * n2, d * d2
    elif e.is_Pow and e.exp.is_Integer:
        n, d = _to_frac(e.base, R, memo)
        k = int(e.exp)
        n, d = (n**k, d**k) if k >= 0 else (d**-k, n**-k)
    else:
        raise KernelError(f"not a rational function: {e}")
    if r is None:
        if d == 0:
            raise KernelError(f"division by the zero polynomial in {e}")
        r = (n, d)
    memo[e] = r
    return r


def rational_field_zero(exprs: Sequence[sp.Expr]) -> bool:
    """True iff the sum of the given atomized expressions is 0 as a rational function."""
    return residual(exprs) == 0


def is_identity(expr: sp.Expr, hyps: Sequence = ()) -> bool:
    """True iff ``expr`` is 0 wherever Lean evaluates it: atoms replaced consistently, the combined
    numerator vanishes over ℚ, and every denominator is proved nonzero from ``hyps`` (Relations)
    by the positivity rules."""
    from prover.kernel.positivity import Positivity

    at = Atomizer()
    try:
        conv, dens = at.convert(expr)
    except KernelError:
        return False
    if not rational_field_zero([conv]):
        return False
    pos = Positivity(hyps, at)
    return all(pos.nonzero_conv(d) for d in dens)


def denominators(expr: sp.Expr) -> list[sp.Expr]:
    """The (atomized) denominators of ``expr`` that must be nonzero for its algebra to be valid."""
    return Atomizer().convert(expr)[1]


def evaluation_is_faithful(unevaluated: sp.Expr, evaluated: sp.Expr, hyps: Sequence = ()) -> bool:
    """Did sympy's automatic evaluation keep the Lean meaning of an expression?

    For front ends: parse the statement once with ``evaluate=False`` and once normally, then call
    this. It is False for ``x/x → 1`` (unless ``x ≠ 0`` is provable from ``hyps``), ``√x·√x → x``,
    ``(√x)² → x`` and the like, where Lean's truncated operations differ from sympy's."""
    from prover.kernel.positivity import Positivity

    at = Atomizer()
    try:
        a, dens_a = at.convert(unevaluated)
        b, dens_b = at.convert(evaluated)
        if residual([a, -b]) != 0:
            return False
    except KernelError:
        return False
    pos = Positivity(hyps, at)
    return all(pos.nonzero_conv(d) for d in _dedupe(dens_a + dens_b))
