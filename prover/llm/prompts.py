"""Rewrite and ranking prompts, kept as data in ``tactics/prompts/rewrites.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from prover.ir import Goal

PROMPTS_FILE = Path(__file__).resolve().parents[2] / "tactics" / "prompts" / "rewrites.json"


@dataclass(frozen=True)
class PromptBook:
    system: str
    kinds: dict[str, str]          # rewrite kind -> template
    ranker: str


@lru_cache(maxsize=1)
def load_prompts(path: str | None = None) -> PromptBook:
    data = json.loads(Path(path or PROMPTS_FILE).read_text())
    return PromptBook(data["system"], {k: v["template"] for k, v in data["kinds"].items()},
                      data["ranker"]["template"])


def goal_fields(goal: Goal) -> dict[str, str]:
    """Plain-text pieces of a goal for prompt templates (sympy syntax with ^ for powers)."""
    def show(e) -> str:
        return str(e).replace("**", "^")

    hyps = "; ".join(f"{show(h.lhs)} {h.op} {show(h.rhs)}" for h in goal.hypotheses) or "none"
    t = goal.target
    return {"variables": ", ".join(goal.variables), "hypotheses": hyps,
            "goal": f"{show(t.lhs)} {t.op} {show(t.rhs)}", "expr": show(t.slack())}
