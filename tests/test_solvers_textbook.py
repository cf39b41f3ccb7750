"""The built-in textbook suite (benchmarks/textbook.jsonl): closers alone, kernel-checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from prover.frontend import load_benchmark
from prover.ir import Goal, Proof
from prover.search.close import close_goal
from prover.verify import check_proof

SUITE = Path(__file__).resolve().parents[1] / "benchmarks" / "textbook.jsonl"
FAST = {"amgm3", "amgm4_squares", "schur_t1", "nesbitt", "vasc", "cauchy_3x3", "imo1964_p2",
        "harmonic_3", "sum_three_products", "iran_1996"}


def _problems():
    return {p.name.split("/")[-1]: p for p in load_benchmark(SUITE)}


def test_suite_is_large_enough():
    assert len(_problems()) >= 25


def _prove(p) -> None:
    step = close_goal(Goal.from_problem(p), 30)
    assert step is not None, p.name
    v = check_proof(Proof(p, step))
    assert v.ok, v.errors


@pytest.mark.parametrize("name", sorted(FAST))
def test_fast_subset(name):
    _prove(_problems()[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(_problems()) - FAST))
def test_rest_of_suite(name):
    _prove(_problems()[name])
