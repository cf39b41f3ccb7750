"""What ``prover eval`` leaves in its folder for a reader (issue 30 item 6): a ``.lean`` file
beside each proof (or, where the renderer refuses one, the reason in the record and the table)
and a per-problem table at the end of ``summary.md`` with links to both files."""

from __future__ import annotations

import json
from pathlib import Path

from prover.eval.problem_table import problem_table
from prover.eval.runner import EvalConfig, run_eval
from prover.eval.summary import summary_markdown

FAKES = Path(__file__).with_name("eval_fakes.py")


def _bench(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps({"id": f"toy/P{i}", "lean": f"theorem P{i} : (1 : ℝ) ≤ 2 := by sorry"}) + "\n"
                            for i in range(1, n + 1)), encoding="utf-8")
    return path


def _run(tmp_path: Path, attempt: str, n: int = 2) -> Path:
    out = tmp_path / "run"
    cfg = EvalConfig(inputs=[_bench(tmp_path / "toy.jsonl", n)], out=out, attempt=f"{FAKES}:{attempt}",
                     time_limit=20.0, grace=5.0, workers=1, memory_mb=2000, rich_progress=False, argv=["test"])
    outcome = run_eval(cfg)
    assert outcome.recorded == n
    return out


def _table(md: str) -> list[str]:
    part = md.split("## Problems", 1)[1]
    return [ln for ln in part.splitlines() if ln.startswith("| toy/")]


def test_each_proof_gets_a_lean_file_and_a_row_with_links(tmp_path):
    out = _run(tmp_path, "real_proof")
    lean = out / "proofs" / "toy__P1.lean"
    assert lean.is_file() and "theorem shapiro4" in lean.read_text(encoding="utf-8")
    rows = _table((out / "summary.md").read_text(encoding="utf-8"))
    assert rows[0] == "| toy/P1 | proved | 0.02 | 2 | [json](proofs/toy__P1.json) | [lean](proofs/toy__P1.lean) |"
    assert len(rows) == 2
    rec = json.loads((out / "records.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert rec["lean"].startswith("proofs/toy__P") and "lean_error" not in rec


def test_a_proof_the_renderer_refuses_is_noted_and_the_run_goes_on(tmp_path):
    out = _run(tmp_path, "ok", n=3)                      # {"format": "fake"}: no Lean to render
    assert (out / "proofs" / "toy__P3.json").is_file() and not list((out / "proofs").glob("*.lean"))
    rows = _table((out / "summary.md").read_text(encoding="utf-8"))
    assert len(rows) == 3
    assert all("[json](proofs/toy__P" in r and "| not rendered: IRError: not a prover-proof file |" in r
               for r in rows), rows


def test_the_table_lists_every_problem_and_escapes_cells():
    problems = {"d": ["d/P1", "d/P2", "d/P3"]}
    records = {"d/P1": {"key": "d/P1", "status": "not_proved", "time_s": 3.14159},
               "d/P2": {"key": "d/P2", "status": "proved", "time_s": 1, "steps": 4, "proof": "proofs/d__P2.json",
                        "lean_error": "RenderError: a | b\nsecond line"}}
    lines = problem_table(problems, records, {"d/P1": "false at a = 0"})
    assert lines[:2] == ["## Problems", ""]
    assert "| d/P1 | not_proved (known false) | 3.14 | – | – | – |" in lines
    assert "| d/P2 | proved | 1.00 | 4 | [json](proofs/d__P2.json) | not rendered: RenderError: a \\| b second line |" \
        in lines
    assert "| d/P3 | not attempted | – | – | – | – |" in lines
    md = summary_markdown({"out": "x", "options": {}, "problems": problems}, records)
    assert md.index("| dataset |") < md.index("## Problems")        # the totals first, then the problems


def test_the_command_prints_the_totals_and_points_to_the_table(tmp_path):
    from typer.testing import CliRunner

    from prover.cli import app

    bench = _bench(tmp_path / "toy.jsonl", 2)
    out = tmp_path / "cli-run"
    r = CliRunner().invoke(app, ["eval", str(bench), "--out", str(out), "--attempt", f"{FAKES}:real_proof",
                                 "--workers", "1", "--time-limit", "20"])
    assert r.exit_code == 0, r.output
    assert "| toy | 2/2 |" in r.stdout and "## Problems" not in r.stdout
    assert f"Per problem (status, time, links to each proof and its .lean): {out / 'summary.md'}" in r.stdout
    assert "| toy/P2 | proved |" in (out / "summary.md").read_text(encoding="utf-8")
