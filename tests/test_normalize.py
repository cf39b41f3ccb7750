"""The closers' normal form (prover/rewrite/chain.py) and its rewrites on benchmark-like goals (fractions, radicals, constraints): each chain is
exact, and the kernel accepts the whole proof once the closer finishes it."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, expr_from_str
from prover.problem import Relation, var
from prover.rewrite.chain import normalize
from prover.rewrite.fractions import ClearDenominators, ClearHypothesisDenominators
from prover.rewrite.homogenize import Homogenize
from prover.rewrite.introduce import IntroduceRoots
from prover.rewrite.scaling import ScaleByConstraint
from prover.rewrite.substitute import ProductOneRatios
from prover.search.close import close_goal
from tests.solver_checks import kernel_accepts

a, b, c = (var(x) for x in "abc")
ABC = ("a", "b", "c")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (a, b, c))


def test_clear_denominators_multiplier_is_positive_and_exact():
    g = Goal(ABC, POS, Relation(9 / (a + b + c), "<=", 1 / a + 1 / b + 1 / c))
    st = ClearDenominators(drop_squares=False, max_factor_terms=None).apply(g)
    assert st is not None
    m = expr_from_str(st.certificate["multiplier"], ABC)
    assert sp.simplify(g.target.slack() - m * st.subgoals[0].target.slack()) == 0
    assert st.subgoals[0].target.slack().is_polynomial(a, b, c)


def test_sqrt_introduced_and_closed():
    g = Goal(("a",), (Relation(a, ">=", 0),), Relation(sp.sqrt(a), "<=", (a + 1) / 2))
    st = IntroduceRoots(hypotheses=True).apply(g)
    assert st is not None and st.kind == "introduce"
    assert "t1" in st.subgoals[0].variables
    proof = close_goal(g, 20)
    assert proof is not None and proof.kind == "introduce"
    assert kernel_accepts(g, proof)


def test_constraint_homogenised_polynomially():
    # a, b, c >= 0, a + b + c = 3  =>  ab + bc + ca <= 3
    hyps = tuple(Relation(v, ">=", 0) for v in (a, b, c)) + (Relation(a + b + c, "=", 3),)
    g = Goal(ABC, hyps, Relation(a * b + b * c + c * a, "<=", 3))
    st = Homogenize(require_sign=True).apply(g)
    assert st is not None and st.certificate["eq_terms"]
    sub = st.subgoals[0].target.slack()
    assert len({sum(m) for m in sp.Poly(sub, a, b, c).monoms()}) == 1
    proof = close_goal(g, 20)
    assert proof is not None and kernel_accepts(g, proof)


def test_fraction_equality_hypothesis_cleared_with_proof():
    hyps = POS + (Relation(a + b + c, "=", 1 / a + 1 / b + 1 / c),)
    g = Goal(ABC, hyps, Relation(0, "<=", a))
    st = ClearHypothesisDenominators().apply(g)
    assert st is not None
    new = st.subgoals[0].hypotheses[-1]
    assert new.op == "=" and new.lhs.is_polynomial(a, b, c)
    from tests.solver_checks import sos_identity_holds
    proof = st.certificate["new_hypotheses"][0]["proof"]
    assert sos_identity_holds(g.with_target(new), proof)


def test_homogenising_substitution_is_exact_modulo_the_constraint():
    hyps = POS + (Relation(a + b + c, "=", 3),)
    g = Goal(ABC, hyps, Relation(6, "<=", 18 / ((3 - c) * (4 - c)) + a ** 2 + b ** 2 + c ** 2))
    st = ScaleByConstraint().apply(g)
    assert st is not None and st.kind == "substitute"
    eq = hyps[-1].lhs - hyps[-1].rhs
    for x, fx in st.certificate["substitution"].items():
        f = expr_from_str(fx, ABC)
        lam = expr_from_str(st.certificate["eq_terms"][x][0]["poly"], ABC)
        assert sp.simplify(f - var(x) - lam * eq) == 0     # inverse is the identity here
    # the subgoal's target has no denominator that needs the constraint
    _num, den = sp.fraction(sp.together(st.subgoals[0].target.slack()))
    assert all(coef > 0 for coef in sp.Poly(den, a, b, c).coeffs())


def test_normalize_reaches_polynomial_goal_for_nesbitt():
    g = Goal(ABC, POS, Relation(sp.Rational(3, 2), "<=", a / (b + c) + b / (c + a) + c / (a + b)))
    n = normalize(g)
    assert n.goal is not None and n.goal.target.slack().is_polynomial(a, b, c)
    assert all(len(s.subgoals) == 1 for s in n.steps)


def test_product_constraint_substitution_kernel_checked():
    hyps = POS + (Relation(a * b * c, "=", 1),)
    g = Goal(ABC, hyps, Relation(3, "<=", a + b + c))
    st = ProductOneRatios().apply(g)
    assert st is not None and st.kind == "substitute" and st.certificate["eq_terms"]
    proof = close_goal(g, 20)
    assert proof is not None and kernel_accepts(g, proof)
