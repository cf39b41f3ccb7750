"""Radical groups (prover/rewrite/radical_groups.py): sums of square roots proved group by group;
false variants never proved; every produced tree is re-checked by the kernel here."""

from __future__ import annotations

import math

import sympy as sp

from prover.frontend.statement import parse_theorem
from prover.ir import Goal, Proof
from prover.problem import var
from prover.rewrite.radical_groups import RadicalGroups, build, grouping_options
from prover.verify import check_proof

HYPS = "(a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0)"
TRIANGLE = f"{HYPS} (h1 : a + b > c) (h2 : a + c > b) (h3 : b + c > a)"
# the classic: √(a+b−c) + √(a−b+c) <= 2√a for each vertex, summed
CLASSIC = (f"theorem tri {TRIANGLE} : Real.sqrt (a + b - c) + Real.sqrt (b + c - a) + Real.sqrt (c + a - b) "
           "≤ Real.sqrt a + Real.sqrt b + Real.sqrt c := by sorry")


def _problem(text: str):
    return parse_theorem(text, real_division=True)


def _proved(text: str, time_limit: float = 20.0):
    problem = _problem(text)
    step = build(Goal.from_problem(problem), time_limit)
    if step is None:
        return None
    verdict = check_proof(Proof(problem, step))
    assert verdict.ok, verdict.errors
    return step


def test_triangle_classic_pairs_each_vertex() -> None:
    step = _proved(CLASSIC)
    assert step is not None
    assert [s.kind for s in step.walk()] == ["introduce", "scale", "close"]
    apps = step.children[0].certificate["applications"]
    assert len(apps) == 3          # one fact per vertex
    cands = list(RadicalGroups().generate(Goal.from_problem(_problem(CLASSIC))))
    assert len(cands) == 1 and cands[0].closes


def test_grouping_pairs_a_term_with_the_half_orbit_it_shares() -> None:
    a, b, c = var("a"), var("b"), var("c")
    terms = [sp.sqrt(a), sp.sqrt(b), sp.sqrt(c), -sp.sqrt(a + b - c), -sp.sqrt(b + c - a), -sp.sqrt(c + a - b)]
    perms = [dict(zip((a, b, c), p)) for p in ((a, b, c), (b, a, c), (a, c, b), (c, b, a), (b, c, a), (c, a, b))]
    options = list(grouping_options(terms, perms))
    want = sp.sqrt(a) - sp.sqrt(a + b - c) / 2 - sp.sqrt(c + a - b) / 2
    assert any(any(sp.expand(g - want) == 0 for g in groups) for groups in options)
    for groups in options:
        assert sp.expand(sp.Add(*groups) - sp.Add(*terms)) == 0


def test_concavity_pairs() -> None:
    # √((a+b)/2) >= (√a + √b)/2, summed cyclically
    text = (f"theorem t {HYPS} : Real.sqrt a + Real.sqrt b + Real.sqrt c ≤ Real.sqrt ((a + b) / 2) + "
            "Real.sqrt ((b + c) / 2) + Real.sqrt ((c + a) / 2) := by sorry")
    assert _proved(text) is not None


def test_tangent_plane_on_the_constraint() -> None:
    # √a <= (a + 1)/2 on a + b + c = 3; the planes add up to 3 modulo the constraint
    text = f"theorem t {HYPS} (h : a + b + c = 3) : Real.sqrt a + Real.sqrt b + Real.sqrt c ≤ 3 := by sorry"
    assert _proved(text) is not None


def test_difference_of_radicals_on_the_constraint() -> None:
    # the classic √(a + bc) >= a + √(bc) under a + b + c = 1 (two radicals isolated in turn)
    text = (f"theorem t {HYPS} (h : a + b + c = 1) : Real.sqrt (a + b * c) + Real.sqrt (b + c * a) + "
            "Real.sqrt (c + a * b) ≥ 1 + Real.sqrt (b * c) + Real.sqrt (c * a) + Real.sqrt (a * b) := by sorry")
    step = _proved(text)
    assert step is not None


def _value(expr: str, point: dict[str, float]) -> float:
    return eval(expr, {"sqrt": math.sqrt}, point)


def test_false_variants_are_not_proved() -> None:
    variants = [
        # the classic reversed: false at (1, 1, 3/2)
        ((f"theorem f1 {TRIANGLE} : Real.sqrt (a + b - c) + Real.sqrt (b + c - a) + Real.sqrt (c + a - b) "
          "≥ Real.sqrt a + Real.sqrt b + Real.sqrt c := by sorry"),
         "sqrt(a+b-c)+sqrt(b+c-a)+sqrt(c+a-b) - sqrt(a)-sqrt(b)-sqrt(c)", {"a": 1, "b": 1, "c": 1.5}),
        # a coefficient perturbed: false at a = b = c
        ((f"theorem f2 {TRIANGLE} : Real.sqrt (a + b - c) + Real.sqrt (b + c - a) + Real.sqrt (c + a - b) "
          "≤ 9 / 10 * (Real.sqrt a + Real.sqrt b + Real.sqrt c) := by sorry"),
         "0.9*(sqrt(a)+sqrt(b)+sqrt(c)) - sqrt(a+b-c)-sqrt(b+c-a)-sqrt(c+a-b)", {"a": 1, "b": 1, "c": 1}),
        # the constant raised: false at a = b = c = 1/3
        ((f"theorem f3 {HYPS} (h : a + b + c = 1) : 11 / 10 + Real.sqrt (a * b) + Real.sqrt (b * c) + "
          "Real.sqrt (c * a) ≤ Real.sqrt (a * b + c) + Real.sqrt (b * c + a) + Real.sqrt (c * a + b) := by sorry"),
         "sqrt(a*b+c)+sqrt(b*c+a)+sqrt(c*a+b) - 1.1 - sqrt(a*b)-sqrt(b*c)-sqrt(c*a)", {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}),
        # the constraint scale changed: false at a = b = c = 1 (√a > (a+1)/2·… fails)
        (f"theorem f4 {HYPS} (h : a + b + c = 3) : Real.sqrt a + Real.sqrt b + Real.sqrt c ≤ 29 / 10 := by sorry",
         "2.9 - sqrt(a)-sqrt(b)-sqrt(c)", {"a": 1, "b": 1, "c": 1}),
    ]
    for text, slack, point in variants:
        assert _value(slack, point) < 0, text          # the variant really is false
        goal = Goal.from_problem(_problem(text))
        assert build(goal, 10.0) is None, text
        assert list(RadicalGroups(time_limit=10.0).generate(goal)) == [], text


def test_goal_without_radicals_is_left_alone() -> None:
    text = f"theorem t {HYPS} : a + b + c ≥ 0 := by sorry"
    assert build(Goal.from_problem(_problem(text)), 5.0) is None
