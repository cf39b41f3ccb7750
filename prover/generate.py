"""Python API: candidate tactics for a goal, ranked, each with the goals it leaves.

    from prover.generate import suggest_tactics
    for t in suggest_tactics("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 2 / (a + b) ≤ (1/a + 1/b) / 2"):
        print(t.describe())

Sources: the symbolic rewrites (``prover.rewrite``), catalogue scalings (``prover.tactics``)
and, when an LLM is given, LLM rewrites (``prover.llm``) — every LLM output is proved equal
exactly before it becomes a candidate. Each suggestion is checked by the kernel on its own
(``kernel_ok``); its resulting goals still need proofs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prover.ir import Goal, Step
from prover.llm.base import LLMBackend, LLMStats
from prover.problem import Problem


@dataclass
class TacticSuggestion:
    source: str                 # e.g. "rewrite:clear-denominators", "catalogue", "llm:factor"
    kind: str                   # the IR step kind (rewrite, scale, substitute, …)
    score: float                # higher is better
    step: Step
    goals: list[Goal]           # what is left to prove after this step
    kernel_ok: bool             # the step itself passes the kernel (its subgoals are open)

    def describe(self) -> str:
        left = "; ".join(f"{g.target.lhs} {g.target.op} {g.target.rhs}" for g in self.goals) or "nothing"
        return f"[{self.score:.3f}] {self.source} ({self.kind}{', kernel-checked' if self.kernel_ok else ''}) -> {left}"


@dataclass
class Suggestions:
    items: list[TacticSuggestion]
    llm_stats: LLMStats | None = None
    errors: list[str] = field(default_factory=list)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def _as_goal(target: Goal | Problem | str, real_division: bool) -> Goal:
    if isinstance(target, Goal):
        return target
    if isinstance(target, str):
        from prover.frontend import parse_theorem

        target = parse_theorem(target, real_division=real_division)
    return Goal.from_problem(target)


def _generators(time_limit: float, llm: Any) -> tuple[list[Any], Any]:
    from prover.rewrite import default_generators
    from prover.search.hooks import CatalogueGenerator

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


def suggest_tactics(target: Goal | Problem | str, *, llm: str | LLMBackend | None = None,
                    limit: int = 20, time_limit: float = 10.0, real_division: bool = False) -> Suggestions:
    """Ranked candidate tactics for ``target`` (a Goal, a Problem or a Lean theorem statement).

    ``llm`` is a spec string as for ``--llm`` (``hf:PATH``, ``http://HOST/v1#MODEL``,
    ``vllm:MODEL``) or a backend object. A Lean statement that cannot be read raises
    ``prover.frontend.ParseError``.
    """
    from prover.search.hooks import check_step_local

    goal = _as_goal(target, real_division)
    gens, rewriter = _generators(time_limit, llm)
    out: list[TacticSuggestion] = []
    errors: list[str] = []
    for gen in gens:
        try:
            cands = list(gen.generate(goal))
        except Exception as exc:  # noqa: BLE001 - one failing generator must not hide the others
            errors.append(f"{getattr(gen, 'name', type(gen).__name__)}: {type(exc).__name__}: {exc}")
            continue
        for c in cands:
            ok = check_step_local(c.step)
            out.append(TacticSuggestion(c.source, c.step.kind, float(c.score), c.step,
                                        list(c.step.subgoals), bool(ok)))
    out.sort(key=lambda t: (not t.kernel_ok, -t.score))
    return Suggestions(out[:limit], rewriter.stats if rewriter else None, errors)
