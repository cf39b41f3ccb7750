"""Contracts of every registered rewrite and closer, in the manner of Mathlib's tests (a list of
``example``s each tactic must act on, and ``fail_if_success`` negatives it must leave alone).

1. Every generator the search registers (:func:`prover.rewrite.default_generators`) and every
   rewrite of the closers' normal form runs over one fixed set of goals, and the kernel checks
   every candidate it proposes (a whole tree for a closing candidate, the one step otherwise).
2. Every closer of :func:`prover.solvers.closers.default_closers` runs over the polynomial goals;
   whatever it returns is a complete proof tree the kernel accepts.
3. Per rewrite, a table of goals it must act on and goals it must leave alone.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from prover.frontend import parse_theorem
from prover.ir import Goal, Step
from prover.rewrite import (
    CauchyRoots,
    ClearDenominators,
    ClearHypothesisDenominators,
    Homogenize,
    HomogenizeByScaling,
    IntroduceRoots,
    MinkowskiPairs,
    MonotonePeel,
    ProductOneRatios,
    ReduceFractionsByConstraints,
    ScaleByConstraint,
    default_generators,
)
from prover.rewrite.base import Rewrite, is_polynomial_goal
from prover.rewrite.chain import normal_form
from prover.solvers.closers import default_closers
from prover.verify import Kernel, KernelError, check_step

#: name -> the part of a Lean statement after the binders' colon (variables a b c : ℝ).
STATEMENTS = {
    "nesbitt": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2",
    "am_gm_2": "(ha : 0 ≤ a) (hb : 0 ≤ b) : a * b ≤ (a + b) ^ 2 / 4",
    "sqrt": "(ha : 0 ≤ a) : Real.sqrt a ≤ (a + 1) / 2",
    "sum_3": "(ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) (h : a + b + c = 3) : a * b + b * c + c * a ≤ 3",
    "product_one": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a * b * c = 1) : a + b + c ≥ 3",
    "fraction_hyp": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 1 / a + 1 / b + 1 / c) : "
                    "a + b + c ≥ 0",
    "schur": "(ha : 0 ≤ a) (hb : 0 ≤ b) (hc : 0 ≤ c) : "
             "a ^ 3 + b ^ 3 + c ^ 3 + 3 * a * b * c ≥ a ^ 2 * b + a ^ 2 * c + b ^ 2 * a + b ^ 2 * c + c ^ 2 * a + c ^ 2 * b",
    "squares": ": a ^ 2 + b ^ 2 ≥ 2 * a * b",
    "sum_3_positive": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 3) : "
                      "a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2",
    "fraction_product_one": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a * b * c = 1) : "
                            "a ^ 2 * b * c / (b + c) + b / (c + a) ≥ 0",
    "constraint_den": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 3) : "
                      "a / (3 - c) + b / (3 - a) + c / (3 - b) ≥ 3 / 2",
    "sqrt_peel": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : √(a ^ 2 / b + b ^ 2 / c) ≥ √((a + b) ^ 2 / (b + c))",
    "minkowski_3": ": √(a ^ 2 + 1) + √(b ^ 2 + 4) + √(c ^ 2 + 9) ≥ √((a + b + c) ^ 2 + 36)",
    "cauchy_roots": "(ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : c + √(a * b) ≤ √((c + a) * (c + b))",
}


def goal(name: str) -> Goal:
    text = f"theorem t (a b c : ℝ) {STATEMENTS[name]} := by sorry"
    return Goal.from_problem(parse_theorem(text, real_division=True))


POLYNOMIAL = [n for n in STATEMENTS if is_polynomial_goal(goal(n))]

#: The one-step rewrites of the closers' normal form, as configured there.
CHAIN_REWRITES: list[Rewrite] = [link.rewrite for link in normal_form().links] + \
    [link.rewrite for link in normal_form(product_substitution=True).links[:1]]


def _kernel_accepts(step: Step) -> bool:
    """The whole tree when the step comes with its children, else the one step (open subgoals)."""
    if step.children or not step.subgoals:
        return bool(check_step(step).ok)
    try:
        Kernel().check_one(step)
    except KernelError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_every_generator_candidate_is_kernel_checked(name: str) -> None:
    g = goal(name)
    for gen in default_generators():
        for cand in gen.generate(g):
            assert cand.step.goal == g, f"{gen.name} on {name}: a step for another goal"
            assert _kernel_accepts(cand.step), f"{gen.name} on {name}: the kernel refuses {cand.step.note!r}"


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_every_normal_form_rewrite_step_is_kernel_checked(name: str) -> None:
    g = goal(name)
    for rw in CHAIN_REWRITES:
        step = rw.apply(g) if rw.accepts(g) else None
        if step is not None:
            assert len(step.subgoals) == 1, rw.name
            assert _kernel_accepts(step), f"{rw.name} on {name}: the kernel refuses {step.note!r}"


@pytest.mark.parametrize("name", POLYNOMIAL)
def test_every_closer_returns_a_tree_the_kernel_accepts(name: str) -> None:
    g = goal(name)
    for closer in default_closers():
        step = closer.close(g, time.monotonic() + 10)
        if step is not None:
            assert step.goal == g
            assert _kernel_accepts(step), f"{closer.name} on {name}"


def test_the_normal_form_runs_the_registered_rewrite_objects() -> None:
    chain = normal_form(product_substitution=True)
    kinds = {type(link.rewrite).__name__ for link in chain.links}
    assert {"ProductOneRatios", "IntroduceRoots", "ClearHypothesisDenominators", "ClearDenominators"} <= kinds
    result = chain.run(goal("product_one"))
    assert result.goal is not None and result.steps[0].kind == "substitute"
    assert normal_form(product_substitution=True).run(goal("nesbitt")).goal is None   # required link


#: rewrite -> (goals it must act on, goals it must leave alone)
TABLE: list[tuple[Any, list[str], list[str]]] = [
    (IntroduceRoots(), ["sqrt"], ["nesbitt", "schur", "squares"]),
    (ClearDenominators(drop_squares=False, max_factor_terms=None), ["nesbitt"], ["schur", "squares"]),
    (ClearHypothesisDenominators(), ["fraction_hyp"], ["sum_3", "product_one", "nesbitt"]),
    (Homogenize(require_sign=True), ["sum_3"], ["schur", "nesbitt", "squares"]),
    (HomogenizeByScaling(), ["sum_3_positive"], ["constraint_den", "nesbitt", "product_one", "schur"]),
    (ScaleByConstraint(), ["constraint_den", "sum_3_positive"], ["sum_3", "nesbitt", "product_one"]),
    (ProductOneRatios(), ["product_one"], ["sum_3", "nesbitt", "squares"]),
    (ReduceFractionsByConstraints(), ["fraction_product_one"], ["nesbitt", "schur", "sum_3"]),
    (MonotonePeel(), ["sqrt_peel"], ["sqrt", "nesbitt", "schur", "am_gm_2"]),
    (MinkowskiPairs(), ["minkowski_3"], ["sqrt", "sqrt_peel", "cauchy_roots", "nesbitt"]),
    (CauchyRoots(), ["cauchy_roots"], ["sqrt", "sqrt_peel", "minkowski_3", "squares"]),
]


def _act(rewrite: object, g: Goal) -> Step | None:
    """The step a rewrite takes on ``g``: ``apply`` for a :class:`Rewrite`, else its first candidate."""
    if hasattr(rewrite, "apply"):
        return rewrite.apply(g) if rewrite.accepts(g) else None
    return next((c.step for c in rewrite.generate(g)), None)


@pytest.mark.parametrize(("rewrite", "acts", "leaves"), TABLE, ids=[type(r).__name__ for r, _, _ in TABLE])
def test_each_rewrite_acts_on_its_goals_and_leaves_the_others(rewrite: Any, acts: list[str],
                                                               leaves: list[str]) -> None:
    for name in acts:
        g = goal(name)
        step = _act(rewrite, g)
        assert step is not None, f"{rewrite.name} should act on {name}"
        assert _kernel_accepts(step), f"{rewrite.name} on {name}"
    for name in leaves:
        g = goal(name)
        assert _act(rewrite, g) is None, f"{rewrite.name} should leave {name} alone"


def test_clear_denominators_keeps_a_large_numerator_whole() -> None:
    """Above ``max_factor_terms`` the numerator is not factored (nor asked for its sign): only the
    denominator is cleared, and the kernel accepts the step."""
    terms = " + ".join(f"a ^ {i} * b ^ {130 - i}" for i in range(130))
    g = Goal.from_problem(parse_theorem(
        f"theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : ({terms}) / (a + b) ≥ 0 := by sorry"))
    step = ClearDenominators().apply(g)
    assert step is not None and step.certificate["multiplier"] == "1/(a + b)"
    assert _kernel_accepts(step)
