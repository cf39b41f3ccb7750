"""The proof page (``proof.html``): one self-contained, offline HTML file.

What it shows, top to bottom: a verdict banner (the kernel's verdict, the time, the command), the
theorem (Lean text and typeset), the steps as nested ``<details>`` with every formula typeset as
MathML (which browsers render natively) and every fact the step uses, the equality case, a plot
of both sides of the goal along a line through the equality case (an inline SVG), statistics as a
table — and beside the steps the rendered Lean file (or the reason the renderer refused it).

Formulas are typeset from the exact sympy expressions; their text form, everywhere on the page
(tooltips, "as Lean text", certificates), is Lean's (:mod:`prover.search.proof_text`). The equality
case and the plot are floating-point samples for display only: nothing on the page is part of
the proof, which is ``proof.json`` and the kernel's verdict on it.
"""

from __future__ import annotations

import html
import json
import math
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.problem import Relation
from prover.search.proof_text import (
    application_facts,
    case_hypotheses,
    certificate_summary,
    lean_certificate,
    read_relation,
    show_expr,
    show_goal,
    show_relation,
    step_facts,
    step_variables,
)

e = html.escape

# ---------------------------------------------------------------- the verdict


@dataclass(frozen=True)
class PageVerdict:
    """What the banner says. ``accepted`` None: no verdict recorded (the page says so)."""

    accepted: bool | None
    checker: str = "kernel"
    time_s: float | None = None
    command: str | None = None
    detail: str = ""


def command_line(argv: Sequence[str] | None = None) -> str | None:
    """The ``prover …`` command being run (None when not run from the ``prover`` command)."""
    argv = list(sys.argv if argv is None else argv)
    if not argv:
        return None
    parts = argv[0].replace("\\", "/").split("/")
    if parts[-1] in ("prover", "prover.exe") or parts[-2:] == ["prover", "__main__.py"]:
        return shlex.join(["prover", *argv[1:]])
    return None


def page_verdict(result: Any, command: str | None = None) -> PageVerdict:
    """The banner for a search result (``prover.api.ProveResult``): ``"proved"`` is returned only
    after the kernel accepted the proof (:func:`prover.search.driver.prove_problem`)."""
    stats = getattr(result, "stats", None) or {}
    kt = stats.get("kernel_time_s")
    detail = f"kernel check {float(kt):.2f} s" if isinstance(kt, (int, float)) else ""
    status = getattr(result, "status", None)
    return PageVerdict(True if status == "proved" else None if status is None else False, "kernel",
                       getattr(result, "time_s", None), command if command is not None else command_line(),
                       detail)


def check_verdict(proof: Proof, command: str | None = None) -> PageVerdict:
    """Run the kernel on ``proof`` now and report its verdict (for pages made from a saved proof)."""
    from prover.verify import check_proof

    t0 = time.monotonic()
    v = check_proof(proof)
    dt = time.monotonic() - t0
    detail = f"checked again while writing this page ({dt:.2f} s)"
    if not v.ok and v.errors:
        detail += ": " + v.errors[0]
    return PageVerdict(bool(v.ok), "kernel", None, command, detail)


def _as_verdict(v: PageVerdict | dict | None) -> PageVerdict:
    if v is None:
        return PageVerdict(None)
    if isinstance(v, dict):
        return PageVerdict(v.get("accepted"), v.get("checker", "kernel"), v.get("time_s"), v.get("command"),
                           v.get("detail", ""))
    return v


def verdict_banner(v: PageVerdict) -> str:
    if v.accepted is True:
        cls, mark, head = "ok", "✔", f"Proof accepted by the {v.checker}"
    elif v.accepted is False:
        cls, mark, head = "bad", "✘", f"Proof NOT accepted by the {v.checker}"
    else:
        cls, mark, head = "unknown", "?", "No verdict recorded on this page"
    bits = [f"<span class='mark'>{mark}</span> <strong id='verdict'>{e(head)}</strong>"]
    if v.time_s is not None:
        bits.append(f"<span class='time'>found in {v.time_s:.2f} s</span>")
    if v.detail:
        bits.append(f"<span class='detail'>{e(v.detail)}</span>")
    out = f"<header class='verdict {cls}' data-verdict='{cls}'><p>{' · '.join(bits)}</p>"
    if v.command:
        out += f"<p class='command'>command: <code>{e(v.command)}</code></p>"
    if v.accepted is None:
        out += "<p class='command'>check it with <code>prover check proof.json</code></p>"
    return out + "</header>"


# ---------------------------------------------------------------- MathML

_OPS = {"<=": "≤", "<": "&lt;", ">=": "≥", ">": "&gt;", "=": "=", "!=": "≠"}
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")


def _numeric_entities(s: str) -> str:
    """sympy writes ``&InvisibleTimes;``: keep the page valid as XML too (numeric references)."""
    def one(m: re.Match) -> str:
        if m.group(1) in ("lt", "gt", "amp", "quot", "apos"):
            return m.group(0)
        ch = html.unescape(m.group(0))
        return "".join(f"&#{ord(c)};" for c in ch) if ch != m.group(0) else m.group(0)
    return _ENTITY.sub(one, s)


def mathml_body(expr: Any) -> str | None:
    """Presentation MathML (without ``<math>``) of an expression, or None."""
    try:
        from sympy.printing.mathml import mathml

        text = _numeric_entities(mathml(sp.sympify(expr), printer="presentation"))
    except Exception:  # noqa: BLE001 - fall back to Lean text
        return None
    return text.replace("<mo>-</mo>", "<mo>&#8722;</mo>")    # a minus sign, not a hyphen


def _math(body: str | None, lean_text: str, display: bool = False) -> str:
    if body is None:
        return f"<code class='lean'>{e(lean_text)}</code>"
    disp = " display='block'" if display else ""
    return (f"<math{disp} title='{e(lean_text, quote=True)}'><semantics><mrow>{body}</mrow>"
            f"<annotation encoding='application/x-lean'>{e(lean_text)}</annotation></semantics></math>")


def math_expr(expr: Any, display: bool = False) -> str:
    return _math(mathml_body(expr), show_expr(expr), display)


def math_relation(r: Relation, display: bool = False) -> str:
    lhs, rhs = mathml_body(r.lhs), mathml_body(r.rhs)
    body = None if lhs is None or rhs is None else f"{lhs}<mo>{_OPS.get(r.op, e(r.op))}</mo>{rhs}"
    return _math(body, show_relation(r), display)


# ---------------------------------------------------------------- numbers (display only)


def _symbols(goal: Goal) -> list[sp.Symbol]:
    by_name: dict[str, sp.Symbol] = {}
    for r in (goal.target, *goal.hypotheses):
        for s in sp.sympify(r.lhs - r.rhs).free_symbols:
            if isinstance(s, sp.Symbol):
                by_name.setdefault(s.name, s)
    return [by_name.get(v, sp.Symbol(v, real=True)) for v in goal.variables]


def _float_fn(syms: list[sp.Symbol], expr: Any) -> Callable[..., float]:
    f = sp.lambdify(syms, sp.sympify(expr), "math")

    def call(*xs: float) -> float:
        try:
            v = f(*xs)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return math.nan
        if isinstance(v, complex):
            return v.real if abs(v.imag) <= 1e-12 * (1 + abs(v.real)) else math.nan
        try:
            return float(v)
        except (TypeError, ValueError):
            return math.nan
    return call


@dataclass
class EqualityCase:
    """A point where the goal is tight (``exact``: exactly; else the least gap sampling found)."""

    point: dict[str, str]          # variable -> value (Lean text, or a decimal when numeric)
    floats: dict[str, float]
    exact: bool
    lhs: float
    rhs: float
    how: str

    @property
    def gap(self) -> float:
        return abs(self.lhs - self.rhs)

    @property
    def tight(self) -> bool:
        return self.exact or self.gap <= 1e-6 * (1 + abs(self.lhs) + abs(self.rhs))


def equality_case(goal: Goal, budget_s: float = 2.0) -> EqualityCase | None:
    """Where the goal is tight: the exact symmetric point of
    :func:`prover.rewrite.points.equal_variables_point` (all variables equal), else the point of least
    slack found by the counterexample oracle's sampling (:func:`prover.oracles.numeric.minimize_slack`)."""
    syms = _symbols(goal)
    if not syms:
        return None
    lhs_f, rhs_f = _float_fn(syms, goal.target.lhs), _float_fn(syms, goal.target.rhs)
    try:
        from prover.rewrite.points import equal_variables_point

        exact = equal_variables_point(goal)
    except Exception:  # noqa: BLE001 - display only
        exact = None
    if exact:
        vals = {s.name: exact.get(s, exact.get(sp.Symbol(s.name, real=True), None)) for s in syms}
        if all(v is not None for v in vals.values()):
            fl = {k: float(v) for k, v in vals.items()}
            xs = [fl[s.name] for s in syms]
            return EqualityCase({k: show_expr(v) for k, v in vals.items()}, fl, True, lhs_f(*xs), rhs_f(*xs),
                                "all variables equal; checked exactly")
    try:
        from prover.oracles.model import GoalModel
        from prover.oracles.numeric import minimize_slack

        model = GoalModel(goal)
        best = minimize_slack(model, rounds=1, starts=4, deadline=time.monotonic() + budget_s)
    except Exception:  # noqa: BLE001 - display only
        return None
    if best is None:
        return None
    x = best[1]
    fl = {s.name: float(x[i]) ** model.powers.get(s, 1) for i, s in enumerate(model.syms)}
    xs = [fl[s.name] for s in syms]
    lhs, rhs = lhs_f(*xs), rhs_f(*xs)
    if not (math.isfinite(lhs) and math.isfinite(rhs)):
        return None
    return EqualityCase({k: f"{v:.6g}" for k, v in fl.items()}, fl, False, lhs, rhs,
                        "least slack found by sampling (floating point)")


@dataclass
class Series:
    variable: str
    xs: list[float]
    lhs: list[float]
    rhs: list[float]
    x0: float
    held: str


def slack_series(goal: Goal, point: dict[str, float], n: int = 300) -> Series | None:
    """Both sides of the target along a line through ``point``: one variable moves, the others
    stay (variables bound by an equality hypothesis are solved from it). Floats, display only."""
    syms = _symbols(goal)
    if not syms or any(s.name not in point for s in syms):
        return None
    usable, model = _equality_model(goal)
    if not usable:
        return None
    target_syms = sp.sympify(goal.target.lhs - goal.target.rhs).free_symbols
    free = [s for s in (model.free if model is not None else syms) if s in target_syms] or \
           list(model.free if model is not None else syms)
    if not free:
        return None
    mover = free[0]
    p = point[mover.name]
    lo, hi = _sample_range(goal, model, mover, p)
    grid = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
    xs, ls, rs = _sample_sides(goal, syms, model, mover, point, grid)
    if sum(1 for a, b in zip(ls, rs) if math.isfinite(a) and math.isfinite(b)) < 10:
        return None
    others = [s.name for s in syms if s != mover]
    solved = {str(el.dep) for el in model.elims} if model is not None else set()
    held = ", ".join(f"{v} solved from the constraint" if v in solved else f"{v} = {point[v]:.4g}" for v in others)
    return Series(mover.name, xs, ls, rs, p, held)


def _equality_model(goal: Goal) -> tuple[bool, Any]:
    """(usable, the oracle's model) for a goal with equality hypotheses, which solves the
    constrained variables from them; (True, None) without equalities, (False, None) if it fails."""
    if not any(h.op == "=" for h in goal.hypotheses):
        return True, None
    try:
        from prover.oracles.model import GoalModel

        return True, GoalModel(goal)
    except Exception:  # noqa: BLE001 - display only: no plot
        return False, None


def _sample_range(goal: Goal, model: Any, mover: sp.Symbol, p: float) -> tuple[float, float]:
    """The interval the moving variable sweeps, around its value ``p`` at the point."""
    kind = model.kind.get(mover, "free") if model is not None else _sign_kind(goal, mover)
    if kind != "free" or p > 0:
        return (p / 40, 3 * p) if p > 0 else (0.0, 2.0)
    w = 2 * max(1.0, abs(p))
    return p - w, p + w


def _sample_sides(goal: Goal, syms: list[sp.Symbol], model: Any, mover: sp.Symbol, point: dict[str, float],
                  grid: list[float]) -> tuple[list[float], list[float], list[float]]:
    """(xs, lhs, rhs) along ``grid``: NaN where a hypothesis fails or the model finds no point."""
    import numpy as np

    powers = model.powers if model is not None else {}
    k = powers.get(mover, 1)
    lhs_f, rhs_f = _float_fn(syms, goal.target.lhs), _float_fn(syms, goal.target.rhs)
    hyp_fs = [(_float_fn(syms, h.slack()), h.strict) for h in goal.hypotheses if h.op not in ("=", "!=")]
    xs, ls, rs = [], [], []
    x_model0 = None
    if model is not None and model.elims:
        x_model0 = np.array([point[s.name] ** (1.0 / powers.get(s, 1)) for s in model.syms])
    refs = model.dep_values(x_model0) if x_model0 is not None else None
    for t in grid:
        vals = dict(point)
        vals[mover.name] = t
        if x_model0 is not None:
            if t < 0 and k != 1:
                continue
            free_vals = np.array([(t if s == mover else point[s.name]) ** (1.0 / powers.get(s, 1))
                                  for s in model.free])
            full = model.full_point(free_vals, refs)
            if full is None:
                xs.append(t)
                ls.append(math.nan)
                rs.append(math.nan)
                continue
            refs = model.dep_values(full)
            vals = {s.name: float(full[i]) ** powers.get(s, 1) for i, s in enumerate(model.syms)}
        args = [vals[s.name] for s in syms]
        ok = all(math.isfinite(v := f(*args)) and (v > 0 if strict else v >= -1e-12) for f, strict in hyp_fs)
        xs.append(t)
        ls.append(lhs_f(*args) if ok else math.nan)
        rs.append(rhs_f(*args) if ok else math.nan)
    return xs, ls, rs


def _sign_kind(goal: Goal, s: sp.Symbol) -> str:
    """"pos"/"nonneg" when a hypothesis says ``s > 0``/``s >= 0`` (as the oracle's model reads them)."""
    kind = "free"
    for h in goal.hypotheses:
        if h.op in (">", ">=", "<", "<=") and h.slack() == s:
            if h.strict:
                return "pos"
            kind = "nonneg"
    return kind


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    # float rounding can leave every candidate just below `raw`: then the largest one
    step = next((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), 10 * mag)
    start = math.ceil(lo / step) * step
    ticks, t = [], start
    while t <= hi + 1e-9 * step and len(ticks) <= 4 * n:   # `t += step` may not move a huge t
        ticks.append(round(t, 12))
        t += step
    return ticks or [lo]


def _fmt(v: float) -> str:
    return f"{v:.4g}"


def plot_svg(s: Series, relation_op: str, tight_at: float | None = None,
             width: int = 640, height: int = 320, mark: str = "equality at") -> str:
    """An inline SVG: both sides of the goal against the moving variable; ``tight_at`` is
    marked with a line, a dot and ``mark`` (``equality at a = 1``)."""
    ml, mr, mt, mb = 62, 16, 30, 44
    pw, ph = width - ml - mr, height - mt - mb
    ylo, yhi = _plot_y_range(s, tight_at)
    fr = _PlotFrame(ml, mt, pw, ph, s.xs[0], s.xs[-1], ylo, yhi)
    X, Y = fr.x, fr.y
    parts = [(f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
              f"height='{height}' style='width:100%;max-width:{width}px;height:auto' role='img' "
              f"aria-label='both sides of the goal as {e(s.variable)} varies'>"),
             f"<rect x='{ml}' y='{mt}' width='{pw}' height='{ph}' fill='#fbfbfd' stroke='#99a'/>"]
    for t in _nice_ticks(fr.xlo, fr.xhi):
        parts.append(f"<line x1='{X(t):.1f}' y1='{mt + ph}' x2='{X(t):.1f}' y2='{mt + ph + 5}' stroke='#667'/>"
                     f"<text x='{X(t):.1f}' y='{mt + ph + 18}' text-anchor='middle' class='tick'>{_fmt(t)}</text>")
    for t in _nice_ticks(ylo, yhi):
        parts.append(f"<line x1='{ml - 5}' y1='{Y(t):.1f}' x2='{ml + pw}' y2='{Y(t):.1f}' stroke='#e3e3ea'/>"
                     f"<text x='{ml - 8}' y='{Y(t) + 4:.1f}' text-anchor='end' class='tick'>{_fmt(t)}</text>")
    parts.append(f"<text x='{ml + pw / 2:.1f}' y='{height - 6}' text-anchor='middle' class='axis'>"
                 f"{e(s.variable)}</text>")
    parts.append(f"<path d='{fr.path(s.xs, s.lhs)}' fill='none' stroke='#1f5fbf' stroke-width='2.2'/>")
    parts.append(f"<path d='{fr.path(s.xs, s.rhs)}' fill='none' stroke='#d0562a' stroke-width='2.2' "
                 "stroke-dasharray='7 4'/>")
    if tight_at is not None and fr.xlo <= tight_at <= fr.xhi:
        parts += _tight_marker(s, fr, tight_at, mark)
    parts.append(_plot_legend(ml + pw - 170, mt))
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class _PlotFrame:
    """The plot area of :func:`plot_svg` (SVG units) and the data ranges it shows."""

    ml: int
    mt: int
    pw: int
    ph: int
    xlo: float
    xhi: float
    ylo: float
    yhi: float

    def x(self, x: float) -> float:
        return self.ml + (x - self.xlo) / (self.xhi - self.xlo) * self.pw

    def y(self, y: float) -> float:
        return self.mt + (self.yhi - y) / (self.yhi - self.ylo) * self.ph

    def path(self, xs: list[float], ys: list[float]) -> str:
        """SVG path data for a curve, broken where it is not finite or leaves the y range."""
        segs, cur = [], []
        for x, y in zip(xs, ys):
            if math.isfinite(y) and self.ylo <= y <= self.yhi:
                cur.append(f"{self.x(x):.1f},{self.y(y):.1f}")
            elif cur:
                segs.append(cur)
                cur = []
        if cur:
            segs.append(cur)
        return " ".join("M" + " L".join(sg) for sg in segs if len(sg) > 1)


def _plot_y_range(s: Series, tight_at: float | None) -> tuple[float, float]:
    """The y range of the plot: the 3%–97% quantiles of the values (so that poles do not flatten
    the curves), widened to show the equality point, plus a margin."""
    finite = sorted(v for v in s.lhs + s.rhs if math.isfinite(v))
    q = lambda f: finite[min(len(finite) - 1, max(0, int(f * (len(finite) - 1))))]
    ylo, yhi = q(0.03), q(0.97)
    if tight_at is not None:
        i0 = min(range(len(s.xs)), key=lambda i: abs(s.xs[i] - tight_at))
        at = [v for v in (s.lhs[i0], s.rhs[i0]) if math.isfinite(v)]
        ylo, yhi = min([ylo, *at]), max([yhi, *at])
    if yhi - ylo < 1e-9:
        ylo, yhi = ylo - 1, yhi + 1
    pad = 0.08 * (yhi - ylo)
    return ylo - pad, yhi + pad


def _tight_marker(s: Series, fr: _PlotFrame, tight_at: float, mark: str = "equality at") -> list[str]:
    """The equality case on the plot: a vertical line, a dot on the curve, a label."""
    i0 = min(range(len(s.xs)), key=lambda i: abs(s.xs[i] - tight_at))
    yv = s.lhs[i0] if math.isfinite(s.lhs[i0]) else s.rhs[i0]
    X, mt = fr.x, fr.mt
    parts = [(f"<line x1='{X(tight_at):.1f}' y1='{mt}' x2='{X(tight_at):.1f}' y2='{mt + fr.ph}' "
              "stroke='#2a8a3a' stroke-dasharray='3 3'/>")]
    if math.isfinite(yv) and fr.ylo <= yv <= fr.yhi:
        parts.append(f"<circle cx='{X(tight_at):.1f}' cy='{fr.y(yv):.1f}' r='5' fill='#2a8a3a'/>")
    parts.append(f"<text x='{X(tight_at) + 6:.1f}' y='{mt + 14}' class='eqlabel'>{e(mark)} "
                 f"{e(s.variable)} = {_fmt(tight_at)}</text>")
    return parts


def _plot_legend(lx: int, mt: int) -> str:
    """The legend box (left side solid, right side dashed) at ``lx``, above the plot area."""
    return (f"<g class='legend'><rect x='{lx}' y='{mt - 24}' width='170' height='20' fill='white'/>"
            f"<line x1='{lx + 4}' y1='{mt - 14}' x2='{lx + 30}' y2='{mt - 14}' stroke='#1f5fbf' "
            f"stroke-width='2.2'/><text x='{lx + 34}' y='{mt - 10}' class='tick'>left side</text>"
            f"<line x1='{lx + 92}' y1='{mt - 14}' x2='{lx + 118}' y2='{mt - 14}' stroke='#d0562a' "
            f"stroke-width='2.2' stroke-dasharray='7 4'/><text x='{lx + 122}' y='{mt - 10}' "
            f"class='tick'>right side</text></g>")


# ---------------------------------------------------------------- statistics

_STAT_LABELS = {
    "proof_steps": "proof steps", "proof_depth": "proof depth", "step_kinds": "step kinds",
    "lemmas_used": "lemmas used", "certificate_size": "certificate size (terms)",
    "kernel_time_s": "kernel time (s)", "expansions": "search expansions", "nodes": "search nodes",
    "candidates": "candidate steps", "closer_calls": "closer calls", "closer_time_s": "closer time (s)",
    "cex_calls": "counterexample searches",
}


def _stat_value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    if isinstance(v, (list, tuple)):
        return ", ".join(map(str, v)) if v else "—"
    return str(v)


def _flatten(d: dict, prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for k, v in d.items():
        if isinstance(v, dict):
            out.extend(_flatten(v, f"{prefix}{k}."))
        else:
            out.append((f"{prefix}{k}", v))
    return out


def stats_table(stats: dict) -> str:
    """A two-column table: the main numbers first (labelled), then the rest of the counters."""
    rows = _flatten(stats)
    order = {k: i for i, k in enumerate(_STAT_LABELS)}
    rows.sort(key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    body = "".join(f"<tr><th scope='row'>{e(_STAT_LABELS.get(k, k.replace('_', ' ')))}</th>"
                   f"<td>{e(_stat_value(v))}</td></tr>" for k, v in rows)
    return f"<table class='stats'><tbody>{body}</tbody></table>"


def stats_section(stats: dict) -> str:
    """The statistics under their heading, collapsed: the search's counters are for the curious."""
    n = len(_flatten(stats))
    return (f"<h2>Statistics</h2><details class='stats'><summary>the search's counters ({n})</summary>"
            f"{stats_table(stats)}</details>")


# ---------------------------------------------------------------- steps

_LEAD = {"scale": "using", "introduce": "where", "substitute": "with"}


def _fact_items(step: Step) -> list[str]:
    vs = step_variables(step)
    texts = step_facts(step)
    items: list[str] = []
    if step.kind == "scale":
        for (rel, what, coeff), text in zip(application_facts(step), texts):
            tag = [] if what == "fact" else ["hypothesis" if what == "hypothesis" else f"lemma {what}"]
            if coeff:
                tag.append(f"times {coeff}")
            shown = math_relation(rel) if rel is not None else f"<code class='lean'>{e(text)}</code>"
            items.append(shown + (f" <span class='tag'>{e(', '.join(tag))}</span>" if tag else ""))
        return items
    key = {"introduce": "definitions", "substitute": "substitution"}.get(step.kind)
    if key is None:
        return []
    maps = step.certificate.get(key) or {}
    if not isinstance(maps, dict):
        return []
    for name in maps:
        rel = read_relation({"lhs": name, "op": "=", "rhs": maps[name]}, vs)
        items.append(math_relation(rel) if rel is not None else f"<code class='lean'>{e(name)} = …</code>")
    return items


def _cert_json(step: Step, limit: int = 60_000) -> str:
    text = json.dumps(lean_certificate(step.certificate, step_variables(step)), indent=1, ensure_ascii=False)
    if len(text) > limit:
        text = text[:limit] + f"\n… ({len(text) - limit} more characters: see proof.json)"
    return text


def _html_step(step: Step, parent: Goal | None = None, depth: int = 0) -> str:
    note = f"<span class='note'>{e(step.note)}</span>" if step.note else ""
    parts = [f"<details open class='step' data-kind='{e(step.kind)}'>",
             f"<summary><span class='kind k-{e(step.kind)}'>{e(step.kind)}</span> {note}</summary>"]
    case = case_hypotheses(step, parent)
    if case:
        parts.append("<div class='case'>case " + ", ".join(math_relation(h) for h in case) + "</div>")
    parts.append(f"<div class='goal'>{'proves' if depth == 0 else 'goal'} {math_relation(step.goal.target)}</div>")
    facts = _fact_items(step)
    if facts:
        parts.append(f"<div class='lead'>{_LEAD.get(step.kind, '')}</div><ul class='facts'>"
                     + "".join(f"<li>{f}</li>" for f in facts) + "</ul>")
    summ = certificate_summary(step)
    if summ:
        parts.append(f"<div class='summary'>{e(summ)}</div>")
    lean_lines = [f"goal: {show_goal(step.goal, with_hyps=True)}", *step_facts(step)]
    parts.append("<details class='text'><summary>as Lean text</summary><pre>"
                 + e("\n".join(lean_lines)) + "</pre></details>")
    parts.append("<details class='text'><summary>certificate (Lean notation)</summary><pre>"
                 + e(_cert_json(step)) + "</pre></details>")
    for c in step.children:
        parts.append(_html_step(c, step.goal if step.kind == "split" else None, depth + 1))
    parts.append("</details>")
    return "\n".join(parts)


# ---------------------------------------------------------------- the page

_CSS = """
:root{--ink:#1d1f29;--mute:#5b5f70;--line:#d8dae3;--ok:#1e7b34;--bad:#b3261e}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--ink);margin:0;padding:1.2em 2em;
 line-height:1.45;background:#fff}
h1{font-size:1.5em;margin:.2em 0 .4em} h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid var(--line)}
.verdict{border-radius:8px;padding:.6em 1em;margin:0 0 1em;border:1px solid}
.verdict p{margin:.15em 0}
.verdict.ok{background:#e9f6ec;border-color:#9fd3aa} .verdict.ok .mark{color:var(--ok);font-weight:bold}
.verdict.bad{background:#fbeaea;border-color:#e6a5a1} .verdict.bad .mark{color:var(--bad);font-weight:bold}
.verdict.unknown{background:#f3f3f6;border-color:var(--line)}
.verdict .time,.verdict .detail{color:var(--mute)} .command code{font-size:90%}
.layout{display:grid;grid-template-columns:minmax(0,1.15fr) minmax(0,1fr);gap:2em;align-items:start}
main{min-width:0} h1,.summary,.note,main code.lean{overflow-wrap:anywhere}
.statement,.goal,.case,ul.facts li{max-width:100%;overflow-x:auto;overflow-y:hidden}
details.stats>summary{cursor:pointer;color:var(--mute);font-size:90%}
@media (max-width:1000px){.layout{grid-template-columns:minmax(0,1fr)}}
aside.lean{position:sticky;top:.5em}
aside.lean pre{max-height:88vh;overflow:auto;background:#f6f7fa;border:1px solid var(--line);border-radius:6px;
 padding:.7em;font-size:78%;line-height:1.35;white-space:pre}
.statement math[display=block]{font-size:1.2em;margin:.4em 0}
code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace}
details.step{margin:.3em 0 .3em .2em;border-left:3px solid #c9cde0;padding:.1em 0 .3em .8em}
details.step>summary{cursor:pointer;padding:.15em 0}
.kind{display:inline-block;font-weight:600;font-size:85%;padding:0 .5em;border-radius:4px;background:#e7e9f5;
 color:#243070;text-transform:uppercase;letter-spacing:.03em}
.k-close{background:#e4f3e7;color:#1e6b30} .k-scale{background:#fdf0dd;color:#7a4a00}
.k-split{background:#efe6fa;color:#55308a} .k-introduce,.k-substitute{background:#e3f1f8;color:#0f5a7a}
.note{color:var(--mute)} .goal,.case,.summary{margin:.2em 0} .case{color:#55308a}
.goal math,.facts math,.case math{font-size:1.1em;math-style:normal} .lead{color:var(--mute);font-size:90%;margin-top:.3em}
ul.facts{margin:.1em 0 .3em;padding-left:1.4em} ul.facts li{margin:.25em 0}
.tag{font-size:80%;color:var(--mute);border:1px solid var(--line);border-radius:3px;padding:0 .3em}
.summary{font-size:90%;color:var(--mute)}
details.text>summary{cursor:pointer;font-size:85%;color:var(--mute)}
details.text pre{background:#f6f7fa;padding:.5em;overflow-x:auto;font-size:80%;max-height:24em}
table.stats{border-collapse:collapse;font-size:90%} table.stats th{text-align:left;font-weight:normal;
 color:var(--mute);padding:.15em 1.2em .15em 0} table.stats td{font-variant-numeric:tabular-nums;padding:.15em 0}
table.stats tr+tr{border-top:1px solid #eef}
figure{margin:.5em 0} figcaption{font-size:85%;color:var(--mute)}
svg .tick{font-size:11px;fill:#555} svg .axis{font-size:13px;fill:#333;font-style:italic}
svg .eqlabel{font-size:11px;fill:#2a8a3a}
.refused{color:var(--bad)} .muted{color:var(--mute);font-size:90%}
"""

#: The style sheet of the proof page (the counterexample page uses it too).
PAGE_CSS = _CSS


def _lean_panel(proof: Proof, lean: str | None, lean_error: str | None) -> str:
    if lean is None and lean_error is None:
        try:
            from prover.lean.render import render_proof

            lean = render_proof(proof)
        except Exception as exc:  # noqa: BLE001 - the page still shows the kernel proof
            lean_error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    head = "<h2>Lean 4</h2>"
    if lean is None:
        return (f"<aside class='lean'>{head}<p class='refused'>The Lean renderer refused this proof: "
                f"{e(lean_error or 'no reason given')}</p><p class='muted'>The kernel proof above is complete; "
                "only its Lean text is missing.</p></aside>")
    return (f"<aside class='lean'>{head}<p class='muted'>Rendered from the kernel proof; not compiled when "
            "this page was written — check it with <code>prover lean check proof.lean</code>.</p>"
            f"<pre><code>{e(lean)}</code></pre></aside>")


def _statement(proof: Proof) -> str:
    p = proof.problem
    goal = Goal.from_problem(p)
    vs = ", ".join(p.variables)
    hyps = ", ".join(math_relation(h.rel) for h in p.hypotheses)
    intro = f"For all real {e(vs)}" + (f" with {hyps}" if hyps else "") + ":"
    try:
        from prover.lean.render import theorem_head

        head = theorem_head(p, proof.meta)[0]
    except Exception:  # noqa: BLE001 - display only
        head = show_goal(goal, with_hyps=True)
    goals = "".join(math_relation(g, display=True) for g in (p.goal_parts if p.is_conjunction else (p.goal,)))
    if p.is_conjunction:   # `A ∧ B ∧ …`: every part, in order (the page's equality case is the first's)
        intro += f" all {len(p.goal_parts)} of"
    return (f"<section class='statement'><p>{intro}</p>{goals}"
            f"<details class='text'><summary>as Lean text</summary><pre>{e(head)}</pre></details></section>")


def _equality_section(goal: Goal, eq: EqualityCase | None) -> tuple[str, str]:
    """(the equality-case section, the plot section)."""
    if eq is None:
        return "<h2>Equality case</h2><p class='muted'>No point where the goal is tight was found.</p>", ""
    pt = ", ".join(f"{e(k)} = {e(v)}" for k, v in eq.point.items())
    if eq.exact:
        text = (f"<p>The goal is tight at <strong>{pt}</strong> ({e(eq.how)}): both sides equal "
                f"{_fmt(eq.lhs)}.</p>")
    elif eq.tight:
        text = (f"<p>The goal is tight near <strong>{pt}</strong> ({e(eq.how)}): left side {_fmt(eq.lhs)}, "
                f"right side {_fmt(eq.rhs)}.</p>")
    else:
        text = (f"<p>The goal is never tight on the samples; the least gap, {_fmt(eq.gap)}, is at "
                f"<strong>{pt}</strong> ({e(eq.how)}).</p>")
    plot = ""
    try:
        series = slack_series(goal, eq.floats)
    except Exception:  # noqa: BLE001 - display only
        series = None
    if series is not None:
        svg = plot_svg(series, goal.target.op, series.x0 if eq.tight else None)
        rel = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "=": "="}.get(goal.target.op, goal.target.op)
        plot = (f"<h2>Plot</h2><figure>{svg}<figcaption>Left and right side of the goal (left {rel} right) as "
                f"{e(series.variable)} varies, {e(series.held)}. Floating-point samples, for display only: "
                "not part of the proof.</figcaption></figure>")
    return "<h2>Equality case</h2>" + text, plot


def proof_html(proof: Proof, title: str = "", stats: dict | None = None, *,
               verdict: PageVerdict | dict | None = None, lean: str | None = None,
               lean_error: str | None = None, equality: bool = True) -> str:
    """The whole page as one string (no external resources, no scripts).

    ``verdict``: the banner (:func:`page_verdict` for a search result, :func:`check_verdict` to run
    the kernel now; None says that no verdict is recorded). ``lean``/``lean_error``: the rendered
    Lean file or the renderer's refusal (both None: render it here). ``equality``: compute the
    equality case and the plot (floating point, a second or two)."""
    p = proof.problem
    name = title or p.name
    goal = Goal.from_problem(p)
    n_steps = len(proof.steps())
    left = [_statement(proof),
            f"<h2>Proof <span class='muted'>({n_steps} step{'s' if n_steps != 1 else ''})</span></h2>",
            *[_html_step(r) for r in proof.roots()]]
    if equality:
        try:
            eq = equality_case(goal)
        except Exception:  # noqa: BLE001 - display only
            eq = None
        eq_html, plot_html = _equality_section(goal, eq)
        left += [eq_html, plot_html]
    if stats:
        left.append(stats_section(stats))
    body = [f"<h1>{e(name)}</h1>", verdict_banner(_as_verdict(verdict)),
            "<div class='layout'><main>" + "\n".join(left) + "</main>" + _lean_panel(proof, lean, lean_error)
            + "</div>"]
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(name)} — proof</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
