"""``introduce``/``substitute`` rendering (prover/lean/render/variables.py) against the replay model.

Every test renders a proof and replays it with ``prover.lean.replay`` (a static model of Lean +
Mathlib, not Lean); the tactics of the step under test must all pass.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.lean.replay_baseline import step_kinds
from prover.problem import var
from tests.lean_golden_cases import CASES, LEMMAS, close, problem, rel, sos

a, b, x, s, t, y0, y1 = (var(n) for n in ("a", "b", "x", "s", "t", "y0", "y1"))


def _verdicts(text: str, kind: str) -> list:
    kinds = step_kinds(text)
    steps = [v for v in replay_text(text).steps if kinds.get(v.line) == kind]
    assert steps, f"no {kind} tactics in\n{text}"
    return steps


def _passes(text: str, kind: str) -> None:
    bad = [f"{v.line}: {v.kind}: {v.reason}" for v in _verdicts(text, kind) if not v.ok]
    assert not bad, "\n".join(bad) + "\n" + text


# -------------------------------------------------------------------- introduce


def test_introduce_cube_root_has_no_rw_and_replays() -> None:
    """The old rendering proved ``(x ^ (1/3 : ℝ)) ^ 3 = x`` by ``rw [← Real.rpow_natCast, …]; norm_num``,
    which the model does not accept; now it is a chain of ``Real.rpow_of_add_eq`` terms."""
    text = render_proof(CASES["introduce_cube_root"](), lemmas=LEMMAS.get)
    assert "rw [←" not in text and "norm_num" not in text
    assert "Real.rpow_of_add_eq" in text and "Real.rpow_one" in text
    assert replay_text(text).ok, text


def test_introduce_sqrt_replays() -> None:
    text = render_proof(CASES["introduce_sqrt"](), lemmas=LEMMAS.get)
    assert replay_text(text).ok, text


def test_introduce_rpow_with_numerator_replays() -> None:
    """``t = x ^ (3/2 : ℝ)`` with the fact ``t ^ 2 = x ^ 3`` (no cast lemma needed)."""
    p = problem("introduce_three_halves", "x", [("hx", rel(x, ">", 0))], rel(x ** sp.Rational(3, 2), ">=", 0))
    g = Goal.from_problem(p)
    g2 = Goal(("x", "t"), g.hypotheses + (rel(t, ">", 0), rel(t ** 2, "=", x ** 3)),
              rel(t, ">=", 0))
    cert = {"definitions": {"t": "x**(3/2)"}, "new_hypotheses": []}
    child = close(g2, {"method": "positivity"})
    text = render_proof(Proof(p, Step("introduce", g, [g2], cert, [child])))
    assert "x ^ (3 / 2 : ℝ)" in text
    _passes(text, "introduce")


def test_introduce_sqrt_of_a_difference_uses_linarith() -> None:
    """``√(x − 1)`` under ``x > 1``: ``positivity`` cannot see ``0 < x − 1``, ``linarith`` can."""
    p = problem("introduce_sqrt_diff", "x", [("hx", rel(x, ">", 1))], rel(sp.sqrt(x - 1), "<=", x))
    g = Goal.from_problem(p)
    g2 = Goal(("x", "s"), g.hypotheses + (rel(s, ">", 0), rel(s ** 2, "=", x - 1)), rel(s, "<=", x))
    cert = {"definitions": {"s": "sqrt(x - 1)"}, "new_hypotheses": []}
    child = close(g2, sos((1, [], s - sp.Rational(1, 2)), (sp.Rational(3, 4), [], 1), eq=((2, -1),)))
    text = render_proof(Proof(p, Step("introduce", g, [g2], cert, [child])))
    assert "Real.sqrt_pos.mpr (by first | positivity | linarith)" in text
    _passes(text, "introduce")


# -------------------------------------------------------------------- substitute


def _cyclic_two() -> Proof:
    """``a = y0/y1``, ``b = y1/y0`` under ``a·b = 1`` (inverse ``y0 = 1``, ``y1 = 1/a``)."""
    p = problem("substitute_ratio", "a b", [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0)),
                                           ("hab", rel(a * b, "=", 1))], rel(a + b, ">=", 2))
    g = Goal.from_problem(p)
    g2 = Goal(("y0", "y1"), (rel(y0, ">", 0), rel(y1, ">", 0)), rel(y0 / y1 + y1 / y0, ">=", 2))
    cert = {"substitution": {"a": "y0/y1", "b": "y1/y0"}, "inverse": {"y0": "1", "y1": "1/a"},
            "eq_terms": {"b": [{"hyp": 2, "poly": "-1/a"}]},
            "new_hypotheses": [{"index": 0, "proof": {"method": "positivity"}},
                               {"index": 1, "proof": {"method": "positivity"}}]}
    child = close(g2, {"method": "positivity"})
    return Proof(p, Step("substitute", g, [g2], cert, [child]))


def test_substitute_rational_map_renders_and_replays() -> None:
    """Used to be refused ("only polynomial substitutions are rendered")."""
    text = render_proof(_cyclic_two())
    assert "∀ y0 y1 : ℝ, 0 < y0 → 0 < y1 →" in text
    assert "mul_inv_cancel₀" in text and "hab" in text
    _passes(text, "substitute")


def test_substitute_normalising_a_constraint_replays() -> None:
    """``a = 2a/(a+b)``, ``b = 2b/(a+b)`` drops the constraint ``a + b = 2`` (same variable names)."""
    p = problem("substitute_normalise", "a b", [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0)),
                                               ("hs", rel(a + b, "=", 2))], rel(a * b, "<=", 1))
    g = Goal.from_problem(p)
    g2 = Goal(("a", "b"), (rel(a, ">", 0), rel(b, ">", 0)), rel(4 * a * b / (a + b) ** 2, "<=", 1))
    cert = {"substitution": {"a": "2*a/(a + b)", "b": "2*b/(a + b)"}, "inverse": {"a": "a", "b": "b"},
            "eq_terms": {"a": [{"hyp": 2, "poly": "-a/(a + b)"}], "b": [{"hyp": 2, "poly": "-b/(a + b)"}]}}
    child = close(g2, {"method": "positivity"})
    text = render_proof(Proof(p, Step("substitute", g, [g2], cert, [child])))
    assert "∀ a b : ℝ," in text
    _passes(text, "substitute")


def test_substitute_shift_replays() -> None:
    text = render_proof(CASES["substitute_shift"](), lemmas=LEMMAS.get)
    assert replay_text(text).ok, text


def test_introduced_power_keeps_the_users_base_text() -> None:
    """Inside ``x ^ (1 / 3)`` the base is an atom to ``ring``: the instantiation must write
    ``(c ^ 2 + a ^ 2)`` as the statement does, not our ``(a ^ 2 + c ^ 2)`` (chenneq/P34); under
    the benchmark macro ``1 / 3`` is a real exponent, the same as ``(1 / 3 : ℝ)``."""
    from prover.api import prove
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text

    r = prove("theorem t (a c : ℝ) (ha : 0 < a) (hc : 0 < c) (h : a ^ 2 + c ^ 2 = 2) : "
              "a * (c ^ 2 + a ^ 2) ^ (1 / 3) ≤ 2 := by sorry", time_limit=60, real_division=True)
    assert r.status == "proved"
    text = render_proof(r.proof)
    key = next(ln for ln in text.splitlines() if "linear_combination hkey" in ln)
    assert "((c ^ 2 + a ^ 2) ^ (1 / 3 : ℝ))" in key
    rep = replay_text(text)
    assert rep.ok, rep.summary()


# -------------------------------------------------------------------- the user's atoms (composed suite)


def _proved_text(statement: str) -> str:
    from prover.api import prove

    r = prove(statement, time_limit=60)
    assert r.proved, r.status
    return render_proof(r.proof)


def _key_line(text: str) -> str:
    return next(ln for ln in text.splitlines() if "linear_combination hkey" in ln)


def test_introduced_root_is_the_users_root() -> None:
    """``Real.sqrt (2 * (a + b))`` is instantiated as written, not as our ``Real.sqrt (2 * a + 2 * b)``
    (a different atom to ``ring``); the definition fact ``t ^ 2 = 2 * a + 2 * b`` is proved from
    ``Real.sq_sqrt`` at the user's radicand. The instantiation at our printing fails."""
    text = _proved_text("theorem sqrt_sum {a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : "
                        "Real.sqrt a + Real.sqrt b ≤ Real.sqrt (2 * (a + b)) := by sorry")
    assert "(Real.sqrt (2 * (a + b)))" in _key_line(text)
    assert replay_text(text).ok, replay_text(text).summary()
    wrong = text.replace(_key_line(text), _key_line(text).replace("(Real.sqrt (2 * (a + b)))",
                                                                   "(Real.sqrt (2 * a + 2 * b))"))
    assert not replay_text(wrong).ok


def test_root_of_a_square_is_bridged_to_the_absolute_value() -> None:
    """sympy reads ``Real.sqrt (a ^ 2)`` as ``|a|``: the connection states ``Real.sqrt (a ^ 2) = |a|``
    (``Real.sqrt_sq_eq_abs``) and adds it with its coefficient; without it ``ring`` fails."""
    text = _proved_text("theorem sqrt_sum_sq {a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : Real.sqrt (a ^ 2) + "
                        "Real.sqrt (b ^ 2) ≤ Real.sqrt (2 * (a ^ 2 + b ^ 2)) := by sorry")
    assert "Real.sqrt_sq_eq_abs a" in text and "(|a|)" in text
    assert replay_text(text).ok, replay_text(text).summary()
    key = _key_line(text)
    assert " + hab" in key
    assert not replay_text(text.replace(key, key[:key.index(" + hab")])).ok


def test_real_power_atoms_are_bridged_by_a_chain() -> None:
    """The user's ``x ^ ((2:ℝ)/3)`` is ``(x ^ (1 / 3 : ℝ)) ^ 2`` by ``Real.rpow_of_add_eq``, added to
    the instantiation with its coefficient (wamgm); without that term ``ring`` fails."""
    text = _proved_text("theorem wamgm {x y : ℝ} (hx : 0 < x) (hy : 0 < y) : "
                        "x ^ ((2:ℝ)/3) * y ^ ((1:ℝ)/3) ≤ 2 / 3 * x + 1 / 3 * y := by sorry")
    assert replay_text(text).ok, replay_text(text).summary()
    key = _key_line(text)
    assert key.count(" + ") == 1
    assert not replay_text(text.replace(key, key[:key.index(" + ")])).ok


def _abs_proof(statement: str) -> Proof:
    """``|x|`` of known sign named ``t1`` (:class:`AbsAsVariable`), closed from ``t1 = ±x``."""
    from prover.frontend import parse_theorem
    from prover.rewrite import AbsAsVariable
    from prover.verify import Kernel

    p = parse_theorem(statement, real_division=True)
    step = AbsAsVariable().apply(Goal.from_problem(p))
    sub = step.subgoals[0]
    k = next(i for i, h in enumerate(sub.hypotheses) if h.op == "=")
    child = close(sub, sos(eq=((k, -1),)))
    step = Step(step.kind, step.goal, step.subgoals, step.certificate, [child])
    Kernel().check_one(step)
    Kernel().check_one(child)
    return Proof(p, step)


def test_absolute_value_variable_facts_replay() -> None:
    """``t := |x|`` with ``x < 0``: ``0 < t`` by ``abs_pos_of_neg``, ``t = -x`` from ``abs_of_neg``.
    Claiming ``|x| = x`` instead (``abs_of_pos``: no sign for it) fails."""
    text = render_proof(_abs_proof("theorem absneg {x : ℝ} (h : x < 0) : Real.sqrt (x ^ 2) ≤ -x := by sorry"))
    assert "abs_of_neg" in text and "abs_pos_of_neg" in text
    _passes(text, "introduce")
    assert replay_text(text).ok
    wrong = text.replace("|x| = -x := abs_of_neg (by linarith)", "|x| = x := abs_of_pos (by first | positivity | linarith)")
    assert wrong != text and not replay_text(wrong).ok
    text = render_proof(_abs_proof("theorem abspos {x : ℝ} (h : 0 < x) : Real.sqrt (x ^ 2) ≤ x := by sorry"))
    assert "abs_of_pos" in text and replay_text(text).ok


def test_statement_root_in_a_close_is_bridged_to_our_printing() -> None:
    """A ``positivity`` close at the statement: our fact is about ``Real.sqrt (a / 2 + b / 2)``, the
    statement has ``Real.sqrt ((a + b) / 2)``; the identity between them bridges the two atoms by
    ``congrArg Real.sqrt`` (``(a + b) / 2 = a / 2 + b / 2`` by ``ring``). Without it, refused."""
    text = _proved_text("theorem root_nonneg (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) : "
                        "0 ≤ Real.sqrt ((a + b) / 2) := by sorry")
    assert "congrArg Real.sqrt" in text
    rep = replay_text(text)
    assert rep.ok, rep.summary()
    bad = text.replace("linear_combination hat", "linear_combination 0 * hat")
    assert bad != text and not replay_text(bad).ok


def test_rational_functions_compared_at_points_before_cancel():
    """The substitute renderer's guard compares rational functions at exact points (cheap on a
    combined fraction of thousands of terms) and still tells equal from different."""
    from prover.lean.render.variables import _agree_at_points, _same_function
    from prover.problem import var

    a, b = var("a"), var("b")
    assert _agree_at_points(a / (a + b) + b / (a + b), 1 + 0 * a)
    assert not _agree_at_points(a / (a + b), b / (a + b))
    assert _same_function((a ** 2 - b ** 2) / (a - b), a + b)
    assert not _same_function(a / b, b / a)


def test_root_of_a_square_written_otherwise_is_bridged() -> None:
    """567neq/P73: the user's ``((3 * (…)) ^ 2) ^ (1 / 3)`` is ``|X| ^ (2/3)`` for our expanded
    ``X``; the instance ``((3 * (…)) ^ 2) ^ (1 / 6 : ℝ)`` needs ``|3 * (…)| = |X|`` (``congrArg abs``
    of a ``ring`` identity) in its definition fact, and the user's ``x ^ (2 / 3)`` under the
    benchmark macro is the same atom as ``x ^ (2 / 3 : ℝ)``. Dropping the bridge fails."""
    from prover.api import prove

    r = prove("theorem cube_sq (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : (a ^ 2 + a * b + b ^ 2) ^ (2 / 3) ≤ "
              "((3 * ((a ^ 2 + b ^ 2) + (a * b + b ^ 2))) ^ 2) ^ (1 / 3) := by sorry",
              time_limit=90, real_division=True)
    assert r.proved, r.status
    text = render_proof(r.proof)
    rep = replay_text(text)
    assert rep.ok, rep.summary()
    assert "congrArg abs" in text
    bridge = next(ln for ln in text.splitlines() if "congrArg abs" in ln).split(":")[0].split()[-1]
    bad = text.replace(f" + {bridge}", "")
    assert bad != text and not replay_text(bad).ok


def test_instantiated_hypothesis_is_the_users() -> None:
    """chenneq/P35: introducing ``t := √2`` quantifies ``a * b ≤ t / 4``; at ``√2`` it is the user's
    ``h``, proved from it (``positivity`` cannot prove an upper bound). A false instance refused."""
    text = _proved_text("theorem sq_hyp (a b : ℝ) (ha : 0 < a) (hb : 0 < b) (h : a * b ≤ Real.sqrt 2 / 4) : "
                        "a * b * Real.sqrt 2 ≤ 1 := by sorry")
    assert "(by linear_combination h)" in _key_line(text)
    assert replay_text(text).ok, replay_text(text).summary()
    bad = text.replace("(by linear_combination h)", "(by positivity)")
    assert not replay_text(bad).ok


def test_square_root_named_in_a_users_real_power_has_real_power_facts() -> None:
    """``b ^ (3 / 2 : ℝ)`` proved through ``t1 = √b``: the instance is the user's ``b ^ (1 / 2 : ℝ)``, so
    its facts are the real power's (``Real.sqrt_pos`` / ``Real.sq_sqrt`` are about another term)."""
    lean = _proved_and_rendered("theorem y (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : "
                                "3 * (3 * (a * b)) + 1 ≤ 3 * (a ^ 3 + 2 * b ^ (3 / 2 : ℝ)) + 1 := by sorry")
    assert "Real.sqrt_pos" not in lean and "(b ^ (1 / 2 : ℝ)) ^ 2 = b" in lean
    assert replay_text(lean).ok, lean


def test_a_square_root_after_a_substitution_is_bridged_to_our_real_powers() -> None:
    """A saved proof (definitions suite, power_mean_rpow_4): after a substitution the goal (our
    printing, not the user's text) has ``X ^ (p/q : ℝ)``, then ``t = √X``: instantiated as
    ``X ^ (1 / 2 : ℝ)`` and bridged as the user's own real powers are (it had failed the model)."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "power_mean_rpow_4_definitions.proof.json"
    lean = render_proof(Proof.loads(data.read_text(encoding="utf-8")))
    assert replay_text(lean).ok, lean


def _proved_and_rendered(text: str) -> str:
    """The statement proved by the search (60 s at most) and its rendered file."""
    from prover.frontend import parse_theorem
    from prover.search.driver import prove_problem

    problem = parse_theorem(text)
    problem.meta["lean"] = text
    result = prove_problem(problem, time_limit=60)
    assert result.status == "proved"
    return render_proof(result.proof)


def test_a_substitution_that_fixes_every_variable_states_no_binder(tmp_path) -> None:
    """``q = 6, p = 9`` from the hypotheses leaves no variable: the ``suffices`` has no ``∀`` (an
    empty ``∀  : ℝ,`` is no Lean term) and no ``intro``; the file passes the model."""
    from prover.api import prove
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    result = prove("theorem t (q p : ℝ) (h₀ : q = 2 + 4) (h₁ : p = 3 + 6) : q / p = 2 / 3 := by sorry",
                   time_limit=60)
    assert result.proof is not None
    text = render_proof(result.proof)
    assert "-- substitute" in text and "∀  :" not in text and "∀ :" not in text
    report = replay_text(text)
    assert report.ok, report.summary() + "\n" + text


def test_a_side_condition_with_an_exponential_is_not_a_polynomial_error() -> None:
    """``1 < X`` side conditions: a gap that is no polynomial (``exp x``) counts as nonlinear (it
    goes to the side prover) instead of crashing the renderer with sympy's ``PolynomialError``."""
    import sympy as sp

    from prover.lean.render.variables import _nonlinear
    x, y = sp.symbols("x y", real=True)
    assert _nonlinear(sp.exp(x)) and _nonlinear(x * y) and not _nonlinear(x + 2 * y - 1)
