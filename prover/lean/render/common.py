"""Shared pieces of the renderer: the error, the naming context, step blocks and term helpers."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import sympy as sp

from prover.ir import Goal, Step, expr_from_str
from prover.lean import replay as rp
from prover.lean.syntax import lean_expr, lean_rel
from prover.problem import Relation
from prover.tactics.lemma import LemmaLookup

#: The pinned toolchain the rendered files are written against (see lean_project/).
MATHLIB_TAG = "v4.16.0"
CLOSE_STYLES = ("linear_combination", "nlinarith")


class RenderError(ValueError):
    """A step this renderer cannot turn into Lean (the message names the step and why)."""


@dataclass
class RenderContext:
    """Lean names of the current goal's hypotheses (parallel to ``goal.hypotheses``)."""

    names: list[str]
    counter: itertools.count
    lemmas: LemmaLookup | None
    close_style: str
    used: set[str] = field(default_factory=set)
    #: ``(relation, L, R)``: the Lean text of a goal's two sides, read as ``L ≤ R`` / ``L < R`` /
    #: ``L = R``, where it is not our own printing of that relation (the root: the user's text)
    target_text: tuple[Relation, str, str] | None = None
    #: the sides of the user's hypotheses as written in the statement (they stay in Lean's context
    #: everywhere below the root): where an ``exp``/``log`` atom's instance can take the user's text
    written_sides: tuple[str, ...] = ()

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    def child(self, names: list[str]) -> RenderContext:
        return RenderContext(names, self.counter, self.lemmas, self.close_style, self.used,
                             written_sides=self.written_sides)

    def sides(self, goal: Goal) -> tuple[str, str]:
        """``(L, R)`` as Lean sees them in the goal: ``target_text`` or our printing of ``goal``."""
        r = goal.target
        if self.target_text is not None and self.target_text[0] == r:
            return self.target_text[1], self.target_text[2]
        if r.op in ("=", "!="):
            return lean_expr(r.lhs), lean_expr(r.rhs)
        lhs, rhs, _ = as_le(r)
        return lean_expr(lhs), lean_expr(rhs)

    def with_target_text(self, rel: Relation, lhs: str, rhs: str) -> RenderContext:
        """The same context, knowing that Lean sees the sides of ``rel`` as ``lhs``/``rhs``."""
        return RenderContext(self.names, self.counter, self.lemmas, self.close_style, self.used, (rel, lhs, rhs),
                             self.written_sides)


@dataclass
class StepBlock:
    """The tactic text of one step and the contexts of its subgoals (for stepwise replay)."""

    lines: list[str]
    child_names: list[list[str]] = field(default_factory=list)
    #: per subgoal, ``(target, L, R)`` when the block states its target otherwise than our
    #: printing of it (see ``RenderContext.target_text``); missing or None: our printing
    child_texts: list[tuple[Relation, str, str] | None] = field(default_factory=list)


# ------------------------------------------------------------------ helpers


def step_expr(step: Step, text: str, goal: Goal | None = None) -> sp.Expr:
    g = goal or step.goal
    return expr_from_str(text, list(g.variables))


def as_le(r: Relation) -> tuple[sp.Expr, sp.Expr, bool]:
    """(L, R, strict) with the relation read as ``L ≤ R`` or ``L < R``."""
    if r.op in ("<=", "<"):
        return r.lhs, r.rhs, r.op == "<"
    if r.op in (">=", ">"):
        return r.rhs, r.lhs, r.op == ">"
    raise RenderError(f"expected an inequality, got {r.op}")


def slack_fact(r: Relation, name: str, strict: bool) -> str:
    """A term proving ``0 ≤ slack`` (or ``0 < slack`` when ``strict``) from hypothesis ``name``."""
    if r.op in ("=", "!="):
        raise RenderError(f"hypothesis {name} is not an inequality")
    if strict:
        if not r.strict:
            raise RenderError(f"strict use of non-strict hypothesis {name}")
        return f"(sub_pos.mpr {name})"
    return f"(sub_pos.mpr {name}).le" if r.strict else f"(sub_nonneg.mpr {name})"


def coeff_text(c: sp.Expr) -> str:
    c = sp.sympify(c)
    return lean_expr(c) if (c.is_Integer and c >= 0) or c.is_Symbol else f"({lean_expr(c)})"


def combination(terms: list[tuple[sp.Expr, str]]) -> str:
    """``c₁ * t₁ + c₂ * t₂ …`` with unit weights left out."""
    parts = []
    for c, t in terms:
        parts.append(t if c == 1 else f"{coeff_text(c)} * {t}")
    return " + ".join(parts)


def equality_lines(name: str, lhs: str, rhs: str, comb: str) -> list[str]:
    """``have name : lhs = rhs`` proved by ``linear_combination comb`` (``ring`` when ``comb`` is empty)."""
    return [f"have {name} : {lhs} = {rhs} := by", f"  linear_combination {comb}" if comb else "  ring"]


def power_text(base: str, n: int) -> str:
    """``base ^ n`` as text, ``""`` for ``n = 0`` and ``base`` for ``n = 1``."""
    return "" if n == 0 else base if n == 1 else f"{base} ^ {n}"


def geometric_sum(a: str, b: str, n: int) -> str:
    """``Σ_{i<n} aⁱ·b^(n−1−i)`` as text (``aⁿ − bⁿ = (a − b)·`` this), ``n ≥ 2``; ``a``, ``b``
    atoms or parenthesised."""
    return " + ".join(" * ".join(x for x in (power_text(a, i), power_text(b, n - 1 - i)) if x) for i in range(n))


def indent(lines: list[str], n: int = 2) -> list[str]:
    return [(" " * n + ln) if ln else ln for ln in lines]


def hypothesis_name(goal: Goal, names: list[str], rel: Relation) -> str | None:
    for h, n in zip(goal.hypotheses, names):
        if h == rel:
            return n
    return None


def child_names(parent: Goal, names: list[str], child: Goal, new: dict[int, str]) -> list[str]:
    out = []
    for i, h in enumerate(child.hypotheses):
        if i in new:
            out.append(new[i])
            continue
        n = hypothesis_name(parent, names, h)
        if n is None:
            raise RenderError(f"subgoal hypothesis {lean_rel(h)} is neither in the goal nor introduced by the step")
        out.append(n)
    return out


def fold_facts(fn: str, facts: list[str]) -> str:
    out = facts[0]
    for f in facts[1:]:
        out = f"({fn} {out} {f})"
    return out


def factored_text(e: sp.Expr, negative: frozenset[sp.Expr] | set[sp.Expr] = frozenset()) -> str:
    """``e`` as ``c * f₁ ^ k₁ * … * (g₁)⁻¹ ^ m₁ * …`` over the irreducible factors of its
    numerator and denominator, so that ``ring`` sees one inverse atom per factor (the atoms a
    goal's own denominators share) instead of the inverse of one expanded product. A factor in
    ``negative`` is written ``-f`` (its sign folded into ``c``), so that every factor printed is
    one a positivity fact can be about."""
    e = sp.sympify(e)
    if not e.free_symbols and negative:      # a constant: each negative factor ``f`` as ``-(-f)``
        flip = {f: sp.Symbol(f"_neg{i}") for i, f in enumerate(sorted(negative, key=str))}
        text = lean_expr(e.subs({f: -s for f, s in flip.items()}))
        for f, s in flip.items():
            text = re.sub(rf"\b{s.name}\b", f"(-{lean_expr(f)})", text)
        return text
    num, den = sp.fraction(sp.together(e))
    if not den.free_symbols and (not num.free_symbols or all(
            c > 0 for c in sp.Poly(sp.expand(num), *sorted(num.free_symbols, key=str)).coeffs())):
        return lean_expr(e)   # positivity sees it as written (a polynomial with a subtraction: factored)
    c_num, f_num = sp.factor_list(sp.expand(num))
    c_den, f_den = sp.factor_list(sp.expand(den))
    c = sp.Rational(c_num) / sp.Rational(c_den)
    flipped = []
    for factors in (f_num, f_den):
        out = []
        for f, k in factors:
            if f in negative:
                f, c = sp.expand(-f), c * (-1) ** k
            out.append((f, k))
        flipped.append(out)
    f_num, f_den = flipped

    def wrap(f: sp.Expr) -> str:
        return lean_expr(f) if f.is_Symbol else f"({lean_expr(f)})"

    parts = [] if c == 1 else [f"({lean_expr(c)})"]
    for f, k in f_num:
        parts.append(wrap(f) + (f" ^ {k}" if k > 1 else ""))
    for f, k in f_den:
        parts.append(wrap(f) + "⁻¹" + (f" ^ {k}" if k > 1 else ""))
    return " * ".join(parts) if parts else "1"


def written_denominators(*exprs: sp.Expr) -> set[sp.Expr]:
    """The factors of the summands' denominators as they are written (``4 - a * b`` stays so)."""
    out: set[sp.Expr] = set()
    for e in exprs:
        for summand in sp.Add.make_args(sp.sympify(e)):
            for arg in sp.Mul.make_args(sp.fraction(sp.together(summand))[1]):
                base = arg.base if arg.is_Pow else arg
                if base.free_symbols:
                    out.add(sp.expand(base))
    return out


def negated_factors(e: sp.Expr, written: set[sp.Expr]) -> set[sp.Expr]:
    """The irreducible factors ``f`` of ``e``'s reduced denominator whose negation is in
    ``written`` (``a * b - 4`` against ``4 - a * b``): for :func:`factored_text`'s ``negative``,
    so that ``ring`` meets one inverse atom where the goal writes the factor with the other sign."""
    den = sp.fraction(sp.cancel(sp.together(sp.sympify(e))))[1]
    if not den.free_symbols or not written:
        return set()
    return {f for f, _ in sp.factor_list(sp.expand(den))[1] if sp.expand(-f) in written}


def instantiate(text: str, variables: list[str], inst: dict[str, str], outer: list[str]) -> str:
    """``text`` (a Lean term over ``variables``) with each ``v`` in ``inst`` replaced by the term
    ``inst[v]`` (over ``outer``), as one simultaneous substitution of the syntax tree: the term
    Lean's instantiation of a ``∀`` produces, printed back."""
    inner_scope = rp.Scope({v: f"{v}#in" for v in variables}, opens=("Real",))
    outer_scope = rp.Scope({v: v for v in outer}, opens=("Real",))
    try:
        t = rp.parse_term(rp.lex(text), inner_scope)
        m = {f"{v}#in": rp.parse_term(rp.lex(s), outer_scope) for v, s in inst.items()}
        m.update({f"{v}#in": ("fv", v) for v in variables if v not in inst})
    except (rp.NotModelled, rp.ModelError, RecursionError) as exc:
        raise RenderError(f"cannot read {text[:80]!r}: {type(exc).__name__}: {exc}") from None
    try:
        return rp.show(rp.subst(t, m))
    except RecursionError:
        raise RenderError(f"term too deep to instantiate: {text[:80]!r}") from None


_RELATIONS = (" = ", " ≠ ", " ≤ ", " < ", " ≥ ", " > ")


def at_real(statement: str) -> str:
    """``statement`` with its left side ascribed ``(… : ℝ)`` when no name occurs in it (numerals
    only, or under polymorphic functions alone: ``abs (120 / 100 * 30 - 26)``): Lean would elaborate
    its numerals at their default type ℕ, where ``16 ^ (1 / 3 : ℝ)`` has no meaning. Other statements
    are returned unchanged."""
    if re.search(r"[A-Za-z]", re.sub(r"\b(abs|max|min)\b", "", statement)):
        return statement
    depth = 0
    for i, ch in enumerate(statement):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and any(statement.startswith(r, i) for r in _RELATIONS):
            return f"({statement[:i]} : ℝ){statement[i:]}"
    return statement
