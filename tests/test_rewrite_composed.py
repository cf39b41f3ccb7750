"""Rewrites that undo how a problem was composed (issue #16): a seed on transformed variables.

* :class:`RescaleVariables` — ``x ↦ x/k`` when that makes the coefficients smaller (Schur with
  ``a ↦ 2a``);
* :class:`ConstraintRoots` — ``a²b²c² = 1`` with ``a, b, c > 0`` becomes ``abc = 1``;
* :class:`AbsAsVariable` — ``|x|`` (sympy's ``√(x²)``) with ``x > 0`` becomes a variable ``t = x``;
* :class:`EliminateVariables` — ``t = x``, ``t³ = x``: one of the two names goes.

Each acts on the transformed forms and leaves other goals alone (cheap ``accepts``), every step
it proposes is accepted by the kernel, and the three statements of the issue are proved end to
end (kernel-checked; the Lean rendering passes the replay model where the renderer supports it).
"""

from __future__ import annotations

import pytest
import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal, Step
from prover.problem import Relation, var
from prover.rewrite import (
    AbsAsVariable,
    ConstraintRoots,
    EliminateVariables,
    IntroduceRoots,
    RescaleVariables,
    symbolic_generators,
)
from prover.rewrite.constraint_roots import power_form, rational_root
from prover.rewrite.rescale import best_scales, monomial_pieces
from prover.verify import Kernel

SCHUR = "0 ≤ a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)"
NONNEG3 = "(ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c)"
POS3 = "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c)"

#: the three statements of the issue (benchmarks/composed.jsonl)
ISSUE = {
    "schur1_scale": f"theorem schur1_scale {{a b c : ℝ}} {NONNEG3} : 0 ≤ 2 * a * (2 * a - b) * (2 * a - c) + "
                    "b * (b - 2 * a) * (b - c) + c * (c - 2 * a) * (c - b) := by sorry",
    "prod1_sq": f"theorem prod1_sq {{a b c : ℝ}} {POS3} (h : a ^ 2 * b ^ 2 * c ^ 2 = 1) : "
                "a ^ 2 + b ^ 2 + c ^ 2 ≥ 3 := by sorry",
    "wamgm_sq": "theorem wamgm_sq {x y : ℝ} (hx : 0 < x) (hy : 0 < y) : (x ^ 2) ^ ((2:ℝ)/3) * (y ^ 2) ^ ((1:ℝ)/3) "
                "≤ 2 / 3 * x ^ 2 + 1 / 3 * y ^ 2 := by sorry",
}

#: name -> (variables, the text after the binders)
GOALS = {
    "schur": ("a b c", f"{NONNEG3} : {SCHUR}"),
    "schur_scale3b": ("a b c", (f"{NONNEG3} : 0 ≤ a * (a - 3 * b) * (a - c) + 3 * b * (3 * b - a) * (3 * b - c) "
                               "+ c * (c - a) * (c - 3 * b)")),
    "nesbitt": ("a b c", f"{POS3} : a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2"),
    "nesbitt_scale": ("a b c", f"{POS3} : 2 * a / (b + c) + b / (c + 2 * a) + c / (2 * a + b) ≥ 3 / 2"),
    "recip_scale": ("x", "(hx : 0 < x) : 2 * x + 1 / (2 * x) ≥ 2"),
    "qm_am_scale": ("a b", "(ha : 0 ≤ a) (hb : 0 ≤ b) : (2 * a + b) / 2 ≤ Real.sqrt (((2 * a) ^ 2 + b ^ 2) / 2)"),
    "sqrt_sum_scale": ("a b", "(ha : 0 ≤ a) (hb : 0 ≤ b) : Real.sqrt (2 * a) + Real.sqrt b ≤ Real.sqrt (2 * (2 * a + b))"),
    "am_gm_2": ("a b", "(ha : 0 ≤ a) (hb : 0 ≤ b) : a * b ≤ (a + b) ^ 2 / 4"),
    "wamgm": ("x y", "(hx : 0 < x) (hy : 0 < y) : x ^ ((2:ℝ)/3) * y ^ ((1:ℝ)/3) ≤ 2 / 3 * x + 1 / 3 * y"),
    "sum_3": ("a b c", f"{NONNEG3} (h : a + b + c = 3) : a * b + b * c + c * a ≤ 3"),
    "uniform": ("a b", "(ha : 0 < a) (hb : 0 < b) : 4 * a * b ≤ (a + b) ^ 2"),
    "product_one": ("a b c", f"{POS3} (h : a * b * c = 1) : a + b + c ≥ 3"),
    "product_one_sq": ("a b c", f"{POS3} (h : a ^ 2 * b ^ 2 * c ^ 2 = 1) : a ^ 2 + b ^ 2 + c ^ 2 ≥ 3"),
    "sum_square": ("a b c", f"{POS3} (h : (a + b + c) ^ 2 = 9) : a * b + b * c + c * a ≤ 3"),
    "cube": ("a b", "(ha : 0 < a) (hb : 0 < b) (h : 8 * a ^ 3 * b ^ 3 = 27) : a * b ≥ 1"),
    "square_no_sign": ("a b", "(h : a ^ 2 * b ^ 2 = 1) : a ^ 2 + b ^ 2 ≥ 2"),
    "not_a_power": ("a b", "(ha : 0 < a) (hb : 0 < b) (h : a ^ 2 + b ^ 2 = 2) : a + b ≤ 2"),
    "wamgm_sq": ("x y", ("(hx : 0 < x) (hy : 0 < y) : (x ^ 2) ^ ((2:ℝ)/3) * (y ^ 2) ^ ((1:ℝ)/3) "
                        "≤ 2 / 3 * x ^ 2 + 1 / 3 * y ^ 2")),
    "amgm2_sqrt_sq": ("a b", "(ha : 0 ≤ a) (hb : 0 ≤ b) : Real.sqrt (a ^ 2 * b ^ 2) ≤ (a ^ 2 + b ^ 2) / 2"),
    "abs_no_sign": ("a b", ": Real.sqrt ((a - b) ^ 2) ≤ a ^ 2 + b ^ 2 + 1"),
    "rpow_sq": ("x y", "(hx : 0 < x) (hy : 0 < y) : x ^ ((4:ℝ)/3) * y ^ ((2:ℝ)/3) ≤ 2 / 3 * x ^ 2 + 1 / 3 * y ^ 2"),
}


def goal(name: str) -> Goal:
    vs, rest = GOALS[name]
    return Goal.from_problem(parse_theorem(f"theorem t {{{vs} : ℝ}} {rest} := by sorry", real_division=True))


def kernel_accepts(step: Step) -> bool:
    try:
        Kernel().check_one(step)
    except Exception:  # noqa: BLE001 - any refusal
        return False
    return True


def _acts(rw, name: str) -> Step:
    g = goal(name)
    assert rw.accepts(g), f"{rw.name} should accept {name}"
    step = rw.apply(g)
    assert step is not None, f"{rw.name} should act on {name}"
    assert step.goal == g and kernel_accepts(step), f"{rw.name} on {name}: the kernel refuses {step.note!r}"
    return step


def _leaves(rw, name: str) -> None:
    g = goal(name)
    assert not rw.accepts(g) or rw.apply(g) is None, f"{rw.name} should leave {name} alone"


def _expanded(r: Relation) -> sp.Expr:
    return sp.expand(r.slack())


# ---------------------------------------------------------------- rescaling


@pytest.mark.parametrize("name", ["schur_scale3b", "nesbitt_scale", "recip_scale", "qm_am_scale", "sqrt_sum_scale"])
def test_rescale_acts_on_scaled_seeds(name: str) -> None:
    step = _acts(RescaleVariables(), name)
    assert step.kind == "substitute" and step.subgoals[0].variables == step.goal.variables


def test_rescale_gives_the_seed_back() -> None:
    sub = _acts(RescaleVariables(), "schur_scale3b").subgoals[0]
    assert sp.expand(_expanded(sub.target) - _expanded(goal("schur").target)) == 0
    assert sub.hypotheses == goal("schur").hypotheses       # 0 <= b/3 written 0 <= b again
    sub = _acts(RescaleVariables(), "nesbitt_scale").subgoals[0]
    assert sp.cancel(sub.target.slack() - goal("nesbitt").target.slack()) == 0


@pytest.mark.parametrize("name", ["schur", "nesbitt", "am_gm_2", "wamgm", "sum_3", "uniform", "product_one"])
def test_rescale_leaves_unscaled_goals_alone(name: str) -> None:
    _leaves(RescaleVariables(), name)


def test_rescale_accepts_is_cheap_and_looks_for_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap means it only looks for numbers: none of ``apply``'s work (monomials, the scale search)."""
    from prover.rewrite import rescale

    def costly(*args: object, **kwargs: object) -> None:
        raise AssertionError("accepts did apply's work")

    for name in ("monomial_pieces", "best_scales", "_cost_table", "_step"):
        monkeypatch.setattr(rescale, name, costly)
    g = Goal.from_problem(parse_theorem("theorem t {a b : ℝ} : a * b ≤ a ^ 2 + b ^ 2 := by sorry"))
    assert not RescaleVariables().accepts(g)
    assert RescaleVariables().accepts(goal("schur_scale3b"))


def test_rescale_cost_is_blind_to_homogeneous_scalings() -> None:
    """``√(ab)`` scales as ``a^(1/2)·b^(1/2)``: scaling every variable of a homogeneous goal by
    the same factor changes no coefficient's size, so nothing is proposed."""
    a, b = var("a"), var("b")
    pieces = monomial_pieces([(a + b) / 2 - sp.sqrt(a * b)], [a, b])
    assert best_scales(pieces, 2) is None
    pieces = monomial_pieces([8 * a ** 3 + b ** 3 - 6 * a * b ** 2], [a, b])   # (2a)³ + b³ − 3(2a)b²
    # a ↦ a/2, or b ↦ 2b: the same up to a constant factor of a homogeneous polynomial
    assert best_scales(pieces, 2) in ([2, 1], [1, sp.Rational(1, 2)])


# ---------------------------------------------------------------- k-th roots of constraints


def test_rational_roots_and_power_forms() -> None:
    assert rational_root(sp.Rational(27, 8), 3) == sp.Rational(3, 2)
    assert rational_root(sp.Integer(-8), 3) == -2 and rational_root(sp.Integer(-4), 2) is None
    assert rational_root(sp.Integer(2), 2) is None
    a, b = var("a"), var("b")
    assert power_form(4 * a ** 2 * b ** 2 - 1, [a, b]) == (a * b, 2, sp.Integer(4), sp.Rational(1, 2))
    assert power_form(a ** 2 + b ** 2 - 2, [a, b]) is None


@pytest.mark.parametrize(("name", "root"), [("product_one_sq", "a*b*c - 1"), ("sum_square", "a + b + c - 3"),
                                            ("cube", "a*b - 3/2")])
def test_constraint_roots_take_the_root(name: str, root: str) -> None:
    step = _acts(ConstraintRoots(), name)
    sub = step.subgoals[0]
    assert sub.target == step.goal.target
    eq = [sp.expand(h.lhs - h.rhs) for h in sub.hypotheses if h.op == "="]
    assert eq == [sp.sympify(root, locals={v: var(v) for v in "abc"})]


@pytest.mark.parametrize("name", ["product_one", "square_no_sign", "not_a_power", "schur", "nesbitt"])
def test_constraint_roots_leave_other_goals_alone(name: str) -> None:
    _leaves(ConstraintRoots(), name)


# ---------------------------------------------------------------- |x| and eliminated variables


def test_abs_with_a_strict_sign_becomes_the_variable() -> None:
    step = _acts(AbsAsVariable(), "wamgm_sq")
    sub = step.subgoals[0]
    assert step.kind == "introduce" and not sub.target.lhs.has(sp.Abs)
    assert Relation(var("t1"), "=", var("x")) in sub.hypotheses
    # then the new name goes again: t1 ↦ x, and the goal is x^(4/3)·y^(2/3) <= …
    elim = EliminateVariables().apply(sub)
    assert elim is not None and kernel_accepts(elim)
    assert elim.subgoals[0].variables == ("x", "y")
    assert elim.subgoals[0].target == goal("rpow_sq").target


def test_abs_with_a_weak_sign_is_the_kernels_sqrt_sq_fact() -> None:
    """Only ``a >= 0`` known: ``t1 = a`` is the kernel's own fact of ``t1 := √(a²)`` (Mathlib
    ``Real.sqrt_sq``), stated without a proof of its own; ``t1`` is then eliminated."""
    step = _acts(AbsAsVariable(), "amgm2_sqrt_sq")
    sub = step.subgoals[0]
    assert Relation(var("t1"), "=", var("a")) in sub.hypotheses
    assert kernel_accepts(step)
    assert EliminateVariables().apply(sub) is not None


@pytest.mark.parametrize("name", ["abs_no_sign", "schur", "wamgm", "qm_am_scale"])
def test_abs_leaves_other_goals_alone(name: str) -> None:
    _leaves(AbsAsVariable(), name)


def test_eliminate_after_naming_roots() -> None:
    named = IntroduceRoots().apply(goal("rpow_sq"))
    assert named is not None
    step = EliminateVariables().apply(named.subgoals[0])
    assert step is not None and kernel_accepts(step)
    sub = step.subgoals[0]
    assert sub.variables == ("t1", "t2") and sp.Poly(sp.expand(sub.target.slack()), var("t1"), var("t2"))


@pytest.mark.parametrize("name", ["sum_3", "product_one", "product_one_sq", "nesbitt", "wamgm"])
def test_eliminate_leaves_constraints_that_are_not_definitions_alone(name: str) -> None:
    _leaves(EliminateVariables(), name)


def test_the_search_runs_the_new_rewrites() -> None:
    names = {type(g).__name__ for g in symbolic_generators()}
    assert {"RescaleVariables", "ConstraintRoots", "AbsAsVariable", "EliminateVariables"} <= names


# ---------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def results() -> dict:
    from prover.api import prove

    return {name: prove(text, time_limit=60) for name, text in ISSUE.items()}


@pytest.mark.parametrize("name", sorted(ISSUE))
def test_issue_statements_are_proved_and_kernel_checked(results: dict, name: str) -> None:
    r = results[name]
    assert r.proved, (r.status, r.stats)
    verdict = r.check()
    assert verdict.ok and verdict.statement_checked, verdict.errors


@pytest.mark.parametrize("name", ["schur1_scale", "prod1_sq"])
def test_issue_proofs_render_and_replay(results: dict, name: str) -> None:
    from prover.lean.replay import replay_text

    report = replay_text(results[name].lean_text())
    assert report.ok, report.first_failure


def test_wamgm_sq_renders_and_replays(results: dict) -> None:
    from prover.lean.replay import replay_text

    report = replay_text(results["wamgm_sq"].lean_text())
    assert report.ok, report.first_failure


def test_false_variant_is_not_proved() -> None:
    from prover.api import prove

    r = prove(ISSUE["prod1_sq"].replace("≥ 3 :=", "≥ 4 :="), time_limit=15)
    assert not r.proved and r.status == "counterexample"
