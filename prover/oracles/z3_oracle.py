"""z3 (QF_NRA) as an oracle, with a hard time limit.

Encoding (an over-approximation of Lean's semantics, so z3's ``unsat`` would be meaningful,
though our system never takes it as a proof): ``n / d`` becomes a fresh ``q`` with
``d != 0 -> d*q = n`` and ``d = 0 -> q = 0`` (Lean's ``x / 0 = 0``); ``B^(p/q)`` (``sqrt`` is
``p/q = 1/2``) becomes a fresh ``t`` with ``B > 0 -> t > 0 and t^q = B^p``, ``B = 0 -> t = 0`` and
no constraint for ``B < 0``; variable exponents, ``exp`` and ``log`` become fresh variables
with only their sign constraints. A ``sat`` model is only a *candidate*: it is re-checked
exactly against the original expressions (:meth:`GoalModel.confirm`).

z3 runs in a forked child process that is killed when the time limit passes, since z3's own
``timeout`` is not always honoured inside nlsat.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from functools import reduce
from typing import Any

import numpy as np
import sympy as sp
import z3

from prover.ir import Goal
from prover.oracles.model import Counterexample, GoalModel, Unsupported
from prover.problem import Relation


class _Encoder:
    def __init__(self, names: tuple[str, ...]) -> None:
        self.vars = {n: z3.Real(n) for n in names}
        self.side: list[Any] = []
        self.n = 0
        self.cache: dict[sp.Expr, Any] = {}

    def fresh(self, tag: str) -> Any:
        self.n += 1
        return z3.Real(f"_{tag}{self.n}")

    def expr(self, e: sp.Expr) -> Any:
        if e in self.cache:
            return self.cache[e]
        r = self._expr(e)
        self.cache[e] = r
        return r

    def _expr(self, e: sp.Expr) -> Any:
        if e.is_Symbol:
            return self.vars[str(e)]
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}")
        if e.is_Add:
            return reduce(lambda x, y: x + y, [self.expr(a) for a in e.args])
        if e.is_Mul:
            num = [a for a in e.args if not (a.is_Pow and a.exp.is_Rational and a.exp < 0)]
            den = [sp.Pow(a.base, -a.exp) for a in e.args if a not in num]
            n = reduce(lambda x, y: x * y, [self.expr(a) for a in num]) if num else z3.RealVal(1)
            if not den:
                return n
            return self._div(n, reduce(lambda x, y: x * y, [self.expr(a) for a in den]))
        if e.is_Pow:
            b, x = e.args
            if x.is_Integer:
                k = int(x)
                pw = self._ipow(self.expr(b), abs(k))
                return pw if k >= 0 else self._div(z3.RealVal(1), pw)
            if x.is_Rational:
                return self._rpow(self.expr(b), int(x.p), int(x.q))
            t = self.fresh("pw")
            self.side.append(z3.Implies(self.expr(b) > 0, t > 0))
            return t
        if isinstance(e, sp.exp):
            t = self.fresh("exp")
            self.side.append(t > 0)
            return t
        if isinstance(e, sp.log):
            return self.fresh("log")
        if isinstance(e, sp.Abs):
            a = self.expr(e.args[0])
            return z3.If(a >= 0, a, -a)
        raise Unsupported(f"z3 encoding: {type(e).__name__}")

    @staticmethod
    def _ipow(b: Any, k: int) -> Any:
        return reduce(lambda x, y: x * y, [b] * k) if k else z3.RealVal(1)

    def _div(self, n: Any, d: Any) -> Any:
        q = self.fresh("q")
        self.side.append(z3.If(d == 0, q == 0, d * q == n))
        return q

    def _rpow(self, b: Any, p: int, q: int) -> Any:
        t = self.fresh("rt")
        lhs, rhs = self._ipow(t, q), self._ipow(b, abs(p))
        law = lhs == rhs if p > 0 else lhs * rhs == 1
        self.side.append(z3.Implies(b > 0, z3.And(t > 0, law)))
        self.side.append(z3.Implies(b == 0, t == 0))
        return t

    def relation(self, r: Relation) -> Any:
        lhs, rhs = self.expr(r.lhs), self.expr(r.rhs)
        return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs,
                "=": lhs == rhs, "!=": lhs != rhs}[r.op]


def _solve(goal_json: dict, time_ms: int) -> tuple[str, dict]:
    goal = Goal.from_json(goal_json)
    enc = _Encoder(goal.variables)
    hyps = [enc.relation(h) for h in goal.hypotheses]
    neg = z3.Not(enc.relation(goal.target))
    s = z3.SolverFor("QF_NRA")
    s.set("timeout", max(1, time_ms))
    s.add(*hyps, *enc.side, neg)
    r = s.check()
    if r == z3.sat:
        m = s.model()
        point: dict[str, tuple[str, str]] = {}
        for name, v in enc.vars.items():
            val = m.eval(v, model_completion=True)
            if z3.is_rational_value(val):
                f = val.as_fraction()
                point[name] = ("exact", f"{f.numerator}/{f.denominator}")
            else:
                point[name] = ("approx", val.approx(30).as_decimal(30).rstrip("?"))
        return "sat", point
    return ("unsat" if r == z3.unsat else "unknown"), {}


def _child(conn: Any, goal_json: dict, time_ms: int) -> None:
    try:
        conn.send(_solve(goal_json, time_ms))
    except Exception as exc:  # noqa: BLE001 - reported to the parent as "unknown"
        conn.send(("unknown", {"error": f"{type(exc).__name__}: {exc}"}))
    finally:
        conn.close()


def run_z3(goal: Goal, time_limit: float) -> tuple[str, dict]:
    """``("sat"|"unsat"|"unknown", model)`` for hypotheses ∧ ¬target, killed after ``time_limit``."""
    try:
        _Encoder(goal.variables).relation(goal.target)  # fail fast on unsupported shapes
    except Unsupported:
        return "unknown", {}
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, goal.to_json(), int(time_limit * 1000)), daemon=True)
    proc.start()
    send.close()
    deadline = time.monotonic() + time_limit + 0.5
    result: tuple[str, dict] = ("unknown", {})
    try:
        if recv.poll(max(0.0, deadline - time.monotonic())):
            result = recv.recv()
    except (EOFError, OSError):
        pass
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(1.0)
        recv.close()
    return result


def z3_prove_attempt(goal: Goal, time_limit: float) -> str:
    """z3's own verdict on the goal, for the comparison table only (never a proof here)."""
    return run_z3(goal, time_limit)[0]


def z3_counterexample(goal: Goal, time_limit: float, model: GoalModel | None = None,
                      point: dict | None = None) -> Counterexample | None:
    """A z3 model of hypotheses ∧ ¬target, kept only if it is confirmed exactly.

    ``point`` (a model already returned by :func:`run_z3`) skips running z3 again.
    """
    if point is None:
        status, point = run_z3(goal, time_limit)
        if status != "sat":
            return None
    try:
        model = model or GoalModel(goal)
    except Unsupported:
        return None
    exact = {}
    x = []
    for s in model.syms:
        kind, val = point.get(str(s), ("exact", "0"))
        q = sp.Rational(val)
        if kind == "exact":
            exact[s] = q
        x.append(float(q))
    if model.powers:  # the model's variables are roots of the goal's: z3's exact values do not carry over
        return model.confirm(model.model_point(np.array([x]))[0], "z3")
    return model.confirm(np.array(x), "z3", exact=exact if len(exact) == len(model.syms) else None)
