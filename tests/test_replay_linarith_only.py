"""``linarith only [t₁, …, tₙ]`` in the replay model: the goal and the listed facts alone (Mathlib's
``Linarith/Frontend.lean``), preprocessed alone for the heartbeat estimate. The attacks: a fact
left out of the list is not used, ``linarith only`` with no list uses none, an unknown or
ill-typed term fails, and a context fact the list leaves out is not charged."""

from __future__ import annotations

from prover.lean.replay import replay_text
from tests.test_lean_resources import HEADER, _linarith_block

STMT = "theorem t (a b c : ℝ) (h₁ : a ≤ b) (h₂ : b ≤ c) (hz : 0 ≤ c) : a ≤ c + 1 := by\n"


def _run(tactic: str):
    return replay_text(HEADER + STMT + "  " + tactic + "\n")


def test_the_needed_facts_listed_pass() -> None:
    for tac in ("linarith", "linarith only [h₁, h₂]", "linarith only [h₂, h₁, hz]"):
        rep = _run(tac)
        assert rep.ok, (tac, rep.summary())


def test_a_needed_fact_left_out_of_the_list_fails() -> None:
    for tac in ("linarith only [h₁]", "linarith only [h₂]", "linarith only", "linarith only []"):
        rep = _run(tac)
        assert not rep.ok and any(s.kind == "linarith" for s in rep.failures), tac


def test_unknown_names_and_non_proofs_fail() -> None:
    assert not _run("linarith only [h₁, h₉]").ok
    assert not _run("linarith only [h₁, a]").ok            # a real number, not a proof
    assert not _run("linarith only [h₁, foo_bar h₂]").ok


def test_proof_terms_in_the_list_are_elaborated() -> None:
    rep = replay_text(HEADER + "theorem t (a : ℝ) : 0 ≤ a ^ 2 + 1 := by\n  linarith only [sq_nonneg a]\n")
    assert rep.ok, rep.summary()
    rep = replay_text(HEADER + "theorem t (a : ℝ) : 0 ≤ a ^ 2 - 1 := by\n  linarith only [sq_nonneg a]\n")
    assert not rep.ok


def test_linarith_with_extra_terms_but_no_only_is_still_not_modelled() -> None:
    rep = _run("linarith [h₁]")
    assert not rep.ok


def test_only_the_listed_facts_are_charged() -> None:
    full = replay_text(_linarith_block(20))
    only = replay_text(_linarith_block(20).replace("by linarith", "by linarith only [hx]"))
    assert only.ok, only.summary()
    f, o = full.resources[0], only.resources[0]
    assert f.linarith_calls == o.linarith_calls == 20
    assert o.parts["linarith"] * 20 < f.parts["linarith"]    # the 360-node hypothesis is not preprocessed
