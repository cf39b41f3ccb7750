"""A counterexample, written down: ``counterexample.json`` (the statement, the point, both sides'
exact and approximate values there, each hypothesis checked there) and ``counterexample.html``
(the same, typeset, with a plot of both sides along a line through the point).

The point comes from the search's counterexample oracle; the values here are computed again from
it with sympy (exactly, then to 30 digits). Nothing here is a proof: the page is a record of why
``prover prove`` said "counterexample", and ``prover page counterexample.json`` writes it again.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

import sympy as sp

from prover.ir import Goal, expr_from_str, relation_from_json, relation_to_json
from prover.problem import Hypothesis, Problem, Relation, var
from prover.search.proof_text import show_expr, show_relation

e = html.escape

#: The ``format`` field of ``counterexample.json``.
FORMAT = "prover-counterexample"
VERSION = 1
#: Longest exact value written (Lean text); a longer one is cut with "…" (the approximation stays).
MAX_EXACT = 2000


class CounterexampleError(ValueError):
    """A ``counterexample.json`` that cannot be read."""


# ---------------------------------------------------------------- the data


def _value(x: sp.Expr) -> dict[str, Any]:
    """``{"exact": Lean text, "approx": float or None}`` of a number (None and "undefined"
    where sympy finds no real value, e.g. a division by zero)."""
    if x.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return {"exact": "undefined", "approx": None}
    text = show_expr(x)
    if len(text) > MAX_EXACT:
        text = text[:MAX_EXACT] + "…"
    try:
        v = complex(sp.N(x, 30))
        approx = v.real if abs(v.imag) <= 1e-12 * (1 + abs(v.real)) and math.isfinite(v.real) else None
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        approx = None
    return {"exact": text, "approx": approx}


def holds_at(r: Relation, subs: dict[sp.Symbol, sp.Expr]) -> bool | None:
    """Does ``r`` hold at the point (decided on the difference to 50 digits)? None: undefined there."""
    try:
        d = complex(sp.N((r.lhs - r.rhs).subs(subs), 50))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if not math.isfinite(d.real) or abs(d.imag) > 1e-30:
        return None
    x = 0.0 if abs(d.real) < 1e-40 else d.real
    return {"<=": x <= 0, "<": x < 0, ">=": x >= 0, ">": x > 0, "=": x == 0, "!=": x != 0}[r.op]


def counterexample_data(problem: Problem, point: dict[str, str], time_s: float | None = None) -> dict[str, Any]:
    """The content of ``counterexample.json`` for ``point`` (variable -> exact value, as the
    search reports it)."""
    values = {name: expr_from_str(str(v), []) for name, v in point.items()}
    subs = {var(name): v for name, v in values.items()}
    goal = problem.goal
    return {
        "format": FORMAT, "version": VERSION,
        "problem": {"name": problem.name, "variables": list(problem.variables),
                    "hypotheses": [{"name": h.name, **relation_to_json(h.rel)} for h in problem.hypotheses],
                    "goal": relation_to_json(goal), "lean": problem.meta.get("lean"),
                    "real_division": problem.real_division},
        "statement": show_relation(goal),
        "point": {name: show_expr(v) for name, v in values.items()},
        "point_approx": {name: _value(v)["approx"] for name, v in values.items()},
        "lhs": _value(goal.lhs.subs(subs)), "rhs": _value(goal.rhs.subs(subs)), "relation": goal.op,
        "goal_holds": holds_at(goal, subs),
        "hypotheses": [{"name": h.name, "text": show_relation(h.rel), "holds": holds_at(h.rel, subs)}
                       for h in problem.hypotheses],
        "time_s": time_s,
    }


def read_counterexample(d: Any) -> tuple[Problem, dict[str, Any]]:
    """(the problem, the data) of a ``counterexample.json`` read as JSON."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise CounterexampleError(f"not a {FORMAT} file")
    try:
        pd = d["problem"]
        vs = [str(v) for v in pd["variables"]]
        hyps = [Hypothesis(str(h["name"]), relation_from_json(h, vs)) for h in pd["hypotheses"]]
        problem = Problem(str(pd["name"]), vs, hyps, relation_from_json(pd["goal"], vs),
                          real_division=bool(pd.get("real_division", True)))
        if isinstance(pd.get("lean"), str):
            problem.meta["lean"] = pd["lean"]
        point = {str(k): str(v) for k, v in d["point"].items()}
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise CounterexampleError(f"bad counterexample file: {exc}") from None
    return problem, counterexample_data(problem, point, d.get("time_s"))


def write_counterexample(out: Path, problem: Problem, point: dict[str, str], time_s: float | None = None,
                         command: str | None = None) -> dict[str, str]:
    """``counterexample.json`` and ``counterexample.html`` into ``out``; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    data = counterexample_data(problem, point, time_s)
    (out / "counterexample.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    (out / "counterexample.html").write_text(counterexample_html(problem, data, command), encoding="utf-8")
    return {"counterexample": str(out / "counterexample.json"), "counterexample_page": str(out / "counterexample.html")}


# ---------------------------------------------------------------- the page


def _approx(v: Any) -> str:
    return f"≈ {v:.10g}" if isinstance(v, (int, float)) else "undefined"


def _verdict(flag: bool | None) -> str:
    return {True: "<span class='ok'>holds</span>", False: "<span class='no'>fails</span>"}.get(
        flag, "<span class='no'>undefined</span>")


def _values_table(data: dict[str, Any]) -> str:
    rows = "".join(f"<tr><th scope='row'>{e(k)}</th><td><code>{e(v)}</code></td>"
                   f"<td>{e(_approx(data['point_approx'].get(k)))}</td></tr>" for k, v in data["point"].items())
    sides = "".join(f"<tr><th scope='row'>{label}</th><td><code>{e(data[key]['exact'])}</code></td>"
                    f"<td>{e(_approx(data[key]['approx']))}</td></tr>"
                    for label, key in (("left side", "lhs"), ("right side", "rhs")))
    return (f"<h2>The point</h2><table class='cex'><tbody>{rows}</tbody></table>"
            f"<h2>Both sides there</h2><table class='cex'><tbody>{sides}</tbody></table>"
            f"<p>The goal <code>{e(data['statement'])}</code> {_verdict(data['goal_holds'])} at this point.</p>")


def _hypotheses(data: dict[str, Any]) -> str:
    if not data["hypotheses"]:
        return ""
    items = "".join(f"<li><code>{e(h['name'])} : {e(h['text'])}</code> {_verdict(h['holds'])}</li>"
                    for h in data["hypotheses"])
    return f"<h2>Hypotheses at the point</h2><ul class='facts'>{items}</ul>"


def _plot(problem: Problem, data: dict[str, Any]) -> str:
    """Both sides along a line through the point (one variable moves), or nothing."""
    from prover.search.page import plot_svg, slack_series

    floats = data["point_approx"]
    if any(not isinstance(v, (int, float)) for v in floats.values()):
        return ""
    goal = Goal.from_problem(problem)
    try:
        series = slack_series(goal, {k: float(v) for k, v in floats.items()})
    except Exception:  # noqa: BLE001 - display only: no plot
        series = None
    if series is None:
        return ""
    svg = plot_svg(series, goal.target.op, series.x0, mark="counterexample at")
    return (f"<h2>Plot</h2><figure>{svg}<figcaption>Left and right side of the goal as {e(series.variable)} "
            f"varies, {e(series.held)}. Floating-point samples, for display only.</figcaption></figure>")


def counterexample_html(problem: Problem, data: dict[str, Any], command: str | None = None) -> str:
    """The counterexample page: one self-contained HTML file (no scripts, no external resources)."""
    from prover.search.page import PAGE_CSS, math_relation

    name = problem.name
    t = data.get("time_s")
    bits = ["<span class='mark'>✘</span> <strong id='verdict'>The statement is false: a counterexample</strong>"]
    if isinstance(t, (int, float)):
        bits.append(f"<span class='time'>found in {t:.2f} s</span>")
    head = f"<header class='verdict bad' data-verdict='counterexample'><p>{' · '.join(bits)}</p>"
    if command:
        head += f"<p class='command'>command: <code>{e(command)}</code></p>"
    hyps = ", ".join(math_relation(h.rel) for h in problem.hypotheses)
    intro = f"Claimed for all real {e(', '.join(problem.variables))}" + (f" with {hyps}" if hyps else "") + ":"
    body = [f"<h1>{e(name)}</h1>", head + "</header>",
            f"<section class='statement'><p>{intro}</p>{math_relation(problem.goal, display=True)}</section>",
            _values_table(data), _hypotheses(data), _plot(problem, data),
            ("<p class='muted'>The point was found by the counterexample search; the values were computed "
             "again from it exactly (sympy), the approximations to 30 digits. This page is not a proof.</p>")]
    css = PAGE_CSS + ("table.cex{border-collapse:collapse} table.cex th{text-align:left;font-weight:normal;"
                      "padding:.15em 1.2em .15em 0;color:var(--mute)} table.cex td{padding:.15em 1em .15em 0;"
                      "overflow-wrap:anywhere} .ok{color:var(--ok);font-weight:600} .no{color:var(--bad);"
                      "font-weight:600}")
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(name)} — counterexample</title><style>{css}</style></head><body>\n"
            + "\n".join(b for b in body if b) + "\n</body></html>\n")
