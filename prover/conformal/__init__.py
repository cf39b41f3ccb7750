"""Conformal coherent-factuality filter for natural-language proof steps.

Rubin-Toles et al., ICLR 2025: keep an ancestor-closed subset of a proof's claims that is
coherently factual with probability ≥ 1−α. Modules, one job each:

* :mod:`.claims` — data model (``Claim``, ``ClaimGraph``: networkx DiGraph parent → child) and labels;
* :mod:`.io` / :mod:`.datasets` — MATH annotation loader, own ``prover-claims`` JSONL format, named sets;
* :mod:`.calibrate` — nested chain, exact ``⌈(n+1)(1−α)⌉`` quantile, calibration, filtering, baseline;
* :mod:`.scorers` / :mod:`.symbolic` — given scores, exact sympy checks, self-consistency, combinations;
* :mod:`.render` / :mod:`.generate` — kernel proofs as claim graphs, corrupted variants, built sets;
* :mod:`.evaluate` / :mod:`.report` — repeated splits, leave-one-out, tables and plots.
"""

from prover.conformal.calibrate import Calibration, build_chain, calibrate, conformal_threshold, filter_claims
from prover.conformal.claims import Claim, ClaimGraph

__all__ = ["Calibration", "Claim", "ClaimGraph", "build_chain", "calibrate", "conformal_threshold",
           "filter_claims"]
