"""Cube roots (issue #16, item 2): ``CubeGoals`` (``S <= L`` from ``S³ <= L³``, a rewrite whose
multiplier the kernel proves positive) and ``EliminateRootPowers`` (``t³`` by its equation),
each checked by the kernel, refused where it would be wrong, and a whole chain
(name the roots → cube → power mean → eliminate → SOS) kernel-checked and rendered to Lean that
passes the replay model, on a statement of our own in the style of ISL 2004 A5."""

from __future__ import annotations

import sympy as sp

from prover.frontend import parse_theorem
from prover.ir import Goal, Proof
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.problem import Relation, var
from prover.rewrite import CubeGoals, EliminateRootPowers, IntroduceRoots
from prover.search import services
from prover.search.heuristics import symbolic_priority
from prover.verify import check_proof, check_step

x, y, z = var("x"), var("y"), var("z")
t1, t2, t3 = var("t1"), var("t2"), var("t3")
POS = tuple(Relation(v, ">", sp.Integer(0)) for v in (x, y, z))
ROOTS = tuple(r for t, X in ((t1, x), (t2, y), (t3, z))
              for r in (Relation(t, ">", sp.Integer(0)), Relation(t ** 3, "=", X)))
VARS = ("x", "y", "z", "t1", "t2", "t3")


def _goal(lhs, op, rhs, hyps=POS + ROOTS) -> Goal:
    return Goal(VARS, hyps, Relation(sp.sympify(lhs), op, sp.sympify(rhs)))


def _only_open(step) -> bool:
    v = check_step(step)
    return len(v.errors) == 1 and "open subgoal" in v.errors[0]


def test_cube_is_a_checked_rewrite_and_is_not_repeated():
    g = _goal(t1 + t2 + t3, "<=", 3 / (x * y * z))
    (cand,) = list(CubeGoals().generate(g))
    sub = cand.step.subgoals[0]
    assert cand.step.kind == "rewrite" and _only_open(cand.step)
    # the positive denominator left the cube; the cubed sum is kept for the lemmas
    assert sub.target.rhs == 27 and sp.expand(sub.target.lhs - (x * y * z) ** 3 * (t1 + t2 + t3) ** 3) == 0
    assert (t1 + t2 + t3) ** 3 in sp.preorder_traversal(sub.target.lhs)
    assert list(CubeGoals().generate(sub)) == []


def test_cube_is_refused_without_a_cube_root_or_a_proved_sign():
    assert list(CubeGoals().generate(_goal(x + y, "<=", 3, POS))) == []          # no named cube root
    assert list(CubeGoals().generate(_goal(t1 - t2, "<=", 1))) == []             # a side of unknown sign
    only_cubes = _goal(t1 ** 3 + t2 ** 3, "<=", 3)                                 # its equations remove it
    assert list(CubeGoals().generate(only_cubes)) == []


def test_tampered_cube_multiplier_is_rejected_by_the_kernel():
    g = _goal(t1 + t2 + t3, "<=", 3)
    (cand,) = list(CubeGoals().generate(g))
    cert = dict(cand.step.certificate)
    cert["multiplier"] = "1/((t1 + t2 + t3)**2 + 9)"           # drops the cross term S·L
    bad = type(cand.step)("rewrite", g, cand.step.subgoals, cert, note="tampered")
    v = check_step(bad)
    assert any("open subgoal" not in e for e in v.errors)


def test_root_powers_are_replaced_by_their_equations():
    g = _goal(9 * t1 ** 3 + 9 * t2 ** 3 + 9 * t3 ** 3 + t1, "<=", 27 + t1 ** 4)
    (cand,) = list(EliminateRootPowers().generate(g))
    sub = cand.step.subgoals[0]
    assert sp.expand(sub.target.slack() - (27 + x * t1 - 9 * x - 9 * y - 9 * z - t1)) == 0
    assert _only_open(cand.step)
    assert list(EliminateRootPowers().generate(_goal(t1 + t2, "<=", 3))) == []   # nothing to replace


def test_priority_sees_cube_roots_through_their_equations():
    lhs = (x * y * z) ** 3 * (9 * t1 ** 3 + 9 * t2 ** 3 + 9 * t3 ** 3)
    with_equations = _goal(lhs, "<=", 27)
    without = _goal(lhs, "<=", 27, POS + tuple(r for r in ROOTS if r.op != "="))
    reduced = _goal(sp.expand((x * y * z) ** 3 * (9 * x + 9 * y + 9 * z)), "<=", 27)
    assert symbolic_priority(with_equations) == symbolic_priority(reduced) < symbolic_priority(without)


STATEMENT = ("theorem cbrt_chain (x y z : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (h : x * y + y * z + z * x = 3) : "
             "(1 / x + 7 * y) ^ ((1:ℝ)/3) + (1 / y + 7 * z) ^ ((1:ℝ)/3) + (1 / z + 7 * x) ^ ((1:ℝ)/3) ≤ "
             "6 / (x * y * z) := by sorry")


def test_cube_chain_is_a_kernel_checked_proof_and_replays():
    problem = parse_theorem(STATEMENT)
    root = Goal.from_problem(problem)
    (intro,) = list(IntroduceRoots().generate(root))
    (cube,) = list(CubeGoals().generate(intro.step.subgoals[0]))
    lemmas = services.CatalogueGenerator(budget=lambda: 30.0).generate(cube.step.subgoals[0])
    pm = next(c for c in lemmas if "power_mean3_cube" in c.step.note)
    (elim,) = list(EliminateRootPowers().generate(pm.step.subgoals[0]))
    leaf = elim.step.subgoals[0]
    assert not leaf.target.slack().free_symbols & {t1, t2, t3}
    close = services.close_goal(leaf, 60)
    assert close is not None
    steps = [intro.step, cube.step, pm.step, elim.step]
    for parent, child in zip(steps, steps[1:] + [close]):
        parent.children = [child]
    proof = Proof(problem, intro.step)
    assert check_proof(proof).ok
    report = replay_text(render_proof(proof))
    assert report.ok, report.summary()


def test_power_mean_cube_roots_in_one_step_is_checked_and_replays():
    from prover.rewrite import PowerMeanCubeRoots

    problem = parse_theorem(STATEMENT)
    (intro,) = list(IntroduceRoots().generate(Goal.from_problem(problem)))
    (pm,) = list(PowerMeanCubeRoots().generate(intro.step.subgoals[0]))
    assert pm.step.kind == "scale" and _only_open(pm.step)
    leaf = pm.step.subgoals[0]
    assert not leaf.target.slack().free_symbols & {t1, t2, t3}
    close = services.close_goal(leaf, 60)
    assert close is not None
    intro.step.children, pm.step.children = [pm.step], [close]
    proof = Proof(problem, intro.step)
    assert check_proof(proof).ok
    report = replay_text(render_proof(proof))
    assert report.ok, report.summary()


def test_power_mean_cube_roots_refusals_and_a_false_bound():
    from prover.rewrite import PowerMeanCubeRoots

    gen = PowerMeanCubeRoots()
    assert list(gen.generate(_goal(t1 + t2 + x, "<=", 3))) == []          # not a sum of cube roots only
    assert list(gen.generate(_goal(t1 + t2 + t3, "<=", t1))) == []        # a root on the big side
    assert list(gen.generate(_goal(t1 + t2 + t3, "<=", x - y))) == []     # the big side's sign unknown
    # x + y + z = 1 makes 9·(x + y + z) <= 1 false: the step is proposed, its subgoal refuted
    hyps = POS + ROOTS + (Relation(x + y + z, "=", sp.Integer(1)),)
    (cand,) = list(gen.generate(_goal(t1 + t2 + t3, "<=", 1, hyps)))
    assert _only_open(cand.step)
    leaf = cand.step.subgoals[0]
    assert sp.expand(leaf.target.lhs - 9 * (x + y + z)) == 0 and services.close_goal(leaf, 10) is None
