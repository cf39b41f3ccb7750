"""The proof checker: verifies every step of a :class:`~prover.ir.Proof` exactly.

The meaning of each step and certificate is the module docstring of ``prover/ir.py``; the
trust base is ``docs/TRUST_BASE.md``. Every rejection names the step by its path (``root``,
``root/1/0`` …), its kind and the reason. Nothing here uses floats or a solver: identities are
checked in ℚ(variables, atoms) (see :mod:`prover.kernel.algebra`) and signs by the structural
rules of :mod:`prover.kernel.positivity`.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from prover.kernel import certificates as C
from prover.kernel import terms as T
from prover.kernel.algebra import Atomizer, KernelError, NonNeg, residual, variable_symbol
from prover.kernel.ir import (
    Goal,
    IRError,
    Statement,
    Step,
    as_json,
    parse_proof,
    parse_step_tree,
    read_expr,
    read_rel,
    steps_of,
)
from prover.kernel.lemma import Lemma
from prover.kernel.positivity import Positivity

Relation = T.Rel
LemmaLookup = Callable[[str], Any]

_KIND = {">=": "ge", "<=": "ge", ">": "gt", "<": "gt", "=": "eq", "!=": "ne"}
_INEQ = (">=", "<=", ">", "<")


@dataclass
class Verdict:
    """The kernel's answer. ``ok`` only if no step was rejected and no subgoal is left open."""

    ok: bool
    errors: list[str] = field(default_factory=list)
    trusted_lemmas: list[str] = field(default_factory=list)
    steps_checked: int = 0
    #: sha256 over the JSON forms of the catalogue lemmas the proof used ("" if none)
    catalogue_digest: str = ""
    #: whether the root goal was compared with a faithful statement of the theorem
    statement_checked: bool = False


# ---------------------------------------------------------------- one step's context


class _CheckContext:
    """A goal's context: its hypotheses, one atom table, one positivity prover."""

    def __init__(self, goal: Goal, inv_atoms: bool = False):
        self.goal = goal
        self.at = Atomizer(inv_atoms=inv_atoms)
        self.pos = Positivity(goal.hypotheses, self.at)
        self._inverse_view: _CheckContext | None = None

    def inverse_view(self) -> _CheckContext:
        """The same context with inverses as atoms (identities that need no denominator nonzero)."""
        if self._inverse_view is None:
            self._inverse_view = _CheckContext(self.goal, inv_atoms=True)
        return self._inverse_view

    def parse(self, s: Any, what: str, variables: Sequence[str] | None = None) -> T.Term:
        try:
            return read_expr(s, tuple(self.goal.variables if variables is None else variables), what)
        except IRError as exc:
            raise KernelError(str(exc)) from None

    def rational(self, s: Any, what: str) -> sp.Rational:
        e = self.parse(s, what, [])
        if not isinstance(e, T.Num):
            raise KernelError(f"{what}: {s!r} is not a rational number")
        return sp.Rational(e.value.numerator, e.value.denominator)

    def hyp(self, k: Any, what: str) -> Relation:
        hs = self.goal.hypotheses
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(hs):
            raise KernelError(f"{what}: no hypothesis with index {k!r} (the goal has {len(hs)})")
        return hs[k]

    def conv(self, e: T.Term, dens: list, subs: dict[str, T.Term] | None = None) -> sp.Expr:
        c, d = self.at.convert(e, subs)
        dens.extend(d)
        return c

    def show(self, e: Any) -> str:
        """Readable form of an atomized expression or polynomial (for messages only)."""
        text = str(e)
        if len(text) > 160:
            text = text[:157] + "..."
        used = [f"{s} = {T.show(d.original)}" for s, d in self.at.defs.items() if str(s) in text]
        return text + (f" (where {', '.join(used)})" if used else "")

    def require_nonzero(self, dens: Sequence, what: str) -> None:
        seen: list = []
        for d in dens:
            if d in seen:
                continue
            seen.append(d)
            if self.pos.requirement(d):
                continue
            if isinstance(d, NonNeg):
                raise KernelError(f"cannot prove {self.show(d.expr)} >= 0 ({what}); Mathlib's "
                                  "x ^ (-r) = (x ^ r)⁻¹ needs a nonnegative base")
            raise KernelError(f"cannot prove the denominator {self.show(d)} nonzero ({what}); "
                              "Lean's x/0 = 0 would make the identity unsound")

    def require_sign(self, conv: sp.Expr, strict: bool, what: str) -> None:
        if not self.pos.prove_conv(conv, strict):
            raise KernelError(f"positivity rules do not prove {what} {self.show(conv)} "
                              f"{'> 0' if strict else '>= 0'}")

    def require_identity(self, parts: Sequence[sp.Expr], what: str) -> None:
        num = residual(parts, self.at.sqrt_consts)
        if num != 0:
            raise KernelError(f"{what} is not an identity: the difference has numerator {self.show(num)}")

    def eq_terms(self, items: Sequence[C.EqTerm], dens: list, what: str = "eq_terms") -> list[sp.Expr]:
        """Σ λ_j · eq(H_j) as atomized parts."""
        out = []
        for j, t in enumerate(items):
            w = f"{what}[{j}]"
            h = self.hyp(t.hyp, w)
            if h.op != "=":
                raise KernelError(f"{w}: hypothesis {t.hyp} ({_rel(h)}) is not an equality")
            lam = self.conv(self.parse(t.poly, w), dens)
            out.append(lam * self.conv(h.slack(), dens))
        return out


def _typed(read: Callable[[Any], Any], cert: Any) -> Any:
    """A certificate's typed form; a malformed one is a rejection."""
    try:
        return read(cert)
    except IRError as exc:
        raise KernelError(str(exc)) from None


def _rel(r: Relation) -> str:
    text = r.show()
    return text if len(text) <= 200 else text[:197] + "..."


def _strict(r: Relation) -> bool:
    return r.op in (">", "<", "!=")


# ---------------------------------------------------------------- close


def check_close(goal: Goal, cert: Any) -> None:
    """Raise :class:`KernelError` unless ``cert`` (a typed close certificate or its JSON) proves
    ``goal`` outright."""
    if not isinstance(cert, (C.SosCertificate, C.PositivityCertificate)):
        cert = _typed(C.close_from_json, cert)
    if not isinstance(goal, Goal):
        try:
            goal = Goal.from_json(goal)
        except IRError as exc:
            raise KernelError(str(exc)) from None
    ctx = _CheckContext(goal)
    target = goal.target
    dens: list = []
    slack = ctx.conv(target.slack(), dens)
    if isinstance(cert, C.PositivityCertificate):
        if target.op == "=":
            raise KernelError("positivity cannot prove an equality")
        ctx.require_nonzero(dens, "target")
        if target.op == "!=":
            if not ctx.pos.nonzero_conv(slack):
                raise KernelError(f"positivity rules do not prove {ctx.show(slack)} != 0")
            return
        ctx.require_sign(slack, target.strict, "target slack")
        return
    terms = cert.terms
    if target.op == "=" and terms:
        raise KernelError("an equality target needs terms == [] (only equality hypotheses)")
    strict = _strict(target)
    parts = [slack]
    strict_term = False
    for i, t in enumerate(terms):
        w = f"term {i}"
        c = ctx.rational(t.coeff, f"{w} coeff")
        if c < 0:
            raise KernelError(f"{w}: negative weight {c}")
        prod: sp.Expr = c
        all_strict = True
        for k in t.mult:
            h = ctx.hyp(k, w)
            if h.op not in _INEQ:
                raise KernelError(f"{w}: multiplier hypothesis {k} ({_rel(h)}) is not an inequality")
            prod *= ctx.conv(h.slack(), dens)
            all_strict = all_strict and h.strict
        q = ctx.conv(ctx.parse(t.poly, f"{w} poly"), dens)
        prod *= q ** 2
        parts.append(-prod)
        if c > 0 and all_strict and q.is_Rational and q != 0:  # q atomized: a rational constant
            strict_term = True
    parts += [-p for p in ctx.eq_terms(cert.eq_terms, dens)]
    if strict and not strict_term:
        raise KernelError("a strict target needs one term with positive weight, a nonzero constant "
                          "square and only strict hypotheses as multipliers")
    ctx.require_identity(parts, "slack(target) = Σ c·Π slack(H)·q² + Σ λ·eq(H)")
    ctx.require_nonzero(dens, "sos certificate")


# ---------------------------------------------------------------- the checker

#: A kernel-trust lemma's certificate is checked once per process: its digest (statement and
#: certificate) is the key, so a changed lemma is checked again.
_LEMMA_VERDICTS: dict[str, str | None] = {}


class Kernel:
    """Checks steps; remembers which catalogue lemmas were used and whether they check.

    ``lemmas`` is the caller's lookup ``name -> lemma`` (a :class:`~prover.kernel.lemma.Lemma` or
    an object whose ``to_json()`` gives one); without it, lemma applications are rejected. The
    kernel never loads a catalogue itself."""

    def __init__(self, lemmas: LemmaLookup | None = None):
        self.lemmas = lemmas
        self.trusted: dict[str, str] = {}
        self.digests: dict[str, str] = {}
        self.steps = 0

    # -------- tree walk

    def check_tree(self, step: Any, path: str, errors: list[str]) -> None:
        """Check every step below ``step`` (iteratively: deep trees cannot exhaust the stack)."""
        if not isinstance(step, Step):
            try:
                step = parse_step_tree(step)
            except IRError as exc:
                errors.append(f"{path}: unreadable step: {exc}")
                return
        for s, p in steps_of(step):
            p = path + p[4:]
            self.steps += 1
            try:
                self.check_one(s)
            except KernelError as exc:
                errors.append(f"{p} ({s.kind}): {exc}")
            except RecursionError:
                errors.append(f"{p} ({s.kind}): expression nested too deeply to check")
            except Exception as exc:  # noqa: BLE001 - an unexpected failure is a rejection, never an acceptance
                errors.append(f"{p} ({s.kind}): internal error while checking: "
                              f"{type(exc).__name__}: {exc}")
            n, m = len(s.subgoals), len(s.children)
            for i in range(m, n):
                errors.append(f"{p}/{i}: open subgoal: no step proves subgoal {i} of the {s.kind} "
                              f"step at {p} ({_rel(s.subgoals[i].target)})")
            if m > n:
                errors.append(f"{p} ({s.kind}): {m} children for {n} subgoals")
            for i, child in enumerate(s.children):
                if i < n and child.goal != s.subgoals[i]:
                    errors.append(f"{p}/{i} ({child.kind}): the step's goal is not subgoal {i} of its parent")

    def check_one(self, step: Any) -> None:
        if not isinstance(step, Step):
            try:
                step = parse_step_tree(step)
            except IRError as exc:
                raise KernelError(f"unreadable step: {exc}") from None
        cert = step.certificate
        if not isinstance(cert, dict):
            raise KernelError("certificate must be an object")
        if step.kind == "close":
            if step.subgoals:
                raise KernelError("a close step has no subgoals")
            check_close(step.goal, cert)
            return
        if step.kind == "split":
            self._split(step.goal, step.subgoals, _typed(C.split_from_json, cert))
            return
        if step.kind == "combine":
            _combine(step.goal, step.subgoals, _typed(C.CombineCertificate.from_json, cert))
            return
        if step.kind == "square":
            _square(step.goal, step.subgoals, _typed(C.SquareCertificate.from_json, cert))
            return
        if step.kind == "monotone":
            _monotone(step.goal, step.subgoals, _typed(C.MonotoneCertificate.from_json, cert))
            return
        if len(step.subgoals) != 1:
            raise KernelError(f"a {step.kind} step has exactly one subgoal, found {len(step.subgoals)}")
        sub = step.subgoals[0]
        if step.kind in ("rewrite", "scale"):
            lin = _typed(C.LinearCertificate.from_json, cert)
            if step.kind == "rewrite" and lin.applications:
                raise KernelError("a rewrite step has no applications (use scale)")
            self._linear(step.goal, sub, lin)
        elif step.kind == "introduce":
            self._introduce(step.goal, sub, _typed(C.IntroduceCertificate.from_json, cert))
        elif step.kind == "substitute":
            self._substitute(step.goal, sub, _typed(C.SubstituteCertificate.from_json, cert))
        else:  # pragma: no cover - parse_step_tree refuses unknown kinds
            raise KernelError(f"unknown step kind {step.kind!r}")

    # -------- rewrite / scale

    def _linear(self, G: Goal, G2: Goal, cert: C.LinearCertificate) -> None:
        """slack(G) = m · slack(G') + Σ c_k (B_k − A_k) + Σ λ_j eq(H_j)."""
        if G2.variables != G.variables:
            raise KernelError("the subgoal must have the same variables as the goal")
        if cert.applications and G.target.op not in _INEQ:
            raise KernelError("lemma applications add a nonnegative term: the goal must be an inequality")
        _new_hypotheses(G, G2, cert.new_hypotheses)
        # the new hypotheses are proved from G's: they may serve to prove denominators nonzero
        # (a denominator positive only thanks to an equality constraint); indices of G's stay valid
        ctx = _CheckContext(Goal(G.variables, G.hypotheses + tuple(h for h in G2.hypotheses if h not in G.hypotheses),
                        G.target))
        dens: list = []
        m = ctx.conv(ctx.parse(cert.multiplier, "multiplier"), dens)
        parts = [ctx.conv(G.target.slack(), dens), -m * ctx.conv(G2.target.slack(), dens)]
        for k, app in enumerate(cert.applications):
            a, b, c = self._application(ctx, app, dens, f"application {k}")
            parts.append(-c * (b - a))
        parts += [-p for p in ctx.eq_terms(cert.eq_terms, dens)]
        ctx.require_identity(parts, "slack(G) = m·slack(G') + Σ c·(B − A) + Σ λ·eq(H)")
        ctx.require_nonzero(dens, "rewrite identity")
        need = _multiplier_need(G.target.op, G2.target.op)
        if need == "ge":
            ctx.require_sign(m, False, "multiplier")
        elif need == "gt":
            ctx.require_sign(m, True, "multiplier")
        elif need == "ne" and not ctx.pos.nonzero_conv(m):
            raise KernelError(f"cannot prove the multiplier {ctx.show(m)} nonzero")

    def _application(self, ctx: _CheckContext, app: C.Application, dens: list, w: str) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(A, B, c)`` of one application ``A <= B`` with weight ``c >= 0``: a catalogue lemma
        instance, an inequality hypothesis of the goal, or a fact proved by its own close certificate."""
        c = ctx.conv(ctx.parse(app.coefficient, f"{w} coefficient"), dens)
        ctx.require_sign(c, False, f"{w} coefficient")
        if not isinstance(app, C.LemmaApplication):
            a, b = self._fact_or_hypothesis(ctx, app, dens, w)
            return a, b, c
        found = self.lemmas(app.lemma) if self.lemmas is not None else None
        if found is None:
            raise KernelError(f"{w}: unknown catalogue lemma {app.lemma!r}")
        try:
            lem = found if isinstance(found, Lemma) else Lemma.from_json(found)
        except IRError as exc:  # read_rel/read_expr admit only the lemma's own variables
            raise KernelError(f"{w}: unreadable lemma {app.lemma!r}: {exc}") from None
        self._trust_lemma(lem)
        if set(app.instance) != set(lem.variables):
            raise KernelError(f"{w}: the instance must map exactly the lemma's variables "
                              f"{list(lem.variables)}")
        subs = {v: ctx.parse(app.instance[v], f"{w} instance of {v}") for v in lem.variables}
        side_eqs = dict(app.side_equalities)
        if any(i >= len(lem.side_conditions) or lem.side_conditions[i].op != "=" for i in side_eqs):
            raise KernelError(f"{w}: side_equalities may only name equality side conditions of {lem.name}")
        for i, sc in enumerate(lem.side_conditions):
            sdens: list = []
            s = ctx.conv(sc.slack(), sdens, subs)
            what = f"{w}: side condition {i} ({_rel(sc)}) of {lem.name}"
            if sc.op == "=":
                # slack = Σ λ_j · eq(H_j): zero wherever the goal's equalities hold
                eq_parts = ctx.eq_terms(side_eqs.get(i, ()), sdens, f"{w} side_equalities[{i}]")
                ctx.require_nonzero(sdens, f"{w} side condition {i}")
                ctx.require_identity([s, *(-e for e in eq_parts)], what)
                continue
            ctx.require_nonzero(sdens, f"{w} side condition {i}")
            if sc.op == "!=":
                if not ctx.pos.nonzero_conv(s):
                    raise KernelError(f"{what}: cannot prove it nonzero")
            else:
                ctx.require_sign(s, sc.strict, what + " needs")
        return ctx.conv(lem.lhs, dens, subs), ctx.conv(lem.rhs, dens, subs), c

    def _fact_or_hypothesis(self, ctx: _CheckContext, app: C.HypothesisApplication | C.FactApplication, dens: list,
                            w: str) -> tuple[sp.Expr, sp.Expr]:
        """``A <= B`` from inequality hypothesis ``k`` of the goal, or from a ``fact`` whose close
        certificate (over the goal's context) the kernel checks here."""
        if isinstance(app, C.HypothesisApplication):
            h = ctx.hyp(app.hypothesis, w)
            if h.op not in _INEQ:
                raise KernelError(f"{w}: hypothesis {app.hypothesis} ({_rel(h)}) is not an inequality")
            rel = h
        else:
            try:
                rel = read_rel(app.fact, ctx.goal.variables, f"{w} fact")
            except IRError as exc:
                raise KernelError(f"{w}: {exc}") from None
            if rel.op not in _INEQ:
                raise KernelError(f"{w}: a fact must be an inequality, got {_rel(rel)}")
            _close_in(ctx.goal.with_target(rel), app.proof, f"{w} fact")
        # slack(rel) >= 0 is the fact; as A <= B: A = 0, B = slack
        return sp.Integer(0), ctx.conv(rel.slack(), dens)

    def _trust_lemma(self, lem: Lemma) -> None:
        self.digests[lem.name] = lem.digest
        if lem.trust == "lean":
            self.trusted[lem.name] = f"{lem.name} (rests on Lean: {lem.lean_name or '?'})"
            return
        if lem.trust != "kernel":
            raise KernelError(f"lemma {lem.name} has unknown trust {lem.trust!r}")
        key = lem.digest
        if key not in _LEMMA_VERDICTS:
            try:
                if not isinstance(lem.certificate, dict):
                    raise KernelError("no certificate")
                cert = _typed(C.close_from_json, lem.certificate)
                goal = Goal(tuple(lem.variables), tuple(lem.side_conditions),
                            Relation(lem.lhs, "<=", lem.rhs))
                check_close(goal, cert)
                _LEMMA_VERDICTS[key] = None
            except KernelError as exc:
                _LEMMA_VERDICTS[key] = str(exc)
        err = _LEMMA_VERDICTS[key]
        if err is not None:
            raise KernelError(f"catalogue lemma {lem.name} is not proved: its certificate fails: {err}")
        self.trusted[lem.name] = f"{lem.name} (kernel-checked certificate)"

    # -------- split

    def _split(self, G: Goal, subgoals: list[Goal], cert: C.SignSplit | C.OrderSplit) -> None:
        for i, sg in enumerate(subgoals):
            if sg.variables != G.variables or sg.target != G.target or \
                    sg.hypotheses[:len(G.hypotheses)] != G.hypotheses:
                raise KernelError(f"case {i} must be the goal with extra hypotheses appended")
        n0 = len(G.hypotheses)
        if isinstance(cert, C.SignSplit):
            ctx = _CheckContext(G)
            p = ctx.parse(cert.expr, "expr")
            if len(subgoals) != 2:
                raise KernelError("a sign split has exactly two cases")
            for i, op in enumerate((">=", "<=")):
                extra = subgoals[i].hypotheses[n0:]
                want = Relation(p, op, T.ZERO)
                if len(extra) != 1 or extra[0].op not in (">=", "<=") or not _equivalent(ctx, extra[0], want):
                    raise KernelError(f"case {i} must add exactly the hypothesis "
                                      f"{'p >= 0' if i == 0 else 'p <= 0'} for p = {T.show(p)}")
            return
        names = list(cert.variables)
        if len(names) < 2 or len(set(names)) != len(names) \
                or not set(names) <= set(G.variables):
            raise KernelError("'variables' must list at least two distinct variables of the goal")
        symmetry = cert.symmetry
        orderings = [list(o) for o in cert.orderings] if cert.orderings is not None else None
        if orderings is None:
            if symmetry != "none":
                raise KernelError("a symmetric order split must list its 'orderings'")
            orderings = [_chain_order(sg.hypotheses[n0:], names, i) for i, sg in enumerate(subgoals)]
        if len(orderings) != len(subgoals):
            raise KernelError("'orderings' must have one entry per case")
        for i, (sg, o) in enumerate(zip(subgoals, orderings)):
            if sorted(o) != sorted(names):
                raise KernelError(f"ordering {i} must be a permutation of {names}")
            if tuple(sg.hypotheses[n0:]) != tuple(_chain(o)):
                raise KernelError(f"case {i} must add exactly the chain {' >= '.join(o)}")
        group = _group(names, symmetry)
        if symmetry != "none":
            ctx = _CheckContext(G)
            for g in _generators(names, symmetry):
                _check_invariant(ctx, G, g, symmetry)
        covered = {tuple(g[v] for v in o) for o in orderings for g in group}
        missing = [p for p in itertools.permutations(names) if p not in covered]
        if missing:
            raise KernelError(f"the cases are not exhaustive: ordering {' >= '.join(missing[0])} "
                              f"is not covered ({len(missing)} orderings missing)")

    # -------- introduce

    def _introduce(self, G: Goal, G2: Goal, cert: C.IntroduceCertificate) -> None:
        defs = cert.definitions
        for v in defs:
            if v in G.variables:
                raise KernelError(f"{v!r} is not a new variable name")
        kept, new = G2.variables[:len(G2.variables) - len(defs)], G2.variables[len(G2.variables) - len(defs):]
        if set(new) != set(defs) or len(set(new)) != len(defs) or not _in_order(kept, G.variables):
            raise KernelError("the subgoal's variables must be the goal's (some may be left out) "
                              "followed by the new ones")
        if not _op_implies(G2.target.op, G.target.op):
            raise KernelError(f"a {G2.target.op} subgoal does not give a {G.target.op} goal")
        ctx = _CheckContext(G)
        subs = {v: ctx.parse(e, f"definition of {v}") for v, e in defs.items()}
        facts = _introduce_facts(ctx, subs)
        # At a point x of G's context with v := D(x) the facts hold, so we reason in that context.
        # A goal variable left out of the subgoal occurs nowhere in it (reading it named only the
        # subgoal's variables), so the subgoal for all values of the others is the same statement.
        ext = _CheckContext(Goal(G.variables + tuple(defs), G.hypotheses + tuple(facts), G2.target))
        rep = _radical_replacer(ctx, subs)

        def same(h2: Relation, h: Relation) -> bool:
            """h2 (new variables) says the same as h (old ones) at v := D."""
            return _equivalent(ext, h2, rep(h)) or _equivalent(ctx, h2, h, subs)

        if not _same_slack(ext, G2.target, rep(G.target)):
            dens: list = []
            ctx.require_identity([ctx.conv(G.target.slack(), dens),
                                  -ctx.conv(G2.target.slack(), dens, subs)],
                                 "the subgoal's target with the definitions substituted back = the goal's")
            ctx.require_nonzero(dens, "target")
        proofs = _proofs_by_index(cert.new_hypotheses)
        # a fact may be stated with other new variables in it (``u₁ >= u₂ + 1`` for
        # ``u₁ := exp (log x)``, ``u₂ := log x``): compared with every definition put back
        facts_back = [T.substitute_rel(F, subs) for F in facts]
        for i, h in enumerate(G2.hypotheses):
            if any(_equivalent(ext, h, F) for F in facts) or any(same(h, H) for H in G.hypotheses) \
                    or any(_equivalent(ctx, h, F, subs) for F in facts_back):
                continue
            if i not in proofs:
                raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}) is new and has no proof")
            try:
                _close_in(ext.goal.with_target(h), proofs[i], f"new hypothesis {i}")
            except KernelError:
                # the same certificate read over G's context with the definitions put back
                # structurally (unevaluated: sqrt(x)**2 stays a square of an atom)
                back = T.substitute_rel(h, subs)
                _close_in(G.with_target(back), proofs[i], f"new hypothesis {i}")

    # -------- substitute

    def _substitute(self, G: Goal, G2: Goal, cert: C.SubstituteCertificate) -> None:
        fwd, inv = cert.substitution, cert.inverse
        # a variable left out maps to itself, which needs it on both sides
        fwd = {**{x: x for x in G.variables if x not in fwd}, **fwd}
        inv = {**{y: y for y in G2.variables if y not in inv}, **inv}
        if set(fwd) != set(G.variables):
            raise KernelError("'substitution' maps names that are not variables of the goal")
        if set(inv) != set(G2.variables):
            raise KernelError("'inverse' maps names that are not variables of the subgoal")
        ctx, ctx2 = _CheckContext(G), _CheckContext(G2)
        f = {x: ctx2.parse(e, f"substitution of {x}", G2.variables) for x, e in fwd.items()}
        g = {y: ctx.parse(e, f"inverse of {y}") for y, e in inv.items()}
        eq_terms = cert.eq_terms
        if not set(eq_terms) <= set(G.variables):
            raise KernelError("'eq_terms' must map variables of the goal to lists of equality terms")
        dens: list = []
        for x, fx in f.items():
            extra = ctx.eq_terms(eq_terms.get(x, ()), dens, f"eq_terms of {x}")
            ctx.require_identity([ctx.conv(fx, dens, g), -variable_symbol(x)] + [-p for p in extra],
                                 f"f(g(x)) = x for {x}")
        ctx.require_nonzero(dens, "inverse substitution")
        if not _op_implies(G2.target.op, G.target.op):
            raise KernelError(f"a {G2.target.op} subgoal does not give a {G.target.op} goal")
        dens2: list = []
        ctx2.require_identity([ctx2.conv(G.target.slack(), dens2, f), -ctx2.conv(G2.target.slack(), dens2)],
                              "the goal's target with the substitution applied = the subgoal's")
        ctx2.require_nonzero(dens2, "substituted target")
        proofs = _proofs_by_index(cert.new_hypotheses)
        for i, h in enumerate(G2.hypotheses):
            if any(_equivalent(ctx, h, H, g) for H in G.hypotheses):
                continue
            if i not in proofs:
                raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}), with the inverse "
                                  "substituted, is not among the goal's and has no proof")
            back = T.substitute_rel(h, g)
            _close_in(G.with_target(back), proofs[i], f"new hypothesis {i}")


# ---------------------------------------------------------------- combine


def _combine_parts(G: Goal, subgoals: Sequence[Goal]) -> None:
    """Each part is an inequality about some of ``G``'s variables under some of its hypotheses
    (literally ``G``'s), so it holds at every point where ``G``'s hypotheses hold."""
    if G.target.op not in _INEQ:
        raise KernelError(f"combine proves inequalities only, not {_rel(G.target)}")
    if len(subgoals) < 2:
        raise KernelError(f"a combine step has at least two subgoals, found {len(subgoals)}")
    for i, sg in enumerate(subgoals):
        if not set(sg.variables) <= set(G.variables):
            raise KernelError(f"subgoal {i} has variables that are not the goal's: "
                              f"{sorted(set(sg.variables) - set(G.variables))}")
        if sg.target.op not in _INEQ:
            raise KernelError(f"subgoal {i} ({_rel(sg.target)}) is not an inequality")
        for h in sg.hypotheses:
            if h not in G.hypotheses:
                raise KernelError(f"subgoal {i}: hypothesis {_rel(h)} is not one of the goal's")


def _combine(G: Goal, subgoals: Sequence[Goal], cert: C.CombineCertificate) -> None:
    """slack(G) = Σ_j λ_j · Π_{i ∈ S_j} slack(G_i), λ_j rational >= 0: each part's slack is >= 0
    (> 0 if strict) wherever G's hypotheses hold, hence so is slack(G); a strict G needs a term
    with λ > 0 whose factors are all strict parts (no factor: the positive constant λ)."""
    _combine_parts(G, subgoals)
    ctx = _CheckContext(G)
    dens: list = []
    slacks = [ctx.conv(sg.target.slack(), dens) for sg in subgoals]
    parts = [ctx.conv(G.target.slack(), dens)]
    strict_term = False
    for j, t in enumerate(cert.terms):
        lam = ctx.rational(t.coeff, f"term {j} coeff")
        if lam < 0:
            raise KernelError(f"term {j}: negative weight {lam}")
        prod: sp.Expr = lam
        for i in t.factors:
            if not 0 <= i < len(subgoals):
                raise KernelError(f"term {j}: no subgoal with index {i} (the step has {len(subgoals)})")
            prod *= slacks[i]
        parts.append(-prod)
        if lam > 0 and all(subgoals[i].target.strict for i in t.factors):
            strict_term = True
    if G.target.strict and not strict_term:
        raise KernelError("a strict goal needs a term with positive weight whose factors are all "
                          "strict subgoals")
    ctx.require_identity(parts, "slack(G) = Σ λ·Π slack(G_i)")
    ctx.require_nonzero(dens, "combine identity")


# ---------------------------------------------------------------- square


def _inequalities_in_context(G: Goal, subgoals: Sequence[Goal]) -> None:
    """Every subgoal keeps ``G``'s variables and hypotheses literally and states an inequality."""
    for i, sg in enumerate(subgoals):
        if sg.variables != G.variables or sg.hypotheses != G.hypotheses:
            raise KernelError(f"subgoal {i} must have the goal's variables and hypotheses")
        if sg.target.op not in _INEQ:
            raise KernelError(f"subgoal {i} ({_rel(sg.target)}) is not an inequality")


def _square(G: Goal, subgoals: Sequence[Goal], cert: C.SquareCertificate) -> None:
    """``G``: ``S <= L`` (``L >= S``; strict: ``<``/``>``) from ``G₁``: ``slack = L`` and ``G₂``:
    ``slack = L² − S²`` (strict when ``G`` is), both over ``G``'s variables and hypotheses
    (literally). Where they hold: ``L >= 0`` and ``S² <= L²`` give ``|S| <= L``, hence ``S <= L``
    (``S² < L²`` gives ``|S| < L``). ``L²``, ``S²`` are built as terms (:func:`_squared`), so only
    ring laws and the atomizer's laws relate them to the subgoals' slacks; no fact about roots is
    added (``√x ^ 2`` stays the square of an atom)."""
    del cert  # no fields: the step is determined by its goal and subgoals
    if G.target.op not in _INEQ:
        raise KernelError(f"square proves inequalities only, not {_rel(G.target)}")
    if len(subgoals) != 2:
        raise KernelError(f"a square step has exactly two subgoals, found {len(subgoals)}")
    _inequalities_in_context(G, subgoals)
    sign, squares = subgoals
    if G.target.strict and not squares.target.strict:
        raise KernelError("a strict goal needs a strict subgoal L² > S²")
    big, small = (G.target.lhs, G.target.rhs) if G.target.op in (">=", ">") else (G.target.rhs, G.target.lhs)
    ctx = _CheckContext(G)
    dens: list = []
    want_sign = ctx.conv(big, dens)
    want_squares = ctx.conv(T.sub(_squared(big), _squared(small)), dens)
    ctx.require_identity([ctx.conv(sign.target.slack(), dens), -want_sign], "slack(G₁) = L")
    ctx.require_identity([ctx.conv(squares.target.slack(), dens), -want_squares], "slack(G₂) = L² − S²")
    ctx.require_nonzero(dens, "square")


#: A sum with more summands is squared as it stands (its square is not expanded into a term).
MAX_SQUARED_SUMMANDS = 60


def _squared(t: T.Term) -> T.Term:
    """``t²`` as a term, the square pushed inwards by laws that hold for every real value:
    ``(x·y)² = x²·y²`` (``mul_pow``), ``(Σxᵢ)² = Σxᵢ² + Σ 2xᵢxⱼ`` (``add_sq``, at most
    ``MAX_SQUARED_SUMMANDS`` summands), ``(x^n)² = (x²)^n`` (``pow_right_comm``), ``|f|² = |f²|``
    (``pow_abs``), so that the atomizer's ``|f²| = f²`` applies (``(|a|·|b|)² = a²·b²``). Every
    other term (``√x`` included) is squared as it is: ``√x ^ 2`` stays the square of an atom."""
    if isinstance(t, T.Mul):
        return T.mul(*(_squared(a) for a in t.args))
    if isinstance(t, T.Add) and len(t.args) <= MAX_SQUARED_SUMMANDS:
        cross = [T.mul(T.Num(Fraction(2)), a, b) for a, b in itertools.combinations(t.args, 2)]
        return T.add(*(_squared(a) for a in t.args), *cross)
    if isinstance(t, T.Pow) and t.exp > 0:
        return T.power(_squared(t.base), T.Num(Fraction(t.exp)))
    if isinstance(t, T.Fn) and t.name == "abs":
        return T.Fn("abs", T.power(t.arg, T.Num(Fraction(2))))
    return T.power(t, T.Num(Fraction(2)))


# ---------------------------------------------------------------- monotone


def _monotone(G: Goal, subgoals: Sequence[Goal], cert: C.MonotoneCertificate) -> None:
    """``G``: ``f(a) <= f(b)`` (``f(b) >= f(a)``; strict ``<``/``>``) from ``G₁`` with
    ``slack(G₁) = b − a`` (strict when ``G`` is) and, where Mathlib's lemma needs it, ``G₂`` with
    ``slack(G₂) = a``; both over ``G``'s variables and hypotheses (literally). ``f`` is
    ``Real.sqrt`` (monotone on all of ℝ, ``√`` of a negative being 0: ``Real.sqrt_le_sqrt``;
    strict needs ``0 <= a``: ``Real.sqrt_lt_sqrt``) or ``x ↦ x ^ r`` (``Real.rpow``) for a rational
    ``r > 0`` that is not an integer (``Real.rpow_le_rpow`` needs ``0 <= a``, and so does
    ``Real.rpow_lt_rpow``), ``Real.exp`` (strictly increasing on ℝ: ``Real.exp_le_exp``,
    ``Real.exp_lt_exp``) or ``Real.log`` (strictly increasing on the positives, ``log (-x) = log x``:
    ``Real.log_le_log``/``Real.log_lt_log`` need ``0 < a``, a strict ``G₂``). ``G``'s sides must be ``f(a)``/``f(b)`` as exact identities in
    ℚ(variables, atoms), ``f(a)`` built as a term (never simplified), every denominator proved
    nonzero under ``G``'s hypotheses."""
    if G.target.op not in _INEQ:
        raise KernelError(f"monotone proves inequalities only, not {_rel(G.target)}")
    ctx = _CheckContext(G)
    a = ctx.parse(cert.small, "small")
    b = ctx.parse(cert.big, "big")
    if cert.function == "sqrt":
        fa, fb = T.Sqrt(a), T.Sqrt(b)
        need_sign = G.target.strict
    elif cert.function in ("exp", "log"):
        # Real.exp_le_exp / Real.exp_lt_exp (iff, every real); Real.log_le_log / Real.log_lt_log (0 < a)
        fa, fb = T.Fn(cert.function, a), T.Fn(cert.function, b)
        need_sign = cert.function == "log"
    else:
        r = ctx.parse(cert.exponent, "exponent", [])
        if not isinstance(r, T.Num):
            raise KernelError(f"monotone: the exponent {cert.exponent!r} is not a rational number")
        if r.value <= 0:
            raise KernelError(f"monotone: x ^ {r.value} is not increasing (the exponent must be > 0)")
        if r.value.denominator == 1:
            raise KernelError(f"monotone: the exponent {r.value} is an integer (not Real.rpow here)")
        fa, fb = T.Rpow(a, r), T.Rpow(b, r)
        need_sign = True
    want = 2 if need_sign else 1
    if len(subgoals) != want:
        raise KernelError(f"this monotone step has exactly {want} subgoal(s), found {len(subgoals)}")
    _inequalities_in_context(G, subgoals)
    order = subgoals[0]
    if G.target.strict and not order.target.strict:
        raise KernelError("a strict goal needs a strict subgoal a < b")
    big, small = (G.target.lhs, G.target.rhs) if G.target.op in (">=", ">") else (G.target.rhs, G.target.lhs)
    dens: list = []
    ctx.require_identity([ctx.conv(small, dens), -ctx.conv(fa, dens)], "the small side = f(a)")
    ctx.require_identity([ctx.conv(big, dens), -ctx.conv(fb, dens)], "the big side = f(b)")
    ctx.require_identity([ctx.conv(order.target.slack(), dens), -ctx.conv(T.sub(b, a), dens)],
                         "slack(G₁) = b − a")
    if need_sign:
        if cert.function == "log" and not subgoals[1].target.strict:
            raise KernelError("monotone log needs a strict subgoal 0 < a (Real.log_le_log)")
        ctx.require_identity([ctx.conv(subgoals[1].target.slack(), dens), -ctx.conv(a, dens)], "slack(G₂) = a")
    ctx.require_nonzero(dens, "monotone")


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


def _proofs_by_index(new_hypotheses: Sequence[C.NewHypothesis]) -> dict[int, C.CloseCertificate]:
    return {e.index: e.proof for e in new_hypotheses}


def _close_in(goal: Goal, proof: C.CloseCertificate, what: str) -> None:
    try:
        check_close(goal, proof)
    except KernelError as exc:
        raise KernelError(f"{what} ({_rel(goal.target)}): {exc}") from None


def _new_hypotheses(G: Goal, G2: Goal, new_hypotheses: Sequence[C.NewHypothesis]) -> None:
    proofs = _proofs_by_index(new_hypotheses)
    for i, h in enumerate(G2.hypotheses):
        if h in G.hypotheses:
            continue
        if i not in proofs:
            raise KernelError(f"hypothesis {i} of the subgoal ({_rel(h)}) is new and has no proof")
        _close_in(G.with_target(h), proofs[i], f"new hypothesis {i}")


def _equivalent(ctx: _CheckContext, h: Relation, H: Relation, subs: dict | None = None) -> bool:
    """``h`` (with ``subs`` applied) has the same truth value as ``H`` in ``ctx``'s context."""
    if subs is None and h == H:
        return True
    kind = _KIND[h.op]
    return kind == _KIND[H.op] and _same_slack(ctx, h, H, subs, both_signs=kind in ("eq", "ne"))


def _same_slack(ctx: _CheckContext, h: Relation, H: Relation, subs: dict | None = None, both_signs: bool = False) -> bool:
    """slack(h) (with ``subs`` applied) = slack(H) where ``ctx``'s hypotheses hold (± if asked):
    as field algebra with every denominator proved nonzero, else with inverses as atoms (a
    rearrangement that needs no denominator nonzero)."""
    for view in (ctx, ctx.inverse_view()):
        dens: list = []
        try:
            a = view.conv(h.slack(), dens, subs)
            b = view.conv(H.slack(), dens)
            if any(residual([a, -s * b], view.at.sqrt_consts) == 0 for s in ((1, -1) if both_signs else (1,))):
                view.require_nonzero(dens, "hypothesis")
                return True
        except KernelError:
            continue
    return False


def _chain(order: Sequence[str]) -> list[Relation]:
    return [Relation(T.Var(order[i]), ">=", T.Var(order[i + 1])) for i in range(len(order) - 1)]


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


def _check_invariant(ctx: _CheckContext, G: Goal, g: dict[str, str], symmetry: str) -> None:
    ren = {a: T.Var(b) for a, b in g.items()}

    def rn(r: Relation) -> Relation:
        return T.substitute_rel(r, ren)

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


def _radical_replacer(ctx: _CheckContext, subs: dict[str, T.Term]) -> Callable[[Relation], Relation]:
    """Rewrite old-variable relations in terms of the new variables: every definition ``D`` by
    its variable, and, for ``v = X ** (1/q)`` with ``X >= 0`` proved, ``X ** (k/q)`` by ``v ** k``
    (Mathlib: ``x ^ (k/q) = (x ^ (1/q)) ^ k`` for ``x >= 0``)."""
    exact = {D: T.Var(v) for v, D in subs.items()}
    roots: dict[T.Term, tuple[str, int]] = {}
    for v, D in subs.items():
        base_q = _root_of(D)
        if base_q is not None and base_q[1] > 1 and ctx.pos.prove(base_q[0], False):
            roots.setdefault(base_q[0], (v, base_q[1]))

    def swap(e: T.Term) -> T.Term | None:
        if e in exact:
            return exact[e]
        r = _rational_power(e)
        if r is not None and r[0] in roots and r[1].denominator != 1:
            v, q = roots[r[0]]
            kq = r[1].numerator * q
            if kq % r[1].denominator == 0:
                k = kq // r[1].denominator
                return T.Var(v) if k == 1 else T.Pow(T.Var(v), k)
        return None

    def rep(r: Relation) -> Relation:
        return Relation(_replace_top_down(r.lhs, swap), r.op, _replace_top_down(r.rhs, swap))

    return rep


def _rational_power(e: T.Term) -> tuple[T.Term, Fraction] | None:
    """``(X, r)`` for ``e = X ** r`` with a rational non-integer ``r`` (``√X``: ``r = 1/2``)."""
    if isinstance(e, T.Sqrt):
        return e.arg, Fraction(1, 2)
    if isinstance(e, T.Rpow) and isinstance(e.exp, T.Num):
        return e.base, e.exp.value
    return None


def _root_of(D: T.Term) -> tuple[T.Term, int] | None:
    """``(X, q)`` for ``D = X ** (1/q)``."""
    r = _rational_power(D)
    if r is not None and r[1].numerator == 1:
        return r[0], r[1].denominator
    return None


def _replace_top_down(e: T.Term, f: Callable[[T.Term], T.Term | None]) -> T.Term:
    """Replace subterms top-down (a replaced subterm is not visited again); structural."""
    r = f(e)
    if r is not None:
        return r
    if isinstance(e, T.Add):
        return T.Add(tuple(_replace_top_down(a, f) for a in e.args))
    if isinstance(e, T.Mul):
        return T.Mul(tuple(_replace_top_down(a, f) for a in e.args))
    if isinstance(e, T.Pow):
        return T.Pow(_replace_top_down(e.base, f), e.exp)
    if isinstance(e, T.Rpow):
        return T.Rpow(_replace_top_down(e.base, f), _replace_top_down(e.exp, f))
    if isinstance(e, T.Sqrt):
        return T.Sqrt(_replace_top_down(e.arg, f))
    if isinstance(e, T.Fn):
        return T.Fn(e.name, _replace_top_down(e.arg, f))
    return e


def _in_order(part: Sequence[str], whole: Sequence[str]) -> bool:
    """``part`` is ``whole`` with some names left out, the rest in their order."""
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def _introduce_facts(ctx: _CheckContext, subs: dict[str, T.Term]) -> list[Relation]:
    """Every definition's :func:`_definition_facts`, then every :func:`_square_root_facts` (the
    order new-hypothesis certificates cite them by index)."""
    facts: list[Relation] = []
    for v, D in subs.items():
        facts += _definition_facts(ctx, v, D)
    for v, D in subs.items():
        facts += _square_root_facts(ctx, v, D)
    return facts


def _square_root_facts(ctx: _CheckContext, v: str, D: T.Term) -> list[Relation]:
    """``v = Y`` for ``v := √(Y ^ 2)`` where ``Y >= 0`` is proved (Mathlib ``Real.sqrt_sq``), and
    ``v = -Y`` where ``Y <= 0`` is (``Real.sqrt_sq_eq_abs``, ``abs_of_nonpos``). They come after
    every definition's :func:`_definition_facts`, so those keep their indices."""
    if not (isinstance(D, T.Sqrt) and isinstance(D.arg, T.Pow) and D.arg.exp == 2):
        return []
    Y = D.arg.base
    if ctx.pos.prove(Y, False):
        return [Relation(T.Var(v), "=", Y)]
    if ctx.pos.prove(T.neg(Y), False):
        return [Relation(T.Var(v), "=", T.neg(Y))]
    return []


def _definition_facts(ctx: _CheckContext, v: str, D: T.Term) -> list[Relation]:
    """Facts about a new variable ``v := D`` that hold in Lean, each after its side condition:
    ``v = D``; ``√X >= 0`` (and :func:`_square_root_facts`); for ``X ^ (p/q)``: ``v > 0`` and
    ``v ^ q = X ^ p`` if ``X > 0``,
    ``v >= 0`` and ``v ^ q = X ^ p`` if ``X >= 0`` and ``p/q > 0``; ``exp X > 0`` and
    ``exp X >= X + 1`` (and ``exp (log X) = X`` if ``X > 0``); :func:`_log_facts`; ``3.141592 < π <
    3.141593`` (:data:`PI_BOUNDS`). The facts are
    built as terms, never simplified (``v ^ 3 = (y ^ (3/2)) ^ 2`` stays that)."""
    V = T.Var(v)
    facts = [Relation(V, "=", D)]
    r = _rational_power(D)
    if r is not None and r[1].denominator != 1:
        X, q_r = r
        p, q = q_r.numerator, q_r.denominator
        power = X if p == 1 else T.Pow(X, p)
        if q_r == Fraction(1, 2):
            facts.append(Relation(V, ">=", T.ZERO))
        if ctx.pos.prove(X, True):
            facts += [Relation(V, ">", T.ZERO), Relation(V, ">=", T.ZERO), Relation(T.Pow(V, q), "=", power)]
        elif q_r > 0 and ctx.pos.prove(X, False):
            facts += [Relation(V, ">=", T.ZERO), Relation(T.Pow(V, q), "=", power)]
    elif isinstance(D, T.Fn) and D.name == "exp":
        # Real.exp_pos, Real.add_one_le_exp; Real.exp_log (0 < X)
        facts += [Relation(V, ">", T.ZERO), Relation(V, ">=", T.add(D.arg, T.Num(Fraction(1))))]
        if isinstance(D.arg, T.Fn) and D.arg.name == "log" and ctx.pos.prove(D.arg.arg, True):
            facts.append(Relation(V, "=", D.arg.arg))
    elif isinstance(D, T.Fn) and D.name == "log":
        facts += _log_facts(ctx, V, D.arg)
    elif D == T.Const("pi"):
        # Real.pi_gt_d6, Real.pi_lt_d6 (Mathlib/Data/Real/Pi/Bounds.lean)
        facts += [Relation(V, ">", T.Num(PI_BOUNDS[0])), Relation(V, "<", T.Num(PI_BOUNDS[1]))]
    return facts


#: ``3.141592 < π < 3.141593`` (Mathlib's ``Real.pi_gt_d6``/``Real.pi_lt_d6``)
PI_BOUNDS = (Fraction(3141592, 10**6), Fraction(3141593, 10**6))


def _log_facts(ctx: _CheckContext, V: T.Term, X: T.Term) -> list[Relation]:
    """Facts of ``V := log X``: for ``0 < X``, ``V <= X - 1`` (``Real.log_le_sub_one_of_pos``),
    ``V >= 1 - X⁻¹`` (``Real.one_sub_inv_le_log_of_pos``) and ``X·V >= X - 1`` (that one times
    ``X > 0``); for a product ``X = Π fᵢ`` of factors
    each proved positive, ``V = Σ log fᵢ`` (``Real.log_mul``, which needs them nonzero); ``V > 0``
    where ``X − 1 > 0`` is proved (``Real.log_pos``), ``V < 0`` where ``1 − X > 0`` is
    (``Real.log_neg``); for ``X = exp Y``, ``V = Y`` (``Real.log_exp``) alone."""
    if isinstance(X, T.Fn) and X.name == "exp":
        return [Relation(V, "=", X.arg)]   # Real.log_exp
    one = T.Num(Fraction(1))
    above_one = ctx.pos.prove(T.sub(X, one), True)
    if not (above_one or ctx.pos.prove(X, True)):     # X − 1 > 0 gives X > 0
        return []
    facts = [Relation(V, "<=", T.sub(X, T.Num(Fraction(1)))),
             Relation(V, ">=", T.sub(T.Num(Fraction(1)), T.inv(X))),
             # the same times X > 0, without the fraction (mul_le_mul_of_nonneg_left, mul_inv_cancel₀)
             Relation(T.mul(X, V), ">=", T.sub(X, T.Num(Fraction(1))))]
    if isinstance(X, T.Mul) and all(ctx.pos.prove(f, True) for f in X.args):
        facts.append(Relation(V, "=", T.add(*(T.Fn("log", f) for f in X.args))))
    if above_one:
        facts.append(Relation(V, ">", T.ZERO))      # Real.log_pos (1 < X)
    elif ctx.pos.prove(T.sub(one, X), True):
        facts.append(Relation(V, "<", T.ZERO))      # Real.log_neg (0 < X, X < 1)
    return facts


# ---------------------------------------------------------------- public API


def introduce_facts(goal: Any, definitions: dict[str, str]) -> list[Relation]:
    """The facts an ``introduce`` step may use about its new variables, in the kernel's order.

    A ``new_hypotheses`` proof of an ``introduce`` step is checked over the goal's hypotheses
    followed by these facts (so its hypothesis indices count them after the goal's)."""
    g = goal if isinstance(goal, Goal) else Goal.from_json(goal)
    ctx = _CheckContext(g)
    return _introduce_facts(ctx, {v: ctx.parse(e, f"definition of {v}") for v, e in definitions.items()})


def equivalent_relations(context: Sequence[Relation], a: Relation, b: Relation) -> bool:
    """``a`` and ``b`` have the same truth value wherever ``context`` holds: the same kind of
    relation and equal slacks (``=``/``≠``: up to sign) as rational functions over atoms, every
    denominator proved nonzero from ``context``."""
    variables = sorted(set().union(*(T.variables_of(r.lhs) | T.variables_of(r.rhs)
                                     for r in (*context, a, b))))
    ctx = _CheckContext(Goal(tuple(variables), tuple(context), a))
    try:
        return _equivalent(ctx, a, b)
    except KernelError:
        return False


def is_identity(expr: T.Term, context: Sequence[Relation] = ()) -> bool:
    """``expr`` is 0 wherever Lean evaluates it and ``context`` holds: 0 as a rational function
    over atoms, every denominator proved nonzero from ``context``."""
    return equivalent_relations(context, Relation(expr, "=", T.ZERO), Relation(T.ZERO, "=", T.ZERO))


def _digest(k: Kernel) -> str:
    if not k.digests:
        return ""
    return hashlib.sha256("\n".join(f"{n}:{d}" for n, d in sorted(k.digests.items())).encode()).hexdigest()


def _verdict(k: Kernel, errors: list[str], statement_checked: bool = False) -> Verdict:
    return Verdict(not errors, errors, sorted(k.trusted.values()), k.steps, _digest(k), statement_checked)


def check_step(step: Any, lemmas: LemmaLookup | None = None) -> Verdict:
    """Check one step (and the subtree below it); ``step`` is JSON or has ``to_json()``."""
    k = Kernel(lemmas)
    errors: list[str] = []
    k.check_tree(step, "root", errors)
    return _verdict(k, errors)


def check_statement(statement: Statement, root: Goal) -> list[str]:
    """The root goal says what the faithful statement says: same variables, hypotheses and
    target pairwise equivalent under the statement's hypotheses (which hold at every point the
    theorem speaks of), so the proof of the root goal proves the theorem in Lean's semantics."""
    if root.variables != statement.variables:
        return ["root: the proof's variables are not the theorem's"]
    if len(root.hypotheses) != len(statement.hypotheses):
        return ["root: the proof's hypotheses are not the theorem's"]
    ctx = _CheckContext(Goal(statement.variables, statement.hypotheses, statement.goal))
    errors = []
    for i, (h, H) in enumerate(zip(root.hypotheses, statement.hypotheses)):
        if h != H and not _equivalent(ctx, h, H):
            errors.append(f"root: hypothesis {i} ({_rel(h)}) does not say what the theorem's says "
                          f"({_rel(H)}) in Lean's semantics")
    if root.target != statement.goal and not _equivalent(ctx, root.target, statement.goal):
        errors.append(f"root: the proved target ({_rel(root.target)}) does not say what the theorem's "
                      f"goal says ({_rel(statement.goal)}) in Lean's semantics")
    return errors


def check_proof(proof: Any, lemmas: LemmaLookup | None = None, statement: Statement | None = None) -> Verdict:
    """Check a whole proof (JSON, or an object with ``to_json()``): its root goal must be the
    problem's, and say what the faithful ``statement`` says (given by the caller, else the file's
    own ``statement`` field when present), and every step must check."""
    k = Kernel(lemmas)
    data = as_json(proof)
    if isinstance(data, dict) and ("parts" in data or (isinstance(data.get("problem"), dict)
                                                       and "goal_parts" in data["problem"])):
        # a conjunction goal is checked one part at a time (prover.verify.check_against_claim):
        # this function checks one root against one goal and must not pass the first part alone
        return Verdict(False, ["a proof of a conjunction goal is checked part by part, not as one proof"])
    try:
        problem_goal, own_statement, root = parse_proof(data)
    except IRError as exc:
        return Verdict(False, [f"unreadable proof: {exc}"])
    except RecursionError:
        return Verdict(False, ["unreadable proof: nested too deeply"])
    errors: list[str] = []
    if root.goal != problem_goal:
        errors.append("root: the root step's goal is not the problem's statement")
    statement = statement or own_statement
    if statement is not None:
        try:
            errors += check_statement(statement, root.goal)
        except KernelError as exc:
            errors.append(f"root: {exc}")
    k.check_tree(root, "root", errors)
    return _verdict(k, errors, statement is not None)
