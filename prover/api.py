"""Public entry points: prove, check and read one problem; the evaluation runner and the CLI call
these, and ``prover`` re-exports them (``from prover import prove, check, parse``).

    from prover import prove
    result = prove("theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry", time_limit=20)
    result.status          # "proved"
    print(result.lean_text())
    result.check().ok      # the kernel's verdict, checked again

Statements are Lean 4 text, a :class:`~prover.problem.Problem`, or a spec as on the command line
(``FILE.lean#name``, ``file.jsonl#id``); input that cannot be read raises
:class:`prover.frontend.errors.ParseError` (also ``prover.ParseError``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prover.ir import Proof
from prover.problem import Problem
from prover.search.result import STATUSES, ProveResult

if TYPE_CHECKING:
    from prover.kernel.check import Verdict

def parse(statement: str | Problem, *, real_division: bool | None = None) -> Problem:
    """The :class:`Problem` of a Lean 4 statement or of ``FILE.lean#name`` / ``file.jsonl#id``.

    ``real_division`` as for ``prover parse`` (None: on for JSONL benchmarks and LIPS headers).
    Raises :class:`~prover.frontend.errors.ParseError` (one line) when it cannot be read, and when
    the spec names several problems (pick one with ``#id``)."""
    from prover.frontend.errors import ParseError

    if isinstance(statement, Problem):
        return statement
    if not isinstance(statement, str):
        raise TypeError(f"expected a Lean statement (str) or a Problem, not {type(statement).__name__}")
    from prover.frontend.show import load_spec

    try:
        problems = load_spec(statement, real_division=real_division, on_skip=lambda _s: None)
    except ParseError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, KeyError) as exc:
        lines = str(exc).strip().splitlines()
        raise ParseError(lines[0] if lines else f"cannot read {statement!r}") from None
    if len(problems) != 1:
        raise ParseError(f"{statement} holds {len(problems)} problems; pick one with FILE#id")
    return problems[0]


def prove(problem: Problem | str, *, time_limit: float = 60.0, closers_only: bool = False,
          llm: Any = None, real_division: bool | None = None, closers: Sequence[Any] | None = None) -> ProveResult:
    """Search for a kernel-checked proof of ``problem`` within ``time_limit`` seconds.

    ``problem`` is a :class:`Problem`, Lean 4 text or ``FILE.lean#name`` / ``file.jsonl#id`` (read
    by :func:`parse`, which raises ``ParseError``); ``llm`` a spec as for ``--llm`` or a backend;
    ``closers`` a list of :class:`prover.solvers.closers.Closer` values replacing the default."""
    from prover.search.driver import prove_problem  # imported lazily: heavy solvers

    p = parse(problem, real_division=real_division)
    result = prove_problem(p, time_limit=time_limit, closers_only=closers_only, llm=llm, closers=closers)
    result.problem = p
    return result


def _statement_from_lean(data: Any) -> Any:
    """The faithful statement of a proof file's Lean text, read again by the front-end (as
    ``prover check`` does); None when the file carries no Lean text or it does not parse."""
    from prover.verify import statement_from_proof_json

    return statement_from_proof_json(data)[0]


def check(proof: Proof | ProveResult | dict | str | os.PathLike) -> Verdict:
    """The kernel's verdict (``.ok``, ``.errors``, ``.steps_checked``) on a proof: a
    :class:`~prover.ir.Proof`, a :class:`ProveResult`, a proof's JSON (dict), or the path of a
    ``proof.json`` file. A file is read as JSON by the kernel's own parser and checked against its
    Lean statement when it carries one, as ``prover check`` does; an unreadable file raises
    ``OSError`` or ``ValueError``."""
    import json

    from prover.verify import check_proof

    if isinstance(proof, ProveResult):
        return proof.check()
    if isinstance(proof, Proof):
        return check_proof(proof)
    if isinstance(proof, (str, os.PathLike)):
        data = json.loads(Path(proof).read_text(encoding="utf-8"))
    elif isinstance(proof, dict):
        data = proof
    else:
        raise TypeError(f"expected a Proof, a ProveResult, a dict or a path, not {type(proof).__name__}")
    return check_proof(data, statement=_statement_from_lean(data))


#: Heavy modules the search imports lazily; ``warm_up`` loads them ahead of a timed attempt.
HEAVY_MODULES = ("prover.search.best_first", "prover.search.close", "prover.solvers.sos", "cvxpy",
                 "prover.oracles", "prover.kernel.check", "prover.tactics.match")


def warm_up() -> None:
    """Import the solver stack now, so that a timed attempt measures proving, not imports."""
    from prover.search.services import import_available

    import_available(HEAVY_MODULES)


__all__ = ["HEAVY_MODULES", "STATUSES", "ProveResult", "check", "parse", "prove", "warm_up"]
