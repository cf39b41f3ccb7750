"""An independent, exact evaluator of proof-file statements in Lean/Mathlib semantics over ℝ.

This is the fuzzing oracle. It shares no code with the kernel (``prover.kernel``) nor with sympy:
expression strings are read with Python's :mod:`ast` (a whitelist of node types, never ``eval``)
and evaluated with :class:`fractions.Fraction`, following Mathlib:

* ``a / b`` is ``a * b⁻¹`` with ``0⁻¹ = 0``; ``b ** -n`` is ``(b ^ n)⁻¹`` (so ``0 ** -n = 0``);
* ``sqrt(t)`` is ``Real.sqrt t``: ``0`` for ``t < 0``;
* ``b ** r`` for a non-integer rational ``r`` is ``Real.rpow``: ``0`` for ``b = 0``; for ``b < 0``
  it is ``|b| ^ r · cos(r·π)`` (so ``0`` when ``2r`` is odd, ``±|b|^r / 2`` when ``3r`` is an integer);
* ``Abs`` is ``|·|``; ``exp``, ``log``, ``pi``, ``E`` only where the value is rational
  (``exp 0``, ``log 1``, ``log 0 = 0``, ``log (-1) = 0``).

Whenever the exact value is irrational (``√2``) or unknown, :class:`Undetermined` is raised and the
caller skips that point: the oracle never decides on an approximate value.
"""

from __future__ import annotations

import ast
import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

MAX_EXPONENT = 64          # larger integer powers of non-trivial bases are not evaluated
MAX_BITS = 4096            # numbers larger than this are not evaluated (Undetermined)


class Undetermined(Exception):
    """The exact value at this point is irrational or unknown: skip the point."""


class Unreadable(ValueError):
    """Text the oracle does not read (not an expression of the proof-file grammar)."""


# ---------------------------------------------------------------- reading


_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
_FUNCS = ("sqrt", "Abs", "exp", "log", "Rational", "Integer")


@functools.lru_cache(maxsize=65536)
def read(text: str) -> ast.expr:
    """The syntax tree of ``text``, refused unless every node is whitelisted."""
    if not isinstance(text, str) or len(text) > 200_000:
        raise Unreadable(f"not an expression string: {text!r:.60}")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise Unreadable(f"cannot read {text!r:.60}: {exc}") from None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expression, ast.Load, *_BINOPS, ast.USub, ast.UAdd)):
            continue
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            if isinstance(node, ast.BinOp) and not isinstance(node.op, _BINOPS):
                raise Unreadable(f"operator {type(node.op).__name__} in {text!r:.60}")
            continue
        if isinstance(node, ast.Constant) and type(node.value) is int:
            continue
        if isinstance(node, ast.Name) and not node.id.startswith("_"):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS \
                and not node.keywords:
            continue
        raise Unreadable(f"{type(node).__name__} in {text!r:.60}")
    return tree.body


# ---------------------------------------------------------------- exact arithmetic


def _guard(q: Fraction) -> Fraction:
    if q.numerator.bit_length() > MAX_BITS or q.denominator.bit_length() > MAX_BITS:
        raise Undetermined("number too large")
    return q


def _int_root(n: int, k: int) -> int | None:
    """The exact k-th root of n >= 0, or None."""
    if n < 2:
        return n
    r = round(n ** (1.0 / k)) if n.bit_length() < 1000 else None
    if r is None:  # big numbers: integer Newton iteration
        r = 1 << (n.bit_length() // k + 1)
        while True:
            s = ((k - 1) * r + n // r ** (k - 1)) // k
            if s >= r:
                break
            r = s
    for cand in (r - 1, r, r + 1):
        if cand >= 0 and cand ** k == n:
            return cand
    return None


def _root(q: Fraction, k: int) -> Fraction:
    """The exact k-th root of q >= 0; Undetermined if irrational."""
    a, b = _int_root(q.numerator, k), _int_root(q.denominator, k)
    if a is None or b is None:
        raise Undetermined(f"{q}^(1/{k}) is irrational")
    return Fraction(a, b)


def ipow(b: Fraction, n: int) -> Fraction:
    """Lean's ``b ^ n`` (n >= 0) and ``(b ^ -n)⁻¹`` (n < 0, with 0⁻¹ = 0)."""
    if b in (0, 1) or n == 0:
        return Fraction(1) if n == 0 else b
    if b == -1:
        return Fraction(-1 if n % 2 else 1)
    if abs(n) > MAX_EXPONENT:
        raise Undetermined("exponent too large to evaluate")
    return _guard(b ** n)


def rpow(b: Fraction, r: Fraction) -> Fraction:
    """``Real.rpow b r`` for rational ``r``, exactly (or Undetermined)."""
    if r.denominator == 1:
        return ipow(b, r.numerator)           # Real.rpow_intCast: also for b < 0
    if b == 0:
        return Fraction(0)                    # Real.zero_rpow (r ≠ 0)
    p, q = r.numerator, r.denominator
    if b > 0:
        return ipow(_root(b, q), p)
    # b < 0: exp(log|b| · r) · cos(r·π)
    if q == 2:
        return Fraction(0)                    # cos(odd·π/2) = 0
    if q == 3:
        cos = Fraction(1 if p % 6 in (1, 5) else -1, 2) if p % 3 else Fraction(1 if p % 2 == 0 else -1)
        return cos * ipow(_root(-b, q), p)
    raise Undetermined(f"rpow of a negative base with exponent {r}")


def sqrt(t: Fraction) -> Fraction:
    return Fraction(0) if t < 0 else _root(t, 2)


# ---------------------------------------------------------------- evaluation


def value(text: str, env: Mapping[str, Fraction]) -> Fraction:
    """The exact Lean value of ``text`` at the point ``env`` (variable → rational)."""
    return _eval(read(text), env)


def _eval(node: ast.expr, env: Mapping[str, Fraction]) -> Fraction:
    if isinstance(node, ast.Constant):
        return _guard(Fraction(node.value))
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise Undetermined(f"no value for {node.id}")     # pi, E, or a name the point lacks
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a = _eval(node.left, env)
        b = _eval(node.right, env)
        if isinstance(node.op, ast.Add):
            return _guard(a + b)
        if isinstance(node.op, ast.Sub):
            return _guard(a - b)
        if isinstance(node.op, ast.Mult):
            return _guard(a * b)
        if isinstance(node.op, ast.Div):
            return Fraction(0) if b == 0 else _guard(a / b)
        return rpow(a, b)
    if isinstance(node, ast.Call):
        name = node.func.id  # type: ignore[union-attr]
        args = [_eval(a, env) for a in node.args]
        if name == "Rational" and len(args) == 2:
            if args[1] == 0:
                raise Undetermined("Rational(p, 0)")
            return _guard(args[0] / args[1])
        if len(args) != 1:
            raise Undetermined(f"{name} with {len(args)} arguments")
        (x,) = args
        if name == "Integer":
            return x
        if name == "sqrt":
            return sqrt(x)
        if name == "Abs":
            return abs(x)
        if name == "exp" and x == 0:
            return Fraction(1)
        if name == "log" and x in (0, 1, -1):
            return Fraction(0)
        raise Undetermined(f"{name}({x}) is irrational")
    raise Undetermined(f"unexpected node {type(node).__name__}")  # pragma: no cover - read() refuses


def holds(lhs: str, op: str, rhs: str, env: Mapping[str, Fraction]) -> bool:
    a, b = value(lhs, env), value(rhs, env)
    if op == ">=":
        return a >= b
    if op == ">":
        return a > b
    if op == "<=":
        return a <= b
    if op == "<":
        return a < b
    if op == "=":
        return a == b
    if op == "!=":
        return a != b
    raise Unreadable(f"unknown relation operator {op!r}")


# ---------------------------------------------------------------- statements


Relation = tuple[str, str, str]


@dataclass(frozen=True)
class Statement:
    """``∀ variables, hypotheses → target`` with relations as ``(lhs, op, rhs)`` strings."""

    variables: tuple[str, ...]
    hypotheses: tuple[Relation, ...]
    target: Relation

    @staticmethod
    def from_goal_json(g: Mapping) -> Statement:
        def r(d: Mapping) -> Relation:
            return (d["lhs"], d["op"], d["rhs"])
        return Statement(tuple(g["variables"]), tuple(r(h) for h in g["hypotheses"]), r(g["target"]))


@dataclass
class Evidence:
    """What sampling found for one statement."""

    checked: int = 0           # points where all hypotheses hold and the target was decided true
    vacuous: int = 0           # points where a hypothesis is false
    undetermined: int = 0      # points skipped: an irrational or unknown value
    counterexample: dict[str, str] | None = None
    unreadable: str | None = None
    extras: dict = field(default_factory=dict)


POOL = [Fraction(v) for v in (0, 1, -1, 2, -2, 3, -3, 4, -4, 8, -8, 9, 27, -27, 64, 10, -10)] + \
    [Fraction(1, 2), Fraction(-1, 2), Fraction(1, 3), Fraction(-1, 3), Fraction(1, 4), Fraction(1, 8),
     Fraction(-1, 8), Fraction(5, 2), Fraction(-7, 3), Fraction(1, 64), Fraction(9, 4)]


def random_value(rng: random.Random) -> Fraction:
    """A rational from a mix of small values, perfect squares/cubes (exact roots) and random ones."""
    u = rng.random()
    if u < 0.5:
        return rng.choice(POOL)
    if u < 0.75:
        r = Fraction(rng.randint(-6, 6), rng.randint(1, 4))
        return r ** 6 * rng.choice((1, -1)) if rng.random() < 0.5 else r ** 2
    return Fraction(rng.randint(-40, 40), rng.randint(1, 12))


def _affine_solution(lhs: str, rhs: str, v: str, env: dict[str, Fraction]) -> Fraction | None:
    """If ``lhs - rhs`` is affine and non-constant in ``v`` (others fixed), the root; else None."""
    try:
        f = []
        for t in range(4):
            e = dict(env)
            e[v] = Fraction(t)
            f.append(value(lhs, e) - value(rhs, e))
    except (Undetermined, Unreadable):
        return None
    slope = f[1] - f[0]
    if slope == 0 or f[2] - f[1] != slope or f[3] - f[2] != slope:
        return None
    return -f[0] / slope


def sample_point(st: Statement, rng: random.Random) -> dict[str, Fraction]:
    """A random point, with variables solved from equality hypotheses that are affine in them
    (``x = s**2``, ``a + b + c = 3``) so that constrained statements are not all vacuous."""
    env = {v: random_value(rng) for v in st.variables}
    solved: set[str] = set()
    for lhs, op, rhs in st.hypotheses:
        if op != "=":
            continue
        cands = [v for v in st.variables if v not in solved]
        rng.shuffle(cands)
        for v in cands:
            root = _affine_solution(lhs, rhs, v, env)
            if root is not None:
                env[v] = root
                solved.add(v)
                break
    return env


def refute(st: Statement, rng: random.Random, points: int = 60, max_tries: int = 400) -> Evidence:
    """Look for a point where every hypothesis holds and the target fails (exactly)."""
    ev = Evidence()
    try:
        for text in [x for h in st.hypotheses + (st.target,) for x in (h[0], h[2])]:
            read(text)
    except Unreadable as exc:
        ev.unreadable = str(exc)
        return ev
    tries = 0
    while ev.checked < points and tries < max_tries:
        tries += 1
        env = sample_point(st, rng)
        if tries <= 3:  # always look at 0 and ±1 too
            env = {v: Fraction((0, 1, -1)[tries - 1]) for v in st.variables}
        try:
            if not _hypotheses_hold(st.hypotheses, env):
                ev.vacuous += 1
                continue
            ok = holds(*st.target, env)
        except (Undetermined, RecursionError):
            ev.undetermined += 1
            continue
        if not ok:
            ev.counterexample = {k: str(v) for k, v in env.items()}
            return ev
        ev.checked += 1
    return ev


def _hypotheses_hold(hyps: Sequence[Relation], env: Mapping[str, Fraction]) -> bool:
    """False if some hypothesis is decided false; Undetermined if none is false but one is unknown."""
    unknown = False
    for h in hyps:
        try:
            if not holds(*h, env):
                return False
        except Undetermined:
            unknown = True
    if unknown:
        raise Undetermined("a hypothesis has an irrational value")
    return True
