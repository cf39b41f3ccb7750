"""The Lean backends by name: :func:`make_backend` (``--backend lean-repl|lean-dojo``).

A module of its own so that the interface (:mod:`prover.lean.backend`) does not import its
implementations (:mod:`prover.lean.dojo_backend` imports the interface). LeanDojo itself, an
optional package, is imported only when a :class:`DojoBackend` is made.
"""

from __future__ import annotations

from prover.lean.backend import BACKEND_NAMES, LeanBackend, LeanUnavailable, ReplBackend
from prover.lean.dojo_backend import DojoBackend


def make_backend(name: str, *, timeout: float = 60.0, **kw: object) -> LeanBackend:
    """``lean-repl`` or ``lean-dojo``; raises :class:`LeanUnavailable` with a clear message."""
    if name == "lean-repl":
        return ReplBackend(timeout=timeout)
    if name == "lean-dojo":
        return DojoBackend(timeout=timeout, **kw)  # type: ignore[arg-type]
    raise LeanUnavailable(f"unknown Lean backend {name!r} (choose from {', '.join(BACKEND_NAMES)})")
