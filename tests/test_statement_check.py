"""A proof is checked against the theorem its Lean text states, read again by the front-end."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from prover.cli import app
from prover.ir import Proof
from prover.verify import check_proof

AMGM = "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"


def _proof_json(tmp_path) -> dict:
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["prove", AMGM, "--out", str(out), "--time-limit", "30"])
    assert r.exit_code == 0, r.output
    return json.loads((out / "proof.json").read_text())


def test_a_proof_of_another_statement_is_rejected(tmp_path) -> None:
    d = _proof_json(tmp_path)
    assert check_proof(Proof.from_json(d)).ok
    # the Lean text now claims a stronger theorem than the proof's problem section proves
    d["problem"]["lean"] = "theorem t (a b : ℝ) : 3 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"
    v = check_proof(Proof.from_json(d))
    assert not v.ok and any("does not say what the theorem's goal says" in e for e in v.errors)
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(d))
    r = CliRunner().invoke(app, ["check", str(f)])
    assert r.exit_code == 1 and "REJECTED" in r.output


def test_the_files_own_statement_field_is_not_trusted_over_its_lean_text(tmp_path) -> None:
    d = _proof_json(tmp_path)
    d["problem"]["lean"] = "theorem t (a b : ℝ) : 3 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"
    # a forged `statement` matching the proof does not help: the Lean text is read again
    assert d["problem"]["statement"]["goal"]["lhs"].startswith("2")
    assert not check_proof(Proof.from_json(d)).ok
