"""``prover check`` is about one named theorem (issue 27, item 3).

The proof files are a real proof written by ``prover prove … --out DIR`` of
``theorem u (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2``, edited here: its Lean text then holds a false
theorem ``t`` next to ``u``, does not parse, names another theorem, or its problem name carries
newlines and terminal escapes. The verdict must be about the theorem the output names, an
unreadable Lean text is never ACCEPTED (exit 3), and nothing from the file reaches the terminal
unescaped.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from prover.cli import app

ROOT = Path(__file__).resolve().parents[1]
PROVER = Path(sys.executable).with_name("prover")
TRUE_U = "theorem u (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"
FALSE_T = "theorem t (a b : ℝ) : a ^ 2 + b ^ 2 < 2 * a * b := by sorry"
#: a name that would print two forged verdict lines and clear the screen if printed raw
FORGED = "u\nACCEPTED evil (9 steps)\r\x1b[2J\x85\u2028\u202e"


@pytest.fixture(scope="module")
def real_proof(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The proof.json that ``prover prove`` writes for ``u``."""
    out = tmp_path_factory.mktemp("u")
    cmd = [str(PROVER), "prove", TRUE_U, "--out", str(out), "--time-limit", "60", "--no-progress"]
    res = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert res.returncode == 0, res.stdout + res.stderr
    data = json.loads((out / "proof.json").read_text(encoding="utf-8"))
    assert data["problem"]["lean"] == TRUE_U and data["problem"]["name"] == "u"
    return data


def sos_term(step: dict) -> dict | None:
    """The first SOS term of a certificate in the proof tree below ``step`` (the search may start
    with a rewrite, so the root need not be the SOS close)."""
    terms = step.get("certificate", {}).get("terms")
    if terms:
        return terms[0]
    for child in step.get("children", []):
        found = sos_term(child)
        if found is not None:
            return found
    return None


def edited(proof: dict, **problem: Any) -> dict:
    """``proof`` with its problem section's fields replaced (``None``: removed)."""
    d = copy.deepcopy(proof)
    for k, v in problem.items():
        if v is None:
            d["problem"].pop(k, None)
        else:
            d["problem"][k] = v
    return d


def check(doc: dict, tmp_path: Path, *args: str) -> Any:
    f = tmp_path / "proof.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return CliRunner().invoke(app, ["check", str(f), *args])


def lines(res: Any) -> list[str]:
    return [line for line in res.output.splitlines() if line.strip()]


def verdict_lines(res: Any) -> list[str]:
    return [line for line in lines(res) if line.split(" ")[0] in ("ACCEPTED", "REJECTED", "UNREADABLE")]


def no_control_characters(text: str) -> None:
    bad = [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    assert not bad, f"control characters reach the terminal: {bad!r} in {text!r}"


def test_the_real_proof_is_accepted_and_names_its_theorem(real_proof: dict, tmp_path: Path) -> None:
    res = check(real_proof, tmp_path)
    assert res.exit_code == 0, res.output
    assert verdict_lines(res)[0].startswith("ACCEPTED u "), res.output


def test_lean_name_of_another_theorem_is_rejected(real_proof: dict, tmp_path: Path) -> None:
    # the file claims `t` (false) but points the reader at `u` (true): today ACCEPTED t
    doc = edited(real_proof, name="t", lean=FALSE_T + "\n\n" + TRUE_U + "\n", lean_name="u")
    res = check(doc, tmp_path)
    assert res.exit_code == 1, res.output
    assert "ACCEPTED" not in res.output
    (line,) = lines(res)
    assert line.startswith("REJECTED t") and "`u`" in line, line


def test_two_theorems_with_the_matching_lean_name_are_checked_as_named(real_proof: dict, tmp_path: Path) -> None:
    doc = edited(real_proof, lean=FALSE_T + "\n\n" + TRUE_U + "\n", lean_name="u")
    res = check(doc, tmp_path)
    assert res.exit_code == 0, res.output
    assert verdict_lines(res)[0].startswith("ACCEPTED u "), res.output
    # and pointing at the false theorem of a proof of `u` is refused, not checked against `u`
    res = check(edited(real_proof, name="t", lean=FALSE_T + "\n\n" + TRUE_U + "\n", lean_name="t"), tmp_path)
    assert res.exit_code == 1 and "ACCEPTED" not in res.output, res.output


def test_a_single_theorem_of_another_name_is_rejected(real_proof: dict, tmp_path: Path) -> None:
    doc = edited(real_proof, name="t", lean=TRUE_U)
    res = check(doc, tmp_path)
    assert res.exit_code == 1 and "ACCEPTED" not in res.output, res.output


def test_a_benchmark_id_matches_its_last_component(real_proof: dict, tmp_path: Path) -> None:
    res = check(edited(real_proof, name="mo-int-20/u"), tmp_path)
    assert res.exit_code == 0, res.output
    line = verdict_lines(res)[0]
    assert line.startswith("ACCEPTED u ") and "mo-int-20/u" in line, line
    res = check(edited(real_proof, name="mo-int-20/t", lean_name="u"), tmp_path)
    assert res.exit_code == 1 and "ACCEPTED" not in res.output, res.output


def test_unreadable_lean_text_is_not_accepted(real_proof: dict, tmp_path: Path) -> None:
    doc = edited(real_proof, lean="theorem u (a b : ℝ) : 2 * a * b ≤ := by sorry")
    res = check(doc, tmp_path)
    assert res.exit_code == 3, res.output
    assert "ACCEPTED" not in res.output and "Traceback" not in res.output
    (line,) = lines(res)
    assert "Lean text" in line, line
    # --json: the same verdict, one object
    res = check(doc, tmp_path, "--json")
    d = json.loads(res.stdout)
    assert res.exit_code == 3 and d["exit_code"] == 3 and d["ok"] is False and d["verdict"] != "ACCEPTED"


def test_a_missing_lean_name_in_the_text_is_not_accepted(real_proof: dict, tmp_path: Path) -> None:
    res = check(edited(real_proof, lean_name="nowhere", name="nowhere"), tmp_path)
    assert res.exit_code == 3 and "ACCEPTED" not in res.output, res.output


def test_the_api_does_not_accept_unreadable_lean_text(real_proof: dict) -> None:
    from prover import check as api_check
    from prover.verify import check_proof

    doc = edited(real_proof, lean="theorem u (a b : ℝ) : := by sorry")
    assert not check_proof(doc).ok
    assert not api_check(doc).ok
    assert not check_proof(edited(real_proof, name="t", lean=FALSE_T + "\n" + TRUE_U, lean_name="u")).ok


def test_without_lean_text_the_own_problem_is_checked_and_said(real_proof: dict, tmp_path: Path) -> None:
    res = check(edited(real_proof, lean=None), tmp_path)
    assert res.exit_code == 0, res.output
    assert "own problem section" in res.output


@pytest.mark.parametrize("with_lean", [True, False], ids=["lean", "no-lean"])
def test_a_newline_laden_name_prints_exactly_one_verdict(real_proof: dict, tmp_path: Path,
                                                          with_lean: bool) -> None:
    doc = edited(real_proof, name=FORGED, lean=TRUE_U if with_lean else None)
    res = check(doc, tmp_path)
    no_control_characters(res.output)
    assert len(verdict_lines(res)) == 1, res.output
    assert not any(line.startswith("ACCEPTED evil") for line in lines(res)), res.output
    assert "\\nACCEPTED evil" in res.output     # shown, escaped, inside the one verdict line
    # with Lean text the name is not `u`'s: rejected; without, the file's own problem is proved
    assert res.exit_code == (1 if with_lean else 0), res.output


def test_a_forged_lean_name_and_error_strings_are_escaped(real_proof: dict, tmp_path: Path) -> None:
    res = check(edited(real_proof, lean_name=FORGED), tmp_path)
    no_control_characters(res.output)
    assert len(lines(res)) == 1 and lines(res)[0].startswith("REJECTED u: "), res.output
    doc = edited(real_proof, lean=None)
    sos_term(doc["root"])["poly"] = "-a + b\n\x1b[2JACCEPTED"
    res = check(doc, tmp_path)
    no_control_characters(res.output)
    assert res.exit_code == 1 and len(verdict_lines(res)) == 1, res.output


def test_json_output_carries_no_raw_control_characters(real_proof: dict, tmp_path: Path) -> None:
    res = check(edited(real_proof, name=FORGED, lean=None), tmp_path, "--json")
    assert res.exit_code == 0, res.output
    no_control_characters(res.stdout)
    assert len(res.stdout.strip().splitlines()) == 1
    d = json.loads(res.stdout)
    assert d["name"] == FORGED and d["verdict"] == "ACCEPTED"   # escaped, not altered
