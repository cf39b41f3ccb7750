"""Lean 4 side of the prover (Lean is optional: everything here imports without it).

Modules:

* ``backend`` — One interface for driving Lean: open a theorem, run a tactic on a proof state, get the new goals or Lean's …
* ``dojo_backend`` — LeanDojo backend (``pip install 'prover[lean]'``), for users who traced a repository.
* ``facade`` — Entry points the search and ``prover prove`` use (``--backend lean-repl|lean-dojo``, ``--verify lean``); …
* ``fill`` — ``prover lean fill FILE.lean``: attempt every ``sorry`` theorem of a file, write the proved ones in.
* ``in_place`` — Write rendered proofs into the user's own Lean file, in place of the theorems' ``sorry`` …
* ``lemmas_gen`` — Generate ``lean_project/ProverLemmas/Catalogue.lean``: one Lean theorem per kernel-trusted catalogue lemma …
* ``mathlib_versions`` — Mathlib version profiles: which release a rendered file targets (``--mathlib TAG``).
* ``registry`` — The Lean backends by name: :func:`make_backend` (``--backend lean-repl|lean-dojo``).
* ``render/`` — Render a kernel proof (``prover.ir``) as a Lean 4 file that replays every certificate.
* ``repl`` — Client for the leanprover-community REPL (``lake exe repl``): JSON commands on stdin, JSON replies on …
* ``replay/`` — A static *model* of Lean 4 + Mathlib v4.16.0 for the subset of Lean our renderer emits.
* ``replay_baseline`` — Measure rendered proofs against the Lean replay model (a model, not Lean).
* ``suggest`` — ``prover lean suggest``: a goal as Lean pretty-prints it in, the tactic block that proves it out.
* ``syntax`` — Exact sympy expressions and relations printed as Lean 4 terms over ℝ, for rendered proofs.
* ``verify`` — Checking proofs in Lean: replay a kernel proof step by step on a backend, a per-step filter the search can …

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
