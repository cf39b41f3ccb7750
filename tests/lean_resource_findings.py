"""Rendered files the replay model's resource model (``prover.lean.replay.resources``, issue 29
item 1) puts over ``maxHeartbeats``: every tactic passes the model, only the estimated heartbeats
exceed the budget the renderer grants (by file size, ``render/budget.py``; none under 20,000
characters). Findings for the renderer (issue 29 item 2: ``maxHeartbeats`` from the estimate, less
``ring`` work, ``linarith only``); ``results/lean-resources.md`` lists them with their figures."""

from __future__ import annotations

from prover.lean.replay import ReplayReport


def assert_only_over_heartbeats(rep: ReplayReport) -> None:
    """``rep`` fails the replay model on the estimated heartbeats alone. Fails once the file
    passes: the test then goes back to ``assert rep.ok``."""
    assert not rep.ok, "the file passes the replay model now: assert rep.ok again"
    assert all(s.kind == "resources" and "maxHeartbeats" in s.reason for s in rep.failures), rep.summary()


def assert_passes_but_for_heartbeats(rep: ReplayReport) -> None:
    """``rep`` passes the replay model, or fails it on the estimated heartbeats alone — for a file
    that a search renders, whose path (and so its size) may differ from run to run."""
    assert all(s.kind == "resources" and "maxHeartbeats" in s.reason for s in rep.failures), rep.summary()
