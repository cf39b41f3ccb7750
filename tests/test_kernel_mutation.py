"""Soundness by mutation: textbook certificates are accepted; random mutants are accepted only if an
independent exact expansion (written here, not the kernel's code) confirms them valid."""

from __future__ import annotations

import copy
import random
import re
import time

import pytest
import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.kernel.check import check_proof, check_step
from prover.problem import Hypothesis, Problem, Relation, var

a, b, c, d, x, y, z = (var(n) for n in "abcdxyz")
ZERO = sp.Integer(0)


def _t(coeff: str, mult: list[int], poly: str) -> dict:
    return {"coeff": coeff, "mult": mult, "poly": poly}


def _pairs(vs: str) -> list[str]:
    return [f"{vs[i]} - {vs[(i + 1) % len(vs)]}" for i in range(len(vs))]


def _textbook() -> dict[str, tuple[Goal, dict]]:
    """name → (goal, close certificate). All exact, written by hand."""
    out: dict[str, tuple[Goal, dict]] = {}
    nonneg3 = (Relation(a, ">=", ZERO), Relation(b, ">=", ZERO), Relation(c, ">=", ZERO))
    pos3 = (Relation(a, ">", ZERO), Relation(b, ">", ZERO), Relation(c, ">", ZERO))
    # 1. AM-GM, 2 variables: x² + y² ≥ 2xy
    out["amgm2"] = (Goal(("x", "y"), (), Relation(x**2 + y**2, ">=", 2 * x * y)),
                    {"method": "sos", "terms": [_t("1", [], "x - y")]})
    # 2. AM-GM, 3 variables: a³+b³+c³−3abc = ½(a+b+c)·Σ(a−b)², multiplier a+b+c as a sum of hypotheses
    out["amgm3"] = (Goal(("a", "b", "c"), nonneg3, Relation(a**3 + b**3 + c**3, ">=", 3 * a * b * c)),
                    {"method": "sos", "terms": [_t("1/2", [k], q) for k in range(3) for q in _pairs("abc")]})
    # 3. AM-GM, 4 variables (fourth powers): Σa⁴ − 4abcd = (a²−b²)² + (c²−d²)² + 2(ab−cd)²
    out["amgm4"] = (Goal(("a", "b", "c", "d"), (), Relation(a**4 + b**4 + c**4 + d**4, ">=", 4 * a * b * c * d)),
                    {"method": "sos", "terms": [_t("1", [], "a**2 - b**2"), _t("1", [], "c**2 - d**2"),
                                                _t("2", [], "a*b - c*d")]})
    # 4. Nesbitt with denominators cleared: 2Σa³ ≥ Σ_sym a²b, = Σ (a+b)(a−b)²
    lhs = 2 * (a**3 + b**3 + c**3)
    rhs = a**2 * b + a**2 * c + b**2 * a + b**2 * c + c**2 * a + c**2 * b
    out["nesbitt_cleared"] = (Goal(("a", "b", "c"), pos3, Relation(lhs, ">=", rhs)),
                              {"method": "sos", "terms": [_t("1", [0], "a - b"), _t("1", [1], "a - b"),
                                                          _t("1", [1], "b - c"), _t("1", [2], "b - c"),
                                                          _t("1", [2], "c - a"), _t("1", [0], "c - a")]})
    # 5. Schur t=1 in the case a ≥ b ≥ c (hypotheses 3: a ≥ b, 4: b ≥ c):
    #    (a−b)²·((a−b) + 2(b−c) + c) + c(a−b)(b−c) + c(b−c)²
    schur = a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)
    case = nonneg3 + (Relation(a, ">=", b), Relation(b, ">=", c))
    out["schur1_case"] = (Goal(("a", "b", "c"), case, Relation(schur, ">=", ZERO)),
                          {"method": "sos", "terms": [_t("1", [3], "a - b"), _t("2", [4], "a - b"),
                                                      _t("1", [2], "a - b"), _t("1", [2, 3, 4], "1"),
                                                      _t("1", [2], "b - c")]})
    # 6. Cauchy-Schwarz 3×3 by Lagrange's identity
    cs_l = (a**2 + b**2 + c**2) * (x**2 + y**2 + z**2)
    cs_r = (a * x + b * y + c * z) ** 2
    out["cauchy3"] = (Goal(("a", "b", "c", "x", "y", "z"), (), Relation(cs_l, ">=", cs_r)),
                      {"method": "sos", "terms": [_t("1", [], "a*y - b*x"), _t("1", [], "b*z - c*y"),
                                                  _t("1", [], "a*z - c*x")]})
    # 7. a² + b² + c² ≥ ab + bc + ca
    out["sum_squares"] = (Goal(("a", "b", "c"), (), Relation(a**2 + b**2 + c**2, ">=", a * b + b * c + c * a)),
                          {"method": "sos", "terms": [_t("1/2", [], q) for q in _pairs("abc")]})
    # 8. (a+b+c)² ≥ 3(ab+bc+ca)
    out["square_sum"] = (Goal(("a", "b", "c"), (), Relation((a + b + c) ** 2, ">=", 3 * (a * b + b * c + c * a))),
                         {"method": "sos", "terms": [_t("1/2", [], q) for q in _pairs("abc")]})
    # 9. x⁴ + y⁴ ≥ x³y + xy³ = (x−y)²((x + y/2)² + ¾y²)
    out["quartic"] = (Goal(("x", "y"), (), Relation(x**4 + y**4, ">=", x**3 * y + x * y**3)),
                      {"method": "sos", "terms": [_t("1", [], "(x - y)*(x + y/2)"), _t("3/4", [], "(x - y)*y")]})
    # 10. 1/x + 1/y ≥ 4/(x+y) for x, y > 0: slack = (x−y)²/(xy(x+y)), xy(x+y) = x·x·y + x·y·y
    q10 = "(x - y)/(x*y*(x + y))"
    out["harmonic2"] = (Goal(("x", "y"), (Relation(x, ">", ZERO), Relation(y, ">", ZERO)),
                             Relation(1 / x + 1 / y, ">=", 4 / (x + y))),
                        {"method": "sos", "terms": [_t("1", [0, 0, 1], q10), _t("1", [0, 1, 1], q10)]})
    # 11. x + 1/x ≥ 2 for x > 0: slack = x·((x−1)/x)²
    out["x_plus_inverse"] = (Goal(("x",), (Relation(x, ">", ZERO),), Relation(x + 1 / x, ">=", 2)),
                             {"method": "sos", "terms": [_t("1", [0], "(x - 1)/x")]})
    # 12. a³ + b³ ≥ ab(a+b) for a, b ≥ 0: (a+b)(a−b)²
    out["cubes2"] = (Goal(("a", "b"), (Relation(a, ">=", ZERO), Relation(b, ">=", ZERO)),
                          Relation(a**3 + b**3, ">=", a * b * (a + b))),
                     {"method": "sos", "terms": [_t("1", [0], "a - b"), _t("1", [1], "a - b")]})
    # 13. a+b+c = 3 ⊢ a²+b²+c² ≥ 3: ⅓Σ(a−b)² + ⅓(a+b+c+3)·(a+b+c−3)
    out["constrained"] = (Goal(("a", "b", "c"), (Relation(a + b + c, "=", 3),),
                               Relation(a**2 + b**2 + c**2, ">=", 3)),
                          {"method": "sos", "terms": [_t("1/3", [], q) for q in _pairs("abc")],
                           "eq_terms": [{"hyp": 0, "poly": "(a + b + c + 3)/3"}]})
    # 14. strict: x² + xy + y² + 1 > 0 = (x + y/2)² + ¾y² + 1
    out["strict_quadratic"] = (Goal(("x", "y"), (), Relation(x**2 + x * y + y**2 + 1, ">", ZERO)),
                               {"method": "sos", "terms": [_t("1", [], "x + y/2"), _t("3/4", [], "y"),
                                                           _t("1", [], "1")]})
    return out


TEXTBOOK = _textbook()


# ---------------------------------------------------------------- independent validity (exact expansion)


def _simply_positive(den: sp.Expr, goal: Goal) -> bool:
    """A denominator factor is safe if it is a polynomial with positive coefficients in variables
    that the goal assumes ``> 0`` literally."""
    pos_vars = {h.lhs for h in goal.hypotheses if h.op == ">" and h.rhs == 0 and h.lhs.is_Symbol}
    p = sp.Poly(den, *sorted(den.free_symbols, key=str)) if den.free_symbols else None
    if p is None:
        return den != 0
    return all(co > 0 for co in p.coeffs()) and den.free_symbols <= pos_vars


def independent_valid(goal: Goal, cert: dict) -> bool:
    """Plain sympy re-implementation of the sos rule for atom-free goals (the test's oracle)."""
    try:
        vs = {v: var(v) for v in goal.variables}
        hs = goal.hypotheses
        T = goal.target
        strict = T.op in (">", "<", "!=")
        total = T.slack()
        comps = [T.slack()]
        strict_term = False
        terms = cert.get("terms", [])
        if T.op == "=" and terms:
            return False
        for t in terms:
            co = sp.Rational(t["coeff"])
            if co < 0:
                return False
            q = sp.sympify(t["poly"], locals=vs)
            if q.has(sp.Float):
                return False
            prod = co * q**2
            for k in t["mult"]:
                if not (isinstance(k, int) and 0 <= k < len(hs)) or hs[k].op not in (">=", "<=", ">", "<"):
                    return False
                prod *= hs[k].slack()
            comps.append(q)
            total -= prod
            if co > 0 and q.is_Rational and q != 0 and all(hs[k].op in (">", "<") for k in t["mult"]):
                strict_term = True
        for e in cert.get("eq_terms", []):
            k = e["hyp"]
            if not (isinstance(k, int) and 0 <= k < len(hs)) or hs[k].op != "=":
                return False
            lam = sp.sympify(e["poly"], locals=vs)
            comps.append(lam)
            total -= lam * hs[k].slack()
        if strict and not strict_term:
            return False
        fractions = False
        for comp in comps:
            if comp.is_polynomial():
                continue
            den = sp.denom(sp.together(comp))
            if den.free_symbols:
                fractions = True
                if not all(_simply_positive(f, goal) for f, _ in sp.factor_list(den)[1]):
                    return False
        if not fractions:
            return sp.expand(total) == 0
        return sp.expand(sp.numer(sp.together(total))) == 0
    except (sp.SympifyError, TypeError, ValueError, KeyError, ZeroDivisionError):
        return False


# ---------------------------------------------------------------- mutations


def _swap_vars(s: str, u: str, v: str) -> str:
    return re.sub(rf"\b({u}|{v})\b", lambda m: v if m.group(1) == u else u, s)


def mutate(goal: Goal, cert: dict, rng: random.Random) -> tuple[str, dict]:
    m = copy.deepcopy(cert)
    terms = m.setdefault("terms", [])
    op = rng.choice(["coeff", "drop", "sign", "swap", "negweight", "mult"])
    if op in ("coeff", "negweight", "sign", "swap", "mult") and not terms:
        op = "drop"
    if op == "coeff":
        t = rng.choice(terms)
        t["coeff"] = str(sp.Rational(t["coeff"]) + sp.Rational(rng.choice([-2, -1, 1, 2]), rng.choice([1, 2, 3, 4])))
    elif op == "negweight":
        t = rng.choice(terms)
        t["coeff"] = str(-sp.Rational(t["coeff"]) if sp.Rational(t["coeff"]) != 0 else -1)
    elif op == "drop":
        pool = [("terms", i) for i in range(len(terms))] + [("eq_terms", i) for i in range(len(m.get("eq_terms", [])))]
        if pool:
            key, i = rng.choice(pool)
            del m[key][i]
    elif op == "sign":
        t = rng.choice(terms)
        signs = [i for i, ch in enumerate(t["poly"]) if ch in "+-"]
        if signs:
            i = rng.choice(signs)
            t["poly"] = t["poly"][:i] + ("-" if t["poly"][i] == "+" else "+") + t["poly"][i + 1:]
        else:
            t["poly"] = f"-({t['poly']})" if rng.random() < 0.5 else f"{t['poly']} - 1"
    elif op == "swap":
        t = rng.choice(terms)
        u, v = rng.sample(list(goal.variables), 2) if len(goal.variables) > 1 else (goal.variables[0], "1")
        t["poly"] = _swap_vars(t["poly"], u, v) if v != "1" else t["poly"] + " + 1"
    else:  # wrong multiplier
        t = rng.choice(terms)
        n = len(goal.hypotheses)
        choice = rng.random()
        if t["mult"] and choice < 0.4:
            t["mult"].pop(rng.randrange(len(t["mult"])))
        elif n and choice < 0.8:
            t["mult"].append(rng.randrange(n))
        elif n:
            t["mult"] = [rng.randrange(n)]
        else:
            t["mult"] = [0]  # index out of range: must be rejected
    return op, m


# ---------------------------------------------------------------- tests


def _close(goal: Goal, cert: dict) -> Step:
    return Step("close", goal, [], cert)


@pytest.mark.parametrize("name", sorted(TEXTBOOK))
def test_textbook_certificate_accepted(name: str) -> None:
    goal, cert = TEXTBOOK[name]
    assert independent_valid(goal, cert), name
    v = check_step(_close(goal, cert))
    assert v.ok, v.errors


def test_at_least_ten_textbook_inequalities() -> None:
    assert len(TEXTBOOK) >= 10


def test_schur_full_proof_with_symmetric_order_split() -> None:
    schur = a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)
    problem = Problem("schur1", ["a", "b", "c"], [Hypothesis(f"h{v}", Relation(var(v), ">=", ZERO)) for v in "abc"],
                      Relation(schur, ">=", ZERO))
    root_goal = Goal.from_problem(problem)
    case_goal, cert = TEXTBOOK["schur1_case"]
    assert case_goal.hypotheses[:3] == root_goal.hypotheses
    split = Step("split", root_goal, [case_goal],
                 {"cases": "order", "variables": ["a", "b", "c"], "symmetry": "full", "orderings": [["a", "b", "c"]]},
                 [_close(case_goal, cert)])
    v = check_proof(Proof(problem, split))
    assert v.ok, v.errors
    # the same proof round-trips through JSON
    assert check_proof(Proof.loads(Proof(problem, split).dumps())).ok


def test_nesbitt_full_proof_rewrite_then_close() -> None:
    pos = [Hypothesis(f"h{v}", Relation(var(v), ">", ZERO)) for v in "abc"]
    problem = Problem("nesbitt", ["a", "b", "c"], pos,
                      Relation(a / (b + c) + b / (c + a) + c / (a + b), ">=", sp.Rational(3, 2)))
    goal = Goal.from_problem(problem)
    sub, cert = TEXTBOOK["nesbitt_cleared"]
    rw = Step("rewrite", goal, [sub], {"multiplier": "1/(2*(a + b)*(b + c)*(c + a))"}, [_close(sub, cert)])
    v = check_proof(Proof(problem, rw))
    assert v.ok, v.errors
    bad = Step("rewrite", goal, [sub], {"multiplier": "1/(2*(a - b)*(b + c)*(c + a))"}, [_close(sub, cert)])
    assert not check_proof(Proof(problem, bad)).ok


def test_random_mutations_are_sound() -> None:
    rng = random.Random(20261129)
    names = sorted(TEXTBOOK)
    stats = {"accepted": 0, "rejected": 0, "valid": 0}
    ops: dict[str, int] = {}
    disagreements = []
    start = time.perf_counter()
    n = 1000
    for i in range(n):
        name = names[i % len(names)]
        goal, cert = TEXTBOOK[name]
        op, mutant = mutate(goal, cert, rng)
        ops[op] = ops.get(op, 0) + 1
        accepted = check_step(_close(goal, mutant)).ok
        valid = independent_valid(goal, mutant)
        stats["accepted" if accepted else "rejected"] += 1
        stats["valid"] += valid
        if accepted and not valid:
            pytest.fail(f"UNSOUND: kernel accepted an invalid mutant of {name} ({op}): {mutant}")
        if valid and not accepted:
            disagreements.append((name, op, mutant))
    elapsed = time.perf_counter() - start
    print(f"mutants={n} ops={ops} stats={stats} incomplete={len(disagreements)} time={elapsed:.1f}s")
    assert stats["rejected"] >= n // 2          # most mutants are wrong and must be caught
    assert stats["accepted"] >= 20              # some mutants are still valid (e.g. q → −q) and accepted
    assert not disagreements, disagreements[:3]  # on these simple goals the kernel is also complete


def _valid_rewrite(goal: Goal, sub: Goal, m_text: str) -> bool:
    """Independent check of a rewrite by a multiplier: exact identity and m > 0 by factors that are
    sums of positive variables (plain sympy, not the kernel's code)."""
    vs = {v: var(v) for v in goal.variables}
    try:
        m = sp.sympify(m_text, locals=vs)
    except (sp.SympifyError, TypeError, SyntaxError):
        return False
    if m.has(sp.zoo, sp.nan) or m == 0:
        return False
    num, den = sp.fraction(sp.together(m))
    coeff_n, fs_n = sp.factor_list(num)
    coeff_d, fs_d = sp.factor_list(den)
    if coeff_n / coeff_d <= 0 or not all(_simply_positive(f, goal) for f, _ in fs_n + fs_d):
        return False
    return sp.cancel(sp.together(goal.target.slack() - m * sub.target.slack())) == 0


def test_random_multiplier_mutations_of_nesbitt_rewrite() -> None:
    rng = random.Random(7)
    pos = tuple(Relation(var(v), ">", ZERO) for v in "abc")
    goal = Goal(("a", "b", "c"), pos, Relation(a / (b + c) + b / (c + a) + c / (a + b), ">=", sp.Rational(3, 2)))
    sub, cert = TEXTBOOK["nesbitt_cleared"]
    base = "1/(2*(a + b)*(b + c)*(c + a))"
    seen_valid = 0
    verdicts: dict[str, bool] = {}
    for _ in range(200):
        m = base
        op = rng.choice(["coeff", "sign", "swap", "drop"])
        if op == "coeff":
            m = m.replace("2*", f"{rng.choice([1, 3, -2, 4])}*", 1)
        elif op == "sign":
            i = rng.choice([k for k, ch in enumerate(m) if ch in "+-"])
            m = m[:i] + ("-" if m[i] == "+" else "+") + m[i + 1:]
        elif op == "swap":
            u, v = rng.sample("abc", 2)
            m = _swap_vars(m, u, v)
        else:
            parts = ["(a + b)", "(b + c)", "(c + a)"]
            m = m.replace("*" + rng.choice(parts), "", 1)
        step = Step("rewrite", goal, [sub], {"multiplier": m}, [_close(sub, cert)])
        accepted = check_step(step).ok
        if m not in verdicts:  # the independent check is slow; mutants repeat
            verdicts[m] = _valid_rewrite(goal, sub, m)
        valid = verdicts[m]
        assert not accepted or valid, f"UNSOUND: accepted multiplier {m} ({op})"
        assert accepted or not valid, f"valid multiplier {m} rejected ({op})"
        seen_valid += valid
    assert 0 < seen_valid < 200  # both kinds occur (a swap of two variables keeps the product)
