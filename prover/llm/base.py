"""The one LLM interface every backend implements, and the statistics the search reports.

Nothing an LLM says is trusted: callers parse each output and check it exactly before it
becomes a proof step (see ``prover.llm.rewrite``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Protocol


class LLMError(RuntimeError):
    """A backend could not be built or could not answer (bad spec, server down, …)."""


@dataclass
class GenerationParams:
    n: int = 4
    temperature: float = 0.8
    max_tokens: int = 96


class LLMBackend(Protocol):
    name: str

    def generate(self, prompts: list[str], params: GenerationParams) -> list[list[str]]:
        """For each prompt, ``params.n`` completions (fewer if the backend fails for some)."""
        ...


@dataclass
class LLMStats:
    """Counted by the tactic generator; reported with every search result."""

    calls: int = 0
    outputs: int = 0
    parseable: int = 0
    valid_rewrites: int = 0
    rejected_unparseable: int = 0
    rejected_not_equal: int = 0
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        d = asdict(self)
        d["errors"] = d["errors"][:5]
        return d
