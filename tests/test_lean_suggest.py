"""``prover lean suggest`` (issue 29 item 4, the command-line half of the ``prover?`` tactic): a goal
as Lean's ``ppGoal`` prints it in, the tactic block out; the block, put after ``by`` in a theorem
with the context's binders and hypothesis names (as Lean would have it where ``prover?`` was),
passes the replay model (a model of Lean, not Lean). Bad input: one line, exit 2; a false goal:
status counterexample, exit 1."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.suggest import (
    GoalTextError,
    PrettyGoal,
    read_goal,
    replay_verdict,
    split_and,
    statement_of,
    tactic_block,
)

runner = CliRunner()

NESBITT = """a b c : ℝ
ha : 0 < a
hb : 0 < b
hc : 0 < c
⊢ a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2
"""

# as Lean prints it with `pp.numericTypes` (what `prover?` sets), a long type broken onto
# indented lines (Format.nest), a conjunction hypothesis, `√` and a `case` line
AM_GM_WRAPPED = """case h
a b : ℝ
h₀ :
  (0 : ℝ) < a ∧
    (0 : ℝ) < b
⊢ √(a * b) ≤
    (a + b) / (2 : ℝ)
"""

# with `pp.numericTypes`: ℕ exponents carry their type
NUMERIC_TYPES = """x y : ℝ
hx : (0 : ℝ) < x
hy : (0 : ℝ) < y
⊢ x ^ (2 : ℕ) + y ^ (2 : ℕ) ≥ (1 / 2 : ℝ) * (x + y) ^ (2 : ℕ)
"""

INVERSE = """x : ℝ
hx : 0 < x
⊢ x + x⁻¹ ≥ 2
"""


def suggest_json(goal: str, *extra: str):
    return runner.invoke(app, ["lean", "suggest", "-", "--json", "--closers-only", "--time-limit", "60", *extra],
                         input=goal)


def theorem_with_block(goal_text: str, block: str) -> str:
    """The block where Lean would run it: after ``by`` in a theorem whose binders are the context
    (names as printed), without ``open Real`` (the user's file need not have it)."""
    g = read_goal(goal_text)
    binders = " ".join(f"({' '.join(loc.names)} : {loc.type})" for loc in g.context)
    body = "\n".join("  " + ln if ln else "" for ln in block.split("\n"))
    return f"import Mathlib\n\ntheorem t {binders} :\n    {g.target} := by\n{body}\n"


def assert_replays(goal_text: str, block: str) -> None:
    from prover.lean.replay import replay_text

    report = replay_text(theorem_with_block(goal_text, block), "suggested.lean")
    assert report.ok, report.summary() + "\n" + "\n".join(f"{s.line}: {s.reason}" for s in report.steps if not s.ok)


# ------------------------------------------------------------------ reading the printed goal

def test_read_goal_groups_names_and_joins_continuation_lines():
    g = read_goal(AM_GM_WRAPPED)
    assert g.case == "h"
    assert [(loc.names, loc.type) for loc in g.context] == [
        (("a", "b"), "ℝ"), (("h₀",), "(0 : ℝ) < a ∧ (0 : ℝ) < b")]
    assert g.target == "√(a * b) ≤ (a + b) / (2 : ℝ)"
    assert g.statement() == ("theorem prover_goal (a b : ℝ) (h₀ : (0 : ℝ) < a ∧ (0 : ℝ) < b) :\n"
                             "    √(a * b) ≤ (a + b) / (2 : ℝ) := by\n  sorry\n")


def test_statement_keeps_context_order_and_avoids_the_names_of_the_context():
    g = read_goal("a : ℝ\nha : 0 < a\nb : ℝ\nprover_goal : 0 < b\n⊢ a * b > 0")
    assert g.statement().startswith("theorem prover_goal_2 (a : ℝ) (ha : 0 < a) (b : ℝ) (prover_goal : 0 < b) :")


def test_typed_natural_literals_are_written_bare():
    g = read_goal(NUMERIC_TYPES)
    assert g.target == "x ^ 2 + y ^ 2 ≥ (1 / 2 : ℝ) * (x + y) ^ 2"
    assert read_goal("x : ℝ\nh : x ^ (12 : ℕ) ≤ (1 : ℝ)\n⊢ x ^ (1 / 3 : ℝ) ≤ 1").context[1].type == "x ^ 12 ≤ (1 : ℝ)"


def test_the_replay_verdict_is_one_line():
    g = read_goal("x : ℝ\nhx : 0 < x\n⊢ x ≥ 0")
    assert replay_verdict(g, "exact le_of_lt hx").startswith("PASS")
    bad = replay_verdict(g, "exact no_such_lemma hx")
    assert bad.startswith("FAIL") and "first failure" in bad and "\n" not in bad


def test_a_one_goal_header_and_windows_line_ends_are_read():
    g = read_goal("1 goal\r\nx y : ℝ\r\nh : x ≤ y\r\n⊢ x ^ 2 ≤ x ^ 2 + (y - x) ^ 2\r\n")
    assert [loc.names for loc in g.context] == [("x", "y"), ("h",)]


def test_conjunction_parts_are_copied_with_fresh_names():
    g = PrettyGoal(read_goal("a b : ℝ\nh : 0 < a ∧ (0 < b ∧ a < b) ∧ b < 2\nh_1 : a = a\n⊢ a ≤ b").context, "a ≤ b")
    assert split_and("0 < a ∧ (0 < b ∧ a < b) ∧ b < 2") == ["0 < a", "(0 < b ∧ a < b)", "b < 2"]
    assert g.conjunction_copies() == ["have h_1' : 0 < a := h.1", "have h_2 : (0 < b ∧ a < b) := h.2.1",
                                      "have h_3 : b < 2 := h.2.2"]


@pytest.mark.parametrize("text, needle", [
    ("n : ℕ\n⊢ (0 : ℝ) ≤ 1", "only variables of type ℝ"),
    ("x : ℝ\ninst✝ : Fact (0 < x)\n⊢ 0 ≤ x ^ 2", "instance argument"),
    ("α : Type u_1\ninst✝ : LinearOrderedField α\nx : α\n⊢ 0 ≤ x ^ 2", "only variables of type ℝ"),
    ("x : ℝ := 2\n⊢ x ≥ 0", "`let`"),
    ("x✝ : ℝ\n⊢ x✝ ^ 2 ≥ 0", "inaccessible"),
    ("n : ℝ\nm : ℕ\n⊢ n ≤ ↑m", "cast"),
    ("x : ℝ\n⊢ ↑(Int.floor x) ≤ x", "cast"),
    ("x : ℝ\n⊢ x ^ 2 + ⋯ ≥ 0", "abbreviated"),
    ("x : ℝ\n⊢ x ≥ ?m.12", "metavariable"),
    ("x : ℝ\n⊢ x ^ 2 ≥ 0\n⊢ x ^ 4 ≥ 0", "2 goals"),
    ("2 goals\nx : ℝ\n⊢ x ^ 2 ≥ 0", "give one goal"),
    ("x : ℝ\nhx : 0 < x", "no `⊢"),
    ("", "empty goal"),
    ("  x : ℝ\n⊢ x ≥ 0", "indented"),
    ("x ℝ\n⊢ x ≥ 0", "expected `name : type`"),
    ("x : ℝ\n| x + 0", "conv"),
    ("x : ℝ\nhx : 0 < x\n⊢ Real.cos x ≤ x - 1", "the goal is not read"),
    ("x : ℝ\n⊢ x ^ (1 / 3) ≥ 0", "the goal is not read"),
])
def test_refused_in_one_line_with_exit_2(text, needle):
    with pytest.raises(GoalTextError) as err:
        statement_of(text)
    assert needle in str(err.value) and "\n" not in str(err.value)
    r = runner.invoke(app, ["lean", "suggest", "-"], input=text)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.output
    r = runner.invoke(app, ["lean", "suggest", "-", "--json"], input=text)
    assert r.exit_code == 2 and json.loads(r.stdout)["exit_code"] == 2, r.output


def test_missing_file_and_bad_time_limit_are_user_errors(tmp_path):
    r = runner.invoke(app, ["lean", "suggest", str(tmp_path / "nope.txt")])
    assert r.exit_code == 2 and "no such file" in r.output
    r = runner.invoke(app, ["lean", "suggest", "-", "--time-limit", "0"], input=NESBITT)
    assert r.exit_code == 2 and "--time-limit" in r.output
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("x : ℝ\n⊢ x ≥ 0".encode("utf-16"))
    r = runner.invoke(app, ["lean", "suggest", str(bad)])
    assert r.exit_code == 2 and "UTF-8" in r.output


# ------------------------------------------------------------------ the tactic block of a rendered file

def test_tactic_block_is_found_by_tokens_not_by_text():
    rendered = ("-- Rendered by prover; a comment with := by in it\nimport Mathlib\nimport ProverLemmas\n\nopen Real\n\n"
                "set_option maxHeartbeats 400000 in\n"
                "theorem t (a : ℝ) (h : 0 < a) :\n    a ≥ 0 := by\n"
                "  /- a block comment := by -/\n  have k : (0 : ℝ) ≤ a := h.le\n"
                "  linear_combination k +\n      0\n\n#print axioms t\n")
    b = tactic_block(rendered)
    assert b.lines == ("/- a block comment := by -/", "have k : (0 : ℝ) ≤ a := h.le", "linear_combination k +",
                       "    0")
    assert b.max_heartbeats == 400000 and b.imports == ("ProverLemmas",)
    assert b.indented(4).split("\n")[0] == "    /- a block comment := by -/"


def test_tactic_block_refuses_a_file_without_one_proof():
    with pytest.raises(ValueError):
        tactic_block("import Mathlib\n\n#print axioms t\n")
    with pytest.raises(ValueError):
        tactic_block("theorem t (a : ℝ) : a = a := rfl\n")


# ------------------------------------------------------------------ end to end

@pytest.mark.parametrize("goal", [NESBITT, AM_GM_WRAPPED, INVERSE, NUMERIC_TYPES],
                         ids=["nesbitt", "am-gm-wrapped", "inverse", "numeric-types"])
def test_goal_text_in_tactic_block_out_and_it_replays(goal):
    r = suggest_json(goal)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["status"] == "proved" and d["error"] is None and d["time_s"] >= 0
    assert set(d) >= {"status", "tactic", "lean", "time_s", "error"}
    block = d["tactic"]
    assert block and not block[0].isspace() and "sorry" not in block
    rendered = tactic_block(d["lean"]).lines      # the rendered theorem's own proof, after any copies
    assert block.split("\n")[-len(rendered):] == list(rendered)
    assert d["lean"].startswith("-- Rendered by prover") and "theorem prover_goal" in d["lean"]
    assert_replays(goal, block)
    assert d["replay"].startswith("PASS") and d["imports"] == []


def test_conjunction_context_parts_are_copied():
    """``positivity`` (in the replay model as in Mathlib) sees hypotheses, not ``h₀.1``: the block
    starts with copies of ``h₀``'s parts; the renderer's own prelude copies them too, so the
    block passes with or without these lines."""
    d = json.loads(suggest_json(AM_GM_WRAPPED).stdout)
    lines = d["tactic"].split("\n")
    assert lines[:2] == ["have h₀_1 : (0 : ℝ) < a := h₀.1", "have h₀_2 : (0 : ℝ) < b := h₀.2"]
    from prover.lean.replay import replay_text

    assert replay_text(theorem_with_block(AM_GM_WRAPPED, "\n".join(lines[2:])), "bare.lean").ok


def test_plain_output_is_the_block_and_a_file_argument_works(tmp_path):
    f = tmp_path / "goal.txt"
    f.write_text(INVERSE, encoding="utf-8")
    r = runner.invoke(app, ["lean", "suggest", str(f), "--closers-only"])
    assert r.exit_code == 0, r.output
    d = json.loads(suggest_json(INVERSE).stdout)
    assert r.stdout.rstrip("\n") == d["tactic"]


def test_a_false_goal_is_a_counterexample_with_exit_1():
    r = suggest_json("a b : ℝ\n⊢ a * b ≥ a ^ 2 + b ^ 2\n")
    assert r.exit_code == 1, r.output
    d = json.loads(r.stdout)
    assert d["status"] == "counterexample" and d["tactic"] is None and d["counterexample"]
    assert "false" in d["error"]
    r = runner.invoke(app, ["lean", "suggest", "-", "--closers-only"], input="a b : ℝ\n⊢ a * b ≥ a ^ 2 + b ^ 2\n")
    assert r.exit_code == 1 and "counterexample" in r.output and r.stdout == ""
