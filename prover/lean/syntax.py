"""Exact sympy expressions and relations printed as Lean 4 terms over ℝ, for rendered proofs.

This printer is deliberately separate from the front-end's round-trip printer: rendered
proofs need every numeral and exponent typed explicitly (``(1 / 3 : ℝ)`` for real powers,
``Real.sqrt`` instead of notation) so that the file means the same with or without the
benchmark's real-division macro. Output is deterministic (sympy's ordered terms).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator

import sympy as sp

from prover.frontend.lexer import is_identifier
from prover.problem import Relation

_DECL = re.compile(r"^\s*(?:theorem|lemma)\s+(«[^»]+»|[^\s({\[:]+)", re.MULTILINE)
_LEAN_KEYWORDS = {"at", "by", "do", "fun", "have", "show", "from", "then", "else", "if", "let", "in",
                  "match", "with", "end", "theorem", "lemma", "def", "open", "import", "suffices",
                  "calc", "where", "deriving", "instance", "structure", "class", "obtain", "set"}

# precedence levels (higher binds tighter)
_ADD, _MUL, _NEG, _POW, _ATOM = 1, 2, 3, 4, 5


class LeanSyntaxError(ValueError):
    """An expression that has no faithful Lean rendering here (e.g. a float)."""


def lean_ident(name: str) -> str:
    """A Lean identifier for ``name``, quoted with « » when it is not a plain identifier."""
    parts = name.split(".")
    if all(is_identifier(p) and p not in _LEAN_KEYWORDS for p in parts):
        return name
    if "«" in name or "»" in name:
        raise LeanSyntaxError(f"cannot quote name {name!r}")
    return f"«{name}»"


def declaration_names(text: str) -> list[str]:
    """Names of the ``theorem``/``lemma`` declarations in Lean source, as written (« » kept)."""
    return _DECL.findall(text)


#: Print ``n / (f * g)`` with two or more sums among the factors as ``n / f / g``
#: (:func:`split_denominators`); off by default.
_SPLIT_DENOMINATORS: contextvars.ContextVar[bool] = contextvars.ContextVar("split_denominators", default=False)


@contextlib.contextmanager
def split_denominators() -> Iterator[None]:
    """Within this block a denominator with two or more sums among its factors is printed as
    successive divisions. Mathlib's ``ring`` expands ``f * g`` and inverts the product as one atom,
    unrelated to ``f⁻¹`` and ``g⁻¹``: one atom is cheapest when the product only meets itself, one
    atom per factor when other terms divide by the factors (a combined fraction against the
    summands it came from, mo-int-20/P19). Both are equal in Lean's ℝ, division by 0 included."""
    token = _SPLIT_DENOMINATORS.set(True)
    try:
        yield
    finally:
        _SPLIT_DENOMINATORS.reset(token)


def lean_expr(e: sp.Expr | int) -> str:
    """``e`` as a Lean term of type ℝ (the caller supplies the type context)."""
    return _p(sp.sympify(e))[0]


def _wrap(text_prec: tuple[str, int], need: int) -> str:
    text, prec = text_prec
    return f"({text})" if prec < need else text


def _rational(r: sp.Rational) -> tuple[str, int]:
    if r.q == 1:
        return (str(r.p), _ATOM) if r.p >= 0 else (f"-{-r.p}", _NEG)
    if r.p < 0:
        return f"-({-r.p} / {r.q})", _NEG
    return f"{r.p} / {r.q}", _MUL


def _p(e: sp.Expr) -> tuple[str, int]:
    if e.has(sp.Float):
        raise LeanSyntaxError(f"floating-point number in {e}")
    if isinstance(e, sp.Symbol):
        return lean_ident(e.name), _ATOM
    if isinstance(e, sp.Rational):
        return _rational(e)
    if e is sp.pi:
        return "Real.pi", _ATOM
    if isinstance(e, sp.Add):
        return _add(e)
    if isinstance(e, sp.Mul):
        return _mul(e)
    if isinstance(e, sp.Pow):
        return _pow(e)
    if isinstance(e, sp.exp):
        return f"Real.exp {_wrap(_p(e.args[0]), _ATOM)}", _POW
    if isinstance(e, sp.log):
        return f"Real.log {_wrap(_p(e.args[0]), _ATOM)}", _POW
    if isinstance(e, sp.Abs):
        return _abs(e.args[0]), _ATOM
    raise LeanSyntaxError(f"no Lean rendering for {type(e).__name__}: {e}")


def _abs(x: sp.Expr) -> str:
    """``|x|`` (Mathlib's notation for ``abs x``, no space inside the bars); an argument with bars of
    its own is parenthesised, as Mathlib's unexpander does (``|(|a| - b)|``)."""
    inner = _p(x)[0]
    return f"|({inner})|" if "|" in inner else f"|{inner}|"


def _add(e: sp.Add) -> tuple[str, int]:
    terms = e.as_ordered_terms()
    first_pos = next((i for i, t in enumerate(terms) if t.as_coeff_Mul()[0] > 0), 0)
    terms = terms[first_pos:first_pos + 1] + terms[:first_pos] + terms[first_pos + 1:]
    pieces = [_wrap(_p(terms[0]), _ADD)]
    for t in terms[1:]:
        c, _ = t.as_coeff_Mul()
        pieces.append(f"- {_wrap(_p(-t), _MUL)}" if c < 0 else f"+ {_wrap(_p(t), _MUL)}")
    return _balanced(pieces), _ADD


#: Summands above which a sum is printed as a balanced tree of parenthesised halves: Lean
#: elaborates ``a + b + c + …`` left-nested, one level of recursion a summand, against
#: ``maxRecDepth`` (512); halves keep the nesting near ``BALANCED_CHUNK + 2·log₂ N``.
BALANCED_ABOVE = 128
BALANCED_CHUNK = 64


def _balanced(pieces: list[str]) -> str:
    """``pieces`` (the first bare, the others ``+ t``/``- t``) joined, long sums as balanced halves."""
    if len(pieces) <= BALANCED_ABOVE:
        return " ".join(pieces)

    def group(ps: list[str]) -> str:
        if len(ps) <= BALANCED_CHUNK:
            return " ".join(ps)
        half = len(ps) // 2
        second = ps[half]
        lead = second[2:] if second.startswith("+ ") else "-" + second[2:]
        return f"({group(ps[:half])}) + ({group([lead] + ps[half + 1:])})"
    return group(pieces)


def _product(factors: list[sp.Expr]) -> tuple[str, int]:
    if not factors:
        return "1", _ATOM
    if len(factors) == 1:
        return _p(factors[0])
    return " * ".join(_wrap(_p(f), _MUL + 1) if i else _wrap(_p(f), _MUL)
                      for i, f in enumerate(factors)), _MUL


def _mul(e: sp.Mul) -> tuple[str, int]:
    c, rest = e.as_coeff_Mul()
    if c < 0:
        inner = _wrap(_p(-e), _POW)
        return f"-{inner}", _NEG
    num: list[sp.Expr] = []
    den: list[sp.Expr] = []
    if c != 1:
        if c.p != 1 or c.q == 1:
            num.append(sp.Integer(c.p))
        if c.q != 1:
            den.append(sp.Integer(c.q))
    for f in sp.Mul.make_args(rest):
        b, x = f.as_base_exp()
        if isinstance(f, sp.Pow) and x.is_Rational and x < 0:
            den.append(b if x == -1 else sp.Pow(b, -x, evaluate=False))
        else:
            num.append(f)
    if not den:
        return _product(num)
    n_text = _product(num)
    if _SPLIT_DENOMINATORS.get() and sum(1 for d in den if d.has(sp.Add)) >= 2:
        return " / ".join([_wrap(n_text, _MUL)] + [_wrap(_p(d), _POW) for d in den]), _MUL
    d_text = _product(den)
    return f"{_wrap(n_text, _MUL)} / {_wrap(d_text, _POW)}", _MUL


def _pow(e: sp.Pow) -> tuple[str, int]:
    b, x = e.args
    if x == sp.Rational(1, 2):
        return f"Real.sqrt {_wrap(_p(b), _ATOM)}", _POW
    if x.is_Integer and x > 0:
        return f"{_wrap(_p(b), _ATOM)} ^ {x}", _POW
    if x.is_Rational and x < 0:
        inner = b if x == -1 else sp.Pow(b, -x, evaluate=False)
        return f"1 / {_wrap(_p(inner), _POW)}", _MUL
    if x.is_Rational:
        return f"{_wrap(_p(b), _ATOM)} ^ ({x.p} / {x.q} : ℝ)", _POW
    return f"{_wrap(_p(b), _ATOM)} ^ {_wrap(_p(x), _ATOM)}", _POW


def lean_rel(r: Relation, *, as_written: bool = False) -> str:
    """A Lean proposition for ``r``. By default ``≥``/``>`` are turned into ``≤``/``<``
    (rendered subgoals are always stated that way); ``as_written`` keeps the operator."""
    lhs, rhs, op = r.lhs, r.rhs, r.op
    if not as_written and op in (">=", ">"):
        lhs, rhs, op = rhs, lhs, {">=": "<=", ">": "<"}[op]
    sym = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "=": "=", "!=": "≠"}[op]
    left = lean_expr(lhs)
    if not sp.sympify(lhs).free_symbols and not sp.sympify(rhs).free_symbols:
        left = f"({left} : ℝ)"
    return f"{left} {sym} {lean_expr(rhs)}"


def has_denominator(e: sp.Expr) -> bool:
    """Whether ``e`` divides by a non-constant (then identities need ``field_simp``)."""
    for p in sp.preorder_traversal(sp.sympify(e)):
        if isinstance(p, sp.Pow) and p.exp.is_Rational and p.exp < 0 and p.base.free_symbols:
            return True
    return False


def ring_identity(e: sp.Expr) -> bool:
    """Whether ``e = 0`` holds in the normal form Mathlib's ``ring`` uses in a field: inverses
    of (normalized) non-constant expressions are atoms, so no denominator is ever cleared.
    When this is false but ``e`` is 0, the rendered proof needs ``field_simp`` first."""
    atoms: dict[sp.Expr, sp.Symbol] = {}

    def inv_atom(base: sp.Expr) -> sp.Symbol:
        key = sp.expand(base)
        if key not in atoms:
            atoms[key] = sp.Symbol(f"_inv{len(atoms)}")
        return atoms[key]

    def walk(x: sp.Expr) -> sp.Expr:
        if isinstance(x, sp.Pow) and x.exp.is_Integer and x.exp < 0 and x.base.free_symbols:
            base = walk(x.base)
            if isinstance(base, sp.Mul):          # ring distributes ⁻¹ over products
                return sp.Mul(*[walk(sp.Pow(f, x.exp, evaluate=False)) for f in base.args])
            if isinstance(base, sp.Pow) and base.exp.is_Integer and base.exp > 0:
                return walk(sp.Pow(base.base, base.exp * x.exp, evaluate=False))
            if base.is_Number:
                return base ** x.exp
            return inv_atom(sp.expand(base)) ** (-x.exp)
        if x.args:
            return x.func(*[walk(a) for a in x.args])
        return x

    return sp.expand(walk(sp.sympify(e))) == 0
