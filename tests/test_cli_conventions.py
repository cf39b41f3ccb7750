"""CLI conventions (issue 15): --version, -h, ``python -m prover``, shell completion, --json on
check / eval / eval --compare (errors as JSON too), progress on stderr while proving, valid ids
on a wrong id, wrong file extensions, a found proof never lost to --out, an unusable --llm
refused before the search."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
FAKES = Path(__file__).with_name("eval_fakes.py")
EASY = "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"
# the closers cannot relate the atoms a^a and a^(a/2): the search runs to its time limit
HARD = "theorem t (a : ℝ) (ha : 0 < a) : 2 * a ^ (a / 2) ≤ a ^ a + 1"


def invoke(*args: str):
    return runner.invoke(app, list(args))


def one_line_error(r, code: int = 2) -> str:
    assert "Traceback" not in r.output, r.output
    assert r.exit_code == code, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]


def json_error(r, code: int = 2) -> dict:
    """In --json mode an error is one JSON object on stdout with ``error`` and ``exit_code``."""
    assert "Traceback" not in r.output, r.output
    assert r.exit_code == code, r.output
    d = json.loads(r.stdout)
    assert d["exit_code"] == code and isinstance(d["error"], str) and d["error"], d
    return d


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ conventions


def test_version_option_and_command():
    from importlib.metadata import version

    for args in (["--version"], ["-V"]):
        r = invoke(*args)
        assert r.exit_code == 0 and r.stdout.strip() == f"prover {version('prover')}", r.output
    assert invoke("version").stdout.strip() == version("prover")


@pytest.mark.parametrize("args", [[], ["prove"], ["check"], ["eval"], ["parse"], ["conformal"],
                                  ["conformal", "filter"], ["lean"]])
def test_dash_h_is_help_everywhere(args):
    r = invoke(*args, "-h")
    assert r.exit_code == 0, r.output
    assert "Usage:" in r.stdout and "--help" in r.stdout


def test_shell_completion_is_offered(monkeypatch):
    r = invoke("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
    # Typer detects the parent shell (CI runs under `sh`, which it does not support); pin bash.
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    r = invoke("--show-completion")
    assert r.exit_code == 0 and "complete" in r.stdout, r.output


def test_python_dash_m_prover():
    r = subprocess.run([sys.executable, "-m", "prover", "--version"], capture_output=True, text=True, check=False,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.startswith("prover "), r.stderr
    r = subprocess.run([sys.executable, "-m", "prover", "parse", "x.json#P1"], capture_output=True, text=True, check=False,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.startswith("error: ")


# ------------------------------------------------------------------ --json: check, eval, --compare


@pytest.fixture(scope="module")
def proof_file(tmp_path_factory) -> Path:
    from prover.conformal.generate import textbook_proofs

    p = tmp_path_factory.mktemp("check") / "proof.json"
    p.write_text(textbook_proofs(1, seed=3)[0].dumps())
    return p


def test_check_json_verdicts(proof_file, tmp_path):
    r = invoke("check", str(proof_file), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["verdict"] == "ACCEPTED" and d["ok"] is True and d["exit_code"] == 0 and d["steps_checked"] >= 1
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    r = invoke("check", str(bad), "--json")
    assert r.exit_code == 1 and "Traceback" not in r.output
    d = json.loads(r.stdout)
    assert d["verdict"] == "REJECTED" and d["ok"] is False and d["errors"]
    tampered = json.loads(proof_file.read_text())
    tampered["root"]["goal"]["target"]["rhs"] = "x**9"
    bad.write_text(json.dumps(tampered))
    r = invoke("check", str(bad), "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["verdict"] == "REJECTED"


def test_check_json_errors_are_json(tmp_path):
    json_error(invoke("check", str(tmp_path / "missing.json"), "--json"))
    json_error(invoke("check", "x.json", "--json", "--time-limit", "0"))
    assert "proof_file" in json_error(invoke("check", "--json"))["error"]        # a usage error
    assert "--bogus" in json_error(invoke("check", "x.json", "--json", "--bogus"))["error"]
    one_line_error(invoke("check", str(tmp_path / "missing.json")))               # plain without --json


def _bench(tmp_path: Path) -> Path:
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps({"id": f"t/P{i}", "lean": EASY.replace("theorem t", f"theorem P{i}")}) + "\n"
                         for i in (1, 2)))
    return b


def test_eval_and_compare_json(tmp_path):
    bench = _bench(tmp_path)
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        r = invoke("eval", str(bench), "--out", str(out), "--attempt", f"{FAKES}:ok", "--time-limit", "5",
                   "--grace", "5", "--json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.stdout)
        assert d["total"] == 2 and d["counts"] == {"proved": 2} and d["datasets"][0]["proved"] == 2
        assert {x["key"] for x in d["records"]} == {"t/P1", "t/P2"}
        outs.append(str(out))
    r = invoke("eval", "--compare", *outs, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["common"] == 2 and d["gained"] == [] and d["lost"] == [] and d["datasets"][0]["both_proved"] == 2
    r = invoke("eval", "--compare", *outs)                                        # markdown without --json
    assert r.stdout.startswith("# Comparison")


def test_eval_json_errors_are_json(tmp_path):
    assert "not a run folder" in json_error(invoke("eval", "--compare", str(tmp_path), str(tmp_path), "--json"))[
        "error"]
    assert "not found" in json_error(invoke("eval", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "o"),
                                            "--json"))["error"]
    json_error(invoke("eval", "--json"))
    json_error(invoke("eval", str(_bench(tmp_path)), "--json"))                     # --out missing
    json_error(invoke("eval", "--json", "--workers", "many"))                       # a usage error


def test_prove_json_errors_are_json():
    json_error(invoke("prove", "theorem x (a : ℝ) : a ≥ ", "--json"))
    json_error(invoke("prove", EASY, "--json", "--time-limit", "0"))


# ------------------------------------------------------------------ ids and file extensions


def test_wrong_id_lists_the_closest_ids():
    line = one_line_error(invoke("prove", "benchmarks/chenneq.jsonl#P99"))
    assert "no entry `P99`" in line and "closest:" in line and "P9" in line and "P19" in line
    line = one_line_error(invoke("parse", "benchmarks/chenneq.jsonl#zzz"))
    assert "P1" in line and "P42" in line


def test_wrong_id_in_a_small_file_lists_all_ids(tmp_path):
    line = one_line_error(invoke("prove", f"{_bench(tmp_path)}#P3"))
    assert "valid ids: P1, P2" in line


def test_wrong_file_extension_is_named(tmp_path):
    line = one_line_error(invoke("prove", "benchmarks/chenneq.json#P19"))
    assert "unsupported file extension .json" in line and "expected .jsonl or .lean" in line
    assert "theorem" not in line
    f = tmp_path / "statement.txt"
    f.write_text(EASY)
    assert "unsupported file extension .txt" in one_line_error(invoke("parse", str(f)))
    one_line_error(invoke("prove", "theorem x (a : ℝ) : a ≥ "))                   # statement text: still parsed


# ------------------------------------------------------------------ never lose a found proof


@pytest.fixture()
def no_search(monkeypatch):
    """Fail the test if a proof search starts: the command must refuse before it."""
    import prover.search.driver

    def refuse(*args, **kwargs):
        raise AssertionError("a proof search was started before the refusal")

    monkeypatch.setattr(prover.search.driver, "prove_problem", refuse)


def test_out_that_is_a_file_is_refused_before_the_search(tmp_path, no_search):
    f = tmp_path / "taken"
    f.write_text("x")
    line = one_line_error(invoke("prove", HARD, "--out", str(f), "--time-limit", "30"))
    assert "--out" in line and "not a directory" in line
    one_line_error(invoke("prove", EASY, "--out", str(f / "below")))
    assert "not a directory" in json_error(invoke("prove", EASY, "--out", str(f), "--json"))["error"]
    assert f.read_text() == "x"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_out_in_a_read_only_folder_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert "not writable" in one_line_error(invoke("prove", EASY, "--out", str(ro / "run")))
    finally:
        ro.chmod(0o700)


def test_a_failing_write_prints_the_proof_first(tmp_path, monkeypatch):
    import prover.commands.prove as prove_cmd

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(prove_cmd, "write_outputs", broken)
    r = invoke("prove", EASY, "--closers-only", "--out", str(tmp_path / "run"), "--time-limit", "60")
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "proved" in r.stdout and "kernel: accepted" in r.stdout          # the proof is on the screen
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "No space left" in errors[0]
    r = invoke("prove", EASY, "--closers-only", "--out", str(tmp_path / "run"), "--time-limit", "60", "--json")
    assert r.exit_code == 2, r.output
    d = json.loads(r.stdout)
    assert d["status"] == "proved" and d["proof"]["format"] == "prover-proof" and "No space" in d["write_error"]


# ------------------------------------------------------------------ --llm fails fast


def test_llm_server_down_fails_before_the_search(no_search):
    line = one_line_error(invoke("prove", HARD, "--llm", f"http://127.0.0.1:{free_port()}/v1#m",
                                 "--time-limit", "30"))
    assert "not reachable" in line
    assert "not reachable" in json_error(invoke("prove", HARD, "--json", "--llm",
                                                f"http://127.0.0.1:{free_port()}/v1#m"))["error"]
    line = one_line_error(invoke("eval", "benchmarks/textbook.jsonl", "--out", "/nonexistent/never",
                                 "--llm", f"http://127.0.0.1:{free_port()}/v1#m"))
    assert "not reachable" in line


class _ModelsServer:
    """A server whose ``GET /v1/models`` lists one model, ``other``."""

    def __enter__(self) -> str:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                data = json.dumps({"object": "list", "data": [{"id": "other", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.srv.server_address[1]}/v1"

    def __exit__(self, *exc) -> None:
        self.srv.shutdown()
        self.srv.server_close()


def test_llm_model_not_served_fails_fast():
    with _ModelsServer() as url:
        line = one_line_error(invoke("prove", HARD, "--llm", f"{url}#mine", "--time-limit", "30"))
        assert "'mine' is not served" in line and "other" in line
        from prover.llm.spec import make_checked_backend

        assert make_checked_backend(f"{url}#other") is not None                 # the served one passes


def test_llm_model_folder_or_extra_missing_fails_fast(tmp_path):
    line = one_line_error(invoke("prove", HARD, "--llm", f"hf:{tmp_path / 'none'}"))
    assert "no local model folder" in line
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "config.json" in one_line_error(invoke("prove", HARD, "--llm", f"hf:{empty}"))
    import importlib.util

    if importlib.util.find_spec("vllm") is None:
        assert "vllm" in one_line_error(invoke("prove", HARD, "--llm", "vllm:some/model"))


# ------------------------------------------------------------------ progress while proving


def _prove_subprocess(*extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PROVER_PROGRESS_INTERVAL": "0.5"}
    return subprocess.run([sys.executable, "-m", "prover", "prove", HARD, "--time-limit", "3", *extra],
                          capture_output=True, text=True, check=False, timeout=180, cwd=ROOT, env=env)


def test_prove_shows_progress_on_stderr_only():
    r = _prove_subprocess()
    assert r.returncode == 1, r.stderr[-2000:]
    assert "searching" in r.stderr and "searching" not in r.stdout
    assert "not_proved" in r.stdout or "timeout" in r.stdout


def test_no_progress_in_json_mode():
    r = _prove_subprocess("--json")
    assert r.returncode == 1, r.stderr[-2000:]
    assert "searching" not in r.stderr
    assert json.loads(r.stdout)["status"] in ("not_proved", "timeout")


def test_the_cli_runs_at_a_fixed_hash_seed(monkeypatch):
    """Without a seed the CLI runs itself again at PYTHONHASHSEED=0 (set orders steer some
    searches: the same command must give the same result); a caller's seed is kept."""
    from prover import cli

    calls = []
    monkeypatch.setattr(cli.os, "execv", lambda exe, argv: calls.append(argv))
    monkeypatch.setattr(cli.sys, "argv", ["prover", "prove", "x.lean"])
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    cli.fix_hash_seed()
    assert calls == [[sys.executable, "-m", "prover", "prove", "x.lean"]]
    assert os.environ["PYTHONHASHSEED"] == "0"
    monkeypatch.setenv("PYTHONHASHSEED", "5")
    cli.fix_hash_seed()
    assert len(calls) == 1


def test_the_cli_run_again_for_its_seed_works():
    """The run again (``python -m prover`` with the same arguments) answers as the first would."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    res = subprocess.run([sys.executable, "-c", "from prover.cli import main; main()", "--version"],
                         check=False, capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and "prover" in res.stdout.lower(), res.stderr
