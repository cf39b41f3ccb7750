"""The generated family suite ``benchmarks/families/`` (issue 31 item 4): sizes, split, front-end,
FALSE variants refuted exactly, and deterministic regeneration."""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAM = ROOT / "benchmarks" / "families"


def _gen():
    if str(FAM) not in sys.path:
        sys.path.insert(0, str(FAM))
    return importlib.import_module("make_families")


def _read(name: str) -> list[dict]:
    return [json.loads(line) for line in (FAM / name).read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def files() -> dict[str, list[dict]]:
    return {n: _read(f"{n}.jsonl") for n in ("train", "heldout", "false")}


def test_sizes_families_and_fields(files):
    true = files["train"] + files["heldout"]
    fams = Counter(r["family"] for r in true)
    assert len(true) >= 1000
    assert len(fams) >= 40
    ids = [r["id"] for r in true + files["false"]]
    assert len(ids) == len(set(ids))
    for r in true:
        assert r["id"].startswith(f"families/{r['family']}/")
        assert r["source"] == "families (generated)"
        assert isinstance(r["min_slack"], float) and r["min_slack"] >= 0
        assert r["lean"].startswith("theorem ") and r["lean"].endswith(":= by sorry")
        name = r["lean"].split()[1]
        assert name.replace("_", "a").isalnum() and not name[0].isdigit()
    assert {r["true_id"] for r in files["false"]} == {r["id"] for r in true}


def test_split_by_family_is_the_documented_rule(files):
    gen = _gen()
    train = {r["family"] for r in files["train"]}
    held = {r["family"] for r in files["heldout"]}
    assert not train & held
    assert all(r["split"] == "train" for r in files["train"])
    assert all(r["split"] == "heldout" for r in files["heldout"])
    assert held == set(gen.heldout_families())
    assert len(held) >= 10
    assert 0.2 <= len(held) / len(train | held) <= 0.3
    for r in files["false"]:
        assert r["split"] == ("heldout" if r["family"] in held else "train")


def test_sampled_lines_parse_the_same_under_both_readings(files):
    """A seeded sample (the generator parsed every line; this re-checks a share of them)."""
    gen = _gen()
    lines = files["train"] + files["heldout"] + files["false"]
    for r in random.Random(7).sample(lines, 100):
        gen.parse_both(r["lean"])  # raises Reject when it does not parse or the readings differ


def test_every_false_variant_is_refuted_exactly(files):
    """Every stored rational point satisfies the hypotheses and violates the goal: for every line
    by the independent Lean-semantics evaluator (exact rationals, rigorous enclosures), and for a
    seeded sample also through the front-end and the exact sign oracle (the generator did both
    for every line)."""
    from prover.frontend import parse_theorem

    gen = _gen()
    for r in files["false"]:
        point = {k: Fraction(v) for k, v in r["counterexample"].items()}
        assert gen.lean_ast_refutes(r["lean"], point), r["id"]
    for r in random.Random(11).sample(files["false"], 120):
        problem = parse_theorem(r["lean"], real_division=True)
        point = {k: Fraction(v) for k, v in r["counterexample"].items()}
        assert set(point) == {str(v) for v in problem.variables}, r["id"]
        assert gen.is_exact_counterexample(problem, point), r["id"]


def test_regeneration_is_deterministic_and_matches_the_files(files):
    gen = _gen()
    fams = ["nesbitt", "sumsq_const"]
    one = gen.generate(fams, target=6, attempts=20)
    two = gen.generate(fams, target=6, attempts=20)
    assert one.keys() == two.keys()
    for f in fams:
        assert gen.dump(one[f][0]) == gen.dump(two[f][0])
        assert gen.dump(one[f][1]) == gen.dump(two[f][1])
    # the committed files hold the same lines (a family's lines do not depend on the others)
    committed = {r["id"]: r for r in files["train"] + files["heldout"] + files["false"]}
    for f in fams:
        for rec in one[f][0] + one[f][1]:
            assert committed[rec["id"]] == rec


def test_exact_check_rejects_a_non_counterexample():
    """The checker itself: Nesbitt's true bound at a = b = c is not refuted; 8/5 is."""
    from prover.frontend import parse_theorem

    gen = _gen()
    pt = {"a": Fraction(1), "b": Fraction(1), "c": Fraction(1)}
    true = "theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry"
    assert not gen.is_exact_counterexample(parse_theorem(true), pt)
    assert gen.is_exact_counterexample(parse_theorem(true.replace("3 / 2", "8 / 5")), pt)
    off = {"a": Fraction(1), "b": Fraction(1), "c": Fraction(2)}
    cons = "theorem t (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 3) : a * b * c ≥ 2 := by sorry"
    assert not gen.is_exact_counterexample(parse_theorem(cons), off)  # the constraint fails there
    assert not gen.lean_ast_refutes(true, pt)
    assert gen.lean_ast_refutes(true.replace("3 / 2", "8 / 5"), pt)
    assert not gen.lean_ast_refutes(cons, off)
