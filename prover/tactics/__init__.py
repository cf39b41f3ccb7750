"""The declarative scaling-lemma catalogue (``tactics/lemmas/*.json``) and its matcher.

Modules:

* ``catalogue`` — The scaling-lemma catalogue: declarative JSON data in ``tactics/lemmas/*.json``.
* ``certify_catalogue`` — Fill in and verify the catalogue's certificates: ``python -m prover.tactics.certify_catalogue``.
* ``lemma`` — A catalogue lemma as the search and the Lean renderer see it (sympy expressions).
* ``match`` — Matching catalogue lemmas against a goal: candidate ``scale`` steps (``prover/ir.py``).

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""
