"""Interrupting a call in the main thread after a wall-clock budget (SIGALRM)."""

from __future__ import annotations

import contextlib
import signal
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
