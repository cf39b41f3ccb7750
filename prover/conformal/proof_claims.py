"""Render a kernel proof (``prover.ir.Proof``) as natural-language claims with their graph.

Steps are visited children first, so premises come before what rests on them. Per step:

* ``close`` (sos): an identity claim "slack = Σ c·Π slack(H)·q² + Σ λ·eq(H)" and a conclusion claim
  "hence <target>, a sum of squares …" resting on it;
* ``rewrite``: an identity claim "slack(G) = m·slack(G') + Σ λ·eq(H)" and a conclusion claim
  "since <G'> … it follows that <G>" resting on the identity and on the subgoal's conclusion;
* any other kind (scale, split, introduce, substitute, monotone, positivity close): one conclusion claim
  resting on its subgoals' conclusions.

Every claim carries a ``formula`` (a relation that holds for all values allowed by the goal's
hypotheses) so that it can be checked symbolically, and an exact label: identity claims by an
exact identity test, conclusion claims by the kernel's check of that one step
(``Kernel.check_one``); without a kernel, by the exact identity test of the step's certificate.
"""

from __future__ import annotations

import networkx as nx
import sympy as sp

from prover.conformal.claims import Claim, ClaimGraph
from prover.ir import Goal, Proof, Step, expr_from_str
from prover.problem import Relation

_WORDS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">", "=": "=", "!=": "≠"}


def rel_formula(r: Relation) -> str:
    return f"{sp.sstr(r.lhs)} {r.op} {sp.sstr(r.rhs)}"


def rel_text(r: Relation) -> str:
    return f"{sp.sstr(r.lhs)} {_WORDS[r.op]} {sp.sstr(r.rhs)}"


def _p(e: sp.Expr) -> str:
    return f"({sp.sstr(e)})"


def _kernel_accepts(step: Step) -> bool | None:
    """The kernel's verdict on this one step (children not checked), with the project catalogue."""
    from prover.verify import Kernel

    try:
        Kernel().check_one(step)
    except Exception:  # noqa: BLE001 - any failure of the checker is a rejection
        return False
    return True


def _identity_true(lhs: sp.Expr, rhs: sp.Expr) -> bool:
    """Exact test of a rational-function identity (numerator of the difference expands to 0)."""
    return sp.expand(sp.numer(sp.together(lhs - rhs))) == 0


def _eq_part(goal: Goal, cert: dict) -> sp.Expr:
    out = sp.Integer(0)
    for t in cert.get("eq_terms", []) or []:
        h = goal.hypotheses[int(t["hyp"])]
        out += sp.UnevaluatedExpr(expr_from_str(t["poly"], goal.variables)) * sp.UnevaluatedExpr(h.lhs - h.rhs)
    return out


def _sos_rhs(goal: Goal, cert: dict) -> sp.Expr:
    out = sp.Integer(0)
    for t in cert.get("terms", []):
        prod: sp.Expr = sp.Rational(t["coeff"])
        for k in t.get("mult", []):
            prod = prod * sp.UnevaluatedExpr(goal.hypotheses[int(k)].slack())
        prod = prod * sp.UnevaluatedExpr(expr_from_str(t["poly"], goal.variables)) ** 2
        out = out + prod
    return out + _eq_part(goal, cert)


class _Renderer:
    def __init__(self, proof: Proof):
        self.proof = proof
        self.claims: list[Claim] = []
        self.graph = nx.DiGraph()
        self.base_hyps = {h.rel for h in proof.problem.hypotheses}

    def add(self, text: str, formula: str, label: bool | None, parents: list[int], step: Step,
            path: str, role: str, source: str) -> int:
        extra = [rel_formula(h) for h in step.goal.hypotheses if h not in self.base_hyps]
        meta = {"path": path, "kind": step.kind, "role": role, "label_source": source}
        if extra:
            meta["hypotheses"] = extra
        self.claims.append(Claim(text, label, {}, formula, meta))
        v = len(self.claims) - 1
        self.graph.add_node(v)
        self.graph.add_edges_from((u, v) for u in parents)
        return v

    def identity(self, step: Step, path: str, lhs: sp.Expr, rhs: sp.Expr, why: str) -> int:
        ok = _identity_true(lhs, sp.sympify(rhs).doit())
        text = f"{why}: ${sp.sstr(lhs)} = {sp.sstr(rhs)}$."
        return self.add(text, f"{sp.sstr(lhs)} = {sp.sstr(rhs)}", ok, [], step, path, "identity", "identity")

    def visit(self, step: Step, path: str) -> int:
        kids = [self.visit(c, f"{path}/{i}") for i, c in enumerate(step.children)]
        g, cert = step.goal, step.certificate
        target = g.target
        accepted = _kernel_accepts(step)
        source = "identity" if accepted is None else "kernel"
        if step.kind == "close" and cert.get("method") == "sos":
            rhs = _sos_rhs(g, cert)
            ident = self.identity(step, path, target.slack(), rhs, "We have the identity")
            label = self.claims[ident].label if accepted is None else accepted
            text = (f"Hence ${rel_text(target)}$ holds, because the difference is a sum of squares "
                    f"(times nonnegative hypotheses).")
            return self.add(text, rel_formula(target), label, [ident], step, path, "conclusion", source)
        if step.kind == "rewrite" and len(step.subgoals) == 1:
            sub = step.subgoals[0].target
            m = expr_from_str(str(cert.get("multiplier", "1")), g.variables)
            rhs = sp.Mul(m, sp.UnevaluatedExpr(sub.slack()), evaluate=False) + _eq_part(g, cert)
            ident = self.identity(step, path, target.slack(), rhs, "The difference factors through the subgoal")
            label = self.claims[ident].label if accepted is None else accepted
            text = (f"Since ${rel_text(sub)}$ and the multiplier ${sp.sstr(m)}$ is positive, "
                    f"it follows that ${rel_text(target)}$.")
            return self.add(text, rel_formula(target), label, [ident] + kids, step, path, "conclusion", source)
        what = {"close": "every term is nonnegative", "scale": "by the lemma(s) "
                + ", ".join(str(a.get("lemma")) for a in cert.get("applications", [])),
                "split": "by cases", "introduce": "after introducing new variables",
                "substitute": "by substitution",
                "monotone": f"applying the increasing function {cert.get('function')} to both sides of "
                            "the subgoal"}.get(step.kind, step.kind)
        text = f"${rel_text(target)}$ holds ({what})."
        return self.add(text, rel_formula(target), accepted, kids, step, path, "conclusion", source)


def render_proof(proof: Proof, name: str | None = None) -> ClaimGraph:
    """Claims in presentation order (premises first) with the deducibility graph and labels."""
    r = _Renderer(proof)
    r.visit(proof.root, "root")
    p = proof.problem
    prompt = "Prove: for real " + ", ".join(p.variables)
    if p.hypotheses:
        prompt += " with " + ", ".join(rel_text(h.rel) for h in p.hypotheses)
    prompt += f", that {rel_text(p.goal)}."
    return ClaimGraph(name or p.name, prompt, r.claims, r.graph, {}, list(p.variables),
                      [rel_formula(h.rel) for h in p.hypotheses], dict(proof.meta.get("conformal", {})))
