"""Lean 4 statement front-end: parse a theorem statement into a :class:`~prover.problem.Problem`
with exact sympy expressions, and print problems back as Lean 4 text (``parse ∘ print = id``).

Every parsed problem also carries its faithful statement (``Problem.faithful``: kernel terms, one
Lean operation to one node, :mod:`.faithful`), and the kernel has checked that the sympy relations
mean the same (:mod:`.fidelity`); a statement whose sympy form changed its meaning is refused.

Public interface: :func:`parse_theorem`, :class:`ParseError`, :func:`load_benchmark`,
:func:`print_theorem`, :func:`print_expr`.
"""

from prover.frontend.benchmark import load_benchmark, load_benchmark_entry
from prover.frontend.errors import ParseError
from prover.frontend.printer import PrintError, print_expr, print_relation, print_theorem
from prover.frontend.statement import declaration_names, parse_expression, parse_theorem

__all__ = [
           "ParseError",
           "PrintError",
           "declaration_names",
           "load_benchmark",
           "load_benchmark_entry",
           "parse_expression",
           "parse_theorem",
           "print_expr",
           "print_relation",
           "print_theorem",
]
