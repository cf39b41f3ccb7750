"""Proof IR: a tree of steps, each with its input goal, output goals and an exact certificate.

Serialization is stable and versioned (``FORMAT``/``VERSION``); expressions are stored as
sympy strings over the rationals (``str(expr)``) and read back with :func:`expr_from_str`,
which refuses floats.

Semantics of a step (what the kernel in ``prover/kernel/check.py`` verifies). Notation:
``slack(R)`` is :meth:`Relation.slack` (must be ``>= 0``, or ``> 0`` for strict relations);
``eq(h)`` is ``h.lhs - h.rhs`` for an equality hypothesis ``h`` (it vanishes on the context);
``H`` are the goal's hypotheses (indices into ``goal.hypotheses``).
An *identity* is checked exactly: every non-polynomial atom (sqrt, rational powers, a ^ a …)
is replaced by a fresh symbol, fractions are combined, the numerator must expand to 0, and every
denominator that occurs must be proved nonzero by the positivity rules.

``close``   (no subgoals). ``certificate["method"]``:
  * ``"sos"``: ``slack(target) = Σ c_i · Π_{k∈mult_i} slack(H_k) · q_i²  +  Σ λ_j · eq(H_j)``
    with rationals ``c_i >= 0``; ``mult_i`` lists inequality hypotheses (repeats allowed).
    Fields: ``terms``: ``[{"coeff": str, "mult": [int], "poly": str}]``, ``eq_terms``:
    ``[{"hyp": int, "poly": str}]``. A strict target needs one term with ``c > 0``, a nonzero
    constant ``q`` and only strict hypotheses in ``mult``. An ``=`` target needs ``terms == []``.
  * ``"positivity"``: ``slack(target)`` is ``>= 0`` (``> 0`` if strict) by the positivity rules.
``rewrite`` (one subgoal ``G'``): ``slack(G) = m · slack(G') + Σ λ_j · eq(H_j)``;
  fields ``multiplier`` (``m``, proved ``> 0`` by positivity; ``>= 0`` is enough unless ``G``
  is strict, and a strict ``G`` needs a strict ``G'``), ``eq_terms``, ``new_hypotheses``.
``scale``   (one subgoal ``G'``): ``slack(G) = m · slack(G') + Σ_k c_k · (B_k − A_k) + Σ λ_j · eq(H_j)``
  where each application ``k`` is an instance ``A_k <= B_k`` of a catalogue lemma (``lemma``,
  ``instance``: lemma variable → expression), its side conditions proved by positivity, and
  ``c_k`` (``coefficient``) proved ``>= 0`` by positivity. Fields: ``applications``,
  ``multiplier``, ``eq_terms``, ``new_hypotheses``. Instead of a lemma, an application may name
  an inequality hypothesis of ``G`` (``{"hypothesis": k, "coefficient": c}``: ``B − A`` is its
  slack) or state a fact (``{"fact": relation, "proof": <close certificate of it over G's
  context>, "coefficient": c}``: ``B − A`` is the fact's slack) — e.g. termwise bounds.
``split``   (subgoals are the cases): ``certificate["cases"]``:
  * ``"sign"``: ``expr`` p; subgoals are ``G + [p >= 0]`` and ``G + [p <= 0]``.
  * ``"order"``: ``variables`` v_1..v_n; one subgoal per ordering, adding the chain
    ``v_σ1 >= v_σ2``, …, ``v_σ(n-1) >= v_σn``. With ``symmetry`` ``"full"`` or ``"cyclic"`` the
    kernel checks that goal and hypotheses are invariant under that permutation group of the
    listed variables, and then accepts one subgoal per orbit of orderings (``orderings``
    lists the permutations, as lists of variable names, that the subgoals stand for).
``introduce`` (one subgoal ``G'`` over more variables): ``definitions``: new variable →
  expression in the old ones (``s = sqrt(x)``, ``t = x**(1/3)``, ``u = a*b``); ``G'`` is ``G`` with
  those expressions replaced by the new variables plus ``new_hypotheses`` about the new
  variables (e.g. ``s >= 0``, ``s**2 = x``), each proved for the definition's value.
  The kernel supplies the facts that Lean guarantees (``v = D`` always; ``√X >= 0``; for
  ``X**(p/q)``: ``v > 0`` and ``v**q = X**p`` if ``X > 0`` is proved, ``v >= 0`` and
  ``v**q = X**p`` if ``X >= 0`` is proved and ``p/q > 0``); a hypothesis of ``G'`` that is one of
  them needs no entry. ``X**(k/q)`` in ``G`` may appear as ``v**k`` in ``G'`` (``v = X**(1/q)``,
  ``X >= 0`` proved).
``substitute`` (one subgoal ``G'`` over new variables): ``substitution`` old var → f(new vars)
  and ``inverse`` new var → g(old vars) with ``f(g(x)) = x`` as an identity modulo the
  equality hypotheses; ``G'``'s target is ``G``'s with the substitution applied, and each
  hypothesis of ``G'`` after the inverse substitution is equivalent to one of ``G``'s or has a
  ``new_hypotheses`` entry (a close certificate over ``G``'s context). A variable missing from
  ``substitution``/``inverse`` maps to itself (it must then exist on both sides).
  The "modulo" part is certified by the optional field ``eq_terms``: old var x →
  ``[{"hyp": int, "poly": str}]`` (λ_j, rational functions of the old variables with
  denominators proved nonzero) such that ``f(g(x)) − x = Σ λ_j · eq(H_j)`` exactly; a variable
  without an entry needs ``f(g(x)) = x`` as a plain identity. (Used to homogenise by scaling,
  ``x ↦ 3x/(a+b+c)`` under ``a + b + c = 3``, and to eliminate a variable.)

``combine`` (subgoals ``G_1 … G_k``, ``k >= 2``: independent parts): ``terms``:
  ``[{"coeff": str, "factors": [int]}]`` with ``slack(G) = Σ_j coeff_j · Π_{i∈factors_j} slack(G_i)``
  exactly (``coeff_j`` rational ``>= 0``; no factors: the constant ``coeff_j``). ``G`` and every
  ``G_i`` are inequalities; each ``G_i`` has some of ``G``'s variables and hypotheses (literally
  ``G``'s). A strict ``G`` needs a term with ``coeff > 0`` whose factors are strict subgoals. Signs
  are never assumed: a product ``L₁L₂ ≥ R₁R₂`` needs ``R₁ >= 0``, ``R₂ >= 0`` as subgoals.
``monotone`` (an increasing ``f`` peeled off both sides of ``f(a) <= f(b)``): ``function``
  (``"sqrt"`` or ``"rpow"``), ``small`` (``a``), ``big`` (``b``), ``exponent`` (``rpow`` only: a
  rational ``r > 0``, not an integer). ``G``'s sides equal ``f(a)``, ``f(b)`` as identities over
  atoms; subgoals, with ``G``'s variables and hypotheses: ``slack = b − a`` (strict when ``G`` is)
  and, for ``rpow`` and a strict ``sqrt``, ``slack = a`` (Mathlib's ``Real.rpow_le_rpow`` /
  ``Real.sqrt_lt_sqrt`` need ``0 <= a``; ``Real.sqrt_le_sqrt`` needs nothing).

``new_hypotheses`` (rewrite/scale/introduce): ``[{"index": int, "proof": <close certificate>}]``,
one entry for each hypothesis of ``G'`` that is not literally among ``G``'s (rewrite/scale: once
proved, they may also prove the identity's denominators nonzero); the proof is a
close certificate for that hypothesis as a target over ``G``'s context (for ``introduce``: over
``G``'s variables and hypotheses followed by the definition facts above, in the order of
``prover.kernel.check.introduce_facts(G, definitions)``, plus the new variables — never
by substituting the definitions with sympy, which would turn ``sqrt(x)**2`` into ``x``, false in
Lean for ``x < 0``).
Lemma applications (``scale``) add ``c·(B − A) >= 0``, so ``G`` must be an inequality there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from prover.problem import Hypothesis, Problem, Relation

FORMAT = "prover-proof"
VERSION = 1
#: Problem meta saved with a proof whose statement defines functions (``(f : ℝ → ℝ) (h : ∀ x, f x = …)``):
#: which hypotheses define them and where they are applied, for rendering the user's theorem again.
DEFINITION_KEYS = ("definitions", "definition_uses")
STEP_KINDS = ("close", "rewrite", "scale", "split", "introduce", "substitute", "combine", "square", "monotone")


class IRError(ValueError):
    """A malformed proof file (not a rejected proof: that is a kernel verdict)."""


# ---------------------------------------------------------------- expressions

def expr_to_str(e: sp.Expr | int) -> str:
    e = sp.sympify(e)
    if e.has(sp.Float):
        raise IRError(f"floating-point number in expression {e}")
    return str(e)


def expr_from_str(s: str, variables: list[str] | tuple[str, ...]) -> sp.Expr:
    """Read an expression written by :func:`expr_to_str`; only the given variables may occur.

    The text is read by the kernel's whitelist parser (no ``eval``, bounded sizes), then built
    as a sympy expression."""
    from prover.kernel.terms import TermError, parse_term
    from prover.sympy_terms import term_to_sympy

    try:
        return term_to_sympy(parse_term(s, tuple(variables)))
    except TermError as exc:
        raise IRError(f"cannot read expression {str(s)[:80]!r}: {exc}") from None


def relation_to_json(r: Relation) -> dict:
    return {"lhs": expr_to_str(r.lhs), "op": r.op, "rhs": expr_to_str(r.rhs)}


def relation_from_json(d: dict, variables: list[str] | tuple[str, ...]) -> Relation:
    try:
        return Relation(expr_from_str(d["lhs"], variables), d["op"], expr_from_str(d["rhs"], variables))
    except (KeyError, TypeError) as exc:
        raise IRError(f"bad relation {d!r}: {exc}") from None
    except ValueError as exc:
        raise IRError(str(exc)) from None


# ---------------------------------------------------------------- goals and steps


@dataclass(frozen=True)
class Goal:
    """A proof obligation: ``∀ variables, hypotheses → target``."""

    variables: tuple[str, ...]
    hypotheses: tuple[Relation, ...]
    target: Relation

    @staticmethod
    def from_problem(p: Problem) -> Goal:
        return Goal(tuple(p.variables), tuple(h.rel for h in p.hypotheses), p.goal)

    def with_hypotheses(self, extra: list[Relation] | tuple[Relation, ...]) -> Goal:
        return Goal(self.variables, self.hypotheses + tuple(extra), self.target)

    def with_target(self, target: Relation) -> Goal:
        return Goal(self.variables, self.hypotheses, target)

    def to_json(self) -> dict:
        return {
            "variables": list(self.variables),
            "hypotheses": [relation_to_json(h) for h in self.hypotheses],
            "target": relation_to_json(self.target),
        }

    @staticmethod
    def from_json(d: dict) -> Goal:
        try:
            vs = tuple(d["variables"])
            return Goal(vs, tuple(relation_from_json(h, vs) for h in d["hypotheses"]),
                        relation_from_json(d["target"], vs))
        except (KeyError, TypeError) as exc:
            raise IRError(f"bad goal: {exc}") from None


@dataclass
class Step:
    """One proof step; ``children[i]`` proves ``subgoals[i]``."""

    kind: str
    goal: Goal
    subgoals: list[Goal]
    certificate: dict[str, Any]
    children: list[Step] = field(default_factory=list)
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise IRError(f"unknown step kind {self.kind!r}")

    def walk(self) -> Iterator[Step]:
        yield self
        for c in self.children:
            yield from c.walk()

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "goal": self.goal.to_json(),
            "subgoals": [g.to_json() for g in self.subgoals],
            "certificate": self.certificate,
            "children": [c.to_json() for c in self.children],
            "note": self.note,
        }

    @staticmethod
    def from_json(d: dict) -> Step:
        try:
            return Step(
                kind=d["kind"],
                goal=Goal.from_json(d["goal"]),
                subgoals=[Goal.from_json(g) for g in d["subgoals"]],
                certificate=dict(d["certificate"]),
                children=[Step.from_json(c) for c in d.get("children", [])],
                note=d.get("note", ""),
            )
        except (KeyError, TypeError) as exc:
            raise IRError(f"bad step: {exc}") from None


@dataclass
class Proof:
    """A complete proof of ``problem``: ``root.goal`` must be the problem's goal.

    A proof read from JSON keeps that JSON (``raw``) and serialises back to exactly it: reading
    into sympy simplifies (``x/x`` becomes ``1``), and the kernel must check what the file says,
    not sympy's reading of it."""

    problem: Problem
    root: Step
    meta: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _read_as: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    #: a conjunction goal (``problem.goal_parts``): one root per part, in order (``root`` is the
    #: first); empty otherwise
    parts: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.raw is not None and self._read_as is None:
            self._read_as = self._fresh_json()

    def steps(self) -> list[Step]:
        return [s for r in self.roots() for s in r.walk()]

    def roots(self) -> list[Step]:
        """The root step of each part (one for a goal that is not a conjunction)."""
        return list(self.parts) if self.parts else [self.root]

    def part_proofs(self) -> list[Proof]:
        """One proof per part of a conjunction goal (:meth:`Problem.part`), else ``[self]``."""
        if not self.problem.is_conjunction:
            return [self]
        return [Proof(self.problem.part(i), r, dict(self.meta)) for i, r in enumerate(self.roots())]

    def to_json(self) -> dict:
        fresh = self._fresh_json()
        if self.raw is not None and fresh == self._read_as:
            return self.raw   # unchanged since it was read: the file's own text, not sympy's reading
        return fresh

    def _fresh_json(self) -> dict:
        p = self.problem
        problem: dict[str, Any] = {
            "name": p.name,
            "variables": list(p.variables),
            "hypotheses": [{"name": h.name, **relation_to_json(h.rel)} for h in p.hypotheses],
            "goal": relation_to_json(p.goal),
            "real_division": p.real_division,
            "source": p.source,
        }
        if p.is_conjunction:
            problem["goal_parts"] = [relation_to_json(g) for g in p.goal_parts]
        if isinstance(p.meta.get("lean"), str):
            problem["lean"] = p.meta["lean"]  # the user's statement verbatim: `prover check` re-reads it
            if isinstance(p.meta.get("lean_name"), str):
                problem["lean_name"] = p.meta["lean_name"]
            if isinstance(p.meta.get("lips_header"), bool):
                # the LIPS header was declared by the data (a benchmark), not read from the text:
                # `prover check` reads the text under it again only then
                problem["lips_header"] = p.meta["lips_header"]
            for key in DEFINITION_KEYS:   # functions given by an equation: the renderer's wrapper needs them
                if p.meta.get(key):
                    problem[key] = p.meta[key]
        faithful = getattr(p, "faithful", None)
        if faithful is not None:
            from prover.kernel.terms import show

            def rel(r: Any) -> dict:
                return {"lhs": show(r.lhs), "op": r.op, "rhs": show(r.rhs)}

            problem["statement"] = {"hypotheses": [rel(h) for h in faithful.hypotheses],
                                    "goal": rel(faithful.goal)}
            if faithful.goal_parts:
                problem["statement"]["goal_parts"] = [rel(g) for g in faithful.goal_parts]
        out = {"format": FORMAT, "version": VERSION, "problem": problem,
               "root": self.root.to_json(), "meta": self.meta}
        if self.parts:    # a conjunction goal: every part's proof (``root`` repeats the first)
            out["parts"] = [r.to_json() for r in self.parts]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=True)

    @staticmethod
    def from_json(d: dict) -> Proof:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise IRError(f"not a {FORMAT} file")
        if d.get("version") != VERSION:
            raise IRError(f"unsupported proof format version {d.get('version')!r} (this is {VERSION})")
        try:
            pd = d["problem"]
            vs = list(pd["variables"])
            hyps = [Hypothesis(h["name"], relation_from_json(h, vs)) for h in pd["hypotheses"]]
            parts = tuple(relation_from_json(g, vs) for g in pd.get("goal_parts", ()))
            problem = Problem(pd["name"], vs, hyps, relation_from_json(pd["goal"], vs),
                              real_division=pd.get("real_division", True), source=pd.get("source"),
                              goal_parts=parts)
            if isinstance(pd.get("lean"), str):
                problem.meta = {**problem.meta, "lean": pd["lean"], "lean_name": pd.get("lean_name")}
                if isinstance(pd.get("lips_header"), bool):
                    problem.meta["lips_header"] = pd["lips_header"]
                problem.meta.update({k: pd[k] for k in DEFINITION_KEYS if pd.get(k)})
            roots = [Step.from_json(r) for r in d.get("parts", ())]
            return Proof(problem, Step.from_json(d["root"]), dict(d.get("meta", {})), raw=d, parts=roots)
        except (KeyError, TypeError) as exc:
            raise IRError(f"bad proof file: {exc}") from None

    @staticmethod
    def loads(text: str) -> Proof:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise IRError(f"not JSON: {exc}") from None
        return Proof.from_json(d)

