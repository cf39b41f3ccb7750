"""Root statements of proof files at random points (prover.semantics.check_proofs)."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from prover.semantics.check_proofs import (
    check_file,
    check_proofs,
    plan_equalities,
    proof_files,
    simple_bounds,
)

ROOT = Path(__file__).resolve().parent.parent


def _proof(tmp_path: Path, name: str, variables: list[str], hyps: list[tuple[str, str, str]],
           goal: tuple[str, str, str]) -> Path:
    d = {"format": "test", "problem": {
        "name": name, "variables": variables,
        "hypotheses": [{"name": f"h{i}", "lhs": a, "op": o, "rhs": b} for i, (a, o, b) in enumerate(hyps)],
        "goal": {"lhs": goal[0], "op": goal[1], "rhs": goal[2]}, "source": "test"}}
    folder = tmp_path / "run" / "proofs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(d))
    return path


POS = [("a", ">", "0"), ("b", ">", "0"), ("c", ">", "0")]


def test_true_goal_with_a_linear_equality_has_no_violation(tmp_path: Path) -> None:
    p = _proof(tmp_path, "amgm", ["a", "b", "c"], POS + [("a + b + c", "=", "3")], ("a*b*c", "<=", "1"))
    r = check_file(p, points=300)
    assert r.points_satisfying == 300 and r.violations == [] and r.solved == ["c from h3 (degree 1)"]
    assert r.points_tried >= 300


def test_false_goal_is_caught(tmp_path: Path) -> None:
    p = _proof(tmp_path, "bad", ["a", "b", "c"], POS + [("a + b + c", "=", "3")], ("a*b*c", "<", "1"))
    r = check_file(p, points=300)
    assert r.violations, "a = b = c = 1 makes the strict goal false"
    assert all(v.goal == "a*b*c < 1" for v in r.violations)


def test_quadratic_constraint_irrational_roots(tmp_path: Path) -> None:
    hyps = [("a", ">", "0"), ("b", ">", "0"), ("a**2 + b**2", "=", "2")]
    good = check_file(_proof(tmp_path, "qm", ["a", "b"], hyps, ("a + b", "<=", "2")), points=300)
    assert good.points_satisfying >= 100 and good.violations == [] and "degree 2" in good.solved[0]
    bad = check_file(_proof(tmp_path, "qm_bad", ["a", "b"], hyps, ("a + b", "<=", "19/10")), points=300)
    assert bad.violations


def test_lean_semantics_not_sympy_semantics(tmp_path: Path) -> None:
    """`sqrt(x)**2 >= x` holds in Lean for every x (√ is 0 on negatives, so 0 ≥ x there) — but
    `x/x = 1` fails at x = 0, where Lean's x / 0 is 0."""
    ok = check_file(_proof(tmp_path, "sq", ["x"], [], ("sqrt(x)**2", ">=", "x")), points=200)
    assert ok.violations == [] and ok.points_satisfying == 200
    bad = check_file(_proof(tmp_path, "div", ["x"], [], ("x/x", "=", "1")), points=200)
    assert bad.violations and bad.violations[0].point == {"x": "0"}


def test_bounds_and_plans() -> None:
    from prover.kernel.terms import Rel, parse_term

    vs = ["a", "b", "c"]

    def rel(lhs: str, op: str, rhs: str) -> Rel:
        return Rel(parse_term(lhs, vs), op, parse_term(rhs, vs))

    hyps = [("h0", rel("0", "<", "a")), ("h1", rel("a", "<=", "1")), ("h2", rel("a*b*c", "=", "1")),
            ("h3", rel("b", ">=", "2"))]
    b = simple_bounds(vs, hyps)
    assert (b["a"].lo, b["a"].lo_strict, b["a"].hi, b["a"].hi_strict) == (0, True, 1, False)
    assert b["b"].lo == 2 and b["c"].lo is None
    solvers, notes = plan_equalities(vs, hyps)
    assert [s.var for s in solvers] == ["c"] and notes == ["c from h2 (degree 1)"]
    roots = solvers[0].roots({"a": F(1, 2), "b": F(4)}, random.Random(0))
    assert [r.lo for r in roots] == [F(1, 2)]


def test_unreadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    p = _proof(tmp_path, "junk", ["a"], [], ("__import__('os')", "<=", "1"))
    r = check_file(p, points=10)
    assert r.error and "TermError" in r.error


def test_cli_check_proofs(tmp_path: Path) -> None:
    from prover.semantics.__main__ import main

    _proof(tmp_path, "amgm", ["a", "b", "c"], POS + [("a + b + c", "=", "3")], ("a*b*c", "<=", "1"))
    out = tmp_path / "out.json"
    assert main(["check-proofs", str(tmp_path), "--points", "50", "--out", str(out)]) == 0
    d = json.loads(out.read_text())
    assert d["files"] == 1 and d["violations"] == 0 and d["points_satisfying"] == 50 and "machine" in d
    _proof(tmp_path, "bad", ["a", "b", "c"], POS + [("a + b + c", "=", "3")], ("a*b*c", "<", "1"))
    assert main(["check-proofs", str(tmp_path), "--points", "200", "--out", str(out)]) == 1


def test_sample_of_accepted_proofs_hold_at_points() -> None:
    files = proof_files(ROOT / "results")
    if not files:
        pytest.skip("no proof files under results/")
    sample = random.Random(1).sample(files, min(12, len(files)))
    for f in sample:
        r = check_file(f, points=60)
        assert r.error is None and r.violations == [], (f, r.violations[:2])


@pytest.mark.slow
def test_all_accepted_proofs_hold_at_points() -> None:
    files = proof_files(ROOT / "results")
    if not files:
        pytest.skip("no proof files under results/")
    rep = check_proofs(ROOT / "results", points=30)  # 1,000 points: python -m prover.semantics check-proofs
    assert rep.violations == 0 and not [f for f in rep.files if f.error]
