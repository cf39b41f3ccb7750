"""Run a call in a forked child with a hard wall-clock limit (closers do not always stop in time).

The child inherits the loaded modules (fork), so the overhead is a few milliseconds; its result
comes back pickled through a pipe. On timeout the child is killed and ``None`` is returned.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import signal
import time
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


def resident_mb() -> float:
    """The process's resident set now (MB), from ``/proc/self/statm``. Not ``ru_maxrss``: Linux
    keeps that high-water mark across ``fork`` and ``exec``, so a worker started by a parent that
    once peaked reads the parent's peak (an eval run's workers all stopped at once for "memory"
    after one large rendering in the runner); ``ru_maxrss`` only where ``/proc`` is missing."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fork_available() -> bool:
    return "fork" in mp.get_all_start_methods()


def _fork(target: Callable[..., None], args: tuple) -> tuple[Any, Any]:
    """A forked child running ``target(conn, *args)``; the parent's end of its pipe."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=target, args=(child, *args), daemon=True)
    proc.start()
    child.close()
    return parent, proc


def _reap(parent: Any, proc: Any) -> None:
    """Close the pipe and make sure the child is gone (SIGKILL if it still runs)."""
    parent.close()
    if proc.is_alive():
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.join(timeout=5)


def call_with_hard_limit(fn: Callable[..., Any], args: tuple, limit: float) -> tuple[str, Any]:
    """``("ok", result)``, ``("error", message)`` or ``("timeout", None)``."""
    parent, proc = _fork(_child, (fn, args))
    try:
        if parent.poll(limit + GRACE):
            try:
                return parent.recv()
            except (EOFError, OSError):
                return "error", "the child process died"
        return "timeout", None
    finally:
        _reap(parent, proc)


def _run_all(generators: list[Any], goal: Any, cut: bool = True) -> tuple[list[Any], int]:
    out: list[Any] = []
    errors = 0
    for gen in generators:
        try:
            out.extend(gen.generate(goal))
        except Exception:  # noqa: BLE001 - one broken generator must not hide the others
            errors += 1
        if cut and any(getattr(c, "exclusive", False) for c in out):
            break       # a step that loses nothing: the later generators are not asked
    return out, errors


#: The largest share of a group's time one generator may take while others wait behind it.
GENERATOR_SHARE = 0.5


class GeneratorTimeout(Exception):
    """Raised by SIGALRM inside the child when one generator has used its share."""


#: Whether an alarm may interrupt: only while a generator runs, never while the child reports.
_ARMED = [False]


def _on_alarm(signum: int, frame: Any) -> None:
    if _ARMED[0]:
        _ARMED[0] = False
        raise GeneratorTimeout


def _stream_all(conn: Any, generators: list[Any], goal: Any, limit: float, cut: bool = True) -> None:
    """Child side of :class:`IsolatedGroup`: every candidate goes to the parent as soon as it
    exists, so a generator killed later (or one that outruns its share) costs only what it
    had not yet produced. Each generator may use at most ``GENERATOR_SHARE`` of the time left
    when it starts, unless it is the last one."""
    deadline = time.monotonic() + limit
    signal.signal(signal.SIGALRM, _on_alarm)
    for i, gen in enumerate(generators):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        share = left if i == len(generators) - 1 else left * GENERATOR_SHARE
        _ARMED[0] = True
        signal.setitimer(signal.ITIMER_REAL, max(0.05, share))
        exclusive = False
        try:
            for cand in gen.generate(goal):
                conn.send(("cand", cand))
                exclusive = exclusive or getattr(cand, "exclusive", False)
            _ARMED[0] = False
        except GeneratorTimeout:
            conn.send(("cut", None))
        except Exception:  # noqa: BLE001 - one broken generator must not hide the others
            conn.send(("error", None))
        finally:
            _ARMED[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        if exclusive and cut:
            break       # a step that loses nothing: the later generators are not asked
    conn.send(("done", None))


def _stream_child(conn: Any, generators: list[Any], goal: Any, limit: float, cut: bool = True) -> None:
    try:
        _stream_all(conn, generators, goal, limit, cut)
    except BaseException:  # noqa: BLE001, S110 - the parent keeps what already arrived
        pass
    finally:
        conn.close()


def _receive(parent: Any, deadline: float, stats: dict[str, int]) -> tuple[list[Any], bool]:
    """Candidates sent before ``deadline``; whether the child said it was done."""
    cands: list[Any] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not parent.poll(left):
            return cands, False
        try:
            kind, value = parent.recv()
        except (EOFError, OSError):
            return cands, False
        if kind == "cand":
            cands.append(value)
        elif kind == "done":
            return cands, True
        else:
            stats["cut" if kind == "cut" else "errors"] += 1


def stream_with_hard_limit(generators: list[Any], goal: Any, limit: float,
                           stats: dict[str, int], cut: bool = True) -> list[Any]:
    """Run ``generators`` on ``goal`` in a forked child killed after ``limit`` (+ grace)
    seconds; every candidate that arrived before then is kept. ``cut``: an exclusive candidate
    stops the generators after it."""
    parent, proc = _fork(_stream_child, (generators, goal, limit, cut))
    try:
        cands, done = _receive(parent, time.monotonic() + limit + GRACE, stats)
        if not done:
            stats["killed"] += 1
        return cands
    finally:
        _reap(parent, proc)


class IsolatedGroup:
    """Several tactic generators run together in a forked child with a hard time limit.

    For pure-Python generators (sympy factoring can take minutes on a large numerator); not for
    generators holding GPU or network state. Candidates stream back one by one, and no
    generator may take more than half the time left while others wait, so one slow generator
    does not starve the group (a killed group still returns what it produced).
    """

    name = "symbolic"

    def __init__(self, generators: list[Any], budget: Callable[[], float], name: str = "symbolic") -> None:
        self.name = name
        self.generators = generators
        self.budget = budget
        self.stats = {"killed": 0, "errors": 0, "cut": 0}
        #: an exclusive candidate stops the generators after it (off when the search asks again
        #: because that candidate was rejected)
        self.exclusive_cut = True

    def generate(self, goal: Any) -> list[Any]:
        t = self.budget()
        if t < 0.2:
            return []
        if not fork_available():
            cands, errors = _run_all(self.generators, goal, self.exclusive_cut)
            self.stats["errors"] += errors
            return cands
        return stream_with_hard_limit(self.generators, goal, t, self.stats, self.exclusive_cut)
