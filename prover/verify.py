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
from prover.kernel.sums import check_nterm_proof, is_nterm_proof


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
    """The faithful statement the front-end recorded for ``problem`` (None if it has none, and
    for a conjunction goal: see :func:`part_statements_of`)."""
    f = getattr(problem, "faithful", None)
    if f is None or getattr(f, "goal_parts", ()):
        return None
    return Statement(tuple(problem.variables), tuple(f.hypotheses), f.goal)


def part_statements_of(problem: Any) -> tuple[Statement, ...]:
    """One faithful statement per part of a conjunction goal ``A ∧ B ∧ …`` (same hypotheses);
    empty when the goal is not a conjunction or the problem has no faithful statement."""
    f = getattr(problem, "faithful", None)
    if f is None:
        return ()
    return tuple(Statement(tuple(problem.variables), tuple(f.hypotheses), g) for g in getattr(f, "goal_parts", ()))


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
    #: a goal ``A ∧ B ∧ …``: one statement per part (``statement`` is then None)
    parts: tuple[Statement, ...] = ()


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
    parts = part_statements_of(p)
    if parts:
        how += f" (a conjunction: each of its {len(parts)} parts checked)"
    return ClaimedTheorem(statement_of(p), how, pname, declaration, parts=parts)


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
    data = proof.to_json() if hasattr(proof, "to_json") else proof
    if is_nterm_proof(data):
        return _check_nterm(proof, data, lemmas)
    if hasattr(proof, "problem") and (proof.problem.is_conjunction or getattr(proof, "parts", None)):
        parts = part_statements_of(proof.problem)
        if parts:
            claim = ClaimedTheorem(None, "", str(proof.problem.name), parts=parts)
            return check_against_claim(data, claim, lemmas)
    if statement is None and hasattr(proof, "problem"):
        statement = statement_of(proof.problem)
    if statement is None:
        # a proof read from a file: its Lean text, read again (never the file's own `statement`)
        claim = read_claimed_theorem(data)
        if claim.refusal:
            return Verdict(False, [claim.refusal])
        return check_against_claim(data, claim, lemmas)
    if _is_conjunction_json(data):
        return Verdict(False, ["the proof is of a conjunction goal; the statement given has one goal"])
    return _check.check_proof(proof, _lemmas(lemmas), statement)


def _check_nterm(proof: Any, data: dict, lemmas: LemmaLookup | None) -> Verdict:
    """An n-term proof: against the problem's reading (in memory) or its Lean text read again."""
    from prover.frontend.errors import ParseError
    from prover.frontend.statement import parse_theorem

    nterm = getattr(getattr(proof, "problem", None), "nterm", None)
    if nterm is None:
        problem = data.get("problem") if isinstance(data.get("problem"), dict) else {}
        lean, name = problem.get("lean"), problem.get("lean_name")
        if not isinstance(lean, str) or not (name is None or isinstance(name, str)):
            return Verdict(False, ["an n-term proof file needs the theorem's Lean text (`problem.lean`)"])
        try:
            nterm = parse_theorem(lean, real_division=problem.get("lips_header") is True, name=name).nterm
        except (ParseError, RecursionError) as exc:
            return Verdict(False, [f"its Lean text cannot be read ({str(exc).strip()[:200]})"])
        if nterm is None:
            return Verdict(False, ["its Lean text is not a statement over n terms"])
    return check_nterm_proof(data, nterm.statement, _lemmas(lemmas))


def _is_conjunction_json(data: Any) -> bool:
    return isinstance(data, dict) and ("parts" in data or (
        isinstance(data.get("problem"), dict) and "goal_parts" in data["problem"]))


def conjunction_part_files(data: dict) -> list[dict]:
    """The proof file of each part of a conjunction proof file, made from its JSON alone (no
    reading through sympy: the kernel checks what the file says): the problem's ``goal`` is the
    part's, its own ``statement`` field (if any) the part's, ``root`` the part's root. Raises
    ``TypeError``/``ValueError`` on a malformed file (the counts of parts must agree)."""
    problem = data.get("problem")
    roots = data.get("parts")
    if not isinstance(problem, dict) or not isinstance(roots, list) or not isinstance(problem.get("goal_parts"), list):
        raise TypeError("a conjunction proof needs `problem.goal_parts` and `parts`")
    goals = problem["goal_parts"]
    if len(goals) != len(roots) or len(roots) < 2:
        raise ValueError(f"the goal has {len(goals)} parts and the proof {len(roots)}")
    own = problem.get("statement")
    own_goals = own.get("goal_parts") if isinstance(own, dict) else None
    if own is not None and (not isinstance(own_goals, list) or len(own_goals) != len(goals)):
        raise ValueError("the file's own statement does not have the goal's parts")
    out = []
    for i, (goal, root) in enumerate(zip(goals, roots)):
        pp = {k: v for k, v in problem.items() if k not in ("goal_parts", "statement", "lean", "lean_name")}
        pp["goal"] = goal
        if own is not None:
            pp["statement"] = {k: v for k, v in own.items() if k != "goal_parts"} | {"goal": own_goals[i]}
        out.append({k: v for k, v in data.items() if k != "parts"} | {"problem": pp, "root": root})
    return out


def check_against_claim(data: Any, claim: ClaimedTheorem, lemmas: LemmaLookup | None = None) -> Verdict:
    """The kernel's verdict on the proof file ``data`` against the theorem ``claim`` (its Lean
    text read again). A conjunction goal ``A ∧ B ∧ …`` is checked part by part: the file must
    prove exactly as many parts as the theorem has, each part's proof checked by the kernel
    against that part (same hypotheses); the verdict is their conjunction."""
    conj = _is_conjunction_json(data)
    if not claim.parts and not conj:
        return _check.check_proof(data, _lemmas(lemmas), claim.statement)
    if not conj:
        why = f"the theorem's goal is a conjunction of {len(claim.parts)} parts; the proof proves one goal"
        return Verdict(False, [why])
    if not claim.parts and claim.statement is not None:
        return Verdict(False, ["the theorem's goal is not a conjunction; the proof is of one"])
    try:
        files = conjunction_part_files(data)
    except (TypeError, ValueError) as exc:
        return Verdict(False, [f"unreadable proof: {exc}"])
    if claim.parts and len(files) != len(claim.parts):
        return Verdict(False, [f"the theorem's goal has {len(claim.parts)} parts; the proof proves {len(files)}"])
    verdicts = [_check.check_proof(f, _lemmas(lemmas), claim.parts[i] if claim.parts else None)
                for i, f in enumerate(files)]
    errors = [f"part {i + 1}: {e}" for i, v in enumerate(verdicts) for e in v.errors]
    errors += [f"part {i + 1}: not proved" for i, v in enumerate(verdicts) if not v.ok and not v.errors]
    return Verdict(not errors, errors, sorted({t for v in verdicts for t in v.trusted_lemmas}),
                   sum(v.steps_checked for v in verdicts),
                   ",".join(v.catalogue_digest for v in verdicts if v.catalogue_digest),
                   all(v.statement_checked for v in verdicts))


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
