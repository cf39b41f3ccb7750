"""Closers: SOS / SDS / normalisation produce proofs the kernel accepts, and nothing for false
or non-SOS goals."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.ir import Goal
from prover.problem import Relation, var
from prover.search.close import close_goal
from prover.solvers.closers import default_closers
from prover.solvers.difference_substitution import sds_close
from prover.solvers.sos import sos_certificate
from tests.solver_checks import kernel_accepts, sos_identity_holds

a, b, c, d = (var(x) for x in "abcd")
ABC = ("a", "b", "c")


def nonneg(*vs, strict: bool = False) -> tuple[Relation, ...]:
    return tuple(Relation(v, ">" if strict else ">=", sp.Integer(0)) for v in vs)


NESBITT = a / (b + c) + b / (c + a) + c / (a + b)
SCHUR1 = a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)


def test_sos_quadratic_exact_certificate():
    g = Goal(ABC, (), Relation(a * b + b * c + c * a, "<=", a**2 + b**2 + c**2))
    cert = sos_certificate(g, 10)
    assert cert is not None and sos_identity_holds(g, cert)


def test_sos_vasc_singular_gram_needs_facial_reduction():
    g = Goal(ABC, (), Relation(3 * (a**3 * b + b**3 * c + c**3 * a), "<=", (a**2 + b**2 + c**2) ** 2))
    cert = sos_certificate(g, 20)
    assert cert is not None and sos_identity_holds(g, cert)
    from prover.solvers.closers import close_step as _close
    assert kernel_accepts(g, _close(g, cert, "sos"))


def test_sos_with_variable_multipliers():
    g = Goal(ABC, nonneg(a, b, c), Relation(a**2 * b + b**2 * c + c**2 * a, "<=", a**3 + b**3 + c**3))
    cert = sos_certificate(g, 10)
    assert cert is not None and sos_identity_holds(g, cert)
    assert any(t["mult"] for t in cert["terms"])


def test_motzkin_is_not_sos():
    g = Goal(ABC, (), Relation(3 * a**2 * b**2 * c**2, "<=", a**4 * b**2 + a**2 * b**4 + c**6))
    assert sos_certificate(g, 10) is None


def test_schur_closes_by_sds_or_multiplier():
    g = Goal(ABC, nonneg(a, b, c), Relation(0, "<=", SCHUR1))
    step = close_goal(g, 20)
    assert step is not None and kernel_accepts(g, step)


def test_sds_split_with_full_symmetry_is_kernel_checked():
    g = Goal(ABC, nonneg(a, b, c), Relation(0, "<=", sp.expand(SCHUR1)))
    step = sds_close(g, 10)
    assert step is not None and step.kind == "split" and step.certificate.get("symmetry") == "full"
    assert kernel_accepts(g, step)


def test_nesbitt_fractions_normalised_and_closed():
    g = Goal(ABC, nonneg(a, b, c, strict=True), Relation(sp.Rational(3, 2), "<=", NESBITT))
    step = close_goal(g, 20)
    assert step is not None and step.kind == "rewrite"
    assert kernel_accepts(g, step)


def test_constraint_homogenised_with_eq_terms():
    # 1/a + 1/b + 1/c >= 9 given a + b + c = 1
    hyps = nonneg(a, b, c, strict=True) + (Relation(a + b + c, "=", 1),)
    g = Goal(ABC, hyps, Relation(9, "<=", 1 / a + 1 / b + 1 / c))
    step = close_goal(g, 20, default_closers())     # the closers alone: no tangent-line shortcut
    assert step is not None
    assert any(s.certificate.get("eq_terms") for s in step.walk() if s.kind in ("rewrite", "substitute"))
    assert kernel_accepts(g, step)


def test_constraint_tangent_line_closes_first():
    hyps = nonneg(a, b, c, strict=True) + (Relation(a + b + c, "=", 1),)
    g = Goal(ABC, hyps, Relation(9, "<=", 1 / a + 1 / b + 1 / c))
    step = close_goal(g, 20)
    assert step is not None and step.kind == "close" and step.certificate.get("eq_terms")
    assert kernel_accepts(g, step)


@pytest.mark.parametrize("k", [sp.Rational(8, 5), sp.Rational(2)])
def test_false_nesbitt_variants_never_proved(k):
    g = Goal(ABC, nonneg(a, b, c, strict=True), Relation(k, "<=", NESBITT))
    assert close_goal(g, 8) is None


def test_false_polynomial_never_proved():
    g = Goal(ABC, nonneg(a, b, c), Relation(a**3 + b**3 + c**3, "<=", a**2 * b + b**2 * c + c**2 * a))
    assert close_goal(g, 8) is None


def test_strict_target_gets_a_strictly_positive_term():
    g = Goal(ABC, nonneg(a, b, c, strict=True), Relation(a * b + b * c + c * a, "<", (a + b + c) ** 2))
    cert = sos_certificate(g, 10)
    assert cert is not None and sos_identity_holds(g, cert)
    from prover.solvers.closers import close_step as _close
    assert kernel_accepts(g, _close(g, cert, "sos"))


def test_false_strict_target_not_proved():
    g = Goal(ABC, nonneg(a, b, c, strict=True), Relation(3 * (a * b + b * c + c * a), "<", (a + b + c) ** 2))
    assert close_goal(g, 8) is None


def test_closer_returns_none_on_unsupported_goals():
    x = var("a")
    assert close_goal(Goal(("a",), (), Relation(x, "=", x + 1)), 2) is None
    assert close_goal(Goal(("a",), (Relation(x, ">", 0),), Relation(1, "<=", x ** x)), 2) is None


def test_sos_finds_zeros_with_negative_coordinates():
    """(x⁴+y⁴+z⁴)² − x²(x⁶+8y³z³) vanishes at (1, 1, 1) and at (1, −1, −1): both must reduce the face."""
    from prover.ir import Goal
    from prover.problem import Relation, var
    from prover.solvers.sos import find_zeros, poly_problem, sos_certificate
    from prover.verify import check_close

    x, y, z = var("x"), var("y"), var("z")
    g = Goal(("x", "y", "z"), (), Relation((x**4 + y**4 + z**4) ** 2 - x**2 * (x**6 + 8 * y**3 * z**3), ">=", 0))
    zeros = find_zeros(poly_problem(g))
    assert any(any(c < 0 for c in w) for w in zeros)
    cert = sos_certificate(g, 60)
    assert cert is not None
    check_close(g, cert)
