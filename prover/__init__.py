"""prover: Lean 4 statement -> proof search -> kernel-checked certificate.

The Python API (each name is imported on first use, so ``import prover`` stays light):

    from prover import prove, check, parse, suggest_tactics, ParseError

    result = prove("theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry", time_limit=20)
    result.status, result.lean_text(), result.html(), result.check().ok

* :func:`prove` (``prover.api.prove``): a Lean string, a :class:`Problem` or ``FILE.lean#name`` /
  ``file.jsonl#id`` -> :class:`ProveResult`;
* :func:`check` (``prover.api.check``): a proof, a result or a ``proof.json`` path -> kernel ``Verdict``;
* :func:`parse` (``prover.api.parse``): Lean text or a spec -> :class:`Problem`;
* :func:`suggest_tactics` (``prover.generate.suggest_tactics``): ranked, kernel-checked next steps;
* :class:`ParseError` (``prover.frontend.errors.ParseError``): unreadable or unsupported input.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prover.api import ProveResult, check, parse, prove
    from prover.frontend.errors import ParseError
    from prover.generate import Suggestions, TacticSuggestion, suggest_tactics
    from prover.ir import Proof
    from prover.kernel.check import Verdict
    from prover.problem import Problem

#: public name -> module that defines it (imported lazily by :func:`__getattr__`)
_EXPORTS = {
    "prove": "prover.api",
    "check": "prover.api",
    "parse": "prover.api",
    "ProveResult": "prover.api",
    "ParseError": "prover.frontend.errors",
    "suggest_tactics": "prover.generate",
    "Suggestions": "prover.generate",
    "TacticSuggestion": "prover.generate",
    "Problem": "prover.problem",
    "Proof": "prover.ir",
    "Verdict": "prover.kernel.check",
}

__all__ = ["ParseError", "Problem", "Proof", "ProveResult", "Suggestions", "TacticSuggestion", "Verdict",
           "check", "parse", "prove", "suggest_tactics"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'prover' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
