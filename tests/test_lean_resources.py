"""The replay model's resource model (``prover.lean.replay.resources``): estimated heartbeats
against ``maxHeartbeats`` and the deepest term nesting against ``maxRecDepth``, per declaration;
over a budget is a failure. An estimate calibrated on Mathlib's tests, not Lean."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from prover.lean.replay import replay_file, replay_text
from prover.lean.replay import resources as R
from prover.lean.replay.source import LeanSource

DATA = Path(__file__).resolve().parent / "data" / "lean_resources"
HEADER = "import Mathlib\n\n"


def _lc_sum(n: int) -> str:
    """A theorem proved by ``linear_combination h + h + … + h`` (``n`` summands)."""
    return (HEADER + f"theorem many (x : ℝ) (h : x = 0) : {n} * x = 0 := by\n"
            + "  linear_combination " + " + ".join(["h"] * n) + "\n")


def _linarith_block(calls: int, prefix: str = "") -> str:
    """``calls`` linarith calls beside a hypothesis of about 360 term nodes with divisions."""
    big = " + ".join(f"x / (x + {k})" for k in range(1, 61))
    lines = [HEADER + prefix + f"theorem block (x : ℝ) (hx : 0 ≤ x) (hbig : 0 ≤ {big}) : 0 ≤ x + {calls} := by"]
    lines += [f"  have h{k} : 0 ≤ x + {k} := by linarith" for k in range(1, calls + 1)]
    lines.append(f"  exact h{calls}")
    return "\n".join(lines) + "\n"


def _fails(rep, word: str) -> list:
    return [s for s in rep.failures if s.kind == "resources" and word in s.reason]


def test_a_small_file_passes_with_sane_figures() -> None:
    rep = replay_text(HEADER + "theorem small (a b : ℝ) (h : a ≤ b) : a ≤ b + 1 := by\n  linarith\n")
    assert rep.ok, rep.summary()
    [res] = rep.resources
    assert res.name == "small" and res.line == 3
    assert res.linarith_calls == 1 and res.ring_calls == 0
    assert 206 < res.heartbeats < 2_000 and res.heartbeat_budget == R.DEFAULT_MAX_HEARTBEATS == 200_000
    assert 2 <= res.depth <= 6 and res.depth_budget == R.DEFAULT_MAX_REC_DEPTH == 512
    assert res.largest_line == len("theorem small (a b : ℝ) (h : a ≤ b) : a ≤ b + 1 := by")
    assert "heartbeats ≈" in rep.summary() and "depth" in rep.summary()


def test_a_linear_combination_of_600_summands_is_over_max_rec_depth() -> None:
    rep = replay_text(_lc_sum(600))
    [res] = rep.resources
    assert res.depth >= 600 and res.over_depth
    [bad] = _fails(rep, "maxRecDepth")
    assert "exceeds maxRecDepth 512" in bad.reason and bad.line == 3
    assert not rep.ok
    # every tactic itself passes: only the limit fails the file
    assert all(s.ok for s in rep.steps if s.kind != "resources")


def test_set_option_max_rec_depth_in_is_the_declarations_budget() -> None:
    rep = replay_text(_lc_sum(600).replace("theorem many", "set_option maxRecDepth 2000 in\ntheorem many"))
    [res] = rep.resources
    assert res.depth_budget == 2000 and not res.over_depth
    assert rep.ok, rep.summary()


def test_a_sum_of_100_summands_is_within_the_depth_budget() -> None:
    rep = replay_text(_lc_sum(100))
    assert rep.ok, rep.summary()
    assert 100 <= rep.resources[0].depth < 512


def test_many_linarith_calls_over_a_large_hypothesis_are_over_max_heartbeats() -> None:
    rep = replay_text(_linarith_block(20))
    [res] = rep.resources
    assert res.linarith_calls == 20
    assert res.parts["linarith"] > R.DEFAULT_MAX_HEARTBEATS and res.over_heartbeats
    [bad] = _fails(rep, "maxHeartbeats")
    assert "exceed maxHeartbeats 200,000" in bad.reason and "over 20 calls" in bad.reason
    assert not rep.ok
    assert all(s.ok for s in rep.steps if s.kind != "resources")


def test_the_same_block_with_set_option_max_heartbeats_passes() -> None:
    rep = replay_text(_linarith_block(20, "set_option maxHeartbeats 4000000 in\n"))
    [res] = rep.resources
    assert res.heartbeat_budget == 4_000_000 and not res.over_heartbeats
    assert rep.ok, rep.summary()


def test_max_heartbeats_0_is_unlimited() -> None:
    rep = replay_text(_linarith_block(20, "set_option maxHeartbeats 0 in\n"))
    assert rep.ok, rep.summary()
    assert "unlimited" in rep.resources[0].line_text()


def test_linarith_cost_grows_with_the_calls_and_the_context() -> None:
    few, many = (replay_text(_linarith_block(n, "set_option maxHeartbeats 0 in\n")).resources[0] for n in (5, 10))
    assert many.parts["linarith"] > 1.9 * few.parts["linarith"]


def test_set_options_before_a_declaration_in_every_layout() -> None:
    for text in ("set_option maxHeartbeats 400000 in\nset_option maxRecDepth 1000 in\ntheorem t : (1:ℝ) = 1 := by\n  ring\n",
                 "set_option maxRecDepth 1000 in set_option maxHeartbeats 400000 in theorem t : (1:ℝ) = 1 := by\n  ring\n",
                 ("set_option maxHeartbeats 400000 in\nset_option maxRecDepth 1000 in theorem t : (1:ℝ) = 1 := by\n"
                 "  ring\n")):
        [d] = LeanSource(HEADER + text).declarations()
        assert (d.heartbeats, d.rec_depth) == (400_000, 1000), text
        rep = replay_text(HEADER + text)
        assert rep.ok, rep.summary()
        assert (rep.resources[0].heartbeat_budget, rep.resources[0].depth_budget) == (400_000, 1000)
    # the options apply to the next declaration only
    [d1, d2] = LeanSource(HEADER + "set_option maxRecDepth 1000 in\ntheorem a : (1:ℝ) = 1 := by\n  ring\n\n"
                          "theorem b : (1:ℝ) = 1 := by\n  ring\n").declarations()
    assert d1.rec_depth == 1000 and d2.rec_depth is None


def test_the_ring_counter_counts_expanded_work() -> None:
    small = replay_text(HEADER + "theorem s (a b : ℝ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by\n  ring\n")
    large = replay_text(HEADER + "theorem l (a b c : ℝ) : (a + b + c) ^ 6 = (a + b + c) ^ 3 * (a + b + c) ^ 3 := by\n"
                        "  ring\n")
    assert small.ok and large.ok
    assert large.resources[0].ring_ops > 5 * small.resources[0].ring_ops > 0
    assert large.resources[0].parts["ring"] > small.resources[0].parts["ring"]


def test_calibration_reproduces_the_mathlib_test_figures() -> None:
    """The constants are derived from Mathlib's tests (resources.py): our counters on the same two
    examples must give the node and operation counts the derivation used, and the estimates must
    land on the heartbeats Mathlib's maintainers measured."""
    rep = replay_file(DATA / "calibration.lean")
    assert rep.ok, rep.summary()
    lc, ring = rep.resources
    assert lc.parts["elab"] == R.HB_ELAB_PER_NODE * R.CALIBRATION_LC_NODES
    assert ring.parts["elab"] == R.HB_ELAB_PER_NODE * R.CALIBRATION_RING_NODES
    assert ring.ring_ops == R.CALIBRATION_RING_OPS
    # 7,540 heartbeats to elaborate the large combination (norm := skip), within 10 %
    assert abs(lc.parts["elab"] + R.HB_TACTIC_CALL - R.MATHLIB_LC_SKIP_LARGE_HB) < 0.1 * R.MATHLIB_LC_SKIP_LARGE_HB
    # 676 heartbeats for x + y - x + 1 < y + 4 by ring_lt, within 5 %
    assert abs(ring.heartbeats - R.MATHLIB_RING_LT_HB) < 0.05 * R.MATHLIB_RING_LT_HB
    assert R.DEFAULT_MAX_HEARTBEATS == 200_000 and R.DEFAULT_MAX_REC_DEPTH == 512


def test_size_depth_counts_binary_chains_one_level_per_operator() -> None:
    t = ("fv", "x")
    for _ in range(999):
        t = ("add", t, ("num", 1))
    nodes, depth = R.size_depth(t)
    assert depth == 1000 and nodes == 1999
    assert R.size_depth(("app", ("const", "f"), (("fv", "x"), ("fv", "y")))) == (4, 2)


@pytest.mark.parametrize("as_json", [False, True])
def test_the_replay_command_prints_the_figures(tmp_path, as_json: bool) -> None:
    f = tmp_path / "t.lean"
    f.write_text(_linarith_block(20), encoding="utf-8")
    cmd = [sys.executable, "-m", "prover", "lean", "replay", str(f)] + (["--json"] if as_json else [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 1, r.stderr
    if as_json:
        out = json.loads(r.stdout)
        [d] = out["declarations"]
        assert d["name"] == "block" and d["linarith_calls"] == 20 and d["heartbeat_budget"] == 200_000
        assert d["heartbeats"] > 200_000 and not d["ok"] and d["depth"] > 0 and d["largest_line"] > 0
        assert any(s["kind"] == "resources" for s in out["steps"]) and out["ok"] is False
    else:
        assert "resources (estimate): block (line 3): heartbeats ≈" in r.stdout
        assert "linarith calls 20" in r.stdout and "largest line" in r.stdout and "OVER BUDGET" in r.stdout
        assert "[resources] fail: resources: estimated" in r.stdout
