"""The kernel: the exact proof checker (rational arithmetic only, sealed: it imports nothing of the
project outside itself).

Modules:

* ``algebra`` — Exact algebra for the kernel: expressions → rational functions over ℚ in variables and atoms.
* ``certificates`` — Typed certificates: one dataclass per certificate kind, with ``to_json``/``from_json``.
* ``check`` — The proof checker: verifies every step of a :class:`~prover.ir.Proof` exactly.
* ``ir`` — The kernel's reading of a proof file: goals and steps over kernel terms.
* ``lemma`` — Catalogue lemmas as the kernel reads them (kernel terms, parsed from their JSON form).
* ``positivity`` — Structural positivity rules (part of the kernel's trust base, listed in docs/TRUST_BASE.md).
* ``sums`` — Sums over n terms: a theorem about families ``a : Fin n → ℝ`` read at the level of its sums.
* ``terms`` — The kernel's own term language: immutable terms with Lean/Mathlib semantics over ℝ.

Trust: the whole package is the trust base (docs/TRUST_BASE.md); it imports nothing of the project.
"""
