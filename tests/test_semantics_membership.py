"""Interval memberships in the differential tests (issue 28): the independent Lean-semantics
evaluator reads ``x ∈ Set.Icc a b`` as Mathlib defines it; the statement fuzzer and the
file-context fuzzer generate memberships (one-sided sign hypotheses, extra intervals, every
spelling under ``open Set`` / ``open Finset`` / ``namespace Set`` / a declaration named ``Icc``)
and the front-end misreads none; a front-end that read an interval wrongly is caught."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from prover.semantics import lean_ast as A
from prover.semantics.fuzz_context import Context, resolve_interval, run_context_fuzz
from prover.semantics.fuzz_frontend import StatementGenerator, run_fuzz


@pytest.mark.parametrize("interval, inside, outside", [
    ("Set.Icc 0 1", (0, 1, F(1, 2)), (-1, 2)),
    ("Set.Ico 0 1", (0, F(1, 2)), (1, -1)),
    ("Set.Ioc 0 1", (1, F(1, 2)), (0, 2)),
    ("Set.Ioo 0 1", (F(1, 2),), (0, 1)),
    ("Set.Ici 1", (1, 2), (0,)),
    ("Set.Ioi 1", (2,), (1, 0)),
    ("Set.Iic 1", (1, 0), (2,)),
    ("Set.Iio 1", (0,), (1, 2)),
    ("Set.Icc 1 0", (), (0, 1, F(1, 2))),            # swapped bounds: empty
])
def test_evaluator_reads_intervals_as_mathlib_defines_them(interval, inside, outside) -> None:
    stmt = A.read_lean(f"theorem t (x : ℝ) (hx : x ∈ {interval}) : x ≤ x := by sorry")
    assert isinstance(stmt, A.LStatement) and stmt.hypotheses[0].membership is not None
    for v in inside:
        assert all(h.verdict for h in A.eval_lean(stmt, {"x": F(v)}).hypotheses), (interval, v)
    for v in outside:
        assert not all(h.verdict for h in A.eval_lean(stmt, {"x": F(v)}).hypotheses), (interval, v)
    assert A.read_lean(A.show_statement(stmt)) == stmt


def test_membership_is_typed_at_one_type() -> None:
    # `2 ∈ Set.Icc x 3`: the numerals are reals (the set's type, from `x`)
    stmt = A.read_lean("theorem t (x : ℝ) (hx : 2 ∈ Set.Icc x (7 / 2)) : x ≤ 2 := by sorry")
    hyps = A.eval_lean(stmt, {"x": F(1)}).hypotheses
    assert hyps[1].rhs.lo == F(7, 2)               # real 7/2, not ℕ 7 / 2 = 3
    # numerals only: a membership in a set of ℕ
    nat = A.read_lean("theorem t (x : ℝ) (hx : 2 ∈ Set.Icc 0 (7 / 2)) : x ≤ 2 := by sorry")
    assert A.eval_lean(nat, {"x": F(0)}).hypotheses[1].rhs.lo == 3


def test_resolve_interval_follows_lean() -> None:
    assert resolve_interval("Set.Icc", Context())[0] == "real"
    assert resolve_interval("_root_.Set.Icc", Context(namespace=("Set",)))[0] == "real"
    assert resolve_interval("Icc", Context())[0] == "refuse"
    assert resolve_interval("Icc", Context(opens=("Set",)))[0] == "real"
    assert resolve_interval("Icc", Context(namespace=("Set",)))[0] == "real"
    assert resolve_interval("Icc", Context(opens=("Finset",)))[0] == "refuse"
    assert resolve_interval("Finset.Icc", Context())[0] == "refuse"
    assert resolve_interval("Icc", Context(opens=("Set", "Finset")))[0] == "unknown"
    assert resolve_interval("Icc", Context(opens=("Set",), declared=("Icc",)))[0] == "refuse"
    assert resolve_interval("Set.Icc", Context(declared=("Set.Icc",)))[0] == "refuse"
    assert resolve_interval("Icc", Context(namespace=("Foo",), opens=("Set",), declared=("Foo.Icc",)))[0] == "refuse"


def test_statement_fuzzer_generates_memberships_and_finds_no_misreading() -> None:
    gen = StatementGenerator(0)
    with_mem = [gen.statement(i)[0] for i in range(400)]
    assert sum(any(h.membership for h in s.hypotheses) for s in with_mem) >= 60
    report = run_fuzz(400, 6, seed=3)
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]]
    assert report.accepted > 100


def test_a_wrong_interval_reading_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from prover.frontend import names

    # a front-end that read `Set.Icc a b` as `a < x ≤ b`
    monkeypatch.setitem(names.INTERVALS, "Set.Icc", (("lo", "<"), ("hi", "<=")))
    report = run_fuzz(400, 6, seed=3)
    assert report.failures > 0


def test_context_fuzzer_with_memberships_finds_no_misreading() -> None:
    report = run_context_fuzz(500, seed=4, points=2)
    assert report.failures == 0, report.to_json(3)["examples"]
    mem = report.per_wrapper.get("rewrite:add_membership", {})
    assert mem.get("accepted", 0) >= 10 and mem.get("must_refuse", 0) >= 10, mem
