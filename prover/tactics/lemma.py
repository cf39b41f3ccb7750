"""A catalogue lemma as the search and the Lean renderer see it (sympy expressions).

The kernel reads it through :meth:`LemmaStatement.to_json` (``prover.kernel.lemma.Lemma``).

The catalogue (``tactics/`` data, loaded by ``prover.tactics.catalogue``) produces these.
A lemma is trusted only if ``trust == "kernel"`` and its ``certificate`` (a close certificate
for ``lhs <= rhs`` over ``side_conditions``) checks, or ``trust == "lean"`` (the proof lives in
``lean_project/`` under ``lean_name``; such proofs are reported as resting on Lean).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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

    def to_json(self) -> dict[str, Any]:
        """The form the kernel reads (``prover.kernel.lemma.Lemma.from_json``)."""
        from prover.ir import expr_to_str, relation_to_json

        return {"name": self.name, "variables": list(self.variables),
                "side_conditions": [relation_to_json(r) for r in self.side_conditions],
                "lhs": expr_to_str(self.lhs), "rhs": expr_to_str(self.rhs), "trust": self.trust,
                "lean_name": self.lean_name, "certificate": self.certificate}


LemmaLookup = Callable[[str], "LemmaStatement | None"]
