"""The kernel's ``combine`` rule: ``slack(G) = Σ_j λ_j · Π_{i ∈ S_j} slack(G_i)``.

Each subgoal ``G_i`` is an inequality over some of ``G``'s variables under some of ``G``'s
hypotheses (literally), ``λ_j`` are nonnegative rationals, the identity is exact with every
denominator proved nonzero under ``G``'s hypotheses, and a strict ``G`` needs a term with
``λ > 0`` whose factors are all strict subgoals. Honest steps are accepted; every attack below is
a step (or a whole proof of a statement false in Lean) that the kernel must reject.
"""

from __future__ import annotations

import json

import pytest

from prover.fuzz.kernel_trees import proof_document, step
from prover.kernel.algebra import KernelError
from prover.kernel.check import Kernel, check_proof


def rel(lhs: str, op: str, rhs: str) -> dict:
    return {"lhs": lhs, "op": op, "rhs": rhs}


def goal(variables: list[str], hypotheses: list[dict], target: dict) -> dict:
    return {"variables": list(variables), "hypotheses": list(hypotheses), "target": target}


def combine(g: dict, subgoals: list[dict], terms: list[tuple[str, list[int]]], children: list[dict] = ()) -> dict:
    return step("combine", g, subgoals, {"terms": [{"coeff": c, "factors": list(f)} for c, f in terms]},
                list(children))


def close_sos(g: dict, terms: list[tuple[str, list[int], str]]) -> dict:
    return step("close", g, [], {"method": "sos", "eq_terms": [],
                                 "terms": [{"coeff": c, "mult": list(m), "poly": q} for c, m, q in terms]}, [])


def step_error(s: dict) -> str | None:
    """None when the kernel accepts the step itself (children not checked), else its reason."""
    try:
        Kernel().check_one(s)
    except KernelError as exc:
        return str(exc)
    return None


POS = {v: rel("0", "<", v) for v in "abcdxyzw"}
NONNEG = {v: rel("0", "<=", v) for v in "abcdxyzw"}


def part(variables: str, hyps: dict, target: dict) -> dict:
    return goal(list(variables), [hyps[v] for v in variables], target)


# ---------------------------------------------------------------- honest steps


def t1_step(terms: list[tuple[str, list[int]]] | None = None) -> dict:
    """(a + b)(1/a + 1/b) · ((c + d)(1/c + 1/d)) ≥ 16 from the two factors ≥ 4:
    L1·L2 − 16 = (L1 − 4)(L2 − 4) + 4(L1 − 4) + 4(L2 − 4)."""
    g = part("abcd", POS, rel("(a + b)*(1/a + 1/b)*((c + d)*(1/c + 1/d))", ">=", "16"))
    g1 = part("ab", POS, rel("(a + b)*(1/a + 1/b)", ">=", "4"))
    g2 = part("cd", POS, rel("(c + d)*(1/c + 1/d)", ">=", "4"))
    return combine(g, [g1, g2], terms or [("1", [0, 1]), ("4", [0]), ("4", [1])])


def t2_step(sign_parts: bool = True) -> dict:
    """4ab · 4cd ≤ (a + b)²(c + d)²: B1B2 − 16·S1S2 = s1·s2 + 4·S2·s1 + 4·S1·s2 with the signs
    S1 = ab ≥ 0, S2 = cd ≥ 0 as subgoals."""
    g = part("abcd", NONNEG, rel("4*a*b*(4*c*d)", "<=", "(a + b)**2*(c + d)**2"))
    parts = [part("ab", NONNEG, rel("(a + b)**2", ">=", "4*a*b")),
             part("cd", NONNEG, rel("(c + d)**2", ">=", "4*c*d"))]
    if sign_parts:
        parts += [part("ab", NONNEG, rel("a*b", ">=", "0")), part("cd", NONNEG, rel("c*d", ">=", "0"))]
        return combine(g, parts, [("1", [0, 1]), ("4", [3, 0]), ("4", [2, 1])])
    return combine(g, parts, [("1", [0, 1])])


def t4_step() -> dict:
    g = part("abcd", POS, rel("a/b + b/a + (c/d + d/c)", ">=", "4"))
    return combine(g, [part("ab", POS, rel("a/b + b/a", ">=", "2")),
                       part("cd", POS, rel("c/d + d/c", ">=", "2"))], [("1", [0]), ("1", [1])])


def t3_step() -> dict:
    """x·y·(z·w) ≤ 81/64 under x + 2y = 3, z + 2w = 3, from xy ≤ 9/8, zw ≤ 9/8 and their signs:
    81/64 − S1·S2 = (9/8)(9/8 − S1) + S1·(9/8 − S2)."""
    h1, h2 = rel("x + 2*y", "=", "3"), rel("z + 2*w", "=", "3")
    g = goal(list("xyzw"), [POS["x"], POS["y"], POS["z"], POS["w"], h1, h2], rel("x*y*(z*w)", "<=", "81/64"))
    g1 = goal(["x", "y"], [POS["x"], POS["y"], h1], rel("x*y", "<=", "9/8"))
    g2 = goal(["z", "w"], [POS["z"], POS["w"], h2], rel("z*w", "<=", "9/8"))
    g3 = goal(["x", "y"], [POS["x"], POS["y"]], rel("x*y", ">=", "0"))
    return combine(g, [g1, g2, g3], [("9/8", [0]), ("1", [2, 1])])


@pytest.mark.parametrize("make", [t1_step, t2_step, t3_step, t4_step], ids=["t1", "t2", "t3", "t4"])
def test_honest_combine_steps_are_accepted(make) -> None:
    assert step_error(make()) is None


def test_product_rule_with_sign_subgoals_is_accepted() -> None:
    """a·c − b·d = (a − b)(c − d) + d(a − b) + b(c − d), with b ≥ 0 and d ≥ 0 as subgoals."""
    g = goal(list("abcd"), [], rel("a*c", ">=", "b*d"))
    parts = [goal(["a", "b"], [], rel("a", ">=", "b")), goal(["c", "d"], [], rel("c", ">=", "d")),
             goal(["b"], [], rel("b", ">=", "0")), goal(["d"], [], rel("d", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0, 1]), ("1", [3, 0]), ("1", [2, 1])])) is None


def test_strict_goal_from_a_strict_part_or_a_positive_constant() -> None:
    g = part("xy", POS, rel("x + y", ">", "0"))
    parts = [part("x", POS, rel("x", ">", "0")), part("y", POS, rel("y", ">", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1])])) is None
    g = goal(["x", "y"], [], rel("x**2 + y**2 + 1", ">", "0"))
    parts = [goal(["x"], [], rel("x**2", ">=", "0")), goal(["y"], [], rel("y**2", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1]), ("1", [])])) is None


def test_whole_proof_with_closed_parts_is_accepted() -> None:
    """(a² + 1)(c² + 1) ≥ 1, each factor ≥ 1 by SOS: a complete proof through check_proof."""
    g = goal(["a", "c"], [], rel("(a**2 + 1)*(c**2 + 1)", ">=", "1"))
    g1 = goal(["a"], [], rel("a**2 + 1", ">=", "1"))
    g2 = goal(["c"], [], rel("c**2 + 1", ">=", "1"))
    root = combine(g, [g1, g2], [("1", [0, 1]), ("1", [0]), ("1", [1])],
                   [close_sos(g1, [("1", [], "a")]), close_sos(g2, [("1", [], "c")])])
    verdict = check_proof(json.loads(json.dumps(proof_document(root, "combine_ok"))))
    assert verdict.ok, verdict.errors


def test_whole_proof_with_an_open_part_is_rejected() -> None:
    g = goal(["a", "c"], [], rel("(a**2 + 1)*(c**2 + 1)", ">=", "1"))
    g1 = goal(["a"], [], rel("a**2 + 1", ">=", "1"))
    g2 = goal(["c"], [], rel("c**2 + 1", ">=", "1"))
    root = combine(g, [g1, g2], [("1", [0, 1]), ("1", [0]), ("1", [1])], [close_sos(g1, [("1", [], "a")])])
    verdict = check_proof(proof_document(root, "combine_open"))
    assert not verdict.ok and any("open subgoal" in e for e in verdict.errors)


# ---------------------------------------------------------------- attacks


def test_negative_weight_is_rejected() -> None:
    """a² − c² ≥ 0 (false) as 1·a² − 1·c² from the parts a² ≥ 0, c² ≥ 0."""
    g = goal(["a", "c"], [], rel("a**2 - c**2", ">=", "0"))
    parts = [goal(["a"], [], rel("a**2", ">=", "0")), goal(["c"], [], rel("c**2", ">=", "0"))]
    err = step_error(combine(g, parts, [("1", [0]), ("-1", [1])]))
    assert err is not None and "negative weight" in err


def test_weight_that_is_not_a_rational_is_rejected() -> None:
    """The product rule with R1 = R2 = −1 possible: a·c ≥ 1 (false at 0, 0) from a ≥ −1, c ≥ −1
    would need the weights R2, R1 (negative); a symbolic weight is refused."""
    g = goal(["a", "c"], [], rel("a*c", ">=", "1"))
    parts = [goal(["a"], [], rel("a", ">=", "-1")), goal(["c"], [], rel("c", ">=", "-1"))]
    assert step_error(combine(g, parts, [("1", [0, 1]), ("-1", [0]), ("-1", [1])])) is not None
    err = step_error(combine(g, parts, [("1", [0, 1]), ("c", [0]), ("-1", [1])]))
    assert err is not None and "term 1 coeff" in err
    err = step_error(combine(g, parts, [("1", [0, 1]), ("sqrt(2)", [0]), ("-1", [1])]))
    assert err is not None and "not a rational number" in err


def test_product_rule_without_the_sign_subgoals_is_rejected() -> None:
    """(a + b)²(c + d)² ≥ 16abcd from the two factor bounds alone: the cross terms need ab, cd ≥ 0."""
    err = step_error(t2_step(sign_parts=False))
    assert err is not None and "not an identity" in err


def test_product_rule_with_the_sign_of_a_wrong_factor_is_rejected() -> None:
    """a·c ≥ b·d with a sign subgoal about a (not b): the identity cannot be written."""
    g = goal(list("abcd"), [], rel("a*c", ">=", "b*d"))
    parts = [goal(["a", "b"], [], rel("a", ">=", "b")), goal(["c", "d"], [], rel("c", ">=", "d")),
             goal(["a"], [], rel("a", ">=", "0")), goal(["d"], [], rel("d", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0, 1]), ("1", [3, 0]), ("1", [2, 1])])) is not None


def test_hypothesis_not_in_the_goal_is_rejected() -> None:
    """x + y ≥ 0 (false) from x ≥ 0, y ≥ 0 proved under hypotheses the goal does not have."""
    g = goal(["x", "y"], [], rel("x + y", ">=", "0"))
    parts = [goal(["x"], [rel("x", ">=", "0")], rel("x", ">=", "0")),
             goal(["y"], [rel("y", ">=", "0")], rel("y", ">=", "0"))]
    err = step_error(combine(g, parts, [("1", [0]), ("1", [1])]))
    assert err is not None and "not one of the goal's" in err


def test_equivalent_but_not_literal_hypothesis_is_rejected() -> None:
    g = part("xy", POS, rel("x + y", ">", "0"))
    parts = [goal(["x"], [rel("x", ">", "0")], rel("x", ">", "0")), part("y", POS, rel("y", ">", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1])])) is not None


@pytest.mark.parametrize("op", ["=", "!="])
def test_subgoal_that_is_not_an_inequality_is_rejected(op: str) -> None:
    """x + y ≥ 0 (false) from 'x = 0'/'x ≠ 0' (slack x, of no sign) and y ≥ ... ."""
    g = goal(["x", "y"], [], rel("x + y", ">=", "0"))
    parts = [goal(["x"], [], rel("x", op, "0")), goal(["y"], [], rel("y", op, "0"))]
    err = step_error(combine(g, parts, [("1", [0]), ("1", [1])]))
    assert err is not None and "not an inequality" in err


@pytest.mark.parametrize("op", ["=", "!="])
def test_goal_that_is_not_an_inequality_is_rejected(op: str) -> None:
    g = goal(["x", "y"], [], rel("x**2 + y**2", op, "0"))
    parts = [goal(["x"], [], rel("x**2", ">=", "0")), goal(["y"], [], rel("y**2", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1])])) is not None


def test_wrong_identity_is_rejected() -> None:
    err = step_error(t1_step([("1", [0, 1]), ("4", [0]), ("3", [1])]))
    assert err is not None and "not an identity" in err


def test_strict_goal_from_non_strict_parts_is_rejected() -> None:
    """x + y > 0 under x ≥ 0, y ≥ 0 (false at 0, 0)."""
    g = part("xy", NONNEG, rel("x + y", ">", "0"))
    parts = [part("x", NONNEG, rel("x", ">=", "0")), part("y", NONNEG, rel("y", ">=", "0"))]
    err = step_error(combine(g, parts, [("1", [0]), ("1", [1])]))
    assert err is not None and "strict" in err


def test_strict_term_with_zero_weight_is_rejected() -> None:
    g = part("xy", NONNEG, rel("x + y", ">", "0"))
    parts = [part("x", NONNEG, rel("x", ">=", "0")), part("y", NONNEG, rel("y", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1]), ("0", [])])) is not None


def test_denominator_that_can_vanish_is_rejected() -> None:
    """x·(1/x) + y·(1/y) ≥ 2 is false at x = 0 in Lean (0 + 1 < 2); the identity slack = 0 holds
    only where x, y ≠ 0. With positive x, y the same step is accepted."""
    target = rel("x*(1/x) + y*(1/y)", ">=", "2")
    parts = [goal(["x"], [], rel("x**2", ">=", "0")), goal(["y"], [], rel("y**2", ">=", "0"))]
    err = step_error(combine(goal(["x", "y"], [], target), parts, [("0", [0]), ("0", [1])]))
    assert err is not None and "denominator" in err
    ok = combine(goal(["x", "y"], [POS["x"], POS["y"]], target), parts, [("0", [0]), ("0", [1])])
    assert step_error(ok) is None


def test_subgoal_denominator_that_can_vanish_is_rejected() -> None:
    """x ≥ 0 (false) from the part 'x·(x/x) ≥ 0' read as x ≥ 0: x/x needs x ≠ 0."""
    g = goal(["x", "y"], [], rel("x + y**2", ">=", "0"))
    parts = [goal(["x"], [], rel("x*(x/x)", ">=", "0")), goal(["y"], [], rel("y**2", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1])])) is not None


def test_variables_not_in_the_goal_are_rejected() -> None:
    g = goal(["x", "y"], [], rel("x**2 + y**2", ">=", "0"))
    parts = [goal(["x"], [], rel("x**2", ">=", "0")), goal(["y", "z"], [], rel("y**2 + 0*z", ">=", "0"))]
    err = step_error(combine(g, parts, [("1", [0]), ("1", [1])]))
    assert err is not None and "not the goal's" in err


def test_single_subgoal_and_bad_indices_are_rejected() -> None:
    g = goal(["x"], [], rel("x**2", ">=", "0"))
    assert step_error(combine(g, [goal(["x"], [], rel("x**2", ">=", "0"))], [("1", [0])])) is not None
    g = goal(["x", "y"], [], rel("x**2 + y**2", ">=", "0"))
    parts = [goal(["x"], [], rel("x**2", ">=", "0")), goal(["y"], [], rel("y**2", ">=", "0"))]
    assert step_error(combine(g, parts, [("1", [0]), ("1", [2])])) is not None
    assert step_error(combine(g, parts, [("1", [0]), ("1", [True])])) is not None
    assert step_error(combine(g, parts, [("1", [0]), ("1", [1] * 9)])) is not None
    assert step_error(step("combine", g, parts, {"terms": []}, [])) is not None
    assert step_error(step("combine", g, parts, {"terms": [{"coeff": "1.5", "factors": [0]}]}, [])) is not None


def test_false_statement_through_check_proof_is_rejected() -> None:
    """A whole proof of x + y ≥ 0 (false) whose parts are proved under invented hypotheses."""
    g = goal(["x", "y"], [], rel("x + y", ">=", "0"))
    g1 = goal(["x"], [rel("x", ">=", "0")], rel("x", ">=", "0"))
    g2 = goal(["y"], [rel("y", ">=", "0")], rel("y", ">=", "0"))
    root = combine(g, [g1, g2], [("1", [0]), ("1", [1])],
                   [close_sos(g1, [("1", [0], "1")]), close_sos(g2, [("1", [0], "1")])])
    verdict = check_proof(proof_document(root, "combine_attack"))
    assert not verdict.ok
