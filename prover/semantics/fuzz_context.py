"""File-context fuzzing: known statements inside Lean file context, read as Lean reads them or refused.

Each variant is a whole Lean file built around one or two known statements (the benchmark
``lean`` fields, the theorems of ``examples/inequalities.lean``, the statements with functions
given by a defining equation of ``benchmarks/definitions/*.jsonl`` (source ``definitions:``), those
with ``|x|``, ``max``, ``min`` of ``benchmarks/{abs_signs,abs_cases,max_min}`` (``functions:``; a
declaration of the file named ``max``/``min``/``abs`` is sometimes written before them), those with
``Real.exp``/``Real.log`` of ``benchmarks/exp_log/exp_log_train.jsonl`` (``exp_log:``; the held-out
split stays out), random statements of :class:`~prover.semantics.fuzz_frontend.StatementGenerator`, a
share of them with defined functions, a share applying ``Real.exp``/``Real.log``, a share applying
``Real.logb``, a share with ``Real.pi``; and the hand-written ``Real.logb`` statements :data:`LOGB_STATEMENTS`,
``logb:``, and ``Real.pi``/``π`` statements :data:`PI_STATEMENTS`, ``pi:``). The file is
assembled command by
command by :class:`FileBuilder`, which keeps Lean's scope state as it goes (the stack of
``section``/``namespace`` scopes, each with its ``open`` namespaces and whether the LIPS
real-division macro is in effect there), so the expected outcome of every asked theorem is
known by construction (docs/mathlib-name-facts.md §2–4):

* ``meaning``: Lean reads the statement as the :mod:`~prover.semantics.lean_ast` tree, with
  ``/`` real division when the LIPS ``macro_rules`` is in effect at the theorem (an actual
  command before it, at top level or in a scope still open; a global one also survives ``end``;
  a ``local`` one does not) and Lean's ℕ reading otherwise. The front-end may accept it (then
  every relation must agree with Lean's at random exact points, through
  :mod:`~prover.semantics.fuzz_frontend`'s comparison of the sympy and faithful forms) or refuse it;
* ``refuse``: Lean rejects the file's statement (unknown or ambiguous ``sqrt``, a shadowed
  variable, ``f(x)``, a look-alike identifier, a duplicate declaration, an ill-typed term) or a
  command before it is not modelled (other macros, ``notation``, ``variable``, ``def``,
  ``instance``, ``attribute``, ``open Foo``, ``open … hiding``, ``set_option hygiene false``):
  an acceptance is a failure;
* ``unknown``: the model cannot tell (a decimal under an ambiguous ``sqrt``): not checked.

The front-end is called as ``parse_theorem(text, real_division=False, name=NAME)``: the file's
own text decides. Wrappers are chosen and composed at random per variant, seeded
(``run_context_fuzz`` is deterministic for a seed), and counted per name in the report:

* ``header:*`` — none, ``import Mathlib``, ``open Real``, the miniF2F header (``open BigOperators
  Real Nat Topology Rat``), the LIPS header (with the macro), ``open Real NNReal``, a comment first;
* ``item:*`` before the theorem — the macro in a ``--``/``/- -/``/nested/doc/module-doc comment, a
  string or after a declaration (no effect); the macro active, ``local``, ``local`` or global in a
  closed section/namespace, after a nested comment; ``open``s (``open scoped Real`` opens no
  names); other declarations with proofs holding ``end``, ``-/`` in strings, ``open … in``,
  commented theorems, ``«…»`` names, ``@[simp]``; decoys (the asked name in comments and
  strings); closed scopes with commands inside; ``set_option`` (``… in``); another asked theorem;
  unmodelled commands (``unmodelled:*``: must refuse);
* ``enclose:*`` — a section/namespace (``Foo``, ``Real``, ``Nat``, ``NNReal``) open at the theorem;
* ``prefix:*`` — ``open … in``, ``set_option … in``, a doc comment (holding the macro);
* ``post:*`` — commands after the theorem (no effect on it), another asked theorem;
* interval memberships ``(h : x ∈ Set.Icc a b)`` (from the generator): spelled ``Set.Icc``,
  ``Icc``, ``_root_.Set.Icc``, ``Finset.Icc`` (``rewrite:interval_spelling``), under ``open Set``,
  ``open Set Finset``, in ``namespace Set``, after a declaration named ``Icc`` (``interval_decl``)
  or a ``def Icc`` / ``notation "Icc"`` (unmodelled: refused);
* ``rewrite:*`` — the statement itself: root spellings (``sqrt``, ``Real.sqrt``, ``√``,
  ``NNReal.sqrt``/``Nat.sqrt``/``Int.sqrt``/``Rat.sqrt``, ``Reаl.sqrt`` with a Cyrillic а), an
  injected root, ``{…}`` binders, ``Real`` for ``ℝ``, ``ℜ``, fullwidth digits, a hypothesis named
  like a variable, a variable bound twice, Cyrillic or Greek variable names, ``π``/``φ``/``rexp``
  as names, ``f(x)``, ``lemma``, comments between binders; ``duplicate_name_*``: the name twice;
* defined functions (``(F : ℝ → ℝ) (hF : ∀ x, F x = E)``): a rebuilt statement keeps the function
  binders (after the variables) and the definitions (in place); a renamed variable is renamed in the
  bodies too, except where a parameter of its name shadows it (a renaming a parameter would capture
  is skipped: ``rewrite:*_skipped``); ``rename_parameters`` (within their own body, maybe to a
  variable's name: shadowing), ``rename_function`` (a token such as ``φ``, or a variable's or another
  function's name: bound twice, refused), ``move_definition`` (after a use: Lean reads the same),
  ``F(a)`` (no space: refused) and a ``∀``-bound ``φ`` after ``open Real`` (a token: refused).
  Function and parameter names count as bound names for the notation tokens.
* ``exp``/``log`` (:func:`resolve_exp_log`, docs/notes-exp-log-facts.md §5): ``rewrite:exp_log_short``
  writes them ``exp x``/``log x`` (meaning Real's under ``open Real``; ambiguous, so refused, where
  ``open Complex`` or ``open EReal`` add ``Complex.exp``/``EReal.exp``/``Complex.log``, which take a
  real by coercion; ``Nat.log``/``Int.log`` drop out on a real argument, so ``open Real Nat`` and
  ``log x`` is ``Real.log x`` while ``log 2`` is ambiguous; an overload where an expected type ℝ may
  decide, e.g. inside ``Real.log (exp x)``, is not modelled: unknown), ``rewrite:exp_log_rexp``
  (``rexp``: Real's scoped notation), ``rewrite:exp_log_foreign`` (``Complex.exp``, ``Nat.log``, …:
  refused), ``rewrite:inject_exp_log`` (an application added to the goal); ``item:exp_log_decl*``
  declares a theorem named ``exp``/``log`` (at the root, in ``namespace Foo``/``Nat``: a candidate of
  the short name, refused; in ``namespace Real``: Lean rejects it and keeps Mathlib's), and
  ``unmodelled:def_exp`` … (``def exp``, ``noncomputable def log``, ``local notation "rexp"``) must
  be refused; ``open Complex``/``open EReal`` (and with ``Real``) are among the opens.
* ``Real.logb b x`` (:func:`resolve_logb`): ``rewrite:logb_short`` writes ``logb b x`` (refused: which
  namespaces declare a ``logb`` is not charted, except inside ``namespace Real``, where Mathlib's
  ``Real.logb`` wins the namespace walk outright), ``rewrite:logb_root`` (``_root_.Real.logb``: Real's),
  ``rewrite:logb_foreign`` (``Nat.logb``, ``Complex.logb``, ``Real.log b x``, a Cyrillic ``а``: refused),
  ``rewrite:inject_logb`` (an application added to the goal: a numeral, ``1``, ``0``, ``-2`` or a
  variable as base); ``item:logb_decl*`` declares a theorem named ``logb`` (at the root, in
  ``namespace Foo``/``Nat``: refused where a short ``logb`` may name it; in ``namespace Real``: Lean
  rejects it and keeps Mathlib's) and ``unmodelled:def_logb`` must be refused. ``Real.logb`` inside
  ``namespace Foo`` is Mathlib's (only this file could declare ``Foo.Real.logb``): Lean's meaning, which
  the front-end may refuse.
* ``Real.pi`` and the token ``π`` (:func:`resolve_pi`, which states the Lean facts assumed): ``π`` is
  Real's scoped notation, read as ``Real.pi`` where Real's notation alone is active (``open Real``,
  ``open scoped Real``, ``namespace Real``, ``open Real NNReal``) and refused where Nat's is active too
  (``open Real Nat``, ``open Nat Real``, ``open scoped Nat``, the miniF2F header, ``namespace Nat``) or
  neither (no open); a short ``pi`` is never ``Real.pi`` (protected; ``NNReal.pi : ℝ≥0`` after ``open NNReal``):
  refused. ``rewrite:pi_token`` writes ``π``, ``rewrite:pi_short`` ``pi``, ``rewrite:pi_root``
  ``_root_.Real.pi``, ``rewrite:pi_qualified`` ``Real.pi``, ``rewrite:pi_foreign`` ``NNReal.pi``, ``Real.π``,
  a Cyrillic ``а`` … (refused), ``rewrite:pi_variable`` names a variable ``pi`` (a local: Lean reads the
  variable), ``rewrite:inject_pi`` adds ``Real.pi``/``π``/``pi`` (``^ 2``, ``-``, ``⁻¹``, ``2 *``, ``/ 2``, ``√``,
  ``(… : ℕ)``: ill-typed) to the goal; ``pi_scope:*`` puts a statement with π in one of :data:`PI_SCOPES`;
  ``item:pi_decl*`` declares a theorem ``pi`` or ``π`` (root, ``Foo``, ``Nat``, ``Real``: rejected by Lean,
  ``Foo.Real``: then ``Real.pi`` inside ``namespace Foo`` names it, refused); ``unmodelled:def_pi`` and
  ``unmodelled:notation_pi`` must be refused. ``Real.pi`` inside ``namespace Foo`` is Mathlib's unless the
  file declared ``Foo.Real.pi``: Lean's meaning, which the front-end may refuse.
* statements over n terms (a share :data:`NTERM_SHARE` of the picks, taken from the benchmark share;
  ``nvar:`` from :data:`NVAR_SUITE`, ``nterm_generated:`` from :class:`fuzz_nterm.NTermGenerator`; the
  section "statements over n terms" at the end): Lean's reading is a :mod:`prover.semantics.nterm`
  statement, its names ``Fin``, ``Finset.range`` (a short ``range``, ``_root_.…``), ``Real``/``Nat``
  resolved by :func:`resolve_fin` / :func:`resolve_range` / :func:`resolve_type_word` (locals named
  ``Fin``/``Finset``/``range`` shadow them), ``π`` by :func:`resolve_pi`, ``/`` expanded under the macro
  (:func:`nterm_lean`), and :func:`nterm.refusal` must-refuse constructs; ``item:nterm_*``,
  ``nterm_scope:*``, ``prefix:nterm_*`` and ``rewrite:nterm_*`` are its contexts (``open Finset``,
  ``open Set Finset``, ``open … in``, ``namespace Finset``, declarations named ``Fin``/``range``/
  ``Finset.range``/``Finset``/``Real``, unmodelled ``def``/``variable``/notations for ``∑``, decoys with
  ``∑``, ``∑ x in s``, ``∀ i < n``, local binders, ``π`` in a body). An accepted one is compared
  through ``problem.nterm.statement`` at points with n ∈ {0, 1, 2, 3, 5} (:func:`check_nterm_target`).

Command line: ``python -m prover.semantics fuzz-context --variants N --seed S --out FILE.json``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from prover.semantics import fuzz_nterm as FN
from prover.semantics import lean_ast as A
from prover.semantics import lean_eval as L
from prover.semantics import nterm as N
from prover.semantics.fuzz_frontend import (
    FuzzReport,
    StatementGenerator,
    _compare_at_point,
    _faithful_rels,
    _parse_statement,
    _StatementForms,
    _sympy_forms,
    has_exp_log,
    has_logb,
    has_pi,
    points_for,
)
from prover.semantics.lean_ast import LExpr, LHyp, LRel, LStatement
from prover.semantics.nterm import Binder, IndexHyp, NStatement

ROOT = Path(__file__).resolve().parents[2]
MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"
#: spellings of the LIPS macro that are the same command token by token (up to names/layout)
MACRO_SPELLINGS = (
    MACRO, MACRO, "macro_rules\n  | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))",
    MACRO + " -- every `/` is real division",
    "macro_rules | `($a / $b) => `(HDiv.hDiv ($a : ℝ) ($b : ℝ))",
)
#: namespaces that declare a `sqrt` at Mathlib v4.16 (Complex.sqrt is later; Nat.sqrt is Batteries')
SQRT_OWNERS = ("Real", "NNReal", "Nat", "Int", "Rat")
#: namespaces (of those the fuzzer writes) that declare the intervals ``Icc`` … at Mathlib v4.16:
#: ``Set.Icc`` (Mathlib/Order/Interval/Set/Basic.lean) and ``Finset.Icc`` (locally finite orders,
#: which ℝ is not: a ``Finset.Icc`` of reals does not elaborate)
INTERVAL_OWNERS = ("Set", "Finset")
#: how a membership's interval may be spelled (``{}`` is the short name ``Icc`` …)
INTERVAL_SPELLINGS = ("Set.{}", "Set.{}", "{}", "{}", "_root_.Set.{}", "Finset.{}")
#: tokens that `open N` (or `namespace N`) makes scoped notation: a variable so named stops parsing
SCOPED_TOKENS = {"Real": ("π", "φ", "ψ", "rexp"), "Nat": ("π", "φ"), "Complex": ("cexp",)}
#: namespaces that declare an unprotected ``exp``/``log`` at Mathlib v4.16 (docs/notes-exp-log-facts.md
#: §5; none at the root) and how that candidate fares on an argument: ``real`` (Real.exp, Real.log),
#: ``coerce`` (takes a real through a coercion and never drops out: ``Complex.exp ↑x : ℂ``,
#: ``EReal.exp ↑x : ℝ≥0∞``), ``nat`` (``Nat.log (b : ℕ) : ℕ → ℕ``, ``Int.log (b : ℕ) (r : R) : ℤ``:
#: drop out on a real first argument), ``unknown`` (``ENNReal.log`` on ``ℝ≥0∞``: not modelled)
EXP_LOG_OWNERS = {"exp": {"Real": "real", "Complex": "coerce", "EReal": "coerce"},
                  "log": {"Real": "real", "Complex": "coerce", "Nat": "nat", "Int": "nat", "ENNReal": "unknown"}}
#: nodes of Lean's arithmetic tree (``binop%``/``unop%``; a power's base): their leaves are elaborated
#: without an expected type, so an overloaded name among them is ambiguous
_ARITHMETIC = ("add", "sub", "mul", "div", "neg", "paren")
#: Cyrillic look-alikes: not identifier characters in Lean 4 (``isIdFirst``/``isLetterLike``: ASCII
#: letters, Greek, letter-like symbols, mathematical alphanumerics), so a parse error
LOOKALIKE = {"a": "а", "c": "с", "x": "х", "y": "у"}
#: Greek letters are identifier characters: a variable renamed consistently keeps the meaning
GREEK = {"a": "α", "b": "β", "c": "γ"}
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
EXAMPLES_DOC = """/-! Example statements for `prover prove examples/inequalities.lean#NAME` and
`prover parse examples/inequalities.lean#NAME` (see README.md). Each theorem is stated as in
Mathlib, with `sorry` for its proof; `prover` proves them all. -/"""

# ---------------------------------------------------------------- base statements


@dataclass(frozen=True)
class Base:
    source: str                       # "benchmark:567neq/P5", "example:nesbitt", "generated:12"
    stmt: LStatement
    text: str | None = None           # the theorem's own Lean text (benchmarks and examples)
    signs: tuple[tuple[str, str], ...] = ()


#: the share of generated statements that define functions (fuzz_frontend's generator)
GENERATED_DEFINITIONS = 0.25
#: the chance that a generated subterm is wrapped in ``Real.exp``/``Real.log`` (fuzz_frontend's
#: ``--exp-log``): about a third of the generated statements apply one
GENERATED_EXP_LOG = 0.04
#: the chance that a generated subterm becomes ``Real.logb B …`` (fuzz_frontend's ``--logb``): about
#: one generated statement in six applies one
GENERATED_LOGB = 0.02
#: hand-written statements with ``Real.logb`` (no benchmark suite has them), pooled as ``logb:``
LOGB_STATEMENTS = (
    "theorem logb_two_eight : Real.logb 2 8 = 3 := by sorry",
    "theorem logb_pos_of_gt (x : ℝ) (h : 1 < x) : Real.logb 2 x > 0 := by sorry",
    "theorem logb_mul (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.logb 3 (x * y) = Real.logb 3 x + Real.logb 3 y := by sorry",
    "theorem logb_sq (x : ℝ) (hx : 0 < x) : Real.logb 10 (x ^ 2) = 2 * Real.logb 10 x := by sorry",
    "theorem logb_inv (x : ℝ) : Real.logb 2 x⁻¹ = -Real.logb 2 x := by sorry",
    "theorem logb_self (b : ℝ) (h : 1 < b) : Real.logb b b = 1 := by sorry",
    "theorem logb_one_base (x : ℝ) : Real.logb 1 x = 0 := by sorry",
    "theorem logb_zero_base (x : ℝ) : Real.logb 0 x = 0 := by sorry",
    "theorem logb_neg_base : Real.logb (-2) 8 = 3 := by sorry",
    "theorem logb_half (x : ℝ) (h : 0 < x) (h2 : x < 1) : Real.logb (1 / 2) x > 0 := by sorry",
    "theorem logb_swap (x y : ℝ) (hx : 1 < x) (hy : 1 < y) : Real.logb x y * Real.logb y x = 1 := by sorry",
    "theorem logb_sq_nonneg (x : ℝ) : Real.logb 2 x ^ 2 ≥ 0 := by sorry",
    "theorem logb_lt_self (x : ℝ) (h : 0 < x) : Real.logb 2 x < x := by sorry",
    "theorem logb_sum (a b : ℝ) (ha : 0 < a) (hb : 0 < b) (h : Real.logb 3 a + Real.logb 3 b = 2) : a * b = 9 := by sorry",
    "theorem logb_mono (x y : ℝ) (hx : 0 < x) (h : x < y) : Real.logb 10 x < Real.logb 10 y := by sorry",
    "theorem logb_interval (x : ℝ) (h : x ∈ Set.Icc 2 4) : Real.logb 2 x ≤ 2 := by sorry",
    "theorem logb_exp (x : ℝ) : Real.logb 2 (Real.exp x) = x / Real.log 2 := by sorry",
    "theorem logb_inv_base (x : ℝ) (h : 0 < x) : Real.logb 2⁻¹ x = -Real.logb 2 x := by sorry",
    "theorem logb_cube (b : ℝ) (h : 0 < b) : Real.logb 8 (b ^ 3) = Real.logb 2 b := by sorry",
)
#: the chance that a constant leaf of a generated statement becomes ``Real.pi`` (fuzz_frontend's ``--pi``)
GENERATED_PI = 0.04
#: hand-written statements with ``Real.pi`` (a few with the token ``π``, meaning Real.pi only where Real's
#: notation alone is active; no benchmark suite has them), pooled as ``pi:``
PI_STATEMENTS = (
    "theorem pi_gt_three : Real.pi > 3 := by sorry",
    "theorem pi_lt_four : Real.pi < 4 := by sorry",
    "theorem pi_lt_seven_halves : Real.pi < 7 / 2 := by sorry",
    "theorem pi_lt_22_7 : Real.pi < 22 / 7 := by sorry",
    "theorem pi_gt_d2 : Real.pi > 3.14 := by sorry",
    "theorem pi_sq_lt_ten : Real.pi ^ 2 < 10 := by sorry",
    "theorem pi_inv_lt_third : Real.pi⁻¹ < 1 / 3 := by sorry",
    "theorem two_pi_gt_six : 2 * Real.pi > 6 := by sorry",
    "theorem half_pi_gt_one : Real.pi / 2 > 1 := by sorry",
    "theorem neg_pi_lt (x : ℝ) (h : x > -Real.pi) : x + 4 > 0 := by sorry",
    "theorem sqrt_pi_lt_two : √Real.pi < 2 := by sorry",
    "theorem pi_mul_sq_nonneg (x : ℝ) : Real.pi * x ^ 2 ≥ 0 := by sorry",
    "theorem circle_area_le (r : ℝ) (h0 : 0 ≤ r) (h1 : r ≤ 1) : Real.pi * r ^ 2 ≤ Real.pi := by sorry",
    "theorem circumference (r : ℝ) (h : 0 < r) : 2 * Real.pi * r > 6 * r := by sorry",
    "theorem abs_sub_pi (x : ℝ) (h : 3 < x) (h' : x < 4) : |x - Real.pi| < 1 := by sorry",
    "theorem pi_rpow_gt (x : ℝ) (h : 1 < x) : x ^ Real.pi > x ^ (3 : ℝ) := by sorry",
    "theorem pi_sub_pos (x : ℝ) (h : x < Real.pi) : Real.pi - x > 0 := by sorry",
    "theorem pi_interval (x : ℝ) (h : x ∈ Set.Icc 0 (Real.pi)) : x ≤ 4 := by sorry",
    "theorem exp_pi_gt : Real.exp (Real.pi) > 20 := by sorry",
    "theorem log_pi_pos : Real.log (Real.pi) > 1 := by sorry",
    "theorem logb_two_pi : Real.logb 2 (Real.pi) > 1 := by sorry",
    "theorem pi_nat_trap : Real.pi > 7 / 2 - 1 := by sorry",
    "theorem root_pi (x : ℝ) (h : 0 ≤ x) : x * _root_.Real.pi ≥ 3 * x := by sorry",
    "theorem pi_token_gt_three : π > 3 := by sorry",
    "theorem pi_token_sq (x : ℝ) (h : 0 < x) : π * x ^ 2 > 3 * x ^ 2 := by sorry",
    "theorem pi_token_half (x : ℝ) (h : x ∈ Set.Ioo 0 (π / 2)) : x < 2 := by sorry",
    "theorem pi_token_inv (x : ℝ) (h : 0 < x) : x / π < x := by sorry",
)


@dataclass
class BasePool:
    benchmarks: list[Base]
    examples: list[Base]
    seed: int
    skipped: Counter = field(default_factory=Counter)   # source kind -> statements the reader cannot read
    #: statements with functions given by a defining equation (benchmarks/definitions/definitions.jsonl)
    definitions: list[Base] = field(default_factory=list)
    #: statements with `|x|`, `max`, `min` (benchmarks/abs_signs, abs_cases, max_min)
    functions: list[Base] = field(default_factory=list)
    #: statements with `Real.exp`, `Real.log` (:data:`EXP_LOG_SUITE`: the train split only)
    exp_log: list[Base] = field(default_factory=list)
    #: statements with `Real.logb` (:data:`LOGB_STATEMENTS`)
    logb: list[Base] = field(default_factory=list)
    #: statements with `Real.pi`/`π` (:data:`PI_STATEMENTS`)
    pi: list[Base] = field(default_factory=list)
    #: statements over n terms (:data:`NVAR_SUITE`, the train split), besides the generated ones
    nvar: list[NBase] = field(default_factory=list)
    #: the share of picks that are statements over n terms (:data:`NTERM_SHARE`); taken out of the
    #: benchmark share, so a pool without benchmarks (the suites' own test pools) gets none unless
    #: it is 1 (every pick over n terms)
    nterm_share: float = 0.0
    generator: StatementGenerator = field(init=False)
    nterm_generator: FN.NTermGenerator = field(init=False)

    def __post_init__(self) -> None:
        self.generator = StatementGenerator(self.seed * 7919 + 17, definitions=GENERATED_DEFINITIONS,
                                            exp_log=GENERATED_EXP_LOG, logb=GENERATED_LOGB, pi=GENERATED_PI)
        self.nterm_generator = FN.NTermGenerator(self.seed * 7919 + 23, refuse_share=NTERM_REFUSE_SHARE)

    def generated(self, index: int) -> Base:
        stmt, signs = self.generator.statement(index)
        return Base(f"generated:{index}", stmt, None, tuple(sorted(signs.items())))

    def nterm(self, rng: random.Random, index: int) -> NBase:
        """A statement over n terms: from :data:`NVAR_SUITE` (chance 0.35) or the n-term generator."""
        if self.nvar and rng.random() < 0.35:
            return rng.choice(self.nvar)
        stmt, _ = self.nterm_generator.statement(index)
        return NBase(f"nterm_generated:{index}", stmt)

    def pick(self, rng: random.Random, index: int) -> Base | NBase:
        r = rng.random()
        if r < (self.nterm_share if self.benchmarks or self.nterm_share >= 1 else 0.0):
            return self.nterm(rng, index)
        if r < 0.48 and self.benchmarks:
            return rng.choice(self.benchmarks)
        if r < 0.60 and self.examples:
            return rng.choice(self.examples)
        if r < 0.78 and self.definitions:
            return rng.choice(self.definitions)
        if r < 0.86 and self.functions:
            return rng.choice(self.functions)
        if r < 0.94 and self.exp_log:
            return rng.choice(self.exp_log)
        if r < 0.965 and self.logb:
            return rng.choice(self.logb)
        if r < 0.98 and self.pi:
            return rng.choice(self.pi)
        return self.generated(index)


def _signs(stmt: LStatement) -> tuple[tuple[str, str], ...]:
    """Sampling hints from hypotheses ``v > 0``, ``0 ≤ v``, … ."""
    out: dict[str, str] = {}
    flip = {"<": ">", ">": "<", "≤": "≥", "≥": "≤", "≠": "≠"}
    sign = {">": "pos", "≥": "nonneg", "≠": "nonzero", "<": "neg", "≤": "nonpos"}
    for r in stmt.flat_hypotheses():
        lhs, op, rhs = A.strip_parens(r.lhs), r.op, A.strip_parens(r.rhs)
        if lhs.kind == "num" and rhs.kind == "var":
            lhs, rhs, op = rhs, lhs, flip.get(op, op)
        if lhs.kind == "var" and rhs.kind == "num" and rhs.value == "0" and op in sign:
            out.setdefault(lhs.value, sign[op])
    return tuple(sorted(out.items()))


def _base(source: str, text: str, skipped: Counter) -> Base | None:
    try:
        stmt = A.read_lean(text)
    except (A.ReadError, IndexError):
        skipped[source.split(":")[0]] += 1
        return None
    assert isinstance(stmt, LStatement)
    return Base(source, stmt, text, _signs(stmt))


def _jsonl_bases(paths: list[Path], kind: str, skipped: Counter) -> list[Base]:
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                b = _base(f"{kind}:{d['id']}", d["lean"], skipped)
                if b is not None:
                    out.append(b)
    return out


def load_pool(seed: int, root: Path = ROOT) -> BasePool:
    """Benchmark, definition-suite and example statements the reader reads (the others counted
    in ``skipped``)."""
    skipped: Counter = Counter()
    benchmarks = _jsonl_bases(sorted((root / "benchmarks").glob("*.jsonl")), "benchmark", skipped)
    definitions = _jsonl_bases(sorted((root / "benchmarks" / "definitions").glob("*.jsonl")), "definitions",
                               skipped)
    functions = _jsonl_bases(sorted(p for d in FUNCTION_SUITES for p in (root / "benchmarks" / d).glob("*.jsonl")),
                             "functions", skipped)
    exp_log = _jsonl_bases([root / EXP_LOG_SUITE] if (root / EXP_LOG_SUITE).exists() else [], "exp_log", skipped)
    examples = []
    ex = root / "examples" / "inequalities.lean"
    if ex.exists():
        for m in re.finditer(r"(?ms)^theorem (\w+)\b.*?:= by\s*\n\s*sorry", ex.read_text(encoding="utf-8")):
            b = _base(f"example:{m.group(1)}", m.group(0), skipped)
            if b is not None:
                examples.append(b)
    logb = _hand_written("logb", LOGB_STATEMENTS, skipped)
    return BasePool(benchmarks, examples, seed, skipped, definitions, functions, exp_log, logb,
                    _hand_written("pi", PI_STATEMENTS, skipped), _nvar_bases(root / NVAR_SUITE, skipped),
                    NTERM_SHARE)


def _hand_written(kind: str, texts: tuple[str, ...], skipped: Counter) -> list[Base]:
    """The statements ``texts`` (``theorem NAME …``) as bases ``kind:NAME``."""
    return [b for i, t in enumerate(texts)
            if (b := _base(f"{kind}:{t.split()[1] if t.startswith('theorem') else i}", t, skipped)) is not None]


#: benchmark folders whose statements use `|x|`, `max`, `min` (pooled as ``functions:``)
FUNCTION_SUITES = ("abs_signs", "abs_cases", "max_min")
#: root functions a declaration of the file may shadow (an `aux` declaration is sometimes so named;
#: Mathlib has no root `exp`/`log`, so a declaration so named is a candidate of the short names)
SHADOWABLE = ("max", "min", "abs", "exp", "log", "logb")
#: the statements with ``Real.exp``/``Real.log`` pooled as ``exp_log:`` (the held-out split stays out)
EXP_LOG_SUITE = Path("benchmarks") / "exp_log" / "exp_log_train.jsonl"


# ---------------------------------------------------------------- Lean's state at a theorem


@dataclass
class _Scope:
    kind: str                      # file | section | namespace
    name: str = ""
    opens: tuple[str, ...] = ()
    real_division: bool = False
    scoped: tuple[str, ...] = ()   # `open scoped N`: N's notations only


@dataclass(frozen=True)
class Context:
    """What is in effect at one theorem."""

    opens: tuple[str, ...] = ()
    namespace: tuple[str, ...] = ()
    real_division: bool = False
    unmodelled: tuple[str, ...] = ()   # commands before the theorem whose effect is not modelled
    scoped: tuple[str, ...] = ()       # namespaces opened for their notations only
    declared: tuple[str, ...] = ()     # full names declared in the file before the theorem


@dataclass(frozen=True)
class Expect:
    outcome: str                     # "meaning" | "refuse" | "unknown"
    real_division: bool = False
    reasons: tuple[str, ...] = ()


def _sqrt_nodes(stmt: LStatement) -> list[LExpr]:
    out: list[LExpr] = []

    def walk(e: LExpr) -> None:
        if e.kind == "sqrt":
            out.append(e)
        for a in e.args:
            walk(a)

    for r in stmt.flat_hypotheses() + [stmt.goal]:
        walk(r.lhs)
        walk(r.rhs)
    for d in stmt.definitions().values():   # a body's roots resolve as the statement's
        walk(d.body)
    return out


def _has_decimal(e: LExpr) -> bool:
    return (e.kind == "num" and not e.value.isdigit()) or any(_has_decimal(a) for a in e.args)


def resolve_sqrt(node: LExpr, ctx: Context) -> tuple[str, str]:
    """``("real", "")``, ``("refuse", why)`` or ``("unknown", why)`` for one root node.

    ``√`` and ``Real.sqrt`` are always Real.sqrt (hygienic notation / full name). Unqualified
    ``sqrt``: the innermost enclosing namespace that declares one wins outright; otherwise every
    opened ``N.sqrt`` is a candidate, and a candidate other than Real.sqrt fails exactly when the
    argument elaborates as ℝ on its own (no coercion out of ℝ): else the call is ambiguous.
    """
    sp = node.value
    if sp in ("√", "Real.sqrt"):
        return "real", ""
    if sp != "sqrt":
        return "refuse", f"`{sp}` is not Real.sqrt (not modelled)"
    for i in range(len(ctx.namespace), 0, -1):
        owner = ".".join(ctx.namespace[:i])
        if owner in SQRT_OWNERS:
            return ("real", "") if owner == "Real" else ("refuse", f"`sqrt` is {owner}.sqrt in namespace {owner}")
    cands = sorted({o for o in ctx.opens if o in SQRT_OWNERS})
    if not cands:
        return "refuse", "unknown identifier `sqrt` (no `open Real`)"
    if "Real" not in cands:
        return "refuse", f"`sqrt` is {'/'.join(c + '.sqrt' for c in cands)}"
    if cands == ["Real"] or A.is_real(node.args[0], ctx.real_division):
        return "real", ""
    if _has_decimal(node.args[0]):
        return "unknown", "ambiguous `sqrt` of a decimal (OfScientific instances not modelled)"
    return "refuse", f"ambiguous `sqrt` of a numeral under open {' '.join(cands)}"


def resolve_interval(spelling: str, ctx: Context) -> tuple[str, str]:
    """``("real", "")`` when the set of ``x ∈ spelling a b`` is Mathlib's ``Set.Icc`` … (the
    reading of :func:`lean_ast.membership_parts`), else ``("refuse", why)`` or ``("unknown", why)``.

    Lean's rules (docs/mathlib-name-facts.md §4): ``_root_.N`` is ``N``; otherwise the innermost
    enclosing namespace ``A`` with an ``A.N`` wins outright, else ``N`` and every opened ``O.N``
    are pooled. A declaration of this file among the candidates is not modelled (refused);
    ``Finset.Icc`` on ℝ does not elaborate; ``Set.Icc`` and ``Finset.Icc`` pooled are left to
    overload resolution (not modelled: unknown)."""
    short = spelling.rpartition(".")[2]
    declared = set(ctx.declared)

    def exists(full: str) -> bool:
        owner, _, name = full.rpartition(".")
        return full in declared or (owner in INTERVAL_OWNERS and name == short)

    if spelling.startswith("_root_."):
        name = spelling[len("_root_."):]
        cands = [name] if exists(name) else []
    else:
        cands = []
        for i in range(len(ctx.namespace), 0, -1):
            full = ".".join(ctx.namespace[:i]) + "." + spelling
            if exists(full):
                cands = [full]
                break
        if not cands:
            cands = [n for n in [spelling] + [f"{o}.{spelling}" for o in ctx.opens] if exists(n)]
    cands = sorted(set(cands))
    if any(c in declared for c in cands):
        return "refuse", f"`{spelling}` may name a declaration of this file"
    if not cands:
        return "refuse", f"unknown identifier `{spelling}`"
    if len(cands) > 1:
        return "unknown", f"`{spelling}` is overloaded ({', '.join(cands)}): overload resolution not modelled"
    if cands[0] != f"Set.{short}":
        return "refuse", f"`{spelling}` is `{cands[0]}`, not an interval of reals"
    return "real", ""


def _exp_log_sites(stmt: LStatement) -> list[tuple[LExpr, bool]]:
    """Every ``exp``/``log`` node of the statement (relations, memberships' parts, definition bodies)
    and whether it is *free*: a leaf of a relation side's (or body's) arithmetic tree, elaborated with
    no expected type (elsewhere, e.g. as an argument of a real function, an expected type ℝ may
    decide an overload)."""
    out: list[tuple[LExpr, bool]] = []

    def walk(e: LExpr, free: bool) -> None:
        if e.kind in A.EXP_LOG:
            out.append((e, free))
        for i, x in enumerate(e.args):
            walk(x, free and (e.kind in _ARITHMETIC or (e.kind == "pow" and i == 0)))

    for r in stmt.flat_hypotheses() + [stmt.goal]:
        walk(r.lhs, True)
        walk(r.rhs, True)
    for d in stmt.definitions().values():
        walk(d.body, True)
    return out


def resolve_exp_log(node: LExpr, ctx: Context, free: bool = True) -> tuple[str, str]:
    """``("real", "")`` when the ``exp``/``log`` node means Real.exp/Real.log at ``ctx``, else
    ``("refuse", why)`` or ``("unknown", why)``; ``free``: see :func:`_exp_log_sites`.

    ``Real.exp`` is Real.exp unless a declaration of the file comes first in the namespace walk;
    ``rexp`` is Real's scoped notation (``open Real``, ``open scoped Real``, ``namespace Real``);
    other ``N.exp`` spellings are refused (not modelled). A short ``exp``/``log`` resolves as
    Lean resolves names: the innermost enclosing namespace with one wins outright, else the root and
    every opened ``N.exp`` are pooled (:data:`EXP_LOG_OWNERS`, declarations of the file); a
    declaration of the file among them is refused."""
    kind, sp, ns, declared = node.kind, node.value, ctx.namespace, set(ctx.declared)
    walk = [".".join(ns[:i]) for i in range(len(ns), 0, -1)]
    if sp == "rexp":
        active = "Real" in ctx.opens + ctx.scoped + ns[:1]
        return ("real", "") if active else ("refuse", "unknown identifier `rexp` (Real's scoped notation)")
    if sp == A.EXP_LOG[kind]:
        if any(f"{w}.{sp}" in declared for w in walk):
            return "refuse", f"`{sp}` may name a declaration of this file"
        return "real", ""
    if sp != kind:
        return "refuse", f"`{sp}` is not {A.EXP_LOG[kind]} (not modelled)"
    owners = EXP_LOG_OWNERS[kind]
    for w in walk:   # the namespace walk: the first hit is the only answer
        if w in owners:
            return ("real", "") if w == "Real" else ("refuse", f"`{kind}` is {w}.{kind} in namespace {w}")
        if f"{w}.{kind}" in declared:
            return "refuse", f"`{kind}` may name `{w}.{kind}`, a declaration of this file"
    cands = [("decl", kind)] if kind in declared else []
    for o in sorted(set(ctx.opens)):
        if o in owners:
            cands.append((owners[o], f"{o}.{kind}"))
        elif f"{o}.{kind}" in declared:
            cands.append(("decl", f"{o}.{kind}"))
    return _overload(kind, cands, node.args[0], ctx.real_division, free)


def _overload(kind: str, cands: list[tuple[str, str]], arg: LExpr, real_division: bool,
              free: bool) -> tuple[str, str]:
    """Lean's overload resolution of a short ``exp``/``log`` over ``cands`` ((how, constant))."""
    names = ", ".join(c for _, c in cands)
    if any(how == "decl" for how, _ in cands):
        return "refuse", f"`{kind}` may name a declaration of this file ({names})"
    if not cands:
        return "refuse", f"unknown identifier `{kind}` (no `open Real`)"
    real_arg = A.is_real(arg, real_division)
    live = [(how, c) for how, c in cands if not (how == "nat" and real_arg)]
    hows = {how for how, _ in live}
    if len(live) == 1:
        return ("real", "") if hows == {"real"} else ("refuse", f"`{kind}` is {live[0][1]}, not Real.{kind}")
    if "unknown" in hows:
        return "unknown", f"`{kind}` is overloaded ({names}): ENNReal on a real not modelled"
    if "real" not in hows:
        return "refuse", f"`{kind}` is {names}, none of them Real.{kind}"
    if not free:
        return "unknown", f"`{kind}` is overloaded ({names}) where an expected type may decide: not modelled"
    if hows == {"real", "nat"} and not A.elaborates_at_nat(arg):
        return "unknown", f"`{kind}` is overloaded ({names}) on an argument that is no ℕ term: not modelled"
    return "refuse", f"`{kind}` is ambiguous ({names})"


#: namespaces the fuzzer opens that only this file populates (no Mathlib declaration lives there)
FILE_NAMESPACES = ("Foo",)


def _logb_nodes(stmt: LStatement) -> list[LExpr]:
    """Every ``logb`` node of the statement (relations, memberships' parts, definition bodies)."""
    terms = [x for r in stmt.flat_hypotheses() + [stmt.goal] for x in (r.lhs, r.rhs)]
    terms += [d.body for d in stmt.definitions().values()]
    return [e for t in terms for e in A.subterms(t) if e.kind == "logb"]


def resolve_logb(node: LExpr, ctx: Context) -> tuple[str, str]:
    """``("real", "")`` when the ``logb`` node means Mathlib's ``Real.logb`` at ``ctx``, else
    ``("refuse", why)``.

    The Lean facts assumed (Mathlib v4.16; Lean's ``resolveGlobalName``, docs/mathlib-name-facts.md §4):
    Mathlib declares ``Real.logb`` (``noncomputable def Real.logb (b x : ℝ) : ℝ := log x / log b``,
    not protected); a declaration ``Real.logb`` of the file (``theorem logb`` in ``namespace Real``) is
    rejected by Lean (already declared) and Mathlib's stays; Mathlib has no nested namespace
    ``N.Real`` for the namespaces the fuzzer writes, and only this file populates :data:`FILE_NAMESPACES`.
    Which other namespaces (the root, ``Nat``, ``Complex``, ``NNReal`` …) declare a ``logb`` is NOT
    charted. Hence: ``_root_.Real.logb`` is Real's; ``Real.logb`` is Real's unless the namespace walk
    meets a ``W.Real.logb`` declared by the file; a short ``logb`` is Real's only where the namespace
    walk reaches ``Real`` (innermost first) before any namespace that may hold another ``logb`` (the
    first hit wins outright, so the opens and the root do not matter there); everywhere else
    (``open Real``, no namespace, ``namespace Nat``) it may name an uncharted ``logb``: refused, as
    is any other spelling (``Nat.logb``, ``Real.log b x``, a look-alike)."""
    sp, ns, declared = node.value, ctx.namespace, set(ctx.declared)
    walk = [".".join(ns[:i]) for i in range(len(ns), 0, -1)]
    if sp == "_root_.Real.logb":
        return "real", ""
    if sp == A.LOGB:
        if any(f"{w}.{sp}" in declared for w in walk):
            return "refuse", f"`{sp}` may name a declaration of this file"
        return "real", ""
    if sp != "logb":
        return "refuse", f"`{sp}` is not Real.logb (not modelled)"
    for w in walk:
        if w == "Real":
            return "real", ""
        if f"{w}.logb" in declared:
            return "refuse", f"`logb` may name `{w}.logb`, a declaration of this file"
        if "." in w:       # a nested namespace (`Real.Real`): Mathlib declares nothing there
            continue
        if w.split(".")[0] not in FILE_NAMESPACES:
            return "refuse", f"`logb` may name `{w}.logb` (namespace `{w}`: `logb` not charted)"
    return "refuse", "a short `logb` may name another `logb` (not charted): write `Real.logb`"


def _pi_nodes(stmt: LStatement) -> list[LExpr]:
    """Every ``pi`` node of the statement (relations, memberships' parts, definition bodies)."""
    terms = [x for r in stmt.flat_hypotheses() + [stmt.goal] for x in (r.lhs, r.rhs)]
    terms += [d.body for d in stmt.definitions().values()]
    return [e for t in terms for e in A.subterms(t) if e.kind == "pi"]


#: namespaces with a scoped notation ``π`` (Mathlib: ``Real.pi`` in ``Real``, ``Nat.primeCounting`` in ``Nat``)
PI_NOTATIONS = ("Real", "Nat")


def resolve_pi(node: LExpr, ctx: Context, bound: tuple[str, ...] = ()) -> tuple[str, str]:
    """``("real", "")`` when the ``pi`` node means Mathlib's ``Real.pi`` at ``ctx``, ``("refuse", why)`` when
    Lean rejects it or it may mean something else, ``("unknown", why)`` when the model cannot tell.

    The Lean facts assumed (Mathlib v4.16; Lean's tokenizer and ``resolveGlobalName``,
    docs/mathlib-name-facts.md §4): Mathlib declares ``protected noncomputable def Real.pi : ℝ``; a protected
    name is never found by its short name, neither after ``open Real`` nor inside ``namespace Real``, so a
    short ``pi`` is never ``Real.pi`` (it may be ``NNReal.pi : ℝ≥0`` after ``open NNReal``, which coerces, a
    declaration of the file, or nothing): refused. ``π`` is two scoped notations, ``scoped notation "π" =>
    Real.pi`` (namespace ``Real``) and ``scoped notation "π" => Nat.primeCounting`` (``Nat``); a namespace's
    scoped notations are active after ``open N``, ``open scoped N``, ``open N in`` and inside ``namespace N``
    (not inside ``namespace Foo.N``). Where only Real's is active, the token ``π`` beats the identifier ``π``
    and the notation's right-hand side was resolved where it was declared (hygiene): Mathlib's ``Real.pi``,
    whatever the file declares. With both active the token has two readings (not modelled: refused), with
    neither ``π`` is an identifier (no such constant, or a declaration of the file that is no real number:
    refused). ``Real.pi`` is Mathlib's unless the namespace walk meets a ``W.Real.pi`` declared by the file
    (Mathlib has no nested ``N.Real`` for the namespaces written here; ``theorem pi`` in ``namespace Real``
    is rejected as already declared); ``_root_.Real.pi`` is Mathlib's; other spellings (``NNReal.pi``,
    ``Real.π``, look-alikes) are refused. A ``π``/``pi`` that the statement binds (``bound``) is a local,
    which Lean reads where it is in scope: unknown here."""
    sp, ns, declared = node.value, ctx.namespace, set(ctx.declared)
    if sp in bound:
        return "unknown", f"`{sp}` is also bound by the statement (which occurrence is the local: not modelled)"
    if sp == "π":
        active = [n for n in PI_NOTATIONS if n in ctx.opens + ctx.scoped + ns[:1]]
        if active == ["Real"]:
            return "real", ""
        if not active:
            return "refuse", "`π` is no notation here (Real's `π` is scoped: no `open Real`)"
        return "refuse", f"`π` has the notations of {' and '.join(active)} here (Real.pi, Nat.primeCounting)"
    if sp == "_root_.Real.pi":
        return "real", ""
    if sp == A.PI:
        walk = [".".join(ns[:i]) for i in range(len(ns), 0, -1)]
        if any(f"{w}.{sp}" in declared for w in walk):
            return "refuse", f"`{sp}` may name a declaration of this file"
        return "real", ""
    if sp == "pi":
        return "refuse", "a short `pi` is never `Real.pi` (protected): `NNReal.pi`, a declaration, or unknown"
    return "refuse", f"`{sp}` is not Real.pi (not modelled)"


def _root_function_names(stmt: LStatement) -> set[str]:
    """``max``/``min`` and ``abs`` written as an application (bars are hygienic: always the root)."""
    out: set[str] = set()

    def walk(e: LExpr) -> None:
        if e.kind in ("max", "min") or (e.kind == "abs" and e.value == "abs"):
            out.add(e.kind)
        for a in e.args:
            walk(a)

    for r in stmt.flat_hypotheses() + [stmt.goal]:
        walk(r.lhs)
        walk(r.rhs)
    for d in stmt.definitions().values():
        walk(d.body)
    return out


def _bound_names(stmt: LStatement) -> list[str]:
    """Every name the statement binds: variables, function variables, definition parameters."""
    params = [p for h in stmt.hypotheses if h.definition is not None for p in h.definition.params]
    return list(dict.fromkeys(list(stmt.variables) + [f.name for f in stmt.functions] + params))


def expect_for(stmt: LStatement, ctx: Context, reasons: tuple[str, ...] = ()) -> Expect:
    """The expected outcome for ``stmt`` (as written) at a theorem whose context is ``ctx``."""
    why = list(reasons) + list(ctx.unmodelled)
    unknown = []
    te = A.type_error(stmt, ctx.real_division)
    if te:
        why.append(f"Lean does not elaborate it: {te}")
    for node in _sqrt_nodes(stmt):
        verdict, reason = resolve_sqrt(node, ctx)
        (why if verdict == "refuse" else unknown if verdict == "unknown" else []).append(reason)
    for name in _root_function_names(stmt):
        cands = [name] + [f"{'.'.join(ctx.namespace[:k])}.{name}" for k in range(1, len(ctx.namespace) + 1)]
        if any(c in ctx.declared for c in cands):
            why.append(f"`{name}` may name a declaration of this file")
        if name == "abs" and "Complex" in ctx.opens:   # Complex.abs takes ↑x : ℂ: ambiguous
            why.append("`abs` is ambiguous under `open Complex` (abs, Complex.abs)")
    for node, free in _exp_log_sites(stmt):
        verdict, reason = resolve_exp_log(node, ctx, free)
        (why if verdict == "refuse" else unknown if verdict == "unknown" else []).append(reason)
    why += [reason for verdict, reason in (resolve_logb(n, ctx) for n in _logb_nodes(stmt)) if verdict == "refuse"]
    for node in _pi_nodes(stmt):
        verdict, reason = resolve_pi(node, ctx, tuple(_bound_names(stmt)))
        (why if verdict == "refuse" else unknown if verdict == "unknown" else []).append(reason)
    for h in stmt.hypotheses:
        if h.membership is not None:
            verdict, reason = resolve_interval(h.membership.spelling, ctx)
            (why if verdict == "refuse" else unknown if verdict == "unknown" else []).append(reason)
    active = {t for n in ctx.opens + ctx.scoped + ctx.namespace[:1] for t in SCOPED_TOKENS.get(n, ())}
    why += [f"`{v}` is a notation token here" for v in _bound_names(stmt) if v in active]
    if why:
        return Expect("refuse", ctx.real_division, tuple(dict.fromkeys(why)))
    if unknown:
        return Expect("unknown", ctx.real_division, tuple(unknown))
    return Expect("meaning", ctx.real_division)


# ---------------------------------------------------------------- writing one theorem


@dataclass
class Written:
    """One theorem as it appears in the file, with what the statement alone makes refused."""

    name: str
    stmt: LStatement                   # Lean's reading (spellings included)
    text: str
    signs: dict[str, str]
    reasons: tuple[str, ...] = ()
    rewrites: tuple[str, ...] = ()


PROOFS = (
    ":= by sorry", ":= by sorry", ":= by\n  sorry", ":= sorry",
    ":= by\n  -- end\n  sorry",
    ':= by\n  have h : ("end -/ theorem" : String) = "end -/ theorem" := rfl\n  sorry',
    ":= by\n  open Real in\n  sorry",
    ":= by\n  /- end\n     theorem {name} : (1 : ℝ) = 2 := by sorry -/\n  sorry",
    ":= by\n  -- " + MACRO + "\n  sorry",
)


def render(stmt: LStatement, name: str, rng: random.Random, *, brace: str = "(", real: str = "ℝ",
           binder_names: tuple[str, ...] | None = None, keyword: str = "theorem") -> str:
    close = ")" if brace == "(" else "}"
    parts = [f"{keyword} {name}"]
    names = binder_names if binder_names is not None else stmt.variables
    if names:
        parts.append(f"{brace}{' '.join(names)} : {real}{close}")
    # function variables after the variables (A.show_function_binders), in the same type word
    parts += [b.replace("ℝ", real) for b in A.show_function_binders(stmt.functions)]
    for h in stmt.hypotheses:
        parts.append(f"({h.name} : {A.show_hypothesis(h)})")
    sep = " :\n    " if rng.random() < 0.2 else " : "
    proof = rng.choice(PROOFS).replace("{name}", name)
    return " ".join(parts) + sep + A.show_rel(stmt.goal) + " " + proof


def _map_stmt(stmt: LStatement, f: Callable[[LExpr], LExpr]) -> LStatement:
    def rel(r: LRel) -> LRel:
        return LRel(r.op, f(r.lhs), f(r.rhs))

    hyps = tuple(A.map_hypothesis(h, f) for h in stmt.hypotheses)   # definition bodies included
    return replace(stmt, hypotheses=hyps, goal=rel(stmt.goal))


def _map_expr(e: LExpr, f: Callable[[LExpr], LExpr]) -> LExpr:
    args = tuple(_map_expr(a, f) for a in e.args)
    return f(LExpr(e.kind, args, e.value) if args else e)


def _respell(stmt: LStatement, choose: Callable[[LExpr], str]) -> LStatement:
    return _map_stmt(stmt, lambda e: _map_expr(e, lambda n: replace(n, value=choose(n)) if n.kind == "sqrt" else n))


def _substitute(e: LExpr, names: dict[str, str]) -> LExpr:
    """``e`` with the variables of ``names`` renamed (simultaneously)."""
    return _map_expr(e, lambda n: replace(n, value=names[n.value]) if n.kind == "var" and n.value in names else n)


def _rename(stmt: LStatement, old: str, new: str) -> LStatement | None:
    """The theorem variable ``old`` renamed ``new`` wherever it is that variable: not inside the
    body of a definition with a parameter ``old`` (which shadows it there). None where the
    renaming would change the meaning: ``new`` names a function, or a parameter ``new`` would
    capture ``old`` in a body that uses it."""
    if new in {f.name for f in stmt.functions}:
        return None
    hyps = []
    for h in stmt.hypotheses:
        d = h.definition
        if d is not None and old in d.params:
            hyps.append(h)
            continue
        if d is not None and new in d.params and old in A.free_variables(d.body):
            return None
        hyps.append(A.map_hypothesis(h, lambda e: _substitute(e, {old: new})))
    goal = LRel(stmt.goal.op, _substitute(stmt.goal.lhs, {old: new}), _substitute(stmt.goal.rhs, {old: new}))
    return replace(stmt, variables=tuple(new if v == old else v for v in stmt.variables), hypotheses=tuple(hyps),
                   goal=goal)


def _goal_vars(stmt: LStatement) -> list[str]:
    found: list[str] = []
    _map_expr(stmt.goal.lhs, lambda n: found.append(n.value) or n if n.kind == "var" else n)
    _map_expr(stmt.goal.rhs, lambda n: found.append(n.value) or n if n.kind == "var" else n)
    return sorted(set(found))


def _inject_sqrt(stmt: LStatement, rng: random.Random) -> LStatement:
    spelling = rng.choice(("√", "Real.sqrt", "sqrt", "sqrt", "NNReal.sqrt", "Nat.sqrt"))
    args = [A.num(2), A.num(4), A.op2("div", A.num(1), A.num(2)), A.op1("cast", A.num(2), "ℝ")]
    args += [A.var(v) for v in stmt.variables]
    node = A.op1("sqrt", rng.choice(args), spelling)
    if rng.random() < 0.3:  # the issue's shape: NNReal.sqrt 4 - 3 < 0
        return replace(stmt, goal=LRel("<", A.op2("sub", node, A.num(3)), A.num(0)))
    return _added_to_both_sides(stmt, node)


_FULLWIDTH_REASON = "fullwidth digits are not a Lean numeral"


def _judged_at_end(reason: str) -> bool:
    """Reasons a later rewrite may undo (a renamed variable, a replaced goal): judged on the
    final statement by :func:`_shape_reasons` and the final text, not when the rewrite ran."""
    return reason == _FULLWIDTH_REASON or reason.startswith(("hypothesis `", "variable `", "function `"))


def _shape_reasons(stmt: LStatement) -> tuple[str, ...]:
    """A hypothesis named like a variable; a variable bound twice (both refused, see issue 27)."""
    out = [f"hypothesis `{h.name}` shadows the variable `{h.name}`" for h in stmt.hypotheses
           if h.name in stmt.variables]
    out += [f"variable `{v}` declared twice" for v in sorted(set(stmt.variables))
            if stmt.variables.count(v) > 1]
    functions = [f.name for f in stmt.functions]
    out += [f"function `{f}` is bound twice (also a variable)" for f in functions if f in stmt.variables]
    out += [f"function `{f}` declared twice" for f in sorted(set(functions)) if functions.count(f) > 1]
    out += [f"hypothesis `{h.name}` shadows the function `{h.name}`" for h in stmt.hypotheses
            if h.name in functions]
    return tuple(out)


#: rewrites that only change how the binders are rendered
_REAL_OPTIONS = {"implicit_binders": {"brace": "{"}, "real_word": {"real": "Real"}, "lookalike_type": {"real": "ℜ"}}


def _rewrite_kinds(stmt: LStatement) -> dict[str, float]:
    """The statement rewrites that apply to ``stmt``, with their weights."""
    nodes, vs = _sqrt_nodes(stmt), stmt.variables
    kinds = {"inject_sqrt": 3.0, "implicit_binders": 1.0, "real_word": 1.0, "lookalike_type": 0.4,
             "fullwidth_digit": 0.4}
    if nodes:
        kinds.update(sqrt_bare=2.0, sqrt_qualified=1.0, sqrt_notation=1.0, sqrt_foreign=0.6, sqrt_lookalike=0.3)
    if _goal_vars(stmt):
        kinds.update(shadow_hypothesis=0.5, duplicate_variable=0.4)
    if any(v in LOOKALIKE for v in vs):
        kinds.update(lookalike_binder=0.4, lookalike_everywhere=0.3)
    if any(v in GREEK for v in vs):
        kinds.update(greek_variable=0.8)
    if vs:
        kinds.update(token_variable=0.6)
    if any(h.membership is not None for h in stmt.hypotheses):
        kinds.update(interval_spelling=3.0)
    if vs:
        kinds.update(add_membership=2.5)
    if stmt.definitions():
        kinds.update(rename_parameters=5.0, rename_function=2.5, move_definition=1.5,
                     no_space_function_application=NO_SPACE_FUNCTION_APPLICATION)
    kinds.update(inject_exp_log=1.5)
    sites = _exp_log_sites(stmt)
    if sites:
        kinds.update(exp_log_short=8.0, exp_log_qualified=0.5, exp_log_foreign=0.8)
    if any(n.kind == "exp" for n, _ in sites):
        kinds.update(exp_log_rexp=1.0)
    kinds.update(inject_logb=0.8)
    if _logb_nodes(stmt):
        kinds.update(logb_short=6.0, logb_root=1.0, logb_foreign=1.0)
    kinds.update(inject_pi=0.8)
    if vs:
        kinds.update(pi_variable=0.2)
    pis = _pi_nodes(stmt)
    if pis:
        kinds.update(pi_token=5.0, pi_short=1.5, pi_root=0.8, pi_foreign=1.0)
    if any(n.value != A.PI for n in pis):
        kinds.update(pi_qualified=1.5)
    return kinds


def _rewrite(stmt: LStatement, rng: random.Random) -> tuple[LStatement, str, tuple[str, ...], dict[str, Any]]:
    """One statement rewrite: (statement, wrapper name, reasons to refuse, render options). A
    rewrite that cannot keep the meaning for this statement is skipped: ``…_skipped``."""
    kinds = _rewrite_kinds(stmt)
    k = rng.choices(list(kinds), list(kinds.values()))[0]
    opts: dict[str, Any] = {}
    reasons: tuple[str, ...] = ()
    if k.startswith("sqrt_") and k != "sqrt_foreign":
        sp = {"sqrt_bare": "sqrt", "sqrt_qualified": "Real.sqrt", "sqrt_notation": "√",
              "sqrt_lookalike": "Reаl.sqrt"}[k]
        stmt = _respell(stmt, lambda n: sp)
    elif k == "sqrt_foreign":
        which = rng.choice(_sqrt_nodes(stmt))
        other = rng.choice(("NNReal.sqrt", "Nat.sqrt", "Int.sqrt", "Rat.sqrt"))
        stmt = _respell(stmt, lambda n: other if n is which or n == which else n.value)
    elif k == "inject_sqrt":
        stmt = _inject_sqrt(stmt, rng)
    elif k in ("add_membership", "interval_spelling"):
        stmt = _rewrite_memberships(stmt, k, rng)
    elif k.startswith(("exp_log_", "inject_exp_log")):
        stmt = _rewrite_exp_log(stmt, k, rng)
    elif k.startswith(("logb_", "inject_logb")):
        stmt = _rewrite_logb(stmt, k, rng)
    elif k.startswith(("pi_", "inject_pi")):
        stmt = _rewrite_pi(stmt, k, rng)
    elif k in _REAL_OPTIONS:
        opts.update(_REAL_OPTIONS[k])
    elif k == "fullwidth_digit":
        wide = _map_stmt(stmt, lambda e: _map_expr(
            e, lambda n: replace(n, value=n.value.translate(FULLWIDTH)) if n.kind == "num" else n))
        if wide != stmt:
            stmt, reasons = wide, (_FULLWIDTH_REASON,)
    elif k in _DEFINITION_REWRITES:
        stmt, reasons, opts = _rewrite_definitions(stmt, k, rng)
    else:
        stmt, reasons, opts = _rewrite_names(stmt, k, rng)
    if opts.pop("skipped", False):
        k += "_skipped"
    return stmt, k, reasons, opts


#: spellings of ``exp``/``log`` that are not Real's (refused: another function, an unknown name, a
#: Cyrillic ``а``, a ``Nat.log`` needing two arguments)
FOREIGN_EXP_LOG = {"exp": ("Complex.exp", "EReal.exp", "NNReal.exp", "Nat.exp", "Reаl.exp"),
                   "log": ("Complex.log", "Nat.log", "Int.log", "NNReal.log", "ENNReal.log", "Reаl.log")}


def _respell_exp_log(stmt: LStatement, choose: Callable[[LExpr], str]) -> LStatement:
    return _map_stmt(stmt, lambda e: _map_expr(
        e, lambda n: replace(n, value=choose(n)) if n.kind in A.EXP_LOG else n))


def _added_to_both_sides(stmt: LStatement, node: LExpr) -> LStatement:
    g = stmt.goal
    return replace(stmt, goal=LRel(g.op, A.op2("add", g.lhs, node), A.op2("add", g.rhs, node)))


def _goal_with(stmt: LStatement, node: LExpr, rng: random.Random) -> LStatement:
    """``node`` compared with 0–3 as the new goal (chance 0.3), else added to both sides of the goal."""
    if rng.random() < 0.3:
        return replace(stmt, goal=LRel(rng.choice(("<", "≤", "≥")), node, A.num(rng.randint(0, 3))))
    return _added_to_both_sides(stmt, node)


def _rewrite_exp_log(stmt: LStatement, k: str, rng: random.Random) -> LStatement:
    """``exp``/``log`` respelled: short names (``exp x``, most nodes), qualified, ``rexp``, one node
    foreign (:data:`FOREIGN_EXP_LOG`); or an application injected into the goal."""
    if k == "exp_log_short":
        return _respell_exp_log(stmt, lambda n: n.kind if rng.random() < 0.85 else n.value)
    if k == "exp_log_qualified":
        return _respell_exp_log(stmt, lambda n: A.EXP_LOG[n.kind])
    if k == "exp_log_rexp":
        return _respell_exp_log(stmt, lambda n: "rexp" if n.kind == "exp" and rng.random() < 0.8 else n.value)
    if k == "exp_log_foreign":
        which = rng.choice([n for n, _ in _exp_log_sites(stmt)])
        other = rng.choice(FOREIGN_EXP_LOG[which.kind])
        return _respell_exp_log(stmt, lambda n: other if n == which else n.value)
    return _inject_exp_log(stmt, rng)


def _inject_exp_log(stmt: LStatement, rng: random.Random) -> LStatement:
    """An ``exp``/``log`` application (Real's, short or ``rexp``) of a numeral, ``-2``, ``0``, a
    real numeral, a variable or its inverse, added to both sides of the goal or as a new goal."""
    kind = rng.choice(("exp", "log"))
    spelling = rng.choice((A.EXP_LOG[kind], kind, kind) + (("rexp",) if kind == "exp" else ()))
    args = [A.num(2), A.op1("neg", A.num(2)), A.num(0), A.op2("div", A.num(1), A.num(2)),
            A.op1("cast", A.num(2), "ℝ")]
    args += [A.var(v) for v in stmt.variables] + [A.op1("inv", A.var(v)) for v in stmt.variables]
    node = A.exp_log(kind, rng.choice(args), spelling)
    return _goal_with(stmt, node, rng)


#: spellings of ``logb`` that are not Real's (refused: unknown or other functions, ``Real.log`` given two
#: arguments, a Cyrillic ``а``)
FOREIGN_LOGB = ("Nat.logb", "Complex.logb", "NNReal.logb", "Real.log", "Reаl.logb", "Real.logb'")


def _respell_logb(stmt: LStatement, choose: Callable[[LExpr], str]) -> LStatement:
    return _map_stmt(stmt, lambda e: _map_expr(e, lambda n: replace(n, value=choose(n)) if n.kind == "logb" else n))


def _rewrite_logb(stmt: LStatement, k: str, rng: random.Random) -> LStatement:
    """``Real.logb`` respelled: short ``logb`` (most nodes), ``_root_.Real.logb``, one node foreign
    (:data:`FOREIGN_LOGB`); or an application injected into the goal."""
    if k == "logb_short":
        return _respell_logb(stmt, lambda n: "logb" if rng.random() < 0.85 else n.value)
    if k == "logb_root":
        return _respell_logb(stmt, lambda n: "_root_.Real.logb" if rng.random() < 0.7 else n.value)
    if k == "logb_foreign":
        which = rng.choice(_logb_nodes(stmt))
        other = rng.choice(FOREIGN_LOGB)
        return _respell_logb(stmt, lambda n: other if n == which else n.value)
    return _inject_logb(stmt, rng)


def _inject_logb(stmt: LStatement, rng: random.Random) -> LStatement:
    """A ``Real.logb`` application (maybe spelled ``logb``) with a base ``2``, ``10``, ``1 / 2``, ``1``,
    ``0``, ``-2`` or a variable, of a numeral, a variable or its inverse, added to both sides of the
    goal or as a new goal."""
    bases = [A.num(2), A.num(10), A.op2("div", A.num(1), A.num(2)), A.num(1), A.num(0), A.op1("neg", A.num(2))]
    args = [A.num(8), A.num(0), A.op1("neg", A.num(4)), A.op1("cast", A.num(2), "ℝ")]
    bases += [A.var(v) for v in stmt.variables]
    args += [A.var(v) for v in stmt.variables] + [A.op1("inv", A.var(v)) for v in stmt.variables]
    node = A.logb(rng.choice(bases), rng.choice(args), rng.choice((A.LOGB, A.LOGB, "logb")))
    return _goal_with(stmt, node, rng)


#: spellings of ``pi`` that are not Mathlib's ``Real.pi`` (refused: ``NNReal.pi : ℝ≥0`` (coerced: not
#: modelled), unknown names, ``Real.π`` (one identifier), a Cyrillic ``а``)
FOREIGN_PI = ("NNReal.pi", "Nat.pi", "Complex.pi", "Real.π", "Reаl.pi", "Real.pi'")


def _respell_pi(stmt: LStatement, choose: Callable[[LExpr], str]) -> LStatement:
    return _map_stmt(stmt, lambda e: _map_expr(e, lambda n: replace(n, value=choose(n)) if n.kind == "pi" else n))


def _rewrite_pi(stmt: LStatement, k: str, rng: random.Random) -> LStatement:
    """``Real.pi`` respelled: the token ``π`` (most nodes), ``Real.pi``, ``_root_.Real.pi``, a short ``pi``, one
    node foreign (:data:`FOREIGN_PI`); a variable renamed ``pi``; or a term with π injected into the goal."""
    if k == "pi_token":
        return _respell_pi(stmt, lambda n: "π" if rng.random() < 0.85 else n.value)
    if k == "pi_qualified":
        return _respell_pi(stmt, lambda n: A.PI)
    if k == "pi_root":
        return _respell_pi(stmt, lambda n: "_root_.Real.pi" if rng.random() < 0.7 else n.value)
    if k in ("pi_short", "pi_foreign"):
        which = rng.choice(_pi_nodes(stmt))
        other = "pi" if k == "pi_short" else rng.choice(FOREIGN_PI)
        return _respell_pi(stmt, lambda n: other if n == which else n.value)
    if k == "pi_variable":
        renamed = _rename(stmt, rng.choice(stmt.variables), "pi") if "pi" not in stmt.variables else None
        return stmt if renamed is None else renamed
    return _inject_pi(stmt, rng)


def _inject_pi(stmt: LStatement, rng: random.Random) -> LStatement:
    """``Real.pi`` (spelled ``Real.pi``, ``π``, ``pi`` or ``_root_.Real.pi``) alone, squared, negated, inverted,
    doubled, halved, under ``√`` or ascribed ``ℕ`` (ill-typed), added to both sides of the goal or compared
    with ``3``, ``4``, ``22 / 7``, ``7 / 2`` (real division), ``3.1416`` as a new goal."""
    p = A.real_pi(rng.choice((A.PI, A.PI, "π", "π", "π", "pi", "_root_.Real.pi")))
    node = rng.choice((p, p, A.op2("pow", p, A.num(2)), A.op1("neg", p), A.op1("inv", p), A.op2("mul", A.num(2), p),
                       A.op2("div", p, A.num(2)), A.op1("sqrt", p, "√"), A.op1("cast", p, "ℕ")))
    if rng.random() < 0.4:
        bound = rng.choice((A.num(3), A.num(4), A.op2("div", A.num(22), A.num(7)), A.op2("div", A.num(7), A.num(2)),
                            A.num("3.1416")))
        return replace(stmt, goal=LRel(rng.choice(("<", "≤", ">", "≥")), node, bound))
    return _added_to_both_sides(stmt, node)


def _rewrite_memberships(stmt: LStatement, k: str, rng: random.Random) -> LStatement:
    if k == "add_membership":
        gen = StatementGenerator(0)
        gen.rng, gen.variables = rng, tuple(dict.fromkeys(stmt.variables))
        hyps = gen.memberships(list(stmt.hypotheses))
        return replace(stmt, hypotheses=tuple(
            A.membership_hyp(h.name, replace(h.membership, spelling=rng.choice(INTERVAL_SPELLINGS).format(
                h.membership.spelling.rpartition(".")[2]))) if h.membership is not None else h
            for h in hyps))
    form = rng.choice(INTERVAL_SPELLINGS)
    return replace(stmt, hypotheses=tuple(
        A.membership_hyp(h.name, replace(h.membership, spelling=form.format(
            h.membership.spelling.rpartition(".")[2]))) if h.membership is not None else h
        for h in stmt.hypotheses))


def _rewrite_names(stmt: LStatement, k: str, rng: random.Random) -> tuple[LStatement, tuple[str, ...], dict]:
    if k == "shadow_hypothesis":
        v = rng.choice(_goal_vars(stmt))
        hyps = list(stmt.hypotheses)
        hyps.insert(rng.randint(0, len(hyps)), LHyp(v, (LRel("≤", A.num(0), A.var(v)),)))
        return replace(stmt, hypotheses=tuple(hyps)), (f"hypothesis `{v}` shadows the variable `{v}`",), {}
    if k == "duplicate_variable":
        v = rng.choice(_goal_vars(stmt))
        return replace(stmt, variables=stmt.variables + (v,)), (f"variable `{v}` declared twice",), {}
    candidates = [v for v in stmt.variables if v in LOOKALIKE]
    if k == "lookalike_binder":
        return stmt, (), {"cyrillic_binder": rng.choice(candidates)}
    if k == "lookalike_everywhere":
        v = rng.choice(candidates)
        renamed = _rename(stmt, v, LOOKALIKE[v])
        if renamed is None:
            return stmt, (), {"skipped": True}
        return renamed, (f"`{LOOKALIKE[v]}` (Cyrillic) is not an identifier character",), {}
    if k == "greek_variable":
        v = rng.choice([u for u in stmt.variables if u in GREEK])
        new = GREEK[v]
    else:
        v = rng.choice(stmt.variables)  # token_variable: π/φ/rexp, refused only where they are tokens
        new = rng.choice(("π", "φ", "rexp"))
    if new in stmt.variables:
        return stmt, (), {}
    renamed = _rename(stmt, v, new)
    return (stmt, (), {"skipped": True}) if renamed is None else (renamed, (), {})


# ---------------------------------------------------------------- rewrites of defined functions

#: the rewrites of statements with functions given by a defining equation
_DEFINITION_REWRITES = ("rename_parameters", "rename_function", "move_definition", "no_space_function_application")
#: the weight of ``F(a)`` (no space before an argument: a parse error in Lean 4; refused).
NO_SPACE_FUNCTION_APPLICATION = 1.0
#: how often a parameter may be renamed to a notation token (``π``, ``φ``, ``ψ``, ``rexp``: not a
#: name after ``open Real``/``open Nat``; refused there).
TOKEN_PARAMETERS = 0.1
#: names a definition's parameters may be renamed to (besides the theorem's variables: shadowing)
PARAM_NAMES = ("x", "y", "z", "t", "u", "v", "s", "w", "p", "q", "x'", "y₁")
#: names a function may be renamed to (besides a variable's or another function's: refused)
FUNCTION_RENAMES = ("f", "g", "h'", "F₁", "Φ", "φ", "π", "rexp", "fn")


def _definition_hyps(stmt: LStatement) -> list[int]:
    return [i for i, h in enumerate(stmt.hypotheses) if h.definition is not None]


def _rename_parameters(stmt: LStatement, rng: random.Random) -> LStatement:
    """One definition's parameters renamed within its own body (maybe to a variable's name, which
    they then shadow; now and then to a notation token) and its ``∀`` binder respelled; never to a
    name the body uses from outside (captured), a function's or a hypothesis's."""
    i = rng.choice(_definition_hyps(stmt))
    h = stmt.hypotheses[i]
    d = h.definition
    assert d is not None
    taken = (A.free_variables(d.body) - set(d.params)) | {f.name for f in stmt.functions} | \
        {x.name for x in stmt.hypotheses}
    pool = [n for n in PARAM_NAMES + stmt.variables + stmt.variables if n not in taken]
    if rng.random() < TOKEN_PARAMETERS:
        pool += ["π", "φ", "ψ", "rexp"]
    new: list[str] = []
    for _ in d.params:
        choices = [n for n in pool if n not in new]
        if not choices:
            return stmt
        new.append(rng.choice(choices))
    body = _substitute(d.body, dict(zip(d.params, new)))
    d2 = replace(d, params=tuple(new), body=body, binder=rng.choice(("", "", ":", "()")))
    hyps = list(stmt.hypotheses)
    hyps[i] = A.definition_hyp(h.name, d2)
    return replace(stmt, hypotheses=tuple(hyps))


def _rename_function(stmt: LStatement, rng: random.Random) -> LStatement:
    """A function variable renamed everywhere (binder, equation, applications): to a fresh name,
    a notation token, or (refused: bound twice) a variable's or another function's name; never to
    a parameter's or a hypothesis's name."""
    old = rng.choice([f.name for f in stmt.functions])
    params = {p for i in _definition_hyps(stmt) for p in stmt.hypotheses[i].definition.params}  # type: ignore
    pool = [n for n in FUNCTION_RENAMES if n not in params and n not in {h.name for h in stmt.hypotheses}]
    r = rng.random()
    if r < 0.1 and stmt.variables:
        pool = [n for n in stmt.variables if n not in params] or pool
    elif r < 0.15 and len(stmt.functions) > 1:
        pool = [f.name for f in stmt.functions if f.name != old]
    new = rng.choice(pool)

    def rn(e: LExpr) -> LExpr:
        return _map_expr(e, lambda n: replace(n, value=new) if n.kind == "app" and n.value == old else n)

    hyps = []
    for h in stmt.hypotheses:
        d = h.definition
        if d is not None and d.function == old:
            h = A.definition_hyp(h.name, replace(d, function=new))
        hyps.append(A.map_hypothesis(h, rn))
    functions = tuple(replace(f, name=new) if f.name == old else f for f in stmt.functions)
    return replace(stmt, functions=functions, hypotheses=tuple(hyps),
                   goal=LRel(stmt.goal.op, rn(stmt.goal.lhs), rn(stmt.goal.rhs)))


def _move_definition(stmt: LStatement, rng: random.Random) -> LStatement:
    """A definition hypothesis moved elsewhere among the hypotheses (after a use of its function:
    Lean reads the same theorem; the front-end may refuse it)."""
    hyps = list(stmt.hypotheses)
    d = hyps.pop(rng.choice(_definition_hyps(stmt)))
    hyps.insert(rng.randint(0, len(hyps)), d)
    return replace(stmt, hypotheses=tuple(hyps))


def _rewrite_definitions(stmt: LStatement, k: str, rng: random.Random) -> tuple[LStatement, tuple[str, ...], dict]:
    if k == "rename_parameters":
        return _rename_parameters(stmt, rng), (), {}
    if k == "rename_function":
        return _rename_function(stmt, rng), (), {}
    if k == "move_definition":
        return _move_definition(stmt, rng), (), {}
    return stmt, (), {"no_space_application": True}


def _f_app(text: str, functions: tuple[A.LFun, ...] = ()) -> bool:
    """``f(x)``: in Lean 4 an argument needs whitespace before it (a parse error otherwise); also
    for a function variable ``F(a)`` in the statement."""
    if re.search(r"(?<![\w.])(?:_root_\.)?(?:Real\.)?(?:sqrt|exp|log|logb)\(|(?<![\w.])rexp\(", text) is not None:
        return True
    names = "|".join(re.escape(f.name) for f in functions)
    return bool(names) and re.search(rf"(?<![\w.'₀-₉])(?:{names})\(", text.split(":=")[0]) is not None


def _option_reasons(stmt: LStatement, opts: dict[str, Any]) -> tuple[str, ...]:
    """Render options that make Lean reject the theorem (decided on the final statement)."""
    out: tuple[str, ...] = ()
    if opts.get("real") == "ℜ" and (stmt.variables or stmt.functions):   # written only in binders
        out += ("`ℜ` is not `ℝ`",)
    v = opts.pop("cyrillic_binder", None)
    if v in stmt.variables:
        opts["binder_names"] = tuple(LOOKALIKE[v] if u == v else u for u in stmt.variables)
        out += (f"binder `{LOOKALIKE[v]}` (Cyrillic) is not an identifier character",)
    return out


STATEMENT_COMMENTS = (" /- := ) ( -/", " -- := ) theorem\n   ", " /- /- nested -/ : -/")


def _layout(text: str, rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """Same meaning, other layout: ``lemma`` for ``theorem`` (a Mathlib macro), a comment between
    the binders (with ``:=``, ``)``, ``theorem`` inside)."""
    done: tuple[str, ...] = ()
    if rng.random() < 0.1:
        text, done = re.sub(r"^theorem ", "lemma ", text, count=1), done + ("rewrite:lemma_keyword",)
    m = re.search(r"[)}](?= [({:])", text.split(":=")[0])
    if m is not None and rng.random() < 0.12:
        comment = rng.choice(STATEMENT_COMMENTS)
        text, done = text[:m.end()] + comment + text[m.end():], done + ("rewrite:comment_in_statement",)
    return text, done


def _no_space_function_application(text: str, stmt: LStatement, rng: random.Random) -> str:
    """One application ``F (…`` of the statement written ``F(…`` (a parse error in Lean 4)."""
    head, sep, proof = text.partition(":=")
    spots = [m.start() for f in stmt.functions
             for m in re.finditer(rf"(?<![\w.'₀-₉]){re.escape(f.name)} \(", head)]
    if not spots:
        return text
    at = rng.choice(spots)
    i = head.index(" (", at)
    return head[:i] + head[i + 1:] + sep + proof


def write_theorem(base: Base, name: str, rng: random.Random, rewrite: float = 0.5) -> Written:
    """The asked theorem's text: the base's own text (renamed, another proof) or a rewrite."""
    signs = dict(base.signs)
    if base.text is not None and rng.random() >= rewrite:
        text = re.sub(r"^\s*(theorem|lemma)\s+\S+", f"theorem {name}", base.text, count=1)
        text = re.sub(r":=\s*by\s+sorry\s*$", rng.choice(PROOFS).replace("{name}", name), text)
        text, layout = _layout(text, rng)
        reasons = ("`f(x)` is not an application in Lean 4",) if _f_app(text, base.stmt.functions) else ()
        return Written(name, replace(base.stmt, name=name), text, signs, reasons, ("rewrite:none",) + layout)
    stmt, reasons, opts, done = base.stmt, (), {}, []
    for _ in range(1 if rng.random() < 0.75 else 2):
        stmt, k, r, o = _rewrite(stmt, rng)
        # a later rewrite may replace the part an earlier one changed: the fullwidth digits'
        # reason is judged on the final text below
        reasons, done = reasons + tuple(x for x in r if not _judged_at_end(x)), done + [f"rewrite:{k}"]
        opts.update(o)
    stmt = replace(stmt, name=name)
    reasons += _shape_reasons(stmt) + _option_reasons(stmt, opts)
    no_space = opts.pop("no_space_application", False)
    text = render(stmt, name, rng, **opts)
    spot = re.search(r"\b(?:sqrt|exp|log|logb|rexp) \(", text.split(":=")[0])
    if spot is not None and rng.random() < 0.15:
        text, done = text[:spot.end() - 2] + text[spot.end() - 1:], done + ["rewrite:no_space_application"]
    if no_space:
        text = _no_space_function_application(text, stmt, rng)
    if _f_app(text, stmt.functions):
        reasons += ("`f(x)` is not an application in Lean 4",)
    if any(chr(c) in text for c in FULLWIDTH.values()):
        reasons += (_FULLWIDTH_REASON,)
    text, layout = _layout(text, rng)
    done += list(layout)
    for old, new in zip(base.stmt.variables, stmt.variables):
        if old in signs and old != new:
            signs[new] = signs.pop(old)
    return Written(name, stmt, text, signs, reasons, tuple(done))


# ---------------------------------------------------------------- the file builder


@dataclass
class Asked:
    written: Written
    context: Context
    full_name: str


class FileBuilder:
    """Emits a Lean file command by command and keeps Lean's scope state (docs/mathlib-name-facts.md
    §4c–d): a new scope starts with its parent's opens and macro state; ``open`` and ``local``
    commands change the innermost scope only (gone at its ``end``); a global ``macro_rules``
    enters every scope on the stack, so it survives ``end``."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.scopes = [_Scope("file")]
        self.unmodelled: list[str] = []
        self.decls: Counter = Counter()
        self.asked: list[Asked] = []
        self.wrappers: list[str] = []
        self.aux = 0

    @property
    def top(self) -> _Scope:
        return self.scopes[-1]

    def emit(self, text: str) -> None:
        self.chunks.append(text.rstrip("\n") + "\n")

    def push(self, kind: str, name: str = "") -> None:
        self.emit({"section": f"section {name}".rstrip(), "noncomputable": "noncomputable section",
                   "namespace": f"namespace {name}"}[kind])
        t = self.top
        self.scopes.append(_Scope("namespace" if kind == "namespace" else "section", name, t.opens,
                                  t.real_division, t.scoped))

    def pop(self) -> None:
        s = self.scopes.pop()
        self.emit("end" + (f" {s.name}" if s.name else ""))

    def open(self, names: tuple[str, ...], scoped: bool = False) -> None:
        self.emit("open " + ("scoped " if scoped else "") + " ".join(names))
        if scoped:
            self.top.scoped += names
        else:
            self.top.opens += names

    def macro(self, text: str = MACRO, local: bool = False) -> None:
        self.emit(("local " if local else "") + text)
        for s in (self.scopes[-1:] if local else self.scopes):
            s.real_division = True

    def unmodelled_command(self, text: str) -> None:
        self.emit(text)
        self.unmodelled.append(f"command not modelled: {text.splitlines()[0][:60]}")

    def namespace(self) -> tuple[str, ...]:
        return tuple(p for s in self.scopes if s.kind == "namespace" for p in s.name.split("."))

    def declare(self, name: str) -> str:
        full = ".".join(self.namespace() + (name,))
        self.decls[full] += 1
        return full

    def aux_name(self) -> str:
        self.aux += 1
        return f"aux_{self.aux}"

    def context(self, extra_opens: tuple[str, ...] = ()) -> Context:
        return Context(self.top.opens + extra_opens, self.namespace(), self.top.real_division,
                       tuple(self.unmodelled), self.top.scoped, tuple(self.decls))

    def theorem(self, w: Written, extra_opens: tuple[str, ...] = (), prefix: str = "") -> None:
        self.emit(prefix + w.text)
        self.asked.append(Asked(w, self.context(extra_opens), self.declare(w.name)))

    def finish(self) -> tuple[str, list[tuple[Written, Expect]]]:
        while len(self.scopes) > 1:
            self.pop()
        out = []
        for a in self.asked:
            dup = (f"`{a.full_name}` is declared twice",) if self.decls[a.full_name] > 1 else ()
            if isinstance(a.written, NWritten):
                out.append((a.written, expect_nterm(a.written, a.context, a.written.reasons + dup)))
            else:
                out.append((a.written, expect_for(a.written.stmt, a.context, a.written.reasons + dup)))
        return "\n".join(self.chunks), out


# ---------------------------------------------------------------- wrappers

#: commands whose effect is not modelled: before the theorem the front-end must refuse
UNMODELLED = (
    ("macro_rules_le", "macro_rules | `($x ≤ $y) => `($y ≤ $x)"),
    ("macro_rules_add", "macro_rules | `($x + $y) => `($x * $y)"),
    ("macro_rules_swapped_div", "macro_rules | `($x / $y) => `(HDiv.hDiv ($y : ℝ) ($x : ℝ))"),
    ("macro_rules_rat_div", "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℚ) ($y : ℚ))"),
    ("local_macro_rules_le", "local macro_rules | `($x ≤ $y) => `($x < $y)"),
    ("notation", 'notation:50 a " ≤ " b => b < a'),
    ("infixl", "infixl:65 \" +' \" => HAdd.hAdd"),
    ("infix", 'infix:50 " ≤ " => LT.lt'),
    ("prefix", 'prefix:max "√" => Real.exp'),
    ("postfix", 'postfix:max "⁻¹" => Real.sqrt'),
    ("syntax", 'syntax "mysqrt " term : term'),
    ("macro", 'macro "sqrt " x:term : term => `(Real.exp $x)'),
    ("instance", "instance : LE ℝ := ⟨fun _ _ => True⟩"),
    ("local_instance", "local instance : LT ℝ := ⟨fun _ _ => False⟩"),
    ("variable", "variable (x : ℝ)"),
    ("variable_hyp", "variable {a b : ℝ} (ha : 0 < a)"),
    ("def_sqrt", "def sqrt (x : ℝ) : ℝ := x"),
    ("noncomputable_def_sqrt", "noncomputable def sqrt (x : ℝ) : ℝ := x ^ 2"),
    ("abbrev", "abbrev sqrt (x : ℝ) : ℝ := 0"),
    ("def_other", "def f (x : ℝ) : ℝ := x + 1"),
    ("def_exp", "def exp (x : ℝ) : ℝ := x + 1"),
    ("noncomputable_def_log", "noncomputable def log (x : ℝ) : ℝ := Real.log x + 1"),
    ("notation_rexp", 'local notation "rexp" => Real.log'),
    ("def_logb", "noncomputable def logb (b x : ℝ) : ℝ := Real.log x / Real.log b"),
    ("def_pi", "noncomputable def pi : ℝ := 3"),
    ("notation_pi", 'local notation "π" => (3 : ℝ)'),
    ("def_Icc", "def Icc (a b : ℝ) : Set ℝ := Set.Ioo a b"),
    ("def_Set_Icc", "def Set.Icc' (a b : ℝ) : Set ℝ := Set.Ioo a b"),
    ("notation_Icc", 'notation "Icc" => Set.Ioo'),
    ("attribute", "attribute [simp] mul_comm"),
    ("attribute_instance", "attribute [-instance] Real.instLE"),
    ("set_option_hygiene", "set_option hygiene false"),
    ("open_unknown", "open Qux"),
    ("open_hiding", "open Real hiding sqrt"),
    ("open_renaming", "open Real renaming sqrt → rsqrt"),
)
OPENS = (("Real",), ("Real",), ("Real",), ("Nat",), ("NNReal",), ("Real", "Nat"), ("Nat", "Real"),
         ("Int",), ("Rat",), ("Topology", "BigOperators"), ("Real", "NNReal"), ("Set",), ("Real", "Set"),
         ("Set", "Finset"), ("Finset",), ("Complex",), ("Real", "Complex"), ("Complex", "Real"), ("EReal",),
         ("Real", "EReal"))
AUX = ("(x : ℝ) : x ≤ x + 1", "(a b : ℝ) (h : 0 < b) : a / b * b = a", "(x : ℝ) : x ^ 2 ≥ 0",
       ": Real.sqrt 4 = 2", ": (1 : ℝ) / 2 < 1", "(x : ℝ) (hx : 0 ≤ x) : √x * √x = x")


@dataclass
class _Env:
    rng: random.Random
    pool: BasePool
    index: int
    target: str = ""
    names: set[str] = field(default_factory=set)


def _aux(b: FileBuilder, env: _Env, doc: str = "") -> None:
    """Another declaration with a proof (never asked): tricky tokens in its proof and name."""
    rng = env.rng
    kw = rng.choice(("theorem", "lemma", "example", "theorem"))
    prefix = doc
    if rng.random() < 0.2:
        prefix = rng.choice(("open Real in\n", "set_option maxHeartbeats 400000 in\n")) + prefix
    if rng.random() < 0.2 and kw != "example":
        prefix += "@[simp] "
    name = ""
    if kw != "example":
        n = rng.choice(SHADOWABLE) if rng.random() < 0.05 else b.aux_name()
        name = " " + (f"«{n} end -/»" if rng.random() < 0.15 else n)
        b.declare(name.strip())
    proof = rng.choice(PROOFS).replace("{name}", env.target)
    b.emit(f"{prefix}{kw}{name} {rng.choice(AUX)} {proof}")


def _item_comment_macro(b: FileBuilder, env: _Env) -> str:
    form = env.rng.choice(("line", "block", "nested", "doc", "module_doc", "string", "trailing"))
    m = env.rng.choice(MACRO_SPELLINGS[:2])
    if form == "doc":
        _aux(b, replace(env), doc=f"/-- {m} -/\n")
    elif form == "trailing":
        b.emit(f"example : (1 : ℝ) ≤ 2 := by norm_num -- {m}")
    else:
        b.emit({"line": f"-- {m}", "block": f"/-\n{m}\n-/", "nested": f"/- outer /- inner -/\n{m}\n-/",
                "module_doc": f"/-! {m} -/",
                "string": f'example : ("{m}" : String).length > 0 := by decide'}[form])
    return f"{form}_comment_macro" if form not in ("string",) else "string_macro"


def _item_macro(b: FileBuilder, env: _Env) -> str:
    rng = env.rng
    form = rng.choice(("active", "active", "local", "local_closed_section", "global_closed_scope",
                       "after_nested_comment"))
    if form == "active":
        b.macro(rng.choice(MACRO_SPELLINGS))
    elif form == "local":
        b.macro(local=True)
    elif form == "after_nested_comment":
        b.emit("/- a /- b -/ c -/")
        b.macro()
    else:
        local = form == "local_closed_section"
        b.push(*(("section", "") if local or rng.random() < 0.5 else ("namespace", "Foo")))
        b.macro(local=local)
        if rng.random() < 0.5:
            _aux(b, env)
        b.pop()
    return f"macro_{form}"


def _item_unmodelled(b: FileBuilder, env: _Env) -> str:
    name, text = env.rng.choice(UNMODELLED)
    b.unmodelled_command(text)
    return f"unmodelled:{name}"


def _item_open(b: FileBuilder, env: _Env) -> str:
    if env.rng.random() < 0.1:
        b.open(("Real",), scoped=True)
        return "open_scoped_Real"
    names = env.rng.choice(OPENS)
    b.open(names)
    return "open_" + "_".join(names)


def _item_aux(b: FileBuilder, env: _Env) -> str:
    _aux(b, env, doc=env.rng.choice(("", "", "/-- A lemma. -/\n", "/-- doc /- nested -/ end -/\n")))
    return "aux_decl"


def _item_decoy(b: FileBuilder, env: _Env) -> str:
    t = env.target
    form = env.rng.choice(("line", "block", "string", "doc"))
    b.emit({"line": f"-- theorem {t} (x : ℝ) : x < x := by sorry",
            "block": f"/- theorem {t} : (1 : ℝ) = 2 := by sorry\n/- end -/ -/",
            "string": f'example : ("theorem {t} : (1 : ℝ) = 2 := by sorry" : String).length > 0 := by decide',
            "doc": f"/-- theorem {t} : (1 : ℝ) = 2 -/\nexample : (0 : ℝ) ≤ 1 := by norm_num"}[form])
    return f"decoy_{form}"


def _item_scope(b: FileBuilder, env: _Env) -> str:
    """A section or namespace closed before the theorem, with commands inside."""
    rng = env.rng
    kind, name = rng.choice((("section", ""), ("section", "Foo"), ("noncomputable", ""), ("namespace", "Foo"),
                             ("namespace", "Real"), ("namespace", "Nat"), ("namespace", "Set")))
    b.push(kind, name)
    inner = [rng.choice(INNER)(b, env) for _ in range(rng.randint(0, 2))]
    b.pop()
    b.wrappers += [f"in_closed_scope:{w}" for w in inner]
    return f"closed_{kind}{'_' + name if name else ''}"


def _item_interval_decl(b: FileBuilder, env: _Env) -> str:
    """A declaration named like an interval (``Icc``, in the current namespace: ``Set.Icc`` inside
    ``namespace Set``, where it clashes with Mathlib's), maybe in its own ``namespace Set``."""
    rng = env.rng
    name = rng.choice(sorted(A.INTERVALS))
    inside = rng.random() < 0.4
    if inside:
        b.push("namespace", "Set")
    b.emit(f"theorem {name} : (1 : ℝ) ≤ 2 := by norm_num")
    b.declare(name)
    if inside:
        b.pop()
    return f"interval_decl{'_in_Set' if inside else ''}"


def _item_exp_log_decl(b: FileBuilder, env: _Env) -> str:
    """A declaration named ``exp``/``log``: at the root or in ``namespace Foo``/``Nat`` (a candidate
    of the short name there, or after ``open Nat``), or in ``namespace Real`` (Mathlib's ``Real.exp``
    exists: Lean rejects the declaration and keeps Mathlib's)."""
    rng = env.rng
    name, ns = rng.choice(("exp", "log")), rng.choice(("", "", "Foo", "Real", "Nat"))
    if ns:
        b.push("namespace", ns)
    b.emit(f"{rng.choice(('theorem', 'lemma'))} {name} (x : ℝ) : x ≤ x + 1 := by sorry")
    b.declare(name)
    if ns:
        b.pop()
    return f"exp_log_decl{'_in_' + ns if ns else ''}"


def _item_logb_decl(b: FileBuilder, env: _Env) -> str:
    """A declaration named ``logb``: at the root or in ``namespace Foo``/``Nat`` (a candidate of a short
    ``logb`` there), or in ``namespace Real`` (Mathlib's ``Real.logb`` exists: Lean rejects the
    declaration and keeps Mathlib's)."""
    rng = env.rng
    ns = rng.choice(("", "", "Foo", "Real", "Nat"))
    if ns:
        b.push("namespace", ns)
    b.emit(f"{rng.choice(('theorem', 'lemma'))} logb (x : ℝ) : x ≤ x + 1 := by sorry")
    b.declare("logb")
    if ns:
        b.pop()
    return f"logb_decl{'_in_' + ns if ns else ''}"


def _item_pi_decl(b: FileBuilder, env: _Env) -> str:
    """A declaration named ``pi`` or ``π``: at the root or in ``namespace Foo``/``Nat``, in ``namespace Real``
    (Mathlib's ``Real.pi`` exists: Lean rejects it and keeps Mathlib's) or in ``namespace Foo.Real`` (then
    ``Real.pi`` inside ``namespace Foo`` names it). A short ``pi`` is refused anyway; ``π`` keeps its meaning
    (the token beats the identifier where a notation is active; elsewhere it is refused)."""
    rng = env.rng
    name = "π" if rng.random() < 0.25 else "pi"
    ns = rng.choice(("", "", "Foo", "Real", "Nat", "Foo.Real", "Foo.Real"))
    if ns:
        b.push("namespace", ns)
    b.emit(f"{rng.choice(('theorem', 'lemma'))} {name} (x : ℝ) : x ≤ x + 1 := by sorry")
    b.declare(name)
    if ns:
        b.pop()
    return f"pi_decl{'_token' if name == 'π' else ''}{'_in_' + ns.replace('.', '_') if ns else ''}"


def _item_set_option(b: FileBuilder, env: _Env) -> str:
    if env.rng.random() < 0.5:
        b.emit("set_option maxHeartbeats 400000")
        return "set_option"
    b.emit("set_option maxHeartbeats 400000 in")
    _aux(b, env)
    return "set_option_in_aux"


def _item_other_theorem(b: FileBuilder, env: _Env) -> str:
    base = env.pool.pick(env.rng, env.index + 1_000_003)
    name = base.stmt.name
    while name in env.names or name == env.target:
        name += "_2"
    env.names.add(name)
    if isinstance(base, NBase):
        b.theorem(write_nterm(base, name, env.rng, rewrite=0.3))
    else:
        b.theorem(write_theorem(base, name, env.rng, rewrite=0.3))
    return "other_theorem"


INNER: tuple[Callable[[FileBuilder, _Env], str], ...] = (
    _item_open, _item_open, _item_macro, _item_aux, _item_comment_macro, _item_unmodelled, _item_set_option)
ITEMS: tuple[tuple[Callable[[FileBuilder, _Env], str], float], ...] = (
    (_item_comment_macro, 3.0), (_item_macro, 2.5), (_item_unmodelled, 0.9), (_item_open, 2.0),
    (_item_aux, 2.0), (_item_decoy, 1.0), (_item_scope, 2.0), (_item_set_option, 0.6),
    (_item_other_theorem, 0.8), (_item_interval_decl, 0.4), (_item_exp_log_decl, 0.4), (_item_logb_decl, 0.3),
    (_item_pi_decl, 0.3))
POST: tuple[tuple[Callable[[FileBuilder, _Env], str], float], ...] = (
    (_item_macro, 2.0), (_item_unmodelled, 2.0), (_item_aux, 1.0), (_item_other_theorem, 1.0),
    (_item_decoy, 0.5), (_item_open, 0.5))


def _header(b: FileBuilder, env: _Env) -> str:
    r = env.rng.choices(("bare", "import", "open_real", "minif2f", "lips", "open_real_nnreal", "comment_first",
                         "examples_prelude"), (1, 1, 4, 3, 3, 1, 1, 1))[0]
    if r != "bare":
        b.emit("/- A file. /- nested -/ -/\nimport Mathlib" if r == "comment_first" else "import Mathlib")
    if r == "examples_prelude":  # examples/inequalities.lean's own header and module doc
        b.open(("Real",))
        b.emit(EXAMPLES_DOC)
    if r == "minif2f":
        b.emit("import Aesop\n\nset_option maxHeartbeats 400000\n")
        b.open(("BigOperators", "Real", "Nat", "Topology", "Rat"))
    elif r in ("open_real", "lips", "comment_first", "open_real_nnreal"):
        b.open(("Real", "NNReal") if r == "open_real_nnreal" else ("Real",))
    if r == "lips":
        b.macro()
    return r


def _enclose(b: FileBuilder, env: _Env) -> str:
    """A scope still open at the theorem (closed after it)."""
    rng = env.rng
    kind, name = rng.choice((("section", ""), ("section", "S"), ("noncomputable", ""), ("namespace", "Foo"),
                             ("namespace", "Real"), ("namespace", "Real"), ("namespace", "Nat"),
                             ("namespace", "NNReal"), ("namespace", "Set")))
    b.push(kind, name)
    inner = [rng.choice(INNER)(b, env) for _ in range(rng.randint(0, 2))]
    b.wrappers += [f"in_enclosing_scope:{w}" for w in inner]
    return f"{kind}{'_' + name if name else ''}"


#: for a statement applying ``logb``: the chance of a declaration named ``logb`` before it, and of a
#: ``namespace Real`` around it (where a short ``logb`` is Real's)
LOGB_CONTEXT = (0.3, 0.15)


def _logb_context(b: FileBuilder, env: _Env) -> list[str]:
    """More of the contexts that ``logb``'s resolution depends on, for a statement that applies it."""
    out = []
    if env.rng.random() < LOGB_CONTEXT[0]:
        out.append("item:" + _item_logb_decl(b, env))
    if env.rng.random() < LOGB_CONTEXT[1]:
        b.push("namespace", "Real")
        out.append("enclose:logb_namespace_Real")
    return out


#: for a statement with ``Real.pi``/``π``: the chance of a declaration named ``pi``/``π`` before it, and of
#: one of the :data:`PI_SCOPES` around it
PI_CONTEXT = (0.25, 0.6)
#: opens and namespaces that decide what ``π``, ``pi`` and ``Real.pi`` mean (``open scoped Nat`` adds Nat's
#: ``π`` to a header's ``open Real``; ``open NNReal`` makes a short ``pi`` ``NNReal.pi``)
PI_SCOPES = (("open", "Real"), ("open", "Real"), ("open", "Real Nat"), ("open", "Nat Real"), ("open scoped", "Real"),
             ("open scoped", "Nat"), ("open", "NNReal"), ("open", "Real NNReal"), ("namespace", "Real"),
             ("namespace", "Real"), ("namespace", "Foo"), ("namespace", "Foo"), ("namespace", "Nat"))


def _pi_context(b: FileBuilder, env: _Env) -> list[str]:
    """More of the contexts that ``π``'s and ``Real.pi``'s meanings depend on, for a statement with them."""
    out = []
    if env.rng.random() < PI_CONTEXT[0]:
        out.append("item:" + _item_pi_decl(b, env))
    if env.rng.random() < PI_CONTEXT[1]:
        how, names = env.rng.choice(PI_SCOPES)
        if how == "namespace":
            b.push("namespace", names)
        else:
            b.open(tuple(names.split()), scoped=how == "open scoped")
        out.append(f"pi_scope:{how.replace(' ', '_')}_{names.replace(' ', '_')}")
    return out


def _prefix(env: _Env) -> tuple[str, tuple[str, ...], list[str]]:
    """The theorem's own ``open … in`` / ``set_option … in`` / doc comment."""
    rng, text, opens, labels = env.rng, "", (), []
    if rng.random() < 0.15:
        opens = rng.choice(OPENS)
        text += f"open {' '.join(opens)} in\n"
        labels.append("prefix:open_in")
    if rng.random() < 0.08:
        text += "set_option maxHeartbeats 400000 in\n"
        labels.append("prefix:set_option_in")
    if rng.random() < 0.2:
        text += rng.choice(("/-- The statement. -/\n", f"/-- {MACRO} -/\n", f"/-- a /- b -/ {MACRO} -/\n"))
        labels.append("prefix:doc_comment")
    return text, opens, labels


@dataclass
class Variant:
    index: int
    source: str
    text: str
    targets: list[tuple[Written, Expect]]
    wrappers: list[str]


def make_variant(index: int, seed: int, pool: BasePool) -> Variant:
    """The ``index``-th file of a seeded run (deterministic)."""
    rng = random.Random(f"context:{seed}:{index}")
    b, env = FileBuilder(), _Env(rng, pool, index)
    base = pool.pick(rng, index)
    env.target = base.stmt.name
    env.names.add(env.target)
    if isinstance(base, NBase):
        return _make_nterm_variant(index, base, b, env)
    b.wrappers.append("header:" + _header(b, env))
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
        b.wrappers.append("item:" + rng.choices([f for f, _ in ITEMS], [w for _, w in ITEMS])[0](b, env))
    if has_logb(base.stmt):
        b.wrappers += _logb_context(b, env)
    if has_pi(base.stmt):
        b.wrappers += _pi_context(b, env)
    if rng.random() < 0.3:
        b.wrappers.append("enclose:" + _enclose(b, env))
    prefix, opens, labels = _prefix(env)
    b.wrappers += labels
    written = write_theorem(base, env.target, rng)
    b.wrappers += list(written.rewrites)
    dup = rng.choice(("before", "after")) if rng.random() < 0.04 else ""
    duplicate = f"theorem {env.target} (x : ℝ) : x ≤ x := by sorry"
    if dup == "before":
        b.emit(duplicate)
        b.declare(env.target)
    b.theorem(written, opens, prefix)
    if dup == "after":
        b.emit(duplicate)
        b.declare(env.target)
    if dup:
        b.wrappers.append(f"duplicate_name_{dup}")
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        b.wrappers.append("post:" + rng.choices([f for f, _ in POST], [w for _, w in POST])[0](b, env))
    text, targets = b.finish()
    return Variant(index, base.source, text, targets, b.wrappers)


# ---------------------------------------------------------------- checking one asked theorem


@dataclass
class Failure:
    index: int
    kind: str          # misreading | accepted_must_refuse | crash | multi_line_error | shape
    target: str
    source: str
    expected: str
    detail: str
    wrappers: list[str]
    file: str


@dataclass
class ContextReport:
    seed: int
    points: int
    variants: int = 0
    checks: int = 0                    # asked theorems (a variant asks one or two)
    accepted: int = 0
    refused: int = 0
    must_refuse: int = 0               # checks whose expected outcome is a refusal
    refused_where_expected: int = 0
    compared: int = 0                  # accepted checks compared with Lean's meaning
    unknown: int = 0                   # expected outcome not modelled: not checked
    pairs: int = 0                     # (accepted check, point) pairs with a comparison
    comparisons: int = 0
    misreadings: list[Failure] = field(default_factory=list)
    crashes: list[Failure] = field(default_factory=list)
    other_failures: list[Failure] = field(default_factory=list)
    per_wrapper: dict[str, Counter] = field(default_factory=dict)
    skipped_bases: dict[str, int] = field(default_factory=dict)
    refusals: Counter = field(default_factory=Counter)
    duration_s: float = 0.0
    definition_variants: int = 0       # variants with an asked theorem that has defined functions
    definition_checks: int = 0         # asked theorems with defined functions
    definition_accepted: int = 0
    definition_pairs: int = 0          # (accepted such theorem, point) pairs compared
    #: asked theorems that apply exp/log: checks, must_refuse, refused, accepted, compared, pairs
    exp_log: Counter = field(default_factory=Counter)
    #: the same for asked theorems that apply Real.logb
    logb: Counter = field(default_factory=Counter)
    #: the same for asked theorems with Real.pi (any spelling: π, pi, …)
    pi: Counter = field(default_factory=Counter)
    #: asked theorems over n terms: checks, unknown, must_refuse, refused, refused_where_expected,
    #: accepted, compared, pairs, empty_sum_pairs (pairs at n = 0)
    nterm: Counter = field(default_factory=Counter)

    @property
    def failures(self) -> int:
        return len(self.misreadings) + len(self.crashes) + len(self.other_failures)

    def count(self, wrappers: list[str], key: str) -> None:
        for w in dict.fromkeys(wrappers):
            self.per_wrapper.setdefault(w, Counter())[key] += 1

    def to_json(self, max_examples: int = 50) -> dict[str, Any]:
        kinds = Counter(f.kind for f in self.misreadings)
        return {
            "seed": self.seed, "points_per_check": self.points, "variants": self.variants,
            "checks": self.checks, "accepted": self.accepted, "refused": self.refused,
            "must_refuse": self.must_refuse, "refused_where_expected": self.refused_where_expected,
            "accepted_where_refusal_required": kinds["accepted_must_refuse"],
            "compared": self.compared, "unknown_not_checked": self.unknown, "pairs": self.pairs,
            "comparisons": self.comparisons, "failures": self.failures,
            "misreadings": len(self.misreadings), "misreadings_by_kind": dict(kinds),
            "crashes": len(self.crashes), "other_failures": len(self.other_failures),
            "examples": [asdict(f) for f in (self.misreadings + self.crashes + self.other_failures)[:max_examples]],
            "per_wrapper": {w: dict(c) for w, c in sorted(self.per_wrapper.items())},
            "skipped_bases_unreadable": self.skipped_bases,
            "top_refusals": self.refusals.most_common(20), "duration_s": round(self.duration_s, 2),
            "defined_functions": {"variants": self.definition_variants, "checks": self.definition_checks,
                            "accepted": self.definition_accepted, "pairs": self.definition_pairs},
            "exp_log": dict(self.exp_log), "logb": dict(self.logb), "pi": dict(self.pi),
            "nterm": dict(self.nterm),
        }


def _describe(e: Expect) -> str:
    if e.outcome == "refuse":
        return "refuse: " + "; ".join(e.reasons)
    return "meaning" + (" with real division" if e.real_division else " (ℕ division)")


def _solve_equalities(stmt: LStatement, point: dict[str, Fraction]) -> dict[str, Fraction]:
    """Move ``point`` onto the equality hypotheses that are affine in one variable (exactly), so
    that goals under constraints like ``a + b + c = 3`` or ``a * b * c = 1`` get compared."""
    p, fixed, defs = dict(point), set(), stmt.definitions()
    for r in stmt.flat_hypotheses():
        if r.op != "=":
            continue
        for v in reversed(stmt.variables):
            if v in fixed:
                continue
            g = []
            for t in (0, 1, 2):
                rv = A.rel_value(r, {**p, v: Fraction(t)}, defs=defs)
                if rv.lhs is None or rv.rhs is None or not (rv.lhs.is_exact and rv.rhs.is_exact):
                    break
                g.append(rv.lhs.lo - rv.rhs.lo)
            if len(g) == 3 and g[1] != g[0] and g[2] - g[1] == g[1] - g[0]:
                q = {**p, v: -g[0] / (g[1] - g[0])}
                if A.rel_value(r, q, defs=defs).verdict:
                    p, fixed = q, fixed | {v}
                    break
    return p


def _points(stmt: LStatement, signs: dict[str, str], k: int, rng: random.Random) -> list[dict[str, Fraction]]:
    pts = points_for(stmt, signs, k + 1, rng)
    pts = pts[1:] if (signs or any(r.op == "=" for r in stmt.flat_hypotheses())) and len(pts) > 1 else pts[:k]
    try:
        return [_solve_equalities(stmt, p) for p in pts]
    except (ArithmeticError, ValueError):
        return pts


def _fail(report: ContextReport, bucket: list[Failure], v: Variant, w: Written, e: Expect, kind: str,
          detail: str) -> None:
    bucket.append(Failure(v.index, kind, w.name, v.source, _describe(e), detail, v.wrappers, v.text))
    report.count(v.wrappers, "failures")


def _tally(report: ContextReport, stmt: LStatement, **counts: bool) -> None:
    """Count ``counts`` in the suites ``stmt`` belongs to: applying exp/log, applying logb, with Real.pi."""
    for counter, applies in ((report.exp_log, has_exp_log(stmt)), (report.logb, has_logb(stmt)),
                             (report.pi, has_pi(stmt))):
        counter.update({k: applies and c for k, c in counts.items()})


def check_target(v: Variant, w: Written, e: Expect, points: int, report: ContextReport,
                 parse: Callable[[str, str], Any], time_limit: float = 20.0) -> None:
    """Ask the front-end for one theorem of a variant and judge the answer against ``e``."""
    if isinstance(w, NWritten):
        check_nterm_target(v, w, e, points, report, parse, time_limit)
        return
    report.checks += 1
    report.count(v.wrappers, "checks")
    _tally(report, w.stmt, checks=True, unknown=e.outcome == "unknown")
    if e.outcome == "unknown":
        report.unknown += 1
        return
    must = e.outcome == "refuse"
    report.must_refuse += must
    _tally(report, w.stmt, must_refuse=must)
    report.count(v.wrappers, "must_refuse" if must else "meaning")
    inner = FuzzReport(report.seed)
    ok, problem = _parse_statement(v.text, inner, lambda text: parse(text, w.name), time_limit)
    for c in inner.crashes:
        _fail(report, report.crashes, v, w, e, "crash", c.split("  ==>  ")[-1])
    for m in inner.multi_line_errors:
        _fail(report, report.other_failures, v, w, e, "multi_line_error", m.split("  ==>  ")[-1])
    if not ok:
        if not inner.crashes:
            report.refused += 1
            _tally(report, w.stmt, refused=True)
            report.refused_where_expected += must
            report.count(v.wrappers, "refused")
            report.refusals.update(inner.refusals)
        return
    report.accepted += 1
    report.definition_accepted += bool(w.stmt.functions)
    _tally(report, w.stmt, accepted=True)
    report.count(v.wrappers, "accepted")
    if must:
        _fail(report, report.misreadings, v, w, e, "accepted_must_refuse",
              f"accepted as {problem.goal} (hypotheses {[str(h.rel) for h in problem.hypotheses]})")
        return
    _compare(v, w, e, problem, points, report, inner)


def _compare(v: Variant, w: Written, e: Expect, problem: Any, points: int, report: ContextReport,
             inner: FuzzReport) -> None:
    lean = A.expand_real_division(w.stmt) if e.real_division else w.stmt
    assert isinstance(lean, LStatement)
    ast_rels = lean.flat_hypotheses() + [lean.goal]
    names = [h.name for h in lean.hypotheses for _ in h.parts] + ["goal"]
    fe_rels = [h.rel for h in problem.hypotheses] + [problem.goal]
    extra = set(problem.variables) - set(lean.variables)
    if len(fe_rels) != len(ast_rels) or extra:
        _fail(report, report.misreadings, v, w, e, "shape",
              f"{len(fe_rels)} relations (Lean: {len(ast_rels)}), variables {list(problem.variables)}")
        return
    report.compared += 1
    sympy_forms = _sympy_forms(fe_rels, list(problem.variables), w.text, inner)
    faithful = _faithful_rels(problem, len(ast_rels), w.text, inner)
    forms = _StatementForms(v.index, w.text, names, ast_rels, fe_rels, sympy_forms, faithful, lean.definitions())
    rng = random.Random(f"points:{report.seed}:{v.index}:{w.name}")
    for point in _points(lean, w.signs, points, rng):
        compared = _compare_at_point(forms, point, inner)
        report.pairs += compared
        report.definition_pairs += compared and bool(lean.functions)
        _tally(report, lean, pairs=compared)
    report.comparisons += inner.comparisons + inner.faithful_comparisons
    for d in inner.disagreements:
        _fail(report, report.misreadings, v, w, e, "misreading",
              f"{d.relation} ({d.form}/{d.kind}) at {d.point}: lean {d.lean} | front-end {d.frontend} "
              f"[{d.frontend_text}]")
        break
    for s in inner.shape_mismatches:
        _fail(report, report.misreadings, v, w, e, "shape", s.split("  ==>  ")[-1])


def _default_parse(text: str, name: str) -> Any:
    from prover.frontend.statement import parse_theorem

    return parse_theorem(text, real_division=False, name=name)


def run_context_fuzz(variants: int, seed: int = 0, points: int = 3, *,
                     progress: Callable[[ContextReport], None] | None = None, progress_every: int = 250,
                     parse: Callable[[str, str], Any] | None = None, time_limit: float = 20.0,
                     pool: BasePool | None = None) -> ContextReport:
    """Build ``variants`` files (seeded) and check every asked theorem in each."""
    parse = parse or _default_parse
    pool = pool or load_pool(seed)
    report = ContextReport(seed, points, skipped_bases=dict(pool.skipped))
    start = time.monotonic()
    for i in range(variants):
        v = make_variant(i, seed, pool)
        report.variants += 1
        report.definition_variants += any(w.stmt.functions for w, _ in v.targets)
        report.count(v.wrappers + ["base:" + v.source.split(":")[0]], "variants")
        for w, e in v.targets:
            report.definition_checks += bool(w.stmt.functions)
            v.wrappers.append("base:" + v.source.split(":")[0])
            check_target(v, w, e, points, report, parse, time_limit)
            v.wrappers.pop()
        if progress is not None and (i + 1) % progress_every == 0:
            report.duration_s = time.monotonic() - start
            progress(report)
    report.duration_s = time.monotonic() - start
    return report


# ---------------------------------------------------------------- statements over n terms
#
# A share of the variants (:data:`NTERM_SHARE`) asks a statement over n terms (docs/design-nterm-sums.md):
# ``(n : ℕ)``, families ``Fin n → ℝ`` summed ``∑ i, …`` / ``∑ i : Fin n, …`` or ``ℕ → ℝ`` summed
# ``∑ i ∈ Finset.range n, …`` (``in``), per-index hypotheses ``∀ i, …`` / ``∀ i : Fin n, …`` /
# ``∀ i ∈ Finset.range n, …`` / ``∀ i < n, …``. Lean's reading of such a statement as written is a
# :class:`~prover.semantics.nterm.NStatement` (read and evaluated by :mod:`prover.semantics.nterm`,
# independent of the front-end), in the file's context:
#
# * the names it uses: ``Fin`` and ``Finset.range`` (or a short ``range``, ``_root_.Fin``,
#   ``_root_.Finset.range``), resolved by :func:`resolve_fin` / :func:`resolve_range` (Lean's
#   ``resolveGlobalName``: a local first, then the namespace walk, then the root and the opens pooled);
#   ``∑`` is global notation (Mathlib's ``bigsum``, hygienic: ``Finset.sum``), ``open BigOperators`` and
#   ``open scoped BigOperators`` change nothing; ``π``/``Real.pi`` in a body: :func:`resolve_pi`;
# * the LIPS macro, when in effect: every ``a / b`` is ``(a : ℝ) / (b : ℝ)`` (:func:`nterm_lean`);
# * :func:`nterm.refusal` on that reading: a Lean error, or a construct outside the accepted subset
#   (both must be refused, as ``fuzz-nterm`` requires).
#
# The front-end must then refuse (one line) or give ``problem.nterm.statement``, compared with Lean's
# values at points with n ∈ {0, 1, 2, 3, 5} by ``fuzz-nterm``'s comparison (:func:`fuzz_nterm._compare`).

#: the share of picks (of a pool with benchmarks) that are statements over n terms
NTERM_SHARE = 0.15
#: the share of generated n-term statements with a construct the front-end must refuse
NTERM_REFUSE_SHARE = 0.08
#: statements over n terms pooled as ``nvar:`` (the held-out split stays out)
NVAR_SUITE = Path("benchmarks") / "nvar" / "nvar_train.jsonl"
#: full names that Mathlib (or core) declares among those the fuzzer's declarations take: a file's
#: declaration so named is rejected by Lean ("already declared") and Mathlib's stays
MATHLIB_DECLARED = frozenset({"Fin", "Finset", "Finset.range", "Set.range", "Set", "Real", "Nat"})
#: namespaces (of those the fuzzer writes) that declare a ``range`` at Mathlib v4.16: ``Finset.range``
#: (``Finset ℕ``) and ``Set.range`` (the range of a function: ``Set.range n`` of a natural does not
#: elaborate)
RANGE_OWNERS = ("Finset", "Set")
#: namespaces known to declare no ``range``, ``Fin``, ``Finset.range`` (the file's own :data:`FILE_NAMESPACES`
#: aside); whether ``Nat``, ``Int``, ``Rat``, ``Complex``, ``EReal``, ``Classical`` declare a ``range`` is NOT
#: charted (``Int.range`` is a list of integers in Mathlib), so a short ``range`` that may name one is unknown
RANGE_FREE = ("Real", "NNReal", "BigOperators", "Topology")
#: the placeholder ``(… : ℝ)`` binders of the evaluation statement for ``π`` in a statement over n terms
#: are named by the spelling (printed bare, never as binders)
PI_SPELLINGS_NTERM = ("π", "π", "π", "Real.pi", "Real.pi", "_root_.Real.pi", "pi")


@dataclass(frozen=True)
class NBase:
    """A statement over n terms (Lean's reading of ``text``, or a generated one)."""

    source: str                        # "nvar:nvar/termwise_amgm_1", "nterm_generated:12"
    stmt: NStatement
    text: str | None = None


def _nvar_bases(path: Path, skipped: Counter) -> list[NBase]:
    """The statements of the n-term suite that :func:`nterm.read_nterm` reads."""
    out: list[NBase] = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        try:
            stmt = N.read_nterm(d["lean"])
        except (A.ReadError, IndexError, ValueError):
            skipped["nvar"] += 1
            continue
        out.append(NBase(f"nvar:{d['id']}", stmt, d["lean"]))
    return out


@dataclass
class NWritten(Written):
    """A theorem over n terms as it appears in the file. ``stmt`` is a placeholder (no scalar
    statement); ``nterm`` is Lean's reading as written, with one ``(π : ℝ)``-like binder per spelling
    of ``Real.pi`` used (``pi_names``: never printed; the evaluation gives it Real.pi's value)."""

    nterm: NStatement | None = None
    #: the names used, in the order written: (piece, "Fin" | "range", spelling), ``piece`` the index of
    #: the binder (the goal: the last) that holds the use
    uses: tuple[tuple[int, str, str], ...] = ()
    #: local binders named ``Fin``/``Finset``: (piece, name); in scope in the pieces after it
    shadows: tuple[tuple[int, str], ...] = ()
    pi_names: tuple[str, ...] = ()


def _placeholder(name: str) -> LStatement:
    return LStatement(name, (), (), LRel("=", A.num(0), A.num(0)))


def _nterm_rel_map(stmt: NStatement, f: Callable[[LRel], LRel]) -> NStatement:
    items: list[N.Item] = []
    for it in stmt.items:
        if isinstance(it, IndexHyp):
            items.append(replace(it, parts=tuple(map(f, it.parts))))
        elif isinstance(it, LHyp):
            items.append(LHyp(it.name, tuple(map(f, it.parts))))
        else:
            items.append(it)
    return NStatement(stmt.name, tuple(items), f(stmt.goal))


def _nterm_expr_map(stmt: NStatement, g: Callable[[LExpr], LExpr]) -> NStatement:
    """``g`` applied bottom-up to every node of every relation."""
    return _nterm_rel_map(stmt, lambda r: LRel(r.op, _map_expr(r.lhs, g), _map_expr(r.rhs, g)))


def nterm_lean(w: NWritten, real_division: bool) -> NStatement:
    """Lean's reading of the written statement: under the LIPS macro every ``a / b`` is
    ``(a : ℝ) / (b : ℝ)`` (the macro expands every ``/`` of the syntax, nested ones too)."""
    assert w.nterm is not None
    if not real_division:
        return w.nterm
    return _nterm_rel_map(w.nterm, lambda r: A.expand_real_division(r))  # type: ignore[arg-type,return-value]


def _walk(ns: tuple[str, ...]) -> list[str]:
    return [".".join(ns[:i]) for i in range(len(ns), 0, -1)]


def _file_declared(ctx: Context) -> set[str]:
    """The file's declarations Lean accepted (one named like a Mathlib constant is rejected)."""
    return {d for d in ctx.declared if d not in MATHLIB_DECLARED}


def resolve_fin(spelling: str, ctx: Context, shadowed: bool = False) -> tuple[str, str]:
    """``("real", "")`` when ``spelling`` (``Fin``, ``_root_.Fin``) names core's ``Fin`` at ``ctx``,
    else ``("refuse", why)`` / ``("unknown", why)``.

    Lean facts assumed (``resolveGlobalName``, docs/mathlib-name-facts.md §4): a local binder named
    ``Fin`` before the use (``shadowed``) wins (a real applied to ``n``: an error); ``_root_.Fin`` is
    core's; otherwise the namespace walk (innermost first) meets a ``W.Fin`` only if this file declared
    one (Mathlib declares none in the namespaces written: Real, Nat, NNReal, Set, Finset,
    BigOperators, Foo), and the first hit wins outright; else core's ``Fin`` is pooled with the
    file's ``O.Fin`` for every open ``O`` (several: an overload, not modelled)."""
    if spelling == "_root_.Fin":
        return "real", ""
    if spelling != "Fin":
        return "refuse", f"`{spelling}` is not `Fin`"
    if shadowed:
        return "refuse", "`Fin` is a local binder here (applied to `n`: an error)"
    declared = _file_declared(ctx)
    for w in _walk(ctx.namespace):
        if f"{w}.Fin" in declared:
            return "refuse", f"`Fin` is `{w}.Fin`, a declaration of this file"
    cands = ["Fin"] + [f"{o}.Fin" for o in sorted(set(ctx.opens)) if f"{o}.Fin" in declared]
    if len(cands) > 1:
        return "unknown", f"`Fin` is overloaded ({', '.join(cands)}): overload resolution not modelled"
    return "real", ""


def resolve_range(spelling: str, ctx: Context, shadowed: bool = False) -> tuple[str, str]:
    """``("real", "")`` when ``spelling`` (``Finset.range``, ``range``, ``_root_.Finset.range``) names
    Mathlib's ``Finset.range`` at ``ctx``, else ``("refuse", why)`` / ``("unknown", why)``.

    Lean facts assumed: a local ``Finset`` before the use (``shadowed``) makes ``Finset.range`` a field
    of that local (an error); ``_root_.Finset.range`` is Mathlib's; ``Finset.range``: the namespace walk
    meets a ``W.Finset.range`` only if this file declared one (Mathlib has none for the namespaces
    written), else Mathlib's, pooled with the file's ``O.Finset.range`` for opens ``O``. A short
    ``range``: the walk's first ``W.range`` wins (``Finset``: Mathlib's ``Finset.range``; ``Set``:
    ``Set.range``, which does not take a natural; the file's; an uncharted namespace: unknown); else the
    root ``range`` (only a file's: Mathlib has none) and every open ``O.range`` (:data:`RANGE_OWNERS`,
    the file's; an uncharted open: unknown) are pooled: none is an unknown identifier, one is the
    answer, several an overload (``open Set Finset``: ``Set.range n`` fails to elaborate, so Lean
    would take ``Finset.range``; not modelled: unknown)."""
    declared = _file_declared(ctx)
    if spelling == "_root_.Finset.range":
        return "real", ""
    if spelling == "Finset.range":
        if shadowed:
            return "refuse", "`Finset` is a local binder here (`Finset.range` is a field of it: an error)"
        for w in _walk(ctx.namespace):
            if f"{w}.Finset.range" in declared:
                return "refuse", f"`Finset.range` is `{w}.Finset.range`, a declaration of this file"
        cands = ["Finset.range"] + [f"{o}.Finset.range" for o in sorted(set(ctx.opens))
                                    if f"{o}.Finset.range" in declared]
        if len(cands) > 1:
            return "unknown", f"`Finset.range` is overloaded ({', '.join(cands)}): not modelled"
        return "real", ""
    if spelling != "range":
        return "refuse", f"`{spelling}` is not `Finset.range`"
    for w in _walk(ctx.namespace):
        if f"{w}.range" in declared:
            return "refuse", f"`range` is `{w}.range`, a declaration of this file"
        if w in RANGE_OWNERS:
            return ("real", "") if w == "Finset" else ("refuse", f"`range` is `{w}.range` in namespace {w}")
        if "." in w or w in FILE_NAMESPACES or w in RANGE_FREE:
            continue
        return "unknown", f"`range` may name `{w}.range` (namespace `{w}`: `range` not charted)"
    cands = ["range"] if "range" in declared else []
    maybe = []
    for o in sorted(set(ctx.opens)):
        if f"{o}.range" in declared or o in RANGE_OWNERS:
            cands.append(f"{o}.range")
        elif o not in RANGE_FREE and o not in FILE_NAMESPACES:
            maybe.append(o)
    if maybe:
        return "unknown", f"`range` may name `{maybe[0]}.range` (not charted)"
    if not cands:
        return "refuse", "unknown identifier `range` (no `open Finset`)"
    if len(cands) > 1:
        return "unknown", f"`range` is overloaded ({', '.join(cands)}): overload resolution not modelled"
    if cands[0] != "Finset.range":
        return "refuse", f"`range` is `{cands[0]}`, not `Finset.range`"
    return "real", ""


def resolve_type_word(spelling: str, ctx: Context, shadowed: bool = False) -> tuple[str, str]:
    """``("real", "")`` when the word ``Real``/``Nat`` of a binder's type names Mathlib's type at ``ctx``
    (``ℝ``/``ℕ`` are notations, hygienic: always the types). Lean facts assumed: a local so named
    first; the namespace walk meets a ``W.Real`` only if this file declared one (``Foo.Real.pi`` makes
    ``Foo.Real`` a namespace, not a constant); the file's ``O.Real`` for opens ``O`` are pooled."""
    if shadowed:
        return "refuse", f"`{spelling}` is a local binder here"
    declared = _file_declared(ctx)
    for w in _walk(ctx.namespace):
        if f"{w}.{spelling}" in declared:
            return "refuse", f"`{spelling}` is `{w}.{spelling}`, a declaration of this file"
    cands = [spelling] + [f"{o}.{spelling}" for o in sorted(set(ctx.opens)) if f"{o}.{spelling}" in declared]
    if len(cands) > 1:
        return "unknown", f"`{spelling}` is overloaded ({', '.join(cands)}): not modelled"
    return "real", ""


#: how each kind of name use is resolved
RESOLVE_USE = {"Fin": resolve_fin, "range": resolve_range, "type": resolve_type_word}


def _nterm_bound_names(stmt: NStatement, pi_names: tuple[str, ...]) -> list[str]:
    """Names the statement binds (``n``, families, scalars, indices): a notation token among them
    stops parsing."""
    names = [x for b in stmt.items if isinstance(b, Binder) for x in b.names if x not in pi_names]
    names += [h.index for h in stmt.index_hypotheses]
    names += [N.big_parts(e).index for e in N.sums_of(stmt)]
    return list(dict.fromkeys(names))


def expect_nterm(w: NWritten, ctx: Context, reasons: tuple[str, ...] = ()) -> Expect:
    """The expected outcome for the statement over n terms ``w`` at a theorem whose context is ``ctx``."""
    why = list(reasons) + list(ctx.unmodelled)
    unknown: list[str] = []

    def add(verdict: str, reason: str) -> None:
        (why if verdict == "refuse" else unknown if verdict == "unknown" else []).append(reason)

    lean = nterm_lean(w, ctx.real_division)
    r = N.refusal(lean)
    if r is not None:
        why.append(f"over n terms: {r}")
    for piece, kind, spelling in w.uses:
        shadowed = any(p < piece and name == spelling.split(".")[0] for p, name in w.shadows)
        add(*RESOLVE_USE[kind](spelling, ctx, shadowed))
    bound = _nterm_bound_names(lean, w.pi_names)
    for sp in w.pi_names:
        add(*resolve_pi(A.real_pi(sp), ctx, tuple(bound)))
    active = {t for n in ctx.opens + ctx.scoped + ctx.namespace[:1] for t in SCOPED_TOKENS.get(n, ())}
    why += [f"`{v}` is a notation token here" for v in bound if v in active]
    if why:
        return Expect("refuse", ctx.real_division, tuple(dict.fromkeys(why)))
    if unknown:
        return Expect("unknown", ctx.real_division, tuple(unknown))
    return Expect("meaning", ctx.real_division)


# -- writing one theorem over n terms

#: how ``Finset.range`` may be written in a rewrite (``range``: meaning Finset's only after ``open Finset``)
RANGE_SPELLINGS = ("Finset.range", "range", "range", "_root_.Finset.range")
_NAME_USE = re.compile(r"(?<![\w.'])(Finset\.range|Fin)(?= [\w(])")
#: a type word in a binder: ``(n : ℕ)``, ``(c d : ℝ)``, ``Fin n → ℝ``, ``ℕ → ℝ``
_TYPE_USE = re.compile(r"(?<=: )ℕ(?=\))|(?<=: )ℝ(?=\))|(?<=: )ℕ(?= → )|(?<=→ )ℝ(?=\))")
#: families named like the names a statement uses are printed under these names first
_FAMILY_PLACEHOLDER = "ZzFamily"
_FORALL_RANGE = re.compile(r"∀ (\S+) ∈ Finset\.range (\S+?),")


def _respell_piece(text: str, piece: int, choose: Callable[[str], str]) -> tuple[str, list[tuple[int, str, str]]]:
    """``Fin`` / ``Finset.range`` in one binder's text written as ``choose(kind)`` says; the uses."""
    out, uses, last = [], [], 0
    found = [(m, "Fin" if m.group(1) == "Fin" else "range") for m in _NAME_USE.finditer(text)]
    found += [(m, "type") for m in _TYPE_USE.finditer(text)]
    for m, kind in sorted(found, key=lambda x: x[0].start()):
        sp = choose(kind) if kind != "type" else choose("Nat" if m.group(0) == "ℕ" else "Real")
        out.append(text[last:m.start()] + sp)
        if sp not in ("ℕ", "ℝ"):
            uses.append((piece, kind, sp))
        last = m.end()
    out.append(text[last:])
    return "".join(out), uses


def _default_spelling(kind: str) -> str:
    return {"Fin": "Fin", "range": "Finset.range", "Nat": "ℕ", "Real": "ℝ"}[kind]


def _rename_family(stmt: NStatement, old: str, new: str) -> NStatement:
    """The family ``old`` renamed ``new`` (binder and applications)."""
    renamed = _nterm_expr_map(stmt, lambda e: replace(e, value=new) if e.kind == "fam" and e.value == old else e)
    items = tuple(replace(it, names=tuple(new if x == old else x for x in it.names)) if isinstance(it, Binder) else it
                  for it in renamed.items)
    return NStatement(stmt.name, items, renamed.goal)


#: local names that shadow a name the statement uses (a family, scalar or hypothesis so named)
SHADOWING_NAMES = ("Fin", "Finset", "range", "Real", "Nat")


def render_nterm(stmt: NStatement, name: str, rng: random.Random, *, pi_names: tuple[str, ...] = (),
                 choose: Callable[[str], str] = _default_spelling,
                 forall_lt: bool = False, keyword: str = "theorem") -> tuple[str, tuple, tuple]:
    """The theorem's text (binders in order, the goal, a random proof), the name uses and the local
    binders named like them (see :class:`NWritten`). ``forall_lt``: per-index hypotheses over
    ``Finset.range n`` written ``∀ i < n,`` (the same proposition: ``∀ i, i < n → P``). A family
    named like a used name is printed under a placeholder while the uses are found."""
    hidden = {f: f"{_FAMILY_PLACEHOLDER}{k}" for k, f in enumerate(stmt.families) if f in SHADOWING_NAMES}
    for old, new in hidden.items():
        stmt = _rename_family(stmt, old, new)
    back = {new: old for old, new in hidden.items()}
    pieces: list[str] = []
    shadows: list[tuple[int, str]] = []
    for it in stmt.items:
        if isinstance(it, Binder):
            names = tuple(x for x in it.names if x not in pi_names)
            if not names:
                continue
            text = N.show_binder(replace(it, names=names))
            bound = names
        elif isinstance(it, IndexHyp):
            text, bound = f"({it.name} : {N.show_index_hyp(it)})", (it.name,)
            if forall_lt:
                text = _FORALL_RANGE.sub(r"∀ \1 < \2,", text)
        else:
            text, bound = f"({it.name} : {N.show_parts(it.parts)})", (it.name,)
        shadows += [(len(pieces), back.get(x, x)) for x in bound if back.get(x, x) in SHADOWING_NAMES]
        pieces.append(text)
    pieces.append(N.show_rel(stmt.goal))
    uses: list[tuple[int, str, str]] = []
    for k, text in enumerate(pieces):
        pieces[k], u = _respell_piece(text, k, choose)
        for new, old in back.items():
            pieces[k] = pieces[k].replace(new, old)
        uses += u
    sep = " :\n    " if rng.random() < 0.2 else " : "
    proof = rng.choice(PROOFS).replace("{name}", name)
    head = " ".join([f"{keyword} {name}"] + pieces[:-1])
    return head + sep + pieces[-1] + " " + proof, tuple(uses), tuple(shadows)


def _sum_nodes_in(e: LExpr) -> int:
    return sum(1 for x in A.subterms(e) if x.kind == "sum")


def _map_kth_sum(e: LExpr, k: int, f: Callable[[LExpr], LExpr]) -> LExpr:
    """``e`` with its ``k``-th sum (pre-order) replaced by ``f(sum)``."""
    count = [0]

    def go(x: LExpr) -> LExpr:
        if x.kind == "sum":
            if count[0] == k:
                count[0] += 1
                return f(x)
            count[0] += 1
        if not x.args:
            return x
        return LExpr(x.kind, tuple(go(a) for a in x.args), x.value)

    return go(e)


def _inject_pi_nterm(stmt: NStatement, sp: str, rng: random.Random) -> NStatement:
    """``π`` (spelled ``sp``) in a sum's body of the goal (``∑ i, a i * π``, ``∑ i, π * a i``,
    ``∑ i, (a i + π)``), or added to both sides of the goal when it has no sum."""
    pi = A.var(sp)
    g = stmt.goal
    sides = [(side, _sum_nodes_in(getattr(g, side))) for side in ("lhs", "rhs")]
    sides = [(side, c) for side, c in sides if c]
    if not sides:
        goal = LRel(g.op, A.op2("add", g.lhs, pi), A.op2("add", g.rhs, pi))
    else:
        side, c = rng.choice(sides)
        how = rng.choice(("mul_right", "mul_left", "add"))

        def body(s: LExpr) -> LExpr:
            p = N.big_parts(s)
            b = {"mul_right": A.op2("mul", p.body, pi), "mul_left": A.op2("mul", pi, p.body),
                 "add": A.op2("add", p.body, pi)}[how]
            return LExpr(s.kind, (s.args[0], b) + s.args[2:], s.value)

        new = _map_kth_sum(getattr(g, side), rng.randrange(c), body)
        goal = LRel(g.op, new, g.rhs) if side == "lhs" else LRel(g.op, g.lhs, new)
    items = stmt.items if sp in stmt.scalars else stmt.items + (Binder((sp,), "ℝ"),)
    return NStatement(stmt.name, items, goal)


def _restyle(stmt: NStatement, old: str, new: str) -> NStatement:
    """Sums of style ``old`` written in style ``new`` (``mem`` ↔ ``in``; ``univ`` → ``fin``: ``∑ i : Fin n``)."""
    n = stmt.n or "n"

    def g(e: LExpr) -> LExpr:
        if e.kind != "sum" or not e.value.startswith(old + "|"):
            return e
        args = (N.nvar(n),) + e.args[1:] if new == "fin" else e.args
        return LExpr(e.kind, args, new + e.value[len(old):])

    return _nterm_expr_map(stmt, g)


def _nterm_rewrite_kinds(stmt: NStatement, pi_names: tuple[str, ...]) -> dict[str, float]:
    styles = {N.big_parts(e).style for e in N.sums_of(stmt)}
    ranges = "mem" in styles or "in" in styles or any(h.binder == "range" for h in stmt.index_hypotheses)
    fins = "fin" in styles or any(b.type == "fin" for b in stmt.items if isinstance(b, Binder)) \
        or any(h.binder == "fin" for h in stmt.index_hypotheses)
    kinds = {"plain": 4.0, "binder_Fin": 0.6, "binder_Finset": 1.0, "inject_pi": 2.5}
    if ranges:
        kinds.update(range_short=3.0, range_mixed=1.5, range_root=1.0)
    if any(h.binder == "range" for h in stmt.index_hypotheses):
        kinds.update(forall_lt=1.5)
    if "mem" in styles:
        kinds.update(sum_in=2.0)
    if "in" in styles:
        kinds.update(sum_mem=0.5)
    if "univ" in styles:
        kinds.update(sum_fin=1.5)
    if fins:
        kinds.update(fin_root=0.7)
    if any(isinstance(h, (LHyp, IndexHyp)) for h in stmt.items):
        kinds.update(hyp_named_Finset=0.4, hyp_named_Fin=0.3)
    kinds.update(family_named_range=0.5 if ranges else 0.2, family_named_Fin=0.3, type_words=1.0)
    return kinds


@dataclass
class _NtermSpelling:
    """How :func:`write_nterm` prints the statement's constants (chosen by its rewrites)."""

    fin: str = "Fin"
    range_mode: str = "Finset.range"     # a spelling, or "mixed" (one at random at each use)
    forall_lt: bool = False
    words: bool = False


def write_nterm(base: NBase, name: str, rng: random.Random, rewrite: float = 0.6) -> NWritten:
    """The asked theorem over n terms: the suite's own text (renamed, another proof), or the statement
    printed again with rewrites (``rewrite:nterm_*``): ``Finset.range`` written ``range`` /
    ``_root_.Finset.range`` (all or each at random), ``∀ i < n``, ``∑ i in`` (deprecated) for ``∈`` and
    back, ``∑ i : Fin n`` for ``∑ i``, ``_root_.Fin``, a local binder ``(Fin : ℝ)`` / ``(Finset : ℝ)``
    or a hypothesis so named at a random place, ``π`` (``Real.pi``, ``_root_.Real.pi``, ``pi``) in a
    sum's body."""
    stmt = replace(base.stmt, name=name)
    if base.text is not None and rng.random() >= rewrite:
        return _write_nterm_as_is(base.text, stmt, name, rng)
    pi_names: tuple[str, ...] = ()
    spelling = _NtermSpelling()
    done: list[str] = []
    for _ in range(1 if rng.random() < 0.6 else 2):
        kinds = _nterm_rewrite_kinds(stmt, pi_names)
        k = rng.choices(list(kinds), list(kinds.values()))[0]
        done.append(f"rewrite:nterm_{k}")
        _nterm_respell(k, spelling)
        stmt, pi_names = _nterm_restate(k, stmt, pi_names, rng)

    def choose(kind: str) -> str:
        if kind == "Fin":
            return spelling.fin
        if kind in ("Nat", "Real"):
            return kind if spelling.words and rng.random() < 0.7 else _default_spelling(kind)
        return rng.choice(RANGE_SPELLINGS) if spelling.range_mode == "mixed" else spelling.range_mode

    text, uses, shadows = render_nterm(stmt, name, rng, pi_names=pi_names, choose=choose,
                                       forall_lt=spelling.forall_lt)
    if rng.random() < 0.08:
        text = re.sub(r" \(", " /- ∑ i, a i := -/ (", text, count=1)
        done.append("rewrite:nterm_comment_in_statement")
    text, layout = _layout(text, rng)
    return NWritten(name, _placeholder(name), text, {}, (), tuple(done) + layout, stmt, uses, shadows, pi_names)


def _write_nterm_as_is(source: str, stmt: NStatement, name: str, rng: random.Random) -> NWritten:
    """The suite's own text of the theorem, renamed ``name``, with another proof and layout."""
    text = re.sub(r"^\s*(theorem|lemma)\s+\S+", f"theorem {name}", source, count=1)
    text = re.sub(r":=\s*by\s+sorry\s*$", rng.choice(PROOFS).replace("{name}", name), text)
    text, layout = _layout(text, rng)
    _, uses, shadows = render_nterm(stmt, name, random.Random(0))
    return NWritten(name, _placeholder(name), text, {}, (), ("rewrite:nterm_none",) + layout,
                    stmt, uses, shadows)


def _nterm_respell(k: str, spelling: _NtermSpelling) -> None:
    """The rewrite ``k`` where it changes only how constants are spelled (else nothing)."""
    if k == "range_short":
        spelling.range_mode = "range"
    elif k == "range_root":
        spelling.range_mode = "_root_.Finset.range"
    elif k == "range_mixed":
        spelling.range_mode = "mixed"
    elif k == "forall_lt":
        spelling.forall_lt = True
    elif k == "fin_root":
        spelling.fin = "_root_.Fin"
    elif k == "type_words":
        spelling.words = True


def _nterm_restate(k: str, stmt: NStatement, pi_names: tuple[str, ...],
                   rng: random.Random) -> tuple[NStatement, tuple[str, ...]]:
    """``(stmt, pi_names)`` after the rewrite ``k`` where it changes the statement itself: its sums'
    style, a local binder or hypothesis or family named like a constant, ``π`` in a sum's body (any
    other ``k``: unchanged)."""
    if k in ("sum_in", "sum_mem", "sum_fin"):
        stmt = _restyle(stmt, *{"sum_in": ("mem", "in"), "sum_mem": ("in", "mem"), "sum_fin": ("univ", "fin")}[k])
    elif k in ("binder_Fin", "binder_Finset"):
        local = k.split("_")[1]
        if local not in _nterm_bound_names(stmt, pi_names):
            items = list(stmt.items)
            items.insert(rng.randint(0, len(items)), Binder((local,), "ℝ"))
            stmt = NStatement(stmt.name, tuple(items), stmt.goal)
    elif k.startswith("hyp_named_"):
        local = k.split("_")[2]
        hyps = [i for i, h in enumerate(stmt.items) if isinstance(h, (LHyp, IndexHyp))]
        if local not in _nterm_bound_names(stmt, pi_names) and local not in [
                h.name for h in stmt.items if isinstance(h, (LHyp, IndexHyp))]:
            items = list(stmt.items)
            i = rng.choice(hyps)
            items[i] = replace(items[i], name=local)
            stmt = NStatement(stmt.name, tuple(items), stmt.goal)
    elif k.startswith("family_named_"):
        local = k.split("_")[2]
        if local not in _nterm_bound_names(stmt, pi_names):
            stmt = _rename_family(stmt, rng.choice(list(stmt.families)), local)
    elif k == "inject_pi":
        sp = rng.choice(PI_SPELLINGS_NTERM)
        stmt = _inject_pi_nterm(stmt, sp, rng)
        pi_names = tuple(dict.fromkeys(pi_names + (sp,)))
    return stmt, pi_names


# -- the file around it

#: commands over n terms whose effect is not modelled: before the theorem the front-end must refuse
NTERM_UNMODELLED = (
    ("variable_n", "variable (n : ℕ)"),
    ("variable_family", "variable {n : ℕ} (a : Fin n → ℝ)"),
    ("local_notation_sum", 'local notation "∑" x ", " f => f'),
    ("notation3_sum", 'notation3 "∑ "(...)", "r:67:(scoped f => Finset.prod Finset.univ f) => r'),
    ("macro_sum", 'macro "∑ " x:ident ", " f:term : term => `(Finset.prod Finset.univ fun $x => $f)'),
    ("macro_rules_sum", "macro_rules | `(∑ $x:ident, $f) => `(0)"),
    ("local_macro_range", 'local macro "range" : term => `(List.range)'),
    ("def_Fin", "def Fin (n : ℕ) : Type := Unit"),
    ("def_Finset_range", "def Finset.range (n : ℕ) : Finset ℕ := Finset.range (n + 1)"),
    ("abbrev_range", "abbrev range (n : ℕ) : Finset ℕ := Finset.range (n + 1)"),
    ("open_hiding_range", "open Finset hiding range"),
    ("open_renaming_range", "open Finset renaming range → frange"),
    ("export_range", "export Finset (range)"),
    ("attribute_sum", "attribute [simp] Finset.sum_range_succ"),
    ("open_Foo", "open Foo"),
)
#: ``open`` commands over n terms: (names, scoped)
NTERM_OPENS = (
    (("Finset",), False), (("Finset",), False), (("Set",), False), (("Set", "Finset"), False),
    (("Finset", "Set"), False), (("BigOperators",), False), (("BigOperators",), True), (("Finset",), True),
    (("Real", "Finset"), False), (("BigOperators", "Real", "Nat", "Topology"), False), (("Nat",), False),
)
#: declarations named like the names a statement over n terms uses, and where
NTERM_DECL_NAMES = ("Fin", "range", "range", "Finset.range", "Finset.range", "Finset", "Real")
NTERM_DECL_NAMESPACES = ("", "", "Foo", "Foo", "Finset", "Set", "Nat", "Real")


def _item_nterm_open(b: FileBuilder, env: _Env) -> str:
    names, scoped = env.rng.choice(NTERM_OPENS)
    b.open(names, scoped=scoped)
    return f"nterm_open{'_scoped' if scoped else ''}_{'_'.join(names)}"


def _nterm_decl(b: FileBuilder, env: _Env, name: str) -> None:
    b.emit(f"{env.rng.choice(('theorem', 'lemma'))} {name} : (1 : ℝ) ≤ 2 := by norm_num")
    b.declare(name)


def _item_nterm_decl(b: FileBuilder, env: _Env) -> str:
    """A theorem named ``Fin``, ``range``, ``Finset.range`` or ``Finset`` (at the root or in a namespace:
    one clashing with Mathlib's is rejected by Lean, which keeps Mathlib's)."""
    rng = env.rng
    name, ns = rng.choice(NTERM_DECL_NAMES), rng.choice(NTERM_DECL_NAMESPACES)
    if ns:
        b.push("namespace", ns)
    _nterm_decl(b, env, name)
    if ns:
        b.pop()
    return f"nterm_decl_{name.replace('.', '_')}{'_in_' + ns if ns else ''}"


def _item_nterm_unmodelled(b: FileBuilder, env: _Env) -> str:
    name, text = env.rng.choice(NTERM_UNMODELLED)
    inside = env.rng.random() < 0.25
    if inside:
        b.push("namespace", "Foo")
    b.unmodelled_command(text)
    if inside:
        b.pop()
    return f"unmodelled:{name}{'_in_Foo' if inside else ''}"


def _item_nterm_decoy(b: FileBuilder, env: _Env) -> str:
    """``∑``, ``theorem``, ``open Finset``, ``variable`` … in comments and strings (no effect)."""
    t, rng = env.target, env.rng
    form = rng.choice(("line", "block", "string", "doc", "module_doc", "notation_comment"))
    if form == "doc":
        aux = b.aux_name()
        b.emit(f"/-- ∑ i, a i over `Fin n`; `open Finset`; theorem {t} -/\n"
               f"theorem {aux} (n : ℕ) (a : Fin n → ℝ) : ∑ i, a i = ∑ i, a i := rfl")
        b.declare(aux)
    else:
        b.emit({"line": f"-- theorem {t} (n : ℕ) (a : Fin n → ℝ) : ∑ i, a i < 0 := by sorry",
                "block": f"/- open Finset in\ntheorem {t} (n : ℕ) (a : ℕ → ℝ) : ∑ i ∈ range n, a i < 0 := by sorry\n"
                         "/- ∑ nested -/ -/",
                "string": f'example : ("theorem {t} : ∑ i ∈ Finset.range 3, (i : ℝ) = 3" : String).length > 0 := '
                          "by decide",
                "module_doc": "/-! `open Set Finset`, `variable (n : ℕ)`, `namespace Finset` -/",
                "notation_comment": '-- local notation "∑" x ", " f => f\n/- def Fin (n : ℕ) : Type := Unit -/'}[form])
    return f"nterm_decoy_{form}"


def _item_nterm_aux(b: FileBuilder, env: _Env) -> str:
    """Another declaration over n terms (never asked), maybe under its own ``open … in``."""
    rng = env.rng
    aux = b.aux_name()
    form = rng.choice(("range_open_in", "fin", "example", "big_open_in"))
    if form == "range_open_in":
        b.emit(f"open Finset in\ntheorem {aux} (n : ℕ) (a : ℕ → ℝ) : ∑ i ∈ range n, a i = ∑ i ∈ range n, a i := rfl")
    elif form == "fin":
        b.emit(f"theorem {aux} (n : ℕ) (a : Fin n → ℝ) (h : ∀ i, 0 ≤ a i) : 0 ≤ ∑ i, a i :=\n"
               "  Finset.sum_nonneg fun i _ => h i")
    elif form == "big_open_in":
        b.emit(f"open scoped BigOperators in\ntheorem {aux} (n : ℕ) : ∑ i in Finset.range n, (1 : ℝ) = n := by simp")
    else:
        b.emit("example (n : ℕ) : ∑ i ∈ Finset.range n, (1 : ℝ) = n := by simp")
        return "nterm_aux_example"
    b.declare(aux)
    return f"nterm_aux_{form}"


NTERM_INNER: tuple[Callable[[FileBuilder, _Env], str], ...] = (
    _item_nterm_open, _item_nterm_open, _item_nterm_decl, _item_nterm_aux, _item_open, _item_aux,
    _item_nterm_unmodelled)


def _item_nterm_closed_scope(b: FileBuilder, env: _Env) -> str:
    """A scope closed before the theorem (``namespace Finset … end Finset``, ``section`` …) with
    commands over n terms inside (no effect on the theorem, except unmodelled ones and declarations)."""
    rng = env.rng
    kind, name = rng.choice((("namespace", "Finset"), ("namespace", "Finset"), ("section", ""), ("section", "Finset"),
                             ("namespace", "Foo"), ("namespace", "Set")))
    b.push(kind, name)
    inner = [rng.choice(NTERM_INNER)(b, env) for _ in range(rng.randint(0, 2))]
    b.pop()
    b.wrappers += [f"in_closed_scope:{w}" for w in inner]
    return f"nterm_closed_{kind}{'_' + name if name else ''}"


NTERM_ITEMS: tuple[tuple[Callable[[FileBuilder, _Env], str], float], ...] = (
    (_item_comment_macro, 1.0), (_item_macro, 1.2), (_item_unmodelled, 0.4), (_item_open, 1.0), (_item_aux, 0.8),
    (_item_decoy, 0.4), (_item_scope, 0.8), (_item_set_option, 0.4), (_item_other_theorem, 0.6),
    (_item_nterm_open, 2.5), (_item_nterm_decl, 1.5), (_item_nterm_unmodelled, 0.8), (_item_nterm_decoy, 1.5),
    (_item_nterm_aux, 1.0), (_item_nterm_closed_scope, 1.5))


def _nterm_scope(b: FileBuilder, env: _Env) -> str:
    """A context made for statements over n terms, open at the theorem: a namespace around it holding a
    declaration named ``Fin``/``range``/``Finset.range``/``Finset`` (or an unmodelled ``def`` of one), a
    bare ``namespace Finset``, an ``open`` at the top, ``variable (n : ℕ)``, a notation for ``∑``."""
    rng = env.rng
    form = rng.choices(("decl", "def", "namespace", "open", "variable", "notation"), (3, 1.5, 2, 2, 0.5, 0.5))[0]
    if form == "decl":
        ns, name = rng.choice(("Foo", "Finset", "Finset", "Set", "Nat", "Real")), rng.choice(NTERM_DECL_NAMES)
        b.push("namespace", ns)
        _nterm_decl(b, env, name)
        return f"decl_{name.replace('.', '_')}_in_{ns}"
    if form == "def":
        ns = rng.choice(("Foo", "Foo", "Finset"))
        which, text = rng.choice((("Fin", "def Fin (n : ℕ) : Type := Fin (n + 1)"),
                                  ("Finset_range", "def Finset.range (n : ℕ) : Finset ℕ := Finset.range (n + 1)"),
                                  ("range", "abbrev range (n : ℕ) : Finset ℕ := Finset.range (n + 1)")))
        b.push("namespace", ns)
        b.unmodelled_command(text)
        return f"def_{which}_in_{ns}"
    if form == "namespace":
        name = rng.choice(("Finset", "Finset", "BigOperators", "Set"))
        b.push("namespace", name)
        return f"namespace_{name}"
    if form == "open":
        return _item_nterm_open(b, env)
    name, text = rng.choice(NTERM_UNMODELLED[:2] if form == "variable" else NTERM_UNMODELLED[2:6])
    b.unmodelled_command(text)
    return f"unmodelled_{name}"


def _nterm_enclose(b: FileBuilder, env: _Env) -> str:
    """A scope still open at the theorem (closed after it)."""
    rng = env.rng
    kind, name = rng.choice((("section", ""), ("section", "Finset"), ("noncomputable", ""), ("namespace", "Foo"),
                             ("namespace", "Real"), ("namespace", "Nat"), ("namespace", "NNReal"),
                             ("namespace", "Set"), ("namespace", "Finset"), ("namespace", "Finset")))
    b.push(kind, name)
    inner = [rng.choice(NTERM_INNER + INNER)(b, env) for _ in range(rng.randint(0, 2))]
    b.wrappers += [f"in_enclosing_scope:{w}" for w in inner]
    return f"{kind}{'_' + name if name else ''}"


#: the theorem's own ``open … in`` over n terms: (names, scoped)
NTERM_PREFIX_OPENS = ((("Finset",), False), (("Finset",), False), (("Set", "Finset"), False), (("Set",), False),
                      (("BigOperators",), False), (("BigOperators",), True), (("Real",), False),
                      (("Real", "Finset"), False))


def _nterm_prefix(env: _Env) -> tuple[str, tuple[str, ...], list[str]]:
    rng, text, opens, labels = env.rng, "", (), []
    if rng.random() < 0.25:
        names, scoped = rng.choice(NTERM_PREFIX_OPENS)
        text += f"open {'scoped ' if scoped else ''}{' '.join(names)} in\n"
        opens = () if scoped else names
        labels.append(f"prefix:nterm_open{'_scoped' if scoped else ''}_{'_'.join(names)}_in")
    if rng.random() < 0.06:
        text += "set_option maxHeartbeats 400000 in\n"
        labels.append("prefix:set_option_in")
    if rng.random() < 0.15:
        text += rng.choice(("/-- The sum `∑ i, a i`. -/\n", "/-- `open Finset in` ∑ i ∈ range n -/\n"))
        labels.append("prefix:nterm_doc_comment")
    return text, opens, labels


#: for a statement over n terms: the chance of a context of :func:`_nterm_scope` and of an enclosing scope
NTERM_CONTEXT = (0.45, 0.25)


def _make_nterm_variant(index: int, base: NBase, b: FileBuilder, env: _Env) -> Variant:
    rng = env.rng
    written = write_nterm(base, env.target, rng)
    b.wrappers.append("header:" + _header(b, env))
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        b.wrappers.append("item:" + rng.choices([f for f, _ in NTERM_ITEMS], [w for _, w in NTERM_ITEMS])[0](b, env))
    if written.pi_names:
        b.wrappers += _pi_context(b, env)
    if rng.random() < NTERM_CONTEXT[0]:
        b.wrappers.append("nterm_scope:" + _nterm_scope(b, env))
    if rng.random() < NTERM_CONTEXT[1]:
        b.wrappers.append("enclose:" + _nterm_enclose(b, env))
    prefix, opens, labels = _nterm_prefix(env)
    b.wrappers += labels + list(written.rewrites)
    b.theorem(written, opens, prefix)
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        b.wrappers.append("post:" + rng.choices([f for f, _ in POST], [w for _, w in POST])[0](b, env))
    text, targets = b.finish()
    return Variant(index, base.source, text, targets, b.wrappers)


# -- checking one asked theorem over n terms


def _with_pi(point: N.NPoint, pi_names: tuple[str, ...]) -> N.NPoint:
    if not pi_names:
        return point
    return N.NPoint(point.n, point.families, {**point.scalars, **{p: L.real_pi() for p in pi_names}})


def check_nterm_target(v: Variant, w: NWritten, e: Expect, points: int, report: ContextReport,
                       parse: Callable[[str, str], Any], time_limit: float = 20.0) -> None:
    """Ask the front-end for one theorem over n terms and judge the answer against ``e``: a refusal
    must be one line; an acceptance where Lean does not read the plain statement is a misreading;
    otherwise ``problem.nterm.statement`` is compared with Lean's values (``fuzz-nterm``'s comparison)
    at points with every ``n`` of :data:`fuzz_nterm.N_VALUES` the ℕ hypotheses allow."""
    report.checks += 1
    report.nterm["checks"] += 1
    report.count(v.wrappers, "checks")
    if e.outcome == "unknown":
        report.unknown += 1
        report.nterm["unknown"] += 1
        return
    must = e.outcome == "refuse"
    report.must_refuse += must
    report.nterm["must_refuse"] += must
    report.count(v.wrappers, "must_refuse" if must else "meaning")
    ok, problem = _ask_nterm(v, w, e, report, parse, time_limit, must)
    if not ok:
        return
    judged = _judge_nterm_acceptance(v, w, e, report, problem, must)
    if judged is not None:
        _compare_nterm_at_points(v, w, e, points, report, *judged)


def _ask_nterm(v: Variant, w: NWritten, e: Expect, report: ContextReport, parse: Callable[[str, str], Any],
               time_limit: float, must: bool) -> tuple[bool, Any]:
    """The front-end's ``(ok, problem)`` for the asked theorem, its crashes, multi-line errors and
    refusals recorded (a refusal counted where expected when ``must``)."""
    inner = FuzzReport(report.seed)
    ok, problem = _parse_statement(v.text, inner, lambda text: parse(text, w.name), time_limit)
    for c in inner.crashes:
        _fail(report, report.crashes, v, w, e, "crash", c.split("  ==>  ")[-1])
    for m in inner.multi_line_errors:
        _fail(report, report.other_failures, v, w, e, "multi_line_error", m.split("  ==>  ")[-1])
    if not ok and not inner.crashes:
        report.refused += 1
        report.nterm["refused"] += 1
        report.refused_where_expected += must
        report.nterm["refused_where_expected"] += must
        report.count(v.wrappers, "refused")
        report.refusals.update(inner.refusals)
    return ok, problem


def _judge_nterm_acceptance(v: Variant, w: NWritten, e: Expect, report: ContextReport, problem: Any,
                            must: bool) -> tuple[Any, Any] | None:
    """After an acceptance: ``(Lean's statement, the front-end's reading)`` to compare at points, or
    None where the acceptance is already a failure (the statement must be refused, no n-term
    reading, a reading of another shape)."""
    report.accepted += 1
    report.nterm["accepted"] += 1
    report.count(v.wrappers, "accepted")
    reading = getattr(getattr(problem, "nterm", None), "statement", None)
    if must:
        shown = reading.statement if reading is not None else getattr(problem, "goal", None)
        _fail(report, report.misreadings, v, w, e, "accepted_must_refuse", f"accepted as {shown}")
        return None
    if reading is None:
        _fail(report, report.misreadings, v, w, e, "shape", "accepted without an n-term reading")
        return None
    lean = nterm_lean(w, e.real_division)
    shape = FN._shape(lean, reading)
    if shape:
        _fail(report, report.misreadings, v, w, e, "shape", shape)
        return None
    return lean, reading


def _compare_nterm_at_points(v: Variant, w: NWritten, e: Expect, points: int, report: ContextReport,
                             lean: Any, reading: Any) -> None:
    """``fuzz-nterm``'s comparison of ``reading`` with Lean's values, at points drawn from a generator
    seeded by the variant (the first misreading and any evaluation crash recorded)."""
    report.compared += 1
    report.nterm["compared"] += 1
    nrep = FN.NTermReport(report.seed)
    rng = random.Random(f"points:{report.seed}:{v.index}:{w.name}")
    for point in FN.points_for(lean, max(points, len(FN.N_VALUES)), rng):
        point = _with_pi(point, w.pi_names)
        try:
            compared = FN._compare(v.index, w.text, lean, reading, point, nrep)
        except (KeyError, TypeError, ValueError, IndexError, ArithmeticError) as exc:
            if isinstance(exc, L.Undecidable):
                continue
            who = "the reference evaluator (a fuzzer bug)" if isinstance(exc, A.LeanTypeError) else "evaluating it"
            _fail(report, report.crashes, v, w, e, "crash",
                  f"at {point.to_json()}, {who}: {type(exc).__name__}: {exc}")
            return
        if compared:
            report.pairs += 1
            report.nterm["pairs"] += 1
            report.nterm["empty_sum_pairs"] += point.n == 0
    report.comparisons += nrep.comparisons + nrep.index_comparisons
    for m in nrep.misreadings[:1]:
        _fail(report, report.misreadings, v, w, e, "misreading",
              f"{m.relation} at {m.point}: lean {m.lean} | front-end {m.frontend} [{m.frontend_text}]")


def nterm_pool(seed: int, root: Path = ROOT) -> BasePool:
    """A pool whose every pick is a statement over n terms (the suite's and generated ones)."""
    skipped: Counter = Counter()
    return BasePool([], [], seed, skipped, nvar=_nvar_bases(root / NVAR_SUITE, skipped), nterm_share=1.0)
