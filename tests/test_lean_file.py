"""The whole Lean file read as Lean reads it, or refused (issue #27, classes 1, 2 and 4).

Each test is an attack: a file around a statement that tries to make the front-end read the
statement otherwise than Lean does. Every one of them was accepted with a different meaning
before the command model (prover/frontend/lean_file.py) and name resolution (names.py).
"""

from __future__ import annotations

import pytest
import sympy as sp

from prover.frontend import ParseError, declaration_names, parse_theorem
from prover.frontend.lean_file import split_commands
from prover.frontend.lexer import tokenize
from prover.frontend.statement import has_real_division_macro, is_whole_file
from prover.problem import var

MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"
#: true only when `/` is real division: with ℕ division the exponent is 0 and 4 ^ 0 = 1 ≠ 2
HALF = "theorem t : (4 : ℝ) ^ (1/2) = 2 := by sorry"
ROOT = "theorem t (x : ℝ) (hx : 0 < x) : x ^ (1/2) ≤ x + 1 := by sorry"


def refused(text: str, match: str | None = None, **kw) -> ParseError:
    with pytest.raises(ParseError) as err:
        parse_theorem(text, **kw)
    if match is not None:
        assert match in err.value.message, err.value.message
    assert "\n" not in str(err.value)
    return err.value


def real_division_of(text: str) -> bool:
    return parse_theorem(text, name="t").real_division


# ----------------------------------------------------------------- 1. the real-division macro


@pytest.mark.parametrize("where", [
    f"-- {MACRO}\n{HALF}",
    f"/- {MACRO} -/\n{HALF}",
    f"/- outer /- {MACRO} -/ still a comment -/\n{HALF}",
    f"/-- {MACRO} -/\n{HALF}",
    f'def s := "{MACRO}"\n{HALF}',
    f"{HALF}\n{MACRO}",
    f"section\nlocal {MACRO}\nend\n{HALF}",
    f"namespace N\nlocal {MACRO}\nend N\n{HALF}",
])
def test_a_macro_not_in_effect_never_makes_division_real(where):
    # refused (ℕ division in an exponent, or an unmodelled command) — never read as 4 ^ (1/2)
    refused(where)


@pytest.mark.parametrize("where", [
    f"{MACRO}\n{HALF}",
    f"import Mathlib\nopen Real\n{MACRO}\n\n/-- doc -/\n{HALF}",
    f"section\n{MACRO}\n{HALF}\nend",
    f"section\nlocal {MACRO}\n{HALF}\nend",
    f"namespace N\n{MACRO}\n{HALF}\nend N",
    f"macro_rules | `($a / $b) => `(HDiv.hDiv ($a : Real) ($b : Real))\n{HALF}",
])
def test_a_macro_in_effect_makes_division_real(where):
    p = parse_theorem(where, name="t")
    assert p.real_division
    assert p.goal.lhs == 2 and p.goal.rhs == 2


def test_a_global_macro_in_a_closed_section_is_refused_not_guessed():
    refused(f"section\n{MACRO}\nend\n{HALF}", "closed before the theorem")


@pytest.mark.parametrize("macro", [
    "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℕ) ($y : ℕ))",
    "macro_rules | `($x / $y) => `(HDiv.hDiv ($y : ℝ) ($x : ℝ))",
    "macro_rules | `($ x / $ y) => `(HDiv.hDiv ($ x : ℝ) ($ y : ℝ))",
    "macro_rules | `($x / $x) => `(HDiv.hDiv ($x : ℝ) ($x : ℝ))",
    MACRO + "\n  | `($x * $y) => `(HMul.hMul $y $x)",
    "scoped " + MACRO,
    "@[macro Lean.Parser.Term.app] " + MACRO,
])
def test_any_other_macro_rules_is_refused(macro):
    refused(f"{macro}\n{HALF}", "macro_rules")


def test_macro_detection_reads_commands_not_text():
    assert has_real_division_macro(f"{MACRO}\n{HALF}")
    assert not has_real_division_macro(f"-- {MACRO}\n{HALF}")
    assert not has_real_division_macro(f'/-- "{MACRO}" -/\n{HALF}')


def test_the_declared_lips_convention_still_reads_benchmark_text():
    p = parse_theorem(ROOT, real_division=True)
    assert p.real_division and p.goal.lhs == sp.sqrt(var("x"))
    assert parse_theorem("theorem t (x : ℝ) (h : 0 ≤ x) : sqrt(x) ≥ 0 := by sorry", real_division=True)


# ----------------------------------------------------------------- 2. names, as Lean resolves them


@pytest.mark.parametrize("text", [
    "theorem t : NNReal.sqrt 4 - 3 < 0 := by sorry",
    "theorem t (x : ℝ) (h : NNReal.sqrt 1 - 2 = 0) : x ^ 2 < 0 := by sorry",
    "theorem t (x : ℝ) : Nat.sqrt x ≥ 0 := by sorry",
    "theorem t : Int.sqrt 5 = 2 := by sorry",
    "theorem t (x : ℝ) : Complex.sqrt x = 0 := by sorry",
    "open NNReal\ntheorem t : sqrt 4 - 3 < 0 := by sorry",
    "open NNReal\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",
    "open Real NNReal\ntheorem t : sqrt 4 - 3 < 0 := by sorry",
    "open Real Nat\ntheorem t : sqrt 2 ≥ 1 := by sorry",
    "open Real Complex\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",
    "theorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",               # no `open Real`: unknown
    "theorem t (x : ℝ) : Reаl.sqrt x ≥ 0 := by sorry",           # Cyrillic а
    "theorem t (x : ℝ) : Real.sqrt(x) ≥ 0 := by sorry",          # `f(x)` is no application
    "open Real\ntheorem sqrt : True := trivial\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",
    "namespace Foo\ntheorem t (x : ℝ) : Real.sqrt x ≥ 0 := by sorry\nend Foo",
    "open Real\ntheorem t (rexp : ℝ) : rexp ≥ 0 := by sorry",  # `rexp` is a notation there
])
def test_a_name_that_is_not_exactly_real_sqrt_is_refused(text):
    refused(text, name="t")


@pytest.mark.parametrize("text", [
    "theorem t (x : ℝ) : Real.sqrt x ≥ 0 := by sorry",
    "theorem t (x : ℝ) : _root_.Real.sqrt x ≥ 0 := by sorry",
    "theorem t (x : ℝ) : √x ≥ 0 := by sorry",
    "open Real\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",
    "open Real NNReal Nat\ntheorem t (x : ℝ) : sqrt (x + 1) ≥ 0 := by sorry",  # the others fail on ℝ
    "open Real Nat\ntheorem t : sqrt (2 : ℝ) ≥ 0 := by sorry",
    "open Real in\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry",
    "namespace Real\ntheorem t (x : ℝ) : sqrt x ≥ 0 := by sorry\nend Real",
    "open NNReal\ntheorem t (x : ℝ) : √x ≥ 0 := by sorry",                # `√` is hygienic
    "namespace Foo\ntheorem t (x : ℝ) : √x ≥ 0 := by sorry\nend Foo",
    ("import Mathlib\nset_option maxHeartbeats 0\nopen BigOperators Real Nat Topology Rat\n\n"
     "theorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≥ 0 := by sorry"),
])
def test_real_sqrt_however_lean_reaches_it(text):
    p = parse_theorem(text, name="t")
    assert any(isinstance(t, sp.Pow) and t.exp == sp.Rational(1, 2) for t in sp.preorder_traversal(p.goal.lhs))


def test_open_of_an_unmodelled_namespace_is_refused():
    refused("open Foo\ntheorem t (x : ℝ) : √x ≥ 0 := by sorry", "not modelled")
    refused("open Real hiding sqrt\ntheorem t (x : ℝ) : √x ≥ 0 := by sorry", "hiding")


# ----------------------------------------------------------------- 4. commands before the theorem


@pytest.mark.parametrize("command", [
    "macro_rules | `($x ≤ $y) => `($y ≤ $x)",
    "notation \"√\" x => x",
    "infixl:65 \" +' \" => HAdd.hAdd",
    "local notation \"two\" => 3",
    "local instance : LE ℝ := ⟨fun _ _ => True⟩",
    "instance : LE ℝ := ⟨fun _ _ => True⟩",
    "variable (y : ℝ)",
    "def sqrt (x : ℝ) : ℝ := x",
    "noncomputable def f (x : ℝ) : ℝ := x",
    "abbrev R := ℕ",
    "attribute [-instance] Real.instLE",
    "syntax \"foo\" : term",
    "set_option hygiene false",
    "open Foo in\nnamespace X\nend X",
    "#eval 1",
    "#exit",
    "import MyLib",
    "axiom bad : False",
    "universe u",
    "x y z",
])
def test_an_unmodelled_command_before_the_theorem_is_refused(command):
    err = refused(f"{command}\ntheorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry", name="t")
    assert "line" in err.message


@pytest.mark.parametrize("before", [
    "import Mathlib\nimport Mathlib.Analysis.SpecialFunctions.Pow.Real",
    "open Real Nat Topology BigOperators Rat",
    "open scoped Real",
    "set_option maxHeartbeats 400000",
    "set_option maxHeartbeats 400000 in",
    "set_option linter.unusedVariables false",
    "noncomputable section",
    "section Foo\nend Foo",
    "namespace A.B\ntheorem u : 1 = 1 := rfl\nend A.B",
    "theorem u (x : ℝ) : x = x := by\n  open Real in simp\n  set_option maxRecDepth 1000 in rfl",
    "@[simp] lemma u : (1 : ℝ) = 1 := rfl",
    "example : (2 : ℝ) = 2 := by\n  norm_num -- end\n  /- namespace -/",
    'theorem u : "end -/" = "end -/" := rfl',
])
def test_modelled_commands_before_the_theorem_keep_its_meaning(before):
    p = parse_theorem(f"{before}\ntheorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry", name="t")
    assert p.goal.lhs == var("x") ** 2 and not p.real_division


def test_scoping_end_must_match():
    refused("namespace A\nend B\ntheorem t (x : ℝ) : x ≥ 0 := by sorry", "does not close")
    refused("end\ntheorem t (x : ℝ) : x ≥ 0 := by sorry", "without an open")


def test_an_open_at_the_top_after_a_proof_counts():
    # `open NNReal` (no `in`) ends the proof of `u` and opens NNReal for `t`
    text = ("theorem u : 1 = 1 := by rfl\n  open NNReal\n"
            "theorem t : sqrt 4 - 3 < 0 := by sorry")
    refused(text, name="t")


def test_a_proof_local_open_does_not_leak():
    text = ("theorem u : 1 = 1 := by\n  open NNReal in rfl\n"
            "theorem t (x : ℝ) : Real.sqrt x ≥ 0 := by sorry")
    assert parse_theorem(text, name="t").goal.lhs == sp.sqrt(var("x"))


# ----------------------------------------------------------------- file shape


def test_two_theorems_each_read_by_name():
    text = ("theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry\n"
            "theorem u (x : ℝ) : x ^ 2 + 1 > 0 := by sorry")
    assert declaration_names(text) == ["t", "u"]
    assert parse_theorem(text, name="u").goal.lhs == var("x") ** 2 + 1
    refused(text, "2 declarations")


def test_a_name_declared_twice_is_refused():
    text = ("theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry\n"
            "theorem t (x : ℝ) : x ^ 2 < 0 := by sorry")
    refused(text, "declared twice", name="t")


def test_statement_after_end_is_read_outside_the_section():
    text = ("section\nopen NNReal\nend\ntheorem t (x : ℝ) : Real.sqrt x ≥ 0 := by sorry")
    assert parse_theorem(text).goal.lhs == sp.sqrt(var("x"))


def test_keywords_inside_comments_strings_and_names_split_nothing():
    text = ('/- theorem fake : 1 = 2 -/\n-- theorem fake2\n'
            'theorem t (x : ℝ) : x ≥ x := by\n  have : "theorem" = "theorem" := rfl\n  exact le_refl x')
    assert declaration_names(text) == ["t"]
    assert [c.keyword for c in split_commands(tokenize(text), text)] == ["theorem"]


@pytest.mark.parametrize("text", [
    "theorem t (x : ℝ) (x : x > 0) : x > 0 := by sorry",       # a hypothesis shadows a variable
    "theorem t (h : ℝ) (h : h > 0) : h ≥ 0 := by sorry",
    "theorem t (x : ℝ) (x : ℝ) : x ≥ 0 := by sorry",
])
def test_shadowed_names_are_refused(text):
    refused(text, "bound twice")


def test_two_hypotheses_may_share_a_name():
    p = parse_theorem("theorem t (a : ℝ) (h : a > 0) (h : a > 1) : a > 0 := by sorry")
    assert [h.name for h in p.hypotheses] == ["h", "h"]


def test_whole_files_declare_their_own_context():
    assert is_whole_file("import Mathlib\ntheorem t : 1 = 1 := by sorry")
    assert not is_whole_file("theorem t : 1 = 1 := by sorry")


@pytest.mark.parametrize("text", [
    "theorem t (x : ℝ) : x ≥ 0 := by sorry /- unterminated",
    'theorem t (x : ℝ) : x ≥ 0 := by "unterminated',
    "theorem t («x» : ℝ) : x ≥ 0 := by sorry",
])
def test_broken_or_odd_files_are_refused_in_one_line(text):
    refused(text)


def test_size_bounds_refuse_early():
    names = " ".join(f"x{i}" for i in range(200))
    refused(f"theorem t ({names} : ℝ) : x0 ≥ 0 := by sorry", "variables")


def test_interpolated_strings_are_refused_not_guessed():
    # the braces of s!"…" hold code with strings of their own: a misread quote could hide a command
    refused('theorem u : True := by\n  trace s!"{"}"}"\ntheorem t (x : ℝ) : x ≥ x := by sorry', "interpolated",
            name="t")
