"""Any OpenAI-compatible chat-completions endpoint (``vllm serve``, llama.cpp server, …).

Only the standard library is used, so the core install needs nothing more.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from prover.llm.base import GenerationParams, LLMError


@dataclass
class HTTPBackend:
    base_url: str                   # e.g. http://127.0.0.1:8000/v1
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0
    retries: int = 2
    system_prompt: str | None = None
    name: str = "http"

    def _post(self, payload: dict) -> dict:
        url = self.base_url.rstrip("/") + "/chat/completions"
        data = json.dumps(payload).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                    return json.loads(resp.read().decode())
            except urllib.error.HTTPError as exc:
                last = exc
                if exc.code < 500 and exc.code != 429:   # a client error will not fix itself
                    break
            except (urllib.error.URLError, TimeoutError, ConnectionError, json.JSONDecodeError) as exc:
                last = exc
            time.sleep(min(0.2 * 2 ** attempt, 2.0))
        raise LLMError(f"LLM endpoint {url} failed: {last}")

    def generate(self, prompts: list[str], params: GenerationParams) -> list[list[str]]:
        out: list[list[str]] = []
        for prompt in prompts:
            messages = []
            if self.system_prompt:
                messages.append({"role": "system", "content": self.system_prompt})
            messages.append({"role": "user", "content": prompt})
            reply = self._post({"model": self.model, "messages": messages, "n": params.n,
                                "temperature": params.temperature, "max_tokens": params.max_tokens})
            try:
                out.append([c["message"]["content"] or "" for c in reply["choices"]])
            except (KeyError, TypeError) as exc:
                raise LLMError(f"malformed reply from {self.base_url}: missing {exc}") from None
        return out
