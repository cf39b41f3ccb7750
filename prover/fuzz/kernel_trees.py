"""Generated proof-tree fuzzing of the kernel.

:func:`generate_tree` builds, from a seeded :class:`random.Random`, a small but complete proof file
(the ``prover-proof`` JSON format) of a TRUE statement, using every step kind: ``close`` (``sos``
and ``positivity``), ``rewrite``, ``scale`` (hypothesis and fact applications), ``split``
(``sign`` and ``order``), ``introduce`` (``√``, cube roots, polynomial definitions) and
``substitute`` (shifts, scalings, negation, reciprocals). Each tree is built bottom-up from its
certificates, so it is valid by construction. :func:`mutate` then damages it (coefficients changed,
terms dropped, signs and relations flipped, variables swapped, definitions, substitutions and
inverses changed, hypotheses added or removed, bogus new-hypothesis proofs, hypothesis indices).

The oracle (:mod:`prover.fuzz.lean_eval`) never looks at the kernel: every goal of an ACCEPTED
proof — the root statement first — must be true in Lean's semantics; it is refuted by exact
evaluation at random rational points. A refuted goal of an accepted proof is a *false acceptance*.

The generator itself uses sympy (to expand the certificates into statements); it is not trusted:
a tree the oracle refutes before any mutation is counted as a generator error, never hidden.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from prover.fuzz.lean_eval import Statement, refute

INEQ = (">=", ">", "<=", "<")
_KIND = {">=": "ge", "<=": "ge", ">": "gt", "<": "gt", "=": "eq", "!=": "ne"}
VAR_POOLS = (("x", "y", "z"), ("a", "b", "c"))
FRESH_INTRO = ("s", "t", "w")
FRESH_SUBST = ("p", "q", "r", "m", "n", "d")
STEP_KINDS = ("close_sos", "close_positivity", "rewrite", "scale", "split", "introduce", "substitute", "monotone")


# ---------------------------------------------------------------- goals and relations


@dataclass(frozen=True)
class Rel:
    lhs: str
    op: str
    rhs: str

    def to_json(self) -> dict:
        return {"lhs": self.lhs, "op": self.op, "rhs": self.rhs}


@dataclass(frozen=True)
class TreeContext:
    """Variables and hypotheses of a goal."""

    variables: tuple[str, ...]
    hypotheses: tuple[Rel, ...] = ()

    def syms(self) -> list[sp.Symbol]:
        return [sym(v) for v in self.variables]

    def goal(self, target: Rel) -> dict:
        return {"variables": list(self.variables), "hypotheses": [h.to_json() for h in self.hypotheses],
                "target": target.to_json()}

    def plus(self, *hyps: Rel) -> TreeContext:
        return TreeContext(self.variables, self.hypotheses + hyps)

    def idx(self, pred: Callable[[Rel], bool]) -> list[int]:
        return [i for i, h in enumerate(self.hypotheses) if pred(h)]

    def positive_vars(self) -> list[str]:
        return [h.lhs for h in self.hypotheses if h.op == ">" and h.rhs == "0" and h.lhs in self.variables]

    def nonneg_vars(self) -> list[str]:
        return [h.lhs for h in self.hypotheses if h.op in (">", ">=") and h.rhs == "0" and h.lhs in self.variables]


def sym(name: str) -> sp.Symbol:
    return sp.Symbol(name, real=True)


def to_sympy(text: str, variables: tuple[str, ...] | list[str]) -> sp.Expr:
    """The generator's own reading of its own strings (not a trusted path)."""
    return sp.sympify(text, locals={v: sym(v) for v in variables})


def slack(r: Rel, variables: tuple[str, ...] | list[str]) -> sp.Expr:
    lhs, rhs = to_sympy(r.lhs, variables), to_sympy(r.rhs, variables)
    return rhs - lhs if r.op in ("<=", "<") else lhs - rhs


def step(kind: str, goal: dict, subgoals: list[dict], certificate: dict, children: list[dict]) -> dict:
    return {"kind": kind, "goal": goal, "subgoals": subgoals, "certificate": certificate,
            "children": children, "note": ""}


def proof_document(root: dict, name: str) -> dict:
    """A proof file whose problem is ``root``'s goal."""
    g = root["goal"]
    return json.loads(json.dumps({
        "format": "prover-proof",
        "version": 1,
        "problem": {"name": name, "variables": g["variables"],
                    "hypotheses": [{"name": f"h{i}", **h} for i, h in enumerate(g["hypotheses"])],
                    "goal": g["target"], "real_division": True, "source": None},
        "root": root,
        "meta": {"generator": "prover.fuzz.kernel_trees"},
    }))


# ---------------------------------------------------------------- random pieces

_COEFFS = (1, 2, 3, Fraction(1, 2), Fraction(1, 3), Fraction(3, 2))


def rcoeff(rng: random.Random) -> sp.Rational:
    c = rng.choice(_COEFFS)
    return sp.Rational(c.numerator, c.denominator) if isinstance(c, Fraction) else sp.Integer(c)


def rpoly(rng: random.Random, syms: list[sp.Symbol], max_deg: int = 2, max_terms: int = 3,
          nonzero: bool = True) -> sp.Expr:
    """A random polynomial with small integer coefficients."""
    while True:
        p = sp.Integer(0)
        for _ in range(rng.randint(1, max_terms)):
            mono = sp.Integer(1)
            for _ in range(rng.randint(0, max_deg)):
                mono *= rng.choice(syms)
            p += rng.choice((1, -1, 2, -2, 3)) * mono
        p = sp.expand(p)
        if p != 0 or not nonzero:
            return p


def random_ctx(rng: random.Random, names: tuple[str, ...] | None = None, min_vars: int = 1) -> TreeContext:
    pool = names or rng.choice(VAR_POOLS)
    n = rng.randint(max(1, min_vars), min(3, len(pool)))
    vs = tuple(pool[:n])
    hyps: list[Rel] = []
    for v in vs:
        u = rng.random()
        if u < 0.35:
            hyps.append(Rel(v, ">", "0"))
        elif u < 0.65:
            hyps.append(Rel(v, ">=", "0"))
        elif u < 0.75:
            hyps.append(Rel(v, ">=", "1"))
        elif u < 0.8:
            hyps.append(Rel("0", "<=", v))
    if n >= 2 and rng.random() < 0.2:
        hyps.append(Rel(" + ".join(vs), "=", str(rng.randint(1, 3))))
    rng.shuffle(hyps)
    return TreeContext(vs, tuple(hyps))


# ---------------------------------------------------------------- close / sos


@dataclass
class Sos:
    """``P = Σ c·Π slack(H)·q² + Σ λ·eq(H)`` over a context, and its certificate."""

    P: sp.Expr
    cert: dict
    kind: str  # "ge", "gt" or "eq"


def sos_over(rng: random.Random, ctx: TreeContext, strict: bool | None = None, allow_eq: bool = True,
             denominators: bool = True) -> Sos:
    syms = ctx.syms()
    vs = ctx.variables
    ineq = ctx.idx(lambda h: h.op in INEQ)
    strict_idx = ctx.idx(lambda h: h.op in (">", "<"))
    eqs = ctx.idx(lambda h: h.op == "=")
    P = sp.Integer(0)
    terms: list[dict] = []
    eq_terms: list[dict] = []
    kind = "ge"
    if allow_eq and eqs and rng.random() < 0.12:
        kind = "eq"
    else:
        if strict is None:
            strict = rng.random() < 0.3
        for _ in range(rng.randint(1, 3)):
            c = rcoeff(rng)
            mult = sorted(rng.sample(ineq, rng.randint(0, min(2, len(ineq))))) if ineq else []
            q = rpoly(rng, syms)
            pos = ctx.positive_vars()
            if denominators and pos and rng.random() < 0.15:
                q = q / sym(rng.choice(pos))
            term = c * q**2
            for k in mult:
                term *= slack(ctx.hypotheses[k], vs)
            P += term
            terms.append({"coeff": str(c), "mult": mult, "poly": str(q)})
        if strict:
            kind = "gt"
            c = rcoeff(rng)
            mult = rng.sample(strict_idx, rng.randint(0, min(1, len(strict_idx)))) if strict_idx else []
            q = sp.Integer(rng.choice((1, 2, -1)))
            term = c * q**2
            for k in mult:
                term *= slack(ctx.hypotheses[k], vs)
            P += term
            terms.append({"coeff": str(c), "mult": mult, "poly": str(q)})
    for k in eqs:
        if kind == "eq" or rng.random() < 0.5:
            lam = rpoly(rng, syms, max_deg=1)
            P += lam * slack(ctx.hypotheses[k], vs)
            eq_terms.append({"hyp": k, "poly": str(lam)})
    rng.shuffle(terms)
    return Sos(sp.expand(P), {"method": "sos", "terms": terms, "eq_terms": eq_terms}, kind)


def target_for(rng: random.Random, P: sp.Expr, kind: str, syms: list[sp.Symbol], expand: bool = True) -> Rel:
    """A relation whose slack is ``P`` (``kind`` says which relations ``P`` proves). ``expand=False``
    keeps products with radicals as they are (expanding merges x·√x into x**(3/2))."""
    R = rpoly(rng, syms, nonzero=False) if rng.random() < 0.6 else sp.Integer(0)
    total = str(sp.expand(P + R) if expand else P + R)
    if kind == "eq":
        return Rel(total, "=", str(R))
    ops = (">", "<") if kind == "gt" else (">=", "<=")
    op = rng.choice(ops)
    return Rel(total, op, str(R)) if op in (">=", ">") else Rel(str(R), op, total)


def gen_close_sos(rng: random.Random, ctx: TreeContext | None = None) -> tuple[dict, dict]:
    ctx = ctx or random_ctx(rng)
    s = sos_over(rng, ctx)
    g = ctx.goal(target_for(rng, s.P, s.kind, ctx.syms()))
    return g, step("close", g, [], s.cert, [])


def gen_close_positivity(rng: random.Random) -> tuple[dict, dict]:
    """A sum of products of factors of known sign (written as text, never through sympy)."""
    ctx = random_ctx(rng)
    syms = ctx.syms()
    pos, nonneg = ctx.positive_vars(), ctx.nonneg_vars()

    def factor() -> tuple[str, bool]:
        u = rng.random()
        if u < 0.2:
            return str(rng.choice(_COEFFS)), True
        if u < 0.4 and nonneg:
            v = rng.choice(nonneg)
            return v, v in pos
        if u < 0.6:
            return f"({rpoly(rng, syms)})**{rng.choice((2, 4))}", False
        if u < 0.75:
            arg = rpoly(rng, syms)
            while not arg.free_symbols:  # sqrt(-2) is 0 in Lean but sympy makes it √2·I
                arg = rpoly(rng, syms)
            return f"sqrt({arg})", False
        if u < 0.9 and nonneg:
            v = rng.choice(nonneg)
            return f"{v}**({rng.choice(('1/3', '2/3', '3/2', '1/2'))})", v in pos
        return f"({rpoly(rng, syms, max_deg=1)})**2 + {rng.choice((1, 2))}", True

    terms, strict = [], False
    for _ in range(rng.randint(1, 3)):
        fs = [factor() for _ in range(rng.randint(1, 2))]
        texts = list(dict.fromkeys(f for f, _ in fs))  # never the same factor twice (sympy merges)
        terms.append("*".join(f"({t})" for t in texts))
        strict = strict or all(s for _, s in fs)
    expr = " + ".join(terms)
    op = rng.choice((">", "<") if strict else (">=", "<="))
    t = Rel(expr, op, "0") if op in (">", ">=") else Rel("0", op, expr)
    g = ctx.goal(t)
    return g, step("close", g, [], {"method": "positivity"}, [])


# ---------------------------------------------------------------- rewrite / scale


def _ctx_of(goal: dict) -> TreeContext:
    return TreeContext(tuple(goal["variables"]), tuple(Rel(h["lhs"], h["op"], h["rhs"]) for h in goal["hypotheses"]))


def _target(goal: dict) -> Rel:
    t = goal["target"]
    return Rel(t["lhs"], t["op"], t["rhs"])


def _has_radical(goal: dict) -> bool:
    """Does the goal mention √ or a non-integer power? (sympy would merge them with variable
    multipliers, e.g. x·√x → x**(3/2), which no kernel atom matches.)"""
    texts = [goal["target"]["lhs"], goal["target"]["rhs"]] + [h[k] for h in goal["hypotheses"] for k in ("lhs", "rhs")]
    return any("sqrt" in t or re.search(r"\*\*\s*\(\s*-?\d+\s*/", t) for t in texts)


def _multiplier(rng: random.Random, ctx: TreeContext, constant: bool = False) -> sp.Expr:
    pos = [] if constant else ctx.positive_vars()
    u = rng.random()
    if u < 0.5 or not pos:
        return rcoeff(rng) if u < 0.9 or constant else sym(ctx.variables[0]) ** 2 + 1
    v = sym(rng.choice(pos))
    return rng.choice((v, 1 / v, v**2 + 1, v + 1))


def slack_text(r: Rel) -> str:
    """The slack of ``r`` as text, without any simplification."""
    return f"({r.rhs}) - ({r.lhs})" if r.op in ("<=", "<") else f"({r.lhs}) - ({r.rhs})"


def target_from_text(rng: random.Random, S: str, kind: str, syms: list[sp.Symbol]) -> Rel:
    """Like :func:`target_for` for a slack given as text (kept verbatim: no sympy rewriting of
    radicals, e.g. ``((x + 1)**(1/3))**2`` is not ``(x + 1)**(2/3)`` in Lean for ``x < -1``)."""
    R = str(rpoly(rng, syms, nonzero=False)) if rng.random() < 0.6 else "0"
    total = f"{S} + ({R})"
    if kind == "eq":
        return Rel(total, "=", R)
    op = rng.choice((">", "<") if kind == "gt" else (">=", "<="))
    return Rel(total, op, R) if op in (">=", ">") else Rel(R, op, total)


def _linear_goal(rng: random.Random, ctx: TreeContext, parts: list[tuple[sp.Expr, Rel]], kind: str,
                 radical: bool) -> dict:
    """The goal whose slack is ``Σ coefficient · slack(relation)`` over ``parts``: expanded by sympy
    for polynomial goals, written verbatim when the subgoal mentions radicals."""
    if radical:
        S = " + ".join(f"({c})*({slack_text(r)})" for c, r in parts)
        return ctx.goal(target_from_text(rng, S, kind, ctx.syms()))
    S = sp.expand(sum((c * slack(r, ctx.variables) for c, r in parts), sp.Integer(0)))
    return ctx.goal(target_for(rng, S, kind, ctx.syms()))


def _eq_parts(rng: random.Random, ctx: TreeContext) -> tuple[list[tuple[sp.Expr, Rel]], list[dict]]:
    parts, terms = [], []
    for k in ctx.idx(lambda h: h.op == "="):
        if rng.random() < 0.4:
            lam = rpoly(rng, ctx.syms(), max_deg=1)
            parts.append((lam, ctx.hypotheses[k]))
            terms.append({"hyp": k, "poly": str(lam)})
    return parts, terms


def wrap_rewrite(rng: random.Random, sub: dict, child: dict) -> tuple[dict, dict] | None:
    ctx, t2 = _ctx_of(sub), _target(sub)
    kind = _KIND[t2.op]
    if kind == "ne":
        return None
    radical = _has_radical(sub)
    m = _multiplier(rng, ctx, constant=radical)
    eq_parts, eq_terms = _eq_parts(rng, ctx)
    gkind = kind if kind != "gt" or rng.random() < 0.7 else "ge"
    if kind == "eq" and rng.random() < 0.4:
        gkind = "ge"
    g = _linear_goal(rng, ctx, [(m, t2)] + eq_parts, gkind, radical)
    cert = {"multiplier": str(m), "eq_terms": eq_terms, "new_hypotheses": []}
    return g, step("rewrite", g, [sub], cert, [child])


def wrap_scale(rng: random.Random, sub: dict, child: dict) -> tuple[dict, dict] | None:
    ctx, t2 = _ctx_of(sub), _target(sub)
    kind = _KIND[t2.op]
    if kind == "ne":
        return None
    radical = _has_radical(sub)
    m = _multiplier(rng, ctx, constant=radical) if kind != "eq" else sp.Integer(1)
    parts: list[tuple[sp.Expr, Rel]] = [(m, t2)]
    apps: list[dict] = []
    ineq = ctx.idx(lambda h: h.op in INEQ)
    for _ in range(rng.randint(1, 2)):
        c = rcoeff(rng)
        if ineq and rng.random() < 0.5:
            k = rng.choice(ineq)
            apps.append({"hypothesis": k, "coefficient": str(c)})
            parts.append((c, ctx.hypotheses[k]))
        else:
            f = sos_over(rng, ctx, allow_eq=False)
            fact = target_for(rng, f.P, f.kind, ctx.syms())
            apps.append({"fact": fact.to_json(), "proof": f.cert, "coefficient": str(c)})
            parts.append((c, fact))
    eq_parts, eq_terms = _eq_parts(rng, ctx)
    gkind = "gt" if kind == "gt" and m.is_Rational and rng.random() < 0.5 else "ge"
    g = _linear_goal(rng, ctx, parts + eq_parts, gkind, radical)
    cert = {"applications": apps, "multiplier": str(m), "eq_terms": eq_terms, "new_hypotheses": []}
    return g, step("scale", g, [sub], cert, [child])


# ---------------------------------------------------------------- split


def gen_split(rng: random.Random) -> tuple[dict, dict]:
    ctx = random_ctx(rng, min_vars=2 if rng.random() < 0.5 else 1)
    s = sos_over(rng, ctx)
    t = target_for(rng, s.P, s.kind, ctx.syms())
    g = ctx.goal(t)
    vs = list(ctx.variables)
    if len(vs) >= 2 and rng.random() < 0.5:
        names = rng.sample(vs, rng.choice((2, 3)) if len(vs) >= 3 else 2)
        orders = [list(p) for p in itertools.permutations(names)]
        cases = [ctx.plus(*[Rel(o[i], ">=", o[i + 1]) for i in range(len(o) - 1)]) for o in orders]
        cert: dict = {"cases": "order", "variables": names, "symmetry": "none", "orderings": orders}
    else:
        p = str(rpoly(rng, ctx.syms(), max_deg=1, max_terms=2))
        cases = [ctx.plus(Rel(p, ">=", "0")), ctx.plus(Rel(p, "<=", "0"))]
        cert = {"cases": "sign", "expr": p}
    subs = [c.goal(t) for c in cases]
    children = [step("close", sg, [], copy.deepcopy(s.cert), []) for sg in subs]
    return g, step("split", g, subs, cert, children)


# ---------------------------------------------------------------- introduce


def _replace_names(text: str, mapping: dict[str, str]) -> str:
    """Replace whole-word variable names simultaneously (``s`` but not the ``s`` of ``sqrt``)."""
    if not mapping:
        return text
    pat = re.compile(r"\b(" + "|".join(map(re.escape, mapping)) + r")\b")
    return pat.sub(lambda m: mapping[m.group(1)], text)


def gen_introduce(rng: random.Random) -> tuple[dict, dict]:
    base = random_ctx(rng)
    vs = base.variables
    x = rng.choice(vs)
    hyps = list(base.hypotheses)
    if x not in base.nonneg_vars():
        hyps.append(Rel(x, rng.choice((">", ">=")), "0"))
    ctx = TreeContext(vs, tuple(hyps))
    new = next(n for n in FRESH_INTRO if n not in vs)
    nonneg = ctx.nonneg_vars()
    kind = rng.choice(("sqrt", "sqrt", "cbrt", "poly"))
    # never a bare variable under the root: sympy would merge √x·x into x**(3/2), an atom of its
    # own that the subgoal (s·x) does not match — a completeness gap, not what is fuzzed here
    others = [v for v in nonneg if v != x]
    X = rng.choice([f"{x} + 1", f"{x} + 2"] + [f"{x}*{o}" for o in others] + [f"{x} + {o}" for o in others])
    if kind == "poly":
        y = rng.choice(vs)
        D = rng.choice((f"{x}*{y}", f"{x} + {y}", f"{x}**2", f"{x} - {y}"))
        facts = [Rel(new, "=", D)]
        reduce_q = None
    else:
        q = 2 if kind == "sqrt" else 3
        D = f"sqrt({X})" if q == 2 else f"({X})**(1/3)"
        facts = [Rel(new, ">=", "0"), Rel(f"{new}**{q}", "=", X)]
        reduce_q = q
    sub_ctx = TreeContext(vs + (new,), ctx.hypotheses + tuple(facts))
    s = sos_over(rng, sub_ctx, allow_eq=False, denominators=False)
    P, cert = s.P, s.cert
    if reduce_q is not None:
        # keep the subgoal's target of degree < q in the new variable: then putting D back never
        # produces (√X)² that sympy would rewrite. P = λ·(v^q − X) + R, R is the target's slack.
        v = sym(new)
        div = v**reduce_q - to_sympy(X, vs)
        lam, R = sp.div(sp.Poly(P, v), sp.Poly(div, v))
        lam, R = lam.as_expr(), R.as_expr()
        if lam != 0:
            cert["eq_terms"].append({"hyp": len(sub_ctx.hypotheses) - 1, "poly": str(sp.expand(-lam))})
        P = sp.expand(R)
    t2 = target_for(rng, P, s.kind, ctx.syms())
    sub = sub_ctx.goal(t2)
    back = {new: f"({D})"}
    g = ctx.goal(Rel(_replace_names(t2.lhs, back), t2.op, _replace_names(t2.rhs, back)))
    leaf = step("close", sub, [], cert, [])
    return g, step("introduce", g, [sub], {"definitions": {new: D}}, [leaf])


# ---------------------------------------------------------------- substitute


def wrap_substitute(rng: random.Random, sub: dict, child: dict) -> tuple[dict, dict] | None:
    ctx = _ctx_of(sub)
    taken = set(ctx.variables)
    fwd: dict[str, str] = {}     # old (goal) variable -> f(new variables)
    inv: dict[str, str] = {}     # new (subgoal) variable -> g(old variables)
    old_vars: list[str] = []
    extra: list[Rel] = []
    pos = set(ctx.positive_vars())
    radical = _has_radical(sub)
    for v in ctx.variables:
        if rng.random() < 0.3:
            old_vars.append(v)
            continue
        n = next(c for c in FRESH_SUBST if c not in taken)
        taken.add(n)
        old_vars.append(n)
        # under a radical, sympy splits constant factors (√(2p + 2) → √2·√(p + 1)): shifts only
        choices = ["shift", "neg"] if radical else ["shift", "scale", "neg"] + (["recip", "recip"] if v in pos else [])
        kind = rng.choice(choices)
        if kind == "shift":
            k = rng.choice(("1", "2", "1/2", "-1"))
            fwd[n], inv[v] = f"{v} + {k}", f"{n} - ({k})"
        elif kind == "scale":
            k = rng.choice(("2", "3", "1/2", "-2"))
            fwd[n], inv[v] = f"({k})*{v}", f"{n}/({k})"
        elif kind == "neg":
            fwd[n], inv[v] = f"-{v}", f"-{n}"
        else:
            fwd[n], inv[v] = f"1/{v}", f"1/{n}"
            extra.append(Rel(n, ">", "0"))
    if not fwd:
        return None
    back = {v: f"({g})" for v, g in inv.items()}
    hyps = tuple(Rel(_replace_names(h.lhs, back), h.op, _replace_names(h.rhs, back)) for h in ctx.hypotheses)
    gctx = TreeContext(tuple(old_vars), hyps + tuple(extra))
    t2 = _target(sub)
    g = gctx.goal(Rel(_replace_names(t2.lhs, back), t2.op, _replace_names(t2.rhs, back)))
    cert = {"substitution": fwd, "inverse": inv}
    return g, step("substitute", g, [sub], cert, [child])


# ---------------------------------------------------------------- monotone


def wrap_monotone(rng: random.Random, sub: dict, child: dict) -> tuple[dict, dict] | None:
    """``√a ≤ √b`` (or ``b^(1/3) ≥ a^(1/3)`` with a proved ``0 ≤ a``) from the subgoal ``a ≤ b``.
    Only non-strict subgoals (a strict ``√`` goal needs ``0 ≤ a`` too); the rpow form only over
    nonnegative variables, its sign subgoal ``0 ≤ a`` closed by positivity when ``a`` is such a
    variable."""
    t = _target(sub)
    if t.op not in (">=", "<="):
        return None
    small, big = (t.rhs, t.lhs) if t.op == ">=" else (t.lhs, t.rhs)
    ctx = _ctx_of(sub)
    if small in ctx.nonneg_vars() and rng.random() < 0.5:
        cert = {"function": "rpow", "small": small, "big": big, "exponent": "1/3"}
        fs, fb = f"({small})**(1/3)", f"({big})**(1/3)"
        sign = ctx.goal(Rel("0", "<=", small))
        subs, children = [sub, sign], [child, step("close", sign, [], {"method": "positivity"}, [])]
    else:
        cert = {"function": "sqrt", "small": small, "big": big}
        fs, fb = f"sqrt({small})", f"sqrt({big})"
        subs, children = [sub], [child]
    g = ctx.goal(Rel(fb, ">=", fs) if rng.random() < 0.5 else Rel(fs, "<=", fb))
    return g, step("monotone", g, subs, cert, children)


# ---------------------------------------------------------------- trees


def gen_subtree(rng: random.Random, depth: int, kinds: Counter) -> tuple[dict, dict]:
    """A valid proof (goal, step) of a true goal; ``depth`` bounds the wrappers."""
    leaves = ("close_sos", "close_positivity", "split", "introduce")
    choices = leaves + (("rewrite", "scale", "substitute") * 2 + ("monotone",) if depth > 0 else ())
    kind = rng.choice(choices)
    if kind in ("rewrite", "scale", "substitute", "monotone"):
        sub, child = gen_subtree(rng, depth - 1, kinds)
        wrap = {"rewrite": wrap_rewrite, "scale": wrap_scale, "substitute": wrap_substitute,
                "monotone": wrap_monotone}[kind]
        out = wrap(rng, sub, child)
        if out is not None:
            kinds[kind] += 1
            return out
        return sub, child
    kinds[kind] += 1
    if kind == "close_sos":
        return gen_close_sos(rng)
    if kind == "close_positivity":
        return gen_close_positivity(rng)
    if kind == "split":
        return gen_split(rng)
    return gen_introduce(rng)


def generate_tree(rng: random.Random, max_depth: int = 2, name: str = "fuzz") -> tuple[dict, Counter]:
    """A proof document of a true statement, and the step kinds it uses."""
    kinds: Counter = Counter()
    _, root = gen_subtree(rng, rng.randint(0, max_depth), kinds)
    return proof_document(root, name), kinds


# ---------------------------------------------------------------- walking documents


def iter_steps(doc: dict) -> Iterator[tuple[dict | None, int, dict]]:
    """(parent, index in parent, step) for every step, root first."""
    stack: list[tuple[dict | None, int, dict]] = [(None, 0, doc["root"])]
    while stack:
        parent, i, st = stack.pop()
        yield parent, i, st
        for j, c in reversed(list(enumerate(st.get("children", [])))):
            stack.append((st, j, c))


def all_goals(doc: dict) -> list[dict]:
    """Every goal in a document (problem, step goals, subgoals), unique, the problem first."""
    pr = doc["problem"]
    out = [{"variables": pr["variables"],
            "hypotheses": [{k: h[k] for k in ("lhs", "op", "rhs")} for h in pr["hypotheses"]],
            "target": pr["goal"]}]
    for _, _, st in iter_steps(doc):
        out.append(st["goal"])
        out.extend(st.get("subgoals", []))
    seen, unique = set(), []
    for g in out:
        key = json.dumps(g, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(g)
    return unique


def _goal_dicts(doc: dict) -> list[dict]:
    out = []
    for _, _, st in iter_steps(doc):
        out.append(st["goal"])
        out.extend(st.get("subgoals", []))
    return out


def _rel_key(d: dict) -> tuple[str, str, str]:
    return (d.get("lhs"), d.get("op"), d.get("rhs"))


def _replace_relation_in(g: dict, target_key: str, old: tuple[str, str, str], new: dict | None,
                         keep_names: bool) -> int:
    """Replace (or delete) relation ``old`` in one goal-like dict: its ``target_key`` relation and
    its hypotheses (keeping their ``name`` where ``keep_names``, as the problem's hypotheses have one)."""
    n = 0
    if _rel_key(g[target_key]) == old and new is not None:
        g[target_key] = dict(new)
        n += 1
    hs = g["hypotheses"]
    for i in reversed(range(len(hs))):
        if _rel_key(hs[i]) == old:
            n += 1
            if new is None:
                del hs[i]
            elif keep_names:
                hs[i] = {"name": hs[i].get("name", "h"), **new}
            else:
                hs[i] = dict(new)
    return n


def replace_relation_everywhere(doc: dict, old: tuple[str, str, str], new: dict | None) -> int:
    """Replace (or delete, ``new=None``) every occurrence of relation ``old`` in goals and problem."""
    n = 0
    for g in _goal_dicts(doc):
        n += _replace_relation_in(g, "target", old, new, keep_names=False)
    return n + _replace_relation_in(doc["problem"], "goal", old, new, keep_names=True)


# ---------------------------------------------------------------- mutations

_FLIP = {">=": ("<=", ">", "="), ">": (">=", "<", "!="), "<=": (">=", "<"), "<": ("<=", ">"),
         "=": (">=", "<=", "!="), "!=": ("=",)}
_MIRROR = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "=", "!=": "!="}


def _doc_variables(doc: dict) -> list[str]:
    vs: set[str] = set()
    for g in _goal_dicts(doc):
        vs |= set(g["variables"])
    return sorted(vs)


def _swap_two(text: str, names: list[str], rng: random.Random) -> str:
    present = [v for v in names if re.search(rf"\b{re.escape(v)}\b", text)]
    if not present:
        return text
    a = rng.choice(present)
    b = rng.choice([v for v in names if v != a] or [a])
    return _replace_names(text, {a: b, b: a})


def _mutate_expr(text: str, rng: random.Random, names: list[str]) -> str:
    u = rng.random()
    if u < 0.2:
        return f"-({text})"
    if u < 0.4:
        return f"({text}) + {rng.choice(('1', '-1', '1/2', '-1/100'))}"
    if u < 0.55:
        return f"{rng.choice(('2', '1/2', '-1', '0'))}*({text})"
    if u < 0.75:
        return _swap_two(text, names, rng)
    if u < 0.85:
        return f"({text})**2"
    return rng.choice(("0", "1", "-1", names[0] if names else "1"))


def _cert_string_slots(doc: dict) -> list[tuple[Any, Any, str]]:
    """(container, key, what) of every string or integer in every certificate."""
    slots: list[tuple[Any, Any, str]] = []

    def visit(obj: Any, what: str) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                w = k if what in ("", "cert") else what
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    if k in ("method", "cases", "symmetry", "op"):
                        continue
                    slots.append((obj, k, w if k not in ("lhs", "rhs") else "fact"))
                else:
                    visit(v, w)
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    slots.append((obj, i, what))
                else:
                    visit(v, what)

    for _, _, st in iter_steps(doc):
        visit(st["certificate"], "cert")
    return slots


def _cert_list_slots(doc: dict) -> list[list]:
    out: list[list] = []

    def visit(obj: Any) -> None:
        if isinstance(obj, dict):
            for v in obj.values():
                visit(v)
        elif isinstance(obj, list):
            if obj:
                out.append(obj)
            for v in obj:
                visit(v)

    for _, _, st in iter_steps(doc):
        visit(st["certificate"])
    return out


def _local_goal_edit(doc: dict, rng: random.Random, edit: Callable[[dict], None]) -> bool:
    """Apply ``edit`` to one step's goal and to its twins (the parent's subgoal, or the problem)."""
    steps = list(iter_steps(doc))
    parent, i, st = rng.choice(steps)
    edit(st["goal"])
    if parent is None:
        pr = doc["problem"]
        g = st["goal"]
        pr["variables"] = list(g["variables"])
        pr["hypotheses"] = [{"name": f"h{j}", **h} for j, h in enumerate(g["hypotheses"])]
        pr["goal"] = dict(g["target"])
    elif i < len(parent["subgoals"]):
        parent["subgoals"][i] = copy.deepcopy(st["goal"])
    return True


def _random_hypothesis(rng: random.Random, variables: list[str]) -> dict:
    v = rng.choice(variables)
    w = rng.choice(variables)
    return rng.choice([
        {"lhs": v, "op": ">=", "rhs": "0"}, {"lhs": v, "op": "<=", "rhs": "0"}, {"lhs": v, "op": "=", "rhs": "0"},
        {"lhs": v, "op": "=", "rhs": w}, {"lhs": v, "op": ">", "rhs": "1"}, {"lhs": f"{v}*{w}", "op": ">=", "rhs": "1"},
        {"lhs": v, "op": "!=", "rhs": "0"}, {"lhs": f"{v}**2", "op": "=", "rhs": "2"},
    ])


#: mutation operations and their weights (composite attacks are rarer to apply, so weighted up)
MUTATIONS: dict[str, int] = {
    "coefficient": 3, "drop_item": 2, "relation_flip": 2, "relation_expr": 2, "relation_mirror": 1,
    "swap_variables": 2, "definition": 2, "substitution": 2, "drop_hypothesis": 2,
    "drop_hypothesis_local": 1, "add_hypothesis": 2, "hypothesis_index": 1, "empty_new_hypothesis": 2,
    "unguarded_fact": 3, "root_target": 1,
}


def mutate_once(doc: dict, rng: random.Random) -> str:
    """Damage ``doc`` in place by one random operation; returns the operation's name."""
    ops, weights = list(MUTATIONS), list(MUTATIONS.values())
    for _ in range(8):
        op = rng.choices(ops, weights)[0]
        if _apply(doc, op, rng):
            return op
    _apply(doc, "root_target", rng)
    return "root_target"


def _apply(doc: dict, op: str, rng: random.Random) -> bool:
    """Apply one mutation; False (and ``doc`` unchanged) where it does not apply."""
    names = _doc_variables(doc)
    fn = _MUTATORS.get(op)
    return fn(doc, rng, names) if fn is not None else False


def _string_slots(doc: dict, kind: type) -> list[tuple[Any, Any, str]]:
    """The certificate slots holding a value of type ``kind``."""
    return [s for s in _cert_string_slots(doc) if isinstance(s[0][s[1]], kind)]


def _mut_coefficient(doc: dict, rng: random.Random, names: list[str]) -> bool:
    slots = _string_slots(doc, str)
    if slots:
        cont, key, _ = rng.choice(slots)
        cont[key] = _mutate_expr(cont[key], rng, names)
        return True
    return False


def _mut_drop_item(doc: dict, rng: random.Random, names: list[str]) -> bool:
    lists = _cert_list_slots(doc)
    if lists:
        lst = rng.choice(lists)
        del lst[rng.randrange(len(lst))]
        return True
    return False


def _mutated_relation(op: str, old: dict, rng: random.Random, names: list[str]) -> dict:
    """``old`` with its operator flipped, its sides mirrored, or one side's expression mutated."""
    new = dict(old)
    if op == "relation_flip":
        new["op"] = rng.choice(_FLIP[old["op"]])
    elif op == "relation_mirror":
        new = {"lhs": old["rhs"], "op": _MIRROR[old["op"]], "rhs": old["lhs"]}
    else:
        side = rng.choice(("lhs", "rhs"))
        new[side] = _mutate_expr(old[side], rng, names)
    return new


def _mut_relation(op: str) -> Callable[[dict, random.Random, list[str]], bool]:
    """The ``relation_*`` mutation ``op``: change one relation everywhere, or in one goal only."""

    def mutate(doc: dict, rng: random.Random, names: list[str]) -> bool:
        goals = _goal_dicts(doc)
        rels = [g["target"] for g in goals] + [h for g in goals for h in g["hypotheses"]]
        old = dict(rng.choice(rels))
        new = _mutated_relation(op, old, rng, names)
        if rng.random() < 0.7:
            replace_relation_everywhere(doc, _rel_key(old), new)
        else:
            def edit(g: dict) -> None:
                if _rel_key(g["target"]) == _rel_key(old):
                    g["target"] = new
                g["hypotheses"] = [new if _rel_key(h) == _rel_key(old) else h for h in g["hypotheses"]]
            _local_goal_edit(doc, rng, edit)
        return True

    return mutate


def _mut_swap_variables(doc: dict, rng: random.Random, names: list[str]) -> bool:
    slots = _string_slots(doc, str)
    if slots and rng.random() < 0.5:
        cont, key, _ = rng.choice(slots)
        cont[key] = _swap_two(cont[key], names, rng)
    else:
        goals = _goal_dicts(doc)
        old = dict(rng.choice([g["target"] for g in goals]))
        new = {**old, "lhs": _swap_two(old["lhs"], names, rng), "rhs": _swap_two(old["rhs"], names, rng)}
        replace_relation_everywhere(doc, _rel_key(old), new)
    return True


def _mut_definition(doc: dict, rng: random.Random, names: list[str]) -> bool:
    defs = [st["certificate"]["definitions"] for _, _, st in iter_steps(doc)
            if isinstance(st["certificate"].get("definitions"), dict)]
    if defs:
        d = rng.choice(defs)
        k = rng.choice(list(d))
        D = d[k]
        d[k] = rng.choice((f"sqrt({D})", f"-({D})", f"({D})**2", f"({D})**(2/3)", f"({D}) + 1",
                           re.sub(r"sqrt\((.*)\)$", r"(\1)**(1/3)", D), D.replace("**(1/3)", "**(2/3)"),
                           f"sqrt(-({D}))", f"1/({D})", _swap_two(D, names, rng)))
        return True
    return False


def _mut_substitution(doc: dict, rng: random.Random, names: list[str]) -> bool:
    maps = [st["certificate"][key] for _, _, st in iter_steps(doc) for key in ("inverse", "substitution")
            if isinstance(st["certificate"].get(key), dict) and st["certificate"][key]]
    if maps:
        m = rng.choice(maps)
        k = rng.choice(list(m))
        g = m[k]
        m[k] = rng.choice((f"({g}) + 1", f"2*({g})", f"-({g})", f"1/({g})", f"({g})**2", f"sqrt({g})",
                           _swap_two(g, names, rng), g.replace("-", "+")))
        return True
    return False


def _mut_drop_hypothesis(doc: dict, rng: random.Random, names: list[str]) -> bool:
    hyps = [h for g in _goal_dicts(doc) for h in g["hypotheses"]]
    if hyps:
        replace_relation_everywhere(doc, _rel_key(rng.choice(hyps)), None)
        return True
    return False


def _mut_drop_hypothesis_local(doc: dict, rng: random.Random, names: list[str]) -> bool:
    def drop(g: dict) -> None:
        if g["hypotheses"]:
            del g["hypotheses"][rng.randrange(len(g["hypotheses"]))]
    _local_goal_edit(doc, rng, drop)
    return True


def _mut_add_hypothesis(doc: dict, rng: random.Random, names: list[str]) -> bool:
    def add(g: dict) -> None:
        g["hypotheses"].append(_random_hypothesis(rng, g["variables"]))
    _local_goal_edit(doc, rng, add)
    return True


def _mut_hypothesis_index(doc: dict, rng: random.Random, names: list[str]) -> bool:
    slots = _string_slots(doc, int)
    if slots:
        cont, key, _ = rng.choice(slots)
        cont[key] = max(0, cont[key] + rng.choice((-1, 1, 2)))
        return True
    return False


def _mut_empty_new_hypothesis(doc: dict, rng: random.Random, names: list[str]) -> bool:
    sts = [st for _, _, st in iter_steps(doc) if st["kind"] in ("rewrite", "scale", "introduce", "substitute")
           and st["subgoals"] and st["subgoals"][0]["hypotheses"]]
    if sts:
        st = rng.choice(sts)
        j = rng.randrange(len(st["subgoals"][0]["hypotheses"]))
        st["certificate"].setdefault("new_hypotheses", []).append(
            {"index": j, "proof": dict(EMPTY_PROOF)})
        return True
    return False


def _mut_unguarded_fact(doc: dict, rng: random.Random, names: list[str]) -> bool:
    return _unguarded_fact(doc, rng)


def _mut_root_target(doc: dict, rng: random.Random, names: list[str]) -> bool:
    old = dict(doc["root"]["goal"]["target"])
    new = {**old, "lhs": f"({old['lhs']}) + {rng.choice(('1/1000', '-1/1000', '1', '-1'))}"}
    replace_relation_everywhere(doc, _rel_key(old), new)
    return True


#: each mutation operation of ``MUTATIONS``: ``(doc, rng, variable names) -> applied?``
_MUTATORS: dict[str, Callable[[dict, random.Random, list[str]], bool]] = {
    "coefficient": _mut_coefficient, "drop_item": _mut_drop_item,
    "relation_flip": _mut_relation("relation_flip"), "relation_expr": _mut_relation("relation_expr"),
    "relation_mirror": _mut_relation("relation_mirror"), "swap_variables": _mut_swap_variables,
    "definition": _mut_definition, "substitution": _mut_substitution, "drop_hypothesis": _mut_drop_hypothesis,
    "drop_hypothesis_local": _mut_drop_hypothesis_local, "add_hypothesis": _mut_add_hypothesis,
    "hypothesis_index": _mut_hypothesis_index, "empty_new_hypothesis": _mut_empty_new_hypothesis,
    "unguarded_fact": _mut_unguarded_fact, "root_target": _mut_root_target,
}


EMPTY_PROOF = {"method": "sos", "terms": [], "eq_terms": []}


def _unguarded_fact(doc: dict, rng: random.Random) -> bool:
    """A composite attack on ``introduce``: weaken the sign hypotheses that make ``v**q = X`` a
    kernel fact (``x >= 0`` becomes ``x >= -2``, same index), state the fact mirrored
    (``X = v**q``) and "prove" it with an empty certificate. Sound kernels must reject it: without
    ``X >= 0``, ``(√X)² = X`` is false in Lean."""
    sts = [st for _, _, st in iter_steps(doc) if st["kind"] == "introduce" and st["subgoals"]]
    if not sts:
        return False
    st = rng.choice(sts)
    sub = st["subgoals"][0]
    eqs = [j for j, h in enumerate(sub["hypotheses"]) if h["op"] == "=" and "**" in h["lhs"]]
    if not eqs:
        return False
    j = rng.choice(eqs)
    fact = dict(sub["hypotheses"][j])
    for h in list(st["goal"]["hypotheses"]):
        if h["lhs"] in st["goal"]["variables"] and re.search(rf"\b{re.escape(h['lhs'])}\b", fact["rhs"]) \
                and h["op"] in (">=", ">") and h["rhs"] == "0":
            replace_relation_everywhere(doc, _rel_key(h), {"lhs": h["lhs"], "op": ">=", "rhs": "-2"})
    replace_relation_everywhere(doc, _rel_key(fact), {"lhs": fact["rhs"], "op": "=", "rhs": fact["lhs"]})
    st["certificate"].setdefault("new_hypotheses", []).append({"index": j, "proof": dict(EMPTY_PROOF)})
    for child in st["children"]:  # eq(X = v**q) = −eq(v**q = X): keep the child's certificate valid
        for t in child["certificate"].get("eq_terms") or []:
            if isinstance(t, dict) and t.get("hyp") == j:
                t["poly"] = f"-({t['poly']})"
    return True


def mutate(doc: dict, rng: random.Random) -> tuple[dict, list[str]]:
    """A damaged copy of ``doc`` (1–3 operations) and the operations applied."""
    out = copy.deepcopy(doc)
    k = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
    ops = [mutate_once(out, rng) for _ in range(k)]
    out["problem"]["name"] = doc["problem"]["name"] + "-mutant"
    return out, ops


# ---------------------------------------------------------------- checking (the system under test)


def _proof_class() -> Any:
    from prover.ir import Proof

    return Proof


def kernel_verdict(doc: dict) -> tuple[str, str]:
    """``("accepted" | "rejected" | "unreadable" | "crash", detail)`` through the stable interface
    ``check_proof(Proof.loads(text))``."""
    from prover.kernel.check import check_proof

    text = json.dumps(doc)
    try:
        proof = _proof_class().loads(text)
    except ValueError as exc:
        return "unreadable", str(exc)[:300]
    try:
        v = check_proof(proof)
    except ValueError as exc:
        return "unreadable", str(exc)[:300]
    except Exception as exc:  # noqa: BLE001 - a kernel crash is reported, never an acceptance
        return "crash", f"{type(exc).__name__}: {exc}"[:300]
    return ("accepted", "") if v.ok else ("rejected", "; ".join(v.errors)[:300])


# ---------------------------------------------------------------- the oracle


@dataclass
class OracleResult:
    refuted: bool
    goal_index: int = -1          # 0 is the root statement (the problem)
    counterexample: dict[str, str] | None = None
    checked_points: int = 0
    undetermined_points: int = 0
    unreadable: int = 0


def oracle(doc: dict, rng: random.Random, root_points: int = 60, node_points: int = 15) -> OracleResult:
    """Refute any goal of the document (the root with more points) by exact evaluation."""
    res = OracleResult(False)
    for gi, g in enumerate(all_goals(doc)):
        try:
            st = Statement.from_goal_json(g)
        except (KeyError, TypeError):
            res.unreadable += 1
            continue
        ev = refute(st, rng, points=root_points if gi == 0 else node_points)
        res.checked_points += ev.checked
        res.undetermined_points += ev.undetermined
        if ev.unreadable:
            res.unreadable += 1
        if ev.counterexample is not None:
            return OracleResult(True, gi, ev.counterexample, res.checked_points, res.undetermined_points,
                                res.unreadable)
    return res


# ---------------------------------------------------------------- the campaign


@dataclass
class FuzzReport:
    seed: int
    trees: int
    mutants_per_tree: int
    base_accepted: int = 0
    base_rejected: int = 0
    generator_errors: int = 0             # a base tree the oracle refutes (generator/oracle bug)
    mutants: int = 0
    mutants_accepted: int = 0
    mutants_rejected: int = 0
    mutants_unreadable: int = 0
    kernel_crashes: int = 0
    false_acceptances: int = 0            # accepted, and some goal refuted (root or inner)
    false_root_acceptances: int = 0       # accepted, and the root statement refuted
    oracle_points: int = 0
    oracle_undetermined: int = 0
    step_kinds: dict[str, int] = field(default_factory=dict)
    mutation_ops: dict[str, int] = field(default_factory=dict)
    accepted_by_op: dict[str, int] = field(default_factory=dict)
    base_rejections: list[dict] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    max_check_seconds: float = 0.0
    duration_seconds: float = 0.0
    machine: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


def machine_info() -> dict[str, Any]:
    from prover.eval.machine import machine_info as info

    return {**info(), "sympy": sp.__version__}


def run_campaign(trees: int, seed: int, mutants_per_tree: int = 4, max_depth: int = 2,
                 progress: Callable[[int, FuzzReport], None] | None = None,
                 keep_findings: int = 20) -> FuzzReport:
    """Generate ``trees`` valid proof trees and ``mutants_per_tree`` mutants of each, check all with
    the kernel and every accepted one with the oracle."""
    t0 = time.perf_counter()
    rep = FuzzReport(seed, trees, mutants_per_tree, machine=machine_info())
    kinds: Counter = Counter()
    ops: Counter = Counter()
    acc_ops: Counter = Counter()
    for i in range(trees):
        rng = random.Random(f"kernel-fuzz:{seed}:{i}")
        doc, k = generate_tree(rng, max_depth=max_depth, name=f"fuzz-{seed}-{i}")
        kinds.update(k)
        _check_tree(rep, doc, k, seed, i, keep_findings)
        seen = {json.dumps(doc, sort_keys=True)}
        for j in range(mutants_per_tree):
            mdoc, mops = mutate(doc, rng)
            key = json.dumps(mdoc, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            ops.update(mops)
            if _check_mutant(rep, mdoc, mops, seed, i, j, keep_findings):
                acc_ops.update(mops)
        if progress is not None:
            progress(i + 1, rep)
    rep.step_kinds = dict(sorted(kinds.items()))
    rep.mutation_ops = dict(sorted(ops.items()))
    rep.accepted_by_op = dict(sorted(acc_ops.items()))
    rep.duration_seconds = round(time.perf_counter() - t0, 2)
    rep.max_check_seconds = round(rep.max_check_seconds, 3)
    return rep


def _check_tree(rep: FuzzReport, doc: dict, k: Counter, seed: int, i: int, keep_findings: int) -> None:
    """Check generated tree ``i`` with the kernel and the oracle, counting into ``rep``."""
    verdict, detail, dt = _timed_verdict(doc)
    rep.max_check_seconds = max(rep.max_check_seconds, dt)
    orc = oracle(doc, random.Random(f"oracle:{seed}:{i}"))
    rep.oracle_points += orc.checked_points
    rep.oracle_undetermined += orc.undetermined_points
    if orc.refuted:
        rep.generator_errors += 1
        _keep(rep.findings, keep_findings, {"kind": "generator_error", "tree": i, "goal": orc.goal_index,
                                            "counterexample": orc.counterexample, "proof": doc})
    if verdict == "accepted":
        rep.base_accepted += 1
    else:
        rep.base_rejected += 1
        rep.kernel_crashes += verdict == "crash"
        _keep(rep.base_rejections, keep_findings, {"tree": i, "verdict": verdict, "why": detail,
                                                   "kinds": dict(k)})


def _check_mutant(rep: FuzzReport, mdoc: dict, mops: list[str], seed: int, i: int, j: int,
                  keep_findings: int) -> bool:
    """Check mutant ``j`` of tree ``i`` (the oracle only where the kernel accepts it); True if accepted."""
    rep.mutants += 1
    verdict, detail, dt = _timed_verdict(mdoc)
    rep.max_check_seconds = max(rep.max_check_seconds, dt)
    if verdict != "accepted":
        rep.mutants_rejected += 1
        rep.mutants_unreadable += verdict == "unreadable"
        rep.kernel_crashes += verdict == "crash"
        if verdict == "crash":
            _keep(rep.findings, keep_findings, {"kind": "kernel_crash", "tree": i, "mutant": j,
                                                "ops": mops, "why": detail, "proof": mdoc})
        return False
    rep.mutants_accepted += 1
    orc = oracle(mdoc, random.Random(f"oracle:{seed}:{i}:{j}"))
    rep.oracle_points += orc.checked_points
    rep.oracle_undetermined += orc.undetermined_points
    if orc.refuted:
        rep.false_acceptances += 1
        rep.false_root_acceptances += orc.goal_index == 0
        _keep(rep.findings, keep_findings, {"kind": "false_acceptance", "tree": i, "mutant": j,
                                            "ops": mops, "goal": orc.goal_index,
                                            "counterexample": orc.counterexample, "proof": mdoc})
    return True


def _timed_verdict(doc: dict) -> tuple[str, str, float]:
    t = time.perf_counter()
    v, d = kernel_verdict(doc)
    return v, d, time.perf_counter() - t


def _keep(lst: list, limit: int, item: dict) -> None:
    if len(lst) < limit:
        lst.append(item)


def report_markdown(rep: FuzzReport, command: str = "") -> str:
    """A short human-readable summary of a campaign."""
    lines = [
        "# Kernel proof-tree fuzzing",
        "",
        f"Command: `{command}`" if command else "",
        (f"Seed {rep.seed}; {rep.trees} trees × up to {rep.mutants_per_tree} mutants; "
         f"{rep.duration_seconds} s on {rep.machine.get('cpu_model')} ({rep.machine.get('cores')} CPUs, "
         f"Python {rep.machine.get('python')}, {rep.machine.get('platform')})."),
        "",
        "| | count |",
        "|---|---|",
        f"| trees generated (valid proofs of true statements) | {rep.trees} |",
        f"| … accepted by the kernel | {rep.base_accepted} |",
        f"| … rejected by the kernel (incompleteness, not unsoundness) | {rep.base_rejected} |",
        f"| … refuted by the oracle (generator errors) | {rep.generator_errors} |",
        f"| mutants checked | {rep.mutants} |",
        f"| … accepted | {rep.mutants_accepted} |",
        f"| … rejected (of which unreadable files) | {rep.mutants_rejected} ({rep.mutants_unreadable}) |",
        f"| kernel crashes (counted as rejections) | {rep.kernel_crashes} |",
        f"| **false acceptances** (accepted, some goal refuted) | **{rep.false_acceptances}** |",
        f"| … of them with the root statement refuted | {rep.false_root_acceptances} |",
        f"| oracle points decided / skipped as irrational | {rep.oracle_points} / {rep.oracle_undetermined} |",
        f"| slowest single check | {rep.max_check_seconds} s |",
        "",
        "Step kinds generated: " + ", ".join(f"{k} {v}" for k, v in rep.step_kinds.items()),
        "",
        "Mutation operations (applied / in accepted mutants): " + ", ".join(
            f"{k} {v}/{rep.accepted_by_op.get(k, 0)}" for k, v in rep.mutation_ops.items()),
    ]
    if rep.findings:
        lines += ["", "## Findings", ""]
        for f in rep.findings:
            lines.append(f"* {f['kind']}: tree {f['tree']}" + (f", mutant {f['mutant']} ({', '.join(f['ops'])})"
                                                               if "mutant" in f else "")
                         + (f", goal {f.get('goal')} false at {f.get('counterexample')}" if f.get("counterexample")
                            else f": {f.get('why', '')}"))
    return "\n".join(x for x in lines if x is not None) + "\n"
