"""Function locals defined by an equation (``f : ℝ → ℝ``, ``h₀ : ∀ x, f x = E``) and ``simp only [h₀]``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from prover.lean.replay.goals import Goal, Local
from prover.lean.replay.lexing import Tok
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.term_parser import Scope
from prover.lean.replay.terms import REAL, canon, free_fvars, fun_arity, show, subst, uid_name


@dataclass(frozen=True)
class Definition:
    """``∀ x₁ … xₙ, f x₁ … xₙ = body`` (uids of ``f`` and of the parameters)."""

    fn: str
    params: tuple[str, ...]
    body: Any


def functions_of(ctx: tuple[Local, ...]) -> dict[str, int]:
    """The function locals of a context: uid -> arity."""
    out = {}
    for loc in ctx:
        n = fun_arity(loc.type) if loc.is_var else None
        if n is not None:
            out[loc.uid] = n
    return out


def mentions(t: Any, functions: dict[str, int]) -> bool:
    return bool(free_fvars(t) & set(functions))


def check_applications(t: Any, functions: dict[str, int]) -> None:
    """Every function local in ``t`` is applied to exactly its arity (an error for more arguments,
    not modelled for fewer or a bare use such as ``f -1``, which Lean reads as ``f - 1``), and none
    is under a binder (a ∀/∃/fun hypothesis about a function is not modelled)."""
    if not isinstance(t, tuple) or not t or t[0] == "by":
        return
    if isinstance(t[0], str):
        tag = t[0]
        if tag == "app" and t[1][0] == "fv" and t[1][1] in functions:
            n, k = functions[t[1][1]], len(t[2])
            if k > n:
                raise ModelError(f"function expected: {show(t)[:100]} applies {uid_name(t[1][1])} to {k} "
                                 f"arguments, it takes {n}")
            if k < n:
                raise NotModelled(f"partial application {show(t)[:100]} of a function local")
            check_applications(t[2], functions)
            return
        if tag == "fv" and t[1] in functions:
            raise NotModelled(f"function local {uid_name(t[1])} used other than fully applied")
        if tag in ("forall", "exists", "fun") and mentions(t, functions):
            raise NotModelled(f"a binder over a function local is not modelled: {show(t)[:100]}")
    for x in t:
        check_applications(x, functions)


def definition_of(prop: Any, functions: dict[str, int]) -> Definition:
    """``prop`` read as a definition ``∀ x₁ … xₙ, f x₁ … xₙ = E``: the parameters distinct (the
    bound names, in order, exactly ``f``'s arity), ``E`` applying no function local and using no
    parameter in an exponent (a real power). Anything else is not modelled."""
    params: list[str] = []
    t = prop
    while isinstance(t, tuple) and t[0] == "forall":
        if t[2] != REAL:
            raise NotModelled(f"∀ over {show(t[2])} is not a definition")
        params.append(t[1])
        t = t[3]
    lhs = t[2] if isinstance(t, tuple) and t[0] == "rel" and t[1] == "=" else None
    if not params or lhs is None or lhs[0] != "app" or lhs[1][0] != "fv" or lhs[1][1] not in functions:
        raise NotModelled(f"{show(prop)[:150]} is not a definition `∀ x, f x = E` of a function local")
    fn = lhs[1][1]
    if functions[fn] != len(params) or lhs[2] != tuple(("fv", p) for p in params):
        raise NotModelled(f"{show(prop)[:150]}: the parameters are not distinct names applied in order, "
                          f"exactly the arity {functions[fn]} of {uid_name(fn)}")
    body = t[3]
    if mentions(body, functions):
        raise NotModelled(f"the definition of {uid_name(fn)} applies a function local: {show(body)[:150]}")
    if _param_in_exponent(body, set(params)):
        raise NotModelled(f"the definition of {uid_name(fn)} uses a parameter in an exponent (a real power)")
    return Definition(fn, tuple(params), body)


def _param_in_exponent(t: Any, params: set[str]) -> bool:
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == "pow" and free_fvars(t[2]) & params:
        return True
    return any(_param_in_exponent(x, params) for x in t if isinstance(x, tuple))


def check_signature(binders: tuple[tuple[str, Any, bool], ...], concl: Any) -> None:
    """A statement with function locals: each ``∀`` hypothesis mentioning one is a definition, every
    other hypothesis and the conclusion apply them fully (``check_applications``)."""
    functions = {uid: n for uid, ty, _ in binders if (n := fun_arity(ty)) is not None}
    for uid, ty, _ in binders:
        if uid in functions or ty == REAL:
            continue
        if isinstance(ty, tuple) and ty[0] == "forall" and mentions(ty, functions):
            definition_of(ty, functions)
        else:
            check_applications(ty, functions)
    check_applications(concl, functions)


def expand(t: Any, defs: dict[str, Definition]) -> Any:
    """Every application of a defined function replaced by its body at the (already expanded)
    arguments, innermost first: simp's post-order rewriting to a fixpoint, beta-reduced."""
    if not isinstance(t, tuple) or not t:
        return t
    if not isinstance(t[0], str):
        return tuple(expand(x, defs) for x in t)
    if t[0] == "by":
        raise NotModelled("simp only inside a proof term is not modelled")
    if t[0] == "app" and t[1][0] == "fv" and t[1][1] in defs:
        d = defs[t[1][1]]
        args = tuple(expand(a, defs) for a in t[2])
        if len(args) != len(d.params):
            raise NotModelled(f"{show(t)[:100]}: not applied to exactly its arity")
        return subst(d.body, dict(zip(d.params, args)))
    return (t[0],) + tuple(expand(x, defs) if isinstance(x, tuple) else x for x in t[1:])


def check_simp_result(t: Any) -> None:
    """Refuse what ``simp only`` would simplify further: a relation or ``↔`` with equal sides
    (closed by ``rfl``, or rewritten to ``True``), ``True``/``False``, a closed ℕ arithmetic
    exponent (the default ``Nat.reduce…`` simprocs)."""
    if not isinstance(t, tuple) or not t:
        return
    if isinstance(t[0], str):
        tag = t[0]
        if tag == "rel" and canon(t[2]) == canon(t[3]) or tag == "iff" and canon(t[1]) == canon(t[2]):
            raise NotModelled(f"simp only would close or simplify {show(t)[:150]} (rfl), not modelled")
        if t in (("const", "True"), ("const", "False")):
            raise NotModelled(f"simp only on a proposition with {t[1]} is not modelled")
        if tag == "pow":
            e = t[2]
            if e[0] != "num" and _nat_arith(e):
                raise NotModelled(f"simp only: the exponent {show(e)[:100]} is closed ℕ arithmetic "
                                  "(reduced by simprocs), not modelled")
    for x in t:
        check_simp_result(x)


def _nat_arith(e: Any) -> bool:
    """A closed arithmetic tree of numerals (an exponent without ascription: ℕ arithmetic)."""
    if e[0] == "num":
        return True
    return e[0] in ("add", "sub", "mul", "div", "pow", "neg") and all(_nat_arith(x) for x in e[1:])


def simp_definitions(rules: list[list[Tok]], g: Goal, scope: Scope) -> dict[str, Definition]:
    """The definitions named by ``simp only [d₁, …]``: each a definition hypothesis in context."""
    functions = functions_of(g.ctx)
    defs: dict[str, Definition] = {}
    if not rules:
        raise NotModelled("simp only [] is not modelled")
    for toks in rules:
        if len(toks) != 1 or toks[0].kind != "ident" or toks[0].text not in scope.names:
            raise NotModelled(f"simp only with {' '.join(t.text for t in toks)[:80]}: only definition "
                              "hypotheses `∀ x, f x = E` are modelled")
        loc = g.local(scope.names[toks[0].text])
        if loc is None or loc.is_var:
            raise NotModelled(f"simp only with {toks[0].text}, not a hypothesis")
        d = definition_of(loc.type, functions)
        if d.fn in defs:
            raise NotModelled(f"simp only with two definitions of {uid_name(d.fn)}")
        defs[d.fn] = d
    return defs


def simp_only(rules: list[list[Tok]], loc_name: str | None, g: Goal, scope: Scope,
              fresh: Callable[[str], str]) -> tuple[Goal, Any]:
    """``simp only [d₁, …] (at h)?`` with definition hypotheses: the goal after it, and the
    rewritten proposition."""
    defs = simp_definitions(rules, g, scope)
    if loc_name is None:
        old = g.target
    else:
        uid = scope.names.get(loc_name)
        hyp = g.local(uid) if uid is not None else None
        if hyp is None or hyp.is_var:
            raise ModelError(f"simp only at {loc_name}: no such hypothesis")
        old = hyp.type
    new = expand(old, defs)
    if new == old:
        raise ModelError("simp made no progress")
    check_simp_result(new)
    if loc_name is None:
        return g.with_target(new), new
    ctx = tuple(Local(fresh(loc_name), loc_name, False, new) if x is hyp else x for x in g.ctx)
    return Goal(ctx, g.target, g.unknown), new
