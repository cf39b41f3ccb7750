"""The registered closers for a polynomial goal ``p >= 0`` (``> 0``), and for an equality goal
(those marked ``equalities``, run on the goal as stated): each a value with a
``name`` and ``close(goal, deadline)`` (the :class:`Closer` protocol) returning a complete proof
tree the kernel can check, or None in time. :func:`default_closers` is the list the search uses
(cheapest first); :func:`close_polynomial` runs a list. A new closer is one more value in that
list. Nothing here is trusted: the kernel checks every certificate."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import LinearCertificate, PositivityCertificate
from prover.problem import Relation, var
from prover.solvers.difference_substitution import monomial_certificate, nonneg_hyp_index, sds_close
from prover.solvers.ideal import ideal_certificate
from prover.solvers.signs import obviously_positive, positive_vars
from prover.solvers.sos import sos_certificate


def close_step(goal: Goal, cert: dict, note: str) -> Step:
    return Step("close", goal, [], cert, note=note)



class Closer(Protocol):
    """A closer for a polynomial goal: a complete proof tree the kernel can check, or None.
    ``deadline`` is this closer's own (``time.monotonic()``); it returns None in time. A closer
    whose ``equalities`` attribute is true also gets ``=`` goals, as stated (not normalised)."""

    name: str

    def close(self, goal: Goal, deadline: float) -> Step | None: ...


@dataclass(frozen=True)
class PositivityCloser:
    """Positive coefficients in variables with a sign hypothesis (a syntactic look)."""

    name: str = "positivity"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        if obviously_positive(goal.target.slack(), positive_vars(goal), positive_vars(goal, False),
                              strict=goal.target.strict):
            return close_step(goal, PositivityCertificate().to_json(), "positivity")
        return None


@dataclass(frozen=True)
class NonnegativeCoefficients:
    """Each monomial nonnegative by its variables' sign hypotheses (non-strict goals)."""

    name: str = "nonnegative coefficients"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        cert = monomial_certificate(goal, goal.target.slack()) if not goal.target.strict else None
        return close_step(goal, cert, "nonnegative coefficients") if cert is not None else None


@dataclass(frozen=True)
class LinearCombinationCloser:
    """The slack as a nonnegative combination of the hypotheses' slacks (an exact LP solution,
    checked by the kernel here): what ``linarith`` proves."""

    name: str = "linear combination"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        from prover.kernel.check import check_step
        from prover.solvers.linear_combination import linear_certificate

        cert = linear_certificate(goal)
        if cert is None:
            return None
        step = close_step(goal, cert, "linear combination")
        return step if check_step(step, _no_lemmas).ok else None


@dataclass(frozen=True)
class SosCloser:
    """An SOS certificate with hypothesis multipliers; ``share`` of the time left (at least
    ``floor`` seconds)."""

    share: float = 0.3
    floor: float = 2.0
    max_extra_degree: int = 2   # degrees above the goal's tried for a non-homogeneous goal
    name: str = "sos"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        left = deadline - time.monotonic()
        return _sos_leaf(goal, min(left, max(self.floor, self.share * left)), self.max_extra_degree)


@dataclass(frozen=True)
class DifferenceSubstitutionCloser:
    """Order split and difference substitution (SOS in each case as a fallback)."""

    share: float = 0.25
    floor: float = 2.0
    name: str = "difference substitution"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        left = deadline - time.monotonic()
        if left <= 0.5:
            return None
        return sds_close(goal, min(left, max(self.floor, self.share * left)),
                         fallback=lambda g, t: sos_certificate(g, t))


@dataclass(frozen=True)
class SumMultiplierSos:
    """``(Σx)^k · p >= 0`` by SOS, for k in ``powers`` (Pólya-style multipliers)."""

    powers: tuple[int, ...] = (1, 2)
    name: str = "sos after multiplying by a power of the sum"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        for k in self.powers:
            left = deadline - time.monotonic()
            if left <= 0.5:
                return None
            rw = multiply_by_sum(goal, k)
            if rw is None:
                return None
            last = k == self.powers[-1]
            leaf = _sos_leaf(rw.subgoals[0], left if last else max(2.0, 0.6 * left))
            if leaf is not None:
                rw.children = [leaf]
                return rw
        return None


@dataclass(frozen=True)
class IdealMembership:
    """An equality target from the equality hypotheses: exact multipliers ``λₖ`` with
    ``lhs − rhs = Σ λₖ·(aₖ − bₖ)`` (Gröbner basis and linear algebra over ℚ, denominators by
    inverse variables; :func:`prover.solvers.ideal.ideal_certificate`), kernel-checked here.
    Refuses at once a goal that is not an equality or has no equality hypothesis. ``equalities``
    marks the closers that :func:`prover.search.close.close_goal` runs on an ``=`` goal."""

    share: float = 0.8
    floor: float = 2.0
    name: str = "ideal membership"
    equalities: bool = True

    def close(self, goal: Goal, deadline: float) -> Step | None:
        if goal.target.op != "=" or not any(h.op == "=" for h in goal.hypotheses):
            return None
        from prover.kernel.check import check_step

        left = deadline - time.monotonic()
        cert = ideal_certificate(goal, min(left, max(self.floor, self.share * left)))
        if cert is None:
            return None
        step = close_step(goal, cert.to_json(), "ideal membership")
        return step if check_step(step, _no_lemmas).ok else None


def _no_lemmas(name: str) -> None:
    """Lemma lookup for checking a close step, which uses no catalogue lemma: none is found."""


def default_closers() -> tuple[Closer, ...]:
    """The closers for a polynomial goal, cheapest first (each gets its share of the time left);
    on an ``=`` goal only those marked ``equalities`` run."""
    return (PositivityCloser(), NonnegativeCoefficients(), LinearCombinationCloser(), SosCloser(),
            DifferenceSubstitutionCloser(),
            SumMultiplierSos(), IdealMembership())


def _sos_leaf(goal: Goal, time_limit: float, max_extra_degree: int = 2) -> Step | None:
    cert = sos_certificate(goal, time_limit, max_extra_degree=max_extra_degree)
    return close_step(goal, cert, "sos") if cert is not None else None


def multiply_by_sum(goal: Goal, k: int) -> Step | None:
    """Rewrite ``p >= 0`` as ``(Σx)^k · p >= 0`` (multiplier ``1/(Σx)^k``, positive) over the
    variables of the target that are known nonnegative."""
    hyp = nonneg_hyp_index(goal)
    p = goal.target.slack()
    vs = [v for v in goal.variables if var(v) in p.free_symbols]
    if not vs or any(v not in hyp for v in vs):
        return None
    s = sp.Add(*[var(v) for v in vs])
    if not obviously_positive(s, positive_vars(goal), positive_vars(goal, False), strict=True):
        return None
    target = Relation(sp.expand(s ** k * p), ">" if goal.target.strict else ">=", sp.Integer(0))
    sub = goal.with_target(target)
    cert = LinearCertificate(expr_to_str(1 / s ** k)).to_json()
    return Step("rewrite", goal, [sub], cert, note=f"multiply by (sum)^{k}")


def close_polynomial(goal: Goal, deadline: float, closers: Sequence[Closer] | None = None) -> Step | None:
    """Close a goal whose target slack is a polynomial: the first closer that succeeds."""
    for closer in default_closers() if closers is None else closers:
        if time.monotonic() >= deadline:
            return None
        step = closer.close(goal, deadline)
        if step is not None:
            return step
    return None
