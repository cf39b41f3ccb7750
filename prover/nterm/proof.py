"""An n-term proof as the search builds it, and its certificate for the kernel.

:class:`NTermProof` duck-types what callers use of :class:`prover.ir.Proof` (``problem``, ``meta``,
``steps()``, ``roots()``, ``to_json()``, ``dumps()``); its JSON is the kernel's
``prover-nterm-proof`` format (:mod:`prover.kernel.sums`), with the user's Lean text so that
``prover check`` reads the theorem again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.ir import Proof, Step
from prover.kernel.sums import FORMAT, VERSION, SummedFact
from prover.nterm.plan import Atoms, FactPlan
from prover.problem import Problem


@dataclass
class ProvedFact:
    plan: FactPlan
    proof: Proof | None                 # the termwise proof (None: an identity)
    side_proofs: list[Proof]


def _text(e: sp.Expr) -> str:
    return str(e)


def _rel(lhs: sp.Expr, op: str) -> dict:
    return {"lhs": _text(lhs), "op": op, "rhs": "0"}


@dataclass
class NTermProof:
    problem: Problem
    atoms: Atoms
    facts: list[ProvedFact]
    final: Proof
    #: the case n = 0 proved apart (every sum 0), when no hypothesis says n ≥ 1
    empty: Proof | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def extra_atoms(self) -> list[tuple[str, sp.Expr]]:
        known = {a for a, _ in self.problem.nterm.statement.atoms}
        return [(a, b) for a, b in self.atoms.bodies.items() if a not in known]

    def summed_fact(self, fact: ProvedFact) -> SummedFact:
        plan = fact.plan
        params = []
        for e, op in plan.param_hypotheses:
            params.append(_rel(e, op))
        return SummedFact(
            params=tuple(plan.params), param_hypotheses=tuple(params),
            relation=_rel(plan.lhs(self.atoms.bodies), plan.op),
            proof=fact.proof.to_json() if fact.proof is not None else None,
            instantiation={p: _text(e) for p, e in plan.instantiation.items()},
            side_proofs=tuple(p.to_json() for p in fact.side_proofs),
            coefficients=tuple((a, _text(c)) for a, c in plan.terms), constant=_text(plan.constant))

    def fact_json(self, fact: ProvedFact) -> dict:
        if fact.plan.lemma is not None and fact.plan.lemma[0] == "sq_le_mul":
            return {"lemma": "sq_le_mul", "atoms": [a for a, _ in fact.plan.terms],
                    "proofs": [p.to_json() for p in fact.side_proofs]}
        if fact.plan.lemma is not None:
            name, u, v = fact.plan.lemma
            return {"lemma": name, "u": _text(u), "v": _text(v), "atoms": [a for a, _ in fact.plan.terms]}
        return self.summed_fact(fact).to_json()

    def to_json(self) -> dict:
        st = self.problem.nterm.statement
        out = {"format": FORMAT, "version": VERSION, "statement": st.to_json(),
               "atoms": [{"name": a, "body": _text(b)} for a, b in self.extra_atoms()],
               "facts": [self.fact_json(f) for f in self.facts],
               "final": self.final.to_json(),
               "empty": self.empty.to_json() if self.empty is not None else None,
               "problem": {"name": self.problem.name, "lean": self.problem.meta.get("lean"),
                           "lean_name": self.problem.meta.get("lean_name"),
                           "lips_header": self.problem.meta.get("lips_header", False)}}
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def sub_proofs(self) -> list[Proof]:
        out = [f.proof for f in self.facts if f.proof is not None] + ([self.empty] if self.empty else [])
        out += [p for f in self.facts for p in f.side_proofs]
        return out + [self.final]

    def roots(self) -> list[Step]:
        return [p.root for p in self.sub_proofs()]

    def steps(self) -> list[Step]:
        return [s for p in self.sub_proofs() for s in p.steps()]

    @property
    def root(self) -> Step:
        return self.final.root

    def check(self) -> Any:
        from prover.kernel.sums import check_nterm_proof
        from prover.verify import _lemmas

        return check_nterm_proof(self.to_json(), self.problem.nterm.statement, _lemmas(None))


def proof_from_json(data: dict) -> NTermProof:
    """An :class:`NTermProof` read back from its JSON (for rendering a saved proof): the statement
    from the file's Lean text (the front-end again), every expression by the kernel's parser.
    Raises ``ValueError`` (``ParseError``, ``IRError``) on a file it cannot read."""
    from prover.frontend.statement import parse_theorem
    from prover.ir import expr_from_str

    meta = data.get("problem") or {}
    lean, name = meta.get("lean"), meta.get("lean_name")
    if not isinstance(lean, str):
        raise ValueError("an n-term proof file needs the theorem's Lean text (`problem.lean`)")  # noqa: TRY004
    problem = parse_theorem(lean, real_division=meta.get("lips_header") is True, name=name)
    problem.name = str(meta.get("name") or problem.name)
    problem.meta = {**problem.meta, "lean": lean, "lean_name": name, "lips_header": meta.get("lips_header") is True}
    st = problem.nterm.statement
    inner = list(st.families) + list(st.scalars)
    bodies = {a: expr_from_str(T_show(b), inner) for a, b in st.atoms}
    bodies.update({a["name"]: expr_from_str(a["body"], inner) for a in data.get("atoms", [])})
    atoms = Atoms(bodies, st.families, st.atoms[0][0].rpartition("_")[0])
    facts = [_fact_from_json(f, inner, list(problem.variables) + list(bodies)) for f in data.get("facts", [])]
    empty = Proof.from_json(data["empty"]) if data.get("empty") else None
    return NTermProof(problem, atoms, facts, Proof.from_json(data["final"]), empty=empty)


def T_show(t: Any) -> str:
    from prover.kernel.terms import show

    return show(t)


def _fact_from_json(d: dict, inner: list[str], outer: list[str]) -> ProvedFact:
    from prover.ir import expr_from_str

    if d.get("lemma") == "sq_le_mul":
        plan = FactPlan("sq_le_mul", [(a, sp.Integer(1)) for a in d["atoms"]], lemma=("sq_le_mul",))
        return ProvedFact(plan, None, [Proof.from_json(p) for p in d.get("proofs", [])])
    if "lemma" in d:
        u, v = (expr_from_str(d[k], inner) for k in ("u", "v"))
        plan = FactPlan("cauchy_schwarz", [(a, sp.Integer(1)) for a in d["atoms"]], lemma=(d["lemma"], u, v))
        return ProvedFact(plan, None, [])
    params = list(d.get("params", []))
    scalars = inner + params
    plan = FactPlan("summed", [(c["atom"], expr_from_str(c["coefficient"], scalars)) for c in d["coefficients"]],
                    expr_from_str(d.get("constant", "0"), scalars), op=d["relation"]["op"], params=tuple(params),
                    param_hypotheses=tuple((expr_from_str(h["lhs"], params), h["op"])
                                           for h in d.get("param_hypotheses", [])),
                    instantiation={p: expr_from_str(e, outer) for p, e in d.get("instantiation", {}).items()},
                    identity=d.get("proof") is None)
    proof = Proof.from_json(d["proof"]) if d.get("proof") else None
    return ProvedFact(plan, proof, [Proof.from_json(p) for p in d.get("side_proofs", [])])


def saved_proof(text: str) -> Any:
    """A saved proof file's text as a proof object: an :class:`NTermProof` (read back with its
    statement, :func:`proof_from_json`) or an ordinary :class:`prover.ir.Proof`."""
    import json as _json

    from prover.kernel.sums import is_nterm_proof

    try:
        data = _json.loads(text)
    except ValueError:
        return Proof.loads(text)      # its own one-line error ("not JSON: …")
    return proof_from_json(data) if is_nterm_proof(data) else Proof.loads(text)
