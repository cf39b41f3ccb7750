"""SOS at irrational zeros (``prover/solvers/sos_zeros.py``) on IMO 2006/3 squared:
``81 (a²+b²+c²)⁴ − 512 X² ≥ 0`` with ``X = ab(a²−b²) + bc(b²−c²) + ca(c²−a²)`` vanishes only on the
six rays of ``(1 + 3/√2, 1, 1 − 3/√2)``. The face those zeros cut out is a rational subspace;
on it Clarabel reports an inaccurate, negative margin and the tight SCS retry finds the interior.
The certificate is exact and the kernel checks it; a bound below the true constant gets none."""

from __future__ import annotations

import mpmath
import sympy as sp

from prover.ir import Goal
from prover.problem import Relation, var
from prover.solvers import sos as S
from prover.solvers import sos_zeros as Z
from prover.verify import check_close

a, b, c = (var(v) for v in "abc")
X = a * b * (a**2 - b**2) + b * c * (b**2 - c**2) + c * a * (c**2 - a**2)


def _goal(k: sp.Rational) -> Goal:
    return Goal(["a", "b", "c"], [], Relation(X**2, "<=", k * (a**2 + b**2 + c**2) ** 4))


def test_numeric_zeros_are_the_six_irrational_rays() -> None:
    pp = S.poly_problem(_goal(sp.Rational(81, 512)))
    zeros = Z.numeric_zeros(pp.p, 3)
    assert len(zeros) == 6
    with mpmath.workdps(60):
        top = 1 + 3 / mpmath.sqrt(2)
        ray = sorted([mpmath.mpf(1), 1 / top, (1 - 3 / mpmath.sqrt(2)) / top])
        perms = set()
        for z in zeros:
            assert abs(Z.value(pp.p, z)) < mpmath.mpf(10) ** -40
            for sign in (1, -1):
                if all(abs(u - v) < mpmath.mpf(10) ** -30 for u, v in zip(sorted(sign * x for x in z), ray)):
                    perms.add(tuple(sorted(range(3), key=lambda i: sign * z[i])))
        assert len(perms) == 6            # every permutation of the ray, once


def test_span_of_irrational_points_is_recognised_only_when_rational() -> None:
    with mpmath.workdps(60):
        s2 = mpmath.sqrt(2)
        conj = [[1, s2, 2], [1, -s2, 2]]           # a Galois-closed pair: span {(1,0,2), (0,1,0)}
        span = Z.rational_span(conj)
        assert span is not None and len(span) == 2
        assert [[int(x) for x in row] for row in span] == [[1, 0, 2], [0, 1, 0]]
        assert Z.rational_span([[1, s2, 3]]) is None     # one point alone: not a rational line


def test_imo_2006_3_squared_gets_an_exact_certificate_the_kernel_accepts() -> None:
    g = _goal(sp.Rational(81, 512))
    cert = S.sos_certificate(g, time_limit=60)
    assert cert is not None
    check_close(g, cert)          # raises on any inexact step


def test_a_constant_below_the_bound_gets_no_certificate() -> None:
    assert S.sos_certificate(_goal(sp.Rational(80, 512)), time_limit=20) is None


def test_the_zero_search_stops_at_its_deadline(monkeypatch) -> None:
    """No new start after the deadline, counted in starts rather than seconds: with the deadline
    already passed, not one local minimisation is started."""
    import time

    import scipy.optimize

    real, starts = scipy.optimize.minimize, []
    monkeypatch.setattr(scipy.optimize, "minimize", lambda *a, **k: (starts.append(1), real(*a, **k))[1])
    pp = S.poly_problem(_goal(sp.Rational(81, 512)))
    assert Z.numeric_zeros(pp.p, 3, deadline=time.monotonic() - 1) == []
    assert starts == []
    assert Z.numeric_zeros(pp.p, 3) and starts  # without a deadline it does start (the spy sees it)
