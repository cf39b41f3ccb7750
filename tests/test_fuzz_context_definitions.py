"""File-context fuzzing of statements with functions given by a defining equation
(prover.semantics.fuzz_context): the rebuilt statement keeps the function binders and the
definitions, the renaming rewrites keep Lean's meaning (parameters shadow variables in their own
body), the expectations account for function names, and a seeded run through the real front-end
that includes such statements has 0 misreadings.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import fuzz_context as C
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_context import Context, expect_for, load_pool, render, run_context_fuzz

SUITE = ("theorem amgm_root_1 (a b : ℝ) (F : ℝ → ℝ → ℝ) (hF : ∀ a b, F a b = √(a * b)) (ha : 0 < a) "
         "(hb : 0 < b) : F a b ≤ (a + b) / 2 := by sorry")
#: a body over a variable (`c`) and a parameter shadowing another (`a`); two functions
OUTER = ("theorem t (a c : ℝ) (f : ℝ → ℝ) (g : ℝ → ℝ → ℝ) (hf : ∀ a, f a = a * c + 1) (ha : 0 < a) "
         "(hg : ∀ (x y : ℝ), g x y = x - y) : f (a + 1) ≤ g (f c) a + c := by sorry")


def _read(text: str) -> A.LStatement:
    """The statement of a theorem's text (its proof left out: rendered proofs hold comments)."""
    s = A.read_lean(text.split(":=")[0] + ":= by sorry")
    assert isinstance(s, A.LStatement)
    return s


def _values(s: A.LStatement, point: dict[str, F]) -> list:
    v = A.evaluate(s, point)
    return [(r.lhs, r.rhs, r.verdict) for r in v.hypotheses + (v.goal,)]


POINTS = [{"a": F(2), "b": F(3), "c": F(-1, 2)}, {"a": F(1, 3), "b": F(5), "c": F(7)}]


def test_render_keeps_functions_and_definitions_in_order() -> None:
    rng = random.Random(0)
    for text in (SUITE, OUTER):
        s = _read(text)
        out = render(s, s.name, rng)
        again = _read(out)
        assert again == s, out
        assert out.index("(a ") < out.index("→") < out.index(f"({s.hypotheses[0].name} :")
    s = _read(OUTER)
    out = render(s, "t", rng, brace="{", real="Real")
    assert "{a c : Real} (f : Real → Real) (g : Real → Real → Real)" in out
    assert _read(out) == s
    moved = C._move_definition(s, random.Random(3))
    assert [h.name for h in _read(render(moved, "t", rng)).hypotheses] == [h.name for h in moved.hypotheses]


def test_map_stmt_keeps_functions_and_maps_bodies() -> None:
    s = _read(SUITE)
    spelled = C._respell(s, lambda n: "sqrt")
    assert spelled.functions == s.functions and spelled.definitions()["F"].body.kind == "sqrt"
    assert spelled.definitions()["F"].body.value == "sqrt"
    assert len(C._sqrt_nodes(s)) == 1                        # the body's root is resolved too
    refused = expect_for(spelled, Context())                 # `sqrt` without `open Real`
    assert refused.outcome == "refuse" and "sqrt" in refused.reasons[0]
    assert expect_for(spelled, Context(("Real",))).outcome == "meaning"


def test_renaming_a_variable_keeps_the_meaning() -> None:
    s = _read(OUTER)
    r = C._rename(s, "a", "α")
    assert r is not None
    assert r.definitions()["f"].params == ("a",)             # the parameter shadows `a`: untouched
    assert A.show(r.definitions()["f"].body) == "a * c + 1"
    r2 = C._rename(s, "c", "γ")
    assert r2 is not None and A.show(r2.definitions()["f"].body) == "a * γ + 1"
    for p in POINTS:
        assert _values(r, {"α": p["a"], "c": p["c"]}) == _values(s, p)
        assert _values(r2, {"a": p["a"], "γ": p["c"]}) == _values(s, p)
    captured = _read("theorem t (b c : ℝ) (f : ℝ → ℝ) (hf : ∀ x, f x = x + c) : f b ≤ c := by sorry")
    assert C._rename(captured, "c", "x") is None              # `x` would capture `c` in the body
    assert C._rename(captured, "c", "f") is None              # a function's name


def test_renaming_parameters_and_functions_keeps_the_meaning() -> None:
    s = _read(OUTER)
    seen_shadow = False
    for seed in range(40):
        rng = random.Random(seed)
        r = C._rename_parameters(s, rng)
        f = C._rename_function(s, random.Random(seed))
        for p in POINTS:
            point = {"a": p["a"], "c": p["c"]}
            assert _values(r, point) == _values(s, point), A.show_statement(r)
            if not C._shape_reasons(f):                       # a fresh name: the same theorem
                assert _values(f, point) == _values(s, point), A.show_statement(f)
        seen_shadow |= any(set(d.params) & set(s.variables) for d in r.definitions().values())
        assert "c" not in r.definitions()["f"].params         # the body uses `c`: never captured
    assert seen_shadow


def test_expectations_account_for_function_names() -> None:
    s = _read(SUITE)
    token = A.LStatement(s.name, s.variables, tuple(
        A.definition_hyp(h.name, A.LDef("φ", h.definition.params, h.definition.body)) if h.definition else h
        for h in s.hypotheses), A.LRel("≤", A.app("φ", A.var("a"), A.var("b")), s.goal.rhs), (A.LFun("φ", 2),))
    assert expect_for(token, Context(("Real",))).outcome == "refuse"      # `φ` is a token under open Real
    assert expect_for(token, Context()).outcome == "meaning"
    double = _read("theorem t (a b : ℝ) (a : ℝ → ℝ) (h : ∀ x, a x = x) : a b ≤ b := by sorry")
    assert any("bound twice" in r for r in C._shape_reasons(double))
    p = _read("theorem t (a : ℝ) (f : ℝ → ℝ) (h : ∀ p, f p = p) : f a ≤ a := by sorry")
    pi = A.LStatement("t", p.variables, (A.definition_hyp("h", A.LDef("f", ("π",), A.var("π"))),), p.goal,
                      p.functions)
    assert expect_for(pi, Context(("Real",))).outcome == "refuse"         # a parameter named `π`
    assert expect_for(pi, Context(("Nat",))).outcome == "refuse"
    assert expect_for(pi, Context()).outcome == "meaning"


def test_f_of_paren_is_not_an_application() -> None:
    s = _read(OUTER)
    text = C._no_space_function_application(render(s, "t", random.Random(0)), s, random.Random(0))
    assert C._f_app(text, s.functions) and not C._f_app(render(s, "t", random.Random(0)), s.functions)


def test_front_end_refuses_function_application_without_space() -> None:
    with pytest.raises(ParseError):
        parse_theorem("theorem t (a : ℝ) (F : ℝ → ℝ) (h : ∀ x, F x = x) : F(a) = 1 := by sorry",
                      real_division=False, name="t")


def test_front_end_refuses_a_token_as_a_bound_name() -> None:
    with pytest.raises(ParseError):
        parse_theorem("import Mathlib\nopen Real\ntheorem t (a : ℝ) (f : ℝ → ℝ) (h : ∀ φ, f φ = φ + 1) : "
                      "f a ≤ a + 1 := by sorry", real_division=False, name="t")


def test_pool_has_the_definition_suite() -> None:
    pool = load_pool(0)
    assert len(pool.definitions) >= 76 and all(b.stmt.functions for b in pool.definitions)
    assert pool.skipped.get("definitions", 0) == 0


def test_seeded_run_with_definitions_has_no_misreading() -> None:
    report = run_context_fuzz(120, seed=19, points=3)
    summary = report.to_json(max_examples=5)
    d = summary["defined_functions"]
    assert d["variants"] >= 20 and d["accepted"] > 0 and d["pairs"] > 0, d
    assert any(w.startswith("rewrite:rename_parameters") for w in summary["per_wrapper"])
    assert report.misreadings == [] and report.crashes == [] and report.failures == 0, \
        json.dumps({k: summary[k] for k in ("misreadings_by_kind", "crashes", "examples")}, indent=1,
                   ensure_ascii=False)[:6000]
