"""Lean 4 statement front-end: parse a theorem statement into a :class:`~prover.problem.Problem`
with exact sympy expressions, and print problems back as Lean 4 text (``parse ∘ print = id``).

Every parsed problem also carries its faithful statement (``Problem.faithful``: kernel terms, one
Lean operation to one node, :mod:`.faithful`), and the kernel has checked that the sympy relations
mean the same (:mod:`.fidelity`); a statement whose sympy form changed its meaning is refused.

Public interface: :func:`parse_theorem`, :class:`ParseError`, :func:`load_benchmark`,
:func:`print_theorem`, :func:`print_expr`.

Modules:

* ``benchmark`` — Benchmark files: JSONL with one Lean statement per line (field ``lean``), read with the LIPS convention …
* ``definitions`` — Function variables given by a defining equation: ``(f : ℝ → ℝ) (h : ∀ x, f x = E)``.
* ``elaborate`` — Typing and conversion of parsed terms into exact sympy expressions over ℚ.
* ``errors`` — The one error type of the front-end: a user mistake or an unsupported construct.
* ``faithful`` — Faithful elaboration: the parsed AST into kernel terms (:mod:`prover.kernel.terms`), one Lean operation to …
* ``fidelity`` — Does the sympy form of a parsed statement keep its Lean meaning?
* ``lean_file`` — A Lean file read as Lean reads it, up to one declaration: its commands and their effect.
* ``nterm`` — Statements over n terms: ``(n : ℕ)``, families ``a : Fin n → ℝ`` / ``a : ℕ → ℝ``, sums ``∑``.
* ``names`` — Name resolution as Lean 4 does it, for the names a statement may use.
* ``lexer`` — Tokenizer for the part of Lean 4 syntax a theorem statement uses.
* ``printer`` — Lean 4 text for expressions, relations and whole problems (``parse ∘ print`` is the identity).
* ``show`` — Loading a statement from the command line and showing a Problem (rich table or JSON).
* ``statement`` — Lean 4 declarations (``theorem``/``lemma``/``example``) into :class:`~prover.problem.Problem`.
* ``syntax`` — Pratt parser for Lean 4 terms (numbers, ``+ - * / ^ ⁻¹``, ``√``/``sqrt``, ``|a|``/``abs``, …

Trust: the faithful reading (``lexer``, ``lean_file``, ``names``, ``syntax``, ``definitions``, ``faithful``, ``nterm``) is
what the kernel checks a proof's root goal against; the rest is untrusted.
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
