"""A progress line on stderr while a command works (``prover prove``'s search).

The line is drawn by a small helper process, not a thread: the search forks its closers, and a
thread writing to stderr at the moment of a fork could leave the child holding stderr's lock (and
Python ≥ 3.12 warns about every fork of a multi-threaded process). On a terminal it is a spinner
with the elapsed time, erased when the work ends; otherwise one plain line every
``$PROVER_PROGRESS_INTERVAL`` seconds (default 10), so logs show the command is alive. Nothing is
ever written to stdout, so ``--json`` output and scripts that read stdout are not affected.
"""

from __future__ import annotations

import os
import subprocess
import sys
from types import TracebackType
from typing import Self

INTERVAL_ENV = "PROVER_PROGRESS_INTERVAL"

_CHILD = r"""
import os, sys, time
label, limit, tty, interval, ppid = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1", float(sys.argv[4]), int(sys.argv[5])
t0 = time.monotonic()
frames = "|/-\\"
i = 0
err = sys.stderr
try:
    while os.getppid() == ppid:
        el = time.monotonic() - t0
        if tty:
            err.write(f"\r\x1b[2K{frames[i % 4]} {label}: {el:.0f} s of {limit:g} s")
            err.flush()
            i += 1
            time.sleep(0.25)
        else:
            time.sleep(interval)
            if os.getppid() != ppid:
                break
            el = time.monotonic() - t0
            err.write(f"{label}: {el:.0f} s of {limit:g} s\n")
            err.flush()
except (KeyboardInterrupt, BrokenPipeError, OSError):
    pass
"""


def progress_interval() -> float:
    try:
        return max(0.2, float(os.environ.get(INTERVAL_ENV, "10")))
    except ValueError:
        return 10.0


class ProgressLine:
    """``with ProgressLine("searching", 60, enabled):`` shows progress on stderr meanwhile.

    ``enabled``: ``True``/``False``, or ``None`` for the default (always; a spinner on a
    terminal, plain periodic lines otherwise). A failure to start the helper is ignored."""

    def __init__(self, label: str, time_limit: float, enabled: bool | None = None) -> None:
        self.label = label
        self.time_limit = time_limit
        self.enabled = True if enabled is None else enabled
        self.tty = _stderr_is_tty()
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Self:
        if not self.enabled:
            return self
        try:
            if not self.tty:     # one line at once: short runs show it too, not only after an interval
                sys.stderr.write(f"{self.label}: started, limit {self.time_limit:g} s\n")
            sys.stderr.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-S", "-c", _CHILD, self.label, f"{self.time_limit:g}", "1" if self.tty else "0",
                 f"{progress_interval():g}", str(os.getpid())],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=_stderr_fd(),
                close_fds=True, start_new_session=True)
        except (OSError, ValueError):
            self.proc = None
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a killed child always ends
            pass
        if self.tty:
            try:
                sys.stderr.write("\r\x1b[2K")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass


def _stderr_fd() -> int | None:
    """The real stderr file descriptor (None: inherit), also under a test runner's capture."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _stderr_is_tty() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
