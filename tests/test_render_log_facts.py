"""Renderer rules for ``Real.log`` facts, on proofs found by ``prover eval`` on the train families
of ``benchmarks/logb_pi`` (each file failed the replay model before its rule):

* ``logb_mono_2``: the multiplier ``-1 / log (1/2)``: ``positivity`` has no extension for the log
  of a numeral below 1 nor for a negation, so ``0 < -log (1/2)`` comes from ``Real.log_neg`` and the
  multiplier is printed ``1 / (-log (1/2))``;
* ``logb_numeric_3``: a denominator ``u ≠ 0`` with the hypothesis ``u < 0`` (``positivity``'s
  ``compareHyp`` reads lower bounds only): ``h.ne``;
* ``logb_linear_system_7``: ``log (x * y * z) = log x + log y + log z``, one ``Real.log_mul`` per
  ``*`` (only two factors were rendered);
* ``logb_power_8``: ``Real.log_pos`` needs ``1 < x ^ 3`` from ``1 < x``: a certified
  ``0 < x ^ 3 - 1`` first (``linarith`` alone fails on the power)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import sympy as sp

from prover.ir import Proof
from tests.solver_checks import proved_file_passes, saved_proof_renders_and_replays, tampered_fails

DATA = Path(__file__).parent / "data" / "logb_render"
CASES = sorted(p.name.removesuffix(".proof.json") for p in DATA.glob("*.proof.json"))


@pytest.mark.parametrize("name", CASES)
def test_saved_log_proofs_check_render_and_replay(name: str) -> None:
    saved_proof_renders_and_replays(DATA / f"{name}.proof.json")


def test_the_rules_fire_where_expected() -> None:
    from prover.lean.render import render_proof

    texts = {n: render_proof(Proof.loads((DATA / f"{n}.proof.json").read_text())) for n in CASES}
    assert "Real.log_neg" in texts["logb_mono_2"] and "1 / (-Real.log (1 / 2))" in texts["logb_mono_2"]
    assert ".ne\n" in texts["logb_numeric_3"]
    assert texts["logb_linear_system_7"].count("Real.log_mul") == 2
    assert "< x ^ 3 - 1 := by" in texts["logb_power_8"]


def _ctx():
    from prover.lean.render.common import RenderContext

    return RenderContext([], itertools.count(1), None, "linear_combination")


def test_numeral_log_signs() -> None:
    from prover.lean.render.common import factored_text
    from prover.lean.render.linear import numeral_log_sign_facts

    log = sp.Function("log")  # not sympy's log: a plain atom must get no fact
    lines, negative = numeral_log_sign_facts(_ctx(), log(sp.Rational(1, 2)))
    assert lines == [] and negative == set()
    half, three_halves = sp.log(sp.Rational(1, 2), evaluate=False), sp.log(sp.Rational(3, 2), evaluate=False)
    lines, negative = numeral_log_sign_facts(_ctx(), half * three_halves * sp.log(2))
    assert negative == {half}
    assert any("Real.log_neg" in x for x in lines) and any("Real.log_pos" in x for x in lines)
    assert not any("Real.log (2)" in x for x in lines)       # positivity's evalLogNatLit
    assert factored_text(-1 / half, negative) == "1 / (-Real.log (1 / 2))"


def test_log_of_a_reciprocal_is_the_negated_log() -> None:
    """The kernel's normal form reads ``log (1 / y)`` as ``−log y`` (``Real.log_inv``), so an
    introduce step may state ``u₁ = −u₂`` with no certificate terms; the file bridges it
    (``1 / y = y⁻¹`` by ``ring``, then ``Real.log_inv``, whitelisted) instead of leaving it to
    ``positivity``. A wrong sign in the law's statement is refused."""
    law = "Real.log y⁻¹ = -Real.log y := Real.log_inv y"
    text = proved_file_passes("theorem t (y : ℝ) (hy : 0 < y) : Real.log (1 / y) + Real.log y ≤ 1 := by sorry", law)
    assert tampered_fails(text, law, "Real.log y⁻¹ = Real.log y := Real.log_inv y")


def test_a_one_below_side_condition_gets_the_gap_sign_by_positivity() -> None:
    """``Real.log_pos`` needs ``1 < 2 + exp y``; ``linarith`` alone does not know ``0 < exp y + 1``
    and no SOS certificate exists for an ``exp`` gap, so the file states it by ``positivity`` first;
    without that fact the ``linarith`` fails the model."""
    text = proved_file_passes("theorem t (y : ℝ) : 0 < Real.log (2 + Real.exp y) := by sorry")
    gap = next(line for line in text.splitlines() if "hgap" in line and "positivity" in line)
    assert tampered_fails(text, gap + "\n", "")


def test_a_substituted_hypothesis_times_the_equality_comes_from_the_kernel_certificate() -> None:
    """A substitution ``u₃₁ = 2·u₂₁`` turns the fact ``b² − 1 ≤ u₃₁·b²`` into ``b² − 1 ≤ 2·u₂₁·b²``:
    ``linarith`` cannot multiply the equality by ``b²``, so the premise is proved from the kernel's
    certificate of it (``linear_combination … + (b ^ 2) * h``); the same with ``linarith`` fails."""
    import re

    text = proved_file_passes("theorem t (a b : ℝ) (h₀ : 0 < a ∧ 0 < b) (h₁ : Real.log (a * b ^ 2) = 2) "
                              "(h₂ : Real.log (b * a ^ 2) = 1) : Real.log (a * b) = 1 := by sorry", time_limit=60)
    found = re.search(r"\(by linear_combination \(sub_nonneg\.mpr (hv\d+)\) \+ \(b \^ 2\) \* (hv\d+)\)", text)
    assert found is not None
    assert tampered_fails(text, found.group(0), f"(by linarith [{found.group(1)}, {found.group(2)}])")
