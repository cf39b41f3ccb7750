"""Golden tests for the Lean rendering of kernel proofs.

The expected files ``tests/golden/*.lean`` were reviewed line by line against Mathlib v4.16.0
(lemma names and tactic syntax) and lean_project/. Regenerate after an intended change with
``PROVER_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_lean_render.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import sympy as sp

from prover.ir import Goal, Proof, Step, expr_from_str, relation_from_json
from prover.lean.render import RenderError, render_proof, render_step_tactic, step_block
from prover.lean.syntax import lean_expr, ring_identity
from prover.problem import var
from tests.lean_golden_cases import CASES, LEMMAS, NLINARITH_CASES, rel

GOLDEN = Path(__file__).parent / "golden"
LEAN_PROJECT = Path(__file__).parent.parent / "lean_project"
UPDATE = os.environ.get("PROVER_UPDATE_GOLDEN") == "1"


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.lean"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path} (run with PROVER_UPDATE_GOLDEN=1 and review it)"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_rendering(name: str) -> None:
    _check_golden(name, render_proof(CASES[name](), lemmas=LEMMAS.get))


@pytest.mark.parametrize("name", sorted(NLINARITH_CASES))
def test_golden_rendering_nlinarith_style(name: str) -> None:
    _check_golden(name, render_proof(NLINARITH_CASES[name](), close_style="nlinarith"))


def test_at_least_fifteen_golden_files() -> None:
    assert len(list(GOLDEN.glob("*.lean"))) >= 15


# -------------------------------------------- the certificates behind the goldens are exact


def _slack(r) -> sp.Expr:
    return r.slack()


def _sos_value(goal: Goal, cert: dict) -> sp.Expr:
    vs = list(goal.variables)
    total = sp.Integer(0)
    for t in cert.get("terms", []):
        prod = sp.Rational(t["coeff"]) * expr_from_str(t["poly"], vs) ** 2
        for k in t["mult"]:
            prod *= _slack(goal.hypotheses[k])
        total += prod
    for t in cert.get("eq_terms", []):
        h = goal.hypotheses[t["hyp"]]
        total += expr_from_str(t["poly"], vs) * (h.lhs - h.rhs)
    return total


def _check_step(step: Step) -> None:
    g, cert = step.goal, step.certificate
    vs = list(g.variables)
    if step.kind == "close" and cert["method"] == "sos":
        assert sp.simplify(_slack(g.target) - _sos_value(g, cert)) == 0
    elif step.kind in ("rewrite", "scale"):
        m = expr_from_str(cert.get("multiplier", "1"), vs)
        rhs = m * _slack(step.subgoals[0].target)
        for app in cert.get("applications", []):
            coeff = expr_from_str(app.get("coefficient", "1"), vs)
            if "hypothesis" in app:
                rhs += coeff * _slack(g.hypotheses[app["hypothesis"]])
                continue
            if "fact" in app:
                fact = relation_from_json(app["fact"], vs)
                assert sp.simplify(_slack(fact) - _sos_value(g, app["proof"])) == 0
                rhs += coeff * _slack(fact)
                continue
            lem = LEMMAS[app["lemma"]]
            sub = {var(v): expr_from_str(e, vs) for v, e in app["instance"].items()}
            rhs += coeff * (lem.rhs - lem.lhs).subs(sub)
        for t in cert.get("eq_terms", []):
            h = g.hypotheses[t["hyp"]]
            rhs += expr_from_str(t["poly"], vs) * (h.lhs - h.rhs)
        assert sp.simplify(_slack(g.target) - rhs) == 0
    for child in step.children:
        _check_step(child)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_certificates_are_exact(name: str) -> None:
    _check_step(CASES[name]().root)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_proofs_pass_the_kernel(name: str) -> None:
    from prover.verify import check_proof

    verdict = check_proof(CASES[name](), LEMMAS.get)
    assert verdict.ok, verdict.errors


# -------------------------------------------- what the goldens may and may not contain


def _golden_texts() -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8")) for p in sorted(GOLDEN.glob("*.lean"))]


def test_goldens_have_no_sorry_or_axiom_declarations() -> None:
    for name, text in _golden_texts():
        assert "sorry" not in text, name
        assert not re.search(r"^\s*axiom\b", text, re.MULTILINE), name
        assert text.count("#print axioms") == 1, name


def test_project_lemmas_used_by_goldens_exist_in_lean_project() -> None:
    """Goldens state our lemmas locally (``have prover_<name>``), each one of lean_project/ProverLemmas,
    and never import that library."""
    declared = set()
    for f in (LEAN_PROJECT / "ProverLemmas").glob("*.lean"):
        declared |= set(re.findall(r"^theorem (\w+)", f.read_text(encoding="utf-8"), re.MULTILINE))
    used = {m for _, text in _golden_texts() for m in re.findall(r"^\s*have prover_(\w+) :", text, re.MULTILINE)}
    assert used and used <= declared, used - declared
    for name, text in _golden_texts():
        assert re.findall(r"^import .*$", text, re.MULTILINE) == ["import Mathlib"], name
        assert "Prover.Lemmas." not in re.sub(r"--.*", "", text), name


# -------------------------------------------- stepwise rendering and errors


def test_step_tactic_is_the_block_in_the_full_file() -> None:
    proof = CASES["clear_denominators"]()
    full = render_proof(proof)
    tac = render_step_tactic(proof.root, ["ha", "hb"])
    assert "\n".join("  " + ln for ln in tac.splitlines()) in full


def test_step_block_names_the_subgoal_hypotheses() -> None:
    proof = CASES["sign_split"]()
    block = step_block(proof.root, [])
    assert len(block.child_names) == 2 and block.child_names[0] == block.child_names[1] == ["hsign1"]


def test_scale_without_catalogue_is_a_render_error() -> None:
    with pytest.raises(RenderError, match="amgm2_sqrt"):
        render_proof(CASES["scale_amgm"](), lemmas=lambda name: None)


def test_scale_lemma_without_lean_name_is_a_render_error() -> None:
    from dataclasses import replace

    lem = replace(LEMMAS["amgm2_sqrt"], lean_name="")
    with pytest.raises(RenderError, match="lean_name"):
        render_proof(CASES["scale_amgm"](), lemmas={"amgm2_sqrt": lem}.get)


def test_root_goal_must_match_problem() -> None:
    proof = CASES["amgm2"]()
    bad = Proof(proof.problem, Step("close", proof.root.goal.with_target(rel(0, "<=", 1)), [],
                                    proof.root.certificate))
    with pytest.raises(RenderError, match="root goal"):
        render_proof(bad)


def test_malformed_certificate_is_a_render_error() -> None:
    proof = CASES["amgm2"]()
    proof.root.certificate = {"method": "sos", "terms": [{"coeff": "1", "mult": [7], "poly": "a"}]}
    with pytest.raises(RenderError):
        render_proof(proof)


def test_non_polynomial_substitution_is_refused() -> None:
    proof = CASES["substitute_shift"]()
    proof.root.certificate = {"substitution": {"a": "1/u"}, "inverse": {"u": "1/a"}}
    with pytest.raises(RenderError, match="polynomial"):
        render_proof(proof)


# -------------------------------------------- the printer


@pytest.mark.parametrize("expr, text", [
    ("a/(b + c)", "a / (b + c)"),
    ("3*a/(2*b)", "3 * a / (2 * b)"),
    ("sqrt(a*b)", "Real.sqrt (a * b)"),
    ("a**(1/3)", "a ^ (1 / 3 : ℝ)"),
    ("-(a - b)", "b - a"),
    ("(a + b)**2", "(a + b) ^ 2"),
    ("1/(a**2*(b + c))", "1 / (a ^ 2 * (b + c))"),
    ("a/((a + b)*(b + c))", "a / ((a + b) * (b + c))"),
    ("-3*a/4", "-(3 * a / 4)"),
])
def test_lean_expr(expr: str, text: str) -> None:
    assert lean_expr(expr_from_str(expr, ["a", "b", "c"])) == text


@pytest.mark.parametrize("expr, text", [
    ("a/((a + b)*(b + c))", "a / (a + b) / (b + c)"),
    ("2/(3*(a + b)**2*(b + c))", "2 / 3 / (a + b) ^ 2 / (b + c)"),
    ("1/(a**2*(b + c))", "1 / (a ^ 2 * (b + c))"),          # one sum: one division, as before
])
def test_lean_expr_with_split_denominators(expr: str, text: str) -> None:
    """Two or more sums in a denominator: one division each, so that ``ring`` sees one atom per factor."""
    from prover.lean.syntax import split_denominators

    with split_denominators():
        assert lean_expr(expr_from_str(expr, ["a", "b", "c"])) == text


def test_ring_identity_treats_inverses_as_atoms() -> None:
    a, b = var("a"), var("b")
    assert ring_identity(1 / (a + b) - 1 / (b + a))
    assert not ring_identity(a / b + b / a - (a**2 + b**2) / (a * b))


def test_default_catalogue_lookup_resolves_lemmas() -> None:
    """Without ``lemmas=``, the renderer asks the catalogue (a scale step must not crash)."""
    from prover.lean.render import catalogue_lookup

    look = catalogue_lookup()
    assert look is not None
    lem = look("amgm2_sqrt")
    assert lem is not None and lem.variables


def test_rewrite_multiplier_nonnegative_only_as_an_even_power_renders_with_le():
    """The kernel takes a multiplier ``m >= 0`` for a non-strict goal; ``(a - b)^2`` has no sign fact
    but ``positivity`` proves ``0 ≤ (a - b) ^ 2``, so the file states that (not ``0 <``)."""
    import sympy as sp

    from prover.api import parse
    from prover.ir import Goal, Proof, Step
    from prover.kernel.certificates import LinearCertificate, PositivityCertificate
    from prover.lean.render import render_proof
    from prover.lean.replay import replay_text
    from prover.problem import Relation
    from prover.verify import check_proof

    p = parse("theorem amgm (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry")
    g = Goal.from_problem(p)
    sub = g.with_target(Relation(sp.Integer(0), "<=", sp.Integer(1)))
    rw = Step("rewrite", g, [sub], LinearCertificate("(a - b)**2").to_json(), note="square")
    rw.children = [Step("close", sub, [], PositivityCertificate().to_json(), note="positivity")]
    proof = Proof(p, rw)
    assert check_proof(proof).ok
    text = render_proof(proof)
    assert "(0 : ℝ) ≤ (a - b) ^ 2 := by positivity" in text and "(0 : ℝ) < (a - b) ^ 2" not in text
    assert replay_text(text).ok


def test_a_rewrite_identity_too_long_to_state_enters_the_main_combination(monkeypatch) -> None:
    """An identity whose ``have`` statement would exceed half the tactic budget (both targets printed)
    is not stated: its combination joins the main ``linear_combination``, which ``ring`` checks at once."""
    import sympy as sp

    from prover.api import parse
    from prover.ir import Goal, Proof, Step
    from prover.kernel.certificates import LinearCertificate, PositivityCertificate
    from prover.lean.render import linear, render_proof
    from prover.lean.replay import replay_text
    from prover.problem import Relation
    from prover.verify import check_proof

    p = parse("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 1 ≤ a / (a + b) + b / (a + b) + a ^ 2 := by sorry")
    g = Goal.from_problem(p)
    sub = g.with_target(Relation(sp.Integer(0), "<=", var("a") ** 2))
    rw = Step("rewrite", g, [sub], LinearCertificate("1").to_json(), note="cancel")
    rw.children = [Step("close", sub, [], PositivityCertificate().to_json(), note="positivity")]
    proof = Proof(p, rw)
    assert check_proof(proof).ok
    stated = render_proof(proof)
    assert "have hid" in stated and replay_text(stated).ok
    monkeypatch.setattr(linear, "TACTIC_BUDGET", 20)
    inlined = render_proof(proof)
    assert "have hid" not in inlined and "mul_inv_cancel₀" in inlined
    report = replay_text(inlined)
    assert report.ok, report.summary() + "\n" + inlined


def _fraction_proof():
    """``0 ≤ a / (a + b) * (a / (b + 1))`` restated as the combined fraction ``a² / ((a + b)(b + 1))``
    (a rewrite with multiplier 1), closed by ``positivity``."""
    import sympy as sp

    from prover.api import parse
    from prover.kernel.certificates import LinearCertificate, PositivityCertificate
    from prover.problem import Relation
    from prover.verify import check_proof

    p = parse("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 0 ≤ a / (a + b) * (a / (b + 1)) := by sorry")
    g = Goal.from_problem(p)
    a, b = var("a"), var("b")
    sub = g.with_target(Relation(sp.Integer(0), "<=", a ** 2 / ((a + b) * (b + 1))))
    rw = Step("rewrite", g, [sub], LinearCertificate("1").to_json(), note="combine")
    rw.children = [Step("close", sub, [], PositivityCertificate().to_json(), note="positivity")]
    proof = Proof(p, rw)
    assert check_proof(proof).ok
    return proof


def test_a_goal_dividing_by_a_product_of_sums_is_printed_with_successive_divisions() -> None:
    """Such a goal (a step combined fractions) is rendered with one ``ring`` atom per factor first:
    against the statement's ``a / (a + b) * (a / (b + 1))`` the identity is then ``ring`` alone."""
    from prover.lean.replay import replay_text

    text = render_proof(_fraction_proof())
    assert re.search(r"a \^ 2 / \((a|b) \+ (b|1)\) / \((a|b) \+ (b|1)\)", text), text
    assert "mul_inv_cancel₀" not in text
    assert replay_text(text).ok


def test_the_other_printing_is_used_when_the_first_is_refused(monkeypatch) -> None:
    import prover.lean.render.proof as proof_module
    from prover.lean.replay import replay_text
    from prover.lean.syntax import _SPLIT_DENOMINATORS

    original = proof_module._render_file

    def refuse_split(*args):
        if _SPLIT_DENOMINATORS.get():
            raise RenderError("refused in this printing")
        return original(*args)
    monkeypatch.setattr(proof_module, "_render_file", refuse_split)
    text = render_proof(_fraction_proof())
    assert re.search(r"a \^ 2 / \(\((a|b) \+ (b|1)\) \* \((a|b) \+ (b|1)\)\)", text), text
    assert "mul_inv_cancel₀" in text
    assert replay_text(text).ok
    monkeypatch.setattr(proof_module, "_render_file", lambda *a: (_ for _ in ()).throw(RenderError("never")))
    with pytest.raises(RenderError, match="never"):
        render_proof(_fraction_proof())
