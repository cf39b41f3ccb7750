"""File-context fuzzing (prover.semantics.fuzz_context): a known statement inside Lean file context
is either refused or read exactly as Lean reads it there; where Lean rejects the file or a command
before the theorem is not modelled, it must be refused.

(a) the fuzzer's own expectations (Lean's rules, docs/mathlib-name-facts.md §2–4);
(b) a seeded short run through the real front-end: 0 misreadings, 0 crashes;
(c) the regression cases of issue 27 through the real front-end.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_context import (
    MACRO,
    Context,
    ContextReport,
    Expect,
    FileBuilder,
    Variant,
    Written,
    check_target,
    expect_for,
    load_pool,
    make_variant,
    resolve_sqrt,
    run_context_fuzz,
)

ROOT_T = "theorem t : (4 : ℝ) ^ (1/2) = 2 := by sorry"


def _written(text: str, name: str = "t") -> Written:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    return Written(name, stmt, text, {})


def _build(*steps, theorem: str = ROOT_T, after=(), extra_opens: tuple[str, ...] = ()) -> tuple[str, Expect]:
    """A file from builder steps, the theorem, then ``after`` steps: (text, the theorem's Expect)."""
    b = FileBuilder()
    for s in steps:
        s(b)
    b.theorem(_written(theorem), extra_opens)
    for s in after:
        s(b)
    text, targets = b.finish()
    return text, targets[0][1]


def emit(text: str):
    return lambda b: b.emit(text)


# ---------------------------------------------------------------- (a) the fuzzer's expectations


def test_lean_reading_with_and_without_the_macro() -> None:
    assert A.eval_lean("(4 : ℝ) ^ (1/2) = 2", {}).verdict is False            # 4 ^ 0 = 1
    assert A.eval_lean("(4 : ℝ) ^ (1/2) = 2", {}, real_division=True).verdict is True
    x = {"x": F(8)}
    assert A.eval_lean("x ^ (1 / 3)", x) == A.eval_lean("x ^ 0", x)
    assert A.eval_lean("x ^ (1 / 3)", x, real_division=True).contains(2)
    assert A.eval_lean("1 / 3 + x", {"x": F(0)}) == A.eval_lean("(1 : ℝ) / 3", {})   # a real tree either way
    assert A.type_error(A.read_lean("(1 / 2 : ℕ) = 0")) is None
    assert A.type_error(A.read_lean("(1 / 2 : ℕ) = 0"), real_division=True)        # ℝ inside a ℕ ascription


def test_macro_in_comments_strings_or_after_is_not_in_effect() -> None:
    for wrap in (f"-- {MACRO}", f"/- {MACRO} -/", f"/- outer /- inner -/\n{MACRO}\n-/", f"/-! {MACRO} -/",
                 f'example : ("{MACRO}" : String).length > 0 := by decide'):
        _, e = _build(emit("import Mathlib"), emit(wrap))
        assert e == Expect("meaning", False), (wrap, e)
    _, e = _build(after=[lambda b: b.macro()])
    assert e == Expect("meaning", False)


def test_macro_scoping() -> None:
    def closed(local: bool):
        return lambda b: (b.push("section"), b.macro(local=local), b.pop())

    assert _build(closed(True))[1].real_division is False          # local: dropped at `end`
    assert _build(closed(False))[1].real_division is True          # global: survives `end`
    assert _build(lambda b: b.macro())[1] == Expect("meaning", True)
    assert _build(lambda b: b.macro(local=True))[1] == Expect("meaning", True)
    assert _build(lambda b: (b.push("namespace", "Foo"), b.macro(local=True)))[1].real_division is True
    assert _build(emit("/- a /- b -/ c -/"), lambda b: b.macro())[1].real_division is True


def test_sqrt_resolution() -> None:
    def res(arg: str, opens=(), ns=(), rd=False) -> str:
        node = A.op1("sqrt", A.read_lean(arg), "sqrt")
        return resolve_sqrt(node, Context(tuple(opens), tuple(ns), rd))[0]

    assert res("x", ["Real"]) == "real"
    assert res("2", ["Real"]) == "real"
    assert res("x", ["Real", "Nat"]) == "real"                   # Nat.sqrt does not take a real
    assert res("2", ["Real", "Nat"]) == "refuse"                 # ambiguous
    assert res("2", ["NNReal", "Real"]) == "refuse"
    assert res("1 / 2", ["Real", "Nat"]) == "refuse"
    assert res("1 / 2", ["Real", "Nat"], rd=True) == "real"      # real division: the argument is ℝ
    assert res("(2 : ℝ)", ["Real", "Rat"]) == "real"
    assert res("x") == "refuse"                                  # unknown identifier
    assert res("x", ["NNReal"]) == "refuse"
    assert res("2", ["Nat"], ns=["Real"]) == "real"              # the enclosing namespace wins
    assert res("x", ["Real"], ns=["Nat"]) == "refuse"            # Nat.sqrt, outright
    for spelling in ("NNReal.sqrt", "Nat.sqrt", "Int.sqrt", "Reаl.sqrt"):
        node = A.op1("sqrt", A.num(4), spelling)
        assert resolve_sqrt(node, Context(("Real",)))[0] == "refuse"


def test_nnreal_and_unmodelled_commands_expect_refusal() -> None:
    assert _build(theorem="theorem t : NNReal.sqrt 4 - 3 < 0 := by sorry")[1].outcome == "refuse"
    _, e = _build(lambda b: b.open(("NNReal",)), theorem="theorem t : sqrt 4 - 3 < 0 := by sorry")
    assert e.outcome == "refuse"
    for cmd in ("macro_rules | `($x ≤ $y) => `($y ≤ $x)", "variable (x : ℝ)", "def sqrt (x : ℝ) : ℝ := x",
                "set_option hygiene false", "open Qux", "open Real hiding sqrt"):
        assert _build(lambda b, c=cmd: b.unmodelled_command(c))[1].outcome == "refuse", cmd
        assert _build(after=[lambda b, c=cmd: b.unmodelled_command(c)])[1].outcome == "meaning", cmd


def test_scopes_and_names() -> None:
    sq = "theorem t (x : ℝ) : sqrt x ≥ 0 := by sorry"
    assert _build(lambda b: (b.push("section"), b.open(("Real",)), b.pop()), theorem=sq)[1].outcome == "refuse"
    assert _build(theorem=sq, extra_opens=("Real",))[1].outcome == "meaning"          # open Real in
    assert _build(lambda b: b.push("namespace", "Real"), theorem=sq)[1].outcome == "meaning"
    assert _build(lambda b: b.open(("Real",)), theorem="theorem t (rexp : ℝ) : rexp ≥ 0 := by sorry")[1].outcome \
        == "refuse"                                                              # rexp is a token
    dup = _build(lambda b: (b.emit("theorem t (x : ℝ) : x ≤ x := by sorry"), b.declare("t")))[1]
    assert dup.outcome == "refuse" and "declared twice" in dup.reasons[0]
    shadow = expect_for(A.read_lean("theorem t (x : ℝ) (x : 0 ≤ x) : x ≤ 1 := by sorry"), Context(),
                        ("hypothesis `x` shadows the variable `x`",))
    assert shadow.outcome == "refuse"


def test_variants_are_deterministic_and_cover_the_wrappers() -> None:
    pool = load_pool(0)
    assert len(pool.benchmarks) >= 200 and len(pool.examples) == 7 and pool.skipped["benchmark"] <= 5
    a, b = make_variant(7, 3, pool), make_variant(7, 3, pool)
    assert a.text == b.text and a.wrappers == b.wrappers
    seen = {w.split(":")[0] + ":" + w.split(":")[1] for i in range(300)
            for w in make_variant(i, 0, pool).wrappers if ":" in w}
    for w in ("header:lips", "header:minif2f", "item:line_comment_macro", "item:nested_comment_macro",
              "item:doc_comment_macro", "item:string_macro", "item:macro_local_closed_section",
              "item:macro_global_closed_scope", "item:unmodelled", "item:other_theorem", "item:decoy_line",
              "enclose:namespace_Real", "prefix:open_in", "rewrite:sqrt_bare", "rewrite:inject_sqrt",
              "rewrite:shadow_hypothesis", "post:macro_active"):
        assert w in seen, w


def _regex_era_parse(text: str, name: str):
    """The old reader: the macro anywhere in the text turns real division on; the context is ignored."""
    start = text.index(f"theorem {name} ")
    return parse_theorem("import Mathlib\nopen Real\n" + text[start:].split("\n\n")[0],
                         real_division="macro_rules" in text, name=name)


def test_the_fuzzer_catches_a_context_blind_front_end() -> None:
    report = run_context_fuzz(120, seed=0, points=3, parse=_regex_era_parse)
    assert "accepted_must_refuse" in {f.kind for f in report.misreadings}, report.to_json(3)["examples"]
    text = f"import Mathlib\n-- {MACRO}\n\n{ROOT_T}\n"
    judged = _judge(text, "t", ROOT_T, False, parse=_regex_era_parse)
    assert [f.kind for f in judged.misreadings] == ["misreading"], judged.to_json()["examples"]


def test_crashes_are_failures() -> None:
    def boom(text: str, name: str):
        raise RuntimeError("boom")

    report = run_context_fuzz(5, seed=0, points=2, parse=boom)
    assert len(report.crashes) == report.checks and report.failures == report.checks


# ---------------------------------------------------------------- (b) a seeded short run (CI)


def test_seeded_short_run_has_no_misreading_and_no_crash() -> None:
    report = run_context_fuzz(150, seed=0, points=3)
    summary = report.to_json(max_examples=5)
    assert report.variants == 150 and report.checks >= 150
    assert report.accepted > 0 and report.refused_where_expected > 0 and report.pairs > 0
    assert report.misreadings == [] and report.crashes == [] and report.failures == 0, \
        json.dumps({k: summary[k] for k in ("misreadings_by_kind", "crashes", "examples")}, indent=1,
                   ensure_ascii=False)[:6000]


def test_cli_fuzz_context_writes_summary(tmp_path, capsys) -> None:
    from prover.semantics.__main__ import main

    out = tmp_path / "ctx.json"
    code = main(["fuzz-context", "--variants", "12", "--seed", "4", "--out", str(out), "--progress-every", "5"])
    d = json.loads(out.read_text())
    assert d["variants"] == 12 and d["seed"] == 4 and "per_wrapper" in d and "machine" in d
    assert code == (1 if d["failures"] else 0)
    assert "checks" in capsys.readouterr().out


# ---------------------------------------------------------------- (c) issue 27's cases, real front-end


def _judge(text: str, name: str, lean: str, real_division: bool, parse=None) -> ContextReport:
    """Check one file with the fuzzer's judge: refusal, or Lean's meaning at points."""
    w = _written(lean, name)
    report = ContextReport(seed=0, points=6)
    check_target(Variant(0, "test", text, [], ["test"]), w, Expect("meaning", real_division), 6, report,
                 parse or (lambda t, n: parse_theorem(t, real_division=False, name=n)))
    return report


def _refused(text: str, name: str = "t") -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text, real_division=False, name=name)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("wrap", [
    f"-- {MACRO}", f"/- {MACRO} -/", f"/- a /- b -/\n{MACRO}\n-/", f"/-- {MACRO} -/\nexample : True := trivial",
    f'example : ("{MACRO}" : String).length > 0 := by decide', f"section\nlocal {MACRO}\nend",
])
def test_macro_not_in_effect_is_not_real_division(wrap: str) -> None:
    report = _judge(f"import Mathlib\n\n{wrap}\n\n{ROOT_T}\n", "t", ROOT_T, False)
    assert report.failures == 0, report.to_json()["examples"]


def test_macro_after_the_theorem_is_not_in_effect() -> None:
    report = _judge(f"import Mathlib\n\n{ROOT_T}\n\n{MACRO}\n", "t", ROOT_T, False)
    assert report.failures == 0, report.to_json()["examples"]


def test_macro_in_effect_is_real_division() -> None:
    for text in (f"import Mathlib\n{MACRO}\n{ROOT_T}\n", f"import Mathlib\nsection\n{MACRO}\n{ROOT_T}\nend\n",
                 f"import Mathlib\nsection\n{MACRO}\nend\n{ROOT_T}\n"):
        report = _judge(text, "t", ROOT_T, True)
        assert report.failures == 0, report.to_json()["examples"]


def test_nnreal_sqrt_is_refused() -> None:
    _refused("theorem t : NNReal.sqrt 4 - 3 < 0 := by sorry")
    _refused("import Mathlib\nopen NNReal\ntheorem t : sqrt 4 - 3 < 0 := by sorry")
    _refused("import Mathlib\nopen Real NNReal\ntheorem t : sqrt 4 - 3 < 0 := by sorry")
    _refused("import Mathlib\nopen Real\ntheorem t (x : ℝ) (h : NNReal.sqrt 1 - 2 = 0) : x ^ 2 < 0 := by sorry")
    _refused("import Mathlib\nopen Real\ntheorem t : Reаl.sqrt 4 = 2 := by sorry")      # Cyrillic а


@pytest.mark.parametrize("cmd", [
    "macro_rules | `($x ≤ $y) => `($y ≤ $x)", "variable (x : ℝ)", "def sqrt (x : ℝ) : ℝ := x",
    'notation:50 a " ≤ " b => b < a', "local instance : LT ℝ := ⟨fun _ _ => False⟩",
    "open Real hiding sqrt", "set_option hygiene false", "attribute [simp] mul_comm",
])
def test_unmodelled_command_before_the_theorem_is_refused(cmd: str) -> None:
    _refused(f"import Mathlib\nopen Real\n\n{cmd}\n\ntheorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry")


def test_two_theorems_each_read_as_itself() -> None:
    text = ("import Mathlib\nopen Real\n\ntheorem t (x : ℝ) : x < x := by sorry\n\n"
            "-- theorem u (x : ℝ) : x < x := by sorry\n\ntheorem u (x : ℝ) : x ≤ x + 1 := by sorry\n")
    assert _judge(text, "t", "theorem t (x : ℝ) : x < x := by sorry", False).failures == 0
    assert _judge(text, "u", "theorem u (x : ℝ) : x ≤ x + 1 := by sorry", False).failures == 0


def test_names_bound_twice_and_duplicate_declarations_are_refused() -> None:
    _refused("theorem t (x y : ℝ) (x : 0 < y) : x ≤ y := by sorry")
    _refused("theorem t (x x : ℝ) : x ≤ x := by sorry")
    _refused("theorem t (x : ℝ) : x ≤ x := by sorry\n\ntheorem t (x : ℝ) : x < x := by sorry")
    _refused("import Mathlib\nopen Real\ntheorem t (x : ℝ) : sqrt(x) ≥ 0 := by sorry")     # f(x)


def test_statement_after_end_and_sqrt_resolution_in_context() -> None:
    text = ("import Mathlib\nsection\nopen Real\nend\n\n"
            "theorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry\n")
    _refused(text)                                                 # `open Real` ended with its section
    lean = "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x ≤ x + 1 := by sorry"
    for ok in ("import Mathlib\nopen Real Nat\n\ntheorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry\n",
               "import Mathlib\nopen Real in\ntheorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry\n"):
        assert _judge(ok, "t", lean, False).failures == 0
    _refused("import Mathlib\nopen Real Nat\ntheorem t : sqrt 2 ≤ 2 := by sorry")   # ambiguous



# ---------------------------------------------------------------- found by the fuzzer


def test_a_command_with_in_does_not_hide_earlier_commands() -> None:
    """`set_option … in` / `open … in` before another declaration: the commands before it still
    count (a `≤`-swapping macro, the opens that make `φ` a token)."""
    for with_in in ("set_option maxHeartbeats 400000 in\nexample : True := trivial",
                    "open Nat in\nexample : True := trivial"):
        _refused(f"import Mathlib\nmacro_rules | `($x ≤ $y) => `($y ≤ $x)\n\n{with_in}\n\n"
                 "theorem t (x : ℝ) : x ≤ x + 1 := by sorry")
        _refused(f"import Mathlib\nopen Real Nat\n\n{with_in}\n\ntheorem t (a φ : ℝ) : a * φ ≤ a ^ 2 + φ ^ 2 := by sorry")
        lean = "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x ≤ x + 1 := by sorry"
        text = f"import Mathlib\nopen Real\n\n{with_in}\n\ntheorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry"
        assert _judge(text, "t", lean, False).failures == 0


def test_open_scoped_does_not_open_names() -> None:
    _refused("import Mathlib\nopen scoped Real\ntheorem t (x : ℝ) (h : 0 ≤ x) : sqrt x ≤ x + 1 := by sorry")


def test_cyrillic_identifiers_are_refused() -> None:
    """Cyrillic letters are not identifier characters in Lean 4 (a parse error)."""
    _refused("import Mathlib\ntheorem t (а b : ℝ) : а * b ≤ а ^ 2 + b ^ 2 := by sorry")   # Cyrillic а
    _refused("import Mathlib\ntheorem t (х : ℝ) : x ≤ x + 1 := by sorry")                 # binder х, body x


def test_a_run_is_deterministic_for_its_seed() -> None:
    def summary(r: ContextReport) -> dict:
        return {k: v for k, v in r.to_json().items() if k != "duration_s"}

    assert summary(run_context_fuzz(25, seed=9, points=2)) == summary(run_context_fuzz(25, seed=9, points=2))
