"""What an attempt found: :class:`ProveResult` (re-exported as ``prover.api.ProveResult`` and
``prover.ProveResult``). It lives with the search, which makes it, so that the search never
imports the API above it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prover.ir import Goal, Proof
from prover.problem import Problem

if TYPE_CHECKING:
    from prover.kernel.check import Verdict

#: Outcome of an attempt. Only "proved" means a kernel-checked proof exists.
STATUSES = ("proved", "not_proved", "counterexample", "timeout", "error")


@dataclass(repr=False)
class ProveResult:
    """What :func:`prover.api.prove` found. ``status`` is one of :data:`STATUSES`; only
    ``"proved"`` comes with a ``proof``, which the kernel accepted before it was returned."""

    status: str
    proof: Proof | None = None
    counterexample: dict[str, str] | None = None   # variable -> exact value (string)
    time_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    problem: Problem | None = None                 # the problem attempted (set by :func:`prove`)
    open_goals: list[Goal] = field(default_factory=list)   # a failed search: its best node's open goals

    @property
    def proved(self) -> bool:
        return self.status == "proved" and self.proof is not None

    def _need_proof(self, what: str) -> Proof:
        if self.proof is None:
            raise ValueError(f"no proof to {what}: the attempt ended with status {self.status!r}")
        return self.proof

    def lean_text(self, **kw: Any) -> str:
        """The proof as a complete Lean 4 file (:func:`prover.lean.render.render_proof`; keyword
        arguments such as ``close_style="nlinarith"`` are passed on). Raises ``ValueError``
        without a proof, :class:`prover.lean.render.RenderError` for a step it cannot render."""
        from prover.lean.render import render_proof  # imported lazily: the renderer is only for output

        return render_proof(self._need_proof("render"), **kw)

    def html(self, title: str = "", **kw: Any) -> str:
        """The proof as a self-contained HTML page (the ``proof.html`` of ``prover prove --out``),
        with this result's verdict; keyword arguments go to the page writer."""
        from prover.search.page import page_verdict, proof_html  # imported lazily: only for output

        proof = self._need_proof("render")
        if "verdict" not in kw:
            kw["verdict"] = page_verdict(self)
        return proof_html(proof, title or proof.problem.name, self.stats, **kw)

    def check(self) -> Verdict:
        """The kernel's verdict on the proof, checked again (``verdict.ok``, ``verdict.errors``)."""
        from prover.verify import check_proof  # imported lazily: ``import prover`` stays light

        return check_proof(self._need_proof("check"))

    def __repr__(self) -> str:
        name = self.problem.name if self.problem is not None else (
            self.proof.problem.name if self.proof is not None else None)
        parts = [f"status={self.status!r}"] + ([f"problem={name!r}"] if name else [])
        parts.append(f"time_s={self.time_s:.2f}")
        if self.proof is not None:
            parts.append(f"steps={len(self.proof.steps())}")
        if self.counterexample:
            parts.append(f"counterexample={self.counterexample!r}")
        if self.error:
            parts.append(f"error={self.error!r}")
        return f"ProveResult({', '.join(parts)})"
