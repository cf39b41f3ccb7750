"""Named data sets for the CLI: ``math`` / ``math-llama`` (released MATH annotations, not shipped),
``generated`` (the small set of rendered kernel proofs that ships with the project), or a path."""

from __future__ import annotations

import os
from pathlib import Path

from prover.conformal.claims import ClaimGraph
from prover.conformal.io import DataError, load_any, load_math, math_path, missing_data_message

GENERATED = Path(__file__).resolve().parents[1] / "data" / "conformal" / "generated.jsonl"
NAMED = {"math": "gpt4", "math-llama": "llama"}


def load_dataset(spec: str, data_dir: str | os.PathLike | None = None) -> list[ClaimGraph]:
    if spec in NAMED:
        path = math_path(NAMED[spec], data_dir)
        if not path.is_file():
            raise DataError(missing_data_message(path, data_dir))
        return load_math(path)
    if spec == "generated":
        return load_any(GENERATED)
    p = Path(spec)
    if not p.exists():
        raise DataError(f"no such data set or file: {spec} (use math, math-llama, generated or a path)")
    return load_any(p)


def default_scorer(examples: list[ClaimGraph]) -> str:
    """``given:frequency`` for the MATH data; stored symbolic scores (else live symbolic) for ours."""
    claims = [c for ex in examples for c in ex.claims]
    if claims and all("frequency" in c.scores for c in claims):
        return "given:frequency"
    if claims and all("symbolic" in c.scores for c in claims):
        return "given:symbolic"
    return "symbolic"
