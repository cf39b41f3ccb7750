"""The problem a user hands us: real variables, named hypotheses, one goal relation.

Expressions are exact sympy expressions over the rationals (never floats). Variables are
sympy Symbols created with ``real=True`` (see :func:`var`), so every module that builds
expressions must create its symbols through :func:`var` to compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.kernel.terms import Rel

#: Relation operators, written the ASCII way. ``!=`` is Lean's ``≠``.
OPS: tuple[str, ...] = ("<=", "<", ">=", ">", "=", "!=")
LEAN_OPS: dict[str, str] = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "=": "=", "!=": "≠"}


def var(name: str) -> sp.Symbol:
    """The one way to make a problem variable (real-valued sympy Symbol)."""
    return sp.Symbol(name, real=True)


class exp(sp.exp):
    """``Real.exp`` as the user wrote it: sympy's ``exp`` without its rewriting (``exp(x)**2`` stays a
    square, ``exp(x)·exp(-x)`` a product, ``exp(log(x))`` is not ``x``: Lean's ``ring`` sees the
    atoms as written, and ``exp (log x) = x`` holds only for ``x > 0``). Only ``exp 0 = 1``."""

    @classmethod
    def eval(cls, arg: sp.Expr) -> sp.Expr | None:
        return sp.S.One if arg == 0 else None

    def _eval_power(self, e: sp.Expr) -> None:
        return None

    def as_base_exp(self) -> tuple[sp.Expr, sp.Expr]:
        return self, sp.S.One


class log(sp.log):
    """``Real.log`` as the user wrote it (``log 0 = log 1 = 0``, nothing else evaluated: sympy's
    ``log (-2)`` is complex, Lean's is ``log 2``)."""

    @classmethod
    def eval(cls, arg: sp.Expr, base: sp.Expr | None = None) -> sp.Expr | None:
        return sp.S.Zero if arg in (0, 1) else None


@dataclass(frozen=True)
class Relation:
    """``lhs op rhs`` with exact sympy expressions."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown relation operator {self.op!r}")

    @property
    def is_inequality(self) -> bool:
        return self.op in ("<=", "<", ">=", ">")

    @property
    def strict(self) -> bool:
        return self.op in ("<", ">")

    def slack(self) -> sp.Expr:
        """The expression that must be >= 0 (> 0 when strict) for the relation to hold.

        For ``=`` and ``!=`` it is ``lhs - rhs`` (must be 0, resp. nonzero).
        """
        if self.op in ("<=", "<"):
            return self.rhs - self.lhs
        return self.lhs - self.rhs

    def free_symbols(self) -> set[sp.Symbol]:
        return set(sp.sympify(self.lhs).free_symbols) | set(sp.sympify(self.rhs).free_symbols)

    def subs(self, mapping: dict) -> Relation:
        return Relation(sp.sympify(self.lhs).subs(mapping), self.op, sp.sympify(self.rhs).subs(mapping))


@dataclass(frozen=True)
class Hypothesis:
    name: str
    rel: Relation


@dataclass(frozen=True)
class FaithfulStatement:
    """The statement as Lean reads it, in kernel terms (no sympy simplification): one
    :class:`~prover.kernel.terms.Rel` per entry of ``Problem.hypotheses`` (same order) and the goal.
    The front-end has checked with the kernel that the sympy relations mean the same."""

    hypotheses: tuple[Rel, ...]
    goal: Rel
    #: a goal ``A ∧ B ∧ …``: every part (``goal`` is then the first), else empty
    goal_parts: tuple[Rel, ...] = ()

    def part(self, i: int) -> FaithfulStatement:
        """The statement whose goal is part ``i`` of a conjunction (same hypotheses)."""
        return FaithfulStatement(self.hypotheses, self.goal_parts[i])


@dataclass
class Problem:
    """A theorem statement: ``∀ variables, hypotheses → goal``.

    ``hypotheses`` may hold several entries that came from one Lean binder with ``∧``; they
    then share the binder's name with a suffix ``.1``, ``.2``… (see the front-end).
    ``faithful`` is set by the front-end for every statement it parses; a problem rewritten from
    another (a variant, a subgoal) has none. It does not take part in ``==``.

    A goal that is a conjunction ``A ∧ B ∧ …`` (``∧`` is right-associative) has its parts in
    ``goal_parts`` and ``goal`` is the first part; such a problem is proved only when every part
    is (:meth:`part` is the problem of one part: same hypotheses). ``prove_problem`` splits it;
    the search itself never sees one.
    """

    name: str
    variables: list[str]
    hypotheses: list[Hypothesis]
    goal: Relation
    real_division: bool = True
    source: str | None = None
    meta: dict = field(default_factory=dict)
    faithful: FaithfulStatement | None = None
    goal_parts: tuple[Relation, ...] = ()
    #: a statement over n terms (:class:`prover.frontend.nterm.NTermReading`): this problem is then
    #: its atom-level statement (one real variable per sum)
    nterm: Any = None

    @property
    def is_conjunction(self) -> bool:
        return len(self.goal_parts) > 1

    def part(self, i: int) -> Problem:
        """The problem of part ``i`` of a conjunction goal: same variables and hypotheses, goal the
        part, no Lean text of its own (it is not the user's statement)."""
        meta = {k: v for k, v in self.meta.items() if k not in ("lean", "lean_name")}
        meta["conjunction_part"] = [i + 1, len(self.goal_parts)]
        faithful = self.faithful.part(i) if self.faithful is not None and self.faithful.goal_parts else None
        return Problem(self.name, list(self.variables), list(self.hypotheses), self.goal_parts[i],
                       real_division=self.real_division, source=self.source, meta=meta, faithful=faithful)

    @property
    def symbols(self) -> list[sp.Symbol]:
        return [var(v) for v in self.variables]

    def hypothesis_relations(self) -> list[Relation]:
        return [h.rel for h in self.hypotheses]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (
            self.name == other.name
            and self.variables == other.variables
            and self.hypotheses == other.hypotheses
            and self.goal == other.goal
            and tuple(self.goal_parts) == tuple(other.goal_parts)
            and self.nterm == other.nterm
        )
