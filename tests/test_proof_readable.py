"""Readable proofs (issue 15): one notation (Lean's) for every fact in the terminal and on the
page, the page's verdict banner, typeset math, Lean text, equality case, plot and statistics
table, and a Lean header that claims no check that did not happen.

The IMO 2001/2 proof in ``tests/data/imo2001_p2.proof.json`` was found by
``prover prove benchmarks/mo-int-20.jsonl#P8``: introduce the roots, scale by three termwise facts
``a / t1 ≥ u1 ^ 4 / (u1 ^ 4 + u2 ^ 4 + u3 ^ 4)`` …, close.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.search.page import (
    PageVerdict,
    equality_case,
    mathml_body,
    page_verdict,
    proof_html,
    slack_series,
    stats_table,
)
from prover.search.proof_text import certificate_summary, step_facts, text_lines
from tests.lean_golden_cases import CASES, LEMMAS, close, problem, rel, sos

DATA = Path(__file__).parent / "data"
IMO = DATA / "imo2001_p2.proof.json"
FACTS = ["a / t1 ≥ u1 ^ 4 / (u1 ^ 4 + u2 ^ 4 + u3 ^ 4)", "b / t2 ≥ u2 ^ 4 / (u1 ^ 4 + u2 ^ 4 + u3 ^ 4)",
         "c / t3 ≥ u3 ^ 4 / (u1 ^ 4 + u2 ^ 4 + u3 ^ 4)"]
#: sympy's notation, which must not appear where a formula is shown as text
SYMPY = re.compile(r"\*\*|(?<![\w.])sqrt\(")


@pytest.fixture(scope="module")
def imo() -> Proof:
    return Proof.loads(IMO.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def imo_page(imo: Proof) -> str:
    v = PageVerdict(True, time_s=35.2, command="prover prove benchmarks/mo-int-20.jsonl#P8 --out runs/p8")
    return proof_html(imo, "mo-int-20/P8", imo.meta["stats"], verdict=v)


# ---------------------------------------------------------------- the terminal


def test_termwise_facts_are_printed_not_question_marks(imo: Proof) -> None:
    text = "\n".join(text_lines(imo.root))
    assert "?" not in text
    for fact in FACTS:
        assert fact in text
    scale = imo.root.children[0]
    assert step_facts(scale) == FACTS


def test_terminal_uses_lean_notation_only(imo: Proof) -> None:
    text = "\n".join(text_lines(imo.root))
    assert not SYMPY.search(text), text
    assert "u1 = a ^ (1 / 3 : ℝ)" in text and "t1 = Real.sqrt (a ^ 2 + 8 * b * c)" in text


def test_hypothesis_and_lemma_applications_are_shown() -> None:
    lines = text_lines(CASES["scale_hypothesis_fact"]().root)
    assert any("a * b ≤ (a + b) ^ 2 / 4" in ln for ln in lines)
    assert any("a + b ≤ 2   [hypothesis, times a / 4 + b / 4 + 1 / 2]" in ln for ln in lines)
    amgm = CASES["scale_amgm"]().root
    assert step_facts(amgm) == ["Real.sqrt (a * b) ≤ a / 2 + b / 2   [lemma amgm2_sqrt]"]


def test_summaries_use_lean_notation() -> None:
    rw = CASES["clear_denominators"]().root
    assert certificate_summary(rw) == "multiplier 1 / a / b"
    split = CASES["sign_split"]().root
    assert certificate_summary(split) == "cases by the sign of a * b"
    intro = CASES["introduce_cube_root"]().root
    assert step_facts(intro) == ["t = x ^ (1 / 3 : ℝ)"]
    sub = CASES["substitute_shift"]().root
    assert step_facts(sub) == ["a = u + 1"]


def test_split_children_keep_their_case_line() -> None:
    lines = text_lines(CASES["order_split_two"]().root)
    assert lines[1].strip().startswith("close") and "case a ≥ b ⊢" in lines[1]


# ---------------------------------------------------------------- the page


def _visible_text(page: str) -> str:
    """The page without tags and without MathML (whose presentation is typesetting, not text)."""
    page = re.sub(r"<math.*?</math>", "", page, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", "", page)


def test_page_shows_the_facts_typeset_with_lean_text(imo_page: str) -> None:
    for fact in FACTS:
        assert f"title='{fact}'" in imo_page
    scale = imo_page.split("data-kind='scale'")[1].split("data-kind='close'")[0]
    assert scale.count("<li><math") == 3
    assert "?, ?" not in imo_page


def test_page_uses_one_notation(imo_page: str) -> None:
    assert not SYMPY.search(imo_page), SYMPY.search(imo_page)
    for name in ("introduce_cube_root", "introduce_sqrt", "homogenize", "sum_constraint"):
        page = proof_html(CASES[name](), stats={"expansions": 1})
        assert not SYMPY.search(page), (name, SYMPY.search(page))


def test_page_has_mathml(imo_page: str) -> None:
    assert imo_page.count("<math") > 10
    assert "<msqrt>" in imo_page and "<mfrac>" in imo_page and "<mroot>" in imo_page
    assert "&InvisibleTimes;" not in imo_page        # numeric references only
    assert mathml_body(sp.Symbol("a") ** 2).startswith("<msup>")


def test_statistics_are_a_table_not_json(imo_page: str) -> None:
    stats = imo_page.split("<h2>Statistics</h2>")[1]
    assert stats.lstrip().startswith("<details class='stats'><summary>")    # collapsed
    assert "<table class='stats'>" in stats
    assert '"expansions"' not in imo_page and "{" not in _visible_text(stats)
    assert "<th scope='row'>proof steps</th><td>3</td>" in stats
    nested = stats_table({"llm": {"rewrites": {"calls": 6}}, "kernel_time_s": 1.23456})
    assert "llm.rewrites.calls" in nested and "1.23" in nested


def test_verdict_banner(imo_page: str) -> None:
    assert "data-verdict='ok'" in imo_page and "Proof accepted by the kernel" in imo_page
    assert "found in 35.20 s" in imo_page and "prover prove benchmarks/mo-int-20.jsonl#P8" in imo_page
    p = CASES["amgm2"]()
    assert "No verdict recorded" in proof_html(p) and "data-verdict='unknown'" in proof_html(p)
    assert "NOT accepted" in proof_html(p, verdict={"accepted": False, "detail": "step 2 rejected"})
    res = SimpleNamespace(status="proved", time_s=1.5, stats={"kernel_time_s": 0.25})
    v = page_verdict(res, command="prover prove x")
    assert v.accepted is True and v.time_s == 1.5 and "0.25" in v.detail


def test_page_shows_the_lean_text_beside_the_steps(imo_page: str) -> None:
    aside = imo_page.split("<aside class='lean'>")[1]
    assert "theorem P8" in aside and "not compiled" in aside
    assert imo_page.index("<aside class='lean'>") > imo_page.index("data-kind='close'")  # after the steps: beside


def test_page_shows_why_lean_refused() -> None:
    a, u = sp.symbols("a u", real=True)
    p = problem("reciprocal", "a", [("ha", rel(a, ">", 0))], rel(a + 1 / a, ">=", 2))
    g = Goal.from_problem(p)
    g2 = Goal(("u",), (rel(1 / u, ">", 0),), rel(1 / u + u, ">=", 2))
    step = Step("substitute", g, [g2], {"substitution": {"a": "1/u"}, "inverse": {"u": "1/a"}},
                [close(g2, sos((1, [], u - 1)))])
    page = proof_html(Proof(p, step))
    assert "The Lean renderer refused this proof" in page and "a = 1 / u" in page
    assert "given reason" in proof_html(CASES["amgm2"](), lean_error="given reason")


def test_equality_case_and_plot(imo_page: str) -> None:
    assert "tight at <strong>a = 1, b = 1, c = 1</strong>" in imo_page
    svg = imo_page.split("<h2>Plot</h2>")[1]
    assert svg.startswith("<figure><svg") and "equality at a = 1" in svg and "<path d='M" in svg
    assert "not part of the proof" in svg


def test_plot_follows_an_equality_constraint() -> None:
    goal = Goal.from_problem(CASES["sum_constraint"]().problem)   # a + b = 2 ⊢ a * b ≤ 1
    eq = equality_case(goal)
    assert eq is not None and eq.exact and eq.point == {"a": "1", "b": "1"}
    s = slack_series(goal, eq.floats)
    assert s is not None and "b solved from the constraint" in s.held
    for x, lhs, rhs in zip(s.xs, s.lhs, s.rhs):
        if math.isfinite(lhs):
            assert lhs == pytest.approx(x * (2 - x), abs=1e-9) and rhs == 1


def test_numeric_equality_case_when_not_all_equal() -> None:
    x = sp.Symbol("x", real=True)
    goal = Goal(("x",), (), rel((x - 2) ** 2, ">=", 0))
    eq = equality_case(goal)
    assert eq is not None and not eq.exact and eq.tight
    assert eq.floats["x"] == pytest.approx(2, abs=1e-3)


def test_page_is_self_contained(imo_page: str) -> None:
    assert "<script" not in imo_page and "<link" not in imo_page and "<img" not in imo_page
    urls = set(re.findall(r"https?://[^\s'\"]+", imo_page))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls


def test_prove_writes_the_page_with_verdict_and_lean(tmp_path: Path, imo: Proof) -> None:
    from prover.commands.prove import write_outputs

    result = SimpleNamespace(status="proved", proof=CASES["scale_titu"](), time_s=0.5,
                             stats={"expansions": 1, "proof_steps": 2}, counterexample=None, error=None)
    files, _ = write_outputs(tmp_path, result, "scale_titu")
    page = Path(files["html"]).read_text(encoding="utf-8")
    assert "Proof accepted by the kernel" in page and "found in 0.50 s" in page
    assert "<table class='stats'>" in page and "<aside class='lean'>" in page


# ---------------------------------------------------------------- the Lean file's header


def test_lean_header_claims_no_check() -> None:
    from prover.lean.render import render_proof

    text = render_proof(CASES["amgm2"](), lemmas=LEMMAS.get)
    first = text.splitlines()[0]
    assert "checked" not in first.replace("check it", "")
    assert "not compiled" in first and "prover lean check" in first
    for golden in (Path(__file__).parent / "golden").glob("*.lean"):
        assert "checked against" not in golden.read_text(encoding="utf-8"), golden


def test_command_line_is_only_claimed_for_the_prover_command() -> None:
    from prover.search.page import command_line

    assert command_line(["/v/.venv/bin/prover", "prove", "f.jsonl#P8"]) == "prover prove 'f.jsonl#P8'"
    assert command_line(["/w/prover/__main__.py", "prove", "x"]) == "prover prove x"
    assert command_line(["/v/site-packages/pytest/__main__.py", "-q"]) is None
    assert command_line(["prover_demo.py"]) is None
