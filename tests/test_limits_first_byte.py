"""Limits from the first byte (issue 27, item 4): bad inputs never print a traceback, and no
command runs past its time limit plus a grace.

Each bad input runs the CLI in a subprocess; the subprocess timeout is the failure signal for a
command that does not end by itself (``--time-limit`` + the watchdog's grace + start-up). Where a
phase must be slow to test its limit (reading the statement, the search, rendering), a small
driver script replaces that phase by one that never ends, then runs the real CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROVER = Path(sys.executable).with_name("prover")
#: Seconds for the interpreter and the imports before a command starts counting (a loaded machine).
STARTUP = 25.0
#: ``prover prove`` ends at most this long after its --time-limit (prover.commands.prove.HARD_GRACE + 1).
GRACE = 15.0


def run(args: list[str], timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The command; a ``TimeoutExpired`` (the test fails) if it does not end by itself."""
    return subprocess.run(args, check=False, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)


def prover(*args: str, limit: float) -> subprocess.CompletedProcess:
    return run([str(PROVER), *args], limit + GRACE + STARTUP)


def driven(tmp_path: Path, patch: str, *args: str, limit: float) -> subprocess.CompletedProcess:
    """The CLI with ``patch`` (Python run first, in the same process) applied."""
    script = tmp_path / "drive.py"
    script.write_text("import sys\n" + textwrap.dedent(patch)
                      + "\nfrom prover.cli import main\nsys.argv = ['prover', *sys.argv[1:]]\nmain()\n")
    # a seed set: the CLI would otherwise run itself again for one (prover.cli.fix_hash_seed), without the patch
    return run([sys.executable, str(script), *args], limit + GRACE + STARTUP, {**os.environ, "PYTHONHASHSEED": "0"})


def no_traceback(res: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout, res.stderr[-3000:]


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def theorem(n: int) -> str:
    xs = " ".join(f"x{i}" for i in range(1, n + 1))
    hyps = " ".join(f"(h{i} : 0 < x{i})" for i in range(1, n + 1))
    return f"theorem t ({xs} : ℝ) {hyps} : {' + '.join(f'x{i}' for i in range(1, n + 1))} ≥ 0 := by sorry"


# ---------------------------------------------------------------- prove: the time limit


def test_a_200_variable_statement_ends_within_its_limit() -> None:
    res = prover("prove", theorem(200), "--time-limit", "5", "--no-progress", limit=5)
    no_traceback(res)
    assert res.returncode in (0, 1, 2), res.stdout + res.stderr
    if res.returncode == 2:     # refused early by the front-end's size bounds: one line
        assert lines(res.stderr) and lines(res.stderr)[0].startswith("error: "), res.stderr


SLOW_READER = """
import time
import prover.commands.prove as P
def slow(*a, **k):
    time.sleep(3600)
P.load_problem = slow
"""


def test_the_limit_covers_reading_the_statement(tmp_path: Path) -> None:
    res = driven(tmp_path, SLOW_READER, "prove", "theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
                 "--time-limit", "3", limit=3)
    no_traceback(res)
    assert res.returncode == 1, res.stdout + res.stderr
    (line,) = lines(res.stdout)
    assert line.startswith("timeout in ") and "reading the statement" in line, line


def test_the_limit_covers_reading_the_statement_json(tmp_path: Path) -> None:
    res = driven(tmp_path, SLOW_READER, "prove", "theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
                 "--time-limit", "3", "--json", limit=3)
    no_traceback(res)
    d = json.loads(res.stdout)
    assert res.returncode == 1 and d["status"] == "timeout" and d["exit_code"] == 1, res.stdout


def test_a_search_that_ignores_its_limit_is_stopped(tmp_path: Path) -> None:
    patch = """
    import time
    import prover.search.driver as D
    def stuck(*a, **k):
        time.sleep(3600)
    D.prove_problem = stuck
    """
    res = driven(tmp_path, patch, "prove", "theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
                 "--time-limit", "3", "--no-progress", limit=3)
    no_traceback(res)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "timeout" in res.stdout and "searching" in res.stdout, res.stdout


def test_the_watchdog_ends_code_that_swallows_the_alarm(tmp_path: Path) -> None:
    patch = """
    import time
    import prover.commands.prove as P
    def deaf(*a, **k):
        while True:
            try:
                time.sleep(3600)
            except BaseException:
                pass
    P.load_problem = deaf
    """
    res = driven(tmp_path, patch, "prove", "theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
                 "--time-limit", "2", limit=2)
    no_traceback(res)
    assert res.returncode == 1, res.stdout + res.stderr
    (line,) = lines(res.stdout)
    assert line.startswith("timeout in ") and "stopped" in line, line


def test_rendering_past_the_limit_keeps_the_proof(tmp_path: Path) -> None:
    patch = """
    import time
    import prover.lean.render as R
    def slow(*a, **k):
        time.sleep(3600)
    R.render_proof = slow
    """
    out = tmp_path / "out"
    # 20 s: the proof must be found first, which on a loaded machine took more than 8 s
    res = driven(tmp_path, patch, "prove", "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry",
                 "--time-limit", "20", "--out", str(out), "--no-progress", limit=20)
    no_traceback(res)
    assert res.returncode == 0, res.stdout + res.stderr
    assert (out / "proof.json").is_file() and not (out / "proof.lean").exists()
    assert "Lean rendering stopped at the time limit" in res.stdout, res.stdout


# ---------------------------------------------------------------- prove: bad inputs


def test_a_1000_digit_numeral_gives_no_traceback() -> None:
    big = "7" * 1000
    res = prover("prove", f"theorem t (x y : ℝ) (h : 0 < x) : x * y ^ 2 - {big} * x < 1 := by sorry",
                 "--time-limit", "5", "--no-progress", limit=5)
    no_traceback(res)
    assert "OverflowError" not in res.stderr
    assert res.returncode in (1, 2), res.stdout + res.stderr


def test_the_oracle_reads_overflow_as_no_counterexample(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    import numpy as np

    from prover.frontend.statement import parse_theorem
    from prover.ir import Goal
    from prover.oracles.model import GoalModel
    from prover.oracles.search import find_counterexample

    big = "7" * 1000
    goal = Goal.from_problem(parse_theorem(f"theorem t (x y : ℝ) (h : 0 < x) : x * y ^ 2 - {big} * x < 1 := by sorry"))
    # false (x = 1, y huge), but floats cannot evaluate it: no candidate at those points, not a crash
    norm, viol = GoalModel(goal).evaluate(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert not np.isfinite(norm).any() and not np.isfinite(viol).any()
    with caplog.at_level(logging.DEBUG, logger="prover.oracles"):
        find_counterexample(goal, time_limit=1.0, use_z3=False)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_duplicate_hypothesis_name_keeps_the_proof(tmp_path: Path) -> None:
    out = tmp_path / "out"
    res = prover("prove", "theorem t (x y : ℝ) (h : 0 < x) (h : 0 < y) : x + y > 0 := by sorry",
                 "--time-limit", "10", "--out", str(out), "--no-progress", limit=10)
    no_traceback(res)
    if res.returncode == 2:      # the front-end refuses it: one line
        assert lines(res.stderr)[0].startswith("error: ") and "StopIteration" not in res.stderr, res.stderr
        return
    assert res.returncode == 0, res.stdout + res.stderr
    assert (out / "proof.json").is_file()
    assert "could not write" not in res.stderr, res.stderr


def test_a_rendering_failure_is_a_note_and_keeps_the_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import prover.lean.render as R
    from prover.commands.prove import write_outputs
    from prover.frontend.statement import parse_theorem
    from prover.search import page
    from prover.search.driver import prove_problem

    result = prove_problem(parse_theorem("theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"),
                           time_limit=30)
    assert result.status == "proved"

    def boom(*a: object, **k: object) -> str:
        raise StopIteration

    monkeypatch.setattr(R, "render_proof", boom)
    monkeypatch.setattr(page, "proof_html", boom)
    files, notes = write_outputs(tmp_path, result, "t")
    assert set(files) == {"json"} and (tmp_path / "proof.json").is_file()
    assert len(notes) == 2 and all("StopIteration" in n and "\n" not in n for n in notes), notes


# ---------------------------------------------------------------- check: certificate sizes


def _close_proof(variables: list[str], rhs: str, poly: str) -> dict:
    """A proof of ``0 <= rhs`` by one sos term ``poly ** 2`` (no Lean text)."""
    goal = {"variables": variables, "hypotheses": [], "target": {"lhs": "0", "op": "<=", "rhs": rhs}}
    return {"format": "prover-proof", "version": _version(),
            "problem": {"name": "p", "variables": variables, "hypotheses": [],
                        "goal": {"lhs": "0", "op": "<=", "rhs": rhs}},
            "root": {"kind": "close", "goal": goal, "children": [], "subgoals": [],
                     "certificate": {"method": "sos", "eq_terms": [],
                                     "terms": [{"coeff": "1", "mult": [], "poly": poly}]}},
            "meta": {}}


def _version() -> int:
    from prover.ir import VERSION

    return VERSION


ABCD = ["a", "b", "c", "d"]
HUGE_CERTIFICATES = {
    "power_250": (ABCD, "(a+b+c+d)**500", "(a+b+c+d)**250"),
    "product": (ABCD, "((a+b+c+d)**40*(a-b+c-d)**40)**2", "(a+b+c+d)**40*(a-b+c-d)**40"),
    "sqrt_of_power": (ABCD, "sqrt((a+b+c+d)**250)**2", "sqrt((a+b+c+d)**250)"),
    "fractions": (ABCD, "0", " + ".join(f"1/(a+b+c+d+{i})" for i in range(1, 80))),
}


@pytest.mark.parametrize("case", sorted(HUGE_CERTIFICATES))
def test_an_oversized_certificate_is_rejected_at_once(case: str, tmp_path: Path) -> None:
    variables, rhs, poly = HUGE_CERTIFICATES[case]
    f = tmp_path / f"{case}.json"
    f.write_text(json.dumps(_close_proof(variables, rhs, poly)))
    if case == "power_250":
        assert len(f.read_bytes()) < 600   # the 520-byte file
    res = run([str(PROVER), "check", "--time-limit", "60", str(f)], 60 + STARTUP)
    no_traceback(res)
    assert res.returncode == 1, res.stdout + res.stderr
    assert res.stdout.startswith("REJECTED") and "time limit" not in res.stdout, res.stdout


def test_size_bounds_are_exact_and_cheap() -> None:
    import sympy as sp

    from prover.kernel.algebra import MAX_EXPAND_TERMS, comb_capped, expansion_size

    assert comb_capped(253, 3, 10**9) == 2_667_126            # (a+b+c+d)**250: C(253, 3) terms
    assert comb_capped(10**6, 5 * 10**5, 1000) == 1001        # stops as soon as it is known
    a, b, c, d = sp.symbols("a b c d", real=True)
    assert expansion_size((a + b) ** 250) == 251
    assert expansion_size((a + b + c + d) ** 250) > MAX_EXPAND_TERMS
    assert expansion_size(((a + b + c + d) ** 10_000) ** 10_000) > MAX_EXPAND_TERMS   # no huge integers


def test_the_kernel_still_accepts_a_moderate_power(tmp_path: Path) -> None:
    from prover.verify import check_proof

    verdict = check_proof(_close_proof(["a", "b"], "(a+b)**40", "(a+b)**20"))
    assert verdict.ok, verdict.errors
