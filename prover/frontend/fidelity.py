"""Does sympy's automatic simplification keep the Lean meaning of a parsed term?

sympy simplifies while it builds terms (``x·y/y → x``, ``√x·√x → x``, ``1/√2 → √2/2``,
``√(p²) → |p|``). Lean's ``/`` is 0 at a zero denominator and ``Real.sqrt`` is 0 on negatives,
so some of these change the statement. The kernel only ever sees the simplified form; this
module decides, exactly, whether the simplification was harmless:

1. the two forms are equal as rational functions of their atoms (roots and powers kept as
   atoms, each root evaluated as sympy writes it — see ``_radicals_as_sympy_writes_them`` for
   why that is Lean-valid; a numeric root ``c^(p/q)`` may use ``(c^(p/q))^q = c^p``), and
2. every denominator factor that the simplification removed (counted with multiplicity at the
   places Lean evaluates them) is proved nonzero from the hypotheses.

A factor that is still present in the simplified form is evaluated by Lean at the same place
in both, so it needs no proof. Anything else is refused by the caller with a clear message.
"""

from __future__ import annotations

from collections import Counter

import sympy as sp

from prover.kernel.algebra import Atomizer, KernelError, residual
from prover.kernel.positivity import prove_nonzero
from prover.problem import Relation


def _canonical(f: sp.Expr) -> sp.Expr:
    f = sp.expand(f)
    if f.is_number:
        return sp.Integer(1)
    _, prim = f.as_content_primitive()
    gens = sorted(prim.free_symbols, key=str)
    if not gens or not prim.is_polynomial(*gens):
        return prim
    return -prim if sp.Poly(prim, *gens).LC() < 0 else prim


def _zero_keys(base: sp.Expr) -> Counter:
    """The irreducible pieces whose vanishing makes ``base`` vanish, each once (a zero *set*:
    ``√D``, ``D^r``, ``D^k`` and ``|D|`` all count as ``D``). Multiplicity comes from the places
    a denominator occurs, counted by :func:`denominator_factors`."""
    keys: set[sp.Expr] = set()
    if base.is_number:
        return Counter()
    if base.is_Mul:
        for a in base.args:
            keys |= set(_zero_keys(a))
    elif base.is_Pow and base.args[1].is_Rational and base.args[1] > 0:
        keys = set(_zero_keys(base.args[0]))
    elif isinstance(base, sp.Abs):
        keys = set(_zero_keys(base.args[0]))
    elif base.is_polynomial():
        _, factors = sp.factor_list(base)
        keys = {c for f, _ in factors if (c := _canonical(f)) != 1}
    else:
        keys = {_canonical(base)}
    return Counter(keys)


def denominator_factors(e: sp.Expr, mult: int = 1, out: Counter | None = None) -> Counter:
    """Irreducible denominator factors of ``e`` with multiplicity, as Lean evaluates them."""
    out = Counter() if out is None else out
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Rational and ex < 0:
            # 1/D^n counts D's factors n times; 1/√D vanishes where D does, so it counts them once
            n = int(-ex) if ex.is_Integer else 1
            for f, m in _zero_keys(base).items():
                out[f] += m * n * mult
        denominator_factors(base, mult, out)
        if not ex.is_Rational:
            denominator_factors(ex, mult, out)
        return out
    for a in e.args:
        denominator_factors(a, mult, out)
    return out


def _radicals_as_sympy_writes_them(e: sp.Expr) -> sp.Expr:
    """Evaluate each root ``b^r`` (r rational, not an integer) of an unevaluated tree as sympy does.

    sympy rewrites a root of a product by pulling out factors it proves nonnegative
    (``√(3a²/D) → √3·|a|/√D``, ``√(p²) → |p|``, ``(p²)^(1/3) → |p|^(2/3)``); for real ``x ≥ 0``
    Lean's ``Real.sqrt``/``rpow`` obey the same laws (``Real.sqrt_mul``, ``Real.mul_rpow``,
    ``Real.sqrt_sq_eq_abs``; at a zero denominator both sides are 0). Products, quotients and
    integer powers *of* roots stay unevaluated, so ``√x·√x → x`` is still caught.
    """
    if not e.args or not e.free_symbols:   # constants were folded by _fold_constants
        return e
    args = [_radicals_as_sympy_writes_them(a) for a in e.args]
    if e.is_Pow and args[1].is_Rational and not args[1].is_Integer:
        return sp.Pow(args[0].doit(), args[1])
    if e.is_Pow and args[0].is_Rational and args[0].is_positive and not args[1].is_Rational:
        return _unit_base(sp.Pow(args[0], args[1], evaluate=False))
    return e.func(*args, evaluate=False)


def _unit_base(e: sp.Expr) -> sp.Expr:
    """``(1/q)^y → q^(-y)`` (sympy writes it either way; ``Real.inv_rpow`` for ``q > 0``)."""
    b, y = e.args
    if b.is_Rational and b.p == 1 and b.q != 1:
        return sp.Pow(sp.Integer(b.q), -y, evaluate=False)
    return e


def _unit_bases(e: sp.Expr) -> sp.Expr:
    if not e.args:
        return e
    args = [_unit_bases(a) for a in e.args]
    if e.is_Pow and args[0].is_Rational and args[0].is_positive and not args[1].is_Rational:
        return _unit_base(sp.Pow(args[0], args[1], evaluate=False))
    return e.func(*args, evaluate=False)


def _numeric_root_relations(at: Atomizer) -> list[sp.Expr]:
    rels = []
    for sym, d in at.defs.items():
        if d.head == "pow" and len(d.args) == 2 and d.args[0].is_Rational and d.args[0] > 0 \
                and d.args[1].is_Rational:
            p, q = d.args[1].p, d.args[1].q
            rels.append(sym**q - d.args[0] ** p)
    return rels


def _fold_constants(e: sp.Expr) -> sp.Expr:
    """Evaluate the variable-free subterms (exponents like ``1 / 4``) of an unevaluated tree; the
    elaborator has already refused the constant ones Lean reads differently (``1/0``, ``√(-1)``)."""
    if not e.args:
        return e
    if not e.free_symbols:
        return e.doit()
    return e.func(*[_fold_constants(a) for a in e.args], evaluate=False)


def simplification_is_faithful(unevaluated: sp.Expr, evaluated: sp.Expr, hyps: list[Relation]) -> bool:
    if unevaluated == evaluated:
        return True
    unevaluated = _fold_constants(unevaluated)
    raw = _radicals_as_sympy_writes_them(unevaluated)
    at = Atomizer()
    try:
        a, _ = at.convert(raw)
        b, _ = at.convert(_unit_bases(evaluated))
        num = residual([a, -b])
    except KernelError:
        return False
    if num:
        expr = num.as_expr() if hasattr(num, "as_expr") else sp.sympify(num)
        rels = _numeric_root_relations(at)
        gens = sorted(expr.free_symbols | {s for r in rels for s in r.free_symbols}, key=str)
        if not rels or sp.expand(sp.reduced(sp.expand(expr), rels, *gens)[1]) != 0:
            return False
    lost = denominator_factors(unevaluated) - denominator_factors(evaluated)
    return all(prove_nonzero(f, hyps) for f in lost)
