"""A goal ``A ∧ B ∧ …`` (issue 28): each part is proved as its own problem (same hypotheses) and
checked by the kernel against its part of the faithful statement; the conjunction is proved only
when every part is. The Lean file splits the goal with ``refine ⟨?_, ?_⟩`` and proves each part
under a ``·`` bullet. Proof files list the parts; old files (one root) still load."""

from __future__ import annotations

import json

import pytest

from prover.api import check, prove
from prover.frontend.errors import ParseError
from prover.frontend.printer import print_theorem
from prover.frontend.statement import parse_theorem
from prover.ir import Proof
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.problem import Relation, var
from prover.verify import check_proof

a, b = var("a"), var("b")
AMGM = "theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 0 < a * b ∧ a * b ≤ (a + b) ^ 2 / 4 := by sorry"


def test_parts_are_read_in_order_and_printed_back() -> None:
    p = parse_theorem("theorem t (a b : ℝ) (ha : 0 < a) : 0 < a ∧ a * b ≥ b ∧ (a ≠ 2) := by sorry")
    assert p.goal_parts == (Relation(0, "<", a), Relation(a * b, ">=", b), Relation(a, "!=", 2))
    assert p.goal == p.goal_parts[0] and p.is_conjunction
    assert p.faithful is not None and len(p.faithful.goal_parts) == 3
    assert parse_theorem(print_theorem(p)) == p
    assert p.part(1).goal == Relation(a * b, ">=", b) and not p.part(1).is_conjunction
    assert p.part(1).hypotheses == p.hypotheses and "lean" not in p.part(1).meta


@pytest.mark.parametrize("text, why", [
    ("theorem t (a : ℝ) : 0 ≤ a ↔ a ≥ 0 := by sorry", "iff `↔`"),
    ("theorem t (a : ℝ) : 0 ≤ a ∨ a ≤ 0 := by sorry", "disjunction"),
    ("theorem t (a : ℝ) : (0 ≤ a ∧ a ≤ 1) ∧ a ≠ 3 := by sorry", "conjunction on the left"),
    ("theorem t (a : ℝ) (h : (0 ≤ a ∧ a ≤ 1) ∧ a ≠ 3) : a ≤ 1 := by sorry", "conjunction on the left"),
    ("theorem t (a : ℝ) : 0 ≤ a ∧ a ∈ Set.Icc 0 1 := by sorry", "membership `∈` in the goal"),
    ("theorem t (a : ℝ) : 0 ≤ a ∧ a := by sorry", "expected a comparison"),
])
def test_goal_refusals(text: str, why: str) -> None:
    with pytest.raises(ParseError) as exc:
        parse_theorem(text)
    assert why in str(exc.value) and "\n" not in str(exc.value)


def test_right_nested_parentheses_are_the_same_conjunction() -> None:
    p = parse_theorem("theorem t (a : ℝ) : 0 ≤ a ^ 2 ∧ (0 ≤ a ^ 4 ∧ 0 ≤ a ^ 6) := by sorry")
    assert len(p.goal_parts) == 3


def test_prove_conjunction_renders_one_lean_proof_that_replays() -> None:
    result = prove(AMGM, time_limit=30)
    assert result.proved and result.check().ok
    assert len(result.proof.parts) == 2 and len(result.proof.steps()) >= 2
    text = result.lean_text()
    assert "refine ⟨?_, ?_⟩" in text and "\n  · " in text
    assert "0 < a * b ∧ a * b ≤ (a + b) ^ 2 / 4" in text
    report = replay_text(text)
    assert report.ok, report.summary()
    # the proof file lists the parts, and is read back, checked and rendered again
    data = json.loads(result.proof.dumps())
    assert len(data["parts"]) == 2 and len(data["problem"]["goal_parts"]) == 2
    assert check(data).ok
    again = Proof.loads(result.proof.dumps())
    assert again.problem.is_conjunction and len(again.parts) == 2
    assert replay_text(render_proof(again)).ok


def test_three_parts_with_a_greater_or_equal_part_replay() -> None:
    result = prove("theorem t (x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ^ 2 ≤ x ∧ 0 ≤ x ^ 2 ∧ x ^ 3 ≥ 0 := by sorry",
                   time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "refine ⟨?_, ?_, ?_⟩" in text and "rw [ge_iff_le]" in text
    report = replay_text(text)
    assert report.ok, report.summary()


def test_false_conjunction_is_not_proved_and_names_the_part() -> None:
    result = prove("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 0 < a * b ∧ a * b ≤ a + b := by sorry",
                   time_limit=20)
    assert not result.proved and result.proof is None
    assert result.error is not None and "part 2 of 2" in result.error and "a * b ≤ a + b" in result.error


def test_first_part_false_is_not_proved() -> None:
    result = prove("theorem t (a : ℝ) (ha : 0 < a) : a ≤ 0 ∧ 0 < a := by sorry", time_limit=20)
    assert not result.proved and "part 1 of 2" in (result.error or "")


# ---------------------------------------------------------------- attacks on proof files


@pytest.fixture(scope="module")
def amgm_proof() -> Proof:
    result = prove(AMGM, time_limit=30)
    assert result.proved
    return result.proof


def test_a_part_dropped_from_the_file_is_rejected(amgm_proof: Proof) -> None:
    data = json.loads(amgm_proof.dumps())
    one = dict(data)
    one["parts"] = data["parts"][:1]
    assert not check(one).ok
    # the file claims a single goal (its first part) while its Lean text states the conjunction
    single = {k: v for k, v in data.items() if k != "parts"}
    single["problem"] = {k: v for k, v in data["problem"].items() if k != "goal_parts"}
    verdict = check(single)
    assert not verdict.ok and "conjunction" in verdict.errors[0]


def test_parts_swapped_or_duplicated_are_rejected(amgm_proof: Proof) -> None:
    data = json.loads(amgm_proof.dumps())
    swapped = dict(data)
    swapped["parts"] = list(reversed(data["parts"]))
    assert not check(swapped).ok
    dup = dict(data)
    dup["parts"] = [data["parts"][0], data["parts"][0]]
    dup["problem"] = dict(data["problem"], goal_parts=[data["problem"]["goal_parts"][0]] * 2)
    assert not check(dup).ok   # the Lean text's second part is not proved


def test_the_kernel_alone_refuses_a_conjunction_file(amgm_proof: Proof) -> None:
    from prover.kernel.check import check_proof as kernel_check

    verdict = kernel_check(json.loads(amgm_proof.dumps()))
    assert not verdict.ok and "part by part" in verdict.errors[0]


def test_old_single_goal_files_still_load_and_check() -> None:
    result = prove("theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry", time_limit=20)
    data = json.loads(result.proof.dumps())
    assert "parts" not in data and "goal_parts" not in data["problem"]
    proof = Proof.from_json(data)
    assert proof.parts == [] and check_proof(proof).ok and check(data).ok


def test_step_by_step_lean_verification_replays_each_part(tmp_path) -> None:
    """``verify_proof_in_lean`` on a conjunction: each part's steps on that part's own theorem
    (the stand-in REPL of tests/fake_lean_repl.py; no Lean here)."""
    import sys
    from pathlib import Path

    from prover.lean.backend import ReplBackend
    from prover.lean.repl import LeanRepl
    from prover.lean.verify import verify_proof_in_lean

    proof = prove(AMGM, time_limit=30).proof
    fake = [sys.executable, str(Path(__file__).parent / "fake_lean_repl.py")]
    repl = LeanRepl(argv=fake, timeout=5.0, header="import Mathlib", header_timeout=10,
                    env={"FAKE_REPL_LOG": str(tmp_path / "log.jsonl")})
    with ReplBackend(repl) as backend:
        res = verify_proof_in_lean(proof, backend)
    assert res.ok and res.steps_checked == len(proof.steps())
    requests = [json.loads(ln) for ln in (tmp_path / "log.jsonl").read_text().splitlines()]
    opened = [q["cmd"] for q in requests if "theorem" in q.get("cmd", "")]
    assert len(opened) == 2 and "∧" not in opened[0] and "∧" not in opened[1]   # one theorem per part


def test_saved_proofs_check_every_part_at_points(amgm_proof: Proof, tmp_path) -> None:
    from prover.semantics.check_proofs import check_file

    good = tmp_path / "good.json"
    good.write_text(amgm_proof.dumps(), encoding="utf-8")
    assert check_file(good, points=100).violations == []
    data = json.loads(amgm_proof.dumps())
    data["problem"]["goal_parts"][1] = {"lhs": "a*b", "op": ">", "rhs": "(a + b)**2/4"}   # false part
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert check_file(bad, points=100).violations
