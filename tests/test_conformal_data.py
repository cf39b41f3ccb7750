"""Loaders and the acceptance measurements on the released MATH annotations (skipped when the
data is absent; it is never copied into the project) and on the shipped generated set."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from prover.conformal.claims import proxy_coherent_label
from prover.conformal.datasets import GENERATED, default_scorer, load_dataset
from prover.conformal.evaluate import compare_methods
from prover.conformal.io import (
    DataError,
    example_from_json,
    example_to_json,
    load_claim_graphs,
    load_math,
    math_path,
    save_claim_graphs,
)
from prover.conformal.scorers import GivenScore, SymbolicScorer

MATH = math_path("gpt4")
needs_math = pytest.mark.skipif(not MATH.exists(), reason=f"MATH annotations not found at {MATH}")


@pytest.fixture(scope="module")
def math_set():
    return load_math(MATH)


def freq_risk(ex):
    return -GivenScore("frequency")(ex)


@needs_math
def test_math_loader_counts_and_conventions(math_set):
    exs = math_set
    assert len(exs) == 50
    assert sum(ex.n for ex in exs) == 293
    assert sum(bool(c.label) for ex in exs for c in ex.claims) == 268
    assert sum(ex.graph.number_of_edges() for ex in exs) == 305
    # dep_graph[j][i] == 1 means claim j depends on claim i: question 0 is a chain 0 → 1 → 2 → 3
    assert sorted(exs[0].graph.edges) == [(0, 1), (1, 2), (2, 3)]
    assert sum(proxy_coherent_label(ex, frozenset(range(ex.n))) for ex in exs) == 36
    assert all(ex.meta.get("gold_edges") is not None for ex in exs[:10])
    assert exs[0].subset_labels[frozenset({0, 1, 3})] is True  # a non-closed subset judged coherent


@pytest.mark.skipif(not math_path("llama").exists(), reason="Llama MATH file absent")
def test_math_llama_loader():
    exs = load_math(math_path("llama"))
    assert len(exs) == 50 and sum(ex.n for ex in exs) == 503
    assert sum(bool(c.label) for ex in exs for c in ex.claims) == 455
    assert sum(1 for ex in exs if ex.subset_labels) == 24  # 25 have the key; question 36 is empty


@needs_math
def test_math_conflicting_subset_labels_resolve_to_yes(math_set):
    import json

    raw = json.loads(MATH.read_text())["data"]
    conflicts = 0
    for q, ex in zip(raw, math_set):
        ys = {tuple(b) for b in q["graph_annotations"]["y"]}
        for b in q["graph_annotations"]["n"]:
            if tuple(b) in ys:
                conflicts += 1
                assert ex.subset_labels[frozenset(i for i, x in enumerate(b) if x)] is True
    assert conflicts == 27


@needs_math
def test_math_random_splits_within_conformal_bounds(math_set):
    """Acceptance: 500 random 25/25 splits; coherent factuality within [1−α, 1−α+1/26] up to MC error.
    At α = 0.3 the upper bound cannot be met: 36/50 full outputs are coherent, so the
    nonconformity scores have a mass at +inf (ties) and the output saturates at the full proof."""
    alphas = [0.05, 0.1, 0.15, 0.2, 0.3]
    rows = compare_methods(math_set, freq_risk, alphas, ("coherent", "independent"), repeats=500, seed=0)
    by = {(r.method, float(r.alpha)): r for r in rows}
    for a in alphas:
        r = by[("coherent", a)]
        mc = 3 * r.coverage_se["human"]
        assert r.coverage["human"] >= 1 - a - mc
        if a < 0.3:
            assert r.coverage["human"] <= r.upper + mc
        assert r.coverage["proxy"] == pytest.approx(r.coverage["human"], abs=0.01)
    # the baseline certifies independent factuality, not coherence
    base = by[("independent", 0.1)]
    assert base.coverage["independent"] >= 0.9 - 3 * base.coverage_se["independent"]
    assert base.coverage["human"] < 0.85


@needs_math
def test_math_leave_one_out_headline(math_set):
    """At target 43/48 ≈ 0.896: 0.90 coherent factuality with ≥ 80 % of claims kept (paper 0.90 / 81.8 %)."""
    rows = compare_methods(math_set, freq_risk, [Fraction(5, 48)], ("coherent", "independent"), loo=True, seed=42)
    coh, base = rows
    assert coh.coverage["human"] == pytest.approx(0.90)
    assert coh.retention >= 0.80
    assert base.coverage["human"] < 0.9


def test_own_format_round_trip(tmp_path):
    exs = load_claim_graphs(GENERATED)[:5]
    exs[0].subset_labels = {frozenset({0}): True, frozenset({0, 1}): False}
    save_claim_graphs(exs, tmp_path / "x.jsonl")
    back = load_claim_graphs(tmp_path / "x.jsonl")
    assert [example_to_json(e) for e in back] == [example_to_json(e) for e in exs]
    with pytest.raises(DataError, match="not a prover-claims"):
        example_from_json({"format": "other"})
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    with pytest.raises(DataError, match="bad.jsonl:1"):
        load_claim_graphs(tmp_path / "bad.jsonl")
    with pytest.raises(DataError, match="no such data set"):
        load_dataset("nowhere.jsonl")


def test_generated_set_is_labelled_and_scored():
    exs = load_dataset("generated")
    assert len(exs) >= 100
    assert default_scorer(exs) == "given:symbolic"
    corrupted = [ex for ex in exs if "corrupted_step" in ex.meta]
    assert 0 < len(corrupted) < len(exs) / 3
    for ex in exs:
        labels = ex.labels()
        assert labels.all() == ("corrupted_step" not in ex.meta)
    # stored symbolic scores are what the scorer computes now (spot check)
    for ex in exs[:2] + corrupted[:3]:
        assert np.allclose(SymbolicScorer()(ex), [c.scores["symbolic"] for c in ex.claims])


def test_generated_set_symbolic_scorer_keeps_90_percent():
    """Acceptance: α = 0.1, 500 random splits: guarantee holds and ≥ 90 % of claims are kept."""
    exs = load_dataset("generated")
    rows = compare_methods(exs, lambda ex: -GivenScore("symbolic")(ex), [0.1], ("coherent",), repeats=500,
                           seed=0, labels=("proxy", "independent"))
    r = rows[0]
    assert r.coverage["proxy"] >= 0.9 - 3 * r.coverage_se["proxy"]
    assert r.coverage["proxy"] <= r.upper + 3 * r.coverage_se["proxy"]
    assert r.retention >= 0.90
