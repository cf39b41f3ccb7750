"""LLM paths through `prover prove` / `prover eval` and the search, end to end."""

import json
import subprocess
import sys

import pytest

from prover.api import prove
from prover.frontend import parse_theorem
from tests.llm_fixtures import ChatServer, build_tiny_model

# closed by the closers at the root
GOAL = "theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2 := by sorry"
# the closers cannot relate the atoms a^a and a^(a/2), so the search expands and asks the LLM
HARD = "theorem t (a : ℝ) (ha : 0 < a) : 2 * a ^ (a / 2) ≤ a ^ a + 1"
PROVER = [sys.executable, "-c", "from prover.cli import main; main()"]


def _junk(prompt: str, n: int) -> list[str]:
    return ["I cannot help with that."] * n


def _proof_shape(res):
    return [(s.kind, s.goal.target, tuple(g.target for g in s.subgoals)) for s in res.proof.steps()]


def test_search_results_without_llm_are_unchanged():
    """A useless LLM (junk answers, no numbers) must leave the symbolic search's proof as is."""
    p = parse_theorem(GOAL)
    base = prove(p, time_limit=30)
    with ChatServer(_junk) as srv:
        with_llm = prove(p, time_limit=30, llm=f"{srv.url}#m")
    assert base.status == with_llm.status == "proved"
    assert _proof_shape(base) == _proof_shape(with_llm)
    assert "llm" not in base.stats


def test_search_expansion_without_llm_is_unchanged():
    """Where the search does expand and the LLM is asked, junk answers change nothing."""
    p = parse_theorem(HARD)
    base = prove(p, time_limit=20)
    with ChatServer(_junk) as srv:
        with_llm = prove(p, time_limit=20, llm=f"{srv.url}#m")
    assert base.status == with_llm.status
    for key in ("expansions", "nodes", "candidates"):
        assert base.stats[key] == with_llm.stats[key], key
    rw = with_llm.stats["llm"]["rewrites"]
    assert rw["calls"] > 0 and rw["outputs"] > 0 and rw["parseable"] == 0 and rw["valid_rewrites"] == 0


def test_prove_cli_with_http_llm_reports_llm_statistics(tmp_path):
    from tests.test_llm import _sympy_answer  # right, wrong and junk answers

    with ChatServer(_sympy_answer) as srv:
        r = subprocess.run(check=False, args=PROVER + ["prove", HARD, "--llm", f"{srv.url}#m", "--json", "--time-limit", "20"],
                           capture_output=True, text=True, timeout=180)
    assert r.returncode == 1, r.stderr[-2000:]          # not proved: exit 1, no traceback
    out = json.loads(r.stdout)
    rw = out["stats"]["llm"]["rewrites"]
    assert rw["calls"] > 0 and rw["parseable"] > 0 and rw["valid_rewrites"] >= 1
    assert rw["rejected_unparseable"] > 0


def test_prove_cli_bad_llm_spec_is_a_user_error():
    r = subprocess.run(check=False, args=PROVER + ["prove", GOAL, "--llm", "nonsense"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "--llm" in (r.stderr + r.stdout)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return build_tiny_model(tmp_path_factory.mktemp("tiny-lm-search"))


def test_eval_with_tiny_transformers_model(tiny_model, tmp_path):
    bench = tmp_path / "b.jsonl"
    bench.write_text(json.dumps({"id": "t/easy", "source": "test", "lean": GOAL}) + "\n"
                     + json.dumps({"id": "t/hard", "source": "test", "lean": HARD}) + "\n")
    out = tmp_path / "run"
    r = subprocess.run(check=False, args=PROVER + ["eval", str(bench), "--llm", f"hf:{tiny_model}", "--time-limit", "60",
                                 "--workers", "1", "--out", str(out)], capture_output=True, text=True, timeout=400)
    assert r.returncode == 0, r.stderr[-2000:]
    recs = {json.loads(line)["id"]: json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()}
    assert recs["t/easy"]["status"] == "proved"
    rw = recs["t/hard"]["stats"]["llm"]["rewrites"]
    assert rw["calls"] > 0 and rw["outputs"] == rw["parseable"] + rw["rejected_unparseable"] > 0


def test_prove_cli_with_tiny_transformers_model(tiny_model):
    # 45 s: on a loaded machine the tiny model's first answers can take most of 20 s
    r = subprocess.run(check=False, args=PROVER + ["prove", HARD, "--llm", f"hf:{tiny_model}", "--json", "--time-limit", "45"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr[-2000:]
    rw = json.loads(r.stdout)["stats"]["llm"]["rewrites"]
    assert rw["calls"] > 0 and rw["outputs"] == rw["parseable"] + rw["rejected_unparseable"] > 0


def test_an_interrupted_search_keeps_the_llm_statistics():
    """A search stuck in an LLM call past the limit is interrupted (a timeout), and the JSON
    still says what the LLM was asked (the statistics live outside the interrupted search)."""
    import time

    def slow(prompt: str, n: int) -> list[str]:
        time.sleep(15)
        return ["a"] * n

    with ChatServer(slow) as srv:
        r = subprocess.run(check=False, args=PROVER + ["prove", HARD, "--llm", f"{srv.url}#m", "--json",
                                                       "--time-limit", "4"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["status"] == "timeout"
    assert out["stats"]["llm"]["rewrites"]["calls"] >= 1


def test_eval_with_http_llm(tmp_path):
    from tests.test_llm import _sympy_answer

    bench = tmp_path / "b.jsonl"
    bench.write_text(json.dumps({"id": "t/hard", "source": "test", "lean": HARD}) + "\n")
    out = tmp_path / "run"
    with ChatServer(_sympy_answer) as srv:
        r = subprocess.run(check=False, args=PROVER + ["eval", str(bench), "--llm", f"{srv.url}#m", "--time-limit", "20",
                                     "--workers", "1", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    rec = json.loads((out / "records.jsonl").read_text().splitlines()[0])
    rw = rec["stats"]["llm"]["rewrites"]
    assert rw["calls"] > 0 and rw["valid_rewrites"] >= 1
