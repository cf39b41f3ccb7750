"""``Real.logb``/``Real.pi`` statements: identities and inequalities about logarithms to a base and
bounds on π, each under transformations (bases 2, 3, 5, 10, 1/2, 4, 9, 8; affine arguments;
weakened constants; sums of two facts; a fact times a positive constant; swapped sides written
with ≥/>). ``python make_logb_pi.py`` writes ``logb_pi_train.jsonl`` and ``logb_pi_heldout.jsonl``
(deterministic).

Every statement is true (the comment at each family says why) and is sampled before anything is
written, as in ``make_exp_log.py`` (whose ``split_body`` and evaluation namespace it reuses): at the exact
``SPECIAL`` points and at 200 random points meeting its hypotheses (mpmath, 60 digits) the goal must
hold, every ``Real.log``/``Real.logb`` argument and base must be positive and every base ≠ 1.
Equality hypotheses are met by solving them (jointly, mpmath ``findroot``) at each point, each for the
last variable it mentions that an earlier one does not take (a positive variable).
A statement with ``Real.pi`` is sampled three times: with π, 3.141592 and 3.141593 (the prover only
knows 3.141592 < π < 3.141593, so every bound must hold on that interval). A failure aborts and
writes nothing. Families in ``HELD_OUT`` are measured, not looked at while building the method.
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from fractions import Fraction
from pathlib import Path

import mpmath

BENCHMARKS = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(BENCHMARKS), str(BENCHMARKS / "exp_log")]
from generated_suite import affine, arg, check_families, write_suite
from make_exp_log import NAMESPACE as EXP_LOG_NAMESPACE
from make_exp_log import split_body

HELD_OUT = ("logb_change_of_base", "pi_mixed", "logb_reciprocal_amgm")

POS2 = "(x y : ℝ) (hx : 0 < x) (hy : 0 < y)"


def _logb(b: str, x: str = "x") -> str:
    """``Real.logb`` with base ``b`` applied to a term."""
    return f"Real.logb {arg(b)} {arg(x)}"


def logb_mono() -> list[str]:
    # logb b is strictly increasing on (0, ∞) for b > 1 and strictly decreasing for 0 < b < 1;
    # with lo < x ≤ y and k > 0 both k x + c and k y + c are positive (k lo + c ≥ 0); last: y < 1
    # and x ≤ y give 0 < 1 - y ≤ 1 - x
    out = []
    for base, (k, c, lo), strict, swap in [("2", (1, 0, 0), False, False), ("1 / 2", (1, 0, 0), True, False),
                                           ("3", (1, 1, -1), False, True), ("10", (2, 0, 0), True, False),
                                           ("5", (1, -3, 3), True, True), ("1 / 2", (3, 1, 0), False, False),
                                           ("4", (2, -2, 1), False, True)]:
        small, big = _logb(base, affine(k, c, "x")), _logb(base, affine(k, c, "y"))
        if Fraction(base.replace(" ", "")) < 1:
            small, big = big, small
        h, rel = ("x < y", "<") if strict else ("x ≤ y", "≤")
        goal = f"{big} {'>' if strict else '≥'} {small}" if swap else f"{small} {rel} {big}"
        out.append(f"(x y : ℝ) (hx : {lo} < x) (h : {h}) : {goal}")
    out.append("(x y : ℝ) (hy : y < 1) (h : x ≤ y) : Real.logb 8 (1 - y) ≤ Real.logb 8 (1 - x)")
    return out


def logb_numeric() -> list[str]:
    # 2³ = 8, 4^(1/2) = 2, (1/2)⁻² = 4, 9^(3/2) = 27, 10³ = 1000; 2² = 4 < 5, 5³ = 125 > 100,
    # 10^0.3 ≈ 1.995 < 2
    return [": Real.logb 2 8 = 3", ": Real.logb 4 2 = 1 / 2", ": Real.logb (1 / 2) 4 = -2",
            ": Real.logb 9 27 = 3 / 2", ": Real.logb 10 1000 = 3", ": Real.logb 2 5 > 2",
            ": Real.logb 5 100 < 3", ": Real.logb 10 2 > 0.3"]


def logb_power() -> list[str]:
    # logb b (t ^ k) = k logb b t and logb (b ^ k) t = logb b t / k (log of a power); 4 = 2 ^ 2;
    # for x > 1, logb 2 x > 0 so 3 logb 2 x > 2 logb 2 x
    x0 = "(x : ℝ) (hx : 0 < x)"
    return [f"{x0} : Real.logb 2 (x ^ 3) = 3 * Real.logb 2 x", f"{x0} : Real.logb 10 (x ^ 2) = 2 * Real.logb 10 x",
            f"{x0} : Real.logb (2 ^ 2) x = Real.logb 2 x / 2", f"{x0} : Real.logb 4 x = Real.logb 2 x / 2",
            "(x : ℝ) (hx : 1 < x) : Real.logb 3 ((2 * x - 2) ^ 2) = 2 * Real.logb 3 (2 * x - 2)",
            f"{x0} : Real.logb (1 / 2) (x ^ 4) = 4 * Real.logb (1 / 2) x",
            f"{x0} : Real.logb (5 ^ 3) x = Real.logb 5 x / 3",
            "(x : ℝ) (hx : 1 < x) : Real.logb 2 (x ^ 3) > 2 * Real.logb 2 x"]


def logb_sign() -> list[str]:
    # logb b t > 0 for t > 1 and < 0 for 0 < t < 1 when b > 1, the reverse when 0 < b < 1; the
    # hypotheses put the argument there: x > 1 ⇒ 2 x - 1 > 1, 1/3 < x < 2/3 ⇒ 0 < 3 x - 1 < 1,
    # x > 0 ⇒ x + 1 > 1, x² + 1 ≥ 1; a positive fact times 3 is positive
    unit = "(x : ℝ) (hx0 : 0 < x) (hx1 : x < 1)"
    return ["(x : ℝ) (hx : 1 < x) : 0 < Real.logb 2 x", f"{unit} : Real.logb 3 x < 0",
            "(x : ℝ) (hx : 1 < x) : Real.logb (1 / 2) x < 0", f"{unit} : Real.logb (1 / 2) x > 0",
            "(x : ℝ) (hx : 1 < x) : Real.logb 5 (2 * x - 1) > 0",
            "(x : ℝ) (hx0 : 1 / 3 < x) (hx1 : x < 2 / 3) : Real.logb 10 (3 * x - 1) < 0",
            "(x : ℝ) (hx : 0 < x) : 3 * Real.logb 4 (x + 1) > 0", "(x : ℝ) : Real.logb 9 (x ^ 2 + 1) ≥ 0"]


def logb_linear_system() -> list[str]:
    # each goal is a linear combination of the hypotheses once logb b (t ^ k) = k logb b t,
    # logb b (s t) = logb b s + logb b t, logb 4 = logb 2 / 2 and logb 9 = logb 3 / 2 are applied
    # (the fourth is a sum of two bounds; the sixth: logb 5 y > 0 for y > 1)
    return [f"{POS2} (h : Real.logb 2 x + Real.logb 2 y = 5) : Real.logb 2 (x ^ 2) + Real.logb 2 (y ^ 2) = 10",
            f"{POS2} (h : Real.logb 4 x + Real.logb 2 y = 3) : Real.logb 2 x + 2 * Real.logb 2 y = 6",
            (f"{POS2} (h1 : Real.logb 3 x + Real.logb 3 y = 4) (h2 : Real.logb 3 x - Real.logb 3 y = 2) : "
             "Real.logb 3 x = 3"),
            f"{POS2} (h1 : Real.logb 2 x ≤ 3) (h2 : Real.logb 2 y ≤ 1) : Real.logb 2 x + Real.logb 2 y ≤ 4",
            f"{POS2} (h : 2 * Real.logb 10 x - Real.logb 10 y = 1) : Real.logb 10 (x ^ 2) - Real.logb 10 y = 1",
            "(x y : ℝ) (hx : 0 < x) (hy : 1 < y) (h : Real.logb 5 x = 2 * Real.logb 5 y + 1) : Real.logb 5 x > 1",
            ("(x y z : ℝ) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) (h1 : Real.logb 2 x + Real.logb 2 y = 3) "
             "(h2 : Real.logb 2 y + Real.logb 2 z = 4) : Real.logb 2 (x * y * z) ≥ Real.logb 2 x + 4"),
            f"{POS2} (h : Real.logb 9 x + Real.logb 3 y = 2) : 3 * Real.logb 3 x + 6 * Real.logb 3 y = 12"]


def pi_bounds() -> list[str]:
    # 3.141592 < π < 3.141593: each bound holds on that interval with margin ≥ 10⁻⁶
    return [": Real.pi > 3", ": Real.pi < 22 / 7", ": Real.pi ^ 2 < 10", ": 2 * Real.pi < 7",
            ": Real.pi / 4 < 1", ": Real.pi > 3.14", ": Real.pi ^ 2 > 9.8", ": 3.1416 > Real.pi"]


def pi_scaled() -> list[str]:
    # 3 < π < 3.2 times a positive (or nonnegative) quantity; π r² > 3 r² > 3 r for r > 1;
    # π / 2 < 8 / 5 and π / 4 < 0.8; π x² + 1 > 3 x² as (π - 3) x² ≥ 0
    return ["(r : ℝ) (h : 0 < r) : Real.pi * r ^ 2 < 4 * r ^ 2", "(r : ℝ) (h : 0 < r) : 2 * Real.pi * r > 6 * r",
            "(x : ℝ) (h0 : 0 ≤ x) (h : x ≤ Real.pi / 2) : x ≤ 8 / 5", "(x : ℝ) (h : x ≥ Real.pi) : x > 3",
            "(x : ℝ) : Real.pi * x ^ 2 + 1 > 3 * x ^ 2", "(r : ℝ) (h : 0 ≤ r) : Real.pi * r ≤ 3.2 * r",
            "(x : ℝ) (h : x < Real.pi / 4) : x < 0.8", "(r : ℝ) (h : 1 < r) : Real.pi * r ^ 2 > 3 * r"]


def logb_change_of_base() -> list[str]:
    # logb (p ^ k) t = logb p t / k: 8 = 2³, 9 = 3², 4 = 2², 25 = 5², 27 = 3³, 1/2 = 2⁻¹;
    # logb 9 (x²) = 2 logb 9 x = logb 3 x; for x > 1, logb 4 x = logb 2 x / 2 < logb 2 x
    x0 = "(x : ℝ) (hx : 0 < x)"
    return [f"{x0} : Real.logb 8 x * 3 = Real.logb 2 x", f"{x0} : Real.logb 9 (x ^ 2) = Real.logb 3 x",
            f"{x0} : Real.logb 4 x + Real.logb 2 x = 3 / 2 * Real.logb 2 x",
            f"{x0} : Real.logb (1 / 2) x = -Real.logb 2 x", f"{x0} : Real.logb 8 x = 2 / 3 * Real.logb 4 x",
            "(x : ℝ) (hx : 1 < x) : Real.logb 4 x < Real.logb 2 x",
            "(x : ℝ) (hx : -1 < x) : Real.logb 25 (x + 1) * 2 = Real.logb 5 (x + 1)",
            f"{x0} : Real.logb 9 x + Real.logb 3 x + Real.logb 27 x = 11 / 6 * Real.logb 3 x"]


def pi_mixed() -> list[str]:
    # √π ≈ 1.772, π / √2 ≈ 2.221, log₂ π ≈ 1.651, π³ ≈ 31.006, log π ≈ 1.145, e^π ≈ 23.141 (all with
    # margin on 3.141592 < π < 3.141593); exp t ≥ 1 + t at t = π - 3; logb 2 (π x) = logb 2 π + logb 2 x
    return [": Real.sqrt Real.pi > 1.7", ": Real.pi / Real.sqrt 2 > 2", ": Real.logb 2 Real.pi > 1",
            ": Real.pi ^ 3 > 31", ": Real.exp (Real.pi - 3) ≥ Real.pi - 2", ": Real.log Real.pi > 1",
            ": Real.exp Real.pi > 23", "(x : ℝ) (hx : 0 < x) : Real.logb 2 (Real.pi * x) > Real.logb 2 x + 1"]


def logb_reciprocal_amgm() -> list[str]:
    # logb x b = 1 / logb b x; with t = logb b x > 0: m² t + 1 / t ≥ 2 m as (m t - 1)² ≥ 0 divided by
    # t (then weakened or doubled); with t < 0 (0 < x < 1): t + 1 / t ≤ -2; x + 1 > 2 > 1
    one = "(x : ℝ) (hx : 1 < x)"
    two = "(x y : ℝ) (hx : 1 < x) (hy : 1 < y)"
    return [f"{one} : Real.logb 2 x + Real.logb x 2 ≥ 2", f"{one} : 4 * Real.logb 3 x + Real.logb x 3 ≥ 4",
            f"{two} : Real.logb x y + Real.logb y x ≥ 2", f"{one} : Real.logb 10 x + Real.logb x 10 > 1",
            "(x : ℝ) (hx0 : 0 < x) (hx1 : x < 1) : Real.logb 2 x + Real.logb x 2 ≤ -2",
            f"{one} : 9 * Real.logb 2 x + Real.logb x 2 ≥ 6",
            f"{one} : Real.logb 2 (x + 1) + Real.logb (x + 1) 2 ≥ 2",
            f"{two} : 2 * (Real.logb x y + Real.logb y x) ≥ 3"]


FAMILIES = {f.__name__: f for f in (logb_mono, logb_numeric, logb_power, logb_sign, logb_linear_system,
                                     pi_bounds, pi_scaled, logb_change_of_base, pi_mixed,
                                     logb_reciprocal_amgm)}


# Self-check: each statement is sampled at points meeting its hypotheses (goal true, logs defined).
mpmath.mp.dps = 60
POINTS = 200
SPECIAL = (0, 1, -1, 2, mpmath.mpf(1) / 2, 3, -2, 4, 8, 9)   # exact points: equality cases, bases
PI_VALUES = (("pi", mpmath.pi), ("pi_lo", mpmath.mpf("3.141592")), ("pi_hi", mpmath.mpf("3.141593")))
_FORBIDDEN = ("∀", "∃", "∧", "∨", "∑", "∏", "π", "open ", "≠", "|")
_ARITY = {"Real.exp": 1, "Real.log": 1, "Real.sqrt": 1, "Real.logb": 2, "Real.pi": 0}
_TOKEN = re.compile(r"\s*(Real\.\w+|[A-Za-z_][\w']*|\d+(?:\.\d+)?|[-+*/^()])")
_IDENT = re.compile(r"[A-Za-z_][\w']*")


def _real_logb(b: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    """``Real.logb b t`` where the statements use it: ``b > 0``, ``b ≠ 1``, ``t > 0`` only."""
    if not (b > 0 and b != 1 and t > 0):
        raise ValueError(f"Real.logb {b} {t}")
    return mpmath.log(t) / mpmath.log(b)


NAMESPACE = {**EXP_LOG_NAMESPACE, "logb": _real_logb}


def _draw(rng: random.Random) -> mpmath.mpf:
    """A wide, a small or a positive value, one third each; positive ones log-uniform on
    (e⁻⁸, e⁸), wider than ``make_exp_log``'s, for logarithms of large and small arguments."""
    r = rng.random()
    if r < 1 / 3:
        return mpmath.mpf(rng.uniform(-8, 8))
    if r < 2 / 3:
        return mpmath.mpf(rng.uniform(-1.5, 1.5))
    return mpmath.exp(mpmath.mpf(rng.uniform(-8, 8)))


def _tokens(term: str) -> list[str]:
    """The Lean term cut into names, numerals, operators and parentheses."""
    out, i = [], 0
    while i < len(term.rstrip()):
        m = _TOKEN.match(term, i)
        if not m:
            raise ValueError(f"cannot read {term[i:]!r}")
        out.append(m.group(1))
        i = m.end()
    return out


def _word(tok: str, prev: str | None) -> str:
    """One token in Python: ``^`` as ``**``, π as ``pi``, real numerals as mpf (not exponents)."""
    if tok.startswith("Real."):
        if _ARITY.get(tok) != 0:
            raise ValueError(f"{tok} without its arguments or not allowed")
        return "pi"
    if tok == "^":
        return "**"
    if tok[0].isdigit() and prev != "**":
        return f"mpf('{tok}')"
    return tok


def _atom(toks: list[str], i: int) -> tuple[str, int]:
    """Python for one application argument at ``i`` (a name, a numeral or a parenthesised term) and
    the index after it."""
    if i >= len(toks) or toks[i] in ")+-*/^":
        raise ValueError(f"missing argument at token {i}: {toks}")
    if toks[i] != "(":
        return _word(toks[i], None), i + 1
    text, i = _seq(toks, i + 1)
    return f"({text})", i + 1


def _seq(toks: list[str], i: int) -> tuple[str, int]:
    """Python for the tokens from ``i`` up to the closing parenthesis (or the end); its index."""
    out: list[str] = []
    while i < len(toks) and toks[i] != ")":
        arity = _ARITY.get(toks[i])
        if arity:
            name, args, i = toks[i].removeprefix("Real."), [], i + 1
            for _ in range(arity):
                text, i = _atom(toks, i)
                args.append(text)
            out.append(f"{name}({', '.join(args)})")
        elif toks[i] == "(":
            text, i = _atom(toks, i)
            out.append(text)
        else:
            out.append(_word(toks[i], out[-1] if out else None))
            i += 1
    return " ".join(out), i


def to_python(term: str) -> str:
    """A Lean term as Python over mpmath: application by juxtaposition (``Real.logb b x`` is
    ``logb(b, x)``, two arguments), ``Real.pi`` as ``pi``, ``^``, real numerals (decimals too)."""
    toks = _tokens(term)
    text, i = _seq(toks, 0)
    if i != len(toks):
        raise ValueError(f"unbalanced parentheses: {term}")
    return text


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


def _gap(prop: tuple, env: dict) -> mpmath.mpf:
    """lhs - rhs of a compiled relation at ``env``."""
    return eval(prop[0], NAMESPACE, env) - eval(prop[2], NAMESPACE, env)


def holds(prop: tuple, env: dict) -> bool:
    """The relation at ``env``: non-strict ones and ``=`` up to a relative 1e-45, strict ones exactly."""
    lhs, rel, rhs = eval(prop[0], NAMESPACE, env), prop[1], eval(prop[2], NAMESPACE, env)
    d, tol = lhs - rhs, mpmath.mpf(10) ** -45 * (1 + abs(lhs) + abs(rhs))
    return {"≤": d <= tol, "≥": d >= -tol, "<": d < 0, ">": d > 0, "=": abs(d) <= tol}[rel]


def _unknowns(eq_hyps: list[str], variables: list[str]) -> list[str]:
    """For each equality hypothesis, the last variable it mentions not taken by an earlier one."""
    out: list[str] = []
    for h in eq_hyps:
        names = [v for v in _IDENT.findall(h) if v in variables and v not in out]
        out.append(names[-1])
    return out


def _solve(eqs: list[tuple], unknowns: list[str], env: dict) -> bool:
    """Move the unknowns (positive: each is exp of a parameter) so that the equalities hold at
    ``env`` (updated); False when the root finder fails there."""
    def residual(*s):
        trial = {**env, **{v: mpmath.exp(t) for v, t in zip(unknowns, s)}}
        gaps = [_gap(e, trial) for e in eqs]
        return gaps if len(gaps) > 1 else gaps[0]
    start = [mpmath.log(abs(env[v])) if env[v] else mpmath.mpf(0) for v in unknowns]
    try:
        root = mpmath.findroot(residual, start if len(start) > 1 else start[0])
    except (ValueError, ZeroDivisionError):
        return False
    roots = list(root) if len(unknowns) > 1 else [root]
    env.update({v: mpmath.exp(t) for v, t in zip(unknowns, roots)})
    return True


def _meets(name: str, hyps: list[tuple], env: dict) -> bool:
    """The hypotheses at ``env``, in order; one that is undefined after the earlier ones hold aborts."""
    for h in hyps:
        try:
            if not holds(h, env):
                return False
        except (ValueError, ZeroDivisionError) as err:
            raise SystemExit(f"{name}: hypothesis undefined at {env}: {err}") from err
    return True


def _check_syntax(name: str, body: str) -> None:
    """Only the allowed functions, no bare π, no opens; each statement is about logb or π."""
    used = set(re.findall(r"Real\.\w+", body))
    if (any(t in body for t in _FORBIDDEN) or not used <= set(_ARITY)
            or not used & {"Real.logb", "Real.pi"}):
        raise SystemExit(f"{name}: outside the allowed syntax: {body}")


def _sample(name: str, parsed: tuple, pi: mpmath.mpf) -> int:
    """Abort unless the goal holds (and every log is defined) at the exact ``SPECIAL`` points and at
    ``POINTS`` random points meeting the hypotheses, with ``Real.pi`` read as ``pi``; the points tried."""
    variables, hyp_props, goal_prop, eqs, unknowns = parsed
    rng = random.Random(name)
    special = list(itertools.product(SPECIAL, repeat=len(variables)))
    accepted = tries = 0
    while accepted < POINTS:
        tries += 1
        if tries > 200_000:
            raise SystemExit(f"{name}: only {accepted} of {tries} points meet the hypotheses")
        point = special[tries - 1] if tries <= len(special) else [_draw(rng) for _ in variables]
        env = {"pi": pi, **{v: mpmath.mpf(p) for v, p in zip(variables, point)}}
        if eqs and not _solve(eqs, unknowns, env) or not _meets(name, hyp_props, env):
            continue
        try:
            ok = holds(goal_prop, env)
        except (ValueError, ZeroDivisionError) as err:
            raise SystemExit(f"{name}: undefined at {env}: {err}") from err
        if not ok:
            raise SystemExit(f"{name}: false at {env}")
        accepted += tries > len(special)
    return tries


def check_statement(name: str, body: str) -> None:
    """Sample one statement; with ``Real.pi``, also at the ends of the interval the prover knows."""
    _check_syntax(name, body)
    variables, hyps, goal = split_body(body)
    hyp_props = [compile_prop(h) for h in hyps]
    eq_hyps = [h for h, p in zip(hyps, hyp_props) if p[1] == "="]
    parsed = (variables, hyp_props, compile_prop(goal), [p for p in hyp_props if p[1] == "="],
              _unknowns(eq_hyps, variables))
    for label, pi in PI_VALUES if "Real.pi" in body else PI_VALUES[:1]:
        try:
            _sample(f"{name}/{label}", parsed, pi)
        except SystemExit as err:
            raise SystemExit(f"{err}: {body}") from err


def check_all() -> None:
    """Sample every statement of every family."""
    check_families(FAMILIES, check_statement, POINTS)


if __name__ == "__main__":
    check_all()
    write_suite(Path(__file__).parent, "logb_pi", FAMILIES, HELD_OUT, "logb_pi (generated)")
