"""Render a kernel proof (``prover.ir``) as a Lean 4 file that replays every certificate.

Every step becomes one tactic block that turns the Lean goal for ``step.goal`` into exactly the
Lean goals for ``step.subgoals`` (in order), so a backend can run a proof step by step.

* ``close``/``sos``: ``linear_combination`` with the certificate's exact weights (primary, see
  below); ``close``/``positivity``: ``positivity`` on the slack, then ``linear_combination``.
* ``rewrite``: ``positivity`` for the multiplier; the identity ``m·slack(G') + Σλ·eq = slack(G)``
  by ``linear_combination`` over ``d * d⁻¹ = 1`` facts (``field_identity``) when denominators occur; ``suffices G'`` and a ``linear_combination``
  that adds ``m·slack(G') ≥ 0`` and the equalities with their exact coefficients.
* ``scale``: each application is the catalogue lemma with explicit arguments (side conditions by
  ``positivity``), weighted by its coefficient inside the same ``linear_combination``; where the
  lemma's own conclusion writes an atom differently from our printing, exact bridges
  (``congrArg Real.sqrt h``, ``h`` by ``ring``) restate it in ours (``atoms``).
* ``combine``: ``suffices h : P₁ ∧ P₂ … by`` the product facts in one ``linear_combination``, then
  ``refine ⟨?_, ?_⟩``: each part proved by its subtree.
* ``square``: ``suffices h : 0 ≤ B ∧ S ^ 2 ≤ B ^ 2 by`` … ``(abs_le_of_sq_le_sq' hs hb).2``, then
  ``refine ⟨?_, ?_⟩``: each subgoal proved by its subtree.
* ``monotone``: ``suffices h : a ≤ b (∧ 0 ≤ a) by`` … ``Real.sqrt_le_sqrt``/``Real.rpow_le_rpow``
  (``_lt_`` when strict) on the arguments as Lean writes them, bridged to ours by ``linear_combination``.
* ``split``: ``rcases le_total …``; orderings are proved by case lemmas (``∀`` over the
  variables when the split uses symmetry), dispatched by a tree of ``le_total`` cases with one
  leaf per ordering applying its case lemma once; cases of one large target: one lemma over the
  disjunction of the orderings (``Or.inl``/``Or.inr`` at the leaves, ``rcases`` after), the
  target stated once.
* ``introduce``/``substitute``: ``suffices ∀ new variables, new hypotheses → G'`` and an
  instantiation at the definitions.

Why ``linear_combination`` and not ``nlinarith`` for SOS certificates: since Mathlib PR #16841
(in the pinned v4.16.0) ``linear_combination`` proves ``≤``/``<`` goals from nonnegative
combinations and checks the remainder with ``ring``; given the exact weights there is no search
at all, so success does not depend on heuristics or heartbeats. ``close_style="nlinarith"``
renders the same product terms as ``nlinarith`` hints for older Mathlib releases.

Strict hypotheses used in a non-strict product enter as ``(sub_pos.mpr h).le``; every fact fed
to ``linear_combination`` is stated as ``0 ≤ …`` / ``0 < …`` so its type is syntactic.

Modules: ``common`` (context, errors, helpers), ``statement`` (theorem head, header),
``close``, ``linear`` (rewrite), ``scale``, ``split``, ``variables`` (introduce/substitute),
``atoms`` (the user's roots and atom bridges), ``proof`` (the tree and the file).

Modules:

* ``atoms`` — The user's atoms in ``introduce`` steps: roots as written, and exact bridges between atoms.
* ``budget`` — Size budgets of a rendered file: ``set_option maxHeartbeats N in`` sized to the proof, and tactic lines …
* ``close`` — ``close`` steps: SOS certificates as one ``linear_combination``; ``positivity`` closes.
* ``combine`` — ``combine`` steps: the goal from independent parts, ``slack G = Σ λ·Π slack Gᵢ``.
* ``compact`` — Large polynomials printed nested (Horner form) in the subgoal statements; the child is told the text.
* ``common`` — Shared pieces of the renderer: the error, the naming context, step blocks and term helpers.
* ``definitions`` — Statements with defined functions: the user's theorem from its expanded statement (``simp only [h₀]``, exact ring identities).
* ``faithful_text`` — The front-end's faithful statement printed as Lean: our theorem states what the user stated.
* ``field_identity`` — Equalities with denominators as one ``linear_combination`` that Mathlib's ``ring1`` checks.
* ``hypothesis_atoms`` — Copies of hypotheses whose ``|·|`` or ``√`` the user writes otherwise than our printing.
* ``linear`` — ``rewrite`` steps (and the shared shape of ``scale``): ``slack G = m·slack G' + …``.
* ``local_lemmas`` — Our own catalogue lemmas (``Prover.Lemmas.*``) stated and proved inside the rendered proof (``have prover_<name>``), so a file imports Mathlib alone.
* ``monotone`` — ``monotone`` steps: ``f(A) ≤ f(B)`` from ``a ≤ b`` (and ``0 ≤ a``), ``f`` = ``Real.sqrt`` or ``· ^ (r : ℝ)``.
* ``nterm`` — Statements over n terms as a Lean file: scalar lemmas, then the user's theorem from them.
* ``proof`` — A whole proof: the step renderers by kind, the step tree, and the complete file.
* ``scale`` — ``scale`` steps: catalogue lemmas (Mathlib names or replayed kernel certificates) and facts.
* ``shrink`` — Small certificates for rendering: SOS ``close`` certificates re-written with short rationals.
* ``split`` — ``split`` steps: on the sign of a polynomial, or on the order of variables.
* ``square`` — ``square`` steps: ``S ≤ B`` from ``0 ≤ B`` and ``S ^ 2 ≤ B ^ 2`` (Mathlib's ``abs_le_of_sq_le_sq'``).
* ``statement`` — The theorem statement and file header: the user's text verbatim where usable.
* ``variables`` — ``introduce`` and ``substitute`` steps: a statement over the new variables, instantiated.
* ``zpow`` — Integer powers (``zpow``) of the user's statement rewritten to natural powers and inverses.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""

from prover.lean.render.close import close_lines
from prover.lean.render.common import CLOSE_STYLES, MATHLIB_TAG, RenderContext, RenderError, StepBlock
from prover.lean.render.proof import catalogue_lookup, render_proof, render_step_tactic, step_block
from prover.lean.render.scale import HYPOTHESES_ONLY
from prover.lean.render.statement import (
    HEADER_LINE,
    REAL_DIVISION_MACRO,
    header,
    hypothesis_refs,
    original_statement,
    root_prelude,
    statement,
    theorem_head,
    theorem_name,
)

__all__ = ["CLOSE_STYLES", "HEADER_LINE", "HYPOTHESES_ONLY", "MATHLIB_TAG", "REAL_DIVISION_MACRO", "RenderContext",
           "RenderError", "StepBlock", "catalogue_lookup", "close_lines", "header", "hypothesis_refs",
           "original_statement", "render_proof", "render_step_tactic", "root_prelude", "statement", "step_block",
           "theorem_head", "theorem_name"]
