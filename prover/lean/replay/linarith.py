"""Mathlib's ``linarith`` as an exact Positivstellensatz-degree-1 search (HiGHS, checked exactly)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from prover.lean.replay.goals import Local, _rel
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.ring_normal import RingNormalizer, num_value
from prover.lean.replay.sums import bare_nat, nat_vars
from prover.lean.replay.terms import canon, show


def linarith_goal(target: Any, ctx: tuple[Local, ...]) -> None:
    """Mathlib's ``linarith`` as an exact Positivstellensatz-degree-1 search: the negated goal
    and the comparison hypotheses, nonlinear monomials as atoms (``linear_forms``)."""
    t = canon(target)
    if t[0] == "rel" and t[1] == "=":
        linarith_goal(("rel", "≤", t[2], t[3]), ctx)
        linarith_goal(("rel", "≤", t[3], t[2]), ctx)
        return
    facts: list[tuple[Any, str]] = []        # (term p, rel) meaning p rel 0 with rel ∈ {<, ≤, =}
    nats = nat_vars(ctx)
    for loc in ctx:
        if loc.is_var or bare_nat(loc.type, nats):
            continue          # a fact about ℕ is left out (the model's arithmetic is over ℝ)
        r = _rel(loc.type)
        if r is None or r[0] == "≠" or _size(loc.type, LINARITH_HYP_SIZE) > LINARITH_HYP_SIZE:
            continue          # dropping a hypothesis only weakens the model (sound, maybe incomplete)
        op, a, b = r
        facts.append((("sub", a, b), op))        # a - b op 0
    if t[0] == "rel" and t[1] in ("≤", "<"):
        a, b = t[2], t[3]
        facts.append((("sub", b, a), "<" if t[1] == "≤" else "≤"))   # negation: b - a < 0 / ≤ 0
    elif t != ("const", "False"):
        raise ModelError(f"linarith: goal {show(target)} is not a linear comparison")
    try:
        norm = RingNormalizer([f for f, _ in facts])
        polys = [(norm.norm(_linarith_term(f)), op) for f, op in facts]
    except NotModelled as exc:
        raise ModelError(f"linarith: {exc}") from None
    if not _farkas(polys):
        raise ModelError(f"linarith failed to find a contradiction for {show(target)[:300]}")


#: Hypotheses larger than this (term nodes) are left out of the linarith model: a subset of the
#: facts can only make it fail more often, never pass where Lean's linarith fails.
LINARITH_HYP_SIZE = 400


def _size(t: Any, cap: int) -> int:
    """Number of nodes of ``t``, counting stops above ``cap``."""
    n, stack = 0, [t]
    while stack and n <= cap:
        x = stack.pop()
        n += 1
        if isinstance(x, tuple):
            stack.extend(a for a in x if isinstance(a, tuple))
    return n


def _linarith_term(t: Any) -> Any:
    """``linear_forms``: division only by numerals is arithmetic; any other ``/``, ``⁻¹`` is an atom."""
    tag = t[0]
    if tag == "div":
        if num_value(t[2]) is not None:
            return ("div", _linarith_term(t[1]), t[2])
        return ("atom", t)
    if tag == "inv":
        return t if num_value(t[1]) is not None else ("atom", t)
    if tag in ("add", "sub", "mul"):
        return (tag, _linarith_term(t[1]), _linarith_term(t[2]))
    if tag == "neg":
        return ("neg", _linarith_term(t[1]))
    if tag == "pow" and t[2][0] == "num":
        return ("pow", _linarith_term(t[1]), t[2])
    if tag == "dec":   # a decimal literal: an atom here (whether linarith's parsing evaluates it is not modelled)
        return ("atom", t)
    return t


def _farkas(polys: list[tuple[Any, str]]) -> bool:
    """Whether multipliers λ (λ ≥ 0 for ``<``/``≤``, free for ``=``) give ``Σ λ_i p_i`` equal to a
    constant ``c`` with ``c > 0``, or ``c = 0`` and a strict fact weighted positively (facts are
    ``p_i op 0``). The LP is solved in floating point (HiGHS) and its answer is accepted only
    after an exact rational check of the certificate; without a verified certificate: False."""
    import numpy as np
    from scipy.optimize import linprog

    # a fact with a monomial no other fact has gets λ = 0: drop it (exact), repeatedly
    monos = [dict(zip(p.monoms(), p.coeffs())) for p, _ in polys]
    alive = set(range(len(polys)))
    while True:
        count: Counter = Counter(m for k in alive for m in monos[k] if any(m))
        drop = {k for k in alive if any(count[m] == 1 for m in monos[k] if any(m))}
        if not drop:
            break
        alive -= drop
    order = sorted(alive)
    polys = [polys[k] for k in order]
    monos = [monos[k] for k in order]
    n = len(polys)
    if n == 0:
        return False
    cols: dict[tuple, dict[int, Fraction]] = {}
    const: dict[int, Fraction] = {}
    for k, terms in enumerate(monos):
        for key, c in terms.items():
            v = Fraction(int(c.p), int(c.q))
            if any(key):
                cols.setdefault(key, {})[k] = v
            else:
                const[k] = v
    keys = list(cols)
    a_eq = np.array([[float(cols[key].get(k, 0)) for k in range(n)] for key in keys]) if keys else None
    strict = [1.0 if op == "<" else 0.0 for _, op in polys]
    cvec = np.array([float(const.get(k, 0)) for k in range(n)])
    bounds = [(-1.0 if op == "=" else 0.0, 1.0) for _, op in polys]
    objective = -(cvec + np.array(strict))
    try:
        res = linprog(objective, A_ub=-cvec.reshape(1, -1), b_ub=np.zeros(1),
                      A_eq=a_eq, b_eq=np.zeros(len(keys)) if keys else None, bounds=bounds, method="highs")
    except ValueError:
        return False
    if res.status != 0 or -res.fun <= 1e-9:
        return False
    lam = [Fraction(float(x)).limit_denominator(10**6) for x in res.x]
    for k, (_, op) in enumerate(polys):
        if op != "=" and lam[k] < 0:
            lam[k] = Fraction(0)
    if any(sum((v * lam[k] for k, v in col.items()), Fraction(0)) != 0 for col in cols.values()):
        return False
    c = sum((v * lam[k] for k, v in const.items()), Fraction(0))
    s = sum((lam[k] for k, (_, op) in enumerate(polys) if op == "<"), Fraction(0))
    return c > 0 or (c == 0 and s > 0)
