"""The kernel's ``square`` rule: ``S <= L`` from ``0 <= L`` and ``S² <= L²``.

The goal ``G`` is an inequality ``S <= L`` (``L >= S``; strict ``<``/``>``); the step has exactly two
subgoals over ``G``'s variables and hypotheses (literally): ``G₁`` whose slack is ``L`` and ``G₂``
whose slack is ``L² − S²`` (strict when ``G`` is), both compared with ``G``'s sides as exact
identities (``L²``, ``S²`` built as terms, every denominator proved nonzero under ``G``'s
hypotheses). Honest steps are accepted; every attack below is a step (or a whole proof of a
statement false in Lean) that the kernel must reject.
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


def square(g: dict, subgoals: list[dict], children: list[dict] = (), cert: dict | None = None) -> dict:
    return step("square", g, subgoals, {} if cert is None else cert, list(children))


def with_target(g: dict, target: dict) -> dict:
    return goal(g["variables"], g["hypotheses"], target)


def close_sos(g: dict, terms: list[tuple[str, list[int], str]], eq_terms: list[tuple[int, str]] = ()) -> dict:
    return step("close", g, [], {"method": "sos",
                                 "eq_terms": [{"hyp": k, "poly": p} for k, p in eq_terms],
                                 "terms": [{"coeff": c, "mult": list(m), "poly": q} for c, m, q in terms]}, [])


def close_positivity(g: dict) -> dict:
    return step("close", g, [], {"method": "positivity"}, [])


def step_error(s: dict) -> str | None:
    """None when the kernel accepts the step itself (children not checked), else its reason."""
    try:
        Kernel().check_one(s)
    except KernelError as exc:
        return str(exc)
    return None


def verdict_of(root: dict, name: str):
    return check_proof(json.loads(json.dumps(proof_document(root, name))))


#: √a + √b ≤ √(2(a + b)) after the roots were named: t1 + t2 ≤ t3, t1² = a, t2² = b, t3² = 2a + 2b.
ROOTS = goal(["a", "b", "t1", "t2", "t3"],
             [rel("0", "<=", "a"), rel("0", "<=", "b"), rel("t1", ">=", "0"), rel("t1**2", "=", "a"),
              rel("t2", ">=", "0"), rel("t2**2", "=", "b"), rel("t3", ">=", "0"), rel("t3**2", "=", "2*a + 2*b")],
             rel("t1 + t2", "<=", "t3"))


def roots_step(sign: dict | None = None, squares: dict | None = None, g: dict = ROOTS) -> dict:
    return square(g, [with_target(g, sign or rel("0", "<=", "t3")),
                      with_target(g, squares or rel("(t1 + t2)**2", "<=", "t3**2"))])


# ---------------------------------------------------------------- honest steps


@pytest.mark.parametrize("sign, squares", [
    (None, None),
    (rel("t3", ">=", "0"), rel("t3**2", ">=", "t1**2 + 2*t1*t2 + t2**2")),   # other forms, expanded
    (rel("0", "<", "t3"), rel("(t1 + t2)**2", "<", "t3**2")),                 # stronger subgoals
    (rel("-t3", "<=", "0"), rel("0", "<=", "t3**2 - (t1 + t2)**2")),
], ids=["literal", "expanded", "strict-subgoals", "moved"])
def test_honest_square_steps_are_accepted(sign, squares) -> None:
    assert step_error(roots_step(sign, squares)) is None


def test_goal_written_with_ge_is_accepted() -> None:
    g = with_target(ROOTS, rel("t3", ">=", "t1 + t2"))
    assert step_error(roots_step(g=g)) is None


def test_strict_goal_from_a_strict_square_subgoal() -> None:
    """a < a + 1 under 0 ≤ a: (a + 1)² − a² = 2a + 1 > 0; 0 ≤ a + 1 need not be strict."""
    g = goal(["a"], [rel("0", "<=", "a")], rel("a", "<", "a + 1"))
    assert step_error(square(g, [with_target(g, rel("0", "<=", "a + 1")),
                                 with_target(g, rel("a**2", "<", "(a + 1)**2"))])) is None


def test_abs_squared_is_the_atomizer_law() -> None:
    """|a|·|b| ≤ (a² + b²)/2: (|a||b|)² is a²b² by |f|^2 = f^2 (a law for every real f)."""
    g = goal(["a", "b"], [rel("0", "<=", "a"), rel("0", "<=", "b")], rel("Abs(a)*Abs(b)", "<=", "a**2/2 + b**2/2"))
    assert step_error(square(g, [with_target(g, rel("0", "<=", "a**2/2 + b**2/2")),
                                 with_target(g, rel("a**2*b**2", "<=", "(a**2/2 + b**2/2)**2"))])) is None


def test_whole_proof_is_accepted() -> None:
    """t3 ≥ 0 by positivity (a hypothesis); t3² − (t1 + t2)² = (t1 − t2)² modulo t_i² = …"""
    g1, g2 = (with_target(ROOTS, rel("0", "<=", "t3")), with_target(ROOTS, rel("(t1 + t2)**2", "<=", "t3**2")))
    root = square(ROOTS, [g1, g2], [close_positivity(g1),
                                    close_sos(g2, [("1", [], "t1 - t2")], [(3, "-2"), (5, "-2"), (7, "1")])])
    verdict = verdict_of(root, "square_ok")
    assert verdict.ok, verdict.errors


# ---------------------------------------------------------------- attacks: the sign


def test_no_sign_subgoal_is_rejected() -> None:
    """2 ≤ −3 (false) from (−3)² ≥ 2² alone."""
    g = goal(["x"], [], rel("2", "<=", "-3"))
    err = step_error(square(g, [with_target(g, rel("2**2", "<=", "(-3)**2"))]))
    assert err is not None and "exactly two subgoals" in err


@pytest.mark.parametrize("sign", [rel("0", "<=", "3"), rel("0", "<=", "(-3)**2"), rel("0", "<=", "2"),
                                  rel("0", "<=", "-2")], ids=["abs", "square", "small-side", "small-negated"])
def test_sign_of_something_else_is_rejected(sign: dict) -> None:
    """2 ≤ −3 (false) with a true sign subgoal about |L|, L², S or −S instead of L."""
    g = goal(["x"], [], rel("2", "<=", "-3"))
    err = step_error(square(g, [with_target(g, sign), with_target(g, rel("2**2", "<=", "(-3)**2"))]))
    assert err is not None and "slack(G₁) = L" in err


def test_reverse_of_squares_is_rejected() -> None:
    """−2 ≤ −3 (false) from 4 ≤ 9: the sign of the small side (0 ≤ −2 … or |S|) does not do, and
    S² ≥ L² is the wrong direction; the literal form needs 0 ≤ −3, which has no proof."""
    g = goal(["x"], [], rel("-2", "<=", "-3"))
    assert step_error(square(g, [with_target(g, rel("0", "<=", "2")), with_target(g, rel("4", "<=", "9"))])) is not None
    wrong_way = square(g, [with_target(g, rel("0", "<=", "-3")), with_target(g, rel("(-3)**2", "<=", "(-2)**2"))])
    assert step_error(wrong_way) is not None
    literal = square(g, [with_target(g, rel("0", "<=", "-3")), with_target(g, rel("4", "<=", "9"))])
    assert step_error(literal) is None
    g1, g2 = literal["subgoals"]
    assert not verdict_of(square(g, [g1, g2], [close_positivity(g1), close_positivity(g2)]), "square_rev").ok


def test_false_goal_with_literal_subgoals_fails_at_the_sign() -> None:
    """2 ≤ −3: the step with 0 ≤ −3 and 4 ≤ 9 is the rule's literal form, but 0 ≤ −3 has no proof."""
    g = goal(["x"], [], rel("2", "<=", "-3"))
    g1, g2 = with_target(g, rel("0", "<=", "-3")), with_target(g, rel("2**2", "<=", "(-3)**2"))
    assert step_error(square(g, [g1, g2])) is None
    root = square(g, [g1, g2], [close_positivity(g1), close_positivity(g2)])
    verdict = verdict_of(root, "square_false_sign")
    assert not verdict.ok and any("root/0" in e for e in verdict.errors)
    root = square(g, [g1, g2], [close_sos(g1, [("1", [], "0")]), close_positivity(g2)])
    assert not verdict_of(root, "square_false_sign_sos").ok


def test_swapped_subgoals_are_rejected() -> None:
    g1, g2 = with_target(ROOTS, rel("0", "<=", "t3")), with_target(ROOTS, rel("(t1 + t2)**2", "<=", "t3**2"))
    assert step_error(square(ROOTS, [g2, g1])) is not None


# ---------------------------------------------------------------- attacks: the squares


@pytest.mark.parametrize("squares", [
    rel("(t1 + t2)**2", "<=", "t3**2 + 1"),
    rel("t1 + t2", "<=", "t3**2"),
    rel("t3**2", "<=", "(t1 + t2)**2"),
    rel("(t1 + t2)**2", ">=", "t3**2"),
    rel("t1**2 + t2**2", "<=", "t3**2"),
], ids=["plus-one", "unsquared-side", "reversed", "reversed-ge", "no-cross-term"])
def test_wrong_square_subgoal_is_rejected(squares: dict) -> None:
    err = step_error(roots_step(squares=squares))
    assert err is not None and "slack(G₂)" in err


@pytest.mark.parametrize("op", ["=", "!="])
def test_subgoal_that_is_not_an_inequality_is_rejected(op: str) -> None:
    err = step_error(roots_step(squares=rel("t3**2", op, "(t1 + t2)**2")))
    assert err is not None and "not an inequality" in err
    err = step_error(roots_step(sign=rel("t3", op, "0")))
    assert err is not None and "not an inequality" in err


def test_strict_goal_from_a_non_strict_square_is_rejected() -> None:
    """1 < 1 (false) from 0 ≤ 1 and 1 ≤ 1."""
    g = goal(["x"], [], rel("1", "<", "1"))
    err = step_error(square(g, [with_target(g, rel("0", "<=", "1")), with_target(g, rel("1", "<=", "1"))]))
    assert err is not None and "strict" in err


def test_strict_goal_from_a_strict_sign_only_is_rejected() -> None:
    """x < x + 0 (false): 0 < x is strict but x² ≤ x² is not."""
    g = goal(["x"], [rel("0", "<", "x")], rel("x", "<", "x + 0"))
    err = step_error(square(g, [with_target(g, rel("0", "<", "x + 0")), with_target(g, rel("x**2", "<=", "(x + 0)**2"))]))
    assert err is not None and "strict" in err


@pytest.mark.parametrize("op", ["=", "!="])
def test_goal_that_is_not_an_inequality_is_rejected(op: str) -> None:
    """x = y (false at x = 0, y = 1) from 0 ≤ y and x² ≤ y²."""
    g = goal(["x", "y"], [rel("0", "<=", "x"), rel("x", "<=", "y")], rel("x", op, "y"))
    err = step_error(square(g, [with_target(g, rel("0", "<=", "y")), with_target(g, rel("x**2", "<=", "y**2"))]))
    assert err is not None and "inequalities only" in err


# ---------------------------------------------------------------- attacks: the context


def test_extra_hypothesis_in_a_subgoal_is_rejected() -> None:
    """x ≤ 1 (false at x = 2) from 0 ≤ 1 and x² ≤ 1 proved under an invented x² ≤ 1."""
    g = goal(["x"], [], rel("x", "<=", "1"))
    h = [rel("x**2", "<=", "1")]
    subs = [goal(["x"], h, rel("0", "<=", "1")), goal(["x"], h, rel("x**2", "<=", "1"))]
    err = step_error(square(g, subs))
    assert err is not None and "variables and hypotheses" in err
    root = square(g, subs, [close_positivity(subs[0]), close_sos(subs[1], [("1", [0], "1")])])
    assert not verdict_of(root, "square_extra_hyp").ok


def test_missing_or_changed_hypothesis_is_rejected() -> None:
    g1 = with_target(ROOTS, rel("0", "<=", "t3"))
    g2 = goal(ROOTS["variables"], ROOTS["hypotheses"][:-1], rel("(t1 + t2)**2", "<=", "t3**2"))
    assert step_error(square(ROOTS, [g1, g2])) is not None
    changed = list(ROOTS["hypotheses"])
    changed[7] = rel("t3**2", "=", "2*(a + b)")      # equivalent, but not literally the goal's
    g2 = goal(ROOTS["variables"], changed, rel("(t1 + t2)**2", "<=", "t3**2"))
    assert step_error(square(ROOTS, [g1, g2])) is not None


def test_other_variables_are_rejected() -> None:
    g = goal(["x"], [], rel("x", "<=", "x**2 + 1"))
    subs = [goal(["x", "y"], [], rel("0", "<=", "x**2 + 1")), goal(["x", "y"], [], rel("x**2", "<=", "(x**2 + 1)**2"))]
    assert step_error(square(g, subs)) is not None
    subs = [goal(["x"], [], rel("0", "<=", "x**2 + 1")), goal(["x"], [], rel("x**2", "<=", "(x**2 + 1)**2"))]
    assert step_error(square(g, subs)) is None


def test_certificate_with_fields_is_rejected() -> None:
    assert step_error(square(ROOTS, roots_step()["subgoals"], cert={"multiplier": "2"})) is not None
    bad = roots_step()
    bad["certificate"] = ["not", "an", "object"]
    assert step_error(bad) is not None


# ---------------------------------------------------------------- attacks: Lean's semantics


def test_root_squared_is_not_its_argument() -> None:
    """−x ≤ √x is false in Lean at x = −1 (√(−1) = 0). Squaring with √x² read as x would give
    x² ≤ x; the kernel keeps √x² as the square of an atom, so that step is refused, and the
    literal subgoal x² ≤ √x² is false at x = −1 too (so no proof of it exists)."""
    g = goal(["x"], [rel("x", "<=", "1")], rel("-x", "<=", "sqrt(x)"))
    sign = with_target(g, rel("0", "<=", "sqrt(x)"))
    err = step_error(square(g, [sign, with_target(g, rel("x**2", "<=", "x"))]))
    assert err is not None and "slack(G₂)" in err
    err = step_error(square(g, [sign, with_target(g, rel("(-x)**2", "<=", "x"))]))
    assert err is not None
    assert step_error(square(g, [sign, with_target(g, rel("(-x)**2", "<=", "sqrt(x)**2"))])) is None


def test_root_power_half_squared_is_not_its_argument() -> None:
    """The same with x**(1/2) (read as √x) and a root of a sum: √(x − 1)² is not x − 1."""
    g = goal(["x"], [], rel("1 - x", "<=", "x**(1/2)"))
    sign = with_target(g, rel("0", "<=", "sqrt(x)"))
    assert step_error(square(g, [sign, with_target(g, rel("(1 - x)**2", "<=", "x"))])) is not None
    g = goal(["x"], [], rel("0", "<=", "sqrt(x - 1)"))
    sign = with_target(g, rel("0", "<=", "sqrt(x - 1)"))
    assert step_error(square(g, [sign, with_target(g, rel("0", "<=", "x - 1"))])) is not None


def test_denominator_that_can_vanish_is_rejected() -> None:
    """1 ≤ x/x is false at x = 0 in Lean (0/0 = 0); as rational functions x/x = 1, so the subgoals
    0 ≤ 1 … would match: the denominator x must be proved nonzero. With x > 0 it is accepted."""
    target = rel("1", "<=", "x/x")
    subs = [rel("0", "<=", "1"), rel("0", "<=", "0")]
    g = goal(["x"], [], target)
    err = step_error(square(g, [with_target(g, s) for s in subs]))
    assert err is not None and "denominator" in err
    g = goal(["x"], [rel("x", ">", "0")], target)
    assert step_error(square(g, [with_target(g, s) for s in subs])) is None


def test_subgoal_denominator_that_can_vanish_is_rejected() -> None:
    """x ≤ √(x²)… with the sign subgoal written 0 ≤ √(x²)·(y/y): y/y needs y ≠ 0."""
    g = goal(["x", "y"], [], rel("x", "<=", "sqrt(x**2)"))
    subs = [with_target(g, rel("0", "<=", "sqrt(x**2)*(y/y)")), with_target(g, rel("x**2", "<=", "sqrt(x**2)**2"))]
    err = step_error(square(g, subs))
    assert err is not None and "denominator" in err


def test_false_statement_through_check_proof_is_rejected() -> None:
    """−x ≤ √x (false at x = −1) with the literal subgoals, each 'closed': the kernel refuses the
    square subgoal's certificate (x² ≤ √x² has no proof: √x² is an atom squared)."""
    g = goal(["x"], [rel("x", "<=", "1")], rel("-x", "<=", "sqrt(x)"))
    g1, g2 = with_target(g, rel("0", "<=", "sqrt(x)")), with_target(g, rel("(-x)**2", "<=", "sqrt(x)**2"))
    root = square(g, [g1, g2], [close_positivity(g1), close_sos(g2, [("1", [], "0")])])
    verdict = verdict_of(root, "square_sqrt_trap")
    assert not verdict.ok and all("root/1" in e for e in verdict.errors), verdict.errors
