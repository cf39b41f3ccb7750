"""FALSE variants of benchmark problems: the bound moved past its extremal value.

For a goal ``small <= big`` (or ``big >= small``; strict alike) we locate numerically the point
``x*`` of least normalized slack under the hypotheses (sampling plus local optimization from
many starts, fixed seed, fixed amount of work), then move the bound past the value there by a
relative margin ``delta``:

* ``big`` is a constant ``C``: replace it by a simple rational below ``small(x*)``
  (Nesbitt ``3/2 <= ...`` becomes ``8/5 <= ...``);
* ``small`` is a constant: replace it by a simple rational above ``big(x*)``;
* otherwise, when both sides are positive at ``x*``: ``small <= c * big`` with a simple rational
  ``c`` below ``small(x*) / big(x*)``; else ``small <= big - e`` with ``e`` above the slack there.

A variant is only emitted when :func:`prover.oracles.find_counterexample`-style exact
confirmation succeeds for it (first at ``x*`` itself, then by a short search); the confirmed
counterexample is stored in ``problem.meta["counterexample"]``. Otherwise ``None`` (the reason
is in :func:`false_variant_report`).

Deterministic: every search is bounded by an amount of work (rounds of samples, local starts),
never by the clock, so the same seed gives the same variants and counterexamples on any machine
and under any load, and ``python -m prover.variants`` regenerates byte-identical files (times
go to stderr, not into them). ``time_limit`` only stops trying further candidates once spent.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy as sp

from prover.frontend import PrintError, print_relation, print_theorem
from prover.ir import Goal
from prover.oracles.model import Counterexample, GoalModel, Unsupported
from prover.oracles.numeric import _explore, minimize_slack, search_boundary
from prover.problem import Problem, Relation

#: Relative margins tried in turn (the first gives e.g. Nesbitt 3/2 -> 8/5).
DELTAS = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 5))
SEED = 20240601
SUFFIX = "__false"
#: Rounds of samples (each followed by local descents) of the search that confirms a variant.
SEARCH_ROUNDS = 3


@dataclass
class VariantReport:
    name: str
    variant: Problem | None
    reason: str  # why no variant, or how the variant was made
    seconds: float
    counterexample: Counterexample | None = None


def simplest_rational_between(lo: float, hi: float, max_den: int = 10**6) -> Fraction | None:
    """The rational with the smallest denominator strictly inside ``(lo, hi)``."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        return None
    for q in range(1, max_den + 1):
        p = math.floor(lo * q) + 1
        if Fraction(p, q) < Fraction(hi) and Fraction(p, q) > Fraction(lo):
            return Fraction(p, q)
        if q > 64 and (hi - lo) * q > 4:
            break
    return None


def _rat(f: Fraction) -> sp.Rational:
    return sp.Rational(f.numerator, f.denominator)


def _sides(rel: Relation) -> tuple[sp.Expr, sp.Expr, bool]:
    """(small, big, big_is_lhs) for an inequality ``small <= big``."""
    lhs, rhs = sp.sympify(rel.lhs), sp.sympify(rel.rhs)
    if rel.op in (">=", ">"):
        return rhs, lhs, True
    return lhs, rhs, False


def _with_sides(rel: Relation, small: sp.Expr, big: sp.Expr) -> Relation:
    return Relation(big, rel.op, small) if rel.op in (">=", ">") else Relation(small, rel.op, big)


def _float(e: sp.Expr, model: GoalModel, x: np.ndarray) -> float:
    f = sp.lambdify(model.syms, e, modules="numpy")
    with np.errstate(all="ignore"):
        v = complex(f(*x))
    return v.real if abs(v.imag) == 0 else float("nan")


def _candidate_goals(rel: Relation, model: GoalModel, x: np.ndarray, delta: Fraction):
    """Variant targets (with a description) for one margin ``delta``."""
    small, big, _ = _sides(rel)
    d = float(delta)
    x = model.original_point(x[None, :])[0]
    s_val, b_val = _float(small, model, x), _float(big, model, x)
    if not (math.isfinite(s_val) and math.isfinite(b_val)):
        return
    if big.is_number and not small.is_number:
        scale = abs(s_val) if abs(s_val) > 1e-9 else 1.0
        c = simplest_rational_between(s_val - 2 * d * scale, s_val - d * scale)
        if c is not None:
            yield _with_sides(rel, small, _rat(c)), f"constant {big} -> {c} (extremum {s_val:.6g})"
        return
    if small.is_number and not big.is_number:
        scale = abs(b_val) if abs(b_val) > 1e-9 else 1.0
        c = simplest_rational_between(b_val + d * scale, b_val + 2 * d * scale)
        if c is not None:
            yield _with_sides(rel, _rat(c), big), f"constant {small} -> {c} (extremum {b_val:.6g})"
        return
    if s_val > 1e-9 and b_val > 1e-9:
        rho = s_val / b_val
        c = simplest_rational_between(rho * (1 - 2 * d), rho * (1 - d))
        if c is not None:
            yield _with_sides(rel, small, _rat(c) * big), f"scaled the larger side by {c} (ratio {rho:.6g})"
    gap = b_val - s_val
    scale = max(abs(s_val), abs(b_val), 1e-3)
    e = simplest_rational_between(gap + d * scale, gap + 2 * d * scale)
    if e is not None:
        yield _with_sides(rel, small, big - _rat(e)), f"shifted the larger side by {e} (gap {gap:.6g})"


def _make_variant(problem: Problem, target: Relation, how: str, delta: Fraction) -> Problem:
    """The variant problem; ``meta["lean"]`` is the *variant's* statement (not the original's)."""
    meta = {k: v for k, v in problem.meta.items() if k not in ("lean", "lean_name")}
    v = Problem(problem.name + SUFFIX, list(problem.variables), list(problem.hypotheses), target,
                problem.real_division, problem.source,
                {**meta, "variant_of": problem.name, "variant": "false", "how": how, "delta": str(delta)})
    try:
        v.meta["lean"] = _lean_text(v)
    except PrintError:
        pass  # no Lean text; the Problem itself is what gets attempted
    return v


def search_fixed(model: GoalModel, seed: int = SEED, rounds: int = SEARCH_ROUNDS) -> Counterexample | None:
    """:func:`prover.oracles.numeric.search_model`'s order (boundary points, then the first sampled
    or locally optimized point with a negative slack, confirmed exactly), with a fixed amount of
    work instead of a deadline: the same answer on every machine."""
    ce = search_boundary(model, math.inf)
    if ce is not None or model.target.op in ("=", "!="):
        return ce
    thr = 1e-12 if model.target.strict else 0.0
    for norm, x, how in _explore(model, np.random.default_rng(seed), math.inf, rounds=rounds):
        if norm < thr:
            ce = model.confirm(x, f"numeric:{how}")
            if ce is not None:
                return ce
    return None


def false_variant_report(problem: Problem, time_limit: float = 20.0, seed: int = SEED) -> VariantReport:
    """Make and confirm a FALSE variant of ``problem`` (see the module docstring)."""
    t0 = time.monotonic()
    deadline = t0 + time_limit

    def done(variant: Problem | None, reason: str, ce: Counterexample | None = None) -> VariantReport:
        return VariantReport(problem.name, variant, reason, time.monotonic() - t0, ce)

    rel = problem.goal
    if not rel.is_inequality:
        return done(None, f"goal is not an inequality ({rel.op})")
    try:
        model = GoalModel(Goal.from_problem(problem))
    except Unsupported as exc:
        return done(None, f"unsupported: {exc}")
    small, big, _ = _sides(rel)
    f_small, f_big = (sp.lambdify(model.syms, e, modules="numpy") for e in (small, big))

    def nondegenerate(X: np.ndarray) -> np.ndarray:
        """Both sides clearly nonzero: a degenerate ``0 <= 0`` point makes a poor extremum."""
        X = model.original_point(X)
        cols = [X[:, i] for i in range(X.shape[1])]
        with np.errstate(all="ignore"):
            s = np.abs(np.broadcast_to(np.asarray(f_small(*cols), dtype=complex), (X.shape[0],)))
            b = np.abs(np.broadcast_to(np.asarray(f_big(*cols), dtype=complex), (X.shape[0],)))
        return np.minimum(s, b) > 1e-6 * np.maximum(1.0, np.maximum(s, b))

    best = minimize_slack(model, seed=seed, accept=nondegenerate)   # fixed work: no deadline
    if best is None:
        return done(None, "no feasible point found for the hypotheses")
    norm, x = best
    if norm < -1e-9:  # the statement itself looks false (567neq/P1): it is its own false variant
        ce = search_fixed(model, seed)
        if ce is not None:
            variant = _make_variant(problem, rel, "the statement itself is false", Fraction(0))
            variant.meta["counterexample"] = ce.to_json()
            return done(variant, "the statement itself is false", ce)
    for delta in DELTAS:
        for target, how in _candidate_goals(rel, model, x, delta):
            variant = _make_variant(problem, target, how, delta)
            try:
                vmodel = GoalModel(Goal.from_problem(variant))
            except Unsupported as exc:
                return done(None, f"unsupported: {exc}")
            ce = vmodel.confirm(x, "numeric:extremum") or search_fixed(vmodel, seed)
            if ce is not None:
                variant.meta["counterexample"] = ce.to_json()
                return done(variant, how, ce)
            if time.monotonic() >= deadline:
                return done(None, "time limit: no variant confirmed")
    return done(None, "no variant could be confirmed exactly")


def false_variant(problem: Problem, time_limit: float = 20.0) -> Problem | None:
    """A confirmed FALSE variant named ``<name>__false``, or None (see :func:`false_variant_report`)."""
    return false_variant_report(problem, time_limit).variant


def _lean_text(problem: Problem) -> str:
    return print_theorem(problem)


def _rel_text(r: Relation) -> str:
    return print_relation(Relation(sp.sympify(r.lhs), r.op, sp.sympify(r.rhs)))


def false_variants_jsonl(src: str | Path, dst: str | Path, time_limit: float = 20.0) -> list[VariantReport]:
    """Write the confirmed FALSE variants of the benchmark file ``src`` to ``dst`` (JSONL).

    Records follow the benchmark format (``id``, ``source``, ``lean``, ``variables``,
    ``hypotheses``, ``hypothesis_names``, ``goal``, ``notes``) plus ``variant_of``, ``how`` and
    ``counterexample``. Returns one report per source problem (also those without a variant).
    """
    from prover.frontend import load_benchmark

    reports = []
    with open(dst, "w", encoding="utf-8") as out:
        for p in load_benchmark(src):
            rep = false_variant_report(p, time_limit)
            reports.append(rep)
            if rep.variant is None:
                continue
            try:
                rec = variant_record(rep.variant)
            except PrintError as exc:
                rep.reason += f" (not written: no Lean text: {exc})"
                continue
            if not _reads_back(rec["lean"], rep.variant):
                rep.reason += " (not written: its Lean text does not parse back to the variant)"
                continue
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return reports


def _reads_back(lean: str, v: Problem) -> bool:
    """The written statement must be the one whose counterexample was confirmed."""
    from prover.frontend import parse_theorem

    try:
        q = parse_theorem(lean, real_division=True)
    except Exception:  # noqa: BLE001 - any parse failure means "does not read back"
        return False
    return q.goal == v.goal and [h.rel for h in q.hypotheses] == [h.rel for h in v.hypotheses]


def variant_record(v: Problem) -> dict:
    """A benchmark-format JSON record for a variant."""
    return {"id": v.name, "source": v.source, "lean": _lean_text(v), "variables": list(v.variables),
            "hypotheses": [_rel_text(h.rel) for h in v.hypotheses],
            "hypothesis_names": [h.name for h in v.hypotheses],
            "goal": _rel_text(v.goal), "notes": [f"FALSE variant: {v.meta.get('how')}"],
            "variant_of": v.meta.get("variant_of"), "how": v.meta.get("how"),
            "counterexample": v.meta.get("counterexample")}


def report_markdown(reports: list[VariantReport], command: str) -> str:
    """``results/false_variants.md``: one row per problem and the totals (no timing: the file is
    reproducible byte for byte)."""
    made = [r for r in reports if r.variant is not None]
    lines = ["# FALSE variants of the benchmark problems", "",
             f"Command: `{command}`", "",
             (f"**{len(made)} / {len(reports)}** problems got a FALSE variant whose counterexample was "
             "confirmed exactly (rational or algebraic point, rigorous interval/exact sign checks)."),
             ("Deterministic (fixed seed and amount of work): rerunning the command gives this file "
              "byte for byte; times are printed on stderr, not kept here."), "",
             "| problem | variant | how the bound moved | counterexample |", "|---|---|---|---|"]
    for r in reports:
        ce = r.counterexample
        pt = ", ".join(f"{k}={v}" for k, v in ce.items()) if ce is not None else ""
        if len(pt) > 60:
            pt = pt[:57] + "..."
        status = "yes" if r.variant is not None else "**no**"
        lines.append(f"| {r.name} | {status} | {r.reason.replace('|', '/')} | {pt} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m prover.variants BENCH.jsonl... --out V.jsonl [--report R.md]``."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m prover.variants", description=main.__doc__)
    ap.add_argument("benchmarks", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True, help="JSONL of the confirmed variants")
    ap.add_argument("--report", type=Path, help="markdown table of all problems")
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args(argv)
    reports: list[VariantReport] = []
    parts = []
    for i, src in enumerate(args.benchmarks):
        dst = args.out if len(args.benchmarks) == 1 else args.out.with_suffix(f".part{i}")
        reports += false_variants_jsonl(src, dst, args.time_limit)
        parts.append(dst)
        print(f"{src}: {sum(r.variant is not None for r in reports)} variants so far", file=sys.stderr)
    if len(parts) > 1:
        with open(args.out, "w", encoding="utf-8") as out:
            for part in parts:
                out.write(part.read_text(encoding="utf-8"))
                part.unlink()
    secs = sorted(r.seconds for r in reports)
    if secs:
        print(f"time per problem: median {secs[len(secs) // 2]:.1f} s, max {secs[-1]:.1f} s, "
              f"total {sum(secs):.0f} s", file=sys.stderr)
    if args.report:
        cmd = "python -m prover.variants " + " ".join(map(str, args.benchmarks)) + f" --out {args.out}" \
              + f" --report {args.report} --time-limit {args.time_limit:g}"
        args.report.write_text(report_markdown(reports, cmd), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
