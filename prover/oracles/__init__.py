"""Oracles: they answer "counterexample" or "unknown", never "proved".

``find_counterexample`` runs the numeric search and then z3 (QF_NRA) within one time limit; a
point is returned only after an exact check (:mod:`prover.oracles.exact_sign`).

Modules:

* ``exact_sign`` — Rigorous sign decisions for exact real numbers built from a problem's expressions.
* ``model`` — A goal compiled for counterexample search, and exact confirmation of candidate points.
* ``numeric`` — Numeric counterexample search: random sampling under the hypotheses, then local optimization.
* ``search`` — ``find_counterexample``: the numeric search first, then z3 with the time that is left.
* ``z3_attempt`` — An eval attempt that runs z3 alone, for the "closers vs z3" comparison table only.
* ``z3_oracle`` — z3 (QF_NRA) as an oracle, with a hard time limit.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""

from __future__ import annotations

from prover.oracles.model import Counterexample
from prover.oracles.search import find_counterexample

__all__ = ["Counterexample", "find_counterexample"]
