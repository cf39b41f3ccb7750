"""Accepted proofs checked at points: the root statement of every proof file must hold in Lean
wherever its hypotheses do.

For each ``results/**/proofs/*.json`` the problem (``variables``, ``hypotheses``, ``goal``:
sympy-syntax strings, read by the kernel's ``parse_term``) is evaluated with the independent
Lean evaluator (:mod:`prover.semantics.lean_eval`) at random points: small rationals, 0,
negatives, values next to the bounds that simple hypotheses (``0 < a``, ``a ≤ 1``) give, equal
coordinates (where inequalities are tight). Each equality hypothesis is solved for one of its
variables when it is polynomial in it after clearing denominators (degree 1 and 2 in closed
form, higher degrees by exact real-root isolation); the root may be irrational, and is then
an exact-arithmetic enclosure. A point counts when every hypothesis is true at it (a solved
equality only needs to be not false). The goal must never be definitely false there.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from prover.semantics.lean_eval import Enclosure, Undecidable, eval_rel_term, eval_term, root_bounds

SPECIAL = tuple(Fraction(v) for v in (
    1, 1, 2, "1/2", 3, "1/3", "2/3", "3/2", 4, "1/4", "3/4", 5, "5/4", "4/5", 10, "1/10", 100, "1/100",
    "1/1000", "999/1000", "1001/1000", "7/3", "3/7"))


@dataclass
class Bound:
    lo: Fraction | None = None
    lo_strict: bool = False
    hi: Fraction | None = None
    hi_strict: bool = False


@dataclass
class Violation:
    point: dict[str, str]
    goal: str
    lhs: str
    rhs: str


@dataclass
class FileCheck:
    """The outcome for one proof file."""

    file: str
    name: str = ""
    variables: list[str] = field(default_factory=list)
    points_tried: int = 0
    points_satisfying: int = 0
    violations: list[Violation] = field(default_factory=list)
    undecided: int = 0
    solved: list[str] = field(default_factory=list)  # "var from hypothesis" per solved equality
    error: str | None = None
    duration_s: float = 0.0


# ---------------------------------------------------------------- reading a proof file


def load_problem(path: Path) -> tuple[str, list[str], list[tuple[str, Any]], Any]:
    """``(name, variables, [(hypothesis name, Rel)], goal Rel)`` of a proof file's problem."""
    from prover.kernel.terms import Rel, parse_term

    d = json.loads(Path(path).read_text())
    prob = d["problem"]
    vs = list(prob["variables"])

    def rel(r: dict) -> Rel:
        return Rel(parse_term(r["lhs"], vs), r["op"], parse_term(r["rhs"], vs))

    hyps = [(h.get("name", f"h{i}"), rel(h)) for i, h in enumerate(prob.get("hypotheses", []))]
    return str(prob.get("name", Path(path).stem)), vs, hyps, rel(prob["goal"])


def load_goals(path: Path) -> list[Any]:
    """The goal Rels of a proof file: every part of a conjunction goal (``goal_parts``), else the
    one ``goal``."""
    from prover.kernel.terms import Rel, parse_term

    prob = json.loads(Path(path).read_text())["problem"]
    vs = list(prob["variables"])
    return [Rel(parse_term(r["lhs"], vs), r["op"], parse_term(r["rhs"], vs))
            for r in (prob.get("goal_parts") or [prob["goal"]])]


def simple_bounds(variables: list[str], hyps: list[tuple[str, Any]]) -> dict[str, Bound]:
    """Bounds ``c < v``, ``v ≤ c`` … read off hypotheses comparing a variable with a constant."""
    from prover.kernel import terms as T

    out = {v: Bound() for v in variables}
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
    for _, r in hyps:
        lhs, op, rhs = r.lhs, r.op, r.rhs
        if isinstance(lhs, T.Num) and isinstance(rhs, T.Var) and op in flip:
            lhs, op, rhs = rhs, flip[op], lhs
        if not (isinstance(lhs, T.Var) and isinstance(rhs, T.Num) and op in flip):
            continue
        b, c = out[lhs.name], rhs.value
        if op in (">", ">=") and (b.lo is None or c > b.lo or (c == b.lo and op == ">")):
            b.lo, b.lo_strict = c, op == ">"
        if op in ("<", "<=") and (b.hi is None or c < b.hi or (c == b.hi and op == "<")):
            b.hi, b.hi_strict = c, op == "<"
    return out


# ---------------------------------------------------------------- sampling


def sample_value(rng: random.Random, b: Bound) -> Fraction:
    """A value of one variable: inside its simple bounds most of the time, often near them."""
    r = rng.random()
    eps = Fraction(1, 10 ** rng.randint(1, 6))
    if b.lo is not None and b.hi is not None:
        span = b.hi - b.lo
        if r < 0.15:
            return b.lo + (eps * span if b.lo_strict else 0)
        if r < 0.3:
            return b.hi - (eps * span if b.hi_strict else 0)
        return b.lo + span * Fraction(rng.randint(1, 99), 100)
    if b.lo is not None:
        if r < 0.15:
            return b.lo + (eps if b.lo_strict else 0)
        if r < 0.25:
            return b.lo + eps
        if r < 0.7:
            return b.lo + rng.choice(SPECIAL)
        return b.lo + Fraction(rng.randint(1, 40), rng.randint(1, 12))
    if b.hi is not None:
        if r < 0.15:
            return b.hi - (eps if b.hi_strict else 0)
        if r < 0.6:
            return b.hi - rng.choice(SPECIAL)
        return b.hi - Fraction(rng.randint(1, 40), rng.randint(1, 12))
    if r < 0.1:
        return Fraction(0)
    if r < 0.6:
        return rng.choice(SPECIAL) * rng.choice((1, 1, -1))
    return Fraction(rng.randint(-30, 30), rng.randint(1, 9))


# ---------------------------------------------------------------- equality constraints


def _to_sympy(t: Any):
    import sympy as sp

    from prover.kernel import terms as T

    if isinstance(t, T.Num):
        return sp.Rational(t.value.numerator, t.value.denominator)
    if isinstance(t, T.Var):
        return sp.Symbol(t.name)
    if isinstance(t, T.Add):
        return sp.Add(*(_to_sympy(a) for a in t.args))
    if isinstance(t, T.Mul):
        return sp.Mul(*(_to_sympy(a) for a in t.args))
    if isinstance(t, T.Pow):
        return sp.Pow(_to_sympy(t.base), t.exp)
    raise ValueError("not a rational function")


@dataclass
class Solver:
    """Solves ``hyp`` (an equality) for ``var``: ``coeffs[k]`` is the kernel term of the
    coefficient of ``var**k`` in the numerator of ``lhs - rhs``; ``den`` its denominator."""

    hyp: str
    var: str
    coeffs: list[Any]
    den: Any

    def roots(self, point: dict[str, Any], rng: random.Random) -> list[Enclosure]:
        """Enclosures of the real roots at ``point`` (the other variables set)."""
        cs = [eval_term(c, point) for c in self.coeffs]
        if not all(c.is_exact for c in cs):
            raise Undecidable("inexact coefficient")
        q = [c.lo for c in cs]
        while q and q[-1] == 0:
            q.pop()
        if len(q) <= 1:
            return []
        if len(q) == 2:
            return [Enclosure.exact(-q[0] / q[1])]
        if len(q) == 3:
            c0, c1, c2 = q
            disc = c1 * c1 - 4 * c2 * c0
            if disc < 0:
                return []
            lo, hi = root_bounds(disc, 2)
            out = []
            for s in (1, -1):
                a, b = (-c1 + s * lo) / (2 * c2), (-c1 + s * hi) / (2 * c2)
                out.append(Enclosure(min(a, b), max(a, b)))
            return out
        import sympy as sp

        v = sp.Symbol(self.var)
        poly = sp.Poly([sp.Rational(c.numerator, c.denominator) for c in reversed(q)], v)
        out = []
        for (s, t), _ in poly.intervals(eps=sp.Rational(1, 10 ** 40)):
            out.append(Enclosure(Fraction(int(s.p), int(s.q)), Fraction(int(t.p), int(t.q))))
        return out


def plan_equalities(variables: list[str], hyps: list[tuple[str, Any]]) -> tuple[list[Solver], list[str]]:
    """One solver per equality hypothesis that can be solved (distinct variables); notes."""
    import sympy as sp

    from prover.kernel.terms import parse_term

    solvers: list[Solver] = []
    notes: list[str] = []
    used: set[str] = set()   # solved, or occurring in an equation solved earlier
    for name, r in hyps:
        if r.op != "=":
            continue
        try:
            num, den = sp.fraction(sp.cancel(sp.together(_to_sympy(r.lhs) - _to_sympy(r.rhs))))
        except ValueError:
            notes.append(f"{name}: not a rational function; rejection sampling")
            continue
        best: tuple[int, str] | None = None
        for v in reversed(variables):
            sv = sp.Symbol(v)
            if v in used or not num.has(sv):
                continue
            deg = sp.Poly(num, sv).degree()
            if deg >= 1 and (best is None or deg < best[0]):
                best = (deg, v)
        if best is None or best[0] > 6:
            notes.append(f"{name}: no variable to solve for; rejection sampling")
            continue
        v = best[1]
        used |= {u for u in variables if num.has(sp.Symbol(u)) or den.has(sp.Symbol(u))}
        p = sp.Poly(num, sp.Symbol(v))
        coeffs = [parse_term(str(p.coeff_monomial(sp.Symbol(v) ** k)), variables) for k in range(p.degree() + 1)]
        solvers.append(Solver(name, v, coeffs, parse_term(str(den), variables)))
        notes.append(f"{v} from {name} (degree {best[0]})")
    return solvers, notes


# ---------------------------------------------------------------- the check


def _holds(rel: Any, point: dict[str, Any], solved: bool) -> bool:
    verdict = eval_rel_term(rel, point).verdict
    return verdict is True or (solved and verdict is None)


def _candidates(variables: list[str], bounds: dict[str, Bound], solvers: list[Solver],
                rng: random.Random) -> Iterator[dict[str, Any]]:
    """Candidate points forever (``{}`` when an equality had no usable root)."""
    solved = {s.var for s in solvers}
    free = [v for v in variables if v not in solved]
    while True:
        r = rng.random()
        point: dict[str, Any] = {v: sample_value(rng, bounds[v]) for v in free}
        if r < 0.2 and free:  # all free coordinates equal
            point = dict.fromkeys(free, point[free[0]])
        elif r < 0.35 and len(free) >= 2:  # two equal
            point[rng.choice(free[1:])] = point[free[0]]
        for s in solvers:
            try:
                roots = s.roots(point, rng)
            except (Undecidable, ZeroDivisionError):
                roots = []
            if not roots:
                point = {}
                break
            point[s.var] = rng.choice(roots)
        yield point


def check_file(path: Path, points: int = 1000, seed: int = 0, max_tries: int | None = None) -> FileCheck:
    """Evaluate the root statement of one proof file at up to ``points`` admissible points."""
    start = time.monotonic()
    res = FileCheck(str(path))
    try:
        name, variables, hyps, _ = load_problem(path)
        goals = load_goals(path)
    except Exception as exc:  # noqa: BLE001 - an unreadable file is reported, not fatal
        res.error = f"{type(exc).__name__}: {exc}"
        return res
    res.name, res.variables = name, variables
    bounds = simple_bounds(variables, hyps)
    solvers, res.solved = plan_equalities(variables, hyps)
    solved_names = {s.hyp for s in solvers}
    rng = random.Random(f"{seed}:{name}")
    max_tries = max_tries or 20 * points
    gen = _candidates(variables, bounds, solvers, rng)
    while res.points_tried < max_tries and res.points_satisfying < points:
        point = next(gen)
        res.points_tried += 1
        if not point:
            continue
        try:
            if not all(_holds(r, point, n in solved_names) for n, r in hyps):
                continue
            # a solved equality with a root enclosure: its denominators must not vanish there
            if any(not _den_nonzero(s, point) for s in solvers):
                continue
        except Undecidable:
            continue
        res.points_satisfying += 1
        for g in goals:     # a conjunction goal: every part must hold
            value = eval_rel_term(g, point)
            if value.verdict is None:
                res.undecided += 1
            elif value.verdict is False:
                res.violations.append(Violation({k: str(v) for k, v in point.items()}, g.show(),
                                                str(value.lhs), str(value.rhs)))
    res.duration_s = time.monotonic() - start
    return res


def _den_nonzero(s: Solver, point: dict[str, Any]) -> bool:
    try:
        d = eval_term(s.den, point)
    except Undecidable:
        return False
    return d.lo > 0 or d.hi < 0


def proof_files(root: Path) -> list[Path]:
    root = Path(root)
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.json") if p.parent.name == "proofs")


@dataclass
class ProofsReport:
    files: list[FileCheck] = field(default_factory=list)
    duration_s: float = 0.0

    @property
    def violations(self) -> int:
        return sum(len(f.violations) for f in self.files)

    def to_json(self) -> dict[str, Any]:
        return {
            "files": len(self.files),
            "points_tried": sum(f.points_tried for f in self.files),
            "points_satisfying": sum(f.points_satisfying for f in self.files),
            "violations": self.violations,
            "failures": self.violations + sum(1 for f in self.files if f.error),
            "undecided": sum(f.undecided for f in self.files),
            "errors": [f"{f.file}: {f.error}" for f in self.files if f.error],
            "files_with_few_points": [f.file for f in self.files if f.points_satisfying < 100 and not f.error],
            "duration_s": round(self.duration_s, 2),
            "per_file": [{**asdict(f), "violations": [asdict(v) for v in f.violations[:10]],
                          "duration_s": round(f.duration_s, 3)} for f in self.files],
        }


def check_proofs(root: Path, points: int = 1000, seed: int = 0,
                 progress: Callable[[int, int, FileCheck], None] | None = None) -> ProofsReport:
    """Check every proof file under ``root`` (see the module docstring)."""
    start = time.monotonic()
    rep = ProofsReport()
    files = proof_files(root)
    for i, f in enumerate(files):
        fc = check_file(f, points, seed)
        rep.files.append(fc)
        if progress is not None:
            progress(i + 1, len(files), fc)
    rep.duration_s = time.monotonic() - start
    return rep
