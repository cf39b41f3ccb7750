"""`prover conformal calibrate | filter | eval | build-set`: outputs and one-line errors (exit 2)."""

from __future__ import annotations

import json
import re

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


# ------------------------------------------------------------------ issue 15


def test_filter_uses_the_scorer_stored_in_the_calibration(tmp_path):
    """`conformal filter -c cal.json` after the README's `conformal calibrate`, on claims that
    carry no stored scores: the calibration's scorer (given:symbolic) is recomputed live."""
    cal = tmp_path / "cal.json"
    assert run("calibrate", "generated", "--alpha", "0.1", "--out", str(cal)).exit_code == 0
    doc = json.loads(cal.read_text())
    assert doc["scorer"] == "given:symbolic" and doc["scorer_live"] == "symbolic"
    claims = tmp_path / "claims.jsonl"
    assert run("build-set", "--textbook", "3", "--no-store-scores", "--out", str(claims)).exit_code == 0
    assert not any(c.scores for ex in load_claim_graphs(claims) for c in ex.claims)
    r = run("filter", str(claims), "-c", str(cal), "--json")
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.stdout)["results"]) == 3
    proof = tmp_path / "p.json"
    proof.write_text(textbook_proofs(1, seed=2)[0].dumps())
    r = run("filter", str(proof), "-c", str(cal))                          # a proof file, same calibration
    assert r.exit_code == 0 and "✓" in r.output, r.output


def test_live_scores_equal_the_stored_ones():
    from prover.conformal.scorers import make_scorer

    exs = load_claim_graphs("prover/data/conformal/generated.jsonl")[:5]
    stored = [make_scorer("given:symbolic")(ex) for ex in exs]
    for ex in exs:
        for c in ex.claims:
            c.scores.clear()
    live = [make_scorer("given:symbolic")(ex) for ex in exs]
    assert all((a == b).all() for a, b in zip(stored, live))


def test_filter_errors_are_json_in_json_mode(tmp_path):
    r = run("filter", str(tmp_path / "none.jsonl"), "-c", str(tmp_path / "none.json"), "--json")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert json.loads(r.stdout)["exit_code"] == 2


def test_build_set_reports_progress_and_stops_at_its_time_limit(tmp_path):
    out = tmp_path / "set.jsonl"
    r = run("build-set", "--textbook", "3", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "[1/3] textbook-000:" in r.stderr and "[3/3]" in r.stderr
    r = run("build-set", "--textbook", "400", "--time-limit", "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    # the budget was honoured: it says so and keeps the partial set (400 would take minutes);
    # how many were done depends on the machine's load, so only their agreement is asserted
    m = re.search(r"time limit of 1 s reached: (\d+) of 400 proofs done", r.stderr)
    assert m, r.stderr
    assert len(load_claim_graphs(out)) == int(m.group(1)) < 400
    r = run("build-set", "--textbook", "2", "--time-limit", "0", "--out", str(out))
    assert r.exit_code == 2 and "--time-limit" in r.output


def _tiny_math_file(folder):
    """A file in the released MATH annotation format (3 claims per problem, a chain graph)."""
    rows = []
    for i in range(12):
        claims = [{"subclaim": f"step {k} of problem {i}", "manual_annotation": int((i + k) % 5 != 0),
                   "frequency-score": float((i * 7 + k * 3) % 11 - 5)} for k in range(3)]
        rows.append({"prompt": f"problem {i}", "claims": claims,
                     "dep_graph": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]})
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "MATH_annotations.json").write_text(json.dumps({"data": rows}))


def test_eval_math_reads_the_data_folder_option_and_env(tmp_path, monkeypatch):
    data = tmp_path / "data"
    _tiny_math_file(data)
    r = run("eval", "math", "--data", str(data), "--splits", "5", "--alphas", "0.2", "--methods", "coherent")
    assert r.exit_code == 0, r.output
    assert "data math: 12 proofs" in r.output
    monkeypatch.setenv("PROVER_CONFORMAL_DATA", str(data))
    r = run("eval", "math", "--splits", "5", "--alphas", "0.2", "--methods", "coherent")
    assert r.exit_code == 0 and "data math: 12 proofs" in r.output, r.output


def test_eval_math_without_data_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVER_CONFORMAL_DATA", str(tmp_path / "nowhere"))
    r = run("eval", "math", "--splits", "5")
    assert r.exit_code == 2 and "Traceback" not in r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--data" in lines[0] and "PROVER_CONFORMAL_DATA" in lines[0]
    assert "MATH_annotations.json" in lines[0]


def test_plot_title_fits_and_target_is_marked():
    pytest.importorskip("matplotlib")
    from prover.conformal.evaluate import compare_methods
    from prover.conformal.report import plot_figure
    from prover.conformal.scorers import make_scorer

    exs = load_claim_graphs("prover/data/conformal/generated.jsonl")
    scorer = make_scorer("given:symbolic")
    rows = compare_methods(exs, lambda ex: -scorer(ex), ["0.1", "0.2"], ["coherent"], repeats=5, seed=0,
                           labels=("proxy", "independent"))
    title = "data generated: a long header " + "with many words " * 20
    fig = plot_figure(rows, title, "proxy", target=0.9)
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent()
    width, height = fig.canvas.get_width_height()
    assert box.x0 >= 0 and box.x1 <= width and box.y1 <= height        # the title is not clipped
    stars = [ln for ax in fig.axes for ln in ax.get_lines() if ln.get_marker() == "*" and len(ln.get_xdata())]
    assert len(stars) == 2                                              # one per panel for the one method
    assert any(abs(float(ln.get_xdata()[0]) - 0.9) < 1e-9 for ln in stars)
