"""Batch evaluation over benchmark files (``prover eval``): isolated attempts, records, summaries.

Modules:

* ``attempt`` — The default attempt: parse the statement, run the prover, re-check the proof with the kernel.
* ``config`` — The options of one evaluation run (:class:`EvalConfig`), shared by the runner and its executors …
* ``isolate`` — Run one attempt in its own process under hard limits, and classify how it ended.
* ``lean_files`` — A ``.lean`` file beside each proof of a run, rendered; a refusal is noted in the record, never an error.
* ``machine`` — What a run ran on (for ``run.json``): CPU, cores, memory, load, Python, git commit.
* ``problem_table`` — The per-problem table of ``summary.md``: id, status, time, steps, links to the proof and its ``.lean``.
* ``progress`` — Progress display: a rich bar on a terminal, one plain line per finished problem otherwise.
* ``proofstats`` — Size measures of a proof, for the records: steps, lemmas used, certificate size.
* ``ray_backend`` — Distributed attempts on a Ray cluster (``prover eval --ray ADDRESS``; optional extra ``ray``).
* ``records`` — The append-only record log ``records.jsonl``: one JSON object per finished problem.
* ``runner`` — The evaluation run: schedule attempts, record each as it finishes, resume, summarize.
* ``summary`` — Markdown tables from a run's records: the per-dataset summary and the comparison of two runs.
* ``tasks`` — Benchmark files -> evaluation tasks (one per problem), plus the known-false list.
* ``worker`` — Child process of one attempt: ``python -m prover.eval.worker REQUEST.json RESULT.json``.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
