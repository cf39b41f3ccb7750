"""Tests of ``prover eval``: isolation, limits, crash-safe records, resume, summary, compare, CLI.

The runner is tested with the fake attempt functions of ``tests/eval_fakes.py`` (crash,
segfault, memory blow-up, sleeping past the limit…), independently of the prover itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from prover.eval.records import RecordLog
from prover.eval.runner import EvalConfig, proof_filename, run_eval
from prover.eval.summary import compare_markdown, summary_markdown
from prover.eval.tasks import EvalError, load_tasks

PROVER = [sys.executable, "-c", "from prover.cli import main; main()"]  # `python -m prover.cli` lacks commands
FAKES = Path(__file__).with_name("eval_fakes.py")
ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def fake(name: str) -> str:
    return f"{FAKES}:{name}"


def write_bench(path: Path, n: int, dataset: str = "toy") -> Path:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": f"{dataset}/P{i}", "lean": f"theorem P{i} : (1 : ℝ) ≤ 2 := by sorry"}) + "\n" for i in range(1, n + 1))
    return path


def raw_keys(out: Path) -> list[str]:
    """Keys of records.jsonl, one per line, every line parsed (fails on a torn line)."""
    return [json.loads(line)["key"] for line in (out / "records.jsonl").read_text().splitlines()]


def cfg(inputs: list[Path], out: Path, attempt: str, **kw) -> EvalConfig:
    base = {"time_limit": 1.0, "grace": 1.0, "workers": 2, "memory_mb": 400, "rich_progress": False, "argv": ["test"]}
    base.update(kw)
    return EvalConfig(inputs=inputs, out=out, attempt=attempt, **base)


def cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """The real command in a fresh process (exit codes, signals); ``timeout`` only catches a hang."""
    return subprocess.run([*PROVER, "eval", *args], check=False, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def cli_inproc(*args: str):
    """The command in this process (fast: no interpreter start-up)."""
    from typer.testing import CliRunner

    from prover.cli import app

    return CliRunner().invoke(app, ["eval", *args])


# ---------------------------------------------------------------- isolation and limits


def test_crash_segfault_memory_timeout_and_exception_are_recorded_and_the_run_goes_on(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 8)
    outcome = run_eval(cfg([bench], tmp_path / "run", fake("by_name"), time_limit=3.0, grace=0.5, memory_mb=250))
    recs = {json.loads(x)["key"]: json.loads(x) for x in (tmp_path / "run/records.jsonl").read_text().splitlines()}
    assert sorted(recs) == sorted(f"toy/P{i}" for i in range(1, 9))
    st = {k.split("/")[1]: r["status"] for k, r in recs.items()}
    assert st == {"P1": "proved", "P2": "crashed", "P3": "crashed", "P4": "memory", "P5": "timeout",
                  "P6": "error", "P7": "proved", "P8": "proved"}
    assert "SIGSEGV" in recs["toy/P3"]["error"]
    assert "code 3" in recs["toy/P2"]["error"]
    assert "ValueError: bad things" in recs["toy/P6"]["error"]
    # P5 sleeps 1000 s: it was killed at its wall limit (time limit + grace), not waited for
    assert recs["toy/P5"]["error"] == "killed after the wall limit of 3.5 s"
    assert recs["toy/P5"]["wall_s"] >= 3.5
    assert outcome.counts["proved"] == 3 and not outcome.interrupted
    # proofs are saved per problem and referenced from the record
    p1 = recs["toy/P1"]
    assert p1["proof"] == "proofs/toy__P1.json" and p1["steps"] == 2 and p1["lemmas"] == ["amgm2"]
    assert json.loads((tmp_path / "run" / p1["proof"]).read_text())["id"] == "toy/P1"
    summary = (tmp_path / "run/summary.md").read_text()
    assert "| toy | 3/8 |" in summary and "crashed 2" in summary and "memory 1" in summary


def test_wall_clock_limit_is_enforced_from_outside(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 2)
    run_eval(cfg([bench], tmp_path / "run", fake("sleepy"), time_limit=0.3, grace=0.7))
    recs = [json.loads(x) for x in (tmp_path / "run/records.jsonl").read_text().splitlines()]
    # the attempts sleep 1000 s: both were killed from outside at the wall limit, not waited for
    assert [r["status"] for r in recs] == ["timeout", "timeout"]
    assert all(r["error"] == "killed after the wall limit of 1 s" for r in recs), recs
    assert all(r["wall_s"] >= 1.0 for r in recs)


def test_options_reach_the_attempt(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 1)
    run_eval(cfg([bench], tmp_path / "run", fake("echo_options"), closers_only=True, llm="stub:x", time_limit=7))
    rec = json.loads((tmp_path / "run/records.jsonl").read_text())
    assert rec["stats"] == {"options": {"closers_only": True, "llm": "stub:x", "variants": None}, "time_limit": 7.0}


def test_attempts_run_with_one_fixed_hash_seed(tmp_path, monkeypatch):
    """Set orders follow the hash seed and some searches with them: every attempt runs at the same seed."""
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    bench = write_bench(tmp_path / "b.jsonl", 3)
    run_eval(cfg([bench], tmp_path / "run", fake("hash_seed")))
    stats = [json.loads(line)["stats"] for line in (tmp_path / "run/records.jsonl").read_text().splitlines()]
    assert [s["seed"] for s in stats] == ["0", "0", "0"]
    assert len({s["hash"] for s in stats}) == 1
    monkeypatch.setenv("PYTHONHASHSEED", "7")   # a caller's own seed is kept
    run_eval(cfg([bench], tmp_path / "run7", fake("hash_seed")))
    assert {json.loads(line)["stats"]["seed"] for line in (tmp_path / "run7/records.jsonl").read_text().splitlines()} == {"7"}


# ---------------------------------------------------------------- crash-safe records and resume


def test_kill_9_at_any_moment_then_rerun_gives_exactly_the_problem_set(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 20)
    out = tmp_path / "run"
    args = [str(bench), "--out", str(out), "--workers", "2", "--time-limit", "5", "--grace", "2",
            "--attempt", fake("slow_ok"), "--no-progress"]
    env = {**os.environ, "EVAL_FAKE_SLEEP": "0.2"}
    for threshold in (1, 7, 13):  # kill three times, at different points of the run
        proc = subprocess.Popen([*PROVER, "eval", *args], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300  # a hang guard, not a speed check
        while time.monotonic() < deadline:
            rec = out / "records.jsonl"
            if rec.exists() and rec.read_bytes().count(b"\n") >= threshold:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        keys = RecordLog.read(out / "records.jsonl")[0]
        assert len(keys) < 20, "the run finished before it could be killed"
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    keys = raw_keys(out)
    assert sorted(keys) == sorted(f"toy/P{i}" for i in range(1, 21))  # none lost, none duplicated
    from prover.eval.isolate import TMP_PREFIX

    killed_scratch = [d for d in Path(tempfile.gettempdir()).glob(f"{TMP_PREFIX}{proc.pid}-*")]
    assert killed_scratch == []  # the killed runners' scratch folders were cleaned on resume
    assert len(json.loads((out / "run.json").read_text())["sessions"]) == 4
    assert "| toy | 20/20 |" in (out / "summary.md").read_text()
    again = run_eval(cfg([bench], out, fake("slow_ok"), time_limit=5.0, memory_mb=4096))  # nothing left to do
    assert again.new == 0 and again.recorded == 20 and raw_keys(out) == keys


def test_sigint_stops_cleanly_and_says_how_to_resume(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 12)
    out = tmp_path / "run"
    args = [str(bench), "--out", str(out), "--workers", "2", "--attempt", fake("slow_ok"), "--no-progress"]
    # a shell that starts the test suite in the background makes SIGINT ignored, and children
    # inherit that; a user's Ctrl-C reaches a process with the default disposition, so restore it
    proc = subprocess.Popen([*PROVER, "eval", *args], cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
                            env={**os.environ, "EVAL_FAKE_SLEEP": "2"},   # long enough that a loaded
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # machine is mid-run
    deadline = time.monotonic() + 300  # a hang guard, not a speed check
    while time.monotonic() < deadline and not ((out / "records.jsonl").exists()
                                               and (out / "records.jsonl").read_text().count("\n") >= 2):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)  # a hang guard
    assert proc.returncode == 130
    assert "Resume with:" in err
    n = len(raw_keys(out))
    assert 2 <= n < 12
    assert "Incomplete run" in (out / "summary.md").read_text()
    done = cli(*args)
    assert done.returncode == 0
    assert sorted(raw_keys(out)) == sorted(f"toy/P{i}" for i in range(1, 13))


def test_torn_last_line_is_detected_and_that_problem_redone(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 4)
    out = tmp_path / "run"
    run_eval(cfg([bench], out, fake("ok")))
    lines = (out / "records.jsonl").read_text().splitlines(keepends=True)
    torn_key = json.loads(lines[-1])["key"]
    (out / "records.jsonl").write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    outcome = run_eval(cfg([bench], out, fake("ok")))
    assert outcome.new == 1 and any("torn last line" in n for n in outcome.repaired)
    keys = raw_keys(out)
    assert sorted(keys) == sorted(f"toy/P{i}" for i in range(1, 5)) and keys[-1] == torn_key


def test_record_log_drops_duplicates_and_bad_lines(tmp_path):
    p = tmp_path / "records.jsonl"
    p.write_text('{"key": "a", "status": "proved"}\nnot json\n{"key": "a", "status": "error"}\n{"key": "b"}\n')
    log = RecordLog.open(p)
    log.append({"key": "c", "status": "timeout"})
    log.close()
    assert len(log.repaired) == 2
    assert [json.loads(x)["key"] for x in p.read_text().splitlines()] == ["a", "b", "c"]
    assert json.loads(p.read_text().splitlines()[0])["status"] == "proved"


def test_resume_with_other_options_is_refused(tmp_path):
    bench = write_bench(tmp_path / "b.jsonl", 1)
    run_eval(cfg([bench], tmp_path / "run", fake("ok")))
    with pytest.raises(EvalError, match="other options"):
        run_eval(cfg([bench], tmp_path / "run", fake("ok"), time_limit=9.0))


# ---------------------------------------------------------------- summary and compare


def test_summary_excludes_known_false_and_flags_a_proof_of_one(tmp_path):
    run = {"out": "x", "options": {}, "problems": {"567neq": ["567neq/P1", "567neq/P3"]},
           "known_false": {"567neq/P1": "false at a=b=1, c=1/2"}}
    recs = {"567neq/P3": {"key": "567neq/P3", "status": "proved", "time_s": 2.0},
            "567neq/P1": {"key": "567neq/P1", "status": "not_proved", "time_s": 1.0}}
    md = summary_markdown(run, recs)
    assert "| 567neq | 1/1 | 1 | 100.0% | 2.00 |" in md and "SOUNDNESS" not in md
    recs["567neq/P1"]["status"] = "proved"
    assert "SOUNDNESS FAILURE" in summary_markdown(run, recs)
    recs["567neq/P3"]["stats"] = {"kernel_checked": False}
    assert "1 `proved` records are NOT kernel-checked" in summary_markdown(run, recs)
    false_mode = summary_markdown({**run, "options": {"variants": "false"}}, recs)
    assert "SOUNDNESS FAILURE" in false_mode and "567neq/P3" in false_mode.split("SOUNDNESS FAILURE")[1]


def test_known_false_list_ships_with_the_benchmarks():
    tasks = load_tasks([BENCH / "567neq-dev.jsonl", BENCH / "chenneq.jsonl", BENCH / "mo-int-20.jsonl"])
    assert len(tasks) == 108
    from prover.eval.tasks import load_known_false

    assert "567neq/P1" in load_known_false([BENCH / "567neq-dev.jsonl"])


def _fake_run(path: Path, statuses: dict[str, tuple[str, float]]) -> Path:
    path.mkdir()
    (path / "run.json").write_text(json.dumps({"problems": {"d": sorted(statuses)}, "options": {}}))
    (path / "records.jsonl").write_text("".join(
        json.dumps({"key": k, "status": s, "time_s": t}) + "\n" for k, (s, t) in statuses.items()))
    return path


def test_compare_lists_gains_losses_and_time_ratios(tmp_path):
    a = _fake_run(tmp_path / "a", {"d/1": ("proved", 2.0), "d/2": ("proved", 1.0), "d/3": ("timeout", 9.0),
                                   "d/4": ("proved", 4.0)})
    b = _fake_run(tmp_path / "b", {"d/1": ("proved", 1.0), "d/2": ("error", 0.1), "d/3": ("proved", 3.0),
                                   "d/4": ("proved", 1.0)})
    md = compare_markdown(a, b)
    assert "| d | 3 | 3 | 1 | 1 | 2 | 0.38 |" in md  # ratios 0.5 and 0.25 -> median 0.375
    assert "Gained (proved in B, not in A): d/3." in md
    assert "Lost (proved in A, not in B): d/2 (B: error)." in md
    res = cli_inproc("--compare", str(a), str(b))
    assert res.exit_code == 0 and "Gained" in res.stdout


# ---------------------------------------------------------------- CLI errors


def test_cli_missing_file_is_one_line_exit_2():
    res = cli("/nonexistent/bench.jsonl", "--out", "/tmp/x")
    assert res.returncode == 2
    assert res.stderr.strip() == "error: benchmark file not found: /nonexistent/bench.jsonl"


@pytest.mark.parametrize("args, needle", [
    ([str(BENCH / "chenneq.jsonl")], "--out DIR is required"),
    ([], "give benchmark files"),
    (["--compare", "/nonexistent/a", "/nonexistent/b"], "not a run folder"),
    ([str(BENCH / "chenneq.jsonl"), "--out", "/tmp/x", "--variants", "weird"], "--variants must be 'false'"),
    ([str(BENCH / "chenneq.jsonl"), "--out", "/tmp/x", "--workers", "0"], "--workers must be at least 1"),
    ([str(BENCH / "chenneq.jsonl"), "--out", "/tmp/x", "--ray", "127.0.0.1:9"], "Ray"),  # unreachable, or ray absent
])
def test_cli_user_errors_are_one_line_exit_2(args, needle):
    res = cli_inproc(*args)
    assert res.exit_code == 2
    err = res.stderr if res.stderr_bytes is not None else res.output
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert needle in err
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_bad_benchmark_lines_are_skipped_and_duplicates_are_user_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x/P1", "lean": "theorem"}\n{"id": "x/P2"\n{"id": "x/P3", "lean": 42}\n[1]\n')
    skipped = []
    assert [t.key for t in load_tasks([bad], on_skip=skipped.append)] == ["x/P1"]
    assert [(s.line, s.reason.split(" (")[0]) for s in skipped] == [
        (2, "not JSON"), (3, "field `lean` is not a string"), (4, "not a JSON object")]
    assert str(skipped[0]).startswith(f"{bad}:2: skipped: not JSON")
    bad.write_text('{"id": "x/P2"\n')
    with pytest.raises(EvalError, match="hold no problems"):
        load_tasks([bad], on_skip=skipped.append)
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": "x/P1", "lean": "theorem"}\n')
    with pytest.raises(EvalError, match="already given"):
        load_tasks([dup, dup])


def test_proof_filenames_are_flat_and_safe():
    assert proof_filename("567neq/P1") == "567neq__P1.json"
    assert proof_filename("a b/../c") == "a_b__..__c.json"


# ---------------------------------------------------------------- Ray (optional extra)


@pytest.mark.slow
def test_ray_local_cluster_runs_the_same_attempts(tmp_path):
    pytest.importorskip("ray")
    bench = write_bench(tmp_path / "b.jsonl", 4)
    out = tmp_path / "run"
    outcome = run_eval(cfg([bench], out, fake("by_name"), ray_address="local", time_limit=2.0, grace=0.5,
                           memory_mb=250))
    recs = {json.loads(x)["key"]: json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()}
    assert {k: r["status"] for k, r in recs.items()} == {"toy/P1": "proved", "toy/P2": "crashed",
                                                          "toy/P3": "crashed", "toy/P4": "memory"}
    assert outcome.recorded == 4
