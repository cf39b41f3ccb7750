"""Eliminate a variable that a hypothesis defines as a monomial of the others (``substitute``).

Such definitions appear after the rewrites that name things: :class:`IntroduceRoots` adds
``t³ = x`` for ``t = x^(1/3)``, :class:`~prover.rewrite.abs_values.AbsAsVariable` adds ``t = x``
for ``t = √(x²) = |x|``. Keeping both names leaves the closers a goal in more variables with
equations to use (``x² = t⁶`` needs a degree-6 multiplier); eliminating one gives the goal in one
set of variables: ``x ↦ t³`` makes ``t⁴s² <= 2x²/3 + y²/3`` the polynomial ``t⁴s² <= 2t⁶/3 + s⁶/3``.

For an equality hypothesis ``H_j`` with ``eq(H_j) = c·(v − e)`` (``c`` a nonzero rational, ``e`` a
monomial of the other variables): ``substitution`` ``v ↦ e``, the inverse the identity on the
variables kept (written out), no new variables; the kernel's ``f(g(v)) = v`` holds modulo ``H_j``
(``e − v = −eq(H_j)/c``, the ``eq_terms``). Each other hypothesis ``H`` becomes ``H[v ↦ e]``, proved
from ``H`` and ``H_j`` (``slack(H[v↦e]) = slack(H) + λ·eq(H_j)``, ``λ`` an exact division); ``H_j``
itself becomes ``0 = 0`` and is dropped. All independent definitions go in one step (no
eliminated variable inside another's definition). Under a root only renamings (``e`` a variable)
are done: sympy writes ``(t³)^(4/3)`` in forms the kernel may read otherwise. Only monomial
definitions: a linear constraint ``a + b + c = 1`` is not one (eliminating ``c`` would break the
goal's symmetry), nor is ``abc = 1`` (``c = 1/(ab)`` is not a monomial).

Nothing here is trusted: the kernel checks the step.
"""

from __future__ import annotations

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import EqTerm, NewHypothesis, SosCertificate, SosTerm, SubstituteCertificate
from prover.problem import Relation, var
from prover.rewrite.base import SingleStepRewrite, is_rational_function, symbols_of


def _monomial(e: sp.Expr, others: set[sp.Symbol]) -> bool:
    """``e`` is ``c·Π wᵢ^kᵢ`` with a nonzero rational ``c``, variables ``wᵢ`` of ``others`` and ``kᵢ >= 0``."""
    e = sp.expand(e)
    if e == 0 or e.is_Add:
        return False
    c, rest = e.as_coeff_Mul()
    if not c.is_Rational:
        return False
    for f in sp.Mul.make_args(rest):
        base, k = f.as_base_exp()
        if rest != 1 and (base not in others or not (k.is_Integer and k > 0)):
            return False
    return True


def definitions(goal: Goal) -> list[tuple[int, sp.Symbol, sp.Expr, sp.Rational]]:
    """``(j, v, e, c)``: hypothesis ``j`` says ``v = e`` with ``eq(H_j) = c·(v − e)``, ``e`` a
    monomial of the other variables; later variables first (they are usually the named ones)."""
    syms = symbols_of(goal)
    out = []
    for j, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        eq = sp.expand(h.lhs - h.rhs)
        for v in reversed(syms):
            if v not in eq.free_symbols:
                continue
            try:
                p = sp.Poly(eq, v)
            except sp.PolynomialError:
                continue
            c = p.coeff_monomial(v)
            if p.degree() != 1 or not sp.sympify(c).is_Rational or c == 0:
                continue
            e = sp.expand(-(eq - c * v) / c)
            if _monomial(e, set(syms) - {v}):
                out.append((j, v, e, sp.Rational(c)))
    return out


Definition = tuple[int, sp.Symbol, sp.Expr, sp.Rational]


def independent(defs: list[Definition]) -> list[Definition]:
    """A set of definitions to apply at once: each hypothesis and variable used once, and no
    eliminated variable in another's definition (so each substitution is one division)."""
    chosen: list[Definition] = []
    for d in defs:
        j, v, e, _ = d
        if any(j == j2 or v == v2 or v in e2.free_symbols or v2 in e.free_symbols for j2, v2, e2, _ in chosen):
            continue
        chosen.append(d)
    return chosen


def _slack(r: Relation) -> sp.Expr:
    return r.lhs - r.rhs if r.op in ("=", "!=") else r.slack()


def _transfer(h: Relation, k: int, defs: list[Definition]) -> tuple[Relation, SosCertificate] | None:
    """``H_k`` with every ``v ↦ e`` applied, and its proof from ``H_k`` and the definitions:
    ``slack(new) = slack(H_k) + Σ λ_i·eq(H_(j_i))``, each ``λ_i`` an exact polynomial division."""
    if h.op == "!=":
        return None
    cur = h
    eq_terms: list[EqTerm] = []
    for j, v, e, c in defs:
        nxt = Relation(sp.sympify(cur.lhs).subs(v, e), cur.op, sp.sympify(cur.rhs).subs(v, e))
        lam = sp.cancel((_slack(nxt) - _slack(cur)) / (c * (v - e)))
        if not is_rational_function(lam, lam.free_symbols) or sp.denom(sp.together(lam)).free_symbols:
            return None   # the difference is not a polynomial multiple of the definition
        if lam != 0:
            eq_terms.append(EqTerm(j, expr_to_str(lam)))
        cur = nxt
    if h.op == "=":
        return cur, SosCertificate(eq_terms=(EqTerm(k, "1"), *eq_terms))
    return cur, SosCertificate((SosTerm("1", "1", (k,)),), tuple(eq_terms))


class EliminateVariables(SingleStepRewrite):
    """``v = c·Π wᵢ^kᵢ`` among the hypotheses: ``v`` is replaced by its definition everywhere
    (every independent definition at once)."""

    name = "eliminate-variable"

    def accepts(self, goal: Goal) -> bool:
        return len(goal.variables) >= 2 and any(h.op == "=" for h in goal.hypotheses)

    def apply(self, goal: Goal) -> Step | None:
        defs = definitions(goal)
        if not is_rational_function(goal.target.slack(), symbols_of(goal)):
            # under a root only a renaming is safe: sympy rewrites (x³)^(1/3) forms the kernel reads otherwise
            defs = [d for d in defs if d[2].is_Symbol]
        defs = independent(defs)
        return _step(goal, defs) if defs else None


def _step(goal: Goal, defs: list[Definition]) -> Step | None:
    used = {j for j, *_ in defs}
    hyps: list[Relation] = []
    proofs: list[NewHypothesis] = []
    for k, h in enumerate(goal.hypotheses):
        if k in used:
            continue
        moved = _transfer(h, k, defs)
        if moved is None:
            return None
        new, proof = moved
        if new in hyps or (new.op == "=" and sp.expand(new.lhs - new.rhs) == 0):
            continue
        if new != h:
            proofs.append(NewHypothesis(len(hyps), proof))
        hyps.append(new)
    t = goal.target
    mapping = {v: e for _, v, e, _ in defs}
    target = Relation(sp.sympify(t.lhs).subs(mapping, simultaneous=True), t.op,
                      sp.sympify(t.rhs).subs(mapping, simultaneous=True))
    names = tuple(n for n in goal.variables if var(n) not in mapping)
    # the inverse is the identity on the variables kept, written out: they are the subgoal's variables
    cert = SubstituteCertificate({v.name: expr_to_str(e) for _, v, e, _ in defs}, {n: n for n in names},
                                 {v.name: (EqTerm(j, expr_to_str(-1 / c)),) for j, v, _, c in defs},
                                 tuple(proofs))
    note = "eliminate " + ", ".join(f"{v} = {e}" for _, v, e, _ in defs)
    return Step("substitute", goal, [Goal(names, tuple(hyps), target)], cert.to_json(), note=note)
