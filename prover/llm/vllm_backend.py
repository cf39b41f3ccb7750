"""vLLM offline engine (GPU machines). Imported lazily: the core install never needs vllm."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prover.llm.base import GenerationParams, LLMError


@dataclass
class VLLMBackend:
    model: str
    seed: int = 0
    name: str = "vllm"
    engine_kwargs: dict[str, Any] = field(default_factory=dict)
    _llm: Any = field(default=None, repr=False)

    def probe(self, timeout_s: float = 3.0) -> None:
        """Fail fast (:class:`LLMError`) when vllm is not installed or a local model path is
        missing (importing vllm itself takes long; only its presence is checked)."""
        import importlib.util
        import os

        if importlib.util.find_spec("vllm") is None:
            raise LLMError("the vllm backend needs the `gpu` extra (pip install -e '.[gpu]') "
                           "on a machine with a GPU; vllm is not installed")
        looks_local = self.model.startswith(("/", "./", "../", "~"))   # else a hub name such as org/model
        if looks_local and not os.path.exists(os.path.expanduser(self.model)):
            raise LLMError(f"no model at {self.model}")

    def _load(self) -> None:
        if self._llm is not None:
            return
        try:
            from vllm import LLM
        except ImportError:
            raise LLMError("the vllm backend needs the `gpu` extra (pip install -e '.[gpu]') "
                           "on a machine with a GPU") from None
        self._llm = LLM(model=self.model, seed=self.seed, **self.engine_kwargs)

    def generate(self, prompts: list[str], params: GenerationParams) -> list[list[str]]:
        self._load()
        from vllm import SamplingParams

        sp = SamplingParams(n=params.n, temperature=params.temperature, max_tokens=params.max_tokens,
                            seed=self.seed)
        results = self._llm.generate(prompts, sp)
        return [[o.text for o in r.outputs] for r in results]
