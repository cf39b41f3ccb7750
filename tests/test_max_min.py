"""``max a b`` / ``min a b`` (issue #28): read as ``(a + b ± |a − b|) / 2`` (exact on a linear
order), names resolved as Lean does, checked against the independent evaluator, proved, and
rendered with the identity proved by cases in the file."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import sympy as sp

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.ir import Proof
from prover.problem import var
from prover.semantics.fuzz_frontend import run_fuzz

x, y = var("x"), var("y")
DATA = Path(__file__).parent / "data" / "max_min"


def _refusal(text: str, name: str | None = None) -> str:
    with pytest.raises(ParseError) as ei:
        parse_theorem(text, name=name) if name else parse_theorem(text)
    msg = str(ei.value)
    assert "\n" not in msg and msg.strip()
    return msg


def test_read_as_the_mean_plus_or_minus_half_the_gap() -> None:
    p = parse_theorem("theorem t (x y : ℝ) : max x y ≥ min x y := by sorry")
    assert sp.simplify(p.goal.lhs - (x + y + sp.Abs(x - y)) / 2) == 0
    assert sp.simplify(p.goal.rhs - (x + y - sp.Abs(x - y)) / 2) == 0
    # application binds tighter than ^ and -: (max x y) ^ 2, -(min x y)
    p = parse_theorem("theorem t (x y : ℝ) : max x y ^ 2 ≥ -min x 1 := by sorry")
    assert sp.simplify(p.goal.lhs - ((x + y + sp.Abs(x - y)) / 2) ** 2) == 0


@pytest.mark.parametrize("text, why", [
    ("theorem t (a : ℝ) : max a ≥ 0 := by sorry", "1 of its 2 arguments"),
    ("theorem t (a b : ℝ) : max(a, b) ≥ 0 := by sorry", "space"),
    ("theorem t (a b : ℝ) : max a -b ≥ 0 := by sorry", "subtraction"),
    ("theorem t (a b : ℝ) : Max.max a b ≥ 0 := by sorry", "cannot resolve"),
    ("theorem t (a : ℝ) : a ^ max 1 2 ≥ 0 := by sorry", "outside ℝ"),
    ("theorem t (max : ℝ) : max ≥ 0 := by sorry", "variable name `max`"),
    ("theorem t (x : ℝ) (min : 0 < x) : min x 1 ≥ 0 := by sorry", "shadow"),
])
def test_refused_with_one_line(text: str, why: str) -> None:
    assert why in _refusal(text)


@pytest.mark.parametrize("text, why", [
    ("theorem max (x : ℝ) : x = x := by sorry\ntheorem t (x : ℝ) : max x 1 ≥ 1 := by sorry", "declared earlier"),
    ("namespace Foo\ntheorem t (x : ℝ) : max x 1 ≥ 1 := by sorry\nend Foo", "cannot resolve"),
])
def test_names_refused_where_lean_may_read_something_else(text: str, why: str) -> None:
    assert why in _refusal(text, name="t")


def test_protected_namespace_versions_do_not_interfere() -> None:
    """``Nat.max``, ``Finset.max`` are protected: ``open Nat Finset`` leaves the root ``max``."""
    p = parse_theorem("open Nat Finset\ntheorem t (x : ℝ) : max x 1 ≥ 1 := by sorry", name="t")
    assert sp.simplify(p.goal.lhs - (x + 1 + sp.Abs(x - 1)) / 2) == 0


def test_nested_expansions_are_refused_quickly() -> None:
    """Each ``max``/``min`` repeats its arguments; nested in defined functions the term grows
    exponentially (a fuzzer statement took minutes in the kernel's check): refused in one line."""
    text = ("theorem t (x : ℝ) (f : ℝ → ℝ) (hf : ∀ y, f y = min y (y ^ 2) + max y 1) : "
            "f (f (f (f (f x)))) ≥ 0 := by sorry")
    assert "large" in _refusal(text)


def test_differential_against_the_independent_evaluator() -> None:
    """A seeded slice of ``python -m prover.semantics fuzz-frontend --max-min``: every accepted
    statement keeps Lean's value (the evaluator's own ``max``/``min`` of enclosures) at each point."""
    report = run_fuzz(60, 4, seed=2205, definitions=0.0, absolute=0.05, max_min=0.5)
    assert report.accepted >= 15
    assert report.failures == 0, [d.__dict__ for d in report.disagreements[:3]]


@pytest.mark.parametrize("statement", [
    "(x y : ℝ) : max x y ≥ x + 1 / 100",
    "(x y : ℝ) : min x y ≥ (x + y) / 2",
    "(x y : ℝ) (h : max x y < 1) : x + y < 1",
])
def test_false_statements_are_not_proved(statement: str) -> None:
    from prover.api import prove

    assert prove(f"theorem f {statement} := by sorry", time_limit=10).status != "proved"


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".proof.json") for p in DATA.glob("*.proof.json")))
def test_saved_proofs_check_render_and_replay(name: str) -> None:
    """Proofs found by ``prover prove`` (``max x y ≥ x``, ``min x y ≤ (x + y)/2``, ``max a b ·
    min a b = ab``, ``max x (1/x) ≥ 1``, ``max x y < 1 → x + y < 2``) and ``prover eval`` on
    ``benchmarks/max_min`` (``min (2x + 1) (y − 1) > 2 → …``: a ``>`` hypothesis whose copy and
    substituted instance are carried over with the bridges' signs flipped): kernel-checked; each
    file proves ``max A B = (A + B + |A − B|)/2`` by ``le_total`` cases and passes the replay model.
    ``max_min_identity`` (``max x y + min x y = x + y``): the two bridges' ``|x − y|`` cancel, and a
    bridge atom nothing else bridges no longer refuses the file (it did after the logb bridges of
    session 24)."""
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.verify import check_proof

    proof = Proof.loads((DATA / f"{name}.proof.json").read_text())
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert "le_total" in text and ("max_eq_left" in text or "min_eq_left" in text)
    assert replay_text(text).ok, text


@pytest.mark.parametrize(("user", "ours"), [
    ("max x y", "x / 2 + y / 2 + |x - y| / 2"),
    ("min x y", "x / 2 + y / 2 - |x - y| / 2"),
    ("max (2 * x) 1", "x + 1 / 2 + |2 * x - 1| / 2"),
    ("min 1 x", "x / 2 + 1 / 2 - |x - 1| / 2"),
])
def test_the_bridge_is_an_identity_in_each_case(user: str, ours: str) -> None:
    from prover.lean.render.atoms import Facts, bridge_facts, ring_closes
    from prover.lean.render.common import RenderContext

    facts = Facts(RenderContext([], itertools.count(1), None, "default"))
    bridges = bridge_facts(user, ours, ["x", "y"], facts)
    assert bridges and ring_closes(user, ours, bridges, ["x", "y"])
    text = "\n".join(facts.lines)
    assert text.count("le_total") == 1 and text.count("linear_combination") == 2


def test_no_bridge_to_a_wrong_form() -> None:
    from prover.lean.render.atoms import Facts, bridge_facts
    from prover.lean.render.common import RenderContext

    facts = Facts(RenderContext([], itertools.count(1), None, "default"))
    assert not bridge_facts("max x y", "x / 2 + y / 2 - |x - y| / 2", ["x", "y"], facts)


def test_the_file_context_fuzzer_pools_and_models_max_min() -> None:
    """``fuzz-context`` draws statements with ``|x|``/``max``/``min`` (benchmarks/abs_signs, abs_cases,
    max_min) and expects a refusal where a declaration of the file may be what ``max`` means."""
    from prover.semantics import lean_ast as A
    from prover.semantics.fuzz_context import Context, expect_for, load_pool, run_context_fuzz

    assert len(load_pool(0).functions) >= 100
    stmt = A.read_lean("theorem t (x y : ℝ) : max x y ≥ x := by sorry")
    assert expect_for(stmt, Context(opens=("Nat", "Finset"))).outcome == "meaning"
    assert expect_for(stmt, Context(declared=("max",))).outcome == "refuse"
    bars = A.read_lean("theorem t (x : ℝ) : |x| ≥ 0 := by sorry")
    assert expect_for(bars, Context(declared=("abs",))).outcome == "meaning"     # `|x|` is hygienic
    report = run_context_fuzz(300, seed=2206)
    assert report.failures == 0
