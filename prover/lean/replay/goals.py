"""Goals and their local contexts (hypotheses and variables)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from prover.lean.replay.local import Local
from prover.lean.replay.term_parser import Scope
from prover.lean.replay.terms import NAT, family_domain, fin_bound, fun_arity

__all__ = ["Goal", "Local"]

@dataclass
class Goal:
    ctx: tuple[Local, ...]
    target: Any
    unknown: str = ""    # non-empty: the goal after an unmodelled tactic (its reason)

    def scope(self, base: Scope) -> Scope:
        s = Scope({}, base.opens, base.namespace, base.counter, base.real_division)
        for loc in self.ctx:
            s.names[loc.name] = loc.uid
            n = fun_arity(loc.type) if loc.is_var else None
            if n is not None:
                s.functions[loc.uid] = n
            if loc.is_var and (loc.type == NAT or fin_bound(loc.type) is not None
                               or family_domain(loc.type) is not None):
                s.types[loc.uid] = loc.type
        return s

    def local(self, uid: str) -> Local | None:
        for loc in reversed(self.ctx):
            if loc.uid == uid:
                return loc
        return None

    def add(self, loc: Local) -> Goal:
        return Goal(self.ctx + (loc,), self.target, self.unknown)

    def with_target(self, t: Any) -> Goal:
        return Goal(self.ctx, t, self.unknown)


def _is_prop(t: Any) -> bool:
    """A proposition the model reads (an interval membership ``x ∈ Set.Icc a b`` included: it is
    kept as written, and only projections and defeq checks unfold it)."""
    from prover.lean.replay.terms import unfold_mem

    return isinstance(t, tuple) and t[0] in ("rel", "and", "or", "imp", "iff", "not", "forall", "exists") or (
        t == ("const", "True") or t == ("const", "False")) or unfold_mem(t) is not None


def _rel(t: Any) -> tuple[str, Any, Any] | None:
    """``(op, a, b)`` of a comparison with ``≥``/``>`` unfolded (``whnfR``), else None."""
    if isinstance(t, tuple) and t[0] == "rel":
        op, a, b = t[1], t[2], t[3]
        if op == "≥":
            return "≤", b, a
        if op == ">":
            return "<", b, a
        return op, a, b
    return None
