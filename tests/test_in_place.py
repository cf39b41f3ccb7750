"""`prover prove FILE.lean#name --in-place` / `--lean`: the proof goes into the user's file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.in_place import InPlaceError, insert_proof, proof_body

ROOT = Path(__file__).resolve().parents[1]
RENDERED = """-- header
import Mathlib

theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by
  -- close (sos)
  linear_combination (sq_nonneg (b - a))

#print axioms t
"""


def test_body_and_insertion_keep_the_users_statement() -> None:
    assert proof_body(RENDERED) == ["  -- close (sos)", "  linear_combination (sq_nonneg (b - a))"]
    src = "import Mathlib\n\n/-- doc -/\ntheorem amgm (a b : ℝ) :\n    2 * a * b ≤ a ^ 2 + b ^ 2 := by\n  sorry\n\n" \
          "theorem other (x : ℝ) : 0 ≤ x ^ 2 := by sorry\n"
    out = insert_proof(src, "amgm", RENDERED)
    assert "theorem amgm (a b : ℝ) :\n    2 * a * b ≤ a ^ 2 + b ^ 2 := by\n  -- close (sos)\n" in out
    assert "theorem other (x : ℝ) : 0 ≤ x ^ 2 := by sorry" in out      # the other theorem untouched
    with pytest.raises(InPlaceError, match="no theorem"):
        insert_proof(src, "missing", RENDERED)
    with pytest.raises(InPlaceError, match="no `:= by sorry`"):
        insert_proof(out, "amgm", RENDERED)                           # already proved


def test_cli_in_place_and_lean(tmp_path: Path) -> None:
    f = tmp_path / "ineq.lean"
    shutil.copyfile(ROOT / "examples" / "inequalities.lean", f)
    r = CliRunner().invoke(app, ["prove", f"{f}#amgm_two", "--in-place", "--lean", "--time-limit", "30"])
    assert r.exit_code == 0, r.output
    assert "linear_combination" in r.output                          # --lean printed the Lean proof
    assert "not compiled here" in r.output and "checked" not in r.output.split("not compiled")[0][-40:]
    text = f.read_text()
    assert (tmp_path / "ineq.lean.bak").read_text() == (ROOT / "examples" / "inequalities.lean").read_text()
    decl = text[text.index("theorem amgm_two"):text.index("theorem am_hm")]
    assert "sorry" not in decl and "linear_combination" in decl
    assert text.count("sorry") == (ROOT / "examples" / "inequalities.lean").read_text().count("sorry") - 1


def test_in_place_needs_a_lean_file() -> None:
    r = CliRunner().invoke(app, ["prove", "theorem t (a : ℝ) : a ^ 2 ≥ 0 := by sorry", "--in-place"])
    assert r.exit_code == 2 and "--in-place needs" in r.output
