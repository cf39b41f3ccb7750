"""``square`` steps: ``S ≤ B`` from ``0 ≤ B`` and ``S ^ 2 ≤ B ^ 2`` (Mathlib's ``abs_le_of_sq_le_sq'``).

The two subgoals are stated together (``suffices h : G₁ ∧ G₂ by``, then ``refine ⟨?_, ?_⟩``), each
proved by its subtree. Inside the ``by``, with ``S``, ``B`` the goal's sides as Lean sees them:

    have hb : 0 ≤ B := by linear_combination h₁
    have hs : S ^ 2 ≤ B ^ 2 := by linear_combination h₂ + Σ cᵢ * fᵢ
    linear_combination (abs_le_of_sq_le_sq' hs hb).2

(``abs_lt_of_sq_lt_sq'`` and ``<`` for a strict goal; ``abs_le_of_sq_le_sq' : a ^ 2 ≤ b ^ 2 →
0 ≤ b → -b ≤ a ∧ a ≤ b``, so the type of the last fact is ``S ≤ B`` exactly.) A ``have`` is left
out when its subgoal is already that statement. The facts ``fᵢ`` bridge what ``ring`` does not
know between the goal as Lean states it and the kernel's reading: ``Real.sq_sqrt (by positivity) :
√X ^ 2 = X`` for a root of the user's text (``√(a ^ 2 * b ^ 2)``, read ``|a|·|b|`` by the search),
only where ``positivity`` proves ``0 ≤ X``, and ``sq_abs x : |x| ^ 2 = x ^ 2`` for ``|x|`` (our
printing after a substitution); their coefficients ``cᵢ`` come from exact division by ``√X² − X``
(``|x|² − x²``) over ℚ, every other function application an atom, as ``ring`` reads it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import sympy as sp

from prover.ir import Step
from prover.lean import replay as rp
from prover.lean.render.atoms import Facts, bridge_facts, has_root_or_abs
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    child_names,
    indent,
)
from prover.lean.syntax import lean_expr, lean_rel

#: Lemmas by strictness of the goal (Mathlib/Algebra/Order/Ring/Abs.lean, docs/lean-names.md).
SQUARE_LEMMA = {False: "abs_le_of_sq_le_sq'", True: "abs_lt_of_sq_lt_sq'"}


class _Atoms:
    """Lean terms read as sympy expressions: ``+ - * / ⁻¹ ^n`` and numerals kept, variables as
    symbols, every other term one atom per canonical term (as ``ring`` reads it)."""

    def __init__(self) -> None:
        self.atoms: dict[Any, sp.Symbol] = {}

    def read(self, text: str) -> sp.Expr:
        try:
            term = rp.canon(rp.parse_term(rp.lex(text), rp.Scope()))
        except (rp.NotModelled, rp.ModelError, RecursionError) as exc:
            raise RenderError(f"square: cannot read {text[:80]!r}: {exc}") from None
        return self.expr(term)

    def expr(self, t: Any) -> sp.Expr:
        tag = t[0]
        if tag == "num":
            v = Fraction(t[1])
            return sp.Rational(v.numerator, v.denominator)
        if tag == "const" and "." not in t[1]:
            return sp.Symbol(t[1])
        binary = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
                  "div": lambda a, b: a / b}
        if tag in binary:
            return binary[tag](self.expr(t[1]), self.expr(t[2]))
        if tag == "neg":
            return -self.expr(t[1])
        if tag == "inv":
            return 1 / self.expr(t[1])
        if tag == "pow" and t[2][0] == "num" and Fraction(t[2][1]).denominator == 1:
            return self.expr(t[1]) ** int(t[2][1])
        if t not in self.atoms:
            self.atoms[t] = sp.Dummy(f"atom{len(self.atoms)}")
        return self.atoms[t]

    def laws(self) -> list[tuple[sp.Symbol, sp.Expr, str, str]]:
        """``(atom, value of its square, Lean statement, proof)`` for the ``√X`` atoms
        (``Real.sq_sqrt``, where ``positivity`` proves ``0 ≤ X``) and the ``|x|`` atoms
        (``sq_abs``, unconditional)."""
        out = []
        for t, sym in list(self.atoms.items()):
            if t[0] == "app" and t[1] == ("const", "Real.sqrt") and len(t[2]) == 1:
                x = rp.show(t[2][0])
                out.append((sym, self.expr(t[2][0]), f"{rp.show(t)} ^ 2 = {x}", "Real.sq_sqrt (by positivity)"))
            elif t[0] == "abs":
                x = rp.show(t[1])
                out.append((sym, self.expr(t[1]) ** 2, f"{rp.show(t)} ^ 2 = ({x}) ^ 2", f"sq_abs ({x})"))
        return out


def _identity_facts(lhs: str, rhs: str, ctx: RenderContext) -> tuple[list[str], list[str]] | None:
    """``lhs − rhs = Σ cᵢ·(aᵢ² − vᵢ)`` over the atom laws: the ``have`` lines of the laws used and
    the terms ``(−cᵢ) * name`` to add to a ``linear_combination`` whose ring check is then exact
    (none when ``lhs − rhs`` is 0 for ``ring`` already); None when no such combination exists."""
    atoms = _Atoms()
    diff = sp.cancel(atoms.read(lhs) - atoms.read(rhs))
    if diff == 0:
        return [], []
    num, den = sp.fraction(diff)
    if den.free_symbols:
        return None
    laws = [law for law in atoms.laws() if law[0] in num.free_symbols]
    if not laws:
        return None
    gens = [law[0] for law in laws] + sorted(num.free_symbols - {law[0] for law in laws}, key=str)
    try:
        quotients, rem = sp.reduced(sp.expand(num / den), [a**2 - v for a, v, _, _ in laws], *gens, order="lex")
    except (sp.PolynomialError, sp.GeneratorsError):
        return None
    if sp.expand(rem) != 0:
        return None
    lines, terms = [], []
    names = {sym: rp.show(t) for t, sym in atoms.atoms.items()}
    for (_, _, statement, proof), q in zip(laws, quotients):
        if q == 0:
            continue
        name = ctx.fresh("hsql")
        lines.append(f"have {name} : {statement} := {proof}")
        terms.append(f"({_text(-q, names)}) * {name}")
    return lines, terms


def _text(e: sp.Expr, names: dict[sp.Symbol, str]) -> str:
    """``e`` printed in Lean, atoms written as their Lean terms."""
    placeholders = {a: sp.Symbol(f"zzatom{i}zz") for i, a in enumerate(names)}
    text = lean_expr(sp.sympify(e).xreplace(placeholders))
    for a, p in placeholders.items():
        text = text.replace(p.name, f"({names[a]})")
    return text


def _paren(text: str) -> str:
    """``text`` in parentheses unless it is a name or a numeral."""
    return text if re.fullmatch(r"[\w.']+", text) else f"({text})"


def _bridged(lhs: str, rhs: str, ctx: RenderContext, variables: list[str]) -> tuple[list[str], list[str]] | None:
    """:func:`_identity_facts` where the two texts write an atom differently (``|-x + 1 - (y + 1)|``
    against sympy's ``|x + y|``): the atom bridges of :func:`prover.lean.render.atoms.bridge_facts`."""
    facts = Facts(ctx)
    bridges = bridge_facts(lhs, rhs, variables, facts)
    if not bridges:
        return None
    return facts.lines, [f"({f.coeff}) * {f.proof}" for f in bridges]


def _have(statement: str, fact: str, fact_statement: str, ctx: RenderContext,
          lhs: str, rhs: str, variables: list[str] | None = None) -> tuple[list[str], str]:
    """``fact`` itself when it states ``statement``, else a ``have`` of ``statement`` by one
    ``linear_combination`` (``lhs − rhs``: the difference of the two slacks to match)."""
    if " ".join(statement.split()) == " ".join(fact_statement.split()):
        return [], fact
    found = _identity_facts(lhs, rhs, ctx)
    if found is None and variables:
        found = _bridged(lhs, rhs, ctx, variables)
    if found is None:
        raise RenderError(f"square: {statement[:80]} does not follow from {fact_statement[:80]} by ring "
                          "and |f| ^ 2 = f ^ 2, √X ^ 2 = X")
    lines, terms = found
    name = ctx.fresh("hsq")
    comb = " + ".join([fact] + terms)
    return lines + [f"have {name} : {statement} := by linear_combination {comb}"], name


def render_square(step: Step, ctx: RenderContext) -> StepBlock:
    goal, subs = step.goal, step.subgoals
    if len(subs) != 2:
        raise RenderError("square: exactly two subgoals")
    small, big = ctx.sides(goal)
    try:
        return _render_square(step, ctx, (small, big), [], "")
    except RenderError:
        ours = tuple(lean_expr(x) for x in as_le(goal.target)[:2])
        if (small, big) == ours or not has_root_or_abs(small + big):
            raise
    # the user's sides write an atom otherwise (|-x + 1 - (y + 1)| for sympy's |x + y|): square our
    # sides, then carry the conclusion over by the atom bridges (−c each, as in split.py)
    facts = Facts(ctx)
    bridges = bridge_facts(f"({big}) - ({small})", f"({ours[1]}) - ({ours[0]})", list(goal.variables), facts)
    if not bridges:
        raise RenderError("square: the statement's sides are not bridged to ours")
    extra = "".join(f" + (-({f.coeff})) * {f.proof}" for f in bridges)
    return _render_square(step, ctx, ours, facts.lines, extra)


def _render_square(step: Step, ctx: RenderContext, sides: tuple[str, str], connect: list[str],
                   extra: str) -> StepBlock:
    """The square step over the goal's ``sides`` (``small ≤ big``); ``connect``/``extra``: the
    bridge lines and ``linear_combination`` terms that carry the conclusion to the goal as stated."""
    goal, (sign, squares) = step.goal, step.subgoals
    small, big = sides
    _, _, strict = as_le(goal.target)
    s0, b0, _ = as_le(sign.target)
    s2, b2, strict2 = as_le(squares.target)
    if strict and not strict2:
        raise RenderError("square: a strict goal needs a strict square subgoal")
    h0, h1, key = ctx.fresh("hsq"), ctx.fresh("hsq"), ctx.fresh("hsqs")
    lines = ["-- square both sides: the big side is nonnegative and the squares compare",
             f"suffices {key} : ({lean_rel(sign.target)}) ∧ ({lean_rel(squares.target)}) by"]
    inner = [f"obtain ⟨{h0}, {h1}⟩ := {key}"]
    sign_text = f"({lean_expr(b0)}) - ({lean_expr(s0)})"
    pre, hb = _have(f"0 ≤ {big}", h0, lean_rel(sign.target), ctx, big, sign_text, list(goal.variables))
    inner += pre
    rel = "<" if strict else "≤"
    sq_text = f"({lean_expr(b2)}) - ({lean_expr(s2)})"
    pre, hs = _have(f"{_paren(small)} ^ 2 {rel} {_paren(big)} ^ 2", h1, lean_rel(squares.target), ctx,
                    f"{_paren(big)} ^ 2 - {_paren(small)} ^ 2", sq_text)
    inner += pre + connect
    inner.append(f"linear_combination ({SQUARE_LEMMA[strict]} {hs} {hb}).2{extra}")
    lines += indent(inner)
    lines.append("refine ⟨?_, ?_⟩")
    return StepBlock(lines, [child_names(goal, ctx.names, s, {}) for s in step.subgoals])
