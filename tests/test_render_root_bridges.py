"""Roots the user writes one way and sympy another: the bridges between them, and their refusals.

sympy moves rational and square factors out of a root (the user's ``√(3 / 2)`` is its ``√6 / 2``,
``√(3 * p)`` its ``√3 * √p``, ``√(d ^ 2 * u ^ 2)`` its ``|d| * |u|``, ``(171 / 20) ^ (1/3)`` its
``8550 ^ (1/3) / 10``, ``(p ^ 2 * q ^ 2) ^ (1/3)`` its ``|p| ^ (2/3) * |q| ^ (2/3)``); ``ring`` sees each root as an atom, so every such pair needs an exact fact.
The saved proofs are train-family proofs whose files failed the replay model (or were refused)
before these bridges; each must now render and pass.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from prover.ir import Proof
from prover.lean.render import render_proof
from prover.lean.render.atoms import Facts, root_product_fact
from prover.lean.render.common import RenderContext, RenderError
from prover.lean.replay import replay_text

DATA = Path(__file__).parent / "data" / "root_bridges"
HEADER = "import Mathlib\n\nopen Real\n\nmacro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))\n\n"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.proof.json")))
def test_saved_proof_with_a_rewritten_root_renders_and_passes(name: str) -> None:
    lean = render_proof(Proof.loads((DATA / name).read_text(encoding="utf-8")))
    report = replay_text(lean)
    assert report.ok, (name, [v for v in report.steps if not v.ok][:3])


def _fact_file(text: str, arg: str, variables: list[str], hyps: str = "") -> str:
    facts = Facts(_context())
    name = root_product_fact(text, arg, variables, facts)
    binders = f"({' '.join(variables)} : ℝ) " if variables else ""
    body = "\n".join("  " + line for line in facts.lines)
    return f"{HEADER}theorem t {binders}{hyps}: {text} = √({arg}) := by\n{body}\n  exact {name}\n"


def _context() -> RenderContext:
    return RenderContext([], itertools.count(1), None, "linear_combination", set())


@pytest.mark.parametrize(("text", "arg", "variables", "hyps"), [
    ("2 * Real.sqrt 3 / 9", "4 / 27", [], ""),
    ("1", "1", [], ""),
    ("3", "9", [], ""),
    ("9 / 10 * Real.sqrt (3 * p + 1)", "81 / 100 * (3 * p + 1)", ["p"], "(hp : 0 < p) "),
    ("Real.sqrt 3 * Real.sqrt p", "3 * p", ["p"], "(hp : 0 < p) "),
    ("|d| * |u|", "d ^ 2 * u ^ 2", ["d", "u"], ""),
    ("4 * |d / 2| * |u / 2|", "d ^ 2 * u ^ 2", ["d", "u"], ""),
    ("Real.sqrt (1 / (c + d)) * |a + b|", "(a + b) ^ 2 / (c + d)", ["a", "b", "c", "d"],
     "(hc : 0 < c) (hd : 0 < d) "),
])
def test_root_product_fact_is_proved_in_the_model(text: str, arg: str, variables: list[str], hyps: str) -> None:
    lean = _fact_file(text, arg, variables, hyps)
    report = replay_text(lean)
    assert report.ok, lean


@pytest.mark.parametrize(("text", "arg", "variables"), [
    ("1", "2", []),                              # √2 is not 1
    ("Real.sqrt 3", "12", []),                   # √12 = 2√3
    ("2 * Real.sqrt 3", "3", []),                # the numeral outside is not 1
    ("-2 * Real.sqrt 3", "12", []),              # a negative factor is never a root
    ("Real.sqrt p * Real.sqrt q", "p * q + 1", ["p", "q"]),
    ("|d| * u", "d ^ 2 * u ^ 2", ["d", "u"]),    # u is not |u|
    ("Real.exp 1 * Real.sqrt 2", "2 * Real.exp 2", []),
])
def test_root_product_fact_refuses_what_is_not_that_root(text: str, arg: str, variables: list[str]) -> None:
    with pytest.raises(RenderError):
        root_product_fact(text, arg, variables, Facts(_context()))


def test_scale_coefficient_not_in_positivitys_shape_is_proved_from_its_expanded_form() -> None:
    """A scale step's coefficient ``(x² − xy + y²)(x + y)``: ``positivity`` fails on the subtraction
    and ``linarith`` on the product; the kernel proves it expanded (``x³ + y³``), and so does the
    file: ``positivity`` on the expanded form, then ``linear_combination`` (a ``ring`` identity)."""
    import sympy as sp

    from prover.lean.render.scale import _nonneg_lines

    x, y = sp.symbols("x y")
    lines = _nonneg_lines("hc", (x ** 2 - x * y + y ** 2) * (x + y), _context())
    assert len(lines) == 2 and lines[0].endswith("positivity") and "linear_combination" in lines[1]
    body = "\n".join("  " + line for line in lines)
    lean = f"{HEADER}theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : (0 : ℝ) ≤ (x ^ 2 - x * y + y ^ 2) * (x + y) := by\n" \
           f"{body}\n  linear_combination hc\n"
    assert replay_text(lean).ok, lean


@pytest.mark.parametrize(("statement", "ok"), [
    ("(x ^ 2 * y) ^ (1 / 3 : ℝ) = (x ^ 2) ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ)", True),
    ("(x ^ 2 * y) ^ (1 / 3 : ℝ) = (x ^ 2) ^ (1 / 3 : ℝ) * y ^ (1 / 2 : ℝ)", False),   # exponents differ
    ("(x ^ 2 * y) ^ (1 / 3 : ℝ) = x ^ (2 / 3 : ℝ) * y ^ (1 / 3 : ℝ)", False),         # not the lemma's shape
    ("(x ^ 2 + y) ^ (1 / 3 : ℝ) = (x ^ 2) ^ (1 / 3 : ℝ) + y ^ (1 / 3 : ℝ)", False),   # false
])
def test_the_product_power_bridge_lemma_is_checked_by_the_model(statement: str, ok: bool) -> None:
    """``Real.mul_rpow``, the fact :func:`_rpow_product_bridge` states, passes only as the lemma reads."""
    lean = (f"{HEADER}theorem t (x y : ℝ) (hy : 0 < y) : {statement} := by\n"
            "  have h : " + statement + " := Real.mul_rpow (by first | positivity | linarith) "
            "(by first | positivity | linarith)\n  exact h\n")
    assert replay_text(lean).ok is ok, lean


def test_the_product_power_bridge_needs_nonnegative_factors() -> None:
    statement = "(x * y) ^ (1 / 3 : ℝ) = x ^ (1 / 3 : ℝ) * y ^ (1 / 3 : ℝ)"   # false at x = y = −1
    lean = (f"{HEADER}theorem t (x y : ℝ) : {statement} := by\n"
            "  have h : " + statement + " := Real.mul_rpow (by first | positivity | linarith) "
            "(by first | positivity | linarith)\n  exact h\n")
    assert not replay_text(lean).ok


def _power_bridge_file(user: str, ours: list[str], variables: list[str] = (), hyps: str = "") -> str | None:
    from prover.lean.render.atoms import parse, root_power_bridge

    facts = Facts(_context())
    variables = list(variables)
    bridge = root_power_bridge(parse(user, variables), [parse(t, variables) for t in ours], facts, variables)
    if bridge is None:
        return None
    body = "\n".join("  " + line for line in facts.lines)
    statement = facts.lines[-1].split(" : ", 1)[1].split(" := ", 1)[0]
    binders = f"({' '.join(variables)} : ℝ) " if variables else ""
    return f"{HEADER}theorem t {binders}{hyps}: {statement} := by\n{body}\n  exact {bridge.name}\n"


@pytest.mark.parametrize(("user", "ours", "variables", "hyps", "value"), [
    ("16 ^ (1 / 3 : ℝ)", ["2 ^ (1 / 3 : ℝ)"], [], "", "2 * (2 ^ (1 / 3 : ℝ))"),
    ("(1 / 8) ^ (1 / 4 : ℝ)", ["2 ^ (1 / 4 : ℝ)"], [], "", "(1 / 2) * (2 ^ (1 / 4 : ℝ))"),
    ("(4 / 3) ^ (1 / 3 : ℝ)", ["6 ^ (2 / 3 : ℝ)"], [], "", "(1 / 3) * (6 ^ (2 / 3 : ℝ))"),
    ("((a ^ 2) ^ 2) ^ (1 / 3 : ℝ)", ["|a| ^ (1 / 3 : ℝ)"], ["a"], "(ha : 0 < a) ", "(|a| ^ (1 / 3 : ℝ)) ^ 4"),
    ("((y + 1) ^ 2) ^ (3 / 4 : ℝ)", ["|y + 1| ^ (3 / 2 : ℝ)"], ["y"], "(hy : 0 < y) ", None),
    ("(p ^ 2 * q ^ 2) ^ (1 / 3 : ℝ)", ["|p| ^ (1 / 3 : ℝ)", "|q| ^ (1 / 3 : ℝ)"], ["p", "q"],
     "(hp : 0 < p) (hq : 0 < q) ", None),
])
def test_a_real_power_sympy_rewrote_is_bridged_by_root_uniqueness(user: str, ours: list[str], variables: list[str],
                                                                    hyps: str, value: str | None) -> None:
    lean = _power_bridge_file(user, ours, variables, hyps)
    assert lean is not None
    report = replay_text(lean)
    assert report.ok, lean
    if value is not None:       # the same proof of another value fails the model
        wrong = lean.replace(f"= {value} :", f"= 2 * {value} :")
        assert wrong != lean and not replay_text(wrong).ok


def test_no_root_bridge_where_the_values_differ_or_no_atom_fits() -> None:
    assert _power_bridge_file("16 ^ (1 / 3 : ℝ)", ["3 ^ (1 / 3 : ℝ)"]) is None
    assert _power_bridge_file("16 ^ (1 / 3 : ℝ)", ["2 ^ (1 / 2 : ℝ)"]) is None
    assert _power_bridge_file("(a ^ 2) ^ (1 / 3 : ℝ)", ["|a| ^ (1 / 2 : ℝ)"], ["a"]) is None
