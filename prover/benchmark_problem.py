"""The :class:`~prover.problem.Problem` of a benchmark record, or of its FALSE variant.

Shared by every eval attempt function: the default one (:mod:`prover.eval.attempt`) and the z3
comparison (:mod:`prover.oracles.z3_attempt`, which must not import the evaluation). Light on
import: the front-end and the variant maker are loaded on first use.
"""

from __future__ import annotations

from typing import Any

#: Seconds allowed to make (and confirm) the FALSE variant of a problem, on top of the
#: time limit (the runner widens the wall-clock limit by as much in that mode).
VARIANT_TIME = 20.0


class NoVariant(Exception):
    """No confirmed FALSE variant could be made for this problem."""


def load_problem(record: dict[str, Any], options: dict[str, Any]):
    """The Problem of a benchmark record (its FALSE variant with ``variants == "false"``)."""
    # imported lazily: the eval runner stays light
    from prover.frontend.statement import is_whole_file, parse_theorem

    # the LIPS header for a bare declaration; a whole Lean file (miniF2F) declares its own context
    problem = parse_theorem(record["lean"], real_division=not is_whole_file(record["lean"]))
    problem.name = record["id"]
    problem.source = record.get("source", problem.source)
    problem.meta = {**problem.meta, "lean": record["lean"]}
    if options.get("variants") == "false":
        from prover.variants import false_variant_report  # imported lazily: numpy, the oracles

        rep = false_variant_report(problem, time_limit=VARIANT_TIME)
        if rep.variant is None:
            raise NoVariant(rep.reason)
        problem = rep.variant
        problem.meta = {**problem.meta, "variant_how": rep.reason}
    return problem
