"""Lean 4 text for expressions, relations and whole problems (``parse ∘ print`` is the identity).

The output is plain Mathlib syntax: every ``/`` sits in a real context, fractional exponents
carry ``: ℝ`` (so the text means the same with or without the LIPS real-division macro),
``sqrt`` is ``Real.sqrt``. ``Abs`` (which sympy makes of ``sqrt(p ^ 2)``) prints back as
``Real.sqrt (p ^ 2)``.

Because the parser rebuilds expressions through sympy's automatic evaluation, the printer
orders factors so that no intermediate product is ``number · sum`` (sympy would distribute it):
sums come after the other factors, and a coefficient in front of a product of sums is kept
outside parentheses that group the product.
"""

from __future__ import annotations

import re

import sympy as sp

from prover.frontend.names import INTERVALS
from prover.frontend.syntax import MAX
from prover.problem import LEAN_OPS, Hypothesis, Problem, Relation


class PrintError(ValueError):
    """An expression with no Lean rendering in our fragment (e.g. ``exp``, floats)."""


def _wrap(text_level: tuple[str, int], need: int) -> str:
    text, level = text_level
    return text if level >= need else f"({text})"


def print_expr(e: sp.Expr | int) -> str:
    """Lean 4 text of an exact sympy expression over real variables."""
    return _pr(sp.sympify(e))[0]


def _pr(e: sp.Expr) -> tuple[str, int]:
    if isinstance(e, sp.Float) or (isinstance(e, sp.Basic) and e.has(sp.Float)):
        raise PrintError(f"floating-point number in {e}")
    if e.is_Integer:
        return (str(e), MAX) if e >= 0 else (f"-{-e}", 75)
    if e.is_Rational:
        return (f"{e.p} / {e.q}", 70)
    if e.is_Symbol:
        return (e.name, MAX)
    if e is sp.pi:
        return ("Real.pi", MAX)
    if e.is_Add:
        return _add(e)
    if e.is_Mul:
        return _mul(e)
    if e.is_Pow:
        return _pow(e)
    if isinstance(e, sp.Abs):
        return (f"Real.sqrt ({_wrap(_pr(e.args[0]), 76)} ^ 2)", MAX)
    if isinstance(e, (sp.exp, sp.log)):   # an application: its argument at max precedence
        name = "Real.exp" if isinstance(e, sp.exp) else "Real.log"
        return (f"{name} {_wrap(_pr(e.args[0]), MAX)}", MAX - 1)
    raise PrintError(f"cannot print `{e}` ({type(e).__name__}) as Lean")


def _add(e: sp.Expr) -> tuple[str, int]:
    terms = e.as_ordered_terms()
    out = _wrap(_pr(terms[0]), 65)
    for t in terms[1:]:
        if t.as_coeff_Mul()[0].is_negative:
            out += " - " + _wrap(_pr(-t), 66)
        else:
            out += " + " + _wrap(_pr(t), 66)
    return out, 65


def _split(e: sp.Expr) -> tuple[sp.Rational, list[sp.Expr], list[sp.Expr]]:
    """coefficient, numerator factors, denominator factors (positive exponents)."""
    coeff, rest = e.as_coeff_Mul()
    num: list[sp.Expr] = []
    den: list[sp.Expr] = []
    for f in sp.Mul.make_args(rest):
        if f == 1:
            continue
        base, ex = f.as_base_exp()
        if ex.is_Rational and ex.is_negative:
            den.append(sp.Pow(base, -ex))
        else:
            num.append(f)
    num.sort(key=lambda f: f.is_Add)  # stable: sums last
    return sp.Rational(coeff), num, den


def _mul(e: sp.Expr) -> tuple[str, int]:
    coeff, num, den = _split(e)
    neg = coeff < 0
    p, q = abs(coeff.p), coeff.q
    texts = [_wrap(_pr(f), 71) for f in num]
    sums_first = bool(num) and num[0].is_Add
    tail = ""
    if not num:
        body, level = str(p), MAX
    elif p == 1:
        body = " * ".join(texts)
        level = 70 if len(num) > 1 else _pr(num[0])[1]
    elif sums_first and len(num) == 1:
        body, level, tail = texts[0], MAX, f" * {p}"   # `(a + b) / c * 3`: never `3 * (a + b)`
    elif sums_first:
        body, level = f"{p} * ({' * '.join(texts)})", 70
    else:
        body, level = f"{p} * " + " * ".join(texts), 70
    for d in den:
        body += " / " + _wrap(_pr(d), 71)
        level = 70
    if tail:
        body += tail
        level = 70
    if q != 1:
        body += f" / {q}"
        level = 70
    if not neg:
        return body, level
    if sums_first and (p == 1 or tail):
        return f"-({body})", 75
    return "-" + body, min(level, 75)


def _pow(e: sp.Expr) -> tuple[str, int]:
    base, ex = e.base, e.exp
    if ex.is_Rational and ex.is_negative:
        return _mul(e) if e.is_Mul else _reciprocal(base, -ex)
    if ex == sp.Rational(1, 2):
        return (f"Real.sqrt {_wrap(_pr(base), MAX)}", MAX)
    b = _wrap(_pr(base), 76)
    if ex.is_Integer:
        return (f"{b} ^ {ex}", 75)
    if ex.is_Rational:
        return (f"{b} ^ ({ex.p} / {ex.q} : ℝ)", 75)
    if not has_real_leaf(ex):  # e.g. `2 ^ b` alone would be typed ℕ by Lean (and by our parser)
        return (f"{b} ^ ({print_expr(ex)} : ℝ)", 75)
    return (f"{b} ^ {_wrap(_pr(ex), 75)}", 75)


def has_real_leaf(e: sp.Expr) -> bool:
    """Does the printed text of ``e`` contain a leaf that makes Lean type it as a real number
    (a variable outside exponents, or a square root)? Otherwise it needs ``(… : ℝ)``."""
    if e.is_Symbol or isinstance(e, sp.Abs):
        return True
    if e.is_Pow:
        return e.exp == sp.Rational(1, 2) or e.exp == sp.Rational(-1, 2) or has_real_leaf(e.base)
    return any(has_real_leaf(x) for x in e.args) if (e.is_Add or e.is_Mul) else False


def _reciprocal(base: sp.Expr, ex: sp.Rational) -> tuple[str, int]:
    return ("1 / " + _wrap(_pr(sp.Pow(base, ex)), 71), 70)


def print_relation(r: Relation) -> str:
    lhs = _wrap(_pr(sp.sympify(r.lhs)), 51)
    if not (has_real_leaf(sp.sympify(r.lhs)) or has_real_leaf(sp.sympify(r.rhs))):
        lhs = f"({print_expr(r.lhs)} : ℝ)"  # a numeral-only comparison would be typed ℕ
    return f"{lhs} {LEAN_OPS[r.op]} {_wrap(_pr(sp.sympify(r.rhs)), 51)}"


_LEAN_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_'!?]*(\.[A-Za-z_][A-Za-z0-9_'!?]*)*$")
_CONJ_NAME = re.compile(r"^(.+)\.(\d+)$")


def lean_name(name: str) -> str:
    return name if _LEAN_IDENT.match(name) else f"«{name}»"


def _binder_groups(problem: Problem) -> list[str]:
    implicit = set(problem.meta.get("implicit_variables", ()))
    out: list[str] = []
    run: list[str] = []
    for v in problem.variables + [None]:  # type: ignore[operator]
        if run and (v is None or (v in implicit) != (run[0] in implicit)):
            o, c = ("{", "}") if run[0] in implicit else ("(", ")")
            out.append(f"{o}{' '.join(run)} : ℝ{c}")
            run = []
        if v is not None:
            run.append(v)
    return out


def membership_binder(hyps: list[Hypothesis], interval: str) -> tuple[str, sp.Expr, list[sp.Expr]] | None:
    """``(name, element, bounds)`` when ``hyps`` are the parts of a membership ``name : x ∈ interval
    …`` as the front-end makes them (``name.1``, ``name.2`` for two bounds, ``name`` for one);
    None when they are not."""
    shape = INTERVALS.get(interval)
    if shape is None or len(hyps) != len(shape):
        return None
    if len(shape) == 1:
        name = hyps[0].name
    else:
        m = _CONJ_NAME.match(hyps[0].name)
        if not m or m.group(2) != "1" or hyps[1].name != f"{m.group(1)}.2":
            return None
        name = m.group(1)
    element = None
    bounds = []
    for h, (side, op) in zip(hyps, shape):
        x, b = (h.rel.rhs, h.rel.lhs) if side == "lo" else (h.rel.lhs, h.rel.rhs)
        if h.rel.op != op or (element is not None and sp.sympify(x) != sp.sympify(element)):
            return None
        element = x
        bounds.append(b)
    return name, sp.sympify(element), [sp.sympify(b) for b in bounds]


def print_membership(element: sp.Expr, interval: str, bounds: list[sp.Expr]) -> str:
    """``x ∈ Set.Icc a b``; the element ascribed ``ℝ`` when no operand has a real leaf."""
    x = _wrap(_pr(element), 51)
    if not any(has_real_leaf(e) for e in [element, *bounds]):
        x = f"({print_expr(element)} : ℝ)"
    return f"{x} ∈ {interval} " + " ".join(_wrap(_pr(b), MAX) for b in bounds)


def memberships(problem: Problem) -> dict[int, str]:
    """First hypothesis index -> interval constant, for the membership binders of ``problem``."""
    out: dict[int, str] = {}
    for item in problem.meta.get("memberships", ()) or ():
        if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], int) \
                and item[1] in INTERVALS:
            out[item[0]] = item[1]
    return out


def _hypothesis_groups(problem: Problem) -> list[str]:
    hyps = problem.hypotheses
    out: list[str] = []
    mem = memberships(problem)
    i = 0
    while i < len(hyps):
        if i in mem:
            n = len(INTERVALS[mem[i]])
            read = membership_binder(hyps[i:i + n], mem[i])
            if read is not None:
                out.append(f"({read[0]} : {print_membership(read[1], mem[i], read[2])})")
                i += n
                continue
        m = _CONJ_NAME.match(hyps[i].name)
        if m and m.group(2) == "1":
            base, j = m.group(1), i + 1
            while j < len(hyps) and hyps[j].name == f"{base}.{j - i + 1}":
                j += 1
            if j - i >= 2:
                out.append(f"({base} : {' ∧ '.join(print_relation(h.rel) for h in hyps[i:j])})")
                i = j
                continue
        out.append(f"({hyps[i].name} : {print_relation(hyps[i].rel)})")
        i += 1
    return out


def print_theorem(problem: Problem, proof: str = "by sorry") -> str:
    """One-line Lean 4 statement of ``problem`` (``:= proof`` appended)."""
    head = "example" if problem.name == "example" else f"theorem {lean_name(problem.name)}"
    parts = [head, *_binder_groups(problem), *_hypothesis_groups(problem)]
    goal = " ∧ ".join(print_relation(g) for g in problem.goal_parts) if problem.is_conjunction \
        else print_relation(problem.goal)
    return f"{' '.join(parts)} : {goal} := {proof}"


# ---------------------------------------------------------------- display text that never fails


def show_expr(e: object) -> str:
    """Lean text of an expression for display (sympy's text only if the Lean printer cannot
    print it): the one notation of proof pages, candidate names and step texts."""
    try:
        return print_expr(sp.sympify(e))
    except Exception:  # noqa: BLE001 - fall back to sympy's text rather than lose the step
        return str(e)


def show_relation(r: Relation) -> str:
    """Lean text of a relation for display (as :func:`show_expr`, side by side when needed)."""
    try:
        return print_relation(r)
    except Exception:  # noqa: BLE001 - as show_expr
        return f"{show_expr(r.lhs)} {LEAN_OPS.get(r.op, r.op)} {show_expr(r.rhs)}"
