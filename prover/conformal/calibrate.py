"""Split-conformal calibration over nested ancestor-closed outputs (Rubin-Toles et al., ICLR 2025).

A risk ``r(v)`` per claim (lower = safer) gives the graph risk ``R(v) = max r(u)`` over ``v`` and
its ancestors; the outputs ``U(t) = {v : R(v) <= t}`` for the distinct values ``t`` form a nested
chain ``∅ = U_0 ⊂ U_1 ⊂ … ⊂ U_m = C`` of ancestor-closed subsets. The nonconformity score of a
calibration example is the ``t`` of the first member that its label rejects (``+inf`` if none).
The threshold is the ``⌊(n+1)α⌋``-th smallest score (= the ``⌈(n+1)(1−α)⌉``-th largest), computed
with exact integer arithmetic; ``−inf`` (empty output) when ``α < 1/(n+1)``.

Ties: with ``<=`` selection, ties between a test example's member and the threshold can break the
guarantee (integer self-consistency scores tie a lot). Either select with ``strict=True`` (``t <
τ̂``, valid with ties, conservative) or add a tiny continuous per-example tie-break shift
(:func:`tie_break_shifts`), which keeps ``<=`` valid and gives the upper bound ``1−α+1/(n+1)``.

The independent-claim baseline (Mohri & Hashimoto 2024) is the same machinery on the graph with no
edges, calibrated with the "every kept claim is true" label.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from prover.conformal.claims import (
    ClaimGraph,
    Subset,
    SubsetLabel,
    independent_label,
    proxy_coherent_label,
)

NEG_INF = -math.inf
POS_INF = math.inf


def as_fraction(alpha: float | str | Fraction) -> Fraction:
    """Exact value of α: ``0.1`` means 1/10 (its shortest decimal), never 0.1000000000000000055…"""
    a = alpha if isinstance(alpha, Fraction) else Fraction(str(alpha))
    if not 0 < a < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return a


def threshold_rank(n: int, alpha: float | str | Fraction) -> int:
    """``⌊(n+1)α⌋`` = ``n + 1 − ⌈(n+1)(1−α)⌉``: the threshold is the rank-th smallest score (0: none)."""
    a = as_fraction(alpha)
    k = math.ceil((n + 1) * (1 - a))  # Fraction → exact ceiling
    return n + 1 - k


def conformal_threshold(scores: Sequence[float], alpha: float | str | Fraction) -> float:
    """τ̂: the ``⌈(n+1)(1−α)⌉``-th largest calibration score, or ``−inf`` if that exceeds n."""
    rank = threshold_rank(len(scores), alpha)
    if rank < 1:
        return NEG_INF
    return float(np.sort(np.asarray(scores, dtype=float))[rank - 1])


# ------------------------------------------------------------------ the nested chain


@dataclass
class Chain:
    """Nested outputs: ``members[k]`` has score ``thresholds[k]``; ``members[0]`` is ∅ at −inf."""

    thresholds: np.ndarray
    members: list[Subset]

    def select(self, tau: float, strict: bool = False) -> int:
        """Index of the largest member with ``t <= τ̂`` (``t < τ̂`` when ``strict``)."""
        side = "left" if strict else "right"
        return max(int(np.searchsorted(self.thresholds, tau, side=side)) - 1, 0)


def graph_risk(ex: ClaimGraph, risk: Sequence[float], anc: np.ndarray | None = None) -> np.ndarray:
    """``R(v)``: the largest risk among ``v`` and its ancestors."""
    r = np.asarray(risk, dtype=float)
    if r.shape != (ex.n,):
        raise ValueError(f"{ex.name}: {r.shape[0] if r.ndim else 0} risks for {ex.n} claims")
    if np.isnan(r).any():
        raise ValueError(f"{ex.name}: NaN risk")
    a = ex.ancestor_matrix() if anc is None else anc
    return np.where(a, r[None, :], NEG_INF).max(axis=1) if ex.n else r


def build_chain(ex: ClaimGraph, risk: Sequence[float], shift: float = 0.0,
                anc: np.ndarray | None = None) -> Chain:
    """The chain ∅ ⊂ U(t_1) ⊂ … ⊂ C; ``shift`` is a per-example tie-break added to every t."""
    big_r = graph_risk(ex, risk, anc) + shift
    ts = np.unique(big_r)
    members = [frozenset()] + [frozenset(int(v) for v in np.flatnonzero(big_r <= t)) for t in ts]
    return Chain(np.concatenate([[NEG_INF], ts]), members)


def nonconformity(ex: ClaimGraph, chain: Chain, label: SubsetLabel) -> float:
    """The score of the first member the label rejects (``+inf`` when all are accepted)."""
    for t, m in zip(chain.thresholds, chain.members):
        if not label(ex, m):
            return float(t)
    return POS_INF


# ------------------------------------------------------------------ calibration and filtering


@dataclass
class Calibration:
    """A fitted threshold; ``method`` is ``"coherent"`` (graph) or ``"independent"`` (baseline)."""

    tau: float
    alpha: Fraction
    n: int
    strict: bool
    method: str
    scores: list[float]

    def to_json(self) -> dict:
        return {"tau": _enc(self.tau), "alpha": str(self.alpha), "n": self.n, "strict": self.strict,
                "method": self.method, "scores": [_enc(s) for s in self.scores]}

    @staticmethod
    def from_json(d: dict) -> Calibration:
        return Calibration(_dec(d["tau"]), Fraction(d["alpha"]), int(d["n"]), bool(d["strict"]),
                           str(d["method"]), [_dec(s) for s in d["scores"]])


def _enc(x: float) -> float | str:
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def _dec(x: float | str) -> float:
    return float(x)


METHODS = ("coherent", "independent")


def _view(ex: ClaimGraph, method: str) -> tuple[ClaimGraph, SubsetLabel]:
    if method == "coherent":
        return ex, proxy_coherent_label
    if method == "independent":
        return ex.without_edges(), independent_label
    raise ValueError(f"unknown method {method!r} (use one of {', '.join(METHODS)})")


def calibrate(examples: Sequence[ClaimGraph], risks: Sequence[Sequence[float]],
              alpha: float | str | Fraction, *, method: str = "coherent", strict: bool = False,
              shifts: Sequence[float] | None = None, label: SubsetLabel | None = None) -> Calibration:
    """Fit τ̂ on labelled examples. ``label`` overrides the method's calibration label."""
    if len(examples) != len(risks):
        raise ValueError("one risk vector per example is needed")
    sh = [0.0] * len(examples) if shifts is None else list(shifts)
    scores = []
    for ex, r, s in zip(examples, risks, sh):
        view, lab = _view(ex, method)
        scores.append(nonconformity(ex, build_chain(view, r, s), label or lab))
    a = as_fraction(alpha)
    return Calibration(conformal_threshold(scores, a), a, len(scores), strict, method, scores)


def filter_claims(ex: ClaimGraph, risk: Sequence[float], cal: Calibration, shift: float = 0.0) -> Subset:
    """The output for a new proof: the largest chain member below the threshold."""
    view, _ = _view(ex, cal.method)
    chain = build_chain(view, risk, shift)
    return chain.members[chain.select(cal.tau, cal.strict)]


def ancestor_filtered(ex: ClaimGraph, subset: Subset) -> Subset:
    """Drop every claim with a missing ancestor ("ind_filtered": baseline made coherent post hoc)."""
    anc = ex.ancestor_matrix()
    return frozenset(v for v in subset if all(u in subset for u in np.flatnonzero(anc[v])))


def tie_break_shifts(n: int, rng: np.random.Generator, sd: float = 1e-3) -> np.ndarray:
    """iid N(0, sd²) per-example shifts: scores become a.s. distinct across examples."""
    return rng.normal(0.0, sd, size=n)


def boosted_risk(ex: ClaimGraph, risk: Sequence[float], beta: float = 0.5) -> np.ndarray:
    """Descendant weight boosting: ``(1−β)·r(v) + β·median{r(w): w child of v}`` (upper median)."""
    r = np.asarray(risk, dtype=float)
    out = r.copy()
    for v in range(ex.n):
        kids = sorted(r[w] for w in ex.graph.successors(v))
        if kids:
            out[v] = (1 - beta) * r[v] + beta * kids[len(kids) // 2]
    return out
