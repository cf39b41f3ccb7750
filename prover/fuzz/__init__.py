"""Fuzzing the kernel: generated proof trees, mutants and an independent Lean-semantics oracle.

* :mod:`prover.fuzz.lean_eval` — exact evaluation of statements in Lean/Mathlib semantics (the
  oracle; it imports nothing from ``prover.kernel`` and never uses sympy);
* :mod:`prover.fuzz.kernel_trees` — the seeded proof-tree generator, the mutations and the campaign;
* ``python -m prover.fuzz kernel --trees N --seed S --out results/fuzz-kernel.json`` — the benchmark.

Modules:

* ``__main__`` — ``python -m prover.fuzz kernel --trees N --seed S --out results/fuzz-kernel.json``.
* ``kernel_trees`` — Generated proof-tree fuzzing of the kernel.
* ``lean_eval`` — An independent, exact evaluator of proof-file statements in Lean/Mathlib semantics over ℝ.

Trust: none; it attacks the kernel.
"""
