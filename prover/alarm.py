"""Wall-clock limits: interrupting a call in the main thread after a budget (SIGALRM), a
deadline shared by the phases of a command, and a watchdog that ends the process past it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def alarm_after(seconds: float | None, make_exc: Callable[[], BaseException]) -> Iterator[None]:
    """Raise ``make_exc()`` inside the block once ``seconds`` have passed. Outside the main thread
    (or without SIGALRM) the block runs unlimited: callers keep their own checks between items."""
    if not seconds:
        yield
        return

    def on_alarm(*_: object) -> None:
        raise make_exc()

    try:
        old = signal.signal(signal.SIGALRM, on_alarm)
    except (ValueError, AttributeError):  # not the main thread / no SIGALRM
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class Deadline:
    """A wall-clock deadline that the phases of one command share (``time.monotonic``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.monotonic()
        self.end = self.start + seconds

    def left(self) -> float:
        """Seconds until the deadline (negative once it has passed)."""
        return self.end - time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def postpone(self, seconds: float) -> None:
        """Move the deadline later (time spent on something the limit does not cover)."""
        self.end += seconds


class Watchdog:
    """The last resort of a command's time limit: a daemon thread that, ``seconds`` after
    :meth:`arm`, calls ``on_expiry()`` (which prints one line and returns the exit status),
    kills this process's multiprocessing children and ends the process with ``os._exit``.

    For code that a SIGALRM cannot interrupt in time (a long call in C, a handler that swallows
    the exception); the phases of the command keep their own, cooperative limits."""

    def __init__(self, on_expiry: Callable[[], int]) -> None:
        self._on_expiry = on_expiry
        self._timer: threading.Timer | None = None

    def arm(self, seconds: float) -> None:
        self.cancel()
        self._timer = threading.Timer(max(0.0, seconds), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        code = 1
        try:
            code = self._on_expiry()
        finally:
            _kill_children()
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            os._exit(code)


def _kill_children() -> None:
    """SIGKILL every multiprocessing child of this process (forked search workers)."""
    import multiprocessing

    for child in multiprocessing.active_children():
        with contextlib.suppress(Exception):
            child.kill()
