"""The best-first proof search, the closer it calls on every goal, and the views of a proof.

Modules:

* ``best_first`` — Best-first search over proof states.
* ``close`` — The closer the search calls on every goal: a one-step proof when none is needed (:func:`close_trivial`), …
* ``counterexample_page`` — A counterexample, written down: ``counterexample.json`` and ``counterexample.html`` (display only).
* ``driver`` — Entry point of the search: ``prove_problem`` (called by :func:`prover.api.prove`).
* ``escalate`` — What the search does when its frontier empties before the deadline: escalate, never give up …
* ``hard_timeout`` — Run a call in a forked child with a hard wall-clock limit (closers do not always stop in time).
* ``heuristics`` — Symbolic priority of a goal (lower = expand first): degree, size, coupling, closable form.
* ``page`` — The proof page (``proof.html``): one self-contained, offline HTML file.
* ``proof_text`` — Human-readable views of a proof: a one-line-per-step text tree (plus the facts each step uses); the …
* ``result`` — What an attempt found: :class:`ProveResult` (re-exported as ``prover.api.ProveResult`` and …
* ``screenshot`` — Screenshots of a proof page with a headless browser (Debian's ``chromium``), and the same browser run used …
* ``services`` — The search's view of the other modules (closers, oracle, kernel, catalogue matcher).

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
