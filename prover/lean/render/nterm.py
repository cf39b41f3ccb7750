"""Statements over n terms as a Lean file: scalar lemmas, then the user's theorem from them.

The file (``render_nterm``) states and proves, each by the ordinary renderer:

* one lemma per termwise fact (``t_term_1 (a t_1 : ℝ) (ha : 0 < a) : 0 ≤ (1) * (a ^ 2) + …``) and per
  side condition of its parameters, and the atom-level lemma ``t_atoms`` (one real variable per sum);

then the user's theorem, whose proof (after ``rcases Nat.eq_zero_or_pos n`` when the case ``n = 0``
was proved apart: ``subst`` and ``simp at *`` there where the replay model finds that it closes the
goal, else ``simp only`` with the empty-sum lemmas and the empty case's own lemma, rendered like
the others, with ``linarith``) sums each termwise lemma with ``Finset.sum_nonneg``
(``Finset.sum_pos`` over a nonempty set, ``Finset.sum_eq_zero``; a termwise identity ``ring`` does
not prove is a lemma of ours: roots rewritten, field identity), pulls the coefficients out of
the sum (``simp only [Finset.sum_add_distrib, ← Finset.mul_sum, Finset.sum_const, …] <;> ring``),
states the summed fact over the sums (``rw [← e_k]; exact f_k``) and applies the atom-level lemma
with each atom given as its sum (a ``_`` no hypothesis determines is an error in Lean).
Cauchy–Schwarz facts: ``Finset.sum_mul_sq_le_sq_mul_sq`` / ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul``
and ``linarith``. Names and signatures: docs/notes-sum-facts.md, docs/lean-names.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sympy as sp

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
    m = _Main(proof, user[1], user[0])
    body = m.lines()
    if proof.empty is not None and not m.simp_closes_empty():
        text = render_proof(proof.empty, print_axioms=False, **kw)
        if not text.startswith(top):
            raise RenderError("the empty case's lemma needs another file header")
        lemmas.append(text[len(top):].strip("\n"))
        body = m.lines(empty_lemma=_theorem_name(lemmas[-1]))
    lemmas += m.extra_lemmas
    main = user[0] + " := by\n" + "\n".join(indent(body)) + "\n"
    return top + "\n\n".join(lemmas) + "\n\n" + main + f"\n#print axioms {user[1]}\n"


class _Main:
    """The user's theorem's proof: the facts summed, then the atom-level lemma applied."""

    def __init__(self, proof: Any, name: str = "", head: str = "") -> None:
        self.proof = proof
        self.name = name
        self.head = head
        #: lemmas the main proof needs besides the proved ones (termwise identities), in order
        self.extra_lemmas: list[str] = []
        self.problem = proof.problem
        self.reading = proof.problem.nterm
        self.st = self.reading.statement
        used = set(re.findall(r"[\w']+", self.problem.meta.get("lean", "")))
        self.j = next(c for c in ("j", "k", "m", "p", "q", "j'", "k'") if c not in used)
        self.atoms = self._atom_texts()
        self._scope: Any = None
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

    def lines(self, empty_lemma: str | None = None) -> list[str]:
        """The proof's lines. The case ``n = 0`` (when proved apart) is ``subst`` then ``simp at *``
        where that closes it (:meth:`simp_closes_empty`); else (``empty_lemma``, the empty case's
        statement proved by the renderer: scalars and the hypotheses at ``n = 0``) ``subst``, every
        empty sum and ``↑0`` rewritten to ``0`` by ``simp only`` with the named lemmas (which does
        not close the goal there: a goal ``t = t`` after it is one ``simp at *`` closes), the lemma
        instantiated (its hypotheses by ``linarith``: its folded forms are ring-equal to the
        rewritten ones) and ``linarith``."""
        self.extra_lemmas = []
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
        if empty_lemma is None:
            zero = ["  simp at *"]
        else:
            lemmas = ", ".join(["Finset.range_zero" if self.st.index_set == "range" else "Finset.univ_eq_empty",
                                "Finset.sum_empty", "Nat.cast_zero"])
            hyps = len(self.proof.empty.problem.hypotheses)
            key = " ".join([empty_lemma, *self.st.scalars, *["(by linarith)"] * hyps])
            zero = [f"  simp only [{lemmas}] at *", f"  have k_0 := {key}", "  linarith"]
        return [f"rcases Nat.eq_zero_or_pos {n} with h_{n} | h_{n}",
                f"· subst h_{n}", *zero, "· " + out[0], *indent(out[1:])]

    def simp_closes_empty(self) -> bool:
        """Whether ``simp at *`` closes the case ``n = 0`` by the replay model's reading of it
        (``replay.sums.simp_at_star``: the statement with ``n := 0``, every empty sum and what it
        multiplies 0, the goal decided ``True`` or a hypothesis ``False`` by named simp lemmas)."""
        from prover.lean import replay as rp
        from prover.lean.replay.sums import simp_at_star
        from prover.lean.replay.terms import is_value_type, subst, uid_name

        try:
            decls = rp.LeanSource(self.head + " := by\n  skip\n").declarations()
            sig = rp.parse_signature(decls[0].signature_text,
                                     rp.Scope(opens=("Real",), real_division=bool(self.problem.real_division)))
        except Exception:   # noqa: BLE001 - not read: not known to close
            return False
        n = [uid for uid, ty, _ in sig.binders if uid_name(uid) == self.st.n and ty == rp.NAT]
        if len(n) != 1:
            return False
        m = {n[0]: ("num", 0)}
        hyps = [subst(ty, m) for uid, ty, _ in sig.binders if not is_value_type(ty)]
        try:
            return simp_at_star(hyps, subst(sig.concl, m))[0]
        except Exception:   # noqa: BLE001
            return False

    def application(self, lemma: Any, facts: int) -> str:
        """``lemma`` (an atom-level lemma: scalars, n, atoms, the statement's hypotheses, c_0 …,
        then ``g_1 … g_facts``) applied: each atom given as its sum (a ``_`` would be an error,
        "don't know how to synthesize placeholder", for an atom that no hypothesis nor the
        conclusion of the lemma mentions), ℕ hypotheses cast."""
        args = list(self.st.scalars) + [f"({self.st.n} : ℝ)"]
        args += [self.outer[a] if a in self.atoms else "_" for a in lemma.variables[len(args):]]
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
        if plan.lemma is not None and plan.lemma[0] == "sq_le_mul":
            return self.sq_le_mul_lines(k, fact, substitute_names(simplified, self.outer))
        if plan.lemma is not None:
            return self.catalogue_lines(k, plan, substitute_names(simplified, self.outer))
        inst = {p: f"({substitute_names(print_expr(e), self.outer)})" for p, e in plan.instantiation.items()}
        per_index = fact_text(plan, atom_body_texts(self.problem, self.proof.atoms.bodies))
        term = substitute_names(per_index, {**{f: f"({f} {self.j})" for f in self.st.families}, **inst})
        total = self.sum_of(term, at_index=True)
        literal = self.literal(plan)
        # `linear_combination l_k + c` proves `0 ≤ G` from `l_k : 0 ≤ L` when `L - G = c` (Mathlib
        # checks `(0 - G) - (0 - L) - c = 0` by ring), but `G = 0` from `l_k : L = 0` when `G - L = c`
        field, combination = (self.field_identity(simplified, literal) if plan.op == "="
                               else self.field_identity(literal, simplified))
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
        """``Σ (cₖ[T]) * Sₖ + (c₀[T]) * n`` over the atom names, as ``simp only`` leaves the sum:
        each coefficient as sympy simplifies it after the instantiation when ``ring`` proves that
        equal to the coefficient as the summand writes it (the parameter replaced by its text),
        else as the summand writes it (``ring`` does not prove ``1 / (1 / n) = n``: the inverse
        of the atom ``n⁻¹`` is another atom)."""
        from prover.problem import var

        inst = {var(p): e for p, e in plan.instantiation.items()}
        texts = {p: f"({print_expr(e)})" for p, e in plan.instantiation.items()}
        names = list(self.st.scalars) + [self.st.n] + list(self.atoms)

        def coefficient(c: Any) -> str:
            simplified, written = print_expr(c.subs(inst)), substitute_names(print_expr(c), texts)
            return simplified if _ring_equal(simplified, written, names) else written

        parts = [f"({coefficient(c)}) * {a}" for a, c in plan.terms]
        if plan.constant != 0:
            parts.append(f"({coefficient(plan.constant)}) * {self.st.n}")
        return " + ".join(parts) or "0"

    def field_identity(self, lhs: str, rhs: str) -> tuple[list[str], str]:
        """Lines and a combination proving ``lhs = rhs`` (over the atoms), written over the sums;
        empty when ``ring`` alone proves it."""
        import itertools

        from prover.lean.render.common import RenderContext
        from prover.lean.render.field_identity import prove_equality

        variables = list(self.st.scalars) + [self.st.n] + list(self.atoms)
        ctx = RenderContext([], itertools.count(1), None, "linear_combination")
        lines, combination = prove_equality(lhs, rhs, variables, ctx)
        return ([substitute_names(line, self.outer) for line in lines],
                substitute_names(combination, self.outer))

    def _n(self) -> Any:
        from prover.problem import var

        return var(self.st.n)

    def summation(self, k: int, fact: Any, inst: dict[str, str]) -> str:
        """``Finset.sum_nonneg``/``sum_pos``/``sum_eq_zero`` of the termwise lemma at ``a j``."""
        plan = fact.plan
        rng = self.st.index_set == "range"
        if fact.proof is None:     # an identity: every term is 0 (by ring, or a lemma of ours)
            lemma = self.identity_lemma(k, plan)
            if lemma is None:
                return f"Finset.sum_eq_zero (fun {self.j} _ => by ring)"
        else:
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

    def identity_lemma(self, k: int, plan: Any) -> str | None:
        """For a termwise identity ``P = 0`` (no proof: the kernel checked it as an identity under
        the per-index hypotheses) that ``ring`` does not prove, the name of a lemma of ours stating
        it over one index (the termwise lemmas' binders: families and scalars, parameters, the
        per-index hypotheses, the parameters' side conditions) and proving it: each root the
        kernel reads as another (``√(4 * a) = 2 * √a``) rewritten by an exact fact
        (:func:`root_product_fact`), then the field identity (``P * P⁻¹ = 1`` facts, the
        denominators nonzero by ``positivity`` from the hypotheses). None when ``ring`` proves it;
        RenderError when neither does (``ring`` would fail in Lean)."""
        import itertools

        from prover.lean.render.common import RenderContext
        from prover.lean.render.field_identity import prove_equality
        from prover.nterm.lean_text import theorem_text

        per_index = fact_text(plan, atom_body_texts(self.problem, self.proof.atoms.bodies))
        variables = [*self.st.families, *self.st.scalars, *plan.params]
        if _ring_equal(per_index, "0", variables):
            return None
        name = f"{self.name}_identity_{k}"
        ctx = RenderContext([], itertools.count(1), None, "linear_combination")
        try:
            lines, text = _root_rewrites(per_index, variables, ctx)
            more, combination = prove_equality(text, "0", variables, ctx)
        except RenderError as exc:
            raise RenderError(f"the termwise identity {per_index[:80]!r} = 0 is not proved by ring nor as a "
                              f"field identity: {exc}") from None
        binders = [(h, t) for h, _, t, _ in self.reading.index_binders]
        binders += [(f"hp_{j}", relation_text(op, print_expr(e))) for j, (e, op) in enumerate(plan.param_hypotheses, 1)]
        head = theorem_text(name, variables, binders, relation_text("=", per_index))
        assert head.endswith(" := by sorry")
        body = lines + more + [f"linear_combination {combination}" if combination else "ring"]
        self.extra_lemmas.append(head[:-len(" sorry")] + "\n" + "\n".join(indent(body)))
        return name

    def termwise_application(self, lemma: str, params: list[str] = ()) -> str:
        """``fun j hj => lemma (a j) … scalars … params (ha j) …``: a termwise lemma (binders: the
        families and scalars, the parameters, the per-index hypotheses) at the index ``j``."""
        rng = self.st.index_set == "range"
        args = [f"({f} {self.j})" for f in self.st.families] + list(self.st.scalars) + list(params)
        for name, _, _, bound in self.reading.index_binders:
            args.append(f"({name} {self.j} h{self.j})" if bound == "mem" and rng else f"({name} {self.j})")
        return f"fun {self.j} h{self.j} => {lemma} {' '.join(args)}"

    def sq_le_mul_lines(self, k: int, fact: Any, summed: str) -> list[str]:
        """``g_k : 0 ≤ Σf·Σg − (Σr)²`` from ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul s hf hg ht``
        (``{r f g}`` implicit: unification reads them from the three termwise lemmas ``0 ≤ f``,
        ``0 ≤ g``, ``r ^ 2 = f * g`` applied at ``j``; the type of ``h`` has them beta-reduced by
        ``instantiateMVars``) and ``linarith``."""
        if len(fact.side_proofs) != 3:
            raise RenderError("sq_le_mul: expected three termwise proofs (0 ≤ f, 0 ≤ g, r ^ 2 = f * g)")
        s = f"(Finset.range {self.st.n})" if self.st.index_set == "range" else "Finset.univ"
        proofs = " ".join(f"({self.termwise_application(p.problem.meta['lean_name'])})" for p in fact.side_proofs)
        return [f"have g_{k} : {relation_text('>=', summed)} := by",
                f"  have h := Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul {s} {proofs}",
                "  linarith"]

    def catalogue_lines(self, k: int, plan: Any, summed: str) -> list[str]:
        """``g_k : 0 ≤ Σu²·Σv² − (Σuv)²`` from ``Finset.sum_mul_sq_le_sq_mul_sq s f g`` and
        ``linarith``. The type of ``h`` is the lemma's ``(∑ i ∈ s, f i * g i) ^ 2 ≤ (∑ i ∈ s, f i ^ 2)
        * ∑ i ∈ s, g i ^ 2`` with ``f i``, ``g i`` beta-reduced (``inferType``), and ``linarith``
        compares its sums with the atoms' as terms: ``f``/``g`` are taken in the order in which
        ``f i * g i`` is the atom ``uv`` as written (``(a i + b i) * b i`` is not ``b i * (a i + b i)``);
        a sum of ``h`` that is the atom's only up to ``ring`` in its body (``a i * a i ^ 2`` for the
        atom ``∑ i, a i ^ 3``) is rewritten in ``h`` first, by ``Finset.sum_congr rfl`` and ``ring``."""
        _, u, v = plan.lemma
        fams = {f: f"({f} {self.j})" for f in self.st.families}
        s = f"(Finset.range {self.st.n})" if self.st.index_set == "range" else "Finset.univ"
        uv, uu, vv = (self.atoms[a] for a, _ in plan.terms)

        def at_index(e: Any) -> str:
            return f"{e.name} {self.j}" if e.is_Symbol else substitute_names(print_expr(e), fams)

        def pairing(x: Any, y: Any) -> tuple[int, list[tuple[str, str]]] | None:
            """(exact matches, the lemma's sums paired with the atoms) for ``f, g = x, y``."""
            fx, gy = at_index(x), at_index(y)
            prod, sq_f, sq_g = (self.sum_of(t, at_index=True) for t in (f"({fx}) * ({gy})", f"({fx}) ^ 2",
                                                                       f"({gy}) ^ 2"))
            best = None
            for pairs in ([(prod, uv), (sq_f, uu), (sq_g, vv)], [(prod, uv), (sq_f, vv), (sq_g, uu)]):
                if all(self.same_term(a, b) or self.same_sum_up_to_ring(a, b) for a, b in pairs):
                    exact = sum(self.same_term(a, b) for a, b in pairs)
                    if best is None or exact > best[0]:
                        best = (exact, pairs)
            return best

        options = []
        for x, y in ((u, v), (v, u)):
            found = pairing(x, y)
            if found is not None:
                options.append((found[0], (x, y), found[1]))
        if options:      # the most sums as written (the first order on a tie)
            _, (first, second), pairs = max(options, key=lambda o: o[0])
        else:            # nothing matches: as planned (the replay model will say why it fails)
            (first, second), pairs = (u, v), []
        f, g = (e.name if e.is_Symbol else f"(fun {self.j} => {substitute_names(print_expr(e), fams)})"
                for e in (first, second))
        lines = [f"have g_{k} : {relation_text('>=', summed)} := by",
                 f"  have h := Finset.sum_mul_sq_le_sq_mul_sq {s} {f} {g}"]
        congr = []
        for a, b in pairs:
            if not self.same_term(a, b):
                congr.append(f"hc_{len(congr) + 1}")
                lines.append(f"  have {congr[-1]} : {a} = {b} := Finset.sum_congr rfl (fun {self.j} _ => by ring)")
        if congr:
            lines.append(f"  rw [{', '.join(congr)}] at h")
        return lines + ["  linarith"]

    def same_sum_up_to_ring(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are sums over the same set whose bodies ``ring`` proves equal."""
        from prover.lean import replay as rp

        try:
            x, y = (rp.canon(rp.parse_term(rp.lex(t), self.replay_scope())) for t in (a, b))
        except Exception:   # noqa: BLE001 - unreadable
            return False
        if not (x[0] == "sum" and y[0] == "sum" and x[1] == y[1] and x[2] == y[2]):
            return False
        try:
            diff = ("sub", x[3], y[3])
            return rp.RingNormalizer([diff]).norm(diff).is_zero()
        except Exception:   # noqa: BLE001 - not a ring term
            return False

    def same_term(self, a: str, b: str) -> bool:
        """Whether the texts ``a`` and ``b`` (over the statement's names) elaborate to the same term
        (the replay model's reading, bound variables up to their names); False when unreadable."""
        from prover.lean import replay as rp

        try:
            scope = self.replay_scope()
            return rp.canon(rp.parse_term(rp.lex(a), scope)) == rp.canon(rp.parse_term(rp.lex(b), scope))
        except Exception:   # noqa: BLE001 - unreadable: not known to be the same
            return False

    def replay_scope(self) -> Any:
        """The replay model's names for the statement: ``n : ℕ``, the families, the scalars."""
        from prover.lean import replay as rp
        from prover.lean.replay.term_parser import register_type

        if self._scope is None:
            scope = rp.Scope(opens=("Real",), real_division=bool(self.problem.real_division))
            scope, n = scope.bind(self.st.n)
            register_type(scope, n, rp.NAT)
            dom = rp.NAT if self.st.index_set == "range" else ("app", ("const", "Fin"), (("fv", n),))
            for f in self.st.families:
                scope, uid = scope.bind(f)
                register_type(scope, uid, ("imp", dom, rp.REAL))
            for x in self.st.scalars:
                scope, _ = scope.bind(x)
            self._scope = scope
        return self._scope


def _ring_equal(a: str, b: str, variables: list[str]) -> bool:
    """Whether Mathlib's ``ring`` proves ``a = b`` (texts over real ``variables``), by the replay
    model's normal form; False when the model cannot read them."""
    from prover.lean.render.atoms import parse, ring_equal

    if a == b:
        return True
    try:
        return ring_equal(parse(a, variables), parse(b, variables))
    except Exception:   # noqa: BLE001 - a text the model does not read: keep the written form
        return False


def _root_rewrites(text: str, variables: list[str], ctx: Any) -> tuple[list[str], str]:
    """``(lines, text')``: for each ``Real.sqrt (M)`` of ``text`` that sympy writes otherwise
    (``√(4 * a)`` is ``2 * √a``), the exact fact ``c * √M' = √M`` (:func:`root_product_fact`) and a
    ``rw [← h]`` turning the goal's ``√M`` into it; ``text'`` is ``text`` so rewritten. No line
    when no root changes."""
    from prover.frontend import parse_expression
    from prover.lean.render.atoms import Facts, _lean_show, parse, root_product_fact
    from prover.lean.syntax import lean_expr

    tree = parse(text, variables)
    roots: list[Any] = []

    def walk(t: Any) -> None:
        if not isinstance(t, tuple) or not t or not isinstance(t[0], str):
            return
        if t[0] == "app" and t[1] in (("const", "Real.sqrt"), ("const", "sqrt")) and len(t[2]) == 1 \
                and t not in roots:
            roots.append(t)
        for x in t[1:]:
            if isinstance(x, tuple):
                walk(x) if x and isinstance(x[0], str) else [walk(y) for y in x]

    walk(tree)
    facts = Facts(ctx)
    rewrites: list[tuple[Any, str, str]] = []
    for r in roots:
        arg = _lean_show(r[2][0])
        try:
            other = lean_expr(sp.sqrt(parse_expression(arg, variables, real_division=True)))
        except Exception:   # noqa: BLE001, S112 - a root sympy does not read: left as it is
            continue
        if other == f"Real.sqrt ({arg})" or other == f"Real.sqrt {arg}" or parse(other, variables) == r:
            continue
        name = root_product_fact(other, arg, variables, facts)
        rewrites.append((r, other, name))
    if not rewrites:
        return [], text
    new = tree
    for r, other, _ in rewrites:
        new = _replace_term(new, r, parse(other, variables))
    lines = facts.lines + ["rw [" + ", ".join(f"← {name}" for _, _, name in rewrites) + "]"]
    return lines, _lean_show(new)


def _replace_term(t: Any, old: Any, new: Any) -> Any:
    if t == old:
        return new
    if not isinstance(t, tuple):
        return t
    return tuple(_replace_term(x, old, new) for x in t)


def _theorem_name(text: str) -> str:
    m = re.search(r"^theorem\s+(\S+)", text, re.MULTILINE)
    if m is None:
        raise RenderError("the empty case's lemma has no theorem name")
    return m.group(1)
