"""Generated proof-tree fuzzing of the kernel (``prover.fuzz``), CI-sized.

Valid proof trees of true statements over every step kind are generated from a seed, mutated, and
checked with the kernel through the stable interface; every accepted proof's goals (the root
statement first) must survive an independent exact evaluation in Lean's semantics
(:mod:`prover.fuzz.lean_eval`). ``python -m prover.fuzz kernel`` runs the same at benchmark size.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from prover.fuzz import kernel_trees as K
from prover.fuzz.lean_eval import Statement, Undetermined, Unreadable, read, refute, value

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- the oracle's semantics


@pytest.mark.parametrize("text,env,expected", [
    ("x/0", {"x": 5}, 0),                        # Lean: x / 0 = 0
    ("x/x", {"x": 0}, 0),
    ("1/(1/x)", {"x": 0}, 0),
    ("x**(-2)", {"x": 0}, 0),                    # (0 ^ 2)⁻¹ = 0
    ("x**0", {"x": 0}, 1),                       # 0 ^ 0 = 1
    ("sqrt(x)", {"x": -4}, 0),                   # Real.sqrt of a negative number
    ("sqrt(x)", {"x": Fraction(9, 4)}, Fraction(3, 2)),
    ("sqrt(x)**2", {"x": -1}, 0),
    ("x**(1/2)", {"x": -1}, 0),                  # rpow: cos(π/2) = 0
    ("x**(1/3)", {"x": -8}, 1),                  # rpow: 2·cos(π/3) = 1, not −2
    ("(x**(1/3))**3", {"x": -8}, 1),
    ("x**(2/3)", {"x": -8}, -2),                 # 4·cos(2π/3) = −2
    ("y**(3/2)", {"y": -1}, 0),                  # K2: the hypothesis holds at y = −1
    ("x**(-1/3)", {"x": 8}, Fraction(1, 2)),
    ("x**(3/2)", {"x": 0}, 0),
    ("Abs(x) + Rational(1, 3)", {"x": -2}, Fraction(7, 3)),
    ("-x**2", {"x": 3}, -9),
    ("2**-1", {}, Fraction(1, 2)),
])
def test_lean_values(text: str, env: dict, expected) -> None:
    assert value(text, {k: Fraction(v) for k, v in env.items()}) == Fraction(expected)


@pytest.mark.parametrize("text,env", [("sqrt(x)", {"x": 2}), ("x**(1/3)", {"x": 2}), ("x**(1/4)", {"x": -16}),
                                      ("pi", {}), ("exp(x)", {"x": 1}), ("x**y", {"x": 2, "y": Fraction(1, 2)})])
def test_irrational_values_are_undetermined(text: str, env: dict) -> None:
    with pytest.raises(Undetermined):
        value(text, {k: Fraction(v) for k, v in env.items()})


@pytest.mark.parametrize("text", ["x.__class__", "__import__('os')", "eval('1')", "lambda: 1", "x[0]", "'x'",
                                  "1.5", "x if x else 1", "f(x)", "x == 1", "x // 2"])
def test_oracle_reads_no_code(text: str) -> None:
    with pytest.raises(Unreadable):
        read(text)


def test_oracle_is_independent_of_the_kernel_and_sympy() -> None:
    code = ("import sys, prover.fuzz.lean_eval; "
            "print(sorted(m for m in sys.modules if m.startswith(('prover.kernel', 'prover.ir', 'sympy'))))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def _st(variables: str, hyps: list[tuple[str, str, str]], target: tuple[str, str, str]) -> Statement:
    return Statement(tuple(variables), tuple(hyps), target)


@pytest.mark.parametrize("st", [
    _st("x", [], ("x", ">=", "0")),                                    # K1
    _st("xy", [], ("x*y", ">=", "0")),
    _st("y", [("y**(3/2)", ">=", "0")], ("y**3", ">=", "0")),         # K2
    _st("x", [], ("x/x", "=", "1")),
    _st("x", [], ("sqrt(x)**2", "=", "x")),
    _st("x", [], ("(x**(1/3))**3", "=", "x")),
    _st("xy", [], ("sqrt(x*y)", "=", "sqrt(x)*sqrt(y)")),
    _st("xs", [("x", "=", "s**2"), ("s", ">=", "0")], ("x", ">=", "s + 1")),   # solved from the equality
    _st("abc", [("a + b + c", "=", "3"), ("a", ">=", "0"), ("b", ">=", "0"), ("c", ">=", "0")],
        ("a*b*c", ">=", "1")),
])
def test_oracle_refutes_false_statements(st: Statement) -> None:
    assert refute(st, random.Random(0)).counterexample is not None


@pytest.mark.parametrize("st", [
    _st("x", [], ("x**2", ">=", "0")),
    _st("x", [("x", ">=", "0")], ("sqrt(x)**2", "=", "x")),
    _st("x", [], ("x**0", "=", "1")),
    _st("x", [], ("1/(1/x)", "=", "x")),                               # inv_inv: true in Lean
    _st("xy", [("x", ">", "0"), ("y", ">", "0")], ("x/y + y/x", ">=", "2")),
    _st("abc", [("a + b + c", "=", "3")], ("a**2 + b**2 + c**2", ">=", "3")),
])
def test_oracle_does_not_refute_true_statements(st: Statement) -> None:
    ev = refute(st, random.Random(0))
    assert ev.counterexample is None and ev.checked > 0


# ---------------------------------------------------------------- the generator


def test_generated_trees_are_valid_proofs_of_true_statements() -> None:
    """Every step kind occurs; the kernel accepts the (unmutated) trees; the oracle agrees."""
    kinds: dict[str, int] = {}
    rejected, refuted = [], []
    for i in range(60):
        doc, k = K.generate_tree(random.Random(f"valid:{i}"), max_depth=2)
        for name, n in k.items():
            kinds[name] = kinds.get(name, 0) + n
        verdict, why = K.kernel_verdict(doc)
        if verdict != "accepted":
            rejected.append((i, why))
        if K.oracle(doc, random.Random(i)).refuted:
            refuted.append(i)
    assert set(kinds) == set(K.STEP_KINDS), kinds
    assert not refuted, f"the generator built false statements: trees {refuted}"
    assert len(rejected) <= 3, f"valid trees rejected: {rejected[:3]}"


def test_each_leaf_generator_alone() -> None:
    rng = random.Random(5)
    for gen in (K.gen_close_sos, K.gen_close_positivity, K.gen_split, K.gen_introduce):
        for _ in range(5):
            _, st = gen(rng)
            doc = K.proof_document(st, gen.__name__)
            assert K.kernel_verdict(doc)[0] == "accepted", (gen.__name__, json.dumps(doc)[:400])


def test_mutations_change_the_document_and_are_deterministic() -> None:
    doc, _ = K.generate_tree(random.Random("m"), max_depth=2)
    a, ops_a = K.mutate(doc, random.Random(1))
    b, ops_b = K.mutate(doc, random.Random(1))
    assert a == b and ops_a == ops_b
    assert json.dumps(a, sort_keys=True) != json.dumps(doc, sort_keys=True)
    assert set(ops_a) <= set(K.MUTATIONS)


def test_unguarded_fact_mutants_are_never_false_acceptances() -> None:
    """The K1 shape, generated: a root fact ``X = v**q`` claimed with an empty proof after the
    sign hypothesis of ``X`` was weakened. Whatever the kernel accepts must still be true."""
    false = []
    for i in range(40):
        rng = random.Random(f"unguarded:{i}")
        _, st = K.gen_introduce(rng)
        doc = K.proof_document(st, "unguarded")
        if not K._unguarded_fact(doc, rng):
            continue
        if K.kernel_verdict(doc)[0] == "accepted":
            orc = K.oracle(doc, random.Random(i))
            if orc.refuted:
                false.append((i, orc.counterexample, doc["root"]["goal"]["target"]))
    assert not false, f"false acceptances: {false[:2]}"


# ---------------------------------------------------------------- the campaign (CI size)


def test_fuzz_campaign_ci() -> None:
    # a fixed amount of work (200 trees); its duration is reported by `python -m prover.fuzz kernel`
    rep = K.run_campaign(trees=200, seed=2024, mutants_per_tree=2)
    assert rep.false_acceptances == 0, json.dumps(rep.findings[:2], indent=1)[:3000]
    assert rep.generator_errors == 0, json.dumps(rep.findings[:2], indent=1)[:3000]
    assert rep.base_accepted >= 0.95 * rep.trees, rep.base_rejections[:3]
    assert rep.mutants >= rep.trees and rep.mutants_rejected > 0 and rep.oracle_points > 0
    assert set(rep.step_kinds) == set(K.STEP_KINDS)


@pytest.mark.slow
def test_fuzz_campaign_long() -> None:
    rep = K.run_campaign(trees=200, seed=7, mutants_per_tree=4)  # longer: python -m prover.fuzz kernel
    assert rep.false_acceptances == 0, json.dumps(rep.findings[:2], indent=1)[:3000]
    assert rep.generator_errors == 0


def test_fuzz_command_writes_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from prover.fuzz.__main__ import main

    out = tmp_path / "fuzz-kernel.json"
    code = main(["kernel", "--trees", "4", "--seed", "3", "--mutants", "2", "--out", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    for key in ("trees", "mutants", "mutants_accepted", "mutants_rejected", "false_acceptances", "seed",
                "machine", "duration_seconds", "base_accepted", "command"):
        assert key in data
    assert data["trees"] == 4 and data["seed"] == 3
    assert "false acceptances" in out.with_suffix(".md").read_text()
    assert "[4/4]" in capsys.readouterr().out
