"""Large polynomials printed nested (Horner form): ``d0 ^ 2 * (3 * d1 + 1) + …`` for ``3·d0²·d1 + d0² + …``.

A subgoal's target that is a large polynomial is stated in this form (a substitution's
``∀ d0 d1 …, … → 0 ≤ P``, a rewrite's ``suffices``, an order split's cases), and its child is told
the text (``RenderContext.target_text``). Nothing about the proof changes: ``ring`` normalises
both forms to the same polynomial, and ``positivity`` proves the nested form of a polynomial with
nonnegative coefficients exactly as the expanded one (sums, products and powers of atoms with sign
facts). The text is shorter because each power of an outer variable is written once per group
(30 % on the degree-14 polynomials of 567neq/P65, whose coefficients have 7 digits).
"""

from __future__ import annotations

import itertools

import sympy as sp

from prover.lean.render.common import as_le
from prover.lean.syntax import lean_expr, lean_rel
from prover.problem import Relation

#: Printed polynomials longer than this many characters are nested (shorter ones stay as printed).
COMPACT_ABOVE = 4_000
#: Up to this many variables every variable order is tried; above, the most varied first.
ALL_ORDERS_UP_TO = 4

#: A summand: (sign, text of a product without a sign).
_Summand = tuple[int, str]


def polynomial_text(e: sp.Expr) -> str:
    """``e`` as Lean text: nested when it is a polynomial printed longer than ``COMPACT_ABOVE``
    and the nested form is shorter, else :func:`lean_expr`."""
    text = lean_expr(e)
    if len(text) <= COMPACT_ABOVE:
        return text
    nested = nested_text(e)
    return nested if nested is not None and len(nested) < len(text) else text


def nested_text(e: sp.Expr) -> str | None:
    """The shortest nested form of the polynomial ``e`` over the variable orders tried; None when
    ``e`` is not a polynomial in its symbols (roots, functions, denominators)."""
    e = sp.expand(sp.sympify(e))
    syms = sorted(e.free_symbols, key=str)
    if not syms or not e.is_polynomial(*syms):
        return None
    terms = dict(sp.Poly(e, *syms).terms())
    if any(not sp.Rational(c).is_Rational for c in terms.values()):
        return None
    names = [lean_expr(s) for s in syms]
    n = len(syms)
    if n <= ALL_ORDERS_UP_TO:
        orders = list(itertools.permutations(range(n)))
    else:
        varied = sorted(range(n), key=lambda i: -len({m[i] for m in terms}))
        orders = [tuple(varied)]
    best: str | None = None
    for order in orders:
        permuted = {tuple(m[i] for i in order): sp.Rational(c) for m, c in terms.items()}
        text = _join(_horner(permuted, [names[i] for i in order]))
        if best is None or len(text) < len(best):
            best = text
    return best


def _horner(terms: dict[tuple[int, ...], sp.Rational], names: list[str]) -> list[_Summand]:
    """The summands of ``Σ c·x^m`` grouped by the power of the first variable, recursively."""
    if not names:
        (c,) = terms.values()
        return [(1 if c > 0 else -1, _number(abs(c)))]
    groups: dict[int, dict[tuple[int, ...], sp.Rational]] = {}
    for m, c in terms.items():
        groups.setdefault(m[0], {})[m[1:]] = c
    out: list[_Summand] = []
    for k in sorted(groups, reverse=True):
        inner = _horner(groups[k], names[1:])
        if k == 0:
            out += inner
            continue
        power = names[0] if k == 1 else f"{names[0]} ^ {k}"
        if len(inner) > 1:
            out.append((1, f"{power} * ({_join(inner)})"))
            continue
        sign, body = inner[0]
        if body == "1":
            out.append((sign, power))
        elif _is_number(body.split(" * ")[0]):
            head, _, rest = body.partition(" * ")
            out.append((sign, f"{head} * {power}" + (f" * {rest}" if rest else "")))
        else:
            out.append((sign, f"{power} * {body}"))
    return out


def _number(c: sp.Rational) -> str:
    return str(c.p) if c.q == 1 else f"({c.p} / {c.q})"


def _is_number(text: str) -> bool:
    return text.isdigit() or (text.startswith("(") and text[1:-1].replace(" / ", "").isdigit())


def _join(parts: list[_Summand]) -> str:
    sign, body = parts[0]
    text = body if sign > 0 else f"-{body}"
    for sign, body in parts[1:]:
        text += f" {'+' if sign > 0 else '-'} {body}"
    return text


def stated(rel: Relation) -> tuple[str, tuple[Relation, str, str] | None]:
    """The Lean text stating a subgoal's target ``rel`` and, when that is not :func:`lean_rel`'s,
    the ``(rel, L, R)`` its child's context needs (``RenderContext.with_target_text``): an
    inequality with a side printed over ``COMPACT_ABOVE`` characters is stated ``L ≤ R`` (``<``)
    with its polynomial sides nested; anything else as :func:`lean_rel` prints it."""
    plain = lean_rel(rel)
    if len(plain) <= COMPACT_ABOVE or rel.op in ("=", "!="):
        return plain, None
    lhs, rhs, strict = as_le(rel)
    texts = polynomial_text(lhs), polynomial_text(rhs)
    if texts == (lean_expr(lhs), lean_expr(rhs)):
        return plain, None
    return f"{texts[0]} {'<' if strict else '≤'} {texts[1]}", (rel, *texts)
