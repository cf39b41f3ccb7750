"""`prover conformal calibrate | filter | eval | build-set`: outputs and one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.conformal.generate import textbook_proofs
from prover.conformal.io import load_claim_graphs

runner = CliRunner()


def run(*args):
    return runner.invoke(app, ["conformal", *args])


def test_calibrate_then_filter(tmp_path):
    cal = tmp_path / "cal.json"
    r = run("calibrate", "generated", "--alpha", "0.1", "--out", str(cal))
    assert r.exit_code == 0, r.output
    doc = json.loads(cal.read_text())
    assert doc["alpha"] == "1/10" and doc["scorer"] == "given:symbolic" and doc["n"] >= 100
    r = run("filter", "prover/data/conformal/generated.jsonl", "-c", str(cal), "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)["results"]
    exs = load_claim_graphs("prover/data/conformal/generated.jsonl")
    for ex, got in zip(exs, res):
        kept = set(got["kept"])
        assert ex.is_ancestor_closed(kept)
        assert set(got["dropped"]) == set(range(ex.n)) - kept


def test_filter_a_proof_file(tmp_path):
    cal = tmp_path / "cal.json"
    assert run("calibrate", "generated", "--alpha", "0.2", "--ties", "strict", "--out", str(cal)).exit_code == 0
    proof = tmp_path / "p.json"
    proof.write_text(textbook_proofs(1, seed=2)[0].dumps())
    json.loads(cal.read_text())  # readable
    cal2 = tmp_path / "cal2.json"
    d = json.loads(cal.read_text())
    d["scorer"] = "symbolic"  # a proof file carries no stored scores: score it live
    cal2.write_text(json.dumps(d))
    r = run("filter", str(proof), "-c", str(cal2))
    assert r.exit_code == 0, r.output
    assert "kept" in r.output and "✓" in r.output


def test_eval_writes_table_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "res"
    r = run("eval", "generated", "--alphas", "0.1,0.2", "--splits", "50", "--methods", "coherent,independent",
            "--out", str(out))
    assert r.exit_code == 0, r.output
    table = (out / "table.md").read_text()
    assert "| 0.100 | 0.900 |" in table and "Command: `prover conformal eval generated" in table
    assert (out / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_build_set_command(tmp_path):
    out = tmp_path / "set.jsonl"
    r = run("build-set", "--textbook", "4", "--corrupt-fraction", "0.5", "--out", str(out))
    assert r.exit_code == 0, r.output
    exs = load_claim_graphs(out)
    assert len(exs) == 4 and all("symbolic" in c.scores for ex in exs for c in ex.claims)


@pytest.mark.parametrize("args,msg", [
    (("calibrate", "generated", "--alpha", "1.5"), "alpha must lie"),
    (("calibrate", "nowhere.jsonl"), "no such data set"),
    (("calibrate", "generated", "--method", "magic"), "--method must be"),
    (("calibrate", "generated", "--scorer", "given:nope"), "no 'nope' score"),
    (("calibrate", "math", "--data", "/nonexistent"), "no such data file"),
    (("eval", "generated", "--alphas", "0.1,x"), "bad --alphas"),
    (("eval", "generated", "--methods", "magic"), "unknown method"),
    (("filter", "nowhere.json", "-c", "nowhere.json"), "nowhere.json"),
    (("build-set", "--out", "x.jsonl"), "no proofs"),
    (("calibrate", "generated", "--scorer", "self-consistency"), "needs an LLM"),
    (("calibrate", "generated", "--scorer", "self-consistency", "--llm", "bogus"), "--llm bogus"),
    (("build-set", "--out", "x.jsonl", "--from-run", "/nonexistent"), "no proofs/ folder"),
])
def test_errors_are_one_line(args, msg):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert msg in r.output and "Traceback" not in r.output
