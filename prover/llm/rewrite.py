"""LLM rewriting: ask for an equal form of the goal's slack, keep only what is proved equal.

An output becomes a candidate ``rewrite`` step only when ``slack(G) - E`` is an exact identity,
or vanishes modulo the equality hypotheses with explicit multipliers (the step's ``eq_terms``).
The kernel checks the step again; anything else is dropped and counted in ``LLMStats``.
"""

from __future__ import annotations

import re

import sympy as sp

from prover.ir import Goal, IRError, Step, expr_from_str
from prover.llm.base import GenerationParams, LLMBackend, LLMError, LLMStats
from prover.llm.prompts import goal_fields, load_prompts
from prover.problem import Relation
from prover.rewrite.base import Candidate, equality_hyps, symbols_of
from prover.rewrite.base import rewrite_step as build_rewrite_step

_FENCE = re.compile(r"```[a-zA-Z]*|`|\$")


def parse_candidate(text: str, variables: tuple[str, ...]) -> sp.Expr | None:
    """The first line of an LLM answer as an exact expression, or None."""
    line = _FENCE.sub("", text).strip().splitlines()[0] if text.strip() else ""
    line = line.split(":=")[-1].strip().rstrip(".").replace("^", "**").replace("√", "sqrt")
    line = re.sub(r"Real\.sqrt", "sqrt", line)
    if not line or "=" in line or "<" in line or ">" in line:
        return None
    try:
        return expr_from_str(line, variables)
    except IRError:
        return None


def equality_multipliers(diff: sp.Expr, goal: Goal) -> list[tuple[int, sp.Expr]] | None:
    """Multipliers ``λ_j`` with ``diff = Σ λ_j · eq(H_j)`` exactly, or None."""
    num, den = sp.fraction(sp.together(diff))
    syms = symbols_of(goal)
    num = sp.expand(num)
    if num == 0:
        return []
    polys = [(i, e) for i, e in equality_hyps(goal) if e.is_polynomial(*syms) and e != 0]
    if not polys or not num.is_polynomial(*syms):
        return None
    quotients, rem = sp.reduced(num, [e for _, e in polys], *syms)
    if sp.expand(rem) != 0:
        return None
    return [(i, sp.cancel(q / den)) for (i, _), q in zip(polys, quotients) if q != 0]


def rewrite_step(goal: Goal, new_slack: sp.Expr, note: str) -> Step | None:
    """A ``rewrite`` step from ``goal`` to ``0 op new_slack`` if the two slacks are provably equal."""
    t = goal.target
    if not t.is_inequality:
        return None
    lam = equality_multipliers(t.slack() - new_slack, goal)
    if lam is None:
        return None
    new_op = "<" if t.strict else "<="
    return build_rewrite_step(goal, Relation(sp.Integer(0), new_op, new_slack), sp.Integer(1), lam, note=note)


class LLMRewriter:
    """Proposes rewrites of a goal with an LLM; every kept candidate is exactly valid.

    It is a tactic generator for the search (``name``, ``generate``).
    """

    name = "llm-rewrite"

    def __init__(self, backend: LLMBackend, params: GenerationParams | None = None,
                 kinds: tuple[str, ...] | None = None) -> None:
        self.backend = backend
        self.params = params or GenerationParams()
        book = load_prompts()
        self.templates = {k: v for k, v in book.kinds.items() if kinds is None or k in kinds}
        self.stats = LLMStats()

    def generate(self, goal: Goal) -> list[Candidate]:
        return self.propose(goal)

    def propose(self, goal: Goal) -> list[Candidate]:
        fields = goal_fields(goal)
        kinds = list(self.templates)
        prompts = [self.templates[k].format(**fields) for k in kinds]
        self.stats.calls += len(prompts)
        try:
            answers = self.backend.generate(prompts, self.params)
        except LLMError as exc:
            self.stats.errors.append(str(exc))
            return []
        out: list[Candidate] = []
        seen: set[str] = set()
        for kind, texts in zip(kinds, answers):
            for text in texts:
                self.stats.outputs += 1
                expr = parse_candidate(text, goal.variables)
                if expr is None:
                    self.stats.rejected_unparseable += 1
                    continue
                self.stats.parseable += 1
                key = sp.srepr(expr)
                if key in seen:
                    continue
                seen.add(key)
                step = rewrite_step(goal, expr, note=f"llm:{kind}")
                if step is None:
                    self.stats.rejected_not_equal += 1
                    continue
                self.stats.valid_rewrites += 1
                out.append(Candidate(step, f"llm:{kind}", 1.0 / (1 + sp.count_ops(expr))))
        return out
