"""Front-end fidelity fuzzing: random Lean statements, evaluated at random points two ways.

A seeded generator (:class:`StatementGenerator`) builds :mod:`~prover.semantics.lean_ast`
statements over 1–3 real variables, heavy in the constructs where sympy's automatic
simplification is not Lean's meaning (roots of roots, powers of powers, ``x / x``,
``√x * √x``, ℕ-typed exponents, ``0`` in denominators). A share of them (:data:`DEFINITION_SHARE`
in :func:`run_fuzz`) also declares one or two functions by an equation ``(h : ∀ x, f x = E)`` and
applies them (nested, to numeral quotients such as ``f (1 / 3)``, to traps). With ``exp_log`` (the
``--exp-log`` option) generated subterms are also wrapped in ``Real.exp (…)``/``Real.log (…)``, with the
traps of Lean's application grammar and of Mathlib's values (``Real.exp x ^ 2``, ``Real.log x⁻¹``,
``Real.exp (Real.log x)``, ``Real.log (-2)``, ``Real.log 0``, ``Real.log (x * y)``, nesting; see
:meth:`StatementGenerator.exp_log_term`). With ``logb`` (the ``--logb`` option) generated subterms ``t``
also become ``Real.logb B t``, ``B`` mostly a small positive numeral (``2``, ``10``, ``1 / 2``, ``2⁻¹``),
sometimes a variable, ``1``, ``0`` or a negative numeral, with the traps of the application grammar
(``Real.logb B t ^ 2``, ``Real.logb B x⁻¹``, ``-Real.logb B t``) and of the definition
``Real.log t / Real.log B`` (``Real.logb x x``, a base 1, 0 or ``-2``, nesting in either argument; see
:meth:`StatementGenerator.logb_term`). With ``pi`` (the ``--pi`` option) a constant leaf becomes Mathlib's
``Real.pi`` (now and then ``_root_.Real.pi`` or ``(Real.pi)``; the statements are bare, read with no ``open``,
so the token ``π`` is left to the file-context fuzzer), alone or in a trap: ``Real.pi ^ 2``, ``-Real.pi``,
``Real.pi⁻¹``, ``2 * Real.pi``, ``Real.pi / 2``, ``22 / 7 - Real.pi`` (real division: π makes the numeral tree
real), ``Real.pi / Real.pi``, ``x ^ Real.pi`` (an irrational real power: ``cos (π · π)`` at a negative base),
and those inside ``√``, ``|…|``, ``Real.exp``, ``Real.log`` (see :meth:`StatementGenerator.pi_term`). Each
statement is printed to Lean text
and handed to the front-end (``parse_theorem``); it may refuse it (a one-line ParseError is
fine). If it accepts, at random points (0, negatives, perfect powers, values near 0 and 1,
mostly respecting the sign hypotheses) every relation is compared, wherever the earlier
hypotheses hold in Lean:

* ``sympy``: the form the search uses (``problem.goal``, ``problem.hypotheses[i].rel``), read
  by the kernel's ``parse_term`` and evaluated with :func:`lean_eval.eval_term`;
* ``faithful``: ``problem.faithful`` (kernel terms), when the front-end provides it;

against the generator's own AST evaluated with Lean semantics. Failures: opposite truth values
of a relation (the front-end accepted a statement whose meaning it changed), and for the
faithful form also disjoint side values (it must be Lean's term, side by side). A sympy side
whose value differs while the relation's truth value agrees (``√x ^ 2 > c + √x ^ 2`` read as
``x > c``) is recorded as a side mismatch, not a failure.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

from prover.semantics import lean_ast as A
from prover.semantics.lean_ast import LDef, LExpr, LFun, LHyp, LRel, LStatement
from prover.semantics.lean_eval import RelValue, eval_term

# ---------------------------------------------------------------- generator

VARIABLE_SETS = (("x",), ("x",), ("x", "y"), ("a", "b"), ("x", "y", "z"), ("a", "b", "c"))
EXPONENTS = ((1, 2), (1, 3), (2, 3), (3, 2), (-1, 2), (1, 4), (4, 3), (-2, 3), (5, 2), (3, 4),
             (2, 1), (3, 1), (-1, 1), (0, 1), (1, 6), (-1, 3), (5, 3))
NUMERALS = ("0", "0", "1", "1", "2", "3", "4", "0.5", "9")
SIGNS = ("nonneg", "pos", "nonzero", "nonpos", "neg")
#: a sign hypothesis ``0 < v`` … as the one-sided interval it is by definition
SIGN_INTERVALS = {("<", "lo"): "Set.Ioi", ("≤", "lo"): "Set.Ici", ("<", "hi"): "Set.Iio", ("≤", "hi"): "Set.Iic"}
#: the share of :func:`run_fuzz`'s statements that define functions (a generator's default is 0)
DEFINITION_SHARE = 0.25
#: the chance that :func:`run_fuzz`'s generator wraps a generated subterm in an absolute value
#: (``|e|`` or ``abs e``; a generator's default is 0). The choice is drawn from a random stream
#: of its own, so the statements are those a generator without absolute values makes, wrapped.
ABS_SHARE = 0.08
FUNCTION_NAMES = ("f", "g")
#: an argument of ``Real.exp`` is used as generated only up to this many nodes (bigger ones are
#: replaced by a small argument): ``exp`` of a value beyond ``lean_eval.EXP_LIMIT`` is undecidable
EXP_ARGUMENT_NODES = 6
#: parameter names of a definition by arity ("@" stands for a theorem variable: shadowing)
PARAMS = {1: (("x",), ("t",), ("@",), ("@",)), 2: (("x", "y"), ("u", "v"), ("y", "x"), ("@", "t"))}


def _r(p: int, q: int, form: int) -> LExpr:
    """The real exponent ``p/q`` written one of several Lean ways."""
    mag = A.num(abs(p))
    top = A.op1("neg", mag) if p < 0 else mag
    if q == 1:
        return A.op1("cast", top, "ℝ")                                   # (p : ℝ)
    if form == 0:
        return A.op1("cast", A.op2("div", top, A.num(q)), "ℝ")           # (p / q : ℝ)
    if form == 1:
        cast = A.op1("cast", mag, "ℝ")
        return A.op2("div", A.op1("neg", cast) if p < 0 else cast, A.num(q))  # (p : ℝ) / q
    return A.op2("div", top, A.op1("cast", A.num(q), "ℝ"))             # p / (q : ℝ)


@dataclass
class StatementGenerator:
    """Random statements from one ``random.Random``; ``statement(i)`` is reproducible per seed."""

    seed: int
    max_depth: int = 3
    #: the share of statements that define functions: chosen per index by a generator of its
    #: own, so the other statements are those a generator without definitions makes
    definitions: float = 0.0
    #: the chance that a generated subterm is wrapped in an absolute value (:data:`ABS_SHARE`)
    absolute: float = 0.0
    #: the chance that a generated subterm becomes ``max e v`` / ``min e v`` (its own stream too)
    max_min: float = 0.0
    #: the chance that a generated subterm is wrapped in ``Real.exp``/``Real.log`` (a stream of its
    #: own, reset per statement: ``statement(i)`` alone gives the same statement)
    exp_log: float = 0.0
    #: the chance that a generated subterm ``t`` becomes ``Real.logb B t`` (a stream of its own, reset
    #: per statement)
    logb: float = 0.0
    #: the chance that a constant leaf becomes ``Real.pi`` or a trap with it (a stream of its own, reset per
    #: statement; the leaf's own draws are made as without it)
    pi: float = 0.0
    rng: random.Random = field(init=False)
    abs_rng: random.Random = field(init=False)
    max_min_rng: random.Random = field(init=False)
    exp_log_rng: random.Random = field(init=False)
    logb_rng: random.Random = field(init=False)
    pi_rng: random.Random = field(init=False)
    variables: tuple[str, ...] = field(init=False, default=())
    functions: tuple[LFun, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.abs_rng = random.Random(f"{self.seed}:abs")
        self.max_min_rng = random.Random(f"{self.seed}:max_min")
        self.exp_log_rng = random.Random(f"{self.seed}:exp_log")
        self.logb_rng = random.Random(f"{self.seed}:logb")
        self.pi_rng = random.Random(f"{self.seed}:pi")

    # -- expressions
    def rexp(self, p: int | None = None, q: int | None = None) -> LExpr:
        if p is None or q is None:
            p, q = self.rng.choice(EXPONENTS)
        return _r(p, q, self.rng.randrange(3))

    def leaf(self) -> LExpr:
        if self.rng.random() < 0.68:
            return A.var(self.rng.choice(self.variables))
        if self.rng.random() < 0.15:
            out = A.op2("div", A.num(self.rng.randint(1, 3)), A.num(self.rng.randint(2, 4)))
        else:
            out = A.num(self.rng.choice(NUMERALS))
        if self.pi and self.variables and self.pi_rng.random() < self.pi:
            return self.pi_term()
        return out

    def small(self) -> LExpr:
        """An argument for a trap: a variable most of the time."""
        r = self.rng.random()
        v = A.var(self.rng.choice(self.variables))
        if r < 0.6:
            return v
        if r < 0.7:
            return A.op1("neg", v)
        if r < 0.8:
            return A.op2("sub", v, A.num(self.rng.choice(("1", "2"))))
        if r < 0.9:
            return A.op2("mul", v, A.var(self.rng.choice(self.variables)))
        return A.op2("add", v, A.var(self.rng.choice(self.variables)))

    def trap(self) -> LExpr:
        e, f = self.small(), self.small()
        sq = self.sqrt
        p = A.op2
        choices: list[Callable[[], LExpr]] = [
            lambda: p("pow", p("pow", e, self.rexp(2, 3)), self.rexp(3, 2)),
            lambda: sq(sq(e)),
            lambda: sq(p("pow", p("pow", e, self.rexp(1, 3)), A.num(3))),
            lambda: p("pow", p("mul", sq(e), sq(e)), self.rexp(1, 3)),
            lambda: p("div", e, e),
            lambda: p("mul", sq(e), sq(e)),
            lambda: p("mul", e, A.op1("inv", e)),
            lambda: p("pow", p("pow", e, A.num(2)), self.rexp(1, 2)),
            lambda: sq(p("pow", e, A.num(2))),
            lambda: p("pow", p("pow", e, self.rexp(1, 3)), A.num(3)),
            lambda: p("pow", sq(e), A.num(2)),
            lambda: p("mul", p("pow", e, self.rexp(1, 2)), p("pow", e, self.rexp(1, 2))),
            lambda: p("mul", p("pow", e, self.rexp(1, 3)), p("pow", e, self.rexp(2, 3))),
            lambda: p("div", p("mul", e, f), f),
            lambda: p("mul", sq(e), sq(f)),
            lambda: sq(p("mul", e, f)),
            lambda: p("pow", p("pow", e, self.rexp(3, 1)), self.rexp(1, 3)),
            lambda: p("mul", p("pow", e, self.rexp()), p("pow", e, self.rexp())),
            lambda: p("div", p("pow", e, self.rexp()), p("pow", e, self.rexp())),
            lambda: p("pow", A.op1("inv", e), self.rexp(1, 2)),
            lambda: p("pow", p("pow", e, self.rexp()), self.rexp()),
            lambda: p("pow", p("mul", e, f), self.rexp(1, 3)),
            lambda: p("pow", p("pow", e, A.num(2)), self.rexp(1, 4)),
            lambda: p("div", sq(e), sq(e)),
            lambda: p("pow", e, p("div", A.num(1), A.num(self.rng.choice((2, 3))))),  # ℕ: x ^ 0
            lambda: p("pow", e, p("sub", A.num(1), A.num(2))),                          # ℕ: x ^ 0
            lambda: p("pow", e, A.num(0)),
            lambda: p("pow", A.op1("cast", A.num(0), "ℝ"), self.rexp()),
            lambda: p("div", A.num(1), p("sub", e, e)),
            lambda: p("mul", p("pow", e, self.rexp(1, 3)), p("pow", f, self.rexp(1, 3))),
            lambda: p("pow", e, A.var(self.rng.choice(self.variables))),
            # variable exponents: sympy merges x^y·x^z into x^(y+z), wrong at x ≤ 0
            lambda: p("mul", p("pow", e, self.yvar()), p("pow", e, self.yvar())),
            lambda: p("mul", p("pow", e, self.yvar()), e),
            lambda: p("div", p("pow", e, self.yvar()), p("pow", e, self.yvar())),
            lambda: p("pow", p("pow", e, self.yvar()), A.num(2)),
            lambda: p("pow", p("pow", e, A.num(2)), self.yvar()),
            lambda: p("pow", e, p("add", self.yvar(), A.num(1))),
            # numeric bases
            lambda: p("pow", A.op1("cast", A.num(self.rng.choice((0, 2, 4, 8))), "ℝ"), self.rexp()),
            lambda: p("pow", A.op1("cast", A.num(self.rng.choice((2, 4))), "ℝ"), self.yvar()),
            lambda: p("mul", p("pow", A.op1("cast", A.num(2), "ℝ"), self.yvar()),
                      p("pow", A.op1("cast", A.num(2), "ℝ"), self.yvar())),
            lambda: p("pow", p("pow", e, A.num(3)), self.rexp(1, 3)),
            lambda: p("pow", p("pow", e, A.num(2)), self.rexp(1, 3)),
        ]
        return self.rng.choice(choices)()

    def yvar(self) -> LExpr:
        """A variable used as a real exponent."""
        return A.var(self.rng.choice(self.variables))

    def sqrt(self, e: LExpr) -> LExpr:
        return A.op1("sqrt", e, "√" if self.rng.random() < 0.7 else "Real.sqrt")

    def expr(self, depth: int) -> LExpr:
        e = self._with_logb(self._with_exp_log(self._with_max_min(self._expr(depth))))
        if self.absolute and self.abs_rng.random() < self.absolute:
            r = self.abs_rng.random()   # traps: |e| next to -, ^ 2, √(e ^ 2) and a nested bar
            if r < 0.1:
                return A.op1("neg", A.op1("abs", e, "|"))
            if r < 0.2:
                return A.op2("pow", A.op1("abs", e, "|"), A.num(self.abs_rng.choice((2, 3))))
            if r < 0.3:
                return A.op2("sub", A.op1("abs", A.op1("abs", e, "|"), "|"), A.num(1))
            return A.op1("abs", e, "|" if r < 0.8 else "abs")
        return e

    def _with_max_min(self, e: LExpr) -> LExpr:
        """``e`` as an argument of ``max``/``min`` with chance :attr:`max_min`, the other argument a
        variable or a numeral (``-1`` parenthesised), in either order; traps: the application next
        to ``^``, ``-`` and nested."""
        r = self.max_min_rng
        if not self.max_min or not self.variables or r.random() >= self.max_min:
            return e
        other = A.var(r.choice(self.variables)) if r.random() < 0.6 else \
            r.choice((A.num(r.randint(0, 3)), A.op1("paren", A.op1("neg", A.num(1)))))
        kind = r.choice(("max", "min"))
        args = (e, other) if r.random() < 0.5 else (other, e)
        out = A.op2(kind, *args)
        t = r.random()
        if t < 0.15:
            return A.op2("pow", out, A.num(2))
        if t < 0.25:
            return A.op1("neg", out)
        if t < 0.35:
            return A.op2("max" if kind == "min" else "min", out, A.num(1))
        return out

    def _with_exp_log(self, e: LExpr) -> LExpr:
        """``e`` inside ``Real.exp``/``Real.log`` (maybe a trap around it) with chance :attr:`exp_log`."""
        if not self.exp_log or not self.variables or self.exp_log_rng.random() >= self.exp_log:
            return e
        return self.exp_log_term(e)

    def exp_arg(self, e: LExpr) -> LExpr:
        """``e`` as the argument of ``Real.exp`` if it is small, else a small argument (so that the
        value stays in range: :data:`EXP_ARGUMENT_NODES`)."""
        r = self.exp_log_rng
        if sum(1 for _ in A.subterms(e)) <= EXP_ARGUMENT_NODES:
            return e
        v = A.var(r.choice(self.variables))
        return r.choice((v, A.op1("neg", v), A.op2("sub", v, A.num(1)), A.op2("mul", A.num(2), v),
                         A.op2("mul", v, A.var(r.choice(self.variables))), A.op2("div", A.num(1), A.num(3)),
                         A.op2("sub", A.num(1), A.num(3)), A.op1("inv", v)))

    def exp_log_term(self, e: LExpr) -> LExpr:
        """``Real.exp e`` or ``Real.log e``, or one of the traps: the application next to ``^``,
        ``⁻¹``, ``-``; ``exp``∘``log`` and ``log``∘``exp``; ``log`` of negative numerals, of 0, of
        products and quotients, of powers; nested applications."""
        r = self.exp_log_rng
        v = A.var(r.choice(self.variables))
        ex, lg = (lambda t: A.exp_log("exp", self.exp_arg(t))), (lambda t: A.exp_log("log", t))
        traps: tuple[Callable[[], LExpr], ...] = (
            lambda: ex(e), lambda: ex(e), lambda: lg(e), lambda: lg(e),
            lambda: A.op2("pow", ex(e), A.num(r.choice((2, 3)))),           # (Real.exp e) ^ 2
            lambda: A.op2("pow", lg(e), A.num(2)),
            lambda: lg(A.op1("inv", v)),                                       # Real.log x⁻¹
            lambda: ex(A.op1("inv", v)),
            lambda: A.exp_log("exp", lg(e)), lambda: lg(ex(e)),                # exp ∘ log, log ∘ exp
            lambda: lg(r.choice((A.op1("neg", A.num(r.randint(1, 4))), A.num(0), A.num(1),
                                 A.op2("sub", A.num(1), A.num(3)), A.op2("div", A.num(1), A.num(2))))),
            lambda: lg(A.op2(r.choice(("mul", "div")), v, A.var(r.choice(self.variables)))),
            lambda: lg(A.op2("pow", v, A.num(r.choice((2, 3))))),
            lambda: lg(A.op1("neg", v)), lambda: A.op1("neg", lg(e)),
            lambda: lg(lg(e)), lambda: ex(ex(A.op1("neg", v))),              # nested
            lambda: A.op2("sub", ex(v), ex(A.op1("neg", v))),
        )
        return r.choice(traps)()

    def _with_logb(self, e: LExpr) -> LExpr:
        """``e`` as the argument of ``Real.logb`` (maybe a trap around it) with chance :attr:`logb`."""
        if not self.logb or not self.variables or self.logb_rng.random() >= self.logb:
            return e
        return self.logb_term(e)

    def logb_base(self) -> LExpr:
        """A base: mostly a small positive numeral (``1 / 2`` and ``2⁻¹`` are real at ``Real.logb``'s
        ℝ argument), sometimes a variable, ``1``, ``0`` (``Real.log`` of them is 0: the value is 0) or a
        negative numeral (``Real.log (-2) = Real.log 2``)."""
        r = self.logb_rng
        t = r.random()
        if t < 0.5:
            return A.num(r.choice(("2", "2", "3", "10", "4", "8")))
        if t < 0.6:
            return A.op2("div", A.num(1), A.num(r.choice((2, 3))))
        if t < 0.65:
            return A.op1("inv", A.num(2))
        if t < 0.68:
            return A.num("0.5")
        if t < 0.82:
            return A.var(r.choice(self.variables))
        if t < 0.9:
            return A.num(r.choice(("1", "0")))
        return A.op1("neg", A.num(r.choice(("2", "3", "1"))))

    def logb_term(self, e: LExpr) -> LExpr:
        """``Real.logb B e`` or one of the traps: the application next to ``^``, ``⁻¹`` (on either
        argument), ``-``; ``Real.logb t t`` and ``Real.logb x y * Real.logb y x`` (1 only where no
        logarithm is 0); arguments 0, 1, negative, products, quotients, powers; nesting in the argument
        and in the base; ``Real.logb B (Real.exp t)``."""
        r = self.logb_rng
        v, w = A.var(r.choice(self.variables)), A.var(r.choice(self.variables))

        def lb(t: LExpr) -> LExpr:
            return A.logb(self.logb_base(), t)

        traps: tuple[Callable[[], LExpr], ...] = (
            lambda: lb(e), lambda: lb(e), lambda: lb(e), lambda: lb(e),
            lambda: A.op2("pow", lb(e), A.num(r.choice((2, 3)))),            # (Real.logb B e) ^ 2
            lambda: lb(A.op1("inv", v)),                                       # Real.logb B (x⁻¹)
            lambda: A.logb(A.op1("inv", r.choice((A.num(2), v))), e),           # Real.logb (2⁻¹) e
            lambda: A.op1("neg", lb(e)), lambda: A.op2("sub", A.num(1), lb(e)),
            lambda: A.logb(e, e), lambda: A.logb(v, v),                         # 1, or 0 at {0, ±1}
            lambda: A.op2("mul", A.logb(v, w), A.logb(w, v)),
            lambda: lb(r.choice((A.num(0), A.num(1), A.num(8), A.op1("neg", A.num(8)),
                                 A.op2("div", A.num(1), A.num(4)), A.op2("sub", A.num(1), A.num(9))))),
            lambda: lb(A.op2(r.choice(("mul", "div")), v, w)),
            lambda: lb(A.op2("pow", v, A.num(r.choice((2, 3))))),
            lambda: A.logb(A.op2("pow", self.logb_base(), A.num(2)), e),        # Real.logb (B ^ 2) e
            lambda: lb(lb(e)), lambda: A.logb(lb(v), e),                        # nested
            lambda: lb(A.exp_log("exp", r.choice((v, A.op1("neg", v), A.num(2))))),
        )
        return r.choice(traps)()

    def pi_node(self) -> LExpr:
        """``Real.pi``; now and then ``_root_.Real.pi`` or parenthesised (an argument Lean reads either way)."""
        t = self.pi_rng.random()
        node = A.real_pi("_root_.Real.pi" if t < 0.08 else A.PI)
        return A.op1("paren", node) if t > 0.85 else node

    def pi_arithmetic(self) -> LExpr:
        """``Real.pi`` alone or in the arithmetic traps: ``^ 2``, ``-``, ``⁻¹``, ``2 *``, ``/ 2``, ``- 3``,
        ``22 / 7 -`` (real division: 22/7 − π is about 0.00126), ``Real.pi / Real.pi``."""
        r, p = self.pi_rng, self.pi_node()
        traps: tuple[Callable[[], LExpr], ...] = (
            lambda: p, lambda: p, lambda: p,
            lambda: A.op2("pow", p, A.num(r.choice((2, 3)))),                       # Real.pi ^ 2
            lambda: A.op1("neg", p),                                                 # -Real.pi
            lambda: A.op1("inv", p),                                                 # Real.pi⁻¹
            lambda: A.op2("mul", A.num(r.choice((2, 4))), p),                        # 2 * Real.pi
            lambda: A.op2("div", p, A.num(r.choice((2, 3, 4, 6)))),                  # Real.pi / 2
            lambda: A.op2("sub", p, A.num(3)),                                       # 0.14159…
            lambda: A.op2("sub", A.op2("div", A.num(22), A.num(7)), p),              # 0.00126…
            lambda: A.op2("sub", A.op2("div", A.num(7), A.num(2)), p),               # 7 / 2 at ℝ, not 3
            lambda: A.op2("div", p, self.pi_node()),                                 # 1
        )
        return r.choice(traps)()

    def pi_term(self) -> LExpr:
        """A constant leaf as ``Real.pi``: an arithmetic trap (:meth:`pi_arithmetic`), alone or inside ``√``,
        ``|…|``, ``Real.exp``, ``Real.log``; or a variable to the power ``Real.pi``, ``Real.pi`` to a real
        power, ``|x - Real.pi|``."""
        r = self.pi_rng
        inner = self.pi_arithmetic
        v = A.var(r.choice(self.variables))
        traps: tuple[Callable[[], LExpr], ...] = (
            inner, inner, inner, inner, inner, inner,
            lambda: A.op1("sqrt", inner(), "√" if r.random() < 0.7 else "Real.sqrt"),
            lambda: A.op1("abs", inner(), "|" if r.random() < 0.8 else "abs"),
            lambda: A.exp_log("exp", inner()), lambda: A.exp_log("log", inner()),
            lambda: A.op2("pow", v, self.pi_node()),                                  # x ^ Real.pi
            lambda: A.op2("pow", self.pi_node(), _r(*r.choice(((1, 2), (-1, 2), (2, 3))), r.randrange(3))),
            lambda: A.op1("abs", A.op2("sub", v, self.pi_node()), "|"),             # |x - Real.pi|
        )
        return r.choice(traps)()

    def _expr(self, depth: int) -> LExpr:
        if depth <= 0:
            return self.leaf()
        kinds = ("add", "sub", "mul", "div", "neg", "inv", "sqrt", "npow", "rpow", "trap", "leaf", "paren")
        weights = (3, 3, 3, 2.5, 0.8, 1.2, 2.5, 1.5, 2.5, 3.0, 1.5, 0.4)
        k = self.rng.choices(kinds, weights)[0]
        d = depth - 1
        if k in ("add", "sub", "mul", "div"):
            return A.op2(k, self.expr(d), self.expr(self.rng.randint(0, d)))
        if k in ("neg", "inv"):
            return A.op1(k, self.expr(d))
        if k == "sqrt":
            return self.sqrt(self.expr(d))
        if k == "npow":
            return A.op2("pow", self.expr(d), A.num(self.rng.choice((0, 1, 2, 2, 3, 4))))
        if k == "rpow":
            return A.op2("pow", self.expr(d), self.rexp())
        if k == "trap":
            return self.trap()
        if k == "paren":
            return A.op1("paren", self.expr(d))
        return self.leaf()

    # -- statements
    def sign_hyp(self, v: str, sign: str) -> LRel:
        x, zero = A.var(v), A.num(0)
        flip = self.rng.random() < 0.3
        if sign == "nonneg":
            return LRel("≥", x, zero) if flip else LRel("≤", zero, x)
        if sign == "pos":
            return LRel(">", x, zero) if flip else LRel("<", zero, x)
        if sign == "nonzero":
            return LRel("≠", x, zero)
        if sign == "nonpos":
            return LRel("≤", x, zero)
        return LRel("<", x, zero)

    def memberships(self, hyps: list[LHyp]) -> list[LHyp]:
        """Interval memberships: some one-variable sign hypotheses written as ``v ∈ Set.Ioi 0`` …,
        and maybe one more ``e ∈ Set.Icc a b`` (any interval, bounds possibly swapped or traps)."""
        rng, out = self.rng, []
        for h in hyps:
            r = h.parts[0] if len(h.parts) == 1 else None
            if r is not None and rng.random() < 0.5 and r.op in ("<", "≤", ">", "≥"):
                lhs, op, rhs = (r.lhs, r.op, r.rhs) if r.op in ("<", "≤") else (r.rhs, {">": "<", "≥": "≤"}[r.op], r.lhs)
                if rhs.kind == "var" and lhs.kind == "num":
                    h = A.membership_hyp(h.name, A.LMem(SIGN_INTERVALS[(op, "lo")], rhs, (lhs,)))
                elif lhs.kind == "var" and rhs.kind == "num":
                    h = A.membership_hyp(h.name, A.LMem(SIGN_INTERVALS[(op, "hi")], lhs, (rhs,)))
            out.append(h)
        if rng.random() < 0.6:
            kind = rng.choice(sorted(A.INTERVALS))
            element = A.var(rng.choice(self.variables)) if rng.random() < 0.7 else self.expr(1)
            bounds = tuple(self.leaf() if rng.random() < 0.7 else self.small() for _ in A.INTERVALS[kind])
            name = f"h{len(out) + 1}"
            while any(x.name == name for x in out):
                name += "'"
            out.insert(rng.randint(0, len(out)), A.membership_hyp(name, A.LMem(f"Set.{kind}", element, bounds)))
        return out

    def statement(self, index: int) -> tuple[LStatement, dict[str, str]]:
        """The ``index``-th statement and the intended sign of each variable (a sampling hint)."""
        stmt, signs = self.plain_statement(index)
        if self.definitions and random.Random(f"{self.seed}:{index}:definitions").random() < self.definitions:
            stmt = self.with_definitions(stmt)
        return stmt, signs

    def plain_statement(self, index: int) -> tuple[LStatement, dict[str, str]]:
        """The ``index``-th statement without function variables, and the sign hints."""
        rng = self.rng = random.Random(f"{self.seed}:{index}")
        self.exp_log_rng = random.Random(f"{self.seed}:{index}:exp_log")
        self.logb_rng = random.Random(f"{self.seed}:{index}:logb")
        self.pi_rng = random.Random(f"{self.seed}:{index}:pi")
        self.variables = rng.choice(VARIABLE_SETS)
        signs: dict[str, str] = {}
        hyps: list[LHyp] = []
        for v in self.variables:
            r = rng.random()
            if r < 0.62:
                signs[v] = rng.choices(SIGNS, (3, 3, 1, 0.4, 0.4))[0]
        rels = [self.sign_hyp(v, s) for v, s in signs.items()]
        rng.shuffle(rels)
        while rels:
            take = 2 if len(rels) >= 2 and rng.random() < 0.25 else 1
            hyps.append(LHyp(f"h{len(hyps) + 1}", tuple(rels[:take])))
            rels = rels[take:]
        if rng.random() < 0.25:
            extra = LRel(rng.choice(A.RELATIONS), self.expr(2), self.expr(rng.randint(0, 1)))
            hyps.insert(rng.randint(0, len(hyps)), LHyp(f"h{len(hyps) + 1}", (extra,)))
        if rng.random() < 0.3:
            hyps = self.memberships(hyps)
        lhs = self.expr(rng.randint(1, self.max_depth))
        r = rng.random()
        rhs = self.expr(rng.randint(1, 2)) if r < 0.45 else self.leaf() if r < 0.85 else self.trap()
        op = rng.choices(A.RELATIONS, (4, 2, 3, 2, 1.5, 1))[0]
        if rng.random() < 0.5:
            lhs, rhs = rhs, lhs
        return LStatement(f"fuzz_{index}", self.variables, tuple(hyps), LRel(op, lhs, rhs)), signs

    # -- functions defined by an equation
    def with_definitions(self, stmt: LStatement) -> LStatement:
        """``stmt`` with 1–2 function variables, their defining equations (first, or now and then
        anywhere: the front-end refuses a use before the equation) and applications sprinkled
        over the hypotheses and the goal, plus maybe a hypothesis about an application."""
        rng = self.rng
        self.functions = tuple(LFun(n, 2 if rng.random() < 0.25 else 1)
                               for n in FUNCTION_NAMES[:rng.choice((1, 1, 2))])
        defs = [A.definition_hyp(f"h{f.name}", self.definition(f, stmt.variables)) for f in self.functions]
        self.variables = stmt.variables
        hyps = [h if h.membership is not None else A.map_hypothesis(h, self.sprinkle) for h in stmt.hypotheses]
        goal = LRel(stmt.goal.op, self.sprinkle(stmt.goal.lhs), self.sprinkle(stmt.goal.rhs))
        if not any(e.kind == "app" for side in (goal.lhs, goal.rhs) for e in A.subterms(side)):
            goal = LRel(goal.op, self.application(goal.lhs), goal.rhs) if rng.random() < 0.5 else \
                LRel(goal.op, goal.lhs, self.application(goal.rhs))
        if rng.random() < 0.4:
            op = rng.choices(A.RELATIONS, (3, 2, 3, 2, 1, 1))[0]
            extra = LRel(op, self.application(self.argument()), self.expr(rng.randint(0, 1)))
            hyps.insert(rng.randint(0, len(hyps)), LHyp(f"h{len(hyps) + 1}'", (extra,)))
        if rng.random() < 0.1:
            for d in defs:
                hyps.insert(rng.randint(0, len(hyps)), d)
        else:
            hyps = defs + hyps
        return replace(stmt, hypotheses=tuple(hyps), goal=goal, functions=self.functions)

    def definition(self, f: LFun, variables: tuple[str, ...]) -> LDef:
        """A random equation for ``f``: parameters (sometimes a theorem variable's name, which
        they shadow) and a body from the expression generator over them, maybe over the
        theorem's variables too."""
        rng = self.rng
        params = tuple(rng.choice(variables) if p == "@" else p for p in rng.choice(PARAMS[f.arity]))
        if len(set(params)) < len(params):
            params = PARAMS[f.arity][0]
        self.variables = tuple(dict.fromkeys(params + (variables if rng.random() < 0.4 else ())))
        for _ in range(3):  # a body that uses a parameter, most of the time
            body = self.expr(rng.randint(1, 2))
            if A.free_variables(body) & set(params):
                break
        return LDef(f.name, params, body, rng.choice(("", "", ":", "()")))

    def argument(self) -> LExpr:
        """An application argument: a leaf, a numeral quotient (real: ``f (1 / 3)``), a trap."""
        r = self.rng.random()
        if r < 0.35:
            return self.leaf()
        if r < 0.55:
            return A.op2("div", A.num(self.rng.randint(1, 3)), A.num(self.rng.randint(2, 4)))
        if r < 0.65:
            return A.op2("sub", A.num(1), A.num(self.rng.randint(2, 3)))    # ℝ: 1 - 2 = -1
        if r < 0.8:
            return self.trap()
        return self.small()

    def application(self, t: LExpr, depth: int = 2) -> LExpr:
        """A function applied to ``t`` (and fresh arguments for the others), maybe nested."""
        if depth > 0 and self.rng.random() < 0.25:
            t = self.application(t, depth - 1)
        f = self.rng.choice(self.functions)
        args = [t] + [self.argument() for _ in range(f.arity - 1)]
        if self.rng.random() < 0.5:
            args.reverse()
        return A.app(f.name, *args)

    def sprinkle(self, e: LExpr) -> LExpr:
        """``e`` with some subterms ``t`` replaced by ``f t`` (or by ``f`` of a fresh argument)."""
        if e.args and not (e.kind == "cast" and e.value == "ℕ"):
            e = LExpr(e.kind, tuple(self.sprinkle(a) for a in e.args), e.value)
        if self.rng.random() < 0.12:
            return self.application(e if self.rng.random() < 0.75 else self.argument())
        return e


# ---------------------------------------------------------------- points

VALUES = tuple(Fraction(v) for v in (
    0, 1, -1, 2, -2, "1/2", "-1/2", "1/4", 4, 9, "1/9", 8, -8, 27, "-27/8", "1/8", 3, -3, 16,
    "1/16", "2/3", "-1/3", 5, 64, "1/27", 100, "1/100", "1/1000", "-1/1000", "1001/1000", "999/1000",
    "9/4", "-9/4", "4/9", "-4", "-1/8", "81/16"))


def random_value(rng: random.Random, sign: str | None) -> Fraction:
    r = rng.random()
    if r < 0.6:
        v = rng.choice(VALUES)
    elif r < 0.9:
        v = Fraction(rng.randint(-12, 12), rng.randint(1, 7))
    else:
        v = Fraction(rng.randint(-3, 3), 1) + Fraction(rng.choice((-1, 1)), 10 ** rng.randint(2, 6))
    if sign is None or rng.random() < 0.12:
        return v
    if sign == "nonneg":
        return abs(v)
    if sign == "pos":
        return abs(v) or Fraction(1, rng.randint(1, 9))
    if sign == "nonzero":
        return v or Fraction(-1)
    if sign == "nonpos":
        return -abs(v)
    return -abs(v) or Fraction(-1, 3)


def points_for(stmt: LStatement, signs: dict[str, str], k: int, rng: random.Random) -> list[dict[str, Fraction]]:
    """Up to ``k`` distinct points, biased towards the sign hypotheses (the origin first)."""
    out: list[dict[str, Fraction]] = [{v: Fraction(0) for v in stmt.variables}]
    seen = {tuple(out[0].values())}
    tries = 0
    while len(out) < k and tries < 8 * k:
        tries += 1
        p = {v: random_value(rng, signs.get(v)) for v in stmt.variables}
        if rng.random() < 0.15 and len(stmt.variables) > 1:  # equal coordinates
            first = p[stmt.variables[0]]
            p = {v: first for v in stmt.variables}
        key = tuple(p.values())
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out[:k]


# ---------------------------------------------------------------- the differential check


@dataclass
class Disagreement:
    """The front-end's form of one relation differs from Lean's value at a point."""

    index: int
    statement: str
    relation: str          # "goal" or the hypothesis name
    form: str              # "sympy" | "faithful"
    kind: str              # "verdict" (opposite truth values) | "value" (disjoint side values)
    unsound: bool          # the front-end's form is weaker than Lean's where it matters: a goal
    #                        false in Lean but true in the form, or a hypothesis true in Lean but
    #                        false in the form (a proof of the form would not prove the statement)
    point: dict[str, str]
    lean: str
    frontend: str
    frontend_text: str


@dataclass
class FuzzReport:
    seed: int
    statements: int = 0
    accepted: int = 0
    refused: int = 0
    pairs: int = 0                  # (accepted statement, point) pairs with >= 1 comparison
    comparisons: int = 0            # relation comparisons made (sympy form)
    faithful_comparisons: int = 0
    undecided: int = 0              # comparisons where a verdict was undecidable
    faithful_available: bool = False
    multi_line_errors: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)          # exceptions other than ParseError
    unreadable: list[str] = field(default_factory=list)       # sympy form parse_term cannot read
    shape_mismatches: list[str] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    #: the sympy form's side differs from Lean's but the relation's truth value agrees (e.g.
    #: `√x ^ 2 > c + √x ^ 2` read as `x > c`): not a failure, the front-end checks relations
    side_mismatches: list[Disagreement] = field(default_factory=list)
    refusals: Counter = field(default_factory=Counter)
    duration_s: float = 0.0
    #: statements that define functions: generated, accepted, (statement, point) pairs compared
    definition_statements: int = 0
    definition_accepted: int = 0
    definition_pairs: int = 0
    #: statements that apply Real.exp/Real.log: generated, accepted, (statement, point) pairs compared
    exp_log_statements: int = 0
    exp_log_accepted: int = 0
    exp_log_pairs: int = 0
    #: statements that apply Real.logb: generated, accepted, (statement, point) pairs compared
    logb_statements: int = 0
    logb_accepted: int = 0
    logb_pairs: int = 0
    #: statements with Real.pi: generated, accepted, (statement, point) pairs compared
    pi_statements: int = 0
    pi_accepted: int = 0
    pi_pairs: int = 0
    #: accepted statements that Lean does not elaborate (by lean_ast.type_error): not compared
    accepted_ill_typed: list[str] = field(default_factory=list)

    @property
    def failures(self) -> int:
        return len(self.disagreements) + len(self.crashes) + len(self.multi_line_errors) + \
            len(self.shape_mismatches) + len(self.accepted_ill_typed)

    def disagreeing_statements(self) -> list[int]:
        return sorted({d.index for d in self.disagreements})

    def to_json(self, max_examples: int = 200) -> dict[str, Any]:
        firsts: dict[tuple[int, str, str], Disagreement] = {}
        for d in self.disagreements:
            firsts.setdefault((d.index, d.relation, d.form), d)
        side: dict[tuple[int, str, str], Disagreement] = {}
        for d in self.side_mismatches:
            side.setdefault((d.index, d.relation, d.form), d)
        kinds = Counter(f"{d.form}/{d.kind}" + ("/unsound" if d.unsound else "") for d in self.disagreements)
        return {
            "seed": self.seed, "statements": self.statements, "accepted": self.accepted,
            "refused": self.refused, "statement_point_pairs": self.pairs,
            "comparisons": self.comparisons, "faithful_comparisons": self.faithful_comparisons,
            "faithful_available": self.faithful_available, "undecided": self.undecided,
            "failures": self.failures,
            "disagreements": len(self.disagreements), "disagreements_by_kind": dict(kinds),
            "disagreeing_statements": len({k[0] for k in firsts}),
            "examples": [asdict(d) for d in list(firsts.values())[:max_examples]],
            "side_value_mismatches": len(self.side_mismatches),
            "side_value_mismatch_statements": len({k[0] for k in side}),
            "side_value_mismatch_examples": [asdict(d) for d in list(side.values())[:max_examples]],
            "crashes": self.crashes[:max_examples], "multi_line_errors": self.multi_line_errors[:max_examples],
            "unreadable_sympy_forms": len(self.unreadable), "unreadable_examples": self.unreadable[:20],
            "shape_mismatches": self.shape_mismatches[:max_examples],
            "top_refusals": self.refusals.most_common(15), "duration_s": round(self.duration_s, 2),
            "definition_statements": self.definition_statements,
            "definition_accepted": self.definition_accepted, "definition_pairs": self.definition_pairs,
            "exp_log_statements": self.exp_log_statements, "exp_log_accepted": self.exp_log_accepted,
            "exp_log_pairs": self.exp_log_pairs,
            "logb_statements": self.logb_statements, "logb_accepted": self.logb_accepted,
            "logb_pairs": self.logb_pairs,
            "pi_statements": self.pi_statements, "pi_accepted": self.pi_accepted, "pi_pairs": self.pi_pairs,
            "accepted_ill_typed": self.accepted_ill_typed[:max_examples],
        }


class _Timeout(Exception):
    pass


def _time_limit(seconds: float):
    """Interrupt a front-end call that runs too long (main thread on POSIX only)."""
    from prover.alarm import alarm_after

    return alarm_after(seconds, _Timeout)


def _show_point(p: dict[str, Fraction]) -> dict[str, str]:
    return {k: str(v) for k, v in p.items()}


def _disagree(lean: RelValue, other: RelValue) -> str | None:
    """``"verdict"``, ``"value"`` or None (agreement, as far as the enclosures tell)."""
    lv, ov = lean.verdict, other.verdict
    if lv is not None and ov is not None and lv != ov:
        return "verdict"
    for a, b in ((lean.lhs, other.lhs), (lean.rhs, other.rhs)):
        if a is not None and b is not None and not a.overlaps(b):
            return "value"
    return None


def _show_rv(r: RelValue) -> str:
    return f"{r.lhs} {r.op} {r.rhs} -> {r.verdict}"


def _kernel_rel(lhs: Any, op: str, rhs: Any, variables: list[str]):
    from prover.kernel.terms import Rel, parse_term

    return Rel(parse_term(str(lhs), variables), op, parse_term(str(rhs), variables))


def _term_value(rel: Any, point: dict[str, Fraction]) -> RelValue:
    return RelValue(A.guarded(lambda: eval_term(rel.lhs, point)), rel.op,
                    A.guarded(lambda: eval_term(rel.rhs, point)))


def check_statement(index: int, stmt: LStatement, signs: dict[str, str], points: int,
                    report: FuzzReport, parse: Callable[[str], Any], time_limit: float = 20.0) -> None:
    """Parse one statement and compare its front-end forms with Lean's values at points."""
    text = A.show_statement(stmt)
    report.statements += 1
    report.definition_statements += bool(stmt.functions)
    exp_log, logb, pi = has_exp_log(stmt), has_logb(stmt), has_pi(stmt)
    report.exp_log_statements += exp_log
    report.logb_statements += logb
    report.pi_statements += pi
    parsed, problem = _parse_statement(text, report, parse, time_limit)
    if not parsed:
        return
    report.accepted += 1
    report.definition_accepted += bool(stmt.functions)
    report.exp_log_accepted += exp_log
    report.logb_accepted += logb
    report.pi_accepted += pi
    ill_typed = A.type_error(stmt)
    if ill_typed:   # Lean rejects it (e.g. `2 ^ Real.pi` in a ℕ tree): it has no value to compare
        report.accepted_ill_typed.append(f"{text}  ==>  accepted; Lean: {ill_typed}")
        return
    # definition hypotheses give no relation (flat_hypotheses): the front-end drops them
    ast_rels = stmt.flat_hypotheses() + [stmt.goal]
    names = [h.name for h in stmt.hypotheses for _ in h.parts] + ["goal"]
    fe_rels = [h.rel for h in problem.hypotheses] + [problem.goal]
    if len(fe_rels) != len(ast_rels):
        report.shape_mismatches.append(f"{text}  ==>  {len(fe_rels)} relations, expected {len(ast_rels)}")
        return
    sympy_forms = _sympy_forms(fe_rels, list(problem.variables), text, report)
    faithful_rels = _faithful_rels(problem, len(ast_rels), text, report)
    forms = _StatementForms(index, text, names, ast_rels, fe_rels, sympy_forms, faithful_rels,
                            stmt.definitions())
    rng = random.Random(f"points:{report.seed}:{index}")
    for point in points_for(stmt, signs, points, rng):
        compared = _compare_at_point(forms, point, report)
        report.pairs += compared
        report.definition_pairs += compared and bool(stmt.functions)
        report.exp_log_pairs += compared and exp_log
        report.logb_pairs += compared and logb
        report.pi_pairs += compared and pi


def has_exp_log(stmt: LStatement) -> bool:
    """Does ``stmt`` apply ``exp``/``log`` (in a relation, a membership or a definition's body)?"""
    return any(e.kind in A.EXP_LOG for e in _statement_nodes(stmt))


def has_logb(stmt: LStatement) -> bool:
    """Does ``stmt`` apply ``logb`` (in a relation, a membership or a definition's body)?"""
    return any(e.kind == "logb" for e in _statement_nodes(stmt))


def has_pi(stmt: LStatement) -> bool:
    """Does ``stmt`` use ``Real.pi`` (any spelling: ``π``, ``_root_.Real.pi``, …) anywhere?"""
    return any(e.kind == "pi" for e in _statement_nodes(stmt))


def _statement_nodes(stmt: LStatement) -> Iterator[LExpr]:
    terms = [x for r in stmt.flat_hypotheses() + [stmt.goal] for x in (r.lhs, r.rhs)]
    terms += [d.body for d in stmt.definitions().values()]
    return (e for t in terms for e in A.subterms(t))


def _parse_statement(text: str, report: FuzzReport, parse: Callable[[str], Any],
                     time_limit: float) -> tuple[bool, Any]:
    """``(True, problem)``, or ``(False, None)`` with the refusal or crash counted in ``report``."""
    from prover.frontend.errors import ParseError

    try:
        with _time_limit(time_limit):
            return True, parse(text)
    except ParseError as exc:
        report.refused += 1
        msg = str(exc)
        if "\n" in msg or not msg.strip():
            report.multi_line_errors.append(f"{text}  ==>  {msg!r}")
        report.refusals[msg.split(" (column")[0][:90]] += 1
    except _Timeout:
        report.crashes.append(f"{text}  ==>  front-end took over {time_limit}s")
    except Exception as exc:  # noqa: BLE001 - any other exception is a front-end bug to report
        report.crashes.append(f"{text}  ==>  {type(exc).__name__}: {exc}")
    return False, None


def _sympy_forms(fe_rels: list[Any], variables: list[str], text: str, report: FuzzReport) -> list[Any]:
    """The kernel-term form of each front-end relation (None where it cannot be read back)."""
    from prover.kernel.terms import TermError

    sympy_forms = []
    for r in fe_rels:
        try:
            sympy_forms.append(_kernel_rel(r.lhs, r.op, r.rhs, variables))
        except TermError as exc:
            report.unreadable.append(f"{text}  ==>  {r.lhs} {r.op} {r.rhs}: {exc}")
            sympy_forms.append(None)
    return sympy_forms


def _faithful_rels(problem: Any, n: int, text: str, report: FuzzReport) -> list[Any] | None:
    """The faithful form's ``n`` relations, if the front end gave one of the right shape."""
    faithful = getattr(problem, "faithful", None)
    faithful_rels = None
    if faithful is not None:
        report.faithful_available = True
        faithful_rels = list(faithful.hypotheses) + [faithful.goal]
        if len(faithful_rels) != n:
            report.shape_mismatches.append(f"{text}  ==>  faithful has {len(faithful_rels)} relations")
            faithful_rels = None
    return faithful_rels


@dataclass
class _StatementForms:
    """One accepted statement: Lean's relations and the front end's forms of each."""

    index: int
    text: str
    names: list[str]
    ast_rels: list[LRel]
    fe_rels: list[Any]
    sympy_forms: list[Any]
    faithful_rels: list[Any] | None
    defs: A.Definitions = field(default_factory=dict)  # the statement's function definitions


def _compare_at_point(f: _StatementForms, point: dict[str, Fraction], report: FuzzReport) -> bool:
    """Compare every form with Lean at ``point``; True if any comparison was made."""
    compared = False
    for i, ast_rel in enumerate(f.ast_rels):
        lean = A.rel_value(ast_rel, point, defs=f.defs)
        forms = [("sympy", f.sympy_forms[i], f.fe_rels[i])]
        if f.faithful_rels is not None:
            forms.append(("faithful", f.faithful_rels[i], f.faithful_rels[i]))
        if f.defs and (lean.lhs is None or lean.rhs is None):
            # nested applications reach values too large to evaluate (a side Lean's evaluator
            # gave up on): the front-end's form of it would not be evaluated either
            report.undecided += 1
            forms = []
        for form, rel, shown in forms:
            if rel is None:
                continue
            other = _term_value(rel, point)
            compared = True
            if form == "sympy":
                report.comparisons += 1
            else:
                report.faithful_comparisons += 1
            if lean.verdict is None or other.verdict is None:
                report.undecided += 1
            _record_disagreement(f, i, form, shown, point, lean, other, report)
        if lean.verdict is not True:
            break  # later relations only where this hypothesis holds in Lean
    return compared


def _record_disagreement(f: _StatementForms, i: int, form: str, shown: Any, point: dict[str, Fraction],
                         lean: RelValue, other: RelValue, report: FuzzReport) -> None:
    kind = _disagree(lean, other)
    if kind is not None:
        is_goal = i == len(f.ast_rels) - 1
        unsound = kind == "verdict" and lean.verdict is (not is_goal)
        found = Disagreement(f.index, f.text, f.names[i], form, kind, unsound, _show_point(point),
                             _show_rv(lean), _show_rv(other), _shown(shown))
        if form == "sympy" and kind == "value":
            report.side_mismatches.append(found)
        else:
            report.disagreements.append(found)


def _shown(rel: Any) -> str:
    try:
        from prover.kernel.terms import Rel

        if isinstance(rel, Rel):
            return rel.show()
    except ImportError:  # pragma: no cover
        pass
    return f"{rel.lhs} {rel.op} {rel.rhs}"


def run_fuzz(statements: int, points: int, seed: int = 0, *, parse: Callable[[str], Any] | None = None,
             progress: Callable[[FuzzReport], None] | None = None, progress_every: int = 100,
             max_depth: int = 3, time_budget: float | None = None,
             target_pairs: int | None = None, definitions: float = DEFINITION_SHARE,
             absolute: float = ABS_SHARE, max_min: float = 0.0, exp_log: float = 0.0,
             logb: float = 0.0, pi: float = 0.0) -> FuzzReport:
    """Generate ``statements`` statements (seeded; a share ``definitions`` of them defining
    functions, subterms wrapped in ``|…|`` with chance ``absolute``, in ``max``/``min`` with
    chance ``max_min``, in ``Real.exp``/``Real.log`` with chance ``exp_log``, in ``Real.logb B …`` with
    chance ``logb``, constant leaves becoming ``Real.pi`` with chance ``pi``) and check each at up to
    ``points`` points; stop early after ``time_budget``
    seconds or once ``target_pairs`` pairs were compared."""
    if parse is None:
        from prover.frontend.statement import parse_theorem as parse
    gen = StatementGenerator(seed, max_depth=max_depth, definitions=definitions, absolute=absolute,
                             max_min=max_min, exp_log=exp_log, logb=logb, pi=pi)
    report = FuzzReport(seed)
    start = time.monotonic()
    for i in range(statements):
        stmt, signs = gen.statement(i)
        check_statement(i, stmt, signs, points, report, parse)
        if progress is not None and (i + 1) % progress_every == 0:
            report.duration_s = time.monotonic() - start
            progress(report)
        if time_budget is not None and time.monotonic() - start > time_budget:
            break
        if target_pairs is not None and report.pairs >= target_pairs:
            break
    report.duration_s = time.monotonic() - start
    return report

