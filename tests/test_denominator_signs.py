"""Denominators positive only thanks to a constraint become proved hypotheses (then the usual
rewrites apply); sign-changing denominators are left alone; false variants are never proved."""

from __future__ import annotations

import sympy as sp

from prover.api import prove
from prover.ir import Goal
from prover.problem import Hypothesis, Problem, Relation, var
from prover.rewrite import DenominatorSigns
from prover.verify import check_proof, check_step

a, b = var("a"), var("b")
POS = (Relation(a, ">", sp.Integer(0)), Relation(b, ">", sp.Integer(0)))


def _goal(total: int, rhs) -> Goal:
    return Goal(("a", "b"), POS + (Relation(a + b, "=", sp.Integer(total)),),
                Relation(1 / (3 - a) + 1 / (3 - b), ">=", sp.sympify(rhs)))


def test_constraint_positive_denominators_become_hypotheses():
    g = _goal(2, 1)
    (cand,) = list(DenominatorSigns().generate(g))
    st = cand.step
    assert st.kind == "rewrite" and st.subgoals[0].target == g.target
    new = st.subgoals[0].hypotheses[len(g.hypotheses):]
    assert {sp.expand(h.lhs) for h in new} == {3 - a, 3 - b} and all(h.op == ">" for h in new)
    v = check_step(st)        # only the open subgoal is reported: the step itself is accepted
    assert len(v.errors) == 1 and "open subgoal" in v.errors[0]


def test_sign_changing_denominator_is_left_alone():
    assert list(DenominatorSigns().generate(_goal(4, 1))) == []


def test_search_proves_the_goal_and_not_its_false_variant():
    hyps = [Hypothesis("ha", POS[0]), Hypothesis("hb", POS[1]), Hypothesis("h", Relation(a + b, "=", sp.Integer(2)))]
    good = Problem("den", ["a", "b"], hyps, Relation(1 / (3 - a) + 1 / (3 - b), ">=", sp.Integer(1)))
    res = prove(good, time_limit=60)
    assert res.status == "proved" and check_proof(res.proof).ok
    false = Problem("den_false", ["a", "b"], hyps, Relation(1 / (3 - a) + 1 / (3 - b), ">=", sp.Rational(11, 10)))
    assert prove(false, time_limit=20).status != "proved"
