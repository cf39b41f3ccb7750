"""The generated n-term suite ``benchmarks/nvar/`` (made by ``benchmarks/nvar/make_nvar.py``): the files are
what the generator writes, ids are unique, families are split train/held-out, and every FALSE statement is
refuted at its stored counterexample."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "benchmarks" / "nvar"
MAKER = SUITE / "make_nvar.py"
FILES = ("nvar_train.jsonl", "nvar_heldout.jsonl", "nvar_false.jsonl", "known_false.json")


@pytest.fixture(scope="module")
def maker():
    spec = importlib.util.spec_from_file_location("make_nvar", MAKER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def rows(name: str) -> list[dict]:
    return [json.loads(x) for x in (SUITE / name).read_text(encoding="utf-8").splitlines() if x.strip()]


def test_the_generator_reproduces_the_files(maker, tmp_path):
    assert maker.main(["--out", str(tmp_path), "--points", "20"]) == 0
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SUITE / name).read_bytes(), name


def test_ids_families_and_splits(maker):
    train, held = rows("nvar_train.jsonl"), rows("nvar_heldout.jsonl")
    recs = train + held
    assert len(recs) >= 96
    ids = [r["id"] for r in recs]
    assert len(set(ids)) == len(ids)
    for r in recs:
        assert set(r) == {"id", "family", "lean", "source", "split"}
        name = r["lean"].split()[1]
        assert r["id"] == f"nvar/{name}" and name.rsplit("_", 1)[0] == r["family"]
        assert r["lean"].startswith(f"theorem {name} (n : ℕ) ") and r["lean"].endswith(" := by sorry")
        assert r["source"] == "nvar (generated)"
    families = Counter(r["family"] for r in recs)
    assert len(families) >= 12 and all(c == 8 for c in families.values())
    train_fams, held_fams = {r["family"] for r in train}, {r["family"] for r in held}
    assert not train_fams & held_fams and len(held_fams) >= 3
    assert held_fams == set(maker.HELD_OUT)
    assert {r["split"] for r in train} == {"train"} and {r["split"] for r in held} == {"held-out"}


def test_false_statements_are_refuted_at_their_counterexample(maker):
    true_ids = {r["id"] for r in rows("nvar_train.jsonl") + rows("nvar_heldout.jsonl")}
    false = rows("nvar_false.jsonl")
    assert len(false) >= 20
    known = json.loads((SUITE / "known_false.json").read_text(encoding="utf-8"))
    assert {k for k in known if not k.startswith("_")} == {r["id"] for r in false}
    for r in false:
        assert r["true_id"] in true_ids and r["id"] == f"{r['true_id']}__false"
        body = r["lean"].split(" ", 2)[2].removesuffix(" := by sorry")
        st = maker.Statement(body)
        ce = r["counterexample"]
        env = {"n": ce["n"], "fam": {a: [Fraction(x) for x in ce[a]] for a in st.families},
               "var": {x: Fraction(ce[x]) for x in st.scalars}}
        assert st.complete(env), r["id"]  # the hypotheses hold there (equalities already exactly)
        assert maker.refuted(st.goal, env), r["id"]


def test_the_check_catches_a_misread_sum(maker):
    # without parentheses the ∑ body stops before `+`: (∑ a²) + 1 ≥ 2 ∑ a, false at n = 2, a = (1, 1)
    with pytest.raises(SystemExit, match="false at"):
        maker.check_statement("misread", "(n : ℕ) (a : Fin n → ℝ) : ∑ i, a i ^ 2 + 1 ≥ 2 * ∑ i, a i", 20)
    maker.check_statement("read", "(n : ℕ) (a : Fin n → ℝ) : ∑ i, (a i ^ 2 + 1) ≥ 2 * ∑ i, a i", 20)
