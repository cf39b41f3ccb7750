"""Term elaboration: a proof term's type from the whitelisted signatures, by unification."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from prover.lean.replay.goals import Goal, Local
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.ring_normal import num_value
from prover.lean.replay.signatures import CONSTANTS, FUNCTIONS
from prover.lean.replay.sums import (
    CAUCHY_SCHWARZ,
    FINSET_SUM_LEMMAS,
    SQ_LE_MUL,
    SUM_CONGR,
    cauchy_schwarz,
    finset_sum_lemma,
    sq_le_mul,
    sum_congr,
)
from prover.lean.replay.terms import (
    INT,
    NAT,
    REAL,
    _closed,
    canon,
    family_domain,
    fin_bound,
    fun_arity,
    has_mvar,
    int_exponent,
    is_value_type,
    show,
    subst,
    sum_index_type,
    uid_name,
    unfold_mem,
)

FALSE = ("const", "False")


class Elab:
    """One term elaboration: metavariable assignments and postponed ``by`` goals."""

    def __init__(self, checker: Any, goal: Goal):   # a checker.Checker (it imports this module)
        self.checker = checker
        self.goal = goal
        self.assign: dict[Any, Any] = {}
        self.postponed: list[tuple[Any, Any, Goal]] = []   # (mvar, tactic tokens, goal)
        self.new_goals: list[tuple[Any, Goal]] = []        # ?_ holes in refine
        self.counter = itertools.count(1)
        self.names: set[str] = set()
        self.holes: list[Any] = []     # the mvars of written `_` (see check_holes)

    def mvar(self) -> Any:
        return ("mvar", next(self.counter))

    def hole(self) -> Any:
        """The metavariable of a written ``_`` (a natural one: it must be assigned by unification)."""
        mv = self.mvar()
        self.holes.append(mv)
        return mv

    def check_holes(self) -> None:
        """Lean's ``don't know how to synthesize placeholder``: a written ``_`` that unification left
        unassigned (``exact f _`` where ``f``'s conclusion and the other arguments do not mention
        that argument) is an error at the end of the term's elaboration."""
        for k, mv in enumerate(self.holes):
            if has_mvar(self.inst(mv)):
                raise ModelError("don't know how to synthesize placeholder: the `_` number "
                                 f"{k + 1} of the term is not determined by unification")

    def inst(self, t: Any) -> Any:
        return subst(t, self.assign)

    # -- unification (first order, syntactic modulo ≥/> and mvars)
    def unify(self, a: Any, b: Any) -> bool:
        a, b = canon(self.inst(a)), canon(self.inst(b))
        return self._unify(a, b)

    def _unify(self, a: Any, b: Any) -> bool:
        if a == b:
            return True
        if isinstance(a, tuple) and a[0] == "mvar":
            if a in self.assign:
                return self._unify(self.inst(a), b)
            self.assign[a] = b
            return True
        if isinstance(b, tuple) and b[0] == "mvar":
            return self._unify(b, a)
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b) or not a:
            return False
        if not isinstance(a[0], str):          # an argument tuple
            return all(self._unify(canon(self.inst(x)), canon(self.inst(y))) for x, y in zip(a, b))
        if a[0] != b[0]:
            return False
        if a[0] in ("forall", "exists"):
            if not self._unify(a[2], b[2]):
                return False
            return self._unify(a[3], subst(b[3], {b[1]: ("fv", a[1])}))
        for x, y in zip(a[1:], b[1:]):
            if isinstance(x, tuple) and isinstance(y, tuple):
                if not self._unify(canon(self.inst(x)), canon(self.inst(y))):
                    return False
            elif x != y:
                return False
        return True

    def bound_local(self, uid: str) -> Local:
        """The goal's hypothesis or variable ``uid`` (an error when it is not in scope)."""
        loc = self.goal.local(uid)
        if loc is None:
            raise ModelError(f"unknown identifier {uid_name(uid)}")
        return loc

    # -- values
    def value(self, t: Any) -> Any:
        """``t`` checked as a real-valued expression (mvars allowed); returns it instantiated."""
        tag = t[0]
        if tag == "num":
            return t
        if tag == "dec":      # a real decimal literal (`ring` evaluates it; `linarith` sees an atom)
            return t
        if tag == "hole":
            return self.hole()
        if tag == "mvar":
            return t
        if tag == "fv":
            return self.variable_value(t)
        if tag == "sum":
            return self.sum_value(t)
        if tag == "cast":
            return ("cast", self.nat_value(t[1]))
        if tag == "smul":
            # `k • c` left by `simp only [Finset.sum_const]` without `nsmul_eq_mul`: Mathlib's `ring`
            # normalises `•` by a natural number (`evalNSMul`), which the model does not follow
            raise NotModelled(f"not modelled: ring on `{show(t)[:80]}` (`•` by a natural number; "
                              "add nsmul_eq_mul to the simp set)")
        if tag in ("add", "sub", "mul", "div"):
            return (tag, self.value(t[1]), self.value(t[2]))
        if tag in ("neg", "inv", "abs"):
            return (tag, self.value(t[1]))
        if tag == "pow":
            return self.power_value(t)
        if tag == "ascr":
            if t[2] == REAL:
                return self.value(t[1])
            raise NotModelled(f"type ascription ({show(t)}) is not modelled")
        if tag == "app" and t[1][0] == "fv":
            return self.fun_app(t)
        if tag == "app" and t[1][0] == "const":
            return self.function_value(t)
        if tag == "const":
            if self.checker.global_name(t[1]) in CONSTANTS:
                self.names.add("Real.pi")
                return ("const", "Real.pi")
            raise ModelError(f"unknown identifier {t[1]}")
        raise NotModelled(f"not a real-valued term: {show(t)}")

    def variable_value(self, t: Any) -> Any:
        """A local ``t = ("fv", uid)`` used as a value: it must be a real variable, not a proof."""
        loc = self.bound_local(t[1])
        if not loc.is_var:
            raise ModelError(f"{loc.name} is a proof, expected a real number")
        if loc.type != REAL:
            raise NotModelled(f"variable {loc.name} : {show(loc.type)} is not real")
        return t

    def power_value(self, t: Any) -> Any:
        """``base ^ e``: a numeral or real exponent (a natural-number power is not modelled)."""
        base = self.value(t[1])
        e = t[2]
        if e[0] == "num":
            return ("pow", base, e)
        if e[0] == "ascr" and e[2] == REAL:
            return ("pow", base, ("ascr", self.value(e[1]), REAL))
        if e[0] == "ascr" and e[2] == NAT:
            raise NotModelled("natural-number casts in exponents are not modelled")
        if int_exponent(e) is not None:     # `zpow` by an integer literal: an atom for `ring`
            return ("pow", base, int_exponent(e))
        if e[0] == "ascr" or e[0] == "neg" and e[1][0] == "ascr":
            raise NotModelled(f"not modelled: the exponent {show(e)} (only integer literals at ℤ)")
        if e[0] == "fv" and self.bound_local(e[1]).type != REAL:
            raise NotModelled(f"not modelled: the exponent {show(e)} is not real (a natural-number power)")
        return ("pow", base, self.value(e))

    def function_value(self, t: Any) -> Any:
        """A whitelisted real function (:data:`FUNCTIONS`) applied to exactly its arity of values."""
        name = self.checker.global_name(t[1][1])
        if name == "abs" and len(t[2]) == 1:
            # ``|a|`` is Mathlib's notation for ``abs a`` (a macro): one term, whichever is written
            self.names.add(name)
            return ("abs", self.value(t[2][0]))
        if name in FUNCTIONS and len(t[2]) == FUNCTIONS[name]:
            self.names.add(name)
            return ("app", ("const", name), tuple(self.value(a) for a in t[2]))
        raise NotModelled(f"function {t[1][1]} is not modelled as a real-valued function")

    def nat_value(self, t: Any) -> Any:
        """``t`` checked as a natural-number term: a variable of type ``ℕ``, a numeral, or a
        cardinality from ``simp only [Finset.sum_const]`` (``s.card``, ``Fintype.card (Fin N)``)."""
        if t[0] == "num":
            return t
        if t[0] == "fv":
            loc = self.bound_local(t[1])
            if loc.is_var and loc.type == NAT:
                return t
            raise ModelError(f"type mismatch: {loc.name} : {show(loc.type)[:80]} is not a natural number")
        if t[0] in ("card", "fintype_card"):
            return t
        raise NotModelled(f"not modelled: the natural-number term {show(t)[:100]}")

    def index_type(self, s: Any) -> Any:
        """The type of the bound variable of a sum over ``s`` (its bound ``N`` checked)."""
        ty = sum_index_type(s)
        if ty is None:
            raise NotModelled(f"not modelled: a sum over {show(s)[:100]}")
        bound = fin_bound(ty) if ty != NAT else s[2][0]
        self.nat_value(bound)
        return ty

    def sum_value(self, t: Any) -> Any:
        """``∑ i ∈ s, body``: the body checked as a real term with ``i`` of the index type (an atom
        for ``ring``/``linarith``, compared up to the name of the bound variable)."""
        s, uid, body = t[1], t[2], t[3]
        ty = self.index_type(s)
        saved = self.goal
        self.goal = self.goal.add(Local(uid, uid_name(uid), True, ty))
        try:
            b = self.value(body)
        finally:
            self.goal = saved
        return ("sum", s, uid, b)

    def index_arg(self, a: Any, dom: Any, what: str) -> Any:
        """An index argument of type ``dom`` (``Fin N`` or ``ℕ``): a variable of that type, or a
        numeral for ``ℕ``."""
        if a[0] == "num" and dom == NAT:
            return a
        if a[0] == "const":
            raise ModelError(f"unknown identifier {a[1]} (the index of {what})")
        if a[0] == "fv":
            loc = self.bound_local(a[1])
            if loc.is_var and canon(self.inst(loc.type)) == canon(self.inst(dom)):
                return a
            if dom == NAT and fin_bound(loc.type) is not None:
                raise NotModelled(f"not modelled: {what} applied to {loc.name} : {show(loc.type)} (Lean inserts "
                                  "the coercion `↑i : ℕ`)")
            raise ModelError(f"application type mismatch: {what} expects an index of type {show(dom)}, "
                             f"{loc.name} : {show(loc.type)[:80]}")
        raise NotModelled(f"not modelled: the index {show(a)[:80]} of {what} (only a variable"
                          + (" or a numeral)" if dom == NAT else ")"))

    def fun_app(self, t: Any) -> Any:
        """``f t₁ … tₙ`` of a function local ``f : ℝ → … → ℝ`` (an atom for ``ring``), or ``a i``
        of a family ``a : Fin N → ℝ`` / ``a : ℕ → ℝ``."""
        loc = self.bound_local(t[1][1])
        dom = family_domain(loc.type) if loc.is_var else None
        if dom is not None:
            if len(t[2]) != 1:
                raise ModelError(f"function expected: {show(t)[:100]}: the family {loc.name} takes one index")
            return ("app", t[1], (self.index_arg(t[2][0], dom, loc.name),))
        n = fun_arity(loc.type) if loc.is_var else None
        if n is None:
            raise ModelError(f"function expected: {loc.name} : {show(loc.type)[:100]} is applied to arguments")
        if len(t[2]) > n:
            raise ModelError(f"function expected: {show(t)[:100]} has {len(t[2])} arguments, {loc.name} takes {n}")
        if len(t[2]) < n:
            raise NotModelled(f"partial application {show(t)[:100]} of a function local")
        return ("app", t[1], tuple(self.value(a) for a in t[2]))

    # -- proofs
    def telescope(self, t: Any) -> tuple[list[tuple[str, Any, bool]], Any]:
        """The type of a proof-valued head as binders and conclusion (fresh mvars not yet made)."""
        tag = t[0]
        if tag == "fv":
            loc = self.bound_local(t[1])
            if loc.is_var:
                raise ModelError(f"{loc.name} : {show(loc.type)[:100]} is a value, expected a proof")
            return _pi_binders(loc.type)
        if tag == "const":
            name, projs = self.checker.split_const(t[1])
            if name is None:
                raise ModelError(f"unknown or not whitelisted: {t[1]}")
            self.names.add(name)
            sig = self.checker.signature(name)
            binders, concl = list(sig.binders), sig.concl
            if projs:
                prop = self.apply_telescope(binders, concl, [], expected=None)
                for p in projs:
                    binders, concl = self.project(prop, p)
                    prop = _pi_close(binders, concl) if binders else concl
            return binders, concl
        if tag == "proj":
            prop = self.proof(t[1])
            return self.project(prop, t[2])
        if tag == "app":
            prop = self.proof(t)
            return _pi_binders(prop)
        prop = self.proof(t)
        return _pi_binders(prop)

    def project(self, prop: Any, fld: str) -> tuple[list[tuple[str, Any, bool]], Any]:
        prop = canon(self.inst(prop))
        if prop[0] == "mem" and unfold_mem(prop) is not None and fld in ("1", "2"):
            prop = canon(unfold_mem(prop))   # `hx.1` whnf's `x ∈ Set.Icc a b` to the conjunction
        tag = prop[0]
        if fld in ("mpr", "2") and tag == "iff":
            return [("_h", prop[2], True)], prop[1]
        if fld in ("mp", "1") and tag == "iff":
            return [("_h", prop[1], True)], prop[2]
        if fld == "1" and tag == "and":
            return [], prop[1]
        if fld == "2" and tag == "and":
            return [], prop[2]
        if tag == "rel":
            op, a, b = prop[1], prop[2], prop[3]
            if fld == "le" and op == "<":
                self.names.add("LT.lt.le")
                return [], ("rel", "≤", a, b)
            if fld == "ne" and op == "<":
                self.names.add("LT.lt.ne")
                return [], ("rel", "≠", a, b)
            if fld == "ne'" and op == "<":
                self.names.add("LT.lt.ne'")
                return [], ("rel", "≠", b, a)
            if fld == "symm" and op in ("=", "≠"):
                return [], ("rel", op, b, a)
        raise NotModelled(f"projection .{fld} of a proof of {show(prop)} is not modelled")

    def apply_telescope(self, binders: list[tuple[str, Any, bool]], concl: Any, args: list[Any],
                        expected: Any) -> Any:
        m: dict[Any, Any] = {}
        args = list(args)
        remaining: list[tuple[str, Any, bool]] = []
        for k, (uid, ty, explicit) in enumerate(binders):
            ty_i = subst(ty, m)
            if not explicit:
                if ty_i in (REAL, NAT):
                    m[uid] = self.mvar()
                    continue
                raise NotModelled("implicit proof arguments are not modelled")
            if not args:
                remaining = [(u, subst(t2, m), e) for u, t2, e in binders[k:]]
                break
            a = args.pop(0)
            if ty_i == REAL:
                m[uid] = self.value(self.real_arg(a))
            elif ty_i == NAT:
                if a[0] == "hole":
                    m[uid] = self.hole()
                elif a[0] == "num" or a[0] == "fv" and self.bound_local(a[1]).type == NAT:
                    m[uid] = a
                else:
                    raise NotModelled("natural-number arguments other than literals and variables are not modelled")
            elif ty_i == INT:
                m[uid] = self.int_arg(a)
            elif fin_bound(ty_i) is not None:
                m[uid] = self.index_arg(a, ty_i, "the lemma")
            elif is_value_type(ty_i):
                raise NotModelled(f"not modelled: an argument of type {show(ty_i)[:80]}")
            else:
                self.proof_against(a, ty_i)
        if args:
            # more arguments than binders: the conclusion must itself be a ∀/→
            prop = subst(concl, m)
            bs, c = _pi_binders(_unfold_not(canon(self.inst(prop))) if prop[0] != "forall" else prop)
            if not bs:
                raise ModelError(f"too many arguments for a proof of {show(self.inst(prop))}")
            return self.apply_telescope(bs, c, args, expected)
        out = subst(concl, m)
        if remaining:
            out = _pi_close(remaining, out)
        return out

    def int_arg(self, a: Any) -> Any:
        """An argument elaborated against ``ℤ``: an integer literal (``3``, ``-3``, ``(3 : ℤ)``)."""
        lit = int_exponent(a) or int_exponent(("ascr", a, INT))
        if lit is None:
            raise NotModelled(f"not modelled: the integer argument {show(a)[:80]} (only literals)")
        return lit

    def real_arg(self, a: Any) -> Any:
        """An argument elaborated against ``ℝ``: a natural-number variable (or a ``+ - *`` tree of
        them and numerals) gets ``↑`` at its leaves, as Lean's coercion at the argument does."""
        def nat_tree(t: Any) -> bool:
            if t[0] in ("add", "mul"):
                return nat_tree(t[1]) and nat_tree(t[2])
            if t[0] == "num":
                return True
            if t[0] == "fv":
                loc = self.goal.local(t[1])
                return loc is not None and loc.is_var and loc.type == NAT
            return False

        def cast(t: Any) -> Any:
            if t[0] in ("add", "mul"):
                return (t[0], cast(t[1]), cast(t[2]))
            return ("cast", t) if t[0] == "fv" else t

        return cast(a) if a[0] != "num" and nat_tree(a) else a

    def proof_against(self, a: Any, ty: Any) -> None:
        """Elaborate proof ``a`` against the expected proposition ``ty``."""
        if a[0] == "by":
            mv = self.mvar()
            self.postponed.append((mv, a[1], self.goal.with_target(ty)))
            return
        if a[0] == "hole":
            raise ModelError(f"don't know how to synthesize placeholder for {show(self.inst(ty))}")
        if a[0] == "shole":
            self.new_goals.append((ty, self.goal))
            return
        got = self.proof(a, ty)
        if not self.unify(got, ty) and not self._unify_unfolded(got, ty):
            raise ModelError(f"type mismatch: term has type {show(self.inst(got))} "
                             f"but is expected to have type {show(self.inst(ty))}")

    def _unify_unfolded(self, got: Any, ty: Any) -> bool:
        """Definitional unfolding of an interval membership on either side (``hx : x ∈ Set.Ioi 0``
        proves ``0 < x``; Lean's ``isDefEq`` unfolds the membership)."""
        a, b = canon(self.inst(got)), canon(self.inst(ty))
        ua, ub = unfold_mem(a), unfold_mem(b)
        return ((ua is not None and self.unify(ua, b)) or (ub is not None and self.unify(a, ub))
                or (ua is not None and ub is not None and self.unify(ua, ub)))

    def proof(self, t: Any, expected: Any = None) -> Any:
        """The proposition proved by ``t`` (may contain mvars)."""
        tag = t[0]
        if tag == "ascr":
            self.proof_against(t[1], t[2])
            return t[2]
        if tag == "by":
            if expected is None:
                raise NotModelled("a `by` block without a known goal")
            mv = self.mvar()
            self.postponed.append((mv, t[1], self.goal.with_target(expected)))
            return expected
        if tag == "anon":
            if expected is None:
                raise NotModelled("anonymous constructor without an expected type")
            return self.anonymous_constructor(list(t[1]), expected)
        if tag == "fun":
            if expected is None:
                raise NotModelled("fun without an expected type")
            return self.fun(t, expected)
        if tag == "shole":
            if expected is None:
                raise NotModelled("?_ without an expected type")
            self.new_goals.append((expected, self.goal))
            return expected
        if tag == "app":
            return self.application_proof(t[1], list(t[2]), expected)
        binders, concl = self.telescope(t)
        if binders and any(not e for _, _, e in binders):
            return self.apply_telescope(binders, concl, [], expected)
        return _pi_close(binders, concl) if binders else concl

    def anonymous_constructor(self, items: list[Any], expected: Any) -> Any:
        """``⟨a, b, …⟩`` against ``expected``: ``Nonempty.intro`` or nested ``And.intro``."""
        exp = canon(self.inst(expected))
        if exp[0] == "app" and exp[1] == ("const", "Nonempty"):
            return self.nonempty_intro(items, exp)
        if exp[0] != "and":
            raise NotModelled(f"anonymous constructor for {show(exp)} is not modelled")
        if len(items) < 2:
            raise ModelError("anonymous constructor needs two components")
        # the components' types are And's arguments as written (`x ≥ 0` stays `x ≥ 0`: a `?_`
        # goal is not unfolded, so `rw [ge_iff_le]` applies there as in Lean)
        raw = self.inst(expected)
        if not (isinstance(raw, tuple) and raw[0] == "and"):
            raw = exp
        self.proof_against(items[0], raw[1])
        rest = ("anon", tuple(items[1:])) if len(items) > 2 else items[1]
        self.proof_against(rest, raw[2])
        return expected

    def application_proof(self, head: Any, args: list[Any], expected: Any) -> Any:
        """``head args…``: the lemmas modelled by hand (sums, ``congrArg``, ``Or.inl``/``Or.inr``; the
        sum lemmas only where no local declaration shadows them), else ``head``'s signature applied."""
        if head[0] == "const" and self.checker.global_name(head[1]) in FINSET_SUM_LEMMAS \
                and self.checker.resolve_decl(head[1]) is None:
            return finset_sum_lemma(self, self.checker.global_name(head[1]), args, expected)
        if head == ("const", CAUCHY_SCHWARZ) and self.checker.resolve_decl(head[1]) is None:
            return cauchy_schwarz(self, args)
        if head == ("const", SQ_LE_MUL) and self.checker.resolve_decl(head[1]) is None:
            return sq_le_mul(self, args)
        if head == ("const", SUM_CONGR) and self.checker.resolve_decl(head[1]) is None:
            return sum_congr(self, args, expected)
        if head == ("const", "congrArg"):
            return self.congr_arg(args, expected)
        if head in (("const", "Or.inl"), ("const", "Or.inr")):
            return self.or_intro(head[1], args, expected)
        binders, concl = self.telescope(head)
        return self.apply_telescope(binders, concl, args, expected)

    def nonempty_intro(self, items: list[Any], exp: Any) -> Any:
        """``⟨x⟩ : Nonempty α`` (``Nonempty.intro``) with ``x = ⟨k, h⟩ : Fin N`` (``Fin.mk``: the
        value ``k`` a numeral and ``h : k < N``), as in ``Fin.pos_iff_nonempty``'s proof
        ``fun h => ⟨⟨0, h⟩⟩``."""
        ty = exp[2][0]
        if len(items) != 1:
            raise ModelError(f"anonymous constructor: Nonempty {show(ty)} takes one component")
        x = items[0]
        n = fin_bound(canon(self.inst(ty)))
        if n is None:
            raise NotModelled(f"not modelled: an element of {show(ty)[:80]}")
        if not (x[0] == "anon" and len(x[1]) == 2 and x[1][0][0] == "num"):
            raise NotModelled(f"not modelled: the element {show(x)[:80]} of Fin (only ⟨k, proof⟩)")
        self.proof_against(x[1][1], ("rel", "<", x[1][0], n))
        return exp

    def congr_arg(self, args: list[Any], expected: Any) -> Any:
        """``congrArg f h : f a₁ = f a₂`` for ``h : a₁ = a₂`` (Lean core, ``Init/Prelude.lean``), with ``f``
        one of the real functions whose application the model writes exactly: ``Real.sqrt``
        (``sqrt`` under ``open Real``), ``Real.exp``, ``Real.log``, ``abs`` (``|a₁| = |a₂|``), and ``fun x => x ^ (r : ℝ)``
        with a closed real exponent; the last only against a stated type, since Lean's type of it
        is the beta-redex ``(fun x => x ^ r) a₁ = …``, equal to the stated one by beta only."""
        if len(args) != 2:
            raise NotModelled("congrArg with other than two arguments is not modelled")
        apply = self._congr_function(args[0], expected)
        prop = canon(self.inst(self.proof(args[1])))
        if prop[0] != "rel" or prop[1] != "=":
            raise ModelError(f"congrArg: the argument proves {show(prop)[:200]}, not an equality")
        self.names.add("congrArg")
        return ("rel", "=", apply(self.value(prop[2])), apply(self.value(prop[3])))

    def or_intro(self, name: str, args: list[Any], expected: Any) -> Any:
        """``Or.inl h : a ∨ b`` for ``h : a``, ``Or.inr h : a ∨ b`` for ``h : b`` (Lean core,
        ``Init/Prelude.lean``): elaborated against the expected disjunction, whose sides are the
        implicit ``a b`` (as Lean's elaborator finds them from the expected type)."""
        if expected is None:
            raise NotModelled(f"{name} without an expected type")
        if len(args) != 1:
            raise NotModelled(f"{name} with other than one argument is not modelled")
        exp = canon(self.inst(expected))
        if exp[0] != "or":
            raise ModelError(f"{name}: the expected type {show(exp)[:200]} is not a disjunction")
        self.names.add(name)
        self.proof_against(args[0], exp[1] if name == "Or.inl" else exp[2])
        return expected

    def _congr_function(self, f: Any, expected: Any) -> Callable[[Any], Any]:
        if f[0] == "const":
            name = self.checker.global_name(f[1])
            if name in ("Real.sqrt", "Real.exp", "Real.log"):
                return lambda x: ("app", ("const", name), (x,))
            if name == "abs":
                return lambda x: ("abs", x)
        if f[0] == "fun" and len(f[1]) == 1 and expected is not None:
            # `congrArg (fun t => body) h : body[a] = body[b]` for any body (up to beta, which
            # `have`'s defeq check does); the body is checked as a real term at each instance
            uid, body = f[1][0], f[2]
            if body[0] == "pow" and body[1] == ("fv", uid):
                e = body[2]
                if e[0] == "ascr" and e[2] == REAL and _closed(e[1]) and num_value(e[1]) is not None:
                    return lambda x: ("pow", x, e)
            return lambda x: self.value(subst(body, {uid: x}))
        raise NotModelled(f"congrArg with the function {show(f)[:100]} is not modelled")

    def fun(self, t: Any, expected: Any) -> Any:
        uids = list(t[1])
        body = t[2]
        exp = self.inst(expected)
        saved = self.goal
        m: dict[Any, Any] = {}
        for uid in uids:
            e = _unfold_not(exp)         # `fun h => …` against `a ≠ b`/`¬p`: the binder elaborator whnfs
            if e[0] == "forall":
                self.goal = self.goal.add(Local(uid, uid_name(uid), True, e[2]))
                exp = subst(e[3], {e[1]: ("fv", uid)})
            elif e[0] == "imp":
                self.goal = self.goal.add(Local(uid, uid_name(uid), False, e[1]))
                exp = e[2]
            else:
                raise ModelError(f"fun binder {uid_name(uid)} but the goal {show(e)} is not a ∀ or →")
        del m
        self.proof_against(body, exp)
        self.goal = saved
        return expected


def _pi_binders(prop: Any) -> tuple[list[tuple[str, Any, bool]], Any]:
    binders: list[tuple[str, Any, bool]] = []
    while isinstance(prop, tuple) and prop[0] in ("forall", "imp"):
        if prop[0] == "forall":
            binders.append((prop[1], prop[2], True))
            prop = prop[3]
        else:
            binders.append(("_h", prop[1], True))
            prop = prop[2]
    return binders, prop


def _unfold_not(prop: Any) -> Any:
    """``a ≠ b`` and ``¬p`` as the implications they are by definition (``Ne``, ``Not``), for the
    application of such a proof to an argument (Lean's app elaborator ``whnf``s the function type)."""
    if prop[0] == "rel" and prop[1] == "≠":
        return ("imp", ("rel", "=", prop[2], prop[3]), FALSE)
    if prop[0] == "not":
        return ("imp", prop[1], FALSE)
    return prop


def _pi_close(binders: list[tuple[str, Any, bool]], concl: Any) -> Any:
    out = concl
    for uid, ty, _ in reversed(binders):
        out = ("forall", uid, ty, out) if is_value_type(ty) else ("imp", ty, out)
    return out
