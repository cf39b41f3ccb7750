"""Hugging Face transformers on the CPU, from a local model folder only (never the hub)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from prover.llm.base import GenerationParams, LLMError


@dataclass
class TransformersBackend:
    model_path: str
    seed: int = 0
    name: str = "transformers"
    _model: Any = field(default=None, repr=False)
    _tok: Any = field(default=None, repr=False)

    def probe(self, timeout_s: float = 3.0) -> None:
        """Fail fast (:class:`LLMError`) when the model folder or the ``llm`` extra is missing."""
        if not os.path.isdir(self.model_path):
            raise LLMError(f"no local model folder at {self.model_path} (models are never downloaded)")
        if not os.path.isfile(os.path.join(self.model_path, "config.json")):
            raise LLMError(f"{self.model_path} is not a transformers model folder (no config.json)")
        try:
            import torch  # noqa: F401
            import transformers  # noqa: F401
        except ImportError as exc:
            raise LLMError(f"the transformers backend needs the `llm` extra ({exc}): "
                           "pip install torch==2.13.0 && pip install -e '.[llm]'") from None

    def _load(self) -> None:
        if self._model is not None:
            return
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise LLMError("the transformers backend needs the `llm` extra: "
                           "pip install torch==2.13.0 && pip install -e '.[llm]'") from None
        if not os.path.isdir(self.model_path):
            raise LLMError(f"no local model folder at {self.model_path}")
        self._tok = AutoTokenizer.from_pretrained(self.model_path, local_files_only=True)
        self._model = AutoModelForCausalLM.from_pretrained(self.model_path, local_files_only=True)
        self._model.eval()

    def generate(self, prompts: list[str], params: GenerationParams) -> list[list[str]]:
        self._load()
        import torch

        torch.manual_seed(self.seed)
        out: list[list[str]] = []
        for prompt in prompts:
            enc = self._tok(prompt, return_tensors="pt")
            limit = getattr(self._model.config, "n_positions", None) or getattr(
                self._model.config, "max_position_embeddings", 2048)
            ids = enc["input_ids"][:, -max(1, limit - params.max_tokens):]
            with torch.no_grad():
                gen = self._model.generate(
                    input_ids=ids, attention_mask=torch.ones_like(ids),
                    do_sample=params.temperature > 0, temperature=max(params.temperature, 1e-5),
                    max_new_tokens=params.max_tokens, num_return_sequences=params.n,
                    pad_token_id=self._tok.pad_token_id if self._tok.pad_token_id is not None
                    else self._tok.eos_token_id)
            out.append([self._tok.decode(g[ids.shape[1]:], skip_special_tokens=True) for g in gen])
        return out
