"""Differential testing against Lean's semantics.

* :mod:`~prover.semantics.lean_eval` — an independent evaluator with Lean 4 / Mathlib meaning
  (``x / 0 = 0``, ``Real.sqrt`` of a negative is 0, Mathlib's ``rpow``/``log``) giving rigorous
  rational enclosures at exact points;
* :mod:`~prover.semantics.lean_ast` — a tiny Lean statement language (AST, printer, reader);
* :mod:`~prover.semantics.fuzz_frontend` — random statements through the front-end, compared
  with Lean's values at random points;
* :mod:`~prover.semantics.fuzz_context` — known statements wrapped in Lean file context (comments,
  sections, opens, namespaces, macros, other commands): read as Lean reads them or refused;
* :mod:`~prover.semantics.nterm` / :mod:`~prover.semantics.fuzz_nterm` — statements over ``n`` terms
  (``∑``, ``Fin n``, ``Finset.range n``): reader, evaluator, generator and differential fuzzer;
* :mod:`~prover.semantics.check_proofs` — root statements of accepted proofs at random points.

Command line: ``python -m prover.semantics fuzz-frontend|fuzz-context|fuzz-nterm|check-proofs …``.

Modules:

* ``__main__`` — ``python -m prover.semantics fuzz-frontend|fuzz-context|fuzz-nterm|check-proofs …``.
* ``check_proofs`` — Accepted proofs checked at points: the root statement of every proof file must hold in Lean wherever its …
* ``fuzz_context`` — File-context fuzzing: known statements inside Lean file context, read as Lean reads them or refused.
* ``fuzz_frontend`` — Front-end fidelity fuzzing: random Lean statements, evaluated at random points two ways.
* ``fuzz_nterm`` — n-term fuzzing: random statements over ``n`` terms, read by the front-end and by Lean's rules.
* ``lean_ast`` — A tiny Lean 4 statement language for differential testing: AST, printer, reader, evaluator.
* ``lean_eval`` — Lean 4 / Mathlib values of real expressions at exact rational points, as rigorous enclosures.
* ``nterm`` — Statements over ``n`` terms: reader, printer and evaluator with Lean 4 / Mathlib meaning.

Trust: none; an independent Lean-semantics evaluator used only by tests and fuzzing.
"""
