"""Best-first search end to end: kernel-checked proofs, counterexamples, budgets, pluggability."""

from __future__ import annotations

import sympy as sp

from prover.api import prove
from prover.ir import Goal
from prover.problem import Hypothesis, Problem, Relation, var
from prover.rewrite.base import Candidate
from prover.search.best_first import SearchConfig, run_search
from prover.verify import check_proof

a, b, c = (var(x) for x in "abc")
POS = [Hypothesis(f"h{v}", Relation(v, ">", sp.Integer(0))) for v in (a, b, c)]


def _problem(name, goal, hyps=()):
    return Problem(name, ["a", "b", "c"], list(POS) + list(hyps), goal)


NESBITT = _problem("nesbitt", Relation(a / (b + c) + b / (c + a) + c / (a + b), ">=", sp.Rational(3, 2)))


def test_textbook_goal_is_proved_and_kernel_checked():
    res = prove(_problem("amgm2", Relation(a ** 2 + b ** 2 + c ** 2, ">=", a * b + b * c + c * a)), time_limit=30)
    assert res.status == "proved"
    assert check_proof(res.proof).ok
    assert res.stats["proof_steps"] >= 1 and res.stats["closer_calls"] >= 1


def test_nesbitt_needs_clearing_denominators():
    res = prove(NESBITT, time_limit=30)
    assert res.status == "proved" and check_proof(res.proof).ok
    assert "rewrite" in res.stats["step_kinds"]


def test_false_goal_is_never_proved():
    false = _problem("false", Relation(a / (b + c) + b / (c + a) + c / (a + b), ">=", sp.Rational(8, 5)))
    res = prove(false, time_limit=10)
    assert res.status == "counterexample"
    pt = {var(k): sp.Rational(v) for k, v in res.counterexample.items()}
    assert false.goal.slack().subs(pt) < 0


def test_search_uses_rewrites_when_closers_alone_are_not_allowed_to_finish():
    """The constraint a+b+c = 3 has to be used: homogenize (search) or the closers' normalisation."""
    p = _problem("sum3", Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)),
                 [Hypothesis("h", Relation(a + b + c, "=", sp.Integer(3)))])
    res = prove(p, time_limit=30)
    assert res.status == "proved" and check_proof(res.proof).ok


class _OnlyHomogenize:
    """A plug-in generator: proves that extra generators are called and their steps used."""

    name = "test-homogenize"

    def __init__(self):
        from prover.rewrite.homogenize import Homogenize
        self.inner = Homogenize()
        self.calls = 0

    def generate(self, goal: Goal):
        self.calls += 1
        return [Candidate(cd.step, self.name, 5.0) for cd in self.inner.generate(goal)]


def test_pluggable_generator_and_ranker():
    p = _problem("sum3b", Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)),
                 [Hypothesis("h", Relation(a + b + c, "=", sp.Integer(3)))])
    gen = _OnlyHomogenize()
    ranked: list[int] = []

    def ranker(goals):
        ranked.append(len(goals))
        return [0.0] * len(goals)

    # closers are skipped on the root goal by giving it no share of the time
    cfg = SearchConfig(time_limit=30, generators=[gen], ranker=ranker, root_closer_fraction=0.0)
    res = run_search(p, cfg)
    assert gen.calls >= 1 and ranked
    assert res.status == "proved" and check_proof(res.proof).ok
    assert res.proof.root.kind == "rewrite"


def test_expansion_budget_is_respected():
    hard = _problem("hard", Relation(a ** 4 * b + b ** 4 * c + c ** 4 * a, ">=", a * b * c * (a ** 2 + b ** 2 + c ** 2) - 1))
    res = run_search(hard, SearchConfig(time_limit=20, max_expansions=0, root_closer_fraction=0.0))
    assert res.status == "not_proved" and res.stats["expansions"] == 0


def test_split_into_two_cases_assembles_a_checked_tree():
    from prover.rewrite.split import SplitOrder
    from prover.search.proof_text import text_lines

    nonneg = [Hypothesis(f"h{v}", Relation(v, ">=", sp.Integer(0))) for v in (a, b, c)]
    p = Problem("cyc", ["a", "b", "c"], nonneg, Relation(a ** 3 + b ** 3 + c ** 3, ">=", a ** 2 * b + b ** 2 * c + c ** 2 * a))
    res = run_search(p, SearchConfig(time_limit=60, generators=[SplitOrder()], root_closer_fraction=0.0))
    assert res.status == "proved" and check_proof(res.proof).ok
    root = res.proof.root
    assert root.kind == "split" and len(root.children) == 2
    lines = text_lines(root)
    # each case is closed by whatever closer the budget reaches first (SOS, or on a loaded machine
    # the difference substitution): the case's label is what the tree must show
    assert "case a ≥ b" in lines[1] and lines[1].strip().split(" ")[0] in ("close", "split")


class _WholeTree:
    """Proposes a complete proof tree (``closes=True``), optionally with a corrupted certificate."""

    name = "test-whole-tree"

    def __init__(self, corrupt: bool = False):
        self.corrupt = corrupt

    def generate(self, goal: Goal):
        from prover.search.close import close_goal

        tree = close_goal(goal, 20)
        if tree is None:
            return []
        if self.corrupt:
            leaf = tree
            while leaf.children:
                leaf = leaf.children[0]
            leaf.certificate = {"method": "sos", "terms": [], "eq_terms": []}
        return [Candidate(tree, self.name, 1.0, closes=True)]


def test_complete_tree_candidate_closes_the_goal_only_if_the_kernel_accepts_it():
    cfg = {"time_limit": 30, "root_closer_fraction": 0.0, "closer_fraction": 0.0}
    res = run_search(NESBITT, SearchConfig(generators=[_WholeTree()], **cfg))
    assert res.status == "proved" and check_proof(res.proof).ok and res.stats["closer_calls"] == 0
    res = run_search(NESBITT, SearchConfig(generators=[_WholeTree(corrupt=True)], **cfg))
    assert res.status != "proved" and res.stats["candidates_rejected"] >= 1


class _CorruptExclusive:
    """Proposes one exclusive step whose certificate the kernel rejects (a wrong multiplier)."""

    name = "test-corrupt-exclusive"

    def generate(self, goal: Goal):
        from prover.rewrite.homogenize import Homogenize

        out = []
        for cd in Homogenize().generate(goal):
            step = cd.step
            step.certificate = dict(step.certificate, multiplier="-1")
            out.append(Candidate(step, self.name, 9.0, exclusive=True))
        return out[:1]


def test_a_rejected_exclusive_step_does_not_cut_the_other_generators():
    """The exclusive step stops the generators after it; when the kernel rejects it, the search
    asks them after all (before: ``not_proved`` with nearly all of the budget left)."""
    p = _problem("sum3c", Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)),
                 [Hypothesis("h", Relation(a + b + c, "=", sp.Integer(3)))])
    gen = _OnlyHomogenize()
    res = run_search(p, SearchConfig(time_limit=30, generators=[_CorruptExclusive(), gen],
                                     root_closer_fraction=0.0, check_candidates=True))
    assert res.stats.get("exclusive_retries", 0) >= 1 and gen.calls >= 1
    assert res.status == "proved" and check_proof(res.proof).ok


class _Exclusive:
    """Proposes one exclusive step (a valid homogenisation)."""

    name = "test-exclusive"

    def generate(self, goal: Goal):
        from prover.rewrite.homogenize import Homogenize

        return [Candidate(cd.step, self.name, 9.0, exclusive=True) for cd in Homogenize().generate(goal)][:1]


def test_the_wider_escalation_asks_the_generators_an_exclusive_step_cut_off():
    from prover.search.best_first import Search
    from prover.search.escalate import WiderExpansion

    p = _problem("sum3d", Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)),
                 [Hypothesis("h", Relation(a + b + c, "=", sp.Integer(3)))])
    counting = _OnlyHomogenize()
    search = Search(p, SearchConfig(time_limit=30, generators=[_Exclusive(), counting]))
    goal = Goal.from_problem(p)
    assert len(search.candidates(goal)) == 1 and counting.calls == 0
    WiderExpansion().apply(search)
    assert len(search.candidates(goal)) >= 2 and counting.calls == 1
