"""Long sums are printed as balanced trees: Lean nests ``a + b + c + …`` one level a summand,
against ``maxRecDepth`` 512 (schur_sum_const/8's coefficient of 636 summands nested 577 deep)."""

from __future__ import annotations

import sys

import sympy as sp

from prover.lean import replay as rp
from prover.lean.replay.resources import size_depth
from prover.lean.syntax import BALANCED_ABOVE, lean_expr


def _term(text: str, names: list[str]):
    return rp.parse_term(rp.lex(text), rp.Scope({v: v for v in names}))


def test_long_sum_is_balanced_and_equal_to_the_flat_one() -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))   # the flat sum is 600 deep
    x, y = sp.symbols("x y")
    e = sum((-1) ** k * (k + 1) * x ** k * y ** (k % 3) for k in range(600))
    text = lean_expr(e)
    balanced = _term(text, ["x", "y"])
    flat = _term(" ".join([text.replace("(", "").replace(")", "")]), ["x", "y"])
    assert size_depth(balanced)[1] < 200 < size_depth(flat)[1]
    norm = rp.RingNormalizer([("sub", balanced, flat)])
    assert norm.norm(("sub", balanced, flat)).is_zero()


def test_short_sums_are_printed_flat() -> None:
    x = sp.symbols("x")
    e = sum(x ** k for k in range(BALANCED_ABOVE))
    assert "(" not in lean_expr(e)
