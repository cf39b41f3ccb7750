"""Matching catalogue lemmas against goals: candidate scale steps are exact, kernel-checked, and
keep the goal's equality case."""

from __future__ import annotations

import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal, Step
from prover.problem import var
from prover.tactics.catalogue import lemma_lookup, load_catalogue
from prover.tactics.match import candidates, equality_point, match_sum, scale_steps
from prover.verify import check_step

CAT = load_catalogue()
a, b, c = var("a"), var("b"), var("c")
X, Y = sp.Wild("X"), sp.Wild("Y")


def goal(text: str) -> Goal:
    return Goal.from_problem(parse_theorem(text))


def only_open_subgoal(step: Step) -> bool:
    """The kernel accepts the step itself (its subgoal is left open)."""
    v = check_step(step, lemma_lookup())
    return all("open subgoal" in e for e in v.errors) and len(v.errors) == 1


def closed(step: Step) -> Step:
    """The step with its subgoal closed by a trivial certificate (slack identically 0)."""
    sub = step.subgoals[0]
    assert sp.simplify(sub.target.slack()) == 0
    step.children = [Step("close", sub, [], {"method": "sos", "terms": [], "eq_terms": []})]
    return step


def test_match_sum_finds_sub_sums_with_one_ratio():
    ms = match_sum([a**2, b**2, c**2], X**2 + Y**2)
    assert {m.used for m in ms} == {(0, 1), (0, 2), (1, 2)}
    assert all(m.ratio == 1 for m in ms)
    (m2, *_) = match_sum([2 * a**2, 2 * b**2, c], X**2 + Y**2)
    assert m2.ratio == 2 and m2.used == (0, 1)
    assert match_sum([2 * a**2, 3 * b**2], X**2 + Y**2) == []   # no common constant factor
    assert match_sum([a**2], X**2 + Y**2) == []


def test_equality_point():
    assert equality_point(goal("theorem t (a b c : ℝ) (h : a + b + c = 3) (ha : a > 0) : a^2+b^2+c^2 ≥ 3")) == \
        {a: 1, b: 1, c: 1}
    assert equality_point(goal("theorem t (a b : ℝ) : a^2 + b^2 ≥ 2*a*b")) == {a: 1, b: 1}
    assert equality_point(goal("theorem t (a : ℝ) : a^2 + 4 ≥ 4*a")) is None  # tight at a = 2, not a = 1


def test_amgm_on_both_sides_and_full_proof():
    g = goal("theorem t (a b : ℝ) : a^2 + b^2 ≥ 2*a*b")
    steps = scale_steps(g, [CAT["amgm2"]])
    assert {s.certificate["applications"][0]["instance"]["x"] for s in steps} <= {"a", "b"}
    assert len(steps) == 2
    for s in steps:
        assert s.kind == "scale" and s.certificate["multiplier"] == "1"
        assert check_step(closed(s), lemma_lookup()).ok


def test_equality_case_filter():
    g = goal("theorem t (a b : ℝ) : a^2 + b^2 ≥ 2*a*b")
    assert candidates(g, CAT["amgm2"], point={a: 1, b: 2}) == []      # x = a, y = b is not tight there
    assert len(candidates(g, CAT["amgm2"], point=None)) == 2


def test_factor_position_with_positive_cofactor():
    g = goal("theorem t (a b c : ℝ) (hc : c ≥ 0) : 3 * c * (a^2 + b^2) ≥ 6 * a * b * c")
    steps = scale_steps(g, [CAT["amgm2"]])
    factor_steps = [s for s in steps if "factor" in s.note]
    assert factor_steps and factor_steps[0].certificate["applications"][0]["coefficient"] == "3*c"
    assert check_step(closed(factor_steps[0]), lemma_lookup()).ok
    # without c >= 0 the cofactor is not provably nonnegative: no factor position
    g2 = goal("theorem t (a b c : ℝ) : 3 * c * (a^2 + b^2) ≥ 6 * a * b * c")
    assert not [s for s in scale_steps(g2, [CAT["amgm2"]]) if "factor" in s.note]


def test_denominator_position():
    g = goal("theorem t (a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) : c / (a^2 + b^2) ≤ c / (2*a*b)")
    steps = [s for s in scale_steps(g, [CAT["amgm2"]]) if "denominator" in s.note]
    assert steps
    for s in steps:
        assert check_step(closed(s), lemma_lookup()).ok


def test_side_conditions_must_be_provable():
    bare = goal("theorem t (x y z : ℝ) : x^3 + y^3 + z^3 ≥ 3*x*y*z")
    assert scale_steps(bare, [CAT["amgm3"]]) == []
    pos = goal("theorem t (x y z : ℝ) (hx : x ≥ 0) (hy : y ≥ 0) (hz : z ≥ 0) : x^3 + y^3 + z^3 ≥ 3*x*y*z")
    steps = scale_steps(pos, [CAT["amgm3"]])
    assert steps and all(check_step(closed(s), lemma_lookup()).ok for s in steps)


def test_tangent_line_schema_takes_the_point_from_the_equality_case():
    g = goal("theorem t (a b : ℝ) (ha : a > 0) (hb : b > 0) (h : a + b = 2) : a^3 + b^3 ≥ a + b")
    steps = scale_steps(g, [CAT["tangent_cube"]])
    assert steps
    inst = steps[0].certificate["applications"][0]["instance"]
    assert inst["t"] == "1"
    assert all(only_open_subgoal(s) for s in steps)


def test_lean_trusted_lemma_is_reported():
    g = goal("theorem t (a b : ℝ) (ha : a ≥ 0) (hb : b ≥ 0) : Real.sqrt (a*b) ≤ (a+b)/2")
    (s,) = scale_steps(g, [CAT["amgm2_sqrt"]])
    v = check_step(closed(s), lemma_lookup())
    assert v.ok and any("Lean" in t for t in v.trusted_lemmas)


def test_no_equalities_no_invented_radicals_and_all_steps_check():
    assert scale_steps(goal("theorem t (a b : ℝ) : a^2 + b^2 = 2*a*b"), [CAT["amgm2"]]) == []
    g = goal("theorem t (a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) : 9/(a+b+c) ≤ 1/a + 1/b + 1/c")
    steps = scale_steps(g)
    lemmas = {s.certificate["applications"][0]["lemma"] for s in steps}
    assert {"amhm3"} <= lemmas
    for s in steps:
        inst = s.certificate["applications"][0]["instance"]
        assert not any("sqrt" in v or "**(" in v for v in inst.values())
        assert only_open_subgoal(s)
    exact = [s for s in steps if s.certificate["applications"][0]["lemma"] == "amhm3"]
    assert any(check_step(closed(s), lemma_lookup()).ok for s in exact
               if sp.simplify(s.subgoals[0].target.slack()) == 0)


def test_subgoal_is_the_goal_with_the_part_replaced():
    g = goal("theorem t (a b c : ℝ) : a*b + b*c + c*a ≤ a^2 + b^2 + c^2")
    steps = scale_steps(g, [CAT["amgm2"]])
    rhs_steps = [s for s in steps if "rhs" in s.note]
    assert {str(s.subgoals[0].target.rhs) for s in rhs_steps} == {"2*a*b + c**2", "2*a*c + b**2", "a**2 + 2*b*c"}
    for s in rhs_steps:
        assert s.subgoals[0].target.lhs == g.target.lhs
        assert s.subgoals[0].hypotheses == g.hypotheses
        assert only_open_subgoal(s)


def test_local_checks_agree_with_the_full_kernel_check():
    """Candidates are checked by the kernel on the replaced part only; the full step must pass too."""
    for text in [("theorem P15 {a b c : ℝ} (ha : a > 0) (hb : b > 0) (hc : c > 0) : "
                  "2 * (1 / (a + b) + 1 / (b + c) + 1 / (c + a)) ≤ (1 / a + 1 / b + 1 / c)"),
                 ("theorem P3 {a b c : ℝ} (ha : a ≥ 0) (hb : b ≥ 0) (hc : c ≥ 0) : "
                  "a ^ 2 * b + b ^ 2 * c + c ^ 2 * a ≤ a ^ 3 + b ^ 3 + c ^ 3")]:
        steps = scale_steps(goal(text), limit=12)
        assert steps
        assert all(only_open_subgoal(s) for s in steps)


def test_goal_with_unprovable_denominator_gets_no_steps():
    g = goal("theorem t (a b : ℝ) (ha : a > 0) (hb : b > 0) : a^2 + b^2 + 1 / (a - b) ≥ 2*a*b")
    assert scale_steps(g, [CAT["amgm2"]]) == []


def test_time_limit_returns_partial_results():
    g = goal("theorem t (a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) : 9/(a+b+c) ≤ 1/a + 1/b + 1/c")
    assert scale_steps(g, time_limit=0.0) == []      # no time: the partial result is empty
    assert scale_steps(g, time_limit=600.0) != []    # a budget it does not need: the steps are there


# ------------------------------------------------------------------ Titu's summands read structurally

def _titu_instances(g: Goal, name: str) -> list[dict[str, str]]:
    return [s.certificate["applications"][0]["instance"] for s in scale_steps(g, [CAT[name]])]


def test_titu_reads_a_squared_numerator_as_its_root():
    # sympy's own matcher solved x^2/a = (a-1)^2/(a^2+1) as x = 1/sqrt(a^2+1), a = (a-1)^-2
    g = goal("theorem t (a b c : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) : "
             "(a + b + c - 3) ^ 2 / (a ^ 2 + b ^ 2 + c ^ 2 + 3) ≤ "
             "(a - 1) ^ 2 / (a ^ 2 + 1) + (b - 1) ^ 2 / (b ^ 2 + 1) + (c - 1) ^ 2 / (c ^ 2 + 1) := by sorry")
    insts = _titu_instances(g, "titu3")
    assert {"x": "a - 1", "y": "b - 1", "z": "c - 1", "a": "a**2 + 1", "b": "b**2 + 1", "c": "c**2 + 1"} in insts


def test_titu_times_the_numerator_in_four_variables():
    # Σ a²/(b²+1) = Σ (a²)²/(a²(b²+1)): the squared-numerator form, with every summand read the same way
    g = goal("theorem t (a b c d : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) (hd : d > 0) "
             "(h : a + b + c + d = 4) : 2 ≤ a ^ 2 / (b ^ 2 + 1) + b ^ 2 / (c ^ 2 + 1) + "
             "c ^ 2 / (d ^ 2 + 1) + d ^ 2 / (a ^ 2 + 1) := by sorry")
    steps = scale_steps(g, [CAT["titu4"]])
    news = {str(s.subgoals[0].target.rhs) for s in steps}
    assert "(a + b + c + d)**2/(a**2 + b**2 + c**2 + d**2 + 4)" in news
    times = [s for s in steps if "a**2*(b**2 + 1)" in str(s.certificate)]
    assert len(times) == 1            # one step for the 4! orders of the pairs
    inst = times[0].certificate["applications"][0]["instance"]
    assert sorted(inst[v] for v in "xyzt") == ["a**2", "b**2", "c**2", "d**2"]
    for s in steps:
        assert only_open_subgoal(s)
    # no mixture of the two readings in one sum
    for s in steps:
        inst = s.certificate["applications"][0]["instance"]
        squared = [inst[v].endswith("**2") for v in "xyzt"]
        assert all(squared) or not any(squared)


def test_times_the_numerator_only_for_monomial_numerators():
    # (a - 1)·(a - 1)²(a² + 1) needs a sign of a - 1: not proposed (and would cost positivity time)
    g = goal("theorem t (a b : ℝ) (ha : a > 0) (hb : b > 0) : (a + b - 2) ^ 2 / (a ^ 2 + b ^ 2 + 2) ≤ "
             "(a - 1) ^ 2 / (a ^ 2 + 1) + (b - 1) ^ 2 / (b ^ 2 + 1) := by sorry")
    for inst in _titu_instances(g, "titu2"):
        assert "(a - 1)**2*" not in inst["a"]


def test_lemma_variables_named_like_the_goals_are_substituted_at_once():
    # titu4's variables a, b, c, d are the goal's names too: sequential substitution made the
    # tightness filter evaluate a wrong expression and drop this candidate
    g = goal("theorem t (a b c d : ℝ) (ha : a > 0) (hb : b > 0) (hc : c > 0) (hd : d > 0) "
             "(h : a + b + c + d = 4) : 1 ≤ a ^ 2 / (b ^ 2 + 3) + b ^ 2 / (c ^ 2 + 3) + "
             "c ^ 2 / (d ^ 2 + 3) + d ^ 2 / (a ^ 2 + 3) := by sorry")
    assert any("a**2*(b**2 + 3)" in str(s.certificate) for s in scale_steps(g, [CAT["titu4"]]))


def test_catalogue_generator_asks_the_matcher_to_stop_before_its_hard_limit():
    # a kill returns nothing, so the matcher is given 80 % of the budget to return what it found
    from prover.search import services

    g = goal("theorem t (a b : ℝ) (ha : a > 0) (hb : b > 0) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry")
    step = Step("scale", g, [g], {"multiplier": "1"})

    def matcher(goal, *, limit, time_limit=None):
        return [step] if time_limit is not None and 0 < time_limit < 5.0 else []

    gen = services.CatalogueGenerator(budget=lambda: 5.0)
    gen._fn = matcher
    assert [c.step.kind for c in gen.generate(g)] == ["scale"]
