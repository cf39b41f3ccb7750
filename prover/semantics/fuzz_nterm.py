"""n-term fuzzing: random statements over ``n`` terms, read by the front-end and by Lean's rules.

A seeded generator (:class:`NTermGenerator`) writes :mod:`~prover.semantics.nterm` statements: one
natural number ``n`` with hypotheses on it (``0 < n``, ``n ≠ 0``, ``2 ≤ n``, ``n > 1`` … or none, so
that ``n = 0`` is possible), families ``Fin n → ℝ`` summed as ``∑ i, …`` / ``∑ i : Fin n, …`` or
``ℕ → ℝ`` summed as ``∑ i ∈ Finset.range n, …`` / ``∑ i in Finset.range n, …``, scalars, per-index
hypotheses (``∀ i,``, ``∀ i : Fin n,``, ``∀ i ∈ Finset.range n,``, conjunctions) and sum hypotheses,
heavy in traps: precedence (``∑ i, a i + 1``, ``c * ∑ i, a i ^ 2``, ``(∑ i, a i) ^ 2``,
``∑ i, a i / b i``, ``∑ i, -a i``, ``∑ i, (a i - b i)``, ``(∑ i, a i) * x``), casts (``n - 1`` and
``n / 2`` in a real comparison, ``(n : ℝ)``, ``2 * n``, ``(n - 1 : ℝ)``, ``((n - 1 : ℕ) : ℝ)``,
``√n``), bodies with ``√``, ``Real.sqrt``, ``⁻¹``, ``|…|``, ``a i / 0``, ``1 / (a i - a i)``,
``a i ^ (1 / 2)`` (a ℕ exponent: ``^ 0``), and a share (:data:`REFUSE_SHARE`) of statements the
front-end must refuse (:data:`REFUSAL_TRAPS`: ``n`` in an exponent, ℕ arithmetic in a ℕ comparison,
the index outside a family application, a free index, sums over two sets, nested sums, ``∏``,
``with``, ``∑ i < n``, a ℕ body, ``a i⁻¹``, ``√a i``, index arithmetic, a ℕ family over ``univ``, a
``Fin n`` family over ``Finset.range n``). Whether a statement must be refused is decided by
:func:`nterm.refusal` on the statement itself, not by the generator's intent.

:func:`check_nterm` hands each statement's text to the front-end. A refusal must be a one-line
ParseError; accepting a statement :func:`nterm.refusal` rejects is a misreading. An accepted
statement must carry ``problem.nterm.statement`` (a :class:`prover.kernel.sums.NTermStatement`); at
random points (``n ∈ {0, 1, 2, 3, 5}``, every value the ℕ hypotheses allow first, then now and then one
they exclude; families and scalars mostly satisfying the per-index and scalar hypotheses, values
sometimes equal across indices or all 1) it compares, with Lean's values from :class:`nterm.Evaluator`:

* (a) the per-index hypotheses: Lean's ``∀ i`` (all of them, at ``i < n``) against the front-end's
  ``index_hypotheses`` all true at every ``i < n`` (kernel terms over ``a`` for ``a i``, evaluated
  with :func:`lean_eval.eval_term`);
* (b) each other hypothesis (conjunctions split, in order) and the goal: Lean's truth against the
  front-end's ``statement`` relation at (scalars, ``n``, atoms), each atom the sum over ``i < n`` of its
  body at the family values of index ``i``; a relation is compared only where the per-index
  hypotheses and the earlier hypotheses hold in Lean.

An unbounded ``∀ i`` over a ``ℕ → ℝ`` family quantifies over every natural: the point also gives each
``ℕ → ℝ`` family values at :data:`EXTRA_INDICES` indices beyond ``n``, and Lean's hypothesis must hold
there too. The front-end's index hypotheses speak of ``i < n`` only (a weaker, sound reading), so (a)
compares the truths at ``i < n``; a point where the hypothesis fails only beyond ``n`` is outside
Lean's hypotheses (counted in ``beyond_range``, the later relations not compared).

Failures: opposite truth values (misreadings), accepted must-refuse statements, crashes (exceptions
other than ParseError, front-end readings that cannot be evaluated), multi-line errors and shape
mismatches (a wrong number of hypotheses, another ``n``, index set or no n-term reading). Disjoint
side values with agreeing truth values are side mismatches, not failures (the front-end may move
terms across a relation).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics import nterm as N
from prover.semantics.lean_ast import LExpr, LHyp, LRel
from prover.semantics.lean_eval import Enclosure, RelValue
from prover.semantics.nterm import Binder, IndexHyp, NPoint, NStatement, big, fam, nvar

#: values of ``n`` at which statements are compared
N_VALUES = (0, 1, 2, 3, 5)
#: values of a ``ℕ → ℝ`` family given beyond ``n`` (for an unbounded ``∀ i``)
EXTRA_INDICES = 2
#: the share of generated statements with a construct the front-end must refuse
REFUSE_SHARE = 0.22
FAMILY_SETS = (("a",), ("a",), ("a", "b"), ("a", "b"), ("x", "y"), ("u",), ("a", "b", "w"))
SCALAR_SETS = ((), (), (), ("c",), ("c",), ("t",), ("c", "d"))
INDEX_NAMES = ("i", "i", "i", "j", "k")
RELATIONS = ("≤", "<", "≥", ">", "=", "≠")
FAMILY_VALUES = tuple(Fraction(v) for v in (
    0, 1, 1, 1, 2, 3, "1/2", "1/3", "2/3", "1/4", 4, -1, -2, "-1/2", "3/2", 5, 9, "1/9", "5/4", 10, -3))
SCALAR_VALUES = tuple(Fraction(v) for v in (0, 1, 2, "1/2", 3, -1, "-1/2", 4, "1/3", -2, 9, "1/4"))
N_HYPOTHESES = (("<", "0", "n"), (">", "n", "0"), ("≠", "n", "0"), ("≤", "2", "n"), (">", "n", "1"),
                ("≤", "1", "n"), ("≥", "n", "3"), ("<", "1", "n"), ("≤", "n", "3"), ("≥", "n", "1"),
                ("≠", "0", "n"))
#: kinds of must-refuse constructs the generator plants (:meth:`NTermGenerator.refusal_trap`)
REFUSAL_TRAPS = ("n_exponent", "nat_arith", "index_value", "free_index", "two_sets", "nested", "prod",
                 "with", "lt", "nat_body", "inv_index", "sqrt_app", "index_arith", "domain")
#: the traps of :meth:`NTermGenerator.trap_in_body` (the others but ``nat_arith``: in the sum's form)
_BODY_TRAPS = ("n_exponent", "index_value", "free_index", "two_sets", "inv_index", "sqrt_app", "index_arith")


def _num(v: int | str) -> LExpr:
    return A.num(v)


def _p(kind: str, a: LExpr, b: LExpr) -> LExpr:
    return A.op2(kind, a, b)


@dataclass
class NTermGenerator:
    """Random n-term statements; ``statement(i)`` is reproducible per seed and index."""

    seed: int
    refuse_share: float = REFUSE_SHARE
    rng: random.Random = field(init=False)
    n: str = field(init=False, default="n")
    domain: str = field(init=False, default="fin")
    families: tuple[str, ...] = field(init=False, default=())
    scalars: tuple[str, ...] = field(init=False, default=())
    idx: str = field(init=False, default="i")

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- sums and bodies
    def style(self) -> str:
        r = self.rng.random()
        if self.domain == "fin":
            return "univ" if r < 0.7 else "fin"
        return "mem" if r < 0.75 else "in"

    def sum(self, body: LExpr | None = None, index: str | None = None, style: str | None = None) -> LExpr:
        saved = self.idx
        self.idx = index or self.index_name()
        try:
            st = style or self.style()
            if body is None:
                body = self.body(self.rng.randint(0, 2))
                if not N.contains(body, "fam") and (self.rng.random() < 0.6 or not N.is_real(body, {self.idx})):
                    body = _p(self.rng.choice(("mul", "add")), self.f(), body)
            if not N.contains(body, "fam") and st == "univ":
                st = "fin"   # `∑ i, c`: the index type is not determined (a Lean error)
            if self.rng.random() < 0.1 and body.kind not in ("paren",):
                body = A.op1("paren", body)   # redundant parentheses: `∑ i, (a i ^ 2)`
            return big(st, self.idx, N.UNIV if st == "univ" else nvar(self.n), body)
        finally:
            self.idx = saved

    def index_name(self) -> str:
        """A bound name; now and then a scalar's, which the binder shadows (``∑ c, a c``)."""
        if self.scalars and self.rng.random() < 0.05:
            return self.rng.choice(self.scalars)
        return self.rng.choice(INDEX_NAMES)

    def f(self, name: str | None = None) -> LExpr:
        return fam(name or self.rng.choice(self.families), A.var(self.idx))

    def scalar(self) -> LExpr:
        return A.var(self.rng.choice(self.scalars)) if self.scalars else _num(self.rng.choice(("2", "3")))

    def body_leaf(self) -> LExpr:
        r = self.rng.random()
        if r < 0.72:
            return self.f()
        if r < 0.82 and self.scalars:
            return self.scalar()
        if r < 0.9:
            return A.op1("cast", _num(self.rng.choice(("1", "2"))), "ℝ")
        return _num(self.rng.choice(("1", "2", "3", "0.5")))

    def body_trap(self) -> LExpr:
        f, g, rng = self.f(), self.f(), self.rng
        one = _num(1)
        traps: list[Callable[[], LExpr]] = [
            lambda: _p("pow", f, _num(2)),
            lambda: _p("div", f, g),
            lambda: A.op1("neg", f),
            lambda: _p("sub", f, g),
            lambda: _p("mul", f, g),
            lambda: A.op1("sqrt", f, "√"),
            lambda: A.op1("sqrt", f, "Real.sqrt"),
            lambda: A.op1("inv", f),
            lambda: A.op1("abs", f, "|"),
            lambda: _p("div", f, _num(0)),
            lambda: _p("div", one, _p("sub", f, f)),
            lambda: _p("pow", f, _p("div", one, _num(2))),                      # ℕ exponent: ^ 0
            lambda: _p("pow", f, A.op1("cast", _p("div", one, _num(2)), "ℝ")),  # rpow
            lambda: _p("div", one, _p("add", f, one)),
            lambda: _p("div", _p("pow", f, _num(2)), _p("add", g, one)),
            lambda: _p("mul", self.scalar(), f),
            lambda: _p("mul", A.op1("inv", _num(2)), f),
            lambda: _p("sub", _p("pow", f, _num(3)), f),
            lambda: _p("mul", _num("0.5"), f),
            lambda: _p("add", f, one),
            lambda: _p("mul", f, _p("add", g, one)),
            lambda: _p("pow", _p("sub", f, g), _num(2)),
            lambda: A.op1("sqrt", _p("pow", f, _num(2)), "√"),
            lambda: _p("div", f, f),
            lambda: _p("sub", _num(1), _p("div", _num(1), _num(2))),  # numerals only: made real below (1 - 1/2)
            lambda: _p("mul", f, _p("sub", _num(1), _num(2))),       # ℝ: 1 - 2 = -1
            lambda: _p("pow", f, _p("sub", _num(1), _num(2))),       # ℕ exponent: 1 - 2 = 0
            lambda: A.op1("neg", _p("pow", f, _num(2))),
            lambda: _p("mul", f, nvar(self.n)),                                  # n inside a body: ↑n
            lambda: _p("div", f, A.op1("cast", nvar(self.n), "ℝ")),
        ]
        out = rng.choice(traps)()
        if not N.is_real(out, {self.idx}):   # keep bodies real (a ℕ body is a refusal trap of its own)
            out = _p("mul", f, out)
        return out

    def body(self, depth: int) -> LExpr:
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            return self.body_leaf()
        if r < 0.65:
            return self.body_trap()
        kind = self.rng.choice(("add", "sub", "mul", "div", "mul", "pow"))
        if kind == "pow":
            return _p("pow", self.body(depth - 1), _num(self.rng.choice((2, 2, 3))))
        return _p(kind, self.body(depth - 1), self.body(depth - 1))

    # -- terms outside sums
    def n_leaf(self) -> LExpr:
        n, rng = nvar(self.n), self.rng
        choices: list[Callable[[], LExpr]] = [
            lambda: n, lambda: n,
            lambda: A.op1("cast", n, "ℝ"),
            lambda: _p("mul", _num(2), n),
            lambda: _p("sub", n, _num(1)),
            lambda: _p("div", n, _num(2)),
            lambda: A.op1("cast", _p("sub", n, _num(1)), "ℝ"),
            lambda: _p("pow", n, _num(2)),
            lambda: A.op1("sqrt", n, "√"),
            lambda: A.op1("neg", n),
            lambda: _p("mul", n, self.scalar()),
            lambda: _p("add", n, _num(1)),
            lambda: _p("div", _num(1), n),
            lambda: A.op1("cast", A.op1("cast", _p("sub", n, _num(1)), "ℕ"), "ℝ"),   # truncated: either
            lambda: _p("div", A.op1("cast", n, "ℝ"), _num(2)),
            lambda: _p("sub", _p("mul", _num(2), n), _num(1)),
            lambda: _p("div", _p("sub", n, _num(1)), _num(2)),
        ]
        return rng.choice(choices)()

    def outer_leaf(self) -> LExpr:
        r = self.rng.random()
        if r < 0.55:
            return self.sum()
        if r < 0.75:
            return self.n_leaf()
        if r < 0.85 and self.scalars:
            return self.scalar()
        return _num(self.rng.choice(("0", "1", "2", "3", "4")))

    def outer_trap(self) -> LExpr:
        rng = self.rng
        fa = self.families[0]
        fb = self.families[-1]

        def s(body: Callable[[], LExpr] | None = None) -> LExpr:
            if body is None:
                return self.sum()
            index = rng.choice(INDEX_NAMES)
            saved, self.idx = self.idx, index
            try:
                b = body()
            finally:
                self.idx = saved
            return self.sum(b, index)

        one = _num(1)
        traps: list[Callable[[], LExpr]] = [
            lambda: _p("add", s(lambda: self.f(fa)), one),                           # ∑ i, a i + 1
            lambda: s(lambda: _p("add", self.f(fa), one)),                           # ∑ i, (a i + 1)
            lambda: _p("mul", self.scalar(), s(lambda: _p("pow", self.f(fa), _num(2)))),  # c * ∑ i, a i ^ 2
            lambda: _p("pow", s(lambda: self.f(fa)), _num(2)),                       # (∑ i, a i) ^ 2
            lambda: s(lambda: _p("pow", self.f(fa), _num(2))),                       # ∑ i, a i ^ 2
            lambda: _p("div", s(lambda: self.f(fa)), s(lambda: self.f(fb))),         # (∑ a) / ∑ b
            lambda: _p("div", _p("pow", s(lambda: self.f(fa)), _num(2)), s(lambda: self.f(fb))),
            lambda: s(lambda: _p("div", _p("pow", self.f(fa), _num(2)), self.f(fb))),
            lambda: A.op1("sqrt", s(lambda: _p("pow", self.f(fa), _num(2))), "√"),
            lambda: A.op1("neg", s()),                                                # -∑ i, …
            lambda: s(lambda: A.op1("neg", self.f(fa))),                             # ∑ i, -a i
            lambda: s(lambda: _p("sub", self.f(fa), self.f(fb))),                    # ∑ i, (a i - b i)
            lambda: _p("sub", s(lambda: self.f(fa)), s(lambda: self.f(fb))),         # ∑ a - ∑ b
            lambda: s(lambda: _p("mul", self.f(fa), self.f(fb))),                    # ∑ i, a i * b i
            lambda: _p("mul", s(lambda: self.f(fa)), self.scalar()),                 # (∑ i, a i) * c
            lambda: _p("mul", _p("mul", self.scalar(), s()), self.scalar()),         # c * (∑ …) * d
            lambda: _p("sub", s(), self.n_leaf()),
            lambda: _p("mul", self.n_leaf(), s()),
            lambda: _p("div", one, s()),
            lambda: A.op1("inv", s()),
            lambda: s(lambda: _p("div", one, self.f(fa))),
            lambda: _p("mul", s(), s()),
            lambda: _p("sub", s(lambda: self.f(fa)), _num(1)),                       # ∑ i, a i - 1
            lambda: s(lambda: self.scalar() if self.scalars else A.op1("cast", _num(2), "ℝ")),  # ∑ i : Fin n, c
            lambda: A.op1("abs", s(), "|"),
            lambda: _p("div", s(), self.n_leaf()),
        ]
        return rng.choice(traps)()

    def outer(self, depth: int) -> LExpr:
        r = self.rng.random()
        if depth <= 0 or r < 0.4:
            return self.outer_leaf()
        if r < 0.75:
            return self.outer_trap()
        kind = self.rng.choice(("add", "sub", "mul", "div", "mul"))
        return _p(kind, self.outer(depth - 1), self.outer(depth - 1))

    # -- hypotheses
    def index_hyps(self) -> list[IndexHyp]:
        rng, out = self.rng, []
        parts_by_family: list[tuple[LRel, ...]] = []
        self.idx = rng.choice(INDEX_NAMES)
        for fname in self.families:
            if rng.random() >= 0.6:
                continue
            x, zero, one = self.f(fname), _num(0), _num(1)
            kind = rng.choice(("pos", "pos", "nonneg", "unit", "pos_unit", "nonzero", "ge1", "scalar", "body"))
            if kind == "pos":
                parts: tuple[LRel, ...] = (LRel("<", zero, x) if rng.random() < 0.6 else LRel(">", x, zero),)
            elif kind == "nonneg":
                parts = (LRel("≤", zero, x),)
            elif kind == "unit":
                parts = (LRel("≤", zero, x), LRel("≤", x, one))
            elif kind == "pos_unit":
                parts = (LRel("<", zero, x), LRel("<", x, one))
            elif kind == "nonzero":
                parts = (LRel("≠", x, zero),)
            elif kind == "ge1":
                parts = (LRel("≤", one, x),)
            elif kind == "scalar" and self.scalars:
                parts = (LRel("≤", x, self.scalar()),)
            else:
                side = self.body(1)
                if not N.contains(side, "fam"):
                    side = _p("mul", x, side)
                parts = (LRel(rng.choice(("≤", "<", "≥")), side, _num(rng.choice(("0", "1", "4")))),)
            parts_by_family.append(parts)
        while parts_by_family:
            take = 2 if len(parts_by_family) >= 2 and rng.random() < 0.3 else 1
            parts = tuple(r for ps in parts_by_family[:take] for r in ps)
            parts_by_family = parts_by_family[take:]
            index = _index_of(parts)
            r = rng.random()
            if self.domain == "fin":   # `∀ i ∈ Finset.range n` over a Fin family: a Lean error
                binder = "" if r < 0.57 else "fin" if r < 0.96 else "range"
            else:                      # `∀ i : Fin n, 0 < b i` over ℕ → ℝ: b ↑i, valid Lean
                binder = "range" if r < 0.66 else "" if r < 0.92 else "fin"
            if rng.random() < 0.04:    # n in a per-index hypothesis: valid Lean, outside the subset
                first = parts[0]
                parts = (LRel(first.op, first.lhs, _p("add", first.rhs, nvar(self.n))),) + parts[1:]
            out.append(IndexHyp(f"ha{len(out) + 1}", index, binder, parts,
                                None if binder == "" else nvar(self.n)))
        return out

    def n_hyps(self) -> list[LHyp]:
        rng = self.rng
        r = rng.random()
        count = 0 if r < 0.45 else 1 if r < 0.9 else 2
        out = []
        for k in range(count):
            op, lhs, rhs = rng.choice(N_HYPOTHESES)
            lhs_e, rhs_e = (nvar(self.n) if x == "n" else _num(x) for x in (lhs, rhs))
            out.append(LHyp(f"hn{'' if k == 0 else k}", (LRel(op, lhs_e, rhs_e),)))
        return out

    def scalar_hyps(self) -> list[LHyp]:
        out = []
        for s in self.scalars:
            if self.rng.random() < 0.5:
                op, bound = self.rng.choice((("<", "0"), ("≤", "0"), ("≤", "1"), ("≠", "0")))
                rel = LRel(op, _num(bound), A.var(s)) if op != "≠" else LRel("≠", A.var(s), _num(bound))
                out.append(LHyp(f"h{s}", (rel,)))
        return out

    def sum_hyps(self) -> list[LHyp]:
        rng = self.rng
        if rng.random() >= 0.45:
            return []
        fa = self.families[0]
        self.idx = "i"
        choices: list[Callable[[], LRel]] = [
            lambda: LRel("=", self.sum(self.f(fa), "i"), nvar(self.n)),
            lambda: LRel("=", self.sum(self.f(fa), "i"), _num(1)),
            lambda: LRel("≤", self.sum(self.f(fa), "i"), nvar(self.n)),
            lambda: LRel("=", self.sum(_p("pow", self.f(fa), _num(2)), "i"), nvar(self.n)),
            lambda: LRel("≥", self.sum(_p("mul", self.f(fa), self.f()), "i"), _num(0)),
            lambda: LRel(rng.choice(RELATIONS[:4]), self.outer(1), self.outer(0)),
            lambda: LRel("=", self.sum(self.f(fa), "i"), _p("mul", _num(2), nvar(self.n))),
        ]
        return [LHyp("hs", (rng.choice(choices)(),))]

    # -- statements
    def statement(self, index: int) -> tuple[NStatement, dict[str, str]]:
        """The ``index``-th statement and the name of the refusal trap planted in it (``{"trap": …}``;
        empty if none)."""
        rng = self.rng = random.Random(f"{self.seed}:{index}")
        self.n = "n" if rng.random() < 0.9 else "m"
        self.domain = "fin" if rng.random() < 0.55 else "nat"
        self.families = rng.choice(FAMILY_SETS)
        self.scalars = rng.choice(SCALAR_SETS)
        self.idx = "i"
        items: list[N.Item] = [Binder((self.n,), "ℕ")]
        n_hyps = self.n_hyps()
        fam_type = self.domain
        fam_binders = [Binder(self.families, fam_type, self.n if fam_type == "fin" else "")]
        if len(self.families) > 1 and rng.random() < 0.3:
            fam_binders = [Binder((x,), fam_type, self.n if fam_type == "fin" else "") for x in self.families]
        if rng.random() < 0.5:
            items += n_hyps + fam_binders
        else:
            items += fam_binders + n_hyps
        if self.scalars:
            items.append(Binder(self.scalars, "ℝ"))
            items += self.scalar_hyps()
        index_hyps = self.index_hyps()
        sum_hyps = self.sum_hyps()
        rest: list[N.Item] = [*index_hyps, *sum_hyps]
        if rng.random() < 0.3:
            rng.shuffle(rest)
        items += rest
        lhs = self.outer(rng.randint(1, 2))
        rhs = self.outer(rng.randint(0, 1)) if rng.random() < 0.6 else self.outer_leaf()
        if not any(e.kind == "sum" for side in (lhs, rhs) for e in N.subterms(side)):
            lhs = self.sum()
        op = rng.choices(RELATIONS, (4, 2, 4, 2, 1.5, 1))[0]
        if rng.random() < 0.5:
            lhs, rhs = rhs, lhs
        stmt = NStatement(f"nterm_{index}", tuple(items), LRel(op, lhs, rhs))
        info: dict[str, str] = {}
        if rng.random() < self.refuse_share:
            trap = rng.choice(REFUSAL_TRAPS)
            stmt = self.refusal_trap(stmt, trap)
            info["trap"] = trap
        return stmt, info

    def refusal_trap(self, stmt: NStatement, trap: str) -> NStatement:
        """``stmt`` with a construct the front-end must refuse (kind ``trap``, :data:`REFUSAL_TRAPS`)."""
        rng, n = self.rng, nvar(self.n)
        items = list(stmt.items)
        goal = stmt.goal
        self.idx = "i"
        fi = fam(self.families[0], A.var("i"))
        if trap == "nat_arith":
            rel = rng.choice((LRel(">", _p("sub", n, _num(1)), _num(0)), LRel("≥", _p("div", n, _num(2)), _num(1)),
                              LRel("≥", _p("mul", _num(2), n), _num(4)), LRel(">", _p("add", n, _num(1)), _num(1)),
                              LRel("≤", _num(1), _p("sub", n, _num(1)))))
            items.insert(1, LHyp("hn'", (rel,)))
            side = None
        elif trap in _BODY_TRAPS:
            side = self.trap_in_body(trap, fi, items)
        else:
            side = self.trap_in_sum_form(trap, fi)
        if side is not None:        # one side of the goal replaced, at random
            goal = LRel(goal.op, side, goal.rhs) if rng.random() < 0.5 else LRel(goal.op, goal.lhs, side)
        return NStatement(stmt.name, tuple(items), goal)

    def trap_sum(self, body: LExpr) -> LExpr:
        """``∑ i, body`` in a random style of the statement's domain."""
        st = self.style()
        return big(st, "i", N.UNIV if st == "univ" else nvar(self.n), body)

    def trap_in_body(self, trap: str, fi: LExpr, items: list[N.Item]) -> LExpr:
        """A goal side for a trap of :data:`_BODY_TRAPS` (``fi`` is ``a i``): the offending construct
        in or around a sum's body (``two_sets`` over ``Fin`` adds a family binder to ``items``)."""
        rng, n = self.rng, nvar(self.n)
        s = self.trap_sum
        if trap == "n_exponent":
            base = rng.choice((fi, self.scalar(), s(fi)))
            expo = n if rng.random() < 0.6 else A.op1("cast", n, "ℝ")
            return s(_p("pow", fi, expo)) if base is fi else _p("pow", base, expo)
        if trap == "index_value":
            body = rng.choice((A.op1("cast", A.var("i"), "ℝ"), _p("mul", fi, A.op1("cast", A.var("i"), "ℝ")),
                               _p("add", fi, A.var("i"))))
            return s(body)
        if trap == "free_index":
            other = fam(self.families[-1], A.var("i"))
            return _p(rng.choice(("sub", "add")), s(fi), other)     # ∑ i, a i - b i
        if trap == "two_sets":
            if self.domain == "nat":
                return _p("add", s(fi), big("mem", "i", _p("add", n, _num(1)), fi))
            items.append(Binder(("v",), "nat"))
            return _p("add", s(fi), big("mem", "i", n, fam("v", A.var("i"))))
        if trap == "inv_index":
            return s(fam(self.families[0], A.op1("inv", A.var("i"))))        # a i⁻¹
        if trap == "sqrt_app":
            return s(A.op1("sqrt", fi, "√bare"))                              # √a i
        return s(fam(self.families[0], _p("add", A.var("i"), _num(1))))     # index_arith: a (i + 1)

    def trap_in_sum_form(self, trap: str, fi: LExpr) -> LExpr | None:
        """A goal side for a trap in the big operator itself (``fi`` is ``a i``); None for an unknown
        ``trap``."""
        rng, n = self.rng, nvar(self.n)
        if trap == "nested":
            gj = fam(self.families[-1], A.var("j"))
            st = self.style()
            inner = big(st, "j", N.UNIV if st == "univ" else n, gj)
            return self.trap_sum(_p(rng.choice(("div", "mul")), fi, inner))     # ∑ i, a i / ∑ j, b j
        if trap == "prod":
            st = self.style()
            return big(st, "i", N.UNIV if st == "univ" else n, fi, "prod")
        if trap == "with":
            st = self.style()
            return big(st, "i", N.UNIV if st == "univ" else n, fi, filt=LRel("<", _num(0), fi))
        if trap == "lt":
            return big("lt", "i", n, fi)
        if trap == "nat_body":
            st = "fin" if self.domain == "fin" else self.style()
            return big(st, "i", n, rng.choice((_num(1), _p("add", _num(2), _num(1)), _p("sub", _num(2), _num(3)))))
        if trap == "domain":
            wrong = "univ" if self.domain == "nat" else "mem"                 # ∑ i, b i over ℕ; Fin family in range
            return big(wrong, "i", N.UNIV if wrong == "univ" else n, fi)
        return None


def _index_of(parts: tuple[LRel, ...]) -> str:
    for r in parts:
        for side in (r.lhs, r.rhs):
            for x in N.subterms(side):
                if x.kind == "fam" and x.args[0].kind == "var":
                    return x.args[0].value
    return "i"


# ---------------------------------------------------------------- points


def _draw(rng: random.Random, pool: tuple[Fraction, ...]) -> Fraction:
    r = rng.random()
    if r < 0.75:
        return rng.choice(pool)
    if r < 0.95:
        return Fraction(rng.randint(-6, 12), rng.randint(1, 5))
    return Fraction(rng.randint(0, 3)) + Fraction(rng.choice((-1, 1)), 10 ** rng.randint(2, 5))


def _n_only(stmt: NStatement) -> list[LRel]:
    """Outer hypotheses whose only leaves are ``n`` and numerals."""
    out = []
    for _, r in stmt.outer():
        nodes = [x for side in (r.lhs, r.rhs) for x in N.subterms(side)]
        if all(x.kind in ("nvar", "num", "add", "sub", "mul", "div", "cast", "paren", "pow", "neg") for x in nodes):
            out.append(r)
    return out


def _scalar_only(stmt: NStatement) -> list[LRel]:
    out = []
    for _, r in stmt.outer():
        nodes = [x for side in (r.lhs, r.rhs) for x in N.subterms(side)]
        if not any(x.kind in ("nvar", "sum", "prod", "fam") for x in nodes):
            out.append(r)
    return out


def _holds(ev: N.Evaluator, rels: list[LRel]) -> bool:
    try:
        return all(ev.rel(r).verdict is True for r in rels)
    except (A.LeanTypeError, KeyError, IndexError, ZeroDivisionError):
        return False


def points_for(stmt: NStatement, k: int, rng: random.Random) -> list[NPoint]:
    """Up to ``k`` points: every ``n`` of :data:`N_VALUES` the ℕ hypotheses allow first (shuffled, ``0``
    among them whenever allowed), then mostly allowed ones, now and then an excluded one; scalars
    mostly satisfying the scalar-only hypotheses, family values mostly satisfying the per-index
    hypotheses at each index (and beyond ``n`` for ``ℕ → ℝ`` families)."""
    fams = stmt.families
    scalars = stmt.scalars
    n_rels, s_rels = _n_only(stmt), _scalar_only(stmt)
    empty = NPoint(0, {f: () for f in fams}, {s: Fraction(0) for s in scalars})
    allowed = [v for v in N_VALUES
               if _holds(N.Evaluator(stmt, NPoint(v, empty.families, empty.scalars)), n_rels)]
    order = list(allowed)
    rng.shuffle(order)
    out: list[NPoint] = []
    for j in range(k):
        if j < len(order):
            n = order[j]
        elif allowed and rng.random() < 0.8:
            n = rng.choice(allowed)
        else:
            n = rng.choice(N_VALUES)
        out.append(_point(stmt, n, s_rels, rng))
    return out


def _point(stmt: NStatement, n: int, s_rels: list[LRel], rng: random.Random) -> NPoint:
    fams, scalars = stmt.families, stmt.scalars
    respect = rng.random() >= 0.1
    sv: dict[str, Fraction] = {}
    for _ in range(20):
        sv = {s: _draw(rng, SCALAR_VALUES) for s in scalars}
        probe = N.Evaluator(stmt, NPoint(n, {f: () for f in fams}, sv))
        if not respect or _holds(probe, s_rels):
            break
    sizes = {f: n + (EXTRA_INDICES if d == "nat" else 0) for f, d in fams.items()}
    width = max(sizes.values(), default=0)
    mode = rng.random()
    columns: list[dict[str, Fraction]] = []
    shared: dict[str, Fraction] | None = None
    for i in range(width):
        if mode < 0.15:
            col = {f: Fraction(1) for f in fams}
        elif mode < 0.4 and shared is not None:
            col = dict(shared)
        else:
            col = _column(stmt, n, i, sv, rng, respect)
        if shared is None:
            shared = col
        columns.append(col)
    values = {f: tuple(columns[i][f] for i in range(sizes[f])) for f in fams}
    return NPoint(n, values, sv)


def _column(stmt: NStatement, n: int, i: int, sv: dict[str, Fraction], rng: random.Random,
            respect: bool) -> dict[str, Fraction]:
    """Values of every family at index ``i``, mostly satisfying the per-index hypotheses there."""
    fams = stmt.families
    hyps = stmt.index_hypotheses
    col: dict[str, Fraction] = {}
    for _ in range(16):
        col = {f: _draw(rng, FAMILY_VALUES) for f in fams}
        if not respect or not hyps:
            break
        point = NPoint(i + 1, {f: (Fraction(0),) * i + (col[f],) for f in fams}, sv)
        ev = N.Evaluator(stmt, point)
        try:
            if all(ev.index_at(h, i, full=True) is True for h in hyps):
                break
        except (A.LeanTypeError, KeyError, IndexError):
            break
    return col


# ---------------------------------------------------------------- the differential check


@dataclass
class Misreading:
    index: int
    statement: str
    relation: str          # "∀ (index hypotheses)", a hypothesis name or "goal"
    point: dict[str, Any]
    lean: str
    frontend: str
    frontend_text: str
    unsound: bool          # Lean's hypothesis true but the front-end's false, or a goal false in Lean but not there


@dataclass
class NTermReport:
    seed: int
    statements: int = 0
    accepted: int = 0
    refused: int = 0
    must_refuse: int = 0
    refused_where_expected: int = 0
    accepted_must_refuse: list[str] = field(default_factory=list)
    pairs: int = 0
    empty_sum_pairs: int = 0          # pairs compared at n = 0
    n_pairs: Counter = field(default_factory=Counter)
    index_comparisons: int = 0
    comparisons: int = 0
    undecided: int = 0
    beyond_range: int = 0
    misreadings: list[Misreading] = field(default_factory=list)
    side_mismatches: list[Misreading] = field(default_factory=list)
    shape_mismatches: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    multi_line_errors: list[str] = field(default_factory=list)
    refusals: Counter = field(default_factory=Counter)
    must_refuse_categories: Counter = field(default_factory=Counter)
    refused_categories: Counter = field(default_factory=Counter)
    traps: Counter = field(default_factory=Counter)
    styles: Counter = field(default_factory=Counter)
    accepted_styles: Counter = field(default_factory=Counter)
    duration_s: float = 0.0

    @property
    def failures(self) -> int:
        return len(self.misreadings) + len(self.accepted_must_refuse) + len(self.crashes) + \
            len(self.multi_line_errors) + len(self.shape_mismatches)

    def to_json(self, max_examples: int = 200) -> dict[str, Any]:
        firsts: dict[tuple[int, str], Misreading] = {}
        for m in self.misreadings:
            firsts.setdefault((m.index, m.relation), m)
        sides: dict[tuple[int, str], Misreading] = {}
        for m in self.side_mismatches:
            sides.setdefault((m.index, m.relation), m)
        return {
            "seed": self.seed, "statements": self.statements, "accepted": self.accepted, "refused": self.refused,
            "must_refuse": self.must_refuse, "refused_where_expected": self.refused_where_expected,
            "accepted_must_refuse": len(self.accepted_must_refuse),
            "accepted_must_refuse_examples": self.accepted_must_refuse[:max_examples],
            "statement_point_pairs": self.pairs, "empty_sum_pairs": self.empty_sum_pairs,
            "pairs_by_n": {str(k): v for k, v in sorted(self.n_pairs.items())},
            "index_comparisons": self.index_comparisons, "comparisons": self.comparisons,
            "undecided": self.undecided, "beyond_range": self.beyond_range,
            "failures": self.failures, "misreadings": len(self.misreadings),
            "misreading_statements": len({k[0] for k in firsts}),
            "examples": [asdict(m) for m in list(firsts.values())[:max_examples]],
            "side_value_mismatches": len(self.side_mismatches),
            "side_value_mismatch_examples": [asdict(m) for m in list(sides.values())[:20]],
            "shape_mismatches": self.shape_mismatches[:max_examples],
            "crashes": self.crashes[:max_examples], "multi_line_errors": self.multi_line_errors[:max_examples],
            "must_refuse_by_category": dict(self.must_refuse_categories.most_common()),
            "refused_by_category": dict(self.refused_categories.most_common()),
            "planted_traps": dict(self.traps.most_common()),
            "statements_by_style": dict(self.styles.most_common()),
            "accepted_by_style": dict(self.accepted_styles.most_common()),
            "top_refusals": self.refusals.most_common(20), "duration_s": round(self.duration_s, 2),
        }


def _style(stmt: NStatement) -> str:
    styles = sorted({N.big_parts(e).style for e in N.sums_of(stmt)})
    return "+".join(styles) or "none"


def _show_rv(r: RelValue) -> str:
    return f"{r.lhs} {r.op} {r.rhs} -> {r.verdict}"


def _show_verdicts(in_range: bool | None, beyond: bool | None = None) -> str:
    return f"all i < n: {in_range}" + ("" if beyond is None else f"; beyond n: {beyond}")


def check_nterm(index: int, stmt: NStatement, info: dict[str, str], points: int, report: NTermReport,
                parse: Callable[[str], Any], time_limit: float = 20.0) -> None:
    """Parse one statement and compare the front-end's reading with Lean's values at points."""
    from prover.semantics.fuzz_frontend import _parse_statement

    text = N.show_statement(stmt)
    report.statements += 1
    style = _style(stmt)
    report.styles[style] += 1
    if "trap" in info:
        report.traps[info["trap"]] += 1
    why = N.refusal(stmt)
    if why is not None:
        report.must_refuse += 1
        report.must_refuse_categories[why.category] += 1
    tmp = _RefusalCounter()
    parsed, problem = _parse_statement(text, tmp, parse, time_limit)
    report.refused += tmp.refused
    report.refusals.update(tmp.refusals)
    report.crashes += tmp.crashes
    report.multi_line_errors += tmp.multi_line_errors
    if not parsed:
        if why is not None and tmp.refused:
            report.refused_where_expected += 1
            report.refused_categories[why.category] += 1
        return
    report.accepted += 1
    report.accepted_styles[style] += 1
    if why is not None:
        report.accepted_must_refuse.append(f"{text}  ==>  accepted; must refuse: {why}")
        return
    reading = getattr(getattr(problem, "nterm", None), "statement", None)
    if reading is None:
        report.shape_mismatches.append(f"{text}  ==>  accepted without an n-term reading")
        return
    shape = _shape(stmt, reading)
    if shape:
        report.shape_mismatches.append(f"{text}  ==>  {shape}")
        return
    rng = random.Random(f"points:{report.seed}:{index}")
    for point in points_for(stmt, points, rng):
        try:
            compared = _compare(index, text, stmt, reading, point, report)
        except (KeyError, TypeError, ValueError, IndexError, ArithmeticError) as exc:
            if isinstance(exc, L.Undecidable):
                continue
            who = "the reference evaluator (a fuzzer bug)" if isinstance(exc, A.LeanTypeError) else "evaluating it"
            report.crashes.append(f"{text}  ==>  at {point.to_json()}, {who}: {type(exc).__name__}: {exc}")
            return
        if compared:
            report.pairs += 1
            report.n_pairs[point.n] += 1
            report.empty_sum_pairs += point.n == 0


@dataclass
class _RefusalCounter:
    """The part of :class:`~prover.semantics.fuzz_frontend.FuzzReport` that its ``_parse_statement`` fills."""

    refused: int = 0
    refusals: Counter = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)
    multi_line_errors: list[str] = field(default_factory=list)


def _shape(stmt: NStatement, reading: Any) -> str:
    sums = N.sums_of(stmt)
    expected_set = "fin" if any(N.big_parts(e).style in ("univ", "fin") for e in sums) else "range"
    outer = stmt.outer()
    if reading.n != stmt.n:
        return f"n is {reading.n!r}, expected {stmt.n!r}"
    if sums and reading.index_set != expected_set:
        return f"index set {reading.index_set!r}, expected {expected_set!r}"
    if len(reading.statement.hypotheses) != len(outer):
        return f"{len(reading.statement.hypotheses)} hypotheses, expected {len(outer)} ({[n for n, _ in outer]})"
    if stmt.index_hypotheses and not reading.index_hypotheses:
        return "the per-index hypotheses were dropped"
    return ""


def _atom_values(reading: Any, point: NPoint) -> dict[str, Enclosure | None]:
    out: dict[str, Enclosure | None] = {}
    for name, body in reading.atoms:
        try:
            acc = L.ZERO
            for i in range(point.n):
                acc = L.add(acc, L.eval_term(body, _index_point(reading, point, i)))
            out[name] = acc
        except L.Undecidable:
            out[name] = None
    return out


def _index_point(reading: Any, point: NPoint, i: int) -> dict[str, Any]:
    env: dict[str, Any] = {f: point.families[f][i] for f in reading.families}
    env.update(point.scalars)
    env[reading.n] = Fraction(point.n)
    return env


def _term_rel(rel: Any, env: dict[str, Any]) -> RelValue:
    def side(t: Any) -> Enclosure | None:
        try:
            return L.eval_term(t, env)
        except L.Undecidable:
            return None
        except OverflowError:
            return None

    return RelValue(side(rel.lhs), rel.op, side(rel.rhs))


def _compare(index: int, text: str, stmt: NStatement, reading: Any, point: NPoint, report: NTermReport) -> bool:
    """Compare every relation at ``point``; True if any comparison was made."""
    ev = N.Evaluator(stmt, point)
    compared = False
    gate = True
    if stmt.index_hypotheses:
        verdicts = [ev.index_hypothesis(h) for h in stmt.index_hypotheses]
        lean_in = N._and([v.in_range for v in verdicts])
        beyond = N._and([v.beyond for v in verdicts if v.unbounded]) if any(v.unbounded for v in verdicts) else None
        fe = N._and([_term_rel(r, _index_point(reading, point, i)).verdict
                     for i in range(point.n) for r in reading.index_hypotheses])
        report.index_comparisons += 1
        compared = True
        if lean_in is None or fe is None:
            report.undecided += 1
        elif lean_in != fe:
            report.misreadings.append(Misreading(
                index, text, "∀ (index hypotheses)", point.to_json(), _show_verdicts(lean_in, beyond),
                _show_verdicts(fe), " ∧ ".join(r.show() for r in reading.index_hypotheses), unsound=lean_in is True))
        if lean_in is True and beyond is False:
            report.beyond_range += 1
        gate = lean_in is True and beyond is not False
    if not gate:
        return compared
    env: dict[str, Any] = dict(point.scalars)
    env[reading.n] = Fraction(point.n)
    env.update(_atom_values(reading, point))
    rels = list(stmt.outer()) + [("goal", stmt.goal)]
    fe_rels = list(reading.statement.hypotheses) + [reading.statement.goal]
    for k, ((name, rel), fe_rel) in enumerate(zip(rels, fe_rels)):
        lean = ev.rel(rel)
        other = _term_rel(fe_rel, env)
        report.comparisons += 1
        compared = True
        lv, ov = lean.verdict, other.verdict
        if lv is None or ov is None:
            report.undecided += 1
        is_goal = k == len(rels) - 1
        found = Misreading(index, text, name, point.to_json(), _show_rv(lean), _show_rv(other), fe_rel.show(),
                           unsound=lv is (not is_goal))
        if lv is not None and ov is not None and lv != ov:
            report.misreadings.append(found)
        elif any(a is not None and b is not None and not a.overlaps(b)
                 for a, b in ((lean.lhs, other.lhs), (lean.rhs, other.rhs))):
            report.side_mismatches.append(found)
        if lv is not True:
            break
    return compared


def run_nterm_fuzz(statements: int, points: int, seed: int = 0, *, parse: Callable[[str], Any] | None = None,
                   progress: Callable[[NTermReport], None] | None = None, progress_every: int = 100,
                   refuse_share: float = REFUSE_SHARE, time_budget: float | None = None) -> NTermReport:
    """Generate ``statements`` statements (seeded) and check each at up to ``points`` points; stop
    early after ``time_budget`` seconds."""
    if parse is None:
        from prover.frontend.statement import parse_theorem as parse
    gen = NTermGenerator(seed, refuse_share)
    report = NTermReport(seed)
    start = time.monotonic()
    for i in range(statements):
        stmt, info = gen.statement(i)
        check_nterm(i, stmt, info, points, report, parse)
        if progress is not None and (i + 1) % progress_every == 0:
            report.duration_s = time.monotonic() - start
            progress(report)
        if time_budget is not None and time.monotonic() - start > time_budget:
            break
    report.duration_s = time.monotonic() - start
    return report
