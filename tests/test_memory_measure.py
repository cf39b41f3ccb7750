"""The search's memory stop reads the resident set now, not Linux's inherited high-water mark, and
the eval runner renders each Lean file in a memory-capped child (an eval run once stopped 137
searches for "memory" after one rendering grew the runner to 13 GB: ``ru_maxrss`` survives
``fork`` and ``exec``, so every worker started later read the runner's peak)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from prover.search.hard_timeout import fork_available, resident_mb

_CHILD = ("import resource; from prover.search.hard_timeout import resident_mb; "
          "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, int(resident_mb()))")


@pytest.mark.skipif(sys.platform != "linux", reason="/proc and the inherited ru_maxrss are Linux's")
def test_a_worker_started_by_a_large_parent_reads_its_own_resident_set() -> None:
    ballast = bytearray(600 * 2 ** 20)          # the parent's peak: 600 MB touched
    ballast[::4096] = b"x" * len(ballast[::4096])
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True).stdout
    inherited, now = map(int, out.split())
    assert inherited >= 600                      # what the old check read
    assert now < 300                             # what the child holds
    del ballast


def test_resident_mb_is_positive_and_below_the_peak() -> None:
    import resource

    assert 0 < resident_mb() <= resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 + 1


@pytest.mark.skipif(not fork_available(), reason="needs fork")
def test_a_rendering_over_the_memory_cap_is_a_noted_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    from prover.eval import lean_files

    def hungry(proof_json: object, seconds: float) -> tuple[str | None, str]:
        _ = bytearray(2 * 2 ** 30)              # 2 GB under a 256 MB cap
        return "never", ""

    monkeypatch.setattr(lean_files, "_render_here", hungry)
    monkeypatch.setattr(lean_files, "RENDER_MEMORY_MB", 256)
    before = resident_mb()
    text, why = lean_files.render_text({}, seconds=10)
    assert text is None and why
    assert resident_mb() < before + 100          # the runner did not grow
