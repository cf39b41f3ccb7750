"""Run a call in a forked child with a hard wall-clock limit (closers do not always stop in time).

The child inherits the loaded modules (fork), so the overhead is a few milliseconds; its result
comes back pickled through a pipe. On timeout the child is killed and ``None`` is returned.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Callable
from typing import Any

#: Seconds a call may run past its own time limit before it is killed.
GRACE = 1.0


def _child(conn: Any, fn: Callable[..., Any], args: tuple) -> None:
    try:
        res = fn(*args)
        conn.send(("ok", res))
    except BaseException as exc:  # noqa: BLE001 - report any failure to the parent
        try:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        except Exception:  # noqa: BLE001, S110 - the parent treats silence as failure
            pass
    finally:
        conn.close()


def fork_available() -> bool:
    return "fork" in mp.get_all_start_methods()


def call_with_hard_limit(fn: Callable[..., Any], args: tuple, limit: float) -> tuple[str, Any]:
    """``("ok", result)``, ``("error", message)`` or ``("timeout", None)``."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(limit + GRACE):
            try:
                return parent.recv()
            except (EOFError, OSError):
                return "error", "the child process died"
        return "timeout", None
    finally:
        parent.close()
        if proc.is_alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.join(timeout=5)


def _run_all(generators: list[Any], goal: Any) -> tuple[list[Any], int]:
    out: list[Any] = []
    errors = 0
    for gen in generators:
        try:
            out.extend(gen.generate(goal))
        except Exception:  # noqa: BLE001 - one broken generator must not hide the others
            errors += 1
    return out, errors


class IsolatedGroup:
    """Several tactic generators run together in a forked child with a hard time limit.

    For pure-Python generators (sympy factoring can take minutes on a large numerator); not for
    generators holding GPU or network state.
    """

    name = "symbolic"

    def __init__(self, generators: list[Any], budget: Callable[[], float], name: str = "symbolic") -> None:
        self.name = name
        self.generators = generators
        self.budget = budget
        self.stats = {"killed": 0, "errors": 0}

    def generate(self, goal: Any) -> list[Any]:
        t = self.budget()
        if t < 0.2:
            return []
        if not fork_available():
            cands, errors = _run_all(self.generators, goal)
        else:
            status, res = call_with_hard_limit(_run_all, (self.generators, goal), t)
            if status != "ok":
                self.stats["killed" if status == "timeout" else "errors"] += 1
                return []
            cands, errors = res
        self.stats["errors"] += errors
        return cands
