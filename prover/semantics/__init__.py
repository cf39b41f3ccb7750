"""Differential testing against Lean's semantics.

* :mod:`~prover.semantics.lean_eval` — an independent evaluator with Lean 4 / Mathlib meaning
  (``x / 0 = 0``, ``Real.sqrt`` of a negative is 0, Mathlib's ``rpow``/``log``) giving rigorous
  rational enclosures at exact points;
* :mod:`~prover.semantics.lean_ast` — a tiny Lean statement language (AST, printer, reader);
* :mod:`~prover.semantics.fuzz_frontend` — random statements through the front-end, compared
  with Lean's values at random points;
* :mod:`~prover.semantics.check_proofs` — root statements of accepted proofs at random points.

Command line: ``python -m prover.semantics fuzz-frontend|check-proofs …``.
"""
