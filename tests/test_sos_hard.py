"""SOS on hard symmetric polynomials: the face is reduced by the half Newton polytope, by zeros
on the boundary of strict hypotheses and by flat (Hessian-kernel) directions at interior zeros;
certificates are exact, and false variants get none."""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal
from prover.problem import Relation, var
from prover.search.close import close_goal
from prover.solvers import sos as S
from prover.solvers.rational_linalg import degree
from prover.verify import check_close
from tests.solver_checks import kernel_accepts

a, b, c = (var(v) for v in "abc")
ABC = ("a", "b", "c")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (a, b, c))


def _sym(f) -> sp.Expr:
    """Σ of ``f`` over the six permutations of (a, b, c)."""
    out = sp.Integer(0)
    for p in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
        out += f(*p)
    return sp.expand(out)


# a degree-9 symmetric form with a quartic contact at a = b = c and zeros at (1, 1, 2), (1, 0, 0):
# p(1, 1, c) = 2(c−2)²(c−1)⁴(c+1)
DEG9 = (_sym(lambda x, y, z: x**7 * y**2 + 2 * x**6 * y**3 + x**5 * y**4)
        + _sym(lambda x, y, z: 25 * x**5 * y**2 * z**2 + x**4 * y**4 * z) + 48 * a**3 * b**3 * c**3
        - _sym(lambda x, y, z: 9 * x**6 * y**2 * z + 8 * x**5 * y**3 * z + 21 * x**4 * y**3 * z**2))


def test_deg9_polynomial_is_the_intended_one():
    assert sp.factor(DEG9.subs({a: 1, b: 1})) == sp.factor(2 * (c - 2) ** 2 * (c - 1) ** 4 * (c + 1))


def test_deg9_symmetric_with_quartic_contact_closes():
    g = Goal(ABC, POS, Relation(DEG9, ">=", 0))
    cert = S.sos_certificate(g, 30)
    assert cert is not None
    check_close(g, cert)


def test_deg9_with_an_unused_equality_constraint():
    # the equality (which the certificate does not use) must not hide the zeros off it
    g = Goal(ABC, POS + (Relation(a**3 + b**3 + c**3 + a * b * c, "=", 4),), Relation(DEG9, ">=", 0))
    cert = S.sos_certificate(g, 30)
    assert cert is not None
    check_close(g, cert)


def test_deg9_false_variant_has_no_certificate():
    g = Goal(ABC, POS, Relation(DEG9 - a**3 * b**3 * c**3 / 100, ">=", 0))
    assert S.sos_certificate(g, 10) is None


def test_newton_pruning_and_flat_directions():
    pp = S.poly_problem(Goal(ABC, POS, Relation(DEG9, ">=", 0)))
    blocks, _ = S.build_blocks(pp, degree(pp.p), use_eqs=False)
    sizes = {b.mult: len(b.basis) for b in blocks}
    assert sizes[(0,)] == 12          # a·(a⁴, b⁴, c⁴ dropped)² lies outside the Newton polytope
    zeros = S.find_zeros(pp)
    one = S.flint.fmpq(1)
    assert (one, S.flint.fmpq(0), S.flint.fmpq(0)) in zeros          # boundary of a strict hypothesis
    assert len(S.flat_directions(pp, (one, one, one))) == 3          # Hessian 0 at a = b = c
    assert len(S.flat_directions(pp, (one, one, S.flint.fmpq(2)))) == 1  # only the ray: a double zero


def test_flat_directions_reduce_the_face_of_quartic_forms():
    p = (a - b) ** 4 + (b - c) ** 4 + (c - a) ** 4
    g = Goal(ABC, (), Relation(p, ">=", 0))
    pp = S.poly_problem(g)
    assert len(S.flat_directions(pp, (S.flint.fmpq(1),) * 3)) == 3
    cert = S.sos_certificate(g, 10)
    assert cert is not None
    check_close(g, cert)


def test_product_of_cubes_plus_two_closes():
    # (a³+2)(b³+2)(c³+2) ≥ (a+b+c)³ (Hölder), the subgoal of USAMO 2004 after product bounds
    g = Goal(ABC, POS, Relation((a + b + c) ** 3, "<=", (a**3 + 2) * (b**3 + 2) * (c**3 + 2)))
    step = close_goal(g, 25)
    assert step is not None and kernel_accepts(g, step)


def test_newton_pruning_is_skipped_with_non_monomial_multipliers():
    # a multiplier (a+b−c)·a can cancel extreme terms: no Newton-polytope argument then
    pp = S.poly_problem(Goal(ABC, POS + (Relation(a + b - c, ">=", 0),), Relation(a**4 + b**4, ">=", 0)))
    blocks, _ = S.build_blocks(pp, 4, use_eqs=False)
    assert any(len(b.mpoly) > 1 for b in blocks)
    assert {b.mult: len(b.basis) for b in blocks}[()] == len(S.monomials(3, 2, homogeneous=True))
    plain = S.poly_problem(Goal(ABC, POS, Relation(a**4 + b**4, ">=", 0)))
    blocks, _ = S.build_blocks(plain, 4, use_eqs=False)
    assert {b.mult: len(b.basis) for b in blocks}[()] == 3      # a², ab, b²


def test_homogeneous_target_under_other_hypotheses_tries_the_homogeneous_search_first(monkeypatch):
    """``x, y > 0, x + y < 3 ⊢ x² − xy + y² > 0``: the small homogeneous search comes first, so a certificate
    that exists there does not wait behind the non-homogeneous one (found or not by load), and the
    certificate is still checked with the hypotheses as stated."""
    x, y = var("x"), var("y")
    calls: list[bool] = []
    real = S.sos_poly

    def spy(*args, **kwargs):
        calls.append(kwargs.get("homogeneous", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(S, "sos_poly", spy)
    g = Goal(("x", "y"), (Relation(x, ">", 0), Relation(y, ">", 0), Relation(x + y, "<", 3)),
             Relation(x**2 - x * y + y**2, ">", 0))
    cert = S.sos_certificate(g, 30)
    assert cert is not None and calls and calls[0] is True
    check_close(g, cert)


def test_an_sdp_in_a_forked_child_after_one_in_the_parent():
    """Clarabel's solver threads do not survive ``fork``: after the parent had solved an SDP of this
    size, an SDP in a forked closer child hung until its hard limit (a 27 s proof took 85 s, every
    closer call timing out). Solved single-threaded (``max_threads=1``), the child finishes."""
    from prover.search.hard_timeout import call_with_hard_limit, fork_available

    if not fork_available():
        return
    g = Goal(ABC, POS, Relation(DEG9 - a**3 * b**3 * c**3 / 100, ">=", 0))
    assert S.sos_certificate(g, 10) is None
    status, result = call_with_hard_limit(S.sos_certificate, (g, 10), 120)
    assert status == "ok" and result is None
