"""Differential fuzzing of ``Real.pi``/``π``: the statement fuzzer's ``--pi`` option
(prover.semantics.fuzz_frontend: constant leaves become ``Real.pi`` or a trap with it) and the π suite of the
file-context fuzzer (prover.semantics.fuzz_context: the ``pi:`` pool, the token ``π`` under ``open Real``,
``open Real Nat``, ``open scoped Nat``, no open, ``namespace Real``, a short ``pi`` after ``open Real``/``open
NNReal``, ``Real.pi`` inside ``namespace Foo``, declarations named ``pi``/``π``). Seeded short runs through the
real front-end find no misreading and no crash; front-ends that misread are caught."""

from __future__ import annotations

import json
import re

import pytest

from prover.frontend.statement import parse_theorem
from prover.semantics import lean_ast as A
from prover.semantics.fuzz_context import (
    BasePool,
    Context,
    ContextReport,
    FileBuilder,
    Variant,
    Written,
    check_target,
    expect_for,
    load_pool,
    resolve_pi,
    run_context_fuzz,
)
from prover.semantics.fuzz_frontend import FuzzReport, StatementGenerator, check_statement, has_pi, run_fuzz

SEED = 2611

# ---------------------------------------------------------------- fuzz-frontend --pi


def test_generator_writes_the_traps() -> None:
    gen = StatementGenerator(5, pi=0.3)
    stmts = [gen.statement(i)[0] for i in range(300)]
    joined = "\n".join(A.show_statement(s) for s in stmts)
    for trap in (r"Real\.pi \^ \d", r"-Real\.pi", r"Real\.pi⁻¹", r"\d \* Real\.pi", r"Real\.pi / \d",
                 r"√\(?Real\.pi", r"√\([^()]*Real\.pi", r"\|[^|]*Real\.pi", r"Real\.exp \(?[^)]*Real\.pi",
                 r"Real\.log \(?[^)]*Real\.pi", r"[a-z] \^ \(?Real\.pi", r"22 / 7 - Real\.pi", r"_root_\.Real\.pi",
                 r"\(Real\.pi\)", r"Real\.pi / \(?Real\.pi", r"Real\.pi \^ \("):
        assert re.search(trap, joined), trap
    assert sum(map(has_pi, stmts)) > 80
    assert "π" not in joined                            # bare statements: the token is fuzz-context's
    assert StatementGenerator(5, pi=0.3).statement(17) == StatementGenerator(5, pi=0.3).statement(17)
    assert not any(has_pi(StatementGenerator(5).statement(i)[0]) for i in range(50))   # off by default
    plain = StatementGenerator(5)
    for i, s in enumerate(stmts[:100]):   # its own stream: a statement with no π is the one without --pi
        if not has_pi(s):
            assert s == plain.statement(i)[0]


def test_seeded_pi_run_has_no_misreading() -> None:
    report = run_fuzz(90, 4, seed=SEED, pi=0.5)
    summary = report.to_json(max_examples=3)
    assert report.pi_statements > 40 and report.pi_accepted > 10 and report.pi_pairs > 40
    assert not report.disagreements, json.dumps(summary["examples"], ensure_ascii=False)
    assert not report.crashes and not report.accepted_ill_typed, summary["crashes"] + summary["accepted_ill_typed"]
    assert report.failures == 0


def _rewritten(pattern: str, repl: str):
    return lambda text: parse_theorem(re.sub(pattern, repl, text))


@pytest.mark.parametrize("pattern, repl, statements", [
    (r"(?:_root_\.)?Real\.pi", "(3 : ℝ)", 120),                             # π read as 3
    (r"(?:_root_\.)?Real\.pi", "(22 / 7 : ℝ)", 120),                        # π read as 22/7
    (r"Real\.pi \^ (\d)", r"Real.pi * \1", 250),                            # `Real.pi ^ 2` as 2π
    (r"-Real\.pi", "Real.pi", 250),                                         # the sign dropped
])
def test_the_fuzzer_catches_a_misreading_front_end(pattern: str, repl: str, statements: int) -> None:
    report = run_fuzz(statements, 4, seed=SEED, pi=0.5, parse=_rewritten(pattern, repl))
    assert report.disagreements


def test_an_ill_typed_statement_accepted_is_a_failure() -> None:
    """``2 ^ Real.pi > 0`` does not elaborate (no ``HPow ℕ ℝ``): a front-end that accepts it (here: reading
    it as ``(2 : ℝ) ^ Real.pi > 0``) fails, and nothing is evaluated."""
    stmt = A.read_lean("theorem t : 2 ^ Real.pi > 0 := by sorry")
    report = FuzzReport(seed=0)
    check_statement(0, stmt, {}, 4, report, lambda _: parse_theorem("theorem t : (2 : ℝ) ^ Real.pi > 0 := by sorry"))
    assert len(report.accepted_ill_typed) == 1 and report.failures == 1 and report.pairs == 0


def test_cli_option(tmp_path) -> None:
    from prover.semantics.__main__ import main

    out = tmp_path / "f.json"
    code = main(["fuzz-frontend", "--statements", "12", "--points", "3", "--seed", str(SEED), "--pi", "0.4",
                 "--out", str(out)])
    d = json.loads(out.read_text())
    assert d["options"]["pi"] == 0.4 and d["pi_statements"] > 0 and "accepted_ill_typed" in d
    assert code == (1 if d["failures"] else 0)


# ---------------------------------------------------------------- fuzz-context: the model


def _expect(text: str, **ctx) -> str:
    stmt = A.read_lean(text)
    assert isinstance(stmt, A.LStatement)
    return expect_for(stmt, Context(**ctx)).outcome


QUALIFIED = "theorem t (x : ℝ) (h : 0 < x) : Real.pi * x > 3 * x := by sorry"
TOKEN = "theorem t (x : ℝ) (h : 0 < x) : π * x > 3 * x := by sorry"
SHORT = "theorem t (x : ℝ) (h : 0 < x) : pi * x > 3 * x := by sorry"
ROOT = "theorem t (x : ℝ) (h : 0 < x) : _root_.Real.pi * x > 3 * x := by sorry"


@pytest.mark.parametrize("text, ctx, outcome", [
    (QUALIFIED, {}, "meaning"),
    (QUALIFIED, {"opens": ("Real", "Nat")}, "meaning"),
    (QUALIFIED, {"namespace": ("Foo",)}, "meaning"),                         # Foo.Real.pi: not declared
    (QUALIFIED, {"namespace": ("Foo",), "declared": ("Foo.Real.pi",)}, "refuse"),
    (QUALIFIED, {"namespace": ("Real",), "declared": ("Real.pi",)}, "meaning"),   # Lean rejects that one
    (QUALIFIED, {"declared": ("pi", "π")}, "meaning"),
    (ROOT, {"namespace": ("Foo",), "declared": ("Foo.Real.pi",)}, "meaning"),
    (TOKEN, {}, "refuse"),                                                   # no notation `π`
    (TOKEN, {"opens": ("Real",)}, "meaning"),
    (TOKEN, {"scoped": ("Real",)}, "meaning"),
    (TOKEN, {"opens": ("Real", "NNReal")}, "meaning"),
    (TOKEN, {"namespace": ("Real",)}, "meaning"),
    (TOKEN, {"namespace": ("Real",), "declared": ("Real.pi", "π")}, "meaning"),   # the token wins
    (TOKEN, {"opens": ("Real",), "namespace": ("Foo",), "declared": ("Foo.Real.pi",)}, "meaning"),  # hygiene
    (TOKEN, {"opens": ("Real", "Nat")}, "refuse"),                           # two notations `π`
    (TOKEN, {"opens": ("Nat", "Real")}, "refuse"),
    (TOKEN, {"opens": ("Real",), "scoped": ("Nat",)}, "refuse"),
    (TOKEN, {"opens": ("BigOperators", "Real", "Nat", "Topology", "Rat")}, "refuse"),   # the miniF2F header
    (TOKEN, {"opens": ("Real",), "namespace": ("Nat",)}, "refuse"),
    (TOKEN, {"opens": ("Nat",)}, "refuse"),                                  # Nat.primeCounting
    (TOKEN, {"namespace": ("Foo", "Real")}, "refuse"),                       # namespace Foo.Real: not Real's
    (TOKEN, {"opens": ("NNReal",)}, "refuse"),
    (SHORT, {"opens": ("Real",)}, "refuse"),                                 # Real.pi is protected
    (SHORT, {"namespace": ("Real",)}, "refuse"),
    (SHORT, {"opens": ("NNReal",)}, "refuse"),                               # NNReal.pi : ℝ≥0
    (SHORT, {}, "refuse"),
    ("theorem t (pi : ℝ) (h : 0 < pi) : pi > 0 := by sorry", {"opens": ("Real",)}, "meaning"),   # a local
    ("theorem t (π : ℝ) (h : 0 < π) : π > 0 := by sorry", {"opens": ("Real",)}, "refuse"),     # a token
    ("theorem t (π : ℝ) (h : 0 < π) : π > 0 := by sorry", {}, "meaning"),                      # a name
    ("theorem t : (Real.pi : ℕ) > 3 := by sorry", {}, "refuse"),             # ill-typed
    ("theorem t : NNReal.pi > 3 := by sorry", {"opens": ("Real",)}, "refuse"),
])
def test_expectations(text: str, ctx: dict, outcome: str) -> None:
    assert _expect(text, **ctx) == outcome


def test_the_resolution_gives_its_reasons_and_knows_its_limits() -> None:
    verdict, why = resolve_pi(A.real_pi("π"), Context(opens=("Real", "Nat")))
    assert verdict == "refuse" and "Nat" in why
    verdict, why = resolve_pi(A.real_pi("pi"), Context(opens=("Real",)))
    assert verdict == "refuse" and "protected" in why
    # a `π` node where the statement also binds `π` (a rewrite may build one): not modelled
    assert resolve_pi(A.real_pi("π"), Context(), bound=("π",))[0] == "unknown"
    for spelling in ("Real.π", "Reаl.pi", "Nat.pi", "Real.pi'"):
        assert resolve_pi(A.real_pi(spelling), Context(opens=("Real",)))[0] == "refuse"


# ---------------------------------------------------------------- fuzz-context through the real front-end


def _judge(*steps, theorem: str) -> tuple[str, ContextReport]:
    """The theorem after builder ``steps``, judged by the fuzzer (its expectation, the real front-end)."""
    b = FileBuilder()
    b.emit("import Mathlib")
    for s in steps:
        s(b)
    stmt = A.read_lean(theorem)
    assert isinstance(stmt, A.LStatement)
    b.theorem(Written("t", stmt, theorem, {"x": "pos"}))
    text, [(w, e)] = b.finish()
    report = ContextReport(seed=0, points=6)
    check_target(Variant(0, "test", text, [], ["test"]), w, e, 6, report,
                 lambda t, n: parse_theorem(t, real_division=False, name=n))
    return e.outcome, report


def _open(*names: str, scoped: bool = False):
    return lambda b: b.open(names, scoped=scoped)


@pytest.mark.parametrize("steps, theorem, outcome", [
    ((_open("Real"),), TOKEN, "meaning"),
    ((_open("Real", scoped=True),), TOKEN, "meaning"),
    ((lambda b: b.push("namespace", "Real"),), TOKEN, "meaning"),
    ((_open("Real", "NNReal"),), TOKEN, "meaning"),
    ((), TOKEN, "refuse"),
    ((_open("Real", "Nat"),), TOKEN, "refuse"),
    ((_open("Nat", "Real"),), TOKEN, "refuse"),
    ((_open("Real"), _open("Nat", scoped=True)), TOKEN, "refuse"),
    ((_open("Real"), lambda b: (b.push("section"), b.open(("Nat",)), b.pop())), TOKEN, "meaning"),   # closed
    ((_open("Real"),), SHORT, "refuse"),
    ((_open("NNReal"),), SHORT, "refuse"),
    ((lambda b: b.push("namespace", "Foo"),), QUALIFIED, "meaning"),          # the front-end may refuse it
    ((lambda b: (b.push("namespace", "Foo.Real"), b.emit("theorem pi (x : ℝ) : x ≤ x + 1 := by sorry"),
                 b.declare("pi"), b.pop()), lambda b: b.push("namespace", "Foo")), QUALIFIED, "refuse"),
    ((lambda b: (b.emit("theorem pi (x : ℝ) : x ≤ x + 1 := by sorry"), b.declare("pi")), _open("Real")),
     TOKEN, "meaning"),
    ((), ROOT, "meaning"),
    ((), QUALIFIED, "meaning"),
])
def test_file_contexts_through_the_front_end(steps, theorem: str, outcome: str) -> None:
    expected, report = _judge(*steps, theorem=theorem)
    assert expected == outcome
    assert report.failures == 0, report.to_json(3)["examples"]
    if outcome == "refuse":
        assert report.refused_where_expected == 1


def _pi_pool(seed: int) -> BasePool:
    """The context fuzzer's pool with only the π statements (and the generated ones)."""
    pool = load_pool(seed)
    pool.benchmarks, pool.examples, pool.definitions, pool.functions, pool.exp_log, pool.logb = [], [], [], [], [], []
    return pool


def test_the_pool_has_the_pi_statements() -> None:
    pool = load_pool(0)
    assert len(pool.pi) >= 25 and all(b.source.startswith("pi:") and has_pi(b.stmt) for b in pool.pi)
    assert not pool.skipped.get("pi")
    assert any(n.value == "π" for b in pool.pi for n in A.subterms(b.stmt.goal.lhs))


def test_seeded_pi_context_run_has_no_misreading() -> None:
    report = run_context_fuzz(400, seed=SEED, points=3, pool=_pi_pool(SEED))
    summary = report.to_json(max_examples=3)
    assert report.pi["checks"] > 350 and report.pi["accepted"] > 120 and report.pi["pairs"] > 200
    assert report.pi["must_refuse"] > 120
    assert report.failures == 0, json.dumps(summary["examples"], ensure_ascii=False)[:4000]
    wrappers = summary["per_wrapper"]
    for w in ("pi_scope:open_Real_Nat", "pi_scope:open_scoped_Nat", "rewrite:pi_short", "rewrite:pi_foreign"):
        assert wrappers[w]["refused"] > 0, w
    for w in ("pi_scope:open_Real", "pi_scope:namespace_Real", "rewrite:pi_token"):
        assert wrappers[w]["accepted"] > 0, w
    assert any(k.startswith("item:pi_decl_in_Foo_Real") for k in wrappers)


def _theorem_alone(text: str, name: str) -> str:
    start = text.index(f"theorem {name} ")
    return text[start:].split("\n\n")[0].split("\nend")[0]


def _notation_blind(text: str, name: str):
    """A front-end that takes every ``π`` for ``Real.pi``, whatever the opens."""
    return parse_theorem(text.replace("π", "Real.pi"), real_division=False, name=name)


def _short_pi_is_real_pi(text: str, name: str):
    """A front-end that takes a short ``pi`` for ``Real.pi`` (as if it were not protected)."""
    return parse_theorem(re.sub(r"(?<![\w.])pi\b", "Real.pi", text), real_division=False, name=name)


@pytest.mark.parametrize("parse", [_notation_blind, _short_pi_is_real_pi])
def test_the_fuzzer_catches_a_front_end_wrong_about_pi(parse) -> None:
    report = run_context_fuzz(400, seed=SEED, points=3, pool=_pi_pool(SEED), parse=parse)
    assert "accepted_must_refuse" in {f.kind for f in report.misreadings}
