"""Regression attacks on the kernel: hand-made proof files that it MUST reject.

Each attack is a complete ``prover-proof`` JSON document (built from plain dicts, the stable file
format) of a statement that is FALSE in Lean's semantics (``x / 0 = 0``, ``Real.sqrt x = 0`` for
``x < 0``, ``Real.rpow`` of a negative base), or a file whose expression strings try to run code.
They are checked through the two stable interfaces: ``check_proof(Proof.loads(text))`` and the
CLI ``prover check FILE`` (exit code 0 only on ACCEPTED).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from prover.fuzz.kernel_trees import proof_document, step

# ---------------------------------------------------------------- the stable interfaces


def _proof_class() -> Any:
    from prover.ir import Proof

    return Proof


def kernel_verdict(doc: dict) -> tuple[bool, str]:
    """(accepted?, reasons) for a proof document, through ``check_proof(Proof.loads(text))``.

    A file that cannot even be read (``IRError``/``TermError``, both ``ValueError``) is rejected."""
    from prover.kernel.check import check_proof

    text = json.dumps(doc)
    try:
        proof = _proof_class().loads(text)
        verdict = check_proof(proof)
    except ValueError as exc:
        return False, f"unreadable: {exc}"
    return bool(verdict.ok), " | ".join(verdict.errors)


def cli_exit_code(doc: dict, tmp_path: Path, name: str = "attack.json") -> tuple[int, str]:
    from prover.cli import app

    path = tmp_path / name
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(app, ["check", str(path)])
    return result.exit_code, result.output


# ---------------------------------------------------------------- building proof documents


def rel(lhs: str, op: str, rhs: str) -> dict:
    return {"lhs": lhs, "op": op, "rhs": rhs}


def goal(variables: list[str], hypotheses: list[dict], target: dict) -> dict:
    return {"variables": list(variables), "hypotheses": list(hypotheses), "target": target}


def close_sos(g: dict, terms: list[tuple[str, list[int], str]] = (),
              eq_terms: list[tuple[int, str]] = ()) -> dict:
    return step("close", g, [], {"method": "sos",
                                 "terms": [{"coeff": c, "mult": list(m), "poly": q} for c, m, q in terms],
                                 "eq_terms": [{"hyp": h, "poly": p} for h, p in eq_terms]}, [])


def proof_doc(root: dict, name: str = "attack") -> dict:
    """A proof file whose problem is the root step's goal."""
    return proof_document(root, name)


EMPTY_CERT = {"method": "sos", "terms": [], "eq_terms": []}


# ---------------------------------------------------------------- K1: s := √x and the fact x = s²


def k1_introduce(target: str = "x", variables: tuple[str, ...] = ("x",)) -> dict:
    """``∀ x, x ≥ 0`` (false at x = −1): introduce ``s := √x`` and "prove" ``x = s²`` with an empty
    certificate (read back over x, ``x − (√x)²`` is 0 for sympy, not for Lean)."""
    vs = list(variables)
    g = goal(vs, [], rel(target, ">=", "0"))
    sub = goal(vs + ["s"], [rel("s", ">=", "0"), rel(target, "=", "s**2")], rel(target, ">=", "0"))
    leaf = close_sos(sub, [("1", [], "s")], [(1, "1")])        # T = s² + 1·(T − s²)
    cert = {"definitions": {"s": f"sqrt({target})"},
            "new_hypotheses": [{"index": 1, "proof": EMPTY_CERT}]}
    return proof_doc(step("introduce", g, [sub], cert, [leaf]), "k1_introduce")


def k1_introduce_two_roots() -> dict:
    """``∀ x y, x·y ≥ 0`` through ``s := √x``, ``t := √y`` and the unproved facts ``x = s²``, ``y = t²``."""
    g = goal(["x", "y"], [], rel("x*y", ">=", "0"))
    sub = goal(["x", "y", "s", "t"], [rel("x", "=", "s**2"), rel("y", "=", "t**2")], rel("x*y", ">=", "0"))
    # x·y − (s·t)² = y·(x − s²) + s²·(y − t²)
    leaf = close_sos(sub, [("1", [], "s*t")], [(0, "y"), (1, "s**2")])
    cert = {"definitions": {"s": "sqrt(x)", "t": "sqrt(y)"},
            "new_hypotheses": [{"index": 0, "proof": EMPTY_CERT}, {"index": 1, "proof": EMPTY_CERT}]}
    return proof_doc(step("introduce", g, [sub], cert, [leaf]), "k1_two_roots")


def k1_substitute(target: str = "x", variables: tuple[str, ...] = ("x",)) -> dict:
    """The same through ``substitute``: the old variables map to themselves, the new ``s`` has the
    inverse ``s := √T``; the subgoal's hypothesis ``T = s²`` becomes ``T = (√T)²`` over the goal."""
    vs = list(variables)
    g = goal(vs, [], rel(target, ">=", "0"))
    sub = goal(vs + ["s"], [rel(target, "=", "s**2")], rel(target, ">=", "0"))
    leaf = close_sos(sub, [("1", [], "s")], [(0, "1")])
    cert = {"substitution": {}, "inverse": {"s": f"sqrt({target})"},
            "new_hypotheses": [{"index": 0, "proof": EMPTY_CERT}]}
    return proof_doc(step("substitute", g, [sub], cert, [leaf]), "k1_substitute")


# ---------------------------------------------------------------- K2: v := (y^(3/2))^(2/3)


def k2_rpow_fact() -> dict:
    """``y^(3/2) ≥ 0 → y³ ≥ 0``: false at y = −1 (Lean: (−1)^(3/2) = cos(3π/2) = 0 ≥ 0, y³ = −1).

    The definition fact ``v³ = (y^(3/2))²`` is turned into ``v³ = y³`` by sympy."""
    hyp = rel("y**(3/2)", ">=", "0")
    g = goal(["y"], [hyp], rel("y**3", ">=", "0"))
    sub = goal(["y", "v"], [hyp, rel("v", ">=", "0"), rel("v**3", "=", "y**3")], rel("y**3", ">=", "0"))
    leaf = close_sos(sub, [("1", [1], "v")], [(2, "-1")])      # y³ = v·v² − (v³ − y³)
    cert = {"definitions": {"v": "(y**(3/2))**(2/3)"}}
    return proof_doc(step("introduce", g, [sub], cert, [leaf]), "k2_rpow")


# ---------------------------------------------------------------- Lean-semantics traps as plain closes


def plain_close(lhs: str, op: str, rhs: str, variables: tuple[str, ...] = ("x",),
                terms: list[tuple[str, list[int], str]] = (), name: str = "trap") -> dict:
    g = goal(list(variables), [], rel(lhs, op, rhs))
    return proof_doc(close_sos(g, terms), name)


TRAPS = {
    # Lean: 0 / 0 = 0, so x / x = 1 fails at x = 0
    "x_div_x": plain_close("x/x", "=", "1"),
    "x_times_inv_x": plain_close("x*(1/x)", "=", "1"),
    # Lean: √x = 0 for x < 0, so (√x)² = x fails at x = −1
    "sqrt_sq": plain_close("sqrt(x)**2", "=", "x"),
    "sqrt_mul_self": plain_close("sqrt(x)*sqrt(x)", "=", "x"),
    # Lean: (−8)^(1/3 : ℝ) = 2·cos(π/3) = 1, so ((−8)^(1/3))³ = 1 ≠ −8
    "cbrt_cubed": plain_close("(x**(1/3))**3", "=", "x"),
    # √(xy) = √x·√y fails at x = y = −1 (Lean: 1 vs 0)
    "sqrt_mul": plain_close("sqrt(x*y)", "=", "sqrt(x)*sqrt(y)", ("x", "y")),
    # x² ≥ 0 written as (√x)⁴: the inequality (√x)⁴ ≥ x² fails at x = −1 in Lean (0 ≥ 1)
    "sqrt_fourth": plain_close("sqrt(x)**4", ">=", "x**2"),
}

ATTACKS = {
    "K1_introduce_x": k1_introduce(),
    "K1_introduce_xy": k1_introduce("x*y", ("x", "y")),
    "K1_introduce_two_roots": k1_introduce_two_roots(),
    "K1_substitute_x": k1_substitute(),
    "K1_substitute_xy": k1_substitute("x*y", ("x", "y")),
    "K2_rpow_fact": k2_rpow_fact(),
    **{f"trap_{k}": v for k, v in TRAPS.items()},
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_is_rejected(name: str) -> None:
    ok, _ = kernel_verdict(ATTACKS[name])
    assert not ok, f"{name}: the kernel ACCEPTED a proof of a statement that is false in Lean"


@pytest.mark.parametrize("name", ["K1_introduce_x", "K1_substitute_xy", "K2_rpow_fact", "trap_x_div_x"])
def test_attack_is_rejected_by_the_cli(name: str, tmp_path: Path) -> None:
    code, out = cli_exit_code(ATTACKS[name], tmp_path)
    assert code != 0, f"{name}: `prover check` accepted it:\n{out}"
    assert "Traceback" not in out


def test_honest_sqrt_proof_is_still_accepted() -> None:
    """Control: with ``x ≥ 0`` the introduce step of K1 is sound and must stay accepted."""
    g = goal(["x"], [rel("x", ">=", "0")], rel("x + 1", ">=", "2*sqrt(x)"))
    sub = goal(["x", "s"], [rel("x", ">=", "0"), rel("s", ">=", "0"), rel("s**2", "=", "x")],
               rel("x + 1", ">=", "2*s"))
    leaf = close_sos(sub, [("1", [], "s - 1")], [(2, "-1")])   # x + 1 − 2s = (s − 1)² − (s² − x)
    doc = proof_doc(step("introduce", g, [sub], {"definitions": {"s": "sqrt(x)"}}, [leaf]), "amgm_sqrt")
    ok, why = kernel_verdict(doc)
    assert ok, why


# ---------------------------------------------------------------- K3: code in expression strings


def _marker_payloads(marker: Path) -> dict[str, str]:
    """Expressions that, if evaluated by Python, create ``marker`` (and nothing else) and then
    evaluate to 0. Each walks from a harmless object to the builtins' ``open``."""
    path = json.dumps(str(marker))     # a quoted Python string literal
    opener = "__init__.__globals__['__builtins__']['open']"
    idx = object.__subclasses__().index(os._wrap_close)  # a long-lived class with os's globals
    return {
        "subclasses": f"0*().__class__.__mro__[-1].__subclasses__()[{idx}].{opener}({path}, 'w').write('x')",
        "sqrt_globals": f"0*sqrt.__globals__['__builtins__']['open']({path}, 'w').write('x')",
        "symbol_globals": f"0*Symbol.__new__.__globals__['__builtins__']['open']({path}, 'w').write('x')",
    }


@pytest.mark.parametrize("payload", ["subclasses", "sqrt_globals", "symbol_globals"])
def test_expression_strings_cannot_run_code(payload: str, tmp_path: Path) -> None:
    marker = tmp_path / f"pwned-{payload}"
    expr = _marker_payloads(marker)[payload]
    g = goal(["x"], [], rel(f"x**2 + {expr}", ">=", "0"))
    doc = proof_doc(step("close", g, [], {"method": "positivity"}, []), "k3")
    ok, _ = kernel_verdict(doc)
    assert not marker.exists(), "reading the proof file ran code from an expression string"
    assert not ok, "a proof with a code-carrying expression was accepted"
    code, _ = cli_exit_code(doc, tmp_path)
    assert not marker.exists(), "`prover check` ran code from an expression string"
    assert code != 0


def test_code_in_certificate_strings_is_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "pwned-cert"
    expr = _marker_payloads(marker)["sqrt_globals"]
    g = goal(["x"], [], rel("x**2", ">=", "0"))
    doc = proof_doc(close_sos(g, [("1", [], f"x + {expr}")]), "k3_cert")
    kernel_verdict(doc)       # either verdict: the poly is x once evaluated; what matters is no code ran
    assert not marker.exists(), "checking a certificate ran code from its expression string"


# ---------------------------------------------------------------- the kernel's own term parser


@pytest.fixture
def terms_module() -> Any:
    try:
        from prover.kernel import terms
    except ImportError:
        pytest.skip("kernel term parser not landed")
    return terms


@pytest.mark.parametrize("text", [
    "x.__class__",
    "x.real",
    "().__class__",
    "eval(1)",
    "__import__('os')",
    "__import__",
    "__class__",
    "x__",
    "lambda: 1",
    "(lambda y: y)(x)",
    "x[0]",
    "sqrt[0](x)",
    "'x'",
    '"x"',
    "x if x else 1",
    "x == 1",
    "x; x",
    "x, x",
    "[x]",
    "{x}",
    "x @ x",
    "x // 2",
    "x % 2",
    "x ^ 2",
    "1.5",
    "1e3",
    "0x10",
    "open('f')",
    "print(x)",
    "Symbol('x')",
    "Rational.__new__",
    "sqrt",
    "sqrt(x, x)",
    "y",                 # not a variable of this goal
    "",
    "x +",
    "(x",
])
def test_parser_rejects(terms_module: Any, text: str) -> None:
    with pytest.raises(terms_module.TermError):
        terms_module.parse_term(text, ["x"])


def test_parser_error_is_a_value_error(terms_module: Any) -> None:
    assert issubclass(terms_module.TermError, ValueError)


def test_parser_reads_the_ir_grammar(terms_module: Any) -> None:
    """Control: the rejections above are not a parser that rejects everything."""
    for text in ["x**2 + 2*x*y - 3/4", "sqrt(x + 1) - x**(1/3)", "(x - y)**2/(x*y)", "-x**-2"]:
        terms_module.parse_term(text, ["x", "y"])


def test_parser_rejects_huge_literal(terms_module: Any) -> None:
    with pytest.raises(terms_module.TermError):
        terms_module.parse_term("1" * 10_001, ["x"])
    with pytest.raises(terms_module.TermError):
        terms_module.parse_term("x + " + "9" * 10_001, ["x"])


def test_parser_rejects_deep_nesting(terms_module: Any) -> None:
    for text in ["(" * 3000 + "x" + ")" * 3000, "-" * 3000 + "x", "sqrt(" * 3000 + "x" + ")" * 3000,
                 "x**" * 3000 + "x"]:
        with pytest.raises(terms_module.TermError):
            terms_module.parse_term(text, ["x"])


def test_parser_refuses_tower_exponent_quickly() -> None:
    """``10**10**9`` must be refused as too large, not computed. Run in a child process so that a
    parser which tries to compute it fails this test (at a generous hang timeout, minutes more
    than the refusal takes) instead of hanging the suite."""
    code = textwrap.dedent("""
        import sys
        try:
            from prover.kernel.terms import TermError, parse_term
        except ImportError:
            print("SKIP"); sys.exit(0)
        for text in ["10**10**9", "x**(10**10**9)", "2**2**2**2**2**2", "x**100000000"]:
            try:
                parse_term(text, ["x"])
                print("ACCEPTED", text); sys.exit(1)
            except TermError:
                pass
        print("OK")
    """)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    try:
        out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300,
                             env=env, cwd=Path(__file__).resolve().parents[1])
    except subprocess.TimeoutExpired:
        pytest.fail("parse_term('10**10**9') did not return within 300 s: it computes the number")
    if out.stdout.strip() == "SKIP":
        pytest.skip("kernel term parser not landed")
    assert out.returncode == 0 and out.stdout.strip() == "OK", out.stdout + out.stderr


def test_parser_payloads_are_rejected(terms_module: Any, tmp_path: Path) -> None:
    marker = tmp_path / "pwned-parser"
    for text in _marker_payloads(marker).values():
        with pytest.raises(terms_module.TermError):
            terms_module.parse_term(f"x**2 + {text}", ["x"])
    assert not marker.exists()
