"""The search imports the closers' lazily imported solvers (cvxpy) once, in its own process, before
it forks closers and generator groups: a forked child of a cold parent imported them afresh at every
call, and a closer with a few seconds of budget spent them on the import (``0 ≤ x, x ≤ 1 ⊢ x² ≤ x``
ended ``not_proved`` in 14 s of 30). Each check runs in a fresh interpreter (a cold parent)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("cvxpy")


def _fresh(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_search_process_has_cvxpy_before_the_first_fork() -> None:
    out = _fresh(
        "import json, sys\n"
        "from prover.frontend import parse_theorem\n"
        "from prover.search.best_first import Search, SearchConfig\n"
        "before = 'cvxpy' in sys.modules\n"
        "Search(parse_theorem('theorem t (x : ℝ) (h : 0 ≤ x) : 0 ≤ x ^ 2'), SearchConfig(time_limit=5))\n"
        "print(json.dumps({'before': before, 'after': 'cvxpy' in sys.modules}))\n")
    assert out == {"before": False, "after": True}
