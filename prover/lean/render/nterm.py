"""Statements over n terms as a Lean file: scalar lemmas, then the user's theorem from them.

The file (``render_nterm``) states and proves, each by the ordinary renderer:

* one lemma per termwise fact (``t_term_1 (a t_1 : ℝ) (ha : 0 < a) : 0 ≤ (1) * (a ^ 2) + …``) and per
  side condition of its parameters, and the atom-level lemma ``t_atoms`` (one real variable per sum);

then the user's theorem, whose proof (after ``rcases Nat.eq_zero_or_pos n`` when the case ``n = 0``
was proved apart: ``subst`` and ``simp`` there) sums each termwise lemma with ``Finset.sum_nonneg``
(``Finset.sum_pos`` over a nonempty set, ``Finset.sum_eq_zero``), pulls the coefficients out of
the sum (``simp only [Finset.sum_add_distrib, ← Finset.mul_sum, Finset.sum_const, …] <;> ring``),
states the summed fact over the sums (``rw [← e_k]; exact f_k``) and applies the atom-level lemma:
its atoms are ``_``, found by unification from the user's hypotheses and goal and the facts.
Names and signatures: docs/notes-sum-facts.md, docs/lean-names.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from prover.frontend.printer import print_expr
from prover.lean.render.common import RenderError, indent
from prover.lean.render.statement import header
from prover.nterm.lean_text import atom_body_texts, fact_text, parenthesized, relation_text, substitute_names

#: The lemmas that turn ``∑ (Σ cₖ * bodyₖ + c₀)`` into ``Σ cₖ * ∑ bodyₖ + n * c₀``, by index set.
LINEARITY = {
    "fin": ["Finset.sum_add_distrib", "← Finset.mul_sum", "Finset.sum_const", "Finset.card_univ",
            "Fintype.card_fin", "nsmul_eq_mul"],
    "range": ["Finset.sum_add_distrib", "← Finset.mul_sum", "Finset.sum_const", "Finset.card_range",
              "nsmul_eq_mul"],
}


def render_nterm(proof: Any, render_proof: Callable[..., str], **kw: Any) -> str:
    """The complete Lean file of an n-term proof (:class:`prover.nterm.proof.NTermProof`);
    ``render_proof`` renders each scalar lemma (the renderer's own, passed in)."""
    from prover.lean.render.statement import user_statement

    problem = proof.problem
    user = user_statement(problem)
    if user is None:
        raise RenderError("a statement over n terms is rendered only from the user's own text")
    top = header(problem)
    lemmas = []
    for sub in proof.sub_proofs():
        if sub is proof.empty:
            continue
        text = render_proof(sub, print_axioms=False, **kw)
        if not text.startswith(top):
            raise RenderError("a lemma of the n-term proof needs another file header")
        lemmas.append(text[len(top):].strip("\n"))
    body = _Main(proof).lines()
    main = user[0] + " := by\n" + "\n".join(indent(body)) + "\n"
    return top + "\n\n".join(lemmas) + "\n\n" + main + f"\n#print axioms {user[1]}\n"


class _Main:
    """The user's theorem's proof: the facts summed, then the atom-level lemma applied."""

    def __init__(self, proof: Any) -> None:
        self.proof = proof
        self.problem = proof.problem
        self.reading = proof.problem.nterm
        self.st = self.reading.statement
        used = set(re.findall(r"[\w']+", self.problem.meta.get("lean", "")))
        self.j = next(c for c in ("j", "k", "m", "p", "q", "j'", "k'") if c not in used)
        self.atoms = self._atom_texts()
        self.outer = {**{a: f"({t})" for a, t in self.atoms.items()}, self.st.n: f"({self.st.n} : ℝ)"}

    def _atom_texts(self) -> dict[str, str]:
        out = {a: self.reading.atom_source[k] for k, (a, _) in enumerate(self.st.atoms)}
        for a, b in self.proof.extra_atoms():
            out[a] = self.sum_of(print_expr(b))
        return out

    def sum_of(self, body: str, at_index: bool = False) -> str:
        """``∑ j, body`` over the statement's set; ``body`` per-index text (``a`` for ``a j``), or
        already at the index ``j`` (``at_index``)."""
        inner = body if at_index else substitute_names(body, {f: f"({f} {self.j})" for f in self.st.families})
        if self.st.index_set == "range":
            return f"∑ {self.j} ∈ Finset.range {self.st.n}, {parenthesized(inner)}"
        return f"∑ {self.j}, {parenthesized(inner)}"

    def nonempty(self) -> bool:
        from prover.kernel.sums import nonempty

        return nonempty(self.st, self.proof.empty is not None)

    def lines(self) -> list[str]:
        n = self.st.n
        out = [f"have c_0 : (0 : ℝ) ≤ ({n} : ℝ) := Nat.cast_nonneg {n}"]
        if self.nonempty():
            out += [f"have c_1 : (0 : ℝ) < ({n} : ℝ) := Nat.cast_pos.mpr (by omega)",
                    f"have c_2 : (1 : ℝ) ≤ ({n} : ℝ) := Nat.one_le_cast.mpr (by omega)"]
        for k, fact in enumerate(self.proof.facts, 1):
            out += self.fact_lines(k, fact)
        out.append("exact " + self.application(self.proof.final.problem, len(self.proof.facts)))
        if self.proof.empty is None:
            return out
        return [f"rcases Nat.eq_zero_or_pos {n} with h_{n} | h_{n}",
                f"· subst h_{n}", "  simp at *", "· " + out[0], *indent(out[1:])]

    def application(self, lemma: Any, facts: int) -> str:
        """``lemma`` (an atom-level lemma: scalars, n, atoms, the statement's hypotheses, c_0 …,
        then ``g_1 … g_facts``) applied: atoms by unification, ℕ hypotheses cast."""
        args = list(self.st.scalars) + [f"({self.st.n} : ℝ)"]
        args += ["_"] * (len(lemma.variables) - len(args))
        nat = set(self.reading.nat_hypotheses)
        args += [f"(by exact_mod_cast {h})" if h in nat else h for h, _ in self.reading.atom_binders]
        args += ["c_0"] + (["c_1", "c_2"] if self.nonempty() else [])
        args += [f"g_{k}" for k in range(1, facts + 1)]
        return f"{lemma.meta['lean_name']} " + " ".join(args)

    def fact_lines(self, k: int, fact: Any) -> list[str]:
        """``f_k`` (the termwise lemma summed), ``e_k`` (its sum split by linearity into the
        literal ``Σ cₖ[T] * Sₖ + c₀[T] * n``), ``l_k`` (that literal form), ``g_k`` (the form the
        atom-level lemma states, ours: equal to the literal as rational functions, by the exact
        ``P * P⁻¹ = 1`` facts of :func:`prove_equality` where a parameter divides)."""
        plan = fact.plan
        simplified = print_expr(plan.summed(self._n()))
        if plan.lemma is not None:
            return self.catalogue_lines(k, plan, substitute_names(simplified, self.outer))
        inst = {p: f"({substitute_names(print_expr(e), self.outer)})" for p, e in plan.instantiation.items()}
        per_index = fact_text(plan, atom_body_texts(self.problem, self.proof.atoms.bodies))
        term = substitute_names(per_index, {**{f: f"({f} {self.j})" for f in self.st.families}, **inst})
        total = self.sum_of(term, at_index=True)
        literal = self.literal(plan)
        field, combination = self.field_identity(simplified, literal)
        lemmas = ", ".join(LINEARITY[self.st.index_set])
        outer_literal = substitute_names(literal, self.outer)
        return [f"have f_{k} : {relation_text(plan.op, total)} := " + self.summation(k, fact, inst),
                f"have e_{k} : {total} = {outer_literal} := by",
                f"  simp only [{lemmas}] <;> ring",
                f"have l_{k} : {relation_text(plan.op, outer_literal)} := by",
                f"  rw [← e_{k}]; exact f_{k}",
                f"have g_{k} : {relation_text(plan.op, substitute_names(simplified, self.outer))} := by",
                *indent(field),
                f"  linear_combination l_{k}" + (f" + {combination}" if combination else "")]

    def literal(self, plan: Any) -> str:
        """``Σ (cₖ[T]) * Sₖ + (c₀[T]) * n`` over the atom names, as ``simp only`` leaves the sum."""
        from prover.problem import var

        inst = {var(p): e for p, e in plan.instantiation.items()}
        parts = [f"({print_expr(c.subs(inst))}) * {a}" for a, c in plan.terms]
        if plan.constant != 0:
            parts.append(f"({print_expr(plan.constant.subs(inst))}) * {self.st.n}")
        return " + ".join(parts) or "0"

    def field_identity(self, simplified: str, literal: str) -> tuple[list[str], str]:
        """Lines and a combination proving ``simplified = literal`` (over the atoms), written over
        the sums; empty when ``ring`` alone proves it."""
        import itertools

        from prover.lean.render.common import RenderContext
        from prover.lean.render.field_identity import prove_equality

        variables = list(self.st.scalars) + [self.st.n] + list(self.atoms)
        ctx = RenderContext([], itertools.count(1), None, "linear_combination")
        lines, combination = prove_equality(simplified, literal, variables, ctx)
        return ([substitute_names(line, self.outer) for line in lines],
                substitute_names(combination, self.outer))

    def _n(self) -> Any:
        from prover.problem import var

        return var(self.st.n)

    def summation(self, k: int, fact: Any, inst: dict[str, str]) -> str:
        """``Finset.sum_nonneg``/``sum_pos``/``sum_eq_zero`` of the termwise lemma at ``a j``."""
        plan = fact.plan
        rng = self.st.index_set == "range"
        if fact.proof is None:     # an identity: every term is 0 by ring
            return f"Finset.sum_eq_zero (fun {self.j} _ => by ring)"
        lemma = fact.proof.problem.meta["lean_name"]
        args = [f"({f} {self.j})" for f in self.st.families] + list(self.st.scalars)
        args += [inst[p] for p in plan.params]
        for name, _, _, bound in self.reading.index_binders:
            args.append(f"({name} {self.j} h{self.j})" if bound == "mem" and rng else f"({name} {self.j})")
        args += [f"({self.application(side.problem, k - 1)})" for side in fact.side_proofs]
        term = f"fun {self.j} h{self.j} => {lemma} {' '.join(args)}"
        if plan.op == ">=":
            return f"Finset.sum_nonneg ({term})"
        if plan.op == "=":
            return f"Finset.sum_eq_zero ({term})"
        nonempty = ("(Finset.nonempty_range_iff.mpr (by omega))" if rng
                    else "(Finset.univ_nonempty_iff.mpr ⟨⟨0, by omega⟩⟩)")
        return f"Finset.sum_pos ({term}) {nonempty}"

    def catalogue_lines(self, k: int, plan: Any, summed: str) -> list[str]:
        _, u, v = plan.lemma
        fams = {f: f"({f} {self.j})" for f in self.st.families}
        s = f"(Finset.range {self.st.n})" if self.st.index_set == "range" else "Finset.univ"
        f, g = (e.name if e.is_Symbol else f"(fun {self.j} => {substitute_names(print_expr(e), fams)})"
                for e in (u, v))
        return [f"have g_{k} : {relation_text('>=', summed)} := by",
                f"  have h := Finset.sum_mul_sq_le_sq_mul_sq {s} {f} {g}",
                "  linarith"]
