"""Front-end: Lean 4 statements -> Problem (exact sympy), printer, round trips, refusals, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from prover.frontend import (
    ParseError,
    load_benchmark,
    parse_expression,
    parse_theorem,
    print_expr,
    print_theorem,
)
from prover.problem import Hypothesis, Problem, Relation, var
from tests.test_frontend_faithful import KERNEL_GAPS

BENCH = Path("/work/shared/benchmarks")
if not BENCH.is_dir():  # the project copy (eval helper) carries the same files
    BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
DATA = Path(__file__).parent / "data"
a, b, c, x = var("a"), var("b"), var("c"), var("x")


def E(text: str, variables=("a", "b", "c", "x"), **kw) -> sp.Expr:
    return parse_expression(text, list(variables), **kw)


# ------------------------------------------------------------------ benchmarks


def _all_benchmark_problems() -> list[Problem]:
    files = [BENCH / f for f in ("567neq-dev.jsonl", "chenneq.jsonl", "mo-int-20.jsonl")]  # the LIPS sets
    return [p for f in files for p in load_benchmark(f)]


@pytest.mark.skipif(not BENCH.is_dir(), reason="benchmark files not present")
def test_all_108_benchmark_statements_parse_and_round_trip():
    problems = _all_benchmark_problems()
    # statements the kernel cannot yet show equal to sympy's form are refused (and skipped)
    assert len(problems) == 108 - len(KERNEL_GAPS)
    assert not {p.name for p in problems} & set(KERNEL_GAPS)
    for p in problems:
        assert p.real_division
        for rel in [h.rel for h in p.hypotheses] + [p.goal]:
            for side in (rel.lhs, rel.rhs):
                assert not sp.sympify(side).has(sp.Float), p.name
        text = print_theorem(p)
        q = parse_theorem(text)  # printed text is plain Mathlib: no real-division convention needed
        assert q.name == p.name
        assert q == p, (p.name, text)


@pytest.mark.skipif(not BENCH.is_dir(), reason="benchmark files not present")
def test_benchmark_spot_checks():
    by = {p.name: p for p in _all_benchmark_problems()}
    p5 = by["567neq/P5"]  # `^ (1 / 3)` is a real cube root under the benchmark convention
    assert p5.goal.lhs == 9 * (a * b * c) ** sp.Rational(1, 3) / (a + b + c)
    p42 = by["chenneq/P42"]
    assert p42.goal.rhs == a**a * b**b * c**c
    assert [h.name for h in by["chenneq/P17"].hypotheses] == ["ha", "hb", "hc", "h1", "h2", "hc"]
    assert by["mo-int-20/P1"].variables == ["a", "b", "c", "d"]
    assert by["mo-int-20/P1"].hypotheses[4].rel == Relation(a * b + b * c + c * var("d") + var("d") * a,
                                                            "=", 1)
    assert E("1 / (3 * (sqrt 3))") == 1 / (3 * sp.sqrt(3))  # chenneq/P35's bound (a KERNEL_GAPS entry)
    assert by["567neq/P27"].goal.lhs.has(sp.sqrt(a**2 * b + b**2 * c + c**2 * a))  # `sqrt(` no space
    assert by["mo-int-20/P1"].source.startswith("mo-int-20.jsonl")


# ------------------------------------------------------------------ expressions and precedence


@pytest.mark.parametrize("text, expected", [
    ("-x ^ 2", -(x**2)),
    ("(-x) ^ 2", x**2),
    ("2 ^ 3 ^ 2", sp.Integer(2) ** 9),
    ("a - b - c", a - b - c),
    ("a / b / c", a / (b * c)),
    ("a / b * c", a * c / b),
    ("sqrt x ^ 2", x),                       # application binds tightest: (sqrt x) ^ 2
    ("sqrt (x ^ 2)", sp.Abs(x)),
    ("Real.sqrt x * 2", 2 * sp.sqrt(x)),
    ("√x + 1", sp.sqrt(x) + 1),
    ("√(x + 1)", sp.sqrt(x + 1)),
    ("√x⁻¹", sp.sqrt(1 / x)),                # Mathlib: `√x⁻¹` is `√(x⁻¹)`
    ("sqrt(x)", sp.sqrt(x)),
    ("x⁻¹", 1 / x),
    ("(a + b)⁻¹ * 2", 2 / (a + b)),
    ("x ^ (1/3 : ℝ)", x ** sp.Rational(1, 3)),
    ("x ^ ((1 : ℝ) / 3)", x ** sp.Rational(1, 3)),
    ("x ^ (3⁻¹ : ℝ)", x ** sp.Rational(1, 3)),
    ("x ^ (2 : ℕ)", x**2),
    ("x ^ (-1 : ℤ)", 1 / x),
    ("x ^ (2 + 1)", x**3),
    ("0.25 * x", x / 4),
    ("1.5e-1", sp.Rational(3, 20)),
    ("(a * b * c) ^ 2", (a * b * c) ** 2),
    ("a ^ a", a**a),
    ("a ^ (b + 1 / 2)", a ** (b + sp.Rational(1, 2))),
    ("-a * b", -a * b),
    ("a * -b", -a * b),
    ("2 * (a + b)", 2 * a + 2 * b),
    ("1 / 3 * x", x / 3),
    ("(x : ℝ)", x),
    ("a + b -- a comment\n + c", a + b + c),
    ("a /- block /- nested -/ -/ + b", a + b),
])
def test_expression_semantics(text, expected):
    assert sp.simplify(E(text) - expected) == 0
    assert E(text) == sp.sympify(expected)


def test_natural_number_division_is_refused_without_the_convention():
    with pytest.raises(ParseError, match="ℕ"):
        E("x ^ (1 / 3)")
    assert E("x ^ (1 / 3)", real_division=True) == x ** sp.Rational(1, 3)
    assert E("x ^ (2 - 1 / 2)", real_division=True) == x ** sp.Rational(3, 2)


# ------------------------------------------------------------------ statements


def test_statement_styles():
    p = parse_theorem("theorem foo (a b c : ℝ) (ha : 0 < a) (hb : b > 0) (hc : c ≥ 0) "
                      ": a * b + c ≤ a ^ 2 + b ^ 2 + c := by\n  nlinarith [sq_nonneg (a - b)]")
    assert p.name == "foo" and p.variables == ["a", "b", "c"]
    assert [h.name for h in p.hypotheses] == ["ha", "hb", "hc"]
    assert p.hypotheses[0].rel == Relation(0, "<", a)
    assert p.hypotheses[1].rel == Relation(b, ">", 0)
    assert p.goal == Relation(a * b + c, "<=", a**2 + b**2 + c)
    assert not p.real_division

    q = parse_theorem("lemma bar {a b : ℝ} (h : a ≠ b) : (a - b) ^ 2 > 0")  # no proof at all
    assert q.goal.op == ">" and q.hypotheses[0].rel.op == "!="
    assert q.meta["implicit_variables"] == ["a", "b"]
    assert print_theorem(q).startswith("theorem bar {a b : ℝ}")

    r = parse_theorem("example (x : ℝ) (hx : x = 1) : (x ^ 2 = 1) := by simp [hx]")
    assert r.name == "example" and r.goal == Relation(x**2, "=", 1)

    s = parse_theorem("theorem «567_P1» (x : ℝ) : x ^ 2 >= 0 := by positivity")
    assert s.name == "567_P1" and s.goal.op == ">="
    assert parse_theorem(print_theorem(s)) == s


def test_conjunction_hypotheses_split_and_restore():
    p = parse_theorem("theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b ∧ a + b = 1) (h' : a ≤ b) : a * b ≤ 1 / 4 := by sorry")
    assert [h.name for h in p.hypotheses] == ["h.1", "h.2", "h.3", "h'"]
    assert p.hypotheses[2].rel == Relation(a + b, "=", 1)
    text = print_theorem(p)
    assert "(h : 0 < a ∧ 0 < b ∧ a + b = 1)" in text
    assert parse_theorem(text) == p
    paren = parse_theorem("theorem t (a b : ℝ) (h : (0 < a ∧ 0 < b)) : a * b ≥ 0")
    assert [h.name for h in paren.hypotheses] == ["h.1", "h.2"]


def test_lips_header_turns_on_real_division(tmp_path):
    src = ("import Mathlib\nopen Real\n"
           "macro_rules | `($x / $y)   => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))\n"
           "theorem P (a : ℝ) (ha : a > 0) : a ^ (1 / 3) ≤ a + 1 := by sorry\n")
    p = parse_theorem(src)
    assert p.real_division and p.goal.lhs == a ** sp.Rational(1, 3)


def test_file_with_several_theorems_needs_a_name():
    src = "theorem p (a : ℝ) : a ^ 2 ≥ 0 := by positivity\n\ntheorem q (b : ℝ) :\n  b ^ 4 ≥ 0 := by positivity\n"
    with pytest.raises(ParseError, match="2 declarations"):
        parse_theorem(src)
    assert parse_theorem(src, name="q").goal == Relation(b**4, ">=", 0)


def test_error_position_on_later_line():
    src = "theorem q (b : ℝ) :\n  b ^ 4 ≥ Real.sin b := by sorry"
    with pytest.raises(ParseError) as ei:
        parse_theorem(src)
    assert (ei.value.line, ei.value.column) == (2, 11)
    assert str(ei.value) == "function `Real.sin` is not supported (line 2, column 11)"


def _malformed() -> list[dict]:
    return [json.loads(line) for line in (DATA / "malformed.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_malformed_corpus_is_big_enough():
    assert len(_malformed()) >= 30


@pytest.mark.parametrize("case", _malformed(), ids=lambda c: c["expect"][:30])
def test_malformed_inputs_give_one_line_errors(case):
    with pytest.raises(ParseError) as ei:
        parse_theorem(case["input"])
    err = ei.value
    assert case["expect"] in err.message
    assert "\n" not in str(err)
    assert (err.line, err.column) == (case.get("line", 1), case["column"])
    assert str(err).endswith(f"column {case['column']})")


# ------------------------------------------------------------------ printer


def test_printer_output_is_plain_lean():
    assert print_expr(x ** sp.Rational(1, 3)) == "x ^ (1 / 3 : ℝ)"
    assert print_expr(sp.sqrt(a + b)) == "Real.sqrt (a + b)"
    assert print_expr(-(x**2)) == "-x ^ 2"
    assert print_expr(a / (b + c)) == "a / (b + c)"
    assert print_expr(1 / x) == "1 / x"
    assert print_expr(sp.Rational(-3, 4)) == "-3 / 4"
    assert print_expr(sp.Abs(a - b)) == "Real.sqrt ((a - b) ^ 2)"
    assert print_theorem(Problem("n/1", ["a"], [Hypothesis("h", Relation(sp.Rational(1, 2), "<", 1))],
                                 Relation(a**2, ">=", 0))) == \
        "theorem «n/1» (a : ℝ) (h : (1 / 2 : ℝ) < 1) : a ^ 2 ≥ 0 := by sorry"


_SYMS = [a, b, c]
_leaf = st.one_of(st.sampled_from(_SYMS),
                  st.integers(-6, 6).map(sp.Integer),
                  st.tuples(st.integers(-5, 5), st.integers(1, 4)).map(lambda t: sp.Rational(*t)))


def _extend(children):
    exps = st.sampled_from([sp.Integer(k) for k in (0, 1, 2, 3, 4, -1, -2)] +
                           [sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(2, 3), sp.Rational(3, 2),
                            sp.Rational(-1, 2)])
    return st.one_of(
        st.tuples(children, children).map(lambda t: t[0] + t[1]),
        st.tuples(children, children).map(lambda t: t[0] - t[1]),
        st.tuples(children, children).map(lambda t: t[0] * t[1]),
        st.tuples(children, children).map(lambda t: t[0] / t[1] if t[1] != 0 else t[0]),
        st.tuples(children, exps).map(lambda t: t[0] ** t[1]),
        st.tuples(children, st.sampled_from(_SYMS)).map(lambda t: t[0] ** t[1]),
        children.map(sp.sqrt),
        children.map(lambda e: -e),
    )


_exprs = st.recursive(_leaf, _extend, max_leaves=8)


def _printable(e: sp.Expr) -> bool:
    return not any(e.has(v) for v in (sp.I, sp.zoo, sp.oo, -sp.oo, sp.nan)) and not any(
        p.base.is_number and p.base.is_negative and p.exp.is_integer is not True for p in e.atoms(sp.Pow))


def _same_value(e: sp.Expr, f: sp.Expr) -> bool:
    for point in ({a: sp.Rational(3, 2), b: sp.Rational(2, 7), c: 5}, {a: sp.Rational(1, 3), b: 2, c: 1}):
        u, v = complex(e.subs(point).evalf(30)), complex(f.subs(point).evalf(30))
        if abs(u - v) > 1e-9 * (1 + abs(u)):
            return False
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(_exprs, _exprs, st.sampled_from(["<=", "<", ">=", ">", "=", "!="]))
def test_parse_print_round_trip_property(lhs, rhs, op):
    """print keeps the value of any expression; parse ∘ print is the identity on parsed ones.

    (sympy can build non-canonical trees, e.g. from ``sqrt(sqrt(4/3))``, that reading back
    normalises; the parser itself only ever produces canonical ones.)"""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    if not (_printable(lhs) and _printable(rhs)):
        return
    once = parse_expression(print_expr(lhs), ["a", "b", "c"])
    assert _same_value(once, lhs), print_expr(lhs)
    assert parse_expression(print_expr(once), ["a", "b", "c"]) == once, print_expr(once)
    try:
        p = parse_theorem(print_theorem(
            Problem("t", ["a", "b", "c"], [Hypothesis("h", Relation(a, ">", 0))], Relation(lhs, op, rhs))))
    except ParseError as exc:
        # the kernel cannot show every sympy rewrite faithful yet (√(c²) → |c|, denominators it
        # cannot prove nonzero, see test_frontend_faithful.KERNEL_GAPS): such a text is refused
        if "simplifies" not in exc.message:
            raise
        reject()
    assert _same_value(p.goal.rhs, rhs)
    text = print_theorem(p)
    assert parse_theorem(text) == p, text


# ------------------------------------------------------------------ CLI


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from prover.cli import app; app()", *args],
                          check=False, capture_output=True, text=True, timeout=120)


def test_cli_parse_ok_and_json():
    r = _cli("parse", "--json", "theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b) : a * b > 0 := by positivity")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["variables"] == ["a", "b"] and [h["name"] for h in d["hypotheses"]] == ["h.1", "h.2"]
    assert d["goal"] == {"lhs": "a*b", "op": ">", "rhs": "0", "lean": "a * b > 0"}
    r = _cli("parse", "theorem t (a : ℝ) : a ^ 2 ≥ 0")
    assert r.returncode == 0 and "goal" in r.stdout


@pytest.mark.parametrize("case", _malformed()[::16], ids=lambda c: c["expect"][:30])
def test_cli_parse_errors_exit_2_without_traceback(case):
    r = _cli("parse", case["input"])
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    line = r.stderr.strip()
    assert line.startswith("error: ") and "\n" not in line and f"column {case['column']}" in line


def test_cli_parse_missing_file_and_benchmark_entry(tmp_path):
    r = _cli("parse", str(tmp_path / "nope.lean"))
    assert r.returncode == 2 and r.stderr.startswith("error: no such file")
    if BENCH.is_dir():
        r = _cli("parse", "--json", f"{BENCH / 'chenneq.jsonl'}#P28")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["name"] == "chenneq/P28"


def test_long_sums_and_deep_nesting():
    p = parse_theorem("theorem t (a b : ℝ) : a " + "+ a * b - b / 3 " * 1200 + "≥ 0")
    assert p.goal.lhs == a + 1200 * a * b - 400 * b
    assert parse_theorem(print_theorem(p)) == p
    with pytest.raises(ParseError, match="nested too deeply"):
        parse_theorem("theorem t (a : ℝ) : " + "(" * 3000 + "a" + ")" * 3000 + " ≥ 0")
