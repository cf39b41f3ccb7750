"""Weighted AM-GM with variable weights (``x^x·y^y·z^z·w^w ≤ x² + y² + z² + w²`` when the
weights sum to 1 by a hypothesis), the signs the hypotheses imply only together, and the
kernel's ``side_equalities`` of a lemma application: accepted exactly when the side condition's
slack is the given combination of the goal's equalities."""

from __future__ import annotations

import pytest
import sympy as sp

from prover.api import prove
from prover.ir import Goal, Step
from prover.kernel.certificates import EqTerm, LemmaApplication, LinearCertificate
from prover.lean.render import render_proof
from prover.lean.replay import replay_text
from prover.problem import Hypothesis, Problem, Relation, var
from prover.rewrite import VariableSigns
from prover.tactics.catalogue import load_catalogue
from prover.tactics.match import candidates
from prover.verify import check_step

x, y, z, w = (var(n) for n in "xyzw")
ZERO = sp.Integer(0)
POS = tuple(Relation(v, ">", ZERO) for v in (x, y, z, w))
SUM1 = Relation(x + y + z + w, "=", sp.Integer(1))
GM = x**x * y**y * z**z * w**w


def _goal(target: Relation, hyps=POS + (SUM1,)) -> Goal:
    return Goal(("x", "y", "z", "w"), tuple(hyps), target)


def _lemmas(name: str):
    return load_catalogue().get(name)


def _scale(goal: Goal, new_target: Relation, side_equalities) -> Step:
    app = LemmaApplication("amgm4_weighted", {"w1": "x", "w2": "y", "w3": "z", "w4": "w",
                                              "p1": "x", "p2": "y", "p3": "z", "p4": "w"}, "1", side_equalities)
    cert = LinearCertificate("1", applications=(app,))
    return Step("scale", goal, [goal.with_target(new_target)], cert.to_json())


def _only_open(v) -> bool:
    return len(v.errors) == 1 and "open subgoal" in v.errors[0]


def test_side_equality_by_the_constraint_is_accepted() -> None:
    g = _goal(Relation(GM, "<=", sp.Integer(1)))
    step = _scale(g, Relation(x**2 + y**2 + z**2 + w**2, "<=", sp.Integer(1)), ((8, (EqTerm(4, "1"),)),))
    assert _only_open(check_step(step, _lemmas))


@pytest.mark.parametrize("side", [
    (),                                           # w1 + … = 1 is no identity
    ((8, (EqTerm(4, "2"),)),),                    # wrong multiple of the constraint
    ((8, (EqTerm(0, "1"),)),),                    # hypothesis 0 is an inequality
    ((0, (EqTerm(4, "1"),)),),                    # side condition 0 (w1 >= 0) is no equality
    ((9, (EqTerm(4, "1"),)),),                    # no side condition 9
])
def test_side_equality_attacks_are_rejected(side) -> None:
    g = _goal(Relation(GM, "<=", sp.Integer(1)))
    step = _scale(g, Relation(x**2 + y**2 + z**2 + w**2, "<=", sp.Integer(1)), side)
    v = check_step(step, _lemmas)
    assert not v.ok and not _only_open(v)


def test_side_equality_needs_the_constraint_to_hold() -> None:
    """Weights summing to 2: the same certificate cannot make ``w1 + … = 1`` true."""
    g = _goal(Relation(GM, "<=", sp.Integer(1)), POS + (Relation(x + y + z + w, "=", sp.Integer(2)),))
    for lam in ("1", "1/2"):
        step = _scale(g, Relation(x**2 + y**2 + z**2 + w**2, "<=", sp.Integer(1)), ((8, (EqTerm(4, lam),)),))
        assert not check_step(step, _lemmas).ok


def test_matcher_finds_the_mean_as_a_sub_product() -> None:
    """``(1 + x)·x^x·y^y·z^z·w^w``: the product of powers is four of the summand's five factors."""
    g = _goal(Relation((1 + x) * GM, "<=", 2 * (1 + x) * (x**2 + y**2 + z**2 + w**2)))
    found = candidates(g, load_catalogue()["amgm4_weighted"])
    news = [sp.expand(c.new.lhs - (1 + x) * (x**2 + y**2 + z**2 + w**2)) for c in found]
    assert 0 in news
    cand = found[news.index(0)]
    assert cand.side_equalities == ((8, (EqTerm(4, "1"),)),)
    assert _only_open(check_step(cand.step(g), _lemmas))


def test_plain_products_are_not_looked_for_among_sub_products() -> None:
    """``2xy ≤ x² + y²`` is not offered at every pair of factors of ``x·y·z``."""
    from prover.tactics.match import _pattern_factors, _wilds

    for name in ("amgm2", "amgm3_cbrt"):
        lem = load_catalogue()[name]
        assert _pattern_factors(lem.lhs.subs(_wilds(lem))) == 0
    lem = load_catalogue()["amgm3_weighted"]
    assert _pattern_factors(lem.lhs.subs(_wilds(lem))) == 3


def test_variable_signs_from_a_chain_of_hypotheses() -> None:
    a, b, c = var("a"), var("b"), var("c")
    hyps = (Relation(a - b, ">=", ZERO), Relation(b - c, ">=", ZERO), Relation(c, ">", ZERO))
    g = Goal(("a", "b", "c"), hyps, Relation(a + b, ">=", 2 * c))
    (cand,) = list(VariableSigns().generate(g))
    new = cand.step.subgoals[0].hypotheses[len(hyps):]
    assert {h.lhs for h in new} == {a, b} and cand.step.subgoals[0].target == g.target
    assert _only_open(check_step(cand.step))


def test_variable_signs_not_implied_give_nothing() -> None:
    a, b = var("a"), var("b")
    g = Goal(("a", "b"), (Relation(a - b, ">=", ZERO),), Relation(a**2 + b**2, ">=", 2 * a * b))
    assert list(VariableSigns().generate(g)) == []


def test_prove_render_and_replay_weighted_amgm_under_a_constraint() -> None:
    """End to end: the ordered chain gives the signs, AM-GM with the weights x, y, z, w uses the
    constraint for ``w1 + … = 1``, SOS closes the rest; the file passes the replay model."""
    hyps = [Hypothesis("h1", Relation(x - y, ">=", ZERO)), Hypothesis("h2", Relation(y - z, ">=", ZERO)),
            Hypothesis("h3", Relation(z - w, ">=", ZERO)), Hypothesis("h4", Relation(w, ">", ZERO)),
            Hypothesis("h", SUM1)]
    p = Problem("wamgm", ["x", "y", "z", "w"], hyps, Relation(GM * (x + y + z + w + 1), "<=", sp.Integer(2)))
    res = prove(p, time_limit=60)
    assert res.proved, res.status
    text = render_proof(res.proof, lemmas=_lemmas)
    assert "Real.geom_mean_le_arith_mean4_weighted" in text
    report = replay_text(text)
    assert report.ok, [f.reason[:200] for f in report.failures]


def test_counterexample_with_a_root_of_huge_degree_does_not_hang() -> None:
    """``w ** w`` at ``w = 8107/3624075``: sympy's automatic simplification of the exact power
    computes ``3624075 ** 3616000`` and factors it; the oracle must refuse to build it exactly and
    report the rigorous enclosure instead (found by this file's end-to-end test hanging)."""
    from prover.oracles.exact_sign import Undecided, _is_zero_algebraic, lean_value
    from prover.oracles.model import _enclosure_midpoint

    pt = {w: sp.Rational(8107, 3624075)}
    with pytest.raises(Undecided):
        lean_value(2 - w**w, pt)
    value, approx = _enclosure_midpoint(2 - w**w, pt)
    assert abs(approx - 1.01355872261212) < 1e-12 and abs(float(value) - approx) < 1e-12
    assert not _is_zero_algebraic(1 - w**w, pt, lean=False)
    assert lean_value(2 - w ** sp.Rational(1, 3), {w: sp.Rational(8, 27)}) == sp.Rational(4, 3)
