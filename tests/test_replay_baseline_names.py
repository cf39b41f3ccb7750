"""The replay baseline names each proof by run and problem id, so datasets in one run stay apart."""

from pathlib import Path

from prover.lean.replay_baseline import _name


def test_same_problem_number_in_two_datasets_gets_two_names():
    a = _name(Path("runs/dev-120s/proofs/chenneq__P17.json"))
    b = _name(Path("runs/dev-120s/proofs/567neq__P17.json"))
    assert a == "dev-120s/chenneq/P17" and b == "dev-120s/567neq/P17"
