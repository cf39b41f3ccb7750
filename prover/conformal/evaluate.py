"""Empirical validity and retention: repeated random calibration/test splits and leave-one-out.

Each example is reduced once to arrays (chain thresholds, claims kept per member, label of each
member), so that thousands of splits cost only numpy comparisons. Tie-break shifts are drawn
afresh for every split (iid per example), which keeps the data exchangeable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from prover.conformal.calibrate import (
    ancestor_filtered,
    as_fraction,
    boosted_risk,
    build_chain,
    nonconformity,
    threshold_rank,
)
from prover.conformal.claims import LABELS, ClaimGraph, independent_label, proxy_coherent_label

#: method name → (uses graph, boosted risk, calibration label, post-filter outputs)
METHOD_NAMES = ("coherent", "boosted", "independent", "ind_filtered")


@dataclass
class Prepared:
    """One example reduced to its chain: ``t[k]``, ``kept[k]`` and ``ok[label][k]`` per member."""

    t: np.ndarray
    kept: np.ndarray
    n_claims: int
    score: float
    ok: dict[str, np.ndarray] = field(default_factory=dict)


def prepare(ex: ClaimGraph, risk: Sequence[float], method: str = "coherent",
            labels: Sequence[str] = ("proxy", "human", "independent"), beta: float = 0.5) -> Prepared:
    if method not in METHOD_NAMES:
        raise ValueError(f"unknown method {method!r} (use one of {', '.join(METHOD_NAMES)})")
    graph_based = method in ("coherent", "boosted")
    r = boosted_risk(ex, risk, beta) if method == "boosted" else np.asarray(risk, dtype=float)
    view = ex if graph_based else ex.without_edges()
    chain = build_chain(view, r)
    cal_label = proxy_coherent_label if graph_based else independent_label
    score = nonconformity(ex, chain, cal_label)
    outs = chain.members
    if method == "ind_filtered":
        outs = [ancestor_filtered(ex, m) for m in outs]
    ok = {name: np.array([LABELS[name](ex, m) for m in outs], dtype=bool) for name in labels}
    return Prepared(chain.thresholds, np.array([len(m) for m in outs]), ex.n, score, ok)


@dataclass
class Row:
    """Averages over splits for one (method, α)."""

    method: str
    alpha: Fraction
    n_cal: int
    coverage: dict[str, float]
    coverage_se: dict[str, float]
    retention: float          # mean over test examples of (claims kept / claims)
    retention_pooled: float   # claims kept / claims, pooled over test examples
    empty: float              # fraction of outputs that are empty

    @property
    def target(self) -> float:
        return float(1 - self.alpha)

    @property
    def upper(self) -> float:
        return float(1 - self.alpha + Fraction(1, self.n_cal + 1))


def _pad(rows: list[np.ndarray], fill) -> np.ndarray:
    width = max(len(r) for r in rows)
    out = np.full((len(rows), width), fill, dtype=np.result_type(np.asarray(rows[0]).dtype, np.asarray(fill)))
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


class _Stack:
    def __init__(self, prepared: Sequence[Prepared]) -> None:
        self.t = _pad([p.t for p in prepared], np.nan)  # NaN never compares <= τ̂, even τ̂ = +inf
        self.kept = _pad([p.kept for p in prepared], 0)
        self.size = np.array([p.n_claims for p in prepared], dtype=float)
        self.score = np.array([p.score for p in prepared])
        self.labels = list(prepared[0].ok)
        self.ok = {k: _pad([p.ok[k] for p in prepared], False) for k in self.labels}

    def outcome(self, test: np.ndarray, shift: np.ndarray, taus: np.ndarray, strict: bool):
        """Selected member index of each test example for each τ̂: shape (len(test), len(taus))."""
        t = self.t[test] + shift[test, None]
        cmp = t[:, :, None] < taus[None, None, :] if strict else t[:, :, None] <= taus[None, None, :]
        return np.maximum(cmp.sum(axis=1) - 1, 0)


def _taus(cal_scores: np.ndarray, ranks: list[int]) -> np.ndarray:
    s = np.sort(cal_scores)
    return np.array([s[r - 1] if r >= 1 else -np.inf for r in ranks])


def _summarise(method: str, alphas: list[Fraction], n_cal: int, stack: _Stack,
               tests: list[np.ndarray], picks: list[np.ndarray]) -> list[Row]:
    rows = []
    for a_i, a in enumerate(alphas):
        per_split: dict[str, list[float]] = {k: [] for k in stack.labels}
        ret, pooled, empty = [], [], []
        for test, pick in zip(tests, picks):
            idx = pick[:, a_i]
            for k in stack.labels:
                per_split[k].append(stack.ok[k][test, idx].mean())
            kept = stack.kept[test, idx]
            ret.append((kept / stack.size[test]).mean())
            pooled.append(kept.sum() / stack.size[test].sum())
            empty.append((kept == 0).mean())
        cov = {k: float(np.mean(v)) for k, v in per_split.items()}
        se = {k: float(np.std(v, ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
              for k, v in per_split.items()}
        rows.append(Row(method, a, n_cal, cov, se, float(np.mean(ret)), float(np.mean(pooled)),
                        float(np.mean(empty))))
    return rows


def random_splits(prepared: Sequence[Prepared], alphas: Sequence, n_cal: int, repeats: int,
                  seed: int = 0, noise_sd: float = 1e-3, strict: bool = False, method: str = "") -> list[Row]:
    """Coverage/retention averaged over ``repeats`` random splits into n_cal calibration + rest test."""
    n = len(prepared)
    if not 1 <= n_cal < n:
        raise ValueError(f"need 1 <= n_cal < {n}, got {n_cal}")
    fr = [as_fraction(a) for a in alphas]
    ranks = [threshold_rank(n_cal, a) for a in fr]
    stack, rng = _Stack(prepared), np.random.default_rng(seed)
    tests, picks = [], []
    for _ in range(repeats):
        perm = rng.permutation(n)
        shift = rng.normal(0.0, noise_sd, size=n) if noise_sd > 0 else np.zeros(n)
        cal, test = perm[:n_cal], perm[n_cal:]
        taus = _taus(stack.score[cal] + shift[cal], ranks)
        tests.append(test)
        picks.append(stack.outcome(test, shift, taus, strict))
    return _summarise(method, fr, n_cal, stack, tests, picks)


def leave_one_out(prepared: Sequence[Prepared], alphas: Sequence, seed: int = 42, noise_sd: float = 1e-3,
                  strict: bool = False, method: str = "") -> list[Row]:
    """Each example is the test point once, calibrated on all the others (one shift draw)."""
    n = len(prepared)
    fr = [as_fraction(a) for a in alphas]
    ranks = [threshold_rank(n - 1, a) for a in fr]
    stack, rng = _Stack(prepared), np.random.default_rng(seed)
    shift = rng.normal(0.0, noise_sd, size=n) if noise_sd > 0 else np.zeros(n)
    picks = []
    for i in range(n):
        cal = np.delete(np.arange(n), i)
        picks.append(stack.outcome(np.array([i]), shift, _taus(stack.score[cal] + shift[cal], ranks), strict))
    pick = np.concatenate(picks, axis=0)
    return _summarise(method, fr, n - 1, stack, [np.arange(n)], [pick])


RiskFn = Callable[[ClaimGraph], np.ndarray]


def compare_methods(examples: Sequence[ClaimGraph], risk: RiskFn, alphas: Sequence,
                    methods: Sequence[str] = ("coherent", "independent"), *, n_cal: int | None = None,
                    repeats: int = 500, seed: int = 0, noise_sd: float = 1e-3, strict: bool = False,
                    loo: bool = False, labels: Sequence[str] = ("proxy", "human", "independent")) -> list[Row]:
    """Run the same splits (same seed) for every method; ``loo`` switches to leave-one-out."""
    risks = [np.asarray(risk(ex), dtype=float) for ex in examples]
    rows: list[Row] = []
    for m in methods:
        prep = [prepare(ex, r, m, labels) for ex, r in zip(examples, risks)]
        if loo:
            rows += leave_one_out(prep, alphas, seed, noise_sd, strict, m)
        else:
            nc = n_cal if n_cal is not None else len(examples) // 2
            rows += random_splits(prep, alphas, nc, repeats, seed, noise_sd, strict, m)
    return rows
