"""Test doubles for the LLM paths: a tiny causal LM trained here, and a local HTTP server.

Both are real: the tiny model runs through transformers' ``generate``; the server speaks the
OpenAI chat-completions protocol over loopback. Nothing is downloaded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TRAIN_LINES = [f"Expression: {e}\nSimplified expression: {s}" for e, s in [
    ("a^2 - 2*a*b + b^2", "(a - b)^2"), ("a*b + a*c", "a*(b + c)"), ("x^2 + 2*x + 1", "(x + 1)^2"),
    ("a^3 - b^3", "(a - b)*(a^2 + a*b + b^2)"), ("2*a + 2*b", "2*(a + b)"),
]] * 40


def build_tiny_model(folder: Path, steps: int = 30) -> Path:
    """Train a byte-level BPE tokenizer and a 2-layer GPT-2 on a few lines; save to ``folder``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(TRAIN_LINES, trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<eos>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<eos>", pad_token="<eos>")
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(fast), n_layer=2, n_head=2, n_embd=64,
                                       n_positions=256, eos_token_id=fast.eos_token_id,
                                       bos_token_id=fast.eos_token_id))
    torch.manual_seed(0)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    batch = fast([t + "<eos>" for t in TRAIN_LINES[:32]], return_tensors="pt", padding=True)
    for _ in range(steps):
        loss = model(**batch, labels=batch["input_ids"]).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


class ChatServer:
    """A loopback OpenAI-compatible server; ``answer(prompt) -> list of n strings``."""

    def __init__(self, answer: Callable[[str, int], list[str]], fail_first: int = 0) -> None:
        self.answer = answer
        self.requests: list[dict] = []
        self.fail_first = fail_first
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                if outer.fail_first > 0:
                    outer.fail_first -= 1
                    self.send_response(503)
                    self.end_headers()
                    return
                prompt = body["messages"][-1]["content"]
                texts = outer.answer(prompt, body.get("n", 1))
                reply = {"id": "x", "object": "chat.completion", "model": body["model"],
                         "choices": [{"index": i, "message": {"role": "assistant", "content": t},
                                      "finish_reason": "stop"} for i, t in enumerate(texts)]}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:  # noqa: PYI034 - a final test fixture class
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
