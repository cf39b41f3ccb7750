"""Statements over n terms (``∑`` over ``Fin n`` or ``Finset.range n``): the search and its proofs.

The front-end (:mod:`prover.frontend.nterm`) reads such a statement into an atom-level problem
(one real variable per sum); the kernel checks summed facts and the atom-level proof
(:mod:`prover.kernel.sums`). This package is untrusted: it proposes facts and searches.

Modules:

* ``lean_text`` — Lean text of the scalar statements an n-term proof is made of, read back by the front-end.
* ``plan`` — Summed facts the search may add to a statement over n terms, and the methods that propose them.
* ``proof`` — An n-term proof as the search builds it, and its certificate for the kernel.
* ``search`` — The search for a statement over n terms: summed facts, then the atom-level statement.

Trust: none. Every proof is checked by :mod:`prover.kernel.sums` before it is returned.
"""
