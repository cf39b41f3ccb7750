"""Finite sums over ``n`` terms: casts ``ℕ → ℝ``, the ``Finset`` lemmas, ``simp only`` with the
linearity lemmas, ``omega`` and ``exact_mod_cast`` on facts about one natural number.

The terms (see :mod:`terms`): ``("sum", S, uid, body)`` for ``∑ uid ∈ S, body`` with ``S`` the
finset ``("univ", Fin N)`` (``∑ i, …`` / ``∑ i : Fin N, …``) or ``Finset.range N``;
``("cast", t)`` for ``(↑t : ℝ)``. Every fact below is from ``docs/notes-sum-facts.md`` and the
Mathlib sources named in ``docs/lean-names.md``; everything else is refused (``NotModelled``) or
an error (``ModelError``), never a pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
