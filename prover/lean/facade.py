"""Entry points the search and ``prover prove`` use (``--backend lean-repl|lean-dojo``,
``--verify lean``); the implementations live in :mod:`prover.lean.backend` and
:mod:`prover.lean.verify`."""

from __future__ import annotations

from pathlib import Path

from prover.lean.backend import BACKEND_NAMES, LeanBackend, LeanUnavailable
from prover.lean.registry import make_backend
from prover.lean.verify import FileCheck, LeanStepFilter, LeanVerification, check_file, verify_proof_in_lean

__all__ = ["BACKEND_NAMES", "FileCheck", "LeanBackend", "LeanStepFilter", "LeanUnavailable",
           "LeanVerification", "backend_filter", "check_file", "make_backend", "verify_file",
           "verify_proof_in_lean"]


def verify_file(path: str | Path, backend: str = "kernel") -> FileCheck:
    """Compile a rendered ``.lean`` file in the pinned project and audit its axioms (any
    ``backend`` value: whole files always go through ``lake env lean``)."""
    return check_file(path)


def backend_filter(name: str, **kw: object) -> LeanStepFilter:
    """A :class:`LeanStepFilter` on a fresh backend ``name``; close it with ``.backend.close()``."""
    return LeanStepFilter(make_backend(name), **kw)  # type: ignore[arg-type]
