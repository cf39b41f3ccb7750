"""The proof checker: verifies every step of a :class:`~prover.kernel.ir.Proof` exactly.

The meaning of each step and certificate is the module docstring of ``prover/kernel/ir.py``; the
trust base is ``docs/TRUST_BASE.md``. Every rejection names the step by its path (``root``,
``root/1/0`` …), its kind and the reason. Nothing here uses floats or a solver: identities are
checked in ℚ(variables, atoms) (see :mod:`prover.kernel.algebra`) and signs by the structural
rules of :mod:`prover.kernel.positivity`.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.kernel.algebra import Atomizer, KernelError, residual
from prover.kernel.ir import Goal, IRError, Proof, Step, expr_from_str, relation_from_json
from prover.kernel.lemma import LemmaStatement
from prover.kernel.positivity import Positivity
from prover.problem import Relation, var

LemmaLookup = Callable[[str], "LemmaStatement | None"]

_KIND = {">=": "ge", "<=": "ge", ">": "gt", "<": "gt", "=": "eq", "!=": "ne"}
_INEQ = (">=", "<=", ">", "<")


@dataclass
class Verdict:
    """The kernel's answer. ``ok`` only if no step was rejected and no subgoal is left open."""

    ok: bool
    errors: list[str] = field(default_factory=list)
    trusted_lemmas: list[str] = field(default_factory=list)
    steps_checked: int = 0


# ---------------------------------------------------------------- one step's context


@functools.lru_cache(maxsize=8192)
def _parse(s: str, variables: tuple[str, ...]) -> sp.Expr:
    """Parsing is the slow part of small checks; sympy expressions are immutable, so cache."""
    return expr_from_str(s, list(variables))


class _Ctx:
    """A goal's context: its hypotheses, one atom table, one positivity prover."""

    def __init__(self, goal: Goal):
        self.goal = goal
        self.at = Atomizer()
        self.pos = Positivity(goal.hypotheses, self.at)

    def parse(self, s: Any, what: str, variables: Sequence[str] | None = None) -> sp.Expr:
        if isinstance(s, int) and not isinstance(s, bool):
            s = str(s)
        if not isinstance(s, str):
            raise KernelError(f"{what}: expected an expression string, got {type(s).__name__}")
        try:
            return _parse(s, tuple(self.goal.variables if variables is None else variables))
        except IRError as exc:
            raise KernelError(f"{what}: {exc}") from None

    def rational(self, s: Any, what: str) -> sp.Rational:
        e = self.parse(s, what, [])
        if not e.is_Rational:
            raise KernelError(f"{what}: {s!r} is not a rational number")
        return e

    def hyp(self, k: Any, what: str) -> Relation:
        hs = self.goal.hypotheses
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(hs):
            raise KernelError(f"{what}: no hypothesis with index {k!r} (the goal has {len(hs)})")
        return hs[k]

    def conv(self, e: sp.Expr, dens: list[sp.Expr], subs: dict | None = None) -> sp.Expr:
        c, d = self.at.convert(e, subs)
        dens.extend(d)
        return c

    def show(self, e: Any) -> str:
        """Readable form of an atomized expression or polynomial (for messages only)."""
        text = str(e)
        if len(text) > 160:
            text = text[:157] + "..."
        used = [f"{s} = {d.original}" for s, d in self.at.defs.items() if str(s) in text]
        return text + (f" (where {', '.join(used)})" if used else "")

    def require_nonzero(self, dens: Sequence[sp.Expr], what: str) -> None:
        seen: list[sp.Expr] = []
        for d in dens:
            if d in seen:
                continue
            seen.append(d)
            if not self.pos.nonzero_conv(d):
                raise KernelError(f"cannot prove the denominator {self.show(d)} nonzero ({what}); "
                                  "Lean's x/0 = 0 would make the identity unsound")

    def require_sign(self, conv: sp.Expr, strict: bool, what: str) -> None:
        if not self.pos.prove_conv(conv, strict):
            raise KernelError(f"positivity rules do not prove {what} {self.show(conv)} "
                              f"{'> 0' if strict else '>= 0'}")

    def require_identity(self, parts: Sequence[sp.Expr], what: str) -> None:
        num = residual(parts)
        if num != 0:
            raise KernelError(f"{what} is not an identity: the difference has numerator {self.show(num)}")

    def eq_terms(self, items: Any, dens: list[sp.Expr], what: str = "eq_terms") -> list[sp.Expr]:
        """Σ λ_j · eq(H_j) as atomized parts."""
        out = []
        for j, t in enumerate(_as_list(items, what)):
            w = f"{what}[{j}]"
            if not isinstance(t, dict):
                raise KernelError(f"{w}: expected an object with 'hyp' and 'poly'")
            h = self.hyp(t.get("hyp"), w)
            if h.op != "=":
                raise KernelError(f"{w}: hypothesis {t.get('hyp')} ({_rel(h)}) is not an equality")
            lam = self.conv(self.parse(t.get("poly"), w), dens)
            out.append(lam * self.conv(h.slack(), dens))
        return out


def _as_list(x: Any, what: str) -> list:
    if x is None:
        return []
    if not isinstance(x, list):
        raise KernelError(f"{what}: expected a list")
    return x


def _rel(r: Relation) -> str:
    return f"{r.lhs} {r.op} {r.rhs}"


def _strict(r: Relation) -> bool:
    return r.op in (">", "<", "!=")


# ---------------------------------------------------------------- close


def check_close(goal: Goal, cert: dict[str, Any]) -> None:
    """Raise :class:`KernelError` unless ``cert`` proves ``goal`` outright."""
    if not isinstance(cert, dict):
        raise KernelError("certificate must be an object")
    ctx = _Ctx(goal)
    method = cert.get("method")
    target = goal.target
    dens: list[sp.Expr] = []
    slack = ctx.conv(target.slack(), dens)
    if method == "positivity":
        if target.op == "=":
            raise KernelError("positivity cannot prove an equality")
        ctx.require_nonzero(dens, "target")
        if target.op == "!=":
            if not ctx.pos.nonzero_conv(slack):
                raise KernelError(f"positivity rules do not prove {ctx.show(slack)} != 0")
            return
        ctx.require_sign(slack, target.strict, "target slack")
        return
    if method != "sos":
        raise KernelError(f"unknown close method {method!r} (expected 'sos' or 'positivity')")
    terms = _as_list(cert.get("terms"), "terms")
    if target.op == "=" and terms:
        raise KernelError("an equality target needs terms == [] (only equality hypotheses)")
    strict = _strict(target)
    parts = [slack]
    strict_term = False
    for i, t in enumerate(terms):
        w = f"term {i}"
        if not isinstance(t, dict):
            raise KernelError(f"{w}: expected an object with 'coeff', 'mult' and 'poly'")
        c = ctx.rational(t.get("coeff"), f"{w} coeff")
        if c < 0:
            raise KernelError(f"{w}: negative weight {c}")
        prod: sp.Expr = c
        all_strict = True
        for k in _as_list(t.get("mult"), f"{w} mult"):
            h = ctx.hyp(k, w)
            if h.op not in _INEQ:
                raise KernelError(f"{w}: multiplier hypothesis {k} ({_rel(h)}) is not an inequality")
            prod *= ctx.conv(h.slack(), dens)
            all_strict = all_strict and h.strict
        q = ctx.conv(ctx.parse(t.get("poly"), f"{w} poly"), dens)
        prod *= q ** 2
        parts.append(-prod)
        if c > 0 and all_strict and q.is_Rational and q != 0:
            strict_term = True
    parts += [-p for p in ctx.eq_terms(cert.get("eq_terms"), dens)]
    if strict and not strict_term:
        raise KernelError("a strict target needs one term with positive weight, a nonzero constant "
                          "square and only strict hypotheses as multipliers")
    ctx.require_identity(parts, "slack(target) = Σ c·Π slack(H)·q² + Σ λ·eq(H)")
    ctx.require_nonzero(dens, "sos certificate")


# ---------------------------------------------------------------- the checker

#: A kernel-trust lemma's certificate is checked once per process: its full statement and
#: certificate are the key, so a changed lemma is checked again.
_LEMMA_VERDICTS: dict[tuple, str | None] = {}


def _lemma_key(lem: LemmaStatement) -> tuple:
    return (lem.name, lem.variables, lem.side_conditions, lem.lhs, lem.rhs,
            json.dumps(lem.certificate, sort_keys=True, default=str))



def default_lemma_lookup() -> LemmaLookup | None:
    """The catalogue's lookup, or None when the catalogue cannot be loaded."""
    try:
        from prover.tactics.catalogue import lemma_lookup
    except ImportError:
        return None
    try:
        return lemma_lookup()
    except Exception:  # noqa: BLE001 - an unreadable catalogue: scale steps are then rejected
        return None


class Kernel:
    """Checks steps; remembers which catalogue lemmas were used and whether they check."""

    def __init__(self, lemmas: LemmaLookup | None = None):
        # Without an explicit lookup the project's catalogue (tactics/lemmas) is used; each
        # kernel-trust lemma is still re-checked from its own certificate before it is trusted.
        self.lemmas = lemmas if lemmas is not None else default_lemma_lookup()
        self.trusted: dict[str, str] = {}
        self.steps = 0

    # -------- tree walk

    def check_tree(self, step: Step, path: str, errors: list[str]) -> None:
        self.steps += 1
        try:
            self.check_one(step)
        except KernelError as exc:
            errors.append(f"{path} ({step.kind}): {exc}")
        except Exception as exc:  # noqa: BLE001 - an unexpected failure is a rejection, never an acceptance
            errors.append(f"{path} ({step.kind}): internal error while checking: "
                          f"{type(exc).__name__}: {exc}")
        n, m = len(step.subgoals), len(step.children)
        for i in range(m, n):
            errors.append(f"{path}/{i}: open subgoal: no step proves subgoal {i} of the {step.kind} "
                          f"step at {path} ({_rel(step.subgoals[i].target)})")
        if m > n:
            errors.append(f"{path} ({step.kind}): {m} children for {n} subgoals")
        for i, child in enumerate(step.children):
            if i < n and child.goal != step.subgoals[i]:
                errors.append(f"{path}/{i} ({child.kind}): the step's goal is not subgoal {i} of its parent")
            self.check_tree(child, f"{path}/{i}", errors)

    def check_one(self, step: Step) -> None:
        cert = step.certificate
        if not isinstance(cert, dict):
            raise KernelError("certificate must be an object")
        if step.kind == "close":
            if step.subgoals:
                raise KernelError("a close step has no subgoals")
            check_close(step.goal, cert)
            return
        if step.kind == "split":
            self._split(step.goal, step.subgoals, cert)
            return
        if len(step.subgoals) != 1:
            raise KernelError(f"a {step.kind} step has exactly one subgoal, found {len(step.subgoals)}")
        sub = step.subgoals[0]
        if step.kind == "rewrite":
            self._linear(step.goal, sub, cert, [])
        elif step.kind == "scale":
            self._linear(step.goal, sub, cert, _as_list(cert.get("applications"), "applications"))
        elif step.kind == "introduce":
            self._introduce(step.goal, sub, cert)
        elif step.kind == "substitute":
            self._substitute(step.goal, sub, cert)
        else:  # pragma: no cover - Step.__post_init__ refuses unknown kinds
            raise KernelError(f"unknown step kind {step.kind!r}")

    # -------- rewrite / scale

    def _linear(self, G: Goal, G2: Goal, cert: dict, applications: list) -> None:
        """slack(G) = m · slack(G') + Σ c_k (B_k − A_k) + Σ λ_j eq(H_j)."""
        if G2.variables != G.variables:
            raise KernelError("the subgoal must have the same variables as the goal")
        if applications and G.target.op not in _INEQ:
            raise KernelError("lemma applications add a nonnegative term: the goal must be an inequality")
        _new_hypotheses(G, G2, cert)
        # the new hypotheses are proved from G's: they may serve to prove denominators nonzero
        # (a denominator positive only thanks to an equality constraint); indices of G's stay valid
        ctx = _Ctx(Goal(G.variables, G.hypotheses + tuple(h for h in G2.hypotheses if h not in G.hypotheses),
                        G.target))
        dens: list[sp.Expr] = []
        if "multiplier" not in cert:
            raise KernelError("missing 'multiplier'")
        m = ctx.conv(ctx.parse(cert.get("multiplier"), "multiplier"), dens)
        parts = [ctx.conv(G.target.slack(), dens), -m * ctx.conv(G2.target.slack(), dens)]
        for k, app in enumerate(applications):
            a, b, c = self._application(ctx, app, dens, f"application {k}")
            parts.append(-c * (b - a))
        parts += [-p for p in ctx.eq_terms(cert.get("eq_terms"), dens)]
        ctx.require_identity(parts, "slack(G) = m·slack(G') + Σ c·(B − A) + Σ λ·eq(H)")
        ctx.require_nonzero(dens, "rewrite identity")
        need = _multiplier_need(G.target.op, G2.target.op)
        if need == "ge":
            ctx.require_sign(m, False, "multiplier")
        elif need == "gt":
            ctx.require_sign(m, True, "multiplier")
        elif need == "ne" and not ctx.pos.nonzero_conv(m):
            raise KernelError(f"cannot prove the multiplier {ctx.show(m)} nonzero")

    def _application(self, ctx: _Ctx, app: Any, dens: list, w: str) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(A, B, c)`` of one application ``A <= B`` with weight ``c >= 0``: a catalogue lemma
        instance, an inequality hypothesis of the goal, or a fact proved by its own close certificate."""
        if not isinstance(app, dict):
            raise KernelError(f"{w}: expected an object with 'lemma', 'instance', 'coefficient'")
        if "hypothesis" in app or "fact" in app:
            a, b = self._fact_or_hypothesis(ctx, app, dens, w)
            c = ctx.conv(ctx.parse(app.get("coefficient", "1"), f"{w} coefficient"), dens)
            ctx.require_sign(c, False, f"{w} coefficient")
            return a, b, c
        name = app.get("lemma")
        lem = self.lemmas(name) if (self.lemmas is not None and isinstance(name, str)) else None
        if lem is None:
            raise KernelError(f"{w}: unknown catalogue lemma {name!r}")
        self._trust_lemma(lem)
        if not (lem.lhs.free_symbols | lem.rhs.free_symbols | set().union(
                *(r.free_symbols() for r in lem.side_conditions))) <= {var(v) for v in lem.variables}:
            raise KernelError(f"{w}: lemma {lem.name} mentions symbols outside its variables")
        inst = app.get("instance")
        if not isinstance(inst, dict) or set(inst) != set(lem.variables):
            raise KernelError(f"{w}: the instance must map exactly the lemma's variables "
                              f"{list(lem.variables)}")
        subs = {var(v): ctx.parse(inst[v], f"{w} instance of {v}") for v in lem.variables}
        for i, sc in enumerate(lem.side_conditions):
            sdens: list[sp.Expr] = []
            s = ctx.conv(sc.slack(), sdens, subs)
            ctx.require_nonzero(sdens, f"{w} side condition {i}")
            what = f"{w}: side condition {i} ({_rel(sc)}) of {lem.name}"
            if sc.op == "=":
                ctx.require_identity([s], what)
            elif sc.op == "!=":
                if not ctx.pos.nonzero_conv(s):
                    raise KernelError(f"{what}: cannot prove it nonzero")
            else:
                ctx.require_sign(s, sc.strict, what + " needs")
        c = ctx.conv(ctx.parse(app.get("coefficient", "1"), f"{w} coefficient"), dens)
        ctx.require_sign(c, False, f"{w} coefficient")
        return ctx.conv(lem.lhs, dens, subs), ctx.conv(lem.rhs, dens, subs), c

    def _fact_or_hypothesis(self, ctx: _Ctx, app: dict, dens: list, w: str) -> tuple[sp.Expr, sp.Expr]:
        """``A <= B`` from inequality hypothesis ``k`` of the goal, or from a ``fact`` whose close
        certificate (over the goal's context) the kernel checks here."""
        if "hypothesis" in app and "fact" in app:
            raise KernelError(f"{w}: give either 'hypothesis' or 'fact', not both")
        if "hypothesis" in app:
            h = ctx.hyp(app.get("hypothesis"), w)
            if h.op not in _INEQ:
                raise KernelError(f"{w}: hypothesis {app.get('hypothesis')} ({_rel(h)}) is not an inequality")
            rel = h
        else:
            fact = app.get("fact")
            if not isinstance(fact, dict):
                raise KernelError(f"{w}: 'fact' must be a relation object")
            try:
                rel = relation_from_json(fact, ctx.goal.variables)
            except IRError as exc:
                raise KernelError(f"{w}: {exc}") from None
            if rel.op not in _INEQ:
                raise KernelError(f"{w}: a fact must be an inequality, got {_rel(rel)}")
            proof = app.get("proof")
            if not isinstance(proof, dict):
                raise KernelError(f"{w}: a fact needs a close certificate in 'proof'")
            _close_in(ctx.goal.with_target(rel), proof, f"{w} fact")
        # slack(rel) >= 0 is the fact; as A <= B: A = 0, B = slack
        return sp.Integer(0), ctx.conv(rel.slack(), dens)

    def _trust_lemma(self, lem: LemmaStatement) -> None:
        if lem.trust == "lean":
            self.trusted[lem.name] = f"{lem.name} (rests on Lean: {lem.lean_name or '?'})"
            return
        if lem.trust != "kernel":
            raise KernelError(f"lemma {lem.name} has unknown trust {lem.trust!r}")
        key = _lemma_key(lem)
        if key not in _LEMMA_VERDICTS:
            try:
                if lem.certificate is None:
                    raise KernelError("no certificate")
                goal = Goal(tuple(lem.variables), tuple(lem.side_conditions),
                            Relation(lem.lhs, "<=", lem.rhs))
                check_close(goal, lem.certificate)
                _LEMMA_VERDICTS[key] = None
            except KernelError as exc:
                _LEMMA_VERDICTS[key] = str(exc)
        err = _LEMMA_VERDICTS[key]
        if err is not None:
            raise KernelError(f"catalogue lemma {lem.name} is not proved: its certificate fails: {err}")
        self.trusted[lem.name] = f"{lem.name} (kernel-checked certificate)"

    # -------- split

    def _split(self, G: Goal, subgoals: list[Goal], cert: dict) -> None:
        cases = cert.get("cases")
        for i, sg in enumerate(subgoals):
            if sg.variables != G.variables or sg.target != G.target or \
                    sg.hypotheses[:len(G.hypotheses)] != G.hypotheses:
                raise KernelError(f"case {i} must be the goal with extra hypotheses appended")
        n0 = len(G.hypotheses)
        if cases == "sign":
            ctx = _Ctx(G)
            p = ctx.parse(cert.get("expr"), "expr")
            if len(subgoals) != 2:
                raise KernelError("a sign split has exactly two cases")
            for i, want in enumerate((p, -p)):
                extra = subgoals[i].hypotheses[n0:]
                if len(extra) != 1 or extra[0].op not in (">=", "<=") or extra[0].slack() != want:
                    raise KernelError(f"case {i} must add exactly the hypothesis "
                                      f"{'p >= 0' if i == 0 else 'p <= 0'} for p = {p}")
            return
        if cases != "order":
            raise KernelError(f"unknown split {cases!r} (expected 'sign' or 'order')")
        names = cert.get("variables")
        if not isinstance(names, list) or len(names) < 2 or len(set(names)) != len(names) \
                or not set(names) <= set(G.variables):
            raise KernelError("'variables' must list at least two distinct variables of the goal")
        symmetry = cert.get("symmetry") or "none"
        if symmetry not in ("none", "full", "cyclic"):
            raise KernelError(f"unknown symmetry {symmetry!r}")
        orderings = cert.get("orderings")
        if orderings is None:
            if symmetry != "none":
                raise KernelError("a symmetric order split must list its 'orderings'")
            orderings = [_chain_order(sg.hypotheses[n0:], names, i) for i, sg in enumerate(subgoals)]
        if not isinstance(orderings, list) or len(orderings) != len(subgoals):
            raise KernelError("'orderings' must have one entry per case")
        for i, (sg, o) in enumerate(zip(subgoals, orderings)):
            if not isinstance(o, list) or sorted(map(str, o)) != sorted(names):
                raise KernelError(f"ordering {i} must be a permutation of {names}")
            if tuple(sg.hypotheses[n0:]) != tuple(_chain(o)):
                raise KernelError(f"case {i} must add exactly the chain {' >= '.join(o)}")
        group = _group(names, symmetry)
        if symmetry != "none":
            ctx = _Ctx(G)
            for g in _generators(names, symmetry):
                _check_invariant(ctx, G, g, symmetry)
        covered = {tuple(g[v] for v in o) for o in orderings for g in group}
        missing = [p for p in itertools.permutations(names) if p not in covered]
        if missing:
            raise KernelError(f"the cases are not exhaustive: ordering {' >= '.join(missing[0])} "
                              f"is not covered ({len(missing)} orderings missing)")

    # -------- introduce

    def _introduce(self, G: Goal, G2: Goal, cert: dict) -> None:
        defs = cert.get("definitions")
        if not isinstance(defs, dict) or not defs:
            raise KernelError("'definitions' must map new variables to expressions")
        for v in defs:
            if not isinstance(v, str) or v in G.variables:
                raise KernelError(f"{v!r} is not a new variable name")
        if tuple(G2.variables[:len(G.variables)]) != G.variables or set(G2.variables) != \
                set(G.variables) | set(defs) or len(G2.variables) != len(G.variables) + len(defs):
            raise KernelError("the subgoal's variables must be the goal's followed by the new ones")
        if not _op_implies(G2.target.op, G.target.op):
            raise KernelError(f"a {G2.target.op} subgoal does not give a {G.target.op} goal")
        ctx = _Ctx(G)
        subs = {var(v): ctx.parse(e, f"definition of {v}") for v, e in defs.items()}
        facts: list[Relation] = []
        for v, D in subs.items():
            facts += _definition_facts(ctx, v, D)
        # At a point x of G's context with v := D(x) the facts hold, so we reason in that context.
        ext = _Ctx(Goal(G2.variables, G.hypotheses + tuple(facts), G2.target))
        rep = _radical_replacer(ctx, subs)

        def same(h2: Relation, h: Relation) -> bool:
            """h2 (new variables) says the same as h (old ones) at v := D."""
            return _equivalent(ext, h2, rep(h)) or _equivalent(ctx, h2, h, subs)

        if not _same_slack(ext, G2.target, rep(G.target)):
            dens: list[sp.Expr] = []
            ctx.require_identity([ctx.conv(G.target.slack(), dens),
                                  -ctx.conv(G2.target.slack(), dens, subs)],
                                 "the subgoal's target with the definitions substituted back = the goal's")
            ctx.require_nonzero(dens, "target")
        proofs = _proofs_by_index(cert)
        for i, h in enumerate(G2.hypotheses):
            if any(_equivalent(ext, h, F) for F in facts) or any(same(h, H) for H in G.hypotheses):
                continue
            if i not in proofs:
                raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}) is new and has no proof")
            try:
                _close_in(ext.goal.with_target(h), proofs[i], f"new hypothesis {i}")
            except KernelError:
                # the same certificate read over G's context with the definitions put back
                # structurally (unevaluated: sqrt(x)**2 stays a square of an atom)
                with sp.evaluate(False):
                    back = Relation(sp.sympify(h.lhs).xreplace(subs), h.op, sp.sympify(h.rhs).xreplace(subs))
                _close_in(G.with_target(back), proofs[i], f"new hypothesis {i}")

    # -------- substitute

    def _substitute(self, G: Goal, G2: Goal, cert: dict) -> None:
        fwd, inv = cert.get("substitution"), cert.get("inverse")
        if not isinstance(fwd, dict) or not isinstance(inv, dict):
            raise KernelError("'substitution' and 'inverse' must be objects")
        # a variable left out maps to itself, which needs it on both sides
        fwd = {**{x: x for x in G.variables if x not in fwd}, **fwd}
        inv = {**{y: y for y in G2.variables if y not in inv}, **inv}
        if set(fwd) != set(G.variables):
            raise KernelError("'substitution' maps names that are not variables of the goal")
        if set(inv) != set(G2.variables):
            raise KernelError("'inverse' maps names that are not variables of the subgoal")
        ctx, ctx2 = _Ctx(G), _Ctx(G2)
        f = {var(x): ctx2.parse(e, f"substitution of {x}", G2.variables) for x, e in fwd.items()}
        g = {var(y): ctx.parse(e, f"inverse of {y}") for y, e in inv.items()}
        eq_terms = cert.get("eq_terms") or {}
        if not isinstance(eq_terms, dict) or not set(eq_terms) <= set(G.variables):
            raise KernelError("'eq_terms' must map variables of the goal to lists of equality terms")
        dens: list[sp.Expr] = []
        for x, fx in f.items():
            extra = ctx.eq_terms(eq_terms.get(str(x)), dens, f"eq_terms of {x}")
            ctx.require_identity([ctx.conv(fx, dens, g), -x] + [-p for p in extra],
                                 f"f(g(x)) = x for {x}")
        ctx.require_nonzero(dens, "inverse substitution")
        if not _op_implies(G2.target.op, G.target.op):
            raise KernelError(f"a {G2.target.op} subgoal does not give a {G.target.op} goal")
        dens2: list[sp.Expr] = []
        ctx2.require_identity([ctx2.conv(G.target.slack(), dens2, f), -ctx2.conv(G2.target.slack(), dens2)],
                              "the goal's target with the substitution applied = the subgoal's")
        ctx2.require_nonzero(dens2, "substituted target")
        proofs = _proofs_by_index(cert)
        for i, h in enumerate(G2.hypotheses):
            if any(_equivalent(ctx, h, H, g) for H in G.hypotheses):
                continue
            if i not in proofs:
                raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}), with the inverse "
                                  "substituted, is not among the goal's and has no proof")
            with sp.evaluate(False):
                back = Relation(h.lhs.xreplace(g), h.op, h.rhs.xreplace(g))
            _close_in(G.with_target(back), proofs[i], f"new hypothesis {i}")


# ---------------------------------------------------------------- helpers


def _multiplier_need(op_g: str, op_sub: str) -> str:
    """What the multiplier must satisfy for slack(G) = m·slack(G') (+ zero terms) to prove G."""
    kg, ks = _KIND[op_g], _KIND[op_sub]
    if ks == "eq":
        if kg in ("eq", "ge"):
            return "none"
    elif kg == "ge" and ks in ("ge", "gt"):
        return "ge"
    elif kg == "gt" and ks == "gt":
        return "gt"
    elif kg == "ne" and ks in ("ne", "gt"):
        return "ne"
    raise KernelError(f"a {op_sub} subgoal cannot prove a {op_g} goal this way")


def _op_implies(op_src: str, op_dst: str) -> bool:
    """Same slack: does ``slack op_src 0`` imply ``slack op_dst 0``?"""
    ks, kd = _KIND[op_src], _KIND[op_dst]
    return ks == kd or (ks == "gt" and kd in ("ge", "ne")) or (ks == "eq" and kd == "ge")


def _proofs_by_index(cert: dict) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for k, e in enumerate(_as_list(cert.get("new_hypotheses"), "new_hypotheses")):
        if not isinstance(e, dict) or not isinstance(e.get("index"), int) or not isinstance(e.get("proof"), dict):
            raise KernelError(f"new_hypotheses[{k}] must be {{'index': int, 'proof': {{...}}}}")
        out[e["index"]] = e["proof"]
    return out


def _close_in(goal: Goal, proof: dict, what: str) -> None:
    try:
        check_close(goal, proof)
    except KernelError as exc:
        raise KernelError(f"{what} ({_rel(goal.target)}): {exc}") from None


def _new_hypotheses(G: Goal, G2: Goal, cert: dict) -> None:
    proofs = _proofs_by_index(cert)
    for i, h in enumerate(G2.hypotheses):
        if h in G.hypotheses:
            continue
        if i not in proofs:
            raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}) is new and has no proof")
        _close_in(G.with_target(h), proofs[i], f"new hypothesis {i}")


def _equivalent(ctx: _Ctx, h: Relation, H: Relation, subs: dict | None = None) -> bool:
    """``h`` (with ``subs`` applied) has the same truth value as ``H`` in ``ctx``'s context."""
    if subs is None and h == H:
        return True
    kind = _KIND[h.op]
    return kind == _KIND[H.op] and _same_slack(ctx, h, H, subs, both_signs=kind in ("eq", "ne"))


def _same_slack(ctx: _Ctx, h: Relation, H: Relation, subs: dict | None = None, both_signs: bool = False) -> bool:
    """slack(h) (with ``subs`` applied) = slack(H) where ``ctx``'s hypotheses hold (± if asked)."""
    dens: list[sp.Expr] = []
    try:
        a = ctx.conv(h.slack(), dens, subs)
        b = ctx.conv(H.slack(), dens)
        if not any(residual([a, -s * b]) == 0 for s in ((1, -1) if both_signs else (1,))):
            return False
        ctx.require_nonzero(dens, "hypothesis")
    except KernelError:
        return False
    return True


def _chain(order: Sequence[str]) -> list[Relation]:
    return [Relation(var(order[i]), ">=", var(order[i + 1])) for i in range(len(order) - 1)]


def _chain_order(extra: Sequence[Relation], names: list[str], i: int) -> list[str]:
    for p in itertools.permutations(names):
        if tuple(extra) == tuple(_chain(p)):
            return list(p)
    raise KernelError(f"case {i} does not add an ordering chain of {names}")


def _group(names: list[str], symmetry: str) -> list[dict[str, str]]:
    """The permutation group (as renamings) the cases are taken modulo."""
    n = len(names)
    if symmetry == "full":
        perms = itertools.permutations(names)
    elif symmetry == "cyclic":
        perms = (names[k:] + names[:k] for k in range(n))
    else:
        perms = iter([names])
    return [dict(zip(names, p)) for p in perms]


def _generators(names: list[str], symmetry: str) -> list[dict[str, str]]:
    cycle = dict(zip(names, names[1:] + names[:1]))
    if symmetry == "cyclic":
        return [cycle]
    swap = {**{v: v for v in names}, names[0]: names[1], names[1]: names[0]}
    return [cycle, swap]


def _check_invariant(ctx: _Ctx, G: Goal, g: dict[str, str], symmetry: str) -> None:
    ren = {var(a): var(b) for a, b in g.items()}

    def rn(r: Relation) -> Relation:
        return Relation(sp.sympify(r.lhs).xreplace(ren), r.op, sp.sympify(r.rhs).xreplace(ren))

    t = rn(G.target)
    if not _equivalent(ctx, t, G.target):
        raise KernelError(f"{symmetry} symmetry claimed but the target changes under "
                          f"{_fmt_perm(g)}: {_rel(t)}")
    for H in G.hypotheses:
        h = rn(H)
        if not any(_equivalent(ctx, h, H2) for H2 in G.hypotheses):
            raise KernelError(f"{symmetry} symmetry claimed but hypothesis {_rel(H)} becomes "
                              f"{_rel(h)} under {_fmt_perm(g)}, which is not a hypothesis")


def _fmt_perm(g: dict[str, str]) -> str:
    return "(" + ", ".join(f"{a}→{b}" for a, b in g.items() if a != b) + ")"


def _radical_replacer(ctx: _Ctx, subs: dict[sp.Symbol, sp.Expr]) -> Callable[[Relation], Relation]:
    """Rewrite old-variable relations in terms of the new variables: every definition ``D`` by
    its variable, and, for ``v = X ** (1/q)`` with ``X >= 0`` proved, ``X ** (k/q)`` by ``v ** k``
    (Lean: ``x ^ (k/q) = (x ^ (1/q)) ^ k`` for ``x >= 0``)."""
    exact = {D: v for v, D in subs.items()}
    roots: dict[sp.Expr, tuple[sp.Symbol, int]] = {}
    for v, D in subs.items():
        if D.is_Pow and D.exp.is_Rational and D.exp.p == 1 and D.exp.q > 1 and ctx.pos.prove(D.base, False):
            roots.setdefault(D.base, (v, int(D.exp.q)))

    def swap(e: sp.Expr) -> sp.Expr:
        if e in exact:
            return exact[e]
        if e.is_Pow and e.base in roots and e.exp.is_Rational and not e.exp.is_Integer:
            v, q = roots[e.base]
            kq = int(e.exp.p) * q
            if kq % int(e.exp.q) == 0:
                return sp.Pow(v, kq // int(e.exp.q))
        return e

    def rep(r: Relation) -> Relation:
        return Relation(_replace_top_down(sp.sympify(r.lhs), swap), r.op, _replace_top_down(sp.sympify(r.rhs), swap))

    return rep


def _replace_top_down(e: sp.Expr, f: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    """Replace subtrees top-down (a replaced subtree is not visited again)."""
    r = f(e)
    if r is not e or not e.args:
        return r
    args = [_replace_top_down(a, f) for a in e.args]
    with sp.evaluate(False):
        return e.func(*args)


def _definition_facts(ctx: _Ctx, v: sp.Symbol, D: sp.Expr) -> list[Relation]:
    """Facts about a new variable ``v := D`` that hold in Lean, each after its side condition."""
    facts = [Relation(v, "=", D)]
    if D.is_Pow and D.exp.is_Rational and not D.exp.is_Integer:
        X, r = D.base, D.exp
        p, q = int(r.p), int(r.q)
        power = X if p == 1 else sp.Pow(X, p, evaluate=False)
        if abs(r) == sp.Rational(1, 2):
            facts.append(Relation(v, ">=", sp.Integer(0)))
        if ctx.pos.prove(X, True):
            facts += [Relation(v, ">", sp.Integer(0)), Relation(v, ">=", sp.Integer(0)),
                      Relation(v ** q, "=", power)]
        elif r > 0 and ctx.pos.prove(X, False):
            facts += [Relation(v, ">=", sp.Integer(0)), Relation(v ** q, "=", power)]
    elif isinstance(D, sp.exp):
        facts.append(Relation(v, ">", sp.Integer(0)))
    return facts


# ---------------------------------------------------------------- public API


def introduce_facts(goal: Goal, definitions: dict[str, str]) -> list[Relation]:
    """The facts an ``introduce`` step may use about its new variables, in the kernel's order.

    A ``new_hypotheses`` proof of an ``introduce`` step is checked over the goal's hypotheses
    followed by these facts (so its hypothesis indices count them after the goal's)."""
    ctx = _Ctx(goal)
    facts: list[Relation] = []
    for v, e in definitions.items():
        facts += _definition_facts(ctx, var(v), ctx.parse(e, f"definition of {v}"))
    return facts


def check_step(step: Step, lemmas: LemmaLookup | None = None) -> Verdict:
    """Check one step (and the subtree below it)."""
    k = Kernel(lemmas)
    errors: list[str] = []
    k.check_tree(step, "root", errors)
    return Verdict(not errors, errors, sorted(k.trusted.values()), k.steps)


def check_proof(proof: Proof, lemmas: LemmaLookup | None = None) -> Verdict:
    """Check a whole proof: its root goal must be the problem's, every step must check."""
    k = Kernel(lemmas)
    errors: list[str] = []
    if proof.root.goal != Goal.from_problem(proof.problem):
        errors.append("root: the root step's goal is not the problem's statement")
    k.check_tree(proof.root, "root", errors)
    return Verdict(not errors, errors, sorted(k.trusted.values()), k.steps)
