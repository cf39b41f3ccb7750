"""``Real.logb b x`` (Mathlib: ``Real.log x / Real.log b``, base first): read as that quotient,
logarithms of one base related, ``log X > 0`` / ``< 0`` facts, and the Lean file bridges the user's
``Real.logb`` atoms to ours by ``Real.log_div_log``."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from prover.api import prove
from prover.frontend import ParseError, parse_theorem
from prover.ir import Goal
from prover.kernel import terms as T
from prover.kernel.check import Kernel, KernelError, introduce_facts
from prover.problem import Relation, var
from prover.problem import log as lean_log
from prover.rewrite.transcendental import ExpLogAsVariables

x = var("x")


def _goal(text: str) -> Goal:
    return Goal.from_problem(parse_theorem(text))


@pytest.mark.parametrize("text, value", [
    ("theorem t (x : ℝ) : Real.logb 2 x = 0 := by sorry", lean_log(x) / lean_log(2)),
    ("theorem t (x : ℝ) : Real.logb (-2) x = 0 := by sorry", lean_log(x) / lean_log(2)),   # log |−2|
    ("theorem t (x : ℝ) : Real.logb 2 x ^ 2 = 0 := by sorry", (lean_log(x) / lean_log(2)) ** 2),
    ("theorem t (x : ℝ) : Real.logb x 2 = 0 := by sorry", lean_log(2) / lean_log(x)),      # base first
    ("namespace Real\ntheorem t (x : ℝ) : logb 2 x = 0 := by sorry\nend Real", lean_log(x) / lean_log(2)),
])
def test_read_as_the_quotient_of_logarithms(text: str, value: sp.Expr) -> None:
    p = parse_theorem(text)
    assert sp.simplify(p.goal.lhs - value) == 0


@pytest.mark.parametrize("text, needle", [
    ("open Real\ntheorem t (x : ℝ) : logb 2 x = 0 := by sorry", "logb"),         # may be another logb
    ("namespace Foo\ntheorem t (x : ℝ) : Real.logb 2 x = 0 := by sorry\nend Foo", "Real.logb"),
    ("theorem t (x : ℝ) : Real.logb 2 = 0 := by sorry", "1 of its 2 arguments"),
    ("theorem t (x : ℝ) : Real.logb 2 -x = 0 := by sorry", "subtraction"),
    # base 0, 1, -1: `Real.log b = 0`, a division by zero (Lean's value 0); under `√` it crashed
    ("theorem t (x : ℝ) : Real.logb 1 x = 0 := by sorry", "base 0, 1 or -1"),
    ("theorem t : Real.sqrt (Real.logb 1 1) = 0 := by sorry", "base 0, 1 or -1"),
    ("theorem t : |Real.logb 1 0| > 0 := by sorry", "base 0, 1 or -1"),
    ("theorem t : Real.logb 0 1 ^ (5 / (2 : ℝ)) < 3 := by sorry", "base 0, 1 or -1"),
    ("theorem t : Real.logb (-1) 2 > 0 := by sorry", "base 0, 1 or -1"),
    ("theorem t (x : ℝ) : Real.logb 2 Real.log x = 0 := by sorry", "parentheses"),
])
def test_refused_in_one_line(text: str, needle: str) -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_logarithms_of_one_base_are_related() -> None:
    """``log 8 = 3·log 2`` and ``log (b²) = 2·log b``: kernel identities the step states; a wrong
    multiple is refused."""
    step = ExpLogAsVariables().apply(_goal(
        "theorem t (b : ℝ) (h : 0 < b) : Real.logb 8 (b ^ 2) = Real.logb 2 b := by sorry"))
    Kernel().check_one(step)
    texts = {f"{r.lhs} = {r.rhs}" for r in step.subgoals[0].hypotheses if r.op == "="}
    assert any("3*" in t for t in texts) and any("2*" in t for t in texts)
    sub = step.subgoals[0]
    bad = [Relation(r.lhs, "=", r.rhs * 2) if r.op == "=" and "3*" in str(r.rhs) else r for r in sub.hypotheses]
    with pytest.raises(KernelError):
        Kernel().check_one(dataclasses.replace(step, subgoals=[Goal(sub.variables, tuple(bad), sub.target)]))


def test_sign_facts_only_under_strict_bounds() -> None:
    """``log X > 0`` needs ``X − 1 > 0`` proved (``Real.log_pos``), ``log X < 0`` needs ``0 < X`` and
    ``1 − X > 0`` (``Real.log_neg``); ``1 ≤ x`` or ``x < 1`` alone give no sign."""
    def signs(text: str) -> list[str]:
        return [f.op for f in introduce_facts(_goal(text), {"u": "log(x)"}) if f.rhs == T.ZERO]
    assert ">" in signs("theorem t (x : ℝ) (h : 1 < x) : Real.log x > 0 := by sorry")
    assert "<" in signs("theorem t (x : ℝ) (h : 0 < x) (h2 : x < 1) : Real.log x < 0 := by sorry")
    assert signs("theorem t (x : ℝ) (h : 1 ≤ x) : Real.log x ≥ 0 := by sorry") == []
    assert signs("theorem t (x : ℝ) (h : x < 1) : Real.log x < 0 := by sorry") == []   # log (−1/2) < 0, log (−3) > 0


@pytest.mark.parametrize("text", [
    "theorem t : Real.logb (3 ^ 2) (3 ^ 6) = 3 := by sorry",
    "theorem t (b : ℝ) (h : 0 < b) : Real.logb 9 (b ^ 2) = Real.logb 3 b := by sorry",
    "theorem t (x : ℝ) (h : 1 < x) : Real.logb 3 x > 0 := by sorry",
    ("theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) (h : Real.logb 3 x + Real.logb 3 y = 2) : "
     "Real.logb 3 (x ^ 3) + Real.logb 3 (y ^ 3) = 6 := by sorry"),
])
def test_proved_and_the_file_replays(text: str) -> None:
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    res = prove(text, time_limit=60)
    assert res.status == "proved"
    rendered = render_proof(res.proof)
    assert "Real.log_div_log" in rendered
    assert replay_text(rendered).ok, replay_text(rendered).summary()


def test_the_bridge_is_needed() -> None:
    """Without the ``Real.log_div_log`` fact the user's ``Real.logb`` atom is not our quotient."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    res = prove("theorem t (x : ℝ) (h : 1 < x) : Real.logb 3 x > 0 := by sorry", time_limit=60)
    text = render_proof(res.proof)
    line = next(ln for ln in text.splitlines() if "Real.log_div_log" in ln)
    assert not replay_text(text.replace(line, line.replace("Real.log_div_log.symm", "sorry"))).ok


@pytest.mark.parametrize("text", [
    "theorem t (x : ℝ) : Real.logb 2 x > 0 := by sorry",                   # x = 1/2
    "theorem t (x : ℝ) (h : 0 < x) : Real.logb 2 x < x - 1 := by sorry",   # x = 1: 0 < 0
    "theorem t (x : ℝ) (h : 1 < x) : Real.logb x 2 < 0 := by sorry",       # the base first
])
def test_false_statements_not_proved(text: str) -> None:
    assert prove(text, time_limit=10).status != "proved"


def test_the_logb_pi_suite_is_read() -> None:
    """Every train statement of ``benchmarks/logb_pi`` is read by the front-end (they were all
    refused before ``Real.logb``/``Real.pi`` were read)."""
    import json
    from pathlib import Path

    rows = [json.loads(line) for line in
            (Path(__file__).parent.parent / "benchmarks/logb_pi/logb_pi_train.jsonl").read_text().splitlines()]
    assert len(rows) >= 50
    for row in rows:
        parse_theorem(row["lean"])


def test_a_constant_factor_is_divided_out_before_the_peel() -> None:
    """``Real.logb 2 x ≤ Real.logb 2 y`` is ``log x · (log 2)⁻¹ ≤ log y · (log 2)⁻¹``: divided by the
    positive ``(log 2)⁻¹`` (a ``rewrite``, the kernel proves ``log 2 > 0``), then peeled; base ``1/2``
    flips the relation (``log (1/2) < 0``); a factor of unknown sign (``log b``) is not divided out."""
    from prover.rewrite.monotone import common_factor_step

    step = common_factor_step(_goal("theorem t (x y : ℝ) (hx : 0 < x) (h : x ≤ y) : "
                                    "Real.logb 2 x ≤ Real.logb 2 y := by sorry"))
    Kernel().check_one(step)
    assert step.subgoals[0].target == Relation(lean_log(x), "<=", lean_log(var("y")))
    step = common_factor_step(_goal("theorem t (x y : ℝ) (hx : 0 < x) (h : x ≤ y) : "
                                    "Real.logb (1 / 2) y ≤ Real.logb (1 / 2) x := by sorry"))
    Kernel().check_one(step)
    assert step.subgoals[0].target == Relation(lean_log(x), "<=", lean_log(var("y")))
    assert common_factor_step(_goal("theorem t (x y b : ℝ) (hx : 0 < x) (h : x ≤ y) : "
                                    "Real.logb b x ≤ Real.logb b y := by sorry")) is None
    forged = dataclasses.replace(step, subgoals=[step.subgoals[0].with_target(
        Relation(lean_log(var("y")), "<=", lean_log(x)))])
    with pytest.raises(KernelError):
        Kernel().check_one(forged)


@pytest.mark.parametrize("expr, strict, expected", [
    (lean_log(2), True, True), (lean_log(8) / 3, True, True), (1 / lean_log(10), True, True),
    (lean_log(sp.Rational(1, 2)), False, False), (-lean_log(sp.Rational(1, 2)), True, True),
    (lean_log(x), False, False), (lean_log(1 + x ** 2), True, False),
])
def test_the_logarithm_of_an_integer_above_one_is_positive(expr, strict: bool, expected: bool) -> None:
    from prover.verify import prove_positive

    assert prove_positive(expr, [], strict) is expected


@pytest.mark.parametrize("text", [
    "theorem t : Real.logb 3 10 > 2 := by sorry",        # 10 > 9
    "theorem t : Real.logb 2 10 < 4 := by sorry",        # 10 < 16
    "theorem t : Real.logb 10 3 > 0.4 := by sorry",      # 3¹⁰ > 10⁴ (a decimal in the statement)
])
def test_logarithms_of_numerals_compared_as_one(text: str) -> None:
    """``Σ cₚ·log p ⋈ 0`` over primes is ``log Q ⋈ 0`` (``Q = Π p^(k·cₚ)``), a rewrite by an
    identity of the kernel's normal form; then ``Real.log_pos``/``log_neg`` decide. The Lean file
    (numerals split into primes by ``Real.log_mul``/``log_div``/``log_pow``) passes the replay model."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.rewrite.transcendental import numeral_log_step

    step = numeral_log_step(_goal(text))
    Kernel().check_one(step)
    sub = step.subgoals[0]
    forged = dataclasses.replace(step, subgoals=[sub.with_target(Relation(lean_log(sub.target.lhs.args[0] * 2),
                                                                          sub.target.op, 0))])
    with pytest.raises(KernelError):
        Kernel().check_one(forged)
    res = prove(text, time_limit=60)
    assert res.status == "proved"
    assert replay_text(render_proof(res.proof)).ok


def test_a_false_comparison_of_numerals_is_not_proved() -> None:
    assert prove("theorem t : Real.logb 3 10 < 2 := by sorry", time_limit=10).status != "proved"
