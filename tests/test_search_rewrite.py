"""The symbolic rewrites produce exactly valid certificates (checked here with sympy, independently
of the kernel) and the expected new goals."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step
from prover.problem import Relation, var
from prover.rewrite import (
    ClearDenominators,
    Homogenize,
    IntroduceRoots,
    ProductOneSubstitution,
    RaviSubstitution,
    default_generators,
)
from prover.search.best_first import assemble, goal_key

a, b, c = (var(x) for x in "abc")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (a, b, c))


def _rewrite_identity_holds(step: Step) -> bool:
    """slack(G) = m·slack(G') + Σ λ_j·eq(H_j), exactly."""
    g, (sub,) = step.goal, step.subgoals
    cert = step.certificate
    names = list(g.variables)
    from prover.ir import expr_from_str
    m = expr_from_str(cert["multiplier"], names)
    rhs = m * sub.target.slack()
    for t in cert["eq_terms"]:
        h = g.hypotheses[t["hyp"]]
        rhs += expr_from_str(t["poly"], names) * (h.lhs - h.rhs)
    return sp.simplify(sp.together(g.target.slack() - rhs)) == 0


def _one(gen, goal):
    cands = list(gen.generate(goal))
    assert cands, f"{gen.name} proposed nothing"
    return cands[0].step


def test_clear_denominators_nesbitt():
    g = Goal(("a", "b", "c"), POS, Relation(a / (b + c) + b / (c + a) + c / (a + b), ">=", sp.Rational(3, 2)))
    st = _one(ClearDenominators(), g)
    assert st.kind == "rewrite" and _rewrite_identity_holds(st)
    new = st.subgoals[0].target
    assert new.lhs.is_polynomial(a, b, c) and new.rhs.is_polynomial(a, b, c)


def test_clear_denominators_cancels_positive_factor():
    g = Goal(("a", "b", "c"), POS, Relation((a + b) * (a - b) ** 2 / c, ">=", sp.Integer(0)))
    st = _one(ClearDenominators(), g)
    assert _rewrite_identity_holds(st)
    # (a+b)/c positive and (a-b)^2 a square: what is left is trivial
    assert sp.expand(st.subgoals[0].target.slack()) == 1


def test_homogenize_with_sum_constraint():
    g = Goal(("a", "b", "c"), POS + (Relation(a + b + c, "=", sp.Integer(3)),),
             Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)))
    st = _one(Homogenize(), g)
    assert _rewrite_identity_holds(st)
    p = sp.Poly(st.subgoals[0].target.slack(), a, b, c)
    assert {sum(m) for m in p.monoms()} == {2}


def test_homogenize_refuses_incompatible_degrees():
    g = Goal(("a", "b", "c"), POS + (Relation(a * b * c, "=", sp.Integer(1)),),
             Relation(a ** 2 + b ** 2 + c ** 2, ">=", a + b + c))
    assert list(Homogenize().generate(g)) == []


def _substitution_consistent(step: Step) -> bool:
    """f(g(x)) = x modulo the recorded equality multipliers, and the target is G's with f applied."""
    g, (sub,) = step.goal, step.subgoals
    cert = step.certificate
    from prover.ir import expr_from_str
    f = {var(k): expr_from_str(v, list(sub.variables)) for k, v in cert["substitution"].items()}
    inv = {var(k): expr_from_str(v, list(g.variables)) for k, v in cert["inverse"].items()}
    for old, fx in f.items():
        diff = fx.subs(inv, simultaneous=True) - old
        for t in cert.get("eq_terms", {}).get(str(old), []):
            h = g.hypotheses[t["hyp"]]
            diff -= expr_from_str(t["poly"], list(g.variables)) * (h.lhs - h.rhs)
        if sp.simplify(diff) != 0:
            return False
    t = g.target
    return sp.simplify(sub.target.slack() - t.slack().subs(f, simultaneous=True)) == 0


def test_ravi_substitution():
    tri = (Relation(a + b, ">", c), Relation(b + c, ">", a), Relation(c + a, ">", b))
    g = Goal(("a", "b", "c"), POS + tri, Relation(a * b * c, ">=", (a + b - c) * (b + c - a) * (c + a - b)))
    st = _one(RaviSubstitution(), g)
    assert st.kind == "substitute" and _substitution_consistent(st)
    assert len(st.certificate["new_hypotheses"]) == len(st.subgoals[0].hypotheses) == 3


def test_product_one_substitution():
    g = Goal(("a", "b", "c"), POS + (Relation(a * b * c, "=", sp.Integer(1)),), Relation(a + b + c, ">=", 3))
    steps = [cand.step for cand in ProductOneSubstitution().generate(g)]
    assert len(steps) == 2
    assert all(_substitution_consistent(st) for st in steps)
    assert all(len(st.subgoals[0].hypotheses) == 3 for st in steps)   # abc = 1 became trivial


def test_introduce_roots():
    g = Goal(("a", "b"), POS[:2], Relation((a + b) / 2, ">=", sp.sqrt(a * b)))
    st = _one(IntroduceRoots(), g)
    sub = st.subgoals[0]
    assert st.kind == "introduce" and sub.variables == ("a", "b", "t1")
    t1 = var("t1")
    assert sub.target.rhs == t1
    assert Relation(t1 ** 2, "=", a * b) in sub.hypotheses


def test_no_rewrite_proposes_a_wrong_identity():
    goals = [
        Goal(("a", "b", "c"), POS, Relation(a ** 3 / (b * c) + b ** 3 / (c * a), ">=", a + b - c)),
        Goal(("a", "b", "c"), POS + (Relation(a + b + c, "=", sp.Integer(1)),),
             Relation(a * b / (1 - c ** 2) + b * c / (1 - a ** 2), "<=", sp.Rational(3, 8))),
    ]
    for g in goals:
        for gen in default_generators():
            for cand in gen.generate(g):
                if cand.step.kind == "rewrite":
                    assert _rewrite_identity_holds(cand.step), (gen.name, g)


def test_assemble_rebuilds_preorder_tree():
    g = Goal(("a",), (), Relation(a ** 2, ">=", sp.Integer(0)))
    g1, g2 = g.with_hypotheses([Relation(a, ">=", 0)]), g.with_hypotheses([Relation(a, "<=", 0)])
    split = Step("split", g, [g1, g2], {"cases": "sign", "expr": "a"})
    c1 = Step("close", g1, [], {"method": "positivity"})
    c2 = Step("close", g2, [], {"method": "positivity"})
    root = assemble([(split, 2), (c1, 0), (c2, 0)])
    assert [s.kind for s in root.walk()] == ["split", "close", "close"]
    assert root.children[1].goal == g2
    assert split.children == []          # the search's shared step objects stay untouched


def test_goal_key_identifies_equal_slacks():
    g1 = Goal(("a",), (), Relation(a ** 2 + 1, ">=", 2 * a))
    g2 = Goal(("a",), (), Relation((a - 1) ** 2, ">=", sp.Integer(0)))
    assert goal_key((g1,)) == goal_key((g2,))


def test_split_order_uses_the_symmetry_and_the_kernel_accepts_it():
    from prover.rewrite.split import SplitOrder
    from prover.verify import Kernel

    nonneg = tuple(Relation(v, ">=", sp.Integer(0)) for v in (a, b, c))
    sym = Goal(("a", "b", "c"), nonneg, Relation(a ** 3 + b ** 3 + c ** 3, ">=", 3 * a * b * c))
    cyc = Goal(("a", "b", "c"), nonneg, Relation(a ** 3 + b ** 3 + c ** 3, ">=", a ** 2 * b + b ** 2 * c + c ** 2 * a))
    none = Goal(("a", "b", "c"), nonneg, Relation(a ** 3 + b ** 3 + c ** 3, ">=", a ** 2 * b + b ** 2 * c + c * a))
    (s1,) = [cd.step for cd in SplitOrder().generate(sym)]
    (s2,) = [cd.step for cd in SplitOrder().generate(cyc)]
    assert len(s1.subgoals) == 1 and len(s2.subgoals) == 2
    for st in (s1, s2):
        Kernel(None).check_one(st)
    assert list(SplitOrder().generate(none)) == []
    # an already ordered goal is not split again
    assert list(SplitOrder().generate(s1.subgoals[0])) == []


def test_tangent_line_trick_closes_a_separable_sum():
    """Σ (3-2x)²/(x² + (3-x)²) >= 3/5 with a+b+c = 3 (ChenNEQ P19 shape): one sos close step."""
    from prover.rewrite.tangent import TangentLine
    from prover.verify import Kernel

    f = sum(((3 - 2 * x) ** 2 / (x ** 2 + (3 - x) ** 2) for x in (a, b, c)), sp.Integer(0))
    g = Goal(("a", "b", "c"), POS + (Relation(a + b + c, "=", sp.Integer(3)),), Relation(f, ">=", sp.Rational(3, 5)))
    (st,) = [cd.step for cd in TangentLine().generate(g)]
    assert st.kind == "close" and st.certificate["method"] == "sos"
    Kernel(None).check_one(st)
    # not tight at the centre (a tangent line does not exist there): nothing proposed
    g2 = g.with_target(Relation(f, ">=", sp.Rational(4, 5)))
    assert list(TangentLine().generate(g2)) == []


def test_homogenize_by_an_inequality_constraint():
    """a + b + c <= 3 ⊢ 1/a + 1/b + 1/c >= 3: the degree-2 part is raised with u = (a+b+c)/3 <= 1."""
    from prover.rewrite import HomogenizeByBound
    from prover.search.close import close_goal
    from prover.verify import check_step

    g = Goal(("a", "b", "c"), POS + (Relation(a + b + c, "<=", sp.Integer(3)),),
             Relation(1 / a + 1 / b + 1 / c, ">=", sp.Integer(3)))
    st = _one(HomogenizeByBound(), g)
    assert st.kind == "scale" and st.certificate["applications"][0]["hypothesis"] == 3
    p = sp.Poly(st.subgoals[0].target.slack(), a, b, c)
    assert {sum(m) for m in p.monoms()} == {3}
    leaf = close_goal(st.subgoals[0], 30)
    assert leaf is not None
    st.children = [leaf]
    v = check_step(st)
    assert v.ok, v.errors
    # the wrong direction (a + b + c >= 3) gives no homogenisation: 1/a… would need N_2 <= 0
    g_wrong = Goal(g.variables, POS + (Relation(a + b + c, ">=", sp.Integer(3)),), g.target)
    assert [cd for cd in HomogenizeByBound().generate(g_wrong) if cd.step.kind == "scale"] == []


def test_bound_homogenization_of_a_false_variant_is_not_proved():
    from prover.api import prove
    from prover.problem import Hypothesis, Problem

    hyps = [Hypothesis(f"h{v}", Relation(v, ">", sp.Integer(0))) for v in (a, b, c)]
    hyps.append(Hypothesis("h", Relation(a + b + c, "<=", sp.Integer(4))))
    p = Problem("false", ["a", "b", "c"], hyps, Relation(1 / a + 1 / b + 1 / c, ">=", sp.Integer(3)))
    assert prove(p, time_limit=10).status != "proved"


def test_homogenize_by_a_two_sided_equality_constraint():
    """abc(a + b + c) = ab + bc + ca written as a + b + c = 1/a + 1/b + 1/c: u = abc(a+b+c)/(ab+bc+ca)."""
    from prover.rewrite import HomogenizeByEquality
    from prover.search.close import close_goal
    from prover.verify import check_step

    hyp = Relation(a + b + c, "=", 1 / a + 1 / b + 1 / c)
    g = Goal(("a", "b", "c"), POS + (hyp,), Relation(a * b + b * c + c * a, ">=", sp.Integer(3)))
    st = _one(HomogenizeByEquality(), g)
    assert st.kind == "rewrite" and st.certificate["eq_terms"][0]["hyp"] == 3
    p = sp.Poly(st.subgoals[0].target.slack(), a, b, c)
    assert len({sum(m) for m in p.monoms()}) == 1
    # the homogeneous subgoal is (ab+bc+ca)² >= 3abc(a+b+c), true; the whole step checks
    leaf = close_goal(st.subgoals[0], 30)
    assert leaf is not None
    st.children = [leaf]
    v = check_step(st)
    assert v.ok, v.errors
