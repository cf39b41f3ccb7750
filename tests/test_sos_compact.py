"""Compact SOS certificates: the small-denominator PSD decomposition (rounded LDLᵀ plus a
diagonally dominant remainder), the pivot projection onto ``A x = b``, and the compaction of a
large least-norm certificate in :func:`prover.solvers.sos.sos_poly` (exact, never lost)."""

from __future__ import annotations

import json
import random

import flint
import pytest

from prover.ir import Goal
from prover.kernel.check import check_close
from prover.solvers import sos as S
from prover.solvers.rational_linalg import (
    PivotSolver,
    decomposition_with,
    ldl_psd,
    rational_digits,
    small_psd_decomposition,
)
from tests.solver_checks import sos_identity_holds

Q = flint.fmpq


def _random_pd(rng: random.Random, n: int) -> list[list[flint.fmpq]]:
    """``BᵀB + I/3`` with small random rational ``B``: positive definite, exact."""
    B = [[Q(rng.randint(-9, 9), rng.randint(1, 7)) for _ in range(n)] for _ in range(n)]
    return [[sum((B[k][i] * B[k][j] for k in range(n)), Q(0)) + (Q(1, 3) if i == j else Q(0))
             for j in range(n)] for i in range(n)]


def _sum_of_squares(terms: list[tuple[flint.fmpq, list[flint.fmpq]]], n: int) -> list[list[flint.fmpq]]:
    out = [[Q(0)] * n for _ in range(n)]
    for d, ell in terms:
        for i in range(n):
            for j in range(n):
                out[i][j] += d * ell[i] * ell[j]
    return out


def _largest(terms: list[tuple[flint.fmpq, list[flint.fmpq]]]) -> int:
    """Digits of the largest rational of a decomposition."""
    return max(rational_digits(x) for d, ell in terms for x in (d, *ell))


def _is_exact_decomposition(terms, M) -> bool:
    return all(d >= 0 for d, _ in terms) and _sum_of_squares(terms, len(M)) == M


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_small_psd_decomposition_is_exact_and_small(n: int) -> None:
    rng = random.Random(1000 + n)
    for _ in range(3):
        M = _random_pd(rng, n)
        terms = small_psd_decomposition(M)
        assert terms is not None
        assert _is_exact_decomposition(terms, M)
        assert _largest(terms) <= 30
        if n >= 12:     # the exact LDLᵀ's entries grow with n; the rounded one's do not
            assert 2 * _largest(terms) < _largest(ldl_psd(M))


def test_small_psd_decomposition_never_wrong_on_singular_or_indefinite() -> None:
    rng = random.Random(7)
    v = [Q(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(4)]
    singular = [[v[i] * v[j] for j in range(4)] for i in range(4)]           # rank 1
    indefinite = [[Q(1), Q(2)], [Q(2), Q(1)]]
    almost = [[Q(1), Q(1)], [Q(1), Q(1) - Q(1, 10**12)]]                     # indefinite, barely
    for M in (singular, indefinite, almost):
        terms = small_psd_decomposition(M)
        assert terms is None or _is_exact_decomposition(terms, M)
    assert small_psd_decomposition(indefinite) is None
    assert small_psd_decomposition(almost) is None
    assert small_psd_decomposition([]) == []


def test_decomposition_with_refuses_a_remainder_that_is_not_diagonally_dominant() -> None:
    M = flint.fmpq_mat(2, 2, [2, 1, 1, 2])
    L = flint.fmpq_mat(2, 2, [1, 0, 0, 1])
    assert decomposition_with(M, L, [Q(0), Q(0)]) is not None          # remainder M itself: DD
    assert decomposition_with(M, L, [Q(3, 2), Q(3, 2)]) is None         # remainder [[1/2, 1], [1, 1/2]]
    assert decomposition_with(M, L, [Q(-1), Q(0)]) is None              # a negative weight


def test_pivot_solver_exact_and_refuses_inconsistent() -> None:
    A = flint.fmpq_mat(2, 4, [1, 1, 0, 2, 0, 1, 1, Q(1, 3)])
    b = flint.fmpq_mat(2, 1, [3, Q(5, 7)])
    solver = PivotSolver(A, b, order=[2, 0, 1, 3])
    assert set(solver.pivots) == {2, 0}                   # earliest columns in the given order
    x0 = [Q(1, 10), Q(21, 100), Q(-3, 4), Q(2)]
    x = solver.solve(x0)
    assert x is not None
    assert A * flint.fmpq_mat(4, 1, x) == b
    assert x[1] == x0[1] and x[3] == x0[3]                # free unknowns kept
    bad = PivotSolver(flint.fmpq_mat(2, 2, [1, 1, 2, 2]), flint.fmpq_mat(2, 1, [1, 3]))
    assert not bad.consistent
    assert bad.solve([Q(0), Q(0)]) is None


#: the close goal of the saved proofs of families/imo1995/8 and /19 (after the rewrite), whose
#: least-norm SOS certificate was 1,322,978 characters of JSON
IMO1995_CLOSE = {
    "variables": ["p", "q", "r"],
    "hypotheses": [{"lhs": "0", "op": "<", "rhs": "p"}, {"lhs": "0", "op": "<", "rhs": "q"},
                   {"lhs": "0", "op": "<", "rhs": "r"}, {"lhs": "p**2*q**2*r**2", "op": "=", "rhs": "1"}],
    "target": {"lhs": "2*p**8 + 2*p**6*q**2 + 2*p**6*r**2 + 2*p**4*q**2*r**2 + 2*p**2*q**6 + 2*p**2*q**4*r**2"
                      " + 2*p**2*q**2*r**4 + 2*p**2*r**6 + 2*q**8 + 2*q**6*r**2 + 2*q**2*r**6 + 2*r**8",
               "op": ">=",
               "rhs": "3*p**4*q**2 + 3*p**4*r**2 + 3*p**2*q**4 + 6*p**2*q**2*r**2 + 3*p**2*r**4"
                      " + 3*q**4*r**2 + 3*q**2*r**4"},
}


def test_large_certificate_is_compacted_and_checked() -> None:
    g = Goal.from_json(IMO1995_CLOSE)
    cert = S.sos_certificate(g, 60)
    assert cert is not None
    check_close(g, cert)
    assert sos_identity_holds(g, cert)
    size = len(json.dumps(cert))
    assert size < 100_000, size                 # 1,322,978 before the compaction
    assert max(len(t["coeff"]) for t in cert["terms"]) < 40


def _simple_goal() -> Goal:
    return Goal.from_json({"variables": ["a", "b"], "hypotheses": [],
                           "target": {"lhs": "a**2 + b**2", "op": ">=", "rhs": "a*b"}})


def test_small_certificate_keeps_todays_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_a, **_k):
        raise AssertionError("compaction tried on a small certificate")
    monkeypatch.setattr(S, "compact_round", boom)
    g = _simple_goal()
    cert = S.sos_certificate(g, 20)
    assert cert is not None
    check_close(g, cert)


def test_compaction_forced_on_a_small_problem_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "COMPACT_DIGITS", 0)
    g = _simple_goal()
    cert = S.sos_certificate(g, 20)
    assert cert is not None
    check_close(g, cert)
    assert sos_identity_holds(g, cert)


def test_failed_compaction_keeps_the_least_norm_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "COMPACT_DIGITS", 0)
    monkeypatch.setattr(S, "compact_round", lambda *_a, **_k: None)
    g = _simple_goal()
    cert = S.sos_certificate(g, 20)
    assert cert is not None
    check_close(g, cert)
