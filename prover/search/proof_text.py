"""Human-readable views of a proof: a one-line-per-step text tree (plus the facts each step uses);
the self-contained HTML page (:func:`prover.search.page.proof_html`) is built on these.

Every expression is shown in ONE notation, Lean's (:func:`prover.frontend.printer.print_expr`):
goals, the facts of ``scale`` steps, definitions and substitutions — never sympy's ``a**(1/3)``.
Certificate fields are sympy strings (:mod:`prover.ir`); they are read back with
:func:`prover.ir.expr_from_str` over the step's variables before they are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp

from prover.frontend.printer import show_expr, show_relation
from prover.ir import Goal, Step
from prover.problem import LEAN_OPS, Relation

# ---------------------------------------------------------------- one notation: Lean's
# show_expr / show_relation: prover.frontend.printer (re-exported here)


def show_goal(g: Goal, with_hyps: bool = False) -> str:
    t = show_relation(g.target)
    if with_hyps and g.hypotheses:
        return ", ".join(show_relation(h) for h in g.hypotheses) + " ⊢ " + t
    return t


def step_variables(step: Step) -> tuple[str, ...]:
    """The variables a step's certificate may mention: its goal's and its subgoals' (in order)."""
    seen: dict[str, None] = dict.fromkeys(step.goal.variables)
    for g in step.subgoals:
        seen.update(dict.fromkeys(g.variables))
    return tuple(seen)


def read_expr(text: Any, variables: Sequence[str]) -> sp.Expr | None:
    """A certificate's expression string read back exactly (None if it cannot be read)."""
    from prover.ir import IRError, expr_from_str

    if not isinstance(text, (str, int)):
        return None
    try:
        return expr_from_str(str(text), tuple(variables))
    except (IRError, ValueError, TypeError):
        return None


def read_relation(d: Any, variables: Sequence[str]) -> Relation | None:
    """A certificate's ``{lhs, op, rhs}`` relation read back (None if it cannot be read)."""
    if not isinstance(d, dict) or d.get("op") not in LEAN_OPS:
        return None
    lhs, rhs = read_expr(d.get("lhs"), variables), read_expr(d.get("rhs"), variables)
    if lhs is None or rhs is None:
        return None
    try:
        return Relation(lhs, d["op"], rhs)
    except ValueError:
        return None


def show_text(text: Any, variables: Sequence[str]) -> str:
    """Lean text of a certificate's expression string (the string itself if it cannot be read)."""
    e = read_expr(text, variables)
    return show_expr(e) if e is not None else str(text)


def _is_one(text: Any, variables: Sequence[str]) -> bool:
    e = read_expr(text, variables)
    return e is not None and e == 1


def _lemma_relation(name: str, instance: dict, variables: Sequence[str]) -> Relation | None:
    """``A ≤ B``: the catalogue lemma ``name`` at ``instance`` (None without the catalogue)."""
    try:
        from prover.tactics.catalogue import lemma_lookup

        lemma = lemma_lookup()(name)
    except Exception:  # noqa: BLE001 - the catalogue is optional for display
        return None
    if lemma is None:
        return None
    values = {k: read_expr(v, variables) for k, v in instance.items()}
    if any(v is None for v in values.values()):
        return None

    def inst(e: sp.Expr) -> sp.Expr:
        return sp.sympify(e).xreplace({s: values[s.name] for s in sp.sympify(e).free_symbols
                                       if s.name in values})
    return Relation(inst(lemma.lhs), "<=", inst(lemma.rhs))


# ---------------------------------------------------------------- what a step uses


def application_facts(step: Step) -> list[tuple[Relation | None, str, str]]:
    """For a ``scale`` step: one ``(relation, what, coefficient)`` per application — the fact
    ``A ≤ B`` (or ``B ≥ A``) it adds, where it comes from (``"fact"``, ``"hypothesis"``, the
    lemma's name) and its coefficient in Lean text (``""`` when it is 1)."""
    if step.kind != "scale":
        return []
    vs = step.goal.variables
    out: list[tuple[Relation | None, str, str]] = []
    for app in step.certificate.get("applications", []) or []:
        if not isinstance(app, dict):
            continue
        c = app.get("coefficient", "1")
        coeff = "" if _is_one(c, vs) else show_text(c, vs)
        if "fact" in app:
            out.append((read_relation(app["fact"], vs), "fact", coeff))
        elif "hypothesis" in app:
            k = app["hypothesis"]
            hyps = step.goal.hypotheses
            rel = hyps[k] if isinstance(k, int) and 0 <= k < len(hyps) else None
            out.append((rel, "hypothesis", coeff))
        else:
            name = str(app.get("lemma", "?"))
            inst = app.get("instance") or {}
            rel = _lemma_relation(name, inst, vs) if isinstance(inst, dict) else None
            out.append((rel, name, coeff))
    return out


def _lemma_instance_text(app: dict, vs: Sequence[str]) -> str:
    inst = app.get("instance") or {}
    args = ", ".join(f"{k} := {show_text(v, vs)}" for k, v in inst.items()) if isinstance(inst, dict) else ""
    return f"{app.get('lemma', '?')} ({args})" if args else str(app.get("lemma", "?"))


def step_facts(step: Step) -> list[str]:
    """What a step uses, one Lean-notation line each: the facts of a ``scale`` step (with their
    origin and coefficient), the definitions of ``introduce``, the maps of ``substitute``."""
    vs = step_variables(step)
    c = step.certificate
    if step.kind == "scale":
        lines = []
        apps = [a for a in c.get("applications", []) or [] if isinstance(a, dict)]
        for app, (rel, what, coeff) in zip(apps, application_facts(step)):
            if rel is not None:
                text = show_relation(rel)
            elif what not in ("fact", "hypothesis"):
                text = _lemma_instance_text(app, step.goal.variables)
            else:
                text = f"(unreadable {what})"
            tags = [] if what == "fact" else [what if what == "hypothesis" else f"lemma {what}"]
            if coeff:
                tags.append(f"times {coeff}")
            lines.append(text + (f"   [{', '.join(tags)}]" if tags else ""))
        return lines
    if step.kind == "introduce":
        defs = c.get("definitions", {}) or {}
        return [f"{k} = {show_text(v, vs)}" for k, v in defs.items()] if isinstance(defs, dict) else []
    if step.kind == "substitute":
        sub = c.get("substitution", {}) or {}
        return [f"{k} = {show_text(v, vs)}" for k, v in sub.items()] if isinstance(sub, dict) else []
    return []


def certificate_summary(step: Step) -> str:
    """A short description of a step's certificate, in Lean notation."""
    c = step.certificate
    vs = step_variables(step)
    if step.kind == "close":
        m = c.get("method", "?")
        if m == "sos":
            return f"sos: {len(c.get('terms', []))} square terms, {len(c.get('eq_terms', []))} equality terms"
        return str(m)
    if step.kind == "rewrite":
        return f"multiplier {show_text(c.get('multiplier', '?'), vs)}" + (
            f", {len(c['eq_terms'])} equality terms" if c.get("eq_terms") else "")
    if step.kind == "scale":
        apps = [a for a in c.get("applications", []) or [] if isinstance(a, dict)]
        n_fact = sum(1 for a in apps if "fact" in a)
        n_hyp = sum(1 for a in apps if "hypothesis" in a and "fact" not in a)
        lemmas = sorted({str(a.get("lemma")) for a in apps if "fact" not in a and "hypothesis" not in a})
        parts = ([f"{n_fact} fact{'s' if n_fact != 1 else ''}, each proved by its own certificate"] if n_fact else []) \
            + ([f"{n_hyp} hypothes{'e' if n_hyp != 1 else 'i'}s"] if n_hyp else []) \
            + ([f"lemma{'s' if len(lemmas) != 1 else ''} {', '.join(lemmas)}"] if lemmas else [])
        m = c.get("multiplier", "1")
        mult = "" if _is_one(m, vs) else f"; multiplier {show_text(m, vs)}"
        return ("adds " + "; ".join(parts) if parts else "adds no bounds") + mult
    if step.kind == "split":
        how = c.get("cases", "?")
        if how == "sign":
            return f"cases by the sign of {show_text(c.get('expr', '?'), vs)}"
        if how == "order":
            sym = c.get("symmetry")
            extra = f", {sym} symmetry" if sym and sym != "none" else ""
            return f"cases by the order of {', '.join(map(str, c.get('variables', [])))}{extra}"
        return f"cases by {how}"
    if step.kind == "introduce":
        return "new variables " + ", ".join(c.get("definitions", {}) or {})
    if step.kind == "substitute":
        return "change of variables " + ", ".join(c.get("substitution", {}) or {})
    if step.kind == "monotone":
        f = "√" if c.get("function") == "sqrt" else f"x ^ ({c.get('exponent', '?')})"
        return f"{f} is increasing: compare {show_text(c.get('small', '?'), vs)} and {show_text(c.get('big', '?'), vs)}"
    return ""


def case_hypotheses(step: Step, parent: Goal | None) -> list[Relation]:
    """The hypotheses a case of a split adds to its parent's (empty outside a split)."""
    if parent is None:
        return []
    hs, ph = step.goal.hypotheses, parent.hypotheses
    if hs[:len(ph)] == ph and len(hs) > len(ph):
        return list(hs[len(ph):])
    return []


def text_lines(step: Step, indent: int = 0, parent: Goal | None = None) -> list[str]:
    """One line per step: kind, what it did, the goal it proves (and a case's new hypotheses);
    under a ``scale``/``introduce``/``substitute`` step, one line per fact or definition it uses."""
    note = f" ({step.note})" if step.note else ""
    summ = certificate_summary(step)
    extra = case_hypotheses(step, parent)
    case = "case " + ", ".join(show_relation(h) for h in extra) + " ⊢ " if extra else ""
    facts = step_facts(step)
    line = f"{'  ' * indent}{step.kind}{note}: {case}{show_goal(step.goal)}" + (
        f"   [{summ}]" if summ and not facts else "")
    out = [line]
    lead = {"scale": "by ", "introduce": "where ", "substitute": "with "}.get(step.kind, "")
    pad = "  " * indent + "    "
    for k, f in enumerate(facts):
        out.append(pad + (lead if k == 0 else " " * len(lead)) + f)
    for c in step.children:
        out.extend(text_lines(c, indent + 1, step.goal if step.kind == "split" else None))
    return out


def lean_certificate(value: Any, variables: Sequence[str], key: str = "") -> Any:
    """A certificate (JSON) with every expression string rewritten in Lean notation, for display."""
    if isinstance(value, dict):
        return {k: lean_certificate(v, variables, k) for k, v in value.items()}
    if isinstance(value, list):
        return [lean_certificate(v, variables, key) for v in value]
    if isinstance(value, str) and key not in _NOT_EXPRESSIONS:
        e = read_expr(value, variables)
        return show_expr(e) if e is not None else value
    return value


_NOT_EXPRESSIONS = frozenset({"method", "cases", "lemma", "symmetry", "op", "name"})


def walk_with_parent(step: Step, parent: Goal | None = None) -> Iterable[tuple[Step, Goal | None]]:
    yield step, parent
    for c in step.children:
        yield from walk_with_parent(c, step.goal if step.kind == "split" else None)
