"""The kernel's ``monotone`` rule: ``f(a) <= f(b)`` from ``a <= b`` (and ``0 <= a`` where needed).

``f`` is ``Real.sqrt`` (monotone on all of ℝ in Lean: ``√`` of a negative is 0; the strict form
needs ``0 <= a``) or ``x ↦ x ^ r`` (``Real.rpow``, rational ``r > 0`` not an integer; both forms
need ``0 <= a``). The goal's sides must equal ``f(a)``/``f(b)`` as exact identities over atoms;
the subgoals have the goal's variables and hypotheses literally. Honest steps are accepted; every
attack below is a step (or a whole proof of a statement false in Lean) the kernel must reject.
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


def with_target(g: dict, target: dict) -> dict:
    return goal(g["variables"], g["hypotheses"], target)


def sqrt_cert(small: str, big: str) -> dict:
    return {"function": "sqrt", "small": small, "big": big}


def rpow_cert(small: str, big: str, r: str) -> dict:
    return {"function": "rpow", "small": small, "big": big, "exponent": r}


def mono(g: dict, subgoals: list[dict], cert: dict, children: list[dict] = ()) -> dict:
    return step("monotone", g, subgoals, cert, list(children))


def step_error(s: dict) -> str | None:
    try:
        Kernel().check_one(s)
    except KernelError as exc:
        return str(exc)
    return None


def verdict_of(root: dict, name: str):
    return check_proof(json.loads(json.dumps(proof_document(root, name))))


POS = [rel("p", ">", "0"), rel("q", ">", "0"), rel("r", ">", "0")]
#: titu: √(p²/q + q²/r) >= √((p+q)²/(q+r)), the right side as sympy writes it
TITU = goal(["p", "q", "r"], POS, rel("sqrt(p**2/q + q**2/r)", ">=", "sqrt(1/(q + r))*Abs(p + q)"))
TITU_A, TITU_B = "(p + q)**2/(q + r)", "p**2/q + q**2/r"


def titu_step(order: dict | None = None, cert: dict | None = None, extra: list[dict] = ()) -> dict:
    return mono(TITU, [with_target(TITU, order or rel(TITU_A, "<=", TITU_B)), *extra],
                cert or sqrt_cert(TITU_A, TITU_B))


# ---------------------------------------------------------------- honest steps


@pytest.mark.parametrize("order", [
    None,
    rel(TITU_B, ">=", TITU_A),
    rel("0", "<=", f"{TITU_B} - ({TITU_A})"),
    rel(TITU_A, "<", TITU_B),            # a stronger (strict) subgoal proves a non-strict goal
])
def test_sqrt_honest(order):
    assert step_error(titu_step(order)) is None


def test_sqrt_literal_and_strict():
    g = goal(["x", "y"], [rel("x", ">=", "0")], rel("sqrt(x)", "<", "sqrt(y)"))
    s = mono(g, [with_target(g, rel("x", "<", "y")), with_target(g, rel("0", "<=", "x"))], sqrt_cert("x", "y"))
    assert step_error(s) is None
    # √2 ≤ √(t): a constant side
    g2 = goal(["t"], [], rel("sqrt(2)", "<=", "sqrt(t)"))
    assert step_error(mono(g2, [with_target(g2, rel("2", "<=", "t"))], sqrt_cert("2", "t"))) is None


def test_sqrt_nonstrict_needs_no_sign():
    """√ is monotone on all of ℝ in Lean: √(−1) ≤ √0 holds (0 ≤ 0), no 0 ≤ a needed."""
    g = goal(["x", "y"], [], rel("sqrt(x)", "<=", "sqrt(y)"))
    assert step_error(mono(g, [with_target(g, rel("x", "<=", "y"))], sqrt_cert("x", "y"))) is None


def test_rpow_honest():
    g = goal(["x", "y"], [rel("x", ">", "0"), rel("y", ">", "0")],
             rel("((x + y)**4)**(1/3)", "<=", "(8*x**4 + 8*y**4)**(1/3)"))
    s = mono(g, [with_target(g, rel("(x + y)**4", "<=", "8*x**4 + 8*y**4")),
                 with_target(g, rel("0", "<=", "(x + y)**4"))], rpow_cert("(x + y)**4", "8*(x**4 + y**4)", "1/3"))
    assert step_error(s) is None
    # the side as sympy writes it, |x + y|^(4/3), is the same atom value ((x+y)^4)^(1/3)
    g2 = with_target(g, rel("Abs(x + y)**(4/3)", "<=", "(8*x**4 + 8*y**4)**(1/3)"))
    s2 = mono(g2, [with_target(g2, rel("(x + y)**4", "<=", "8*x**4 + 8*y**4")),
                   with_target(g2, rel("0", "<=", "(x + y)**4"))], rpow_cert("(x + y)**4", "8*(x**4 + y**4)", "1/3"))
    assert step_error(s2) is None
    strict = with_target(g, rel("x**(2/3)", "<", "y**(2/3)"))
    s3 = mono(strict, [with_target(strict, rel("x", "<", "y")), with_target(strict, rel("x", ">=", "0"))],
              rpow_cert("x", "y", "2/3"))
    assert step_error(s3) is None


def test_whole_proof_accepted():
    g = goal(["x", "y"], [rel("x", ">=", "0")], rel("sqrt(x**2 + y**2)", ">=", "sqrt(x**2)"))
    sub = with_target(g, rel("x**2", "<=", "x**2 + y**2"))
    close = step("close", sub, [], {"method": "sos", "eq_terms": [],
                                    "terms": [{"coeff": "1", "mult": [], "poly": "y"}]}, [])
    v = verdict_of(mono(g, [sub], sqrt_cert("x**2", "x**2 + y**2"), [close]), "peel")
    assert v.ok, v.errors


# ---------------------------------------------------------------- attacks


def test_strict_sqrt_needs_sign():
    """√(−1) < √0 is false (both 0): a strict √ goal from a < b alone is refused."""
    g = goal(["x", "y"], [], rel("sqrt(x)", "<", "sqrt(y)"))
    err = step_error(mono(g, [with_target(g, rel("x", "<", "y"))], sqrt_cert("x", "y")))
    assert err and "exactly 2 subgoal" in err
    # and a whole proof of √(−1) < √0 fails at the sign subgoal 0 ≤ −1
    g0 = goal([], [], rel("sqrt(-1)", "<", "sqrt(0)"))
    order = with_target(g0, rel("-1", "<", "0"))
    sign = with_target(g0, rel("0", "<=", "-1"))
    root = mono(g0, [order, sign], sqrt_cert("-1", "0"),
                [step("close", order, [], {"method": "positivity"}, []),
                 step("close", sign, [], {"method": "positivity"}, [])])
    assert not verdict_of(root, "false_sqrt").ok


def test_strict_goal_needs_strict_order():
    g = goal(["x", "y"], [rel("x", ">=", "0")], rel("sqrt(x)", "<", "sqrt(y)"))
    err = step_error(mono(g, [with_target(g, rel("x", "<=", "y")), with_target(g, rel("0", "<=", "x"))],
                          sqrt_cert("x", "y")))
    assert err and "strict" in err


def test_rpow_needs_sign():
    """rpow of a negative base is not monotone: (−8)^(1/3) (Mathlib: 2·cos(π/3) = 1) vs 1^(1/3) = 1,
    and (−1)^(1/2)… — a rpow step without 0 ≤ a is refused, with it the sign subgoal fails."""
    g = goal(["x", "y"], [], rel("x**(1/3)", "<=", "y**(1/3)"))
    err = step_error(mono(g, [with_target(g, rel("x", "<=", "y"))], rpow_cert("x", "y", "1/3")))
    assert err and "exactly 2 subgoal" in err
    g0 = goal([], [], rel("(-8)**(1/3)", "<=", "0**(1/3)"))
    order = with_target(g0, rel("-8", "<=", "0"))
    sign = with_target(g0, rel("0", "<=", "-8"))
    root = mono(g0, [order, sign], rpow_cert("-8", "0", "1/3"),
                [step("close", order, [], {"method": "positivity"}, []),
                 step("close", sign, [], {"method": "positivity"}, [])])
    assert not verdict_of(root, "false_rpow").ok


@pytest.mark.parametrize("r", ["-1/3", "0", "-1/2", "2", "-2"])
def test_nonpositive_or_integer_exponent(r):
    """x ↦ x^r is antitone for r < 0 (1 ≤ 2 but 1 ≥ 2^(−1/3)); r = 0 constant; integers are not rpow."""
    g = goal(["x", "y"], [rel("x", ">", "0")], rel(f"x**({r})", "<=", f"y**({r})"))
    err = step_error(mono(g, [with_target(g, rel("x", "<=", "y")), with_target(g, rel("0", "<=", "x"))],
                          rpow_cert("x", "y", r)))
    assert err is not None


def test_symbolic_exponent_refused():
    g = goal(["x", "y", "s"], [rel("x", ">", "0")], rel("x**s", "<=", "y**s"))
    err = step_error(mono(g, [with_target(g, rel("x", "<=", "y")), with_target(g, rel("0", "<=", "x"))],
                          rpow_cert("x", "y", "s")))
    assert err is not None


def test_different_functions_or_exponents():
    g = goal(["x", "y"], [rel("x", ">", "0")], rel("sqrt(x)", "<=", "y**(1/3)"))
    for cert in (sqrt_cert("x", "y"), rpow_cert("x", "y", "1/3"), rpow_cert("x", "y", "1/2")):
        subs = [with_target(g, rel("x", "<=", "y"))]
        if cert["function"] == "rpow":
            subs.append(with_target(g, rel("0", "<=", "x")))
        assert step_error(mono(g, subs, cert)) is not None
    g2 = goal(["x", "y"], [rel("x", ">", "0")], rel("x**(1/3)", "<=", "y**(2/3)"))
    for r in ("1/3", "2/3"):
        s = mono(g2, [with_target(g2, rel("x", "<=", "y")), with_target(g2, rel("0", "<=", "x"))],
                 rpow_cert("x", "y", r))
        assert step_error(s) is not None


def test_swapped_arguments():
    """√x ≤ √y from y ≤ x (a and b swapped) — refused."""
    g = goal(["x", "y"], [], rel("sqrt(x)", "<=", "sqrt(y)"))
    assert step_error(mono(g, [with_target(g, rel("y", "<=", "x"))], sqrt_cert("y", "x"))) is not None
    assert step_error(mono(g, [with_target(g, rel("y", "<=", "x"))], sqrt_cert("x", "y"))) is not None
    assert step_error(mono(g, [with_target(g, rel("x", "<=", "y"))], sqrt_cert("y", "x"))) is not None


@pytest.mark.parametrize("target", [
    rel("sqrt(x) + 1", "<=", "sqrt(y)"),      # a side that is not f(·)
    rel("2*sqrt(x)", "<=", "sqrt(y)"),
    rel("sqrt(x)", "<=", "sqrt(y) - 1"),
    rel("x", "<=", "y"),
    rel("sqrt(x)**2", "<=", "sqrt(y)**2"),
    rel("sqrt(x)", "=", "sqrt(y)"),           # not an inequality
])
def test_side_not_f(target):
    g = goal(["x", "y"], [], target)
    assert step_error(mono(g, [with_target(g, rel("x", "<=", "y"))], sqrt_cert("x", "y"))) is not None


def test_subgoal_context_and_shape():
    g = goal(["x", "y"], [rel("x", ">=", "0")], rel("sqrt(x)", "<=", "sqrt(y)"))
    # a subgoal with a hypothesis that G does not have
    bad = goal(["x", "y"], [rel("x", ">=", "0"), rel("y", ">=", "x")], rel("x", "<=", "y"))
    assert step_error(mono(g, [bad], sqrt_cert("x", "y"))) is not None
    # other variables
    other = goal(["x", "y", "z"], [rel("x", ">=", "0")], rel("x", "<=", "y"))
    assert step_error(mono(g, [other], sqrt_cert("x", "y"))) is not None
    # an = or != subgoal, an extra or missing subgoal
    assert step_error(mono(g, [with_target(g, rel("x", "=", "y"))], sqrt_cert("x", "y"))) is not None
    assert step_error(mono(g, [], sqrt_cert("x", "y"))) is not None
    assert step_error(mono(g, [with_target(g, rel("x", "<=", "y"))] * 2, sqrt_cert("x", "y"))) is not None
    # a wrong sign subgoal for a strict/rpow goal: slack must be a, not b
    gs = goal(["x", "y"], [rel("x", ">=", "0")], rel("x**(1/3)", "<=", "y**(1/3)"))
    err = step_error(mono(gs, [with_target(gs, rel("x", "<=", "y")), with_target(gs, rel("0", "<=", "y"))],
                          rpow_cert("x", "y", "1/3")))
    assert err is not None
    # the order subgoal off by a constant
    assert step_error(mono(g, [with_target(g, rel("x", "<=", "y + 1"))], sqrt_cert("x", "y"))) is not None


def test_certificate_shape():
    g = goal(["x", "y"], [], rel("sqrt(x)", "<=", "sqrt(y)"))
    sub = [with_target(g, rel("x", "<=", "y"))]
    for cert in ({"function": "exp", "small": "x", "big": "y"},
                 {"function": "sqrt", "small": "x", "big": "y", "exponent": "1/2"},
                 {"function": "rpow", "small": "x", "big": "y"},
                 {"function": "sqrt", "small": "x", "big": "y", "factor": "1"},
                 {"function": "sqrt", "small": "x"},
                 {"function": "sqrt", "small": "x", "big": "z"},          # not a variable of G
                 {"function": "sqrt", "small": "x", "big": "y.__class__"}):
        assert step_error(mono(g, sub, cert)) is not None


def test_denominator_may_vanish():
    """√(x/x) ≤ √1 reads as 1 ≤ 1 only where x ≠ 0 (Lean: √(0/0) = 0): denominators must be proved nonzero."""
    g = goal(["x"], [], rel("sqrt(x/x)", "<=", "sqrt(1)"))
    err = step_error(mono(g, [with_target(g, rel("1", "<=", "1"))], sqrt_cert("1", "1")))
    assert err is not None


def test_false_titu_variant_not_provable():
    """√(p²/q + q²/r) ≥ √(2(p+q)²/(q+r)) is false; the step is accepted, its subgoal is false, and a
    close of it is refused."""
    g = goal(["p", "q", "r"], POS, rel("sqrt(p**2/q + q**2/r)", ">=", "sqrt(2*(p + q)**2/(q + r))"))
    sub = with_target(g, rel("2*(p + q)**2/(q + r)", "<=", TITU_B))
    s = mono(g, [sub], sqrt_cert("2*(p + q)**2/(q + r)", TITU_B),
             [step("close", sub, [], {"method": "positivity"}, [])])
    assert not verdict_of(s, "false_titu").ok
