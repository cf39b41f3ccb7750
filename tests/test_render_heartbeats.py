"""The renderer's ``set_option maxHeartbeats N in``: ``N`` from the replay model's estimate of each
declaration's work (issue 29 item 2), placed so that Lean and the model read it as that
declaration's budget. The attacks: a budget under the estimate is still a failure, a budget is
never granted to the wrong declaration, and a docstring never separates the option from its theorem."""

from __future__ import annotations

from prover.lean.render.budget import (
    DEFAULT_HEARTBEATS,
    HEARTBEAT_STEP,
    RENDER_HEARTBEAT_MARGIN,
    granted_heartbeats,
    with_heartbeat_options,
)
from prover.lean.replay import HEARTBEAT_THRESHOLD, replay_text
from tests.test_lean_resources import HEADER, _linarith_block


def test_granted_budget_is_the_margin_times_the_estimate_rounded_up_never_under_the_default() -> None:
    assert RENDER_HEARTBEAT_MARGIN == 2
    assert granted_heartbeats(0) == granted_heartbeats(100_000) == DEFAULT_HEARTBEATS
    assert granted_heartbeats(100_001) == 300_000
    assert granted_heartbeats(1_000_000) == 2_000_000
    for est in (1, 99_999, 150_000, 777_777, 34_407_493):
        n = granted_heartbeats(est)
        assert n % HEARTBEAT_STEP == 0 and n >= RENDER_HEARTBEAT_MARGIN * est and n >= DEFAULT_HEARTBEATS


def test_a_light_file_is_left_as_it_is() -> None:
    text = HEADER + "theorem small (a b : ℝ) (h : a ≤ b) : a ≤ b + 1 := by\n  linarith\n"
    assert with_heartbeat_options(text) == text


def test_a_heavy_block_gets_twice_its_estimate_and_then_passes() -> None:
    text = _linarith_block(20)
    before = replay_text(text)
    assert not before.ok            # over the default 200,000 (the model's own test)
    out = with_heartbeat_options(text)
    [res] = replay_text(out).resources
    est = before.resources[0].heartbeats
    assert res.heartbeats == est                       # the option changes the budget, not the work
    assert res.heartbeat_budget == granted_heartbeats(est) >= 2 * est
    assert f"set_option maxHeartbeats {granted_heartbeats(est)} in\ntheorem block" in out
    assert replay_text(out).ok, replay_text(out).summary()


def test_a_budget_under_the_estimate_is_still_a_failure() -> None:
    text = _linarith_block(20)
    est = replay_text(text).resources[0].heartbeats
    short = text.replace("theorem block", f"set_option maxHeartbeats {est - 1} in\ntheorem block")
    rep = replay_text(short)
    assert not rep.ok and any("exceed maxHeartbeats" in s.reason for s in rep.failures)


def test_each_declaration_gets_its_own_budget_before_its_docstring() -> None:
    heavy = _linarith_block(20).removeprefix(HEADER)
    light = "/-- a small lemma -/\ntheorem small (a b : ℝ) (h : a ≤ b) : a ≤ b + 1 := by\n  linarith\n"
    heavy_doc = "/-- the heavy one -/\n" + heavy
    out = with_heartbeat_options(HEADER + light + "\n" + heavy_doc)
    lines = out.split("\n")
    k = lines.index("theorem block " + heavy.split("theorem block ", 1)[1].split("\n", 1)[0])
    assert lines[k - 2].startswith("set_option maxHeartbeats ") and lines[k - 1] == "/-- the heavy one -/"
    assert "set_option" not in "\n".join(lines[:k - 2])           # the light lemma keeps the default
    rep = replay_text(out)
    assert rep.ok, rep.summary()
    light_res, heavy_res = rep.resources
    assert light_res.heartbeat_budget == DEFAULT_HEARTBEATS and heavy_res.heartbeat_budget > DEFAULT_HEARTBEATS


def test_a_large_light_file_still_gets_the_option_the_model_asks_for() -> None:
    pad = "".join(f"-- padding comment line {k:05d} " + "x" * 60 + "\n" for k in range(HEARTBEAT_THRESHOLD // 80 + 5))
    text = HEADER + pad + "theorem small (a b : ℝ) (h : a ≤ b) : a ≤ b + 1 := by\n  linarith\n"
    assert not replay_text(text).ok                      # a large file without the option fails the model
    out = with_heartbeat_options(text)
    assert "set_option maxHeartbeats" in out and replay_text(out).ok, replay_text(out).summary()


def test_a_docstring_with_a_blank_line_is_not_cut() -> None:
    heavy = _linarith_block(20).removeprefix(HEADER)
    doc = "/-- the heavy one\n\nwith a blank line inside -/\n"
    out = with_heartbeat_options(HEADER + "-- a comment\n\n" + doc + heavy)
    assert out.startswith(HEADER + "set_option maxHeartbeats ")      # between commands, before every comment
    assert " in\n-- a comment\n\n" + doc + "theorem block" in out
    assert replay_text(out).ok, replay_text(out).summary()
