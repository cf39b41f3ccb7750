"""Sums over n terms: a theorem about families ``a : Fin n → ℝ`` read at the level of its sums.

Why: a statement such as ``∑ i, a i ^ 2 ≥ n`` (under ``∑ i, a i = n``) is not a statement about
finitely many real variables. Its sums are *atoms*: the atom-level statement has one real variable
per distinct sum (``sum_1 = ∑ i, a i``, …) and one for the cast ``(n : ℝ)``; a proof of that
scalar statement, for all values of the atoms, proves the theorem at the actual sums. What ties
the atoms together are **summed facts**, each checked here:

* a termwise relation ``P(x, t) ⋈ 0`` (``⋈`` one of ``≥ > =``) over fresh scalars ``x`` standing
  for the families at one generic index (``a`` for ``a i``), the statement's scalars and
  parameters ``t``, proved by an ordinary kernel proof under the statement's per-index hypotheses
  (which hold at every index of the set) and the parameters' own hypotheses; or, for ``=``, an
  identity ``P ≡ 0`` that needs no proof;
* a decomposition ``P ≡ Σₖ cₖ(t) · bodyₖ(x) + c₀(t)`` checked as an exact identity under the same
  hypotheses, each ``cₖ``, ``c₀`` free of the families (so it does not depend on the index);
* an instantiation of each parameter by a term over the atom-level variables, the parameters'
  hypotheses at those terms proved (side proofs) from what is known so far.

Summing over the index set (``card = n`` for ``Finset.univ : Finset (Fin n)`` and for
``Finset.range n``): ``Σᵢ P(a i, T) = Σₖ cₖ(T) · sumₖ + c₀(T) · n ⋈ 0``. A sum of nonnegative
terms is nonnegative (the empty sum is 0); strictly positive only over a nonempty set, so a
strict fact needs a statement hypothesis ``n > c`` (``c ≥ 0``), ``n ≥ c`` (``c > 0``) or ``n ≠ 0``
(``n`` is a natural number). The final proof is an ordinary kernel proof of the atom-level goal
from the statement's hypotheses, ``n ≥ 0`` and the summed facts in order.

Trust: this module and :mod:`prover.kernel.check` (docs/TRUST_BASE.md). It imports nothing of the
project outside the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from prover.kernel import terms as T
from prover.kernel.algebra import KernelError
from prover.kernel.check import LemmaLookup, Verdict, check_proof, check_statement, is_identity
from prover.kernel.ir import IRError, Statement, as_json, parse_proof, read_expr, read_rel

FORMAT = "prover-nterm-proof"
VERSION = 1
INDEX_SETS = ("fin", "range")
FACT_OPS = (">=", ">", "=")
MAX_FACTS = 64
MAX_PARAMS = 8


@dataclass(frozen=True)
class NTermStatement:
    """A theorem over ``n`` terms as the front-end read it.

    ``statement`` is the atom-level statement: its variables are ``scalars``, then ``n`` (the
    cast ``(n : ℝ)`` of the natural number bounding the index set), then the atom names; its
    hypotheses are the theorem's hypotheses that are not per-index, each sum replaced by its
    atom. ``index_hypotheses`` hold at every index of the set, over ``families`` (``a`` for
    ``a i``) and ``scalars``; ``atoms`` pairs each atom name with its body over the same."""

    n: str
    index_set: str
    families: tuple[str, ...]
    scalars: tuple[str, ...]
    index_hypotheses: tuple[T.Rel, ...]
    atoms: tuple[tuple[str, T.Term], ...]
    statement: Statement

    @property
    def index_variables(self) -> tuple[str, ...]:
        return self.families + self.scalars

    def to_json(self) -> dict:
        return {"n": self.n, "index_set": self.index_set, "families": list(self.families),
                "scalars": list(self.scalars),
                "index_hypotheses": [_rel_json(r) for r in self.index_hypotheses],
                "atoms": [{"name": a, "body": T.show(b)} for a, b in self.atoms],
                "variables": list(self.statement.variables),
                "hypotheses": [_rel_json(r) for r in self.statement.hypotheses],
                "goal": _rel_json(self.statement.goal)}

    @staticmethod
    def from_json(d: Any) -> NTermStatement:
        if not isinstance(d, dict):
            raise IRError("nterm statement: expected an object")
        n, index_set = d.get("n"), d.get("index_set")
        if index_set not in INDEX_SETS:
            raise IRError(f"nterm statement: unknown index set {index_set!r}")
        families, scalars = _names(d.get("families"), "families"), _names(d.get("scalars"), "scalars")
        if not isinstance(n, str) or not n.isidentifier():
            raise IRError("nterm statement: 'n' must be a name")
        inner = families + scalars
        raw_atoms = d.get("atoms")
        if not isinstance(raw_atoms, list):
            raise IRError("nterm statement: 'atoms' must be a list")
        atoms = tuple(_atom(a, inner) for a in raw_atoms)
        variables = scalars + (n,) + tuple(a for a, _ in atoms)
        if tuple(d.get("variables") or ()) != variables:
            raise IRError("nterm statement: variables must be the scalars, n, then the atoms")
        _distinct(families + variables)
        hyps = _rels(d.get("index_hypotheses"), inner, "index hypothesis")
        statement = Statement(variables, _rels(d.get("hypotheses"), variables, "hypothesis"),
                              read_rel(d.get("goal"), variables, "nterm goal"))
        return NTermStatement(n, index_set, families, scalars, hyps, atoms, statement)


def _rel_json(r: T.Rel) -> dict:
    return {"lhs": T.show(r.lhs), "op": r.op, "rhs": T.show(r.rhs)}


def _names(d: Any, what: str) -> tuple[str, ...]:
    if not isinstance(d, list) or not all(isinstance(v, str) and v.isidentifier() for v in d):
        raise IRError(f"nterm statement: '{what}' must be a list of names")
    return tuple(d)


def _distinct(names: tuple[str, ...]) -> None:
    if len(set(names)) != len(names):
        raise IRError("nterm statement: a name is used twice (families, scalars, n, atoms)")
    for v in names:
        if v in T.FUNCTIONS or v in T.CONSTANTS:
            raise IRError(f"nterm statement: {v!r} is not a valid name")


def _atom(d: Any, inner: tuple[str, ...]) -> tuple[str, T.Term]:
    if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not d["name"].isidentifier():
        raise IRError("nterm atom: expected an object with 'name' and 'body'")
    return d["name"], read_expr(d.get("body"), inner, f"body of {d['name']}")


def _rels(d: Any, variables: tuple[str, ...], what: str) -> tuple[T.Rel, ...]:
    if not isinstance(d, list):
        raise IRError(f"nterm statement: {what}s must be a list")
    return tuple(read_rel(r, variables, f"{what} {i}") for i, r in enumerate(d))


# ---------------------------------------------------------------- facts


@dataclass(frozen=True)
class SummedFact:
    """One certificate entry (see the module docstring); expressions are kernel-term text."""

    params: tuple[str, ...]
    param_hypotheses: tuple[dict, ...]
    relation: dict
    proof: Any
    instantiation: dict
    side_proofs: tuple[Any, ...]
    coefficients: tuple[tuple[str, str], ...]
    constant: str

    def to_json(self) -> dict:
        return {"params": list(self.params), "param_hypotheses": list(self.param_hypotheses),
                "relation": self.relation, "proof": as_json(self.proof), "instantiation": self.instantiation,
                "side_proofs": [as_json(p) for p in self.side_proofs],
                "coefficients": [{"atom": a, "coefficient": c} for a, c in self.coefficients],
                "constant": self.constant}

    @staticmethod
    def from_json(d: Any) -> SummedFact:
        if not isinstance(d, dict):
            raise IRError("summed fact: expected an object")
        coefficients = d.get("coefficients")
        if not isinstance(coefficients, list) or not all(isinstance(c, dict) for c in coefficients):
            raise IRError("summed fact: 'coefficients' must be a list of objects")
        params = _names(d.get("params", []), "params")
        hyps, sides = d.get("param_hypotheses", []), d.get("side_proofs", [])
        inst = d.get("instantiation", {})
        if not isinstance(hyps, list) or not isinstance(sides, list) or not isinstance(inst, dict):
            raise IRError("summed fact: malformed parameters")
        return SummedFact(params, tuple(hyps), d.get("relation"), d.get("proof"), inst, tuple(sides),
                          tuple((c.get("atom"), c.get("coefficient")) for c in coefficients),
                          d.get("constant", "0"))


@dataclass(frozen=True)
class NTermProof:
    statement: NTermStatement
    extra_atoms: tuple[tuple[str, T.Term], ...]
    facts: tuple[SummedFact, ...]
    final: Any

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "statement": self.statement.to_json(),
                "atoms": [{"name": a, "body": T.show(b)} for a, b in self.extra_atoms],
                "facts": [f.to_json() for f in self.facts], "final": as_json(self.final)}


def is_nterm_proof(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def check_nterm_proof(data: Any, statement: NTermStatement | None = None,
                      lemmas: LemmaLookup | None = None) -> Verdict:
    """Check an n-term proof (JSON or an object with ``to_json()``); ``statement`` (the front-end's
    reading of the theorem), when given, must be the proof's own; ``lemmas`` looks up catalogue
    lemmas for the scalar proofs inside."""
    data = as_json(data)
    errors: list[str] = []
    try:
        _check(data, statement, errors, lemmas)
    except (KernelError, IRError) as exc:
        errors.append(str(exc))
    except RecursionError:
        errors.append("unreadable proof: nested too deeply")
    return Verdict(not errors, errors)


def _check(data: Any, expected: NTermStatement | None, errors: list[str], lemmas: LemmaLookup | None) -> None:
    if not is_nterm_proof(data) or data.get("version") != VERSION:
        raise IRError(f"not a {FORMAT} file of version {VERSION}")
    st = NTermStatement.from_json(data.get("statement"))
    if expected is not None and st != expected:
        raise KernelError("the proof's n-term statement is not the theorem's")
    extra = data.get("atoms", [])
    facts = data.get("facts", [])
    if not isinstance(extra, list) or not isinstance(facts, list) or len(facts) > MAX_FACTS:
        raise IRError(f"'atoms' and 'facts' must be lists (at most {MAX_FACTS} facts)")
    extra_atoms = tuple(_atom(a, st.index_variables) for a in extra)
    variables = st.statement.variables + tuple(a for a, _ in extra_atoms)
    _distinct(st.families + variables)
    bodies = dict(st.atoms + extra_atoms)
    known: list[T.Rel] = list(st.statement.hypotheses) + [T.Rel(T.Var(st.n), ">=", T.ZERO)]
    if data.get("empty") is not None:   # n = 0 apart: every sum is 0
        _sub_proof(data["empty"], empty_case(st), "empty case", (errors, lemmas))
    if nonempty(st, data.get("empty") is not None):   # n > 0 and n ≥ 1 (n is a natural number)
        known += [T.Rel(T.Var(st.n), ">", T.ZERO), T.Rel(T.Var(st.n), ">=", T.Num(Fraction(1)))]
    for i, raw in enumerate(facts):
        if isinstance(raw, dict) and "lemma" in raw:
            known.append(_catalogue(st, bodies, raw, f"fact {i}", (errors, lemmas)))
            continue
        fact = SummedFact.from_json(raw)
        known.append(_summed(st, bodies, variables, tuple(known), fact, f"fact {i}", (errors, lemmas)))
    final_goal = Statement(variables, tuple(known), st.statement.goal)
    _sub_proof(data.get("final"), final_goal, "final", (errors, lemmas))


def _summed(st: NTermStatement, bodies: dict[str, T.Term], variables: tuple[str, ...],
            known: tuple[T.Rel, ...], fact: SummedFact, what: str, out: _Out) -> T.Rel:
    """The atom-level relation of one fact, after checking it (errors are appended)."""
    if len(fact.params) > MAX_PARAMS or set(fact.params) & (set(st.index_variables) | set(variables)):
        raise KernelError(f"{what}: parameters must be at most {MAX_PARAMS} fresh names")
    inner = st.index_variables + fact.params
    p_hyps = tuple(read_rel(h, fact.params, f"{what} parameter hypothesis") for h in fact.param_hypotheses)
    rel = read_rel(fact.relation, inner, f"{what} relation")
    if rel.op not in FACT_OPS or rel.rhs != T.ZERO:
        raise KernelError(f"{what}: a termwise relation must be P >= 0, P > 0 or P = 0")
    context = st.index_hypotheses + p_hyps
    if fact.proof is None:
        if rel.op != "=" or not is_identity(rel.lhs, context):
            raise KernelError(f"{what}: only an identity P = 0 needs no proof")
    else:
        _sub_proof(fact.proof, Statement(inner, context, rel), what, out)
    outer = st.scalars + fact.params
    coeffs = [(a, read_expr(c, outer, f"{what} coefficient")) for a, c in fact.coefficients]
    constant = read_expr(fact.constant, outer, f"{what} constant")
    for a, _ in coeffs:
        if a not in bodies:
            raise KernelError(f"{what}: unknown atom {a!r}")
    expansion = T.add(*(T.mul(c, bodies[a]) for a, c in coeffs), constant)
    if not is_identity(T.sub(rel.lhs, expansion), context):
        raise KernelError(f"{what}: the termwise relation is not Σ coefficient · body + constant")
    inst = _instantiation(fact, variables, what)
    for k, h in enumerate(p_hyps):
        _sub_proof(fact.side_proofs[k] if k < len(fact.side_proofs) else None,
                   Statement(variables, known, T.substitute_rel(h, inst)), f"{what} side proof {k}", out)
    total = T.add(*(T.mul(T.substitute(c, inst), T.Var(a)) for a, c in coeffs),
                  T.mul(T.substitute(constant, inst), T.Var(st.n)))
    split = len(st.statement.hypotheses) + 1     # where n > 0 stands when the set is nonempty
    if rel.op == ">" and known[split:split + 1] != (T.Rel(T.Var(st.n), ">", T.ZERO),):
        raise KernelError(f"{what}: a strict sum needs a nonempty index set (a hypothesis n ≥ 1)")
    return T.Rel(total, rel.op, T.ZERO)


#: Mathlib's inequalities over sums, as facts over atoms: name -> Mathlib lemma (docs/TRUST_BASE.md)
CATALOGUE = {"cauchy_schwarz": "Finset.sum_mul_sq_le_sq_mul_sq",
             "sq_le_mul": "Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul"}


def _catalogue(st: NTermStatement, bodies: dict[str, T.Term], d: dict, what: str, out: _Out) -> T.Rel:
    """``cauchy_schwarz`` with terms ``u``, ``v`` (over the families and scalars) and atoms
    ``[uv, uu, vv]`` whose bodies are ``u·v``, ``u²``, ``v²``: ``uv² ≤ uu·vv``, which is
    ``Finset.sum_mul_sq_le_sq_mul_sq s u v`` (any finite set, no hypothesis). ``sq_le_mul``: see
    :func:`_sq_le_mul`."""
    if d.get("lemma") not in CATALOGUE:
        raise KernelError(f"{what}: unknown lemma {d.get('lemma')!r}")
    if d["lemma"] == "sq_le_mul":
        return _sq_le_mul(st, bodies, d, what, out)
    u = read_expr(d.get("u"), st.index_variables, f"{what} u")
    v = read_expr(d.get("v"), st.index_variables, f"{what} v")
    names = d.get("atoms")
    if not isinstance(names, list) or len(names) != 3 or any(a not in bodies for a in names):
        raise KernelError(f"{what}: expected three known atoms [u·v, u², v²]")
    expected = (T.mul(u, v), T.power(u, T.Num(Fraction(2))), T.power(v, T.Num(Fraction(2))))
    for a, e in zip(names, expected):
        if not is_identity(T.sub(bodies[a], e), st.index_hypotheses):
            raise KernelError(f"{what}: the body of {a} is not {T.show(e)}")
    uv, uu, vv = (T.Var(a) for a in names)
    return T.Rel(T.sub(T.mul(uu, vv), T.power(uv, T.Num(Fraction(2)))), ">=", T.ZERO)


def _sq_le_mul(st: NTermStatement, bodies: dict[str, T.Term], d: dict, what: str, out: _Out) -> T.Rel:
    """Atoms ``[r, f, g]`` and three proofs under the per-index hypotheses: ``f ≥ 0``, ``g ≥ 0``
    and ``r² − f·g = 0`` (each body as the atom's): ``(Σr)² ≤ Σf · Σg``, which is Mathlib's
    ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul s hf hg ht`` (Cauchy–Schwarz in the form that covers
    Titu's ``(Σa)² ≤ Σ(a²/b)·Σb`` and needs no division)."""
    names, proofs = d.get("atoms"), d.get("proofs")
    if not isinstance(names, list) or len(names) != 3 or any(a not in bodies for a in names) \
            or not isinstance(proofs, list) or len(proofs) != 3:
        raise KernelError(f"{what}: expected atoms [r, f, g] and three proofs")
    r, f, g = (bodies[a] for a in names)
    two = T.Num(Fraction(2))
    goals = (T.Rel(f, ">=", T.ZERO), T.Rel(g, ">=", T.ZERO), T.Rel(T.sub(T.power(r, two), T.mul(f, g)), "=", T.ZERO))
    for k, (proof, goal) in enumerate(zip(proofs, goals)):
        _sub_proof(proof, Statement(st.index_variables, st.index_hypotheses, goal), f"{what} proof {k}", out)
    R, F, G = (T.Var(a) for a in names)
    return T.Rel(T.sub(T.mul(F, G), T.power(R, two)), ">=", T.ZERO)


def _instantiation(fact: SummedFact, variables: tuple[str, ...], what: str) -> dict[str, T.Term]:
    if set(fact.instantiation) != set(fact.params):
        raise KernelError(f"{what}: every parameter needs exactly one instantiation")
    return {p: read_expr(fact.instantiation[p], variables, f"{what} instantiation of {p}") for p in fact.params}


def empty_case(st: NTermStatement) -> Statement:
    """The statement at ``n = 0``: every sum is empty, so every atom and ``n`` are 0."""
    zero = {v: T.ZERO for v in st.statement.variables if v not in st.scalars}

    def at_zero(r: T.Rel) -> T.Rel:
        return T.Rel(_fold(T.substitute(r.lhs, zero)), r.op, _fold(T.substitute(r.rhs, zero)))

    return Statement(st.scalars, tuple(at_zero(h) for h in st.statement.hypotheses), at_zero(st.statement.goal))


def _fold(t: T.Term) -> T.Term:
    """``t`` rebuilt by the term constructors, which fold rational constants with Lean's values
    (``0⁻¹ = 0``); other nodes are kept."""
    if isinstance(t, T.Add):
        return T.add(*(_fold(a) for a in t.args))
    if isinstance(t, T.Mul):
        return T.mul(*(_fold(a) for a in t.args))
    if isinstance(t, T.Pow):
        return T.power(_fold(t.base), T.Num(Fraction(t.exp)))
    return t


def nonempty(st: NTermStatement, split: bool) -> bool:
    """Is the index set nonempty: the empty case proved apart (``split``), or a statement
    hypothesis ``n > c`` (``c ≥ 0``), ``n ≥ c`` (``c > 0``), ``n ≠ 0`` or ``n = c`` (``c ≥ 1``) for
    the natural number ``n`` (either way round)?"""
    return split or any(_says_nonempty(st.n, r) for r in st.statement.hypotheses)


def _says_nonempty(n_name: str, r: T.Rel) -> bool:
    n = T.Var(n_name)
    flipped = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "!=": "!="}
    if r.rhs == n and isinstance(r.lhs, T.Num):
        r = T.Rel(r.rhs, flipped[r.op], r.lhs)
    if r.lhs != n or not isinstance(r.rhs, T.Num):
        return False
    c: Fraction = r.rhs.value
    return (r.op == ">" and c >= 0) or (r.op == ">=" and c > 0) or (r.op == "!=" and c == 0) \
        or (r.op == "=" and c >= 1)


#: where a check reports: the error list and the catalogue lookup for the scalar proofs inside
_Out = tuple[list[str], "LemmaLookup | None"]


def _sub_proof(proof: Any, expected: Statement, what: str, out: _Out) -> None:
    """An ordinary kernel proof whose root goal says what ``expected`` says."""
    errors, lemmas = out
    if proof is None:
        errors.append(f"{what}: no proof")
        return
    try:
        goal, _, _root = parse_proof(as_json(proof))
    except IRError as exc:
        errors.append(f"{what}: unreadable proof: {exc}")
        return
    errors.extend(f"{what}: {e}" for e in check_statement(expected, goal))
    verdict = check_proof(proof, lemmas)
    errors.extend(f"{what}: {e}" for e in verdict.errors)
    if not verdict.ok and not verdict.errors:
        errors.append(f"{what}: rejected")
