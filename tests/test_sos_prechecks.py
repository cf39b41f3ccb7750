"""The SOS closer's cheap pre-checks: they may only skip work, never change what is accepted.

* the Newton-polytope membership (a bounding box, then an LP; cached per support) agrees with
  the LP alone;
* the float rejection of a rounded Gram matrix fires only on matrices the exact LDLᵀ rejects;
* the float projection rejects exactly where the exact projection's matrix is clearly indefinite.
"""

from __future__ import annotations

import itertools
import random

import flint
import numpy as np
import pytest
from scipy.optimize import linprog

from prover.solvers import sos
from prover.solvers.rational_linalg import AffineProjector, ldl_psd


def _lp_inside(support: list[tuple[int, ...]], w: tuple[int, ...]) -> bool:
    pts = np.array([list(m) for m in support], dtype=float).T
    A_eq = np.vstack([pts, np.ones((1, pts.shape[1]))])
    res = linprog(np.zeros(pts.shape[1]), A_eq=A_eq, b_eq=np.array(list(w) + [1.0]), bounds=(0, None),
                  method="highs")
    return res.status == 0


@pytest.mark.parametrize("seed", range(4))
def test_newton_membership_agrees_with_the_lp(seed: int) -> None:
    rng = random.Random(seed)
    support = sorted({tuple(rng.randint(0, 4) for _ in range(3)) for _ in range(6)})
    inside = sos._newton_membership(frozenset(support))
    assert sos._newton_membership(frozenset(support)) is inside      # cached
    for w in itertools.product(range(6), repeat=3):
        assert inside(w) == _lp_inside(support, w), w


def test_newton_box_rejects_outside_points_of_a_homogeneous_support() -> None:
    support = [(4, 0, 0), (0, 4, 0), (0, 0, 4), (2, 1, 1)]
    inside = sos._newton_membership(frozenset(support))
    assert inside((2, 1, 1)) and inside((1, 2, 1)) is _lp_inside(support, (1, 2, 1))
    assert not inside((5, 0, 0)) and not inside((3, 0, 0))


def _q(rows: list[list[int | tuple[int, int]]]) -> list[list[flint.fmpq]]:
    return [[flint.fmpq(*v) if isinstance(v, tuple) else flint.fmpq(v) for v in r] for r in rows]


def test_float_rejection_only_of_matrices_the_exact_check_rejects() -> None:
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 5)
        B = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(n)]
        M = [[sum(B[i][k] * B[j][k] for k in range(n)) for j in range(n)] for i in range(n)]  # PSD
        i = rng.randrange(n)
        M[i][i] += rng.choice([0, 0, -1, -5])                  # sometimes indefinite
        Mq = _q(M)
        if sos._clearly_indefinite(Mq):
            assert ldl_psd(Mq) is None
    # singular PSD and a tiny exact negative eigenvalue: the float test leaves both to LDLᵀ
    assert not sos._clearly_indefinite(_q([[1, 1], [1, 1]]))
    tiny = _q([[1, 1], [1, (10**12 - 1, 10**12)]])
    assert not sos._clearly_indefinite(tiny) and ldl_psd(tiny) is None


def test_float_projection_agrees_with_the_exact_projection() -> None:
    rng = random.Random(3)
    m, N = 4, 6
    A = flint.fmpq_mat(m, N, [rng.randint(-2, 2) for _ in range(m * N)])
    b = flint.fmpq_mat(m, 1, [rng.randint(-3, 3) for _ in range(m)])
    proj = AffineProjector(A, b)
    fp = sos._FloatProjection.of(proj)
    assert fp is not None and sos._FloatProjection.of(proj) is fp
    for _ in range(20):
        x0 = [flint.fmpq(rng.randint(-50, 50), 7) for _ in range(N)]
        exact = proj.project(flint.fmpq_mat(N, 1, x0))
        xf = np.array([float(q) for q in x0])
        xf = xf + fp.pinv @ (fp.b - fp.A @ xf)
        assert exact is not None
        assert np.allclose([float(exact[i, 0]) for i in range(N)], xf, atol=1e-9)
