"""Conformal coherent-factuality filter for natural-language proof steps.

Rubin-Toles et al., ICLR 2025: keep an ancestor-closed subset of a proof's claims that is
coherently factual with probability ≥ 1−α. Modules, one job each:

* :mod:`.claims` — data model (``Claim``, ``ClaimGraph``: networkx DiGraph parent → child) and labels;
* :mod:`.io` / :mod:`.datasets` — MATH annotation loader, own ``prover-claims`` JSONL format, named sets;
* :mod:`.calibrate` — nested chain, exact ``⌈(n+1)(1−α)⌉`` quantile, calibration, filtering, baseline;
* :mod:`.scorers` / :mod:`.symbolic` — given scores, exact sympy checks, self-consistency, combinations;
* :mod:`.render` / :mod:`.generate` — kernel proofs as claim graphs, corrupted variants, built sets;
* :mod:`.evaluate` / :mod:`.report` — repeated splits, leave-one-out, tables and plots.

Modules:

* ``calibrate`` — Split-conformal calibration over nested ancestor-closed outputs (Rubin-Toles et al., ICLR 2025).
* ``claims`` — Data model: claims of a natural-language proof, their deducibility graph and labels.
* ``datasets`` — Named data sets for the CLI: ``math`` / ``math-llama`` (released MATH annotations, not shipped), …
* ``evaluate`` — Empirical validity and retention: repeated random calibration/test splits and leave-one-out.
* ``generate`` — Calibration data of our own: rendered kernel proofs plus corrupted variants, labelled exactly.
* ``io`` — Loaders: the released MATH annotation files and the project's own claim-graph format.
* ``proof_claims`` — Render a kernel proof (``prover.ir.Proof``) as natural-language claims with their graph.
* ``report`` — Coverage/retention tables (markdown) and plots (PNG, matplotlib) for evaluation rows.
* ``scorers`` — Claim scorers: ``scorer(example) -> confidence per claim`` (higher = more trustworthy).
* ``symbolic`` — Exact symbolic checking of a claim against its parent claims (sympy).

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""

from prover.conformal.calibrate import Calibration, build_chain, calibrate, conformal_threshold, filter_claims
from prover.conformal.claims import Claim, ClaimGraph

__all__ = ["Calibration", "Claim", "ClaimGraph", "build_chain", "calibrate", "conformal_threshold",
           "filter_claims"]
