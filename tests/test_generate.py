import pytest

from prover.frontend import ParseError
from prover.generate import suggest_tactics
from prover.verify import check_step
from tests.llm_fixtures import ChatServer

NESBITT = ("theorem n (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
           "a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2")


def test_suggestions_are_ranked_and_kernel_checked():
    s = suggest_tactics(NESBITT, time_limit=5)
    assert len(s) > 0 and not s.errors
    assert s.items == sorted(s.items, key=lambda t: (not t.kernel_ok, -t.score))
    top = s.items[0]
    assert top.kernel_ok and top.goals
    # the step alone (open subgoals aside) is what the kernel accepts
    errs = [e for e in check_step(top.step).errors if "open subgoal" not in e]
    assert errs == []


def test_llm_rewrites_join_the_suggestions():
    def answer(prompt: str, n: int) -> list[str]:
        return ["(a - b)^2"] * n   # right for the goal below, wrong for none

    goal = "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2"
    with ChatServer(answer) as srv:
        s = suggest_tactics(goal, llm=f"{srv.url}#m", time_limit=3)
    assert any(t.source.startswith("llm:") and t.kernel_ok for t in s)
    assert s.llm_stats.valid_rewrites >= 1


def test_bad_statement_raises_parse_error():
    with pytest.raises(ParseError):
        suggest_tactics("theorem t (a : ℕ) : a ≥ 0")
