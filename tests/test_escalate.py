"""No give-up while time is left (issue #31, item 1): an empty frontier escalates."""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from prover.eval.summary import early_give_ups
from prover.ir import Goal, Step
from prover.problem import Hypothesis, Problem, Relation, var
from prover.rewrite.base import Candidate
from prover.search.best_first import SearchConfig, run_search
from prover.search.escalate import Deeper, StrongerClosers, WiderExpansion
from prover.verify import check_proof

a, b, c = (var(x) for x in "abc")
POS = [Hypothesis(f"h{v}", Relation(v, ">", sp.Integer(0))) for v in (a, b, c)]
SUM3 = Problem("sum3", ["a", "b", "c"], POS + [Hypothesis("h", Relation(a + b + c, "=", sp.Integer(3)))],
               Relation(a ** 2 + b ** 2 + c ** 2, ">=", sp.Integer(3)))
AMGM = Problem("amgm", ["a", "b", "c"], list(POS), Relation(a ** 2 + b ** 2 + c ** 2, ">=", a * b + b * c + c * a))


class _Homogenize:
    name = "test-homogenize"

    def __init__(self) -> None:
        from prover.rewrite.homogenize import Homogenize

        self.inner = Homogenize()

    def generate(self, goal: Goal):
        return [Candidate(cd.step, self.name, 5.0) for cd in self.inner.generate(goal)]


@dataclass(frozen=True)
class _Never:
    """A closer that never closes: the ordinary closers fail on every goal."""

    name: str = "never"

    def close(self, goal: Goal, deadline: float) -> Step | None:
        return None


def test_an_empty_frontier_with_time_left_goes_deeper():
    cfg = {"time_limit": 40, "generators": [_Homogenize()], "root_closer_fraction": 0.0, "max_depth": 0}
    stuck = run_search(SUM3, SearchConfig(**cfg, escalations=()))
    assert stuck.status == "not_proved" and stuck.stats["exhausted"]
    res = run_search(SUM3, SearchConfig(**cfg, escalations=(Deeper(),)))
    assert res.status == "proved" and check_proof(res.proof).ok
    assert [e["level"] for e in res.stats["escalations"]] == ["deeper"]


def test_failed_closers_are_retried_stronger():
    cfg = {"time_limit": 40, "generators": [], "closers": (_Never(),)}
    stuck = run_search(AMGM, SearchConfig(**cfg, escalations=()))
    assert stuck.status == "not_proved" and stuck.stats["exhausted"]
    res = run_search(AMGM, SearchConfig(**cfg, escalations=(StrongerClosers(),)))
    assert res.status == "proved" and check_proof(res.proof).ok
    assert res.stats["escalations"][0]["level"] == "stronger closers"


def test_every_level_is_spent_before_giving_up():
    res = run_search(AMGM, SearchConfig(time_limit=30, generators=[], closers=(_Never(),),
                                        escalations=(Deeper(), WiderExpansion())))
    assert res.status == "not_proved" and res.stats["exhausted"]
    assert [e["level"] for e in res.stats["escalations"]] == ["deeper", "wider expansion"]


def test_no_escalation_once_proved():
    res = run_search(AMGM, SearchConfig(time_limit=30))
    assert res.status == "proved" and "escalations" not in res.stats


def test_early_give_ups_are_reported_with_their_reason():
    run = {"options": {"time_limit": 100}}
    records = {"x/a": {"status": "not_proved", "time_s": 12.0, "stats": {"exhausted": True}},
               "x/b": {"status": "not_proved", "time_s": 30.0, "stats": {}},
               "x/c": {"status": "not_proved", "time_s": 80.0, "stats": {}},
               "x/d": {"status": "proved", "time_s": 1.0, "stats": {}}}
    assert early_give_ups(run, records) == {"x/a": True, "x/b": False}


def test_the_kernel_reserve_is_at_most_a_tenth_of_the_budget() -> None:
    """A fixed 2 s reserve left a 5 s search (a conjunction part at 10 s) 3 s, and escalation,
    which needs reserve + 1 s left, never ran there: the reserve scales with short budgets."""
    from prover.search.best_first import Search

    assert Search(AMGM, SearchConfig(time_limit=5)).kernel_reserve() == 0.5
    assert Search(AMGM, SearchConfig(time_limit=60)).kernel_reserve() == 2.0
