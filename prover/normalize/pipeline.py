"""Goal normalisation: a chain of kernel-checkable one-subgoal steps that ends in a polynomial
goal ``N >= 0`` (or ``> 0``) over possibly more variables.

* ``introduce``: square roots and rational powers become new variables ``t`` with ``t >= 0``
  and ``t**q = base``.
* ``rewrite`` (homogenisation): with an equality hypothesis ``g = c`` (``g`` linear homogeneous,
  ``c != 0``) every variable ``x`` is replaced by ``c·x/g``; the difference of slacks is a
  rational multiple of ``g - c`` and goes into ``eq_terms``.
* ``rewrite`` (clearing): ``slack = (F/D) · N`` with ``F, D`` products of factors that are
  positive under the hypotheses; the subgoal's target is ``N >= 0``.
* ``rewrite`` (polynomial homogenisation): for ``g = c`` with ``g`` homogeneous of degree ``k``,
  the components of ``N`` are lifted by powers of ``g/c``.
The chain's steps are returned unlinked-ready: ``steps[i].subgoals[0] == steps[i+1].goal``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from prover.ir import Goal, Step, expr_to_str
from prover.kernel.certificates import (
    EqTerm,
    IntroduceCertificate,
    LinearCertificate,
    NewHypothesis,
    PositivityCertificate,
    SosCertificate,
    SubstituteCertificate,
)
from prover.problem import Relation, var


@dataclass
class Normalized:
    steps: list[Step] = field(default_factory=list)
    goal: Goal | None = None        # the final polynomial goal (None: could not normalise)

    def attach(self, leaf: Step) -> Step:
        """Link the chain above ``leaf`` and return the root step."""
        node = leaf
        for st in reversed(self.steps):
            st.children = [node]
            node = st
        return node


# ---------------------------------------------------------------- helpers


def _syms(goal: Goal) -> list[sp.Symbol]:
    return [var(v) for v in goal.variables]


def positive_vars(goal: Goal) -> tuple[set[sp.Symbol], set[sp.Symbol]]:
    """Variables with a hypothesis ``x > 0`` (strict) / ``x >= 0`` (nonneg) written literally."""
    strict, nonneg = set(), set()
    for h in goal.hypotheses:
        if not h.is_inequality:
            continue
        s = sp.expand(h.slack())
        if s.is_Symbol:
            (strict if h.strict else nonneg).add(s)
        else:
            # c*x with c > 0, or x - c with c >= 0
            if s.is_Mul and len(s.args) == 2 and s.args[0].is_Rational and s.args[0] > 0 and s.args[1].is_Symbol:
                (strict if h.strict else nonneg).add(s.args[1])
    return strict, nonneg | strict


def obviously_positive(f: sp.Expr, strict_vars: set, nonneg_vars: set, *, strict: bool = True) -> bool:
    """Quick syntactic test: after expansion every coefficient is positive and every monomial is in
    variables known positive (a positive constant term makes nonnegative variables enough)."""
    f = sp.expand(f)
    if f.is_Rational:
        return f > 0 if strict else f >= 0
    try:
        P = sp.Poly(f, *sorted(f.free_symbols, key=str))
    except sp.PolynomialError:
        return False
    gens = P.gens
    if not all(g in nonneg_vars for g in gens):
        return False
    terms = P.terms()
    if any(c <= 0 for _, c in terms):
        return False
    if not strict:
        return True
    if any(sum(m) == 0 for m, _ in terms):
        return True
    # some monomial consisting only of strictly positive variables
    return any(all(e == 0 or g in strict_vars for g, e in zip(gens, m)) for m, _ in terms)


def _kernel_positive(expr: sp.Expr, goal: Goal) -> bool:
    try:
        from prover.verify import prove_positive
    except ImportError:
        return False
    try:
        return bool(prove_positive(expr, list(goal.hypotheses), True))
    except Exception:  # noqa: BLE001 - the kernel may not handle every shape
        return False


def is_positive(expr: sp.Expr, goal: Goal) -> bool:
    sv, nv = positive_vars(goal)
    return obviously_positive(expr, sv, nv) or _kernel_positive(expr, goal)


def _nonneg(expr: sp.Expr, goal: Goal) -> bool:
    sv, nv = positive_vars(goal)
    return obviously_positive(expr, sv, nv, strict=False)


def _target_like(goal: Goal, expr: sp.Expr) -> Relation:
    """``expr >= 0`` with the strictness of ``goal.target``."""
    return Relation(expr, ">" if goal.target.strict else ">=", sp.Integer(0))


# ---------------------------------------------------------------- introduce


def _radicals(e: sp.Expr) -> list[sp.Pow]:
    out = []
    for a in sp.preorder_traversal(e):
        if isinstance(a, sp.Pow) and a.exp.is_Rational and not a.exp.is_Integer:
            out.append(a)
    return out


def introduce_radicals(goal: Goal) -> Step | None:
    """One ``introduce`` step for all ``base**(p/q)`` atoms (q > 1), or None if there are none."""
    exprs = [goal.target.lhs, goal.target.rhs] + [x for h in goal.hypotheses for x in (h.lhs, h.rhs)]
    defs: dict[tuple[sp.Expr, int], str] = {}
    used = set(goal.variables)
    for e in exprs:
        for r in _radicals(sp.sympify(e)):
            key = (r.base, int(r.exp.q))
            if key not in defs:
                i = len(defs)
                name = f"t{i}"
                while name in used:
                    i += 1
                    name = f"t{i}"
                used.add(name)
                defs[key] = name
    if not defs:
        return None
    repl = {}
    new_hyps: list[Relation] = []
    for (base, q), name in defs.items():
        t = var(name)
        new_hyps.append(Relation(t, ">" if is_positive(base, goal) else ">=", sp.Integer(0)))
        new_hyps.append(Relation(t ** q, "=", base))

    def sub(e: sp.Expr) -> sp.Expr:
        e = sp.sympify(e)
        return e.replace(lambda x: isinstance(x, sp.Pow) and x.exp.is_Rational and not x.exp.is_Integer
                         and (x.base, int(x.exp.q)) in defs,
                         lambda x: var(defs[(x.base, int(x.exp.q))]) ** int(x.exp.p))

    hyps = tuple(Relation(sub(h.lhs), h.op, sub(h.rhs)) for h in goal.hypotheses)
    new_vars = goal.variables + tuple(defs.values())
    sub_goal = Goal(new_vars, hyps + tuple(new_hyps), Relation(sub(goal.target.lhs), goal.target.op,
                                                                   sub(goal.target.rhs)))
    n0 = len(hyps)
    cert = IntroduceCertificate(
        {name: expr_to_str(base ** sp.Rational(1, q)) for (base, q), name in defs.items()},
        tuple(NewHypothesis(n0 + i, PositivityCertificate()) for i in range(len(new_hyps))),
    )
    del repl
    return Step("introduce", goal, [sub_goal], cert.to_json(), note="radicals as new variables")


# ---------------------------------------------------------------- homogenisation (rational)


def _polynomial_equalities(goal: Goal):
    """``(index, eq(H) expanded, its Poly)`` for each equality hypothesis polynomial in the variables."""
    syms = _syms(goal)
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        e = sp.expand(h.lhs - h.rhs)
        try:
            yield i, e, sp.Poly(e, *syms)
        except sp.PolynomialError:
            continue


def linear_constraint(goal: Goal) -> tuple[int, sp.Expr, sp.Expr] | None:
    """An equality hypothesis ``g = c`` with ``g`` a linear form, ``c`` a nonzero constant."""
    for i, e, P in _polynomial_equalities(goal):
        if P.total_degree() != 1:
            continue
        const = P.coeff_monomial(1)
        if const == 0:
            continue
        g = sp.expand(e - const)
        return i, g, -const
    return None


def homogenize_rational(goal: Goal) -> Step | None:
    """Rewrite with ``x -> c·x/g``; only when g > 0 on the domain and the other hypotheses are
    scale-invariant (so the homogeneous subgoal is as true as the original)."""
    lc = linear_constraint(goal)
    if lc is None:
        return None
    i, g, c = lc
    gs = g if c > 0 else -g
    if not is_positive(gs, goal):
        return None
    syms = _syms(goal)
    S = goal.target.slack()
    if not S.free_symbols:
        return None
    # λ carries the target's own denominators: they must be positive without the constraint
    if not _denominator_positive(sp.together(S), goal):
        return None
    mapping = {s: c * s / g for s in syms}
    Sh = factor_fraction(S.subs(mapping, simultaneous=True))
    eq = goal.hypotheses[i].lhs - goal.hypotheses[i].rhs
    lam = factor_fraction((S - Sh) / eq)
    if lam.has(sp.zoo, sp.nan) or not _denominator_positive(lam, goal):
        return None
    sub_goal = goal.with_target(_target_like(goal, Sh))
    cert = LinearCertificate("1", (EqTerm(i, expr_to_str(lam)),))
    return Step("rewrite", goal, [sub_goal], cert.to_json(), note=f"homogenize with hypothesis {i}")


def factor_fraction(e: sp.Expr) -> sp.Expr:
    """``e`` as one fraction with factored numerator and denominator, common factors cancelled.

    Same result as ``sp.factor(sp.together(e))`` up to form, but factors the expanded numerator
    and the denominator separately: sympy's ``factor`` on an unexpanded multivariate rational
    function can take minutes (a 4-variable cyclic sum after ``x -> 4x/(a+b+c+d)``)."""
    num, den = sp.fraction(sp.together(e))
    num = sp.expand(num)
    if num == 0:
        return sp.Integer(0)
    cn, fn = sp.factor_list(num) if num.free_symbols else (num, [])
    cd, fd = sp.factor_list(den) if den.free_symbols else (den, [])
    top: dict[sp.Expr, int] = {}
    for f, k in fn:
        top[f] = top.get(f, 0) + k
    bottom: dict[sp.Expr, int] = {}
    for f, k in fd:
        if f in top:
            common = min(top[f], k)
            top[f] -= common
            k -= common
        if k:
            bottom[f] = bottom.get(f, 0) + k
    n = sp.Mul(*[f ** k for f, k in top.items() if k])
    d = sp.Mul(*[f ** k for f, k in bottom.items()])
    return (cn / cd) * n / d


def _denominator_positive(e: sp.Expr, goal: Goal) -> bool:
    den = sp.fraction(factor_fraction(e))[1]
    if den.is_Rational:
        return True
    _, fs = sp.factor_list(den)
    return all(is_positive(f, goal) or is_positive(-f, goal) for f, _ in fs)


def homogenize_substitute(goal: Goal) -> Step | None:
    """``substitute`` x -> c·x/g (inverse: identity), for targets whose denominators are only
    nonzero thanks to the constraint ``g = c`` (e.g. ``3 - c`` with ``a + b + c = 3``). The
    subgoal keeps the hypotheses that are literally about single variables' signs."""
    lc = linear_constraint(goal)
    if lc is None:
        return None
    i, g, c = lc
    if not is_positive(g if c > 0 else -g, goal):
        return None
    syms = _syms(goal)
    mapping = {s: c * s / g for s in syms}
    t = goal.target
    target = Relation(factor_fraction(sp.sympify(t.lhs).subs(mapping, simultaneous=True)), t.op,
                      factor_fraction(sp.sympify(t.rhs).subs(mapping, simultaneous=True)))
    _, nv = positive_vars(goal)
    hyps = tuple(h for h in goal.hypotheses if h.is_inequality and sp.expand(h.slack()) in nv)
    sub_goal = Goal(goal.variables, hyps, target)
    eq = goal.hypotheses[i].lhs - goal.hypotheses[i].rhs
    # f(g(x)) - x = c·x/g - x = x·(c - g)/g = (-x/g)·eq  when eq = g - c (up to the sign of eq)
    eq_terms = {str(s): (EqTerm(i, expr_to_str(sp.cancel((mapping[s] - s) / eq))),) for s in syms}
    cert = SubstituteCertificate({str(s): expr_to_str(e) for s, e in mapping.items()},
                                 {str(s): str(s) for s in syms}, eq_terms)
    return Step("substitute", goal, [sub_goal], cert.to_json(),
                note=f"homogenize by scaling with hypothesis {i}")


def product_constraint_substitute(goal: Goal) -> Step | None:
    """For ``x_1 ⋯ x_n = 1`` with all ``x_i > 0``: ``substitute`` ``x_i = y_i / y_{i+1}``
    (cyclically; inverse ``y_1 = 1``, ``y_{i+1} = 1/(x_1⋯x_i)``, exact modulo the constraint),
    which makes the target homogeneous of degree 0 in the ``y``."""
    syms = _syms(goal)
    n = len(syms)
    sv, _ = positive_vars(goal)
    if n < 2 or any(s not in sv for s in syms):
        return None
    prod = sp.Mul(*syms)
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        eq = sp.expand(h.lhs - h.rhs)
        if sp.expand(eq - (prod - 1)) != 0 and sp.expand(eq + (prod - 1)) != 0:
            continue
        new = [f"y{k}" for k in range(n)]
        while any(v in goal.variables for v in new):
            new = ["y" + v for v in new]
        ys = [var(v) for v in new]
        fwd = {syms[k]: ys[k] / ys[(k + 1) % n] for k in range(n)}
        inv = {new[0]: sp.Integer(1)}
        for k in range(1, n):
            inv[new[k]] = 1 / sp.Mul(*syms[:k])
        eq_terms: dict[str, tuple[EqTerm, ...]] = {}
        for x, fx in fwd.items():
            back = fx.subs({var(k): e for k, e in inv.items()}, simultaneous=True)
            lam = sp.cancel((back - x) / eq)
            if lam != 0:
                eq_terms[str(x)] = (EqTerm(i, expr_to_str(lam)),)
        t = goal.target
        target = Relation(sp.sympify(t.lhs).subs(fwd, simultaneous=True), t.op,
                          sp.sympify(t.rhs).subs(fwd, simultaneous=True))
        hyps = tuple(Relation(y, ">", sp.Integer(0)) for y in ys)
        proofs = tuple(NewHypothesis(k, PositivityCertificate()) for k in range(n))
        sub_goal = Goal(tuple(new), hyps, target)
        cert = SubstituteCertificate({str(x): expr_to_str(e) for x, e in fwd.items()},
                                     {k: expr_to_str(e) for k, e in inv.items()}, eq_terms, proofs)
        return Step("substitute", goal, [sub_goal], cert.to_json(),
                    note=f"x_i = y_i/y_(i+1) from hypothesis {i}")
    return None


# ---------------------------------------------------------------- clearing denominators


def clear_denominators(goal: Goal) -> Step | None:
    """Rewrite ``slack = (F/D)·N`` where F, D are positive; target ``N >= 0``. None if the slack
    is already a polynomial with nothing positive to factor out, or a factor is not positive."""
    syms = _syms(goal)
    S = sp.together(goal.target.slack())
    num, den = sp.fraction(factor_fraction(S))
    if num == 0:
        return None
    kept = sp.Integer(1)
    mult = sp.Integer(1)
    c_num, f_num = sp.factor_list(num, *syms) if num.free_symbols else (num, [])
    c_den, f_den = sp.factor_list(den, *syms) if den.free_symbols else (den, [])
    sign = 1 if (c_num / c_den) > 0 else -1
    mult = abs(c_num / c_den)
    for f, e in f_den:
        if is_positive(f, goal):
            mult = mult / f ** e
        elif is_positive(-f, goal):
            mult = mult / (-f) ** e
            sign *= (-1) ** e
        elif e % 2 == 0 and not goal.target.strict:
            return None       # nonzero-ness unknown: leave it to other tactics
        else:
            return None
    for f, e in f_num:
        if is_positive(f, goal):
            mult = mult * f ** e
        else:
            kept = kept * f ** e
    N = sp.expand(sign * kept)
    if mult == 1 and sp.expand(S - N) == 0:
        return None
    sub_goal = goal.with_target(_target_like(goal, N))
    cert = LinearCertificate(expr_to_str(mult))
    return Step("rewrite", goal, [sub_goal], cert.to_json(), note="clear positive denominators and factors")


# ---------------------------------------------------------------- homogenisation (polynomial)


def homogenize_polynomial(goal: Goal) -> Step | None:
    """For a polynomial target and ``g = c`` with g homogeneous of degree k, lift the homogeneous
    components of the target by powers of ``g/c`` (needs all degrees congruent mod k)."""
    syms = _syms(goal)
    try:
        P = sp.Poly(sp.expand(goal.target.slack()), *syms)
    except sp.PolynomialError:
        return None
    comps: dict[int, sp.Expr] = {}
    for m, co in P.terms():
        comps[sum(m)] = comps.get(sum(m), 0) + co * sp.Mul(*[s ** e for s, e in zip(syms, m)])
    if len(comps) <= 1:
        return None
    for i, e, E in _polynomial_equalities(goal):
        const = E.coeff_monomial(1)
        g = sp.expand(e - const)
        if const == 0 or not g.free_symbols:
            continue
        degs = {sum(m) for m, _ in sp.Poly(g, *syms).terms()}
        if len(degs) != 1:
            continue
        k = degs.pop()
        c = -const
        dmax = max(comps)
        if any((dmax - d) % k for d in comps):
            continue
        if not _nonneg(g if c > 0 else -g, goal):
            continue
        Nh = sp.expand(sum(cp * (g / c) ** ((dmax - d) // k) for d, cp in comps.items()))
        lam = sp.cancel((sp.expand(goal.target.slack()) - Nh) / e)
        if not sp.fraction(lam)[1].is_Rational:
            continue
        sub_goal = goal.with_target(_target_like(goal, Nh))
        cert = LinearCertificate("1", (EqTerm(i, expr_to_str(sp.expand(lam))),))
        return Step("rewrite", goal, [sub_goal], cert.to_json(),
                    note=f"homogenize polynomial with hypothesis {i}")
    return None


# ---------------------------------------------------------------- hypotheses with fractions


def polynomial_hypotheses(goal: Goal) -> Step | None:
    """Add, for each equality hypothesis ``l = r`` whose sides have positive denominators, the
    cleared form ``D·(l - r) = 0`` as a new hypothesis (proved: it is ``D`` times ``eq(H)``)."""
    syms = _syms(goal)
    extra: list[Relation] = []
    proofs: list[NewHypothesis] = []
    for i, h in enumerate(goal.hypotheses):
        if h.op != "=":
            continue
        e = sp.together(h.lhs - h.rhs)
        num, den = sp.fraction(factor_fraction(e))
        if den.is_Rational or not _denominator_positive(1 / den, goal):
            continue
        try:
            sp.Poly(sp.expand(num), *syms)
        except sp.PolynomialError:
            continue
        new = Relation(sp.expand(num), "=", sp.Integer(0))
        if new in goal.hypotheses or new in extra:
            continue
        proofs.append(NewHypothesis(len(goal.hypotheses) + len(extra),
                                    SosCertificate(eq_terms=(EqTerm(i, expr_to_str(den)),))))
        extra.append(new)
    if not extra:
        return None
    sub_goal = goal.with_hypotheses(extra)
    cert = LinearCertificate("1", new_hypotheses=tuple(proofs))
    return Step("rewrite", goal, [sub_goal], cert.to_json(), note="equality hypotheses without denominators")


# ---------------------------------------------------------------- the pipeline


def _only_sign_hypotheses(goal: Goal) -> bool:
    _, nv = positive_vars(goal)
    return all(h.op == "=" or (h.is_inequality and sp.expand(h.slack()) in nv) for h in goal.hypotheses) \
        and sum(h.op == "=" for h in goal.hypotheses) == 1


def is_polynomial_goal(goal: Goal) -> bool:
    try:
        sp.Poly(sp.expand(goal.target.slack()), *_syms(goal))
        return True
    except sp.PolynomialError:
        return False



def _then(out: Normalized, cur: Goal, st: Step | None) -> Goal:
    """Append ``st`` (if any) to the chain and return the goal left to prove."""
    if st is None:
        return cur
    out.steps.append(st)
    return st.subgoals[0]

def normalize(goal: Goal, *, homogenize: bool = True, product_substitution: bool = False) -> Normalized:
    """The chain of steps from ``goal`` to a polynomial goal (``.goal`` None when that fails).
    With ``product_substitution`` the chain starts with :func:`product_constraint_substitute`
    (and gives up when it does not apply)."""
    out = Normalized()
    cur = goal
    if product_substitution:
        st = product_constraint_substitute(cur)
        if st is None:
            return out
        out.steps.append(st)
        cur = st.subgoals[0]
        homogenize = False
    cur = _then(out, cur, introduce_radicals(cur))
    cur = _then(out, cur, polynomial_hypotheses(cur))
    if homogenize and not out.steps:
        # the scaling substitution is cheap (no λ to simplify) but keeps only sign hypotheses
        st = homogenize_substitute(cur) if _only_sign_hypotheses(cur) else None
        if st is None:
            st = homogenize_rational(cur)
        if st is None:
            st = homogenize_substitute(cur)
        cur = _then(out, cur, st)
    cur = _then(out, cur, clear_denominators(cur))
    if not is_polynomial_goal(cur):
        return out
    if homogenize:
        st = homogenize_polynomial(cur)
        if st is not None:
            cur = _then(out, cur, st)
            cur = _then(out, cur, clear_denominators(cur))
    out.goal = cur
    return out
