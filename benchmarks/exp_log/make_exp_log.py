"""``Real.exp``/``Real.log`` statements (issue #28): textbook inequalities and identities, each under
transformations (affine arguments ``k·x + c``, weakened constants, sums of two facts, a fact times
a positive constant). ``python make_exp_log.py`` writes ``exp_log_train.jsonl`` and
``exp_log_heldout.jsonl`` (deterministic).

Every statement is true (the comment at each family says why) and is sampled before anything is
written: at 200 random points satisfying its hypotheses (mpmath, 60 digits) the goal must hold, and
every ``Real.log`` argument must be positive (the hypotheses are stated so that it is). A failure
aborts and writes nothing. Families in ``HELD_OUT`` are measured, not looked at while building the
method.
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generated_suite import affine, arg, check_families, write_suite

HELD_OUT = ("exp_nonlinear_arg", "exp_log_compose", "log_ratio")

# (k, c): the argument k·x + c
AFFINE = [(1, 0), (2, 1), (1, -1), (3, -2), (-1, 0), (-2, 3), (1, 2), (2, -1)]
# (k, c, b) with k > 0 and k·b + c ≥ 0, so b < x makes k·x + c positive
POSITIVE = [(1, 0, 0), (1, 1, -1), (2, 0, 0), (1, -3, 3), (3, 1, 0), (2, -2, 1), (1, 2, -2)]


def _exp(x: str = "x") -> str:
    """``Real.exp`` applied to a term."""
    return f"Real.exp {arg(x)}"


def _log(x: str = "x") -> str:
    """``Real.log`` applied to a term."""
    return f"Real.log {arg(x)}"


def _hyp(b: int) -> str:
    """The binder of ``x`` and the hypothesis ``b < x``."""
    return f"(x : ℝ) (hx : {b} < x)"


def exp_ge_affine() -> list[str]:
    # exp u ≥ 1 + u for every real u (the tangent line at 0 of a convex function), at u = k x + c;
    # weakened: exp u > u (as 1 + u > u) and exp u ≥ u - 1
    out = []
    for i, (k, c) in enumerate(AFFINE):
        u = affine(k, c)
        rhs = (f"≥ {affine(k, c + 1)}", f"> {u}", f"≥ {affine(k, c - 1)}")[i % 3]
        out.append(f"(x : ℝ) : {_exp(u)} {rhs}")
    return out


def exp_positive() -> list[str]:
    # exp is positive: a sum of positive multiples of exp terms is positive, a square times (or over)
    # an exp term is nonnegative, a product of exp terms or of exp with y² + 1 is positive
    return ["(x y : ℝ) : Real.exp x + Real.exp y > 0", "(x y : ℝ) : x ^ 2 * Real.exp y ≥ 0",
            "(x y : ℝ) : Real.exp x * Real.exp y > 0", "(x y : ℝ) : (x - y) ^ 2 * Real.exp (x + y) ≥ 0",
            "(x : ℝ) : Real.exp (2 * x - 1) + 3 * Real.exp (-x) > 0", "(x y : ℝ) : x ^ 2 / Real.exp y ≥ 0",
            "(x y : ℝ) : Real.exp x * (y ^ 2 + 1) > 0"]


def exp_mono() -> list[str]:
    # exp is strictly increasing and k x + c is increasing for k > 0, decreasing for k < 0
    out = []
    for i, (k, c) in enumerate([(1, 0), (1, 0), (2, 1), (3, -2), (-1, 0), (-2, 1), (1, 5)]):
        strict = i % 2 == 1
        h, rel = ("x < y", "<") if strict else ("x ≤ y", "≤")
        lo, hi = _exp(affine(k, c, "x")), _exp(affine(k, c, "y"))
        if k < 0:
            lo, hi = hi, lo
        out.append(f"(x y : ℝ) (h : {h}) : {lo} {rel} {hi}")
    return out


def log_mono() -> list[str]:
    # log is strictly increasing on (0, ∞); with b < x ≤ y and k > 0 both k x + c and k y + c are
    # positive (k b + c ≥ 0); last: y < 1 and x ≤ y give 0 < 1 - y ≤ 1 - x
    out = []
    for i, (k, c, b) in enumerate(POSITIVE):
        strict = i % 2 == 1
        h, rel = ("x < y", "<") if strict else ("x ≤ y", "≤")
        out.append(f"(x y : ℝ) (hx : {b} < x) (h : {h}) : {_log(affine(k, c, 'x'))} {rel} "
                   f"{_log(affine(k, c, 'y'))}")
    out.append("(x y : ℝ) (hy : y < 1) (h : x ≤ y) : Real.log (1 - y) ≤ Real.log (1 - x)")
    return out


def log_le_sub_one() -> list[str]:
    # log t ≤ t - 1 for t > 0 (the tangent line at 1 of a concave function), at t = k x + c with
    # b < x making t positive; weakened: log t < t and log t ≤ t + 1; last: log (1 + x) ≤ x
    out = []
    for i, (k, c, b) in enumerate(POSITIVE):
        t = affine(k, c)
        rhs = (f"≤ {affine(k, c - 1)}", f"< {t}", f"≤ {affine(k, c + 1)}")[i % 3]
        out.append(f"{_hyp(b)} : {_log(t)} {rhs}")
    out.append("(x : ℝ) (hx : -1 < x) : Real.log (1 + x) ≤ x")
    return out


def log_ge_one_sub_inv() -> list[str]:
    # log t ≥ 1 - 1/t for t > 0 (log (1/t) ≤ 1/t - 1), at t = k x + c with b < x making t positive;
    # weakened: log t > -1/t; times t > 0: t log t ≥ t - 1; rewritten: log (1 + x) ≥ x / (1 + x)
    out = []
    for i, (k, c, b) in enumerate(POSITIVE[:6]):
        t = affine(k, c)
        rhs = (f"≥ 1 - 1 / {arg(t)}", f"> -1 / {arg(t)}")[i % 2] if i < 4 else f"≥ {affine(k, c - 1)}"
        lhs = _log(t) if i < 4 else f"{arg(t)} * {_log(t)}"
        out.append(f"{_hyp(b)} : {lhs} {rhs}")
    out.append("(x : ℝ) (hx : -1 < x) : Real.log (1 + x) ≥ x / (1 + x)")
    return out


def exp_log_amgm() -> list[str]:
    # polynomial facts in t = exp u or t = log x: t² + m² ≥ 2 m t as (t - m)² ≥ 0; for t > 0 also
    # m² t + 1/t ≥ 2 m as (m t - 1)² ≥ 0 divided by t; s² + t² ≥ 2 s t as (s - t)² ≥ 0
    out = []
    for m, t, hyp in [(1, _exp(), ""), (1, _log(), " (hx : 0 < x)"), (2, _exp("2 * x + 1"), ""),
                      (3, _log(), " (hx : 0 < x)")]:
        sq = f"{t} ^ 2" if t.startswith("Real.exp") else f"({t}) ^ 2"
        out.append(f"(x : ℝ){hyp} : {sq} + {m * m} ≥ {2 * m} * {t}")
    out += ["(x : ℝ) : Real.exp x + 1 / Real.exp x ≥ 2", "(x : ℝ) : 4 * Real.exp x + 1 / Real.exp x ≥ 4",
            "(x y : ℝ) : Real.exp x ^ 2 + Real.exp y ^ 2 ≥ 2 * Real.exp x * Real.exp y",
            ("(x y : ℝ) (hx : 0 < x) (hy : 0 < y) : (Real.log x) ^ 2 + (Real.log y) ^ 2 ≥ "
             "2 * Real.log x * Real.log y")]
    return out


def exp_log_identity() -> list[str]:
    # exp (a + b) = exp a · exp b; log (a b) = log a + log b for a, b > 0; log ∘ exp = id;
    # exp ∘ log = id on (0, ∞); (x - y) + y = x
    return ["(x y : ℝ) : Real.exp (x + y) = Real.exp x * Real.exp y",
            "(x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.log (x * y) = Real.log x + Real.log y",
            "(x : ℝ) : Real.log (Real.exp x) = x", "(x : ℝ) (hx : 0 < x) : Real.exp (Real.log x) = x",
            "(x : ℝ) : Real.exp (2 * x + 1) = Real.exp (2 * x) * Real.exp 1",
            "(x : ℝ) : Real.log (Real.exp (3 * x - 2)) = 3 * x - 2",
            "(x y : ℝ) : Real.exp (x - y) * Real.exp y = Real.exp x",
            "(x : ℝ) (hx : 0 < x) : Real.log (2 * x) = Real.log 2 + Real.log x"]


def fact_combo() -> list[str]:
    # sums of two facts (exp u ≥ 1 + u, -log y ≥ 1 - y, log y ≥ 1 - 1/y, log t ≤ t - 1) and one fact
    # times a positive constant; exp (x - 1) + exp (1 - x) ≥ (1 + x - 1) + (1 + 1 - x) = 2
    return ["(x y : ℝ) : Real.exp x + Real.exp y ≥ x + y + 2", "(x : ℝ) : 3 * Real.exp x ≥ 3 * x + 3",
            "(x y : ℝ) (hy : 0 < y) : Real.exp x - Real.log y ≥ x - y + 2",
            "(x : ℝ) (hx : 0 < x) : 2 * Real.log x ≤ 2 * x - 2",
            "(x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.log x + Real.log y ≤ x + y - 2",
            "(x : ℝ) : Real.exp (x - 1) + Real.exp (1 - x) ≥ 2",
            "(x y : ℝ) (hy : 0 < y) : Real.exp x + Real.log y ≥ x + 2 - 1 / y"]


def exp_nonlinear_arg() -> list[str]:
    # exp u ≥ 1 + u at u = x², x y, x² + y²; then 1 + x² ≥ 2 x and x² + y² ≥ 2 x y; exp is increasing
    # and -x² ≤ 0 ≤ (x - 1)²; exp (-x²)·(1 + x²) ≤ exp (-x²)·exp (x²) = 1
    return ["(x : ℝ) : Real.exp (x ^ 2) ≥ 1 + x ^ 2", "(x : ℝ) : Real.exp (x ^ 2) ≥ 2 * x",
            "(x : ℝ) : Real.exp (-x ^ 2) ≤ 1", "(x y : ℝ) : Real.exp (x * y) ≥ 1 + x * y",
            "(x y : ℝ) : Real.exp (x ^ 2 + y ^ 2) ≥ 1 + 2 * x * y",
            "(x : ℝ) : Real.exp (-x ^ 2) * (1 + x ^ 2) ≤ 1",
            "(x : ℝ) : Real.exp (x ^ 2 - 2 * x + 1) ≥ 1"]


def exp_log_compose() -> list[str]:
    # log increasing with exp x < exp x + 1; log (1 + t) ≤ t at t = exp x; exp (log x + 1) = e x and
    # exp u ≥ 1 + u; x² + 1 ≥ 1 so its log is ≥ 0, and log (1 + t) ≤ t at t = x²; log ∘ exp = id with
    # exp x exp y = exp (x + y); for x > 0, 0 < exp x - 1 < exp x; exp ∘ log = id on x² + 1 > 0
    return ["(x : ℝ) : Real.log (Real.exp x + 1) > x", "(x : ℝ) : Real.log (1 + Real.exp x) ≤ Real.exp x",
            "(x : ℝ) (hx : 0 < x) : Real.exp (Real.log x + 1) ≥ 2 + Real.log x",
            "(x : ℝ) : Real.log (x ^ 2 + 1) ≥ 0", "(x : ℝ) : Real.log (x ^ 2 + 1) ≤ x ^ 2",
            "(x y : ℝ) : Real.log (Real.exp x * Real.exp y) = x + y",
            "(x : ℝ) (hx : 0 < x) : Real.log (Real.exp x - 1) < x",
            "(x : ℝ) : Real.exp (Real.log (x ^ 2 + 1)) = x ^ 2 + 1"]


def log_ratio() -> list[str]:
    # log t ≤ t - 1 and log t ≥ 1 - 1/t at t = x/y, 1/x, √x, (x + 1)/x with log (a/b) = log a - log b;
    # concavity: log ((x + y)/2) ≥ log √(x y) = (log x + log y)/2 by AM-GM and log increasing
    pos2 = "(x y : ℝ) (hx : 0 < x) (hy : 0 < y)"
    return [f"{pos2} : Real.log x - Real.log y ≤ (x - y) / y", f"{pos2} : Real.log x - Real.log y ≥ (x - y) / x",
            "(x : ℝ) (hx : 0 < x) : Real.log (1 / x) ≤ 1 / x - 1", f"{pos2} : Real.log (x / y) ≤ x / y - 1",
            f"{pos2} : Real.log ((x + y) / 2) ≥ (Real.log x + Real.log y) / 2",
            "(x : ℝ) (hx : 0 < x) : Real.log (Real.sqrt x) ≤ Real.sqrt x - 1",
            "(x : ℝ) (hx : 0 < x) : Real.log (x + 1) - Real.log x ≤ 1 / x",
            "(x : ℝ) (hx : 0 < x) : Real.log (x + 1) - Real.log x ≥ 1 / (x + 1)"]


FAMILIES = {f.__name__: f for f in (exp_ge_affine, exp_positive, exp_mono, log_mono, log_le_sub_one,
                                     log_ge_one_sub_inv, exp_log_amgm, exp_log_identity, fact_combo,
                                     exp_nonlinear_arg, exp_log_compose, log_ratio)}


# Self-check: each statement is sampled at points meeting its hypotheses (goal true, logs defined).
mpmath.mp.dps = 60
POINTS = 200
SPECIAL = (0, 1, -1, 2, mpmath.mpf(1) / 2, 3, -2)   # exact points: the equality cases of the facts
_FORBIDDEN = ("∀", "∃", "∧", "∨", "∑", "∏", "π", "open ", "Real.pi")
_APPLY = re.compile(r"Real\.(exp|log|sqrt) ([A-Za-z_][\w']*|\d+)")
_NUMERAL = re.compile(r"(?<!\*\* )\b(\d+)\b")


def _real_log(t: mpmath.mpf) -> mpmath.mpf:
    """``Real.log`` where the statements use it: positive arguments only."""
    if not t > 0:
        raise ValueError(f"Real.log of {t}")
    return mpmath.log(t)


def _real_sqrt(t: mpmath.mpf) -> mpmath.mpf:
    """``Real.sqrt`` on nonnegative arguments only."""
    if not t >= 0:
        raise ValueError(f"Real.sqrt of {t}")
    return mpmath.sqrt(t)


NAMESPACE = {"__builtins__": {}, "exp": mpmath.exp, "log": _real_log, "sqrt": _real_sqrt, "mpf": mpmath.mpf}


def split_body(body: str) -> tuple[list[str], list[str], str]:
    """``(x y : ℝ) (hx : 0 < x) : goal`` into its variables, its hypotheses and its goal."""
    variables, hyps, i = [], [], 0
    while body.startswith("(", i):
        depth, j = 1, i + 1
        while depth:
            depth += {"(": 1, ")": -1}.get(body[j], 0)
            j += 1
        names, kind = body[i + 1:j - 1].split(" : ", 1)
        if kind == "ℝ":
            variables += names.split()
        else:
            hyps.append(kind)
        i = j + 1
    if not body.startswith(": ", i):
        raise ValueError(f"no goal after the binders: {body}")
    return variables, hyps, body[i + 2:]


def to_python(term: str) -> str:
    """A Lean term as Python over mpmath: application by juxtaposition, ``^``, real numerals."""
    text = _APPLY.sub(r"\1(\2)", term).replace("Real.", "").replace("^", "**")
    return _NUMERAL.sub(r"mpf(\1)", text)


def compile_prop(prop: str) -> tuple:
    """``lhs rel rhs`` (one relation, outside parentheses) as (lhs code, rel, rhs code)."""
    depth, cuts = 0, []
    for i, ch in enumerate(prop):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in "≤≥<>=":
            cuts.append(i)
    if len(cuts) != 1:
        raise ValueError(f"not one relation: {prop}")
    lhs, rel, rhs = prop[:cuts[0]], prop[cuts[0]], prop[cuts[0] + 1:]
    return compile(to_python(lhs.strip()), "<lhs>", "eval"), rel, compile(to_python(rhs.strip()), "<rhs>", "eval")


def holds(prop: tuple, env: dict) -> bool:
    """The relation at ``env``: non-strict ones and ``=`` up to a relative 1e-45, strict ones exactly."""
    lhs, rel, rhs = eval(prop[0], NAMESPACE, env), prop[1], eval(prop[2], NAMESPACE, env)
    d, tol = lhs - rhs, mpmath.mpf(10) ** -45 * (1 + abs(lhs) + abs(rhs))
    return {"≤": d <= tol, "≥": d >= -tol, "<": d < 0, ">": d > 0, "=": abs(d) <= tol}[rel]


def _draw(rng: random.Random) -> mpmath.mpf:
    """A wide, a small or a positive (log-uniform) value, one third each."""
    r = rng.random()
    if r < 1 / 3:
        return mpmath.mpf(rng.uniform(-8, 8))
    if r < 2 / 3:
        return mpmath.mpf(rng.uniform(-1.5, 1.5))
    return mpmath.exp(mpmath.mpf(rng.uniform(-6, 3)))


def check_statement(name: str, body: str) -> int:
    """Abort unless the goal holds (and every log argument is positive) at the exact ``SPECIAL``
    points and at ``POINTS`` random points meeting the hypotheses; return the points tried."""
    if any(t in body for t in _FORBIDDEN) or not ("Real.exp" in body or "Real.log" in body):
        raise SystemExit(f"{name}: outside the allowed syntax: {body}")
    variables, hyps, goal = split_body(body)
    hyp_props, goal_prop = [compile_prop(h) for h in hyps], compile_prop(goal)
    rng = random.Random(name)
    special = list(itertools.product(SPECIAL, repeat=len(variables)))
    accepted = tries = 0
    while accepted < POINTS:
        tries += 1
        if tries > 200_000:
            raise SystemExit(f"{name}: only {accepted} of {tries} points meet the hypotheses")
        point = special[tries - 1] if tries <= len(special) else [_draw(rng) for _ in variables]
        env = {v: mpmath.mpf(p) for v, p in zip(variables, point)}
        if not all(holds(h, env) for h in hyp_props):
            continue
        try:
            ok = holds(goal_prop, env)
        except (ValueError, ZeroDivisionError) as err:
            raise SystemExit(f"{name}: undefined at {env}: {err}: {body}") from err
        if not ok:
            raise SystemExit(f"{name}: false at {env}: {body}")
        accepted += tries > len(special)
    return tries


def check_all() -> None:
    """Sample every statement of every family."""
    check_families(FAMILIES, check_statement, POINTS)


if __name__ == "__main__":
    check_all()
    write_suite(Path(__file__).parent, "exp_log", FAMILIES, HELD_OUT, "exp_log (generated)")
