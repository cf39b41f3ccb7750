"""The isolated generator group: one slow generator must not starve the others (issue #16)."""

from __future__ import annotations

import time

import pytest

from prover.search.hard_timeout import IsolatedGroup, fork_available

pytestmark = pytest.mark.skipif(not fork_available(), reason="needs fork")


class Quick:
    def __init__(self, tag: str) -> None:
        self.tag = tag

    def generate(self, goal):
        return [f"{self.tag}:{goal}"]


class Hangs:
    """Yields one candidate, then runs (pure Python) far past any budget."""

    def generate(self, goal):
        yield f"first:{goal}"
        while True:
            sum(range(1000))


class Stubborn:
    """Yields one candidate, then swallows the soft cut and never stops."""

    def generate(self, goal):
        yield f"first:{goal}"
        while True:
            try:
                time.sleep(10)
            except BaseException:  # noqa: BLE001, S110 - on purpose: only SIGKILL stops it
                pass


class Broken:
    def generate(self, goal):
        raise ValueError("boom")


def test_a_slow_generator_is_cut_and_the_next_ones_still_run():
    group = IsolatedGroup([Quick("a"), Hangs(), Quick("b")], budget=lambda: 2.0)
    out = group.generate("g")   # Hangs never ends by itself: returning at all means it was cut
    assert out == ["a:g", "first:g", "b:g"]
    assert group.stats["cut"] == 1 and group.stats["killed"] == 0


def test_a_killed_group_keeps_what_arrived():
    group = IsolatedGroup([Quick("a"), Stubborn()], budget=lambda: 1.0)
    out = group.generate("g")
    assert out == ["a:g", "first:g"]
    assert group.stats["killed"] == 1


def test_a_broken_generator_counts_as_an_error_only():
    group = IsolatedGroup([Broken(), Quick("b")], budget=lambda: 2.0)
    assert group.generate("g") == ["b:g"]
    assert group.stats["errors"] == 1


def test_no_time_no_candidates():
    assert IsolatedGroup([Quick("a")], budget=lambda: 0.1).generate("g") == []
