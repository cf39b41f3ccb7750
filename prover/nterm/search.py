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

from prover.frontend.errors import ParseError
from prover.frontend.printer import print_expr
from prover.kernel.sums import empty_case, nonempty
from prover.lean.syntax import lean_ident
from prover.nterm.lean_text import (
    atom_body_texts,
    fact_text,
    parenthesized,
    read_statement,
    relation_text,
    theorem_text,
)
from prover.nterm.plan import (
    Atoms,
    FactPlan,
    cauchy_plans,
    chebyshev_plans,
    goal_slack,
    jensen_plans,
    linear_split_plans,
    positivity_plans,
    quadratic_plans,
    sq_le_mul_plans,
    tangent_plans,
    termwise_goal_plans,
)
from prover.nterm.proof import NTermProof, ProvedFact
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
    counter: int = 0
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
    names = [f"{name}.{k}" if parts > 1 else name for name, parts, _, _ in reading.index_binders
             for k in range(1, parts + 1)]
    rels = reading.statement.index_hypotheses
    return [Hypothesis(names[k] if k < len(names) else f"h{k}",
                       Relation(term_to_sympy(r.lhs), r.op, term_to_sympy(r.rhs))) for k, r in enumerate(rels)]


def _search(state: _State) -> ProveResult:
    if not nonempty(state.problem.nterm.statement, False):
        state.empty = _empty_case(state)
    split: set[str] = set()
    for plan in list(linear_split_plans(state.atoms, split)):
        state.facts.append(ProvedFact(plan, None, []))
    nonempty_set = _nonempty(state)
    for plan in positivity_plans(state.atoms):
        if (plan.op == ">" and not nonempty_set) or any(f.plan.kind == "positivity" and f.plan.terms == plan.terms for f in state.facts):
            continue
        fact = _prove_fact(state, plan, min(SIGN_TIME, state.left() / 8), state.facts)
        if fact is not None:
            state.facts.append(fact)
    methods = _guarded(_methods, state)
    # the sums the methods made up (`Σ (b + 1)` of a denominator) split like the statement's
    state.facts += [ProvedFact(plan, None, []) for plan in linear_split_plans(state.atoms, split)]
    base = list(state.facts)
    learned: list[ProvedFact] = []     # facts proved along the way, for a last try with all of them
    for method, groups in methods:
        if state.left() <= 0.5:
            break
        for group in groups:
            extra: list[ProvedFact] = []
            for plan in group:
                fact = _prove_fact(state, plan, min(FACT_TIME, state.left() / 3), base + extra)
                if fact is None:
                    break
                extra.append(fact)
            learned += [f for f in extra if not f.plan.param_hypotheses and f not in learned]
            if len(extra) < len(group):
                continue
            result = _final(state, base + extra, method)
            if result is not None:
                return result
    if len(learned) > 1 and state.left() > 1.0:   # every fact proved, at once (with the time left)
        result = _final(state, base + learned, "all facts")
        if result is not None:
            return result
    return ProveResult("not_proved", error="no summed facts proved the statement over n terms",
                       stats={"nterm": True})


def _methods(state: _State) -> list[tuple[str, Callable[[], list[list[FactPlan]]]]]:
    """Each method's name and a thunk making its groups of plans (evaluated by :func:`_guarded`)."""
    p = state.problem
    slack, op = goal_slack(p.goal.lhs, p.goal.rhs, p.goal.op)
    constraints = [h.rel.lhs - h.rel.rhs for h in p.hypotheses if h.rel.op == "="]
    signs = _family_signs(state)
    atoms, n = state.atoms, state.n

    def tangents() -> list[list[FactPlan]]:
        groups = list(tangent_plans(slack, constraints, atoms, n, signs))
        if len(groups) > 1:   # one constraint per family: every family's tangent lines at once
            groups.append([plan for group in groups for plan in group])
        return groups

    return [("facts", lambda: [[]]),
            ("termwise", lambda: [[plan] for plan in termwise_goal_plans(slack, op, atoms, n)]),
            ("tangent", tangents),
            ("quadratic", lambda: _with_all([[plan] for plan in quadratic_plans(atoms, n)])),
            ("jensen", lambda: _with_all([[plan] for plan in jensen_plans(slack, atoms, n, signs)])),
            ("chebyshev", lambda: [[plan] for plan in chebyshev_plans(slack, atoms, n, signs)]),
            ("cauchy_schwarz", lambda: [[plan] for plan in cauchy_plans(atoms)]),
            ("sq_le_mul", lambda: _with_all([[plan] for plan in sq_le_mul_plans(atoms)]))]


def _guarded(make: Callable[[_State], list], state: _State) -> list:
    """The methods' plans; a method that fails to read the statement's structure (sympy refuses a
    polynomial, an expression it cannot factor) proposes nothing instead of ending the search."""
    out = []
    for method, groups in make(state):
        try:
            out.append((method, groups()))
        except (sp.PolynomialError, ValueError, TypeError, ArithmeticError, RecursionError):
            continue
    return out


def _with_all(groups: list[list[FactPlan]]) -> list[list[FactPlan]]:
    """The groups, then (several) one plan per atom at once: the first plan of each atom."""
    firsts: dict[str, FactPlan] = {}
    for group in groups:
        firsts.setdefault(group[0].terms[0][0], group[0])
    return groups + ([list(firsts.values())] if len(firsts) > 1 else [])


def _family_signs(state: _State) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in state.index_hyps:
        r = h.rel
        for lo, hi, op in ((r.lhs, r.rhs, r.op), (r.rhs, r.lhs, {"<": ">", "<=": ">="}.get(r.op, ""))):
            if lo == 0 and isinstance(hi, sp.Symbol) and op in ("<", "<=") and hi.name in state.atoms.families:
                out[hi.name] = ">" if op == "<" else out.get(hi.name, ">=")
    return out


def _prove_fact(state: _State, plan: FactPlan, budget: float, prior: list[ProvedFact]) -> ProvedFact | None:
    """The termwise statement of ``plan`` proved (and its parameters' side conditions, from the
    facts ``prior`` to it), or None."""
    if plan.lemma is not None:
        return _lemma_fact(state, plan, budget)
    if budget <= 0.2 or (plan.op == ">" and not _nonempty(state)):
        return None
    st = state.problem.nterm.statement
    state.stats["nterm_facts_tried"] += 1
    state.counter += 1
    name = f"{_base(state.problem)}_term_{state.counter}"
    binders = [(h, text) for h, _, text, _ in state.problem.nterm.index_binders]
    binders += [(f"hp_{k}", relation_text(op, print_expr(e))) for k, (e, op) in enumerate(plan.param_hypotheses, 1)]
    goal = relation_text(plan.op, fact_text(plan, atom_body_texts(state.problem, state.atoms.bodies)))
    try:
        termwise = read_statement(state.problem, theorem_text(
            name, [*st.families, *st.scalars, *plan.params], binders, goal), name)
    except ParseError:
        return None
    res = state.prove(termwise, time_limit=budget)
    if not res.proved:
        return None
    sides = []
    inst = {var(p): e for p, e in plan.instantiation.items()}
    for k, (e, op) in enumerate(plan.param_hypotheses, 1):
        side = _atom_problem(state, prior, relation_text(op, print_expr(e.subs(inst))), f"{name}_side_{k}")
        side_res = state.prove(side, time_limit=min(budget, max(state.left(), 0.2))) if side else None
        if side_res is None or not side_res.proved:
            return None
        sides.append(side_res.proof)
    state.stats["nterm_facts_proved"] += 1
    return ProvedFact(plan, res.proof, sides)


def _lemma_fact(state: _State, plan: FactPlan, budget: float) -> ProvedFact | None:
    """A catalogue fact: Cauchy–Schwarz needs nothing; ``sq_le_mul`` its three termwise proofs
    (``0 ≤ f``, ``0 ≤ g``, ``r ^ 2 = f * g``), kept in ``side_proofs``."""
    if plan.lemma[0] != "sq_le_mul":
        return ProvedFact(plan, None, [])
    texts = atom_body_texts(state.problem, state.atoms.bodies)
    r, f, g = (parenthesized(texts[a]) for a, _ in plan.terms)
    proofs = []
    for goal in (f"0 ≤ {f}", f"0 ≤ {g}", f"{r} ^ 2 = {f} * {g}"):
        state.counter += 1
        name = f"{_base(state.problem)}_term_{state.counter}"
        st = state.problem.nterm.statement
        binders = [(h, text) for h, _, text, _ in state.problem.nterm.index_binders]
        try:
            problem = read_statement(state.problem, theorem_text(name, [*st.families, *st.scalars], binders, goal), name)
        except ParseError:
            return None
        res = state.prove(problem, time_limit=max(budget / 3, 0.3))
        if not res.proved:
            return None
        proofs.append(res.proof)
    return ProvedFact(plan, None, proofs)


def _nonempty(state: _State) -> bool:
    return nonempty(state.problem.nterm.statement, state.empty is not None)


def _empty_case(state: _State) -> Any:
    """A proof of the statement at n = 0 (every sum 0, ``n`` 0: the kernel's own substitution, so
    ``x / 0`` is Lean's 0), or None."""
    st = empty_case(state.problem.nterm.statement)

    def rel(r: Any) -> Relation:
        return Relation(term_to_sympy(r.lhs), r.op, term_to_sympy(r.rhs))

    hyps = [Hypothesis(f"h_{k}", rel(r)) for k, r in enumerate(st.hypotheses, 1)]
    empty = Problem(f"{_base(state.problem)}_empty", list(st.variables), hyps, rel(st.goal))
    res = state.prove(empty, time_limit=min(5.0, max(state.left() / 6, 0.5)))
    return res.proof if res.proved else None


def _base(problem: Problem) -> str:
    """The prefix of the lemmas' names: the theorem's own name (a benchmark id's last part)."""
    name = lean_ident(problem.name.rsplit("/", 1)[-1])
    return name if name.isidentifier() else "nterm"


def _atom_variables(state: _State) -> list[str]:
    return list(state.problem.variables) + [a for a in state.atoms.bodies if a not in state.problem.variables]


def known_binders(state: _State, facts: list[ProvedFact]) -> list[tuple[str, str]]:
    """The atom-level hypotheses as Lean binders: the statement's, ``n ≥ 0`` (and ``n > 0``,
    ``n ≥ 1`` when the empty case is apart), then each fact summed."""
    n = state.problem.nterm.statement.n
    out = list(state.problem.nterm.atom_binders) + [("c_0", f"0 ≤ {n}")]
    if _nonempty(state):
        out += [("c_1", f"0 < {n}"), ("c_2", f"1 ≤ {n}")]
    for k, f in enumerate(facts, 1):
        out.append((f"g_{k}", relation_text(f.plan.op, print_expr(f.plan.summed(state.n)))))
    return out


def _atom_problem(state: _State, facts: list[ProvedFact], goal: str, name: str) -> Problem | None:
    try:
        return read_statement(state.problem, theorem_text(name, _atom_variables(state), known_binders(state, facts),
                                                          goal), name)
    except ParseError:
        return None


def _final(state: _State, facts: list[ProvedFact], method: str) -> ProveResult | None:
    if state.left() <= 0.3:
        return None
    p = state.problem
    final = _atom_problem(state, facts, p.nterm.atom_goal, f"{_base(p)}_atoms")
    if final is None:
        return None
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
