"""Turn a ``--llm`` spec string into a backend.

Specs: ``none``; ``vllm:MODEL`` (GPU, offline engine); ``http://HOST:PORT/v1#MODEL`` or
``https://…#MODEL`` (OpenAI-compatible; key from ``$OPENAI_API_KEY``); ``hf:PATH`` or
``transformers:PATH`` (local folder, CPU).
"""

from __future__ import annotations

import os

from prover.llm.base import LLMBackend, LLMError


def make_backend(spec: str | None, *, system_prompt: str | None = None) -> LLMBackend | None:
    if spec is None or spec.strip().lower() in ("", "none"):
        return None
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        base, sep, model = spec.partition("#")
        if not sep or not model:
            raise LLMError(f"HTTP LLM spec needs a model after '#': {spec!r} (e.g. http://127.0.0.1:8000/v1#my-model)")
        from prover.llm.http_backend import HTTPBackend

        return HTTPBackend(base, model, api_key=os.environ.get("OPENAI_API_KEY"), system_prompt=system_prompt)
    kind, sep, arg = spec.partition(":")
    if not sep or not arg:
        raise LLMError(f"unknown LLM spec {spec!r}: use none, vllm:MODEL, hf:PATH or http://HOST/v1#MODEL")
    if kind == "vllm":
        from prover.llm.vllm_backend import VLLMBackend

        return VLLMBackend(arg)
    if kind in ("hf", "transformers"):
        from prover.llm.hf_backend import TransformersBackend

        if not os.path.isdir(arg):
            raise LLMError(f"no local model folder at {arg} (models are never downloaded)")
        return TransformersBackend(arg)
    raise LLMError(f"unknown LLM backend {kind!r} in {spec!r}: use vllm, hf, or an http(s) URL")


def probe_backend(backend: LLMBackend | None, timeout_s: float = 3.0) -> None:
    """Check once, before any search, that ``backend`` can answer: the extra it needs is
    installed, its model folder exists, its server is up (``GET /models``, ``timeout_s``).
    Raises :class:`LLMError` with one line; backends without a ``probe`` pass."""
    probe = getattr(backend, "probe", None)
    if backend is None or probe is None:
        return
    probe(timeout_s)


def make_checked_backend(spec: str | None, *, system_prompt: str | None = None,
                         timeout_s: float = 3.0) -> LLMBackend | None:
    """:func:`make_backend` followed by :func:`probe_backend`: what a command calls to fail
    fast on an unusable ``--llm``."""
    backend = make_backend(spec, system_prompt=system_prompt)
    probe_backend(backend, timeout_s)
    return backend
