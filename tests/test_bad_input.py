"""Bad input never gives a traceback or a hang: a clear one-line error (exit 2 for ``prove`` and
``parse``; ``REJECTED …`` with exit 1, or ``error: …`` with exit 2 for an unreadable file, for
``check``) at once, before any search; a broken line of a JSONL benchmark is reported and skipped, the file's
other problems stay usable."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from prover.cli import app

FAKES = Path(__file__).with_name("eval_fakes.py")
HUGE = "1" * 10_001


def run(*args: str) -> Any:
    """The command in this process."""
    return CliRunner().invoke(app, list(args))


@pytest.fixture()
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a proof search starts: the input must be refused before it."""
    import prover.search.driver

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a proof search was started on input that should be refused first")

    monkeypatch.setattr(prover.search.driver, "prove_problem", refuse)


def no_traceback(res: Any) -> None:
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)


def one_line_error(res: Any, code: int = 2) -> str:
    no_traceback(res)
    assert res.exit_code == code, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


# ---------------------------------------------------------------- huge literals


@pytest.mark.parametrize("command", [["parse"], ["prove", "--time-limit", "5"]], ids=["parse", "prove"])
@pytest.mark.parametrize("literal", [HUGE, "1e100000000", "0." + HUGE], ids=["digits", "exponent", "decimal"])
def test_huge_numeric_literal_is_refused_at_once(command: list[str], literal: str, no_search: None) -> None:
    res = run(*command, f"theorem t (x : ℝ) : x + {literal} ≥ x := by sorry")
    line = one_line_error(res)
    assert "too long" in line or "too large" in line
    assert "column 25" in line


def test_literal_limit_keeps_ordinary_numbers_and_ignores_the_proof() -> None:
    import sympy as sp

    from prover.frontend import parse_theorem
    from prover.problem import var

    x = var("x")
    p = parse_theorem(f"theorem t (x : ℝ) : x + {'9' * 1000} ≥ x := by norm_num [{HUGE}]")
    assert p.goal.lhs == x + sp.Integer("9" * 1000)  # 1000 digits are fine; the proof is not read
    assert parse_theorem("theorem t (x : ℝ) : x ≤ x + (1.5e3 : ℝ)").goal.rhs == x + 1500


# ---------------------------------------------------------------- broken benchmark lines


BENCH_LINES = [
    json.dumps({"id": "t/P1", "lean": "theorem p1 (x : ℝ) : x ^ 2 ≥ 0 := by sorry"}),
    json.dumps({"id": "t/P2", "lean": 42}),
    "this line is not JSON",
    json.dumps(["t/P4", "theorem p4 (x : ℝ) : x ≥ 0"]),
    json.dumps({"id": "t/P5", "lean": "theorem p5 (a b : ℝ) : a ^ 2 + b ^ 2 ≥ 0 := by sorry"}),
]
BROKEN = {2: "not a string", 3: "not JSON", 4: "not a JSON object"}


@pytest.fixture()
def bench(tmp_path: Path) -> Path:
    f = tmp_path / "b.jsonl"
    f.write_text("\n".join(BENCH_LINES) + "\n", encoding="utf-8")
    return f


def assert_warned(stderr: str, f: Path) -> None:
    """One ``warning: FILE:LINE: skipped: why`` line per broken line, nothing else unexpected."""
    warned = {int(m.group(1)): m.group(2) for m in re.finditer(rf"^warning: {re.escape(str(f))}:(\d+): skipped: (.*)$",
                                                               stderr, re.MULTILINE)}
    assert set(warned) == set(BROKEN), stderr
    for line, why in BROKEN.items():
        assert why in warned[line]
    assert "Traceback" not in stderr


def test_load_benchmark_skips_and_reports_broken_lines(bench: Path) -> None:
    from prover.frontend import load_benchmark

    skipped: list[Any] = []
    problems = load_benchmark(bench, on_skip=skipped.append)
    assert [p.name for p in problems] == ["t/P1", "t/P5"]
    assert [(s.line, s.file) for s in skipped] == [(2, str(bench)), (3, str(bench)), (4, str(bench))]
    assert skipped[0].ident == "t/P2"


def test_parse_whole_file_skips_broken_lines(bench: Path) -> None:
    res = run("parse", "--json", str(bench))
    no_traceback(res)
    assert res.exit_code == 0, res.output
    assert [d["name"] for d in json.loads(res.stdout)] == ["t/P1", "t/P5"]
    assert_warned(res.stderr, bench)


def test_parse_and_prove_one_entry_of_a_file_with_broken_lines(bench: Path) -> None:
    res = run("parse", "--json", f"{bench}#P5")
    assert res.exit_code == 0 and json.loads(res.stdout)["name"] == "t/P5"
    assert_warned(res.stderr, bench)
    res = run("prove", "--closers-only", "--json", "--time-limit", "20", f"{bench}#P1")
    no_traceback(res)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == "proved"


def test_asking_for_the_broken_entry_is_a_one_line_error(bench: Path, no_search: None) -> None:
    res = run("prove", "--time-limit", "5", f"{bench}#P2")
    assert res.exit_code == 2 and "Traceback" not in res.output
    errors = [line for line in res.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "P2" in errors[0] and "b.jsonl:2" in errors[0] and "not a string" in errors[0]
    res = run("parse", f"{bench}#P9")
    assert res.exit_code == 2 and "no entry `P9`" in res.stderr


def test_a_file_of_broken_lines_only_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text("[1]\n{\n", encoding="utf-8")
    res = run("parse", str(f))
    assert res.exit_code == 2 and "no usable problem" in res.stderr and "Traceback" not in res.output


def test_eval_attempts_the_good_lines(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = run("eval", str(bench), "--out", str(out), "--time-limit", "5", "--grace", "5",
                 "--attempt", f"{FAKES}:ok", "--no-progress")
    no_traceback(res)
    assert res.exit_code == 0, res.output
    keys = [json.loads(line)["key"] for line in (out / "records.jsonl").read_text().splitlines()]
    assert sorted(keys) == ["t/P1", "t/P5"]
    assert len(json.loads((out / "run.json").read_text())["skipped_lines"]) == 3
    assert_warned(res.stderr, bench)


# ---------------------------------------------------------------- prover check


@pytest.fixture(scope="module")
def good_proof(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A kernel-accepted proof with an sos certificate, as ``prover prove`` writes it."""
    out = tmp_path_factory.mktemp("good")
    res = CliRunner().invoke(app, ["prove", "--closers-only", "--time-limit", "30", "--out", str(out),
                                   "theorem amgm (a b : ℝ) : a ^ 2 + b ^ 2 ≥ 2 * a * b := by sorry"])
    assert res.exit_code == 0, res.output
    return json.loads((out / "proof.json").read_text(encoding="utf-8"))


def _steps(d: dict) -> list[dict]:
    """The step objects of a proof file (whatever its exact layout): dicts with a certificate."""
    found, stack = [], [d]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "certificate" in x and "kind" in x:
                found.append(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def _polys(x: Any) -> list[dict]:
    if isinstance(x, dict):
        return ([x] if isinstance(x.get("poly"), str) else []) + [p for v in x.values() for p in _polys(v)]
    if isinstance(x, list):
        return [p for v in x for p in _polys(v)]
    return []


def _deep(good: dict, depth: int) -> str:
    """``good`` with its first step's children nested ``depth`` levels deep (written as text: the
    json module cannot write it)."""
    step = _steps(good)[0]
    leaf = dict(step, children=[])
    marker = "\u0000DEEP\u0000"
    doc = json.dumps(good)
    step_text = json.dumps(step)
    assert step_text in doc
    inner = json.dumps(dict(leaf, children=[marker]))
    head, _, tail = inner.partition(json.dumps(marker))
    nested = head * depth + json.dumps(leaf) + tail * depth
    return doc.replace(step_text, nested, 1)


def check_verdict(res: Any) -> str:
    """A rejection: exit 1 (``REJECTED``) or 2 (``error:``, unreadable file), no traceback, one
    verdict line (at most one indented reason line after it)."""
    no_traceback(res)
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert lines, res.output
    if res.exit_code == 2:
        assert lines[0].startswith("error: ") and len(lines) == 1, res.output
    else:
        assert res.exit_code == 1, res.output
        assert lines[0].startswith("REJECTED"), res.output
        assert len(lines) <= 2 and all(line.startswith("  ") for line in lines[1:]), res.output
    return "\n".join(lines)


def test_check_accepts_the_good_proof(good_proof: dict, tmp_path: Path) -> None:
    f = tmp_path / "p.json"
    f.write_text(json.dumps(good_proof), encoding="utf-8")
    res = run("check", str(f))
    assert res.exit_code == 0 and "ACCEPTED" in res.output, res.output


BAD_PROOFS = {
    "certificate_string": lambda g: json.dumps(_set_certificate(g, "positivity")),
    "deep_3000": lambda g: _deep(g, 3000),
    "not_json": lambda g: "{not json",
    "json_list": lambda g: json.dumps([g]),
    "json_number": lambda g: "42",
    "empty": lambda g: "",
}


def _set_certificate(good: dict, value: Any) -> dict:
    g = json.loads(json.dumps(good))
    _steps(g)[0]["certificate"] = value
    return g


@pytest.mark.parametrize("case", sorted(BAD_PROOFS))
def test_check_rejects_bad_proof_files_in_one_line(case: str, good_proof: dict, tmp_path: Path) -> None:
    f = tmp_path / f"{case}.json"
    f.write_text(BAD_PROOFS[case](good_proof), encoding="utf-8")
    res = run("check", str(f))
    check_verdict(res)


def test_check_rejects_a_huge_exponent_at_once(good_proof: dict, tmp_path: Path) -> None:
    # Depends on the kernel bounding exponents when it reads an expression (it refuses exponents
    # above 10000): with an unbounded kernel `10**10**9` is computed and the command stops only
    # at its --time-limit (REJECTED: time limit), which this test does not accept.
    g = json.loads(json.dumps(good_proof))
    polys = _polys(g)
    assert polys, "the sos proof has a polynomial to corrupt"
    polys[0]["poly"] = "10**10**9"
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(g), encoding="utf-8")
    res = run("check", "--time-limit", "5", str(f))
    text = check_verdict(res)
    assert "time limit" not in text


def test_check_is_stopped_at_its_time_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from prover.commands import parse_check

    monkeypatch.setattr(parse_check, "_check_unguarded", lambda proof_file: time.sleep(60))
    res = run("check", "--time-limit", "1", str(tmp_path / "p.json"))
    assert check_verdict(res) == f"REJECTED {tmp_path / 'p.json'}: time limit of 1 s exceeded"


@pytest.mark.parametrize("exc", [RecursionError("deep"), MemoryError(), KeyError("boom")],
                         ids=["recursion", "memory", "other"])
def test_check_turns_a_crash_into_one_rejection(exc: BaseException, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    from prover.commands import parse_check

    def crash(proof_file: str) -> None:
        print("partial output that must not be shown")
        raise exc

    monkeypatch.setattr(parse_check, "_check_unguarded", crash)
    res = run("check", str(tmp_path / "p.json"))
    text = check_verdict(res)
    assert text.startswith(f"REJECTED {tmp_path / 'p.json'}: ") and "partial" not in text


def test_guard_reports_how_the_body_ended() -> None:
    import os

    from prover.commands.guard import run_guarded

    assert run_guarded(lambda: print("hi"), (), 5).out == "hi\n"
    assert run_guarded(lambda: time.sleep(30), (), 0.5).status == "timeout"
    died = run_guarded(lambda: os._exit(7), (), 5)
    assert died.status == "died" and died.code == 1
    big = run_guarded(lambda: bytearray(2 * 2**30), (), 5, memory_mb=256)
    assert big.status == "crashed" and "out of memory" in big.detail


def test_check_time_limit_must_be_positive(tmp_path: Path) -> None:
    res = run("check", "--time-limit", "0", str(tmp_path / "p.json"))
    one_line_error(res)
