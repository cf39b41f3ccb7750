"""Optional LLM ranking of proof states, blended with the symbolic priority."""

from __future__ import annotations

import re
from collections.abc import Callable

from prover.ir import Goal
from prover.llm.base import GenerationParams, LLMBackend, LLMError, LLMStats
from prover.llm.prompts import goal_fields, load_prompts

_INT = re.compile(r"\b(10|[0-9])\b")


#: A search ranker: a batch of goals -> priorities, lower first (``prover.search.heuristics.Ranker``).
Ranker = Callable[[list[Goal]], list[float]]


def _flat(goals: list[Goal]) -> list[float]:
    return [1.0] * len(goals)


class LLMRanker:
    """``score(goals)`` gives each goal a value in [0, 1] (None where the LLM gave no number).

    ``base`` is the symbolic ranker :meth:`rank` blends with (the search passes its
    ``default_ranker``; the LLM layer does not import the search). Without one every goal starts
    from the same priority, so the LLM's scores alone order them."""

    def __init__(self, backend: LLMBackend, weight: float = 0.5, samples: int = 1,
                 base: Ranker | None = None) -> None:
        self.backend = backend
        self.base: Ranker = base if base is not None else _flat
        self.weight = weight
        self.params = GenerationParams(n=samples, temperature=0.0 if samples == 1 else 0.7, max_tokens=4)
        self.template = load_prompts().ranker
        self.stats = LLMStats()

    def score(self, goals: list[Goal]) -> list[float | None]:
        prompts = [self.template.format(**goal_fields(g)) for g in goals]
        self.stats.calls += len(prompts)
        try:
            answers = self.backend.generate(prompts, self.params)
        except LLMError as exc:
            self.stats.errors.append(str(exc))
            return [None] * len(goals)
        scores: list[float | None] = []
        for texts in answers:
            vals = [int(m.group(1)) for t in texts if (m := _INT.search(t))]
            self.stats.outputs += len(texts)
            self.stats.parseable += len(vals)
            scores.append(sum(vals) / (10 * len(vals)) if vals else None)
        return scores

    def rank(self, goals: list[Goal]) -> list[float]:
        """A search ranker (lower first): the ``base`` priority, lowered by the LLM's confidence."""
        return [self.blend(p, s) for p, s in zip(self.base(goals), self.score(goals))]

    def blend(self, symbolic_priority: float, llm_score: float | None) -> float:
        """Lower is better (a priority queue key): the LLM's confidence lowers the key."""
        if llm_score is None:
            return symbolic_priority
        return symbolic_priority * (1 - self.weight * llm_score)
