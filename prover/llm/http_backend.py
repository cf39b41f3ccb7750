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

    def probe(self, timeout_s: float = 3.0) -> None:
        """Fail fast (:class:`LLMError`, one line) when the server is not reachable, refuses
        the key, or lists its models without ours: one ``GET /models`` with a short timeout.
        A server that answers but has no ``/models`` route is taken as usable."""
        url = self.base_url.rstrip("/") + "/models"
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        req = urllib.request.Request(url, headers=headers, method="GET")
        try:
            with urllib.request.urlopen(req, timeout=timeout_s) as resp:
                body = resp.read(1 << 20).decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            if exc.code in (401, 403):
                raise LLMError(f"LLM server {self.base_url} refused the request (HTTP {exc.code}; "
                               "check $OPENAI_API_KEY)") from None
            return  # the server answers; it just has no /models route
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise LLMError(f"LLM server {self.base_url} is not reachable ({reason}); "
                           "is it running (e.g. `vllm serve MODEL`)?") from None
        try:
            served = [m.get("id") for m in json.loads(body).get("data", []) if isinstance(m, dict)]
        except (json.JSONDecodeError, AttributeError):
            return
        served = [m for m in served if isinstance(m, str)]
        if served and self.model not in served:
            raise LLMError(f"model {self.model!r} is not served by {self.base_url} "
                           f"(served: {', '.join(served[:5])})")

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
