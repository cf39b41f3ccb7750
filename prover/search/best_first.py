"""Best-first search over proof states.

The direct methods (complete trees for a known inequality read in the goal's shape) are asked on
the original goal first, then its closers.
A state is the list of goals still open; the search always works on the first one. Expanding a
state tries the closers on that goal, then asks every tactic generator for candidate steps;
each candidate is checked by the kernel (``check_step``), its subgoals are run through the
counterexample filter, and the new state is queued with a priority from the ranker.
Because the first open goal is always the one worked on, the steps on a path are the proof
tree in pre-order, which is how :func:`assemble` rebuilds it.
"""

from __future__ import annotations

import functools
import heapq
import json
import time
from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.problem import Problem, var
from prover.rewrite import direct_generators, symbolic_generators, termwise_generators
from prover.rewrite.base import TacticGenerator
from prover.search import services
from prover.search.close import close_trivial
from prover.search.hard_timeout import IsolatedGroup, call_with_hard_limit, fork_available, resident_mb
from prover.search.heuristics import Ranker, default_ranker
from prover.search.result import ProveResult
from prover.solvers.closers import Closer


@dataclass
class SearchConfig:
    time_limit: float = 60.0
    closers_only: bool = False
    max_expansions: int = 200
    max_depth: int = 6
    memory_mb: int = 12000
    quick_cex_time: float = 0.5       # counterexample search on the original goal, before the closers
    root_cex_time: float = 3.0        # … and after them, when they failed
    cex_time: float = 0.4             # per subgoal of a scale/rewrite step, when its node is taken up
    root_closer_fraction: float = 0.4
    closer_fraction: float = 0.25
    kernel_reserve: float = 2.0       # seconds kept for the final check_proof
    check_candidates: bool = True
    catalogue_time: float = 8.0       # at most this many seconds of lemma matching per expansion
    generator_time: float = 10.0      # … and of the symbolic rewrites
    isolate_closers: bool = True      # run closers in a forked child killed at their time limit
    generators: list[TacticGenerator] | None = None   # None: symbolic rewrites + catalogue
    closers: tuple[Closer, ...] | None = None         # None: prover.solvers.closers.default_closers()
    extra_generators: list[TacticGenerator] = field(default_factory=list)   # e.g. an LLM proposer
    ranker: Ranker | None = None
    step_filter: Any = None    # e.g. prover.lean.facade.LeanStepFilter: every step also runs in Lean
    escalations: tuple[Any, ...] | None = None   # None: prover.search.escalate.DEFAULT_ESCALATIONS
    #: complete-tree methods asked first, before the root closers (None: prover.rewrite.direct_generators())
    direct_generators: list[TacticGenerator] | None = None
    direct_time: float = 6.0          # at most this many seconds of them (and 15 % of the limit)


@dataclass
class SearchNode:
    goals: tuple[Goal, ...]
    parent: SearchNode | None
    entry: tuple[Step, int] | None      # the step taken to reach this node, and how many goals it opened
    depth: int
    lean: tuple[Any, ...] = ()          # the step filter's node for each open goal (when one is used)
    unsure: bool = False                # created by a step that may not preserve truth (scale)

    def entries(self) -> list[tuple[Step, int]]:
        out: list[tuple[Step, int]] = []
        n: SearchNode | None = self
        while n is not None and n.entry is not None:
            out.append(n.entry)
            n = n.parent
        return out[::-1]


def assemble(entries: list[tuple[Step, int]]) -> Step:
    """Rebuild the proof tree from the steps of a path (pre-order, see module docstring)."""
    it = iter(entries)

    def build() -> Step:
        step, n_open = next(it)
        if n_open == 0:
            return step
        return replace(step, children=[build() for _ in range(n_open)])

    return build()


def _canonical(e: sp.Expr, names: dict[sp.Symbol, sp.Symbol]) -> sp.Expr:
    try:
        return sp.expand(sp.sympify(e).xreplace(names))
    except Exception:  # noqa: BLE001
        return e


def goal_key(goals: tuple[Goal, ...]) -> str:
    """Canonical form for deduplication: expanded slacks and sorted hypotheses, the variables
    renamed by position (a change of variables and its inverse, each with fresh names — the
    reciprocal ``t ↦ 1/t`` and back — give the same goal again, not a new one)."""
    parts = []
    for g in goals:
        names = {var(v): sp.Symbol(f"_v{i}") for i, v in enumerate(g.variables)}
        canon = functools.partial(_canonical, names=names)
        hyps = sorted(f"{h.op}:{canon(h.slack()) if h.op != '=' else canon(h.lhs - h.rhs)}" for h in g.hypotheses)
        parts.append(f"{len(g.variables)}|{g.target.strict}|{g.target.op == '='}|{canon(g.target.slack())}|{';'.join(hyps)}")
    return "##".join(parts)


def proof_stats(root: Step) -> dict[str, Any]:
    steps = list(root.walk())
    lemmas = sorted({a.get("lemma") or ("fact" if "fact" in a else "hypothesis") for s in steps
                     if s.kind == "scale" for a in s.certificate.get("applications", [])})

    def depth(s: Step) -> int:
        return 1 + max((depth(c) for c in s.children), default=0)

    return {"proof_steps": len(steps), "proof_depth": depth(root),
            "step_kinds": sorted({s.kind for s in steps}), "lemmas_used": lemmas,
            "certificate_size": sum(len(json.dumps(s.certificate)) for s in steps)}


#: Steps whose subgoals are true whenever the goal is (no counterexample filter needed). A
#: ``rewrite`` may drop a square factor and a ``scale`` loses slack, so their subgoals are checked.
EQUIVALENCE_KINDS = ("substitute", "introduce", "split")


class Search:
    def __init__(self, problem: Problem, config: SearchConfig) -> None:
        self.problem = problem
        self.cfg = config
        self.t0 = time.monotonic()
        self.deadline = self.t0 + config.time_limit
        if config.isolate_closers and fork_available():
            services.warm_solvers()     # once here, not in every forked closer and generator group
        self.root = Goal.from_problem(problem)
        self.closer = services.closer(self.cfg.closers)
        self.cex = services.counterexample_finder()
        #: complete-tree methods asked on the original goal and on each new node's first goal
        self.direct = list(config.direct_generators if config.direct_generators is not None else direct_generators())
        gens = list(config.generators) if config.generators is not None else self._default_generators()
        self.generators = gens + list(config.extra_generators)
        self.ranker = config.ranker or default_ranker
        self.stats: dict[str, Any] = {
            "expansions": 0, "nodes": 1, "closer_calls": 0, "closer_time_s": 0.0, "closer_successes": 0,
            "candidates": 0, "candidates_rejected": 0, "counterexample_filtered": 0, "duplicates": 0,
            "kernel_rejected_proofs": 0, "generator_errors": 0, "cex_calls": 0, "closer_killed": 0,
            "closer_errors": 0,
            "missing_modules": [n for n, f in (("closers", self.closer), ("oracles", self.cex),
                                               ("kernel", services.kernel_check_proof())) if f is None],
        }
        self._cex_cache: dict[str, bool] = {}
        self._closer_tried: set[str] = set()
        self.kernel_errors: list[str] = []
        # what the escalation levels (prover.search.escalate) work from
        self.max_depth = config.max_depth
        self.budget_scale = 1.0
        #: an exclusive candidate stops the generators after it (off once the search widens)
        self.exclusive_cut = True
        self.closer_failed: list[SearchNode] = []
        self.depth_cut: list[SearchNode] = []
        self.expanded: list[SearchNode] = []
        self._escalated_closer: Any = None

    def _default_generators(self) -> list[TacticGenerator]:
        def budget() -> float:
            return min(self.cfg.generator_time * self.budget_scale, 0.2 * max(0.0, self.remaining()))

        # each termwise generator in a child of its own: one that runs out of time costs only its candidates
        gens: list[TacticGenerator] = [IsolatedGroup(symbolic_generators(), budget)] + [
            IsolatedGroup([g], budget, name=getattr(g, "name", "termwise")) for g in termwise_generators()]
        cat = services.CatalogueGenerator(budget=lambda: min(self.cfg.catalogue_time * self.budget_scale,
                                                          0.15 * max(0.0, self.remaining())))
        if cat.available:
            gens.append(cat)
        return gens

    # ------------------------------------------------------------ budgets
    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def kernel_reserve(self) -> float:
        """Seconds kept for the final ``check_proof``: ``cfg.kernel_reserve``, at most a tenth of
        the budget (a fixed 2 s left a 5 s search 3 s, and no escalation ever ran in it)."""
        return min(self.cfg.kernel_reserve, 0.1 * self.cfg.time_limit)

    def out_of_budget(self) -> str | None:
        if self.remaining() <= 0:
            return "timeout"
        if self.stats["expansions"] >= self.cfg.max_expansions:
            return "expansions"
        if resident_mb() > self.cfg.memory_mb:
            return "memory"
        return None

    # ------------------------------------------------------------ oracle and closers
    def has_counterexample(self, goal: Goal, time_limit: float) -> dict | None:
        if self.cex is None or time_limit <= 0.05:
            return None
        self.stats["cex_calls"] += 1
        try:
            return self.cex(goal, time_limit)
        except Exception:  # noqa: BLE001 - an oracle failure only means "no counterexample known"
            return None

    def refuted(self, goal: Goal) -> bool:
        key = goal_key((goal,))
        if key not in self._cex_cache:
            t = min(self.cfg.cex_time, max(0.0, self.remaining() * 0.05))
            self._cex_cache[key] = self.has_counterexample(goal, t) is not None
        return self._cex_cache[key]

    def try_close(self, goal: Goal, fraction: float) -> Step | None:
        if self.closer is None:
            return None
        key = goal_key((goal,))
        if key in self._closer_tried:
            return None
        budget = max(0.0, self.remaining() - self.kernel_reserve()) * fraction
        if budget < 0.2:
            return None
        self._closer_tried.add(key)
        return self.run_closer(goal, budget, self.closer)

    def run_closer(self, goal: Goal, budget: float, closer: Any) -> Step | None:
        """``closer(goal, budget)``, in a forked child killed at its budget where possible."""
        if closer is None:
            return None
        self.stats["closer_calls"] += 1
        t = time.monotonic()
        if self.cfg.isolate_closers and fork_available():
            status, step = call_with_hard_limit(closer, (goal, budget), budget)
            if status != "ok":
                self.stats["closer_killed" if status == "timeout" else "closer_errors"] += 1
                step = None
        else:
            try:
                step = closer(goal, budget)
            except Exception:  # noqa: BLE001 - a crashing closer is a failed closer
                step = None
        self.stats["closer_time_s"] = round(self.stats["closer_time_s"] + time.monotonic() - t, 3)
        if step is None or step.goal != goal:
            return None
        self.stats["closer_successes"] += 1
        return step

    @property
    def escalated_closer(self) -> Any:
        """The closers of the escalation (higher degrees), as a ``(goal, budget)`` callable."""
        if self._escalated_closer is None and self.closer is not None:
            from prover.search.escalate import escalated_closers

            self._escalated_closer = services.closer(escalated_closers())
        return self._escalated_closer

    def closed_node(self, node: SearchNode, step: Step) -> SearchNode:
        """The node after ``step`` closed ``node``'s first goal."""
        return SearchNode(node.goals[1:], node, (step, 0), node.depth + 1, node.lean[1:])

    # ------------------------------------------------------------ the optional Lean step filter
    def lean_accepts(self, node: SearchNode, step: Step) -> tuple[bool, tuple[Any, ...]]:
        """Run ``step`` (one step, its children not included) in the filter; the children's nodes."""
        f = self.cfg.step_filter
        if f is None:
            return True, ()
        chk = f.check(node.lean[0], step)
        return bool(chk.accepted), tuple(chk.children)

    def lean_accepts_tree(self, lean_node: Any, step: Step) -> bool:
        f = self.cfg.step_filter
        if f is None:
            return True
        chk = f.check(lean_node, step)
        if not chk.accepted:
            return False
        return all(self.lean_accepts_tree(ln, c) for ln, c in zip(chk.children, step.children))

    # ------------------------------------------------------------ the proof
    def finish(self, node: SearchNode) -> Proof | None:
        root = assemble(node.entries())
        proof = Proof(self.problem, root, meta={"prover": "best-first"})
        t = time.monotonic()
        try:
            ok, errors = services.check_proof(proof)
        except Exception as exc:  # noqa: BLE001
            ok, errors = False, [f"kernel crashed: {type(exc).__name__}: {exc}"]
        self.stats["kernel_time_s"] = round(self.stats.get("kernel_time_s", 0.0) + time.monotonic() - t, 3)
        if ok:
            return proof
        self.stats["kernel_rejected_proofs"] += 1
        self.kernel_errors.extend(errors[:3])
        return None

    def candidates(self, goal: Goal, cut: bool = True) -> list:
        """Every generator's candidates for ``goal``; with ``cut``, an exclusive candidate (a step
        that loses nothing) stops the generators after it."""
        out = []
        cut = cut and self.exclusive_cut
        for gen in self.generators:
            if self.remaining() <= 0:
                break
            if hasattr(gen, "exclusive_cut"):
                gen.exclusive_cut = cut
            try:
                for cand in gen.generate(goal):
                    cand.prechecked = cand.prechecked or bool(getattr(gen, "kernel_checked", False))
                    out.append(cand)
            except Exception:  # noqa: BLE001 - one broken generator must not stop the search
                self.stats["generator_errors"] += 1
            finally:
                if hasattr(gen, "exclusive_cut"):
                    gen.exclusive_cut = True
            if cut and any(getattr(c, "exclusive", False) for c in out):
                self.stats["exclusive_cuts"] = self.stats.get("exclusive_cuts", 0) + 1
                break   # a step that loses nothing was proposed: the later generators are not asked
        return out

    def result(self, status: str, proof: Proof | None = None, cex: dict | None = None,
               error: str | None = None) -> ProveResult:
        stats = dict(self.stats)
        if proof is not None:
            stats.update(proof_stats(proof.root))
            proof.meta["stats"] = {k: v for k, v in stats.items() if k != "missing_modules"}
        if self.kernel_errors:
            stats["kernel_errors"] = self.kernel_errors[:5]
        for gen in self.generators:
            gstats = getattr(gen, "stats", None)
            if isinstance(gstats, dict):
                stats.update({f"{gen.name}_{k}": v for k, v in gstats.items()})
            elif gstats is not None and hasattr(gstats, "__dict__"):
                stats[gen.name] = dict(vars(gstats))
        if self.cfg.step_filter is not None and hasattr(self.cfg.step_filter, "stats"):
            stats.update(self.cfg.step_filter.stats())
        open_goals: list[Goal] = []
        if status in ("not_proved", "timeout"):
            open_goals = self.failure(stats)
        return ProveResult(status, proof=proof,
                           counterexample={k: str(v) for k, v in cex.items()} if cex else None,
                           time_s=time.monotonic() - self.t0, stats=stats, error=error, open_goals=open_goals)

    def best_node(self) -> SearchNode | None:
        """Where a failed search came closest: of the nodes worked on, one with the fewest open
        goals, the deepest of those (the first found); None when no node was worked on."""
        nodes = [n for n in (*self.closer_failed, *self.depth_cut, *self.expanded) if n.goals]
        return min(nodes, key=lambda n: (len(n.goals), -n.depth), default=None)

    def failure(self, stats: dict[str, Any]) -> list[Goal]:
        """What a failed search leaves the user: the open goals of its best node (returned), and in
        ``stats`` that node (``best_node``: depth, steps to it, whether the closers ran on its
        first goal), the closers' names and whether they failed on the original goal."""
        from prover.solvers.closers import default_closers

        node = self.best_node()
        goals = list(node.goals) if node is not None else [self.root]
        steps = [f"{st.kind}" + (f" ({st.note})" if st.note else "") for st, _ in node.entries()] if node else []
        stats["best_node"] = {"depth": node.depth if node else 0, "open_goals": len(goals), "steps": steps,
                              "closers_ran": goal_key((goals[0],)) in self._closer_tried}
        stats["closers"] = [str(getattr(c, "name", c)) for c in (self.cfg.closers or default_closers())]
        stats["root_closers"] = "failed" if goal_key((self.root,)) in self._closer_tried else "not run"
        return goals

    # ------------------------------------------------------------ main loop
    def run(self) -> ProveResult:
        # a quick look for a counterexample, the closers on the original goal, then a longer look
        quick = min(self.cfg.quick_cex_time, 0.05 * self.cfg.time_limit)
        root_cex = self.has_counterexample(self.root, quick)
        if root_cex is not None:
            return self.result("counterexample", cex=root_cex)
        start = SearchNode((self.root,), None, None, 0)
        if self.cfg.step_filter is not None:
            lean_root = self.cfg.step_filter.root(self.problem)
            if lean_root is None:
                return self.result("error", error="the Lean backend could not open the problem")
            start.lean = (lean_root,)
        closed = self._direct_root(start) or self._close_root(start)
        if closed is not None:
            return closed
        if self.cfg.closers_only:
            return self.result("timeout" if self.remaining() <= 0 else "not_proved")
        longer = min(self.cfg.root_cex_time, 0.1 * self.remaining())
        root_cex = self.has_counterexample(self.root, longer) if longer > quick else None
        if root_cex is not None:
            return self.result("counterexample", cex=root_cex)
        return self._best_first(start)

    def _direct_root(self, start: SearchNode) -> ProveResult | None:
        """The direct methods on the original goal, before the closers: a known inequality read in
        the goal's shape (Minkowski, Cauchy–Schwarz for roots) is a complete tree in about a
        second, where the closers would spend 40 % of the budget failing on its radicals first."""
        if self.cfg.closers_only or not self.direct:
            return None
        t0 = time.monotonic()
        cand = self._direct_tree(self.root, start.lean[0] if start.lean else None,
                                 min(self.cfg.direct_time, 0.15 * self.cfg.time_limit))
        self.stats["direct_time_s"] = round(time.monotonic() - t0, 3)
        proof = self.finish(SearchNode((), start, (cand.step, 0), 1)) if cand is not None else None
        if proof is None:
            return None
        self.stats["direct"] = cand.source
        return self.result("proved", proof)

    def _direct_tree(self, goal: Goal, lean_node: Any, budget: float) -> Any:
        """The first complete tree of the direct methods for ``goal`` that the kernel (and the Lean
        step filter, when one runs) accepts, as its candidate; None."""
        group = IsolatedGroup(self.direct, lambda: budget, name="direct")
        for cand in group.generate(goal):
            if not cand.closes or cand.step.goal != goal or services.check_tree(cand.step) is False:
                continue
            if lean_node is not None and not self.lean_accepts_tree(lean_node, cand.step):
                continue
            return cand
        return None

    def _close_root(self, start: SearchNode) -> ProveResult | None:
        """The closers on the original goal (all the time with ``closers_only``): a proved result or None."""
        step = self.try_close(self.root, 1.0 if self.cfg.closers_only else self.cfg.root_closer_fraction)
        if step is not None and start.lean and not self.lean_accepts_tree(start.lean[0], step):
            step = None
        if step is not None:
            proof = self.finish(SearchNode((), start, (step, 0), 1))
            if proof is not None:
                return self.result("proved", proof)
        return None

    def _best_first(self, start: SearchNode) -> ProveResult:
        """The best-first loop from ``start`` until a proof or the budget's end; an empty frontier
        with time left escalates (:mod:`prover.search.escalate`) until nothing is left to try."""
        from prover.search.escalate import DEFAULT_ESCALATIONS, escalate

        heap: list[tuple[float, int, SearchNode]] = []
        tick = count()
        heapq.heappush(heap, (0.0, next(tick), start))
        seen = {goal_key(start.goals)}
        levels = list(self.cfg.escalations if self.cfg.escalations is not None else DEFAULT_ESCALATIONS)
        if goal_key((self.root,)) in self._closer_tried:
            self.closer_failed.append(start)   # the root's closers ran (and failed) before the loop
        while True:
            proved, stop = self._drain(heap, tick, seen)
            if proved is not None:
                return proved
            if stop:
                break
            nodes = escalate(self, levels)
            if not nodes:
                self.stats["exhausted"] = True   # the frontier is empty and every level is spent
                break
            for n in nodes:   # a goal just closed first, as in the loop; then the rest in order
                heapq.heappush(heap, (-1.0 if n.entry is not None and n.entry[1] == 0 else 0.0, next(tick), n))
        status = "timeout" if stop in ("timeout",) else "not_proved"
        res = self.result(status)
        if stop:
            res.stats["stopped_by"] = stop
        return res

    def _drain(self, heap: list, tick: Any, seen: set[str]) -> tuple[ProveResult | None, str | None]:
        """Pop and work nodes until a proof (returned), an empty frontier or a budget stop."""
        while heap:
            stop = self.out_of_budget()
            if stop:
                return None, stop
            _, _, node = heapq.heappop(heap)
            if not node.goals:
                proof = self.finish(node)
                if proof is not None:
                    return self.result("proved", proof), None
                continue
            goal = node.goals[0]
            if node.unsure and node.entry is not None and any(self.refuted(g) for g in node.entry[0].subgoals):
                self.stats["counterexample_filtered"] += 1
                continue
            tried = goal_key((goal,)) in self._closer_tried
            step = self.try_close(goal, self.cfg.root_closer_fraction if node.depth == 0
                                  else self.cfg.closer_fraction)
            if step is not None and node.lean and not self.lean_accepts_tree(node.lean[0], step):
                step = None
            if step is not None:
                done = self.closed_node(node, step)
                if not done.goals:
                    proof = self.finish(done)
                    if proof is not None:
                        return self.result("proved", proof), None
                else:
                    heapq.heappush(heap, (-1.0, next(tick), done))
                continue
            if not tried and goal_key((goal,)) in self._closer_tried:
                self.closer_failed.append(node)   # the closers ran on this goal and failed
            if node.depth >= self.max_depth:
                self.depth_cut.append(node)
                continue
            self.stats["expansions"] += 1
            self.expand(node, heap, tick, seen)
            self.expanded.append(node)
        return None, None

    def expand(self, node: SearchNode, heap: list, tick: Any, seen: set[str]) -> None:
        goal = node.goals[0]
        cands = self.candidates(goal)
        fresh = self._children(node, cands, seen, heap, tick)
        if not fresh and any(getattr(c, "exclusive", False) for c in cands) and self.remaining() > 0:
            # the exclusive step was rejected: the generators it cut off are asked after all
            self.stats["exclusive_retries"] = self.stats.get("exclusive_retries", 0) + 1
            fresh = self._children(node, [c for c in self.candidates(goal, cut=False)
                                          if not getattr(c, "exclusive", False)], seen, heap, tick)
        if not fresh:
            return
        firsts = [c.goals[0] if c.goals else goal for _, c in fresh]
        try:
            prios = list(self.ranker(firsts))
        except Exception:  # noqa: BLE001 - a failing ranker falls back to the symbolic one
            prios = default_ranker(firsts)
        for (cand, child), pr in zip(fresh, prios):
            self.stats["nodes"] += 1
            key = pr + child.depth - cand.score + 2.0 * max(0, len(child.goals) - 1) if child.goals else -1e9
            heapq.heappush(heap, (key, next(tick), child))

    def _children(self, node: SearchNode, cands: list, seen: set[str], heap: list,
                  tick: Any) -> list[tuple[Any, SearchNode]]:
        """The nodes of the candidates the checks accept (a closing tree goes on the heap at once)."""
        goal = node.goals[0]
        fresh: list[tuple[Any, SearchNode]] = []
        for cand in cands:
            if self.remaining() <= 0:
                break
            self.stats["candidates"] += 1
            step = cand.step
            if step.goal != goal:
                self.stats["candidates_rejected"] += 1
                continue
            if cand.closes:
                # a complete subtree: the goal is closed once the kernel accepts the whole tree
                if services.check_tree(step) is False or (node.lean and not self.lean_accepts_tree(node.lean[0], step)):
                    self.stats["candidates_rejected"] += 1
                    continue
                done = SearchNode(node.goals[1:], node, (step, 0), node.depth + 1, node.lean[1:])
                self.stats["nodes"] += 1
                heapq.heappush(heap, (-1e9 if not done.goals else -1.0, next(tick), done))
                continue
            if self.cfg.check_candidates and not cand.prechecked \
                    and services.check_step_local(step) is False:
                self.stats["candidates_rejected"] += 1
                continue
            child = SearchNode(tuple(step.subgoals) + node.goals[1:], node, (step, len(step.subgoals)),
                         node.depth + 1)
            key = goal_key(child.goals)
            if key in seen:
                self.stats["duplicates"] += 1
                continue
            seen.add(key)
            child.unsure = step.kind not in EQUIVALENCE_KINDS
            if node.lean:
                ok, lean_children = self.lean_accepts(node, step)
                if not ok:
                    self.stats["candidates_rejected"] += 1
                    continue
                child.lean = lean_children + node.lean[1:]
            fresh.append((cand, self._direct_close(child)))
        return fresh

    def _direct_close(self, child: SearchNode) -> SearchNode:
        """``child`` with its first goal closed when a direct method proves it at once (a peel's
        ``√M ≤ √A + √B`` is Minkowski's): the ranker would put a goal with radicals far behind the
        polynomial goals of naming its roots, and never reach the tree. Only for a goal a direct
        method accepts (a cheap look), and only while the node's other goals have no counterexample."""
        if not child.goals or not self.direct or not any(
                getattr(g, "accepts", lambda _: True)(child.goals[0]) for g in self.direct):
            return child
        if child.unsure and any(self.refuted(g) for g in child.goals[1:]):
            return child
        cand = self._direct_tree(child.goals[0], child.lean[0] if child.lean else None,
                                 min(self.cfg.direct_time, 0.1 * max(0.0, self.remaining())))
        if cand is None:
            return child
        self.stats["direct_closed"] = self.stats.get("direct_closed", 0) + 1
        done = SearchNode(child.goals[1:], child, (cand.step, 0), child.depth + 1, child.lean[1:], child.unsure)
        return self._close_trivial_heads(done)

    def _close_trivial_heads(self, node: SearchNode) -> SearchNode:
        """``node`` with its leading goals that need no search closed (``0 ≤ 1/((1 + X)(1 + Y))``,
        a peel's side condition): left open, a goal with radicals ranks the node far back."""
        while node.goals and not node.lean:
            step = close_trivial(node.goals[0])
            if step is None:
                break
            node = SearchNode(node.goals[1:], node, (step, 0), node.depth + 1, (), node.unsure)
        return node


def run_search(problem: Problem, config: SearchConfig) -> ProveResult:
    if problem.is_conjunction:   # its goal is only the first part: prove_problem splits it
        raise ValueError("a conjunction goal is searched one part at a time (prove_problem)")
    return Search(problem, config).run()
