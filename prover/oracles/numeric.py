"""Numeric counterexample search: random sampling under the hypotheses, then local optimization.

Exact boundary points come first (:func:`search_boundary`). Samples respect sign hypotheses
(``x > 0`` / ``x >= 0`` variables are drawn log-uniformly over six orders of magnitude,
non-negative ones are sometimes exactly 0), samples are moved onto an
equality hypothesis along their ray, and other hypotheses are enforced by rejection (sampling)
or a penalty (optimization). Every candidate with a negative float slack is handed to
:meth:`GoalModel.confirm`, which accepts it only after an exact check. Deterministic for a
given seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np
from scipy.optimize import minimize

from prover.ir import Goal
from prover.oracles.model import Counterexample, GoalModel, Unsupported

BATCH = 1500
STARTS = 6
MAXFEV = 80  # Nelder-Mead evaluations per free dimension (+1)


def _sample(model: GoalModel, rng: np.random.Generator, n: int) -> np.ndarray:
    k = len(model.syms)
    wide = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), size=(n, k)))
    near = np.exp(rng.normal(0.0, 0.7, size=(n, k)))
    mag = np.where(rng.random((n, k)) < 0.5, wide, near)
    X = np.empty((n, k))
    for i, s in enumerate(model.syms):
        kind = model.kind[s]
        col = mag[:, i]
        if kind == "free":
            col = col * rng.choice([-1.0, 1.0], size=n)
            col = np.where(rng.random(n) < 0.05, 0.0, col)
        elif kind == "nonneg":
            col = np.where(rng.random(n) < 0.12, 0.0, col)
        X[:, i] = col
    m = min(n, len(_STRUCTURED))
    X[:m] = _structured(model)[:m]
    X = model.project(X, rng)
    return X


#: Hand-picked points tried first in every batch: equal variables, one variable moved, and
#: (for non-negative variables) one variable at 0 - where Olympiad extremes usually sit.
_STRUCTURED = ((1.0, 1.0), (2.0, 1.0), (0.5, 1.0), (0.0, 1.0), (1.0, 0.0))


def _structured(model: GoalModel) -> np.ndarray:
    k = len(model.syms)
    if k == 0:
        return np.zeros((len(_STRUCTURED), 0))
    rows = []
    for first, rest in _STRUCTURED:
        row = np.full(k, rest)
        row[-1] = first
        if any(model.kind[model.syms[i]] == "pos" for i in range(k) if row[i] == 0.0):
            row = np.where(row == 0.0, 1e-3, row)
        rows.append(row)
    return np.array(rows)


class _OutOfTime(Exception):
    """Raised inside the objective to stop a local optimization at the deadline."""


class _Local:
    """Penalized objective over the free variables (log-coordinates for positive ones)."""

    def __init__(self, model: GoalModel, x0: np.ndarray, deadline: float = float("inf")) -> None:
        self.m = model
        self.deadline = deadline
        self.calls = 0
        self.idx = [model.syms.index(s) for s in model.free]
        self.logc = [model.kind[s] != "free" and x0[i] > 0 for s, i in zip(model.free, self.idx)]
        self.zero = [model.kind[s] != "free" and x0[i] == 0 for s, i in zip(model.free, self.idx)]
        self.refs = model.dep_values(x0)
        self.best: tuple[float, np.ndarray | None] = (np.inf, None)

    def encode(self, x: np.ndarray) -> np.ndarray:
        return np.array([np.log(x[i]) if lg else x[i] for i, lg in zip(self.idx, self.logc)])

    def decode(self, u: np.ndarray) -> np.ndarray | None:
        free = np.array([0.0 if z else (np.exp(min(v, 700.0)) if lg else v)
                         for v, lg, z in zip(u, self.logc, self.zero)])
        return self.m.full_point(free, self.refs)

    def __call__(self, u: np.ndarray) -> float:
        self.calls += 1
        if self.calls % 16 == 0 and time.monotonic() > self.deadline:
            raise _OutOfTime
        x = self.decode(u)
        if x is None:
            return 1e6
        norm, viol = self.m.evaluate_point(x.tolist())
        if not np.isfinite(viol):
            return 1e6
        if viol == 0 and norm < self.best[0]:
            self.best = (norm, x)
        return norm + 50.0 * viol


def search(goal: Goal, time_limit: float, seed: int = 0) -> Counterexample | None:
    """Search for an exactly confirmed counterexample within ``time_limit`` seconds."""
    deadline = time.monotonic() + time_limit
    try:
        model = GoalModel(goal)
    except Unsupported:
        return None
    return search_model(model, deadline, seed)


def _threshold(model: GoalModel) -> float:
    return 1e-12 if model.target.strict else 0.0


def _explore(model: GoalModel, rng: np.random.Generator, deadline: float,
             rounds: int | None = None, starts: int = STARTS,
             accept: Callable[[np.ndarray], np.ndarray] | None = None,
             ) -> Iterator[tuple[float, np.ndarray, str]]:
    """Feasible points ``(normalized slack, x, how)``: best samples, then local minima.

    ``accept`` (rows of X -> bool mask) restricts the samples used and the starting points.
    """
    r = 0
    while time.monotonic() < deadline and (rounds is None or r < rounds):
        r += 1
        X = _sample(model, rng, BATCH)
        if X.shape[0] == 0:
            continue
        norm, viol = model.evaluate(X)
        if accept is not None:
            viol = np.where(accept(X), viol, np.inf)
        ok = viol == 0
        for j in np.argsort(np.where(ok, norm, np.inf))[:3]:
            if ok[j]:
                yield float(norm[j]), X[j], "sample"
        score = np.where(np.isfinite(viol), norm + 50.0 * viol, np.inf)
        for j in [j for j in np.argsort(score)[:starts] if np.isfinite(score[j])]:
            if time.monotonic() >= deadline:
                return
            loc = _Local(model, X[j], deadline)
            u0 = loc.encode(X[j])
            if u0.size:
                try:
                    minimize(loc, u0, method="Nelder-Mead",
                             options={"maxfev": MAXFEV * (u0.size + 1), "xatol": 1e-10, "fatol": 1e-14})
                except _OutOfTime:
                    pass  # keep the best point found so far
                except (ValueError, OverflowError, FloatingPointError):
                    continue
            if loc.best[1] is not None:
                yield loc.best[0], loc.best[1], "local"


#: Share of the time to the deadline that :func:`search_boundary` may take.
BOUNDARY_SHARE = 0.3


def search_boundary(model: GoalModel, deadline: float) -> Counterexample | None:
    """Exact check of the boundary points (:meth:`GoalModel.boundary_points`): variables at 0,
    alone and together, where a denominator may vanish (Lean: ``x / 0 = 0``), and a few simple
    values; float sampling cannot see these points. For every kind of target."""
    for point in model.boundary_points():
        if time.monotonic() >= deadline:
            return None
        ce = model.confirm_exact(point, "boundary")
        if ce is not None:
            return ce
    return None


def search_model(model: GoalModel, deadline: float, seed: int = 0) -> Counterexample | None:
    """Boundary points first, then confirm the first sampled or optimized candidate with a
    negative slack (zero for strict goals)."""
    now = time.monotonic()
    ce = search_boundary(model, now + BOUNDARY_SHARE * max(0.0, deadline - now))
    if ce is not None:
        return ce
    if model.target.op in ("=", "!="):
        return None  # not an inequality: nothing to minimize
    thr = _threshold(model)
    for norm, x, how in _explore(model, np.random.default_rng(seed), deadline):
        if norm < thr:
            ce = model.confirm(x, f"numeric:{how}")
            if ce is not None:
                return ce
    return None


def minimize_slack(model: GoalModel, seed: int = 0, rounds: int = 2, starts: int = 6,
                   deadline: float | None = None,
                   accept: Callable[[np.ndarray], np.ndarray] | None = None,
                   ) -> tuple[float, np.ndarray] | None:
    """The feasible point of least normalized target slack found in a fixed amount of work.

    ``accept`` (rows -> bool mask) filters the points considered; when it leaves none, the
    search is repeated without it. Deterministic for a seed unless ``deadline`` cuts it short.
    """
    dl = deadline if deadline is not None else float("inf")
    for acc in ([accept, None] if accept is not None else [None]):
        best: tuple[float, np.ndarray] | None = None
        for norm, x, _ in _explore(model, np.random.default_rng(seed), dl, rounds, starts, acc):
            if (acc is None or acc(x[None, :])[0]) and (best is None or norm < best[0]):
                best = (norm, x)
        if best is not None:
            return best
    return None
