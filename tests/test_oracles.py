"""Oracles: exact confirmation of counterexamples, z3 limits, FALSE variants (fast subset)."""

from __future__ import annotations

import time

import pytest
import sympy as sp

from prover.ir import Goal
from prover.oracles import Counterexample, find_counterexample
from prover.oracles.exact_sign import DomainError, sign
from prover.oracles.z3_oracle import run_z3, z3_counterexample, z3_prove_attempt
from prover.problem import Hypothesis, Problem, Relation, var
from prover.variants import false_variant_report, simplest_rational_between

a, b, c, d = (var(n) for n in "abcd")
R = sp.Rational
POS3 = (Relation(a, ">", 0), Relation(b, ">", 0), Relation(c, ">", 0))
NESBITT = a / (b + c) + b / (c + a) + c / (a + b)


def goal3(target: Relation, *extra: Relation, hyps=POS3) -> Goal:
    return Goal(("a", "b", "c"), tuple(hyps) + extra, target)


def holds(rel: Relation, point: dict) -> bool:
    """Independent check with sympy alone: exact for rationals, 60 digits otherwise."""
    env = {var(k): v for k, v in point.items()}
    s = rel.slack().xreplace(env)
    if rel.op == "=":  # exact for rationals; algebraic points: 60 digits (exactness is exact.py's job)
        return s == 0 if s.is_Rational else abs(sp.N(s, 60)) < sp.Float(10) ** -50
    if rel.op == "!=":
        return s != 0
    val = s if s.is_Rational else sp.N(s, 60)
    return bool(val > 0) if rel.strict else bool(val >= 0)


def assert_refutes(goal: Goal, ce: Counterexample) -> None:
    assert set(ce) == set(goal.variables)
    for h in goal.hypotheses:
        assert holds(h, dict(ce)), (h, dict(ce))
    assert not holds(goal.target, dict(ce))
    assert ce.slack_float <= 0


# ---------------------------------------------------------------- exact signs


def test_exact_sign_of_radicals_and_roots() -> None:
    assert sign(sp.sqrt(a) - R(7, 5), {a: 2}) == 1
    assert sign(sp.sqrt(a) - sp.sqrt(2), {a: 2}) == 0
    root = sp.Poly(sp.Symbol("x") ** 3 + sp.Symbol("x") - 4).real_roots()[0]
    assert sign(a**3 + a - 4, {a: root}) == 0
    assert sign(a**a - 1, {a: R(1, 2)}) == -1
    # Lean's values by default (√(-1) = 0, 1/0 = 0); classical analysis refuses these points
    assert sign(sp.sqrt(a), {a: -1}) == 0 and sign(1 / (a - b) - 1, {a: 1, b: 1}) == -1
    with pytest.raises(DomainError):
        sign(sp.sqrt(a), {a: -1}, lean=False)
    with pytest.raises(DomainError):
        sign(1 / (a - b), {a: 1, b: 1}, lean=False)
    with pytest.raises(DomainError):  # Mathlib's rpow of a negative base is not evaluated
        sign(a ** R(1, 3), {a: -1})


def test_simplest_rational_between() -> None:
    assert simplest_rational_between(1.575, 1.65) == R(8, 5)
    assert simplest_rational_between(2.0, 1.0) is None


# ---------------------------------------------------------------- counterexamples


@pytest.mark.parametrize("goal", [
    goal3(Relation(a**3 + b**3 + c**3, ">=", 4 * a * b * c)),
    goal3(Relation(NESBITT, ">=", R(8, 5))),
    goal3(Relation(a * b + b * c + c * a, ">=", 3), Relation(a + b + c, "=", 3)),
    goal3(Relation(sp.sqrt(a) + sp.sqrt(b) + sp.sqrt(c), ">=", R(31, 10)), Relation(a * b + b * c + c * a, "=", 3)),
    goal3(Relation(a + b + c, "<=", R(29, 10)), Relation(a**3 + b**3 + c**3 + a * b * c, "=", 4)),
    Goal(("a", "b"), (), Relation(a**2 + b**2, ">", 2 * a * b)),
], ids=["cubic-4abc", "nesbitt-8/5", "sum3", "sqrt", "cubic-constraint", "strict"])
def test_counterexample_found_and_exact(goal: Goal) -> None:
    ce = find_counterexample(goal, 5.0)
    assert ce is not None
    assert_refutes(goal, ce)


def test_irrational_point_from_equality_is_exact() -> None:
    # c is forced to be the real root of a cubic: the point is algebraic, the check rigorous
    g = goal3(Relation(a + b + c, "<=", R(29, 10)), Relation(a**3 + b**3 + c**3 + a * b * c, "=", 4))
    from prover.oracles.model import GoalModel

    ce = GoalModel(g).confirm([0.9, 1.1, 1.0], "test", exact={a: R(9, 10), b: R(11, 10)})
    assert ce is not None and not ce["c"].is_Rational
    assert_refutes(g, ce)


def test_several_equalities_as_left_by_introduce_steps() -> None:
    # s = sqrt(ab), t = sqrt(bc) introduced as s >= 0, s^2 = ab, t >= 0, t^2 = bc; a + b + c = 3
    s_, t_ = var("s"), var("t")
    hyps = POS3 + (Relation(a + b + c, "=", 3), Relation(s_, ">=", 0), Relation(s_**2, "=", a * b),
                   Relation(t_, ">=", 0), Relation(t_**2, "=", b * c))
    g = Goal(("a", "b", "c", "s", "t"), hyps, Relation(s_ + t_, ">=", R(21, 10)))
    ce = find_counterexample(g, 5.0, use_z3=False)
    assert ce is not None
    assert_refutes(g, ce)
    assert find_counterexample(g.with_target(Relation(s_ + t_, "<=", 3)), 1.0, use_z3=False) is None


def test_equality_with_roots_is_made_polynomial() -> None:
    # a + b = sqrt(a) + sqrt(b): the oracle writes a = w^2, b = z^2 and solves a polynomial
    g = Goal(("a", "b"), POS3[:2] + (Relation(a + b, "=", sp.sqrt(a) + sp.sqrt(b)),),
             Relation(a + b, "<=", R(3, 2)))
    ce = find_counterexample(g, 5.0, use_z3=False)
    assert ce is not None
    assert_refutes(g, ce)
    ce = z3_counterexample(g, 5.0)  # z3's model is in a, b; the model's variables are w, z
    assert ce is not None
    assert_refutes(g, ce)


@pytest.mark.parametrize("goal", [
    Goal(("a", "b"), POS3[:2], Relation(a**2 + b**2, ">=", 2 * a * b)),
    goal3(Relation(NESBITT, ">=", R(3, 2))),
], ids=["am-gm", "nesbitt"])
def test_no_counterexample_for_true_goals_within_limit(goal: Goal) -> None:
    assert find_counterexample(goal, 2.0) is None


def test_a_spent_budget_stops_the_counterexample_search_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is honoured, counted in work rather than seconds: with no time left, not one
    point is evaluated and z3 is not started (the search loops run until their deadline)."""
    from prover.oracles import z3_oracle
    from prover.oracles.model import GoalModel

    work: list[str] = []
    for name in ("evaluate", "evaluate_point", "confirm", "confirm_exact"):
        real = getattr(GoalModel, name)
        monkeypatch.setattr(GoalModel, name, lambda self, *a, _n=name, _f=real, **k: (work.append(_n), _f(self, *a, **k))[1])
    monkeypatch.setattr(z3_oracle, "z3_counterexample", lambda *a, **k: work.append("z3"))
    goal = goal3(Relation(NESBITT, ">=", R(8, 5)))        # false: any work would find a point
    assert find_counterexample(goal, 0.0) is None
    assert work == []
    assert find_counterexample(goal, 5.0) is not None and work  # the spy sees work when there is time


# ---------------------------------------------------------------- z3


def test_z3_verdicts_and_exact_model() -> None:
    assert z3_prove_attempt(Goal(("a", "b"), (), Relation(a**2 + b**2, ">=", 2 * a * b)), 5.0) == "unsat"
    g = goal3(Relation(NESBITT, ">=", R(8, 5)))
    ce = z3_counterexample(g, 5.0)
    assert ce is not None and ce.method == "z3"
    assert_refutes(g, ce)


def test_z3_hard_time_limit() -> None:
    hard = Goal(("a", "b", "c", "d"), POS3 + (Relation(d, ">", 0),),
                Relation(a / (b + 2 * c + 3 * d) + b / (c + 2 * d + 3 * a) + c / (d + 2 * a + 3 * b)
                         + d / (a + 2 * b + 3 * c), ">=", R(2, 3)))
    status, _ = run_z3(hard, 1.0)
    assert status in ("unknown", "unsat")


def test_z3_that_never_answers_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    """z3 may ignore its own timeout: a child that never answers is killed at the limit and the
    answer is "unknown" (the child sleeps 1000 s, so a missing kill shows as a hang or a live child)."""
    import multiprocessing as mp

    from prover.oracles import z3_oracle

    monkeypatch.setattr(z3_oracle, "_solve", lambda goal_json, time_ms: time.sleep(1000))
    assert run_z3(goal3(Relation(NESBITT, ">=", R(3, 2))), 0.5) == ("unknown", {})
    assert [p for p in mp.active_children() if p.is_alive()] == []


# ---------------------------------------------------------------- FALSE variants


def _problem(name: str, target: Relation, *hyps: Relation, vs: str = "abc") -> Problem:
    return Problem(name, list(vs), [Hypothesis(f"h{i}", h) for i, h in enumerate(hyps)], target)


FAST_SUBSET = [
    _problem("chenneq/P1", Relation(a * b + b * c + c * a, "<=", a**2 + b**2 + c**2)),
    _problem("chenneq/P3", Relation(a**2 * b + b**2 * c + c**2 * a, "<=", a**3 + b**3 + c**3),
             *(Relation(v, ">=", 0) for v in (a, b, c))),
    _problem("chenneq/P10", Relation(a + b + c, "<=", a**3 / (b * c) + b**3 / (c * a) + c**3 / (a * b)), *POS3),
    _problem("chenneq/P16", Relation(9 / (a + b + c), "<=", 2 * (1 / (a + b) + 1 / (b + c) + 1 / (c + a))), *POS3),
    _problem("chenneq/P21", Relation(1, "<=", a / sp.sqrt(a**2 + 8 * b * c) + b / sp.sqrt(b**2 + 8 * a * c)
                                     + c / sp.sqrt(c**2 + 8 * a * b)), *POS3),
    _problem("chenneq/P26", Relation(a / (2 * a**2 + a + 1) + b / (2 * b**2 + b + 1) + c / (2 * c**2 + c + 1),
                                     "<=", R(3, 4)), *POS3, Relation(a + b + c, "=", 3)),
    _problem("mo-int-20/P3", Relation(R(3, 2), "<=", 1 / (c**3 * (a + b)) + 1 / (a**3 * (b + c))
                                      + 1 / (b**3 * (c + a))), *POS3, Relation(a * b * c, "=", 1)),
    _problem("mo-int-20/P6", Relation(R(3, 4), "<=", a**3 / ((1 + b) * (1 + c)) + b**3 / ((1 + c) * (1 + a))
                                      + c**3 / ((1 + a) * (1 + b))), *POS3, Relation(a * b * c, "=", 1)),
    _problem("nesbitt", Relation(NESBITT, ">=", R(3, 2)), *POS3),
]


@pytest.mark.parametrize("problem", FAST_SUBSET, ids=[p.name for p in FAST_SUBSET])
def test_false_variant_is_confirmed_false(problem: Problem) -> None:
    rep = false_variant_report(problem, time_limit=8.0)
    v = rep.variant
    assert v is not None, rep.reason
    assert v.name == problem.name + "__false" and v.goal != problem.goal
    assert v.hypotheses == problem.hypotheses
    assert_refutes(Goal.from_problem(v), rep.counterexample)


def test_nesbitt_variant_is_8_over_5() -> None:
    v = false_variant_report(FAST_SUBSET[-1], time_limit=8.0).variant
    assert v is not None and v.goal == Relation(NESBITT, ">=", R(8, 5))


# ---------------------------------------------------------------- records and the z3 attempt

NESBITT_LEAN = ("theorem nesbitt {a b c : ℝ} (ha : a > 0) (hb : b > 0) (hc : c > 0) : "
                "3 / 2 ≤ a / (b + c) + b / (c + a) + c / (a + b) := by sorry")


def test_variant_record_round_trips_through_the_parser(tmp_path) -> None:
    import json

    from prover.frontend import parse_theorem
    from prover.variants import false_variants_jsonl, main

    src = tmp_path / "b.jsonl"
    src.write_text(json.dumps({"id": "t/nesbitt", "source": "test", "lean": NESBITT_LEAN}) + "\n",
                   encoding="utf-8")
    dst = tmp_path / "v.jsonl"
    reps = false_variants_jsonl(src, dst, time_limit=8.0)
    assert [r.variant is not None for r in reps] == [True]
    md = tmp_path / "r.md"
    assert main([str(src), "--out", str(tmp_path / "w.jsonl"), "--report", str(md), "--time-limit", "8"]) == 0
    assert "**1 / 1**" in md.read_text(encoding="utf-8")
    assert (tmp_path / "w.jsonl").read_text(encoding="utf-8") == dst.read_text(encoding="utf-8")
    (rec,) = [json.loads(line) for line in dst.read_text(encoding="utf-8").splitlines()]
    assert rec["id"] == "t/nesbitt__false" and rec["variant_of"] == "t/nesbitt"
    q = parse_theorem(rec["lean"], real_division=True)
    assert q.goal == reps[0].variant.goal == Relation(R(8, 5), "<=", NESBITT)
    assert reps[0].variant.meta["lean"] == rec["lean"]


def test_z3_attempt_records() -> None:
    from prover.oracles.z3_attempt import run_attempt

    rec = {"id": "t/nesbitt", "source": "test", "lean": NESBITT_LEAN}
    out = run_attempt(rec, 5.0, {})
    assert out["status"] == "proved" and out["z3"] == "unsat" and out["kernel_checked"] is False
    out = run_attempt(rec, 5.0, {"variants": "false"})
    assert out["status"] == "counterexample" and out["z3"] == "sat"
    ce = {var(k): sp.Rational(v) for k, v in out["counterexample"].items()}
    assert NESBITT.xreplace(ce) < R(8, 5)


def test_prover_does_not_prove_false_variants() -> None:
    """The soundness check of the acceptance criteria, on a fast subset (full run: eval --variants false)."""
    from prover.api import prove

    for problem in FAST_SUBSET[:2] + FAST_SUBSET[-1:]:
        v = false_variant_report(problem, time_limit=8.0).variant
        assert v is not None
        res = prove(v, time_limit=2.0)
        assert res.status != "proved", problem.name
        if res.status == "counterexample" and res.counterexample:
            assert_refutes(Goal.from_problem(v), _as_point(res.counterexample))


def _as_point(ce: dict) -> Counterexample:
    pt = {k: sp.sympify(v) if isinstance(v, str) else v for k, v in ce.items()}
    return Counterexample(pt, sp.Integer(0), 0.0, "prover")


def test_degenerate_goals() -> None:
    false_const = Goal((), (), Relation(sp.Integer(1), "<=", sp.Integer(0)))
    ce = find_counterexample(false_const, 1.0)
    assert ce is not None and dict(ce) == {} and ce.slack == -1
    assert find_counterexample(Goal((), (), Relation(sp.Integer(0), "<=", sp.Integer(1))), 0.5) is None
    infeasible = Goal(("a",), (Relation(a, ">", 1), Relation(a, "<", 0)), Relation(a, "<=", -5))
    assert find_counterexample(infeasible, 0.5) is None


def test_variants_command_is_deterministic_even_on_a_very_slow_machine(tmp_path, monkeypatch) -> None:
    """`python -m prover.variants` regenerates byte-identical files: its searches are bounded by
    work, not by the clock. The second run is under a clock that jumps 0.5 s at every reading (a
    machine hundreds of times slower): a search cut by a deadline would give other points."""
    import itertools
    import json
    from pathlib import Path

    from prover.variants import main

    root = Path(__file__).resolve().parents[1]
    lines = [json.dumps({"id": "t/nesbitt", "source": "test", "lean": NESBITT_LEAN})]
    lines += [ln for ln in (root / "benchmarks/chenneq.jsonl").read_text(encoding="utf-8").splitlines()
              if json.loads(ln)["id"] in ("chenneq/P15", "chenneq/P16", "chenneq/P22")]
    src = tmp_path / "b.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def run(name: str) -> tuple[bytes, bytes]:
        out, md = tmp_path / name / "v.jsonl", tmp_path / name / "v.md"
        out.parent.mkdir()
        assert main([str(src), "--out", str(out), "--report", str(md)]) == 0
        # the same command line in both reports: only the folder differs, written relative
        return out.read_bytes(), md.read_bytes().replace(f"/{name}/".encode(), b"/RUN/")

    first = run("run-a")
    assert first == run("run-b")
    ticks = itertools.count()
    monkeypatch.setattr(time, "monotonic", lambda: 0.5 * next(ticks))
    assert first == run("run-c")
    assert first[1].count(b"| yes |") == 4
