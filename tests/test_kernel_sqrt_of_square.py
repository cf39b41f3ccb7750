"""The kernel's fact ``t = Y`` for ``t := √(Y ^ 2)`` where ``Y >= 0`` is proved (``t = −Y`` where
``Y <= 0`` is): Mathlib ``Real.sqrt_sq`` (``abs_of_nonpos`` after ``Real.sqrt_sq_eq_abs``).

Each attack asks the kernel to accept a subgoal hypothesis ``t = ±Y`` without a proof, where the
fact does not hold in Lean (no sign of ``Y``, the other sign, a sign of something else, a root
that is not of a square); the controls are the honest uses (``|x| = x`` from ``0 ≤ x``)."""

from __future__ import annotations

import pytest

from prover.fuzz.kernel_trees import step
from tests.test_kernel_attacks import close_sos, goal, kernel_verdict, proof_doc, rel


def _introduce(hyps: list[dict], definition: str, claim: dict, target: dict) -> dict:
    """``introduce t := definition`` whose subgoal states ``claim`` with no proof of it and
    proves ``target`` from it (``target`` is ``t − Y = 0``-shaped: closed by the claim alone)."""
    g = goal(["x", "y"], hyps, target)
    sub_target = {**target, "lhs": target["lhs"].replace("sqrt(x**2)", "t")}
    sub = goal(["x", "y", "t"], [*hyps, claim], sub_target)
    n = len(hyps)
    leaf = close_sos(sub, [], [(n, "1")])
    return proof_doc(step("introduce", g, [sub], {"definitions": {"t": definition}}, [leaf]), "sqrt_sq")


@pytest.mark.parametrize(("hyps", "claim", "target"), [
    ([rel("x", ">=", "0")], rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    ([rel("x", ">", "0")], rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    ([rel("x", "<=", "0")], rel("t", "=", "-x"), rel("sqrt(x**2) + x", "=", "0")),
])
def test_honest_sqrt_of_a_square_is_accepted(hyps: list[dict], claim: dict, target: dict) -> None:
    ok, why = kernel_verdict(_introduce(hyps, "sqrt(x**2)", claim, target))
    assert ok, why


@pytest.mark.parametrize(("hyps", "definition", "claim", "target"), [
    # no sign of x: √(x²) = |x|, not x (false at x = −1)
    ([], "sqrt(x**2)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # the other sign
    ([rel("x", ">=", "0")], "sqrt(x**2)", rel("t", "=", "-x"), rel("sqrt(x**2) + x", "=", "0")),
    ([rel("x", "<=", "0")], "sqrt(x**2)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # a sign of another variable
    ([rel("y", ">=", "0")], "sqrt(x**2)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # a bound that is not a sign
    ([rel("x", ">=", "-1")], "sqrt(x**2)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # a root that is not of a square: √x is not x for x >= 0
    ([rel("x", ">=", "0")], "sqrt(x)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # a fourth power: √(x⁴) = x², not x
    ([rel("x", ">=", "0")], "sqrt(x**4)", rel("t", "=", "x"), rel("sqrt(x**2) - x", "=", "0")),
    # the square of a sum with only one part signed
    ([rel("x", ">=", "0")], "sqrt((x + y)**2)", rel("t", "=", "x + y"), rel("sqrt(x**2) - x", "=", "0")),
])
def test_unfounded_sqrt_of_a_square_is_rejected(hyps: list[dict], definition: str, claim: dict,
                                                target: dict) -> None:
    ok, why = kernel_verdict(_introduce(hyps, definition, claim, target))
    assert not ok, f"accepted {claim} for t := {definition} under {hyps}"
    assert "no proof" in why or "not" in why


def test_the_new_fact_comes_after_every_definitions_facts() -> None:
    """Indices of the facts of other definitions do not move (saved certificates cite them)."""
    from prover.ir import Goal
    from prover.kernel.check import introduce_facts

    g = Goal.from_json(goal(["x", "y"], [rel("x", ">=", "0"), rel("y", ">=", "0")], rel("x", ">=", "0")))
    facts = introduce_facts(g, {"t": "sqrt(x**2)", "u": "sqrt(y)"})
    from prover.kernel import terms as T

    assert len(facts) == 9 and facts[-2] == T.Rel(T.Pow(T.Var("u"), 2), "=", T.Var("y"))
    assert facts[-1] == T.Rel(T.Var("t"), "=", T.Var("x"))


@pytest.mark.parametrize("name", ["abs_of_nonneg", "abs_of_nonpos", "triangle_nonneg", "abs_ge_self_nonneg",
                                  "amgm_with_one"])
def test_saved_abs_proofs_check_render_and_replay(name: str) -> None:
    """Proofs found by ``prover prove`` (``0 ≤ x → |x| = x``, ``x ≤ 0 → |x| = -x``, the triangle
    inequality, ``|x| ≥ x`` under ``0 ≤ x``, ``|x| + 1 ≥ 2√x``): kernel-checked, and their files
    pass the replay model (``abs_of_nonneg``/``abs_of_nonpos``; ``abs_nonneg`` facts before
    ``positivity``, whose ``|a|`` extension fails on an ``a`` known only nonnegative; the last one's
    ``tangent_sqrt`` at ``t = 1`` leaves ``√1`` under a division, bridged by ``√1 = 1`` inside a
    field identity: ``ring`` keeps ``√1 · (√1)⁻¹``)."""
    from pathlib import Path

    from prover.ir import Proof
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    proof = Proof.loads((Path(__file__).parent / "data" / "abs_sign" / f"{name}.proof.json").read_text())
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert replay_text(text).ok, text


def test_the_false_variant_is_not_proved() -> None:
    from prover.api import prove

    result = prove("theorem f (x : ℝ) (hx : 0 ≤ x) : |x| = -x := by sorry", time_limit=10)
    assert result.status != "proved"
