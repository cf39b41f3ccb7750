"""``prover prove``: exit codes, output files, JSON, one-line user errors."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from prover.cli import app

NESBITT = ("theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
           "a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry")
runner = CliRunner()


def test_prove_nesbitt_writes_three_files(tmp_path):
    out = tmp_path / "run"
    r = runner.invoke(app, ["prove", NESBITT, "--out", str(out), "--time-limit", "60"])
    assert r.exit_code == 0, r.output
    assert "proved" in r.output and "kernel: accepted" in r.output
    assert (out / "proof.json").is_file() and (out / "proof.html").is_file()
    from prover.ir import Proof
    from prover.verify import check_proof
    assert check_proof(Proof.loads((out / "proof.json").read_text())).ok
    html = (out / "proof.html").read_text()
    assert "<details" in html and "nesbitt" in html
    try:
        import prover.lean.render  # noqa: F401
    except ImportError:
        return
    assert (out / "proof.lean").is_file()


def test_prove_json_from_benchmark_file(tmp_path):
    bench = tmp_path / "b.jsonl"
    bench.write_text(json.dumps({
        "id": "t/P1", "source": "test", "variables": ["a", "b"], "hypotheses": [], "hypothesis_names": [],
        "lean": "theorem P1 {a b : ℝ} : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry",
        "goal": "2 * a * b ≤ a ^ 2 + b ^ 2", "notes": []}) + "\n")
    r = runner.invoke(app, ["prove", f"{bench}#P1", "--json", "--time-limit", "30"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["status"] == "proved" and d["proof"]["format"] == "prover-proof"


def test_false_statement_exits_1_with_counterexample():
    r = runner.invoke(app, ["prove", "theorem f (a b : ℝ) (ha : 0 < a) : a * b ≤ a := by sorry",
                            "--json", "--time-limit", "10"])
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["status"] == "counterexample" and d["proof"] is None


def test_user_errors_exit_2_with_one_line(tmp_path):
    cases = [
        ["prove", "theorem x (a : ℝ) : a ≥ "],
        ["prove", str(tmp_path / "missing.lean")],
        ["prove", f"{tmp_path / 'missing.jsonl'}#P1"],
        ["prove", NESBITT, "--llm", "hf:tiny"],
        ["prove", NESBITT, "--backend", "coq"],
        ["prove", NESBITT, "--time-limit", "0"],
    ]
    if shutil.which("lake") is None:    # without Lean, asking for it is a user error, not a crash
        cases += [["prove", NESBITT, "--backend", "lean-repl"], ["prove", NESBITT, "--verify", "lean"]]
    for args in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        lines = [ln for ln in r.output.strip().splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, r.output)
        assert "Traceback" not in r.output
