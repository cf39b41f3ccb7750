"""What the kernel needs to know about a catalogue lemma to check a ``scale`` step.

The catalogue (``tactics/`` data, loaded by ``prover.tactics.catalogue``) produces these.
A lemma is trusted only if ``trust == "kernel"`` and its ``certificate`` (a close certificate
for ``lhs <= rhs`` over ``side_conditions``) checks, or ``trust == "lean"`` (the proof lives in
``lean_project/`` under ``lean_name``; such proofs are reported as resting on Lean).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import sympy as sp

from prover.problem import Relation


@dataclass(frozen=True)
class LemmaStatement:
    name: str
    variables: tuple[str, ...]
    side_conditions: tuple[Relation, ...]
    lhs: sp.Expr            # the lemma says lhs <= rhs
    rhs: sp.Expr
    trust: str              # "kernel" | "lean"
    lean_name: str = ""
    certificate: dict[str, Any] | None = None
    equality_case: str = ""
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


LemmaLookup = Callable[[str], "LemmaStatement | None"]
