"""A static *model* of Lean 4 + Mathlib v4.16.0 for the subset of Lean our renderer emits.

**This is a model, not Lean.** No Lean runs on our machines; this package reads a rendered
``.lean`` file, tracks every goal's local context, and checks each tactic against an explicit,
conservative model of what Lean and Mathlib do with it. ``prover lean check`` with a real
``lake`` stays the final word wherever Lean is installed. The model is built to be *sound for
rejection counts*: everything it cannot model exactly is reported as a failure ("not
modelled"), never as a pass; where the model is unsure it is stricter than Lean (it may reject
a file Lean accepts, it should never accept one Lean rejects).

What is modelled (see ``docs/lean-names.md`` for the whitelist and the Mathlib sources read):

* **Terms and ``have``.** Terms are parsed with Lean 4's precedences (``-x ^ 2`` is
  ``-(x ^ 2)``, ``√x ^ 2`` is ``(√x) ^ 2``). A proof term's type is computed from the
  whitelisted lemma signatures (implicit arguments by first-order unification, ``by`` arguments
  as postponed goals); ``have h : T := e`` passes only when that type equals ``T``
  *syntactically* (up to ``≥``/``>`` being ``≤``/``<`` flipped and ``(c : ℝ)`` ascriptions):
  Lean does not unfold real ``+``/``-``, so ``0 ≤ 4 - a - b`` is not ``0 ≤ 4 - (a + b)``.
  ``|a|`` is read by Mathlib's rule (no space inside the bars; a bar with spaces on both sides
  separates alternatives), and an exponent ``((2:ℝ)/3)`` is the term ``(2 / 3 : ℝ)`` (``binop%``).
  ``congrArg f h`` (Lean core) has type ``f a₁ = f a₂`` for ``h : a₁ = a₂`` with ``f`` one of
  ``Real.sqrt``, ``abs``, ``fun x => x ^ (r : ℝ)`` (numeral ``r``; only against a stated type).
  ``Or.inl h``/``Or.inr h`` (Lean core) only against an expected disjunction, ``h`` against its side.
* **``linear_combination e``** as in Mathlib after PR #16841 (in v4.16.0): ``e`` is expanded
  like ``expandLinearCombo`` (constants added to proofs are dropped; a negated or subtracted
  inequality is an error; a coefficient of an inequality must be proved nonnegative — positive
  to keep ``<`` — by the positivity model), the relation is combined by ``Ineq.relImpRelData``,
  and the remainder ``(a' - b') - (a - b)`` is normalised with **``ring``'s semantics**: a
  commutative ring with rational numerals; ``x⁻¹`` of a single monomial distributes
  (``(c·x^n·y)⁻¹ = c⁻¹·(x⁻¹)^n·y⁻¹``) and the inverse of an atom is a new atom; the inverse of
  a sum is an atom keyed by the sum's normal form; ``a / b = a * b⁻¹``; nothing cancels
  ``x * x⁻¹`` (only a supplied fact such as ``mul_inv_cancel₀ h : x * x⁻¹ = 1`` does). An
  equality goal needs remainder 0; ``≤`` a numeral remainder ``≤ 0`` (``Ring.proveLE``), ``<``
  a numeral ``< 0``. Every other function application (``Real.sqrt``, ``rpow``, …) is an
  atom compared syntactically.
* **``positivity``** by the extensions of Mathlib's ``Positivity/Core.lean`` and ``Basic.lean``
  plus ``Real.sqrt``/``rpow``/``Real.exp``: ``+``, ``*``, ``/``, ``⁻¹``, ``^`` (even literal
  powers), ``√``, ``rpow``, ``exp``, ``|·|``, numerals (``norm_num`` on closed rational
  expressions), and hypotheses ``0 ≤ e``/``0 < e``/``e ≠ 0``/``c ≤ e``/``c < e``/``c = e`` whose
  ``e`` is *syntactically* the subterm (``compareHyp``). No subtraction, no negation.
* **``linarith``** (in ``by linarith`` side goals) as Positivstellensatz degree 1 over the
  hypotheses that are comparisons (hypotheses over ``LINARITH_HYP_SIZE`` term nodes are left
  out, which can only make the model fail more often), nonlinear monomials as atoms; a
  certificate is searched with HiGHS and accepted only after an exact rational check.
* **Function locals defined by an equation** (``definitions``). A binder ``(f g : ℝ → ℝ)`` or
  ``(k : ℝ → ℝ → ℝ)`` is a function local; a hypothesis ``(h₀ : ∀ x, f x = E)`` (also ``∀ x : ℝ,``,
  ``∀ (x : ℝ),``, ``∀ x y, k x y = E``: distinct parameters, exactly the arity, in order; the bound
  names shadow outer variables in ``E``; ``E`` applies no function local and has no parameter in
  an exponent) is a definition. Any other ``∀`` hypothesis about a function, an untyped ``∀``
  elsewhere, other function types, or a function used other than fully applied (``f -1`` is
  ``f - 1`` in Lean) is not modelled; more arguments than the arity is an error. ``f t₁ … tₙ`` is
  an application (tightest: ``f x ^ 2`` is ``(f x) ^ 2``, ``f x⁻¹`` is ``f (x⁻¹)``), an atom for
  ``ring``/``linear_combination``/``linarith`` compared syntactically. ``simp only [d₁, …]`` and
  ``simp only [d₁, …] at h`` with definition hypotheses only: every application of a defined
  function becomes its body at the (already rewritten) arguments, innermost first, beta-reduced
  (simp's post-order rewriting to a fixpoint); no change is "simp made no progress"; a result
  with a relation or ``↔`` between equal sides, ``True``/``False``, or a closed ℕ arithmetic
  exponent (simprocs) is not modelled. An earlier theorem of the file applied to explicit
  arguments (``have key := T a b (by …) h ⟨by …, by …⟩``) has its conclusion with the binders
  instantiated; each ``by`` argument is a goal of the instantiated hypothesis. ``have e := h``
  / ``h.1`` takes ``h``'s type.
* **Structure**: ``have``, ``suffices … by``, ``obtain ⟨…⟩`` (components as written, ``x ≥ 0``
  stays ``≥``), ``rcases … with h | h``, ``refine ⟨fun … => ?_, …⟩``, ``intro`` (also on ``a ≠ b``
  and ``¬p``: a hypothesis ``a = b``/``p`` and the goal ``False``), ``exact`` (a proof of ``a ≠ b``
  or ``¬p`` applied to a proof of ``a = b``/``p`` proves ``False``), ``show``, ``apply`` (of a
  whitelisted lemma), ``constructor``, ``rw [ge_iff_le]``/``rw [gt_iff_lt]`` on the goal and
  ``at h₁ … ⊢`` (the first instance fixes the lemma's arguments, as ``kabstract``; each location
  must rewrite; then ``with_reducible rfl`` closes a syntactic ``t = t``/``t ≤ t``), ``·``
  bullets, ``first | …`` (only with finishing alternatives), ``t <;> t'``, shadowed names (a
  re-bound name hides the old hypothesis from names, not from ``positivity``/``linarith``).
* **Numerals' type**: a relation none of whose leaves fixes its type (no local, constant,
  application other than ``abs``/``max``/``min``, which take their argument's type, or ascription;
  an exponent is not a leaf) elaborates its numerals at ℕ, so a real power, an ``|·|`` or a
  negation in it is an error and a ``-`` or ``/`` means something else (truncated, floor): such a
  relation fails (``16 ^ (1 / 3 : ℝ) = 2 * 2 ^ (1 / 3 : ℝ)``, ``abs (3 - 5) = 2``, ``7 / 2 * 2 = 7``;
  ``(16 : ℝ) ^ …`` is fine). ``fun h => …`` against ``a ≠ b`` or ``¬p`` binds ``h : a = b`` / ``p``
  (Lean's binder elaborator whnfs the expected type to a ``→``).
* **Integer powers** (``zpow``): ``x ^ (k : ℤ)``, ``x ^ (-(k : ℤ))`` and ``x ^ (-k : ℤ)`` for a
  literal ``k`` (the last two one term, ``Neg.neg (OfNat.ofNat k)``); an atom for ``ring``/``linarith``
  (never ``x ^ k``), not read by ``positivity``; a lemma's ``(n : ℤ)`` argument only a literal
  (``zpow_neg``, ``zpow_ofNat``). Any other ``ℤ`` exponent or ascription is not modelled.
* **Sums over n terms** (``sums``): binders ``(n : ℕ)``, families ``(a : Fin n → ℝ)``/``(a : ℕ → ℝ)``,
  ``∀ i, P (a i)`` and ``∀ i ∈ Finset.range n, P``; terms ``∑ i, body``, ``∑ i : Fin n, body``,
  ``∑ i ∈ Finset.range n, body`` (body at precedence 67), atoms for ``ring``/``linarith`` compared up to
  the bound variable's name; ``binop%``'s casts (``∑ i, a i = n`` is ``… = ↑n``; ``(n : ℝ)`` = ``↑n``).
  ``Finset.sum_nonneg``/``sum_pos``/``sum_eq_zero`` against a stated sum (the lambda's type must be the
  summand), ``Finset.univ_nonempty_iff``/``nonempty_range_iff``/``Fin.pos_iff_nonempty``,
  ``Nat.cast_nonneg``; ``simp only [Finset.sum_add_distrib, ← Finset.mul_sum, Finset.sum_const, …]``
  rewriting to a fixpoint; ``rw [← h]`` with a local equation; ``omega`` and ``exact_mod_cast`` on a
  comparison of one natural-number variable with a numeral. The case ``n = 0``: ``rcases
  Nat.eq_zero_or_pos n with h | h`` (``n = 0`` / ``n > 0``), ``subst h`` (``n := c`` for a numeral),
  ``simp at *`` only where it closes that goal (every empty sum and what it multiplies is ``0`` by
  named simp lemmas, the goal then ``True`` or a hypothesis ``False``: ``sums.simp_at_star``; else
  not modelled), ``simp only [Finset.univ_eq_empty, Finset.range_zero, Finset.sum_empty,
  Nat.cast_zero] (at *)``; ``Nat.cast_pos``/``Nat.one_le_cast`` (``.mpr``); Cauchy–Schwarz
  ``Finset.sum_mul_sq_le_sq_mul_sq s f g`` (its type beta-reduced, as ``inferType`` gives it) and
  ``Finset.sum_sq_le_sum_mul_sum_of_sq_eq_mul s hf hg ht``. A written ``_`` that unification leaves
  unassigned in an ``exact``/``have`` term is an error ("don't know how to synthesize placeholder").
* **Names**: every global constant must be whitelisted (``MATHLIB_SIGNATURES`` or a
  ``ProverLemmas`` theorem read from ``lean_project/ProverLemmas/*.lean``).
* **Size**: at most ``LINE_BUDGET`` characters a line, ``TACTIC_BUDGET`` a tactic (over all the
  lines it spans), ``FILE_BUDGET`` a file, and
  ``set_option maxHeartbeats N in`` before a declaration when the file exceeds
  ``HEARTBEAT_THRESHOLD`` characters.
* **Resources** (``resources``): per declaration, estimated heartbeats (elaboration by term
  nodes, ``ring``'s monomial operations, ``linarith``'s preprocessing of every comparison in
  context on every call, ``positivity``) against ``maxHeartbeats`` (200,000 or the
  declaration's ``set_option maxHeartbeats N in``) and the deepest term nesting (a sum of N
  summands is N deep) against ``maxRecDepth`` (512 or ``set_option maxRecDepth N in``); over
  either budget fails. Constants calibrated on Mathlib's tests, stated in ``resources``.

Not modelled (each is a failure): ``field_simp``, ``nlinarith``, ``polyrith``, ``norm_num``,
``simp`` (but ``simp only`` with definition hypotheses, the sum lemmas above, and ``simp at *`` closing
the case ``n = 0``), ``ring_nf``, ``rw`` with other lemmas, ``linear_combination (norm := …)``/``(exp := …)``,
``calc`` (``Checker.calc`` is written but the tactic parser does not produce it yet), casts other
than ``ℕ → ℝ``, ``∃``, ``∏``, sums over other sets than ``Finset.range N``/``Fin N``, and every name
outside the whitelist.

Modules (each imports only the ones it needs; none imports this package):

* ``checker`` — The checker: runs the model over a file, tactic by tactic, and the entry points.
* ``definitions`` — Function locals defined by an equation: the statement's checks and ``simp only [h₀]``.
* ``elab`` — Term elaboration: a proof term's type from the whitelisted signatures, by unification.
* ``goals`` — Goals and their local contexts (hypotheses and variables).
* ``local`` — One entry of a goal's local context: a variable or a hypothesis (its own module, so that the term …
* ``lexing`` — Lean tokens: the lexer of the rendered subset (identifiers, numerals, symbols, ``|abs`` bars).
* ``linarith`` — Mathlib's ``linarith`` as an exact Positivstellensatz-degree-1 search (HiGHS, checked exactly).
* ``positivity`` — Mathlib's ``positivity``: its core extensions and ``compareHyp`` on the local context.
* ``report`` — Size budgets, the per-tactic verdicts, the report of one file, and the model's two exceptions.
* ``resources`` — Lean's resource limits per declaration: estimated heartbeats and the deepest term nesting.
* ``ring_normal`` — ``ring``'s normal form (polynomials over ℚ in atoms, python-flint) and ``norm_num``'s values.
* ``signatures`` — The whitelisted names: Mathlib signatures, rewrite lemmas, ``ProverLemmas`` theorems.
* ``source`` — Top-level structure of a Lean file: comments stripped, commands, declarations.
* ``sums`` — Sums over n terms: casts ℕ → ℝ, the ``Finset`` lemmas, ``simp only`` linearity, ``omega``, ``exact_mod_cast``.
* ``tactics`` — Tactic syntax: a block split into items (Lean's column rule) and the tactic parser.
* ``term_parser`` — Name resolution (``Scope``) and the Pratt parser of Lean terms over tokens.
* ``terms`` — Terms as tuples: constants, canonical forms (``clean``, ``canon``), printing, substitution.

Trust: none; a model of Lean used to measure rendered files (``prover lean check`` with Lean is the final word).
"""

from prover.lean.replay.checker import Checker, replay_file, replay_text
from prover.lean.replay.elab import Elab
from prover.lean.replay.goals import Goal, Local
from prover.lean.replay.lexing import ABS_BAR, Tok, lex
from prover.lean.replay.linarith import LINARITH_HYP_SIZE, linarith_goal
from prover.lean.replay.positivity import positivity_core, positivity_goal
from prover.lean.replay.report import (
    FAIL,
    FILE_BUDGET,
    HEARTBEAT_THRESHOLD,
    LINE_BUDGET,
    OK,
    REAL_DIVISION_MACRO,
    TACTIC_BUDGET,
    UNSUPPORTED,
    ModelError,
    NotModelled,
    ReplayReport,
    StepVerdict,
)
from prover.lean.replay.resources import (
    DEFAULT_MAX_HEARTBEATS,
    DEFAULT_MAX_REC_DEPTH,
    DeclResources,
    ResourceMeter,
    size_depth,
)
from prover.lean.replay.ring_normal import RingNormalizer, num_value
from prover.lean.replay.signatures import (
    FUNCTIONS,
    MATHLIB_SIGNATURES,
    RW_LEMMAS,
    Signature,
    mathlib_signature,
    parse_signature,
    prover_lemma_signatures,
    prover_lemmas_dir,
)
from prover.lean.replay.source import Decl, LeanSource, strip_comments
from prover.lean.replay.tactics import Item, TacParser, split_block
from prover.lean.replay.term_parser import KEYWORDS, Scope, TermParser, parse_term
from prover.lean.replay.terms import (
    NAT,
    REAL,
    ZERO,
    canon,
    clean,
    free_fvars,
    has_mvar,
    real_exponents,
    show,
    subst,
    uid_name,
)

__all__ = [
    "ABS_BAR",
    "DEFAULT_MAX_HEARTBEATS",
    "DEFAULT_MAX_REC_DEPTH",
    "FAIL",
    "FILE_BUDGET",
    "FUNCTIONS",
    "HEARTBEAT_THRESHOLD",
    "KEYWORDS",
    "LINARITH_HYP_SIZE",
    "LINE_BUDGET",
    "MATHLIB_SIGNATURES",
    "NAT",
    "OK",
    "REAL",
    "REAL_DIVISION_MACRO",
    "RW_LEMMAS",
    "TACTIC_BUDGET",
    "UNSUPPORTED",
    "ZERO",
    "Checker",
    "Decl",
    "DeclResources",
    "Elab",
    "Goal",
    "Item",
    "LeanSource",
    "Local",
    "ModelError",
    "NotModelled",
    "ReplayReport",
    "ResourceMeter",
    "RingNormalizer",
    "Scope",
    "Signature",
    "StepVerdict",
    "TacParser",
    "TermParser",
    "Tok",
    "canon",
    "clean",
    "free_fvars",
    "has_mvar",
    "lex",
    "linarith_goal",
    "mathlib_signature",
    "num_value",
    "parse_signature",
    "parse_term",
    "positivity_core",
    "positivity_goal",
    "prover_lemma_signatures",
    "prover_lemmas_dir",
    "real_exponents",
    "replay_file",
    "replay_text",
    "show",
    "size_depth",
    "split_block",
    "strip_comments",
    "subst",
    "uid_name",
]
