"""``scale`` steps and the theorem prelude pass the Lean replay model (issue 13).

The replay model (``prover.lean.replay``) is a model of Lean, not Lean: a ``have h : T := e``
passes only when ``T`` is syntactically the type of ``e``. The defects fixed here restated our
own (sympy) printing as the type of a proof term (``0 ≤ 2 - a - b`` for ``sub_nonneg.mpr h`` with
``h : a + b ≤ 2``, whose type is ``0 ≤ 2 - (a + b)``), used a shadowed hypothesis name, and
applied Mathlib lemmas with implicit arguments nothing unified.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.lean.render import (
    RenderError,
    hypothesis_refs,
    original_statement,
    render_proof,
    root_prelude,
    theorem_head,
)
from prover.lean.replay import replay_text
from prover.problem import var
from prover.tactics.lemma import LemmaStatement
from tests.lean_golden_cases import CASES, LEMMAS, close, problem, rel, sos

GOLDEN = Path(__file__).parent / "golden"
a, b, c, x, y = (var(n) for n in "abcxy")
R = sp.Rational


def _replays(text: str) -> None:
    report = replay_text(text)
    assert report.ok, "\n".join(f"{s.line}: [{s.kind}] {s.status}: {s.reason[:300]}" for s in report.failures) + \
        "\n" + text


def _scale(p, applications: list[dict], sub_target) -> Proof:
    g = Goal.from_problem(p)
    g2 = g.with_target(sub_target)
    cert = {"applications": applications, "multiplier": "1", "eq_terms": [], "new_hypotheses": []}
    return Proof(p, Step("scale", g, [g2], cert, [close(g2, sos())]))


# ------------------------------------------------------------------ goldens


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("scale_")))
def test_scale_goldens_pass_the_replay_model(name: str) -> None:
    _replays((GOLDEN / f"{name}.lean").read_text(encoding="utf-8"))
    _replays(render_proof(CASES[name](), lemmas=LEMMAS.get))


# ------------------------------------------------------------------ hypotheses and facts


def _user_hypothesis_proof() -> Proof:
    """ab ≤ 1 from ab ≤ (a+b)²/4 (a fact) and (2 + a + b)/4 · (2 − a − b) ≥ 0, where the user wrote
    the hypothesis as ``2 ≥ b + a`` (our printing would be ``a + b ≤ 2``)."""
    hyps = [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0)), ("h", rel(2, ">=", a + b))]
    p = problem("user_hyp", "a b", hyps, rel(a * b, "<=", 1))
    p.meta = {"lean": "theorem user_hyp {a b : ℝ} (ha : a > 0) (hb : b > 0) (h : 2 ≥ b + a) : a * b ≤ 1 := by sorry"}
    fact = {"lhs": "a*b", "op": "<=", "rhs": "(a + b)**2/4"}
    apps = [{"fact": fact, "proof": sos((R(1, 4), [], a - b)), "coefficient": "1"},
            {"hypothesis": 2, "coefficient": "(2 + a + b)/4"}]
    return _scale(p, apps, rel(0, "<=", 0))


def test_hypothesis_application_uses_the_hypothesis_itself() -> None:
    text = render_proof(_user_hypothesis_proof(), lemmas=LEMMAS.get)
    assert "theorem user_hyp {a b : ℝ} (ha : a > 0) (hb : b > 0) (h : 2 ≥ b + a)" in text
    assert "(sub_nonneg.mpr h)" in text
    # no type restated from our printing of the hypothesis' slack
    assert "≤ 2 - a - b" not in text and "≤ -a - b + 2" not in text
    _replays(text)


def test_the_old_restated_slack_is_rejected_by_the_model() -> None:
    """The defect this file guards against: ``sub_nonneg.mpr h`` has type ``0 ≤ 2 - (b + a)``."""
    text = render_proof(_user_hypothesis_proof(), lemmas=LEMMAS.get)
    old = "  have happ0 : (0 : ℝ) ≤ 2 - a - b := (sub_nonneg.mpr h)\n"
    bad = text.replace("  -- scale\n", "  -- scale\n" + old)
    assert not replay_text(bad).ok


def test_fact_application_is_not_restated() -> None:
    text = render_proof(CASES["scale_hypothesis_fact"](), lemmas=LEMMAS.get)
    assert "(sub_nonneg.mpr hfact1)" in text
    assert "happ" not in text          # neither the fact nor the hypothesis is copied into a `have`
    _replays(text)


def test_unit_coefficient_needs_no_positivity_fact() -> None:
    text = render_proof(CASES["scale_amgm"](), lemmas=LEMMAS.get)
    assert "(0 : ℝ) ≤ 1 := by positivity" not in text
    _replays(text)


def test_strict_hypothesis_enters_by_sub_pos() -> None:
    """2ab ≤ a² + b² + (1 − a) with h : a < 1 (a strict hypothesis scaled with coefficient 1)."""
    p = problem("strict_hyp", "a b", [("h", rel(a, "<", 1))], rel(2 * a * b, "<=", a**2 + b**2 + 1 - a))
    proof = _scale(p, [{"hypothesis": 0, "coefficient": "1"}], rel(2 * a * b, "<=", a**2 + b**2))
    proof.root.children[0] = close(proof.root.subgoals[0], sos((1, [], a - b)))
    text = render_proof(proof, lemmas=LEMMAS.get)
    assert "(sub_pos.mpr h).le" in text
    _replays(text)


def test_coefficient_outside_positivity_is_proved_by_linarith() -> None:
    """Coefficient (2 − a)·… with a ≤ 1: not positivity's fragment, a linear consequence."""
    hyps = [("ha", rel(a, "<=", 1)), ("hb", rel(b, ">=", 0))]
    p = problem("coeff_linarith", "a b", hyps, rel(0, "<=", (2 - a) * b))
    proof = _scale(p, [{"hypothesis": 1, "coefficient": "2 - a"}], rel(0, "<=", 0))
    text = render_proof(proof, lemmas=LEMMAS.get)
    assert "≤ 2 - a := by linarith" in text
    _replays(text)


# ------------------------------------------------------------------ Mathlib lemmas with implicit arguments


AMGM2_WEIGHTED = LemmaStatement(
    "amgm2_weighted", ("w1", "w2", "p1", "p2"),
    (rel(var("w1"), ">=", 0), rel(var("w2"), ">=", 0), rel(var("p1"), ">=", 0), rel(var("p2"), ">=", 0),
     rel(var("w1") + var("w2"), "=", 1)),
    var("p1") ** var("w1") * var("p2") ** var("w2"), var("w1") * var("p1") + var("w2") * var("p2"),
    "lean", lean_name="Real.geom_mean_le_arith_mean2_weighted")


def test_weighted_amgm_states_the_instantiated_conclusion() -> None:
    hyps = [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0)), ("hx", rel(x, ">", 0)), ("hy", rel(y, ">", 0))]
    w1, w2 = a / (a + b), b / (a + b)
    p = problem("weighted", "a b x y", hyps, rel(x**w1 * y**w2, "<=", w1 * x + w2 * y))
    app = {"lemma": "amgm2_weighted", "instance": {"w1": str(w1), "w2": str(w2), "p1": "x", "p2": "y"},
           "coefficient": "1"}
    text = render_proof(_scale(p, [app], rel(0, "<=", 0)), lemmas={"amgm2_weighted": AMGM2_WEIGHTED}.get)
    assert ("≤ (a / (a + b)) * (x) + (b / (a + b)) * (y) := Real.geom_mean_le_arith_mean2_weighted hsc"
            in text)
    assert "(by positivity)" not in text          # nothing is left for unification to guess
    _replays(text)


def test_weighted_amgm_with_numeral_weights() -> None:
    p = problem("weighted_num", "x y", [("hx", rel(x, ">", 0)), ("hy", rel(y, ">", 0))],
                rel(x ** R(1, 3) * y ** R(2, 3), "<=", x / 3 + 2 * y / 3))
    app = {"lemma": "amgm2_weighted", "instance": {"w1": "1/3", "w2": "2/3", "p1": "x", "p2": "y"},
           "coefficient": "1"}
    text = render_proof(_scale(p, [app], rel(0, "<=", 0)), lemmas={"amgm2_weighted": AMGM2_WEIGHTED}.get)
    # numerals are ascribed, so Lean reads neither the exponent nor the side conditions in ℕ
    assert "(x) ^ (1 / 3 : ℝ) * (y) ^ (2 / 3 : ℝ) ≤ (1 / 3 : ℝ) * (x) + (2 / 3 : ℝ) * (y)" in text
    assert "have hsc6 : (1 / 3 : ℝ) + (2 / 3 : ℝ) = 1 := by" in text
    _replays(text)


def test_weighted_amgm_refuses_a_power_sympy_rewrote() -> None:
    """p ^ (1/2) is √p in our printing, not the lemma's rpow: not rendered (no silent mismatch)."""
    p = problem("weighted_sqrt", "x y", [("hx", rel(x, ">", 0)), ("hy", rel(y, ">", 0))],
                rel(sp.sqrt(x) * sp.sqrt(y), "<=", x / 2 + y / 2))
    app = {"lemma": "amgm2_weighted", "instance": {"w1": "1/2", "w2": "1/2", "p1": "x", "p2": "y"},
           "coefficient": "1"}
    with pytest.raises(RenderError, match="sqrt_eq_rpow"):
        render_proof(_scale(p, [app], rel(0, "<=", 0)), lemmas={"amgm2_weighted": AMGM2_WEIGHTED}.get)


# ------------------------------------------------------------------ the prelude


def _close_proof(p) -> Proof:
    g = Goal.from_problem(p)
    return Proof(p, close(g, sos((1, [], a - b))))


def test_prelude_copies_a_hypothesis_written_differently_by_linear_combination() -> None:
    hyps = [("ha", rel(a, ">", 0)), ("h.1", rel(b, ">", 0)), ("h.2", rel(a * b + b * c + c * a, ">", 0))]
    p = problem("P7", "a b c", hyps, rel(2 * a * b, "<=", a**2 + b**2))
    p.meta = {"lean": "theorem P7 {a b c : ℝ} (ha : a > 0) (h : b > 0 ∧ a * b + b * c + c * a > 0) : "
                      "2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry"}
    _, refs = hypothesis_refs(p)
    pre = root_prelude(p, refs)
    assert pre[0] == "have hpos0_1 : 0 < a := ha"
    assert pre[1] == "have hpos0_2 : 0 < b := h.1"
    assert pre[2] == "have hpos0_3 : 0 < a * b + a * c + b * c := by linear_combination h.2"
    _replays(render_proof(_close_proof(p)))


def test_prelude_defaults_to_the_statement_it_is_given() -> None:
    p = problem("P", "a b", [("ha", rel(a, ">", 0))], rel(2 * a * b, "<=", a**2 + b**2))
    assert root_prelude(p, ["ha"], head="theorem P (a b : ℝ) (ha : 0 < a) : True") == ["have hpos0_1 : 0 < a := ha"]
    assert root_prelude(p, ["ha"], head="theorem P (a b : ℝ) (ha : a>0) : True") == \
        ["have hpos0_1 : 0 < a := by linear_combination ha"]


def test_repeated_binder_names_are_renamed_in_our_statement() -> None:
    """chenneq/P17 writes ``(hc : c > 0) … (hc : b + c > a)``: the first ``hc`` is unreachable."""
    hyps = [("ha", rel(a, ">", 0)), ("hc", rel(c, ">", 0)), ("hc", rel(a + b, ">", c))]
    p = problem("dup", "a b c", hyps, rel(0, "<=", c * (a + b - c)))
    p.meta = {"lean": "theorem dup {a b c : ℝ} (ha : a > 0) (hc : c > 0) (hc : a + b > c) : "
                      "0 ≤ c * (a + b - c) := by sorry"}
    assert original_statement(p) is None
    _, refs = hypothesis_refs(p)
    assert refs == ["ha", "hc", "hc_2"]
    assert "(hc_2 : a + b > c)" in theorem_head(p)[0]
    g = Goal.from_problem(p)
    text = render_proof(Proof(p, close(g, sos((1, [1, 2], 1)))))
    assert "(sub_pos.mpr hc).le (sub_pos.mpr hc_2).le" in text
    _replays(text)
