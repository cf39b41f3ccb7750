"""The Python API (`from prover import prove, check, parse`): strings, specs and Problems in,
typed results out, typed errors on bad input (issue 15: `prove("theorem …")` used to return
status 'error' with an AttributeError)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import prover
from prover import ParseError, check, parse, prove
from prover.frontend.errors import ParseError as FrontEndParseError

ROOT = Path(__file__).resolve().parents[1]
AMGM = "theorem amgm (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"


@pytest.fixture(scope="module")
def amgm_result():
    return prove(AMGM, time_limit=20)


def test_prove_takes_a_lean_string(amgm_result):
    r = amgm_result
    assert r.status == "proved" and r.error is None, r
    assert isinstance(r, prover.ProveResult) and r.proved
    assert r.problem is not None and r.problem.name == "amgm"
    assert r.proof is not None and r.proof.problem.name == "amgm"
    assert "status='proved'" in repr(r)


def test_result_renders_lean_html_and_checks(amgm_result):
    r = amgm_result
    lean = r.lean_text()
    assert "theorem amgm (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by" in lean and "sorry" not in lean
    page = r.html()
    assert page.lstrip().lower().startswith("<!doctype html") and "amgm" in page
    verdict = r.check()
    assert verdict.ok, verdict.errors
    assert check(r).ok and check(r.proof).ok


def test_check_reads_a_proof_file_like_the_cli(amgm_result, tmp_path):
    path = tmp_path / "proof.json"
    path.write_text(amgm_result.proof.dumps(), encoding="utf-8")
    assert check(path).ok and check(str(path)).ok
    data = json.loads(path.read_text())
    assert check(data).ok
    # the file's Lean statement is read again: a proof of another theorem is rejected
    data["problem"]["lean"] = "theorem amgm (a b : ℝ) : 3 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"
    assert not check(data).ok


def test_prove_takes_a_problem_and_file_specs():
    p = parse(AMGM)
    assert isinstance(p, prover.Problem) and p.variables == ["a", "b"]
    assert prove(p, time_limit=20).status == "proved"
    r = prove(str(ROOT / "examples" / "inequalities.lean") + "#am_hm", time_limit=20)
    assert r.status == "proved" and r.problem.name == "am_hm"
    r = prove(str(ROOT / "benchmarks" / "textbook.jsonl") + "#textbook/amgm2", time_limit=20)
    assert r.status == "proved"


def test_counterexample_is_exact_and_has_no_proof():
    r = prove("theorem f (a b : ℝ) : a * b ≤ a ^ 2 := by sorry", time_limit=10)
    assert r.status == "counterexample" and r.proof is None
    a, b = (float(r.counterexample[v]) for v in ("a", "b"))
    assert a * b > a * a
    for method in (r.lean_text, r.html, r.check):
        with pytest.raises(ValueError, match="no proof"):
            method()


@pytest.mark.parametrize("bad", [
    "theorem t (n : ℕ) : n ≥ 0 := by sorry",            # unsupported construct
    "this is not Lean",                                  # no theorem at all
    "no/such/file.lean#t",                               # missing file
    str(ROOT / "benchmarks" / "textbook.jsonl"),         # several problems, no #id
    str(ROOT / "benchmarks" / "textbook.jsonl") + "#textbook/nope",
    str(ROOT / "examples" / "inequalities.lean") + "#nope",
])
def test_bad_input_raises_the_front_end_parse_error(bad):
    assert ParseError is FrontEndParseError
    with pytest.raises(ParseError) as err:
        prove(bad, time_limit=5)
    assert "\n" not in str(err.value)
    with pytest.raises(ParseError):
        parse(bad)


def test_wrong_argument_type_is_a_type_error():
    with pytest.raises(TypeError):
        prove(42, time_limit=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check(42)  # type: ignore[arg-type]


EXAMPLES = ROOT / "examples" / "inequalities.lean"


def _example_names() -> list[str]:
    from prover.frontend import declaration_names

    return declaration_names(EXAMPLES.read_text(encoding="utf-8"))


def test_every_shipped_example_theorem_parses():
    names = _example_names()
    assert len(names) >= 5
    for name in names:
        assert parse(f"{EXAMPLES}#{name}").name == name


@pytest.mark.slow
@pytest.mark.parametrize("name", _example_names())
def test_every_shipped_example_theorem_is_proved(name):
    r = prove(f"{EXAMPLES}#{name}", time_limit=20)
    assert r.status == "proved" and r.check().ok, r
