"""Cauchy–Schwarz for two square roots (``prover/rewrite/cauchy_roots.py``): the match of the
products to the two sums, complete kernel-checked trees (plain, after a substitution, with a
weakened small side), nothing for a false statement, and the kernel refusing a wrong match.
Statements are written here, not taken from the family suite."""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from prover.frontend.statement import parse_theorem
from prover.ir import Goal, Proof
from prover.rewrite.cauchy_roots import CauchyRoots, find_match, pair_proof, pieces_of, splits
from prover.verify import check_proof, check_step

a, b = sp.symbols("a b", real=True)


def goal_of(statement: str) -> Goal:
    return Goal.from_problem(parse_theorem(statement, real_division=True))


def tree_of(statement: str):
    cands = list(CauchyRoots().generate(goal_of(statement)))
    return cands[0].step if cands else None


def test_splits_cover_factor_choices() -> None:
    found = {(sp.expand(x), sp.expand(y)) for x, y in splits(3 * a * (b + 1))}
    assert (a, 3 * b + 3) in found and (3 * a, b + 1) in found and (sp.Integer(1), 3 * a * b + 3 * a) in found
    assert all(sp.expand(x * y - 3 * a * (b + 1)) == 0 for x, y in found)


def test_match_finds_the_vectors() -> None:
    pieces = pieces_of(1 + sp.sqrt(a * b), sp.Integer(1))
    match = find_match(pieces, 1 + a, 1 + b)
    assert match is not None
    assert {sp.expand(x) for x in match.a} == {sp.Integer(1), a}
    assert {sp.expand(x) for x in match.b} == {sp.Integer(1), b}


SEED = "theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 1 + √(a * b) ≤ √((1 + a) * (1 + b)) := by sorry"


def test_seed_and_substituted_forms_close() -> None:
    for statement in (SEED,
                      ("theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : √(x * (3 * (y + 1))) + 2 ≤ "
                      "√((x + 4) * (3 * y + 4)) := by sorry"),
                      ("theorem t (p q r s : ℝ) (hp : 0 < p) (hq : 0 < q) (hr : 0 < r) (hs : 0 < s) : "
                      "√((p + r) * (q + s)) ≥ √(p * q) + √(r * s) := by sorry")):
        tree = tree_of(statement)
        assert tree is not None, statement
        assert check_step(tree).ok


def test_weakened_small_side() -> None:
    tree = tree_of("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : (9 : ℝ) / 10 * (1 + √(a * b)) ≤ "
                   "√((1 + a) * (1 + b)) := by sorry")
    assert tree is not None and tree.kind == "combine" and check_step(tree).ok


def test_false_statement_gets_nothing() -> None:
    assert tree_of("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 1 + √(a * b) ≤ "
                   "(9 : ℝ) / 10 * √((1 + a) * (1 + b)) := by sorry") is None
    assert tree_of("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 2 + √(a * b) ≤ "
                   "√((1 + a) * (1 + b)) := by sorry") is None


def test_kernel_refuses_a_wrong_match() -> None:
    """The proof built for vectors that do not add up to the big side's factors is rejected."""
    goal = goal_of(SEED)
    pieces = pieces_of(1 + sp.sqrt(a * b), sp.Integer(1))
    match = find_match(pieces, 1 + a, 1 + b)
    root = sp.sqrt((1 + a) * (1 + b))
    assert check_step(pair_proof(goal, match, root)).ok
    wrong = replace(match, a=(match.a[0] + 1, match.a[1]))
    assert not check_step(pair_proof(goal, wrong, root)).ok


def test_tree_renders_and_replays() -> None:
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    problem = parse_theorem(SEED, real_division=True)
    proof = Proof(problem, tree_of(SEED))
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert replay_text(text).ok, text
