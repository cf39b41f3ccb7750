"""A hypothesis ``h₀ : 0 < a ∧ 0 < b`` (miniF2F's style): its parts are copied into the context
(``positivity`` sees hypotheses, not ``h₀.1``), and ``h₀`` is written as Lean writes it (a
subscript digit is an identifier character: no « »). Before, every ``positivity`` on ``a`` or
``b`` failed the replay model."""

from __future__ import annotations

from prover.api import prove
from prover.lean.replay import replay_text
from prover.lean.syntax import lean_ident


def test_subscripted_names_are_plain_identifiers() -> None:
    assert lean_ident("h₀") == "h₀" and lean_ident("hx'") == "hx'"
    assert lean_ident("have") == "«have»" and lean_ident("a b") == "«a b»"


def test_conjunction_parts_are_copied_and_the_file_passes_the_replay_model() -> None:
    result = prove("theorem t (a b : ℝ) (h₀ : 0 < a ∧ 0 < b) : a / b + b / a ≥ 2 := by sorry", time_limit=30)
    assert result.proved
    text = result.lean_text()
    assert "have hand_1 : 0 < a := h₀.1" in text and "«" not in text
    report = replay_text(text)
    assert report.ok, report.summary()
