"""The kernel's reading of a proof file: goals and steps over kernel terms.

A proof reaches the kernel as JSON (the ``prover-proof`` format written by ``prover/ir.py``;
objects with a ``to_json()`` method are serialised first). Every expression string is read by
:func:`prover.kernel.terms.parse_term` — never by sympy — and the step tree is walked without
recursion, with bounds on its size, so a hostile file can neither run code nor exhaust the
stack. The meaning of each step kind and certificate is the docstring of ``prover/ir.py``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from prover.kernel import terms as T

FORMAT = "prover-proof"
VERSION = 1
STEP_KINDS = ("close", "rewrite", "scale", "split", "introduce", "substitute", "combine", "square", "monotone")
MAX_STEPS = 100_000
MAX_VARIABLES = 200


class IRError(ValueError):
    """A malformed proof file (not a rejected proof: that is a kernel verdict)."""


def as_json(obj: Any) -> Any:
    """A JSON value for ``obj``: itself, or ``obj.to_json()`` for the project's IR objects."""
    to_json = getattr(obj, "to_json", None)
    return to_json() if callable(to_json) and not isinstance(obj, (dict, list, str)) else obj


@functools.lru_cache(maxsize=16384)
def _parse_cached(s: str, variables: tuple[str, ...]) -> T.Term:
    return T.parse_term(s, variables)


def read_expr(s: Any, variables: tuple[str, ...] | list[str], what: str = "expression") -> T.Term:
    if isinstance(s, int) and not isinstance(s, bool):
        s = str(s)
    if not isinstance(s, str):
        raise IRError(f"{what}: expected an expression string, got {type(s).__name__}")
    try:
        return _parse_cached(s, tuple(variables))
    except T.TermError as exc:
        raise IRError(f"{what}: {exc}") from None


def read_rel(d: Any, variables: tuple[str, ...] | list[str], what: str = "relation") -> T.Rel:
    if not isinstance(d, dict):
        raise IRError(f"{what}: expected an object with lhs, op, rhs")
    op = d.get("op")
    if op not in T.OPS:
        raise IRError(f"{what}: unknown relation operator {op!r}")
    return T.Rel(read_expr(d.get("lhs"), variables, what), op, read_expr(d.get("rhs"), variables, what))


def _variables(d: Any, what: str) -> tuple[str, ...]:
    if not isinstance(d, list) or len(d) > MAX_VARIABLES or not all(isinstance(v, str) for v in d):
        raise IRError(f"{what}: 'variables' must be a list of names")
    for v in d:
        if not v or not (v[0].isalpha()) or not all(c.isalnum() or c in "_'" for c in v) \
                or v in T.FUNCTIONS or v in T.CONSTANTS:
            raise IRError(f"{what}: {v!r} is not a valid variable name")
    if len(set(d)) != len(d):
        raise IRError(f"{what}: repeated variable names")
    return tuple(d)


@dataclass(frozen=True)
class Goal:
    """``∀ variables, hypotheses → target`` in kernel terms."""

    variables: tuple[str, ...]
    hypotheses: tuple[T.Rel, ...]
    target: T.Rel

    def with_hypotheses(self, extra: tuple[T.Rel, ...] | list[T.Rel]) -> Goal:
        return Goal(self.variables, self.hypotheses + tuple(extra), self.target)

    def with_target(self, target: T.Rel) -> Goal:
        return Goal(self.variables, self.hypotheses, target)

    @staticmethod
    def from_json(d: Any, what: str = "goal") -> Goal:
        d = as_json(d)
        if not isinstance(d, dict):
            raise IRError(f"{what}: expected an object")
        vs = _variables(d.get("variables"), what)
        hyps = d.get("hypotheses")
        if not isinstance(hyps, list):
            raise IRError(f"{what}: 'hypotheses' must be a list")
        return Goal(vs, tuple(read_rel(h, vs, f"{what} hypothesis {i}") for i, h in enumerate(hyps)),
                    read_rel(d.get("target"), vs, f"{what} target"))


@dataclass(frozen=True)
class Statement:
    """A theorem as the front-end read it, faithfully: the proof's root goal must say the same."""

    variables: tuple[str, ...]
    hypotheses: tuple[T.Rel, ...]
    goal: T.Rel


@dataclass
class Step:
    kind: str
    goal: Goal
    subgoals: list[Goal]
    certificate: Any
    children: list[Step] = field(default_factory=list)


def parse_step_tree(d: Any) -> Step:
    """Read a step tree iteratively (a 3,000-deep tree must not exhaust Python's stack)."""
    d = as_json(d)
    root_holder: list[Step] = []
    stack: list[tuple[Any, list[Step], str]] = [(d, root_holder, "root")]
    count = 0
    while stack:
        node, out, path = stack.pop()
        count += 1
        if count > MAX_STEPS:
            raise IRError(f"more than {MAX_STEPS} steps")
        if not isinstance(node, dict):
            raise IRError(f"{path}: a step must be an object")
        kind = node.get("kind")
        if kind not in STEP_KINDS:
            raise IRError(f"{path}: unknown step kind {kind!r}")
        subgoals = node.get("subgoals")
        children = node.get("children", [])
        if not isinstance(subgoals, list) or not isinstance(children, list):
            raise IRError(f"{path}: 'subgoals' and 'children' must be lists")
        step = Step(kind, Goal.from_json(node.get("goal"), f"{path} goal"),
                    [Goal.from_json(g, f"{path} subgoal {i}") for i, g in enumerate(subgoals)],
                    node.get("certificate"))
        out.append(step)
        for i in range(len(children) - 1, -1, -1):
            stack.append((children[i], step.children, f"{path}/{i}"))
    return root_holder[0]  # children are pushed last-first, so each list fills in order


def steps_of(root: Step) -> list[tuple[Step, str]]:
    """All steps with their paths, parents before children (iterative)."""
    out: list[tuple[Step, str]] = []
    stack = [(root, "root")]
    while stack:
        s, p = stack.pop()
        out.append((s, p))
        for i in range(len(s.children) - 1, -1, -1):
            stack.append((s.children[i], f"{p}/{i}"))
    return out


def parse_problem(d: Any) -> tuple[Goal, Statement | None]:
    """The proof file's problem as a goal, and its faithful statement when the file has one."""
    if not isinstance(d, dict):
        raise IRError("'problem' must be an object")
    vs = _variables(d.get("variables"), "problem")
    hyps = d.get("hypotheses")
    if not isinstance(hyps, list):
        raise IRError("problem: 'hypotheses' must be a list")
    goal = Goal(vs, tuple(read_rel(h, vs, f"problem hypothesis {i}") for i, h in enumerate(hyps)),
                read_rel(d.get("goal"), vs, "problem goal"))
    st = d.get("statement")
    statement = None
    if st is not None:
        if not isinstance(st, dict) or not isinstance(st.get("hypotheses"), list):
            raise IRError("problem: 'statement' must be an object with 'hypotheses' and 'goal'")
        statement = Statement(vs, tuple(read_rel(h, vs, f"statement hypothesis {i}")
                                        for i, h in enumerate(st["hypotheses"])),
                              read_rel(st.get("goal"), vs, "statement goal"))
    return goal, statement


def parse_proof(d: Any) -> tuple[Goal, Statement | None, Step]:
    d = as_json(d)
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise IRError(f"not a {FORMAT} file")
    if d.get("version") != VERSION:
        raise IRError(f"unsupported proof format version {d.get('version')!r} (this is {VERSION})")
    goal, statement = parse_problem(d.get("problem"))
    return goal, statement, parse_step_tree(d.get("root"))
