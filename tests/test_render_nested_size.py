"""Train-family proofs whose files went over the replay model's size budget because one identity
cleared nested fractions all at once: a summand ``X / Y`` with fractions in ``Y`` (cross-multiplied
one level at a time, ``hcross``) and a paired power ``X ^ k = Y ^ k`` of a substitution
(``X = Y`` first, ``hbase``); a combination too long for one tactic has its largest terms proved
apart (``hpart``); a substitution whose instance writes the roots otherwise than the goal is
rewritten root by root (``hcong``) where one bridged identity was refused. Each must now render
within the budgets and pass the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from prover.ir import Proof
from prover.lean.render import render_proof
from prover.lean.replay import TACTIC_BUDGET, replay_text

DATA = Path(__file__).parent / "data" / "nested_size"

CASES = [
    ("nesbitt_power_5.proof.json", "hcross"),     # 1 / Σ (1/p)² / (1/p + 1/q): was a 36 k tactic
    ("shapiro_17.proof.json", "hcross"),          # S / (S + 1), S a sum of five fractions: 70 k
    ("imo1995_18.proof.json", "hbase"),           # (Σ nested)² paired with its instance: 22.7 k
    ("imo2001_radical_16.proof.json", "hcong"),   # A / (1 + A) over roots written otherwise: refused
    pytest.param("tangent_sum3_17.proof.json", "hcross", marks=pytest.mark.slow),   # about a minute
    pytest.param("tangent_sum4_4.proof.json", "hpart", marks=pytest.mark.slow),     # one tactic of 25 k
]


@pytest.mark.parametrize("name,marker", CASES)
def test_nested_fractions_render_within_the_budget_and_pass(name: str, marker: str) -> None:
    lean = render_proof(Proof.loads((DATA / name).read_text(encoding="utf-8")))
    assert marker in lean
    report = replay_text(lean)
    assert report.ok, (name, [v for v in report.steps if not v.ok][:3])
    assert report.longest_tactic <= TACTIC_BUDGET


def test_a_power_pair_needs_equal_bases_not_only_equal_powers() -> None:
    """``(a − b)² = (b − a)²`` holds, but ``a − b = b − a`` does not: no base step then."""
    from prover.lean.render.variables import Termwise, _power_pair
    same = Termwise(lambda e: e, lambda e: [], lambda text: text)
    assert _power_pair("(a + b) ^ 2", "(b + a) ^ 2", same, ["a", "b"]) == ("a + b", "b + a", 2)
    assert _power_pair("(a - b) ^ 2", "(b - a) ^ 2", same, ["a", "b"]) is None
    assert _power_pair("(a + b) ^ 2", "(a + b) ^ 3", same, ["a", "b"]) is None


def _equality(lhs: str, rhs: str, lines: list[str], comb: str) -> str:
    body = "".join(f"  {ln}\n" for ln in lines)
    return (f"import Mathlib\n\ntheorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) :\n    {lhs} = {rhs} := by\n"
            f"{body}  linear_combination {comb}\n")


def test_a_congruence_chain_rewrites_the_instance_root_by_root() -> None:
    """``A / (1 + A)`` against ``A' / (A' + 1)`` with ``A'`` writing its roots otherwise: one
    ``congrArg (fun t => …)`` fact per root, and ``ring`` closes the rest; a changed fact, or an
    instance whose root is not the goal's up to ``ring``, is refused."""
    import itertools

    from prover.lean.render.atoms import Facts, congruence_chain
    from prover.lean.render.common import RenderContext
    goal = "(x / √(y ^ 2 + 2 * x) + y / √(x * (y + 1))) / (1 + (x / √(y ^ 2 + 2 * x) + y / √(x * (y + 1))))"
    inst = "(x / √(2 * x + y ^ 2) + y / √(x * y + x)) / (x / √(2 * x + y ^ 2) + y / √(x * y + x) + 1)"
    facts = Facts(RenderContext([], itertools.count(1), None, "linear"))
    comb = congruence_chain(goal, inst, ["x", "y"], facts)
    assert comb is not None and sum("hcong" in ln for ln in facts.lines) == 2
    text = _equality(goal, inst, facts.lines, comb)
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text
    cong = next(ln for ln in facts.lines if "hcong" in ln)
    tampered = cong.replace("2 * x", "3 * x", 1)
    assert tampered != cong and not replay_text(text.replace(cong, tampered)).ok
    dropped = text.replace(comb, comb.split(" + ")[0])
    assert not replay_text(dropped).ok
    other = inst.replace("√(x * y + x)", "√(x * y + 2 * x)")
    assert congruence_chain(goal, other, ["x", "y"], Facts(RenderContext([], itertools.count(1), None, "linear"))) is None


def test_a_root_of_a_closed_radicand_with_roots_inside_is_its_value() -> None:
    """``√(12 + 2 * √4)`` is 4: the inner ``√4 = 2`` is bridged first, then ``12 + 2 * √4 = 4 ^ 2``
    by ``linear_combination`` of it, ``congrArg Real.sqrt`` and ``Real.sqrt_sq``. A wrong
    coefficient or a wrong value is refused."""
    from tests.solver_checks import proved_file_passes, tampered_fails

    text = proved_file_passes("theorem t : Real.sqrt (12 + 2 * Real.sqrt 4) + 1 = 5 := by sorry",
                              "Real.sqrt (12 + 2 * Real.sqrt 4) = 4 := by linear_combination")
    step = next(line for line in text.splitlines() if "12 + 2 * Real.sqrt 4 = (4) ^ 2" in line)
    assert tampered_fails(text, step, step.replace("(-2) *", "(2) *"))
    assert tampered_fails(text, "= (4) ^ 2", "= (5) ^ 2")
