"""Claim scorers: ``scorer(example) -> confidence per claim`` (higher = more trustworthy).

The conformal filter uses ``risk = -confidence``. Any scorer fixed before calibration keeps the
guarantee; the scorer only decides how much is kept. Never calibrate a scorer's weights on the
calibration set itself.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import sympy as sp

from prover.conformal.claims import Claim, ClaimGraph
from prover.conformal.symbolic import (
    REFUTED,
    UNKNOWN,
    VERIFIED,
    Context,
    Rel,
    check_conditional,
    check_universal,
    relation_from_formula,
    relations_from_text,
)

Scorer = Callable[[ClaimGraph], np.ndarray]


class Generate(Protocol):
    """The LLM interface this module needs: ``generate(prompt, n)`` → n sampled completions."""

    def __call__(self, prompt: str, n: int) -> list[str]: ...


#: Stored score keys that a live scorer computes exactly (``build-set`` stores the symbolic
#: scorer's confidence as ``symbolic``): claims without the stored score are scored live.
LIVE_EQUIVALENT = {"symbolic": "symbolic"}


@dataclass
class GivenScore:
    """A score stored with each claim (e.g. ``frequency``: self-consistency in [-5, 5]).
    ``live``: the scorer that computes the same score, for proofs whose claims do not carry it
    (e.g. a proof file filtered with a calibration made on stored ``symbolic`` scores)."""

    key: str
    live: Scorer | None = None

    def __call__(self, ex: ClaimGraph) -> np.ndarray:
        missing = [i for i, c in enumerate(ex.claims) if self.key not in c.scores]
        if missing and self.live is not None:
            return np.asarray(self.live(ex), dtype=float)
        if missing:
            shown = missing if len(missing) <= 8 else [*missing[:8], "…"]
            raise KeyError(f"{ex.name}: claims {shown} have no {self.key!r} score (the scorer given:{self.key} "
                           f"reads a score stored with each claim; score these claims with the same method first)")
        return np.array([c.scores[self.key] for c in ex.claims], dtype=float)


def live_equivalent(spec: str) -> str:
    """``spec`` with each ``given:KEY`` that a live scorer computes replaced by that scorer
    (recorded in a calibration file: how its scores can be recomputed)."""
    out = []
    for item in spec.split(","):
        name, star, w = item.strip().partition("*")
        if name.startswith("given:") and name[len("given:"):] in LIVE_EQUIVALENT:
            name = LIVE_EQUIVALENT[name[len("given:"):]]
        out.append(name + star + w)
    return ",".join(out)


def _squash(x: float) -> float:
    """Monotone map of any real into (0, 1), so a fallback never ties with verified/refuted."""
    return 0.005 + 0.99 / (1.0 + math.exp(-x))


# ------------------------------------------------------------------ symbolic


def _symbols(ex: ClaimGraph) -> dict[str, sp.Symbol]:
    return {v: sp.Symbol(v, real=True) for v in ex.variables}


def claim_relations(ex: ClaimGraph, claim: Claim) -> tuple[list[Rel], bool]:
    """The relations a claim states and whether they are universal (own formula) or textual."""
    if claim.formula:
        r = relation_from_formula(claim.formula, _symbols(ex))
        return ([r] if r else []), True
    return relations_from_text(claim.text), False


def claim_context(ex: ClaimGraph, claim: Claim) -> Context:
    hyps = list(ex.hypotheses) + list(claim.meta.get("hypotheses", []))
    rels = [relation_from_formula(h, _symbols(ex)) for h in hyps]
    return Context([r for r in rels if r is not None])


def symbolic_verdicts(ex: ClaimGraph) -> list[str]:
    """VERIFIED / REFUTED / UNKNOWN for each claim, from its parents' relations."""
    parsed = [claim_relations(ex, c) for c in ex.claims]
    out = []
    for v, claim in enumerate(ex.claims):
        rels, universal = parsed[v]
        if not rels:
            out.append(UNKNOWN)
            continue
        parents = [r for u in ex.parents(v) for r in parsed[u][0]]
        if universal:
            ctx = claim_context(ex, claim)
            verdicts = [check_universal(r, parents, ctx) for r in rels]
        else:
            verdicts = [check_conditional(r, parents) for r in rels]
        if REFUTED in verdicts:
            out.append(REFUTED)
        elif all(x == VERIFIED for x in verdicts):
            out.append(VERIFIED)
        else:
            out.append(UNKNOWN)
    return out


@dataclass
class SymbolicScorer:
    """1.0 when verified exactly from the parents, 0.0 when refuted, else the fallback squashed
    into (0, 1) (0.5 without a fallback)."""

    fallback: Scorer | None = None

    def __call__(self, ex: ClaimGraph) -> np.ndarray:
        verdicts = symbolic_verdicts(ex)
        fb = self.fallback(ex) if self.fallback is not None else None
        out = []
        for i, v in enumerate(verdicts):
            if v == VERIFIED:
                out.append(1.0)
            elif v == REFUTED:
                out.append(0.0)
            else:
                out.append(_squash(float(fb[i])) if fb is not None else 0.5)
        return np.array(out)


# ------------------------------------------------------------------ self-consistency


def _same_equation(a: Rel, b: Rel) -> bool:
    if a.op != b.op and not (a.op == "=" and b.op == "="):
        return False
    da, db = sp.expand(a.lhs - a.rhs), sp.expand(b.lhs - b.rhs)
    if da == 0 or db == 0:
        return da == db
    q = sp.cancel(da / db)
    return bool(q.is_number and q != 0)


def _contradicts(a: Rel, b: Rel) -> bool:
    """Same left side, different (closed) value: ``x = 3`` vs ``x = 4``."""
    if a.op != "=" or b.op != "=":
        return False
    if sp.expand(a.lhs - b.lhs) != 0:
        return False
    d = sp.simplify(a.rhs - b.rhs)
    return bool(d.is_number and d != 0)


def _norm_text(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


@dataclass
class SelfConsistencyScorer:
    """Sample ``n`` independent answers; a claim gets +1 per sample stating the same relation, −1
    per sample contradicting it (same left side, other value), 0 otherwise; the score is the mean
    in [-1, 1]. Claims without a formula count as supported when their normalised text occurs."""

    generate: Generate
    n: int = 5
    prompt_template: str = "Solve the following problem step by step.\n\n{prompt}"
    cache: dict = field(default_factory=dict, repr=False)

    def _samples(self, ex: ClaimGraph) -> list[str]:
        key = ex.prompt
        if key not in self.cache:
            got = list(self.generate(self.prompt_template.format(prompt=ex.prompt), self.n))
            if not got or len(got) > self.n:
                raise ValueError(f"generate returned {len(got)} samples, expected 1 to {self.n}")
            self.cache[key] = got
        return self.cache[key]

    def __call__(self, ex: ClaimGraph) -> np.ndarray:
        samples = self._samples(ex)
        sample_rels = [[r for line in re.split(r"(?<=[.\n])\s*", s) if line.strip()
                        for r in relations_from_text(line)] for s in samples]
        out = []
        for claim in ex.claims:
            rels, _ = claim_relations(ex, claim)
            total = 0
            for text, srels in zip(samples, sample_rels):
                if rels:
                    if all(any(_same_equation(r, s) for s in srels) for r in rels):
                        total += 1
                    elif any(_contradicts(r, s) for r in rels for s in srels):
                        total -= 1
                elif _norm_text(claim.text) and _norm_text(claim.text) in _norm_text(text):
                    total += 1
            out.append(total / len(samples))
        return np.array(out)


def backend_generator(backend, temperature: float = 1.0, max_tokens: int = 512) -> Generate:
    """Adapt a ``prover.llm`` backend (``generate(prompts, GenerationParams)``) to :class:`Generate`."""
    from prover.llm.base import GenerationParams

    def generate(prompt: str, n: int) -> list[str]:
        params = GenerationParams(n=n, temperature=temperature, max_tokens=max_tokens)
        return list(backend.generate([prompt], params)[0])

    return generate


@dataclass
class CombinedScorer:
    """Weighted sum ``Σ w_i · scorer_i`` (weights fixed beforehand, never fit on calibration data)."""

    parts: Sequence[tuple[Scorer, float]]

    def __call__(self, ex: ClaimGraph) -> np.ndarray:
        return sum((w * np.asarray(s(ex), dtype=float) for s, w in self.parts), np.zeros(ex.n))


def make_scorer(spec: str, generate: Generate | None = None) -> Scorer:
    """From a CLI spec: ``given:KEY``, ``symbolic``, ``symbolic+given:KEY``, ``self-consistency``,
    or ``A*w1,B*w2`` combinations of those."""
    spec = spec.strip()
    if "," in spec:
        parts = []
        for item in spec.split(","):
            name, _, w = item.partition("*")
            parts.append((make_scorer(name, generate), float(w) if w else 1.0))
        return CombinedScorer(parts)
    if spec.startswith("given:"):
        key = spec[len("given:"):]
        return GivenScore(key, make_scorer(LIVE_EQUIVALENT[key], generate) if key in LIVE_EQUIVALENT else None)
    if spec == "symbolic":
        return SymbolicScorer()
    if spec.startswith("symbolic+"):
        return SymbolicScorer(make_scorer(spec[len("symbolic+"):], generate))
    if spec == "self-consistency":
        if generate is None:
            raise ValueError("self-consistency needs an LLM generator (none is configured)")
        return SelfConsistencyScorer(generate)
    raise ValueError(f"unknown scorer {spec!r} (given:KEY, symbolic, symbolic+given:KEY, self-consistency)")
