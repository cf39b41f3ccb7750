"""Differential fuzzing of ``Real.exp`` / ``Real.log``: the statement fuzzer's ``--exp-log`` option
(prover.semantics.fuzz_frontend) and the exp/log suite of the file-context fuzzer
(prover.semantics.fuzz_context: the exp_log pool, ``open Real``/``Complex``/``Nat``/``EReal``,
declarations named ``exp``/``log``, the short names). Seeded short runs through the real front-end
find no misreading; front-ends that misread are caught."""

from __future__ import annotations

import json
import re

import pytest

from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_context import (
    BasePool,
    Context,
    expect_for,
    load_pool,
    resolve_exp_log,
    run_context_fuzz,
)
from prover.semantics.fuzz_frontend import StatementGenerator, has_exp_log, run_fuzz

# ---------------------------------------------------------------- fuzz-frontend --exp-log


def test_generator_writes_the_traps() -> None:
    gen = StatementGenerator(5, exp_log=0.3)
    texts = [A.show_statement(gen.statement(i)[0]) for i in range(200)]
    joined = "\n".join(texts)
    for trap in (r"Real\.exp \w+ \^ \d", r"Real\.log \w+⁻¹", r"Real\.exp \(Real\.log ", r"Real\.log \(-\d\)",
                 r"Real\.log 0\b", r"Real\.log \(\w+ \* \w+\)", r"Real\.log \(Real\.log "):
        assert re.search(trap, joined), trap
    assert sum(has_exp_log(gen.statement(i)[0]) for i in range(200)) > 100
    assert StatementGenerator(5, exp_log=0.3).statement(17) == StatementGenerator(5, exp_log=0.3).statement(17)
    assert not any(has_exp_log(StatementGenerator(5).statement(i)[0]) for i in range(50))   # off by default


def test_seeded_exp_log_run_has_no_misreading() -> None:
    report = run_fuzz(80, 6, seed=2311, exp_log=0.3)
    summary = report.to_json(max_examples=3)
    assert report.exp_log_accepted > 20 and report.exp_log_pairs > 100
    assert report.failures == 0 and not report.disagreements, json.dumps(summary["examples"], ensure_ascii=False)


def _rewritten(pattern: str, repl: str):
    return lambda text: parse_theorem(re.sub(pattern, repl, text))


@pytest.mark.parametrize("pattern, repl", [
    (r"Real\.exp (\w+) \^ (\d)", r"Real.exp (\1 ^ \2)"),        # `Real.exp x ^ 2` read as exp (x ^ 2)
    (r"Real\.log (\w+)⁻¹", r"(Real.log \1)⁻¹"),                 # `Real.log x⁻¹` read as (log x)⁻¹
    (r"Real\.log \(-", r"Real.log (0 - 1 - "),                   # a wrong value of log of a negative
])
def test_the_fuzzer_catches_a_misreading_front_end(pattern: str, repl: str) -> None:
    report = run_fuzz(80, 6, seed=2311, exp_log=0.3, parse=_rewritten(pattern, repl))
    assert report.disagreements


def test_cli_option(tmp_path) -> None:
    from prover.semantics.__main__ import main

    out = tmp_path / "f.json"
    code = main(["fuzz-frontend", "--statements", "12", "--points", "3", "--seed", "3", "--exp-log", "0.3",
                 "--out", str(out)])
    d = json.loads(out.read_text())
    assert d["options"]["exp_log"] == 0.3 and d["exp_log_statements"] > 0
    assert code == (1 if d["failures"] else 0)


# ---------------------------------------------------------------- fuzz-context: the model


def _expect(text: str, **ctx) -> str:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    return expect_for(stmt, Context(**ctx)).outcome


EXP = "theorem t (x : ℝ) : exp x ≥ x + 1 := by sorry"
LOG = "theorem t (x : ℝ) (h : 0 < x) : log x ≤ x - 1 := by sorry"
LOG2 = "theorem t : log 2 < 1 := by sorry"


@pytest.mark.parametrize("text, ctx, outcome", [
    (EXP, {}, "refuse"),                                       # no root `exp` in Mathlib
    (EXP, {"opens": ("Real",)}, "meaning"),
    (EXP, {"opens": ("Complex",)}, "refuse"),                  # Complex.exp ↑x : ℂ, not Real.exp
    (EXP, {"opens": ("Real", "Complex")}, "refuse"),           # ambiguous
    (EXP, {"opens": ("Real", "EReal")}, "refuse"),             # EReal.exp ↑x: ambiguous
    (EXP, {"opens": ("Real", "Nat")}, "meaning"),              # no Nat.exp
    (LOG, {"opens": ("Real", "Nat")}, "meaning"),              # Nat.log fails on a real argument
    (LOG, {"opens": ("Nat",)}, "refuse"),
    (LOG, {"opens": ("Real", "EReal")}, "meaning"),            # no EReal.log
    (LOG2, {"opens": ("Real", "Nat")}, "refuse"),              # Nat.log 2 : ℕ → ℕ elaborates too
    (LOG2, {"opens": ("Real",)}, "meaning"),
    ("theorem t : log (-2) > 0 := by sorry", {"opens": ("Real", "Nat")}, "unknown"),     # Nat.log (-2)?
    ("theorem t (x : ℝ) : Real.log (exp x) = x := by sorry", {"opens": ("Real", "Complex")}, "unknown"),
    (EXP, {"opens": ("Real",), "declared": ("exp",)}, "refuse"),          # a root `exp` of the file
    ("theorem t (x : ℝ) : Real.exp x > 0 := by sorry", {"declared": ("exp",)}, "meaning"),
    (EXP, {"opens": ("Real",), "declared": ("Real.exp",)}, "meaning"),    # Lean rejects that one
    (EXP, {"namespace": ("Foo",), "opens": ("Real",), "declared": ("Foo.exp",)}, "refuse"),
    (EXP, {"namespace": ("Real",)}, "meaning"),
    (LOG, {"namespace": ("Nat",), "opens": ("Real",)}, "refuse"),          # Nat.log wins outright
    ("theorem t (x : ℝ) : rexp x > 0 := by sorry", {"opens": ("Real",)}, "meaning"),
    ("theorem t (x : ℝ) : rexp x > 0 := by sorry", {"scoped": ("Real",)}, "meaning"),
    ("theorem t (x : ℝ) : rexp x > 0 := by sorry", {}, "refuse"),
    (EXP, {"scoped": ("Real",)}, "refuse"),                    # `open scoped` opens no names
    ("theorem t (x : ℝ) : Complex.exp x = 1 := by sorry", {"opens": ("Real",)}, "refuse"),
    ("theorem t (x : ℝ) : abs x ≥ 0 := by sorry", {"opens": ("Complex",)}, "refuse"),
])
def test_expectations(text: str, ctx: dict, outcome: str) -> None:
    assert _expect(text, **ctx) == outcome


def test_overload_under_an_expected_type_is_not_modelled() -> None:
    node = A.exp_log("exp", A.var("x"), "exp")
    assert resolve_exp_log(node, Context(opens=("Real", "Complex")), free=True)[0] == "refuse"
    assert resolve_exp_log(node, Context(opens=("Real", "Complex")), free=False)[0] == "unknown"


# ---------------------------------------------------------------- fuzz-context: seeded runs


def _exp_log_pool(seed: int) -> BasePool:
    """The context fuzzer's pool with only the exp/log suite (and the generated statements)."""
    pool = load_pool(seed)
    pool.benchmarks, pool.examples, pool.definitions, pool.functions = [], [], [], []
    return pool


def test_the_pool_has_the_exp_log_train_split() -> None:
    pool = load_pool(0)
    assert len(pool.exp_log) == 68 and all(b.source.startswith("exp_log:") for b in pool.exp_log)
    assert not any("heldout" in b.source for b in pool.exp_log)


def test_seeded_exp_log_context_run_has_no_misreading() -> None:
    report = run_context_fuzz(150, seed=2311, points=3, pool=_exp_log_pool(2311))
    summary = report.to_json(max_examples=3)
    assert report.exp_log["checks"] > 100 and report.exp_log["accepted"] > 30 and report.exp_log["pairs"] > 60
    assert report.exp_log["must_refuse"] > 20
    assert report.failures == 0, json.dumps(summary["examples"], ensure_ascii=False)[:4000]
    short = summary["per_wrapper"].get("rewrite:exp_log_short", {})
    assert short.get("accepted", 0) > 0


def _open_real_blind(text: str, name: str):
    """A front-end that reads the theorem as if only ``open Real`` were before it."""
    start = text.index(f"theorem {name} ")
    return parse_theorem("import Mathlib\nopen Real\n" + text[start:].split("\n\n")[0], real_division=False,
                         name=name)


def test_the_fuzzer_catches_a_front_end_blind_to_the_opens() -> None:
    report = run_context_fuzz(150, seed=2311, points=3, pool=_exp_log_pool(2311), parse=_open_real_blind)
    assert "accepted_must_refuse" in {f.kind for f in report.misreadings}
