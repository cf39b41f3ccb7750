"""Faithful elaboration: the parsed AST into kernel terms (:mod:`prover.kernel.terms`), one Lean
operation to one term node, never through sympy.

Why: sympy simplifies while it builds (``x / x → 1``, ``√x · √x → x``, ``(x ^ (2/3)) ^ (3/2) → x``)
with complex-number semantics. The statement's meaning in Lean is what these terms record; the
front-end then asks the kernel whether the sympy form the search works on means the same (see
:mod:`prover.frontend.fidelity`).

Typing is the elaborator's (:mod:`prover.frontend.elaborate`): a term with a real variable, a
``√`` or a ``(… : ℝ)`` is real; a numeral-only term is ℕ (ℤ with a ``(… : ℤ)``), where only the
operations the elaborator accepts are allowed and are evaluated with ℕ/ℤ semantics (which agree
with ℚ on ``+ * ^``; ``/``, ``⁻¹``, decimals and ℕ ``-`` are refused with the same messages).

Lean 4 / Mathlib semantics recorded by the nodes (over ``ℝ``):

* ``x / y`` is ``x * y⁻¹`` → ``Mul(x, Pow(y, -1))``, and ``y⁻¹`` is ``Pow(y, -1)`` with
  ``0⁻¹ = 0`` (so ``x / 0 = 0``);
* ``√x`` / ``Real.sqrt x`` → ``Sqrt(x)``, which is ``0`` for ``x < 0``;
* ``|x|`` / ``abs x`` (the root ``abs``, ``x ⊔ -x``) → ``Fn("abs", x)``, at the term's own type;
* ``max a b`` / ``min a b`` (real only) → ``(a + b ± |a − b|) / 2``;
* ``Real.exp x`` / ``Real.log x`` → ``Fn("exp", x)`` / ``Fn("log", x)`` (the argument at ℝ);
* ``Real.pi`` / ``π`` → ``Const("pi")``;
* ``Real.logb b x`` → ``Fn("log", x) / Fn("log", b)`` (Mathlib's definition, ``Real.log_div_log`` is ``rfl``);
* ``x ^ (n : ℕ)`` (``Monoid.npow``) and ``x ^ (k : ℤ)`` (``zpow``, ``x ^ (-k) = (x ^ k)⁻¹``)
  → ``Pow(x, n)``; ``0 ^ 0 = 1``;
* ``x ^ (e : ℝ)`` is ``Real.rpow`` → ``Rpow(x, e)``, except that an integer constant ``e`` gives
  ``Pow`` (``Real.rpow_intCast``) and ``e = 1/2`` gives ``Sqrt`` (``Real.sqrt_eq_rpow``); for
  ``x < 0`` Mathlib's value is ``exp (e · log |x|) · cos (e · π)``, and ``0 ^ e = 0`` for
  ``e ≠ 0``. Nested powers are never merged: ``(x ^ a) ^ b`` stays two nodes.

Constants are folded exactly (``1 / 3`` → ``Num(1/3)``, ``2 ^ 3`` → ``Num(8)``); nothing else is
simplified.
"""

from __future__ import annotations

from fractions import Fraction

from prover.frontend.elaborate import (
    Scope,
    ascription_type,
    check_typed,
    exponent_type,
    relation_type,
    sum_chain,
)
from prover.frontend.errors import Located
from prover.frontend.syntax import SyntaxNode
from prover.kernel import terms as T


def faithful_term(node: SyntaxNode, ty: str, scope: Scope) -> T.Term:
    """The kernel term of ``node`` elaborated at type ``ty`` ("R", "N" or "Z")."""
    check_typed(node, ty, scope)
    k, a = node.kind, node.args
    if k == "num":
        return T.Num(Fraction(node.value))
    if k == "var":
        return T.Var(node.value)
    if k == "pi":          # `Real.pi` / `π` (after `open Real` only: the resolver decides)
        return T.Const("pi")
    if k in ("add", "sub"):
        return _sum_chain(node, ty, scope)
    if k == "mul":
        return _build(node, T.mul, faithful_term(a[0], ty, scope), faithful_term(a[1], ty, scope))
    if k == "neg":
        return _build(node, T.neg, faithful_term(a[0], ty, scope))
    if k == "div":
        return _build(node, T.div, faithful_term(a[0], ty, scope), faithful_term(a[1], ty, scope))
    if k == "inv":
        return _build(node, T.inv, faithful_term(a[0], ty, scope))
    if k == "sqrt":
        return T.Sqrt(faithful_term(a[0], "R", scope))
    if k == "abs":
        arg = faithful_term(a[0], ty, scope)
        return T.Num(abs(arg.value)) if isinstance(arg, T.Num) else T.Fn("abs", arg)
    if k in ("max", "min"):
        return _max_min(node, ty, scope)
    if k in ("exp", "log"):   # `Real.exp`, `Real.log : ℝ → ℝ` (log 0 = 0, log x = log |x|: the kernel's `Fn`)
        return T.Fn(k, faithful_term(a[0], "R", scope))
    if k == "logb":   # `Real.logb b x` is by definition `Real.log x / Real.log b` (Mathlib's `rfl`)
        base, x = (T.Fn("log", faithful_term(arg, "R", scope)) for arg in a)
        return _build(node, T.div, x, base)
    if k == "pow":
        return _power(node, ty, scope)
    if k == "ascribe":
        return _ascription(node, ty, scope)
    raise Located("a proposition where a number was expected" if k in ("rel", "and", "mem")
                  else f"unsupported term `{k}`", node.pos)


def _max_min(node: SyntaxNode, ty: str, scope: Scope) -> T.Term:
    """``max a b`` as ``(a + b + |a − b|) / 2`` and ``min a b`` as ``(a + b − |a − b|) / 2``: equal on
    any linear order (trusted here, docs/TRUST_BASE.md; each rendered file proves it from
    ``max_eq_left``/``max_eq_right`` and ``abs_of_nonneg``/``abs_of_nonpos``)."""
    x, y = (faithful_term(arg, ty, scope) for arg in node.args)
    gap = T.Fn("abs", _build(node, T.sub, x, y))
    both = _build(node, T.add, x, y)
    total = _build(node, T.add, both, gap) if node.kind == "max" else _build(node, T.sub, both, gap)
    return _build(node, T.div, total, T.Num(Fraction(2)))


def _build(node: SyntaxNode, make, *args: T.Term) -> T.Term:
    """A term constructor, its size limits reported at ``node``."""
    try:
        return make(*args)
    except T.TermError as exc:
        raise Located(str(exc), node.pos) from None


def _sum_chain(node: SyntaxNode, ty: str, scope: Scope) -> T.Term:
    parts = []
    for n, negated in sum_chain(node, ty, scope):
        t = faithful_term(n, ty, scope)
        parts.append(_build(n, T.neg, t) if negated else t)
    return _build(node, T.add, *parts)


def _power(node: SyntaxNode, ty: str, scope: Scope) -> T.Term:
    """``base ^ exponent``: the exponent is typed on its own (ℕ, ℤ or ℝ); :func:`terms.power`
    reads an integer constant as ``Pow`` and anything else as ``Rpow`` (``1/2``: ``Sqrt``)."""
    base_node, exp_node = node.args
    base = faithful_term(base_node, ty, scope)
    return _build(node, T.power, base, faithful_term(exp_node, exponent_type(node, ty, scope), scope))


def _ascription(node: SyntaxNode, ty: str, scope: Scope) -> T.Term:
    return faithful_term(node.args[0], ascription_type(node, ty), scope)


def faithful_relation(node: SyntaxNode, scope: Scope) -> T.Rel:
    """A comparison, both sides at the common type Lean gives them."""
    if node.kind != "rel":
        raise Located("expected a comparison (≤ < ≥ > = ≠)", node.pos)
    lhs, rhs = node.args
    ty = relation_type(lhs, rhs, scope)
    return T.Rel(faithful_term(lhs, ty, scope), node.value, faithful_term(rhs, ty, scope))
