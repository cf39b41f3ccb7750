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

Map (dependencies run one way: ``cli.py``/``commands`` → ``api.py`` → ``search`` → ``rewrite`` /
``tactics`` / ``oracles`` → ``solvers`` → ``kernel``; each package's ``__init__`` lists its modules):

* ``frontend/`` — Lean statement → :class:`Problem` (sympy) plus its faithful kernel terms.
* ``kernel/`` — **the trust base**: the exact checker of every step (``verify.py`` is its door).
* ``nterm/`` — statements over n terms (``∑``): summed facts proposed and proved, then the atom-level search.
* ``search/`` — best-first search, the closer it calls on every goal (``close.py``), proof views.
* ``rewrite/`` — symbolic rewrites (candidates for the search; ``chain.py``: the closers' normal form).
* ``solvers/`` — registered closers for polynomial goals (``closers.py``), SOS, difference substitution.
* ``tactics/`` — the scaling-lemma catalogue (``tactics/lemmas/*.json``) and its matcher.
* ``oracles/`` — counterexample search (never a proof).
* ``lean/`` — rendering to Lean, the replay model, Lean backends.
* ``llm/`` — LLM backends; proposals are proved exactly or dropped.
* ``eval/`` — batch evaluation; ``conformal/`` — the conformal claim filter; ``commands/`` — the CLI.
* ``semantics/``, ``fuzz/`` — independent Lean-semantics evaluators and fuzzers that attack the kernel.
* ``ir.py`` (proof IR), ``problem.py`` (a user's problem), ``verify.py`` (the door to the kernel),
  ``sympy_terms.py`` (sympy ↔ kernel terms), ``variants.py`` (FALSE variants), ``generate.py``
  (tactic suggestions), ``alarm.py``, ``benchmark_lines.py``, ``benchmark_problem.py``.
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
