"""Mathlib's ``positivity``: its core extensions and ``compareHyp`` on the local context."""

from __future__ import annotations

from typing import Any

from prover.lean.replay.goals import Local
from prover.lean.replay.report import ModelError
from prover.lean.replay.ring_normal import num_value
from prover.lean.replay.terms import REAL, ZERO, alpha, canon, show

_POS, _NONNEG, _NONZERO = "pos", "nonneg", "nonzero"


def _or_else(r1: str | None, r2_fn: Any) -> str | None:
    if r1 == _POS:
        return r1
    try:
        r2 = r2_fn()
    except ModelError:
        r2 = None
    if r1 is None:
        return r2
    if r2 == _POS:
        return _POS
    if {r1, r2} == {_NONNEG, _NONZERO}:
        return _POS
    return r1


def positivity_core(e: Any, ctx: tuple[Local, ...]) -> str | None:
    """Mathlib's ``Positivity.core`` on ``e`` (``None`` when it fails)."""
    result: str | None = None
    ext = _positivity_ext(e, ctx)
    if ext is not None:
        result = ext
    result = _or_else(result, lambda: _norm_num_positivity(e))
    if result == _POS:
        return result
    for loc in ctx:
        if not loc.is_var:
            result = _or_else(result, lambda loc=loc: _compare_hyp(e, alpha(loc.type)))
    return result


def _positivity_ext(e: Any, ctx: tuple[Local, ...]) -> str | None:
    tag = e[0]
    if tag == "add":
        a, b = positivity_core(e[1], ctx), positivity_core(e[2], ctx)
        if a == _POS and b in (_POS, _NONNEG) or b == _POS and a == _NONNEG:
            return _POS
        if a == _NONNEG and b == _NONNEG:
            return _NONNEG
        return None
    if tag in ("mul", "div"):
        a, b = positivity_core(e[1], ctx), positivity_core(e[2], ctx)
        if a == _POS and b == _POS:
            return _POS
        if a in (_POS, _NONNEG) and b in (_POS, _NONNEG):
            return _NONNEG
        if a in (_POS, _NONZERO) and b in (_POS, _NONZERO):
            return _NONZERO
        return None
    if tag == "inv":
        return positivity_core(e[1], ctx)
    if tag == "pow":
        return _power(e, ctx)
    if tag == "app" and e[1] == ("const", "Real.sqrt"):
        return _POS if positivity_core(e[2][0], ctx) == _POS else _NONNEG
    if tag == "app" and e[1] == ("const", "Real.exp"):
        return _POS
    if e == ("const", "Real.pi"):      # Mathlib's `evalRealPi` extension (Real.pi_pos)
        return _POS
    if tag == "app" and e[1] == ("const", "Real.log") and len(e[2]) == 1:
        # `evalLogNatLit`: `Real.log n` of an argument norm_num evaluates to a natural number n > 1
        v = num_value(e[2][0])
        return _POS if v is not None and v.denominator == 1 and v > 1 else None
    if tag == "cast":
        # `evalNatCast`: `0 ≤ (↑n : ℝ)` always (`Nat.cast_nonneg`), `0 < ↑n` when `n` is positive;
        # for the natural-number `n` only a hypothesis `0 < n`, `c ≤ n` (c ≥ 1) or `c < n` is used
        n = e[1]
        for loc in ctx:
            h = canon(loc.type) if not loc.is_var else None
            if isinstance(h, tuple) and h[0] == "rel" and h[3] == n and h[2][0] == "num" and (
                    h[1] == "<" or h[1] == "≤" and h[2][1] >= 1):
                return _POS
        return _NONNEG
    if tag == "abs":
        r = positivity_core(e[1], ctx)
        if r in (_POS, _NONZERO):
            return _POS
        return _NONNEG if r is None else None
    return None


def _power(e: Any, ctx: tuple[Local, ...]) -> str | None:
    """``evalPow`` (natural exponents), ``evalRpowZero``/``evalRpow`` (real ones); ``zpow`` unread."""
    expo = e[2]
    if expo[0] == "num":
        if expo[1] == 0:
            return _POS
        even = _NONNEG if expo[1] % 2 == 0 else None
        return _or_else(even, lambda: _pow_from_base(positivity_core(e[1], ctx)))
    if expo[0] == "ascr" and expo[2] != REAL:
        return None            # `zpow`: Mathlib's extension for it is not modelled
    if expo[0] == "ascr" and expo[1] == ZERO:
        return _POS
    r = positivity_core(e[1], ctx)
    return r if r in (_POS, _NONNEG) else None


def _pow_from_base(r: str | None) -> str | None:
    return r


def _norm_num_positivity(e: Any) -> str | None:
    v = num_value(e)
    if v is None:
        return None
    return _POS if v > 0 else _NONNEG if v == 0 else _NONZERO


def _compare_hyp(e: Any, h: Any) -> str | None:
    if not (isinstance(h, tuple) and h[0] == "rel"):
        return None
    op, lo, hi = h[1], h[2], h[3]
    if op == "≤" and hi == e:
        if lo == ZERO:
            return _NONNEG
        r = _norm_num_positivity(lo)
        return r if r in (_POS, _NONNEG) else None
    if op == "<" and hi == e:
        if lo == ZERO:
            return _POS
        return _POS if _norm_num_positivity(lo) in (_POS, _NONNEG) else None
    if op == "=":
        if e == hi:
            return _NONNEG if lo == ZERO else _norm_num_positivity(lo)
        if e == lo:
            return _NONNEG if hi == ZERO else _norm_num_positivity(hi)
    if op == "≠" and (lo == ZERO and hi == e or hi == ZERO and lo == e):
        return _NONZERO
    return None


def positivity_goal(target: Any, ctx: tuple[Local, ...]) -> None:
    """Close ``0 ≤ e`` / ``0 < e`` / ``e ≠ 0`` as Mathlib's ``positivity`` does, or raise."""
    t = canon(target)
    if t[0] != "rel":
        raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    op, a, b = t[1], t[2], t[3]
    if op in ("≤", "<"):
        if a != ZERO:
            raise ModelError(f"positivity: not a positivity goal (left side is not 0): {show(target)}")
        want, e = op, b
    elif op == "≠":
        if b == ZERO:
            want, e = "≠", a
        elif a == ZERO:
            want, e = "≠", b
        else:
            raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    else:
        raise ModelError(f"positivity: not a positivity goal: {show(target)}")
    r = positivity_core(e, ctx)
    okay = (want == "<" and r == _POS or want == "≤" and r in (_POS, _NONNEG)
            or want == "≠" and r in (_POS, _NONZERO))
    if not okay:
        what = {"<": "positivity", "≤": "nonnegativity", "≠": "nonzeroness"}[want]
        culprit = _positivity_culprit(e, ctx)
        raise ModelError(f"positivity: failed to prove {what} of {show(e)[:300]}"
                         + (f" (no extension or hypothesis for {show(culprit)[:200]})" if culprit else ""))


def _positivity_culprit(e: Any, ctx: tuple[Local, ...]) -> Any:
    """The innermost subterm positivity cannot say anything about (for messages)."""
    if positivity_core(e, ctx) is not None:
        return None
    if e[0] in ("add", "mul", "div"):
        for sub in (e[1], e[2]):
            c = _positivity_culprit(sub, ctx)
            if c is not None:
                return c
    if e[0] in ("inv", "pow", "abs"):
        c = _positivity_culprit(e[1], ctx)
        if c is not None:
            return c
    return e
