"""Rendering kernel proofs as claim graphs, corrupted variants, labels by the kernel, build-set."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
import sympy as sp

from prover.conformal.generate import build_set, corrupt, proofs_from_run, textbook_proof, textbook_proofs
from prover.conformal.io import DataError
from prover.conformal.proof_claims import render_proof
from prover.conformal.scorers import symbolic_verdicts
from prover.conformal.symbolic import REFUTED, VERIFIED
from prover.ir import Goal, Proof, Step
from prover.problem import Problem, Relation, var
from prover.verify import check_proof


@pytest.fixture(scope="module")
def proofs():
    return textbook_proofs(8, seed=5)


def test_textbook_proofs_are_kernel_checked(proofs):
    for p in proofs:
        v = check_proof(p)
        assert v.ok, v.errors
    assert len({p.meta["template"] for p in proofs}) > 3


def test_render_clean_proof(proofs):
    for p in proofs:
        ex = render_proof(p)
        assert nx.is_directed_acyclic_graph(ex.graph)
        assert ex.labels().all()
        assert {c.meta["label_source"] for c in ex.claims} <= {"kernel", "identity"}
        assert any(c.meta["label_source"] == "kernel" for c in ex.claims)
        assert ex.topological_order() == list(range(ex.n))  # premises are printed first
        last = ex.claims[-1]
        assert last.meta["path"] == "root" and last.meta["role"] == "conclusion"
        # the root conclusion rests (transitively) on every claim
        assert nx.ancestors(ex.graph, ex.n - 1) == set(range(ex.n - 1))
        assert all(v == VERIFIED for v in symbolic_verdicts(ex))


def test_corrupted_variant_has_one_wrong_step(proofs):
    rng = random.Random(0)
    for p in proofs[:4]:
        bad, path = corrupt(p, rng)
        assert not check_proof(bad).ok and check_proof(p).ok  # the original is untouched
        ex = render_proof(bad)
        wrong = [i for i, c in enumerate(ex.claims) if not c.label]
        assert {ex.claims[i].meta["path"] for i in wrong} == {path}
        ident = [i for i in wrong if ex.claims[i].meta["role"] == "identity"]
        assert len(ident) == 1
        verdicts = symbolic_verdicts(ex)
        assert verdicts[ident[0]] == REFUTED
        # everything resting on the wrong step is unsupported: outside every coherent output
        unsupported = nx.descendants(ex.graph, ident[0])
        assert ex.n - 1 in unsupported


def test_render_other_step_kinds():
    x = var("x")
    goal = Goal(("x",), (Relation(x, ">", sp.Integer(0)),), Relation(x**2 + x, ">=", sp.Integer(0)))
    split_goal = goal.with_hypotheses([Relation(x, ">=", sp.Integer(1))])
    step = Step("close", goal, [], {"method": "positivity"})
    proof = Proof(Problem("pos", ["x"], [], goal.target), step)
    ex = render_proof(proof)
    assert ex.n == 1 and "every term is nonnegative" in ex.claims[0].text
    assert ex.claims[0].label is True
    sub = Step("close", split_goal, [], {"method": "positivity"})
    ex2 = render_proof(Proof(Problem("p2", ["x"], [], goal.target), sub))
    assert ex2.claims[0].meta["hypotheses"]  # extra hypotheses of the step travel with the claim


def test_build_set_and_from_run(tmp_path, proofs):
    (tmp_path / "proofs").mkdir()
    for p in proofs[:5]:
        (tmp_path / "proofs" / f"{p.problem.name}.json").write_text(p.dumps())
    got = proofs_from_run(tmp_path)
    assert [p.problem.name for p in got] == [p.problem.name for p in proofs[:5]]
    exs = build_set(got, corrupt_fraction=1.0, seed=1)
    assert all("corrupted_step" in ex.meta and not ex.labels().all() for ex in exs)
    assert all(ex.labels().all() for ex in build_set(got, corrupt_fraction=0.0))
    with pytest.raises(DataError, match="no proofs/ folder"):
        proofs_from_run(tmp_path / "proofs")
    (tmp_path / "proofs" / "junk.json").write_text(json.dumps({"format": "nope"}))
    with pytest.raises(DataError, match="not a proof file"):
        proofs_from_run(tmp_path)


def test_build_set_skips_kernel_rejected_proofs(proofs):
    bad, _ = corrupt(proofs[0], random.Random(3))
    assert build_set([bad, proofs[1]], corrupt_fraction=0.0) and len(build_set([bad], 0.0)) == 0


def test_textbook_generator_is_deterministic():
    a = textbook_proof(random.Random(7), 0).dumps()
    b = textbook_proof(random.Random(7), 0).dumps()
    assert a == b
