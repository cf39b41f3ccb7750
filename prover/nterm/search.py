"""The search for a statement over n terms: summed facts, then the atom-level statement.

Order (each stage within the time left; every termwise fact and the final statement are ordinary
scalar problems searched by :func:`prover.search.driver.prove_problem`):

1. identities splitting each sum of several terms into sums of monomials (no proof needed);
2. the sign of each sum (its body's sign at every index, summed);
3. the atom-level statement with those facts alone;
4. the methods of :mod:`prover.nterm.plan` in turn — the goal term by term, the tangent line
   under each sum constraint, Cauchy–Schwarz/Titu/QM by a parameter — each method's facts added to
   the facts of 1–2, then the atom-level statement again.

The first success is assembled into an n-term certificate and checked by the kernel
(:func:`prover.kernel.sums.check_nterm_proof`) before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.nterm.plan import (
    Atoms,
    FactPlan,
    goal_slack,
    linear_split_plans,
    cauchy_plans,
    positivity_plans,
    quadratic_plans,
    tangent_plans,
    termwise_goal_plans,
)
from prover.nterm.proof import NTermProof, ProvedFact, nonempty_index
from prover.problem import Hypothesis, Problem, Relation, var
from prover.search.result import ProveResult
from prover.sympy_terms import term_to_sympy

FACT_TIME = 6.0       # seconds at most for one termwise fact
SIGN_TIME = 2.0       # for the sign of one sum


@dataclass
class _State:
    problem: Problem
    atoms: Atoms
    n: sp.Symbol
    index_hyps: list[Hypothesis]
    deadline: float
    prove: Callable[..., ProveResult]
    facts: list[ProvedFact] = field(default_factory=list)
    #: the case n = 0 proved apart (then n ≥ 1 is known): its proof
    empty: Any = None
    stats: dict[str, Any] = field(default_factory=lambda: {"nterm_facts_tried": 0, "nterm_facts_proved": 0})

    def left(self) -> float:
        return self.deadline - time.monotonic()


def prove_nterm(problem: Problem, time_limit: float, prove: Callable[..., ProveResult]) -> ProveResult:
    """Search a proof of the n-term statement ``problem`` (``problem.nterm`` set); ``prove`` is
    the scalar search (``prove_problem``), passed in to keep this module free of the driver."""
    t0 = time.monotonic()
    st = problem.nterm.statement
    atoms = Atoms({a: term_to_sympy(b) for a, b in st.atoms}, st.families, st.atoms[0][0].rpartition("_")[0])
    index_hyps = _index_hypotheses(problem)
    state = _State(problem, atoms, var(st.n), index_hyps, t0 + time_limit, prove)
    result = _search(state)
    result.time_s = time.monotonic() - t0
    result.stats.update(state.stats)
    return result


def _index_hypotheses(problem: Problem) -> list[Hypothesis]:
    reading = problem.nterm
    names = [f"{name}.{k}" if parts > 1 else name for name, parts in reading.index_binders
             for k in range(1, parts + 1)]
    rels = reading.statement.index_hypotheses
    return [Hypothesis(names[k] if k < len(names) else f"h{k}",
                       Relation(term_to_sympy(r.lhs), r.op, term_to_sympy(r.rhs))) for k, r in enumerate(rels)]


def _search(state: _State) -> ProveResult:
    if nonempty_index(state.problem) is None:
        state.empty = _empty_case(state)
    for plan in list(linear_split_plans(state.atoms)):
        state.facts.append(ProvedFact(plan, None, []))
    nonempty = _nonempty(state) is not None
    for plan in positivity_plans(state.atoms):
        if (plan.op == ">" and not nonempty) or any(f.plan.kind == "positivity" and f.plan.terms == plan.terms for f in state.facts):
            continue
        fact = _prove_fact(state, plan, min(SIGN_TIME, state.left() / 8))
        if fact is not None:
            state.facts.append(fact)
    base = list(state.facts)
    for method, groups in _methods(state):
        if state.left() <= 0.5:
            break
        for group in groups:
            extra = [f for f in (_prove_fact(state, p, min(FACT_TIME, state.left() / 3)) for p in group)
                     if f is not None]
            if len(extra) < len(group):
                continue
            result = _final(state, base + extra, method)
            if result is not None:
                return result
    return ProveResult("not_proved", error="no summed facts proved the statement over n terms",
                       stats={"nterm": True})


def _methods(state: _State) -> list[tuple[str, list[list[FactPlan]]]]:
    p = state.problem
    slack, op = goal_slack(p.goal.lhs, p.goal.rhs, p.goal.op)
    constraints = [h.rel.lhs - h.rel.rhs for h in p.hypotheses if h.rel.op == "="]
    signs = _family_signs(state)
    tangents = list(tangent_plans(slack, constraints, state.atoms, state.n, signs))
    if len(tangents) > 1:   # one constraint per family: every family's tangent lines at once
        tangents.append([plan for group in tangents for plan in group])
    return [("facts", [[]]),
            ("termwise", [[plan] for plan in termwise_goal_plans(slack, op, state.atoms, state.n)]),
            ("tangent", tangents),
            ("quadratic", [[plan] for plan in quadratic_plans(state.atoms, state.n)]),
            ("cauchy_schwarz", [[plan] for plan in cauchy_plans(state.atoms)])]


def _family_signs(state: _State) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in state.index_hyps:
        r = h.rel
        for lo, hi, op in ((r.lhs, r.rhs, r.op), (r.rhs, r.lhs, {"<": ">", "<=": ">="}.get(r.op, ""))):
            if lo == 0 and isinstance(hi, sp.Symbol) and op in ("<", "<=") and hi.name in state.atoms.families:
                out[hi.name] = ">" if op == "<" else out.get(hi.name, ">=")
    return out


def _prove_fact(state: _State, plan: FactPlan, budget: float) -> ProvedFact | None:
    """The termwise statement of ``plan`` proved (and its parameters' side conditions), or None."""
    if plan.lemma is not None:
        return ProvedFact(plan, None, [])
    if budget <= 0.2 or (plan.op == ">" and _nonempty(state) is None):
        return None
    st = state.problem.nterm.statement
    state.stats["nterm_facts_tried"] += 1
    params = [Hypothesis(f"hp{k}", Relation(e, op, sp.Integer(0)) if op not in (">", ">=")
                         else Relation(sp.Integer(0), "<" if op == ">" else "<=", e))
              for k, (e, op) in enumerate(plan.param_hypotheses)]
    goal = Relation(plan.lhs(state.atoms.bodies), plan.op, sp.Integer(0))
    termwise = Problem(f"{state.problem.name}_term", [*st.families, *st.scalars, *plan.params],
                       state.index_hyps + params, goal)
    res = state.prove(termwise, time_limit=budget)
    if not res.proved:
        return None
    sides = []
    for h in params:
        inst = {var(p): e for p, e in plan.instantiation.items()}
        side = Problem(f"{state.problem.name}_side", _atom_variables(state), _known(state, state.facts),
                       Relation(h.rel.lhs.subs(inst), h.rel.op, h.rel.rhs.subs(inst)))
        side_res = state.prove(side, time_limit=min(budget, max(state.left(), 0.2)))
        if not side_res.proved:
            return None
        sides.append(side_res.proof)
    state.stats["nterm_facts_proved"] += 1
    return ProvedFact(plan, res.proof, sides)


def _nonempty(state: _State) -> int | None:
    return nonempty_index(state.problem, split=state.empty is not None)


def _empty_case(state: _State) -> Any:
    """A proof of the statement at n = 0 (every sum 0), or None."""
    p = state.problem
    zero = {var(v): sp.Integer(0) for v in p.variables if v not in p.nterm.statement.scalars}
    hyps = [Hypothesis(h.name, Relation(h.rel.lhs.subs(zero), h.rel.op, h.rel.rhs.subs(zero))) for h in p.hypotheses]
    goal = Relation(p.goal.lhs.subs(zero), p.goal.op, p.goal.rhs.subs(zero))
    empty = Problem(f"{p.name}_empty", list(p.nterm.statement.scalars), hyps, goal)
    res = state.prove(empty, time_limit=min(5.0, max(state.left() / 6, 0.5)))
    return res.proof if res.proved else None


def _atom_variables(state: _State) -> list[str]:
    return list(state.problem.variables) + [a for a in state.atoms.bodies if a not in state.problem.variables]


def _known(state: _State, facts: list[ProvedFact]) -> list[Hypothesis]:
    """The atom-level hypotheses: the statement's, ``n ≥ 0``, then each fact summed."""
    out = list(state.problem.hypotheses) + [Hypothesis("c_0", Relation(state.n, ">=", sp.Integer(0)))]
    if state.empty is not None:
        out += [Hypothesis("c_1", Relation(state.n, ">", sp.Integer(0))),
                Hypothesis("c_2", Relation(state.n, ">=", sp.Integer(1)))]
    for k, f in enumerate(facts, 1):
        out.append(Hypothesis(f"g_{k}", Relation(f.plan.summed(state.n), f.plan.op, sp.Integer(0))))
    return out


def _final(state: _State, facts: list[ProvedFact], method: str) -> ProveResult | None:
    if state.left() <= 0.3:
        return None
    p = state.problem
    final = Problem(f"{p.name}_atoms", _atom_variables(state), _known(state, facts), p.goal)
    res = state.prove(final, time_limit=min(state.left(), max(state.left() / 2, 4.0)))
    if not res.proved:
        return None
    proof = NTermProof(p, state.atoms, facts, res.proof, empty=state.empty)
    verdict = proof.check()
    state.stats["nterm_method"] = method
    if not verdict.ok:
        return ProveResult("error", error=f"the kernel rejected the n-term proof: {verdict.errors[:2]}",
                           stats={"nterm": True})
    return ProveResult("proved", proof=proof, stats={"nterm": True, "nterm_facts": len(facts)})
