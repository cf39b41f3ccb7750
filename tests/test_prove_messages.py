"""What ``prover prove`` leaves a user who got no proof (issue 30 item 5): a failed search prints
the open goals of its best node, the closers tried, the nearest miss and a hint; a false statement
gets counterexample.json and a counterexample page; ``prover page`` writes a page again from a
saved proof.json or counterexample.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

from typer.testing import CliRunner

from prover.cli import app
from prover.commands.failure import FailureReport, hint

runner = CliRunner()
DATA = Path(__file__).parent / "data"
# the closers cannot relate the atoms a^a and a^(a/2), and the search has nothing else to try
HARD = "theorem t (a : ℝ) (ha : 0 < a) : 2 * a ^ (a / 2) ≤ a ^ a + 1 := by sorry"
FALSE = "theorem g (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : x / y + y / x ≥ 2.1 := by sorry"


def _lines(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.strip()]


# ---------------------------------------------------------------- a failed search


def test_a_failed_search_prints_open_goals_closers_nearest_miss_and_a_hint():
    r = runner.invoke(app, ["prove", HARD, "--time-limit", "20", "--no-progress"])
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    lines = _lines(r.stdout)
    i = next(k for k, ln in enumerate(lines) if ln.startswith("open goal of the best node"))
    assert lines[i + 1].strip() == "0 < a ⊢ 2 * a ^ (a / 2) ≤ a ^ a + 1"        # the goal, as Lean text
    assert any(ln.startswith("closers tried: positivity, ") and "sos" in ln for ln in lines), r.stdout
    assert "nearest miss: the goal is tight at a = 1" in r.stdout
    assert any(ln.startswith("hint: ") for ln in lines), r.stdout


def test_the_failure_report_is_in_the_json_too():
    r = runner.invoke(app, ["prove", HARD, "--time-limit", "20", "--json", "--closers-only"])
    assert r.exit_code == 1, r.output
    d = json.loads(r.stdout)
    assert d["status"] in ("not_proved", "timeout")
    f = d["failure"]
    assert f["open_goals"] == ["0 < a ⊢ 2 * a ^ (a / 2) ≤ a ^ a + 1"]
    assert "only the closers ran (--closers-only)" in f["hint"]
    assert f["closers"].startswith("positivity")


def _result(status: str, **stats) -> SimpleNamespace:
    return SimpleNamespace(status=status, stats=stats, time_s=4.0)


def test_the_hint_follows_how_the_search_stopped():
    assert "--time-limit 120" in hint(_result("timeout"), 60, False)
    assert "--time-limit 20" in hint(_result("not_proved", stopped_by="timeout"), 10, False)
    spent = hint(_result("not_proved", exhausted=True, root_closers="failed"), 60, False)
    assert "tried everything" in spent and "--closers-only fails too" in spent
    assert "expansion limit" in hint(_result("not_proved", stopped_by="expansions"), 60, False)
    late = hint(_result("not_proved", exhausted=True), 4.5, False)      # its levels were cut short by the clock
    assert "--time-limit 9" in late and "tried everything" not in late
    assert "--closers-only" in hint(_result("not_proved"), 60, True)


def test_a_report_counts_the_goals_it_does_not_print():
    rep = FailureReport([f"⊢ a{i} ≥ 0" for i in range(5)], "after 1 step: split", "sos (run on 3 goals)",
                        None, "raise --time-limit")
    lines = rep.lines()
    assert lines[0] == "open goals of the best node (after 1 step: split):"
    assert lines[1:4] == ["  ⊢ a0 ≥ 0", "  ⊢ a1 ≥ 0", "  ⊢ a2 ≥ 0"] and lines[4] == "  … and 2 more"
    assert lines[-1] == "hint: raise --time-limit"


# ---------------------------------------------------------------- a counterexample


def test_a_counterexample_gets_json_and_a_page(tmp_path):
    out = tmp_path / "run"
    r = runner.invoke(app, ["prove", FALSE, "--out", str(out), "--time-limit", "20", "--no-progress"])
    assert r.exit_code == 1, r.output
    assert "counterexample: x = 1, y = 1" in r.stdout
    d = json.loads((out / "counterexample.json").read_text(encoding="utf-8"))
    assert d["format"] == "prover-counterexample" and d["point"] == {"x": "1", "y": "1"}
    assert d["lhs"] == {"exact": "2", "approx": 2.0} and d["rhs"]["exact"] == "21 / 10"
    assert d["goal_holds"] is False and all(h["holds"] for h in d["hypotheses"])
    page = (out / "counterexample.html").read_text(encoding="utf-8")
    assert "data-verdict='counterexample'" in page and "<svg" in page and "counterexample at" in page
    assert "wrote counterexample: " in r.stdout and not (out / "proof.json").exists()


# ---------------------------------------------------------------- prover page


def test_page_rewrites_a_saved_proof_with_the_kernels_verdict(tmp_path):
    src = tmp_path / "proof.json"
    shutil.copy(DATA / "shapiro4.proof.json", src)
    r = runner.invoke(app, ["page", str(src)])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "proof.html").read_text(encoding="utf-8")
    assert "Proof accepted by the kernel" in page and "checked again while writing this page" in page
    r = runner.invoke(app, ["page", str(tmp_path), "--out", str(tmp_path / "again.html"), "--no-check"])
    assert r.exit_code == 0, r.output
    assert "No verdict recorded" in (tmp_path / "again.html").read_text(encoding="utf-8")


def test_page_of_a_rejected_proof_says_so_and_exits_1(tmp_path):
    d = json.loads((DATA / "shapiro4.proof.json").read_text(encoding="utf-8"))
    d["problem"]["goal"]["rhs"] = "3"          # the steps no longer prove this goal
    d["root"]["goal"]["target"]["rhs"] = "3"
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    r = runner.invoke(app, ["page", str(src)])
    assert r.exit_code == 1, r.output
    assert "Proof NOT accepted by the kernel" in (tmp_path / "bad.html").read_text(encoding="utf-8")


def test_page_rewrites_a_counterexample(tmp_path):
    out = tmp_path / "run"
    runner.invoke(app, ["prove", FALSE, "--out", str(out), "--time-limit", "20", "--no-progress"])
    (out / "counterexample.html").unlink()
    r = runner.invoke(app, ["page", str(out / "counterexample.json")])
    assert r.exit_code == 0, r.output
    assert "data-verdict='counterexample'" in (out / "counterexample.html").read_text(encoding="utf-8")


def test_page_user_errors_are_one_line_exit_2(tmp_path):
    (tmp_path / "notjson.json").write_text("{", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"format": "something"}', encoding="utf-8")
    (tmp_path / "empty").mkdir()
    shutil.copy(DATA / "shapiro4.proof.json", tmp_path / "p.json")
    for args in (["page", str(tmp_path / "missing.json")], ["page", str(tmp_path / "notjson.json")],
                 ["page", str(tmp_path / "other.json")], ["page", str(tmp_path / "empty")],
                 ["page", str(tmp_path / "p.json"), "--out", str(tmp_path / "no" / "such" / "x.html")]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        lines = _lines(r.output)
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, r.output)


def test_the_best_node_has_the_fewest_open_goals_then_the_most_steps():
    from prover.search.best_first import Search, SearchNode

    def node(goals: int, depth: int) -> SearchNode:
        return SearchNode(tuple(f"g{i}" for i in range(goals)), None, None, depth)   # goals only counted

    a, b, c, done = node(2, 3), node(1, 1), node(1, 2), node(0, 4)
    fake = SimpleNamespace(closer_failed=[a, b], depth_cut=[done], expanded=[c])
    assert Search.best_node(fake) is c
    assert Search.best_node(SimpleNamespace(closer_failed=[], depth_cut=[], expanded=[])) is None


def test_page_has_help():
    r = runner.invoke(app, ["page", "-h"])
    assert r.exit_code == 0 and "Usage:" in r.stdout and "--no-check" in r.stdout
