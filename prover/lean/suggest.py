"""``prover lean suggest``: a goal as Lean pretty-prints it in, the tactic block that proves it out.

The command-line half of the ``prover?`` tactic (``lean_project/ProverTactic/``): Lean prints the
main goal with its local context (``Lean.Meta.ppGoal``), runs ``prover lean suggest - --json`` with
that text on stdin and offers the ``tactic`` field as "Try this:". The text is what ``ppGoal``
writes (Lean's ``src/Lean/Meta/PPGoal.lean``)::

    a b c : ℝ
    ha : 0 < a
    h :
      a * b * c =
        1
    ⊢ a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2

one entry per line — ``names : type`` (consecutive locals of one type share a line), a long type
broken onto following lines indented deeper, an optional ``case tag`` line first, the goal after
``⊢`` last. :func:`read_goal` turns it into the theorem statement the front-end reads — binders
``(a b c : ℝ)`` from the ℝ lines, ``(h : P)`` from the others, the goal after ``:`` — and refuses
(:class:`GoalTextError`, one line) anything whose meaning that statement would not keep: a local
of another type (``n : ℕ``, instance arguments), a ``let`` value (``x : ℝ := v``), a name Lean
shows as inaccessible (``a✝``), a cast ``↑``, an abbreviated term ``⋯``, a metavariable, several
goals. Everything else is left to the front-end, which reads the statement as Lean does or
refuses it. The block is the rendered theorem's proof (after ``:= by``), found by the front-end's
lexer and command splitter and re-indented to column 0, so it can go where ``prover?`` was, with
the hypothesis names of the context (:func:`tactic_block`); a hypothesis ``h : A ∧ B`` of the
context is first copied into its parts (``have h_1 : A := h.1``, where ``positivity`` sees them).

Nothing here runs Lean: the block is our kernel-checked proof rendered, and the replay model's
verdict on it, run in the goal's context (a model of Lean, not Lean), comes with it (``replay``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from prover.lean.render.statement import split_and

#: The name of the theorem built from the goal (another one if the context uses it).
THEOREM_NAME = "prover_goal"

#: Seconds past the time limit after which the search (or the rendering) is interrupted.
GRACE_S = 10.0


class GoalTextError(ValueError):
    """The goal text cannot be turned into a statement (one line, shown to the user)."""


@dataclass(frozen=True)
class Local:
    """One line of the context: ``names : type`` (``type`` on one line)."""

    names: tuple[str, ...]
    type: str

    @property
    def is_real(self) -> bool:
        return self.type in ("ℝ", "Real")


@dataclass(frozen=True)
class PrettyGoal:
    """A goal as Lean prints it: the context in order and the target."""

    context: tuple[Local, ...]
    target: str
    case: str | None = None

    def names(self) -> list[str]:
        return [n for loc in self.context for n in loc.names]

    def conjunction_copies(self) -> list[str]:
        """``have h_1 : A := h.1`` … for each hypothesis ``h : A ∧ B ∧ …`` of the context: the
        parts as hypotheses of their own, where ``positivity`` (which looks at hypotheses that are
        comparisons, never inside a conjunction) finds them. Each part is the context's own text,
        so its type is the part's, whatever our printer would write."""
        taken = set(self.names())
        lines = []
        for loc in self.context:
            parts = [] if loc.is_real else split_and(loc.type)
            if len(parts) < 2:
                continue
            for name in loc.names:
                base = name[1:-1] if name.startswith("«") and name.endswith("»") else name
                ref = f"({name})" if name.startswith("«") else name
                for i, part in enumerate(parts):
                    new = f"{base}_{i + 1}"
                    while new in taken:
                        new += "'"
                    taken.add(new)
                    new = f"«{new}»" if name.startswith("«") else new
                    path = ".2" * i + (".1" if i < len(parts) - 1 else "")
                    lines.append(f"have {new} : {part} := {ref}{path}")
        return lines

    def in_context(self, block: str, name: str = "t") -> str:
        """A file with ``block`` where Lean would run it in this context: after ``by`` in a theorem
        whose binders are the context's, names as printed, under ``import Mathlib`` alone (no
        ``open Real``: the user's file need not have it)."""
        binders = " ".join(f"({' '.join(loc.names)} : {loc.type})" for loc in self.context)
        body = "\n".join("  " + ln if ln else "" for ln in block.split("\n"))
        return f"import Mathlib\n\ntheorem {name} {binders} :\n    {self.target} := by\n{body}\n"

    def statement(self, name: str | None = None) -> str:
        """``theorem NAME (a b : ℝ) (h : P) … : TARGET := by sorry``, the binders in context order."""
        if name is None:
            taken = set(self.names())
            name, k = THEOREM_NAME, 2
            while name in taken:
                name, k = f"{THEOREM_NAME}_{k}", k + 1
        binders = [f"({' '.join(loc.names)} : ℝ)" if loc.is_real else " ".join(f"({n} : {loc.type})" for n in loc.names)
                   for loc in self.context]
        head = " ".join([f"theorem {name}", *binders])
        return f"{head} :\n    {self.target} := by\n  sorry\n"


# ------------------------------------------------------------------ reading the printed goal

_INACCESSIBLE = "✝"
#: Symbols of a proposition: a local whose type has none of them is a variable of that type.
_PROP_MARKS = ("≤", "<", "≥", ">", "=", "≠", "∧", "∨", "¬", "→", "↔", "∀", "∃", "∈", "∉", "⊆", "True", "False")
_GOALS_HEADER = re.compile(r"(\d+) goals?$")
#: A natural-number literal printed with its type (``pp.numericTypes``, which ``prover?`` sets).
_NAT_LITERAL = re.compile(r"\((\d+) : ℕ\)")


def _plain_nat_literals(text: str) -> str:
    """``x ^ (2 : ℕ)`` written ``x ^ 2``. In a goal the front-end reads (real variables, no casts) a
    natural-number literal can only be an exponent, where Lean reads the bare literal as the same
    natural number; the renderer reads the bare form."""
    return _NAT_LITERAL.sub(r"\1", text)


def _entries(text: str) -> list[str]:
    """The printed goal's entries: a line that starts at column 0 starts one, a line indented
    continues the one before (Lean's ``Format.nest``: joined with one space, as the pretty printer
    would have written it on a wider line)."""
    entries: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line[0] in " \t":
            if not entries:
                raise GoalTextError("the goal text starts with an indented line; give the goal as Lean prints it "
                                    "(`a b : ℝ`, `h : P` lines, then `⊢ goal`)")
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
    return entries


def _split_local(entry: str) -> tuple[tuple[str, ...], str]:
    """``names : type`` at the first ``:`` outside ``«…»`` (names cannot hold one)."""
    quoted = False
    for i, ch in enumerate(entry):
        if ch == "«":
            quoted = True
        elif ch == "»":
            quoted = False
        elif ch == ":" and not quoted:
            names = entry[:i].split()
            rest = entry[i + 1:]
            if not names:
                break
            if rest.startswith("="):
                raise GoalTextError(f"cannot read `{entry}`: expected `name : type`")
            return tuple(names), rest.strip()
    raise GoalTextError(f"cannot read the context line `{_short(entry)}`: expected `name : type` or `⊢ goal`")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _check_term(text: str, where: str) -> None:
    """Refuse what Lean printed but our statement would not mean the same: casts, abbreviations,
    metavariables."""
    if "↑" in text:
        raise GoalTextError(f"{where} has a cast `↑…` (a natural number or integer seen as a real); "
                            "only real variables are read — state it over ℝ")
    if "⋯" in text:
        raise GoalTextError(f"{where} has a term Lean abbreviated as `⋯`; print it in full "
                            "(`set_option pp.deepTerms true`, `set_option pp.maxSteps 1000000`)")
    if re.search(r"\?[\w_]", text):
        raise GoalTextError(f"{where} has a metavariable (`?…`); give a goal without holes")
    if _INACCESSIBLE in text:
        raise GoalTextError(f"{where} mentions an inaccessible name (`…✝`); name it first (`rename_i`, `intro x`)")


def read_goal(text: str) -> PrettyGoal:
    """The goal printed by Lean (``ppGoal``), or :class:`GoalTextError` in one line."""
    if not isinstance(text, str) or not text.strip():
        raise GoalTextError("empty goal text: give the goal as Lean prints it (`a b : ℝ`, `h : P` lines, `⊢ goal`)")
    entries = _entries(text.lstrip("\ufeff"))
    case = None
    if entries and (m := _GOALS_HEADER.fullmatch(entries[0].strip())):
        if int(m.group(1)) != 1:
            raise GoalTextError(f"{entries[0].strip()}: give one goal (the main goal, as `prover?` does)")
        entries = entries[1:]
    if entries and entries[0].startswith("case ") and len(entries[0].split()) == 2:
        case, entries = entries[0].split()[1], entries[1:]
    goals = [i for i, e in enumerate(entries) if e.startswith("⊢")]
    if any(e.startswith("| ") for e in entries):
        raise GoalTextError("a `conv` goal (`| …`) is not an inequality goal")
    if not goals:
        raise GoalTextError("no `⊢ goal` line: give the goal as Lean prints it, the goal after `⊢`")
    if len(goals) > 1 or any(e.startswith("case ") for e in entries):
        raise GoalTextError(f"{len(goals)} goals in the text: give one goal (the main goal, as `prover?` does)")
    if goals[0] != len(entries) - 1:
        raise GoalTextError(f"`{_short(entries[goals[0] + 1])}` after the `⊢` line: the goal comes last")
    target = _plain_nat_literals(entries[-1][1:].strip())
    if not target:
        raise GoalTextError("the `⊢` line is empty")
    _check_term(target, "the goal")
    context, seen = [], set()
    for entry in entries[:-1]:
        names, typ = _split_local(entry)
        typ = _plain_nat_literals(typ)
        for n in names:
            if _INACCESSIBLE in n:
                what = "an instance argument" if n.startswith("inst") else "an inaccessible name"
                raise GoalTextError(f"`{n} : {_short(typ, 40)}` is {what} (Lean shows it with ✝); "
                                    + ("only real variables and hypotheses are read"
                                       if n.startswith("inst") else "name it first (`rename_i`, `intro x`)"))
            if n in seen:
                raise GoalTextError(f"`{n}` is declared twice in the context")
            seen.add(n)
        if ":=" in typ:
            raise GoalTextError(f"`{' '.join(names)}` is a `let` with a value (`{_short(entry, 60)}`); "
                                "only variables and hypotheses are read (`clear_value` or `subst` it first)")
        if not typ:
            raise GoalTextError(f"`{' '.join(names)}` has no type")
        loc = Local(names, typ)
        if not loc.is_real and not any(m in typ for m in _PROP_MARKS):
            raise GoalTextError(f"`{' '.join(names)} : {_short(typ, 40)}`: only variables of type ℝ "
                                "and hypotheses about them are read")
        _check_term(typ, f"`{names[0]}`")
        context.append(loc)
    return PrettyGoal(tuple(context), target, case)


# ------------------------------------------------------------------ the tactic block of a rendered file

@dataclass(frozen=True)
class Block:
    """The proof of a rendered file's theorem, ready to go after ``by``."""

    lines: tuple[str, ...]          # re-indented: the block's own lines start at column 0
    max_heartbeats: int | None      # from ``set_option maxHeartbeats N in`` before the theorem
    imports: tuple[str, ...]        # modules besides Mathlib the file imports (``ProverLemmas``)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def indented(self, by: int) -> str:
        pad = " " * by
        return "\n".join(pad + ln if ln.strip() else "" for ln in self.lines)


def tactic_block(rendered: str) -> Block:
    """The tactic block of the one theorem of a rendered Lean file: the text after its ``:= by``
    to the end of the command (the front-end's lexer and command splitter find both, so comments
    and strings are never taken for either), re-indented to column 0."""
    from prover.frontend.lean_file import declarations, split_commands
    from prover.frontend.lexer import tokenize

    tokens = tokenize(rendered)
    commands = split_commands(tokens, rendered)
    decls = [d for d in declarations(tokens, commands) if d.keyword in ("theorem", "lemma")]
    if len(decls) != 1:
        raise ValueError(f"the rendered file has {len(decls)} theorems, expected one")
    c = commands[decls[0].index]
    assign = next((k for k in range(c.key, c.end) if tokens[k].kind == "op" and tokens[k].text == ":="), None)
    if assign is None or assign + 1 >= c.end or tokens[assign + 1].text != "by":
        raise ValueError("the rendered theorem has no `:= by` proof")
    by = tokens[assign + 1]
    last = tokens[c.end - 1]
    body = rendered[by.pos + len(by.text):last.pos + len(last.text)]
    first, _, rest = body.partition("\n")
    if first.strip():
        raise ValueError("the rendered proof starts on the `by` line")
    lines = rest.split("\n")
    pad = min((len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip()), default=0)
    lines = [ln[pad:].rstrip() if ln.strip() else "" for ln in lines]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise ValueError("the rendered proof is empty")
    m = re.search(r"^set_option maxHeartbeats (\d+) in$", rendered[:tokens[c.start].pos + 200], re.MULTILINE)
    imports = tuple(sorted({t for t in re.findall(r"^import\s+(\S+)", rendered, re.MULTILINE) if t != "Mathlib"}))
    return Block(tuple(lines), int(m.group(1)) if m else None, imports)


# ------------------------------------------------------------------ the whole command

class _TimeLimit(BaseException):
    """Raised by SIGALRM past the time limit (a BaseException: no ``except Exception`` eats it)."""


@dataclass
class Suggestion:
    """What ``prover lean suggest`` prints (``--json``: :meth:`to_json`)."""

    status: str                         # proved | not_proved | counterexample | timeout | error
    statement: str
    tactic: str | None = None
    lean: str | None = None
    time_s: float = 0.0
    error: str | None = None
    counterexample: dict[str, str] | None = None
    max_heartbeats: int | None = None
    imports: list[str] = field(default_factory=list)
    replay: str | None = None           # the replay model's verdict on the block in the context

    @property
    def ok(self) -> bool:
        return self.status == "proved" and self.tactic is not None

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "tactic": self.tactic, "lean": self.lean, "time_s": round(self.time_s, 3),
                "error": self.error, "counterexample": self.counterexample, "statement": self.statement,
                "max_heartbeats": self.max_heartbeats, "imports": self.imports, "replay": self.replay}


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def statement_of(text: str) -> tuple[str, Any]:
    """The theorem statement built from a printed goal and the front-end's :class:`Problem` of it.
    Raises :class:`GoalTextError` (one line) when either refuses."""
    from prover.api import parse
    from prover.frontend.errors import ParseError

    goal = read_goal(text)
    stmt = goal.statement()
    try:
        problem = parse(stmt, real_division=False)
    except ParseError as exc:
        msg = re.sub(r"\s*\(column \d+\)\s*$", "", _first_line(exc))
        raise GoalTextError(f"the goal is not read: {msg}") from None
    return stmt, problem


def replay_verdict(goal: PrettyGoal, block: str) -> str:
    """The replay model's verdict (a model of Lean, not Lean) on ``block`` run in ``goal``'s
    context, in one line: ``PASS …`` or ``FAIL …: first failure``."""
    from prover.lean.replay import replay_text

    try:
        report = replay_text(goal.in_context(block), "suggested.lean")
    except Exception as exc:  # noqa: BLE001 - the verdict is information; the block stands without it
        return f"not checked: {_first_line(exc)}"
    lines = report.summary().splitlines()
    verdict = lines[0] if lines else ("PASS" if report.ok else "FAIL")
    bad = next((st for st in report.steps if not st.ok), None)
    return verdict if bad is None else f"{verdict}; first failure: {bad.kind}: {bad.reason or bad.status}"[:500]


def suggest(text: str, time_limit: float = 60.0, closers_only: bool = False) -> Suggestion:
    """Prove the printed goal ``text`` and give the tactic block. :class:`GoalTextError` (one line)
    when the text cannot be read; every other outcome is a :class:`Suggestion`."""
    from prover.alarm import alarm_after
    from prover.api import prove

    goal = read_goal(text)
    stmt, problem = statement_of(text)
    t0 = time.monotonic()
    out = Suggestion("error", stmt)
    try:
        with alarm_after(time_limit + GRACE_S, _TimeLimit):
            result = prove(problem, time_limit=time_limit, closers_only=closers_only)
    except _TimeLimit:
        out.status, out.error = "timeout", f"stopped {GRACE_S:g} s past the time limit of {time_limit:g} s"
        out.time_s = time.monotonic() - t0
        return out
    out.status, out.time_s = result.status, result.time_s
    if result.status == "counterexample":
        out.counterexample = dict(result.counterexample or {})
        point = ", ".join(f"{k} = {v}" for k, v in out.counterexample.items())
        out.error = f"the goal is false: counterexample {point}" if point else "the goal is false"
    elif not result.proved:
        out.error = (_first_line(result.error) if result.error
                     else f"no proof found within the time limit of {time_limit:g} s")
    else:
        try:
            with alarm_after(time_limit + GRACE_S, _TimeLimit):
                out.lean = result.lean_text()
            block = tactic_block(out.lean)
        except _TimeLimit:
            out.error = "proved by the kernel, but the Lean rendering ran past the time limit"
        except Exception as exc:  # noqa: BLE001 - a renderer failure is reported, never a traceback
            out.error = f"proved by the kernel, but the Lean rendering failed: {_first_line(exc)}"
        else:
            out.tactic = "\n".join([*goal.conjunction_copies(), *block.lines])
            out.max_heartbeats, out.imports = block.max_heartbeats, list(block.imports)
            out.replay = replay_verdict(goal, out.tactic)
    out.time_s = time.monotonic() - t0
    return out


__all__ = ["THEOREM_NAME", "Block", "GoalTextError", "Local", "PrettyGoal", "Suggestion", "read_goal",
           "replay_verdict", "split_and", "statement_of", "suggest", "tactic_block"]
