"""Run a command's body in a forked child under a hard wall-clock limit (and an address-space
limit), so that no input makes a command hang forever or end in a traceback.

The body prints as usual; its stdout, stderr and exit code are captured in the child and
replayed by the parent. A child that runs past the limit is killed; one that raises or dies
becomes a :class:`Guarded` with ``status`` ``"crashed"``/``"died"``, which the command turns
into one line of its own.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click
import typer


@dataclass(frozen=True)
class Guarded:
    """How a guarded body ended. ``status``: ``"ok"`` (it returned or exited by itself; ``code``
    is its exit status), ``"timeout"``, ``"crashed"`` (an exception escaped; ``detail`` names
    it) or ``"died"`` (the child vanished: killed by a signal, out of memory)."""

    status: str
    code: int = 0
    out: str = ""
    err: str = ""
    detail: str = ""


def _limit_memory(extra_mb: int) -> None:
    """Cap the address space at the current size plus ``extra_mb`` (Linux; best effort)."""
    if extra_mb <= 0:
        return
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            current = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = current + extra_mb * 2**20
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError):
        pass


def _captured(fn: Callable[..., Any], args: tuple, memory_mb: int, color: bool = False) -> tuple[int, str, str, str]:
    """In the child: ``(exit code, stdout, stderr, crash description or "")``. ``color``: the
    parent writes to a terminal, so rich may colour the captured text."""
    _limit_memory(memory_mb)
    if color:
        os.environ["FORCE_COLOR"] = "1"
    out, err = io.StringIO(), io.StringIO()
    code, crash = 0, ""
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            fn(*args)
        except (typer.Exit, click.exceptions.Exit) as exc:
            code = exc.exit_code
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except RecursionError:
            code, crash = 1, "input nested too deeply (RecursionError)"
        except MemoryError:
            code, crash = 1, f"out of memory (limit: {memory_mb} MB more than at the start)"
        except Exception as exc:  # noqa: BLE001 - the command's last guard: one line, never a traceback
            msg = str(exc).strip().splitlines()
            code, crash = 1, f"internal error: {type(exc).__name__}: {msg[0][:300] if msg else ''}".rstrip(": ")
    return code, out.getvalue(), err.getvalue(), crash


def run_guarded(fn: Callable[..., Any], args: tuple, time_limit: float, memory_mb: int = 0) -> Guarded:
    """Run ``fn(*args)`` (a command body that prints and may raise ``typer.Exit``) in a forked
    child killed after ``time_limit`` seconds. Without ``fork`` it runs here, unguarded."""
    from prover.search.hard_timeout import call_with_hard_limit, fork_available

    if not fork_available():  # pragma: no cover - Linux and macOS have fork
        code, out, err, crash = _captured(fn, args, 0)
        return Guarded("crashed" if crash else "ok", code, out, err, crash)
    sys.stdout.flush()
    sys.stderr.flush()
    color = sys.stdout.isatty()
    status, res = call_with_hard_limit(_captured, (fn, args, memory_mb, color), time_limit)
    if status == "timeout":
        return Guarded("timeout", 1, detail=f"time limit of {time_limit:g} s exceeded")
    if status != "ok":
        return Guarded("died", 1, detail=f"the checking process died ({res})")
    code, out, err, crash = res
    return Guarded("crashed" if crash else "ok", code, out, err, crash)
