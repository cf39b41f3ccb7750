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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ClaimedTheorem:
    """The theorem a proof file claims, as its Lean text reads (see :func:`read_claimed_theorem`).

    ``statement`` is None when the file has no Lean text (the kernel then checks the file's own
    problem section) or when it is refused; ``refusal`` (one line, "" if none) says why the file
    cannot be accepted as it stands, ``unreadable`` whether that is because its Lean text cannot
    be read at all; ``declaration`` names the Lean declaration read (None without Lean text)."""

    statement: Statement | None
    how: str
    problem_name: str
    declaration: str | None = None
    refusal: str = ""
    unreadable: bool = False


def names_match(declaration: str, problem_name: str) -> bool:
    """Whether the Lean declaration ``declaration`` is the problem ``problem_name``'s theorem: the
    same name, or the last component of a benchmark id (``mo-int-20/P1`` is theorem ``P1``)."""
    return declaration == problem_name or ("/" in problem_name and declaration == problem_name.rsplit("/", 1)[1])


def read_claimed_theorem(data: Any) -> ClaimedTheorem:
    """The theorem a proof file claims, read freshly by the front-end from the file's Lean text
    (never from the file's own ``statement`` field).

    The declaration read (``lean_name``, else the text's one declaration) must be the problem's
    own theorem (:func:`names_match`), so that a verdict names the theorem it checked; Lean text
    that does not parse is refused, never replaced by the file's own problem section."""
    problem = data.get("problem") if isinstance(data, dict) else None
    if not isinstance(problem, dict):
        return ClaimedTheorem(None, "no problem section in the file", "")
    pname = str(problem.get("name", ""))
    lean = problem.get("lean")
    if lean is None:
        return ClaimedTheorem(None, "no Lean text in the file: checked against its own problem section", pname)
    wanted = problem.get("lean_name")
    if not isinstance(lean, str) or not (wanted is None or isinstance(wanted, str)):
        field_name = "lean" if not isinstance(lean, str) else "lean_name"
        return _unreadable(pname, wanted if isinstance(wanted, str) else None,
                           f"its `{field_name}` field is not a text")
    if wanted is not None and not names_match(wanted, pname):
        return _mismatch(pname, wanted)
    return _parse_claim(problem, lean, pname, wanted)


def _parse_claim(problem: dict, lean: str, pname: str, wanted: str | None) -> ClaimedTheorem:
    from prover.frontend.errors import ParseError
    from prover.frontend.statement import parse_theorem

    # the LIPS header applies only when the data declared it (`lips_header`, written since the
    # file reader; older proof files say so by `real_division`); otherwise the text is a Lean file
    # read as Lean reads it, its own macro and `open`s included
    declared = problem.get("lips_header", problem.get("real_division", True))
    real_division = declared is True
    try:
        p = parse_theorem(lean, real_division=real_division, name=wanted)
    except (ParseError, RecursionError) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return _unreadable(pname, wanted, f"its Lean text cannot be read ({why})")
    except Exception as exc:  # noqa: BLE001 - a front-end failure is no reading of the text either
        why = (str(exc).strip().splitlines() or [""])[0]
        return _unreadable(pname, wanted, f"its Lean text cannot be read (front-end failure: "
                                          f"{type(exc).__name__}: {why})")
    declaration = str(p.name)
    if not names_match(declaration, pname):
        return _mismatch(pname, declaration)
    how = "checked against its Lean statement, read again by the front-end"
    if real_division:
        how += " (under the LIPS header its benchmark declares: every `/` is real division)"
    return ClaimedTheorem(statement_of(p), how, pname, declaration)


def _unreadable(pname: str, declaration: str | None, why: str) -> ClaimedTheorem:
    return ClaimedTheorem(None, why + ": not checked", pname, declaration, why + ": not checked", True)


def _mismatch(pname: str, declaration: str) -> ClaimedTheorem:
    why = f"its Lean text is read as theorem `{declaration}`, not the problem's own theorem: not checked"
    return ClaimedTheorem(None, why, pname, declaration, why)


def statement_from_proof_json(data: Any) -> tuple[Statement | None, str]:
    """The faithful statement of :func:`read_claimed_theorem` and a sentence saying how; ``None``
    when the file has no Lean text, or when it is refused (the sentence then says why, and
    :func:`check_proof` rejects the file)."""
    claim = read_claimed_theorem(data)
    return claim.statement, claim.refusal or claim.how


def check_proof(proof: Any, lemmas: LemmaLookup | None = None, statement: Statement | None = None) -> Verdict:
    """Kernel verdict on a whole proof, with the project catalogue and the faithful statement:
    the problem's (in-memory :class:`prover.ir.Proof`), else the one read again from the proof's
    Lean text."""
    if statement is None and hasattr(proof, "problem"):
        statement = statement_of(proof.problem)
    if statement is None:
        # a proof read from a file: its Lean text, read again (never the file's own `statement`)
        claim = read_claimed_theorem(proof.to_json() if hasattr(proof, "to_json") else proof)
        if claim.refusal:
            return Verdict(False, [claim.refusal])
        statement = claim.statement
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
