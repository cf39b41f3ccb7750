"""A seeded sample of the proofs saved by the latest benchmark runs, rendered and checked by the
replay model (a model of Lean, not Lean). The whole set is the command
``python -m prover.lean.replay_baseline results/<run>/proofs/*.json`` (report in
``results/issue13-lean-replay-s7/``); CI runs this short part of it, a different sample for each
list of runs but the same one on every machine."""

from __future__ import annotations

import random

import pytest

from tests.test_lean_saved_proofs import RESULTS, rendered_passing

#: The latest full runs (their proofs are what a user of the benchmarks takes away)
LATEST_RUNS = ["issue27b-120s-mo-int-20", "issue27-120s-chenneq", "issue27-120s-567neq",
               "issue16-s13-composed-60s"]
SAMPLE_SIZE = 10
SEED = 13
#: Proofs larger than this (5 of 152: order splits over 24 cases, long substitutions) take minutes
#: to render; the command measures them, CI samples the rest.
MAX_PROOF_BYTES = 200_000


def sample() -> list[str]:
    paths = sorted(str(p.relative_to(RESULTS)) for run in LATEST_RUNS for p in (RESULTS / run / "proofs").glob("*.json")
                   if p.stat().st_size <= MAX_PROOF_BYTES)
    return sorted(random.Random(SEED).sample(paths, min(SAMPLE_SIZE, len(paths))))


def test_the_latest_runs_saved_proofs() -> None:
    assert len(sample()) == SAMPLE_SIZE, "a run listed in LATEST_RUNS has no saved proofs"


@pytest.mark.parametrize("path", sample(), ids=lambda p: p.split("/")[-1].removesuffix(".json"))
def test_saved_proof_of_the_latest_runs_passes_the_replay_model(path: str) -> None:
    rendered_passing(path, RESULTS)


def test_baseline_command_makes_its_out_folder_and_refuses_a_folder(tmp_path) -> None:
    import subprocess
    import sys

    proof = min((p for p in (RESULTS / LATEST_RUNS[0] / "proofs").glob("*.json")), key=lambda p: p.stat().st_size)
    out = tmp_path / "new" / "replay.md"
    r = subprocess.run([sys.executable, "-m", "prover.lean.replay_baseline", str(proof), "--out", str(out)],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0 and out.is_file() and "pass" in out.read_text(encoding="utf-8"), r.stderr
    r = subprocess.run([sys.executable, "-m", "prover.lean.replay_baseline", str(proof), "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 2 and "is a folder" in r.stderr and "Traceback" not in r.stderr
