"""Generate the family suite ``benchmarks/families/{train,heldout,false}.jsonl`` (issue 31 item 4).

Run from the repository root (deterministic: the same files byte for byte on every run)::

    .venv/bin/python benchmarks/families/make_families.py
    .venv/bin/python benchmarks/families/make_families.py --families nesbitt,schur --out /tmp/fam

Each **family** is a textbook inequality in a few seed forms (``FAMILIES`` below: AM-GM and power
means, Cauchy / Titu, Hölder, Schur / Muirhead / SOS-Schur, Nesbitt-type fractions, tangent-line
trick, Jensen-type radicals, every constraint kind). Each family's statements are its seeds and
seeds put through a seeded random pipeline of 1–3 **transformations**: substitution
``x ↦ x²``, ``x ↦ 1/x``, ``x ↦ x + 1`` (one or all variables), ``x ↦ k·x`` (one or all),
both sides multiplied by a constant, sums and products of two seeds (the partner from a family of
the same split), a monotone function applied to both sides (``t²``, ``t³``, ``√t``, ``t^(1/3)``,
``1/t`` reversing the sides, ``t + 1/t`` on ``t ≥ 1``, ``t/(1+t)``), renaming and reordering of
variables (which also reverses cyclic orientation), weakened constants.

Checks, all of them for every kept statement (a candidate failing one is dropped, never repaired):

* **truth by construction** — each seed is a textbook theorem and each transformation keeps truth
  (a substitution into a universally quantified statement, a sum of true inequalities, a product
  of true inequalities whose smaller sides are ≥ 0, a monotone function, a weakened constant);
* **numeric counterexample search** (floats, used only to *reject*): at ``POINTS`` random points
  satisfying the hypotheses (equality constraints met by a parametrisation of their solution set)
  plus local refinement around the least-slack points; any point where the goal fails beyond
  rounding drops the candidate. ``min_slack`` records the least relative slack
  ``(big − small) / (|big| + |small|)`` seen; a candidate with ``min_slack > MAX_SLACK`` (absurdly
  loose) is dropped;
* **front-end**: the statement parses with :func:`prover.frontend.parse_theorem` with and without
  the LIPS real-division convention, with equal goal, hypotheses and variables;
* **FALSE variant**: the bound pushed past the numeric extremum (a constant side moved by 5–20 %,
  or the larger side scaled, or else the direction reversed), confirmed false at an exact
  rational point: the hypotheses hold and the goal fails, decided by the project's exact sign
  oracle (:func:`prover.oracles.exact_sign.sign`: sympy Rationals, rigorous intervals for
  radicals). A candidate without a confirmed FALSE variant is dropped.

The split is by family: ``heldout_families()`` shuffles the sorted family names with
``random.Random(SPLIT_SEED)`` and holds out the first quarter (rounded up).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for _p in (str(ROOT), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from family_expr import (
    C,
    E,
    P,
    S,
    V,
    const_value,
    cyc,
    evalabs,
    evalf,
    fold,
    is_const,
    lift,
    rpow,
    show,
    sign_class,
    sqrt,
    subst,
)

SPLIT_SEED = 31
HELDOUT_SHARE = 0.25
PER_FAMILY = 23          # statements kept per family (fewer when the family runs out of candidates)
MAX_ATTEMPTS = 160       # candidates tried per family
POINTS = 1200            # sampled points per candidate
MAX_SLACK = 0.3          # least relative slack above this: too loose, dropped
SOURCE = "families (generated)"
TOL = 1e-8

# ---------------------------------------------------------------- samplers


@dataclass(eq=False)
class Sampler:
    """Points satisfying the hypotheses: ``make(u)`` maps latent rows (``types``: ``pos`` or
    ``real`` coordinates) to a dict var -> float array."""

    types: tuple[str, ...]
    make: Callable[[np.ndarray], dict[str, np.ndarray]]


def draw_latent(rng: np.random.Generator, types: tuple[str, ...], n: int) -> np.ndarray:
    m = len(types)
    mode = rng.integers(0, 4, size=n)
    logu = rng.uniform(-4, 4, size=(n, m))
    base = rng.uniform(-1.5, 1.5, size=(n, 1))
    near = base + 0.15 * rng.standard_normal((n, m))
    unif = np.log(rng.uniform(1e-3, 3, size=(n, m)))
    skew = base + 0.1 * rng.standard_normal((n, m))
    col = rng.integers(0, m, size=n)
    skew[np.arange(n), col] += rng.choice([-1, 1], size=n) * rng.uniform(1.5, 6, size=n)
    lg = np.where(mode[:, None] == 0, logu, np.where(mode[:, None] == 1, near, np.where(mode[:, None] == 2, unif, skew)))
    u = np.exp(lg)
    for j, t in enumerate(types):
        if t == "real":
            u[:, j] *= rng.choice([-1.0, 1.0], size=n)
    return u


def perturb(rng: np.random.Generator, types: tuple[str, ...], u: np.ndarray, sigma: float) -> np.ndarray:
    out = u.copy()
    for j, t in enumerate(types):
        z = rng.standard_normal(u.shape[0])
        out[:, j] = u[:, j] * np.exp(sigma * z) if t == "pos" else u[:, j] + sigma * (1 + np.abs(u[:, j])) * z
    return out


def free_sampler(vs: tuple[str, ...], dom: tuple[str, ...]) -> Sampler:
    types = tuple("real" if d == "real" else "pos" for d in dom)
    return Sampler(types, lambda u: {v: u[:, i] for i, v in enumerate(vs)})


@dataclass(frozen=True)
class Cons:
    """An equality hypothesis ``lhs = rhs`` of kind ``kind``, a sampler of its solution set (all
    variables positive) and a rational point on it (``anchor``; None when not known)."""

    kind: str
    lhs: E
    rhs: E
    sampler: Sampler = field(compare=False)
    anchor: tuple[Fraction, ...] | None = None


def _k(u: np.ndarray) -> np.ndarray:
    return u.sum(axis=1, keepdims=True)


def cons_sum(vs: list[str], k: Fraction | int, weights: list[int] | None = None) -> Cons:
    """``Σ wᵢ xᵢ = k``."""
    k = Fraction(k)
    w = weights or [1] * len(vs)
    lhs = S([V(v) if wi == 1 else wi * V(v) for v, wi in zip(vs, w)])

    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        x = float(k) * u / _k(u) / np.array(w, dtype=float)
        return {v: x[:, i] for i, v in enumerate(vs)}

    n = len(vs)
    kind = "sum" if weights is None else "linear"
    return Cons(kind, lhs, lift(k), Sampler(("pos",) * n, make), tuple(k / (n * wi) for wi in w))


def cons_sumsq(vs: list[str], k: int) -> Cons:
    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        x = np.sqrt(k * u / _k(u))
        return {v: x[:, i] for i, v in enumerate(vs)}

    n = len(vs)
    r = Fraction(k, n)
    from family_expr import _root
    a = _root(r, 2)
    return Cons("sumsq", S([V(v) ** 2 for v in vs]), C(k), Sampler(("pos",) * n, make),
                tuple([a] * n) if a is not None else None)


def cons_prod(vs: list[str]) -> Cons:
    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        g = np.exp(np.log(u).mean(axis=1, keepdims=True))
        x = u / g
        return {v: x[:, i] for i, v in enumerate(vs)}

    return Cons("prod1", P([V(v) for v in vs]), C(1), Sampler(("pos",) * len(vs), make), (Fraction(1),) * len(vs))


def cons_schur4(vs: list[str]) -> Cons:
    """``ab + bc + ca + abc = 4``, parametrised by ``a = 2x/(y+z)`` …"""
    a, b, c = (V(v) for v in vs)

    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        x, y, z = u[:, 0], u[:, 1], u[:, 2]
        return {vs[0]: 2 * x / (y + z), vs[1]: 2 * y / (z + x), vs[2]: 2 * z / (x + y)}

    return Cons("schur4", a * b + b * c + c * a + a * b * c, C(4), Sampler(("pos",) * 3, make), (Fraction(1),) * 3)


def cons_sigma2(vs: list[str]) -> Cons:
    """``ab + bc + ca = 1``."""
    a, b, c = (V(v) for v in vs)

    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        q = u[:, 0] * u[:, 1] + u[:, 1] * u[:, 2] + u[:, 2] * u[:, 0]
        x = u / np.sqrt(q)[:, None]
        return {v: x[:, i] for i, v in enumerate(vs)}

    return Cons("sigma2", a * b + b * c + c * a, C(1), Sampler(("pos",) * 3, make), None)


def cons_cubic4(vs: list[str]) -> Cons:
    """``a + b + c + abc = 4`` (non-homogeneous cubic)."""
    a, b, c = (V(v) for v in vs)

    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        s = 4 * u[:, 0] / u.sum(axis=1)
        t = 4 * u[:, 1] / u.sum(axis=1)
        return {vs[0]: s, vs[1]: t, vs[2]: (4 - s - t) / (1 + s * t)}

    return Cons("cubic4", a + b + c + a * b * c, C(4), Sampler(("pos",) * 3, make), (Fraction(1),) * 3)


def cons_sum_eq_prod(vs: list[str]) -> Cons:
    """``a + b + c = abc`` (non-homogeneous cubic)."""
    a, b, c = (V(v) for v in vs)

    def make(u: np.ndarray) -> dict[str, np.ndarray]:
        t = np.sqrt(u.sum(axis=1) / u.prod(axis=1))
        x = u * t[:, None]
        return {v: x[:, i] for i, v in enumerate(vs)}

    return Cons("sum_eq_prod", a + b + c, a * b * c, Sampler(("pos",) * 3, make), None)


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Stmt:
    """``∀ vars, domain hypotheses → constraint → big ≥ small``."""

    vars: tuple[str, ...]
    dom: tuple[str, ...]          # per variable: "pos" | "nonneg" | "real"
    big: E
    small: E
    cons: Cons | None
    family: str
    seed: str
    transform: tuple[str, ...] = ()
    sampler_: Sampler | None = field(default=None, compare=False)

    def sampler(self) -> Sampler:
        if self.cons is None:
            return free_sampler(self.vars, self.dom)
        assert self.sampler_ is not None
        return self.sampler_

    def domd(self) -> dict[str, str]:
        return dict(zip(self.vars, self.dom))

    def hyps(self) -> list[tuple[str, str]]:
        hs = [(f"h{v}", f"0 < {v}" if d == "pos" else f"0 ≤ {v}") for v, d in zip(self.vars, self.dom)
              if d != "real"]
        if self.cons is not None:
            hs.append(("h", f"{show(self.cons.lhs)} = {show(self.cons.rhs)}"))
        return hs

    def goal(self, style: str) -> str:
        return f"{show(self.big)} ≥ {show(self.small)}" if style == "ge" else f"{show(self.small)} ≤ {show(self.big)}"

    def lean(self, name: str, style: str) -> str:
        hyps = "".join(f" ({n} : {t})" for n, t in self.hyps())
        return f"theorem {name} ({' '.join(self.vars)} : ℝ){hyps} : {self.goal(style)} := by sorry"


def seed(family: str, vs: str, big: E, small: E, *, dom: str = "pos", cons: Cons | None = None) -> Stmt:
    names = tuple(vs.split())
    st = Stmt(names, (dom,) * len(names), fold(big), fold(small), cons, family, "",
              (), cons.sampler if cons else None)
    return st


a, b, c, d, u_ = (V(n) for n in ("a", "b", "c", "d", "u"))
x, y, z, w = (V(n) for n in "xyzw")
ABC = ["a", "b", "c"]
ABCD = ["a", "b", "c", "d"]
VS5 = ["a", "b", "c", "d", "u"]


def names(n: int) -> str:
    return " ".join(VS5[:n])


def vv(n: int) -> list[E]:
    return [V(v) for v in VS5[:n]]


def fam_amgm_sum_prod() -> list[Stmt]:
    f = "amgm_sum_prod"
    out = [seed(f, names(n), S([t ** n for t in vv(n)]), n * P(vv(n))) for n in (2, 3, 4, 5)]
    out += [seed(f, names(n), S(vv(n)) ** n, n ** n * P(vv(n))) for n in (2, 3, 4)]
    return out


def fam_amgm_root() -> list[Stmt]:
    f = "amgm_root"
    return [seed(f, "a b", (a + b) / 2, sqrt(a * b)),
            seed(f, "a b c", (a + b + c) / 3, rpow(a * b * c, 1, 3)),
            seed(f, "a b c d", a + b + c + d, 4 * rpow(a * b * c * d, 1, 4)),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, 3 * rpow(a * b * c, 2, 3))]


def fam_power_mean_qm() -> list[Stmt]:
    f = "power_mean_qm"
    return [seed(f, names(n), sqrt(n * S([t ** 2 for t in vv(n)])), S(vv(n))) for n in (2, 3, 4)] + \
        [seed(f, "a b c", sqrt((a ** 2 + b ** 2 + c ** 2) / 3), (a + b + c) / 3)]


def fam_power_mean_cube() -> list[Stmt]:
    f = "power_mean_cube"
    return [seed(f, names(n), n * n * S([t ** 3 for t in vv(n)]), S(vv(n)) ** 3) for n in (2, 3, 4)] + \
        [seed(f, "a b", 8 * (a ** 4 + b ** 4), (a + b) ** 4)]


def fam_power_mean_rpow() -> list[Stmt]:
    f = "power_mean_rpow"
    return [seed(f, "a b", 2 * rpow((a + b) / 2, 1, 3), rpow(a, 1, 3) + rpow(b, 1, 3)),
            seed(f, "a b c", 3 * rpow((a + b + c) / 3, 1, 3), rpow(a, 1, 3) + rpow(b, 1, 3) + rpow(c, 1, 3)),
            seed(f, "a b", rpow(a, 3, 2) + rpow(b, 3, 2), 2 * rpow((a + b) / 2, 3, 2))]


def fam_hm_am() -> list[Stmt]:
    f = "hm_am"
    return [seed(f, names(n), S(vv(n)) * S([1 / t for t in vv(n)]), C(n * n)) for n in (2, 3, 4, 5)]


def fam_weighted_amgm() -> list[Stmt]:
    f = "weighted_amgm"
    return [seed(f, "a b", a + 2 * b, 3 * (rpow(a, 1, 3) * rpow(b, 2, 3))),
            seed(f, "a b", a + 3 * b, 4 * (rpow(a, 1, 4) * rpow(b, 3, 4))),
            seed(f, "a b c", 3 * a + 2 * b + c, 6 * (sqrt(a) * rpow(b, 1, 3) * rpow(c, 1, 6))),
            seed(f, "a b", 2 * a + 3 * b, 5 * (rpow(a, 2, 5) * rpow(b, 3, 5)))]


def fam_sum_sq_products() -> list[Stmt]:
    f = "sum_sq_products"
    return [seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, a * b + b * c + c * a, dom="real"),
            seed(f, "a b c", (a + b + c) ** 2, 3 * (a * b + b * c + c * a), dom="real"),
            seed(f, "a b c d", a ** 2 + b ** 2 + c ** 2 + d ** 2, a * b + b * c + c * d + d * a, dom="real"),
            seed(f, "a b", a ** 2 + b ** 2, 2 * a * b, dom="real")]


def fam_cauchy_schwarz() -> list[Stmt]:
    f = "cauchy_schwarz"
    p, q = V("p"), V("q")
    return [seed(f, "a b p q", (a ** 2 + b ** 2) * (p ** 2 + q ** 2), (a * p + b * q) ** 2, dom="real"),
            seed(f, "a b c p q", (a ** 2 + b ** 2 + c ** 2) * (p ** 2 + q ** 2 + 1), (a * p + b * q + c) ** 2,
                 dom="real")] + \
        [seed(f, names(n), n * S([t ** 2 for t in vv(n)]), S(vv(n)) ** 2, dom="real") for n in (3, 4, 5)]


def fam_titu() -> list[Stmt]:
    f = "titu"
    p, q, r = V("p"), V("q"), V("r")
    return [seed(f, "a b p q", a ** 2 / p + b ** 2 / q, (a + b) ** 2 / (p + q)),
            seed(f, "a b c p q", a ** 2 / p + b ** 2 / q + c ** 2, (a + b + c) ** 2 / (p + q + 1)),
            seed(f, "a b p q r", a ** 2 / p + b ** 2 / q + 1 / r, (a + b + 1) ** 2 / (p + q + r)),
            seed(f, "a b c", a ** 2 / b + b ** 2 / c, (a + b) ** 2 / (b + c))]


def fam_titu_cyclic() -> list[Stmt]:
    f = "titu_cyclic"
    return [seed(f, "a b c", cyc(lambda p, q, r: p ** 2 / q, ABC), a + b + c),
            seed(f, "a b c d", cyc(lambda p, q, r, s: p ** 2 / q, ABCD), a + b + c + d),
            seed(f, "a b c", cyc(lambda p, q, r: p ** 3 / q, ABC), a ** 2 + b ** 2 + c ** 2),
            seed(f, "a b c", cyc(lambda p, q, r: p ** 2 / (q + r), ABC), (a + b + c) / 2)]


def fam_holder_products() -> list[Stmt]:
    f = "holder_products"
    return [seed(f, "a b c", (a ** 3 + 1) * (b ** 3 + 1) * (c ** 3 + 1), (a * b * c + 1) ** 3),
            seed(f, "a b", (a ** 2 + 1) * (b ** 2 + 1), (a * b + 1) ** 2),
            seed(f, "a b c", (a ** 3 + b ** 3 + c ** 3) * (a + b + c), (a ** 2 + b ** 2 + c ** 2) ** 2)]


def fam_holder_gm() -> list[Stmt]:
    f = "holder_gm"
    p, q = V("p"), V("q")
    return [seed(f, "a b c", rpow((1 + a) * (1 + b) * (1 + c), 1, 3), 1 + rpow(a * b * c, 1, 3)),
            seed(f, "a b p q", sqrt((a + p) * (b + q)), sqrt(a * b) + sqrt(p * q)),
            seed(f, "a b", sqrt((1 + a) * (1 + b)), 1 + sqrt(a * b))]


def fam_schur() -> list[Stmt]:
    f = "schur"
    return [seed(f, "a b c", cyc(lambda p, q, r: p * (p - q) * (p - r), ABC), C(0), dom="nonneg"),
            seed(f, "a b c", a ** 3 + b ** 3 + c ** 3 + 3 * a * b * c,
                 a * b * (a + b) + b * c * (b + c) + c * a * (c + a), dom="nonneg"),
            seed(f, "a b c", (a + b + c) ** 3 + 9 * a * b * c, 4 * (a + b + c) * (a * b + b * c + c * a), dom="nonneg"),
            seed(f, "a b c", a * b * c, (a + b - c) * (b + c - a) * (c + a - b), dom="nonneg")]


def fam_schur_sum_const() -> list[Stmt]:
    f = "schur_sum_const"
    q = a * b + b * c + c * a
    return [seed(f, "a b c", 9 * a * b * c + 1, 4 * q, cons=cons_sum(ABC, 1)),
            seed(f, "a b c", 3 * a * b * c + 9, 4 * q, cons=cons_sum(ABC, 3)),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2 + 2 * a * b * c + 1, 2 * q)]


def fam_muirhead() -> list[Stmt]:
    f = "muirhead"
    return [seed(f, "a b c", a ** 4 + b ** 4 + c ** 4, a ** 2 * b ** 2 + b ** 2 * c ** 2 + c ** 2 * a ** 2),
            seed(f, "a b c", a ** 2 * b ** 2 + b ** 2 * c ** 2 + c ** 2 * a ** 2, a * b * c * (a + b + c)),
            seed(f, "a b", a ** 5 + b ** 5, a ** 3 * b ** 2 + a ** 2 * b ** 3),
            seed(f, "a b c", a ** 3 + b ** 3 + c ** 3, a ** 2 * b + b ** 2 * c + c ** 2 * a),
            seed(f, "a b c", 2 * (a ** 3 + b ** 3 + c ** 3), a ** 2 * (b + c) + b ** 2 * (c + a) + c ** 2 * (a + b))]


def fam_schur_deg4() -> list[Stmt]:
    f = "schur_deg4"
    return [seed(f, "a b c", cyc(lambda p, q, r: p ** 2 * (p - q) * (p - r), ABC), C(0), dom="nonneg"),
            seed(f, "a b c", a ** 4 + b ** 4 + c ** 4 + a * b * c * (a + b + c),
                 a * b * (a ** 2 + b ** 2) + b * c * (b ** 2 + c ** 2) + c * a * (c ** 2 + a ** 2), dom="nonneg"),
            seed(f, "a b c", a ** 4 + b ** 4 + c ** 4 + a * b * c * (a + b + c),
                 2 * (a ** 2 * b ** 2 + b ** 2 * c ** 2 + c ** 2 * a ** 2), dom="nonneg")]


def fam_cyclic_4_27() -> list[Stmt]:
    f = "cyclic_4_27"
    lhs = a ** 2 * b + b ** 2 * c + c ** 2 * a + a * b * c
    return [seed(f, "a b c", 4 * (a + b + c) ** 3, 27 * lhs, dom="nonneg"),
            seed(f, "a b c", C(4), lhs, cons=cons_sum(ABC, 3)),
            seed(f, "a b c", C(4, 27), a ** 2 * b + b ** 2 * c + c ** 2 * a, cons=cons_sum(ABC, 1))]


def fam_nesbitt() -> list[Stmt]:
    f = "nesbitt"
    nes = cyc(lambda p, q, r: p / (q + r), ABC)
    return [seed(f, "a b c", nes, C(3, 2)),
            seed(f, "a b c", 2 * nes, C(3)),
            seed(f, "a b c", cyc(lambda p, q, r: (q + r) / p, ABC), C(6)),
            seed(f, "a b c", nes, C(3, 2), cons=cons_sum(ABC, 3))]


def fam_shapiro() -> list[Stmt]:
    f = "shapiro"
    return [seed(f, "a b c d", cyc(lambda p, q, r, s: p / (q + r), ABCD), C(2)),
            seed(f, "a b c d u", cyc(lambda p, q, r, s, t: p / (q + r), VS5), C(5, 2)),
            seed(f, "a b c d", cyc(lambda p, q, r, s: p / (q + r + s), ABCD), C(4, 3))]


def fam_nesbitt_power() -> list[Stmt]:
    f = "nesbitt_power"
    return [seed(f, "a b c", cyc(lambda p, q, r: p ** 3 / (q + r), ABC), (a ** 2 + b ** 2 + c ** 2) / 2),
            seed(f, "a b c", cyc(lambda p, q, r: p ** 2 / (q + r), ABC), C(3, 2), cons=cons_sum(ABC, 3)),
            seed(f, "a b c", cyc(lambda p, q, r: p ** 2 / (p + q), ABC), (a + b + c) / 2)]


def fam_nesbitt_weighted() -> list[Stmt]:
    f = "nesbitt_weighted"
    return [seed(f, "a b c", cyc(lambda p, q, r: p / (q + 2 * r), ABC), C(1)),
            seed(f, "a b c", cyc(lambda p, q, r: p / (p + 2 * q), ABC), C(1)),
            seed(f, "a b c", C(1), cyc(lambda p, q, r: p / (2 * p + q), ABC)),
            seed(f, "a b c", cyc(lambda p, q, r: p / (2 * q + 3 * r), ABC), C(3, 5))]


def fam_prod1_fractions() -> list[Stmt]:
    f = "prod1_fractions"
    return [seed(f, "a b c", C(1), cyc(lambda p, q, r: 1 / (p + 2), ABC), cons=cons_prod(ABC)),
            seed(f, "a b c", cyc(lambda p, q, r: 1 / (p ** 2 + p + 1), ABC), C(1), cons=cons_prod(ABC)),
            seed(f, "a b c", C(1), cyc(lambda p, q, r: 1 / (p + q + 1), ABC), cons=cons_prod(ABC)),
            seed(f, "a b", 1 / (1 + a) ** 2 + 1 / (1 + b) ** 2, C(1, 2), cons=cons_prod(["a", "b"]))]


def fam_imo1995() -> list[Stmt]:
    f = "imo1995"
    return [seed(f, "a b c", cyc(lambda p, q, r: 1 / (p ** 3 * (q + r)), ABC), C(3, 2), cons=cons_prod(ABC)),
            seed(f, "a b c", cyc(lambda p, q, r: p ** 2 / (q + r), ABC), C(3, 2), cons=cons_prod(ABC))]


def fam_ratio_cyclic() -> list[Stmt]:
    f = "ratio_cyclic"
    return [seed(f, "a b", a / b + b / a, C(2)),
            seed(f, "a b c", cyc(lambda p, q, r: p / q, ABC), C(3)),
            seed(f, "a b c d", cyc(lambda p, q, r, s: p / q, ABCD), C(4)),
            seed(f, "a b c", cyc(lambda p, q, r: p / q, ABC), (a + b + c) ** 2 / (a * b + b * c + c * a))]


def fam_recip_pair() -> list[Stmt]:
    f = "recip_pair"
    return [seed(f, "a b", 1 / a + 1 / b, 4 / (a + b)),
            seed(f, "a b c", cyc(lambda p, q, r: 1 / (p + q), ABC), 9 / (2 * (a + b + c))),
            seed(f, "a b c", 1 / a + 1 / b + 1 / c, cyc(lambda p, q, r: 2 / (p + q), ABC)),
            seed(f, "a b c d", 1 / a + 1 / b + 1 / c + 1 / d, 16 / (a + b + c + d))]


def fam_tangent_sum3() -> list[Stmt]:
    f = "tangent_sum3"
    k3 = cons_sum(ABC, 3)
    return [seed(f, "a b c", cyc(lambda p, q, r: p / (1 + q ** 2), ABC), C(3, 2), cons=k3),
            seed(f, "a b c", cyc(lambda p, q, r: 1 / (1 + p ** 2), ABC), C(3, 2), cons=k3),
            seed(f, "a b c", C(1), cyc(lambda p, q, r: 1 / (p ** 2 + q + r), ABC), cons=k3),
            seed(f, "a b c", C(27, 10), cyc(lambda p, q, r: 1 / (1 + p ** 2), ABC), cons=cons_sum(ABC, 1))]


def fam_tangent_sum4() -> list[Stmt]:
    f = "tangent_sum4"
    k4 = cons_sum(ABCD, 4)
    return [seed(f, "a b c d", cyc(lambda p, q, r, s: p / (1 + q ** 2), ABCD), C(2), cons=k4),
            seed(f, "a b c d", cyc(lambda p, q, r, s: 1 / (1 + p ** 2), ABCD), C(2), cons=k4),
            seed(f, "a b c d", C(1), cyc(lambda p, q, r, s: p / (3 + p ** 2), ABCD), cons=k4)]


def fam_sumsq_const() -> list[Stmt]:
    f = "sumsq_const"
    k = cons_sumsq(ABC, 3)
    return [seed(f, "a b c", C(3), a + b + c, cons=k),
            seed(f, "a b c", C(3), a * b + b * c + c * a, cons=k),
            seed(f, "a b c", C(1), a * b * c, cons=k),
            seed(f, "a b c", cyc(lambda p, q, r: 1 / (1 + p * q), ABC), C(3, 2), cons=k),
            seed(f, "a b c", a ** 3 + b ** 3 + c ** 3, C(3), cons=k),
            seed(f, "a b", C(2), a + b, cons=cons_sumsq(["a", "b"], 2))]


def fam_prod1_poly() -> list[Stmt]:
    f = "prod1_poly"
    k = cons_prod(ABC)
    return [seed(f, "a b c", a + b + c, C(3), cons=k),
            seed(f, "a b c", (1 + a) * (1 + b) * (1 + c), C(8), cons=k),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, a + b + c, cons=k),
            seed(f, "a b c", a * b + b * c + c * a, C(3), cons=k),
            seed(f, "a b c d", a + b + c + d, C(4), cons=cons_prod(ABCD)),
            seed(f, "a b", a ** 2 + b ** 2, C(2), cons=cons_prod(["a", "b"]))]


def fam_schur4_cons() -> list[Stmt]:
    f = "schur4_cons"
    k = cons_schur4(ABC)
    return [seed(f, "a b c", a + b + c, C(3), cons=k),
            seed(f, "a b c", a * b + b * c + c * a, C(3), cons=k),
            seed(f, "a b c", C(1), a * b * c, cons=k),
            seed(f, "a b c", a + b + c, a * b + b * c + c * a, cons=k)]


def fam_sigma2_cons() -> list[Stmt]:
    f = "sigma2_cons"
    k = cons_sigma2(ABC)
    return [seed(f, "a b c", a + b + c, sqrt(3), cons=k),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, C(1), cons=k),
            seed(f, "a b c", cyc(lambda p, q, r: 1 / (p + q), ABC), C(5, 2), cons=k),
            seed(f, "a b c", 1 / a + 1 / b + 1 / c, 3 * sqrt(3), cons=k),
            seed(f, "a b c", C(1, 3), a * b * c * (a + b + c), cons=k)]


def fam_cubic_sum_prod4() -> list[Stmt]:
    f = "cubic_sum_prod4"
    k = cons_cubic4(ABC)
    return [seed(f, "a b c", a + b + c, C(3), cons=k),
            seed(f, "a b c", C(1), a * b * c, cons=k),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, C(3), cons=k)]


def fam_cubic_sum_eq_prod() -> list[Stmt]:
    f = "cubic_sum_eq_prod"
    k = cons_sum_eq_prod(ABC)
    return [seed(f, "a b c", a + b + c, 3 * sqrt(3), cons=k),
            seed(f, "a b c", a * b + b * c + c * a, C(9), cons=k),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2, C(9), cons=k)]


def fam_sum1_recip() -> list[Stmt]:
    f = "sum1_recip"
    k = cons_sum(ABC, 1)
    return [seed(f, "a b c", 1 / a + 1 / b + 1 / c, C(9), cons=k),
            seed(f, "a b c", (1 / a - 1) * (1 / b - 1) * (1 / c - 1), C(8), cons=k),
            seed(f, "a b c", (1 + 1 / a) * (1 + 1 / b) * (1 + 1 / c), C(64), cons=k),
            seed(f, "a b", 1 / a + 1 / b, C(4), cons=cons_sum(["a", "b"], 1)),
            seed(f, "a b c d", 1 / a + 1 / b + 1 / c + 1 / d, C(16), cons=cons_sum(ABCD, 1))]


def fam_sum_k_poly() -> list[Stmt]:
    f = "sum_k_poly"
    k = cons_sum(ABC, 3)
    return [seed(f, "a b c", C(3), a * b + b * c + c * a, cons=k),
            seed(f, "a b c", C(1), a * b * c, cons=k),
            seed(f, "a b", C(2), a * b * (a ** 2 + b ** 2), cons=cons_sum(["a", "b"], 2)),
            seed(f, "a b", a ** 4 + b ** 4, C(2), cons=cons_sum(["a", "b"], 2)),
            seed(f, "a b c", C(1, 3), a * b + b * c + c * a, cons=cons_sum(ABC, 1))]


def fam_jensen_sqrt() -> list[Stmt]:
    f = "jensen_sqrt"
    return [seed(f, names(n), sqrt(n * S(vv(n))), S([sqrt(t) for t in vv(n)])) for n in (2, 3, 4)] + \
        [seed(f, "a b c", C(3), sqrt(a) + sqrt(b) + sqrt(c), cons=cons_sum(ABC, 3)),
         seed(f, "a b c", 3 * sqrt(3), sqrt(2 * a + 1) + sqrt(2 * b + 1) + sqrt(2 * c + 1), cons=cons_sum(ABC, 3)),
         seed(f, "a b c", sqrt(6 * (a + b + c)), cyc(lambda p, q, r: sqrt(p + q), ABC))]


def fam_sqrt_cyclic() -> list[Stmt]:
    f = "sqrt_cyclic"
    return [seed(f, "a b c", cyc(lambda p, q, r: sqrt(p / (q + r)), ABC), C(2)),
            seed(f, "a b c", cyc(lambda p, q, r: p / sqrt(q + r), ABC), C(3) / sqrt(2), cons=cons_sum(ABC, 3)),
            seed(f, "a b c", cyc(lambda p, q, r: sqrt(p ** 2 + q ** 2), ABC), sqrt(2) * (a + b + c)),
            seed(f, "a b c", C(3, 2) * (a + b + c), cyc(lambda p, q, r: sqrt(p ** 2 + q * r), ABC))]


def fam_imo2001_radical() -> list[Stmt]:
    f = "imo2001_radical"
    return [seed(f, "a b c", cyc(lambda p, q, r: p / sqrt(p ** 2 + 8 * q * r), ABC), C(1)),
            seed(f, "a b c", cyc(lambda p, q, r: p / sqrt(p ** 2 + 8 * q * r), ABC), C(1), cons=cons_sum(ABC, 3))]


def fam_minkowski() -> list[Stmt]:
    f = "minkowski"
    p, q = V("p"), V("q")
    return [seed(f, "a b p q", sqrt(a ** 2 + p ** 2) + sqrt(b ** 2 + q ** 2), sqrt((a + b) ** 2 + (p + q) ** 2), dom="real"),
            seed(f, "a b", sqrt(a ** 2 + 1) + sqrt(b ** 2 + 1), sqrt((a + b) ** 2 + 4), dom="real"),
            seed(f, "a b c", sqrt(a ** 2 + 1) + sqrt(b ** 2 + 1) + sqrt(c ** 2 + 1), sqrt((a + b + c) ** 2 + 9), dom="real")]


def fam_bernoulli_product() -> list[Stmt]:
    f = "bernoulli_product"
    return [seed(f, "a b", (1 + a) * (1 + b), 1 + a + b),
            seed(f, "a b c", (1 + a) * (1 + b) * (1 + c), 1 + a + b + c),
            seed(f, "a b", (1 + a) ** 3 + (1 + b) ** 3, 2 + 3 * (a + b)),
            seed(f, "a b", rpow(1 + a, 3, 2) + rpow(1 + b, 3, 2), 2 + C(3, 2) * (a + b))]


def fam_young() -> list[Stmt]:
    f = "young"
    return [seed(f, "a b", a ** 3 + 2 * rpow(b, 3, 2), 3 * (a * b)),
            seed(f, "a b", a ** 3 + 2 * b ** 3, 3 * (a * b ** 2)),
            seed(f, "a b c", a ** 3 + b ** 3 + c ** 3, a * b * c * 3),
            seed(f, "a b", a ** 4 + 3 * b ** 4, 4 * (a * b ** 3))]


def fam_chebyshev() -> list[Stmt]:
    f = "chebyshev"
    return [seed(f, "a b c", 3 * (a ** 3 + b ** 3 + c ** 3), (a + b + c) * (a ** 2 + b ** 2 + c ** 2)),
            seed(f, "a b", 2 * (a ** 4 + b ** 4), (a + b) * (a ** 3 + b ** 3)),
            seed(f, "a b c d", 4 * (a ** 3 + b ** 3 + c ** 3 + d ** 3), (a + b + c + d) * (a ** 2 + b ** 2 + c ** 2 + d ** 2))]


def fam_linear_asym() -> list[Stmt]:
    f = "linear_asym"
    return [seed(f, "a b", C(9, 8), a * b, cons=cons_sum(["a", "b"], 3, [1, 2])),
            seed(f, "a b", C(3, 2), a * b, cons=cons_sum(["a", "b"], 6, [2, 3])),
            seed(f, "a b", 1 / a + 4 / b, C(9), cons=cons_sum(["a", "b"], 1)),
            seed(f, "a b c", C(4, 3), a * b * c, cons=cons_sum(ABC, 6, [1, 2, 3]))]


def fam_cauchy_weighted() -> list[Stmt]:
    f = "cauchy_weighted"
    return [seed(f, "a b c", (a + b + c) * (1 / a + 4 / b + 9 / c), C(36)),
            seed(f, "a b", (a + b) * (1 / a + 4 / b), C(9)),
            seed(f, "a b c", (a + b + c) * (1 / a + 1 / b + 4 / c), C(16))]


def fam_iran96() -> list[Stmt]:
    f = "iran96"
    return [seed(f, "a b c", (a * b + b * c + c * a) * cyc(lambda p, q, r: 1 / (p + q) ** 2, ABC), C(9, 4))]


def fam_apmo2004() -> list[Stmt]:
    f = "apmo2004"
    return [seed(f, "a b c", (a ** 2 + 2) * (b ** 2 + 2) * (c ** 2 + 2), 3 * (a + b + c) ** 2),
            seed(f, "a b c", (a ** 2 + 2) * (b ** 2 + 2) * (c ** 2 + 2), 9 * (a * b + b * c + c * a))]


def fam_sqrt_amgm() -> list[Stmt]:
    f = "sqrt_amgm"
    return [seed(f, "a b c", a + b + c, sqrt(a * b) + sqrt(b * c) + sqrt(c * a)),
            seed(f, "a b c", sqrt((a + b) * (a + c)), a + sqrt(b * c)),
            seed(f, "a b", sqrt(a) + sqrt(b), sqrt(a + b))]


def fam_nonhomog_amgm() -> list[Stmt]:
    f = "nonhomog_amgm"
    return [seed(f, "a b", a ** 4 + b ** 4 + 2, 4 * a * b),
            seed(f, "a b", a ** 2 + b ** 2 + 1, a * b + a + b, dom="real"),
            seed(f, "a b", a ** 3 + b ** 3 + 1, 3 * a * b),
            seed(f, "a b c", a ** 2 + b ** 2 + c ** 2 + 3, 2 * (a + b + c), dom="real")]


def fam_power_sums_sum3() -> list[Stmt]:
    f = "power_sums_sum3"
    k = cons_sum(ABC, 3)
    return [seed(f, "a b c", a ** 4 + b ** 4 + c ** 4, a ** 3 + b ** 3 + c ** 3, cons=k),
            seed(f, "a b c", a ** 3 + b ** 3 + c ** 3, a ** 2 + b ** 2 + c ** 2, cons=k),
            seed(f, "a b", a ** 3 + b ** 3, a ** 2 + b ** 2, cons=cons_sum(["a", "b"], 2)),
            seed(f, "a b c d", a ** 3 + b ** 3 + c ** 3 + d ** 3, a ** 2 + b ** 2 + c ** 2 + d ** 2, cons=cons_sum(ABCD, 4))]


def fam_russia_sqrt() -> list[Stmt]:
    f = "russia_sqrt"
    return [seed(f, "a b c", sqrt(a) + sqrt(b) + sqrt(c), a * b + b * c + c * a, cons=cons_sum(ABC, 3)),
            seed(f, "a b", sqrt(a) + sqrt(b), a * b + 1, cons=cons_sum(["a", "b"], 2))]


FAMILIES: dict[str, Callable[[], list[Stmt]]] = {
    fn.__name__[4:]: fn for fn in (
        fam_amgm_sum_prod, fam_amgm_root, fam_power_mean_qm, fam_power_mean_cube, fam_power_mean_rpow, fam_hm_am,
        fam_weighted_amgm, fam_sum_sq_products, fam_cauchy_schwarz, fam_titu, fam_titu_cyclic, fam_holder_products,
        fam_holder_gm, fam_schur, fam_schur_sum_const, fam_muirhead, fam_schur_deg4, fam_cyclic_4_27, fam_nesbitt,
        fam_shapiro, fam_nesbitt_power, fam_nesbitt_weighted, fam_prod1_fractions, fam_imo1995, fam_ratio_cyclic,
        fam_recip_pair, fam_tangent_sum3, fam_tangent_sum4, fam_sumsq_const, fam_prod1_poly, fam_schur4_cons,
        fam_sigma2_cons, fam_cubic_sum_prod4, fam_cubic_sum_eq_prod, fam_sum1_recip, fam_sum_k_poly,
        fam_jensen_sqrt, fam_sqrt_cyclic, fam_imo2001_radical, fam_minkowski, fam_bernoulli_product, fam_young,
        fam_chebyshev, fam_linear_asym, fam_cauchy_weighted, fam_iran96, fam_apmo2004, fam_sqrt_amgm,
        fam_nonhomog_amgm, fam_power_sums_sum3, fam_russia_sqrt)}


def family_seeds(fam: str) -> list[Stmt]:
    out = FAMILIES[fam]()
    return [replace(st, seed=f"{fam}/s{i + 1}") for i, st in enumerate(out)]


def heldout_families(names_: list[str] | None = None) -> list[str]:
    """The fixed split rule: sorted family names shuffled by ``random.Random(SPLIT_SEED)``;
    the first ``ceil(HELDOUT_SHARE · n)`` are held out."""
    fams = sorted(names_ if names_ is not None else FAMILIES)
    random.Random(SPLIT_SEED).shuffle(fams)
    return sorted(fams[:math.ceil(HELDOUT_SHARE * len(fams))])


# ---------------------------------------------------------------- transformations

POOL = ("a", "b", "c", "d", "u", "p", "q", "r", "s", "t", "x", "y", "z", "w", "v")
ALPHABETS = (("a", "b", "c", "d", "u"), ("x", "y", "z", "w", "v"), ("p", "q", "r", "s", "t"))


def _wrap_sampler(smp: Sampler, post: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]) -> Sampler:
    return Sampler(smp.types, lambda u: post(smp.make(u)))


def vsub(st: Stmt, m: dict[str, E], inv_f: dict[str, Callable[[np.ndarray], np.ndarray]],
         inv_q: dict[str, Callable[[Fraction], Fraction | None]], label: str,
         dom: dict[str, str] | None = None) -> Stmt:
    """``st`` with each variable ``v`` of ``m`` replaced by ``m[v]`` (a substitution into a
    universally quantified statement: true stays true). The constraint's sampler and anchor are
    mapped through the inverse maps."""
    cons = st.cons
    smp = st.sampler_
    if cons is not None:
        assert smp is not None
        new_smp = _wrap_sampler(smp, lambda pt: {k: (inv_f[k](v) if k in inv_f else v) for k, v in pt.items()})
        anchor = None
        if cons.anchor is not None:
            vals = [inv_q[k](q) if k in inv_q else q for k, q in zip(st.vars, cons.anchor)]
            anchor = None if any(v is None for v in vals) else tuple(vals)  # type: ignore[arg-type]
        cons = Cons(cons.kind, fold(subst(cons.lhs, m)), fold(subst(cons.rhs, m)), new_smp, anchor)
        smp = new_smp
    nd = tuple((dom or {}).get(v, dv) for v, dv in zip(st.vars, st.dom))
    return replace(st, big=fold(subst(st.big, m)), small=fold(subst(st.small, m)), cons=cons, dom=nd,
                   transform=st.transform + (label,), sampler_=smp)


def _sqrt_q(q: Fraction) -> Fraction | None:
    from family_expr import _root
    return _root(q, 2) if q >= 0 else None


def t_sq(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    if st.cons is not None and st.cons.kind in ("sumsq",):
        return None
    one = rng.random() < 0.4
    vs = [rng.choice(st.vars)] if one else list(st.vars)
    m = {v: V(v) ** 2 for v in vs}
    inv_f = {v: (lambda arr: np.sign(arr) * np.sqrt(np.abs(arr))) for v in vs}
    inv_q = {v: _sqrt_q for v in vs}
    return vsub(st, m, inv_f, inv_q, f"{vs[0]} ↦ {vs[0]}^2" if one else "x ↦ x^2 (all)")


def t_recip(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    if any(dv != "pos" for dv in st.dom) or (st.cons is not None and st.cons.kind == "sumsq"):
        return None
    one = rng.random() < 0.3
    vs = [rng.choice(st.vars)] if one else list(st.vars)
    m = {v: 1 / V(v) for v in vs}
    return vsub(st, m, {v: (lambda arr: 1 / arr) for v in vs}, {v: (lambda q: 1 / q if q else None) for v in vs},
                f"{vs[0]} ↦ 1/{vs[0]}" if one else "x ↦ 1/x (all)")


def t_shift(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    if st.cons is not None:
        return None
    k = rng.choice([1, 1, 2])
    one = rng.random() < 0.5
    vs = [rng.choice(st.vars)] if one else list(st.vars)
    m = {v: V(v) + k for v in vs}
    return vsub(st, m, {}, {}, f"{vs[0]} ↦ {vs[0]} + {k}" if one else f"x ↦ x + {k} (all)")


def t_scale_var(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    k = rng.choice([Fraction(2), Fraction(3), Fraction(1, 2)])
    one = st.cons is None or rng.random() < 0.5
    vs = [rng.choice(st.vars)] if one else list(st.vars)
    m = {v: lift(k) * V(v) for v in vs}
    kf = float(k)
    return vsub(st, m, {v: (lambda arr: arr / kf) for v in vs}, {v: (lambda q: q / k) for v in vs},
                f"{vs[0]} ↦ {k}·{vs[0]}" if one else f"x ↦ {k}·x (all)")


def t_scale_sides(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    k = rng.choice([2, 3, 6, Fraction(1, 2)])
    return replace(st, big=fold(lift(k) * st.big), small=fold(lift(k) * st.small),
                   transform=st.transform + (f"both sides × {k}",))


def t_weaken(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    wk = rng.choice([Fraction(1, 10), Fraction(1, 20), Fraction(1, 5)])
    cs, cb = const_value(st.small) if is_const(st.small) else None, const_value(st.big) if is_const(st.big) else None
    if cs is not None and cs > 0:
        return replace(st, small=lift(cs * (1 - wk)), transform=st.transform + (f"constant {cs} weakened to {cs * (1 - wk)}",))
    if cb is not None and cb > 0:
        return replace(st, big=lift(cb * (1 + wk)), transform=st.transform + (f"constant {cb} weakened to {cb * (1 + wk)}",))
    if cs is None and cb is None and sign_class(st.small, st.domd()) is not None:
        return replace(st, small=fold(lift(1 - wk) * st.small), transform=st.transform + (f"smaller side × {1 - wk}",))
    return None


_MONO: dict[str, tuple[Callable[[E], E], str]] = {
    "sq": (lambda t: t ** 2, "t ↦ t^2 on t ≥ 0"),
    "cube": (lambda t: t ** 3, "t ↦ t^3"),
    "sqrt": (lambda t: sqrt(t), "t ↦ √t on t ≥ 0"),
    "cbrt": (lambda t: rpow(t, 1, 3), "t ↦ t^(1/3) on t ≥ 0"),
    "recip": (lambda t: 1 / t, "t ↦ 1/t (decreasing) on t > 0: sides swap"),
    "t1t": (lambda t: t + 1 / t, "t ↦ t + 1/t (increasing) on t ≥ 1"),
    "frac": (lambda t: t / (1 + t), "t ↦ t/(1+t) (increasing) on t ≥ 0"),
}


def t_mono(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    """A monotone function applied to both sides (one seed's expression put inside another)."""
    name = rng.choice(sorted(_MONO))
    fn, why = _MONO[name]
    sc = sign_class(st.small, st.domd())  # big ≥ small, so big has at least this sign too
    if name in ("sq", "sqrt", "cbrt", "frac") and sc is None:
        return None
    if name == "recip" and sc != "pos":
        return None
    if name == "t1t" and not (is_const(st.small) and (const_value(st.small) or 0) >= 1):
        return None
    if name in ("sqrt", "cbrt") and (st.big.kind in ("sqrt", "rpow") or st.small.kind in ("sqrt", "rpow")):
        return None
    if name in ("sq", "cube") and (st.big.kind in ("sqrt", "rpow") or st.small.kind in ("sqrt", "rpow")):
        return None  # `(√x) ^ 2` simplifies; the front-end refuses such sides
    big, small = fn(st.big), fn(st.small)
    if name == "recip":
        big, small = small, big
    return replace(st, big=fold(big), small=fold(small), transform=st.transform + (f"monotone: {why}",))


def _fresh(used: set[str], n: int) -> list[str] | None:
    out = [v for v in POOL if v not in used][:n]
    return out if len(out) == n else None


def rename(st: Stmt, m: dict[str, str], label: str | None = None) -> Stmt:
    em = {k: V(v) for k, v in m.items()}
    cons = st.cons
    smp = st.sampler_
    if cons is not None:
        assert smp is not None
        smp = _wrap_sampler(smp, lambda pt: {m.get(k, k): v for k, v in pt.items()})
        cons = Cons(cons.kind, subst(cons.lhs, em), subst(cons.rhs, em), smp, cons.anchor)
    return replace(st, vars=tuple(m.get(v, v) for v in st.vars), big=subst(st.big, em), small=subst(st.small, em),
                   cons=cons, sampler_=smp, transform=st.transform + ((label,) if label else ()))


def _dom_ok(partner: str, host: str) -> bool:
    return partner == "real" or partner == host or (partner == "nonneg" and host == "pos")


def t_combine(st: Stmt, rng: random.Random, ctx: Ctx, op: str) -> Stmt | None:
    """The sum (or product: smaller sides ≥ 0) of ``st`` and a seed of a family of the same split."""
    other = rng.choice(ctx.pool)
    if op == "mul" and (sign_class(st.small, st.domd()) is None or sign_class(other.small, other.domd()) is None):
        return None
    k2 = len(other.vars)
    shared = other.cons is None and k2 <= len(st.vars) and rng.random() < 0.6
    if shared:
        targets = rng.sample(list(st.vars), k2)
        if not all(_dom_ok(dv, st.domd()[t]) for dv, t in zip(other.dom, targets)):
            shared = False
    if shared:
        o = rename(other, dict(zip(other.vars, targets)))
        vars_, dom, cons, smp = st.vars, st.dom, st.cons, st.sampler_
        how = "sharing variables"
    else:
        if st.cons is not None and other.cons is not None or len(st.vars) + k2 > 5:
            return None
        fresh = _fresh(set(st.vars), k2)
        if fresh is None:
            return None
        o = rename(other, dict(zip(other.vars, fresh)))
        vars_, dom = st.vars + o.vars, st.dom + o.dom
        cons = st.cons or o.cons
        if cons is None:
            smp = None
        else:
            s1, s2 = st.sampler(), o.sampler()
            n1 = len(s1.types)

            def make(u: np.ndarray, s1: Sampler = s1, s2: Sampler = s2, n1: int = n1) -> dict[str, np.ndarray]:
                return {**s1.make(u[:, :n1]), **s2.make(u[:, n1:])}

            smp = Sampler(s1.types + s2.types, make)
            if st.cons is not None:
                anchor = None if st.cons.anchor is None else st.cons.anchor + (Fraction(1),) * k2
                cons = replace(st.cons, sampler=smp, anchor=anchor)
            else:
                assert o.cons is not None
                anchor = None if o.cons.anchor is None else (Fraction(1),) * len(st.vars) + o.cons.anchor
                cons = replace(o.cons, sampler=smp, anchor=anchor)
        how = "on fresh variables"
    if op == "add":
        big, small = st.big + o.big, st.small + o.small
    else:
        big, small = st.big * o.big, st.small * o.small
    word = "plus" if op == "add" else "times"
    return replace(st, vars=vars_, dom=dom, big=fold(big), small=fold(small), cons=cons, sampler_=smp,
                   transform=st.transform + (f"{word} seed {other.seed} ({how})",))


def t_permute(st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    perm = list(st.vars)
    rng.shuffle(perm)
    if perm == list(st.vars):
        perm = perm[::-1]
    return rename(st, dict(zip(st.vars, perm)), "variables permuted " + " ".join(f"{a}→{b}" for a, b in zip(st.vars, perm)))


TRANSFORMS: list[tuple[str, int, Callable[[Stmt, random.Random, Ctx], Stmt | None]]] = [
    ("sq", 3, t_sq), ("recip", 3, t_recip), ("shift", 3, t_shift), ("scale_var", 3, t_scale_var),
    ("scale_sides", 1, t_scale_sides), ("weaken", 2, t_weaken), ("mono", 3, t_mono),
    ("sum", 3, lambda st, r, cx: t_combine(st, r, cx, "add")), ("prod", 2, lambda st, r, cx: t_combine(st, r, cx, "mul")),
    ("permute", 2, t_permute),
]


@dataclass
class Ctx:
    pool: list[Stmt]


def sample_points(st: Stmt, rng: np.random.Generator, n: int, u: np.ndarray | None = None) -> dict[str, np.ndarray]:
    smp = st.sampler()
    if u is None:
        u = draw_latent(rng, smp.types, n)
    with np.errstate(all="ignore"):
        return smp.make(u)


def pipeline(seed_st: Stmt, rng: random.Random, ctx: Ctx) -> Stmt | None:
    st = seed_st
    depth = rng.choice([1, 1, 2, 2, 2, 3])
    names_, weights = [t[0] for t in TRANSFORMS], [t[1] for t in TRANSFORMS]
    fns = {t[0]: t[2] for t in TRANSFORMS}
    for _ in range(depth):
        for _try in range(6):
            nm = rng.choices(names_, weights)[0]
            new = fns[nm](st, rng, ctx)
            if new is not None:
                st = new
                break
    return None if st is seed_st else st


def finalize(st: Stmt, rng: random.Random) -> Stmt:
    """Rename to one alphabet (a b c d u / x y z w v / p q r s t), in binder order."""
    if len(st.vars) > 5:
        return st
    alpha = rng.choice(ALPHABETS)
    target = alpha[:len(st.vars)]
    if tuple(st.vars) == target:
        return st
    tmp = rename(st, {v: f"_{i}" for i, v in enumerate(st.vars)})
    label = None if set(st.vars) == set(target) and st.vars == target else "renamed to " + " ".join(target)
    return rename(tmp, {f"_{i}": t for i, t in enumerate(target)}, label)


# ---------------------------------------------------------------- checks


class Reject(Exception):
    """A candidate fails a check (the reason is the message's first word)."""


def parse_both(lean: str):
    """The problem as the front-end reads it; Reject unless both readings (with and without the
    LIPS real-division convention) agree on variables, hypotheses and goal."""
    from prover.frontend import ParseError, parse_theorem

    try:
        p = parse_theorem(lean, real_division=False)
        q = parse_theorem(lean, real_division=True)
    except ParseError as exc:
        raise Reject(f"parse: {exc}") from None
    if p.goal != q.goal or [h.rel for h in p.hypotheses] != [h.rel for h in q.hypotheses] \
            or list(p.variables) != list(q.variables):
        raise Reject("parse: the two readings differ")
    return p


def _holds(rel, env) -> bool:
    from prover.oracles.exact_sign import sign

    s = sign(rel.slack(), env)
    if rel.op in ("<=", ">="):
        return s >= 0
    if rel.op in ("<", ">"):
        return s > 0
    if rel.op == "=":
        return s == 0
    raise ValueError(rel.op)


def is_exact_counterexample(problem, point: dict[str, Fraction]) -> bool:
    """Every hypothesis holds and the goal fails at the rational ``point``, decided exactly
    (:func:`prover.oracles.exact_sign.sign`: Rationals, rigorous intervals for radicals)."""
    import sympy as sp

    from prover.oracles.exact_sign import DomainError, Undecided
    from prover.problem import var

    env = {var(k): sp.Rational(v.numerator, v.denominator) for k, v in point.items()}
    try:
        return all(_holds(h.rel, env) for h in problem.hypotheses) and not _holds(problem.goal, env)
    except (DomainError, Undecided, ZeroDivisionError):
        return False


def lean_ast_refutes(lean: str, point: dict[str, Fraction]) -> bool:
    """The same question asked of the independent Lean-semantics evaluator
    (:mod:`prover.semantics.lean_ast`: its own reader, exact rationals, rigorous enclosures):
    every hypothesis decided true and the goal decided false at ``point``."""
    from prover.semantics.lean_ast import ReadError, evaluate, read_lean

    try:
        val = evaluate(read_lean(lean), point, real_division=True)
    except (ReadError, ValueError, ZeroDivisionError):
        return False
    return all(h.verdict is True for h in val.hypotheses) and val.goal.verdict is False


DEN = 2000


def rational_point(st: Stmt, problem, xs: dict[str, float]) -> dict[str, Fraction] | None:
    """A rational point near ``xs`` meeting the constraint exactly: the other variables rounded,
    one variable solved (a rational root), else a line through the anchor (quadrics)."""
    import sympy as sp

    from prover.problem import var

    q = {}
    for v, dv in zip(st.vars, st.dom):
        f = Fraction(xs[v]).limit_denominator(DEN)
        if dv != "real" and f <= 0:
            f = Fraction(1, DEN)
        q[v] = f
    if st.cons is None:
        return q
    hs = [h for h in problem.hypotheses if h.rel.op == "="]
    if len(hs) != 1:
        return None
    g = sp.together(hs[0].rel.lhs - hs[0].rel.rhs)
    cvars = [v for v in reversed(st.vars) if var(v) in g.free_symbols]
    dom = st.domd()
    for dep in cvars:
        sub = {var(k): sp.Rational(val.numerator, val.denominator) for k, val in q.items() if k != dep}
        num = sp.numer(sp.together(g.xreplace(sub)))
        try:
            poly = sp.Poly(num, var(dep))
        except sp.PolynomialError:
            continue
        if poly.degree() < 1:
            continue
        roots = [Fraction(int(r.p), int(r.q)) for r in poly.ground_roots() if r.is_Rational]
        roots = [r for r in roots if dom[dep] == "real" or r > 0]
        if roots:
            q[dep] = min(roots, key=lambda r: abs(float(r) - xs[dep]))
            return q
    if st.cons.anchor is None:
        return None
    t = sp.Symbol("t")
    anchor = dict(zip(st.vars, st.cons.anchor))
    sub = {var(v): sp.Rational(anchor[v].numerator, anchor[v].denominator)
           + t * sp.Rational((q[v] - anchor[v]).numerator, (q[v] - anchor[v]).denominator) for v in cvars}
    num = sp.numer(sp.together(g.xreplace(sub)))
    try:
        poly = sp.Poly(sp.expand(num), t)
    except sp.PolynomialError:
        return None
    quo, rem = sp.div(poly, sp.Poly(t, t))
    if not rem.is_zero or quo.degree() != 1:
        return None
    c1, c0 = quo.all_coeffs()
    tt = -sp.Rational(c0) / sp.Rational(c1)
    for v in cvars:
        val = anchor[v] + Fraction(int(tt.p), int(tt.q)) * (q[v] - anchor[v])
        if dom[v] != "real" and val <= 0:
            return None
        q[v] = val
    return q


def simplest_between(lo: float, hi: float) -> Fraction | None:
    from prover.variants import simplest_rational_between

    return simplest_rational_between(lo, hi)


@dataclass
class Checked:
    st: Stmt
    style: str
    min_slack: float
    false_big: E
    false_small: E
    false_how: str
    point: dict[str, Fraction]


def numeric_check(st: Stmt, seed_key: str) -> tuple[float, dict[str, float], dict[str, float]]:
    """(least relative slack, its point, the point of largest relative slack); Reject on a
    numeric counterexample, on points outside the domain, or when too loose."""
    rng = np.random.default_rng(zlib.crc32(seed_key.encode()))
    smp = st.sampler()
    u = draw_latent(rng, smp.types, POINTS)

    def evaluate(u: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        with np.errstate(all="ignore"):
            pts = smp.make(u)
            n = u.shape[0]
            bv = np.broadcast_to(evalf(st.big, pts), (n,))
            sv = np.broadcast_to(evalf(st.small, pts), (n,))
            ok = np.isfinite(bv) & np.isfinite(sv)
            for v, dv in zip(st.vars, st.dom):
                arr = np.broadcast_to(pts[v], (n,))
                ok &= np.isfinite(arr) & ((arr > 0) if dv == "pos" else (arr >= 0) if dv == "nonneg" else True)
            slack = bv - sv
            if np.any(ok & (slack < -TOL * (1 + np.abs(bv) + np.abs(sv)))):
                raise Reject("numeric: a sampled point violates the goal")
            scale = np.broadcast_to(evalabs(st.big, pts), (n,)) + np.broadcast_to(evalabs(st.small, pts), (n,))
            rel = np.where(ok, slack / (scale + 1e-300), np.nan)
        return rel, pts

    rel, pts = evaluate(u)
    if np.count_nonzero(np.isfinite(rel)) < POINTS // 2:
        raise Reject("domain: too few sampled points inside the domain")
    allrel, allpts = [rel], [pts]
    order = np.argsort(np.where(np.isfinite(rel), rel, np.inf))[:6]
    best_u = u[order]
    sigma = 0.4
    for _ in range(8):
        cand = np.repeat(best_u, 30, axis=0)
        cand = perturb(rng, smp.types, cand, sigma)
        r2, p2 = evaluate(cand)
        allrel.append(r2)
        allpts.append(p2)
        joined = np.concatenate([best_u, cand])
        jr = np.concatenate([np.full(len(best_u), np.inf), r2])
        jr[:len(best_u)] = np.nan_to_num(evaluate(best_u)[0], nan=np.inf)
        best_u = joined[np.argsort(np.where(np.isfinite(jr), jr, np.inf))[:6]]
        sigma *= 0.6
    rel_all = np.concatenate(allrel)
    finite = np.isfinite(rel_all)
    i_min = int(np.argmin(np.where(finite, rel_all, np.inf)))
    i_max = int(np.argmax(np.where(finite, rel_all, -np.inf)))

    def point(i: int) -> dict[str, float]:
        for r, p in zip(allrel, allpts):
            if i < len(r):
                return {v: float(np.broadcast_to(p[v], r.shape)[i]) for v in st.vars}
            i -= len(r)
        raise IndexError(i)

    m = float(rel_all[i_min])
    if m > MAX_SLACK:
        raise Reject(f"loose: least relative slack {m:.3g}")
    return m, point(i_min), point(i_max)


def false_candidates(st: Stmt, xs: dict[str, float]):
    """(big, small, how) of FALSE variants: the bound pushed past its value at ``xs``."""
    env = {k: np.float64(v) for k, v in xs.items()}
    with np.errstate(all="ignore"):
        bv, sv = float(evalf(st.big, env)), float(evalf(st.small, env))
    for delta in (0.05, 0.1, 0.2):
        if is_const(st.small):
            sc = max(abs(bv), 1.0)
            cst = simplest_between(bv + delta * sc, bv + 2 * delta * sc)
            if cst is not None and cst >= 0:
                yield st.big, lift(cst), f"constant {show(st.small)} -> {cst} (least value found {bv:.6g})"
        elif is_const(st.big):
            sc = max(abs(sv), 1.0)
            cst = simplest_between(sv - 2 * delta * sc, sv - delta * sc)
            if cst is not None and cst >= 0:
                yield lift(cst), st.small, f"constant {show(st.big)} -> {cst} (greatest value found {sv:.6g})"
        elif bv > 1e-9 and sv > 1e-9:
            rho = bv / sv
            cst = simplest_between(rho * (1 + delta), rho * (1 + 2 * delta))
            if cst is not None:
                yield st.big, fold(lift(cst) * st.small), f"smaller side × {cst} (least ratio found {rho:.6g})"


def check(st: Stmt, style: str) -> Checked:
    lean = st.lean("candidate", style)
    problem = parse_both(lean)
    if [str(v) for v in problem.variables] != list(st.vars):
        raise Reject("parse: variables")
    m, xmin, xmax = numeric_check(st, lean)
    tries = [(big, small, how, xmin) for big, small, how in false_candidates(st, xmin)]
    tries.append((st.small, st.big, "direction reversed", xmax))
    for big, small, how, xs in tries:
        fst = replace(st, big=big, small=small)
        try:
            fprob = parse_both(fst.lean("candidate_false", style))
        except Reject:
            continue
        pt = rational_point(fst, fprob, xs)
        if pt is not None and is_exact_counterexample(fprob, pt) \
                and lean_ast_refutes(fst.lean("candidate_false", style), pt):
            return Checked(st, style, m, big, small, how, pt)
    raise Reject("false: no FALSE variant confirmed exactly")


# ---------------------------------------------------------------- generation


def _fmt_slack(m: float) -> float:
    return 0.0 if abs(m) < 1e-9 else float(f"{m:.3g}")


def records_for(fam: str, split: str, kept: list[Checked]) -> tuple[list[dict], list[dict]]:
    true_recs, false_recs = [], []
    for i, ch in enumerate(kept, 1):
        name = f"{fam}_{i}"
        ident = f"families/{fam}/{i}"
        tr = " ; ".join(ch.st.transform) if ch.st.transform else "seed"
        true_recs.append({"id": ident, "family": fam, "kind": fam, "split": split, "seed": ch.st.seed,
                          "transform": tr, "source": SOURCE, "lean": ch.st.lean(name, ch.style),
                          "min_slack": _fmt_slack(ch.min_slack)})
        fst = replace(ch.st, big=ch.false_big, small=ch.false_small)
        false_recs.append({"id": f"{ident}__false", "true_id": ident, "family": fam, "kind": fam, "split": split,
                           "how": ch.false_how, "source": SOURCE, "lean": fst.lean(f"{name}_false", ch.style),
                           "counterexample": {k: str(v) for k, v in ch.point.items()}})
    return true_recs, false_recs


def generate_family(fam: str, pool: list[Stmt], target: int = PER_FAMILY, attempts: int = MAX_ATTEMPTS,
                    log: Callable[[str], None] | None = None) -> tuple[list[Checked], Counter]:
    rng = random.Random(zlib.crc32(fam.encode()))
    ctx = Ctx(pool)
    seeds = family_seeds(fam)
    kept: list[Checked] = []
    seen: set[str] = set()
    stats: Counter = Counter()
    for k in range(attempts):
        if len(kept) >= target:
            break
        if k < len(seeds):
            st: Stmt | None = seeds[k]
        else:
            st = pipeline(rng.choice(seeds), rng, ctx)
            if st is None:
                stats["no transform applied"] += 1
                continue
            st = finalize(st, rng)
        style = rng.choice(["ge", "le"])
        key = st.lean("k", "ge")
        if key in seen:
            stats["duplicate"] += 1
            continue
        seen.add(key)
        try:
            kept.append(check(st, style))
            stats["kept"] += 1
        except Reject as exc:
            reason = str(exc).split(":")[0]
            stats[reason] += 1
            if log and k < len(seeds):
                log(f"  seed {st.seed} rejected: {exc}")
    return kept, stats


def generate(families: list[str] | None = None, target: int = PER_FAMILY, attempts: int = MAX_ATTEMPTS,
             log: Callable[[str], None] | None = None) -> dict[str, tuple[list[dict], list[dict], Counter]]:
    """Records per family (the split is always computed on all of ``FAMILIES``)."""
    held = set(heldout_families())
    fams = sorted(FAMILIES) if families is None else list(families)
    pools = {s: [st for f in sorted(FAMILIES) if (f in held) == (s == "heldout") for st in family_seeds(f)]
             for s in ("train", "heldout")}
    out = {}
    for fam in fams:
        split = "heldout" if fam in held else "train"
        kept, stats = generate_family(fam, pools[split], target, attempts, log)
        tr, fr = records_for(fam, split, kept)
        out[fam] = (tr, fr, stats)
        if log:
            log(f"{fam:22s} {split:8s} kept {len(kept):3d}  " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    return out


def dump(recs: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--families", default="", help="comma-separated subset (default: all)")
    ap.add_argument("--per-family", type=int, default=PER_FAMILY)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    fams = [f for f in args.families.split(",") if f] or None
    log = None if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    res = generate(fams, args.per_family, log=log)
    train = [r for fam in sorted(res) for r in res[fam][0] if r["split"] == "train"]
    held = [r for fam in sorted(res) for r in res[fam][0] if r["split"] == "heldout"]
    false = [r for fam in sorted(res) for r in res[fam][1]]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "train.jsonl").write_text(dump(train), encoding="utf-8")
    (args.out / "heldout.jsonl").write_text(dump(held), encoding="utf-8")
    (args.out / "false.jsonl").write_text(dump(false), encoding="utf-8")
    known = {"_comment": "FALSE variants of the family suite (each refuted at an exact rational point, field "
                         "`counterexample` of false.jsonl): any 'proved' is a soundness failure."}
    known.update({r["id"]: f"FALSE variant of {r['true_id']}; refuted exactly at its `counterexample` point"
                  for r in false})
    (args.out / "known_false.json").write_text(json.dumps(known, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    counts = Counter(r["family"] for r in train + held)
    print(f"wrote {len(train)} train + {len(held)} held-out statements ({len(counts)} families) and "
          f"{len(false)} FALSE variants to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
