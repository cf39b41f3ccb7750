"""Minkowski pairs (``prover/rewrite/minkowski.py``): sums of squares read from radicands, a
complete kernel-checked tree for sums of three radicals against one, nothing for a false variant,
and the kernel refusing a tampered pair proof. Statements are written here, not taken from the
family suite."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from prover.frontend.statement import parse_theorem
from prover.ir import Goal, Proof
from prover.problem import Relation
from prover.rewrite.minkowski import MinkowskiPairs, Pair, merges, pair_proof, square_components
from prover.verify import check_proof, check_step

a, b, x, y = sp.symbols("a b x y", real=True)


def goal_of(statement: str) -> Goal:
    return Goal.from_problem(parse_theorem(statement, real_division=True))


@pytest.mark.parametrize(("radicand", "components"), [
    (a ** 2 + 1, [a, 1]),
    ((a + b) ** 2 + 4, [a + b, 2]),
    (x ** 4 + 9, [x ** 2, 3]),
    (4 * a ** 2 * b ** 2 + (x - y) ** 2, [2 * a * b, x - y]),
])
def test_square_components(radicand: sp.Expr, components: list[sp.Expr]) -> None:
    got = square_components(radicand)
    assert got is not None and sorted(map(str, got)) == sorted(map(str, components))
    assert sp.expand(sum(w ** 2 for w in got) - radicand) == 0


@pytest.mark.parametrize("radicand", [2 * a ** 2 + 1, a ** 3 + 1, a ** 2 - 1, a ** 2 + b ** 2 + x ** 2 + y ** 2,
                                      a ** 2 + 2 * a + 2])
def test_not_a_short_sum_of_rational_squares(radicand: sp.Expr) -> None:
    """``2`` is no rational square, ``a³`` no square, ``−1`` negative, four squares are too many;
    ``a² + 2a + 2`` is ``(a + 1)² + 1`` but completing squares is not tried."""
    assert square_components(radicand) is None


def test_merges_cover_pairings_and_signs() -> None:
    found = {sp.expand(m.radicand) for m in merges([a, sp.Integer(1)], [b, sp.Integer(2)])}
    assert sp.expand((a + b) ** 2 + 9) in found          # a with b, 1 with 2
    assert sp.expand((a - b) ** 2 + 9) in found
    assert sp.expand((a + 2) ** 2 + (1 + b) ** 2) in found   # crossed pairing
    assert len(found) == 8


THREE = ("theorem t (x y z : ℝ) : √(x ^ 2 + 4) + √(y ^ 2 + 9) + √(z ^ 2 + 1) ≥ "
         "√((x + y + z) ^ 2 + 36) := by sorry")


def test_three_radicals_closed_by_two_merges() -> None:
    goal = goal_of(THREE)
    cands = list(MinkowskiPairs().generate(goal))
    assert len(cands) == 1 and cands[0].closes
    tree = cands[0].step
    assert check_step(tree).ok
    assert sum(1 for s in tree.walk() if s.kind == "combine") == 1
    assert sum(1 for s in tree.walk() if s.kind == "introduce") == 2


def test_weakened_and_vanishing_radicands() -> None:
    """Radicands that may vanish (no strict sign for the named roots) and a weakened constant."""
    goal = goal_of("theorem t (p q r s : ℝ) : √(p ^ 2 + r ^ 2) + √(q ^ 2 + s ^ 2) ≥ "
                   "(4 : ℝ) / 5 * √((p + q) ^ 2 + (r + s) ^ 2) := by sorry")
    cands = list(MinkowskiPairs().generate(goal))
    assert cands and cands[0].closes and check_step(cands[0].step).ok


def test_false_variant_gets_no_step() -> None:
    """A constant one too large: the remaining goal fails on the samples, so nothing is proposed."""
    goal = goal_of(THREE.replace("+ 36)", "+ 37)"))
    assert list(MinkowskiPairs().generate(goal)) == []


def test_kernel_refuses_a_tampered_pair() -> None:
    """The pair proof built for a merge, attached to a stronger claim (``M + 1`` under the root):
    the kernel must reject it."""
    goal = goal_of("theorem t (a b : ℝ) : √(a ^ 2 + 1) + √(b ^ 2 + 1) ≥ √((a + b) ^ 2 + 4) := by sorry")
    t1, t2 = sp.sqrt(a ** 2 + 1), sp.sqrt(b ** 2 + 1)
    merge = next(m for m in merges([a, sp.Integer(1)], [b, sp.Integer(1)])
                 if sp.expand(m.radicand - (a + b) ** 2 - 4) == 0)
    good = Pair(t1, t2, merge, Relation(t1 + t2, ">=", sp.sqrt(merge.radicand)), goal.target)
    assert check_step(pair_proof(goal, good)).ok
    bad_merge = replace(merge, right=(merge.right[0], merge.right[1] + 1))   # claims more than holds
    bad = Pair(t1, t2, bad_merge, Relation(t1 + t2, ">=", sp.sqrt(bad_merge.radicand)), goal.target)
    assert not check_step(pair_proof(goal, bad)).ok


def test_closed_tree_renders_and_replays() -> None:
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    problem = parse_theorem(THREE, real_division=True)
    cands = list(MinkowskiPairs().generate(Goal.from_problem(problem)))
    proof = Proof(problem, cands[0].step)
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert "abs_le_of_sq_le_sq'" in text and "sorry" not in text.split(":= by", 1)[1]
    assert replay_text(text).ok, text


def test_search_asks_the_direct_methods_before_the_closers() -> None:
    """The search's first move on the original goal: a complete Minkowski tree, no closer call
    (``SearchConfig.direct_generators``); with none configured the closers run first."""
    from prover.search.best_first import SearchConfig, run_search

    problem = parse_theorem(THREE, real_division=True)
    res = run_search(problem, SearchConfig(time_limit=60))
    assert res.status == "proved" and res.stats.get("direct") == "minkowski-pairs"
    assert res.stats["closer_calls"] == 0 and res.stats["expansions"] == 0
    off = run_search(problem, SearchConfig(time_limit=5, direct_generators=[], generators=[]))
    assert "direct" not in off.stats and off.stats["closer_calls"] >= 1


def test_a_pair_written_either_way_is_proved_as_written() -> None:
    """``√M ≤ √A + √B`` (the goal itself one pair's inequality): the tree's goal is the goal as
    written, not its mirror (the search drops a tree for another goal)."""
    for statement in ("theorem t (a b : ℝ) : √((a + b) ^ 2 + 4) ≤ √(a ^ 2 + 1) + √(b ^ 2 + 1) := by sorry",
                      "theorem t (a b : ℝ) : √(a ^ 2 + 1) + √(b ^ 2 + 1) ≥ √((a + b) ^ 2 + 4) := by sorry"):
        goal = goal_of(statement)
        cands = list(MinkowskiPairs().generate(goal))
        assert cands and cands[0].closes and cands[0].step.goal == goal
        assert check_step(cands[0].step).ok


def test_search_closes_a_peeled_pair_at_once() -> None:
    """Under ``t ↦ t/(1+t)`` the rational peel leaves ``√M ≤ √A + √B`` (with radicals, ranked far
    back) and a side condition: the direct method closes the first when the node is made, and
    the side condition needs no search (``direct_closed``)."""
    from prover.search.best_first import SearchConfig, run_search

    statement = ("theorem t (a b : ℝ) : √((a + b) ^ 2 + 4) / (1 + √((a + b) ^ 2 + 4)) ≤ "
                 "(√(a ^ 2 + 1) + √(b ^ 2 + 1)) / (1 + (√(a ^ 2 + 1) + √(b ^ 2 + 1))) := by sorry")
    res = run_search(parse_theorem(statement, real_division=True), SearchConfig(time_limit=90))
    assert res.status == "proved" and res.stats.get("direct_closed", 0) >= 1


SCALED = ("theorem t (p q : ℝ) : (4 : ℝ) / 5 * ((1 : ℝ) / 3 * √((p + q) ^ 2 + 9)) ≤ "
          "(1 : ℝ) / 3 * (√(p ^ 2 + 4) + √(q ^ 2 + 1)) := by sorry")
CANCELLING = ("theorem t (a b : ℝ) : √(a ^ 2 + 1) + √(b ^ 2 + 1) + (a ^ 2 + 1) * (b ^ 2 + 1) ≥ "
              "√((a + b) ^ 2 + 4) + (a * b + 1) ^ 2 := by sorry")


@pytest.mark.parametrize("statement", [SCALED, CANCELLING])
def test_last_goal_closes_in_a_form_lean_checks(statement: str) -> None:
    """Equal coefficients stay outside the merged root (``⅓√A + ⅓√B ≥ ⅓√M``: the last goal is
    ``⅓√M`` against a multiple of itself, no ``√((p/3)² + 1)`` that only the kernel's normal form
    relates to it), and a last goal whose radicals cancel is closed by SOS, not by a positivity
    Lean's tactic does not do; both files pass the replay model."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    problem = parse_theorem(statement, real_division=True)
    cands = list(MinkowskiPairs().generate(Goal.from_problem(problem)))
    assert cands and cands[0].closes
    proof = Proof(problem, cands[0].step)
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert replay_text(text).ok, text
