"""``max``/``min`` statements (issue #28): textbook forms, each under transformations (affine
arguments ``k·x + c``, weights, other constants). ``python make_max_min.py`` writes
``max_min_train.jsonl`` and ``max_min_heldout.jsonl`` (deterministic).

Every statement is true by construction (the comment at each family says why). Families in
``HELD_OUT`` are measured, not looked at while building the method.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generated_suite import affine, arg, write_suite

HELD_OUT = ("max_recip", "max_square", "min_nested")


PAIRS = [((1, 0), (1, 0)), ((2, 1), (1, -1)), ((1, -3), (3, 0)), ((-1, 2), (2, 0)),
         ((3, 1), (-1, 1)), ((1, 4), (1, -4))]


def max_ge() -> list[str]:
    # max u v ≥ u, ≥ v and ≥ (u + v)/2
    out = []
    for i, ((k, c), (m, d)) in enumerate(PAIRS):
        u, v = affine(k, c, "x"), affine(m, d, "y")
        rhs = (u, v, f"(({u}) + ({v})) / 2")[i % 3]
        out.append(f"(x y : ℝ) : max {arg(u)} {arg(v)} ≥ {rhs}")
    return out


def min_le() -> list[str]:
    # min u v ≤ u, ≤ v and ≤ (u + v)/2
    out = []
    for i, ((k, c), (m, d)) in enumerate(PAIRS):
        u, v = affine(k, c, "x"), affine(m, d, "y")
        rhs = (f"(({u}) + ({v})) / 2", u, v)[i % 3]
        out.append(f"(x y : ℝ) : min {arg(u)} {arg(v)} ≤ {rhs}")
    return out


def max_min_identity() -> list[str]:
    # max + min = u + v; max − min = |u − v|; max · min = u · v
    out = []
    for i, ((k, c), (m, d)) in enumerate(PAIRS):
        u, v = affine(k, c, "x"), affine(m, d, "y")
        mx, mn = f"max {arg(u)} {arg(v)}", f"min {arg(u)} {arg(v)}"
        out.append((f"(x y : ℝ) : {mx} + {mn} = {u} + ({v})", f"(x y : ℝ) : {mx} - {mn} = |{u} - ({v})|",
                    f"(x y : ℝ) : {mx} * {mn} = ({u}) * ({v})")[i % 3])
    return out


def bound_hypothesis() -> list[str]:
    # max u v ≤ c gives u + v ≤ 2c; min u v ≥ c gives u + v ≥ 2c; strict alike
    out = []
    for i, ((k, c), (m, d)) in enumerate(PAIRS):
        u, v = affine(k, c, "x"), affine(m, d, "y")
        b = 1 + i
        if i % 2 == 0:
            out.append(f"(x y : ℝ) (h : max {arg(u)} {arg(v)} ≤ {b}) : {u} + ({v}) ≤ {2 * b}")
        else:
            out.append(f"(x y : ℝ) (h : min {arg(u)} {arg(v)} > {b}) : {u} + ({v}) > {2 * b}")
    return out


def max_recip() -> list[str]:
    # for x > 0: max x (k²/x) ≥ k (if both were below k, their product k² would be below k²)
    return [f"(x : ℝ) (hx : 0 < x) : max x ({k * k} / x) ≥ {k}" for k in (1, 2, 3)] + \
        [f"(x : ℝ) (hx : 0 < x) : min x ({k * k} / x) ≤ {k}" for k in (1, 2, 3)]


def max_square() -> list[str]:
    # max (x²) (y²) ≥ x y and ≥ (x² + y²)/2 is false, so ≥ min: max ≥ min; max(x², y²) ≥ |x y|
    return ["(x y : ℝ) : max (x ^ 2) (y ^ 2) ≥ x * y", "(x y : ℝ) : max (x ^ 2) (y ^ 2) ≥ min (x ^ 2) (y ^ 2)",
            "(x y : ℝ) : min (x ^ 2) (y ^ 2) ≤ x ^ 2 + y ^ 2", "(x y : ℝ) : max (x ^ 2) (y ^ 2) ≥ |x * y|",
            "(x : ℝ) : max x (x ^ 2) ≥ 0 - 1 / 4", "(x : ℝ) : min x (1 - x) ≤ 1 / 2"]


def min_nested() -> list[str]:
    # min of three below their mean, max of three above it
    return ["(x y z : ℝ) : min x (min y z) ≤ (x + y + z) / 3", "(x y z : ℝ) : max x (max y z) ≥ (x + y + z) / 3",
            "(x y z : ℝ) : max (max x y) z ≥ y", "(x y z : ℝ) : min (min x y) z ≤ z",
            "(a b : ℝ) : max a b ≥ min a b", "(a b c : ℝ) (h : max a (max b c) ≤ 0) : a + b + c ≤ 0"]


FAMILIES = {f.__name__: f for f in (max_ge, min_le, max_min_identity, bound_hypothesis,
                                     max_recip, max_square, min_nested)}


if __name__ == "__main__":
    write_suite(Path(__file__).parent, "max_min", FAMILIES, HELD_OUT, "max_min (generated)")
