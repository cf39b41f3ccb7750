"""Train-family proofs whose files went over the replay model's size budget because one identity
cleared nested fractions all at once: a summand ``X / Y`` with fractions in ``Y`` (cross-multiplied
one level at a time, ``hcross``) and a paired power ``X ^ k = Y ^ k`` of a substitution
(``X = Y`` first, ``hbase``); a combination too long for one tactic has its largest terms proved
apart (``hpart``). Each must now render within the budgets and pass the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from prover.ir import Proof
from prover.lean.render import render_proof
from prover.lean.replay import TACTIC_BUDGET, replay_text

DATA = Path(__file__).parent / "data" / "nested_size"

CASES = [
    ("nesbitt_power_5.proof.json", "hcross"),     # 1 / Σ (1/p)² / (1/p + 1/q): was a 36 k tactic
    ("shapiro_17.proof.json", "hcross"),          # S / (S + 1), S a sum of five fractions: 70 k
    ("imo1995_18.proof.json", "hbase"),           # (Σ nested)² paired with its instance: 22.7 k
    pytest.param("tangent_sum3_17.proof.json", "hcross", marks=pytest.mark.slow),   # about a minute
    pytest.param("tangent_sum4_4.proof.json", "hpart", marks=pytest.mark.slow),     # one tactic of 25 k
]


@pytest.mark.parametrize("name,marker", CASES)
def test_nested_fractions_render_within_the_budget_and_pass(name: str, marker: str) -> None:
    lean = render_proof(Proof.loads((DATA / name).read_text(encoding="utf-8")))
    assert marker in lean
    report = replay_text(lean)
    assert report.ok, (name, [v for v in report.steps if not v.ok][:3])
    assert report.longest_tactic <= TACTIC_BUDGET


def test_a_power_pair_needs_equal_bases_not_only_equal_powers() -> None:
    """``(a − b)² = (b − a)²`` holds, but ``a − b = b − a`` does not: no base step then."""
    from prover.lean.render.variables import Termwise, _power_pair
    same = Termwise(lambda e: e, lambda e: [], lambda text: text)
    assert _power_pair("(a + b) ^ 2", "(b + a) ^ 2", same, ["a", "b"]) == ("a + b", "b + a", 2)
    assert _power_pair("(a - b) ^ 2", "(b - a) ^ 2", same, ["a", "b"]) is None
    assert _power_pair("(a + b) ^ 2", "(a + b) ^ 3", same, ["a", "b"]) is None
