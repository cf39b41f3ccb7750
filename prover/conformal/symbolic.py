"""Exact symbolic checking of a claim against its parent claims (sympy).

A claim is read as a relation ``lhs op rhs``: from ``Claim.formula`` when present (our own rendered
proofs; the formula is then a statement for ALL values of the variables allowed by the
hypotheses), else parsed from the text (``$A = B$``, ``$A$ equals $B$``, ``A = B`` …, LaTeX-lite).
Parsed text is NOT read as universal: "2^8 = 4^x" is usually a conditional equation, so a text
claim with free symbols is checked only on the solutions of its parents' equations (or is an
identity).

Outcome: ``VERIFIED`` (follows exactly), ``REFUTED`` (exactly false), ``UNKNOWN``. No floats: numbers
written with decimals are read as exact rationals. The checker is a scorer, never a proof: its
verdict only ranks claims for the conformal filter.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    rationalize,
    standard_transformations,
)

VERIFIED, REFUTED, UNKNOWN = "verified", "refuted", "unknown"
_OPS = ("<=", ">=", "!=", "<", ">", "=")
_TRANSFORMS = standard_transformations + (convert_xor, rationalize, implicit_multiplication_application)
_FUNCS = {"sqrt": sp.sqrt, "pi": sp.pi, "Abs": sp.Abs}


@dataclass(frozen=True)
class Rel:
    """``lhs op rhs`` as sympy expressions (``raw_rhs``/``raw_lhs`` unevaluated, for structure)."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr
    raw_lhs: sp.Expr
    raw_rhs: sp.Expr

    def slack(self) -> sp.Expr:
        """Must be >= 0 (> 0 strict, = 0 for '=')."""
        return self.rhs - self.lhs if self.op in ("<=", "<") else self.lhs - self.rhs


# ------------------------------------------------------------------ parsing


def _latex_to_plain(s: str) -> str | None:
    if re.search(r"\d\s*\\+d?frac", s):  # a mixed number such as 1\frac{1}{6}
        return None
    s = s.replace("\\\\", "\\").replace("\\left", "").replace("\\right", "").replace("\\dfrac", "\\frac")
    s = s.replace("\\cdot", "*").replace("\\times", "*").replace("\\,", " ").replace("\\!", "")
    s = s.replace("\\le ", "<= ").replace("\\ge ", ">= ").replace("\\leq", "<=").replace("\\geq", ">=")
    s = s.replace("\\neq", "!=").replace("≤", "<=").replace("≥", ">=").replace("≠", "!=").replace("−", "-")
    s = s.replace("\\pi", " pi ")
    for _ in range(6):
        s2 = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"((\1)/(\2))", s)
        s2 = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", s2)
        s2 = re.sub(r"\^\s*\{([^{}]*)\}", r"**(\1)", s2)
        if s2 == s:
            break
        s = s2
    if "\\" in s:
        return None
    return s.replace("{", "(").replace("}", ")").replace("^", "**")


def _safe_expr_text(s: str) -> bool:
    if not s.strip() or len(s) > 300 or not re.fullmatch(r"[A-Za-z0-9+\-*/().,\s]*", s):
        return False
    words = re.findall(r"[A-Za-z_]+", s)
    return all(len(w) == 1 or w in _FUNCS for w in words)


@lru_cache(maxsize=4096)
def parse_expr_text(s: str, evaluate: bool = True) -> sp.Expr | None:
    """A math expression in plain or LaTeX-lite notation, or None when it does not look like one."""
    plain = _latex_to_plain(s.strip().rstrip(".").strip())
    if plain is None or not _safe_expr_text(plain):
        return None
    letters = set(re.findall(r"\b[A-Za-z]\b", plain)) | set(re.findall(r"[A-Za-z]", plain))
    local = {name: sp.Symbol(name, real=True) for name in letters if name not in ("E", "I", "S", "N", "O", "Q")}
    local.update(_FUNCS)
    for bad in ("E", "I", "S", "N", "O", "Q"):
        local.setdefault(bad, sp.Symbol(bad, real=True))
    try:
        e = parse_expr(plain, local_dict=local, global_dict={"__builtins__": {}, "Integer": sp.Integer,
                                                               "Rational": sp.Rational, "Symbol": sp.Symbol,
                                                               "Float": sp.Float},
                       transformations=_TRANSFORMS, evaluate=evaluate)
    except Exception:  # noqa: BLE001 - sympy's parser raises many kinds; unreadable = UNKNOWN
        return None
    if not isinstance(e, sp.Expr) or e.has(sp.Float):
        return None
    return e


def _split_relation(s: str) -> list[tuple[str, str]] | None:
    """``"a = b <= c"`` → ``[("a", ""), ("b", "="), ("c", "<=")]``."""
    s = _latex_to_plain(s) or s
    parts = re.split(r"(<=|>=|!=|<|>|=)", s)
    if len(parts) < 3:
        return None
    out = [(parts[0], "")]
    for i in range(1, len(parts) - 1, 2):
        out.append((parts[i + 1], parts[i]))
    return out


def _relations_from_string(s: str) -> list[Rel]:
    chain = _split_relation(s)
    if not chain:
        return []
    rels = []
    for (a, _), (b, op) in itertools.pairwise(chain):
        la, lb = parse_expr_text(a), parse_expr_text(b)
        if la is None or lb is None:
            return []  # one unreadable part makes the whole chain unreadable
        rels.append(Rel(la, op, lb, parse_expr_text(a, False), parse_expr_text(b, False)))
    return rels


_CONNECTIVES = r"(?:equals|is equal to|simplifies to|becomes|factors as|evaluates to|gives|yields)"


def relations_from_text(text: str) -> list[Rel]:
    """Relations stated by a sentence (empty when none can be read)."""
    segs = re.findall(r"\$([^$]+)\$", text)
    rels: list[Rel] = []
    m = re.search(r"\$([^$]+)\$\s*" + _CONNECTIVES + r"\s*\$([^$]+)\$", text)
    if m and not _split_relation(m.group(1)) and not _split_relation(m.group(2)):
        rels += _relations_from_string(f"{m.group(1)} = {m.group(2)}")
    for seg in segs:
        rels += _relations_from_string(seg)
    if not segs:
        body = re.sub(r"^(?:so|thus|hence|therefore|then|we get|we have)[,:]?\s+", "", text.strip(), flags=re.IGNORECASE)
        m = re.fullmatch(r"(.+?)\s+" + _CONNECTIVES + r"\s+(.+?)\.?", body)
        if m:
            rels += _relations_from_string(f"{m.group(1)} = {m.group(2)}")
        else:
            rels += _relations_from_string(_trim_prose(body.rstrip(".")))
    return rels


def _trim_prose(s: str) -> str:
    """``"Clearly x = 4 here"`` → ``"x = 4"``: drop words around a single relation."""
    m = re.fullmatch(r"(.*?)(<=|>=|!=|=|<|>)(.*)", s)
    if not m:
        return s
    word = r"\b(?!sqrt\b|pi\b)[A-Za-z]{2,}\b"
    lhs = re.sub(r"^.*" + word + r"[\s,:]*", "", m.group(1))
    rhs = re.sub(r"[\s,]*" + word + r".*$", "", m.group(3))
    return f"{lhs}{m.group(2)}{rhs}"


def relation_from_formula(formula: str, symbols: dict[str, sp.Symbol] | None = None) -> Rel | None:
    """Our own claims: one relation in sympy syntax (``**`` powers, no LaTeX)."""
    m = re.fullmatch(r"(.+?)\s*(<=|>=|!=|<|>|=)\s*(.+)", formula.strip())
    if not m:
        return None
    loc = dict(_FUNCS)
    loc.update(symbols or {})
    try:
        parsed = [parse_expr(x, local_dict=loc, evaluate=ev, transformations=standard_transformations)
                  for x in (m.group(1), m.group(3)) for ev in (True, False)]
    except Exception:  # noqa: BLE001 - an unreadable formula is UNKNOWN, not an error
        return None
    if any(p.has(sp.Float) for p in parsed):
        return None
    return Rel(parsed[0], m.group(2), parsed[2], parsed[1], parsed[3])


# ------------------------------------------------------------------ checking


@dataclass
class Context:
    """Hypotheses the variables satisfy (relations), used for positivity and counterexamples."""

    hypotheses: list[Rel]

    def nonneg_symbols(self) -> set[sp.Symbol]:
        out = set()
        for h in self.hypotheses:
            s = h.slack()
            if h.op in ("<=", "<", ">=", ">") and s.is_Symbol:
                out.add(s)
            if h.op in (">=", ">") and h.lhs.is_Symbol and h.rhs.is_number and h.rhs >= 0:
                out.add(h.lhs)
            if h.op in ("<=", "<") and h.rhs.is_Symbol and h.lhs.is_number and h.lhs >= 0:
                out.add(h.rhs)
        return out


def tractable(*exprs: sp.Expr) -> bool:
    """Cheap guard against sympy blow-ups: no symbolic exponents, no huge numbers, small trees."""
    for e in exprs:
        if sp.count_ops(e) > 200:
            return False
        for p in e.atoms(sp.Pow):
            if p.exp.free_symbols or (p.exp.is_Integer and abs(p.exp) > 64):
                return False
        if any(abs(n.p) > 10**40 or n.q > 10**40 for n in e.atoms(sp.Rational)):
            return False
    return True


def _is_zero(e: sp.Expr) -> bool | None:
    """Exact zero test of a rational function (radicals: best effort, None when undecided)."""
    try:
        z = sp.cancel(sp.together(sp.expand(e)))
        if z == 0:
            return True
        if not z.free_symbols:
            z = sp.nsimplify(sp.radsimp(z)) if z.has(sp.Pow) else z
            return bool(z.is_zero) if z.is_zero is not None else None
        return False if z.is_rational_function() else None
    except (sp.PolynomialError, TypeError, ValueError):
        return None


def _truth_closed(rel: Rel) -> bool | None:
    """Truth of a relation without free symbols, decided exactly (None when sympy cannot)."""
    d = sp.simplify(rel.lhs - rel.rhs)
    if rel.op in ("=", "!="):
        z = _is_zero(d)
        return None if z is None else (z if rel.op == "=" else not z)
    sgn = d.is_positive, d.is_zero, d.is_negative
    if None in sgn:
        return None
    pos, zero, neg = sgn
    return {"<=": neg or zero, "<": neg, ">=": pos or zero, ">": pos}[rel.op]


def _nonneg(e: sp.Expr, facts: list[sp.Expr], nonneg_syms: set[sp.Symbol], depth: int = 0) -> bool:
    """Structural proof that ``e >= 0``: squares, nonneg symbols, known nonneg facts, + and ×."""
    if depth > 40:
        return False
    if e.is_number:
        return bool(e.is_nonnegative)
    if e.is_Symbol:
        return e in nonneg_syms
    if facts and (e.is_Add or e.is_Mul):
        ee = sp.expand(e)
        if any(sp.expand(ee - f) == 0 for f in facts):
            return True
    if e.is_Pow:
        ex = e.exp
        if ex.is_Rational and ex.p % 2 == 0:
            return True
        if ex == sp.Rational(1, 2):
            return True
        return _nonneg(e.base, facts, nonneg_syms, depth + 1)
    if e.is_Add or e.is_Mul:
        return all(_nonneg(a, facts, nonneg_syms, depth + 1) for a in e.args)
    return False


def _rational_points(symbols: list[sp.Symbol], count: int = 150) -> list[dict]:
    vals = [sp.Rational(v) for v in ("0", "1", "-1", "2", "1/2", "-2", "3", "1/3", "-1/2", "5", "-3", "7/3")]
    if len(symbols) <= 2:
        return [dict(zip(symbols, p)) for p in itertools.product(vals, repeat=len(symbols))]
    import random

    rng = random.Random(len(symbols))
    return [{s: rng.choice(vals) for s in symbols} for _ in range(count)]


def _holds_at(rel: Rel, point: dict) -> bool | None:
    try:
        lhs, rhs = sp.sympify(rel.lhs).subs(point), sp.sympify(rel.rhs).subs(point)
    except (ZeroDivisionError, TypeError):
        return None
    if lhs.has(sp.zoo, sp.nan, sp.oo) or rhs.has(sp.zoo, sp.nan, sp.oo):
        return None
    return _truth_closed(Rel(lhs, rel.op, rhs, lhs, rhs))


def find_counterexample(rel: Rel, ctx: Context) -> dict | None:
    """An exact rational point satisfying the hypotheses where the (universal) relation fails."""
    syms = sorted(rel.lhs.free_symbols | rel.rhs.free_symbols | {s for h in ctx.hypotheses
                                                                 for s in h.lhs.free_symbols | h.rhs.free_symbols},
                  key=str)
    if not syms:
        return None
    for pt in _rational_points(syms):
        if all(_holds_at(h, pt) is True for h in ctx.hypotheses) and _holds_at(rel, pt) is False:
            return pt
    return None


def check_universal(rel: Rel, parents: Sequence[Rel], ctx: Context) -> str:
    """Check a relation stated for all admissible values, given parent relations (also universal)."""
    if not tractable(rel.lhs, rel.rhs, *(x for p in parents for x in (p.lhs, p.rhs))):
        return UNKNOWN
    if not (rel.lhs.free_symbols or rel.rhs.free_symbols):
        t = _truth_closed(rel)
        return UNKNOWN if t is None else (VERIFIED if t else REFUTED)
    if rel.op == "=":
        z = _is_zero(rel.lhs - rel.rhs)
        if z:
            return VERIFIED
    elif rel.op in ("<=", "<", ">=", ">") and _implied(rel, parents, ctx):
        return VERIFIED
    return REFUTED if find_counterexample(rel, ctx) is not None else UNKNOWN


def _implied(rel: Rel, parents: Sequence[Rel], ctx: Context) -> bool:
    """``slack(rel) >= 0`` from parent identities/inequalities and hypotheses, by structure."""
    facts = [sp.expand(p.slack()) for p in parents if p.op in ("<=", "<", ">=", ">")]
    facts += [sp.expand(h.slack()) for h in ctx.hypotheses if h.op in ("<=", "<", ">=", ">")]
    eqs = [sp.expand(h.lhs - h.rhs) for h in ctx.hypotheses if h.op == "="]
    facts += eqs + [-q for q in eqs]
    syms = ctx.nonneg_symbols()
    s = rel.slack()
    cands = [s]
    for p in parents:
        if p.op == "=" and _is_zero(p.lhs - p.rhs):  # a true identity rewrites the slack
            for a, b in ((p.raw_lhs, p.raw_rhs), (p.raw_rhs, p.raw_lhs)):
                if sp.expand(s - a) == 0:
                    cands.append(b)
        elif p.op in ("<=", "<", ">=", ">"):
            ps = p.slack()
            cands.append(s - ps)
            try:
                q = sp.factor(sp.cancel(s / ps))
                if not (q.is_number and q.is_zero):
                    cands.append(sp.Mul(q, ps, evaluate=False))
            except (ZeroDivisionError, sp.PolynomialError):
                pass
    if rel.op in ("<", ">"):
        return any(_positive(c, facts, syms, ctx) for c in cands)
    return any(_nonneg(c, facts, syms) for c in cands)


def _positive(e: sp.Expr, facts: list[sp.Expr], syms: set[sp.Symbol], ctx: Context) -> bool:
    """Strict version, kept conservative: a positive constant plus nonnegative terms, or a
    product of a positive constant and a strict hypothesis/fact."""
    strict_facts = [sp.expand(h.slack()) for h in ctx.hypotheses if h.op in ("<", ">")]
    if e.is_number:
        return bool(e.is_positive)
    ee = sp.expand(e)
    if any(sp.expand(ee - f) == 0 for f in strict_facts):
        return True
    if e.is_Add:
        const = sum((a for a in e.args if a.is_number), sp.Integer(0))
        rest = [a for a in e.args if not a.is_number]
        return bool(const > 0) and all(_nonneg(a, facts, syms) for a in rest)
    if e.is_Mul:
        return all(_positive(a, facts, syms, ctx) for a in e.args)
    return False


def check_conditional(rel: Rel, parents: Sequence[Rel]) -> str:
    """A text claim: true identity, or check on the solutions of the parents' equations."""
    if not tractable(rel.lhs, rel.rhs, *(x for p in parents for x in (p.lhs, p.rhs))):
        return UNKNOWN
    free = rel.lhs.free_symbols | rel.rhs.free_symbols
    if not free:
        t = _truth_closed(rel)
        return UNKNOWN if t is None else (VERIFIED if t else REFUTED)
    if rel.op == "=" and _is_zero(rel.lhs - rel.rhs):
        return VERIFIED
    eqs = [p.lhs - p.rhs for p in parents if p.op == "=" and (p.lhs.free_symbols | p.rhs.free_symbols) & free]
    if not eqs:
        return UNKNOWN
    try:
        sols = sp.solve(eqs, sorted(free, key=str), dict=True)
    except Exception:  # noqa: BLE001 - sympy's solver raises many kinds on hard systems
        return UNKNOWN
    if not sols or len(sols) > 8:
        return UNKNOWN
    verdicts = set()
    for sol in sols:
        sub = Rel(rel.lhs.subs(sol), rel.op, rel.rhs.subs(sol), rel.lhs, rel.rhs)
        if sub.lhs.free_symbols or sub.rhs.free_symbols:
            return UNKNOWN
        verdicts.add(_truth_closed(sub))
    if verdicts == {True}:
        return VERIFIED
    if verdicts == {False}:
        return REFUTED
    return UNKNOWN
