"""A ``.lean`` file beside each proof of an evaluation run (``proofs/<name>.lean``), rendered by
:func:`prover.lean.render.render_proof`. A proof the renderer refuses, or one that takes longer
than :data:`RENDER_SECONDS`, gets a one-line reason in its record instead: the run goes on, and
the kernel-checked ``proofs/<name>.json`` stays the proof."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prover.eval.records import atomic_write_text

#: Seconds one rendering may take (in the runner's main thread; past it: a noted failure).
RENDER_SECONDS = 20.0
#: Of which, at most this many shrinking large SOS certificates.
SHRINK_SECONDS = 8.0
#: Address space of the child that renders one proof (MB).
RENDER_MEMORY_MB = 4096


class _RenderTimeout(BaseException):
    """Raised by the alarm in a rendering past :data:`RENDER_SECONDS` (a BaseException: no
    ``except Exception`` in the renderer swallows it)."""


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]


def render_text(proof_json: Any, seconds: float = RENDER_SECONDS) -> tuple[str | None, str]:
    """(the Lean file's text, "") or (None, why it was not rendered); never raises an Exception.
    In a forked child under :data:`RENDER_MEMORY_MB` where ``fork`` exists: a rendering that grew
    the runner to 13 GB once left that peak to every worker started after it (Linux keeps
    ``ru_maxrss`` across ``fork``/``exec``)."""
    from prover.search.hard_timeout import call_with_hard_limit, fork_available

    if not fork_available():
        return _render_here(proof_json, seconds)
    status, result = call_with_hard_limit(_render_capped, (proof_json, seconds), seconds + 5.0)
    if status == "ok":
        return result
    return None, (f"rendering took over {seconds:g} s" if status == "timeout"
                  else f"rendering failed: {_first_line(Exception(result)) or 'the child process died'}")


def _render_capped(proof_json: Any, seconds: float) -> tuple[str | None, str]:
    import resource

    limit = RENDER_MEMORY_MB * 2 ** 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        return _render_here(proof_json, seconds)
    except MemoryError:
        return None, f"rendering needed over {RENDER_MEMORY_MB} MB"


def _render_here(proof_json: Any, seconds: float) -> tuple[str | None, str]:
    from prover.alarm import alarm_after

    try:
        from prover.ir import Proof
        from prover.kernel.sums import is_nterm_proof
        from prover.lean.render import render_proof

        with alarm_after(seconds, _RenderTimeout):
            if is_nterm_proof(proof_json):
                from prover.nterm.proof import proof_from_json

                return render_proof(proof_from_json(proof_json), shrink_budget_s=SHRINK_SECONDS), ""
            return render_proof(Proof.from_json(proof_json), shrink_budget_s=SHRINK_SECONDS), ""
    except _RenderTimeout:
        return None, f"rendering took over {seconds:g} s"
    except Exception as exc:  # noqa: BLE001 - a renderer bug or refusal must not stop the run
        return None, f"{type(exc).__name__}: {_first_line(exc)}"


def write_lean(out: Path, proof_name: str, proof_json: Any, seconds: float = RENDER_SECONDS) -> dict[str, str]:
    """Render ``proof_json`` to ``out/proofs/<stem>.lean``; the record's fields: ``lean`` (the
    path relative to ``out``) or ``lean_error`` (why there is none)."""
    text, why = render_text(proof_json, seconds)
    if text is None:
        return {"lean_error": why}
    rel = f"proofs/{Path(proof_name).stem}.lean"
    try:
        atomic_write_text(out / rel, text)
    except OSError as exc:
        return {"lean_error": f"not written: {exc.strerror or exc}"}
    return {"lean": rel}
