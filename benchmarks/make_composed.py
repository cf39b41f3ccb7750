"""Generate ``benchmarks/composed.jsonl``: our own family suite of composed textbook inequalities.

Run from the repository root (deterministic; rewrites the file only when every check passes)::

    .venv/bin/python benchmarks/make_composed.py            # checks, then writes the file
    .venv/bin/python benchmarks/make_composed.py --points 500 --out /tmp/c.jsonl

Every line is a Lean 4 / Mathlib statement in the format of ``textbook.jsonl`` plus the fields
``family`` (the seed's name), ``kind`` (``seed``, ``type1`` or ``type2``), ``transform`` (how the
line was made from its seed) and ``seeds`` (the seeds it uses: one, or two for ``type2``).

* **seed**: a textbook inequality with its usual hypotheses (AM-GM, Cauchy / Titu, Schur,
  Nesbitt, constrained forms, weighted AM-GM with real exponents, square roots).
* **type1**: one seed applied to transformed or duplicated variables: ``x ↦ x ^ 2``,
  ``x ↦ 1 / x`` (on the positive variables, kept positive), ``x ↦ x + w`` (a fresh variable),
  ``x ↦ 2 * x``, two independent copies multiplied (only when the smaller side is nonnegative
  under the hypotheses) or added.
* **type2**: two different seeds composed: product or sum of the two inequalities, or one
  seed's expression put into another where monotonicity keeps it true (the note says why).

Checks (the script fails loudly, writing nothing): every statement is read by the project's
front-end through :func:`prover.benchmark_problem.load_problem` (the path ``prover eval`` uses)
and reads the same with and without the benchmark convention that ``/`` is real division (so
no line depends on it), the written file loads through :func:`prover.eval.tasks.load_tasks`,
ids are unique, and each statement is **sampled** true: at ``--points`` (default 200) random
feasible rational points the independent Lean-semantics evaluator
(:mod:`prover.semantics.lean_ast`, rigorous rational enclosures) finds every hypothesis true and
decides the goal true. Equality constraints are met exactly by solving them for one variable.
Sampling is evidence, not a proof: nothing beyond "true at the sampled points" is claimed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "benchmarks" / "composed.jsonl"
MAX = 1024  # level of an atom (numeral, variable)

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class E:
    """A real expression: ``num`` (int), ``var`` (name), ``add sub mul div``, ``pow`` (ℕ
    exponent in ``value``), ``rpow`` (a real exponent, a Fraction in ``value``), ``sqrt``."""

    kind: str
    args: tuple[E, ...] = ()
    value: object = None

    def __add__(self, o: E | int) -> E:
        return E("add", (self, lift(o)))

    def __radd__(self, o: int) -> E:
        return E("add", (lift(o), self))

    def __sub__(self, o: E | int) -> E:
        return E("sub", (self, lift(o)))

    def __rsub__(self, o: int) -> E:
        return E("sub", (lift(o), self))

    def __mul__(self, o: E | int) -> E:
        return E("mul", (self, lift(o)))

    def __rmul__(self, o: int) -> E:
        return E("mul", (lift(o), self))

    def __truediv__(self, o: E | int) -> E:
        return E("div", (self, lift(o)))

    def __rtruediv__(self, o: int) -> E:
        return E("div", (lift(o), self))

    def __pow__(self, n: int) -> E:
        assert isinstance(n, int) and n >= 0
        return E("pow", (self,), n)


def lift(x: E | int) -> E:
    return x if isinstance(x, E) else E("num", (), int(x))


def V(name: str) -> E:
    return E("var", (), name)


def Q(p: int, q: int) -> E:
    """The Lean text ``p / q`` (a real quotient: the other operand is real)."""
    return E("div", (lift(p), lift(q)))


def sqrt(e: E) -> E:
    return E("sqrt", (e,))


def rpow(e: E, p: int, q: int) -> E:
    return E("rpow", (e,), Fraction(p, q))


_LEVEL = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "rpow": 75, "sqrt": MAX - 1}
_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def level(e: E) -> int:
    return _LEVEL.get(e.kind, MAX)


def wrap(e: E, need: int) -> str:
    s = show(e)
    return s if level(e) >= need else f"({s})"


def show(e: E) -> str:
    """Lean 4 text with the parentheses Lean's precedences need (``+ -`` 65, ``* /`` 70, both
    left-associative; ``^`` 75; a power's base is always an atom or parenthesized)."""
    k, a = e.kind, e.args
    if k in ("num", "var"):
        return str(e.value)
    if k in _SYM:
        lv = _LEVEL[k]
        return f"{wrap(a[0], lv)} {_SYM[k]} {wrap(a[1], lv + 1)}"
    if k == "pow":
        return f"{wrap(a[0], MAX)} ^ {e.value}"
    if k == "rpow":
        f = e.value
        assert isinstance(f, Fraction)
        return f"{wrap(a[0], MAX)} ^ (({f.numerator}:ℝ)/{f.denominator})"
    if k == "sqrt":
        return f"Real.sqrt {wrap(a[0], MAX)}"
    raise ValueError(k)


def subst(e: E, m: dict[str, E]) -> E:
    if e.kind == "var":
        return m.get(str(e.value), e)
    if not e.args:
        return e
    return E(e.kind, tuple(subst(x, m) for x in e.args), e.value)


class NotRational(ArithmeticError):
    """An exact evaluation left the rationals (or divided by zero): resample."""


def evalq(e: E, pt: dict[str, Fraction]) -> Fraction:
    """Exact value of a solver expression (rational operations and exact square roots only)."""
    k, a = e.kind, e.args
    if k == "num":
        return Fraction(int(e.value))  # type: ignore[arg-type]
    if k == "var":
        return pt[str(e.value)]
    if k == "pow":
        return evalq(a[0], pt) ** int(e.value)  # type: ignore[arg-type]
    if k == "sqrt":
        v = evalq(a[0], pt)
        n, d = _isqrt(v.numerator), _isqrt(v.denominator)
        if v < 0 or n is None or d is None:
            raise NotRational
        return Fraction(n, d)
    x, y = evalq(a[0], pt), evalq(a[1], pt)
    if k == "div" and y == 0:
        raise NotRational
    return {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y if y else x}[k]


def _isqrt(n: int) -> int | None:
    if n < 0:
        return None
    r = int(n ** 0.5)
    for c in (r - 1, r, r + 1):
        if c >= 0 and c * c == n:
            return c
    return None


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Cons:
    """The hypothesis ``lhs = rhs``, met when sampling by ``dep := solve(other variables)``."""

    lhs: E
    rhs: E
    dep: str
    solve: E


@dataclass(frozen=True)
class Stmt:
    """``∀ vars, domain hypotheses → constraints → big ≥ small`` (printed ``≥`` or ``≤``)."""

    name: str
    vars: tuple[str, ...]
    dom: dict[str, str]  # var -> "pos" | "nonneg" | "real"
    big: E
    small: E
    style: str  # "ge": ``big ≥ small``; "le": ``small ≤ big``
    cons: tuple[Cons, ...] = ()
    family: str = ""
    kind: str = "seed"
    transform: str = "seed"
    seeds: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    small_nonneg: bool = False  # the smaller side is >= 0 under the hypotheses (products allowed)

    def goal_text(self) -> str:
        if self.style == "ge":
            return f"{show(self.big)} ≥ {show(self.small)}"
        return f"{show(self.small)} ≤ {show(self.big)}"

    def hypotheses(self) -> list[tuple[str, str]]:
        hs = [(f"h{v}", f"0 < {v}" if self.dom[v] == "pos" else f"0 ≤ {v}")
              for v in self.vars if self.dom[v] != "real"]
        names = ["h"] if len(self.cons) == 1 else [f"h{i + 1}" for i in range(len(self.cons))]
        hs += [(n, f"{show(c.lhs)} = {show(c.rhs)}") for n, c in zip(names, self.cons)]
        return hs

    def lean(self) -> str:
        hyps = "".join(f" ({n} : {t})" for n, t in self.hypotheses())
        return f"theorem {self.name} {{{' '.join(self.vars)} : ℝ}}{hyps} : {self.goal_text()} := by sorry"

    def record(self) -> dict[str, object]:
        hs = self.hypotheses()
        return {"id": f"composed/{self.name}", "source": "composed", "lean": self.lean(),
                "variables": list(self.vars), "hypotheses": [t for _, t in hs],
                "hypothesis_names": [n for n, _ in hs], "goal": self.goal_text(), "notes": list(self.notes),
                "family": self.family, "kind": self.kind, "transform": self.transform,
                "seeds": list(self.seeds)}


a, b, c, d, p, q, r, s, u, v, w, x, y, z = (V(n) for n in "abcdpqrsuvwxyz")
POOL = ("p", "q", "r", "s", "u", "v", "w", "z", "d", "t", "m", "n")


def seed(name: str, vs: str, dom: str | dict[str, str], big: E, small: E, style: str,
         cons: tuple[Cons, ...] = (), small_nonneg: bool = False) -> Stmt:
    names = tuple(vs.split())
    doms = {n: dom for n in names} if isinstance(dom, str) else dom
    return Stmt(name, names, doms, big, small, style, cons, name, "seed", "seed", (name,), (), small_nonneg)


SEEDS: list[Stmt] = [
    seed("amgm2", "a b", "real", a ** 2 + b ** 2, 2 * a * b, "le"),
    seed("amgm2_sqrt", "a b", "nonneg", (a + b) / 2, sqrt(a * b), "le", small_nonneg=True),
    seed("amgm3", "a b c", "nonneg", a ** 3 + b ** 3 + c ** 3, 3 * a * b * c, "le", small_nonneg=True),
    seed("amgm3_cube", "a b c", "nonneg", (a + b + c) ** 3, 27 * a * b * c, "le", small_nonneg=True),
    seed("titu2", "a b x y", {"a": "real", "b": "real", "x": "pos", "y": "pos"},
         a ** 2 / x + b ** 2 / y, (a + b) ** 2 / (x + y), "ge", small_nonneg=True),
    seed("cauchy2", "a b x y", "real", (a ** 2 + b ** 2) * (x ** 2 + y ** 2), (a * x + b * y) ** 2, "le",
         small_nonneg=True),
    seed("schur1", "a b c", "nonneg", a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b),
         lift(0), "le", small_nonneg=True),
    seed("nesbitt", "a b c", "pos", a / (b + c) + b / (c + a) + c / (a + b), Q(3, 2), "ge", small_nonneg=True),
    seed("harmonic2", "a b", "pos", (a + b) * (1 / a + 1 / b), lift(4), "ge", small_nonneg=True),
    seed("harmonic3", "a b c", "pos", (a + b + c) * (1 / a + 1 / b + 1 / c), lift(9), "ge", small_nonneg=True),
    seed("ratio2", "a b", "pos", a / b + b / a, lift(2), "ge", small_nonneg=True),
    seed("recip1", "x", "pos", x + 1 / x, lift(2), "ge", small_nonneg=True),
    seed("lin_constr", "x y", "pos", Q(9, 8), x * y, "le", (Cons(x + 2 * y, lift(3), "x", 3 - 2 * y),),
         small_nonneg=True),
    seed("sum3_constr", "a b c", "pos", lift(3), a * b + b * c + c * a, "le",
         (Cons(a + b + c, lift(3), "c", 3 - a - b),), small_nonneg=True),
    seed("prod1", "a b c", "pos", a + b + c, lift(3), "ge", (Cons(a * b * c, lift(1), "c", 1 / (a * b)),),
         small_nonneg=True),
    seed("wamgm", "x y", "pos", Q(2, 3) * x + Q(1, 3) * y, rpow(x, 2, 3) * rpow(y, 1, 3), "le",
         small_nonneg=True),
    seed("sqrt_sum", "a b", "nonneg", sqrt(2 * (a + b)), sqrt(a) + sqrt(b), "le", small_nonneg=True),
    seed("sum_sq3", "a b c", "real", a ** 2 + b ** 2 + c ** 2, a * b + b * c + c * a, "le"),
    seed("qm_am", "a b", "nonneg", sqrt((a ** 2 + b ** 2) / 2), (a + b) / 2, "le", small_nonneg=True),
    seed("muirhead4", "a b", "real", a ** 4 + b ** 4, a ** 3 * b + a * b ** 3, "le"),
]
SEED = {st.name: st for st in SEEDS}

# ---------------------------------------------------------------- type 1: one seed, transformed


def fresh(used: set[str], n: int = 1) -> list[str]:
    out = [name for name in POOL if name not in used][:n]
    assert len(out) == n, "variable pool exhausted"
    return out


def _map_vars(st: Stmt, m: dict[str, E], inverse: Callable[[str, E], E], vars_: tuple[str, ...],
              dom: dict[str, str], name: str, transform: str) -> Stmt:
    """``st`` with its variables replaced by ``m``; a constraint's solver becomes
    ``inverse(dep, solve(m(others)))``, the new value of the solved variable."""
    cons = tuple(Cons(subst(k.lhs, m), subst(k.rhs, m), k.dep,
                      inverse(k.dep, subst(k.solve, m)) if k.dep in m else subst(k.solve, m)) for k in st.cons)
    return replace(st, name=name, vars=vars_, dom=dom, big=subst(st.big, m), small=subst(st.small, m),
                   cons=cons, kind="type1", transform=transform)


def t_square(st: Stmt) -> Stmt:
    m = {n: V(n) ** 2 for n in st.vars}
    return _map_vars(st, m, lambda _n, e: sqrt(e), st.vars, st.dom, f"{st.name}_sq",
                     "x ↦ x ^ 2 for every variable (hypotheses kept)")


def t_recip(st: Stmt) -> Stmt:
    ps = [n for n in st.vars if st.dom[n] != "real"]
    m = {n: 1 / V(n) for n in ps}
    dom = {n: ("pos" if n in m else st.dom[n]) for n in st.vars}
    return _map_vars(st, m, lambda _n, e: 1 / e, st.vars, dom, f"{st.name}_recip",
                     f"x ↦ 1 / x for {', '.join(ps)} (positive)")


def t_shift(st: Stmt) -> Stmt:
    v0 = st.vars[0]
    (nv,) = fresh(set(st.vars))
    m = {v0: V(v0) + V(nv)}
    vars_ = st.vars + (nv,)
    dom = {**st.dom, nv: st.dom[v0]}
    return _map_vars(st, m, lambda _n, e: e - V(nv), vars_, dom, f"{st.name}_shift",
                     f"{v0} ↦ {v0} + {nv} ({nv} fresh, same sign condition)")


def t_scale(st: Stmt) -> Stmt:
    v0 = st.vars[0]
    return _map_vars(st, {v0: 2 * V(v0)}, lambda _n, e: e / 2, st.vars, st.dom, f"{st.name}_scale",
                     f"{v0} ↦ 2 * {v0}")


def rename(st: Stmt, m: dict[str, str]) -> Stmt:
    em = {k: V(val) for k, val in m.items()}
    cons = tuple(Cons(subst(k.lhs, em), subst(k.rhs, em), m.get(k.dep, k.dep), subst(k.solve, em))
                 for k in st.cons)
    return replace(st, vars=tuple(m.get(n, n) for n in st.vars), dom={m.get(n, n): t for n, t in st.dom.items()},
                   big=subst(st.big, em), small=subst(st.small, em), cons=cons)


def combine(s1: Stmt, s2: Stmt, op: str, name: str, kind: str, transform: str) -> Stmt:
    """``s1`` and ``s2`` (variables shared where the names agree) added or multiplied side by side."""
    if op == "mul":
        assert s1.small_nonneg and s2.small_nonneg, f"{name}: product needs nonnegative sides"
        big, small = s1.big * s2.big, s1.small * s2.small
    else:
        big, small = s1.big + s2.big, s1.small + s2.small
    vars_ = tuple(dict.fromkeys(s1.vars + s2.vars))
    for n in set(s1.vars) & set(s2.vars):
        assert s1.dom[n] == s2.dom[n], f"{name}: {n} has two sign conditions"
    seeds = tuple(dict.fromkeys(s1.seeds + s2.seeds))
    return Stmt(name, vars_, {**s1.dom, **s2.dom}, big, small, s1.style, s1.cons + s2.cons, s1.family, kind,
                transform, seeds, (), s1.small_nonneg and s2.small_nonneg)


def copy_of(st: Stmt) -> Stmt:
    return rename(st, dict(zip(st.vars, fresh(set(st.vars), len(st.vars)))))


def t_times(st: Stmt) -> Stmt:
    return combine(st, copy_of(st), "mul", f"{st.name}_times", "type1",
                   "two independent copies multiplied side by side (smaller sides nonnegative)")


def t_plus(st: Stmt) -> Stmt:
    return combine(st, copy_of(st), "add", f"{st.name}_plus", "type1", "two independent copies added")


TYPE1: dict[str, Callable[[Stmt], Stmt]] = {
    "sq": t_square, "recip": t_recip, "shift": t_shift, "scale": t_scale, "times": t_times, "plus": t_plus}

PLAN1: dict[str, tuple[str, ...]] = {
    "amgm2": ("sq", "plus"), "amgm2_sqrt": ("sq", "times"), "amgm3": ("recip", "times"),
    "amgm3_cube": ("shift",), "titu2": ("recip", "shift"), "cauchy2": ("times",), "schur1": ("sq", "scale"),
    "nesbitt": ("recip", "shift"), "harmonic2": ("sq", "times"), "harmonic3": ("shift",),
    "ratio2": ("sq", "plus"), "recip1": ("scale", "times"), "lin_constr": ("shift", "recip"),
    "sum3_constr": ("shift", "recip"), "prod1": ("sq", "recip"), "wamgm": ("sq", "recip"),
    "sqrt_sum": ("sq", "plus"), "sum_sq3": ("shift",), "qm_am": ("scale",), "muirhead4": ("plus",),
}

# ---------------------------------------------------------------- type 2: two seeds composed


def two(s1: str, s2: str, op: str, name: str, m2: dict[str, str] | None = None) -> Stmt:
    """Seeds ``s1`` and ``s2`` (the second renamed by ``m2``) multiplied or added."""
    st2 = rename(SEED[s2], m2 or {})
    shared = set(SEED[s1].vars) & set(st2.vars)
    how = "on disjoint variables" if not shared else f"sharing {', '.join(sorted(shared))}"
    word = "multiplied side by side (smaller sides nonnegative)" if op == "mul" else "added"
    return combine(SEED[s1], st2, op, name, "type2", f"{s1} and {s2} {word}, {how}")


def chain(name: str, s1: str, s2: str, vs: str, dom: str | dict[str, str], big: E, small: E, style: str,
          transform: str, why: str, cons: tuple[Cons, ...] = ()) -> Stmt:
    """A hand-made composition of seeds ``s1`` (the family) and ``s2``; ``why`` says why it holds."""
    st = seed(name, vs, dom, big, small, style, cons)
    return replace(st, family=s1, kind="type2", transform=transform, seeds=(s1, s2), notes=(why,))


def type2() -> list[Stmt]:
    nes = a / (b + c) + b / (c + a) + c / (a + b)
    ab = a / b + b / a
    return [
        two("nesbitt", "ratio2", "mul", "nesbitt_times_ratio2", {"a": "x", "b": "y"}),
        two("harmonic2", "recip1", "mul", "harmonic2_times_recip1"),
        two("amgm3", "amgm2_sqrt", "mul", "amgm3_times_amgm2_sqrt", {"a": "x", "b": "y"}),
        two("prod1", "harmonic2", "mul", "prod1_times_harmonic2", {"a": "x", "b": "y"}),
        two("schur1", "amgm3", "add", "schur1_plus_amgm3"),
        two("nesbitt", "harmonic3", "add", "nesbitt_plus_harmonic3"),
        two("sqrt_sum", "amgm2_sqrt", "add", "sqrt_sum_plus_amgm2_sqrt"),
        two("titu2", "ratio2", "add", "titu2_plus_ratio2", {"a": "x", "b": "y"}),
        two("lin_constr", "recip1", "add", "lin_constr_plus_recip1"),
        two("muirhead4", "amgm2", "add", "muirhead4_plus_amgm2"),
        chain("recip1_of_ratio2", "recip1", "ratio2", "a b", "pos", ab + 1 / ab, Q(5, 2), "ge",
              "x ↦ a / b + b / a in x + 1 / x ≥ 2, bound raised to its value at 2",
              "t + 1/t is increasing for t ≥ 1 and a/b + b/a ≥ 2"),
        chain("recip1_of_nesbitt", "recip1", "nesbitt", "a b c", "pos", nes + 1 / nes, Q(13, 6), "ge",
              "x ↦ Nesbitt's sum in x + 1 / x ≥ 2, bound raised to its value at 3/2",
              "t + 1/t is increasing for t ≥ 1 and Nesbitt's sum is ≥ 3/2"),
        chain("wamgm_of_amgm2_sqrt", "wamgm", "amgm2_sqrt", "a b y", "pos",
              Q(2, 3) * ((a + b) / 2) + Q(1, 3) * y, rpow(a * b, 1, 3) * rpow(y, 1, 3), "le",
              "x ↦ √(a b) in weighted AM-GM (√(a b) ^ (2/3) written (a * b) ^ (1/3)), then "
              "√(a b) ≤ (a + b) / 2 on the right",
              "weighted AM-GM at x = √(ab), whose right side is increasing in x; the form "
              "`(Real.sqrt (a * b)) ^ ((2:ℝ)/3)` is refused by the front-end, hence (ab)^(1/3)"),
        chain("amgm3_with_prod1", "amgm3", "prod1", "a b c", "pos", a ** 3 + b ** 3 + c ** 3, lift(3), "le",
              "AM-GM for cubes with 3 a b c replaced by 3 under a b c = 1",
              "a³ + b³ + c³ ≥ 3abc = 3", (Cons(a * b * c, lift(1), "c", 1 / (a * b)),)),
        chain("sum_sq3_with_sum3", "sum_sq3", "sum3_constr", "a b c", "pos", a ** 2 + b ** 2 + c ** 2, lift(3), "le",
              "a² + b² + c² ≥ 3 from a + b + c = 3 and ab + bc + ca ≤ 3",
              "(a+b+c)² = Σa² + 2Σab and Σab ≤ 3", (Cons(a + b + c, lift(3), "c", 3 - a - b),)),
        chain("amgm2_with_lin", "amgm2", "lin_constr", "x y", "pos", x ** 2 + 4 * y ** 2, Q(9, 2), "le",
              "x² + 4y² ≥ 9/2 from x + 2y = 3 and x y ≤ 9/8",
              "(x+2y)² = x² + 4y² + 4xy and xy ≤ 9/8", (Cons(x + 2 * y, lift(3), "x", 3 - 2 * y),)),
        chain("amgm2_sqrt_then_qm", "amgm2_sqrt", "qm_am", "a b", "nonneg",
              sqrt((a ** 2 + b ** 2) / 2), sqrt(a * b), "le",
              "√(a b) ≤ (a + b) / 2 ≤ √((a² + b²) / 2), the middle term dropped",
              "transitivity of the two seeds"),
    ]


def all_statements() -> list[Stmt]:
    out = list(SEEDS)
    for st in SEEDS:
        out += [TYPE1[t](st) for t in PLAN1.get(st.name, ())]
    return out + type2()


# ---------------------------------------------------------------- checks


class CheckFailed(Exception):
    pass


def rand_value(rng: random.Random, dom: str, base: Fraction | None) -> Fraction:
    if base is not None:
        val = base * (1 + Fraction(rng.randint(-60, 60), 400))
    elif rng.random() < 0.5:
        val = Fraction(rng.randint(1, 40), rng.randint(1, 12))
    else:
        val = Fraction(rng.randint(1, 2000), rng.randint(1, 2000))
    if dom == "nonneg" and rng.random() < 0.08:
        return Fraction(0)
    if dom == "real" and rng.random() < 0.5:
        return -val
    return val


def sample_point(st: Stmt, rng: random.Random) -> dict[str, Fraction] | None:
    """Random values for the free variables, then each constraint solved exactly; None: resample."""
    deps = {k.dep for k in st.cons}
    base = Fraction(rng.randint(1, 40), rng.randint(1, 12)) if rng.random() < 0.3 else None
    pt = {n: rand_value(rng, st.dom[n], base) for n in st.vars if n not in deps}
    try:
        for k in st.cons:
            pt[k.dep] = evalq(k.solve, pt)
    except NotRational:
        return None
    return pt


def lean_reader_text(lean: str) -> str:
    """The evaluator's reader takes explicit binders: ``{a b : ℝ}`` -> ``(a b : ℝ)``."""
    return re.sub(r"^(theorem \S+ )\{([^{}]*: ℝ)\}", r"\1(\2)", lean)


def check_sampled(st: Stmt, points: int) -> dict[str, int]:
    """At ``points`` random feasible points every hypothesis is true and the goal decided true."""
    from prover.semantics.lean_ast import evaluate, read_lean

    tree = read_lean(lean_reader_text(st.lean()))
    rng = random.Random(zlib.crc32(st.name.encode()))
    good = undecided = tries = 0
    while good < points:
        tries += 1
        if tries > 200 * points:
            raise CheckFailed(f"{st.name}: only {good} feasible decided points in {tries - 1} tries")
        pt = sample_point(st, rng)
        if pt is None:
            continue
        val = evaluate(tree, pt)
        if not all(h.verdict is True for h in val.hypotheses):
            continue
        verdict = val.goal.verdict
        if verdict is None:
            undecided += 1
        elif verdict is False:
            raise CheckFailed(f"{st.name}: FALSE at {({k: str(x) for k, x in pt.items()})}")
        else:
            good += 1
    return {"points": good, "undecided": undecided, "tries": tries}


def check_frontend(rec: dict[str, object]) -> None:
    """Read by the eval path, and the same without the real-division convention."""
    from prover.benchmark_problem import load_problem
    from prover.frontend import parse_theorem

    try:
        prob = load_problem(rec, {})
        plain = parse_theorem(str(rec["lean"]), real_division=False)
    except Exception as exc:  # any front-end failure is a failed check
        raise CheckFailed(f"{rec['id']}: front-end cannot read it: {exc}") from exc
    if plain.goal != prob.goal or [h.rel for h in plain.hypotheses] != [h.rel for h in prob.hypotheses]:
        raise CheckFailed(f"{rec['id']}: reads differently with the real-division convention")
    if list(prob.variables) != list(rec["variables"]):  # type: ignore[arg-type]
        raise CheckFailed(f"{rec['id']}: variables {prob.variables} != {rec['variables']}")


def check_all(stmts: list[Stmt], points: int) -> list[str]:
    """Run every check; returns one log line per statement, raises CheckFailed on the first failure."""
    ids = Counter(st.name for st in stmts)
    dup = [n for n, k in ids.items() if k > 1]
    if dup:
        raise CheckFailed(f"duplicate names: {dup}")
    missing = {st.family for st in stmts} - {st.name for st in stmts if st.kind == "seed"}
    if missing:
        raise CheckFailed(f"families without a seed: {sorted(missing)}")
    log = []
    for st in stmts:
        check_frontend(st.record())
        res = check_sampled(st, points)
        log.append(f"{st.name:32s} {st.kind:5s} sampled true at {res['points']} points "
                   f"({res['undecided']} undecided, {res['tries']} tries)")
    return log


def check_written(path: Path, n: int) -> None:
    from prover.eval.tasks import load_tasks

    skipped: list[str] = []
    tasks = load_tasks([path], on_skip=lambda line: skipped.append(str(line)))
    if skipped:
        raise CheckFailed(f"{path}: lines skipped by the eval loader: {skipped}")
    if len(tasks) != n:
        raise CheckFailed(f"{path}: {len(tasks)} tasks loaded, {n} written")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--points", type=int, default=200, help="sampled feasible points per statement")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    stmts = all_statements()
    try:
        log = check_all(stmts, args.points)
    except CheckFailed as exc:
        print(f"make_composed: CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    text = "".join(json.dumps(st.record(), ensure_ascii=False) + "\n" for st in stmts)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    try:
        check_written(tmp, len(stmts))
    except CheckFailed as exc:
        tmp.unlink()
        print(f"make_composed: CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    tmp.replace(args.out)
    if not args.quiet:
        print("\n".join(log))
    kinds = Counter(st.kind for st in stmts)
    print(f"wrote {len(stmts)} statements to {args.out}: "
          + ", ".join(f"{k} {kinds[k]}" for k in ("seed", "type1", "type2"))
          + f"; {len({st.family for st in stmts})} families")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
