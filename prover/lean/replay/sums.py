"""Finite sums over ``n`` terms: casts ``ℕ → ℝ``, the ``Finset`` lemmas, ``simp only`` with the
linearity lemmas, ``omega`` and ``exact_mod_cast`` on facts about one natural number; the case
``n = 0`` (``simp at *`` where it closes the goal, ``simp only`` with the empty-sum lemmas);
Cauchy–Schwarz (``Finset.sum_mul_sq_le_sq_mul_sq``, ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul``).

The terms (see :mod:`terms`): ``("sum", S, uid, body)`` for ``∑ uid ∈ S, body`` with ``S`` the
finset ``("univ", Fin N)`` (``∑ i, …`` / ``∑ i : Fin N, …``) or ``Finset.range N``;
``("cast", t)`` for ``(↑t : ℝ)``. Every fact below is from ``docs/notes-sum-facts.md`` and the
Mathlib sources named in ``docs/lean-names.md``; everything else is refused (``NotModelled``) or
an error (``ModelError``), never a pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prover.lean.replay.local import Local
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.terms import (
    NAT,
    REAL,
    ZERO,
    alpha,
    canon,
    family_domain,
    fin_bound,
    free_fvars,
    show,
    subst,
    sum_index_type,
    uid_name,
)

RANGE = ("const", "Finset.range")


def finset_range(n: Any) -> Any:
    return ("app", RANGE, (n,))


def nonempty(s: Any) -> Any:
    """The proposition ``s.Nonempty`` (``Finset.Nonempty s``)."""
    return ("app", ("const", "Finset.Nonempty"), (s,))


def nonempty_type(ty: Any) -> Any:
    """The proposition ``Nonempty ty``."""
    return ("app", ("const", "Nonempty"), (ty,))


# ---------------------------------------------------------------- parsing helpers


def infer_index(body: Any, uid: str, types: dict) -> Any:
    """The type of a bound variable from its uses as the argument of a family ``a : Fin N → ℝ``
    (Lean unifies the binder's type with the family's domain). None when it is not so used."""
    found: list[Any] = []

    def walk(t: Any) -> None:
        if not isinstance(t, tuple) or not t or t[0] == "by":
            return
        if (t[0] == "app" and isinstance(t[1], tuple) and t[1][0] == "fv" and t[1][1] in types
                and family_domain(types[t[1][1]]) is not None and t[2] and t[2][0] == ("fv", uid)):
            found.append(family_domain(types[t[1][1]]))
        for x in t:
            walk(x)

    walk(body)
    kinds = {canon(x) for x in found}
    if len(kinds) > 1:
        raise NotModelled(f"syntax: the index {uid_name(uid)} is used at different types")
    return found[0] if found else None


def sum_set(uid: str, ty: Any, s: Any, body: Any, types: dict) -> Any:
    """The finset of ``∑ uid (: ty | ∈ s), body`` (registering the bound variable's type)."""
    if s is not None and s != ("const", "Finset.univ"):
        if not (s[0] == "app" and s[1] == RANGE and len(s[2]) == 1):
            raise NotModelled(f"not modelled: a sum over {show(s)[:80]} (only `Finset.range N` and `Fin N`)")
        types[uid] = NAT
        return s
    if ty is None:
        ty = infer_index(body, uid, types)
        if ty is None:
            raise NotModelled(f"not modelled: the index type of ∑ {uid_name(uid)}, … is not determined by a "
                              "family application (write `∑ i : Fin n, …`)")
    if ty == NAT:
        raise ModelError("failed to synthesize Fintype ℕ: `∑ i, …` over ℕ (write `∑ i ∈ Finset.range n, …`)")
    if fin_bound(ty) is None:
        raise NotModelled(f"not modelled: a sum over the type {show(ty)[:80]}")
    types[uid] = ty
    return ("univ", ty)


# ---------------------------------------------------------------- casts (binop%)

#: Real-valued function heads (their applications are real leaves of an arithmetic tree).
_REAL_FUNS = frozenset({"Real.sqrt", "Real.exp", "Real.log", "Real.logb", "sqrt", "exp", "log"})
_TREE = ("add", "sub", "mul", "div", "neg", "pow")
_FIN = "fin"
_COE = "coe"


def insert_casts(t: Any, types: dict) -> Any:
    """Lean's ``binop%``/``binrel%`` coercions (Lean core ``Elab/Extra.lean``): the leaves of a
    ``+ - * / -x`` tree (and the base of ``^``) of one relation are elaborated together; when one
    leaf is real (or the tree is ascribed ``: ℝ``), every natural-number leaf becomes ``↑leaf``.
    So ``∑ i, a i = n`` is ``∑ i, a i = ↑n`` and ``(n - 1 : ℝ)`` is ``↑n - 1``, while ``0 < n`` stays
    a fact about ℕ. ``types`` maps the uids of the natural-number, ``Fin`` and family variables to
    their types (every other variable is real). A ``Fin`` index in arithmetic, a written ``↑`` not
    in a real tree, and a sum whose body is not real are not modelled."""
    if not types and not _has_tag(t, "coe"):
        return t
    return _Casts(types).walk(t)


def _has_tag(t: Any, tag: str) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == tag:
        return True
    return any(_has_tag(x, tag) for x in t if isinstance(x, tuple))


class _Casts:
    def __init__(self, types: dict):
        self.types = types

    def walk(self, t: Any) -> Any:
        """A term in a position without an expected numeric type."""
        if not isinstance(t, tuple) or not t:
            return t
        tag = t[0]
        if not isinstance(tag, str):
            return tuple(self.walk(x) for x in t)
        if tag == "rel":
            a, b = t[2], t[3]
            mx = self.max_type(self.leaves(a) + self.leaves(b), None)
            return ("rel", t[1], self.tree(a, mx), self.tree(b, mx))
        if tag in _TREE or tag in ("sum", "coe", "abs", "inv"):
            return self.tree(t, self.max_type(self.leaves(t), None))
        if tag == "ascr":
            if t[2] in (REAL, NAT):
                return ("ascr", self.tree(t[1], self.max_type(self.leaves(t[1]), t[2])), t[2])
            return ("ascr", self.walk(t[1]), t[2])
        if tag in ("fv", "num", "dec", "const", "type", "by", "hole", "shole", "mvar", "cast"):
            return t
        if tag in ("forall", "exists"):
            return (tag, t[1], self.walk(t[2]), self.walk(t[3]))
        if tag == "fun":
            return ("fun", t[1], self.walk(t[2]))
        return (tag,) + tuple(self.walk(x) if isinstance(x, tuple) else x for x in t[1:])

    def leaves(self, t: Any) -> list[Any]:
        if not isinstance(t, tuple) or not t:
            return []
        if t[0] in ("add", "sub", "mul", "div"):
            return self.leaves(t[1]) + self.leaves(t[2])
        if t[0] in ("neg", "pow"):
            return self.leaves(t[1])
        return [self.leaf_type(t)]

    def leaf_type(self, t: Any) -> Any:
        tag = t[0]
        if tag == "fv":
            ty = self.types.get(t[1], REAL)
            if ty == NAT:
                return NAT
            if fin_bound(ty) is not None:
                return _FIN
            return REAL
        if tag in ("sum", "cast", "dec"):
            return REAL if tag != "dec" else None
        if tag == "coe":
            return _COE
        if tag == "ascr":
            return t[2] if t[2] in (REAL, NAT) else None
        if tag in ("abs", "inv"):
            mx = self.max_type(self.leaves(t[1]), None)
            return REAL if mx == REAL else None
        if tag == "app":
            head = t[1]
            if head[0] == "fv":
                return REAL        # a family or a function local (both real-valued)
            if head[0] == "const" and head[1] in _REAL_FUNS:
                return REAL
            return None
        if tag == "const" and t[1] in ("Real.pi", "π"):
            return REAL
        return None

    @staticmethod
    def max_type(leaves: list[Any], expected: Any) -> Any:
        if _FIN in leaves:
            raise NotModelled("not modelled: arithmetic on a `Fin` index")
        if expected == NAT and REAL in leaves:
            raise NotModelled("not modelled: a real term ascribed `: ℕ`")
        if expected == REAL or REAL in leaves:
            return REAL
        if _COE in leaves:
            raise NotModelled("not modelled: `↑` outside a real expression (write `(n : ℝ)`)")
        if NAT in leaves:
            return NAT
        return expected

    def tree(self, t: Any, mx: Any) -> Any:
        tag = t[0]
        if tag in ("add", "sub", "mul", "div"):
            return (tag, self.tree(t[1], mx), self.tree(t[2], mx))
        if tag == "neg":
            return ("neg", self.tree(t[1], mx))
        if tag == "pow":
            return ("pow", self.tree(t[1], mx), self.walk(t[2]))     # the exponent is elaborated apart
        return self.leaf(t, mx)

    def leaf(self, t: Any, mx: Any) -> Any:
        tag = t[0]
        if tag == "coe":
            inner = t[1]
            if mx != REAL:
                raise NotModelled("not modelled: `↑` outside a real expression (write `(n : ℝ)`)")
            if self.leaf_type(inner) != NAT:
                raise NotModelled(f"not modelled: `↑{show(inner)[:60]}` of a term that is not a natural-number "
                                  "variable")
            return ("cast", inner)
        if tag == "sum":
            body = t[3]
            mxb = self.max_type(self.leaves(body), None)
            if mxb != REAL:
                raise NotModelled(f"not modelled: a sum whose body {show(body)[:80]} is not real-valued")
            return ("sum", self.walk(t[1]), t[2], self.tree(body, mxb))
        if tag in ("abs", "inv"):
            inner = self.tree(t[1], self.max_type(self.leaves(t[1]), None))
            out = (tag, inner)
        elif tag == "ascr":
            out = self.walk(t)
        elif tag == "app":
            head = t[1]
            real_args = head[0] == "const" and head[1] in _REAL_FUNS or (
                head[0] == "fv" and family_domain(self.types.get(head[1])) is None)
            if real_args:       # arguments of a real function are elaborated against ℝ
                args = tuple(self.tree(a, self.max_type(self.leaves(a), REAL)) for a in t[2])
            else:
                args = tuple(self.walk(a) for a in t[2])
            out = ("app", self.walk(head), args)
        else:
            out = self.walk(t)
        if mx == REAL and self.leaf_type(t) == NAT:
            return ("cast", out)
        return out


# ---------------------------------------------------------------- ℕ facts (omega, exact_mod_cast)


def nat_vars(ctx: Any) -> set[str]:
    """The uids of the natural-number and ``Fin`` variables of a context."""
    return {loc.uid for loc in ctx if loc.is_var and (loc.type == NAT or fin_bound(loc.type) is not None)}


def nat_only_vars(ctx: Any) -> set[str]:
    """The uids of the natural-number variables of a context (not ``Fin``: its numerals wrap)."""
    return {loc.uid for loc in ctx if loc.is_var and loc.type == NAT}


def bare_nat(t: Any, uids: set[str]) -> bool:
    """``t`` uses a natural-number (or ``Fin``) variable other than under a cast, as a family's
    argument or in a sum's index set: it is (partly) a statement about ℕ, outside the real model."""
    if not isinstance(t, tuple) or not t or not uids:
        return False
    tag = t[0]
    if tag == "fv":
        return t[1] in uids
    if tag in ("cast", "card", "fintype_card"):
        return False
    if tag == "smul":
        return bare_nat(t[2], uids)
    if tag == "sum":
        return bare_nat(t[3], uids)
    if tag == "app" and t[1][0] == "fv":
        return False
    if tag in ("by", "type"):
        return False
    return any(bare_nat(x, uids) for x in t if isinstance(x, tuple))


def _nat_atom(t: Any, uids: set[str]) -> tuple[str, Any] | None:
    """``("var", uid)`` / ``("num", k)`` for a natural-number variable or numeral, else None."""
    if t[0] == "num":
        return ("num", t[1])
    if t[0] == "fv" and t[1] in uids:
        return ("var", t[1])
    return None


def nat_fact(prop: Any, uids: set[str]) -> tuple[str, str, int] | None:
    """A comparison of one natural-number variable with a numeral, as ``(uid, op, c)`` meaning
    ``var op c`` (op ∈ ``= ≠ ≤ < ≥ >``), else None."""
    p = canon(prop)
    if not (isinstance(p, tuple) and p[0] == "rel" and p[1] in ("≤", "<", "=", "≠")):
        return None
    a, b = _nat_atom(p[2], uids), _nat_atom(p[3], uids)
    if a is None or b is None:
        return None
    flip = {"≤": "≥", "<": ">", "=": "=", "≠": "≠"}
    if a[0] == "var" and b[0] == "num":
        return a[1], p[1], b[1]
    if a[0] == "num" and b[0] == "var":
        return b[1], flip[p[1]], a[1]
    return None


def _holds(op: str, v: int, c: int) -> bool:
    return {"=": v == c, "≠": v != c, "≤": v <= c, "<": v < c, "≥": v >= c, ">": v > c}[op]


def _feasible(facts: list[tuple[str, int]], bound: int) -> list[int]:
    """The values in ``0 … bound`` satisfying every ``(op, c)`` (enough to decide ``var op c`` for
    numerals ``c < bound``: every such relation is constant above its numeral)."""
    return [v for v in range(bound + 1) if all(_holds(op, v, c) for op, c in facts)]


def omega_goal(target: Any, ctx: Any) -> None:
    """``omega`` on a comparison of one natural-number variable with a numeral, from the
    hypotheses of the same shape about that variable (every other hypothesis is left out: the
    model proves less than Lean's ``omega``, never more). Raises unless the goal follows."""
    uids = nat_only_vars(ctx)
    goal = nat_fact(target, uids)
    if goal is None:
        t = canon(target)
        if t[0] == "rel" and not bare_nat(t, nat_vars(ctx)):
            raise ModelError(f"omega could not prove the goal: {show(target)[:200]} is not a fact about ℕ or ℤ")
        raise NotModelled("not modelled: omega beyond a comparison of one natural-number variable with a numeral")
    var, op, c = goal
    facts = []
    for loc in ctx:
        if loc.is_var:
            continue
        f = nat_fact(loc.type, uids)
        if f is not None and f[0] == var:
            facts.append((f[1], f[2]))
    bound = max([c] + [k for _, k in facts]) + 2
    vals = _feasible(facts, bound)
    if not all(_holds(op, v, c) for v in vals):
        raise ModelError(f"omega could not prove the goal {show(target)[:200]}: the hypotheses about "
                         f"{uid_name(var)} allow {uid_name(var)} = {next(v for v in vals if not _holds(op, v, c))}")


def _uncast(t: Any) -> Any:
    if isinstance(t, tuple) and t and t[0] == "cast":
        return t[1]
    if isinstance(t, tuple) and t and isinstance(t[0], str) and t[0] == "rel":
        return ("rel", t[1], _uncast(t[2]), _uncast(t[3]))
    return t


def mod_cast(prop: Any, target: Any, ctx: Any) -> None:
    """``exact_mod_cast h``: ``h`` proves the goal itself, or ``h`` is a comparison of a
    natural-number variable with a numeral and the goal the same comparison over ℝ (``↑n`` for
    ``n``; ``Nat.cast_ofNat``, ``Nat.cast_lt``, ``Nat.cast_le``, ``Nat.cast_inj``, ``Nat.cast_ne_zero``
    are the norm_cast lemmas). Anything else is not modelled; a comparison that does not follow is
    an error."""
    p, g = canon(prop), canon(target)
    if p == g:
        return
    uids = nat_only_vars(ctx)
    hyp = nat_fact(p, uids)
    ug = _uncast(g)
    goal = nat_fact(ug, uids)
    if hyp is None or goal is None or not _casts_only(g, uids):
        raise NotModelled(f"not modelled: exact_mod_cast from {show(prop)[:120]} to {show(target)[:120]} "
                          "(only a comparison of one natural-number variable with a numeral, cast to ℝ)")
    if canon(ug) == p:
        return
    if hyp[0] == goal[0]:
        bound = max(hyp[2], goal[2]) + 2
        a = _feasible([(hyp[1], hyp[2])], bound)
        b = _feasible([(goal[1], goal[2])], bound)
        if a == b:
            raise NotModelled(f"not modelled: exact_mod_cast between the equivalent but different facts "
                              f"{show(prop)[:100]} and {show(target)[:100]} (Lean may accept them by defeq)")
    raise ModelError(f"exact_mod_cast: type mismatch: {show(prop)[:150]} does not give {show(target)[:150]} "
                     "after norm_cast")


def _casts_only(g: Any, uids: set[str]) -> bool:
    """The sides of ``g`` are numerals or casts ``↑n`` of natural-number variables (at least one cast)."""
    sides = (g[2], g[3]) if g[0] == "rel" else ()
    ok = all(s[0] == "num" or s[0] == "cast" and s[1][0] == "fv" and s[1][1] in uids for s in sides)
    return ok and any(s[0] == "cast" for s in sides)


# ---------------------------------------------------------------- Finset lemmas (terms)

#: name -> (the relation of the conclusion, the number of explicit arguments, its shape for messages)
FINSET_SUM_LEMMAS = {
    "Finset.sum_nonneg": ("≤", 1, "(h : ∀ i ∈ s, 0 ≤ f i) : 0 ≤ ∑ i ∈ s, f i"),
    "Finset.sum_pos": ("<", 2, "(h : ∀ i ∈ s, 0 < f i) (hs : s.Nonempty) : 0 < ∑ i ∈ s, f i"),
    "Finset.sum_eq_zero": ("=", 1, "(h : ∀ i ∈ s, f i = 0) : ∑ i ∈ s, f i = 0"),
}


def finset_sum_lemma(el: Any, name: str, args: list[Any], expected: Any) -> Any:
    """``Finset.sum_nonneg h`` / ``Finset.sum_pos h hs`` / ``Finset.sum_eq_zero h`` (``{f} {s}``
    implicit) elaborated against the stated type, as Lean's app elaborator does: the expected
    type fixes ``s`` and ``f`` (``f := fun i ↦ body``), then ``h`` is elaborated against
    ``∀ i ∈ s, 0 ≤ body[i]`` (``instantiateMVars`` beta-reduces ``f i``): a ``fun i _ => T …`` must
    have exactly the summand as its type. ``hs`` against ``s.Nonempty``."""
    rel, n_args, shape = FINSET_SUM_LEMMAS[name]
    if expected is None:
        raise NotModelled(f"not modelled: {name} without a stated type (write `have h : … := {name} …`)")
    exp = canon(el.inst(expected))
    sm = None
    if exp[0] == "rel" and exp[1] == rel:
        if rel == "=" and exp[3] == ZERO and exp[2][0] == "sum":
            sm = exp[2]
        elif rel != "=" and exp[2] == ZERO and exp[3][0] == "sum":
            sm = exp[3]
    if sm is None:
        raise ModelError(f"type mismatch: {name} {shape} cannot prove {show(exp)[:200]}")
    if len(args) > n_args:
        raise ModelError(f"function expected: {name} takes {n_args} explicit argument(s), {len(args)} given")
    if len(args) < n_args:
        raise ModelError(f"type mismatch: {name} applied to {len(args)} argument(s) has type "
                         f"`{show(nonempty(sm[1]))} → {show(exp)[:150]}`, expected {show(exp)[:150]}")
    s, uid, body = sm[1], sm[2], sm[3]
    idx = sum_index_type(s)
    if idx is None:
        raise NotModelled(f"not modelled: a sum over {show(s)[:80]}")
    fv = ("fv", uid)
    term = ("rel", rel, ZERO, body) if rel != "=" else ("rel", "=", body, ZERO)
    el.proof_against(args[0], ("forall", uid, idx, ("imp", ("mem", fv, s), term)))
    if n_args == 2:
        el.proof_against(args[1], nonempty(s))
    el.names.add(name)
    return expected


# ---------------------------------------------------------------- simp only with the linearity lemmas

#: The rewrite rules ``simp only [...]`` may use on sums, with their statements (Mathlib v4.16.0,
#: ``docs/notes-sum-facts.md`` §2): name -> the directions allowed.
SIMP_SUM_LEMMAS = {
    "Finset.sum_add_distrib": ("fwd",),    # ∑ i ∈ s, (f i + g i) = ∑ i ∈ s, f i + ∑ i ∈ s, g i
    "Finset.sum_sub_distrib": ("fwd",),    # ∑ i ∈ s, (f i - g i) = ∑ i ∈ s, f i - ∑ i ∈ s, g i
    "Finset.sum_neg_distrib": ("fwd",),    # ∑ i ∈ s, -f i = -∑ i ∈ s, f i
    "Finset.mul_sum": ("fwd", "rev"),      # a * ∑ i ∈ s, f i = ∑ i ∈ s, a * f i
    "Finset.sum_mul": ("fwd", "rev"),      # (∑ i ∈ s, f i) * a = ∑ i ∈ s, f i * a
    "Finset.sum_div": ("fwd", "rev"),      # (∑ i ∈ s, f i) / a = ∑ i ∈ s, f i / a
    "Finset.sum_const": ("fwd",),          # ∑ _x ∈ s, c = s.card • c
    "Finset.card_univ": ("fwd",),          # (univ : Finset α).card = Fintype.card α
    "Fintype.card_fin": ("fwd",),          # Fintype.card (Fin n) = n
    "Finset.card_fin": ("fwd",),           # (univ : Finset (Fin n)).card = n
    "Finset.card_range": ("fwd",),         # (range n).card = n
    "nsmul_eq_mul": ("fwd",),              # n • a = ↑n * a
    "smul_eq_mul": ("fwd",),               # a • a' = a * a' (same type: never fires on ℕ • ℝ)
}

_MAX_RESULTS = 16


def parse_simp_rules(rules: list[list[Any]]) -> list[tuple[str, str]] | None:
    """``(name, "fwd"|"rev")`` for a ``simp only`` list made of linearity lemmas only; None when
    the list names none of them (then it is the definitions' ``simp only``)."""
    out = []
    for toks in rules:
        rev = bool(toks) and toks[0].text in ("←", "<-")
        body = toks[1:] if rev else toks
        if len(body) != 1 or body[0].kind != "ident" or body[0].text not in SIMP_SUM_LEMMAS:
            out.append(None)
            continue
        name = body[0].text
        d = "rev" if rev else "fwd"
        if d not in SIMP_SUM_LEMMAS[name]:
            raise NotModelled(f"not modelled: simp only [{'← ' if rev else ''}{name}]")
        out.append((name, d))
    if all(x is None for x in out):
        return None
    if any(x is None for x in out):
        raise NotModelled("not modelled: simp only mixing the Finset linearity lemmas with other rules")
    got = set(out)
    for name in ("Finset.mul_sum", "Finset.sum_mul", "Finset.sum_div"):
        if (name, "fwd") in got and (name, "rev") in got:
            raise NotModelled(f"not modelled: simp only with {name} in both directions (simp loops)")
    return out  # type: ignore[return-value]


def simp_sum_target(rules: list[tuple[str, str]], target: Any) -> list[Any]:
    """The possible results of ``simp only [rules]`` on ``target`` (simp's post-order rewriting to
    a fixpoint: arguments first, lambda bodies included, then the lemmas at the root, the result
    visited again). Where two lemmas match the same term (``∑ i, c * d`` with ``c d`` free of
    ``i``: ``sum_const`` and ``← mul_sum``), every choice is followed: the caller requires all of
    them to pass. Raises NotModelled when the choices multiply past a small bound."""
    rs = set(rules)
    return sorted(_simp(alpha(target), rs), key=repr)


def _simp(t: Any, rs: set) -> set:
    if not isinstance(t, tuple) or not t or t[0] in ("by", "fv", "num", "dec", "const", "type", "mvar"):
        return {t}
    tag = t[0]
    if not isinstance(tag, str):
        return _product([_simp(x, rs) for x in t], tuple)
    kids = [(_simp(x, rs) if isinstance(x, tuple) else {x}) for x in t[1:]]
    out: set = set()
    for node in _product(kids, lambda xs: (tag,) + tuple(xs)):
        steps = _root_steps(node, rs)
        if not steps:
            out.add(node)
            continue
        for r in steps:
            out |= _simp(r, rs)
            if len(out) > _MAX_RESULTS:
                raise NotModelled("not modelled: simp only: too many rewriting orders to follow")
    return out


def _product(options: list[set], build: Callable[[Any], Any]) -> set:
    acc: list[list[Any]] = [[]]
    for opts in options:
        acc = [a + [o] for a in acc for o in opts]
        if len(acc) > _MAX_RESULTS:
            raise NotModelled("not modelled: simp only: too many rewriting orders to follow")
    return {build(a) for a in acc}


def _free_of(t: Any, uid: str) -> bool:
    return uid not in free_fvars(t)


def _root_steps(t: Any, rs: set) -> list[Any]:
    """The results of every lemma of ``rs`` that rewrites the term ``t`` at its root."""
    out = []
    tag = t[0]
    if tag == "sum":
        s, u, body = t[1], t[2], t[3]
        b = body[0]
        if b == "add" and ("Finset.sum_add_distrib", "fwd") in rs:
            out.append(("add", ("sum", s, u, body[1]), ("sum", s, u, body[2])))
        if b == "sub" and ("Finset.sum_sub_distrib", "fwd") in rs:
            out.append(("sub", ("sum", s, u, body[1]), ("sum", s, u, body[2])))
        if b == "neg" and ("Finset.sum_neg_distrib", "fwd") in rs:
            out.append(("neg", ("sum", s, u, body[1])))
        if b == "mul" and ("Finset.mul_sum", "rev") in rs and _free_of(body[1], u):
            out.append(("mul", body[1], ("sum", s, u, body[2])))
        if b == "mul" and ("Finset.sum_mul", "rev") in rs and _free_of(body[2], u):
            out.append(("mul", ("sum", s, u, body[1]), body[2]))
        if b == "div" and ("Finset.sum_div", "rev") in rs and _free_of(body[2], u):
            out.append(("div", ("sum", s, u, body[1]), body[2]))
        if ("Finset.sum_const", "fwd") in rs and _free_of(body, u):
            out.append(("smul", ("card", s), body))
    elif tag == "mul" and t[2][0] == "sum" and ("Finset.mul_sum", "fwd") in rs:
        s, u, body = t[2][1], t[2][2], t[2][3]
        out.append(("sum", s, u, ("mul", t[1], body)))
    if tag == "mul" and t[1][0] == "sum" and ("Finset.sum_mul", "fwd") in rs:
        s, u, body = t[1][1], t[1][2], t[1][3]
        out.append(("sum", s, u, ("mul", body, t[2])))
    if tag == "div" and t[1][0] == "sum" and ("Finset.sum_div", "fwd") in rs:
        s, u, body = t[1][1], t[1][2], t[1][3]
        out.append(("sum", s, u, ("div", body, t[2])))
    if tag == "card":
        s = t[1]
        if s[0] == "univ" and ("Finset.card_univ", "fwd") in rs:
            out.append(("fintype_card", s[1]))
        if s[0] == "univ" and ("Finset.card_fin", "fwd") in rs:
            out.append(fin_bound(s[1]))
        if s[0] == "app" and s[1] == RANGE and ("Finset.card_range", "fwd") in rs:
            out.append(s[2][0])
    if tag == "fintype_card" and fin_bound(t[1]) is not None and ("Fintype.card_fin", "fwd") in rs:
        out.append(fin_bound(t[1]))
    if tag == "smul" and ("nsmul_eq_mul", "fwd") in rs:
        k = t[1]
        if k[0] == "num":
            raise NotModelled("not modelled: nsmul_eq_mul with a numeral count (a cast numeral `((k : ℕ) : ℝ)`)")
        out.append(("mul", ("cast", k), t[2]))
    return [alpha(r) for r in out]


# ---------------------------------------------------------------- the case n = 0: `simp` after `subst`

ONE = ("num", 1)


def empty_set(s: Any) -> bool:
    """``s`` is ``Finset.univ : Finset (Fin 0)`` or ``Finset.range 0``."""
    if isinstance(s, tuple) and s and s[0] == "univ":
        return fin_bound(s[1]) == ZERO
    return isinstance(s, tuple) and s and s[0] == "app" and s[1] == RANGE and s[2] == (ZERO,)


def zero_simp(t: Any) -> Any:
    """``t`` rewritten by the default simp lemmas that make an empty sum and what it multiplies
    vanish, bottom-up (simp visits the arguments first), every one ``@[simp]`` at v4.16
    (docs/lean-names.md): ``∑ i ∈ ∅`` by ``Finset.univ_eq_empty`` (``[IsEmpty (Fin 0)]``) /
    ``Finset.range_zero`` then ``Finset.sum_empty``; ``((0 : ℕ) : ℝ) = 0`` (``Nat.cast_zero``);
    ``mul_zero``, ``zero_mul``, ``mul_one``, ``one_mul``, ``add_zero``, ``zero_add``, ``sub_zero``,
    ``zero_sub``, ``sub_self``, ``neg_zero``, ``zero_div``, ``div_zero`` (Lean's ``x / 0 = 0``),
    ``div_one``, ``inv_zero``, ``zero_pow`` (a numeral exponent ≠ 0, its side condition by simp),
    ``pow_zero``, ``one_pow``, ``abs_zero``, ``Real.sqrt_zero``, ``Real.sqrt_one``. Everything
    else is kept (a sum over a nonempty set, a function application, a real exponent)."""
    if not isinstance(t, tuple) or not t or not isinstance(t[0], str):
        return t
    tag = t[0]
    if tag == "sum":
        return ZERO if empty_set(t[1]) else t
    if tag == "cast":
        return ZERO if t[1] == ZERO else t
    if tag in ("add", "sub", "mul", "div"):
        return _zero_arith(tag, zero_simp(t[1]), zero_simp(t[2]))
    if tag in ("neg", "inv", "abs"):
        a = zero_simp(t[1])
        return ZERO if a == ZERO else (tag, a)
    if tag == "pow":
        base, e = zero_simp(t[1]), t[2]
        if e[0] == "num":
            if e[1] == 0:
                return ONE
            if base in (ZERO, ONE):
                return base
        return ("pow", base, e)
    if tag == "app" and t[1] == ("const", "Real.sqrt") and len(t[2]) == 1:
        a = zero_simp(t[2][0])
        return a if a in (ZERO, ONE) else ("app", t[1], (a,))
    if tag == "app":
        return ("app", t[1], tuple(zero_simp(a) for a in t[2]))
    if tag == "rel":
        return ("rel", t[1], zero_simp(t[2]), zero_simp(t[3]))
    if tag in ("and", "or", "iff", "imp"):
        return (tag, zero_simp(t[1]), zero_simp(t[2]))
    if tag == "not":
        return ("not", zero_simp(t[1]))
    return t


def _zero_arith(tag: str, a: Any, b: Any) -> Any:
    if tag == "add":
        return b if a == ZERO else a if b == ZERO else ("add", a, b)
    if tag == "sub":
        if b == ZERO:
            return a
        if alpha(a) == alpha(b):
            return ZERO
        return zero_simp(("neg", b)) if a == ZERO else ("sub", a, b)
    if tag == "mul":
        if ZERO in (a, b):
            return ZERO
        return b if a == ONE else a if b == ONE else ("mul", a, b)
    if ZERO in (a, b):        # zero_div, div_zero
        return ZERO
    return a if b == ONE else ("div", a, b)


def decide_simp(p: Any) -> bool | None:
    """What ``simp`` makes of the proposition ``p`` (after :func:`zero_simp`): True/False when a
    simp lemma decides it, None when the model cannot tell. ``t ≤ t``/``t = t`` (``le_refl``,
    ``eq_self_iff_true``), ``t < t`` (``lt_self_iff_false``); comparisons of a numeral with 0 or
    1: ``0 ≤ c`` (``le_refl``, ``zero_le_one``, ``Nat.ofNat_nonneg``), ``0 < c`` (``zero_lt_one``,
    ``Nat.ofNat_pos``), ``0 = c``/``c = 0`` (``zero_ne_one``, ``one_ne_zero``, ``OfNat.zero_ne_ofNat``,
    ``OfNat.ofNat_ne_zero``), ``1 ≤ c``/``1 < c`` (``Nat.one_le_ofNat``, ``Nat.one_lt_ofNat``),
    ``1 = c``/``c = 1`` (``OfNat.one_ne_ofNat``, ``OfNat.ofNat_ne_one``); ``≥``/``>`` as ``≤``/``<``
    (``ge_iff_le``, ``gt_iff_lt``); a conjunction by its parts. Anything else (``2 ≤ 3`` over ℝ
    included: ``Nat.ofNat_le`` is not a simp lemma) is None."""
    p = canon(p)
    if p[0] == "and":
        a, b = decide_simp(p[1]), decide_simp(p[2])
        if a is False or b is False:
            return False
        return True if a is True and b is True else None
    if p[0] != "rel":
        return None
    op, a, b = p[1], p[2], p[3]
    if a == b:
        return {"≤": True, "=": True, "<": False, "≠": False}.get(op)
    if a[0] != "num" or b[0] != "num":
        return None
    x, y = a[1], b[1]
    if op == "=" or op == "≠":
        if min(x, y) <= 1:         # one side 0 or 1, the other a different numeral
            return op == "≠"
        return None
    if x == 0 or x == 1 and y >= 2:
        return True if op == "≤" or y > x else None
    return None


def simp_at_star(hyps: list[Any], target: Any) -> tuple[bool, str]:
    """``simp at *`` (or ``simp``: no ``hyps``) on a goal whose empty sums the model rewrites
    (:func:`zero_simp`): ``(True, why)`` when simp closes the goal (it makes the target ``True``,
    or a hypothesis ``False``); ``(False, what is left)`` otherwise: the model cannot say that
    simp closes it (never a pass)."""
    for h in hyps:
        if decide_simp(zero_simp(canon(h))) is False:
            return True, f"the hypothesis {show(h)[:100]} is False"
    t = zero_simp(canon(target))
    if decide_simp(t) is True:
        return True, ""
    return False, show(t)[:200]


# ---------------------------------------------------------------- Cauchy–Schwarz (a term with a type of its own)

CAUCHY_SCHWARZ = "Finset.sum_mul_sq_le_sq_mul_sq"


def cauchy_schwarz(el: Any, args: list[Any]) -> Any:
    """``Finset.sum_mul_sq_le_sq_mul_sq s f g : (∑ i ∈ s, f i * g i) ^ 2 ≤ (∑ i ∈ s, f i ^ 2) *
    ∑ i ∈ s, g i ^ 2`` (Mathlib/Algebra/Order/BigOperators/Ring/Finset.lean; ``s f g`` explicit,
    ``ι`` and the ring implicit). ``s`` is ``Finset.univ`` (``ι`` then found from ``f``/``g``: a
    family ``a : Fin N → ℝ`` or a ``fun j => body`` whose body applies one) or ``Finset.range N``;
    ``f``/``g`` a family of domain ``ι`` or ``fun j => body`` (a real body, ``j : ι``). The type is
    the statement instantiated as Lean's app elaborator reports it: ``inferType`` instantiates
    the binders with ``instantiateBetaRevRange``, so ``(fun j => body) i`` is ``body[i]``."""
    if len(args) > 3:
        raise ModelError(f"function expected: {CAUCHY_SCHWARZ} takes 3 explicit arguments, {len(args)} given")
    if len(args) < 3:
        raise NotModelled(f"not modelled: {CAUCHY_SCHWARZ} partially applied")
    s, f, g = args
    types = {loc.uid: loc.type for loc in el.goal.ctx if loc.is_var}
    if s == ("const", "Finset.univ"):
        doms = [d for d in (_fun_domain(x, types) for x in (f, g)) if d is not None]
        ty = _univ_index_type(CAUCHY_SCHWARZ, doms, "f and g have")
        fs = ("univ", ty)
    elif s[0] == "app" and s[1] == RANGE and len(s[2]) == 1:
        ty, fs = NAT, s
    else:
        raise NotModelled(f"not modelled: {CAUCHY_SCHWARZ} over {show(s)[:80]}")
    el.index_type(fs)
    i = el.checker.base.fresh("i")
    fi, gi = (_apply_at(el, x, i, ty) for x in (f, g))
    two = ("num", 2)
    el.names.add(CAUCHY_SCHWARZ)
    return ("rel", "≤", ("pow", ("sum", fs, i, ("mul", fi, gi)), two),
            ("mul", ("sum", fs, i, ("pow", fi, two)), ("sum", fs, i, ("pow", gi, two))))


def _fun_domain(x: Any, types: dict) -> Any:
    """The index type of a family ``a`` or of ``fun j => body`` (from the families ``body`` applies)."""
    if x[0] == "fv" and x[1] in types:
        return family_domain(types[x[1]])
    if x[0] == "fun" and len(x[1]) == 1:
        return infer_index(x[2], x[1][0], types)
    return None


def _apply_at(el: Any, x: Any, i: str, ty: Any) -> Any:
    """``x i`` beta-reduced, checked as a real term with ``i : ty``."""
    if x[0] == "fv":
        loc = el.bound_local(x[1])
        dom = family_domain(loc.type) if loc.is_var else None
        if dom is None or canon(dom) != canon(ty):
            raise ModelError(f"application type mismatch: {loc.name} : {show(loc.type)[:80]} is not a family "
                             f"over {show(ty)}")
        return ("app", x, (("fv", i),))
    if x[0] == "fun" and len(x[1]) == 1:
        body = subst(x[2], {x[1][0]: ("fv", i)})
        saved = el.goal
        el.goal = el.goal.add(Local(i, uid_name(i), True, ty))
        try:
            return el.value(body)
        finally:
            el.goal = saved
    raise NotModelled(f"not modelled: the function {show(x)[:80]} of {CAUCHY_SCHWARZ} (a family or `fun j => …`)")



# ---------------------------------------------------------------- simp only with the empty-sum lemmas

#: ``simp only`` lemmas that make the sums of the case ``n = 0`` vanish, all ``@[simp]`` at v4.16
#: (docs/lean-names.md): ``Finset.univ_eq_empty [IsEmpty α] : (univ : Finset α) = ∅`` (``IsEmpty
#: (Fin 0)`` is an instance), ``Finset.range_zero : range 0 = ∅``, ``Finset.sum_empty : ∑ x ∈ ∅,
#: f x = 0``, ``Nat.cast_zero : ((0 : ℕ) : R) = 0``.
EMPTY_SIMP_LEMMAS = frozenset({"Finset.univ_eq_empty", "Finset.range_zero", "Finset.sum_empty", "Nat.cast_zero"})


def parse_empty_rules(rules: list[list[Any]]) -> set[str] | None:
    """The names of a ``simp only`` list made only of :data:`EMPTY_SIMP_LEMMAS`, else None."""
    out = set()
    for toks in rules:
        if len(toks) != 1 or toks[0].kind != "ident" or toks[0].text not in EMPTY_SIMP_LEMMAS:
            return None
        out.add(toks[0].text)
    return out or None


def empty_rewrite(t: Any, rules: set[str]) -> tuple[Any, bool]:
    """``(t', ok)``: ``t`` with every sum over ``Fin 0`` (``Finset.univ_eq_empty`` and
    ``Finset.sum_empty``) or ``Finset.range 0`` (``Finset.range_zero`` and ``Finset.sum_empty``)
    replaced by ``0`` and ``↑0`` by ``0`` (``Nat.cast_zero``), innermost first; ``ok`` is False when
    the rewriting leaves a term the model does not write (``range 0`` rewritten to ``∅`` outside a
    sum, a sum over ``∅`` without ``Finset.sum_empty``): the caller then drops it or refuses."""
    ok = [True]
    fin = {"Finset.univ_eq_empty", "Finset.sum_empty"} <= rules
    rng = {"Finset.range_zero", "Finset.sum_empty"} <= rules

    def walk(x: Any) -> Any:
        if not isinstance(x, tuple) or not x:
            return x
        if not isinstance(x[0], str):
            return tuple(walk(y) for y in x)
        tag = x[0]
        if tag in ("num", "dec", "fv", "const", "type", "mvar", "by", "hole", "shole"):
            return x
        if tag == "sum":
            s = x[1]
            if empty_set(s):
                is_fin = s[0] == "univ"
                if is_fin and fin or not is_fin and rng:
                    return ZERO
                if is_fin and "Finset.univ_eq_empty" in rules or not is_fin and "Finset.range_zero" in rules:
                    ok[0] = False
            return ("sum", s, x[2], walk(x[3]))
        if tag == "cast" and x[1] == ZERO and "Nat.cast_zero" in rules:
            return ZERO
        if tag == "app" and x[1] == RANGE and x[2] == (ZERO,) and "Finset.range_zero" in rules:
            ok[0] = False       # `range 0` outside a sum (a membership): `∅`, not written by the model
            return x
        return (tag,) + tuple(walk(y) if isinstance(y, tuple) else y for y in x[1:])

    out = walk(t)
    return out, ok[0]


SQ_LE_MUL = "Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul"


def sq_le_mul(el: Any, args: list[Any]) -> Any:
    """``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul s hf hg ht : (∑ i ∈ s, r i) ^ 2 ≤ (∑ i ∈ s, f i) *
    ∑ i ∈ s, g i`` (Mathlib/Algebra/Order/BigOperators/Ring/Finset.lean; ``s`` explicit, ``{r f g}``
    implicit, found by unification from ``hf : ∀ i ∈ s, 0 ≤ f i``, ``hg : ∀ i ∈ s, 0 ≤ g i``,
    ``ht : ∀ i ∈ s, r i ^ 2 = f i * g i``). Each proof a ``fun j hj => t`` whose ``t`` has a type
    of its own (a lemma applied to explicit arguments): ``f``/``g`` are read from ``hf``/``hg``
    (the higher-order pattern ``?f j =?= X[j]``), and ``ht``'s type must be ``R ^ 2 = X * Y`` with
    those very ``X``, ``Y`` (the model compares terms, Lean up to defeq: stricter). The type has
    ``?r i`` instantiated and beta-reduced (``instantiateMVars``)."""
    if len(args) > 4:
        raise ModelError(f"function expected: {SQ_LE_MUL} takes 4 explicit arguments, {len(args)} given")
    if len(args) < 4:
        raise NotModelled(f"not modelled: {SQ_LE_MUL} partially applied")
    s, hf, hg, ht = args
    for h in (hf, hg, ht):
        if not (h[0] == "fun" and len(h[1]) == 2):
            raise NotModelled(f"not modelled: {SQ_LE_MUL} with the proof {show(h)[:80]} (only `fun j hj => …`)")
    ty, fs = _sq_le_mul_index(el, s, (hf, hg, ht))
    el.index_type(fs)
    i = el.checker.base.fresh("i")

    def body_type(h: Any) -> Any:
        j, hj = h[1]
        body = subst(h[2], {j: ("fv", i)})
        saved = el.goal
        el.goal = el.goal.add(Local(i, uid_name(i), True, ty)).add(
            Local(hj, uid_name(hj), False, ("mem", ("fv", i), fs)))
        try:
            return canon(el.inst(el.proof(body)))
        finally:
            el.goal = saved

    pf, pg, pt = (body_type(h) for h in (hf, hg, ht))
    for name, p in (("hf", pf), ("hg", pg)):
        if not (p[0] == "rel" and p[1] == "≤" and p[2] == ZERO):
            raise ModelError(f"type mismatch: {SQ_LE_MUL}: {name} proves {show(p)[:150]}, expected ∀ i ∈ s, 0 ≤ _ i")
    x, y = pf[3], pg[3]
    if not (pt[0] == "rel" and pt[1] == "=" and pt[2][0] == "pow" and pt[2][2] == ("num", 2)
            and pt[3] == ("mul", x, y)):
        raise ModelError(f"type mismatch: {SQ_LE_MUL}: ht proves {show(pt)[:150]}, expected "
                         f"∀ i ∈ s, r i ^ 2 = ({show(x)[:60]}) * ({show(y)[:60]})")
    el.names.add(SQ_LE_MUL)
    two = ("num", 2)
    return ("rel", "≤", ("pow", ("sum", fs, i, pt[2][1]), two), ("mul", ("sum", fs, i, x), ("sum", fs, i, y)))


def _univ_index_type(lemma: str, doms: list[Any], whose: str) -> Any:
    """The one index type ``Finset.univ`` ranges over in ``lemma``, from the families' domains
    ``doms``: none, two different ones, or ``ℕ`` (no ``Fintype``) fail as Lean does."""
    if not doms:
        raise NotModelled(f"not modelled: {lemma} Finset.univ without a family to fix the index type")
    if len({canon(d) for d in doms}) > 1:
        raise ModelError(f"application type mismatch: {lemma}: {whose} different index types")
    if doms[0] == NAT:
        raise ModelError("failed to synthesize Fintype ℕ (Finset.univ over ℕ)")
    return doms[0]


def _sq_le_mul_index(el: Any, s: Any, proofs: tuple[Any, ...]) -> tuple[Any, Any]:
    """``(index type, finset)`` of :data:`SQ_LE_MUL` over ``s``: ``Finset.range _`` (over ``ℕ``), or
    ``Finset.univ`` whose index type is read from the families in the proofs' bodies."""
    if s == ("const", "Finset.univ"):
        types = {loc.uid: loc.type for loc in el.goal.ctx if loc.is_var}
        doms = [d for d in (infer_index(h[2], h[1][0], types) for h in proofs) if d is not None]
        ty = _univ_index_type(SQ_LE_MUL, doms, "the proofs have")
        return ty, ("univ", ty)
    if s[0] == "app" and s[1] == RANGE and len(s[2]) == 1:
        return NAT, s
    raise NotModelled(f"not modelled: {SQ_LE_MUL} over {show(s)[:80]}")


SUM_CONGR = "Finset.sum_congr"


def sum_congr(el: Any, args: list[Any], expected: Any) -> Any:
    """``Finset.sum_congr rfl h : ∑ i ∈ s, f i = ∑ i ∈ s, g i`` (``(h₁ : s₁ = s₂) (h₂ : ∀ x ∈ s₂, f x =
    g x) : s₁.sum f = s₂.sum g``, Mathlib/Algebra/BigOperators/Group/Finset.lean, ``@[congr]``),
    only against a stated equation of two sums (which fixes ``f``, ``g``, ``s₁``, ``s₂``), with
    ``h₁`` the term ``rfl`` (the two sets the same term) and ``h₂`` elaborated against
    ``∀ i, i ∈ s → f i = g i`` (beta-reduced, as ``instantiateMVars`` leaves it)."""
    if expected is None:
        raise NotModelled(f"not modelled: {SUM_CONGR} without a stated type (write `have h : … := {SUM_CONGR} …`)")
    exp = canon(el.inst(expected))
    if not (exp[0] == "rel" and exp[1] == "=" and exp[2][0] == "sum" and exp[3][0] == "sum"):
        raise ModelError(f"type mismatch: {SUM_CONGR} proves an equation of two sums, not {show(exp)[:150]}")
    if len(args) != 2:
        raise (ModelError if len(args) > 2 else NotModelled)(
            f"{'function expected' if len(args) > 2 else 'not modelled'}: {SUM_CONGR} with {len(args)} arguments")
    if args[0] != ("const", "rfl"):
        raise NotModelled(f"not modelled: {SUM_CONGR} with {show(args[0])[:60]} for the sets (only `rfl`)")
    (_, s1, u1, b1), (_, s2, u2, b2) = exp[2], exp[3]
    if s1 != s2:
        raise ModelError(f"type mismatch: rfl does not prove {show(s1)[:80]} = {show(s2)[:80]}")
    idx = sum_index_type(s2)
    if idx is None:
        raise NotModelled(f"not modelled: a sum over {show(s2)[:80]}")
    fv = ("fv", u2)
    el.proof_against(args[1], ("forall", u2, idx, ("imp", ("mem", fv, s2), ("rel", "=", subst(b1, {u1: fv}), b2))))
    el.names.add(SUM_CONGR)
    return expected
