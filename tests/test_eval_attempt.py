"""The default attempt records ``proved`` only for a proof the kernel accepts in the worker."""

from __future__ import annotations

import pytest

from prover.api import ProveResult
from prover.eval import attempt as att
from prover.ir import Goal, Proof, Step
from prover.problem import Problem, Relation, var

X = var("x")
RECORD = {"id": "toy/sq", "lean": "theorem sq (x : ℝ) : x ^ 2 ≥ 0 := by sorry"}


def square_problem() -> Problem:
    return Problem("toy/sq", ["x"], [], Relation(X**2, ">=", 0))


def close(problem: Problem, terms: list[dict]) -> Proof:
    return Proof(problem, Step("close", Goal.from_problem(problem), [], {"method": "sos", "terms": terms,
                                                                         "eq_terms": []}))


@pytest.fixture
def fake_prover(monkeypatch):
    """Replace parsing and search; the kernel check stays real."""
    holder: dict = {}
    monkeypatch.setattr(att, "load_problem", lambda record, options: square_problem())
    monkeypatch.setattr("prover.api.prove", lambda problem, **kw: holder["result"](problem))
    return holder


def test_kernel_accepted_proof_is_proved_with_stats(fake_prover):
    fake_prover["result"] = lambda p: ProveResult("proved", proof=close(p, [{"coeff": "1", "mult": [], "poly": "x"}]),
                                                  time_s=0.5)
    out = att.run_attempt(RECORD, 5.0, {})
    assert out["status"] == "proved", out.get("error")
    assert out["steps"] == 1 and out["lemmas"] == [] and out["certificate_size"] > 0
    assert Proof.from_json(out["proof"]).root.kind == "close"


def test_kernel_rejected_proof_is_never_recorded_as_proved(fake_prover):
    # claims x^2 = 2 * x^2: a wrong certificate
    fake_prover["result"] = lambda p: ProveResult("proved", proof=close(p, [{"coeff": "2", "mult": [], "poly": "x"}]))
    out = att.run_attempt(RECORD, 5.0, {})
    assert out["status"] == "rejected" and "kernel rejected" in out["error"] and "proof" not in out


def test_proved_without_proof_is_rejected(fake_prover):
    fake_prover["result"] = lambda p: ProveResult("proved")
    assert att.run_attempt(RECORD, 5.0, {})["status"] == "rejected"


def test_unparsable_statement_is_a_recorded_error():
    pytest.importorskip("prover.frontend", reason="front-end not available")
    from prover import frontend

    if not hasattr(frontend, "parse_theorem"):
        pytest.skip("front-end parse_theorem not available")
    out = att.run_attempt({"id": "bad/1", "lean": "theorem oops (x : ℝ) : x ≤ := by sorry"}, 1.0, {})
    assert out["status"] == "error" and out["error"].startswith("statement not loaded")
