"""Product bounds: each univariate factor of a product is replaced by ``α x^m + β`` tangent at
the equality point; the step and its facts pass the kernel, the whole USAMO 2004 proof passes
``check_proof``, and a false variant is never proved."""

from __future__ import annotations

import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal, Proof, Step, expr_from_str, relation_from_json
from prover.problem import Relation, var
from prover.rewrite.product_bounds import ProductBounds, product_factors, simple_bound
from prover.search.close import close_goal
from prover.verify import check_close, check_proof, check_step

a, b, c = (var(v) for v in "abc")
ABC = ("a", "b", "c")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (a, b, c))


def _f(x: sp.Expr) -> sp.Expr:
    return x**5 - x**2 + 3


def _facts_hold(step: Step) -> None:
    g = step.goal
    total = sp.Integer(0)
    for app in step.certificate["applications"]:
        rel = relation_from_json(app["fact"], g.variables)
        check_close(g.with_target(rel), app["proof"])
        total += expr_from_str(app["coefficient"], g.variables) * rel.slack()
    assert sp.expand(g.target.slack() - step.subgoals[0].target.slack() - total) == 0


def _only_open_subgoals(step: Step) -> bool:
    v = check_step(step)
    return v.ok or all("open subgoal" in e for e in v.errors)


def test_simple_bound_touches_at_the_point():
    g = simple_bound(_f(a), a, sp.Integer(1), 3)
    assert sp.expand(g - (a**3 + 2)) == 0
    assert simple_bound(-a**3 + 3 * a, a, sp.Integer(2), 2) is None      # α < 0
    assert product_factors((a + b + c) ** 3, [a, b, c]) is None
    assert product_factors(a**2 + 1, [a, b, c]) is None                  # one factor: no product
    fs = product_factors(_f(a) * (b**2 + 1) ** 2, [a, b, c])
    assert fs is not None and sorted(str(f.x) for f in fs) == ["a", "b", "b"]


def test_usamo_2004_whole_proof():
    problem = parse_theorem("theorem t (a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) : "
                            "(a + b + c) ^ 3 ≤ (a ^ 5 - a ^ 2 + 3) * (b ^ 5 - b ^ 2 + 3) * (c ^ 5 - c ^ 2 + 3)"
                            " := by sorry")
    goal = Goal.from_problem(problem)
    cands = list(ProductBounds().generate(goal))
    assert cands
    step = cands[0].step
    assert step.kind == "scale" and len(step.certificate["applications"]) == 3
    assert sp.expand(step.subgoals[0].target.rhs - (a**3 + 2) * (b**3 + 2) * (c**3 + 2)) == 0
    _facts_hold(step)
    assert _only_open_subgoals(step)
    leaf = close_goal(step.subgoals[0], 25)
    assert leaf is not None
    step.children = [leaf]
    assert check_proof(Proof(problem, step)).ok


def test_two_factors_with_a_kept_factor():
    # (a²+1)(b²+1)·(a+b) ≥ 4ab(a+b): the linear factor stays, the quadratics become 2x, and
    # nothing is left to prove
    goal = Goal(("a", "b"), POS[:2], Relation((a**2 + 1) * (b**2 + 1) * (a + b), ">=", 4 * a * b * (a + b)))
    cands = list(ProductBounds().generate(goal))
    assert cands
    st = cands[0].step
    assert sp.expand(st.subgoals[0].target.slack()) == 0
    _facts_hold(st)
    assert _only_open_subgoals(st)


def test_false_variant_gives_no_proof():
    # 28/27·(a+b+c)³ is too much at a = b = c = 1: every proposed subgoal must stay unproved
    goal = Goal(ABC, POS, Relation(sp.Rational(28, 27) * (a + b + c) ** 3, "<=", _f(a) * _f(b) * _f(c)))
    for cd in ProductBounds(max_candidates=2).generate(goal):
        assert _only_open_subgoals(cd.step)
        assert close_goal(cd.step.subgoals[0], 5) is None


def test_nothing_for_a_non_product():
    goal = Goal(ABC, POS, Relation(a * b + b * c + c * a, "<=", a**2 + b**2 + c**2))
    assert list(ProductBounds().generate(goal)) == []
