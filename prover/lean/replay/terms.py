"""Terms as tuples: constants, canonical forms (``clean``, ``canon``), printing, substitution."""

from __future__ import annotations

from typing import Any

# Terms are tuples (hashable, compared structurally):
#   ("num", n)  ("dec", text)  ("fv", uid)  ("const", name)  ("mvar", k)
#   ("add"|"sub"|"mul"|"div"|"pow", a, b)  ("neg", a)  ("inv", a)  ("abs", a)
#   ("app", f, (args…))  ("proj", t, field)  ("ascr", t, type)
#   ("rel", op, a, b) op ∈ ≤ < = ≠ ≥ >   ("and"|"or"|"iff"|"imp", a, b)  ("not", a)
#   ("forall", uid, type, body)  ("exists", uid, type, body)
#   ("anon", (items…))  ("fun", (uids…), body)  ("by", Tactic)  ("hole",)  ("shole",)
#   ("type", "ℝ")
# Finite sums (``sums``): ("sum", S, uid, body) is ``∑ uid ∈ S, body`` with S one of
#   ("univ", ("app", ("const", "Fin"), (N,)))  (``∑ i, …``/``∑ i : Fin N, …``: ``Finset.univ``) and
#   ("app", ("const", "Finset.range"), (N,)); ("cast", t) is ``(↑t : ℝ)`` for a natural-number term
#   ``t``; ("coe", t) is a written ``↑t`` before the cast pass; ("smul", k, c) is ``k • c`` (k : ℕ);
#   ("card", S) is ``S.card``; ("fintype_card", T) is ``Fintype.card T``.

REAL = ("type", "ℝ")
NAT = ("type", "ℕ")
INT = ("type", "ℤ")
ZERO = ("num", 0)


def fin_bound(ty: Any) -> Any:
    """``N`` for the type ``Fin N``, else None."""
    if isinstance(ty, tuple) and ty and ty[0] == "app" and ty[1] == ("const", "Fin") and len(ty[2]) == 1:
        return ty[2][0]
    return None


def family_domain(ty: Any) -> Any:
    """The index type of a family ``a : Fin N → ℝ`` / ``a : ℕ → ℝ`` (``Fin N`` or ``ℕ``), else None."""
    if (isinstance(ty, tuple) and ty and ty[0] == "imp" and ty[2] == REAL
            and (ty[1] == NAT or fin_bound(ty[1]) is not None)):
        return ty[1]
    return None


def is_value_type(ty: Any) -> bool:
    """A type whose inhabitants are values, not proofs: ``ℝ``, ``ℕ``, ``Fin N``, families, functions."""
    return (ty in (REAL, NAT, INT) or fin_bound(ty) is not None or family_domain(ty) is not None
            or fun_arity(ty) is not None)


def sum_index_type(s: Any) -> Any:
    """The type of the bound variable of a sum over the finset ``s`` (``Fin N`` or ``ℕ``), else None."""
    if isinstance(s, tuple) and s and s[0] == "univ":
        return s[1]
    if isinstance(s, tuple) and s and s[0] == "app" and s[1] == ("const", "Finset.range") and len(s[2]) == 1:
        return NAT
    return None


def _sum_level(t: Any) -> int:
    """The nesting level of sums in ``t`` (-1 without sums; a sum is one more than its body's)."""
    if not isinstance(t, tuple) or not t:
        return -1
    if t[0] == "sum":
        return _sum_level(t[3]) + 1
    if t[0] == "by":
        return -1
    return max((_sum_level(x) for x in t if isinstance(x, tuple)), default=-1)


def _has_sum(t: Any) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == "sum":
        return True
    return t[0] != "by" and any(_has_sum(x) for x in t if isinstance(x, tuple))


def alpha(t: Any) -> Any:
    """``t`` with the bound variable of every sum renamed canonically (``i#bvL``, L the sum's
    nesting level), so that two sums equal up to the name of the bound variable are equal tuples
    (Lean's terms are locally nameless: the name is irrelevant to ``isDefEq``). Renaming is
    lexically scoped, and the level of a sum exceeds every level inside its body, so nothing is
    captured."""
    if not _has_sum(t):
        return t
    return _alpha(t, {})


def _alpha(t: Any, env: dict) -> Any:
    if not isinstance(t, tuple) or not t:
        return t
    tag = t[0]
    if not isinstance(tag, str):
        return tuple(_alpha(x, env) for x in t)
    if tag == "fv":
        return ("fv", env[t[1]]) if t[1] in env else t
    if tag in ("num", "dec", "const", "type", "by", "hole", "shole", "mvar"):
        return t
    if tag == "sum":
        name = f"i#bv{_sum_level(t[3]) + 1}"
        return ("sum", _alpha(t[1], env), name, _alpha(t[3], {**env, t[2]: name}))
    if tag in ("forall", "exists"):
        inner = {k: v for k, v in env.items() if k != t[1]}
        return (tag, t[1], _alpha(t[2], env), _alpha(t[3], inner))
    if tag == "fun":
        inner = {k: v for k, v in env.items() if k not in t[1]}
        return ("fun", t[1], _alpha(t[2], inner))
    return (tag,) + tuple(_alpha(x, env) if isinstance(x, tuple) else x for x in t[1:])


_ARITH = {"add", "sub", "mul", "div", "pow", "neg", "inv"}


def _num_str(n: int) -> str:
    try:
        return str(n)
    except ValueError:
        return f"<{n.bit_length()}-bit numeral>"


def uid_name(uid: str) -> str:
    return uid.split("#", 1)[0]


def fun_arity(ty: Any) -> int | None:
    """``n`` for the type ``ℝ → … → ℝ`` of a function local of ``n`` real arguments, else None."""
    n = 0
    while isinstance(ty, tuple) and ty and ty[0] == "imp" and ty[1] == REAL:
        n, ty = n + 1, ty[2]
    return n if n and ty == REAL else None


def _has_division(t: Any) -> bool:
    """A ``/`` anywhere in the term (argument tuples included, as :func:`has_mvar` walks)."""
    return isinstance(t, tuple) and bool(t) and (t[0] == "div" or any(_has_division(x) for x in t))


def _closed(t: Any) -> bool:
    """No variable in the term (numerals and operations only)."""
    return not isinstance(t, tuple) or not t or (t[0] != "fv" and all(_closed(x) for x in t))


def real_exponents(t: Any) -> Any:
    """Under the real-division macro a ``/`` is real division, so a numeral exponent with one is
    real: ``x ^ (1 / 3)`` is ``x ^ (1 / 3 : ℝ)`` (``rpow``; without the macro Lean reads
    ``1 / 3 : ℕ``)."""
    if not isinstance(t, tuple) or not t:
        return t
    if isinstance(t[0], tuple):           # a tuple of arguments
        return tuple(real_exponents(x) for x in t)
    if t[0] == "pow":
        base, e = real_exponents(t[1]), real_exponents(t[2])
        if _has_division(e) and _closed(e) and not (isinstance(e, tuple) and e[0] == "ascr" and e[2] == REAL):
            e = ("ascr", e, REAL)     # an exponent with a real variable is real already
        return ("pow", base, e)
    if t[0] in ("num", "dec", "fv", "const", "type"):
        return t
    return (t[0],) + tuple(real_exponents(x) if isinstance(x, tuple) else x for x in t[1:])


def _real_numeral(t: Any) -> bool:
    """A closed ``+ - * /`` tree of numerals with some part ascribed ``ℝ`` (``(2:ℝ)/3``):
    Lean's ``binop%`` elaborates all its numerals at ℝ. Any other node (``-x``, ``^``, a cast to
    ``ℕ``) makes it False."""
    def walk(x: Any) -> tuple[bool, bool]:           # (a numeral tree, some ℝ ascription inside)
        if not isinstance(x, tuple) or not x:
            return False, False
        if x[0] == "num":
            return True, False
        if x[0] == "ascr":
            ok, _ = walk(x[1])
            return ok and x[2] == REAL, True
        if x[0] in ("add", "sub", "mul", "div"):
            (a, ra), (b, rb) = walk(x[1]), walk(x[2])
            return a and b, ra or rb
        return False, False
    ok, real = walk(t)
    return ok and real


def int_exponent(e: Any) -> Any:
    """An integer-literal exponent (``zpow``) in one form: ``(k : ℤ)`` is ``("ascr", k, ℤ)`` and
    ``-(k : ℤ)``/``(-k : ℤ)`` (the same term ``Neg.neg (OfNat.ofNat k)`` in Lean) is
    ``("ascr", ("neg", k), ℤ)``; None for any other exponent."""
    if not isinstance(e, tuple) or not e:
        return None
    if e[0] == "ascr" and e[2] == INT:
        inner = e[1]
        if inner[0] == "num" or inner[0] == "neg" and inner[1][0] == "num":
            return e
        return None
    if e[0] == "neg":
        inner = int_exponent(e[1])
        if inner is not None and inner[1][0] == "num":
            return ("ascr", ("neg", inner[1]), INT)
    return None


def clean(t: Any, in_exponent: bool = False) -> Any:
    """Canonical form: ``(e : ℝ)`` dropped except as an exponent (where it makes ``rpow``),
    ``√``/``Real.sqrt``/``sqrt`` (under ``open Real``) unified, ``≥``/``>`` kept as written."""
    if not isinstance(t, tuple):
        return t
    tag = t[0]
    if tag == "ascr":
        inner = clean(t[1])
        if t[2] == REAL and not in_exponent:
            return inner
        return ("ascr", inner, clean(t[2]))
    if tag == "pow":
        if _real_numeral(t[2]) and t[2][0] != "ascr":
            # ``x ^ ((2:ℝ)/3)``: ``binop%`` elaborates every numeral leaf of ``(2:ℝ)/3`` at ℝ, the
            # same term as ``x ^ (2 / 3 : ℝ)``
            return ("pow", clean(t[1]), ("ascr", clean(t[2]), REAL))
        e = clean(t[2], True)
        return ("pow", clean(t[1]), int_exponent(e) or e)
    if tag in ("num", "dec", "fv", "const", "mvar", "hole", "shole", "type", "by"):
        return t
    if tag == "app" and t[1] == _ABS and len(t[2]) == 1:
        return ("abs", clean(t[2][0]))      # ``|a|`` is Mathlib's notation (a macro) for ``abs a``
    if tag == "app":
        return ("app", clean(t[1]), tuple(clean(a) for a in t[2]))
    if tag in ("forall", "exists"):
        return (tag, t[1], clean(t[2]), clean(t[3]))
    if tag == "fun":
        return ("fun", t[1], clean(t[2]))
    if tag == "anon":
        return ("anon", tuple(clean(a) for a in t[1]))
    if tag == "proj":
        return ("proj", clean(t[1]), t[2])
    if tag == "rel":
        return ("rel", t[1], clean(t[2]), clean(t[3]))
    return (tag,) + tuple(clean(a) for a in t[1:])


def canon(t: Any) -> Any:
    """``≥``/``>`` unfolded to ``≤``/``<`` (reducible definitions in Lean), recursively; the bound
    variables of sums renamed canonically (:func:`alpha`)."""
    return alpha(_canon(t))


def _canon(t: Any) -> Any:
    if not isinstance(t, tuple):
        return t
    if t[0] == "rel" and t[1] in ("≥", ">"):
        return ("rel", "≤" if t[1] == "≥" else "<", _canon(t[3]), _canon(t[2]))
    if t[0] in ("by", "const", "fv", "num", "mvar", "dec", "type"):
        return t
    if t[0] == "pow" and int_exponent(t[2]) is not None:     # a lemma's `a ^ (-n)` at n := (k : ℤ)
        return ("pow", _canon(t[1]), int_exponent(t[2]))
    return tuple(_canon(a) if isinstance(a, tuple) else a for a in t)


#: ``x ∈ Set.Icc a b`` unfolds by definition (``Set.mem_Icc`` … are ``Iff.rfl`` in
#: Mathlib/Order/Interval/Set/Defs.lean) to these relations: ``lo op x`` / ``x op hi``.
INTERVALS = {
    "Set.Icc": (("lo", "≤"), ("hi", "≤")), "Set.Ico": (("lo", "≤"), ("hi", "<")),
    "Set.Ioc": (("lo", "<"), ("hi", "≤")), "Set.Ioo": (("lo", "<"), ("hi", "<")),
    "Set.Ici": (("lo", "≤"),), "Set.Ioi": (("lo", "<"),),
    "Set.Iic": (("hi", "≤"),), "Set.Iio": (("hi", "<"),),
}


def unfold_mem(t: Any) -> Any:
    """The proposition a membership ``x ∈ Set.Icc a b`` is by definition (``a ≤ x ∧ x ≤ b``;
    one relation for ``Set.Ioi a`` …), or None for any other term. Only an explicit, fully
    qualified interval constant applied to exactly its bounds is unfolded (a local named
    ``Set`` would parse as a local, not a constant). Lean's ``positivity`` and ``linarith`` do
    not unfold it: only projections (``hx.1``) and the defeq check of a term against its
    expected type use this."""
    if not (isinstance(t, tuple) and t[0] == "mem"):
        return None
    x, s = t[1], t[2]
    if not (isinstance(s, tuple) and s[0] == "app" and s[1][0] == "const" and s[1][1] in INTERVALS):
        return None
    shape = INTERVALS[s[1][1]]
    if len(s[2]) != len(shape):
        return None
    rels = [("rel", op, b, x) if side == "lo" else ("rel", op, x, b) for (side, op), b in zip(shape, s[2])]
    return rels[0] if len(rels) == 1 else ("and", rels[0], rels[1])


# ---------------------------------------------------------------- printing

_PREC = {"add": 65, "sub": 65, "mul": 70, "div": 70, "pow": 75, "neg": 75, "rel": 50, "and": 35,
         "or": 30, "imp": 25, "iff": 20, "not": 40, "forall": 0, "exists": 0, "fun": 0}


#: the tags :func:`show` hands to a helper, by kind of notation (leaves, operators, big operators)
_SHOW_LEAVES = frozenset({"num", "dec", "fv", "const", "mvar", "type", "hole", "shole", "by"})
_SHOW_OPERATORS = frozenset({"add", "sub", "mul", "div", "pow", "and", "or", "imp", "iff", "rel", "mem", "neg",
                             "not", "inv", "abs"})
_SHOW_BIG_OPERATORS = frozenset({"sum", "cast", "coe", "smul", "card", "fintype_card", "univ"})
_SHOW_INFIX = {"add": " + ", "sub": " - ", "mul": " * ", "div": " / ", "pow": " ^ ", "and": " ∧ ", "or": " ∨ ",
               "imp": " → ", "iff": " ↔ "}


def show(t: Any, prec: int = 0) -> str:
    """Lean-like text of a term (for messages)."""
    tag = t[0]
    if tag in _SHOW_LEAVES:
        return _show_leaf(t)
    if tag in _SHOW_OPERATORS:
        return _show_operator(t, prec)
    if tag in _SHOW_BIG_OPERATORS:
        return _show_big_operator(t, prec)
    if tag == "app":
        s = " ".join([show(t[1], 1024)] + [show(a, 1025) for a in t[2]])
        return f"({s})" if prec > 1024 else s
    if tag == "proj":
        return f"{show(t[1], 1025)}.{t[2]}"
    if tag == "ascr":
        return f"({show(t[1])} : {show(t[2])})"
    if tag in ("forall", "exists"):
        q = "∀" if tag == "forall" else "∃"
        s = f"{q} {uid_name(t[1])} : {show(t[2])}, {show(t[3])}"
        return f"({s})" if prec > 0 else s
    if tag == "anon":
        return "⟨" + ", ".join(show(a) for a in t[1]) + "⟩"
    if tag == "fun":
        s = "fun " + " ".join(uid_name(u) for u in t[1]) + " => " + show(t[2])
        return f"({s})" if prec > 0 else s
    return str(t)


def _show_leaf(t: Any) -> str:
    tag = t[0]
    if tag == "num":
        return _num_str(t[1])
    if tag == "fv":
        return uid_name(t[1])
    if tag == "mvar":
        return f"?m{t[1]}"
    if tag in ("hole", "shole"):
        return "_" if tag == "hole" else "?_"
    if tag == "by":
        return "by …"
    return t[1]     # dec, const, type: their text


def _show_operator(t: Any, prec: int) -> str:
    """Infix, prefix and postfix notation, parenthesised below its precedence :data:`_PREC`."""
    tag = t[0]
    if tag in _SHOW_INFIX:
        p = _PREC[tag]
        right = tag in ("pow", "and", "or", "imp")
        s = show(t[1], p + (1 if right else 0)) + _SHOW_INFIX[tag] + show(t[2], p if right else p + 1)
        return f"({s})" if p < prec else s
    if tag == "rel":
        s = f"{show(t[2], 51)} {t[1]} {show(t[3], 51)}"
        return f"({s})" if prec > 50 else s
    if tag == "mem":
        s = f"{show(t[1], 51)} ∈ {show(t[2], 51)}"
        return f"({s})" if prec > 50 else s
    if tag == "neg":
        s = "-" + show(t[1], 75)
        return f"({s})" if prec > 75 else s
    if tag == "not":
        return "¬" + show(t[1], 40)
    if tag == "inv":
        return show(t[1], 1025) + "⁻¹"   # `f x⁻¹` is `f (x⁻¹)`: an application in parentheses
    return f"|{show(t[1])}|"          # abs


def _show_big_operator(t: Any, prec: int) -> str:
    """Sums and the Finset/ℕ notation around them (casts, ``•``, cardinalities, ``Finset.univ``)."""
    tag = t[0]
    if tag == "sum":
        st = t[1]
        if st[0] == "univ":
            head = f"∑ {uid_name(t[2])} : {show(st[1])}, "
        else:
            head = f"∑ {uid_name(t[2])} ∈ {show(st)}, "
        s = head + show(t[3], 67)
        return f"({s})" if prec > 66 else s
    if tag in ("cast", "coe"):
        return "↑" + show(t[1], 1025)
    if tag == "smul":
        s = f"{show(t[1], 74)} • {show(t[2], 73)}"
        return f"({s})" if prec > 73 else s
    if tag == "card":
        return f"{show(t[1], 1025)}.card"
    if tag == "fintype_card":
        return f"Fintype.card {show(t[1], 1025)}"
    return f"(Finset.univ : Finset {show(t[1], 1025)})"     # univ


#: Heads of a closed numeral expression that is not a bare literal (``1 / 3``, ``-2``, ``2 * 3``).
_REAL_NUMERAL_OPS = ("add", "sub", "mul", "div", "neg")


def subst(t: Any, m: dict) -> Any:
    """Replace ``("fv", uid)``/``("mvar", k)`` by ``m[uid]``/``m[("mvar", k)]`` everywhere."""
    if not isinstance(t, tuple):
        return t
    tag = t[0]
    if tag == "fv":
        return m.get(t[1], t)
    if tag == "mvar":
        r = m.get(t)
        return subst(r, m) if r is not None else t
    if tag in ("num", "dec", "const", "type", "by", "hole", "shole"):
        return t
    if tag == "pow" and isinstance(t[2], tuple) and t[2][0] in ("fv", "mvar"):
        e = subst(t[2], m)
        if e is not t[2] and _closed(e) and e[0] in _REAL_NUMERAL_OPS:
            # an exponent variable given a numeral expression (``w₁ := 1 / 3``): only a real binder
            # takes one (a ℕ argument is a literal), so the power stays ``rpow``, as Lean elaborates it
            e = ("ascr", e, REAL)
        return ("pow", subst(t[1], m), e)
    return tuple(subst(a, m) if isinstance(a, tuple) else a for a in t)


def has_mvar(t: Any) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == "mvar":
        return True
    if t[0] == "by":
        return False
    return any(has_mvar(a) for a in t if isinstance(a, tuple))


def free_fvars(t: Any, acc: set | None = None) -> set:
    acc = set() if acc is None else acc
    if isinstance(t, tuple) and t:
        if t[0] == "fv":
            acc.add(t[1])
        elif t[0] == "sum":
            free_fvars(t[1], acc)
            acc |= free_fvars(t[3]) - {t[2]}
        elif t[0] != "by":
            for a in t:
                if isinstance(a, tuple):
                    free_fvars(a, acc)
    return acc


def _has_typed_leaf(t: Any) -> bool:
    """Whether a leaf of ``t``'s arithmetic tree fixes its type (a local, a constant, an
    application, an ascription); a power's exponent is not in the tree (``rightact%``)."""
    tag = t[0] if isinstance(t, tuple) and t else None
    if tag == "app" and t[1] in _POLYMORPHIC:
        return any(_has_typed_leaf(a) for a in t[2])     # ``abs (120 / 100 * 30)``: ℕ numerals
    if tag in ("fv", "const", "app", "ascr", "proj"):
        return True
    if tag == "pow":
        return _has_typed_leaf(t[1])
    if tag in ("add", "sub", "mul", "div"):
        return _has_typed_leaf(t[1]) or _has_typed_leaf(t[2])
    if tag in ("neg", "inv", "abs"):
        return _has_typed_leaf(t[1])
    return tag not in ("num", "dec")      # a sum, a cast, …: not known to be numerals alone


#: ``abs`` before :func:`clean` (the bars ``|a|`` are the tag ``"abs"``).
_ABS = ("const", "abs")
#: Functions whose result has their argument's type (``abs``, ``max``, ``min``): no type of their own.
_POLYMORPHIC = (_ABS, ("const", "max"), ("const", "min"))


def _means_otherwise_at_nat(t: Any) -> bool:
    """Whether ``t`` holds what ℕ, the numerals' default type, does not mean as ℝ does: a real
    power (no instance), ``|·|`` or a negation (no ``Neg ℕ``), a truncated ``-`` or a floor ``/``."""
    if not isinstance(t, tuple) or not t:
        return False
    if not isinstance(t[0], str):              # an application's argument tuple
        return any(_means_otherwise_at_nat(x) for x in t)
    if t[0] == "pow":
        return isinstance(t[2], tuple) and t[2][0] == "ascr" and t[2][2] == REAL or _means_otherwise_at_nat(t[1])
    if t[0] in ("sub", "div", "inv", "neg", "abs") or t[0] == "app" and t[1] == _ABS:
        return True
    return any(_means_otherwise_at_nat(x) for x in t[1:])


def untyped_numerals(t: Any) -> Any | None:
    """A relation of ``t`` (before :func:`clean`) no leaf of which fixes the type while a side
    holds what ℕ does not mean as ℝ does (:func:`_means_otherwise_at_nat`), or None. Lean's
    ``binrel%`` then elaborates the numerals at their default type ℕ: ``16 ^ (1 / 3 : ℝ) = 2 * 2 ^
    (1 / 3 : ℝ)`` does not elaborate (no ``HPow ℕ ℝ _``), ``(16 : ℝ) ^ (1 / 3 : ℝ) = …`` does."""
    if not isinstance(t, tuple) or not t:
        return None
    sides = t[2:] if t[0] == "rel" and len(t) == 4 else ()
    if sides and not any(_has_typed_leaf(x) for x in sides) and any(_means_otherwise_at_nat(x) for x in sides):
        return t
    for x in t[1:]:
        found = untyped_numerals(x)
        if found is not None:
            return found
    return None
