"""Typing and conversion of parsed terms into exact sympy expressions over ℚ.

Lean types a term from its leaves: anything containing a real variable, ``sqrt`` or a
``(… : ℝ)`` ascription is real. A term made only of numerals (typically an exponent, or a
comparison without variables) is a natural number in Lean, where ``1 / 3 = 0`` and
``1 - 2 = 0``. We never guess there: in such a ℕ term, ``/``, ``-``, ``⁻¹`` and decimals are
refused with a message asking for ``(… : ℝ)`` — except that with ``real_division=True`` (the
LIPS benchmark convention, whose header macro makes every ``/`` real division) a ``/`` makes
the term real, so ``x ^ (1 / 3)`` is the real cube root power there.

Powers: ``x ^ (n : ℕ)`` and ``x ^ (k : ℤ)`` become ``Pow(x, Integer)``; real exponents
(``x ^ (1/3 : ℝ)``, ``a ^ a``) become ``Pow(x, exponent)``; ``sqrt`` is ``sympy.sqrt``;
``|a|``/``abs a`` is ``sympy.Abs`` of ``a`` at the term's own type (``abs : α → α``; refused in ℕ,
which has no ``abs``).

sympy simplifies while it builds these expressions; the statement's Lean meaning is elaborated
separately by :mod:`prover.frontend.faithful`, and :mod:`prover.frontend.fidelity` has the kernel
check that both agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from prover.frontend.errors import Located
from prover.frontend.syntax import SyntaxNode
from prover.problem import Relation
from prover.problem import exp as lean_exp
from prover.problem import log as lean_log

MAX_EXPONENT = 1000  # |integer exponent| above this is refused (sympy would expand huge numbers)

TYPE_TEXT = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "Prop": "Prop", "Type": "Type",
              "NNReal": "ℝ≥0", "EReal": "EReal", "Bool": "Bool"}


@dataclass
class Scope:
    variables: dict[str, sp.Symbol]
    real_division: bool


def _leaves_any(node: SyntaxNode, leaf_test) -> bool:
    """Does any node of the term (not looking into exponents) satisfy ``leaf_test`` (None: look
    deeper)? Iterative, so long sums do not hit the recursion limit."""
    stack = [node]
    while stack:
        n = stack.pop()
        verdict = leaf_test(n)
        if verdict is True:
            return True
        if verdict is None:
            stack.extend(n.args[:1] if n.kind == "pow" else n.args)
    return False


def is_real(node: SyntaxNode, scope: Scope) -> bool:
    """Does Lean elaborate this term as a real number (rather than a numeral-only ℕ term)?
    The exponent of a power is elaborated on its own and does not type the power."""
    def test(n: SyntaxNode) -> bool | None:
        if n.kind in ("var", "sqrt", "app", "exp", "log", "logb", "pi"):   # `app`: a function variable's value is real
            return True
        if n.kind == "ascribe":
            return n.value == "R"
        if n.kind == "num":
            return False
        if n.kind == "div" and scope.real_division:
            return True
        return None

    return _leaves_any(node, test)


def has_int_ascription(node: SyntaxNode) -> bool:
    return _leaves_any(node, lambda n: (n.value == "Z") if n.kind == "ascribe" else None)


def term_type(node: SyntaxNode, scope: Scope) -> str:
    if is_real(node, scope):
        return "R"
    return "Z" if has_int_ascription(node) else "N"


def relation_type(lhs: SyntaxNode, rhs: SyntaxNode, scope: Scope) -> str:
    """The type at which Lean elaborates both sides of a comparison."""
    if is_real(lhs, scope) or is_real(rhs, scope):
        return "R"
    return "Z" if has_int_ascription(lhs) or has_int_ascription(rhs) else "N"


def nat_refusal(what: str, ty: str, scope: Scope) -> str:
    hint = "write it as `(… : ℝ)`"
    if what == "`/`" and not scope.real_division:
        hint += " (or use the real-division convention of the LIPS benchmarks)"
    return (f"{what} in a numeral-only term, which Lean types as {TYPE_TEXT[ty]} "
            f"({'so 1 / 3 = 0' if what == '`/`' else 'not the real operation'}); {hint}")


#: Operations only a real term has: kind → how the refusal names it.
_REAL_ONLY = {"div": "`/`", "inv": "`⁻¹`"}


def check_typed(node: SyntaxNode, ty: str, scope: Scope) -> None:
    """Refuse what Lean's typing of ``node`` at ``ty`` rules out (both elaborators ask): a decimal
    or a real variable outside ℝ, an unknown identifier, ``/`` and ``⁻¹`` outside ℝ, ``-`` in ℕ."""
    k = node.kind
    if k == "num" and any(c in node.value for c in ".eE") and ty != "R":
        raise Located(f"decimal `{node.value}` in a numeral-only term; write `({node.value} : ℝ)`", node.pos)
    if k == "var":
        if node.value not in scope.variables:
            raise Located(f"unknown identifier `{node.value}`", node.pos)
        if ty != "R":
            raise Located(f"`{node.value}` is a real variable, not of type {TYPE_TEXT[ty]}", node.pos)
    if k == "neg" and ty == "N":
        raise Located(nat_refusal("negation `-`", ty, scope), node.pos)
    if k in _REAL_ONLY and ty != "R":
        raise Located(nat_refusal(_REAL_ONLY[k], ty, scope), node.pos)
    if k == "abs" and ty == "N":   # `abs : α → α` needs `AddGroup α`, which ℕ is not
        raise Located(nat_refusal("absolute value", ty, scope), node.pos)
    if k in ("logb", "pi") and ty != "R":   # `Real.logb : ℝ → ℝ → ℝ`, `Real.pi : ℝ`
        raise Located(f"`Real.{k}` is real, not of type {TYPE_TEXT[ty]}", node.pos)
    if k in ("max", "min") and ty != "R":   # read only at ℝ (its value in ℕ/ℤ is the same, not needed)
        raise Located(f"`{k}` of numerals outside ℝ is not supported; write `({k} a b : ℝ)`", node.pos)


def elab(node: SyntaxNode, ty: str, scope: Scope) -> sp.Expr:
    """The sympy value of ``node`` elaborated at type ``ty`` ("R", "N" or "Z")."""
    check_typed(node, ty, scope)
    k, a = node.kind, node.args
    if k == "num":
        return sp.Rational(node.value)
    if k == "var":
        return scope.variables[node.value]
    if k == "pi":
        return sp.pi
    if k in ("rel", "and", "mem"):
        raise Located("a proposition where a number was expected", node.pos)
    if k == "add":
        return _sum_chain(node, ty, scope)
    if k == "mul":
        return sp.Mul(elab(a[0], ty, scope), elab(a[1], ty, scope))
    if k == "sub":
        return _sum_chain(node, ty, scope)
    if k == "neg":
        return sp.Mul(-1, elab(a[0], ty, scope))
    if k == "div":
        num, den = elab(a[0], ty, scope), elab(a[1], ty, scope)
        if den == 0:
            raise Located("division by zero", node.pos)
        return sp.Mul(num, sp.Pow(den, -1))
    if k == "inv":
        base = elab(a[0], ty, scope)
        if base == 0:
            raise Located("inverse of zero", node.pos)
        return sp.Pow(base, -1)
    if k == "sqrt":
        arg = elab(a[0], "R", scope)
        if arg.is_number and not arg.has(sp.exp, sp.log) and arg.is_negative:
            raise Located("square root of a negative number (Lean's `Real.sqrt` is 0 there)", node.pos)
        return sp.sqrt(arg)
    if k == "abs":   # `abs : α → α`: the argument at the term's own type
        return sp.Abs(elab(a[0], ty, scope))
    if k in ("exp", "log", "logb"):
        return _transcendental(node, scope)
    if k in ("max", "min"):   # on a linear order: max a b = (a + b + |a − b|) / 2, min with − |a − b|
        x, y = elab(a[0], ty, scope), elab(a[1], ty, scope)
        if _size_over(x, MAX_MIN_ARGUMENT_NODES) or _size_over(y, MAX_MIN_ARGUMENT_NODES):
            raise Located(f"`{k}` of a term this large is not supported (its arguments are repeated when "
                          f"it is read; at most {MAX_MIN_ARGUMENT_NODES} nodes each)", node.pos)
        sign = 1 if k == "max" else -1
        return (x + y + sign * sp.Abs(x - y)) / 2
    if k == "pow":
        return _power(node, ty, scope)
    if k == "ascribe":
        return _ascription(node, ty, scope)
    raise Located(f"unsupported term `{k}`", node.pos)  # pragma: no cover - parser makes no others


def _transcendental(node: SyntaxNode, scope: Scope) -> sp.Expr:
    """``Real.exp``/``Real.log``/``Real.logb`` applications (arguments at ℝ)."""
    k, a = node.kind, node.args
    if k == "exp":   # as written: sympy's own `exp` rewrites (`exp (log x) = x` only for x > 0)
        arg = elab(a[0], "R", scope)
        if not arg.free_symbols and arg.has(sp.exp):
            # a numeric tower exp (exp …): sympy's assumptions evaluate it to unbounded precision
            raise Located("`Real.exp` of a number built from `Real.exp` is not supported", node.pos)
        return lean_exp(arg)
    if k == "log":
        return _log(elab(a[0], "R", scope))
    # `Real.logb b x := Real.log x / Real.log b` (a definition)
    base = _log(elab(a[0], "R", scope))
    if base == 0:   # as `x / 0` elsewhere: Lean's value is 0, but the kernel's reading divides by 0
        raise Located("`Real.logb` with base 0, 1 or -1 divides by `Real.log b = 0` (Lean's value is 0)",
                      node.pos)
    return sp.Mul(_log(elab(a[1], "R", scope)), sp.Pow(base, -1))


def _log(arg: sp.Expr) -> sp.Expr:
    """Mathlib's ``Real.log`` (``log 0 = 0``, ``log x = log |x|``): a negative numeral argument is
    read as its absolute value, anything else as written."""
    return lean_log(abs(arg)) if arg.is_Rational else lean_log(arg)


#: ``max``/``min`` repeat their arguments (``(a + b ± |a − b|) / 2``), so nesting grows exponentially
#: (and sympy's ``Abs`` inspects its whole argument): each argument is bounded. The benchmarks'
#: largest comparison has 153 nodes.
MAX_MIN_ARGUMENT_NODES = 400


def _size_over(e: sp.Expr, cap: int) -> bool:
    """Whether ``e`` has more than ``cap`` nodes (stops counting there)."""
    for count, _ in enumerate(sp.preorder_traversal(e), 1):
        if count > cap:
            return True
    return False


def sum_chain(node: SyntaxNode, ty: str, scope: Scope) -> list[tuple[SyntaxNode, bool]]:
    """The summands of ``a ± b ± c …`` (a left-deep tree) as ``(node, negated)`` in order, found
    iteratively so long sums do not recurse; ``-`` in a ℕ term is refused."""
    chain: list[SyntaxNode] = []
    while node.kind in ("add", "sub"):
        chain.append(node)
        node = node.args[0]
    parts = [(node, False)]
    for n in reversed(chain):
        if n.kind == "sub" and ty == "N":
            raise Located(nat_refusal("`-`", ty, scope), n.pos)
        parts.append((n.args[1], n.kind == "sub"))
    return parts


def _sum_chain(node: SyntaxNode, ty: str, scope: Scope) -> sp.Expr:
    """One ``Add`` of all summands equals the step-by-step sum (``Add`` flattens)."""
    terms = []
    for n, negated in sum_chain(node, ty, scope):
        t = elab(n, ty, scope)
        terms.append(sp.Mul(-1, t) if negated else t)
    return sp.Add(*terms)


def exponent_type(node: SyntaxNode, ty: str, scope: Scope) -> str:
    """The type Lean elaborates the exponent of ``node`` (a power in a term of type ``ty``) at:
    ℕ, ℤ or ℝ on its own, refused where the base's type does not allow it."""
    ety = term_type(node.args[1], scope)
    _check_nested(ety, ty, node.pos, "real exponent on a natural-number base",
                  "integer exponent on a natural-number base")
    return ety


def _check_nested(inner: str, ty: str, pos: int, real_refusal: str, int_refusal: str) -> None:
    """Refuse a part typed ``inner`` inside a term of type ``ty`` that cannot hold it: ℝ outside ℝ,
    ℤ inside ℕ."""
    if inner == "R" and ty != "R":
        raise Located(real_refusal, pos)
    if inner == "Z" and ty == "N":
        raise Located(int_refusal, pos)


def _power(node: SyntaxNode, ty: str, scope: Scope) -> sp.Expr:
    base_node, exp_node = node.args
    base = elab(base_node, ty, scope)
    ex = elab(exp_node, exponent_type(node, ty, scope), scope)
    if ex.is_number and abs(ex) > MAX_EXPONENT:
        raise Located(f"exponent {ex} is too large (at most {MAX_EXPONENT})", node.pos)
    if base == 0 and ex.is_number and ex.is_negative:
        raise Located("zero to a negative power", node.pos)
    if base.is_number and not (ex.is_integer is True):
        if base.has(sp.exp, sp.log):   # its sign would make sympy evaluate exp (exp …): unbounded work
            raise Located("a real power of a number built from `Real.exp`/`Real.log` is not supported", node.pos)
        if base.is_negative:
            raise Located("real power of a negative number", node.pos)
    if isinstance(base, sp.Abs) and ex.is_Integer:
        # sympy would make |x| ^ 2 into x ^ 2 and |x| ^ 3 into x ^ 2 * |x|, which the kernel
        # cannot show equal to Lean's term; kept as written (the fidelity check still decides)
        return sp.Pow(base, ex, evaluate=False)
    return sp.Pow(base, ex)


def ascription_type(node: SyntaxNode, ty: str) -> str:
    """The type at which the ascribed term ``(t : T)`` is elaborated inside a term of type ``ty``
    (refusing the combinations Lean would not accept or we do not model)."""
    target = node.value
    if target not in ("R", "N", "Z"):
        raise Located(f"type `{TYPE_TEXT[target]}` is not supported (only ℝ; ℕ/ℤ for numerals)", node.pos)
    _check_nested(target, ty, node.pos, "`(… : ℝ)` inside a natural-number term",
                  "`(… : ℤ)` inside a natural-number term")
    return target


def _ascription(node: SyntaxNode, ty: str, scope: Scope) -> sp.Expr:
    return elab(node.args[0], ascription_type(node, ty), scope)


_NON_REAL = (sp.I, sp.zoo, sp.oo, -sp.oo, sp.nan)


def check_real(e: sp.Expr, pos: int) -> sp.Expr:
    """Refuse values sympy made complex or infinite (e.g. ``(-8) ^ (1/3)``, ``1 / 0``)."""
    if any(e.has(x) for x in _NON_REAL):
        raise Located("expression is not a finite real number (division by zero or a root of a "
                      "negative number)", pos)
    for p in e.atoms(sp.Pow):
        # the exponent first: the sign of a base with exp/log may cost sympy unbounded work
        if p.exp.is_integer is not True and p.base.is_number and not p.base.has(sp.exp, sp.log) \
                and p.base.is_negative:
            raise Located("real power of a negative number", pos)
    return e


def elab_expr(node: SyntaxNode, scope: Scope) -> sp.Expr:
    return check_real(elab(node, "R", scope), node.pos)


def elab_relation(node: SyntaxNode, scope: Scope) -> Relation:
    if node.kind != "rel":
        raise Located("expected a comparison (≤ < ≥ > = ≠)", node.pos)
    lhs, rhs = node.args
    ty = relation_type(lhs, rhs, scope)
    return Relation(check_real(elab(lhs, ty, scope), lhs.pos), node.value,
                    check_real(elab(rhs, ty, scope), rhs.pos))


def membership_parts(node: SyntaxNode, scope: Scope) -> list[SyntaxNode]:
    """The comparisons ``x ∈ I`` unfolds to (``x ∈ Set.Icc a b`` is ``a ≤ x ∧ x ≤ b`` by
    definition: Mathlib's ``Set.mem_Icc`` is ``Iff.rfl``), in that order, as ``rel`` nodes whose
    sides are ascribed ``ℝ``. Lean elaborates ``x`` and the bounds at one type (the set's element
    type); we read only ℝ: some operand must be real, and no operand may carry a ``(… : ℕ)`` /
    ``(… : ℤ)`` ascription outside an exponent (that would fix another element type)."""
    from prover.frontend.names import INTERVALS

    operands = node.args
    other = [n for n in operands if _leaves_any(n, lambda m: (m.value != "R") if m.kind == "ascribe" else None)]
    if other:
        raise Located("membership with a bound or element of a type other than ℝ is not supported",
                      other[0].pos)
    if not any(is_real(n, scope) for n in operands):
        raise Located("membership of a numeral in an interval of numerals is typed ℕ by Lean, not ℝ; "
                      "write `(… : ℝ)`", node.pos)
    x = SyntaxNode("ascribe", operands[0].pos, (operands[0],), "R")
    bounds = {side: SyntaxNode("ascribe", b.pos, (b,), "R")
              for (side, _), b in zip(INTERVALS[node.value], operands[1:])}
    out = []
    for side, op in INTERVALS[node.value]:
        pair = (bounds[side], x) if side == "lo" else (x, bounds[side])
        out.append(SyntaxNode("rel", node.pos, pair, op, level=50))
    return out


def proposition_parts(node: SyntaxNode, scope: Scope) -> list[SyntaxNode]:
    """A hypothesis's comparisons: the parts of a conjunction, of a membership, or itself. A
    membership inside a conjunction is refused (state it as its own hypothesis)."""
    if node.kind == "and":
        for p in node.args:
            if p.kind == "mem":
                raise Located("membership `∈` inside a conjunction is not supported (state it as its "
                              "own hypothesis)", p.pos)
        return list(node.args)
    if node.kind == "mem":
        return membership_parts(node, scope)
    return [node]


def elab_proposition(node: SyntaxNode, scope: Scope) -> list[Relation]:
    """A hypothesis: one comparison, a conjunction of comparisons, or a membership in an interval."""
    return [elab_relation(p, scope) for p in proposition_parts(node, scope)]
