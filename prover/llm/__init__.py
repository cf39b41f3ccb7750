"""LLM backends and the steps an LLM proposes (each one proved exactly, or dropped).

Modules:

* ``base`` — The one LLM interface every backend implements, and the statistics the search reports.
* ``hf_backend`` — Hugging Face transformers on the CPU, from a local model folder only (never the hub).
* ``http_backend`` — Any OpenAI-compatible chat-completions endpoint (``vllm serve``, llama.cpp server, …).
* ``prompts`` — Rewrite and ranking prompts, kept as data in ``tactics/prompts/rewrites.json``.
* ``ranker`` — Optional LLM ranking of proof states, blended with the symbolic priority.
* ``rewrite`` — LLM rewriting: ask for an equal form of the goal's slack, keep only what is proved equal.
* ``spec`` — Turn a ``--llm`` spec string into a backend.
* ``vllm_backend`` — vLLM offline engine (GPU machines).

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
