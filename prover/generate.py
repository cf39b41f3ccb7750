"""Python API: candidate tactics for a goal, ranked, each with the goals it leaves.

    from prover import suggest_tactics
    for t in suggest_tactics("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 2 / (a + b) ≤ (1/a + 1/b) / 2"):
        print(t.describe())     # goals in Lean notation
        print(t.tactic)         # the step as Lean 4 tactic text (None when the renderer refuses it)

Sources: the symbolic rewrites (``prover.rewrite``), catalogue scalings (``prover.tactics``)
and, when an LLM is given, LLM rewrites (``prover.llm``) — every LLM output is proved equal
exactly before it becomes a candidate. Each suggestion is checked by the kernel on its own
(``kernel_ok``); its resulting goals still need proofs. A step whose every resulting goal is
trivially true (``X ≤ X``, ``1 ≥ 0``) comes with those goals closed (``closes``: it proves the
goal outright); a step that leaves the goal as it was is dropped, and suggestions with the same
source, kind and resulting goals are listed once (the best scored).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.ir import Goal, Step
from prover.llm.base import LLMBackend, LLMStats
from prover.problem import Hypothesis, Problem, Relation


def lean_relation(r: Relation) -> str:
    """``r`` in Lean 4 notation (the front-end's printer), ``str`` as a last resort."""
    from prover.frontend.printer import PrintError, print_relation

    try:
        return print_relation(r)
    except (PrintError, ValueError, TypeError):
        try:
            from prover.lean.syntax import lean_rel

            return lean_rel(r)
        except Exception:  # noqa: BLE001 - a description must never fail
            return f"{r.lhs} {r.op} {r.rhs}"


@dataclass
class TacticSuggestion:
    source: str                 # e.g. "rewrite:clear-denominators", "catalogue", "llm:factor"
    kind: str                   # the IR step kind (rewrite, scale, substitute, …)
    score: float                # higher is better
    step: Step
    goals: list[Goal]           # what is left to prove after this step (empty: it closes the goal)
    kernel_ok: bool             # the step itself passes the kernel (its subgoals are open)
    tactic: str | None = None   # the step as Lean 4 tactic text, run after `:= by` on the statement
    note: str = ""              # what the step does, e.g. "amhm2 at rhs sub-sum"

    @property
    def closes(self) -> bool:
        """True when nothing is left to prove: the step (with its trivial goals closed) proves it."""
        return not self.goals

    def goal_texts(self) -> list[str]:
        """The goals left, each in Lean 4 notation."""
        return [lean_relation(g.target) for g in self.goals]

    def describe(self) -> str:
        left = "; ".join(self.goal_texts()) or "closes the goal"
        note = f": {self.note}" if self.note else ""
        return (f"[{self.score:.3f}] {self.source} ({self.kind}{', kernel-checked' if self.kernel_ok else ''})"
                f"{note} -> {left}")


@dataclass
class Suggestions:
    items: list[TacticSuggestion]
    llm_stats: LLMStats | None = None
    errors: list[str] = field(default_factory=list)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> TacticSuggestion:
        return self.items[i]


def _as_problem(target: Goal | Problem | str, real_division: bool) -> Problem:
    """The problem the suggestions are for; a bare Goal gets hypotheses named ``h1``, ``h2``, …"""
    if isinstance(target, Problem):
        return target
    if isinstance(target, Goal):
        hyps = [Hypothesis(f"h{i}", r) for i, r in enumerate(target.hypotheses, 1)]
        return Problem("goal", list(target.variables), hyps, target.target, real_division=real_division)
    if isinstance(target, str):
        from prover.frontend import parse_theorem

        return parse_theorem(target, real_division=real_division)
    raise TypeError(f"expected a Goal, a Problem or a Lean statement, not {type(target).__name__}")


def _generators(time_limit: float, llm: Any) -> tuple[list[Any], Any]:
    from prover.rewrite import default_generators
    from prover.search.services import CatalogueGenerator

    gens: list[Any] = list(default_generators())
    cat = CatalogueGenerator(budget=lambda: time_limit)
    if cat.available:
        gens.append(cat)
    rewriter = None
    if llm is not None:
        from prover.llm.rewrite import LLMRewriter
        from prover.llm.spec import make_backend

        backend: LLMBackend | None = make_backend(llm) if isinstance(llm, str) else llm
        if backend is not None:
            rewriter = LLMRewriter(backend)
            gens.append(rewriter)
    return gens, rewriter


def _same_goal(a: Goal, b: Goal) -> bool:
    """``b`` is ``a`` as written (same variables and hypotheses, the same target, possibly the
    other way round: ``x ≤ y`` / ``y ≥ x``): a step from ``a`` to ``b`` makes no progress. A
    rewrite into an equal but different expression is progress, so the comparison is syntactic."""
    if tuple(a.variables) != tuple(b.variables) or set(a.hypotheses) != set(b.hypotheses):
        return False

    def oriented(r: Relation) -> tuple:
        flip = {">=": "<=", ">": "<"}
        if r.op in flip:
            return (sp.sympify(r.rhs), flip[r.op], sp.sympify(r.lhs))
        return (sp.sympify(r.lhs), r.op, sp.sympify(r.rhs))

    x, y = oriented(a.target), oriented(b.target)
    return x == y or (x[1] in ("=", "!=") and x == (y[2], y[1], y[0]))


def _open_goals(step: Step) -> list[Goal]:
    """The goals a (possibly partial) proof tree leaves: subgoals of steps without children."""
    return [g for s in step.walk() if not s.children for g in s.subgoals]


def _close_trivial_goals(step: Step) -> Step | None:
    """``step`` with each of its subgoals closed by a one-step kernel-checked proof when every one
    of them is trivially true (``X ≤ X``, ``X = X``, ``1 ≥ 0``, ``x ^ 2 ≥ 0``); else None."""
    from prover.search.close import close_trivial

    if step.children or not step.subgoals:
        return None
    kids = []
    for g in step.subgoals:
        try:
            c = close_trivial(g)
        except Exception:  # noqa: BLE001 - then it is not trivial
            c = None
        if c is None:
            return None
        kids.append(c)
    return dataclasses.replace(step, children=kids)


def _tactic_text(step: Step, problem: Problem, lemmas: Any) -> str | None:
    """The step (and its children) as Lean 4 tactic text for the problem's statement, after
    ``:= by``; None when the Lean renderer refuses a step (e.g. a rational substitution)."""
    try:
        from prover.lean.render import hypothesis_refs, root_prelude, step_block

        _, refs = hypothesis_refs(problem)
        counter = itertools.count(1)

        def tree(s: Step, names: list[str]) -> list[str]:
            block = step_block(s, names, lemmas=lemmas, counter=counter)
            lines = list(block.lines)
            kids = [tree(c, list(n)) for c, n in zip(s.children, block.child_names)]
            if len(kids) == 1:
                return lines + kids[0]
            for k in kids:
                lines.append(f"· {k[0]}")
                lines += ["  " + line for line in k[1:]]
            return lines

        return "\n".join(root_prelude(problem, refs) + tree(step, list(refs)))
    except Exception:  # noqa: BLE001 - RenderError or anything else: no Lean text for this one
        return None


def suggest_tactics(target: Goal | Problem | str, *, llm: str | LLMBackend | None = None,
                    limit: int = 20, time_limit: float = 10.0, real_division: bool = False) -> Suggestions:
    """Ranked candidate tactics for ``target`` (a Goal, a Problem or a Lean theorem statement).

    ``llm`` is a spec string as for ``--llm`` (``hf:PATH``, ``http://HOST/v1#MODEL``,
    ``vllm:MODEL``) or a backend object. A Lean statement that cannot be read raises
    ``prover.frontend.ParseError``. Kernel-checked steps come first, then the ones that close the
    goal, then by score; goals are printed in Lean notation and each suggestion carries its Lean
    tactic text (``tactic``).
    """
    from prover.lean.render import catalogue_lookup
    from prover.search.services import check_step_local

    problem = _as_problem(target, real_division)
    goal = target if isinstance(target, Goal) else Goal.from_problem(problem)
    gens, rewriter = _generators(time_limit, llm)
    found: list[TacticSuggestion] = []
    errors: list[str] = []
    for gen in gens:
        try:
            cands = list(gen.generate(goal))
        except Exception as exc:  # noqa: BLE001 - one failing generator must not hide the others
            errors.append(f"{getattr(gen, 'name', type(gen).__name__)}: {type(exc).__name__}: {exc}")
            continue
        for c in cands:
            step = c.step
            if not step.children and len(step.subgoals) == 1 and _same_goal(goal, step.subgoals[0]):
                continue    # leaves the goal as it was
            ok = all(bool(check_step_local(s)) for s in step.walk())
            if ok:
                step = _close_trivial_goals(step) or step
            found.append(TacticSuggestion(c.source, step.kind, float(c.score), step, _open_goals(step), ok,
                                          note=step.note))
    found.sort(key=lambda t: (not t.kernel_ok, not t.closes, -t.score))
    out: list[TacticSuggestion] = []
    seen: set[tuple] = set()
    for t in found:
        key = (t.source, t.kind, tuple((lean_relation(g.target), tuple(sorted(map(str, g.hypotheses))))
                                      for g in t.goals))
        if key not in seen:
            seen.add(key)
            out.append(t)
    out = out[:limit]
    lemmas = catalogue_lookup()
    for t in out:
        t.tactic = _tactic_text(t.step, problem, lemmas)
    return Suggestions(out, rewriter.stats if rewriter else None, errors)
