"""Shared helpers for the closer tests: run the real kernel on a closer's output, and an
independent exact re-check of SOS certificates (sympy, no solver code)."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Proof, Step, expr_from_str
from prover.problem import Hypothesis, Problem


def problem_of(goal: Goal, name: str = "t") -> Problem:
    return Problem(name, list(goal.variables),
                   [Hypothesis(f"h{i}", r) for i, r in enumerate(goal.hypotheses)], goal.target)


def kernel_accepts(goal: Goal, step: Step) -> bool:
    from prover.verify import check_proof

    v = check_proof(Proof(problem_of(goal), step))
    assert v.ok, v.errors
    return v.ok


def sos_identity_holds(goal: Goal, cert: dict) -> bool:
    """``slack(target) == Σ c·Π slack(H)·q² + Σ λ·eq(H)`` exactly, with every ``c >= 0``."""
    total = sp.Integer(0)
    for t in cert["terms"]:
        c = sp.Rational(t["coeff"])
        if c < 0:
            return False
        m = sp.Integer(1)
        for h in t["mult"]:
            if not goal.hypotheses[h].is_inequality:
                return False
            m *= goal.hypotheses[h].slack()
        total += c * m * expr_from_str(t["poly"], goal.variables) ** 2
    for e in cert["eq_terms"]:
        h = goal.hypotheses[e["hyp"]]
        if h.op != "=":
            return False
        total += expr_from_str(e["poly"], goal.variables) * (h.lhs - h.rhs)
    return sp.expand(total - goal.target.slack()) == 0


def saved_proof_renders_and_replays(path) -> str:
    """Load a saved proof, require the kernel's acceptance, render it and require the replay model's
    pass; the rendered text (for further checks)."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    proof = Proof.loads(path.read_text())
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert replay_text(text).ok, text
    return text


def proved_file_passes(statement: str, fragment: str = "", time_limit: float = 30) -> str:
    """Prove ``statement``, render it and require the replay model's pass (and ``fragment`` in the
    file); the file's text, for the attacks a test then makes on it."""
    from prover.api import prove
    from prover.lean.replay import replay_text

    result = prove(statement, time_limit=time_limit)
    assert result.proved
    text = result.lean_text()
    assert fragment in text
    report = replay_text(text)
    assert report.ok, report.summary()
    return text


def tampered_fails(text: str, old: str, new: str) -> bool:
    """Whether the replay model refuses ``text`` with ``old`` (present) replaced by ``new``."""
    from prover.lean.replay import replay_text

    assert old in text
    return not replay_text(text.replace(old, new)).ok
