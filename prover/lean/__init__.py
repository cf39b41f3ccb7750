"""Lean 4 side of the prover (Lean is optional: everything here imports without it).

* :mod:`prover.lean.render` — a kernel proof as a Lean file replaying its certificates;
* :mod:`prover.lean.repl` — client for the leanprover-community REPL (``lake exe repl``);
* :mod:`prover.lean.backend` / :mod:`prover.lean.dojo_backend` — one interface over the REPL and LeanDojo
  (by name: :mod:`prover.lean.registry`);
* :mod:`prover.lean.verify` — step-by-step replay, the search's per-step filter, file check + axiom audit;
* :mod:`prover.lean.facade` — the entry points ``prover prove`` calls;
* :mod:`prover.lean.lemmas_gen` — regenerates ``lean_project/ProverLemmas/Catalogue.lean``.
"""
