"""Hand-built proofs of different shapes for the Lean rendering golden tests.

Each case is a ``Proof`` whose certificates are exact (``tests/test_lean_render.py`` re-checks
the identities with sympy before comparing the rendering with ``tests/golden/<name>.lean``).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.problem import Hypothesis, Problem, Relation, var
from prover.tactics.lemma import LemmaStatement

a, b, c, x, y, s, t, u = (var(n) for n in "abcxystu")
R = sp.Rational


def rel(lhs, op, rhs) -> Relation:
    return Relation(sp.sympify(lhs), op, sp.sympify(rhs))


def problem(name: str, vs: str, hyps: list[tuple[str, Relation]], goal: Relation,
            real_division: bool = True) -> Problem:
    return Problem(name, vs.split(), [Hypothesis(n, r) for n, r in hyps], goal, real_division=real_division)


def sos(*terms: tuple, eq: tuple = ()) -> dict:
    return {"method": "sos",
            "terms": [{"coeff": str(cf), "mult": list(m), "poly": str(sp.sympify(q))} for cf, m, q in terms],
            "eq_terms": [{"hyp": k, "poly": str(sp.sympify(lam))} for k, lam in eq]}


def close(goal: Goal, cert: dict) -> Step:
    return Step("close", goal, [], cert)


def single(p: Problem, cert: dict) -> Proof:
    return Proof(p, close(Goal.from_problem(p), cert))


# ----------------------------------------------------------------------------- cases

def amgm2() -> Proof:
    p = problem("amgm2", "a b", [], rel(2 * a * b, "<=", a**2 + b**2), real_division=False)
    return single(p, sos((1, [], a - b)))


def chenneq_p1() -> Proof:
    p = problem("chenneq/P1", "a b c", [], rel(a * b + b * c + c * a, "<=", a**2 + b**2 + c**2))
    return single(p, sos((R(1, 2), [], a - b), (R(1, 2), [], b - c), (R(1, 2), [], c - a)))


def benchmark_statement() -> Proof:
    """A benchmark problem keeps its own statement text (``meta["lean"]``) in the Lean file."""
    proof = chenneq_p1()
    proof.problem.meta = {"lean": "theorem P1 {a b c : ℝ} : a * b + b * c + c * a ≤ a ^ 2 + b ^ 2 + c ^ 2 "
                                  ":= by sorry", "declared_name": "P1"}
    return proof


def chenneq_p1_nlinarith() -> Proof:
    return chenneq_p1()


def strict_products() -> Proof:
    p = problem("strict_products", "a b", [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0))],
                rel(0, "<", a * b + a))
    return single(p, sos((1, [0, 1], 1), (1, [0], 1)))


def cyclic_cubes() -> Proof:
    hyps = [("ha", rel(a, ">=", 0)), ("hb", rel(b, ">=", 0)), ("hc", rel(c, ">=", 0))]
    p = problem("chenneq/P3", "a b c", hyps, rel(a**2 * b + b**2 * c + c**2 * a, "<=", a**3 + b**3 + c**3))
    return single(p, sos((R(2, 3), [0], a - b), (R(1, 3), [1], a - b), (R(2, 3), [1], b - c),
                         (R(1, 3), [2], b - c), (R(2, 3), [2], c - a), (R(1, 3), [0], c - a)))


def sum_constraint() -> Proof:
    p = problem("sum_constraint", "a b", [("h", rel(a + b, "=", 2))], rel(a * b, "<=", 1))
    return single(p, sos((R(1, 4), [], a - b), eq=((0, -(a + b + 2) / 4),)))


def equality_target() -> Proof:
    p = problem("equality_target", "a b", [("h", rel(a, "=", b))], rel(a**2, "=", a * b),
                real_division=False)
    return single(p, sos(eq=((0, a),)))


def positivity_close() -> Proof:
    p = problem("positivity_close", "a b", [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0))],
                rel(a * b + a / b, ">=", 0))
    return single(p, {"method": "positivity"})


def _clear_two(name: str, hyps: list[tuple[str, Relation]]) -> Proof:
    goal_rel = rel(a / b + b / a, ">=", 2)
    p = problem(name, "a b", hyps, goal_rel)
    g = Goal.from_problem(p)
    g2 = g.with_target(rel(2 * a * b, "<=", a**2 + b**2))
    child = close(g2, sos((1, [], a - b)))
    root = Step("rewrite", g, [g2], {"multiplier": str(1 / (a * b)), "eq_terms": [], "new_hypotheses": []},
                [child])
    return Proof(p, root)


def clear_denominators() -> Proof:
    return _clear_two("clear_denominators", [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0))])


def conjunction_binder() -> Proof:
    return _clear_two("conjunction_binder", [("h.1", rel(a, ">", 0)), ("h.2", rel(b, ">", 0))])


def homogenize() -> Proof:
    p = problem("homogenize", "a b", [("h", rel(a + b, "=", 1))], rel(a**2 + b**2, ">=", R(1, 2)))
    g = Goal.from_problem(p)
    g2 = g.with_target(rel((a + b) ** 2, "<=", 2 * a**2 + 2 * b**2))
    child = close(g2, sos((1, [], a - b)))
    cert = {"multiplier": "1/2", "eq_terms": [{"hyp": 0, "poly": str((a + b + 1) / 2)}], "new_hypotheses": []}
    return Proof(p, Step("rewrite", g, [g2], cert, [child]))


# Shapes of two catalogue entries (tactics/lemmas/means.json, cauchy.json), frozen here so the
# goldens do not move with the catalogue: one trusted to Lean, one with a kernel certificate.
AMGM2_SQRT = LemmaStatement("amgm2_sqrt", ("x", "y"), (rel(x, ">=", 0), rel(y, ">=", 0)),
                            sp.sqrt(x * y), (x + y) / 2, "lean", lean_name="Prover.Lemmas.amgm2_sqrt")
TITU2 = LemmaStatement(
    "titu2", ("x", "y", "a", "b"), (rel(a, ">", 0), rel(b, ">", 0)), (x + y) ** 2 / (a + b), x**2 / a + y**2 / b,
    "kernel", lean_name="Finset.sq_sum_div_le_sum_sq_div",
    certificate=sos((1, [0, 0, 1], (x * b - y * a) / (a * b * (a + b))), (1, [0, 1, 1], (x * b - y * a) / (a * b * (a + b)))))
LEMMAS = {lem.name: lem for lem in (AMGM2_SQRT, TITU2)}


def scale_amgm() -> Proof:
    hyps = [("ha", rel(a, ">=", 0)), ("hb", rel(b, ">=", 0))]
    p = problem("scale_amgm", "a b c", hyps, rel(sp.sqrt(a * b), "<=", (a + b) / 2 + c**2))
    g = Goal.from_problem(p)
    g2 = g.with_target(rel(0, "<=", c**2))
    cert = {"applications": [{"lemma": "amgm2_sqrt", "instance": {"x": "a", "y": "b"}, "coefficient": "1"}],
            "multiplier": "1", "eq_terms": [], "new_hypotheses": []}
    return Proof(p, Step("scale", g, [g2], cert, [close(g2, sos((1, [], c)))]))


def scale_titu() -> Proof:
    hyps = [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0))]
    p = problem("scale_titu", "x y a b", hyps, rel((x + y) ** 2 / (a + b), "<=", x**2 / a + y**2 / b + x**2))
    g = Goal.from_problem(p)
    g2 = g.with_target(rel(0, "<=", x**2))
    cert = {"applications": [{"lemma": "titu2", "instance": {"x": "x", "y": "y", "a": "a", "b": "b"},
                              "coefficient": "1"}],
            "multiplier": "1", "eq_terms": [], "new_hypotheses": []}
    return Proof(p, Step("scale", g, [g2], cert, [close(g2, sos((1, [], x)))]))


def scale_hypothesis_fact() -> Proof:
    """ab ≤ (a+b)²/4 (a fact with its own certificate) and (2 + a + b)/4 · (2 − a − b) ≥ 0 (hypothesis h)."""
    hyps = [("ha", rel(a, ">", 0)), ("hb", rel(b, ">", 0)), ("h", rel(a + b, "<=", 2))]
    p = problem("scale_hypothesis_fact", "a b", hyps, rel(a * b, "<=", 1))
    g = Goal.from_problem(p)
    g2 = g.with_target(rel(0, "<=", 0))
    fact = {"lhs": "a*b", "op": "<=", "rhs": "(a + b)**2/4"}
    cert = {"applications": [{"fact": fact, "proof": sos((R(1, 4), [], a - b)), "coefficient": "1"},
                             {"hypothesis": 2, "coefficient": "(2 + a + b)/4"}],
            "multiplier": "1", "eq_terms": [], "new_hypotheses": []}
    return Proof(p, Step("scale", g, [g2], cert, [close(g2, sos())]))


def sign_split() -> Proof:
    p = problem("sign_split", "a b", [], rel(a * b, "<=", a**2 + b**2), real_division=False)
    g = Goal.from_problem(p)
    g1, g2 = g.with_hypotheses([rel(a * b, ">=", 0)]), g.with_hypotheses([rel(a * b, "<=", 0)])
    k1 = close(g1, sos((1, [], a - b), (1, [0], 1)))
    k2 = close(g2, sos((1, [], a), (1, [], b), (1, [0], 1)))
    return Proof(p, Step("split", g, [g1, g2], {"cases": "sign", "expr": str(a * b)}, [k1, k2]))


def order_split_two() -> Proof:
    p = problem("order_split_two", "a b", [], rel(0, "<=", (a - b) * (a**3 - b**3)), real_division=False)
    g = Goal.from_problem(p)
    g1, g2 = g.with_hypotheses([rel(a, ">=", b)]), g.with_hypotheses([rel(b, ">=", a)])
    cert_k = sos((1, [], (a - b) * (a + b / 2)), (R(3, 4), [], (a - b) * b))
    cert = {"cases": "order", "variables": ["a", "b"]}
    return Proof(p, Step("split", g, [g1, g2], cert, [close(g1, cert_k), close(g2, cert_k)]))


def schur_symmetric() -> Proof:
    hyps = [("ha", rel(a, ">=", 0)), ("hb", rel(b, ">=", 0)), ("hc", rel(c, ">=", 0))]
    schur = a * (a - b) * (a - c) + b * (b - a) * (b - c) + c * (c - a) * (c - b)
    p = problem("schur", "a b c", hyps, rel(0, "<=", schur))
    g = Goal.from_problem(p)
    g1 = g.with_hypotheses([rel(a, ">=", b), rel(b, ">=", c)])
    k = close(g1, sos((1, [3], a - b), (2, [4], a - b), (1, [2], a - b), (1, [2, 3, 4], 1), (1, [2], b - c)))
    cert = {"cases": "order", "variables": ["a", "b", "c"], "symmetry": "full",
            "orderings": [["a", "b", "c"]]}
    return Proof(p, Step("split", g, [g1], cert, [k]))


def introduce_sqrt() -> Proof:
    p = problem("introduce_sqrt", "x", [("hx", rel(x, ">=", 0))], rel(2 * sp.sqrt(x), "<=", x + 1))
    g = Goal.from_problem(p)
    g2 = Goal(("x", "s"), g.hypotheses + (rel(s, ">=", 0), rel(s**2, "=", x)), rel(2 * s, "<=", x + 1))
    cert = {"definitions": {"s": "sqrt(x)"},
            "new_hypotheses": [{"index": 1, "proof": {"method": "positivity"}},
                               {"index": 2, "proof": sos(eq=())}]}
    child = close(g2, sos((1, [], s - 1), eq=((2, -1),)))
    return Proof(p, Step("introduce", g, [g2], cert, [child]))


def introduce_cube_root() -> Proof:
    p = problem("introduce_cube_root", "x", [("hx", rel(x, ">", 0))], rel(3 * x ** R(1, 3), "<=", x + 2))
    g = Goal.from_problem(p)
    g2 = Goal(("x", "t"), g.hypotheses + (rel(t, ">", 0), rel(t**3, "=", x)), rel(3 * t, "<=", x + 2))
    cert = {"definitions": {"t": "x**(1/3)"},
            "new_hypotheses": [{"index": 1, "proof": {"method": "positivity"}},
                               {"index": 2, "proof": sos(eq=())}]}
    child = close(g2, sos((1, [1], t - 1), (2, [], t - 1), eq=((2, -1),)))
    return Proof(p, Step("introduce", g, [g2], cert, [child]))


def substitute_shift() -> Proof:
    p = problem("substitute_shift", "a", [("ha", rel(a, ">=", 1))], rel(a**2, ">=", 2 * a - 1),
                real_division=False)
    g = Goal.from_problem(p)
    g2 = Goal(("u",), (rel(u + 1, ">=", 1),), rel((u + 1) ** 2, ">=", 2 * (u + 1) - 1))
    cert = {"substitution": {"a": "u + 1"}, "inverse": {"u": "a - 1"}}
    return Proof(p, Step("substitute", g, [g2], cert, [close(g2, sos((1, [], u)))]))


CASES: dict[str, Callable[[], Proof]] = {
    "amgm2": amgm2,
    "chenneq_p1": chenneq_p1,
    "benchmark_statement": benchmark_statement,
    "strict_products": strict_products,
    "cyclic_cubes": cyclic_cubes,
    "sum_constraint": sum_constraint,
    "equality_target": equality_target,
    "positivity_close": positivity_close,
    "clear_denominators": clear_denominators,
    "conjunction_binder": conjunction_binder,
    "homogenize": homogenize,
    "scale_amgm": scale_amgm,
    "scale_titu": scale_titu,
    "scale_hypothesis_fact": scale_hypothesis_fact,
    "sign_split": sign_split,
    "order_split_two": order_split_two,
    "schur_symmetric": schur_symmetric,
    "introduce_sqrt": introduce_sqrt,
    "introduce_cube_root": introduce_cube_root,
    "substitute_shift": substitute_shift,
}

#: cases rendered with the nlinarith close style instead of linear_combination
NLINARITH_CASES = {"chenneq_p1_nlinarith": chenneq_p1_nlinarith}
