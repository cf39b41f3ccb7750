"""Absolute values whose argument has no known sign (issue #28): textbook forms that need a
case split on the sign of each argument, each under transformations (an affine argument
``k·x + c``, scaled weights, other constants). ``python make_abs_cases.py`` writes
``abs_cases_train.jsonl`` and ``abs_cases_heldout.jsonl`` (deterministic).

Every statement is true by construction (the comment at each family says why). Families in
``HELD_OUT`` are measured, not looked at while building the method.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generated_suite import affine, arg, write_suite

HELD_OUT = ("two_point", "abs_product", "abs_quadratic_lower")


def _num(q: Fraction) -> str:
    """A Lean numeral for a rational: ``3``, ``-2``, ``(3 / 2)``, ``(-1 / 2)``."""
    if q.denominator == 1:
        return str(q.numerator) if q >= 0 else f"({q.numerator})"
    return f"({q.numerator} / {q.denominator})"


AFFINE = [(1, -1), (1, 2), (2, -3), (3, 1), (-1, 4), (2, 5), (-2, -1), (1, 0)]


def interval_upper() -> list[str]:
    # |k x + c| < b gives k x + c < b, so x < (b − c)/k for k > 0 and x > (b − c)/k for k < 0
    out = []
    for i, (k, c) in enumerate(AFFINE):
        b = 2 + i % 3
        bound = Fraction(b - c, k)
        rel = "<" if k > 0 else ">"
        out.append(f"(x : ℝ) (h : |{affine(k, c)}| < {b}) : x {rel} {_num(bound)}")
    return out


def interval_lower() -> list[str]:
    # |k x + c| ≤ b gives −b ≤ k x + c
    out = []
    for i, (k, c) in enumerate(AFFINE):
        b = 1 + i % 4
        bound = Fraction(-b - c, k)
        rel = "≥" if k > 0 else "≤"
        out.append(f"(x : ℝ) (h : |{affine(k, c)}| ≤ {b}) : x {rel} {_num(bound)}")
    return out


def triangle() -> list[str]:
    # |p x + q y| ≤ |p|·|x| + |q|·|y|
    out = []
    for p, q in [(1, 1), (1, -1), (2, 3), (2, -1), (-3, 1), (1, 4), (3, -2), (-1, -1)]:
        lhs = f"{affine(p, 0)} {'+' if q > 0 else '-'} {'' if abs(q) == 1 else f'{abs(q)} * '}y"
        rhs_x = "|x|" if abs(p) == 1 else f"{abs(p)} * |x|"
        rhs_y = "|y|" if abs(q) == 1 else f"{abs(q)} * |y|"
        out.append(f"(x y : ℝ) : |{lhs}| ≤ {rhs_x} + {rhs_y}")
    return out


def reverse_triangle() -> list[str]:
    # |u| − |v| ≤ |u − v| for u, v affine in x and y
    out = []
    for (k, c), (m, d) in [((1, 0), (1, 0)), ((1, 1), (1, 0)), ((2, 0), (1, -1)), ((1, -2), (3, 0)),
                           ((1, 0), (2, 1)), ((-1, 1), (1, 1)), ((3, -1), (1, 2)), ((2, 1), (-1, 0))]:
        u, v = affine(k, c, "x"), affine(m, d, "y")
        out.append(f"(x y : ℝ) : |{u}| - |{v}| ≤ |{u} - {arg(v)}|")
    return out


def self_bound() -> list[str]:
    # u ≤ |u| and −|u| ≤ u, shifted: u + a ≤ |u| + a
    out = []
    for i, (k, c) in enumerate(AFFINE):
        u = affine(k, c)
        out.append(f"(x : ℝ) : {u} ≤ |{u}|" if i % 2 == 0 else f"(x : ℝ) : -|{u}| ≤ {u}")
    return out


def interval_square() -> list[str]:
    # |x − a| ≤ b gives a − b ≤ x ≤ a + b, so x² ≤ max((a − b)², (a + b)²)
    out = []
    for a, b in [(1, 2), (0, 3), (-1, 1), (2, 1), (3, 2), (-2, 3), (1, 1), (-3, 2)]:
        m = max((a - b) ** 2, (a + b) ** 2)
        out.append(f"(x : ℝ) (h : |{affine(1, -a)}| ≤ {b}) : x ^ 2 ≤ {m}")
    return out


def two_point() -> list[str]:
    # |x − a| + |x − b| ≥ |a − b| (the distance to two points); also with weights 2 and 1
    out = []
    for a, b in [(1, 3), (-1, 2), (0, 5), (-3, -1), (2, 7), (-2, 2)]:
        out.append(f"(x : ℝ) : |{affine(1, -a)}| + |{affine(1, -b)}| ≥ {abs(a - b)}")
    for a, b in [(1, 3), (0, 2)]:
        out.append(f"(x : ℝ) : 2 * |{affine(1, -a)}| + |{affine(1, -b)}| ≥ {abs(a - b)}")
    return out


def abs_product() -> list[str]:
    # |x| ≤ a and |y| ≤ b give |x|·|y| ≤ a b
    out = []
    for a, b in [(1, 1), (2, 3), (1, 2), (3, 1)]:
        out.append(f"(x y : ℝ) (hx : |x| ≤ {a}) (hy : |y| ≤ {b}) : |x| * |y| ≤ {a * b}")
    for a, b in [(1, 1), (2, 1), (1, 3), (2, 2)]:
        out.append(f"(x y : ℝ) (hx : |x| < {a}) (hy : |y| < {b}) : x * y < {a * b}")
    return out


def abs_quadratic_lower() -> list[str]:
    # x² + c ≥ 2·√c·|x|... with c = k²: x² + k² ≥ 2k|x| ((|x| − k)² ≥ 0); and x² − |x| + 1/4 ≥ 0
    out = [f"(x : ℝ) : x ^ 2 + {k * k} ≥ {2 * k} * |x|" for k in (1, 2, 3)]
    out += ["(x y : ℝ) : x ^ 2 + y ^ 2 ≥ 2 * |x| * |y|", "(x : ℝ) : x ^ 2 - |x| + 1 / 4 ≥ 0",
            "(x y : ℝ) : x ^ 2 + y ^ 2 ≥ 2 * |x * y|", "(x : ℝ) : |x| ^ 3 + 1 ≥ |x| ^ 2 + |x|"]
    return out


FAMILIES = {f.__name__: f for f in (interval_upper, interval_lower, triangle, reverse_triangle, self_bound,
                                     interval_square, two_point, abs_product, abs_quadratic_lower)}


if __name__ == "__main__":
    write_suite(Path(__file__).parent, "abs_cases", FAMILIES, HELD_OUT, "abs_cases (generated)")
