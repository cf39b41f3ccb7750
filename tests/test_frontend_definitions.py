"""Functions given by a defining equation (`(f : ℝ → ℝ) (h : ∀ x, f x = E)`): read as the statement
with every application expanded, with Lean's typing — or refused with one line. Each refusal is a
way to make the reader accept something false or something it does not model."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.frontend import ParseError, parse_theorem
from prover.kernel.terms import show


def _read(text: str):
    return parse_theorem(text + " := by sorry")


def test_applications_are_replaced_by_the_body():
    p = _read("theorem t (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 6 - f 2 = 12) : "
              "f 12 - f 2 = 30")
    a = sp.Symbol("a", real=True)
    assert p.variables == ["a", "b"]
    assert [h.name for h in p.hypotheses] == ["h₁"]          # the definition is not a hypothesis
    assert sp.simplify(p.hypotheses[0].rel.lhs - 4 * a) == 0
    assert sp.simplify(p.goal.lhs - 10 * a) == 0
    assert p.meta["definitions"] == [{"function": "f", "params": ["x"], "hypothesis": "h₀", "arity": 1}]
    assert p.meta["definition_uses"] == {"hypotheses": [0], "goal_parts": [0]}


def test_the_argument_is_real_so_a_numeral_quotient_is_real_division():
    p = _read("theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = x * 3) : f (1 / 3) = 1")
    assert p.goal.lhs == 1            # ℕ division would give 0


def test_a_numeral_body_is_real():
    p = _read("theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = 1 / 2) : f 7 = 1 / 2")
    assert p.goal.lhs == sp.Rational(1, 2)


def test_the_parameter_shadows_the_theorem_variable_of_its_name():
    p = _read("theorem t (x : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = x + 2) : f (x * 2) = 2 * x + 2")
    x = sp.Symbol("x", real=True)
    assert sp.expand(p.goal.lhs - (2 * x + 2)) == 0


def test_nested_and_binary_applications():
    p = _read("theorem t (f g : ℝ → ℝ) (k : ℝ → ℝ → ℝ) (h₀ : ∀ x, f x = x + 1) (h₁ : ∀ x, g x = x ^ 2) "
              "(h₂ : ∀ (u v : ℝ), k u v = u - v) : k (f (g 2)) (g 1) = 4")
    assert p.goal.lhs == 4


def test_application_binds_tighter_than_power():
    p = _read("theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = x + 1) : f 1 ^ 2 = 4")
    assert p.goal.lhs == 4             # (f 1) ^ 2, not f (1 ^ 2) = 2


def test_faithful_statement_is_the_expansion():
    p = _read("theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = √x) : f 4 = 2")
    assert "√" in show(p.faithful.goal.lhs) or "sqrt" in show(p.faithful.goal.lhs).lower()


REFUSED = [
    ("(f : ℝ → ℝ) (h₀ : ∀ x > 0, f x = x) : f 1 = 1", "no condition"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x : ℝ, x ≠ 0 → f x = 6 / x) : f 2 = 3", "not supported"),
    ("(f : ℝ → ℝ) (h₁ : f 1 = 1) (h₀ : ∀ x, f x = x) : f 1 = 1", "before"),
    ("(f : ℝ → ℝ) : f 1 = 1", "defining equation"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = x) (h₁ : ∀ x, f x = x + 1) : f 1 = 1", "second defining"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = x) : f -1 = 1", "subtraction"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = x) : f = f", "arguments"),
    ("(f : ℝ → ℝ → ℝ) (h₀ : ∀ x y, f x y = x) : f 1 = 1", "arguments"),
    ("(f : ℝ → ℝ → ℝ) (h₀ : ∀ x y, f y x = x) : f 1 2 = 1", "in order"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f (x + 3) = x) : f 3 = 0", "in order"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = f x + 1) : f 1 = 1", "applies"),
    ("(f g : ℝ → ℝ) (h₀ : ∀ x, g x = x) (h₁ : ∀ x, f x = g x) : f 1 = 1", "applies"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = a) (a : ℝ) : f 1 = 1", "unknown identifier"),
    ("(f : ℝ → ℕ) (h₀ : ∀ x, f x = 1) : f 1 = 1", "type other than"),
    ("(f : ℕ → ℝ) (h₀ : ∀ x, f x = 1) : f 1 = 1", "type other than"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x : ℕ, f x = 1) : f 1 = 1", "type other than"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x y, f x = y) : f 1 = 1", "in order"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = x) : f Real.sqrt 4 = 2", "parentheses"),
    ("(f : ℝ → ℝ) (h₀ h₁ : ∀ x, f x = x) : f 1 = 1", "binder of its own"),
    ("(f : ℝ → ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = x) : f 1 = 1", "bound twice"),
    ("(x : ℝ) (x : ℝ → ℝ) : x = x", "bound twice"),
    ("(f : ℝ → ℝ) (h₀ : ∀ x, f x = x * x) : f (f (f (f (f (f (f (f (f (f (f (f (f (f 2))))))))))))) > 0",
     "nodes"),
]


@pytest.mark.parametrize("binders,expect", REFUSED)
def test_refused_with_one_line(binders, expect):
    with pytest.raises(ParseError) as ei:
        _read("theorem t " + binders)
    assert expect in ei.value.message and "\n" not in ei.value.message


def test_a_false_statement_with_a_definition_is_not_proved():
    from prover.search.driver import prove_problem

    p = _read("theorem t (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 6 - f 2 = 12) : "
              "f 12 - f 2 = 31")
    result = prove_problem(p, time_limit=20)
    assert result.status != "proved"


def test_the_definitions_suite_reads_as_the_family_statements_it_was_made_from():
    """Each generated statement (benchmarks/definitions/) says, once expanded, what its source
    family statement says: same variables, hypotheses and goal (the affine form: 3·L + 1 op 3·R + 1)."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "benchmarks"
    source = {json.loads(ln)["id"]: json.loads(ln)["lean"]
              for ln in (root / "families" / "train.jsonl").read_text(encoding="utf-8").splitlines() if ln}
    lines = [json.loads(ln) for ln in (root / "definitions" / "definitions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) >= 60
    for d in lines:
        ours, theirs = parse_theorem(d["lean"]), parse_theorem(source[d["from"]])
        assert ours.variables == theirs.variables
        assert [h.rel for h in ours.hypotheses] == [h.rel for h in theirs.hypotheses]
        g, h = ours.goal, theirs.goal
        scale = 3 if d["kind"] == "affine" else 1
        shift = 1 if d["kind"] == "affine" else 0
        assert g.op == h.op
        assert sp.simplify(g.lhs - (scale * h.lhs + shift)) == 0, d["id"]
        assert sp.simplify(g.rhs - (scale * h.rhs + shift)) == 0, d["id"]
