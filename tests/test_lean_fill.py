"""`prover lean fill FILE.lean` (issue 29 item 5): every `sorry` theorem attempted, each one proved
written into the file (statement verbatim), the others reported with the reason, a numbered
backup, a read-only file refused in one line, theorems without `sorry` skipped without searching."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.in_place import theorems
from prover.lean.replay import replay_text

STATEMENTS = {
    "amgm_two": "theorem amgm_two (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by",
    "nesbitt": "theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) :\n"
               "    a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by",
    "nesbitt_false": "theorem nesbitt_false (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) :\n"
                     "    a / (b + c) + b / (c + a) + c / (a + b) ≥ 8 / 5 := by",
    "am_hm": "theorem am_hm (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 2 / (a + b) ≤ (1 / a + 1 / b) / 2 := by",
    "out_of_reach": "theorem out_of_reach (a : ℝ) (ha : 0 < a) : 2 * a ^ (a / 2) ≤ a ^ a + 1 := by",
}
PROVABLE = ("amgm_two", "nesbitt", "am_hm")
ALREADY = "theorem done (x : ℝ) : 0 ≤ x ^ 2 := by\n  positivity"
SOURCE = ("import Mathlib\n\nopen Real\n\n"
          + "\n\n".join(f"/-- {name}. -/\n{stmt}\n  sorry" for name, stmt in STATEMENTS.items())
          + f"\n\n{ALREADY}\n")


@pytest.fixture()
def attempted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The theorems a search was started for."""
    import prover.api

    seen: list[str] = []
    real = prover.api.prove

    def spy(problem, **kwargs):
        seen.append(str(problem).rpartition("#")[2])
        return real(problem, **kwargs)

    monkeypatch.setattr(prover.api, "prove", spy)
    return seen


def fill(*args: str):
    return CliRunner().invoke(app, ["lean", "fill", *args])


def test_fill_writes_the_proved_reports_the_others_and_keeps_a_backup(tmp_path: Path, attempted: list[str]) -> None:
    f = tmp_path / "five.lean"
    f.write_text(SOURCE, encoding="utf-8")
    (tmp_path / "five.lean.bak.1").write_text("an older backup", encoding="utf-8")
    r = fill(str(f), "--time-limit", "60")      # a budget the three proofs (~2 s each) do not need
    assert r.exit_code == 1, r.output           # not every theorem was filled
    lines = {ln.split(":")[0]: ln for ln in r.output.splitlines() if ":" in ln}
    for name in PROVABLE:
        assert lines[name].startswith(f"{name}: filled: proved in "), r.output
    assert lines["nesbitt_false"].startswith("nesbitt_false: not filled: false: counterexample a = ")
    assert lines["out_of_reach"].startswith("out_of_reach: not filled: not proved: ")
    assert lines["done"] == "done: skipped: has no `sorry` (already proved); not searched"
    assert "3 filled, 2 not filled, 1 skipped; wrote" in r.output and "five.lean.bak.2" in r.output
    assert "replay model (a model, not Lean): the filled proofs pass" in r.output
    assert sorted(attempted) == sorted(STATEMENTS)                  # `done` was not searched

    # the backup: the original, next to the older one (never overwritten)
    assert (tmp_path / "five.lean.bak.2").read_text(encoding="utf-8") == SOURCE
    assert (tmp_path / "five.lean.bak.1").read_text(encoding="utf-8") == "an older backup"
    text = f.read_text(encoding="utf-8")
    for stmt in STATEMENTS.values():                               # every statement verbatim
        assert stmt in text
    assert ALREADY in text and text.startswith("import Mathlib\n\nopen Real\n\n/-- amgm_two. -/\n")
    thms = {t.name: t for t in theorems(text)}
    assert [n for n, t in thms.items() if t.has_sorry] == ["nesbitt_false", "out_of_reach"]

    # the replay model passes every step of the filled proofs; only the two `sorry` are not modelled
    report = replay_text(text)
    bad = [s for s in report.steps if not s.ok]
    assert [(s.kind, s.text) for s in bad] == [("sorry", "sorry"), ("sorry", "sorry")], bad
    line_of = {n: text.count("\n", 0, t.start) + 1 for n, t in thms.items()}
    assert line_of["nesbitt_false"] < bad[0].line < line_of["am_hm"] < line_of["out_of_reach"] < bad[1].line
    assert sum(s.ok for s in report.steps) >= 3


def test_a_file_with_nothing_to_fill_is_left_alone(tmp_path: Path, attempted: list[str]) -> None:
    f = tmp_path / "done.lean"
    f.write_text(f"import Mathlib\n\n{ALREADY}\n", encoding="utf-8")
    r = fill(str(f), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["filled"] == 0 and d["skipped"] == 1 and d["backup"] is None
    assert d["theorems"] == [{"name": "done", "status": "skipped", "time_s": 0.0,
                              "reason": "has no `sorry` (already proved); not searched"}]
    assert attempted == [] and list(tmp_path.glob("*.bak*")) == []


def test_a_read_only_file_is_refused_in_one_line(tmp_path: Path, attempted: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "ro.lean"
    f.write_text(SOURCE, encoding="utf-8")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if Path(p) == f and mode & os.W_OK
                        else real_access(p, mode, **k))
    r = fill(str(f))
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "read-only" in lines[0], r.output
    assert attempted == [] and f.read_text(encoding="utf-8") == SOURCE


def test_fill_refuses_what_is_not_a_lean_file(tmp_path: Path) -> None:
    r = fill(str(tmp_path / "x.txt"))
    assert r.exit_code == 2 and "expected a .lean file" in r.output
    r = fill(str(tmp_path / "missing.lean"))
    assert r.exit_code == 2 and "no such file" in r.output
