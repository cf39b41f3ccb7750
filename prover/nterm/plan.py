"""Summed facts the search may add to a statement over n terms, and the methods that propose them.

A :class:`FactPlan` is one termwise relation ``Σₖ cₖ·bodyₖ + c₀ ⋈ 0`` at a generic index (bodies
over the families and scalars, coefficients free of the families), to be proved as an ordinary
scalar statement under the per-index hypotheses and summed by the kernel (:mod:`prover.kernel.sums`)
into ``Σₖ cₖ·Sₖ + c₀·n ⋈ 0``. Parameters ``t`` are universally quantified in the termwise proof and
instantiated afterwards by terms over the atoms (``t := S₁ / n``).

Methods (each reads the structure of the atoms' bodies, never a statement's text):

* :func:`positivity_plans` — each body's sign (``Σ aᵢ > 0`` when every ``aᵢ > 0`` and ``n ≥ 1``);
* :func:`linear_split_plans` — a body that is a sum ``Σ c·m`` split into sums of its terms (an
  identity: no proof), so that every sum is a combination of sums of monomials;
* :func:`termwise_goal_plans` — a goal linear in the sums with constant coefficients, proved term
  by term;
* :func:`tangent_plans` — the tangent-line trick: under ``Σ x = K`` each ``Σ f(x)`` in the goal is
  bounded by ``f(m) + f'(m)(x − m)`` summed, ``m = K / n`` (a constant, or a parameter);
* :func:`quadratic_plans` — Cauchy–Schwarz/Titu/QM by a parameter: ``u²/v − 2t·u + t²·v ≥ 0``
  (``(u − t·v)²/v``) summed with ``t = Σu / Σv``, for each body ``c·u²/v`` (``v = 1``: ``u²``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import sympy as sp

from prover.problem import var


@dataclass
class FactPlan:
    """One termwise fact (see the module docstring). ``terms`` pairs each atom's name with its
    coefficient (a body not yet an atom gets one: :meth:`Atoms.name_of`)."""

    kind: str
    terms: list[tuple[str, sp.Expr]]
    constant: sp.Expr = sp.S.Zero
    op: str = ">="
    params: tuple[str, ...] = ()
    param_hypotheses: tuple[tuple[sp.Expr, str], ...] = ()    # (expr over params, op) meaning expr op 0
    instantiation: dict[str, sp.Expr] = field(default_factory=dict)
    identity: bool = False                                    # P ≡ 0: no termwise proof
    #: a catalogue fact: ``("cauchy_schwarz", u, v)``, ``terms`` the atoms of ``u·v``, ``u²``,
    #: ``v²``; ``("sq_le_mul", r, f, g)``, ``terms`` the atoms of ``r``, ``f``, ``g``: either way
    #: ``Σ(2nd)·Σ(3rd) − (Σ 1st)² ≥ 0``
    lemma: tuple | None = None

    def lhs(self, bodies: dict[str, sp.Expr]) -> sp.Expr:
        """The termwise expression ``Σ cₖ·bodyₖ + c₀`` (unsimplified order kept by the caller)."""
        return sp.Add(*(c * bodies[a] for a, c in self.terms), self.constant)

    def summed(self, n: sp.Symbol) -> sp.Expr:
        """``Σ cₖ[T]·Sₖ + c₀[T]·n``: the atom-level left side (``⋈ 0``)."""
        if self.lemma is not None:
            uv, uu, vv = (var(a) for a, _ in self.terms)
            return uu * vv - uv ** 2
        inst = {var(p): e for p, e in self.instantiation.items()}
        return sp.Add(*(c.subs(inst) * var(a) for a, c in self.terms), self.constant.subs(inst) * n)


@dataclass
class Atoms:
    """The atoms known so far: name → body (sympy, over the families and scalars)."""

    bodies: dict[str, sp.Expr]
    families: tuple[str, ...]
    prefix: str

    def name_of(self, body: sp.Expr) -> str:
        """The atom whose body is ``body`` (a new one if none is)."""
        for name, b in self.bodies.items():
            if sp.simplify(b - body) == 0 if _small(b, body) else b == body:
                return name
        name = f"{self.prefix}_{len(self.bodies) + 1}"
        self.bodies[name] = body
        return name

    def depends(self, e: sp.Expr) -> bool:
        return any(s.name in self.families for s in e.free_symbols)


def _small(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.count_ops(a) + sp.count_ops(b) < 40


def positivity_plans(atoms: Atoms) -> Iterator[FactPlan]:
    for name in list(atoms.bodies):
        yield FactPlan("positivity", [(name, sp.Integer(1))], op=">")
        yield FactPlan("positivity", [(name, sp.Integer(1))], op=">=")


def split_terms(body: sp.Expr, atoms: Atoms) -> tuple[list[tuple[sp.Expr, sp.Expr]], sp.Expr]:
    """``body`` as ``Σ cⱼ·mⱼ + c₀`` with ``mⱼ`` depending on the families and ``cⱼ`` not."""
    parts: list[tuple[sp.Expr, sp.Expr]] = []
    constant = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(body)):
        coeff, rest = [], []
        for f in sp.Mul.make_args(term):
            (rest if atoms.depends(f) else coeff).append(f)
        if not rest:
            constant += term
        else:
            parts.append((sp.Mul(*coeff), sp.Mul(*rest)))
    return parts, constant


def linear_split_plans(atoms: Atoms, done: set[str] | None = None) -> Iterator[FactPlan]:
    """``S = Σ cⱼ·Mⱼ + c₀·n`` for each atom whose body has more than one term (an identity);
    atoms in ``done`` are skipped, and every atom looked at is added to it."""
    done = set() if done is None else done
    for name, body in list(atoms.bodies.items()):
        if name in done:
            continue
        done.add(name)
        parts, constant = split_terms(body, atoms)
        if len(parts) + (constant != 0) <= 1 and (not parts or parts[0][0] == 1):
            continue
        plan = FactPlan("linear", [(name, sp.Integer(1))], -constant, op="=", identity=True)
        for c, m in parts:
            plan.terms.append((atoms.name_of(m), -c))
        yield plan


def goal_slack(goal_lhs: sp.Expr, goal_rhs: sp.Expr, op: str) -> tuple[sp.Expr, str]:
    """The goal as ``slack ⋈ 0`` with ``⋈`` one of ``>=``, ``>``."""
    if op in (">=", ">"):
        return goal_lhs - goal_rhs, op
    if op in ("<=", "<"):
        return goal_rhs - goal_lhs, {"<=": ">=", "<": ">"}[op]
    return goal_lhs - goal_rhs, op


def linear_in_atoms(expr: sp.Expr, atom_names: list[str], n: sp.Symbol) -> dict[str, sp.Expr] | None:
    """``expr = Σ cₖ·Sₖ + c·n + r`` with constant ``cₖ``, ``c`` (None otherwise); key "" is ``r``."""
    syms = [var(a) for a in atom_names] + [n]
    try:
        poly = sp.Poly(sp.expand(expr), *syms)
    except sp.PolynomialError:
        return None
    if poly.total_degree() > 1:
        return None
    out: dict[str, sp.Expr] = {}
    for monom, coeff in poly.terms():
        if sum(monom) == 0:
            out[""] = coeff
            continue
        k = monom.index(1)
        out[atom_names[k] if k < len(atom_names) else "n"] = coeff
    return out


def termwise_goal_plans(slack: sp.Expr, op: str, atoms: Atoms, n: sp.Symbol) -> Iterator[FactPlan]:
    """A goal ``Σ cₖ·Sₖ + c·n ⋈ 0`` (no other term): ``Σ cₖ·bodyₖ + c ⋈ 0`` at each index."""
    lin = linear_in_atoms(slack, list(atoms.bodies), n)
    if lin is None or lin.get("", 0) != 0 or op not in (">=", ">"):
        return
    terms = [(a, c) for a, c in lin.items() if a not in ("", "n")]
    if terms:
        yield FactPlan("termwise", terms, lin.get("n", sp.Integer(0)), op=op)


def equality_means(constraints: list[sp.Expr], atoms: Atoms, n: sp.Symbol) -> Iterator[tuple[str, str, sp.Expr]]:
    """``(family, atom of Σ family, mean K / n)`` for each constraint ``Σ x = K`` (``K`` free of atoms)."""
    names = list(atoms.bodies)
    for c in constraints:
        for name in names:
            body = atoms.bodies[name]
            if not (isinstance(body, sp.Symbol) and body.name in atoms.families):
                continue
            coeff = sp.diff(c, var(name))
            rest = sp.expand(c - coeff * var(name))
            if coeff == 0 or not coeff.is_number or any(var(a) in rest.free_symbols for a in names):
                continue
            yield body.name, name, sp.simplify(-rest / (coeff * n))


def tangent_plans(slack: sp.Expr, constraints: list[sp.Expr], atoms: Atoms, n: sp.Symbol,
                  signs: dict[str, str]) -> Iterator[list[FactPlan]]:
    """For each constraint ``Σ x = K``: a tangent-line fact per goal atom ``Σ f(x)`` (``f`` of ``x``
    alone), bounding ``f`` by its tangent at the mean from the side the goal needs. ``signs`` maps
    a family to ``">"``/``">="`` when the per-index hypotheses say ``x > 0``/``x ≥ 0``."""
    for x, atom_x, mean in list(equality_means(constraints, atoms, n)):
        X = var(x)
        plans = []
        for name, body in list(atoms.bodies.items()):
            if name == atom_x or body.free_symbols != {X} or var(name) not in slack.free_symbols:
                continue
            sign = coefficient_sign(sp.diff(slack, var(name)), n)
            if sign == 0:
                continue
            plan = _tangent(name, body, X, atom_x, mean, n, signs.get(x), upper=sign < 0)
            if plan is not None:
                plans.append(plan)
        if plans:
            yield plans


def coefficient_sign(d: sp.Expr, n: sp.Symbol) -> int:
    """The sign of a goal's coefficient of an atom when it is known: a number, or a polynomial in
    ``n ≥ 0`` whose coefficients all have one sign; 0 when unknown."""
    if d.is_number:
        return int(sp.sign(d))
    if d.free_symbols != {n}:
        return 0
    try:
        coeffs = sp.Poly(d, n).coeffs()
    except sp.PolynomialError:
        return 0
    signs = {int(sp.sign(c)) for c in coeffs if c != 0}
    return signs.pop() if len(signs) == 1 else 0


def _tangent(name: str, body: sp.Expr, X: sp.Symbol, atom_x: str, mean: sp.Expr, n: sp.Symbol,
             sign: str | None, upper: bool) -> FactPlan | None:
    constant_mean = not mean.free_symbols
    m = mean if constant_mean else var("t_1")
    slope = sp.diff(body, X).subs(X, m)
    value = body.subs(X, m)
    if slope.has(sp.zoo, sp.nan) or value.has(sp.zoo, sp.nan):
        return None
    s = -1 if upper else 1
    plan = FactPlan("tangent", [(name, sp.Integer(s)), (atom_x, -s * slope)], s * (slope * m - value))
    if not constant_mean:
        plan.params = ("t_1",)
        plan.instantiation = {"t_1": mean}
        if sign is not None:
            plan.param_hypotheses = ((var("t_1"), sign),)
    return plan


def _square_root(e: sp.Expr) -> sp.Expr | None:
    """``r`` with ``r² = e`` as rational functions (``e`` a product of even powers), else None."""
    num, den = sp.fraction(sp.factor(e))
    root = sp.Integer(1)
    for part, sign in ((num, 1), (den, -1)):
        coeff, factors = sp.factor_list(part) if part.free_symbols else (part, [])
        c = sp.sqrt(coeff)
        if not c.is_Rational:
            return None
        root *= c ** sign
        for f, k in factors:
            if k % 2:
                return None
            root *= f ** (sign * (k // 2))
    return root


def quadratic_plans(atoms: Atoms, n: sp.Symbol) -> Iterator[FactPlan]:
    """Cauchy–Schwarz by a parameter: for bodies ``A``, ``C`` (``C`` may be the constant 1) with
    ``A·C = B²``, the termwise ``A − 2t·B + t²·C ≥ 0`` (``(A − t·B)²/A`` for ``A > 0``) summed with
    ``t = ΣB / ΣC`` gives ``ΣA ≥ (ΣB)²/ΣC``: QM (``a², a, 1``), Titu (``u²/v, u, v``), AM–HM
    (``1/a, 1, a``), ``Σa³·Σa ≥ (Σa²)²`` (``a³, a², a``). ``B`` may be a new atom."""
    bodies = list(atoms.bodies.items())
    for name, body in bodies:
        for other, c_body in [("", sp.Integer(1))] + bodies:
            if other == name or not atoms.depends(body) or (other and not atoms.depends(c_body)):
                continue
            b_body = _square_root(body * c_body)
            if b_body is None or b_body == 0:
                continue
            t = var("t_1")
            plan = FactPlan("quadratic", [(name, sp.Integer(1))], params=("t_1",))
            sb = _sum_of(b_body, atoms, plan, n, -2 * t)
            sc = _sum_of(c_body, atoms, plan, n, t ** 2)
            if sb == var(name):
                continue
            plan.instantiation = {"t_1": sb / sc}
            yield plan


def jensen_plans(slack: sp.Expr, atoms: Atoms, n: sp.Symbol, signs: dict[str, str]) -> Iterator[FactPlan]:
    """The tangent line at the mean ``t = Σx / n`` for each goal atom ``Σ f(x)`` (``f`` of one
    family ``x``, not linear): ``f(x) ≥ f(t) + f'(t)(x − t)`` summed gives ``Σ f(x) ≥ n·f(Σx/n)``
    (power means, Jensen); ``≤`` where the goal needs an upper bound."""
    for name, body in list(atoms.bodies.items()):
        syms = [s for s in body.free_symbols if s.name in atoms.families]
        if len(syms) != 1 or body.free_symbols != set(syms) or var(name) not in slack.free_symbols:
            continue
        X = syms[0]
        sign = coefficient_sign(sp.diff(slack, var(name)), n)
        if sign == 0 or sp.diff(body, X, 2) == 0:
            continue
        atom_x = atoms.name_of(X)
        tangent = _tangent(name, body, X, atom_x, var(atom_x) / n + var("t_0"), n, signs.get(X.name), sign < 0)
        if tangent is None:
            continue
        tangent.instantiation = {"t_1": var(atom_x) / n}
        tangent.kind = "jensen"
        yield tangent


def _sum_of(body: sp.Expr, atoms: Atoms, plan: FactPlan, n: sp.Symbol, coeff: sp.Expr) -> sp.Expr:
    """Add ``coeff · Σ body`` to ``plan`` (a constant body: to its constant); return ``Σ body``."""
    if not atoms.depends(body):
        plan.constant += coeff * body
        return body * n
    name = atoms.name_of(body)
    plan.terms.append((name, coeff))
    return var(name)


def _factorizations(body: sp.Expr, atoms: Atoms) -> Iterator[tuple[sp.Expr, sp.Expr]]:
    """``body = u·v`` with both factors depending on the families: a product split at its first
    factor, a power ``x^k`` as ``x^i · x^(k−i)``."""
    factors = list(sp.Mul.make_args(body))
    if len(factors) >= 2 and all(atoms.depends(f) for f in factors):
        yield factors[0], sp.Mul(*factors[1:])
    base, k = body.as_base_exp()
    if len(factors) == 1 and atoms.depends(base) and k.is_Integer and k >= 2:
        for i in range(1, int(k) // 2 + 1):
            yield base ** i, base ** (int(k) - i)


def cauchy_plans(atoms: Atoms) -> Iterator[FactPlan]:
    """Cauchy–Schwarz ``(Σ u·v)² ≤ Σ u² · Σ v²`` for each body ``u·v`` (two factors that both
    depend on the families; ``a³ = a·a²``)."""
    for name, body in list(atoms.bodies.items()):
        for u, v in _factorizations(body, atoms):
            plan = FactPlan("cauchy_schwarz", [(name, sp.Integer(1))], lemma=("cauchy_schwarz", u, v))
            plan.terms += [(atoms.name_of(u ** 2), sp.Integer(1)),
                           (atoms.name_of(v ** 2), sp.Integer(1))]
            yield plan


def chebyshev_plans(slack: sp.Expr, atoms: Atoms, n: sp.Symbol, signs: dict[str, str]) -> Iterator[FactPlan]:
    """Chebyshev at the mean: for a goal atom ``Σ x^k`` (one family ``x``), ``(x^i − t^i)(x^(k−i) −
    t^(k−i)) ≥ 0`` (both factors increasing on the domain) summed with ``t = Σx / n``:
    ``n·Σx³ ≥ Σx · Σx²``."""
    for name, body in list(atoms.bodies.items()):
        base, k = body.as_base_exp()
        if not (isinstance(base, sp.Symbol) and base.name in atoms.families and k.is_Integer and k >= 2) \
                or var(name) not in slack.free_symbols:
            continue
        t = var("t_1")
        for i in range(1, int(k) // 2 + 1):
            j = int(k) - i
            plan = FactPlan("chebyshev", [(name, sp.Integer(1))], t ** int(k), params=("t_1",))
            for e, c in ((i, -t ** j), (j, -t ** i)):
                plan.terms.append((atoms.name_of(base ** e), c))
            plan.instantiation = {"t_1": var(atoms.name_of(base)) / n}
            if signs.get(base.name):
                plan.param_hypotheses = ((t, signs[base.name]),)
            yield plan


def sq_le_mul_plans(atoms: Atoms) -> Iterator[FactPlan]:
    """Cauchy–Schwarz as ``(Σr)² ≤ Σf · Σg`` for bodies ``f``, ``g`` (both ≥ 0 at every index, to
    be proved) with ``f·g = r²`` (Mathlib's ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul``): Titu
    (``a²/b``, ``b``, ``r = a``), AM–HM (``1/a``, ``a``), weighted forms; no division by a sum."""
    bodies = [(a, b) for a, b in atoms.bodies.items() if atoms.depends(b)]
    pairs = [(f, g) for i, f in enumerate(bodies) for g in bodies[i + 1:]]
    for f_name, f in list(bodies):      # Titu: u²/v with the sum of its denominator v (a new atom)
        den = sp.fraction(sp.factor(f))[1]
        if atoms.depends(den) and all(sp.simplify(den - b) != 0 for _, b in bodies):
            pairs.append(((f_name, f), (atoms.name_of(den), den)))
    for (f_name, f), (g_name, g) in pairs:
        r = _square_root(sp.cancel(f * g))
        if r is None or r == 0 or not atoms.depends(r) or sp.simplify(r - f) == 0 or sp.simplify(r - g) == 0:
            continue
        plan = FactPlan("sq_le_mul", [], lemma=("sq_le_mul", r, f, g))
        plan.terms = [(atoms.name_of(r), sp.Integer(1)), (f_name, sp.Integer(1)), (g_name, sp.Integer(1))]
        yield plan
