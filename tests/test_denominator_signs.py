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


# ---------------------------------------------------------------- the cheap certificate

x, y, z = var("x"), var("y"), var("z")
XYZ_POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (x, y, z))
SUM3 = Relation(x * y + y * z + z * x, "=", sp.Integer(3))


def _xyz_goal(hyps, target_rhs=1) -> Goal:
    return Goal(("x", "y", "z"), hyps, Relation(sum(1 / (u ** 2 - v * w + 3) for u, v, w in
                                                     ((x, y, z), (y, z, x), (z, x, y))), ">=", sp.sympify(target_rhs)))


def test_lifted_factor_with_positive_coefficients_is_proved_without_sos():
    from prover.kernel.check import check_close
    from prover.rewrite.denominator_signs import constraint_positivity

    g = _xyz_goal(XYZ_POS + (SUM3,))
    fact = x ** 2 - y * z + 3                    # = x² + xy + xz under the constraint
    cert = constraint_positivity(fact, g, [x, y, z])
    assert cert is not None and cert.eq_terms and all(t.poly == "1" for t in cert.terms)
    check_close(g.with_target(Relation(fact, ">", sp.Integer(0))), cert)   # raises when refused


def test_cheap_certificate_refuses_what_it_cannot_show():
    from prover.rewrite.denominator_signs import constraint_positivity

    g = _xyz_goal(XYZ_POS + (SUM3,))
    # lifted: x² + xy + xz − 2yz (a negative coefficient; the fact fails at x → 0)
    assert constraint_positivity(x ** 2 - 2 * y * z + 3, g, [x, y, z]) is None
    # only x >= 0 etc.: every monomial is merely nonnegative, so no strict certificate
    weak = _xyz_goal(tuple(Relation(v, ">=", sp.Integer(0)) for v in (x, y, z)) + (SUM3,))
    assert constraint_positivity(x ** 2 - y * z + 3, weak, [x, y, z]) is None
    # no homogeneous constraint at all
    assert constraint_positivity(x ** 2 - y * z + 3, _xyz_goal(XYZ_POS), [x, y, z]) is None


def test_three_variable_constraint_denominators_proved_and_false_variant_refused():
    hyps = [Hypothesis(f"h{v}", r) for v, r in zip("xyz", XYZ_POS)] + [Hypothesis("h", SUM3)]
    terms = sum(1 / (u ** 2 - v * w + 3) for u, v, w in ((x, y, z), (y, z, x), (z, x, y)))
    res = prove(Problem("den3", ["x", "y", "z"], hyps, Relation(terms, ">=", sp.Integer(1))), time_limit=60)
    assert res.status == "proved" and check_proof(res.proof).ok
    false = Problem("den3_false", ["x", "y", "z"], hyps, Relation(terms, ">=", sp.Rational(11, 10)))
    assert prove(false, time_limit=20).status != "proved"
