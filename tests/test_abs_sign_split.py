"""Case splits on the sign of an ``|p|`` argument (``AbsSignSplit``) and strict goals whose
strictness comes from a strict hypothesis of any shape (``sos._strict_parts``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from prover.api import parse
from prover.ir import Goal, Proof
from prover.rewrite import AbsAsVariable, AbsSignSplit
from prover.solvers.sos import sos_certificate
from tests.solver_checks import proved_file_passes, tampered_fails

DATA = Path(__file__).parent / "data" / "abs_cases"


def _goal(statement: str) -> Goal:
    return Goal.from_problem(parse(f"theorem t {statement} := by sorry"))


def test_split_on_the_first_unsigned_argument() -> None:
    step = AbsSignSplit().apply(_goal("(x : ℝ) (h : |x - 1| < 2) : x < 3"))
    assert step is not None and step.certificate == {"cases": "sign", "expr": "x - 1"}
    added = [sg.hypotheses[-1] for sg in step.subgoals]
    assert [(str(r.lhs), r.op, r.rhs) for r in added] == [("x - 1", ">=", 0), ("x - 1", "<=", 0)]
    # in each case the argument's sign is known, so |x − 1| is named ±(x − 1)
    for sg, sign in zip(step.subgoals, (1, -1)):
        named = AbsAsVariable().apply(sg)
        assert named is not None
        last = named.subgoals[0].hypotheses[-1]
        x = sg.target.lhs
        assert last.op == "=" and sp.expand(last.rhs - sign * (x - 1)) == 0


def test_no_split_where_the_sign_is_known_or_there_is_no_abs() -> None:
    assert AbsSignSplit().apply(_goal("(x : ℝ) (h : 1 ≤ x) : |x - 1| ≥ x - 1")) is None
    assert not AbsSignSplit().accepts(_goal("(x : ℝ) (h : 1 ≤ x) : x ≥ 1"))


def test_splits_stop_after_the_bound() -> None:
    """Four unsigned arguments: three splits along a branch, then none (at most 2³ cases)."""
    g = _goal("(x y z : ℝ) : |x + y + z| ≤ |x| + |y| + |z|")
    depth = 0
    while (step := AbsSignSplit().apply(g)) is not None:
        g = step.subgoals[0]
        depth += 1
    assert depth == 3


def test_strict_goal_from_a_strict_hypothesis_of_any_shape() -> None:
    cert = sos_certificate(_goal("(x : ℝ) (h : x - 1 < 2) : x < 3"), 10)
    assert cert is not None and any(t["mult"] == [0] for t in cert["terms"])
    cert2 = sos_certificate(_goal("(x y : ℝ) (h : x < 2) (h2 : y ≤ 1) : x + y < 3"), 10)
    assert cert2 is not None


def test_no_strict_certificate_without_a_strict_reason() -> None:
    """``x ≤ 3 ⊢ x < 3`` is false at x = 3: the strict part must not come from a non-strict fact."""
    assert sos_certificate(_goal("(x : ℝ) (h : x ≤ 3) : x < 3"), 5) is None
    assert sos_certificate(_goal("(x : ℝ) (h : x - 1 < 2) : x < 2"), 5) is None


@pytest.mark.parametrize("statement", [
    "(x : ℝ) (h : |x - 1| < 2) : x < 2",          # false at x = 2.5
    "(x : ℝ) (h : |2 * x + 1| ≤ 3) : x ≥ -1",      # false at x = −2
    "(x y : ℝ) : |x + y| ≤ |x| + |y| - 1 / 100",   # false at 0
])
def test_false_statements_with_unsigned_abs_are_not_proved(statement: str) -> None:
    from prover.api import prove

    result = prove(f"theorem f {statement} := by sorry", time_limit=10)
    assert result.status != "proved"


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".proof.json") for p in DATA.glob("*.proof.json")))
def test_saved_split_proofs_check_render_and_replay(name: str) -> None:
    """Proofs found by ``prover eval`` on ``benchmarks/abs_cases`` (train families): kernel-checked,
    and their files pass the replay model (``rcases le_total 0 p``, then ``abs_of_nonneg``/
    ``abs_of_nonpos`` in each case). The user writes ``|-x + 4|`` and ``|2 * x|`` where sympy has
    ``|x - 4|`` and ``2 * |x|``: the hypothesis is copied in our printing and the substitution's
    target bridged (``abs_neg``, ``abs_mul``, ``abs_of_pos``); ``reverse_triangle_6`` squares our sides
    and carries the conclusion over to the user's by those bridges. ``abs_product_nonneg``
    (``0 ≤ x → 0 ≤ y → |x * y| = x * y``, from ``benchmarks/abs_signs``): sympy's ``|x| * |y|``
    named, its sign facts from ``abs_nonneg`` and ``t = x * y`` from ``abs_of_nonneg`` per factor."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    proof = Proof.loads((DATA / f"{name}.proof.json").read_text())
    assert check_proof(proof).ok
    if name.startswith("interval"):
        assert any(s.kind == "split" for s in proof.steps())
    text = render_proof(proof)
    assert replay_text(text).ok, text


@pytest.mark.parametrize(("user", "ours", "lemma"), [
    ("|-x + 4|", "|x - 4|", "abs_neg"),
    ("|2 * x|", "2 * |x|", "abs_mul"),
    ("|-3 * x + 3|", "3 * |x - 1|", "abs_neg"),
    ("|x / 2 - 1|", "(1 / 2) * |x - 2|", "abs_mul"),
])
def test_abs_atoms_written_otherwise_are_bridged_exactly(user: str, ours: str, lemma: str) -> None:
    """``user = ours`` follows from the bridge facts by ``ring`` in the replay model."""
    import itertools

    from prover.lean.render.atoms import Facts, bridge_facts, ring_closes
    from prover.lean.render.common import RenderContext

    facts = Facts(RenderContext([], itertools.count(1), None, "default"))
    bridges = bridge_facts(user, ours, ["x"], facts)
    assert bridges, (user, ours)
    assert any(lemma in line for line in facts.lines)
    assert ring_closes(user, ours, bridges, ["x"])


@pytest.mark.parametrize(("user", "ours"), [
    ("|x + 4|", "|x - 4|"),          # not ± the same argument
    ("|2 * x|", "3 * |x|"),          # the wrong factor
    ("|x ^ 2 - 1|", "|x - 1|"),      # not a constant multiple
])
def test_abs_atoms_that_differ_are_not_bridged(user: str, ours: str) -> None:
    import itertools

    from prover.lean.render.atoms import Facts, bridge_facts
    from prover.lean.render.common import RenderContext

    facts = Facts(RenderContext([], itertools.count(1), None, "default"))
    assert not bridge_facts(user, ours, ["x"], facts)


@pytest.mark.parametrize(("statement", "lemma"), [
    ("abs ((3 : ℝ) / 4 * 8 - 10) = 4", "abs_of_neg"),
    ("|(7 : ℝ) - 2 * 2| = 3", "abs_of_nonneg"),
])
def test_the_absolute_value_of_a_numeral_expression_renders_by_its_sign(statement: str, lemma: str) -> None:
    """``|c|`` of a closed rational expression is an atom to ``ring``: the file states ``|c| = ±c`` by
    ``abs_of_nonneg``/``abs_of_neg`` with the sign by ``linarith``, ascribed ``: ℝ`` (numerals alone
    would elaborate at ℕ, where ``|·|`` does not exist); the other lemma, or no ascription, fails."""
    text = proved_file_passes(f"theorem t : {statement} := by sorry", f":= {lemma} (by linarith)")
    other = "abs_of_nonneg" if lemma == "abs_of_neg" else "abs_of_neg"
    assert tampered_fails(text, f":= {lemma} ", f":= {other} ")
    assert tampered_fails(text, " : ℝ)", ")")


def test_a_hypothesis_written_with_abs_of_another_order_is_bridged_first() -> None:
    """The user's ``abs (5 + 2 * x)`` (the function, not the bars) is another atom to ``ring`` than our
    ``|2 * x + 5|``: the root states a copy of the hypothesis in our printing (``congrArg abs`` of a
    ``ring`` identity) before the proof uses it; using the user's hypothesis directly fails."""
    text = proved_file_passes("theorem t (x : ℝ) (h₀ : 1 / 3 * abs (5 + 2 * x) < 1) : x < -1 := by sorry",
                              "|5 + 2 * x| = |2 * x + 5| := congrArg abs")
    copy = next(line.split()[1] for line in text.splitlines() if line.strip().startswith("have hatom"))
    body = text.split(f"have {copy} :")[1].split("\n", 1)[1]
    assert tampered_fails(text, body, body.replace(copy, "h₀"))
