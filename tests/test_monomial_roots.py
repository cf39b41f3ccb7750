"""A root of a monomial (``t³ = abc``, from naming ``(abc)^(1/3)``): its variables become cubes
(``prover.rewrite.monomial_roots``), ``t³ = (xyz)³`` becomes ``t = xyz`` (``ConstraintRoots``), and
the closers' normal form reaches the polynomial of the textbook proof (Hölder's
``∏(1 + aᵢ)^(1/3) ≥ 1 + ∏aᵢ^(1/3)``). Every step is checked by the kernel; a false bound gets none."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation, var
from prover.rewrite.chain import normalize
from prover.rewrite.constraint_roots import ConstraintRoots
from prover.rewrite.monomial_roots import MonomialRootVariables
from prover.search.close import close_goal
from prover.verify import Kernel
from tests.solver_checks import kernel_accepts

a, b, c, t, x, y, z = (var(v) for v in ("a", "b", "c", "t", "x", "y", "z"))
ZERO, ONE = sp.Integer(0), sp.Integer(1)


def _holder(scale: sp.Rational = ONE) -> Goal:
    """``(t + 1)³ ≤ (a + 1)(b + 1)(c + 1)`` with ``t³ = abc`` (``scale`` > 1 makes it false at a = b = c)."""
    hyps = tuple(Relation(v, ">", ZERO) for v in (a, b, c, t)) + (Relation(t ** 3, "=", a * b * c),)
    return Goal(("a", "b", "c", "t"), hyps, Relation(scale * (t + 1) ** 3, "<=", (a + 1) * (b + 1) * (c + 1)))


def test_the_variables_become_cubes() -> None:
    step = MonomialRootVariables().apply(_holder())
    assert step is not None and step.kind == "introduce"
    new = step.subgoals[0]
    assert set(new.variables) - {"a", "b", "c", "t"} == {"a_3", "b_3", "c_3"}
    assert Relation(var("a_3") ** 3, "=", a) in new.hypotheses
    Kernel(None).check_one(step)


def test_no_step_without_positive_variables_or_with_a_perfect_power() -> None:
    g = _holder()
    unsigned = Goal(g.variables, tuple(h for h in g.hypotheses if h != Relation(a, ">", ZERO)), g.target)
    assert MonomialRootVariables().apply(unsigned) is None
    cubes = Goal(("x", "y", "t"), (Relation(x, ">", ZERO), Relation(y, ">", ZERO), Relation(t ** 3, "=", x ** 3 * y ** 6)),
                 Relation(t, "<=", x ** 2 + y ** 4))
    assert MonomialRootVariables().apply(cubes) is None        # ConstraintRoots' case already
    square = Goal(("x", "y", "t"), (Relation(x, ">", ZERO), Relation(y, ">", ZERO), Relation(t ** 2, "=", x * y)),
                  Relation(t, "<=", (x + y) / 2))
    assert MonomialRootVariables().apply(square) is None       # √(xy): the squaring steps' case


def test_equal_powers_of_positive_terms_are_equal() -> None:
    hyps = tuple(Relation(v, ">", ZERO) for v in (x, y, z, t)) + (Relation(t ** 3, "=", x ** 3 * y ** 3 * z ** 3),)
    g = Goal(("x", "y", "z", "t"), hyps, Relation(t, "<=", x * y * z + 1))
    step = ConstraintRoots().apply(g)
    assert step is not None and Relation(t, "=", x * y * z) in step.subgoals[0].hypotheses
    Kernel(None).check_one(step)
    unsigned = Goal(g.variables, tuple(h for h in hyps if h != Relation(t, ">", ZERO)), g.target)
    assert ConstraintRoots().apply(unsigned) is None           # t < 0 is not excluded


def test_the_normal_form_is_the_textbook_polynomial_and_closes() -> None:
    g = _holder()
    norm = normalize(g, homogenize=False)
    assert [s.kind for s in norm.steps[:4]] == ["introduce", "substitute", "rewrite", "substitute"]
    assert norm.goal is not None and {"t", "a", "b", "c"}.isdisjoint(
        {s.name for s in norm.goal.target.free_symbols()})
    proof = close_goal(g, 60)
    assert proof is not None and kernel_accepts(g, proof)


def test_a_false_bound_is_not_closed() -> None:
    assert close_goal(_holder(sp.Rational(11, 10)), 15) is None
