"""The rendered theorem is the user's: verbatim, else the faithful statement, else a marked restatement.

Attacks: a whole file's other theorem, a shadowed hypothesis name (our statement), a simplifying
front-end (sympy turns ``b ^ 2 / b`` into ``b``): none may yield a file whose theorem is the
simplified goal, and ``--in-place`` never puts a proof of a restated theorem under the user's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.frontend import parse_theorem
from prover.lean.in_place import InPlaceError, insert_proof
from prover.lean.render.faithful_text import faithful_rel_text
from prover.lean.replay import replay_text

TWO = """import Mathlib

theorem first (b : ℝ) (h₀ : b ≠ 0) :
  (7 * b ^ 3) ^ 2 * ((4 * b ^ 2) ^ 3)⁻¹ = 49 / 64 := by sorry

theorem second (b : ℝ) (h₀ : b ≠ 0) :
  (7 * b ^ 3) ^ 2 / (4 * b ^ 2) ^ 3 = 49 / 64 := by sorry
"""


def _rendered(tmp_path: Path, spec: str) -> str:
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["prove", spec, "--time-limit", "30", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return (out / "proof.lean").read_text()


@pytest.mark.parametrize("name, goal", [("first", "(7 * b ^ 3) ^ 2 * ((4 * b ^ 2) ^ 3)⁻¹ = 49 / 64"),
                                        ("second", "(7 * b ^ 3) ^ 2 / (4 * b ^ 2) ^ 3 = 49 / 64")])
def test_a_files_named_theorem_is_stated_verbatim(tmp_path: Path, name: str, goal: str) -> None:
    f = tmp_path / "two.lean"
    f.write_text(TWO)
    text = _rendered(tmp_path, f"{f}#{name}")
    assert f"theorem {name} (b : ℝ) (h₀ : b ≠ 0) :\n  {goal} := by" in text
    assert "(49 / 64 : ℝ) = 49 / 64" not in text          # the simplified goal, as before this rule
    assert replay_text(text).ok


def test_in_place_on_a_files_second_theorem_passes_the_model(tmp_path: Path) -> None:
    f = tmp_path / "two.lean"
    f.write_text(TWO)
    r = CliRunner().invoke(app, ["prove", f"{f}#second", "--time-limit", "30", "--in-place"])
    assert r.exit_code == 0, r.output
    text = f.read_text()
    assert text.count("sorry") == 1 and "theorem first" in text
    second = text[text.index("theorem second"):]
    assert replay_text("import Mathlib\n\n" + second).ok


def test_in_place_refuses_a_proof_of_a_restated_theorem() -> None:
    src = "import Mathlib\n\ntheorem r (b : ℝ) (h : 0 < b) : b ^ 2 / b = b := by sorry\n"
    restated = "import Mathlib\n\ntheorem r (b : ℝ) (h : 0 < b) :\n    b = b := by\n  linear_combination\n"
    with pytest.raises(InPlaceError, match="restated theorem"):
        insert_proof(src, "r", restated)
    same = "import Mathlib\n\ntheorem r (b : ℝ)\n    (h : 0 < b) : b ^ 2 / b = b := by\n  field_simp\n"
    assert "field_simp" in insert_proof(src, "r", same)      # the same statement, laid out otherwise


def test_our_statement_states_the_faithful_goal_not_sympys(tmp_path: Path) -> None:
    # a repeated hypothesis name: the user's text cannot be used (the first `h` has no name)
    f = tmp_path / "r.lean"
    f.write_text("theorem r (b : ℝ) (h : b ≠ 0) (h : 0 < b) : b ^ 2 / b = b := by sorry\n")
    text = _rendered(tmp_path, str(f))
    assert "(h_2 : 0 < b) :\n    b ^ 2 / b = b := by" in text and "Restated" not in text
    assert replay_text(text).ok
    r = CliRunner().invoke(app, ["prove", str(f), "--time-limit", "30", "--in-place"])
    # the proof is found and printed (exit 0); the file is left as it was, and the note says why
    assert "--in-place: not written" in r.output and "restated theorem" in r.output and "sorry" in f.read_text()


CASES = [
    ("(b : ℝ) (h : 0 < b)", "b ^ 2 / b = b"),
    ("(x y : ℝ) (hx : 0 < x) (hy : 0 < y)", "(x - y) ^ 2 / (x * y) ≥ 0"),
    ("(x : ℝ)", "Real.sqrt (x ^ 2) ≤ |x| + 1"),
    ("(x : ℝ) (hx : 0 < x)", "x ^ (1 / 3 : ℝ) ≤ x + 1"),
    ("(x : ℝ)", "Real.exp (x - 1) ≥ x"),
    ("(x y : ℝ) (hx : 0 < x) (hy : 0 < y)", "Real.log (x * y) ≤ x * y"),
    ("(x : ℝ) (hx : 0 < x)", "(x⁻¹ + 2) ^ 3 > 0"),
    ("(x y : ℝ)", "-(x + y) ≤ 2 + |x - -y|"),
    ("(a b : ℝ)", "a * -b ≤ a ^ 2 / 2 + b ^ 2 / 2"),
    ("(a : ℝ) (ha : 0 < a)", "1 / (a * (a + 1)) ≤ 1 / a - 1 / (a + 1) + 1"),
    ("(x : ℝ) (hx : 1 < x)", "Real.pi * x > 3 * x - x / 2 - 1 / 2"),
    ("(b : ℝ) (h₀ : b ≠ 0)", "(7 * b ^ 3) ^ 2 * ((4 * b ^ 2) ^ 3)⁻¹ = 49 / 64"),
    ("(x : ℝ)", "(-2) ^ 3 * x ^ 2 ≤ (1 / 2 - 3 / 4) * (x - 1) ^ 4 + 5"),
]


@pytest.mark.parametrize("binders, goal", CASES)
def test_faithful_text_reads_back_as_the_same_statement(binders: str, goal: str) -> None:
    """Printing the faithful goal and reading that text again gives the same kernel terms: the
    printed theorem means what the user's means (each kernel node one Lean operation)."""
    faithful = parse_theorem(f"theorem t {binders} : {goal} := by sorry").faithful
    printed = faithful_rel_text(faithful.goal)
    again = parse_theorem(f"theorem t {binders} : {printed} := by sorry").faithful
    assert again.goal == faithful.goal, printed


def test_faithful_text_of_closed_sides_is_real() -> None:
    faithful = parse_theorem("theorem t : (7 / 2 : ℝ) * 2 = 7 := by sorry").faithful
    printed = faithful_rel_text(faithful.goal)
    assert printed.startswith("(") and ": ℝ)" in printed      # numerals alone would elaborate at ℕ


def test_an_unbridgeable_faithful_statement_is_marked_restated(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    """Where the proof cannot be carried to the faithful statement, the file states the front-end's
    reading under a comment saying so (never silently another theorem)."""
    import prover.lean.render.proof as rproof

    real = rproof._render_either_printing

    def no_faithful(proof, *args):
        if proof.problem.faithful is not None:
            raise rproof.RenderError("not bridged (test)")
        return real(proof, *args)

    monkeypatch.setattr(rproof, "_render_either_printing", no_faithful)
    f = tmp_path / "r.lean"
    f.write_text("theorem r (b : ℝ) (h : b ≠ 0) (h : 0 < b) : b ^ 2 / b = b := by sorry\n")
    text = _rendered(tmp_path, str(f))
    assert rproof.RESTATED_COMMENT + "theorem r" in text and "b = b := by" in text


def test_a_faithful_file_the_model_fails_gives_way_to_the_marked_restatement(monkeypatch: pytest.MonkeyPatch,
                                                                             tmp_path: Path) -> None:
    """Where the faithful statement renders but a tactic fails the replay model, the marked reading is
    written instead (when it passes); a passing faithful file is kept."""
    import prover.lean.render.proof as rproof
    from prover.lean.replay.report import ReplayReport, StepVerdict

    real = rproof.heartbeat_options

    def faithful_fails(text: str):
        out, report = real(text)
        if "b ^ 2 / b = b := by" in text:
            return out, ReplayReport("<rendered>", [StepVerdict(9, "linear_combination", "fail", "ring (test)")])
        return out, report

    monkeypatch.setattr(rproof, "heartbeat_options", faithful_fails)
    f = tmp_path / "r.lean"
    f.write_text("theorem r (b : ℝ) (h : b ≠ 0) (h : 0 < b) : b ^ 2 / b = b := by sorry\n")
    text = _rendered(tmp_path, str(f))
    assert rproof.RESTATED_COMMENT + "theorem r" in text and replay_text(text).ok


def test_a_saved_proof_renders_its_faithful_statement_and_check_rereads_the_text(tmp_path: Path) -> None:
    """``prover lean render proof.json`` states the saved faithful statement; ``prover check`` does not
    take it from the file (it reads the Lean text again: see tests/test_statement_check.py)."""
    import json

    from prover.ir import Proof
    from prover.lean.render import render_proof

    f = tmp_path / "r.lean"
    f.write_text("theorem r (b : ℝ) (h : b ≠ 0) (h : 0 < b) : b ^ 2 / b = b := by sorry\n")
    _rendered(tmp_path, str(f))
    data = json.loads((tmp_path / "out" / "proof.json").read_text())
    proof = Proof.from_json(data)
    assert proof.problem.faithful is None                      # never trusted from the file
    assert "(h_2 : 0 < b) :\n    b ^ 2 / b = b := by" in render_proof(proof)
