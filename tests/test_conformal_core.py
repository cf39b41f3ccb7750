"""Conformal core: exact quantile, nested ancestor-closed chain, calibration, validity on synthetic data."""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prover.conformal.calibrate import (
    Calibration,
    ancestor_filtered,
    boosted_risk,
    build_chain,
    calibrate,
    conformal_threshold,
    filter_claims,
    nonconformity,
    threshold_rank,
)
from prover.conformal.claims import Claim, ClaimGraph, independent_label, proxy_coherent_label
from prover.conformal.evaluate import prepare, random_splits


def make(n: int, edges, labels=None, name="ex") -> ClaimGraph:
    g = nx.DiGraph()
    g.add_edges_from(edges)
    labels = labels if labels is not None else [True] * n
    return ClaimGraph(name, "", [Claim(f"c{i}", labels[i]) for i in range(n)], g)


# ------------------------------------------------------------------ quantile


def test_threshold_rank_worked_values():
    assert threshold_rank(49, 0.1) == 5  # k = 45 → 5th smallest
    assert threshold_rank(25, 0.1) == 2  # k = 24 → 2nd smallest
    assert threshold_rank(9, 0.05) == 0  # α < 1/(n+1): empty output


def test_threshold_rank_is_exact_where_floats_are_not():
    # (n+1)(1-α) = 29 exactly; in floats 50*(1-0.42) = 29.000000000000004 → ceil 30 (off by one)
    assert math.ceil(50 * (1 - 0.42)) == 30
    assert threshold_rank(49, 0.42) == 50 - 29
    assert threshold_rank(49, "0.42") == threshold_rank(49, Fraction(21, 50)) == 21


def test_threshold_rank_rejects_bad_alpha():
    for a in (0, 1, -0.1, 1.5):
        with pytest.raises(ValueError):
            threshold_rank(10, a)


def test_conformal_threshold_picks_kth_largest():
    scores = list(range(49, 0, -1))  # 1..49 shuffled order
    assert conformal_threshold(scores, 0.1) == 5
    assert conformal_threshold([3.0, 1.0], 0.1) == -math.inf


# ------------------------------------------------------------------ chain


def test_chain_on_toy_dag():
    ex = make(3, [(0, 1), (0, 2)])  # a → b, a → c
    ch = build_chain(ex, [1, 5, 2])
    assert ch.members == [frozenset(), {0}, {0, 2}, {0, 1, 2}]
    assert list(ch.thresholds) == [-math.inf, 1, 2, 5]
    ch = build_chain(ex, [9, 5, 2])  # a risky: nothing until t = 9
    assert ch.members == [frozenset(), {0, 1, 2}]


@st.composite
def dags(draw):
    n = draw(st.integers(1, 9))
    edges = [(i, j) for j in range(n) for i in range(j) if draw(st.booleans())]
    risk = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return make(n, edges), risk


@settings(max_examples=60, deadline=None)
@given(dags())
def test_chain_members_nested_and_ancestor_closed(case):
    ex, risk = case
    ch = build_chain(ex, risk)
    assert ch.members[0] == frozenset() and ch.members[-1] == frozenset(range(ex.n))
    for a, b in zip(ch.members, ch.members[1:]):
        assert a < b
    assert all(ex.is_ancestor_closed(m) for m in ch.members)
    assert list(ch.thresholds) == sorted(ch.thresholds)


def test_nonconformity_first_failing_member():
    ex = make(3, [(0, 1), (1, 2)], labels=[True, False, True])
    ch = build_chain(ex, [1, 2, 3])
    assert nonconformity(ex, ch, proxy_coherent_label) == 2
    ok = make(3, [(0, 1), (1, 2)])
    assert nonconformity(ok, build_chain(ok, [1, 2, 3]), proxy_coherent_label) == math.inf


def test_select_strict_and_non_strict():
    ex = make(3, [])
    ch = build_chain(ex, [1, 2, 3])
    assert ch.select(2.0) == 2 and ch.select(2.0, strict=True) == 1
    assert ch.select(-math.inf) == 0 and ch.select(math.inf) == 3


def test_baseline_is_empty_graph_and_independent_label():
    ex = make(2, [(0, 1)], labels=[False, True])
    # independent view: keep claim 1 (low risk) without its false premise 0
    cal = Calibration(tau=1.5, alpha=Fraction(1, 10), n=9, strict=False, method="independent", scores=[])
    assert filter_claims(ex, [2, 1], cal) == {1}
    assert independent_label(ex, frozenset({1})) and not proxy_coherent_label(ex, frozenset({1}))
    cal.method = "coherent"
    assert filter_claims(ex, [2, 1], cal) == frozenset()
    assert ancestor_filtered(ex, frozenset({1})) == frozenset()


def test_boosted_risk_uses_upper_median_of_children():
    ex = make(4, [(0, 1), (0, 2), (0, 3)])
    assert boosted_risk(ex, [4, 1, 2, 6], 0.5)[0] == pytest.approx(0.5 * 4 + 0.5 * 2)
    assert list(boosted_risk(ex, [4, 1, 2, 6], 0.5)[1:]) == [1, 2, 6]


def test_calibration_round_trip():
    exs = [make(2, [(0, 1)], labels=[True, i % 3 != 0], name=f"e{i}") for i in range(20)]
    risks = [[1.0, 2.0 + 0.01 * i] for i in range(20)]
    cal = calibrate(exs, risks, "0.2")
    assert Calibration.from_json(cal.to_json()) == cal
    assert cal.n == 20 and cal.alpha == Fraction(1, 5)


# ------------------------------------------------------------------ validity on exchangeable synthetic data


def synthetic(n_examples: int, seed: int, integer: bool):
    rng = np.random.default_rng(seed)
    exs, risks = [], []
    for i in range(n_examples):
        n = int(rng.integers(2, 8))
        edges = [(a, b) for b in range(n) for a in range(b) if rng.random() < 0.3]
        truth = rng.random(n) < 0.85
        score = np.where(truth, rng.normal(1.0, 1.0, n), rng.normal(-0.5, 1.0, n))
        risk = -np.round(score) if integer else -score
        exs.append(make(n, edges, list(truth), f"s{i}"))
        risks.append(risk)
    return exs, risks


@pytest.mark.parametrize("alpha", [0.1, 0.2])
def test_coverage_within_bounds_continuous_scores(alpha):
    exs, risks = synthetic(120, 0, integer=False)
    prep = [prepare(e, r, "coherent", labels=("proxy",)) for e, r in zip(exs, risks)]
    row = random_splits(prep, [alpha], n_cal=60, repeats=2000, seed=1, noise_sd=0.0)[0]
    mc = 4 * row.coverage_se["proxy"]
    assert 1 - alpha - mc <= row.coverage["proxy"] <= row.upper + mc


def test_strict_selection_valid_with_integer_ties():
    exs, risks = synthetic(120, 3, integer=True)
    prep = [prepare(e, r, "coherent", labels=("proxy",)) for e, r in zip(exs, risks)]
    for alpha in (0.1, 0.2, 0.3):
        strict = random_splits(prep, [alpha], n_cal=60, repeats=1000, seed=2, noise_sd=0.0, strict=True)[0]
        noisy = random_splits(prep, [alpha], n_cal=60, repeats=1000, seed=2, noise_sd=1e-3)[0]
        assert strict.coverage["proxy"] >= 1 - alpha - 4 * strict.coverage_se["proxy"]
        assert noisy.coverage["proxy"] >= 1 - alpha - 4 * noisy.coverage_se["proxy"]
        assert noisy.coverage["proxy"] <= noisy.upper + 4 * noisy.coverage_se["proxy"]
        assert strict.retention <= noisy.retention + 1e-9  # strict is the conservative fix


def test_graph_rejects_cycles_and_bad_nodes():
    g = nx.DiGraph([(0, 1), (1, 0)])
    with pytest.raises(ValueError, match="cycle"):
        ClaimGraph("x", "", [Claim("a"), Claim("b")], g)
    with pytest.raises(ValueError, match="not claim indices"):
        ClaimGraph("x", "", [Claim("a")], nx.DiGraph([(0, 5)]))
