"""Size measures of a proof, for the records: steps, lemmas used, certificate size."""

from __future__ import annotations

import json
from typing import Any

from prover.ir import Proof


def proof_stats(proof: Proof) -> dict[str, Any]:
    """``steps``: number of steps; ``lemmas``: catalogue lemmas applied (sorted, unique);
    ``certificate_size``: bytes of the canonical JSON of all step certificates."""
    steps = proof.steps()
    lemmas: set[str] = set()
    size = 0
    for s in steps:
        for app in s.certificate.get("applications", []) or []:
            if isinstance(app, dict) and app.get("lemma"):
                lemmas.add(str(app["lemma"]))
        size += len(json.dumps(s.certificate, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    return {"steps": len(steps), "lemmas": sorted(lemmas), "certificate_size": size}
