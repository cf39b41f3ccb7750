"""Trivial goals close at once: identities by an sos certificate without terms, and targets the
positivity rules prove as they stand; every such step is one the kernel accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy as sp
from typer.testing import CliRunner

from prover.cli import app
from prover.ir import Goal
from prover.problem import Relation, var
from prover.search.close import close_trivial

TRIVIAL = [
    "theorem t (a : ℝ) : a = a",
    "theorem t (x : ℝ) : Real.sqrt x ≥ 0",
    "theorem t (x : ℝ) : x ^ 2 ≥ 0",
    "theorem t (a b : ℝ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2",
    "theorem t (a b : ℝ) : a ^ 2 + b ^ 2 ≥ 0",
    "theorem t (a b : ℝ) (ha : 0 ≤ a) : a * Real.sqrt b + 1 > 0",
]


@pytest.mark.parametrize("mode", [["--closers-only"], []], ids=["closers-only", "search"])
@pytest.mark.parametrize("text", TRIVIAL)
def test_trivial_goal_is_proved_at_once_and_checks(text: str, mode: list[str], tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["prove", *mode, "--json", "--out", str(tmp_path), text])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["status"] == "proved" and out["stats"]["proof_steps"] == 1
    assert out["proof"] is not None
    # at once, counted in work rather than seconds: the root closed, nothing expanded
    assert out["stats"]["expansions"] == 0 and out["stats"]["nodes"] == 1, out["stats"]
    res = runner.invoke(app, ["check", str(tmp_path / "proof.json")])
    assert res.exit_code == 0 and "ACCEPTED" in res.output, res.output


def test_close_trivial_only_returns_kernel_accepted_steps() -> None:
    from prover.kernel.check import check_step

    a, b = var("a"), var("b")
    ok = [Relation(a * b, "=", b * a), Relation(sp.sqrt(a) + a**2, ">=", 0), Relation(a**4 + 1, ">", 0)]
    for rel in ok:
        step = close_trivial(Goal(("a", "b"), (), rel))
        assert step is not None and check_step(step).ok, rel
    not_trivial = [Relation((a + b) ** 2, "=", a**2 + b**2), Relation(a, ">=", 0), Relation(a**2 + b**2, ">=", 2 * a * b),
                   Relation(a**2, ">", 0), Relation(a, "!=", b)]
    for rel in not_trivial:
        assert close_trivial(Goal(("a", "b"), (), rel)) is None, rel
