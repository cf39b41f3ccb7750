"""One entry of a goal's local context: a variable or a hypothesis (its own module, so that the term
readers can make locals without importing the goals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Local:
    uid: str
    name: str
    is_var: bool
    type: Any            # REAL for variables (``ℝ → … → ℝ`` for function locals), a proposition for hypotheses
