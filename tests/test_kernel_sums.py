"""Attacks on the kernel's rule for sums over n terms (:mod:`prover.kernel.sums`): a proof found by
the search is accepted; each mutation that would make it prove something false or unproved is
rejected."""

from __future__ import annotations

import copy
import json

import pytest

from prover import parse, prove
from prover.kernel.sums import check_nterm_proof, empty_case
from prover.verify import check_proof

TANGENT = ("theorem t (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) : "
           "∑ i, a i ^ 2 ≥ n := by sorry")
QM = "theorem q (n : ℕ) (a : Fin n → ℝ) : (∑ i, a i) ^ 2 ≤ n * ∑ i, a i ^ 2 := by sorry"
CAUCHY = ("theorem c (n : ℕ) (a b : Fin n → ℝ) : (∑ i, a i * b i) ^ 2 ≤ (∑ i, a i ^ 2) * ∑ i, b i ^ 2 "
          ":= by sorry")


def _proved(text: str) -> tuple[dict, object]:
    res = prove(text, time_limit=60)
    assert res.proved, res
    return res.proof.to_json(), res.problem.nterm.statement


@pytest.fixture(scope="module")
def tangent():
    return _proved(TANGENT)


@pytest.fixture(scope="module")
def qm():
    return _proved(QM)


def _rejects(data: dict, statement, *needles: str) -> None:
    verdict = check_nterm_proof(data, statement)
    assert not verdict.ok
    text = " ".join(verdict.errors)
    assert any(n in text for n in needles), verdict.errors


def _termwise(data: dict) -> dict:
    return next(f for f in data["facts"] if f.get("proof") is not None and f["relation"]["op"] == ">=")


def test_the_search_s_proofs_are_accepted(tangent, qm):
    for data, st in (tangent, qm):
        assert check_nterm_proof(data, st).ok
        assert check_proof(json.loads(json.dumps(data))).ok       # read again from its Lean text


def test_a_wrong_coefficient_is_rejected(tangent):
    data = copy.deepcopy(tangent[0])
    fact = _termwise(data)
    fact["coefficients"][0]["coefficient"] = "2"
    _rejects(data, tangent[1], "not Σ coefficient")


def test_a_coefficient_that_depends_on_the_index_is_rejected(tangent):
    data = copy.deepcopy(tangent[0])
    _termwise(data)["coefficients"][0]["coefficient"] = "a"
    _rejects(data, tangent[1], "coefficient")


def test_a_strict_sum_over_a_possibly_empty_set_is_rejected(qm):
    data = copy.deepcopy(qm[0])
    fact = _termwise(data)
    fact["relation"]["op"] = ">"
    fact["nonempty"] = None
    _rejects(data, qm[1], "nonempty", "does not say")


def test_a_termwise_proof_of_another_statement_is_rejected(tangent):
    data = copy.deepcopy(tangent[0])
    fact = _termwise(data)
    fact["relation"]["lhs"] = f"({fact['relation']['lhs']}) - 1"
    _rejects(data, tangent[1], "does not say", "not Σ coefficient")


def test_a_per_index_hypothesis_the_statement_does_not_have_is_rejected(tangent):
    data = copy.deepcopy(tangent[0])
    proof = _termwise(data)["proof"]
    proof["problem"]["hypotheses"].append({"name": "extra", "lhs": "a", "op": ">=", "rhs": "1"})
    _rejects(data, tangent[1], "hypotheses", "root")


def test_an_identity_claimed_without_proof_must_be_one(tangent):
    data = copy.deepcopy(tangent[0])
    fact = _termwise(data)
    fact["proof"] = None
    _rejects(data, tangent[1], "identity")


def test_an_instantiation_over_the_index_is_unreadable(qm):
    data = copy.deepcopy(qm[0])
    fact = next(f for f in data["facts"] if f.get("params"))
    fact["instantiation"] = {p: "a" for p in fact["params"]}
    _rejects(data, qm[1], "unknown", "instantiation")


def test_a_parameter_named_like_an_atom_is_rejected(qm):
    data = copy.deepcopy(qm[0])
    fact = next(f for f in data["facts"] if f.get("params"))
    fact["params"] = [data["statement"]["atoms"][0]["name"]]
    _rejects(data, qm[1], "fresh", "instantiation")


def test_another_statement_is_rejected(tangent, qm):
    _rejects(copy.deepcopy(tangent[0]), qm[1], "not the theorem's")


def test_n_at_least_one_without_the_empty_case_is_rejected(qm):
    data = copy.deepcopy(qm[0])
    assert data.get("empty") is not None      # QM has no hypothesis on n: n = 0 is proved apart
    data["empty"] = None
    _rejects(data, qm[1], "final", "does not say", "hypotheses")


def test_the_empty_case_is_the_statement_with_every_sum_zero(qm):
    st = empty_case(qm[1])
    assert st.variables == ()
    assert "0" in str(st.goal.lhs) or st.goal.lhs.__class__.__name__ == "Num"


def test_cauchy_schwarz_needs_the_right_bodies():
    data, st = _proved(CAUCHY)
    assert check_nterm_proof(data, st).ok
    fact = next(f for f in data["facts"] if f.get("lemma") == "cauchy_schwarz")
    bad = copy.deepcopy(data)
    next(f for f in bad["facts"] if f.get("lemma"))["atoms"] = fact["atoms"][::-1]
    _rejects(bad, st, "is not")
    bad = copy.deepcopy(data)
    next(f for f in bad["facts"] if f.get("lemma"))["u"] = "2*a"
    _rejects(bad, st, "is not")


def test_a_false_statement_has_no_proof():
    false = ("theorem f (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) : "
             "∑ i, a i ^ 2 ≥ n + 1 := by sorry")
    assert parse(false).nterm is not None
    assert not prove(false, time_limit=10).proved


def test_sq_le_mul_needs_its_three_termwise_proofs():
    titu = ("theorem t6 (n : ℕ) (a b : ℕ → ℝ) (hb : ∀ i ∈ Finset.range n, 0 ≤ b i) : "
            "(∑ i ∈ Finset.range n, a i) ^ 2 / (∑ i ∈ Finset.range n, b i + n) ≤ "
            "∑ i ∈ Finset.range n, a i ^ 2 / (b i + 1) := by sorry")
    data, st = _proved(titu)
    assert check_nterm_proof(data, st).ok
    fact = next(f for f in data["facts"] if f.get("lemma") == "sq_le_mul")
    bad = copy.deepcopy(data)
    next(f for f in bad["facts"] if f.get("lemma") == "sq_le_mul")["atoms"] = [fact["atoms"][1], fact["atoms"][0],
                                                                                fact["atoms"][2]]
    _rejects(bad, st, "does not say", "hypotheses")
    bad = copy.deepcopy(data)
    next(f for f in bad["facts"] if f.get("lemma") == "sq_le_mul")["proofs"] = fact["proofs"][:2]
    _rejects(bad, st, "three proofs")
