"""The project's door to the kernel: sympy-side objects in, kernel verdicts out.

The kernel (``prover.kernel``) is sealed: it reads JSON (or objects with ``to_json()``) with its
own parser and never loads the catalogue. This module supplies the project's catalogue by
default, the faithful statement of a problem when the front-end recorded one, and sympy-facing
helpers (positivity, nonzero) for the untrusted search — each converting through text into
kernel terms exactly as a proof file would be read.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp

from prover.kernel import check as _check
from prover.kernel import positivity as _pos
from prover.kernel import terms as T
from prover.kernel.check import KernelError, Verdict, equivalent_relations  # noqa: F401 - re-exported
from prover.kernel.ir import Statement
from prover.kernel.lemma import Lemma, LemmaLookup


@functools.lru_cache(maxsize=4)
def _project_table(directory: str | None) -> dict[str, Lemma]:
    from prover.tactics.catalogue import load_catalogue

    return {name: Lemma.from_json(lem) for name, lem in load_catalogue(directory).items()}


def project_lemmas(directory: str | None = None) -> LemmaLookup:
    """The project catalogue (``tactics/lemmas``) as the kernel's lookup, converted once."""
    return _project_table(directory).get


def _lemmas(lemmas: LemmaLookup | None) -> LemmaLookup:
    return lemmas if lemmas is not None else project_lemmas()


def statement_of(problem: Any) -> Statement | None:
    """The faithful statement the front-end recorded for ``problem`` (None if it has none)."""
    f = getattr(problem, "faithful", None)
    if f is None:
        return None
    return Statement(tuple(problem.variables), tuple(f.hypotheses), f.goal)


def statement_from_proof_json(data: Any) -> tuple[Statement | None, str]:
    """The theorem a proof file claims, read freshly by the front-end from the file's Lean text
    (never from the file's own ``statement`` field), and a sentence saying how; ``None`` when the
    file has no Lean text (or it does not parse): the kernel then checks the file's own problem."""
    from prover.frontend.errors import ParseError
    from prover.frontend.statement import parse_theorem

    problem = data.get("problem") if isinstance(data, dict) else None
    lean = problem.get("lean") if isinstance(problem, dict) else None
    if not isinstance(lean, str):
        return None, "no Lean text in the file: checked against its own problem section"
    real_division = bool(problem.get("real_division", True))
    name = problem.get("lean_name") if isinstance(problem.get("lean_name"), str) else None
    try:
        p = parse_theorem(lean, real_division=real_division, name=name)
    except ParseError as exc:
        return None, f"its Lean text does not parse ({exc}): checked against its own problem section"
    how = "checked against its Lean statement, read again by the front-end"
    if real_division:
        how += " (LIPS convention: every `/` is real division)"
    return statement_of(p), how


def check_proof(proof: Any, lemmas: LemmaLookup | None = None, statement: Statement | None = None) -> Verdict:
    """Kernel verdict on a whole proof, with the project catalogue and the faithful statement:
    the problem's (in-memory :class:`prover.ir.Proof`), else the one read again from the proof's
    Lean text."""
    if statement is None and hasattr(proof, "problem"):
        statement = statement_of(proof.problem)
    if statement is None:
        # a proof read from a file: its Lean text, read again (never the file's own `statement`)
        statement = statement_from_proof_json(proof.to_json() if hasattr(proof, "to_json") else proof)[0]
    return _check.check_proof(proof, _lemmas(lemmas), statement)


def check_step(step: Any, lemmas: LemmaLookup | None = None) -> Verdict:
    return _check.check_step(step, _lemmas(lemmas))


def check_close(goal: Any, cert: dict) -> None:
    _check.check_close(goal, cert)


def Kernel(lemmas: LemmaLookup | None = None) -> _check.Kernel:
    """A kernel with the project catalogue unless ``lemmas`` is given."""
    return _check.Kernel(_lemmas(lemmas))


# ---------------------------------------------------------------- sympy-facing helpers


def _names(exprs: Iterable[Any]) -> tuple[str, ...]:
    names: set[str] = set()
    for e in exprs:
        for s in getattr(e, "free_symbols", ()):
            names.add(str(s))
    return tuple(sorted(names))


def _rels(hyps: Sequence[Any], names: tuple[str, ...]) -> list[T.Rel]:
    out = []
    for h in hyps:
        r = getattr(h, "rel", h)
        try:
            out.append(T.Rel(T.parse_term(str(r.lhs), names), r.op, T.parse_term(str(r.rhs), names)))
        except T.TermError:
            continue  # a hypothesis the kernel cannot read is simply not used
    return out


class Positivity:
    """The kernel's positivity rules over sympy hypotheses and expressions (search side)."""

    def __init__(self, hyps: Sequence[Any]):
        self._hyps = list(hyps)
        self._names = _names([getattr(h, "rel", h).lhs for h in hyps] + [getattr(h, "rel", h).rhs for h in hyps])
        self._pos: _pos.Positivity | None = None

    def _prover(self, names: tuple[str, ...]) -> _pos.Positivity:
        if self._pos is None or not set(names) <= set(self._names):
            self._names = tuple(sorted(set(self._names) | set(names)))
            self._pos = _pos.Positivity(_rels(self._hyps, self._names))
        return self._pos

    def denominators_nonzero(self, expr: Any) -> bool:
        """Every denominator (and rpow requirement) of ``expr`` holds by the kernel's rules."""
        pos = self._prover(_names([sp.sympify(expr)]))
        try:
            _, reqs = pos.at.convert(T.parse_term(str(sp.sympify(expr)), self._names))
        except (T.TermError, KernelError):
            return False
        return all(pos.requirement(d) for d in reqs)

    def prove(self, expr: Any, strict: bool) -> bool:
        names = _names([sp.sympify(expr)])
        pos = self._prover(names)
        try:
            term = T.parse_term(str(sp.sympify(expr)), self._names)
        except T.TermError:
            return False
        return pos.prove(term, strict)


def prove_positive(expr: Any, hyps: Sequence[Any], strict: bool) -> bool:
    return Positivity(hyps).prove(expr, strict)


def _term_in_context(expr: Any, hyps: Sequence[Any]) -> tuple[T.Term, list[T.Rel]] | None:
    """``expr`` and ``hyps`` (sympy) as kernel terms over their common variables (None if the
    kernel cannot read ``expr``)."""
    e = sp.sympify(expr)
    names = _names([e] + [getattr(h, "rel", h).lhs for h in hyps] + [getattr(h, "rel", h).rhs for h in hyps])
    try:
        return T.parse_term(str(e), names), _rels(hyps, names)
    except T.TermError:
        return None


def prove_nonzero(expr: Any, hyps: Sequence[Any]) -> bool:
    read = _term_in_context(expr, hyps)
    return read is not None and _pos.prove_nonzero(*read)


def is_identity(expr: Any, hyps: Sequence[Any] = ()) -> bool:
    """``expr`` (sympy) is 0 wherever Lean evaluates it, under ``hyps`` (kernel rules)."""
    read = _term_in_context(expr, hyps)
    return read is not None and _check.is_identity(*read)
