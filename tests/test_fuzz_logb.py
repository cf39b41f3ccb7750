"""Differential fuzzing of ``Real.logb``: the statement fuzzer's ``--logb`` option
(prover.semantics.fuzz_frontend) and the ``logb`` suite of the file-context fuzzer
(prover.semantics.fuzz_context: the ``logb:`` pool, a short ``logb`` after ``open Real`` or inside
``namespace Real``, ``Real.logb`` inside ``namespace Foo``, declarations named ``logb``). Seeded short runs
through the real front-end find no misreading; front-ends that misread are caught."""

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
    resolve_logb,
    run_context_fuzz,
)
from prover.semantics.fuzz_frontend import StatementGenerator, has_logb, run_fuzz

# ---------------------------------------------------------------- fuzz-frontend --logb

#: the seeded run's seed (it met no crash before the fix of test_known_front_end_crashes either)
SEED = 2714


def test_generator_writes_the_traps() -> None:
    gen = StatementGenerator(5, logb=0.3)
    joined = "\n".join(A.show_statement(gen.statement(i)[0]) for i in range(200))
    for trap in (r"Real\.logb \S+ \w+ \^ \d", r"Real\.logb \S+ \w+⁻¹", r"Real\.logb 2⁻¹ ", r"Real\.logb \(-\d\) ",
                 r"Real\.logb [01] ", r"Real\.logb (\w+) \1\b", r"Real\.logb \(1 / 2\) ", r"-Real\.logb ",
                 r"Real\.logb \S+ \(Real\.logb ", r"Real\.logb \(Real\.logb ", r"Real\.logb [a-z] "):
        assert re.search(trap, joined), trap
    assert sum(has_logb(gen.statement(i)[0]) for i in range(200)) > 100
    assert StatementGenerator(5, logb=0.3).statement(17) == StatementGenerator(5, logb=0.3).statement(17)
    assert not any(has_logb(StatementGenerator(5).statement(i)[0]) for i in range(50))   # off by default
    # the other streams are untouched: without logb, the statements are those of a generator without it
    assert StatementGenerator(5, exp_log=0.3).statement(3) == StatementGenerator(5, exp_log=0.3, logb=0.0).statement(3)


def test_seeded_logb_run_has_no_misreading() -> None:
    report = run_fuzz(60, 4, seed=SEED, logb=0.5)
    summary = report.to_json(max_examples=3)
    assert report.logb_accepted > 10 and report.logb_pairs > 40
    assert not report.disagreements, json.dumps(summary["examples"], ensure_ascii=False)
    assert not report.crashes, summary["crashes"]
    assert report.failures == 0


#: front-end crashes found by ``fuzz-frontend --logb`` (the faithful form's ``Fn(log, x) / Fn(log, b)``
#: with ``Real.log b = 0`` under a root, an absolute value or a real power reaches the kernel's
#: conversion as 0/0 or zoo): a TypeError instead of Lean's reading (0) or a one-line refusal
KNOWN_CRASHES = [
    "theorem t : Real.sqrt (Real.logb 1 1) = 0 := by sorry",
    "theorem t : |Real.logb 1 0| > 0 := by sorry",
    "theorem t : (Real.logb 1 2 ^ 2) ^ (1 / 2 : ℝ) > 0 := by sorry",
]


@pytest.mark.parametrize("text", KNOWN_CRASHES)
def test_known_front_end_crashes(text: str) -> None:
    """Once crashes (a TypeError in the kernel's reading of ``x / Real.log 1``): now one line."""
    from prover.frontend.errors import ParseError

    with pytest.raises(ParseError) as exc:
        parse_theorem(text)
    assert "base 0, 1 or -1" in str(exc.value) and "\n" not in str(exc.value)


def _rewritten(pattern: str, repl: str):
    return lambda text: parse_theorem(re.sub(pattern, repl, text))


@pytest.mark.parametrize("pattern, repl", [
    (r"Real\.logb (\w+) (\w+)", r"Real.logb \2 \1"),                      # the argument first
    (r"Real\.logb (\w+) (\w+) \^ (\d)", r"Real.logb \1 (\2 ^ \3)"),      # `Real.logb 2 x ^ 2` as logb (x ^ 2)
    (r"(Real\.logb \S+ \w+)⁻¹", r"\1"),                                    # `Real.logb 2 x⁻¹` without its ⁻¹
    (r"Real\.logb \(-(\d)\) ", r"Real.logb (1 / \1) "),                   # log (−2) taken as −log 2
])
def test_the_fuzzer_catches_a_misreading_front_end(pattern: str, repl: str) -> None:
    report = run_fuzz(120, 5, seed=2711, logb=0.4, parse=_rewritten(pattern, repl))
    assert report.disagreements


def test_cli_option(tmp_path) -> None:
    from prover.semantics.__main__ import main

    out = tmp_path / "f.json"
    code = main(["fuzz-frontend", "--statements", "12", "--points", "3", "--seed", str(SEED), "--logb", "0.3",
                 "--out", str(out)])
    d = json.loads(out.read_text())
    assert d["options"]["logb"] == 0.3 and d["logb_statements"] > 0
    assert code == (1 if d["failures"] else 0)


# ---------------------------------------------------------------- fuzz-context: the model


def _expect(text: str, **ctx) -> str:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    return expect_for(stmt, Context(**ctx)).outcome


QUALIFIED = "theorem t (x : ℝ) (h : 1 < x) : Real.logb 2 x > 0 := by sorry"
SHORT = "theorem t (x : ℝ) (h : 1 < x) : logb 2 x > 0 := by sorry"
ROOT = "theorem t (x : ℝ) (h : 1 < x) : _root_.Real.logb 2 x > 0 := by sorry"


@pytest.mark.parametrize("text, ctx, outcome", [
    (QUALIFIED, {}, "meaning"),
    (QUALIFIED, {"opens": ("Real",)}, "meaning"),
    (QUALIFIED, {"namespace": ("Foo",)}, "meaning"),                         # Foo.Real.logb: not declared
    (QUALIFIED, {"namespace": ("Nat",)}, "meaning"),                         # no Nat.Real namespace
    (QUALIFIED, {"namespace": ("Foo",), "declared": ("Foo.Real.logb",)}, "refuse"),
    (QUALIFIED, {"declared": ("logb", "Foo.logb")}, "meaning"),            # the full name is unaffected
    (QUALIFIED, {"namespace": ("Real",), "declared": ("Real.logb",)}, "meaning"),   # Lean rejects that one
    (ROOT, {"namespace": ("Foo",), "declared": ("Foo.Real.logb",)}, "meaning"),
    (SHORT, {}, "refuse"),                                                   # no `open Real`
    (SHORT, {"opens": ("Real",)}, "refuse"),                                 # another `logb` may be open
    (SHORT, {"scoped": ("Real",)}, "refuse"),
    (SHORT, {"namespace": ("Real",)}, "meaning"),                            # Real.logb wins outright
    (SHORT, {"namespace": ("Real",), "opens": ("Nat", "Complex"), "declared": ("logb",)}, "meaning"),
    (SHORT, {"namespace": ("Nat",), "opens": ("Real",)}, "refuse"),          # Nat.logb not charted
    (SHORT, {"namespace": ("Foo",)}, "refuse"),
    (SHORT, {"namespace": ("Foo",), "opens": ("Real",), "declared": ("Foo.logb",)}, "refuse"),
    ("theorem t (x : ℝ) : Nat.logb 2 x > 0 := by sorry", {"opens": ("Real",)}, "refuse"),
])
def test_expectations(text: str, ctx: dict, outcome: str) -> None:
    assert _expect(text, **ctx) == outcome


def test_real_log_given_two_arguments_is_refused() -> None:
    """``Real.log 2 x`` (a ``logb`` node spelled ``Real.log``, as the foreign rewrite writes it)."""
    goal = A.LRel(">", A.logb(A.num(2), A.var("x"), "Real.log"), A.num(0))
    stmt = A.LStatement("t", ("x",), (), goal)
    assert expect_for(stmt, Context(opens=("Real",))).outcome == "refuse"
    assert A.show_rel(goal) == "Real.log 2 x > 0"


def test_the_resolution_gives_its_reasons() -> None:
    verdict, why = resolve_logb(A.logb(A.num(2), A.var("x"), "logb"), Context(opens=("Real",)))
    assert verdict == "refuse" and "Real.logb" in why


# ---------------------------------------------------------------- fuzz-context: seeded runs


def _logb_pool(seed: int) -> BasePool:
    """The context fuzzer's pool with only the logb statements (and the generated ones)."""
    pool = load_pool(seed)
    pool.benchmarks, pool.examples, pool.definitions, pool.functions, pool.exp_log = [], [], [], [], []
    return pool


def test_the_pool_has_the_logb_statements() -> None:
    pool = load_pool(0)
    assert len(pool.logb) >= 15 and all(b.source.startswith("logb:") and has_logb(b.stmt) for b in pool.logb)
    assert not pool.skipped.get("logb")


def test_seeded_logb_context_run_has_no_misreading() -> None:
    report = run_context_fuzz(200, seed=2711, points=3, pool=_logb_pool(2711))
    summary = report.to_json(max_examples=3)
    assert report.logb["checks"] > 150 and report.logb["accepted"] > 40 and report.logb["pairs"] > 100
    assert report.logb["must_refuse"] > 40
    assert report.failures == 0, json.dumps(summary["examples"], ensure_ascii=False)[:4000]
    wrappers = summary["per_wrapper"]
    assert wrappers["rewrite:logb_short"]["refused"] > 0
    assert any(k.startswith("item:logb_decl") for k in wrappers)


def _in_namespace_real_blind(text: str, name: str):
    """A front-end that reads the theorem as if it stood inside ``namespace Real`` (and nothing else
    were in the file): a short ``logb`` is then Real's."""
    start = text.index(f"theorem {name} ")
    theorem = text[start:].split("\n\n")[0].split("\nend")[0]
    return parse_theorem(f"import Mathlib\nnamespace Real\n{theorem}\nend Real", real_division=False, name=name)


def test_the_fuzzer_catches_a_front_end_blind_to_the_namespace() -> None:
    report = run_context_fuzz(200, seed=2711, points=3, pool=_logb_pool(2711), parse=_in_namespace_real_blind)
    assert "accepted_must_refuse" in {f.kind for f in report.misreadings}
