"""lean_project/ (pinned Lake project), the axiom audit, and ``prover lean``. Tests that need a
real ``lake`` skip with the reason when it is not installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy as sp
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.render import MATHLIB_TAG, render_proof
from prover.lean.verify import judge_output, parse_axioms, with_axiom_audit
from tests.lean_golden_cases import CASES

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "lean_project"
GOLDEN = Path(__file__).parent / "golden"
runner = CliRunner()
needs_lake = pytest.mark.skipif(shutil.which("lake") is None,
                                reason="needs a Lean toolchain: `lake` is not on PATH (install elan, "
                                       "then `prover lean setup`)")


def _project_lean_files() -> list[Path]:
    return [p for p in PROJECT.rglob("*") if p.is_file() and ".lake" not in p.parts and p.name != ".gitignore"]


def test_no_sorry_and_no_axiom_in_lean_project() -> None:
    files = _project_lean_files()
    assert any(p.suffix == ".lean" for p in files)
    for p in files:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"\bsorry\b", text), p
        assert not re.search(r"\baxiom\b", text), p
        assert "admit" not in text and "native_decide" not in text, p


def test_toolchain_lakefile_and_manifest_pin_one_release() -> None:
    tag = MATHLIB_TAG
    assert (PROJECT / "lean-toolchain").read_text().strip() == f"leanprover/lean4:{tag}"
    lakefile = (PROJECT / "lakefile.lean").read_text()
    assert f'"https://github.com/leanprover-community/mathlib4" @ "{tag}"' in lakefile
    assert f'"https://github.com/leanprover-community/repl.git" @ "{tag}"' in lakefile
    manifest = json.loads((PROJECT / "lake-manifest.json").read_text())
    pkgs = {p["name"]: p for p in manifest["packages"]}
    assert pkgs["mathlib"]["inputRev"] == tag and pkgs["REPL"]["inputRev"] == tag
    assert all(re.fullmatch(r"[0-9a-f]{40}", p["rev"]) for p in pkgs.values())
    assert manifest["name"] == "prover_lean"


def test_project_lemma_certificates_are_identities() -> None:
    """The identities the hand-written proofs in ProverLemmas/Basic.lean replay, checked exactly."""
    a, b, c, x, y, z, t = sp.symbols("a b c x y z t")
    half = sp.Rational(1, 2)
    cubes = x**3 + y**3 + z**3 - 3 * x * y * z - half * (x + y + z) * ((x - y) ** 2 + (y - z) ** 2 + (z - x) ** 2)
    assert sp.expand(cubes) == 0
    schur = a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)
    assert sp.expand(schur - (a - b) ** 2 * (a + b - c) - c * ((a - c) * (b - c))) == 0
    # schur_ordered's factors from c ≤ b ≤ a, 0 ≤ c: a + b − c = (a − b) + 2(b − c) + c, a − c = (a − b) + (b − c)
    assert sp.expand((a + b - c) - ((a - b) + 2 * (b - c) + c)) == 0
    assert sp.expand((a - c) - ((a - b) + (b - c))) == 0
    for p in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)]:
        assert sp.expand(schur.subs(dict(zip((a, b, c), p)), simultaneous=True) - schur) == 0
    schur1 = x**3 + y**3 + z**3 + 3 * x * y * z - (x**2 * y + x**2 * z + y**2 * x + y**2 * z + z**2 * x + z**2 * y)
    assert sp.expand(schur1 - schur.subs({a: x, b: y, c: z}, simultaneous=True)) == 0
    s = sp.symbols("s")            # √(xy) with s² = xy (amgm2_sqrt), √((x² + y²)/2) with s² = (x² + y²)/2 (qm_am2_sqrt)
    quarter = sp.Rational(1, 4)
    assert sp.expand(((x + y) / 2) ** 2 - s**2 - quarter * (x - y) ** 2 - (x * y - s**2)) == 0
    assert sp.expand(s**2 - ((x + y) / 2) ** 2 - quarter * (x - y) ** 2 + ((x**2 + y**2) / 2 - s**2)) == 0
    sx, st, w = sp.symbols("sx st w")   # √x, √t and (√t)⁻¹ (an atom to ring; st·w = 1 is a supplied fact)
    tangent = ((x + t) * w / 2 - sx - (sx - st) ** 2 * w / 2 - w / 2 * (x - sx**2) - w / 2 * (t - st**2)
               + sx * (1 - st * w))
    assert sp.expand(tangent) == 0
    a1, a2, b1, b2, c1, c2 = sp.symbols("a1 a2 b1 b2 c1 c2")

    def gap(p, q, r):
        return p**3 + q**3 + r**3 - 3 * p * q * r

    holder = ((a1**3 + a2**3) * (b1**3 + b2**3) * (c1**3 + c2**3) - (a1 * b1 * c1 + a2 * b2 * c2) ** 3
              - gap(a1 * b1 * c2, a1 * b2 * c1, a2 * b1 * c1) - gap(a2 * b2 * c1, a2 * b1 * c2, a1 * b2 * c2))
    assert sp.expand(holder) == 0


def _declared_project_lemmas() -> set[str]:
    names = set()
    for f in (PROJECT / "ProverLemmas").glob("*.lean"):
        names |= set(re.findall(r"^theorem (\w+)", f.read_text(encoding="utf-8"), re.MULTILINE))
    return names


def test_every_prover_lemma_the_catalogue_names_is_proved_in_lean_project() -> None:
    from prover.tactics.catalogue import load_catalogue

    named = {lem.lean_name.removeprefix("Prover.Lemmas.") for lem in load_catalogue().values()
             if lem.lean_name.startswith("Prover.Lemmas.")}
    assert named and named <= _declared_project_lemmas(), named - _declared_project_lemmas()


def test_generated_catalogue_lemmas_are_up_to_date() -> None:
    from prover.lean.lemmas_gen import TARGET, catalogue_file
    from prover.tactics.catalogue import load_catalogue

    assert TARGET.read_text(encoding="utf-8") == catalogue_file(load_catalogue()), (
        "lean_project/ProverLemmas/Catalogue.lean is stale: run `.venv/bin/python -m prover.lean.lemmas_gen`")


# ------------------------------------------------------------------ axiom audit


def test_axiom_audit_accepts_only_the_standard_axioms() -> None:
    text = "theorem P1 (a : ℝ) : 0 ≤ a ^ 2 := by positivity\n#print axioms P1\n"
    good = "'P1' depends on axioms: [propext, Classical.choice, Quot.sound]\n"
    assert judge_output(text, good, 0).ok
    assert judge_output(text, "'P1' does not depend on any axioms\n", 0).ok
    bad = judge_output(text, "'P1' depends on axioms: [propext, sorryAx, Classical.choice, Quot.sound]\n", 0)
    assert not bad.ok and "sorryAx" in bad.errors[0]
    custom = judge_output(text, "'P1' depends on axioms: [AXIOM, propext]\n", 0)
    assert not custom.ok
    missing = judge_output(text, "", 0)
    assert missing.errors == ["no #print axioms output for P1"]
    err = judge_output(text, "f.lean:1:40: error: linarith failed\n" + good, 1)
    assert not err.ok and "linarith failed" in err.errors[0]
    sorry = judge_output(text, "f.lean:1:8: warning: declaration uses 'sorry'\n" + good, 0)
    assert not sorry.ok


def test_parse_axioms_and_audit_lines() -> None:
    out = "'«567_P1»' depends on axioms: [propext]\n'Q' does not depend on any axioms\n"
    assert parse_axioms(out) == {"«567_P1»": ["propext"], "Q": []}
    text = "theorem A : True := trivial\ntheorem B : True := trivial\n#print axioms A\n"
    assert with_axiom_audit(text).endswith("#print axioms B\n")


# ------------------------------------------------------------------ prover lean …


def test_lean_render_command(tmp_path: Path) -> None:
    proof = CASES["sign_split"]()
    f = tmp_path / "proof.json"
    f.write_text(proof.dumps())
    res = runner.invoke(app, ["lean", "render", str(f)])
    assert res.exit_code == 0 and res.output == render_proof(proof)
    out = tmp_path / "p.lean"
    res = runner.invoke(app, ["lean", "render", str(f), "--out", str(out), "--style", "nlinarith"])
    assert res.exit_code == 0 and "nlinarith [" in out.read_text()


def test_lean_render_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "proof.json"
    f.write_text("{not json")
    res = runner.invoke(app, ["lean", "render", str(f)])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "not JSON" in res.output
    assert runner.invoke(app, ["lean", "render", str(tmp_path / "nope.json")]).exit_code == 2


def test_lean_check_without_lake_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    f = tmp_path / "p.lean"
    f.write_text(render_proof(CASES["amgm2"]()))
    res = runner.invoke(app, ["lean", "check", str(f)])
    assert res.exit_code == 2 and "`lake` is not on PATH" in res.output and "elan" in res.output
    assert runner.invoke(app, ["lean", "check", str(tmp_path / "missing.lean")]).exit_code == 2


def test_lean_setup_without_elan_and_dry_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    res = runner.invoke(app, ["lean", "setup", "--dry-run"])
    assert res.exit_code == 0
    assert "elan toolchain install leanprover/lean4:v4.16.0" in res.output
    assert "lake exe cache get" in res.output and "lake build" in res.output
    assert "lake update" not in res.output
    assert "lake update" in runner.invoke(app, ["lean", "setup", "--dry-run", "--update"]).output
    monkeypatch.setenv("PATH", str(tmp_path))
    res = runner.invoke(app, ["lean", "setup"])
    assert res.exit_code == 2 and "elan and lake not found on PATH" in res.output


# ------------------------------------------------------------------ with a real Lean (skipped here)


@needs_lake
@pytest.mark.lean
def test_lean_project_builds() -> None:
    cp = subprocess.run(["lake", "build"], cwd=PROJECT, capture_output=True, text=True, timeout=3600,
                        check=False)
    assert cp.returncode == 0, cp.stdout[-2000:] + cp.stderr[-2000:]


@needs_lake
@pytest.mark.lean
@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.lean")))
def test_golden_files_check_in_lean(name: str) -> None:
    res = runner.invoke(app, ["lean", "check", str(GOLDEN / f"{name}.lean")])
    assert res.exit_code == 0, res.output
