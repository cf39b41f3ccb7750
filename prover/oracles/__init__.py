"""Oracles: they answer "counterexample" or "unknown", never "proved".

``find_counterexample`` runs the numeric search and then z3 (QF_NRA) within one time limit; a
point is returned only after an exact check (:mod:`prover.oracles.exact_sign`).
"""

from __future__ import annotations

from prover.oracles.model import Counterexample
from prover.oracles.search import find_counterexample

__all__ = ["Counterexample", "find_counterexample"]
