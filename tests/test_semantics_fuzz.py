"""Front-end fidelity fuzzing (prover.semantics.fuzz_frontend): the front-end either refuses a
statement with a one-line ParseError or keeps Lean's meaning at every point (sympy form and
faithful kernel terms), and the fuzzer does catch unfaithful front-ends."""

from __future__ import annotations

import json
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
import sympy as sp

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.kernel.terms import Rel, parse_term
from prover.problem import Hypothesis, Problem, Relation, var
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_frontend import FuzzReport, check_statement, run_fuzz

TRAPS = [
    "theorem t (x : ℝ) : (x ^ (2 / 3 : ℝ)) ^ (3 / 2 : ℝ) ≤ x := by sorry",
    "theorem t (x : ℝ) : √(√x) ≥ 0 := by sorry",
    "theorem t (x : ℝ) : √((x ^ (1 / 3 : ℝ)) ^ 3) ≤ x := by sorry",
    "theorem t (x : ℝ) : (√x * √x) ^ (1 / 3 : ℝ) ≤ x := by sorry",
    "theorem t (x : ℝ) : x / x = 1 := by sorry",
    "theorem t (x : ℝ) : √x * √x = x := by sorry",
    "theorem t (x : ℝ) : x ^ (1 / 3 : ℝ) * x ^ (2 / 3 : ℝ) = x := by sorry",
    "theorem t (x : ℝ) (h : 0 ≤ x) : (x ^ (2 / 3 : ℝ)) ^ (3 / 2 : ℝ) ≤ x := by sorry",
    "theorem t (x : ℝ) (h : x ≠ 0) : x / x = 1 := by sorry",
    "theorem t (x : ℝ) (h : 0 < x) : √x * √x = x := by sorry",
    "theorem t (x y : ℝ) (h : 0 < y) : x * y / y ≤ x := by sorry",
    "theorem t (x : ℝ) : (x ^ 2) ^ (1 / 2 : ℝ) = x := by sorry",
    "theorem t (x : ℝ) : x ^ (1 / 2) = 1 := by sorry",
]
POINTS = [F(-1), F(0), F(2), F(1, 4), F(-8), F(9)]


# ---------------------------------------------------------------- the real front-end


def _real_check(text: str) -> FuzzReport:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {}, 12, report, parse_theorem)
    return report


@pytest.mark.parametrize("text", TRAPS)
def test_trap_statements_refused_or_faithful(text: str) -> None:
    try:
        parse_theorem(text)
    except ParseError as exc:
        assert "\n" not in str(exc) and str(exc).strip()
        return
    report = _real_check(text)
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]]


def test_fuzz_ci_portion() -> None:
    """Seeded, bounded by work (3,000 statement/point pairs), not by a clock, so a loaded machine
    checks the same pairs: no disagreement, crash or multi-line error."""
    report = run_fuzz(2000, 10, seed=0, target_pairs=3000)
    summary = report.to_json(max_examples=5)
    assert report.pairs >= 3000, summary
    assert report.failures == 0, json.dumps(summary, indent=1, ensure_ascii=False)
    assert report.refused > 0 and report.accepted > 0
    assert report.comparisons > report.pairs  # hypotheses and goals both compared


# ---------------------------------------------------------------- the fuzzer catches unfaithful front-ends


def _naive(e: A.LExpr, scope: dict[str, sp.Symbol]) -> sp.Expr:
    """sympy with its automatic simplification and no fidelity check (the F bug class)."""
    k, a = e.kind, e.args
    if k == "num":
        return sp.Rational(e.value)
    if k == "var":
        return scope[e.value]
    if k in ("paren", "cast"):
        return _naive(a[0], scope)
    x = [_naive(c, scope) for c in a]
    return {"add": lambda: x[0] + x[1], "sub": lambda: x[0] - x[1], "mul": lambda: x[0] * x[1],
            "div": lambda: x[0] / x[1], "neg": lambda: -x[0], "inv": lambda: 1 / x[0],
            "sqrt": lambda: sp.sqrt(x[0]), "pow": lambda: x[0] ** x[1]}[k]()


def _naive_parse(text: str, with_faithful: bool = False) -> Problem:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    scope = {v: var(v) for v in stmt.variables}
    rels = [Relation(_naive(r.lhs, scope), {"≤": "<=", "≥": ">=", "≠": "!="}.get(r.op, r.op),
                     _naive(r.rhs, scope)) for r in stmt.flat_hypotheses() + [stmt.goal]]
    hyps = [Hypothesis(f"h{i}", r) for i, r in enumerate(rels[:-1])]
    p = Problem("t", list(stmt.variables), hyps, rels[-1])
    if with_faithful:  # a "faithful" form that is the simplified one: must be caught too
        vs = list(stmt.variables)
        kr = [Rel(parse_term(str(r.lhs), vs), r.op, parse_term(str(r.rhs), vs)) for r in rels]
        p = SimpleNamespace(variables=p.variables, hypotheses=p.hypotheses, goal=p.goal,  # type: ignore
                            faithful=SimpleNamespace(hypotheses=tuple(kr[:-1]), goal=kr[-1]))
    return p


@pytest.mark.parametrize("with_faithful", [False, True])
def test_fuzzer_catches_naive_sympy_frontend(with_faithful: bool) -> None:
    caught = set()
    for i, text in enumerate(TRAPS[:7]):
        stmt = A.read_lean(text)
        report = FuzzReport(seed=0)
        check_statement(i, stmt, {}, 12, report, lambda s: _naive_parse(s, with_faithful))
        found = report.disagreements + report.side_mismatches
        if found:
            caught.add(i)
            assert {d.form for d in found} == ({"sympy", "faithful"} if with_faithful else {"sympy"})
            if with_faithful:  # the faithful form must match side by side: all are failures
                assert {d.form for d in report.disagreements} == {"sympy", "faithful"} or \
                    {d.form for d in report.disagreements} == {"faithful"}
    # √(√x) → x^(1/4) (x < 0: cos(π/4)·|x|^(1/4) ≠ 0), (x^(2/3))^(3/2) → x, x/x → 1, √x·√x → x, …
    assert caught >= {0, 1, 2, 4, 5, 6}, caught


def test_the_known_counterexample_is_reported_with_its_values() -> None:
    stmt = A.read_lean(TRAPS[0])
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {}, 40, report, _naive_parse)
    at_minus_one = [d for d in report.disagreements if d.point == {"x": "-1"}]
    assert at_minus_one, [d.point for d in report.disagreements]
    d = at_minus_one[0]
    assert d.lean.startswith("0 <= -1") and d.frontend.startswith("-1 <= -1") and d.kind == "verdict" and d.unsound


def test_refusals_must_be_one_line_and_crashes_are_failures() -> None:
    stmt = A.read_lean(TRAPS[4])

    def multi_line(_: str) -> Problem:
        raise ParseError("first line\nsecond line", 3)

    def crash(_: str) -> Problem:
        raise RuntimeError("boom")

    r1, r2 = FuzzReport(seed=0), FuzzReport(seed=0)
    check_statement(0, stmt, {}, 3, r1, multi_line)
    check_statement(0, stmt, {}, 3, r2, crash)
    assert r1.refused == 1 and len(r1.multi_line_errors) == 1 and r1.failures == 1
    assert len(r2.crashes) == 1 and r2.failures == 1 and "boom" in r2.crashes[0]


def test_points_respect_earlier_hypotheses() -> None:
    """With `0 < x` first, the goal `√x * √x = x` is only compared where x > 0: a naive front-end
    agrees there, so no disagreement may be reported for the goal."""
    stmt = A.read_lean("theorem t (x : ℝ) (h : 0 < x) : √x * √x = x := by sorry")
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {"x": "pos"}, 20, report, _naive_parse)
    assert report.disagreements == [] and report.side_mismatches == [] and report.comparisons > 20


def test_side_mismatch_with_equal_truth_value_is_not_a_failure() -> None:
    """`√x ^ 2 > 1 + √x ^ 2` is read as `x > 1 + x`-like forms by sympy; where the truth values
    agree only a side mismatch is recorded."""
    stmt = A.read_lean("theorem t (x : ℝ) (h : x ≤ 0) : √x ^ 2 > 2 - x + √x ^ 2 := by sorry")
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {"x": "nonpos"}, 20, report, _naive_parse)
    assert report.side_mismatches and report.disagreements == [] and report.failures == 0


def test_cli_fuzz_frontend_writes_summary(tmp_path, capsys) -> None:
    from prover.semantics.__main__ import main

    out = tmp_path / "fuzz.json"
    code = main(["fuzz-frontend", "--statements", "25", "--points", "4", "--seed", "5", "--out", str(out),
                 "--progress-every", "10"])
    d = json.loads(out.read_text())
    assert code == 0 and d["failures"] == 0 and d["statements"] == 25 and d["seed"] == 5
    assert "machine" in d and d["duration_s"] >= 0
    assert "accepted" in capsys.readouterr().out
