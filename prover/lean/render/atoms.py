"""The user's atoms in ``introduce`` steps: roots as written, and exact bridges between atoms.

``ring`` compares ``Real.sqrt (…)``, ``|…|`` and ``x ^ (r : ℝ)`` as atoms, syntactically (up to
instances): the user's ``Real.sqrt (2 * (a + b))`` and our printing ``Real.sqrt (2 * a + 2 * b)``
are two atoms, so are the user's ``Real.sqrt (a ^ 2)`` and the ``|a|`` sympy writes for it. At the
root goal (whose text is the user's) an ``introduce`` step therefore

* instantiates a square root with the user's own root (:func:`user_root`), stating
  ``Real.sqrt R ^ 2 = R`` for the user's radicand ``R`` and proving our printing of the definition
  fact from it by ``linear_combination``;
* instantiates ``|x| ^ (1/q)`` at the user's base ``x ^ 2`` as ``(x ^ 2) ^ (1/(2q) : ℝ)``
  (:func:`half_power`), whose definition fact ``t ^ q = |x|`` is the chain
  ``(x ^ 2) ^ (1/(2q)) ^ q = (x ^ 2) ^ (1/2)``, ``Real.sqrt_eq_rpow`` and ``Real.sqrt_sq_eq_abs``;
* connects the atoms left over by exact facts (:func:`bridge_facts`): ``f X₁ = f X₂`` for the
  same function (``Real.sqrt``, ``|·|``, ``· ^ (r : ℝ)``) at arguments equal by ``ring``
  (``congrArg f h`` with ``h : X₁ = X₂ := by ring``), ``Real.sqrt (p ^ 2) = |p|``
  (``Real.sqrt_sq_eq_abs``) and ``(X ^ s) ^ m = X ^ (m·s)`` (:func:`power_chain`, a chain of
  ``Real.rpow_of_add_eq``), each entering the ``linear_combination`` with the coefficient computed
  here as a divided difference (the goal's slack with the user's atoms replaced one at a time);
  a real power sympy rewrote (``((a ^ 2) ^ 2) ^ (1/3)`` is its ``|a| ^ (4/3)``, ``16 ^ (1/3)`` its
  ``2 * 2 ^ (1/3)``) is equal to its value in the instance's atoms by the uniqueness of positive
  roots (:func:`root_power_bridge`), a power of a product is split by ``Real.mul_rpow``.

The same bridges serve every identity between a text we did not print (the statement's, a
lemma's own conclusion) and our printing (:func:`bridged_equality`), so that every fact and goal
the renderer states has its atoms in one form: sympy's, printed by ``lean_expr``.

Nothing here is trusted: every fact is a whitelisted lemma instance or a ``linear_combination``
that ``ring`` (Lean, or the replay model) checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from prover.frontend import ParseError, parse_expression
from prover.ir import Goal
from prover.lean import replay as rp
from prover.lean.render.common import RenderContext, RenderError, at_real, geometric_sum, power_text
from prover.lean.render.field_identity import EqFact, FactCache, PositiveFact, prove_equality, reproduces
from prover.lean.syntax import lean_expr

#: A side condition that either ``positivity`` or ``linarith`` proves (``first`` tries both).
POS_OR_LIN = "(by first | positivity | linarith)"
_SQRT = ("const", "Real.sqrt")
_PLACEHOLDER = "zatom"


def parse(text: str, variables: list[str]) -> Any:
    """The replay model's term for ``text`` (variables free, ``open Real``); raises on failure."""
    return rp.parse_term(rp.lex(text), rp.Scope({v: v for v in variables}, opens=("Real",), real_division=True))


def _is_sqrt(t: Any) -> bool:
    return t[0] == "app" and t[1] in (_SQRT, ("const", "sqrt")) and len(t[2]) == 1


def _rpow_exponent(t: Any) -> Fraction | None:
    """``r`` of a real power ``X ^ (r : ℝ)`` with a numeral ``r``, else None."""
    if t[0] != "pow" or t[2][0] != "ascr" or t[2][2] != rp.REAL:
        return None
    return rp.num_value(t[2][1])


def atoms_of(t: Any) -> list[Any]:
    """The outermost subterms of ``t`` that ``ring`` treats as atoms (roots, ``|·|``, real powers,
    other applications), in order, without repeats."""
    out: list[Any] = []

    def walk(x: Any) -> None:
        tag = x[0]
        if tag in ("num", "dec", "fv"):
            return
        if tag in ("add", "sub", "mul", "div"):
            walk(x[1])
            walk(x[2])
        elif tag in ("neg", "inv") or (tag == "pow" and x[2][0] == "num"):
            walk(x[1])
        elif x not in out:
            out.append(x)
    walk(t)
    return out


@dataclass
class AtomTable:
    """Placeholder symbols for atoms, to compute with sympy over them and print back."""

    variables: list[str]
    symbols: dict[Any, sp.Symbol] = field(default_factory=dict)

    def symbol(self, atom: Any) -> sp.Symbol:
        if atom not in self.symbols:
            self.symbols[atom] = sp.Symbol(f"{_PLACEHOLDER}{len(self.symbols)}", real=True)
        return self.symbols[atom]

    def expr(self, t: Any) -> sp.Expr:
        """``t`` as a sympy expression over the variables and atom placeholders."""
        tag = t[0]
        if tag == "num":
            return sp.Integer(t[1])
        if tag == "dec":       # `0.3`: the exact rational (`ring` evaluates decimals so)
            return sp.Rational(t[1])
        if tag == "fv":
            return sp.Symbol(t[1], real=True)
        ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
               "div": lambda a, b: a / b}
        if tag in ops:
            return ops[tag](self.expr(t[1]), self.expr(t[2]))
        if tag == "neg":
            return -self.expr(t[1])
        if tag == "inv":
            return 1 / self.expr(t[1])
        if tag == "pow" and t[2][0] == "num":
            return self.expr(t[1]) ** int(t[2][1])
        return self.symbol(t)

    def text(self, e: sp.Expr) -> str:
        """Lean text of ``e`` with every placeholder replaced by its atom (parenthesised)."""
        names = {s.name: rp.show(a) for a, s in self.symbols.items()}
        return re.sub(rf"\b{_PLACEHOLDER}\d+\b", lambda m: f"({names[m.group(0)]})", lean_expr(e))


# ------------------------------------------------------------------ the user's atoms


def written_atoms(goal: Goal, ctx: RenderContext) -> list[Any]:
    """The atoms of the user's text of ``goal``'s two sides, when ``goal`` is the statement's."""
    if ctx.target_text is None or ctx.target_text[0] != goal.target:
        return []
    out: list[Any] = []
    for side in ctx.target_text[1:]:
        try:
            t = parse(side, list(goal.variables))
        except (rp.NotModelled, rp.ModelError, RecursionError):
            continue
        for a in _all_atoms(t):
            out += [x for x in [a, *_rpow_factors(a)] if x not in out]
    return out


def hypothesis_written_atoms(ctx: RenderContext, variables: list[str]) -> list[Any]:
    """The atoms of the user's hypotheses as written (``ctx.written_sides``), at any depth."""
    out: list[Any] = []
    for side in ctx.written_sides:
        try:
            t = parse(side, variables)
        except (rp.NotModelled, rp.ModelError, RecursionError):
            continue
        out += [a for a in _all_atoms(t) if a not in out]
    return out


def _product_factors(t: Any) -> list[Any]:
    """The factors of a product term (``X * Y * Z`` read left-nested), ``[t]`` for a non-product."""
    return _product_factors(t[1]) + _product_factors(t[2]) if t[0] == "mul" else [t]


def _rpow_factors(a: Any) -> list[Any]:
    """``Xᵢ ^ r`` for each factor of a real power ``(X₁ * X₂ * …) ^ r`` (``Real.mul_rpow`` splits it,
    :func:`_rpow_product_bridge`): the user's atoms once the product is split."""
    if _rpow_exponent(a) is None or a[1][0] != "mul":
        return []
    return [("pow", f, a[2]) for f in _product_factors(a[1])]


def _all_atoms(t: Any) -> list[Any]:
    """Atoms at any depth (the atoms inside an atom's arguments too)."""
    found = []
    for a in atoms_of(t):
        found.append(a)
        for x in a[2] if a[0] == "app" else (a[1],) if a[0] in ("pow", "abs") else ():
            found += _all_atoms(x)
    return found


def same_value(text: str, expr: sp.Expr, variables: list[str]) -> bool:
    """Whether the Lean ``text`` reads as ``expr`` (equal once expanded)."""
    try:
        return sp.expand(parse_expression(text, variables, real_division=True) - expr) == 0
    except (ParseError, ValueError, TypeError):
        return False


def user_root(written: list[Any], d: sp.Expr, variables: list[str]) -> tuple[str, str] | None:
    """``(root, radicand)``: the user's text of ``Real.sqrt R`` for the definition ``d = √B``
    (``R`` expands to ``B``), or None."""
    if not (d.is_Pow and d.exp == sp.Rational(1, 2)):
        return None
    for a in written:
        if _is_sqrt(a) and same_value(rp.show(a[2][0]), d.base, variables):
            return rp.show(a), rp.show(a[2][0])
    return None


def half_power(written: list[Any], d: sp.Expr, variables: list[str]) -> tuple[str, str, str] | None:
    """``(U, Y, X)`` for a definition ``|X| ^ (1/q)`` when the user's text has a real power of
    ``U = Y ^ 2`` with ``Y = X`` by ``ring`` (``X`` as we print it, ``Y`` as the user writes it):
    the instance is then ``U ^ (1/(2q) : ℝ)``, in the atoms of the user's powers of ``U``."""
    if not (d.is_Pow and isinstance(d.base, sp.Abs) and d.exp.is_Rational and d.exp.p == 1 and d.exp.q > 1):
        return None
    try:
        x = parse(lean_expr(d.base.args[0]), variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    for a in written:
        u = a[1] if _rpow_exponent(a) is not None else None
        if u is not None and u[0] == "pow" and u[2] == ("num", 2) and (u[1] == x or ring_equal(u[1], x)):
            return rp.show(u), rp.show(u[1]), rp.show(x)
    return None


@dataclass(frozen=True)
class ScaledRoot:
    """The user's root ``A`` of a numeral ``U`` (``√U``, ``U ^ (1/q : ℝ)``) standing for a
    definition ``B ^ (1/q)`` with ``B = k^q·U``: sympy moves rational factors out of a numeral's
    root (the user's ``√(3 / 2)`` is its ``√6 / 2``, ``(171 / 20) ^ (1/3)`` its ``8550 ^ (1/3) / 10``),
    so the variable is instantiated as ``k * A``, in the user's atom."""

    atom: str
    radicand: str
    k: Fraction
    q: int
    sqrt: bool

    @property
    def instance(self) -> str:
        return self.atom if self.k == 1 else f"{_fraction_text(self.k)} * {self.atom}"


def _fraction_text(r: Fraction) -> str:
    return str(r.numerator) if r.denominator == 1 else f"({r.numerator} / {r.denominator})"


def _rational_root(r: Fraction, q: int) -> Fraction | None:
    """The rational ``k ≥ 0`` with ``k ** q == r``, or None (exact integer roots)."""
    if r < 0:
        return None
    kn, exact_n = sp.integer_nthroot(r.numerator, q)
    kd, exact_d = sp.integer_nthroot(r.denominator, q)
    return Fraction(int(kn), int(kd)) if exact_n and exact_d else None


def scaled_numeral_root(written: list[Any], d: sp.Expr) -> ScaledRoot | None:
    """A :class:`ScaledRoot` of the user's atoms for the definition ``d = B ^ (1/q)`` (``B`` a
    positive rational), or None."""
    if not (d.is_Pow and d.base.is_Rational and d.base > 0 and d.exp.is_Rational
            and d.exp.p == 1 and d.exp.q > 1):
        return None
    q, b = int(d.exp.q), Fraction(int(d.base.p), int(d.base.q))
    for a in written:
        if q == 2 and _is_sqrt(a):
            radicand, is_sqrt = a[2][0], True
        elif _rpow_exponent(a) == Fraction(1, q):
            radicand, is_sqrt = a[1], False
        else:
            continue
        u = rp.num_value(radicand)
        if u is None or u <= 0:
            continue
        k = _rational_root(b / Fraction(u), q)
        if k is not None:
            return ScaledRoot(rp.show(a), rp.show(radicand), k, q, is_sqrt)
    return None


def scaled_root_fact(root: ScaledRoot, facts: Facts) -> str:
    """A proof of ``(k * A) ^ q = B`` from ``A ^ q = U`` (``Real.sq_sqrt``, or the chain of
    ``Real.rpow_of_add_eq`` and ``Real.rpow_one``): ``linear_combination k ^ q * that``."""
    u = paren(root.radicand)
    if root.sqrt:
        h = facts.have("hsq", f"{root.atom} ^ 2 = {root.radicand}", f"Real.sq_sqrt {POS_OR_LIN}")
    else:
        chain = power_chain(u, Fraction(1, root.q), root.q, facts)
        one = facts.have("hrp", f"{u} ^ (1 : ℝ) = {root.radicand}", f"Real.rpow_one {u}")
        h = facts.have("hrp", f"({root.atom}) ^ {root.q} = {root.radicand}",
                       f"by linear_combination {chain} + {one}")
    if root.k == 1:
        return h
    return f"(by linear_combination {_fraction_text(root.k ** root.q)} * {h})"


def paren(text: str) -> str:
    """``text`` as an argument (parenthesised unless a name or a numeral)."""
    return text if re.fullmatch(r"[\w']+", text) else f"({text})"


def exponent_text(r: Fraction) -> str:
    return f"({r.numerator} : ℝ)" if r.denominator == 1 else f"({r.numerator} / {r.denominator} : ℝ)"


# ------------------------------------------------------------------ facts


@dataclass
class Facts:
    """``have`` lines of one tactic block, each fact stated once (keyed by its statement)."""

    ctx: RenderContext
    lines: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)

    def have(self, prefix: str, statement: str, proof: str) -> str:
        if statement not in self.names:
            name = self.ctx.fresh(prefix)
            self.lines.append(f"have {name} : {at_real(statement)} := {proof}")
            self.names[statement] = name
        return self.names[statement]


def power_chain(base: str, step: Fraction, m: int, facts: Facts) -> str:
    """The name of a fact ``(base ^ step) ^ m = base ^ (m·step)`` (real powers, ``base`` as an
    argument, ``m ≥ 2``): ``E k = E (k−1) * E 1`` for ``k = 2..m`` by ``Real.rpow_of_add_eq``
    (``0 ≤ base`` by ``positivity``/``linarith``), then ``E1 ^ m − E m = −Σ E1^(m−k)·(E k − E (k−1)·E1)``."""
    def e(k: int) -> str:
        return f"{base} ^ {exponent_text(step * k)}"
    e1, terms = e(1), []
    for k in range(2, m + 1):
        h = facts.have("hrp", f"{e(k)} = {e(k - 1)} * {e1}",
                       f"Real.rpow_of_add_eq {POS_OR_LIN} (by positivity) (by linear_combination)")
        power = "" if k == m else (f"({e1}) * " if m - k == 1 else f"({e1}) ^ {m - k} * ")
        terms.append(f"(-1) * {power}{h}" if power else f"-{h}")
    return facts.have("hrp", f"({e1}) ^ {m} = {e(m)}", f"by linear_combination {' + '.join(terms)}")


def half_power_fact(u: str, y: str, x: str, q: int, facts: Facts) -> str:
    """``(U ^ (1/(2q) : ℝ)) ^ q = |X|`` for ``U = Y ^ 2``: the chain to ``U ^ (1/2 : ℝ)``, then
    ``Real.sqrt U = U ^ (1/2)`` (``Real.sqrt_eq_rpow``), ``Real.sqrt (Y ^ 2) = |Y|`` and, where the
    user's ``Y`` is not written as our ``X``, ``|Y| = |X|`` (``congrArg abs`` of ``Y = X`` by ``ring``)."""
    base, step = paren(u), Fraction(1, 2 * q)
    chain = power_chain(base, step, q, facts)
    half = facts.have("hrt", f"Real.sqrt {base} = {base} ^ {exponent_text(Fraction(1, 2))}",
                      f"Real.sqrt_eq_rpow {base}")
    to_abs = facts.have("hrt", f"Real.sqrt {base} = |{y}|", f"Real.sqrt_sq_eq_abs {paren(y)}")
    comb = f"{chain} - {half} + {to_abs}"
    if y != x:
        same = facts.have("hat", f"{y} = {x}", "by ring")
        comb += " + " + facts.have("hat", f"|{y}| = |{x}|", f"congrArg abs {same}")
    return facts.have("hrt", f"({base} ^ {exponent_text(step)}) ^ {q} = |{x}|", f"by linear_combination {comb}")


# ------------------------------------------------------------------ bridges


@dataclass(frozen=True)
class Bridge:
    """A fact ``name`` stating ``atom = other`` (``flipped``: ``other = atom``) for a user atom."""

    atom: Any
    other: Any
    name: str
    flipped: bool


def _function_of(t: Any) -> tuple[Any, Any, str] | None:
    """``(key, argument, f)`` for an atom ``f X`` that ``congrArg f`` can rewrite: ``Real.sqrt X``,
    ``|X|``, ``X ^ (r : ℝ)`` with a numeral ``r`` (``key`` is the same for the same function)."""
    if _is_sqrt(t):
        return "sqrt", t[2][0], "Real.sqrt"
    if t[0] == "abs":
        return "abs", t[1], "abs"
    if _rpow_exponent(t) is not None:
        return ("rpow", t[2]), t[1], f"(fun x => x ^ {rp.show(t[2])})"
    for key, f in (("exp", _EXP), ("log", _LOG)):
        a = _applied(t, f)
        if a is not None:
            return key, a, f[1]
    return None


def _has_variable(t: Any) -> bool:
    return isinstance(t, tuple) and bool(t) and (t[0] == "fv" or any(_has_variable(x) for x in t[1:]))


def ring_equal(x: Any, y: Any) -> bool:
    """Whether ``ring`` proves ``x = y`` (the replay model's normal form, atoms compared as written)."""
    try:
        diff = ("sub", x, y)
        return rp.RingNormalizer([diff]).norm(diff).is_zero()
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return False


def _lean_show(t: Any) -> str:
    """``t`` printed for a stated type: ``sqrt`` (under ``open Real``) written ``Real.sqrt``, the
    constant Lean elaborates it to (a stated type is compared with a proof's as terms)."""
    def walk(x: Any) -> Any:
        if not isinstance(x, tuple) or not x:
            return x
        if x == ("const", "sqrt"):
            return ("const", "Real.sqrt")
        return tuple(walk(a) for a in x)
    return rp.show(walk(t))


def _argument_bridge(atom: Any, targets: list[Any], facts: Facts, variables: list[str] | None = None) -> Bridge | None:
    """``f X₁ = f X₂`` for a target ``f X₂`` whose argument equals ``atom``'s by ``ring``:
    ``have h : X₁ = X₂ := by ring`` and ``congrArg f h`` (Lean core ``congrArg``). With
    ``variables``, arguments equal only as rational functions (``a * (1 / (1 / c + 1))`` against
    ``a * (c / (c + 1))``, an undone substitution) get the field identity of
    :func:`prove_equality` instead (``mul_inv_cancel₀`` facts, denominators by ``positivity``)."""
    mine = _function_of(atom)
    if mine is None:
        return None
    for t in targets:
        other = _function_of(t)
        if other is None or other[0] != mine[0]:
            continue
        statement = f"{_lean_show(mine[1])} = {_lean_show(other[1])}"
        if not _has_variable(mine[1]) and not _has_variable(other[1]):
            statement = f"({_lean_show(mine[1])} : ℝ) = {_lean_show(other[1])}"   # numerals: at ℝ, not ℕ
        if ring_equal(mine[1], other[1]):
            arg = facts.have("hat", statement, "by ring")
        elif mine[0] == "abs" and ring_equal(mine[1], ("neg", other[1])):
            return _negated_abs_bridge(atom, t, facts)
        elif variables is not None and statement not in facts.names:
            try:
                lines, comb = prove_equality(_lean_show(mine[1]), _lean_show(other[1]), variables, facts.ctx)
            except RenderError:
                continue
            facts.lines.extend(lines)
            arg = facts.have("hat", statement, f"by linear_combination {comb}" if comb else "by ring")
        else:
            continue
        name = facts.have("hat", f"{_lean_show(atom)} = {_lean_show(t)}", f"congrArg {mine[2]} {arg}")
        return Bridge(atom, t, name, False)
    return None


def _scaled_abs_bridge(atom: Any, targets: list[Any], facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``|X| = k * |Y|`` for ``X = ±k·Y`` with a rational ``k > 0`` (sympy writes ``|2 * x|`` as
    ``2 * |x|``): ``congrArg abs`` of ``X = k * (Y)`` (or ``-(k * (Y))`` and ``abs_neg``), then
    ``abs_mul k Y`` and ``|k| = k`` by ``abs_of_pos``, combined in one ``linear_combination``."""
    if atom[0] != "abs":
        return None
    for t in targets:
        if t[0] != "abs":
            continue
        ratio = _ratio(atom[1], t[1], variables)
        if ratio is None or abs(ratio) == 1:
            continue
        k = abs(ratio)
        kt = str(k.numerator) if k.denominator == 1 else f"({k.numerator} / {k.denominator})"
        x, y = _lean_show(atom[1]), _lean_show(t[1])
        scaled = f"{kt} * ({y})"
        inner = scaled if ratio > 0 else f"-({scaled})"
        arg = facts.have("hat", f"{x} = {inner}", "by ring")
        terms = [facts.have("hat", f"|{x}| = |{inner}|", f"congrArg abs {arg}")]
        if ratio < 0:
            terms.append(facts.have("hat", f"|{inner}| = |{scaled}|", f"abs_neg ({scaled})"))
        terms.append(facts.have("hat", f"|{scaled}| = |({kt} : ℝ)| * |{y}|", f"abs_mul {kt} ({y})"))
        unit = facts.have("hat", f"|({kt} : ℝ)| = {kt}", "abs_of_pos (by positivity)")
        other = parse(f"{kt} * |{y}|", variables or [])
        name = facts.have("hat", f"{_lean_show(atom)} = {kt} * |{y}|",
                          f"by linear_combination {' + '.join(terms)} + |{y}| * {unit}")
        return Bridge(atom, other, name, False)
    return None


def _logb_bridge(atom: Any, facts: Facts) -> Bridge | None:
    """``Real.logb B X = Real.log X / Real.log B`` (``Real.log_div_log`` is ``rfl``; the front-end
    reads ``logb`` so), with ``B`` and ``X`` as the user writes them."""
    if _logb_args(atom) is None:
        return None
    base, x = atom[2]
    value = [rp.num_value(t) if not _has_variable(t) else None for t in (base, x)]
    if any(v is not None and t[0] != "num" and v >= 0 and v.denominator == 1 for v, t in zip(value, (base, x))):
        # a closed argument (``5 ^ 2``) as the numeral our printing has (``25``): rewritten inside
        # ``logb`` first (``congrArg (fun t => Real.logb t X)``), so that no bridge lands in a
        # denominator, where ``ring`` cannot cancel it
        args = [("num", int(v)) if v is not None and v >= 0 and v.denominator == 1 else t
                for v, t in zip(value, (base, x))]
        steps = []
        for k in (0, 1):
            if args[k] == atom[2][k]:
                continue
            hat = facts.have("hat", f"({_lean_show(atom[2][k])} : ℝ) = {_lean_show(args[k])}", "by ring")
            before = ("app", _LOGB, tuple(args[:k] + list(atom[2][k:])))
            after = ("app", _LOGB, tuple(args[:k + 1] + list(atom[2][k + 1:])))
            fun = "fun t => Real.logb t " + paren(_lean_show(before[2][1])) if k == 0 else \
                "fun t => Real.logb " + paren(_lean_show(after[2][0])) + " t"
            steps.append(facts.have("hat", f"{_lean_show(before)} = {_lean_show(after)}", f"congrArg ({fun}) {hat}"))
        renamed = ("app", _LOGB, tuple(args))
        other, proof = _exp_law(renamed, facts)
        unfolded = facts.have("hlogb", f"{_lean_show(renamed)} = {_lean_show(other)}", proof)
        name = facts.have("hlogb", f"{_lean_show(atom)} = {_lean_show(other)}",
                          f"by linear_combination {' + '.join([*steps, unfolded])}")
        return Bridge(atom, other, name, False)
    other, proof = _exp_law(atom, facts)
    return Bridge(atom, other, facts.have("hlogb", f"{_lean_show(atom)} = {_lean_show(other)}", proof), False)


_MAX_MIN_CASES = {"max": ("max_eq_right", "max_eq_left"), "min": ("min_eq_left", "min_eq_right")}


def _max_min_bridge(atom: Any, facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``max A B = (A + B + |A − B|) / 2`` (``min`` with ``−``) in sympy's printing of the right
    side (the form the front-end reads ``max``/``min`` as), proved by cases ``le_total A B``: in
    each, ``max_eq_right``/``max_eq_left`` (``min_eq_left``/``min_eq_right``) and
    ``abs_of_nonpos``/``abs_of_nonneg`` of the ``|·|`` argument, combined by ``linear_combination``."""
    if atom[0] != "app" or atom[1] not in (("const", "max"), ("const", "min")) or len(atom[2]) != 2:
        return None
    kind = atom[1][1]
    try:
        a, b = (parse_expression(rp.show(x), variables or [], real_division=True) for x in atom[2])
    except (ParseError, ValueError, TypeError):
        return None
    value = (a + b + (1 if kind == "max" else -1) * sp.Abs(a - b)) / 2
    coeff, gap = sp.Abs(a - b).as_coeff_Mul()
    if not isinstance(gap, sp.Abs) or not coeff.is_Rational:
        return None
    u = gap.args[0]
    r = sp.cancel(u / (a - b))
    if not r.is_Rational or r == 0:
        return None
    lines = _max_min_cases(atom, kind, (value, gap, u), r > 0, facts, variables or [])
    if lines is None:
        return None
    statement = f"{_lean_show(atom)} = {lean_expr(value)}"
    name = facts.ctx.fresh("hmm")
    facts.lines.extend([f"have {name} : {statement} := by", *lines])
    facts.names[statement] = name
    return Bridge(atom, parse(lean_expr(value), variables or []), name, False)


def _max_min_cases(atom: Any, kind: str, forms: tuple[sp.Expr, sp.Expr, sp.Expr], same_sign: bool,
                   facts: Facts, variables: list[str]) -> list[str] | None:
    """The two cases of :func:`_max_min_bridge` (indented lines), or None when a case's
    ``linear_combination`` would not be an identity. ``forms``: the right side, its ``|u|``, ``u``."""
    value, gap, u = forms
    x, y = (_lean_show(t) for t in atom[2])
    le, lines = facts.ctx.fresh("hle"), []
    lines.append(f"  rcases le_total ({x}) ({y}) with {le} | {le}")
    for case, lemma in enumerate(_MAX_MIN_CASES[kind]):
        # case 0: A ≤ B, so A − B ≤ 0; u = r·(A − B) has the sign of r there (the opposite in case 1)
        nonpos = same_sign if case == 0 else not same_sign
        picked = (atom[2][1] if lemma in ("max_eq_right", "min_eq_right") else atom[2][0])
        try:
            picked_value = parse_expression(rp.show(picked), variables, real_division=True)
        except (ParseError, ValueError, TypeError):
            return None
        signed = -u if nonpos else u
        t = sp.Symbol("zzgapzz")
        rest = sp.expand((picked_value - value).subs(gap, t))
        k = rest.coeff(t)
        if sp.expand(rest - k * (t - signed)) != 0:
            return None
        h1, h2 = facts.ctx.fresh("hmc"), facts.ctx.fresh("hmc")
        value_text = f"-({lean_expr(u)})" if nonpos else lean_expr(u)     # abs_of_nonpos states -a
        sign_lemma = "abs_of_nonpos" if nonpos else "abs_of_nonneg"
        lines += [f"  · have {h1} : {_lean_show(atom)} = {_lean_show(picked)} := {lemma} {le}",
                  f"    have {h2} : {lean_expr(gap)} = {value_text} := {sign_lemma} (by linarith)",
                  f"    linear_combination {h1} + ({lean_expr(k)}) * {h2}"]
    return lines


def _product_abs_bridge(atom: Any, targets: list[Any], facts: Facts) -> Bridge | None:
    """``|X * Y| = |X| * |Y|`` (Mathlib's ``abs_mul``) where sympy has split the user's ``|x * y|``
    into the target atoms ``|x|`` and ``|y|``."""
    if atom[0] != "abs" or atom[1][0] != "mul":
        return None
    x, y = atom[1][1], atom[1][2]
    if ("abs", x) not in targets or ("abs", y) not in targets:
        return None
    other = ("mul", ("abs", x), ("abs", y))
    name = facts.have("hat", f"{_lean_show(atom)} = {_lean_show(other)}",
                      f"abs_mul ({_lean_show(x)}) ({_lean_show(y)})")
    return Bridge(atom, other, name, False)


def _ratio(u: Any, b: Any, variables: list[str] | None) -> Fraction | None:
    """``U / B`` when it is a nonzero rational (sympy's reading of the two terms), else None."""
    try:
        r = sp.cancel(parse_expression(rp.show(u), variables or [], real_division=True)
                      / parse_expression(rp.show(b), variables or [], real_division=True))
    except (ParseError, ValueError, TypeError, ZeroDivisionError):
        return None
    return Fraction(int(r.p), int(r.q)) if r.is_Rational and r != 0 else None


def _negated_abs_bridge(atom: Any, target: Any, facts: Facts) -> Bridge:
    """``|X| = |Y|`` for ``X = −Y`` by ``ring`` (sympy writes ``|-x + 4|`` as ``|x - 4|``):
    ``congrArg abs`` of ``X = -(Y)``, then ``abs_neg Y : |-(Y)| = |Y|`` (Mathlib)."""
    x, y = _lean_show(atom[1]), _lean_show(target[1])
    arg = facts.have("hat", f"{x} = -({y})", "by ring")
    neg = facts.have("hat", f"|{x}| = |-({y})|", f"congrArg abs {arg}")
    flip = facts.have("hat", f"|-({y})| = |{y}|", f"abs_neg ({y})")
    name = facts.have("hat", f"{_lean_show(atom)} = {_lean_show(target)}", f"by linear_combination {neg} + {flip}")
    return Bridge(atom, target, name, False)


def _square_ratio(u: Any, b: Any, variables: list[str] | None) -> Fraction | None:
    """``U / B`` when it is a positive rational (sympy's reading of the two terms), else None."""
    x, y = rp.num_value(u), rp.num_value(b)
    if x is not None and y is not None:
        return Fraction(x) / Fraction(y) if x > 0 and y > 0 else None
    r = _ratio(u, b, variables)
    return r if r is not None and r > 0 else None


def _root_product_bridge(atom: Any, targets: list[Any], facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``√X = k * P₁ (* P₂)`` for the user's root of ``X = k²·T₁(·T₂)`` (``k`` a positive rational)
    where each target ``Pᵢ`` is ``√Tᵢ`` or ``|Yᵢ|`` with ``Tᵢ = Yᵢ²``: sympy writes the user's
    ``√(4 / 27)`` as ``2 * √3 / 9``, ``√(3 * p)`` as ``√3 * √p``, ``√(d ^ 2 * u ^ 2)`` as
    ``|d| * |u|``, and a substitution ``q ↦ q / 3`` turns ``√(3 * p * q)`` into
    ``3 * √(p * (q / 3))``. The fact is :func:`root_product_fact`'s."""
    if not _is_sqrt(atom) or variables is None:
        return None
    factors = [(t, t[2][0] if _is_sqrt(t) else ("pow", t[1], ("num", 2))) for t in targets
               if t != atom and (_is_sqrt(t) or t[0] == "abs")]
    x = atom[2][0]
    for i, (p1, t1) in enumerate(factors):
        for chosen in [[(p1, t1)]] + [[(p1, t1), f2] for f2 in factors[i + 1:]]:
            prod = chosen[0][1] if len(chosen) == 1 else ("mul", chosen[0][1], chosen[1][1])
            ratio = _square_ratio(x, prod, variables)
            k = None if ratio is None else _rational_root(ratio, 2)
            if k is None:
                continue
            text = " * ".join(([] if k == 1 else [_fraction_text(k)]) + [paren(_lean_show(p)) for p, _ in chosen])
            try:
                name = root_product_fact(text, _lean_show(x), variables, facts)
                return Bridge(atom, parse(text, variables), name, True)
            except (RenderError, rp.NotModelled, rp.ModelError, RecursionError):
                continue
    return None


def root_product_fact(text: str, arg: str, variables: list[str], facts: Facts) -> str:
    """The name of a fact ``S = Real.sqrt (a)`` for a term ``S`` that is not a root as written
    but ``c * P₂ * …`` with ``c`` a positive numeral and each ``Pₖ`` a root ``√M`` or an ``|Y|``
    (sympy moves square factors out of a root: ``√(Y²/Z)`` is its ``|Y| * √(1/Z)``), where
    ``a = c² · M · Y²…`` by ``ring``: ``congrArg Real.sqrt``, one ``Real.sqrt_mul`` per factor,
    ``Real.sqrt_sq`` for ``c`` and ``Real.sqrt_sq_eq_abs`` for an ``|Y|``. RenderError otherwise."""
    refuse = RenderError(f"{text[:80]!r} is not a numeral times roots and |·| equal to √({arg[:40]})")
    try:
        found = atoms_of(parse(text, variables))
        # the numeral left when the atoms are divided out (sympy's ``|d / 2|`` is ``|d| / 2``)
        c = sp.cancel(parse_expression(text, variables, real_division=True)
                      / parse_expression(" * ".join(["1"] + [f"({rp.show(t)})" for t in found]), variables,
                                         real_division=True))
    except (ParseError, ValueError, TypeError, ZeroDivisionError, rp.NotModelled, rp.ModelError, RecursionError):
        raise refuse from None
    if not c.is_Rational or c <= 0 or any(not (_is_sqrt(t) or t[0] == "abs") for t in found):
        raise refuse
    ct = f"({lean_expr(c)})"
    parts = [] if c == 1 and found else [(f"{ct} ^ 2", ct, "Real.sqrt_sq (by positivity)")]
    for t in found:
        if t[0] == "abs":
            y = f"({rp.show(t[1])})"
            parts.append((f"{y} ^ 2", f"|{rp.show(t[1])}|", f"Real.sqrt_sq_eq_abs {y}"))
        else:
            parts.append((f"({rp.show(t[2][0])})", f"Real.sqrt ({rp.show(t[2][0])})", None))
    products = [parts[0][0]]
    for f, _, _ in parts[1:]:
        products.append(f"({products[-1]}) * {f}" if len(products) > 1 else f"{products[-1]} * {f}")
    product = " * ".join(pk for _, pk, _ in parts)
    try:
        ok = ring_equal(parse(f"({arg}) - ({products[-1]})", variables), ("num", 0)) and \
            ring_equal(parse(f"({text}) - {product}", variables), ("num", 0))
    except (rp.NotModelled, rp.ModelError, RecursionError):
        ok = False
    if not ok:
        raise refuse
    roots = [f"Real.sqrt ({f})" for f, _, _ in parts]
    h_arg = facts.have("hside", f"({arg}) = {products[-1]}", "by ring")
    terms = [facts.have("hside", f"Real.sqrt ({arg}) = Real.sqrt ({products[-1]})", f"congrArg Real.sqrt {h_arg}")]
    for k in range(len(parts) - 1, 0, -1):       # √L_k = √L_(k−1) * √F_k, times the roots after k
        h = facts.have("hside", f"Real.sqrt ({products[k]}) = Real.sqrt ({products[k - 1]}) * {roots[k]}",
                       f"Real.sqrt_mul (by positivity) ({parts[k][0]})")
        terms.append(" * ".join(roots[k + 1:] + [h]))
    for k, (_, pk, fact) in enumerate(parts):    # √F_k = P_k, between the P's before and the roots after
        if fact is not None:
            h = facts.have("hside", f"{roots[k]} = {pk}", fact)
            terms.append(" * ".join([pj for _, pj, _ in parts[:k]] + roots[k + 1:] + [h]))
    return facts.have("hside", f"{text} = Real.sqrt ({arg})",
                      "by linear_combination " + " ".join(f"- {t}" for t in terms))


def _numeral_square_bridge(atom: Any, facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``√c = k`` for a numeral ``c = k²`` (``√1`` in a lemma instantiated at ``t = 1``), by
    :func:`root_product_fact`."""
    v = rp.num_value(atom[2][0]) if _is_sqrt(atom) else None
    root = None if v is None else _rational_root(Fraction(v), 2)
    if root is None:
        return None
    k = _fraction_text(root)
    try:
        name = root_product_fact(k, _lean_show(atom[2][0]), variables or [], facts)
        return Bridge(atom, parse(k, variables or []), name, True)
    except (RenderError, rp.NotModelled, rp.ModelError, RecursionError):
        return None


def _closed_value(t: Any) -> Fraction | None:
    """The rational value of a closed term whose roots are of rational squares (``16 - 4 * √4 + 1``
    is 9): each such root written as its numeral, then ``norm_num``'s arithmetic (``rp.num_value``);
    None otherwise."""
    def numerals(x: Any) -> Any:
        if _is_sqrt(x):
            v = _closed_value(x[2][0])
            k = None if v is None else _rational_root(v, 2)
            return x if k is None else ("div", ("num", k.numerator), ("num", k.denominator))
        if x[0] in ("add", "sub", "mul", "div"):
            return (x[0], numerals(x[1]), numerals(x[2]))
        if x[0] in ("neg", "inv"):
            return (x[0], numerals(x[1]))
        return ("pow", numerals(x[1]), x[2]) if x[0] == "pow" else x

    v = rp.num_value(numerals(t))
    return None if v is None else Fraction(v)


def _nested_numeral_root_bridge(atom: Any, facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``√A = k`` for a closed radicand ``A`` holding roots of its own whose value is ``k²``
    (``√(16 - 4 * √4 + 1) = 3``, from a function applied twice): the inner roots are bridged
    first, ``A = k ^ 2`` by ``linear_combination`` of those facts, then ``congrArg Real.sqrt`` and
    ``Real.sqrt_sq``."""
    if not _is_sqrt(atom):
        return None
    arg = atom[2][0]
    value = _closed_value(arg)
    k = None if value is None else _rational_root(value, 2)
    inner = atoms_of(arg)
    if k is None or not inner or not all(_is_sqrt(a) for a in inner):
        return None
    bridges = [_bridge(a, [], facts, variables) for a in inner]
    if any(b is None for b in bridges):
        return None
    square = f"({_fraction_text(k)}) ^ 2"
    eqs = _coefficients(arg, parse(square, variables or []), bridges, AtomTable(variables or []))
    if eqs is None:
        return None
    terms = " + ".join(f"({f.coeff}) * {f.proof}" for f in eqs if f.coeff not in ("0", "(0)"))
    a_text = _lean_show(arg)
    h_arg = facts.have("hside", f"{a_text} = {square}", f"by linear_combination {terms}" if terms else "by ring")
    h_root = facts.have("hside", f"Real.sqrt ({a_text}) = Real.sqrt ({square})", f"congrArg Real.sqrt {h_arg}")
    h_sq = facts.have("hside", f"Real.sqrt ({square}) = {_fraction_text(k)}", "Real.sqrt_sq (by positivity)")
    name = facts.have("hside", f"{_lean_show(atom)} = {_fraction_text(k)}", f"by linear_combination {h_root} + {h_sq}")
    return Bridge(atom, parse(_fraction_text(k), variables or []), name, False)


def _constant_abs_bridge(atom: Any, facts: Facts) -> Bridge | None:
    """``|c| = c`` or ``|c| = -(c)`` for a closed rational expression ``c`` (``abs (120 / 100 * 30 -
    130 / 100 * 20)``, which ``ring`` leaves an atom): ``abs_of_nonneg``/``abs_of_neg`` with the sign
    of ``c`` by ``linarith`` (a comparison of numerals)."""
    inner = atom[1] if atom[0] == "abs" else None       # the model reads ``abs c`` as ``|c|``
    v = None if inner is None else rp.num_value(inner)
    if v is None:
        return None
    arg = _lean_show(inner)
    other = inner if v >= 0 else ("neg", inner)
    value = f"({arg})" if v >= 0 else f"-({arg})"
    lemma = "abs_of_nonneg" if v >= 0 else "abs_of_neg"
    name = facts.have("hca", f"{_lean_show(atom)} = {value}", f"{lemma} (by linarith)")
    return Bridge(atom, other, name, False)


def _bridge(atom: Any, targets: list[Any], facts: Facts, variables: list[str] | None = None) -> Bridge | None:
    """An exact fact turning the user's ``atom`` into atoms among ``targets`` (or None)."""
    same = _argument_bridge(atom, targets, facts, variables)
    if same is not None:
        return same
    scaled = _scaled_abs_bridge(atom, targets, facts, variables) or _product_abs_bridge(atom, targets, facts) \
        or _max_min_bridge(atom, facts, variables) or _logb_bridge(atom, facts)
    if scaled is not None:
        return scaled
    numeral = _numeral_square_bridge(atom, facts, variables) or _constant_abs_bridge(atom, facts) \
        or _nested_numeral_root_bridge(atom, facts, variables)
    if numeral is not None:
        return numeral
    square = _is_sqrt(atom) and atom[2][0][0] == "pow" and atom[2][0][2] == ("num", 2)
    if not square or ("abs", atom[2][0][1]) not in targets:
        same = _root_product_bridge(atom, targets, facts, variables)
        if same is not None:
            return same
    if square:
        x = atom[2][0][1]
        other = ("abs", x)
        name = facts.have("hab", f"{rp.show(atom)} = {rp.show(other)}",
                          f"Real.sqrt_sq_eq_abs {paren(rp.show(x))}")
        return Bridge(atom, other, name, False)
    r = _rpow_exponent(atom)
    if r is None or r <= 0:
        return None
    for t in targets:
        s = _rpow_exponent(t)
        if s is None or s <= 0 or t[1] != atom[1] or (r / s).denominator != 1 or r / s < 2:
            continue
        m = int(r / s)
        name = power_chain(paren(rp.show(atom[1])), s, m, facts)
        return Bridge(atom, ("pow", t, ("num", m)), name, True)
    return root_power_bridge(atom, targets, facts, variables) or _rpow_product_bridge(atom, facts)


def _rpow_product_bridge(atom: Any, facts: Facts) -> Bridge | None:
    """``(X * Y) ^ r = X ^ r * Y ^ r`` (Mathlib's ``Real.mul_rpow``, ``0 ≤ X`` and ``0 ≤ Y`` by
    ``positivity``/``linarith``) for a real power of a product whose instance atoms are powers of
    the factors (sympy writes the user's ``(p ^ 2 * q ^ 2) ^ (1 / 3)`` as ``|p| ^ (2/3) * |q| ^ (2/3)``);
    the two new atoms are bridged in turn."""
    if _rpow_exponent(atom) is None or atom[1][0] != "mul":
        return None
    x, y = atom[1][1], atom[1][2]
    other = ("mul", ("pow", x, atom[2]), ("pow", y, atom[2]))
    name = facts.have("hat", f"{_lean_show(atom)} = {_lean_show(other)}", f"Real.mul_rpow {POS_OR_LIN} {POS_OR_LIN}")
    return Bridge(atom, other, name, False)


# ------------------------------------------------------------------ real powers sympy rewrote
#
# sympy rewrites a real power when it reads one: the user's ``((a ^ 2) ^ 2) ^ (1 / 3)`` is its
# ``|a| ^ (4/3)``, ``16 ^ (1 / 3)`` its ``2 * 2 ^ (1/3)``, ``(4 / 3) ^ (1 / 3)`` its
# ``6 ^ (2/3) / 3``, ``((y + 1) ^ 2) ^ (3 / 4)`` its ``|y + 1| ^ (3/2)``. A proof step's
# instance is printed in sympy's atoms and the statement in the user's, and ``ring`` compares atoms
# as written. For a user atom ``A = W ^ (p/q)`` whose sympy value ``C`` is a product of the
# instance's atoms (:func:`value_in_atoms`), :func:`root_power_bridge` states ``A = C``, proved by
#
# * the facts ``A ^ q = W ^ p`` and, for each real power ``T = B ^ (p'/q')`` of ``C``,
#   ``T ^ q' = B ^ p'`` (chains of ``Real.rpow_of_add_eq`` and ``Real.rpow_one``), ``|X| ^ 2 = X ^ 2``
#   (``sq_abs``) for each ``|X|`` and ``Real.sqrt X ^ 2 = X`` (``Real.sq_sqrt``) for each root;
# * ``Aᵠ − Cᵠ = Σ gᵢ·(lhsᵢ − rhsᵢ)``, the ``gᵢ`` by division: each fact's leading monomial (lex,
#   the outer atoms first) is a power of its own atom, so the facts are a Gröbner basis (Buchberger's
#   first criterion) and the remainder is zero exactly when the identity holds;
# * ``D = Σ Aⁱ·C^(q−1−i) ≠ 0`` (``positivity``: ``A`` or ``C`` positive) and ``D * D⁻¹ = 1``
#   (``mul_inv_cancel₀``): ``A − C = D⁻¹·Σ gᵢ·(lhsᵢ − rhsᵢ) − (A − C)·(D·D⁻¹ − 1)`` is an identity.
#
# Nothing here is trusted: the facts are lemma instances and ``linear_combination`` lines that
# ``ring`` (Lean, or the replay model) checks.

#: The largest root index bridged (``D`` has ``q`` terms of degree ``q − 1``).
MAX_INDEX = 8


def rpow_power_fact(base: str, r: Fraction, facts: Facts) -> str:
    """The name of ``(base ^ (p/q : ℝ)) ^ q = base ^ p`` (``p ≥ 1``; ``base`` for ``p = 1``):
    :func:`power_chain` to ``base ^ (p : ℝ)``, then for ``p ≥ 2`` the chain of ``base ^ (1 : ℝ)`` to
    the same power and ``Real.rpow_one``: ``Eᵖ − baseᵖ = (E − base)·Σ Eⁱ·base^(p−1−i)``."""
    p, q = r.numerator, r.denominator
    chain = power_chain(base, r, q, facts)
    one = facts.have("hrp", f"{base} ^ (1 : ℝ) = {base}", f"Real.rpow_one {base}")
    if p == 1:
        return facts.have("hrp", f"({base} ^ {exponent_text(r)}) ^ {q} = {base}",
                          f"by linear_combination {chain} + {one}")
    whole = power_chain(base, Fraction(1), p, facts)
    e = f"({base} ^ (1 : ℝ))"
    spread = geometric_sum(e, base, p)
    return facts.have("hrp", f"({base} ^ {exponent_text(r)}) ^ {q} = {base} ^ {p}",
                      f"by linear_combination {chain} - {whole} + ({spread}) * {one}")


def _value(t: Any, variables: list[str]) -> sp.Expr | None:
    """sympy's reading of the term ``t`` (its normal form: roots of numerals split, ``|x|`` pulled out)."""
    try:
        return parse_expression(rp.show(t), variables, real_division=True)
    except (ParseError, ValueError, TypeError, ZeroDivisionError):
        return None


def value_in_atoms(atom: Any, targets: list[Any], variables: list[str]) -> str | None:
    """sympy's value of ``atom`` written with the real powers among ``targets``: each factor
    ``b ^ e`` of the value (``e`` not an integer) as ``T ^ n`` for a target ``T`` of value
    ``b ^ (e/n)``; integer powers as we print them. None where a factor has no such target."""
    s = _value(atom, variables)
    if s is None:
        return None
    known = [(t, _value(t, variables)) for t in targets if t != atom and _rpow_exponent(t) is not None]
    coeff, factors = s.as_coeff_mul()
    parts = [] if coeff == 1 else [paren(lean_expr(coeff))]
    for f in factors:
        base, e = f.as_base_exp()
        if e.is_Integer and not any(n.is_Pow and not n.exp.is_Integer for n in sp.preorder_traversal(base)):
            parts.append(paren(lean_expr(f)))
            continue
        match = None
        for t, v in known:
            if v is None:
                continue
            vb, ve = v.as_base_exp()
            n = e / ve if ve != 0 else None
            if n is not None and n.is_Integer and n > 0 and sp.expand(vb - base) == 0:
                match = power_text(paren(rp.show(t)), int(n))
                break
        if match is None:
            return None
        parts.append(match)
    return " * ".join(parts) if parts else "1"


def _atom_facts(atoms: list[Any], facts: Facts, table: AtomTable) -> list[tuple[str, sp.Expr]] | None:
    """``(name, lhs − rhs)`` of the defining fact of each atom (and of the atoms inside it), the
    outer atoms first; None for an atom of another kind."""
    out: list[tuple[str, sp.Expr]] = []
    seen: list[Any] = []
    todo = list(atoms)
    while todo:
        a = todo.pop(0)
        if a in seen:
            continue
        seen.append(a)
        r = _rpow_exponent(a)
        if r is not None and r > 0 and r.denominator > 1 and r.denominator <= MAX_INDEX and r.numerator <= 2 * MAX_INDEX:
            name = rpow_power_fact(paren(rp.show(a[1])), r, facts)
            out.append((name, table.expr(a) ** r.denominator - table.expr(a[1]) ** r.numerator))
            todo += atoms_of(a[1])
        elif a[0] == "abs":
            x = paren(rp.show(a[1]))
            out.append((facts.have("hab", f"|{rp.show(a[1])}| ^ 2 = {x} ^ 2", f"sq_abs {x}"),
                        table.expr(a) ** 2 - table.expr(a[1]) ** 2))
            todo += atoms_of(a[1])
        elif _is_sqrt(a):
            x = rp.show(a[2][0])
            out.append((facts.have("hsq", f"Real.sqrt ({x}) ^ 2 = {x}", f"Real.sq_sqrt {POS_OR_LIN}"),
                        table.expr(a) ** 2 - table.expr(a[2][0])))
            todo += atoms_of(a[2][0])
        else:
            return None
    return out


def root_power_bridge(atom: Any, targets: list[Any], facts: Facts, variables: list[str] | None) -> Bridge | None:
    """``A = C`` for the user's real power ``A`` and ``C`` its sympy value in the instance's atoms
    (module docstring), or None where ``C`` has no such form or the division leaves a remainder."""
    r = _rpow_exponent(atom)
    if r is None or r <= 0 or r.denominator == 1 or r.denominator > MAX_INDEX or variables is None:
        return None
    text = value_in_atoms(atom, targets, variables)
    if text is None:
        return None
    try:
        c = parse(text, variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    trial = Facts(facts.ctx, [], dict(facts.names))
    table = AtomTable(variables)
    found = _atom_facts([atom] + atoms_of(c), trial, table)
    if found is None:
        return None
    q = r.denominator
    a_sym, c_expr = table.symbol(atom), table.expr(c)
    gens = list(table.symbols.values()) + [sp.Symbol(v, real=True) for v in variables]
    try:
        quotients, rest = sp.reduced(sp.expand(a_sym ** q - c_expr ** q), [f for _, f in found], *gens, order="lex")
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError, TypeError):
        return None
    if sp.expand(rest) != 0:
        return None
    a_text, c_text = paren(rp.show(atom)), f"({text})"
    d = geometric_sum(a_text, c_text, q)
    hne = trial.have("hne", f"{d} ≠ 0", "by positivity")
    hinv = trial.have("hinv", f"({d}) * ({d})⁻¹ = 1", f"mul_inv_cancel₀ {hne}")
    terms = [f"({d})⁻¹ * ({table.text(g)}) * {name}" for (name, _), g in zip(found, quotients) if g != 0]
    name = trial.have("hat", f"{_lean_show(atom)} = {text}",
                      f"by linear_combination {' + '.join(terms)} - ({a_text} - {c_text}) * {hinv}")
    facts.lines.extend(trial.lines)
    facts.names.update(trial.names)
    return Bridge(atom, c, name, False)


def ring_closes(lean_slack: str, our_slack: str, bridges: list[EqFact], variables: list[str]) -> bool:
    """Whether ``ring`` proves ``lean − ours − Σ c·(lhs − rhs) = 0`` for :func:`bridge_facts`'
    bridges (its check is sympy's, over rational functions, where ``(p⁻¹)⁻¹ = p`` and
    ``s · s⁻¹ = 1``; ``ring``'s is not)."""
    text = f"({lean_slack}) - ({our_slack})" + "".join(
        f" - ({f.coeff}) * (({f.lhs}) - ({f.rhs}))" for f in bridges)
    try:
        return ring_equal(parse(text, variables), ("num", 0))
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return False


def carried_terms(bridges: list[EqFact], op: str) -> str:
    """``linear_combination`` terms that carry a relation ``L op R`` over to ``L' op R'`` when
    :func:`bridge_facts` gave ``(L − R) − (L' − R') = Σ c·(lhs − rhs)``: ``- c * h`` each for
    ``<``, ``≤``, ``=`` (Lean compares ``a < b`` as ``a − b``), ``+ c * h`` for ``>``, ``≥`` (``a > b``
    is ``b < a``)."""
    sign = "-" if op in ("<", "<=", "=") else "+"
    return " ".join(f"{sign} ({f.coeff}) * {f.proof}" for f in bridges)


def bridge_facts(goal_text: str, inst_text: str, variables: list[str], facts: Facts) -> list[EqFact] | None:
    """Facts with coefficients such that ``goal_text − inst_text − Σ c·(lhs − rhs)`` is an identity
    of ``ring`` over the instance's atoms: ``[]`` when the atoms already agree, None when a user
    atom has no bridge or the two slacks differ after bridging."""
    gap = _atom_gap(goal_text, inst_text, variables)
    if gap is None:
        return None
    g, i, targets, missing = gap
    if not missing:
        return []
    bridges: list[Bridge] = []
    seen = set(missing)
    users = set(missing)
    while missing and len(bridges) < 64:
        a = missing.pop(0)
        b = _bridge(a, targets, facts, variables)
        if b is None and a in users:
            return None
        if b is None:       # a bridge's own atom may cancel (max + min: the two |x − y|); ring decides
            continue
        bridges.append(b)
        # a bridge's own new atoms (``Real.logb 25 625`` gives ``Real.log 625``) are bridged in turn
        fresh = [t for t in atoms_of(b.other) if t not in targets and t not in seen]
        seen.update(fresh)
        missing += fresh
    return _coefficients(g, i, bridges, AtomTable(variables))


def _atom_gap(goal_text: str, inst_text: str, variables: list[str]) -> tuple[Any, Any, list[Any], list[Any]] | None:
    """Both texts as model terms, the instance's atoms, and the goal's atoms missing from them;
    None when a text is outside the model."""
    try:
        g, i = parse(goal_text, variables), parse(inst_text, variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    targets = atoms_of(i)
    return g, i, targets, [a for a in atoms_of(g) if a not in targets]


def congruence_chain(goal_text: str, inst_text: str, variables: list[str], facts: Facts) -> str | None:
    """A combination proving ``goal_text = inst_text`` when the two differ only in how atoms are
    written (the goal's ``√(y ^ 2 + 8 * (z + 1) * x)`` against the instance's
    ``√(8 * x * (z + 1) + y ^ 2)``), or None. Each goal atom missing from the instance is bridged
    (:func:`_bridge`: ``atom = other``, ``other`` a subterm of the instance) and the instance
    rewritten by ``congrArg (fun t => I[t]) h : I[atom] = I[other]``, one atom at a time, until it
    is the goal's text up to ``ring``. Where :func:`bridge_facts` hands the bridges to one field
    identity, whose inverse atoms (``(1 + x / √a + …)⁻¹`` against ``(x / √b + … + 1)⁻¹``) multiply
    out (coefficients of 0.4 M characters, families imo2001_radical), every fact here is the size
    of the instance."""
    gap = _atom_gap(goal_text, inst_text, variables)
    if gap is None or not gap[3]:
        return None
    _, cur, targets, missing = gap
    hole = ("fv", _fresh_binder(goal_text + inst_text) + "#congruence")
    steps: list[tuple[str, str, str, str]] = []
    for atom in missing:
        b = _bridge(atom, targets, facts, variables)
        if b is None or not _occurs(b.other, cur):
            return None
        body, nxt = _replaced(cur, b.other, hole), _replaced(cur, b.other, b.atom)
        # ``b.name : atom = other`` gives ``I[atom] = I[other]``; flipped, the other way round
        left, right = (_lean_show(cur), _lean_show(nxt)) if b.flipped else (_lean_show(nxt), _lean_show(cur))
        name = facts.have("hcong", f"{left} = {right}",
                          f"congrArg (fun {rp.show(hole)} => {_lean_show(body)}) {b.name}")
        steps.append(("-1" if b.flipped else "1", name, left, right))
        cur = nxt
    if not reproduces(goal_text, inst_text, [(c, left, right) for c, _, left, right in steps], variables):
        return None
    return " + ".join(f"({c}) * {name}" for c, name, _, _ in steps)


def _occurs(part: Any, t: Any) -> bool:
    return t == part or (isinstance(t, tuple) and any(_occurs(part, x) for x in t))


def _replaced(t: Any, part: Any, by: Any) -> Any:
    """``t`` with every occurrence of the subterm ``part`` replaced by ``by``."""
    if t == part:
        return by
    if isinstance(t, tuple):
        return tuple(_replaced(x, part, by) for x in t)
    return t


def _fresh_binder(text: str) -> str:
    """A binder name that occurs nowhere in ``text`` (so it captures none of its names)."""
    k = 0
    while re.search(rf"\bt{k}\b", text):
        k += 1
    return f"t{k}"


def root_square_facts(goal_text: str, inst_text: str, variables: list[str], facts: Facts) -> list[EqFact] | None:
    """Facts ``Real.sqrt X ^ 2 = X`` with coefficients such that ``goal − inst − Σ c·(√X ^ 2 − X)``
    is an identity of rational functions over the atoms: a denominator the user wrote with a root
    that sympy rationalised (the statement's ``π / Real.sqrt 2`` against our ``π * Real.sqrt 2 / 2``).
    ``[]`` when the two texts already agree as rational functions; None when these facts do not close
    the gap. The coefficient of each root is the quotient of the numerator by ``s ² − X`` in ``s``."""
    try:
        g, i = parse(goal_text, variables), parse(inst_text, variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    table = AtomTable(variables)
    num, den = sp.fraction(sp.together(table.expr(g) - table.expr(i)))
    num = sp.expand(num)
    out: list[EqFact] = []
    roots = [a for a in atoms_of(g) + atoms_of(i) if _is_sqrt(a)]
    for atom in dict.fromkeys(roots):
        if num == 0:
            break
        s, arg = table.symbol(atom), table.expr(atom[2][0])
        if s in arg.free_symbols or not num.has(s):
            continue
        q, r = sp.div(num, s ** 2 - arg, s)
        if q == 0:
            continue
        name = facts.have("hsq", f"{rp.show(atom)} ^ 2 = {rp.show(atom[2][0])}", f"Real.sq_sqrt {POS_OR_LIN}")
        out.append(EqFact(table.text(sp.cancel(q / den)), name, f"{rp.show(atom)} ^ 2", rp.show(atom[2][0])))
        num = sp.expand(r)
    return out if num == 0 else None


_EXP, _LOG, _LOGB = ("const", "Real.exp"), ("const", "Real.log"), ("const", "Real.logb")
#: Numerals whose logarithm is split into primes for the renderer (the kernel's bound is larger;
#: a larger one is left to ``ring`` as an atom, where the identity then fails: no file, no claim).
MAX_LOG_NUMERAL = 10**6


def _logb_args(t: Any) -> tuple[Any, Any] | None:
    """``(B, X)`` of ``t = Real.logb B X``, else None."""
    ok = isinstance(t, tuple) and t and t[0] == "app" and t[1] == _LOGB and len(t[2]) == 2
    return (t[2][0], t[2][1]) if ok else None


def _applied(t: Any, f: Any) -> Any | None:
    """The argument of ``t = f X`` (one argument), else None."""
    return t[2][0] if isinstance(t, tuple) and t and t[0] == "app" and t[1] == f and len(t[2]) == 1 else None


def _numeral_multiple(a: Any) -> tuple[int, Any] | None:
    """``(n, B)`` for ``a = n * B`` with a numeral ``2 <= n <= 12``."""
    if a[0] == "mul" and a[1][0] == "num":
        try:
            n = int(a[1][1])
        except ValueError:
            return None
        if 2 <= n <= 12:
            return n, a[2]
    return None


def _exp_law(atom: Any, facts: Facts) -> tuple[Any, str] | None:
    """``(other, proof)`` with ``atom = other`` by a law true for every real argument:
    ``Real.exp (l + r) = Real.exp l * Real.exp r`` (``Real.exp_add``), ``Real.exp (l - r) =
    Real.exp l / Real.exp r`` (``Real.exp_sub``), ``Real.exp (-r) = (Real.exp r)⁻¹``
    (``Real.exp_neg``), ``Real.log (Real.exp r) = r`` (``Real.log_exp``)."""
    a = _applied(atom, _EXP)
    if a is not None:
        if a[0] in ("add", "sub"):
            l, r = ("app", _EXP, (a[1],)), ("app", _EXP, (a[2],))
            lemma = "Real.exp_add" if a[0] == "add" else "Real.exp_sub"
            return ("mul" if a[0] == "add" else "div", l, r), f"{lemma} {paren(rp.show(a[1]))} {paren(rp.show(a[2]))}"
        if a[0] == "neg":
            return ("inv", ("app", _EXP, (a[1],))), f"Real.exp_neg {paren(rp.show(a[1]))}"
        multiple = _numeral_multiple(a)
        if multiple is not None:   # exp (n * B) = exp (B + (n - 1) * B), then Real.exp_add
            n, b = multiple
            rest = b if n == 2 else ("mul", ("num", str(n - 1)), b)
            split = ("add", b, rest)
            hat = facts.have("hat", f"{_lean_show(a)} = {_lean_show(split)}", "by ring")
            return ("app", _EXP, (split,)), f"congrArg Real.exp {hat}"
        return None
    logb = _logb_args(atom)
    if logb is not None:
        base, x = logb      # `Real.logb b x := Real.log x / Real.log b` (`Real.log_div_log` is `rfl`)
        return ("div", ("app", _LOG, (x,)), ("app", _LOG, (base,))), "Real.log_div_log.symm"
    a = _applied(atom, _LOG)
    if a is None:
        return None
    inner = _applied(a, _EXP)
    if inner is not None:
        return inner, f"Real.log_exp {paren(rp.show(inner))}"
    return _log_law(a, facts)


def _log_law(a: Any, facts: Facts) -> tuple[Any, str] | None:
    """``Real.log a = other`` by the laws the kernel's normal form uses: ``log (-X) = log X``
    (``Real.log_neg_eq_log``), ``log X⁻¹ = -log X`` (``Real.log_inv``; ``1 / X`` is first written ``X⁻¹``
    by ``ring``), ``log (X ^ n) = n * log X`` (``Real.log_pow``; ``ring`` reads the cast
    ``↑n``), and a numeral into primes: ``log (A / B) = log A − log B``, ``log (A * B) = log A +
    log B`` (``Real.log_div``, ``Real.log_mul``, both sides nonzero numerals), ``q = p ^ e * m``."""
    if a[0] == "neg":
        return ("app", _LOG, (a[1],)), f"Real.log_neg_eq_log {paren(rp.show(a[1]))}"
    if a[0] == "inv":
        return ("neg", ("app", _LOG, (a[1],))), f"Real.log_inv {paren(rp.show(a[1]))}"
    if a[0] == "div" and a[1] == ("num", 1) and rp.num_value(a[2]) is None:
        inverse = ("inv", a[2])      # `log (1 / X)`: `1 / X = X⁻¹` by `ring`, then `Real.log_inv`
        hat = facts.have("hat", f"{_lean_show(a)} = {_lean_show(inverse)}", "by ring")
        return ("app", _LOG, (inverse,)), f"congrArg Real.log {hat}"
    if a[0] == "pow" and a[2][0] == "num" and int(a[2][1]) >= 2:
        n = int(a[2][1])
        return (("mul", ("num", n), ("app", _LOG, (a[1],))),
                f"by linear_combination Real.log_pow {paren(rp.show(a[1]))} {n}")
    value = rp.num_value(a) if a[0] in ("num", "div", "mul") else None
    if a[0] == "num" and a[1] in (0, 1):
        return ("num", 0), "Real.log_zero" if a[1] == 0 else "Real.log_one"
    if value is None or value <= 0:
        return None
    if a[0] in ("div", "mul") and all(rp.num_value(t) not in (None, 0) for t in a[1:3]):
        lemma = "Real.log_div" if a[0] == "div" else "Real.log_mul"
        other = ("sub" if a[0] == "div" else "add", ("app", _LOG, (a[1],)), ("app", _LOG, (a[2],)))
        return other, f"{lemma} (by positivity) (by positivity)"
    if a[0] != "num" or value.denominator != 1 or not 1 < value <= MAX_LOG_NUMERAL:
        return None
    primes = sp.factorint(int(value))
    if len(primes) == 1 and next(iter(primes.values())) == 1:
        return None      # a prime: an atom of its own
    p, e = min(primes.items())
    m = int(value) // p**e
    power = ("pow", ("num", int(p)), ("num", int(e))) if e > 1 else ("num", int(p))
    split = power if m == 1 else ("mul", power, ("num", m))
    hat = facts.have("hat", f"({int(value)} : ℝ) = {_lean_show(split)}", "by ring")
    return ("app", _LOG, (split,)), f"congrArg Real.log {hat}"


def exp_log_bridges(goal_text: str, inst_text: str, variables: list[str], facts: Facts) -> list[EqFact] | None:
    """:func:`bridge_facts` for ``exp``/``log`` atoms the kernel's normal form splits (sums in
    ``exp``, ``log ∘ exp``): every such atom of either text is rewritten by :func:`_exp_law`, the
    new atoms again, until none is left; None when there is none or the slacks still differ."""
    try:
        g, i = parse(goal_text, variables), parse(inst_text, variables)
    except (rp.NotModelled, rp.ModelError, RecursionError):
        return None
    todo, bridges, seen = atoms_of(g) + atoms_of(i), [], set()
    while todo and len(bridges) < 64:
        atom = todo.pop(0)
        law = None if atom in seen else _exp_law(atom, facts)
        seen.add(atom)
        if law is None:
            continue
        other, proof = law
        name = facts.have("hexp", f"{_lean_show(atom)} = {_lean_show(other)}", proof)
        bridges.append(Bridge(atom, other, name, False))
        todo += atoms_of(other)
    if not bridges:
        return None
    return _coefficients(("sub", g, i), ("num", "0"), bridges, AtomTable(variables))


def _coefficients(g: Any, i: Any, bridges: list[Bridge], table: AtomTable) -> list[EqFact] | None:
    """``c_k = (G_{k−1} − G_k) / (u_k − o_k)`` with ``G_k`` the goal's slack after the first ``k``
    atoms ``u`` are replaced by ``o``; the telescoping sum is ``G − G_n``, and ``G_n`` must be the
    instance's slack."""
    cur, inst = table.expr(g), table.expr(i)
    out = []
    for b in bridges:
        u, o = table.symbol(b.atom), table.expr(b.other)
        nxt = cur.subs(u, o)
        c = sp.cancel(sp.together((cur - nxt) / (u - o)))
        cur = nxt
        lhs, rhs = (rp.show(b.other), rp.show(b.atom)) if b.flipped else (rp.show(b.atom), rp.show(b.other))
        out.append(EqFact(table.text(-c if b.flipped else c), b.name, lhs, rhs))
    if sp.cancel(sp.together(cur - inst)) != 0:
        return None
    return out


#: Text that marks a term ``ring`` sees as an atom (a root, ``|·|``, a real power).
_ATOM_MARKS = ("sqrt", "√", "|", "abs", ": ℝ)")
#: The marks of a root or an ``|·|`` alone: where a user's text may write one otherwise than sympy.
ROOT_OR_ABS_MARKS = ("|", "abs", "√", "sqrt")


def has_root_or_abs(text: str) -> bool:
    """Whether ``text`` may hold a root or an ``|·|`` (:data:`ROOT_OR_ABS_MARKS`)."""
    return any(m in text for m in ROOT_OR_ABS_MARKS)


def bridged_equality(lhs: str, rhs: str, variables: list[str], ctx: RenderContext,
                     facts: list[EqFact] | tuple[EqFact, ...] = (), positive: PositiveFact | None = None,
                     cache: FactCache | None = None) -> tuple[list[str], str]:
    """:func:`prove_equality` of ``lhs = rhs`` where the two texts may write an atom differently
    (the statement's ``Real.sqrt ((a ^ 2 + b ^ 2) / 2)`` against our ``Real.sqrt (a ^ 2 / 2 + b ^ 2 / 2)``):
    the atoms of one side missing from the other are bridged first (:func:`bridge_facts`, either
    way round), their facts stated in the returned lines. Without such atoms, or when no bridge
    closes the gap, it is :func:`prove_equality` itself."""
    found = None
    if any(m in lhs or m in rhs for m in _ATOM_MARKS):
        for sign, (a, b) in ((1, (lhs, rhs)), (-1, (rhs, lhs))):
            trial = Facts(ctx)
            bridges = bridge_facts(a, b, variables, trial)
            if bridges:
                found = trial.lines, [EqFact(f.coeff if sign > 0 else f"-({f.coeff})", f.proof, f.lhs, f.rhs)
                                      for f in bridges]
                break
    if found is None and any(f in text for f in ("exp", "log") for text in (lhs, rhs)):
        trial = Facts(ctx)
        bridges = exp_log_bridges(lhs, rhs, variables, trial)
        if bridges:
            found = trial.lines, bridges
    if found is None:
        return prove_equality(lhs, rhs, variables, ctx, facts, positive=positive, cache=cache)
    lines, comb = prove_equality(lhs, rhs, variables, ctx, [*facts, *found[1]], positive=positive, cache=cache)
    return found[0] + lines, comb
