"""Human-readable views of a proof: a one-line-per-step text tree and a self-contained HTML page."""

from __future__ import annotations

import html
import json
from typing import Any

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.problem import LEAN_OPS, Relation


def show_expr(e: Any) -> str:
    try:
        from prover.frontend import print_expr
    except ImportError:
        print_expr = None
    if print_expr is not None:
        try:
            return print_expr(sp.sympify(e))
        except Exception:  # noqa: BLE001 - fall back to sympy's text
            return str(e)
    return str(e)


def show_relation(r: Relation) -> str:
    return f"{show_expr(r.lhs)} {LEAN_OPS.get(r.op, r.op)} {show_expr(r.rhs)}"


def show_goal(g: Goal, with_hyps: bool = False) -> str:
    t = show_relation(g.target)
    if with_hyps and g.hypotheses:
        return ", ".join(show_relation(h) for h in g.hypotheses) + " ⊢ " + t
    return t


def certificate_summary(step: Step) -> str:
    c = step.certificate
    if step.kind == "close":
        m = c.get("method", "?")
        if m == "sos":
            return f"sos: {len(c.get('terms', []))} square terms, {len(c.get('eq_terms', []))} equality terms"
        return str(m)
    if step.kind == "rewrite":
        return f"multiplier {c.get('multiplier', '?')}" + (
            f", {len(c['eq_terms'])} equality terms" if c.get("eq_terms") else "")
    if step.kind == "scale":
        return ", ".join(str(a.get("lemma", "?")) for a in c.get("applications", []))
    if step.kind == "split":
        return f"cases by {c.get('cases', '?')}"
    if step.kind == "introduce":
        return ", ".join(f"{k} = {v}" for k, v in c.get("definitions", {}).items())
    if step.kind == "substitute":
        return ", ".join(f"{k} = {v}" for k, v in c.get("substitution", {}).items())
    return ""


def text_lines(step: Step, indent: int = 0, parent: Goal | None = None) -> list[str]:
    """One line per step: kind, what it did, the goal it proves (and a case's new hypotheses)."""
    note = f" ({step.note})" if step.note else ""
    summ = certificate_summary(step)
    case = ""
    if parent is not None and step.goal.hypotheses[:len(parent.hypotheses)] == parent.hypotheses \
            and len(step.goal.hypotheses) > len(parent.hypotheses):
        case = "case " + ", ".join(show_relation(h) for h in step.goal.hypotheses[len(parent.hypotheses):]) + " ⊢ "
    line = f"{'  ' * indent}{step.kind}{note}: {case}{show_goal(step.goal)}" + (f"   [{summ}]" if summ else "")
    out = [line]
    for c in step.children:
        out.extend(text_lines(c, indent + 1, step.goal if step.kind == "split" else None))
    return out


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
details{margin-left:1.2em;border-left:2px solid #ccd;padding-left:.6em}
summary{cursor:pointer;padding:.2em 0} .kind{font-weight:bold;color:#225}
.goal{font-family:monospace} pre{background:#f6f6f9;padding:.5em;overflow-x:auto;font-size:85%}
.hyps{color:#555;font-family:monospace}"""


def _html_step(step: Step) -> str:
    e = html.escape
    hyps = "; ".join(show_relation(h) for h in step.goal.hypotheses) or "(none)"
    parts = [
        "<details open>",
        (f"<summary><span class='kind'>{e(step.kind)}</span> {e(step.note)} — "
        f"<span class='goal'>{e(show_goal(step.goal))}</span></summary>"),
        f"<div class='hyps'>variables: {e(', '.join(step.goal.variables))}; hypotheses: {e(hyps)}</div>",
        f"<div>{e(certificate_summary(step))}</div>",
        f"<details><summary>certificate</summary><pre>{e(json.dumps(step.certificate, indent=1))}</pre></details>",
    ]
    parts.extend(_html_step(c) for c in step.children)
    parts.append("</details>")
    return "\n".join(parts)


def proof_html(proof: Proof, title: str = "", stats: dict | None = None) -> str:
    """A single self-contained page: the theorem, one nested ``<details>`` per step, statistics."""
    e = html.escape
    p = proof.problem
    stmt = show_goal(Goal.from_problem(p), with_hyps=True)
    body = [f"<h1>{e(title or p.name)}</h1>", f"<p class='goal'>{e(stmt)}</p>", _html_step(proof.root)]
    if stats:
        body.append(f"<h2>Statistics</h2><pre>{e(json.dumps(stats, indent=1, default=str))}</pre>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<title>{e(title or p.name)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
