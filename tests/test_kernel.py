"""Kernel rules, one by one: accepted cases and (sneaky) rejected ones."""

from __future__ import annotations

import json

import pytest
import sympy as sp
from typer.testing import CliRunner

from prover.ir import Goal, Proof, Step
from prover.problem import Hypothesis, Problem, Relation, var
from prover.tactics.lemma import LemmaStatement
from prover.verify import check_proof, check_step, is_identity, prove_nonzero, prove_positive

a, b, c, s, t, u, x, y, z = (var(n) for n in "abcstuxyz")
O = sp.Integer(0)


def R(lhs, op, rhs) -> Relation:
    return Relation(sp.sympify(lhs), op, sp.sympify(rhs))


def G(hyps, target, vs=("x", "y", "z")) -> Goal:
    return Goal(tuple(vs), tuple(hyps), target)


def close(goal: Goal, **cert) -> Step:
    return Step("close", goal, [], cert)


def sos(goal: Goal, terms, eq_terms=()) -> Step:
    return close(goal, method="sos", terms=[{"coeff": c_, "mult": m, "poly": q} for c_, m, q in terms],
                 eq_terms=[{"hyp": h, "poly": p} for h, p in eq_terms])


def ok(step: Step, lemmas=None) -> bool:
    return check_step(step, lemmas).ok


def errors(step: Step, lemmas=None) -> str:
    return " | ".join(check_step(step, lemmas).errors)


POS_XY = (R(x, ">", 0), R(y, ">", 0))
NONNEG_XY = (R(x, ">=", 0), R(y, ">=", 0))


# ---------------------------------------------------------------- algebra


def test_is_identity_polynomial_and_atoms() -> None:
    assert is_identity((x + y) ** 2 - x**2 - 2 * x * y - y**2)
    assert not is_identity((x + y) ** 2 - x**2 - y**2)
    # √x·√x is *not* x in Lean when x < 0: sympy would say so, the kernel must not
    assert not is_identity(sp.Pow(sp.sqrt(x), 2, evaluate=False) - x)
    assert is_identity(sp.sqrt(x) * (sp.sqrt(x) + 1) - sp.Mul(sp.sqrt(x), sp.sqrt(x), evaluate=False) - sp.sqrt(x))


def test_is_identity_needs_denominators_nonzero() -> None:
    e = (x**2 - 1) / (x - 1) - (x + 1)
    assert not is_identity(e)                        # x = 1: Lean gives 0/0 = 0 ≠ 2
    assert is_identity(e, [R(x, ">", 1)])
    assert is_identity(x / (x**2 + 1) * (x**2 + 1) - x)


def test_non_real_numbers_rejected() -> None:
    assert not is_identity(sp.I * x + x)          # sympy's complex numbers have no Lean meaning
    assert not is_identity(sp.zoo * x)


# ---------------------------------------------------------------- positivity rules


@pytest.mark.parametrize("expr,hyps,strict", [
    (sp.Rational(3, 2), (), True),
    (x, POS_XY, True),
    (x + y, POS_XY, True),
    (x + y, NONNEG_XY, False),
    (x * y, NONNEG_XY, False),
    (x / (x + y), POS_XY, True),
    ((x - y) ** 2, (), False),
    (x**2 + 1, (), True),
    (x**3, POS_XY, True),
    (1 / x**3, POS_XY, True),
    (sp.sqrt(x), (), False),
    (sp.sqrt(x), POS_XY, True),
    (x ** sp.Rational(1, 3), POS_XY, True),
    (x ** sp.Rational(2, 3), NONNEG_XY, False),
    (x**y, POS_XY, True),
    (sp.exp(x - y), (), True),
    (a + b - c, (R(a + b, ">", c),), True),       # slack of a hypothesis
    (2 * a + 2 * b - 2 * c, (R(a + b, ">", c),), True),  # up to a positive factor
    ((x - 1) * (y - 1), (R(x, ">=", 1), R(y, ">=", 1)), False),
    (-(x - 1) * (1 - y), (R(x, ">=", 1), R(y, ">=", 1)), False),   # two negative factors
    (x**2 - 2 * x * y + y**2, (), False),         # factored: (x − y)²
    (sp.Abs(x), (), False),
])
def test_positivity_accepts(expr, hyps, strict) -> None:
    assert prove_positive(expr, hyps, strict)


@pytest.mark.parametrize("expr,hyps,strict", [
    (sp.Rational(-1, 2), (), False),
    (x, (), False),
    (x + y, NONNEG_XY, True),                     # strict goal, only non-strict terms
    (x * y, (R(x, ">=", 0),), False),
    (1 / x, (), False),                           # division by something that can vanish
    (x / (x - y), POS_XY, True),
    (sp.sqrt(x), (), True),                       # √x > 0 needs x > 0
    (x ** sp.Rational(1, 3), (), False),          # rational power of a possibly negative base
    (x**2, (), True),                             # x² > 0 needs x ≠ 0
    (sp.log(x), POS_XY, False),
    (x - 1, (R(x, ">", 2),), True),               # no transitivity: structural rules only
    (a + b - c, (R(a + b, ">=", c),), True),
])
def test_positivity_rejects(expr, hyps, strict) -> None:
    assert not prove_positive(expr, hyps, strict)


def test_nonzero_from_hypothesis() -> None:
    assert prove_nonzero(x - y, [R(x, "!=", y)])
    assert not prove_nonzero(x - y, [])


# ---------------------------------------------------------------- close: sos


def test_sos_accepts_and_rejects_wrong_coefficient() -> None:
    g = G((), R(x**2 + y**2, ">=", 2 * x * y))
    assert ok(sos(g, [("1", [], "x - y")]))
    assert "not an identity" in errors(sos(g, [("2", [], "x - y")]))


def test_sos_negative_weight_rejected() -> None:
    # x² − 2xy + ... : a negative weight could "prove" anything
    g = G((), R(x * y, ">=", 0))
    e = errors(sos(g, [("1/4", [], "x + y"), ("-1/4", [], "x - y")]))
    assert "negative weight" in e


def test_sos_strict_target_needs_strict_constant_term() -> None:
    g = G((), R(x**2 + 1, ">", 0))
    assert ok(sos(g, [("1", [], "x"), ("1", [], "1")]))
    g2 = G(NONNEG_XY, R(x + y, ">", 0))
    assert "strict target" in errors(sos(g2, [("1", [0], "1"), ("1", [1], "1")]))
    g3 = G(POS_XY, R(x + y, ">", 0))
    assert ok(sos(g3, [("1", [0], "1"), ("1", [1], "1")]))
    g4 = G((), R(x**2, ">", 0))                    # x = 0 is a counterexample
    assert not ok(sos(g4, [("1", [], "x")]))


def test_sos_multipliers_must_be_inequality_hypotheses() -> None:
    g = G((R(x, "=", 1),), R(x, ">=", 0))
    assert "not an inequality" in errors(sos(g, [("1", [0], "1")]))
    assert "no hypothesis with index" in errors(sos(G((), R(x, ">=", 0)), [("1", [3], "1")]))


def test_sos_eq_terms() -> None:
    g = G((R(x, "=", y),), R(x**2, "=", y**2))
    assert ok(sos(g, [], [(0, "x + y")]))
    assert "equality target needs terms" in errors(sos(g, [("0", [], "1")], [(0, "x + y")]))
    g2 = G((R(x, ">=", y),), R(x**2, "=", y**2))
    assert "not an equality" in errors(sos(g2, [], [(0, "x + y")]))


def test_sos_rational_certificate_and_vanishing_denominator() -> None:
    g = G((R(x, ">", 0),), R(x + 1 / x, ">=", 2), ("x",))
    assert ok(sos(g, [("1", [0], "(x - 1)/x")]))
    # without x > 0 the same algebra is wrong in Lean (x = 0 gives 0 ≥ 2): denominators must be proved
    g2 = G((R(x, ">=", 0),), R(x + 1 / x, ">=", 2), ("x",))
    assert "denominator" in errors(sos(g2, [("1", [0], "(x - 1)/x")]))


def test_sos_sqrt_is_an_atom_not_a_square_root_of_anything() -> None:
    g = G((), R(x, ">=", 0), ("x",))
    assert not ok(sos(g, [("1", [], "sqrt(x)")]))   # √x² = x only for x ≥ 0 in Lean


def test_sos_bad_fields() -> None:
    g = G((), R(x**2, ">=", 0))
    assert "not a rational" in errors(sos(g, [("sqrt(2)", [], "x")]))
    assert "unknown name" in errors(sos(g, [("x", [], "x")]))
    assert "unknown name" in errors(sos(g, [("1", [], "w")]))
    assert "unknown close method" in errors(close(g, method="magic"))


# ---------------------------------------------------------------- close: positivity


def test_close_positivity() -> None:
    assert ok(close(G(POS_XY, R(x / y + y / x, ">", 0)), method="positivity"))
    assert not ok(close(G(NONNEG_XY, R(x / y, ">=", 0)), method="positivity"))   # y may be 0
    assert not ok(close(G((), R(x, "=", x)), method="positivity"))
    assert ok(close(G(POS_XY, R(x + y, "!=", 0)), method="positivity"))


# ---------------------------------------------------------------- rewrite


NESBITT_2 = G(POS_XY, R(x / y + y / x, ">=", 2), ("x", "y"))
CLEARED = G(POS_XY, R(x**2 + y**2, ">=", 2 * x * y), ("x", "y"))


def rewrite(goal, sub, child=None, **cert) -> Step:
    children = [child] if child is not None else []
    return Step("rewrite", goal, [sub], cert, children)


def test_rewrite_clearing_denominators() -> None:
    child = sos(CLEARED, [("1", [], "x - y")])
    assert ok(rewrite(NESBITT_2, CLEARED, child, multiplier="1/(x*y)"))
    e = errors(rewrite(NESBITT_2, CLEARED, child, multiplier="1/(x*y) + 1"))
    assert "not an identity" in e


def test_rewrite_multiplier_sign_and_strictness() -> None:
    g = G(POS_XY, R(x / y, ">", 0), ("x", "y"))
    sub = G(POS_XY, R(x, ">", 0), ("x", "y"))
    leaf = close(sub, method="positivity")
    assert ok(rewrite(g, sub, leaf, multiplier="1/y"))
    g_nonstrict = G((R(y, ">", 0),), R(x / y, ">=", 0), ("x", "y"))
    sub_nonstrict = G((R(y, ">", 0),), R(x, ">=", 0), ("x", "y"))
    # a strict goal from a non-strict subgoal is refused
    assert "cannot prove" in errors(rewrite(g.with_target(R(x / y, ">", 0)), sub_nonstrict.with_hypotheses(
        [R(x, ">", 0)]).with_target(R(x, ">=", 0)), None, multiplier="1/y"))
    # multiplier of unknown sign: y may be negative
    g2 = G((), R(x * y, ">=", 0), ("x", "y"))
    sub2 = G((), R(x, ">=", 0), ("x", "y"))
    assert "multiplier" in errors(rewrite(g2, sub2, None, multiplier="y"))
    assert g_nonstrict  # used above for readability


def test_rewrite_new_hypotheses_need_proofs() -> None:
    g = G((R(x, ">", 1),), R(x**2, ">", 1), ("x",))
    sub = G((R(x, ">", 1), R(x, ">", 0)), R(x**2, ">", 1), ("x",))
    leaf = sos(sub, [("1", [0, 1], "1"), ("1", [0], "1")])   # x² − 1 = (x−1)·x + (x − 1)
    assert "no proof" in errors(rewrite(g, sub, leaf, multiplier="1"))
    proof = {"method": "sos", "terms": [{"coeff": "1", "mult": [0], "poly": "1"},
                                        {"coeff": "1", "mult": [], "poly": "1"}]}
    assert ok(rewrite(g, sub, leaf, multiplier="1", new_hypotheses=[{"index": 1, "proof": proof}]))
    bad = {"method": "sos", "terms": [{"coeff": "1", "mult": [0], "poly": "1"}]}   # x > 0 ⇐ x − 1 > 0 ? no
    assert "new hypothesis 1" in errors(rewrite(g, sub, leaf, multiplier="1",
                                               new_hypotheses=[{"index": 1, "proof": bad}]))


def test_rewrite_with_equality_hypothesis() -> None:
    g = G((R(x + y, "=", 2),), R(x * y, "<=", 1), ("x", "y"))
    sub = G((R(x + y, "=", 2),), R((x - y) ** 2, ">=", 0), ("x", "y"))
    # 1 − xy = ¼(x − y)² − ¼(x + y + 2)(x + y − 2)
    st = rewrite(g, sub, close(sub, method="positivity"), multiplier="1/4",
                 eq_terms=[{"hyp": 0, "poly": "-(x + y + 2)/4"}])
    assert ok(st), errors(st)


# ---------------------------------------------------------------- split


def test_sign_split() -> None:
    g = G((), R(sp.Abs(x) * sp.Abs(x), ">=", 0), ("x",))   # any goal; cases are closed by positivity
    c0 = g.with_hypotheses([R(x, ">=", 0)])
    c1 = g.with_hypotheses([R(x, "<=", 0)])
    kids = [close(c0, method="positivity"), close(c1, method="positivity")]
    assert ok(Step("split", g, [c0, c1], {"cases": "sign", "expr": "x"}, kids))
    v = check_step(Step("split", g, [c0], {"cases": "sign", "expr": "x"}, kids[:1]))
    assert not v.ok and "exactly two cases" in " ".join(v.errors)
    c1_bad = g.with_hypotheses([R(x, "<=", 1)])
    assert not ok(Step("split", g, [c0, c1_bad], {"cases": "sign", "expr": "x"},
                       [kids[0], close(c1_bad, method="positivity")]))


def _order_cases(g: Goal, names, perms):
    return [g.with_hypotheses([R(var(p[i]), ">=", var(p[i + 1])) for i in range(len(p) - 1)]) for p in perms]


def test_order_split_all_orderings_and_missing_case() -> None:
    import itertools
    g = G((), R(x**2 + y**2 + z**2, ">=", 0))
    perms = list(itertools.permutations(["x", "y", "z"]))
    cases = _order_cases(g, None, perms)
    kids = [close(cg, method="positivity") for cg in cases]
    assert ok(Step("split", g, cases, {"cases": "order", "variables": ["x", "y", "z"]}, kids))
    e = errors(Step("split", g, cases[:-1], {"cases": "order", "variables": ["x", "y", "z"]}, kids[:-1]))
    assert "not exhaustive" in e


def test_order_split_symmetry_checked() -> None:
    sym = G((R(x, ">", 0), R(y, ">", 0), R(z, ">", 0)), R(x * y * z + x + y + z, ">", 0))
    case = _order_cases(sym, None, [("x", "y", "z")])
    cert = {"cases": "order", "variables": ["x", "y", "z"], "symmetry": "full", "orderings": [["x", "y", "z"]]}
    assert ok(Step("split", sym, case, cert, [close(case[0], method="positivity")]))
    # the same claim for a goal that is only cyclic (x²y + y²z + z²x) must fail
    cyc = G((R(x, ">", 0), R(y, ">", 0), R(z, ">", 0)), R(x**2 * y + y**2 * z + z**2 * x, ">", 0))
    case_c = _order_cases(cyc, None, [("x", "y", "z")])
    e = errors(Step("split", cyc, case_c, cert, [close(case_c[0], method="positivity")]))
    assert "symmetry" in e and "target changes" in e
    # cyclic symmetry with two orbits is fine for it
    cases2 = _order_cases(cyc, None, [("x", "y", "z"), ("x", "z", "y")])
    cert2 = {"cases": "order", "variables": ["x", "y", "z"], "symmetry": "cyclic",
             "orderings": [["x", "y", "z"], ["x", "z", "y"]]}
    assert ok(Step("split", cyc, cases2, cert2, [close(cg, method="positivity") for cg in cases2]))
    # …but one orbit is not enough
    cert1 = dict(cert2, orderings=[["x", "y", "z"]])
    assert "not exhaustive" in errors(Step("split", cyc, cases2[:1], cert1, [close(cases2[0], method="positivity")]))
    # symmetric target but a non-symmetric hypothesis
    hyp_asym = G((R(x, ">", y),), R(x + y + z, ">=", x + y + z))
    case_h = _order_cases(hyp_asym, None, [("x", "y", "z")])
    assert "hypothesis" in errors(Step("split", hyp_asym, case_h, cert, [close(case_h[0], method="positivity")]))


def test_open_subgoal_and_wrong_child() -> None:
    g = G((), R(x**2, ">=", 0), ("x",))
    c0, c1 = g.with_hypotheses([R(x, ">=", 0)]), g.with_hypotheses([R(x, "<=", 0)])
    v = check_step(Step("split", g, [c0, c1], {"cases": "sign", "expr": "x"}, [close(c0, method="positivity")]))
    assert not v.ok and any("root/1" in e and "open subgoal" in e for e in v.errors)
    v = check_step(Step("split", g, [c0, c1], {"cases": "sign", "expr": "x"},
                        [close(c1, method="positivity"), close(c1, method="positivity")]))
    assert any("root/0" in e and "not subgoal 0" in e for e in v.errors)


def test_error_paths_name_nested_steps() -> None:
    g = G((), R(x**2, ">=", 0), ("x",))
    c0, c1 = g.with_hypotheses([R(x, ">=", 0)]), g.with_hypotheses([R(x, "<=", 0)])
    bad_leaf = sos(c1, [("2", [], "x")])
    v = check_step(Step("split", g, [c0, c1], {"cases": "sign", "expr": "x"},
                        [close(c0, method="positivity"), bad_leaf]))
    assert v.errors and v.errors[0].startswith("root/1 (close): ")


# ---------------------------------------------------------------- introduce / substitute


def test_introduce_sqrt() -> None:
    g = G((R(x, ">=", 0),), R(x + 1, ">=", 2 * sp.sqrt(x)), ("x",))
    sub = Goal(("x", "s"), (R(x, ">=", 0), R(s, ">=", 0), R(s**2, "=", x)), R(x + 1, ">=", 2 * s))
    leaf = sos(sub, [("1", [], "s - 1")], [(2, "-1")])   # x + 1 − 2s = (s−1)² − (s² − x)
    st = Step("introduce", g, [sub], {"definitions": {"s": "sqrt(x)"}}, [leaf])
    assert ok(st), errors(st)
    # without x ≥ 0, s² = x is false in Lean (√x = 0 for x < 0)
    g2 = G((), R(x + 1, ">=", 2 * sp.sqrt(x)), ("x",))
    sub2 = Goal(("x", "s"), (R(s, ">=", 0), R(s**2, "=", x)), R(x + 1, ">=", 2 * s))
    st2 = Step("introduce", g2, [sub2], {"definitions": {"s": "sqrt(x)"}}, [sos(sub2, [("1", [], "s - 1")], [(1, "-1")])])
    assert "no proof" in errors(st2)


def test_introduce_rational_power_needs_positive_base() -> None:
    g = G((R(x, ">", 0),), R(x ** sp.Rational(1, 3), ">", 0), ("x",))
    sub = Goal(("x", "t"), (R(x, ">", 0), R(t, ">", 0), R(t**3, "=", x)), R(t, ">", 0))
    st = Step("introduce", g, [sub], {"definitions": {"t": "x**(1/3)"}}, [close(sub, method="positivity")])
    assert ok(st), errors(st)
    g2 = G((R(x, ">=", -1),), R(x ** sp.Rational(1, 3), ">", 0), ("x",))
    sub2 = Goal(("x", "t"), (R(x, ">=", -1), R(t, ">", 0)), R(t, ">", 0))
    st2 = Step("introduce", g2, [sub2], {"definitions": {"t": "x**(1/3)"}}, [close(sub2, method="positivity")])
    assert not ok(st2)


def test_substitute_shift() -> None:
    g = G((R(x, ">=", 1),), R(x**2, ">=", 1), ("x",))
    sub = Goal(("u",), (R(u, ">=", 0),), R(u**2 + 2 * u, ">=", 0))
    leaf = close(sub, method="positivity")
    st = Step("substitute", g, [sub], {"substitution": {"x": "u + 1"}, "inverse": {"u": "x - 1"}}, [leaf])
    assert ok(st), errors(st)
    bad_inverse = Step("substitute", g, [sub], {"substitution": {"x": "u + 1"}, "inverse": {"u": "x + 1"}}, [leaf])
    assert "f(g(x)) = x" in errors(bad_inverse)
    sub_wrong = Goal(("u",), (R(u, ">=", 0),), R(u**2, ">=", 0))
    assert not ok(Step("substitute", g, [sub_wrong], {"substitution": {"x": "u + 1"}, "inverse": {"u": "x - 1"}},
                       [close(sub_wrong, method="positivity")]))


# ---------------------------------------------------------------- scale with catalogue lemmas


AMGM = LemmaStatement("amgm2", ("p", "q"), (), 2 * var("p") * var("q"), var("p") ** 2 + var("q") ** 2, "kernel",
                      certificate={"method": "sos", "terms": [{"coeff": "1", "mult": [], "poly": "p - q"}]})
BROKEN = LemmaStatement("broken", ("p", "q"), (), 3 * var("p") * var("q"), var("p") ** 2 + var("q") ** 2, "kernel",
                        certificate={"method": "sos", "terms": [{"coeff": "1", "mult": [], "poly": "p - q"}]})
LEAN = LemmaStatement("amgm2_lean", ("p", "q"), (R(var("p"), ">=", 0),), 2 * var("p") * var("q"),
                      var("p") ** 2 + var("q") ** 2, "lean", lean_name="Prover.amgm2")
LEMMAS = {L.name: L for L in (AMGM, BROKEN, LEAN)}


def test_scale_with_kernel_and_lean_lemmas() -> None:
    # x⁴ + y⁴ + 1 ≥ 2x²y² + 1 ≥ … : G: x⁴ + y⁴ ≥ 2x²y² via the lemma with p = x², q = y², G' trivial
    g = G((), R(x**4 + y**4, ">=", 2 * x**2 * y**2), ("x", "y"))
    sub = G((), R(0, ">=", 0), ("x", "y"))
    app = {"lemma": "amgm2", "instance": {"p": "x**2", "q": "y**2"}, "coefficient": "1"}
    st = Step("scale", g, [sub], {"applications": [app], "multiplier": "1"}, [close(sub, method="positivity")])
    v = check_step(st, LEMMAS.get)
    assert v.ok, v.errors
    assert v.trusted_lemmas == ["amgm2 (kernel-checked certificate)"]
    broken = dict(app, lemma="broken")
    assert "not proved" in errors(Step("scale", g, [sub], {"applications": [broken], "multiplier": "1"},
                                       [close(sub, method="positivity")]), LEMMAS.get)
    lean = dict(app, lemma="amgm2_lean")
    v = check_step(Step("scale", g, [sub], {"applications": [lean], "multiplier": "1"},
                        [close(sub, method="positivity")]), LEMMAS.get)
    assert v.ok and v.trusted_lemmas == ["amgm2_lean (rests on Lean: Prover.amgm2)"]
    # side condition p ≥ 0 with p = x − 2 is not provable
    lean_bad = dict(lean, instance={"p": "x - 2", "q": "y"})
    g3 = G((), R((x - 2) ** 2 + y**2, ">=", 2 * (x - 2) * y), ("x", "y"))
    assert "side condition" in errors(Step("scale", g3, [sub], {"applications": [lean_bad], "multiplier": "1"},
                                           [close(sub, method="positivity")]), LEMMAS.get)
    assert "unknown catalogue lemma" in errors(Step("scale", g, [sub], {"applications": [dict(app, lemma="nope")],
                                                                       "multiplier": "1"}), LEMMAS.get)
    neg = dict(app, coefficient="-1")
    assert "coefficient" in errors(Step("scale", g, [sub], {"applications": [neg], "multiplier": "1"},
                                        [close(sub, method="positivity")]), LEMMAS.get)


def test_scale_with_hypothesis_application() -> None:
    # x + y ≤ 2 (hypothesis 2): x + y ≤ 2 + x² follows from x + y ≤ (x + y) + x² by replacing 2 with x + y
    hyps = POS_XY + (R(x + y, "<=", 2),)
    g = G(hyps, R(x + y, "<=", 2 + x**2), ("x", "y"))
    sub = G(hyps, R(x + y, "<=", x + y + x**2), ("x", "y"))
    leaf = [close(sub, method="positivity")]
    app = {"hypothesis": 2, "coefficient": "1"}     # slack(G) − slack(G') = 2 − (x + y) = slack(H2)
    st = Step("scale", g, [sub], {"applications": [app], "multiplier": "1"}, leaf)
    assert ok(st), errors(st)
    assert "not an identity" in errors(Step("scale", g, [sub], {"applications": [dict(app, coefficient="2")],
                                                                "multiplier": "1"}, leaf))
    assert "coefficient" in errors(Step("scale", g, [sub], {"applications": [dict(app, coefficient="-1")],
                                                            "multiplier": "1"}, leaf))
    g_eq = G(hyps + (R(x, "=", y),), g.target, ("x", "y"))
    sub_eq = G(g_eq.hypotheses, sub.target, ("x", "y"))
    assert "not an inequality" in errors(Step("scale", g_eq, [sub_eq], {"applications": [{"hypothesis": 3}],
                                                                       "multiplier": "1"}))
    assert "no hypothesis" in errors(Step("scale", g, [sub], {"applications": [{"hypothesis": 7}],
                                                              "multiplier": "1"}))


def test_new_hypothesis_proves_a_denominator_nonzero() -> None:
    # a + b = 2, a, b > 0: 3 − a > 0 only thanks to the constraint; 1/(3 − a) needs that fact first
    hyps = POS_XY + (R(x + y, "=", 2),)
    g = G(hyps, R(1 / (3 - x), ">=", 0), ("x", "y"))
    fact = R(3 - x, ">", 0)
    sub = G(hyps + (fact,), g.target, ("x", "y"))
    # 3 − x = 1 + y − (x + y − 2)
    proof = {"method": "sos", "terms": [{"coeff": "1", "mult": [], "poly": "1"}, {"coeff": "1", "mult": [1], "poly": "1"}],
             "eq_terms": [{"hyp": 2, "poly": "-1"}]}
    cert = {"multiplier": "1", "eq_terms": [], "new_hypotheses": [{"index": 3, "proof": proof}]}
    leaf = [close(sub, method="positivity")]
    st = Step("rewrite", g, [sub], cert, leaf)
    assert ok(st), errors(st)
    # without the proved fact the same identity is refused: 3 − x is not known nonzero
    plain = Step("rewrite", g, [g], {"multiplier": "1", "eq_terms": [], "new_hypotheses": []},
                 [close(g, method="positivity")])
    assert "nonzero" in errors(plain)
    # a wrong proof of the fact is refused
    bad = dict(cert, new_hypotheses=[{"index": 3, "proof": dict(proof, eq_terms=[])}])
    assert "new hypothesis" in errors(Step("rewrite", g, [sub], bad, leaf))


def test_scale_with_fact_application() -> None:
    # x/y + y/x ≥ 2 from the fact x² + y² ≥ 2xy (proved inline) and positive denominators
    g = G(POS_XY, R(x / y + y / x, ">=", 2), ("x", "y"))
    sub = G(POS_XY, R(0, ">=", 0), ("x", "y"))
    fact = {"lhs": "2*x*y/(x*y)", "op": "<=", "rhs": "(x**2 + y**2)/(x*y)"}
    # (x² + y² − 2xy)/(xy) = x·y·((x − y)/(x·y))²
    proof = {"method": "sos", "terms": [{"coeff": "1", "mult": [0, 1], "poly": "(x - y)/(x*y)"}], "eq_terms": []}
    app = {"fact": fact, "proof": proof, "coefficient": "1"}
    st = Step("scale", g, [sub], {"applications": [app], "multiplier": "1"}, [sos(sub, [])])
    assert ok(st), errors(st)
    # a false fact with a wrong proof is refused
    bad = {"fact": {"lhs": "3", "op": "<=", "rhs": "(x**2 + y**2)/(x*y)"}, "proof": proof}
    assert "fact" in errors(Step("scale", g, [sub], {"applications": [bad], "multiplier": "1"}))
    assert "close certificate" in errors(Step("scale", g, [sub], {"applications": [{"fact": fact}],
                                                                 "multiplier": "1"}))
    assert "either" in errors(Step("scale", g, [sub], {"applications": [dict(app, hypothesis=0)],
                                                       "multiplier": "1"}))
    eqfact = dict(app, fact=dict(fact, op="="))
    assert "must be an inequality" in errors(Step("scale", g, [sub], {"applications": [eqfact],
                                                                      "multiplier": "1"}))


# ---------------------------------------------------------------- whole proofs and the CLI


def _amgm_proof(coeff: str = "1") -> Proof:
    p = Problem("amgm2", ["x", "y"], [Hypothesis("hx", R(x, ">=", 0))], R(x**2 + y**2, ">=", 2 * x * y))
    return Proof(p, sos(Goal.from_problem(p), [(coeff, [], "x - y")]))


def test_check_proof_root_goal_must_match_problem() -> None:
    pr = _amgm_proof()
    assert check_proof(pr).ok
    pr.root.goal = pr.root.goal.with_hypotheses([R(y, ">=", 0)])
    v = check_proof(pr)
    assert not v.ok and "problem's statement" in v.errors[0]


def test_cli_check(tmp_path) -> None:
    from prover.cli import app

    runner = CliRunner()
    good, bad, junk = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "junk.json"
    good.write_text(_amgm_proof().dumps())
    bad.write_text(_amgm_proof("3").dumps())
    junk.write_text(json.dumps({"format": "prover-proof", "version": 99}))
    r = runner.invoke(app, ["check", str(good)])
    assert r.exit_code == 0 and "ACCEPTED" in r.output
    r = runner.invoke(app, ["check", str(bad)])
    assert r.exit_code == 1 and "REJECTED" in r.output and "root (close)" in r.output
    r = runner.invoke(app, ["check", str(junk)])   # unreadable proof: a rejection, one line
    assert r.exit_code == 1 and "REJECTED" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["check", str(tmp_path / "missing.json")])
    assert r.exit_code == 2


def test_scale_refuses_equality_goals() -> None:
    # slack(G) = m·0 + (B − A) would only give ≥ 0, never = 0
    g = G((), R(x**4 + y**4, "=", 2 * x**2 * y**2), ("x", "y"))
    sub = G((), R(0, "=", 0), ("x", "y"))
    app = {"lemma": "amgm2", "instance": {"p": "x**2", "q": "y**2"}, "coefficient": "1"}
    st = Step("scale", g, [sub], {"applications": [app], "multiplier": "1"},
              [sos(sub, [])])
    assert "must be an inequality" in errors(st, LEMMAS.get)


def test_hypothesis_with_denominator_usable_once_denominator_is_proved() -> None:
    # 1/y ≥ x needs y ≠ 0 before its slack can be used; y > 0 gives it
    hyps = (R(y, ">", 0), R(1 / y, ">=", x))
    assert prove_positive(1 / y - x, hyps, False)
    assert not prove_positive(1 / y - x, (R(1 / y, ">=", x),), False)


def test_introduce_new_hypothesis_proved_with_definition_put_back() -> None:
    # s = √(x + 1) with x ≥ 0: "s ≥ 1" is not a kernel fact; prove it from s = √(x+1) over G: by
    # positivity of √(x+1) − 1? no — but "s > 0" with the definition put back is √(x+1) > 0: positivity.
    g = G((R(x, ">=", 0),), R(sp.sqrt(x + 1), ">", 0), ("x",))
    sub = Goal(("x", "s"), (R(x, ">=", 0), R(s, ">", 0)), R(s, ">", 0))
    proof = {"method": "positivity"}
    st = Step("introduce", g, [sub], {"definitions": {"s": "sqrt(x + 1)"},
                                      "new_hypotheses": [{"index": 1, "proof": proof}]},
              [close(sub, method="positivity")])
    assert ok(st), errors(st)
    # the put-back reading never simplifies √(x)² to x: s² = x − 1 cannot be "proved" that way
    g2 = G((), R(x, ">=", 0), ("x",))
    sub2 = Goal(("x", "s"), (R(s**2, "=", x),), R(x, ">=", 0))
    st2 = Step("introduce", g2, [sub2], {"definitions": {"s": "sqrt(x)"},
                                         "new_hypotheses": [{"index": 0, "proof": {"method": "sos", "terms": []}}]},
               [sos(sub2, [("1", [], "s")], [(0, "-1")])])
    assert not ok(st2)


def test_equivalent_relations_flags_lean_differences() -> None:
    """The kernel's test that two readings of a relation agree in Lean (used by the front-end)."""
    from prover.kernel import terms as T
    from prover.kernel.check import equivalent_relations

    def rel(text: str, rhs: str = "0") -> T.Rel:
        return T.Rel(T.parse_term(text, ("x", "y")), "=", T.parse_term(rhs, ("x", "y")))

    pos = [T.Rel(T.Var("x"), ">", T.ZERO)]
    assert not equivalent_relations([], rel("x/x", "1"), rel("1", "1"))        # Lean: 0/0 = 0
    assert equivalent_relations(pos, rel("x/x", "1"), rel("1", "1"))
    assert not equivalent_relations([], rel("sqrt(x)*sqrt(x)", "x"), rel("x", "x"))  # 0 for x < 0
    assert not equivalent_relations([], rel("sqrt(x)**2", "x"), rel("x", "x"))
    assert equivalent_relations([], rel("x*y + 2*x*y - (x + 1)**2"), rel("3*x*y - x**2 - 2*x - 1"))
    # (x^(2/3))^(3/2) is not x in Lean (rpow of a negative base): distinct atoms
    assert not equivalent_relations([], rel("(x**(2/3))**(3/2)", "x"), rel("x", "x"))
    # laws that hold for every real (Mathlib): √(4x) = 2√x, √(x²) = |x|, |xy| = |x||y|,
    # (x²)^(1/3) = |x|^(2/3), 1/(3√3) = √3/9, √(1/(x²+1)) = 1/√(x²+1)
    assert equivalent_relations([], rel("sqrt(4*x)"), rel("2*sqrt(x)"))
    assert equivalent_relations([], rel("sqrt(x**2)", "y"), rel("Abs(x)", "y"))
    assert equivalent_relations([], rel("Abs(x*y)", "1"), rel("Abs(x)*Abs(y)", "1"))
    assert equivalent_relations([], rel("(x**2)**(1/3)", "y"), rel("Abs(x)**(2/3)", "y"))
    assert equivalent_relations([], rel("1/(3*sqrt(3))", "x"), rel("sqrt(3)/9", "x"))
    assert equivalent_relations([], rel("sqrt(1/(x**2 + 1))", "y"), rel("1/sqrt(x**2 + 1)", "y"))
    assert equivalent_relations([], rel("x/(4 - y)", "1"), rel("x/(-y + 4)", "1"))   # no division law needed
    # ... and not the ones that fail for some real: √(xy) = √x√y (x, y < 0), √x² = x (x < 0),
    # (x³)^(1/3) = x (rpow of a negative base), x/x = 1 (x = 0), √(-x²) = ... is 0, not |x|·√(-1)
    assert not equivalent_relations([], rel("sqrt(x*y)"), rel("sqrt(x)*sqrt(y)"))
    assert not equivalent_relations([], rel("sqrt(x)**2", "y"), rel("x", "y"))
    assert not equivalent_relations([], rel("(x**3)**(1/3)", "y"), rel("x", "y"))
    assert not equivalent_relations([], rel("sqrt(-4)", "y"), rel("2", "y"))
    # √(-x²) is 0 in Lean (the square root of a nonpositive number), never |x|
    assert equivalent_relations([], rel("sqrt(-x**2)", "y"), rel("0", "y"))
    assert not equivalent_relations([], rel("sqrt(-x**2)", "y"), rel("Abs(x)", "y"))
    # x^(-1/3) · x^(1/3) = 1 needs x > 0 (Real.rpow_neg; for x < 0 Mathlib's value is 1/4)
    assert not equivalent_relations([], rel("x**(-1/3)*x**(1/3)", "y"), rel("1", "y"))
    assert equivalent_relations([T.Rel(T.Var("x"), ">", T.ZERO)], rel("x**(-1/3)*x**(1/3)", "y"), rel("1", "y"))
    # a cube root of a negative constant is not folded (Mathlib: (-8)^(1/3) = 1, not -2)
    assert not equivalent_relations([], rel("(-8)**(1/3)", "y"), rel("-2", "y"))


def test_introduce_replaces_powers_of_the_root() -> None:
    # x^(-1/2) and x^(3/2) become t^-1 and t^3 for t = √x when x > 0 (Lean: rpow for x ≥ 0)
    g = G((R(x, ">", 0),), R(x ** sp.Rational(3, 2) + 1 / sp.sqrt(x), ">", 0), ("x",))
    sub = Goal(("x", "t"), (R(x, ">", 0), R(t, ">", 0)), R(t**3 + 1 / t, ">", 0))
    st = Step("introduce", g, [sub], {"definitions": {"t": "sqrt(x)"}}, [close(sub, method="positivity")])
    assert ok(st), errors(st)
    # without a sign for x the replacement is not allowed (x^(3/2) ≠ (√x)^3 is not assumed)
    g2 = G((), R(x ** sp.Rational(3, 2), ">=", 0), ("x",))
    sub2 = Goal(("x", "t"), (R(t, ">=", 0),), R(t**3, ">=", 0))
    st2 = Step("introduce", g2, [sub2], {"definitions": {"t": "sqrt(x)"}}, [close(sub2, method="positivity")])
    assert not ok(st2)


def test_adversarial_certificates() -> None:
    g = G((), R(x, ">=", 0), ("x",))
    assert not ok(sos(g, [("1/0", [], "1")]))                       # zoo is not a weight
    assert not ok(sos(g, [("1", [], "1/0")]))                       # nor a polynomial
    assert not ok(sos(g, [("1", [], "x**(1/2)")]))                  # √x² = x fails for x < 0
    # substitute x = y², y = √x: f(g(x)) = (√x)² is not x in Lean
    sub = Goal(("y",), (), R(y**2, ">=", 0))
    st = Step("substitute", g, [sub], {"substitution": {"x": "y**2"}, "inverse": {"y": "sqrt(x)"}},
              [close(sub, method="positivity")])
    assert "f(g(x)) = x" in errors(st)
    # introduce u = 1/x and claim u·x = 1 without x ≠ 0
    g2 = G((), R(x, ">=", x), ("x",))
    sub2 = Goal(("x", "u"), (R(u * x, "=", 1),), R(x, ">=", x))
    proof = {"method": "sos", "terms": [], "eq_terms": [{"hyp": 0, "poly": "x"}]}
    st2 = Step("introduce", g2, [sub2], {"definitions": {"u": "1/x"},
                                         "new_hypotheses": [{"index": 0, "proof": proof}]},
               [sos(sub2, [])])
    assert not ok(st2)
    # …with x > 0 it is fine
    g3 = G((R(x, ">", 0),), R(x, ">=", x), ("x",))
    sub3 = Goal(("x", "u"), (R(x, ">", 0), R(u * x, "=", 1)), R(x, ">=", x))
    st3 = Step("introduce", g3, [sub3], {"definitions": {"u": "1/x"},
                                         "new_hypotheses": [{"index": 1, "proof": {
                                             "method": "sos", "terms": [],
                                             "eq_terms": [{"hyp": 1, "poly": "x"}]}}]},
               [sos(sub3, [])])
    assert ok(st3), errors(st3)


def test_unexpected_lookup_failure_is_a_rejection() -> None:
    def boom(name: str):
        raise RuntimeError("catalogue exploded")

    g = G((), R(x**4 + y**4, ">=", 2 * x**2 * y**2), ("x", "y"))
    sub = G((), R(0, ">=", 0), ("x", "y"))
    app = {"lemma": "amgm2", "instance": {"p": "x**2", "q": "y**2"}, "coefficient": "1"}
    v = check_step(Step("scale", g, [sub], {"applications": [app], "multiplier": "1"},
                        [close(sub, method="positivity")]), boom)
    assert not v.ok and "internal error" in v.errors[0]


def test_introduce_facts_order() -> None:
    from prover.kernel import terms as T
    from prover.kernel.check import introduce_facts

    def K(r: Relation) -> T.Rel:
        return T.Rel(T.parse_term(str(r.lhs), ("x", "s")), r.op, T.parse_term(str(r.rhs), ("x", "s")))

    g = G((R(x, ">", 0),), R(sp.sqrt(x), ">", 0), ("x",))
    facts = introduce_facts(g, {"s": "sqrt(x)"})
    assert facts[0] == K(R(s, "=", sp.sqrt(x)))
    assert K(R(s, ">", 0)) in facts and K(R(s, ">=", 0)) in facts and K(R(s**2, "=", x)) in facts
    assert K(R(s, ">", 0)) not in introduce_facts(G((), R(x, ">=", 0), ("x",)), {"s": "sqrt(x)"})


def test_kernel_never_loads_a_catalogue_but_the_project_door_does():
    """The sealed kernel uses only the lookup it is given; ``prover.verify`` passes the project's
    catalogue to callers that give none (eval, conformal)."""
    from prover.kernel.check import Kernel
    from prover.tactics.catalogue import load_catalogue
    from prover.verify import Kernel as ProjectKernel

    name = next(iter(load_catalogue()))
    assert Kernel().lemmas is None
    assert ProjectKernel().lemmas(name) is not None
    assert ProjectKernel().lemmas("no-such-lemma") is None


def test_univariate_quadratic_without_real_roots_is_positive():
    from prover.problem import var
    from prover.verify import prove_nonzero, prove_positive

    a = var("a")
    assert prove_positive(a**2 - 4 * a + 9, [], True)
    assert prove_nonzero(1 / (a**2 - 4 * a + 9), [])
    assert not prove_positive(a**2 - 4 * a + 4, [], True)      # double root at 2
    assert not prove_positive(a**2 - 4 * a + 3, [], False)     # negative between 1 and 3
    assert not prove_positive(-(a**2) - 1, [], False)


def test_expansion_bombs_are_rejected_at_once() -> None:
    """A certificate whose expansion would take hours is rejected, not expanded: the refusal is
    the size check's ("too large"), not a verdict reached after expanding."""
    from prover.kernel.algebra import KernelError
    from prover.kernel.check import check_close

    g = {"variables": ["x", "y"], "hypotheses": [], "target": {"lhs": "(x+y)**10000", "op": ">=", "rhs": "0"}}
    with pytest.raises(KernelError, match="too large"):
        check_close(g, {"method": "sos", "terms": [{"coeff": "1", "mult": [], "poly": "(x+y)**5000"}]})


def test_residual_adds_terms_over_one_denominator_exactly():
    # residual groups terms by denominator before bringing the groups to a common one
    from prover.kernel.algebra import residual

    x, y = sp.Symbol("x"), sp.Symbol("y")
    assert residual([1 / x, 1 / x, -2 / x]) == 0
    assert residual([1 / x, 1 / y, -(x + y) / (x * y), 3 / x**2, -3 / x**2]) == 0
    assert residual([1 / x, 1 / x, -1 / x]) != 0
    assert residual([1 / x, 1 / y, -(x + y) / (x * y), 1 / (x * y), 1 / (x * y)]) != 0


def test_residual_keeps_a_denominator_that_the_other_divides():
    # s³ and s² (a substitution x ↦ x/s): the common denominator is s³, not s⁵; still exact
    from prover.kernel.algebra import residual

    x, y = sp.Symbol("x"), sp.Symbol("y")
    s = x + y
    assert residual([1 / s**3, 1 / s**2, -(1 + s) / s**3]) == 0
    assert residual([1 / s**3, 1 / s**2, -(2 + s) / s**3]) != 0
    assert residual([x / s**2, y / s**2, -1 / s]) == 0
