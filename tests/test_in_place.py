"""`prover prove FILE.lean#name --in-place` / `--lean`: the proof goes into the user's file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.in_place import InPlaceError, backup_path, insert_proof, proof_body, theorems, write_in_place

ROOT = Path(__file__).resolve().parents[1]
RENDERED = """-- header
import Mathlib

theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by
  -- close (sos)
  linear_combination (sq_nonneg (b - a))

#print axioms t
"""


def rendered_for(statement: str) -> str:
    """:data:`RENDERED` with another statement (binders and goal): a proof is only put under the
    theorem it was rendered for."""
    return RENDERED.replace("(a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2", statement)


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
    assert (tmp_path / "ineq.lean.bak.1").read_text() == (ROOT / "examples" / "inequalities.lean").read_text()
    decl = text[text.index("theorem amgm_two"):text.index("theorem am_hm")]
    assert "sorry" not in decl and "linear_combination" in decl
    assert text.count("sorry") == (ROOT / "examples" / "inequalities.lean").read_text().count("sorry") - 1


def test_in_place_needs_a_lean_file() -> None:
    r = CliRunner().invoke(app, ["prove", "theorem t (a : ℝ) : a ^ 2 ≥ 0 := by sorry", "--in-place"])
    assert r.exit_code == 2 and "--in-place needs" in r.output


# ---------------------------------------------------------------- issue 30 item 7


@pytest.fixture()
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a proof search starts."""
    import prover.search.driver

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a proof search was started")

    monkeypatch.setattr(prover.search.driver, "prove_problem", refuse)


def _one_line_error(r) -> str:
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]


def _copy(tmp_path: Path) -> Path:
    f = tmp_path / "ineq.lean"
    shutil.copyfile(ROOT / "examples" / "inequalities.lean", f)
    return f


def test_a_read_only_file_is_refused_in_one_line_before_the_search(tmp_path: Path, no_search: None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    f = _copy(tmp_path)
    before = f.read_bytes()
    real_access = os.access
    # a read-only file system (errno 30) refuses writes even to root: os.access says so
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if Path(p) == f and mode & os.W_OK
                        else real_access(p, mode, **k))
    line = _one_line_error(CliRunner().invoke(app, ["prove", f"{f}#amgm_two", "--in-place"]))
    assert "--in-place" in line and "read-only" in line and str(f) in line and "Errno" not in line
    assert f.read_bytes() == before and list(tmp_path.glob("*.bak*")) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_chmod_read_only_file_is_refused(tmp_path: Path, no_search: None) -> None:
    f = _copy(tmp_path)
    f.chmod(0o444)
    line = _one_line_error(CliRunner().invoke(app, ["prove", f"{f}#amgm_two", "--in-place"]))
    assert "read-only" in line


def test_a_theorem_without_sorry_is_skipped_without_searching(tmp_path: Path, no_search: None) -> None:
    f = _copy(tmp_path)
    proved = f.read_text().replace("theorem amgm_two (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by\n  sorry",
                                   "theorem amgm_two (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by\n"
                                   "  nlinarith [sq_nonneg (a - b)]")
    f.write_text(proved)
    line = _one_line_error(CliRunner().invoke(app, ["prove", f"{f}#amgm_two", "--in-place"]))
    assert "amgm_two" in line and "no `sorry`" in line and "nothing searched" in line
    assert f.read_text() == proved and list(tmp_path.glob("*.bak*")) == []


def test_backups_are_numbered_and_never_overwritten(tmp_path: Path) -> None:
    f = _copy(tmp_path)
    original = f.read_text()
    (tmp_path / "ineq.lean.bak.1").write_text("an older backup")
    (tmp_path / "ineq.lean.bak.7x").write_text("not a numbered backup")
    assert backup_path(f).name == "ineq.lean.bak.2"
    b2 = write_in_place(f, "amgm_two", RENDERED)
    after_first = f.read_text()
    b3 = write_in_place(f, "am_hm", rendered_for("(a b : ℝ) (ha : 0 < a) (hb : 0 < b) :\n"
                                                 "    2 / (a + b) ≤ (1 / a + 1 / b) / 2"))
    assert (b2.name, b3.name) == ("ineq.lean.bak.2", "ineq.lean.bak.3")
    assert (tmp_path / "ineq.lean.bak.1").read_text() == "an older backup"
    assert b2.read_text() == original and b3.read_text() == after_first
    assert f.read_text().count("sorry") == original.count("sorry") - 2


def test_declarations_are_read_as_lean_reads_them() -> None:
    """A name in a comment is no theorem; a partial proof with `sorry` is not replaced."""
    src = ("import Mathlib\n/- theorem fake : True := by sorry -/\n"
           "theorem «real» (x : ℝ) : 0 ≤ x ^ 2 := by -- soon\n  sorry  -- todo\n\n"
           "theorem part (x : ℝ) : 0 ≤ x ^ 2 := by\n  have h := sq_nonneg x\n  sorry\n\n"
           "theorem done (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg x\n"
           "example : True := trivial\n")
    by_name = {t.name: t for t in theorems(src)}
    assert list(by_name) == ["real", "part", "done"]
    assert [by_name[n].skip_reason() is None for n in by_name] == [True, False, False]
    assert "partial proof" in by_name["part"].skip_reason()
    assert "no `sorry`" in by_name["done"].skip_reason()
    out = insert_proof(src, "real", rendered_for("(x : ℝ) : 0 ≤ x ^ 2"))
    assert "theorem «real» (x : ℝ) : 0 ≤ x ^ 2 := by\n  -- close (sos)\n" in out and "  -- todo" in out
    assert out.count("sorry") == src.count("sorry") - 1 and out.startswith("import Mathlib\n/- theorem fake : True := by sorry -/")
    with pytest.raises(InPlaceError, match="no theorem or lemma `fake`"):
        insert_proof(src, "fake", RENDERED)
    with pytest.raises(InPlaceError, match="no `:= by sorry`"):
        insert_proof(src, "part", RENDERED)
    with pytest.raises(InPlaceError, match="needs `import Mathlib`, which the file does not have"):
        insert_proof(src.replace("import Mathlib\n", ""), "real", rendered_for("(x : ℝ) : 0 ≤ x ^ 2"))   # never a file missing an import
