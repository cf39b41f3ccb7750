"""Lean's resource limits per declaration: estimated heartbeats and the deepest term nesting.

**An estimate, not a measurement.** No Lean runs on our machines. Lean stops a declaration that
uses more than ``maxHeartbeats`` heartbeats (one heartbeat = a thousand small allocations;
default 200,000, Lean core ``Lean/CoreM.lean``: ``register_builtin_option maxHeartbeats``) or
nests deeper than ``maxRecDepth`` (default ``defaultMaxRecDepth := 512``, ``Init/Prelude.lean``).
Both count per command: all tactics of one theorem share them, and a
``set_option maxHeartbeats N in`` / ``set_option maxRecDepth N in`` prefix replaces them for that
declaration. The model passes a declaration only when both estimates are within the budgets
(``estimate × MARGIN ≤ budget``, ``MARGIN`` = 1.0); over either budget is a failure, never a pass.

The heartbeat estimate of a declaration is the sum of

* **elaboration**: ``HB_ELAB_PER_NODE`` × the term nodes of every term the checker parses (the
  statement, ``have`` types, proof terms, tactic arguments);
* **ring normalisation** (``linear_combination``, ``ring``/``ring1``): ``HB_RING_CALL`` per call plus
  ``HB_RING_OP`` × the monomial operations ``RingNormalizer`` counts while normalising the goal
  (``ops``: an addition costs the terms of both sides, as ``evalAdd`` merges them; a product
  the product of the term counts plus the result; a power the result times the base; see
  :mod:`ring_normal`);
* **linarith**: ``HB_LINARITH_CALL`` per call plus, for *every comparison hypothesis in the local
  context* (Mathlib's ``linarith`` preprocesses them all on every call:
  ``Linarith/Frontend.lean`` collects the local context, ``Preprocessing.lean`` runs
  ``defaultPreprocessors`` over each, ``Parsing.lean``'s ``linearFormOfExpr`` multiplies it out),
  ``HB_LINARITH_HYP`` + ``HB_LINARITH_PER_NODE`` × its term nodes, doubled
  (``CANCEL_DENOMS_FACTOR``) for a hypothesis with ``/`` or ``⁻¹`` (the ``cancelDenoms``
  preprocessor, simp + norm_num, runs on those);
* **positivity**: ``HB_POSITIVITY_CALL`` per call plus ``HB_POSITIVITY_PAIR`` × the goal's nodes ×
  the comparison hypotheses in context (``compareHyp`` is tried against the hypotheses at the
  subterms, ``Positivity/Core.lean``).

Calibration (Mathlib's own tests; the comments there give the heartbeats measured by Mathlib's
maintainers on the implementation of the time — the numbers are theirs, the attribution ours):

* ``MathlibTest/linear_combination.lean``: ``example {a b : ℝ} (h : a < b) : 0 < b - a := by
  linear_combination (norm := skip) h`` takes 206 heartbeats (no ``ring`` at all): the fixed cost of
  a tactic call with its statement. → ``HB_TACTIC_CALL`` = 206.
* Same file: the regression test with a 1.8 K-character combination of three hypotheses over
  five variables, ``(norm := skip)``, takes 7,540 heartbeats: elaboration of the statement and
  of the combination, no ``ring``. Our parser gives it ``CALIBRATION_LC_NODES`` = 457 term nodes
  (over ℝ: ``tests/data/lean_resources/calibration.lean``), so ``HB_ELAB_PER_NODE`` =
  ⌈(7,540 − 206) / 457⌉ = 17.
* ``MathlibTest/ring_compare.lean``: ``example : x + y - x + 1 < y + (4:K) := by ring_lt``
  takes 676 heartbeats (28 ms: about 24 heartbeats a millisecond, so the default budget is about
  8 s). With the statement's elaboration (13 nodes) and the tactic's fixed cost (206) taken off,
  the rest is attributed to the ``CALIBRATION_RING_OPS`` = 25 operations our counter sees on the
  same goal closed by ``linear_combination`` (what our renderer emits):
  ``HB_RING_OP`` = ⌈(676 − 206 − 13 × 17) / 25⌉ = 10. The test's comment says most of that cost
  is typeclass inference (a fixed cost), so this **over**-estimates the cost per operation: the
  model errs strict (it may reject a file Lean accepts). ``results/lean-resources.md`` gives
  the files over the budget at smaller values.
* ``HB_RING_CALL`` = ``HB_TACTIC_CALL``; ``HB_LINARITH_CALL`` = ``HB_POSITIVITY_CALL`` = ``HB_TACTIC_CALL``.

**Not calibrated by any test we could read** (assumptions, stated as such):
``HB_LINARITH_PER_NODE`` = 2 × ``HB_ELAB_PER_NODE`` (preprocessing rebuilds each hypothesis at
least twice: ``compWithZero``'s rearranged proof and ``linearFormOfExpr``'s polynomial),
``HB_LINARITH_HYP`` = 50 per hypothesis, ``CANCEL_DENOMS_FACTOR`` = 2, ``HB_POSITIVITY_PAIR`` = 1.
The true costs may differ by a factor of several either way; the figures are for ranking files
and catching the clear cases (a 100-call block of ``linarith`` beside an 8 KB hypothesis), not
a prediction of Lean's exact count. Kernel type checking of the final proof term is not counted.

Depth: the deepest nesting of any term the checker builds, one level per node, so a binary
operator chain ``a₁ + a₂ + … + a_N`` (left-nested: ``HAdd.hAdd (HAdd.hAdd … ) a_N``) is N deep;
for ``linear_combination`` and ``ring`` the term ``ring`` normalises (goal and combination) is
measured, as both the elaborator (``elabTermAux``) and ``ring``'s ``eval`` recurse once per level.
Lean may spend more than one level of ``maxRecDepth`` per node (nested ``withIncRecDepth``), so
the depth is a lower bound of Lean's count; a file near the limit is a risk the report shows.

Trust: none; a model of Lean's limits used to measure rendered files.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

#: Lean core defaults (``Lean/CoreM.lean``, ``Init/Prelude.lean``).
DEFAULT_MAX_HEARTBEATS = 200_000
DEFAULT_MAX_REC_DEPTH = 512
#: A declaration passes when ``estimate * MARGIN <= budget``.
HEARTBEAT_MARGIN = 1.0
DEPTH_MARGIN = 1.0

#: Calibration inputs (see the module docstring): heartbeats from Mathlib's tests.
MATHLIB_LC_SKIP_SMALL_HB = 206      # MathlibTest/linear_combination.lean, `linear_combination (norm := skip) h`
MATHLIB_LC_SKIP_LARGE_HB = 7_540    # MathlibTest/linear_combination.lean, the 1.8 K-character regression test
MATHLIB_RING_LT_HB = 676            # MathlibTest/ring_compare.lean, `x + y - x + 1 < y + (4:K)` by ring_lt
#: What our counters give for those two tests (recomputed in tests/test_lean_resources.py).
CALIBRATION_LC_NODES = 457
CALIBRATION_RING_NODES = 13
CALIBRATION_RING_OPS = 25

HB_TACTIC_CALL = MATHLIB_LC_SKIP_SMALL_HB
HB_ELAB_PER_NODE = math.ceil((MATHLIB_LC_SKIP_LARGE_HB - HB_TACTIC_CALL) / CALIBRATION_LC_NODES)
HB_RING_CALL = HB_TACTIC_CALL
HB_RING_OP = math.ceil((MATHLIB_RING_LT_HB - HB_TACTIC_CALL - HB_ELAB_PER_NODE * CALIBRATION_RING_NODES)
                       / CALIBRATION_RING_OPS)
HB_LINARITH_CALL = HB_TACTIC_CALL
HB_LINARITH_HYP = 50
HB_LINARITH_PER_NODE = 2 * HB_ELAB_PER_NODE
CANCEL_DENOMS_FACTOR = 2
HB_POSITIVITY_CALL = HB_TACTIC_CALL
HB_POSITIVITY_PAIR = 1

_COMPARISONS = ("≤", "<", "=", "≥", ">")


def size_depth(t: Any) -> tuple[int, int]:
    """Term nodes and nesting depth of ``t`` (a tuple term of :mod:`terms`; an argument tuple is
    not a level of its own). Iterative: terms may be thousands deep."""
    if not isinstance(t, tuple):
        return 0, 0
    nodes, deepest = 0, 0
    stack: list[tuple[Any, int]] = [(t, 0)]
    while stack:
        x, d = stack.pop()
        if not x:
            continue
        if isinstance(x[0], tuple):            # a tuple of arguments
            stack.extend((a, d) for a in x if isinstance(a, tuple))
            continue
        nodes += 1
        d += 1
        deepest = max(deepest, d)
        stack.extend((a, d) for a in x[1:] if isinstance(a, tuple))
    return nodes, deepest


def _has_division(t: Any) -> bool:
    stack = [t]
    while stack:
        x = stack.pop()
        if isinstance(x, tuple) and x:
            if x[0] in ("div", "inv"):
                return True
            stack.extend(a for a in x if isinstance(a, tuple))
    return False


@dataclass
class DeclResources:
    """The resource figures of one declaration and its budgets."""

    name: str
    line: int
    heartbeats: int = 0
    heartbeat_budget: int = DEFAULT_MAX_HEARTBEATS
    depth: int = 0
    depth_line: int = 0
    depth_budget: int = DEFAULT_MAX_REC_DEPTH
    linarith_calls: int = 0
    ring_calls: int = 0
    ring_ops: int = 0
    largest_line: int = 0
    #: heartbeats by source: elaboration, ring, linarith, positivity
    parts: dict[str, int] = field(default_factory=lambda: {"elab": 0, "ring": 0, "linarith": 0, "positivity": 0})

    @property
    def over_heartbeats(self) -> bool:
        return self.heartbeat_budget > 0 and self.heartbeats * HEARTBEAT_MARGIN > self.heartbeat_budget

    @property
    def over_depth(self) -> bool:
        return self.depth * DEPTH_MARGIN > self.depth_budget

    @property
    def ok(self) -> bool:
        return not (self.over_heartbeats or self.over_depth)

    def line_text(self) -> str:
        """One line for ``prover lean replay``."""
        budget = "unlimited" if self.heartbeat_budget == 0 else f"{self.heartbeat_budget:,}"
        parts = ", ".join(f"{k} {v:,}" for k, v in self.parts.items() if v)
        return (f"{self.name or '(example)'} (line {self.line}): heartbeats ≈ {self.heartbeats:,} / {budget}"
                f"{' (' + parts + ')' if parts else ''}; depth {self.depth} / {self.depth_budget}"
                f"{f' (line {self.depth_line})' if self.depth_line else ''}; linarith calls {self.linarith_calls}; "
                f"ring calls {self.ring_calls} ({self.ring_ops:,} ops); largest line {self.largest_line:,}"
                f"{'' if self.ok else ' — OVER BUDGET'}")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["ok"] = self.ok
        return d

    def failures(self) -> list[str]:
        """The reasons this declaration is over a budget (empty when within both)."""
        out = []
        if self.over_heartbeats:
            out.append(f"resources: estimated {self.heartbeats:,} heartbeats exceed maxHeartbeats "
                       f"{self.heartbeat_budget:,} (elaboration {self.parts['elab']:,}, ring {self.parts['ring']:,}, "
                       f"linarith {self.parts['linarith']:,} over {self.linarith_calls} calls, positivity "
                       f"{self.parts['positivity']:,}; an estimate, see prover.lean.replay.resources)")
        if self.over_depth:
            out.append(f"resources: term nesting {self.depth} deep (line {self.depth_line}) exceeds maxRecDepth "
                       f"{self.depth_budget} (a sum of N summands nests N deep)")
        return out


class ResourceMeter:
    """Collects the figures of one declaration while the checker runs over it."""

    def __init__(self, name: str, line: int, heartbeats: int | None, rec_depth: int | None,
                 largest_line: int = 0):
        self.res = DeclResources(name, line, largest_line=largest_line)
        if heartbeats is not None:
            self.res.heartbeat_budget = heartbeats
        if rec_depth is not None:
            self.res.depth_budget = rec_depth
        self._hyp_cost: dict[int, tuple[Any, int]] = {}

    def _add(self, part: str, hb: float) -> None:
        n = math.ceil(hb)
        self.res.parts[part] += n
        self.res.heartbeats += n

    def _depth(self, d: int, line: int) -> None:
        if d > self.res.depth:
            self.res.depth, self.res.depth_line = d, line

    def term(self, t: Any, line: int) -> None:
        """A term the elaborator builds: its nodes cost elaboration, its nesting counts."""
        nodes, d = size_depth(t)
        self._add("elab", HB_ELAB_PER_NODE * nodes)
        self._depth(d, line)

    def call(self, line: int, *terms: Any) -> None:
        """One call of a tactic without a calibrated cost of its own (``simp only`` with the
        ``Finset`` lemmas, ``omega``, ``exact_mod_cast``): the fixed cost of a tactic call plus the
        elaboration of the terms it builds (an estimate: not calibrated on Mathlib's tests)."""
        self._add("elab", HB_TACTIC_CALL)
        for t in terms:
            self.term(t, line)

    def ring(self, normalised: Any, ops: int, line: int) -> None:
        """One ``ring`` normalisation of ``normalised`` costing ``ops`` monomial operations."""
        _, d = size_depth(normalised)
        self._depth(d, line)
        self.res.ring_calls += 1
        self.res.ring_ops += ops
        self._add("ring", HB_RING_CALL + HB_RING_OP * ops)

    def hyp_cost(self, ty: Any) -> int:
        """linarith's preprocessing of one comparison hypothesis (cached by identity)."""
        hit = self._hyp_cost.get(id(ty))
        if hit is not None and hit[0] is ty:
            return hit[1]
        nodes, _ = size_depth(ty)
        cost = HB_LINARITH_HYP + HB_LINARITH_PER_NODE * nodes
        if _has_division(ty):
            cost *= CANCEL_DENOMS_FACTOR
        self._hyp_cost[id(ty)] = (ty, cost)
        return cost

    def linarith(self, ctx: Any, target: Any, line: int) -> None:
        """One ``linarith`` call: every comparison hypothesis in ``ctx`` is preprocessed."""
        self.res.linarith_calls += 1
        cost = HB_LINARITH_CALL + self.hyp_cost(target)
        for loc in ctx:
            if not loc.is_var and _is_comparison(loc.type):
                cost += self.hyp_cost(loc.type)
        self._add("linarith", cost)
        self._depth(size_depth(target)[1], line)

    def positivity(self, ctx: Any, target: Any, line: int) -> None:
        nodes, d = size_depth(target)
        hyps = sum(1 for loc in ctx if not loc.is_var and _is_comparison(loc.type))
        self._add("positivity", HB_POSITIVITY_CALL + HB_POSITIVITY_PAIR * nodes * hyps)
        self._depth(d, line)


def _is_comparison(t: Any) -> bool:
    return isinstance(t, tuple) and bool(t) and t[0] == "rel" and t[1] in _COMPARISONS
