"""Renderer rules that join a statement's text to our printing where ``ring`` alone cannot:
a root in a denominator the user wrote (``π / √2`` against sympy's ``π·√2/2``: ``Real.sq_sqrt``
with a computed coefficient), ``(1 / x)⁻¹`` in a lemma's conclusion (a field identity), a
substituted hypothesis equal to the goal's up to a field identity, ``Real.log (x / y)`` against
the product ``x * (1 / y)`` that ``Real.log_mul`` names (``congrArg``), and ``√(p²)`` instantiated
as the goal's own ``|p|``. Each saved proof failed the replay model before its rule."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from prover.ir import Proof
from tests.solver_checks import saved_proof_renders_and_replays

DATA = Path(__file__).parent / "data" / "render_bridges"
CASES = sorted(p.name.removesuffix(".proof.json") for p in DATA.glob("*.proof.json"))


@pytest.mark.parametrize("name", CASES)
def test_saved_proofs_check_render_and_replay(name: str) -> None:
    saved_proof_renders_and_replays(DATA / f"{name}.proof.json")


def test_the_rules_fire_where_expected() -> None:
    from prover.lean.render import render_proof

    texts = {n: render_proof(Proof.loads((DATA / f"{n}.proof.json").read_text())) for n in CASES}
    assert "Real.sqrt 2 ^ 2 = 2 := Real.sq_sqrt" in texts["pi_mixed_2"]
    assert "(1 / x)⁻¹ = x := by linear_combination" in texts["log_ratio_3"]
    assert "congrArg Real.log" in texts["log_ratio_4"]
    assert "introduce t1 = |x - 1 / x|" in texts["max_recip_4"] and "abs_of_nonneg" in texts["max_recip_4"]


def _ctx():
    from prover.lean.render.common import RenderContext
    return RenderContext([], itertools.count(1), None, "linear_combination")


def test_root_square_facts_coefficient_and_refusal() -> None:
    from prover.lean.render.atoms import Facts, root_square_facts

    facts = Facts(_ctx())
    found = root_square_facts("Real.pi / Real.sqrt 2", "Real.pi * Real.sqrt 2 / 2", [], facts)
    assert found is not None and len(found) == 1 and found[0].lhs == "Real.sqrt 2 ^ 2"
    assert root_square_facts("x / Real.sqrt 2", "x", ["x"], Facts(_ctx())) is None      # not equal
    assert root_square_facts("x * 2", "2 * x", ["x"], Facts(_ctx())) == []                # nothing to do


_PI_COEFFICIENT = """import Mathlib

theorem t (x : ℝ) (h : x = 2) : Real.pi * x = {rhs} := by
  linear_combination (Real.pi) * h
"""


@pytest.mark.parametrize(("rhs", "ok"), [("2 * Real.pi", True), ("3 * Real.pi", False), ("2 * x", False)])
def test_replay_reads_pi_as_a_coefficient(rhs: str, ok: bool) -> None:
    from prover.lean.replay import replay_text

    assert replay_text(_PI_COEFFICIENT.format(rhs=rhs)).ok is ok
