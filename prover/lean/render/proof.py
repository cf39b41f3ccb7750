"""A whole proof: the step renderers by kind, the step tree, and the complete file."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import sys
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.lean import replay
from prover.lean.render.budget import heartbeat_options, tactics_pass, with_heartbeat_options, wrap_lines
from prover.lean.render.close import render_close
from prover.lean.render.combine import render_combine
from prover.lean.render.common import CLOSE_STYLES, RenderContext, RenderError, StepBlock, indent
from prover.lean.render.definitions import expanded_head, expanded_name, has_definitions, wrapper
from prover.lean.render.faithful_text import faithful_from_json
from prover.lean.render.hypothesis_atoms import atom_copies, target_conversion, written_hypothesis_sides
from prover.lean.render.linear import render_rewrite
from prover.lean.render.local_lemmas import NAMESPACE as LIBRARY_NAMESPACE
from prover.lean.render.local_lemmas import local_lemma_lines
from prover.lean.render.monotone import render_monotone
from prover.lean.render.scale import render_scale
from prover.lean.render.split import render_split
from prover.lean.render.square import render_square
from prover.lean.render.statement import (
    header,
    hypothesis_refs,
    root_prelude,
    statement,
    theorem_head,
    user_statement,
    written_hypothesis,
)
from prover.lean.render.variables import render_introduce, render_substitute
from prover.lean.render.zpow import rewrite_head, written_zpows, zpow_lines
from prover.lean.syntax import split_denominators
from prover.tactics.lemma import LemmaLookup

_RENDERERS = {"close": render_close, "rewrite": render_rewrite, "scale": render_scale,
              "split": render_split, "introduce": render_introduce, "substitute": render_substitute,
              "combine": render_combine, "square": render_square,
              "monotone": render_monotone}


def step_block(step: Step, names: list[str], *, lemmas: LemmaLookup | None = None,
               close_style: str = "linear_combination", counter: itertools.count | None = None) -> StepBlock:
    """The tactic block of one step, given the Lean names of its goal's hypotheses.

    Pass one ``counter`` for all steps of a proof so fresh names never repeat."""
    if close_style not in CLOSE_STYLES:
        raise RenderError(f"unknown close style {close_style!r}")
    ctx = RenderContext(list(names), counter or itertools.count(1), lemmas, close_style)
    block = _guarded(step, ctx)
    local = local_lemma_lines(ctx.used)      # the block proves the lemmas of ours it cites
    return replace(block, lines=local + list(block.lines)) if local else block


def _guarded(step: Step, ctx: RenderContext) -> StepBlock:
    try:
        return _RENDERERS[step.kind](step, ctx)
    except RenderError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise RenderError(f"{step.kind} step: malformed certificate ({type(exc).__name__}: {exc})") from None
    except RecursionError:
        raise RenderError(f"{step.kind} step: a term too deeply nested to render") from None


def _render_tree(step: Step, ctx: RenderContext) -> list[str]:
    block = _guarded(step, ctx)
    if len(block.child_names) != len(step.children):
        raise RenderError(f"{step.kind} step has {len(step.children)} children for "
                          f"{len(block.child_names)} subgoals")
    lines = list(block.lines)
    kids = [_render_tree(c, _child_context(ctx, block, i)) for i, c in enumerate(step.children)]
    if len(kids) == 1:
        lines += kids[0]
    else:
        for k in kids:
            lines.append(f"· {k[0]}")
            lines += indent(k[1:])
    return lines



def _child_context(ctx: RenderContext, block: StepBlock, i: int) -> RenderContext:
    """The context of subgoal ``i``: its hypothesis names, and its target's text when the block
    states it otherwise than our printing (a nested large polynomial)."""
    child = ctx.child(block.child_names[i])
    text = block.child_texts[i] if i < len(block.child_texts) else None
    return child.with_target_text(*text) if text is not None else child


def catalogue_lookup() -> LemmaLookup | None:
    """The catalogue's ``prover.tactics.catalogue.lemma_lookup(name) -> LemmaStatement | None``,
    when that module exists (scale steps need it for the Lean names of lemmas)."""
    try:
        from prover.tactics import catalogue  # type: ignore[attr-defined]
    except ImportError:
        return None
    make = getattr(catalogue, "lemma_lookup", None)
    return make() if callable(make) else None   # a factory: lemma_lookup(directory=None) -> lookup



def render_proof(proof: Proof, *, lemmas: LemmaLookup | None = None,
                 close_style: str = "linear_combination", print_axioms: bool = True,
                 shrink: bool = True, shrink_budget_s: float | None = None) -> str:
    """A complete ``.lean`` file proving ``proof.problem`` by replaying ``proof``'s certificates.

    ``lemmas`` resolves the catalogue lemmas of scale steps (default: :func:`catalogue_lookup`).
    With ``shrink`` (default), large SOS certificates are first rewritten with short rationals
    (:func:`prover.lean.render.shrink.shrink_proof`: each new certificate is kept only when the
    kernel checks it; ``proof`` itself is not changed), within ``shrink_budget_s`` seconds.
    Lines over the line budget are broken at ``+``/``-``, and the theorem gets
    ``set_option maxHeartbeats N in`` with ``N`` twice the replay model's estimate of its work
    when that is over Lean's default (:mod:`prover.lean.render.budget`)."""
    if getattr(getattr(proof, "problem", None), "nterm", None) is not None:   # a statement over n terms
        from prover.lean.render.nterm import render_nterm

        return render_nterm(proof, render_proof, lemmas=lemmas, close_style=close_style, shrink=shrink,
                            shrink_budget_s=shrink_budget_s)
    proof = with_saved_statement(proof)
    if shrink:
        from prover.lean.render.shrink import PROOF_BUDGET_S, shrink_proof
        proof = shrink_proof(proof, budget_s=PROOF_BUDGET_S if shrink_budget_s is None else shrink_budget_s)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200_000))   # step renderers parse long sums (left-nested terms)
    try:
        return _render_stated(proof, lemmas, close_style, print_axioms)
    finally:
        sys.setrecursionlimit(limit)


def _render_either_printing(proof: Proof, lemmas: LemmaLookup | None, close_style: str,
                            print_axioms: bool) -> str:
    """The file with products of sums in denominators printed as one division (one ``ring`` atom
    for the product), and when that is refused or over the size budgets, with successive
    divisions (one atom per factor: :func:`prover.lean.syntax.split_denominators`) — the one within
    the budgets, or the smaller. Each printing is used for the whole file: a subgoal's statement
    and the identities of the step that proves it must print its denominators alike. Successive
    divisions are tried first when a goal of the proof has such a denominator (a step combined
    fractions): its identities meet the factors on the other side."""
    tries: list[_Rendered] = []
    error: RenderError | None = None
    for split in ((True, False) if any(_combined_fractions(r) for r in proof.roots()) else (False, True)):
        try:
            with split_denominators() if split else contextlib.nullcontext():
                tries.append(_render_file(proof, lemmas, close_style, print_axioms))
        except RenderError as exc:
            error = error or exc
            continue
        if not tries[-1].over_budget():
            break
    if not tries:
        raise error or RenderError("no rendering")
    return min(tries, key=lambda r: (r.over_budget(), len(r.text))).text


def _combined_fractions(step: Step) -> bool:
    """Whether a goal of the tree has a summand dividing by a product of two or more sums."""
    def combined(e: sp.Expr) -> bool:
        for term in sp.Add.make_args(e):
            dens = [f for f in sp.Mul.make_args(term) if f.is_Pow and f.exp.is_negative and f.base.has(sp.Add)]
            if len(dens) >= 2:
                return True
        return False
    todo = [step]
    while todo:
        st = todo.pop()
        if combined(st.goal.target.lhs) or combined(st.goal.target.rhs):
            return True
        todo.extend(st.children)
    return False


@dataclass(frozen=True)
class _Rendered:
    text: str
    #: the longest line before wrapping: about the longest tactic (a tactic is one line until wrapped)
    longest: int

    def over_budget(self) -> bool:
        return len(self.text) > replay.FILE_BUDGET or self.longest > replay.TACTIC_BUDGET


#: Above a theorem whose statement is the front-end's reading rather than the user's (neither the
#: user's text nor the faithful statement could be used): what it is, and who checked what.
RESTATED_COMMENT = ("-- Restated: the statement below is the front-end's reading of the user's theorem, not its text "
                    "(which this file could not bridge);\n-- our kernel checked that the two mean the same "
                    "under the hypotheses, Lean did not.\n")


def with_saved_statement(proof: Proof) -> Proof:
    """``proof`` whose problem has the faithful statement saved in its JSON (``problem.statement``),
    for the statement the file prints (:func:`statement`). Only the renderer reads it: the kernel's
    check re-reads the Lean text (a forged ``statement`` field must not count there), and a wrong
    one here yields a file stating something else, which Lean then checks as stated."""
    problem, raw = proof.problem, proof.raw
    saved = raw.get("problem", {}).get("statement") if isinstance(raw, dict) else None
    if problem.faithful is not None or not isinstance(saved, dict):
        return proof
    faithful = faithful_from_json(saved, problem.variables)
    return proof if faithful is None else dataclasses.replace(proof, problem=dataclasses.replace(problem, faithful=faithful))


def _render_stated(proof: Proof, lemmas: LemmaLookup | None, close_style: str, print_axioms: bool) -> str:
    """The file stating the user's text, else the faithful statement (:func:`statement`); when the
    proof cannot be bridged to the faithful statement (a render error or a tactic the replay model
    fails), the front-end's reading, marked :data:`RESTATED_COMMENT` — never silently another
    theorem."""
    reading = None
    if proof.problem.faithful is not None and user_statement(proof.problem, proof.meta) is None:
        problem = dataclasses.replace(proof.problem, faithful=None)
        problem.meta = {**problem.meta, "restated": True}
        reading = dataclasses.replace(proof, problem=problem)
    if reading is None:
        return with_heartbeat_options(_render_either_printing(proof, lemmas, close_style, print_axioms))
    try:
        text, report = heartbeat_options(_render_either_printing(proof, lemmas, close_style, print_axioms))
    except RenderError:
        return with_heartbeat_options(_render_either_printing(reading, lemmas, close_style, print_axioms))
    if tactics_pass(report):
        return text
    try:
        alt, alt_report = heartbeat_options(_render_either_printing(reading, lemmas, close_style, print_axioms))
    except RenderError:
        return text
    return alt if tactics_pass(alt_report) else text


def _render_file(proof: Proof, lemmas: LemmaLookup | None, close_style: str,
                 print_axioms: bool) -> _Rendered:
    if lemmas is None:
        lemmas = catalogue_lookup()
    if close_style not in CLOSE_STYLES:
        raise RenderError(f"unknown close style {close_style!r}")
    problem = proof.problem
    _, refs = hypothesis_refs(problem)
    head, name = theorem_head(problem, proof.meta)
    user = _user_theorem(problem, proof.meta)
    if user is not None:       # defined functions: our expanded statement first, then the user's
        name = expanded_name(user[1])
        head = expanded_head(user[0], name, problem.real_division) or statement(problem, name)
    counter = itertools.count(1)
    written = head                 # the statement as the proof sees it (integer powers rewritten)
    zpows, zpows_at = written_zpows(head), []
    if zpows:
        if problem.is_conjunction or user is not None:
            raise RenderError("zpow: integer powers are rewritten only in a statement with one goal")
        written = rewrite_head(head, zpows)
        fresh = RenderContext(refs, counter, lemmas, close_style).fresh
        zpows_at = zpow_lines(zpows, _located_texts(head, refs), fresh)
    copies, refs = atom_copies(problem, refs, written, RenderContext(refs, counter, lemmas, close_style))
    if problem.is_conjunction:
        tree, used = _render_conjunction(proof, refs, lemmas, close_style, counter)
        prelude = copies + root_prelude(problem, refs, head)   # the copies only: each part turns its own goal
    else:
        root_goal = Goal.from_problem(problem)
        if proof.root.goal != root_goal:
            raise RenderError("the proof's root goal is not the problem's goal")
        ctx = RenderContext(refs, counter, lemmas, close_style, written_sides=written_hypothesis_sides(refs, written))
        sides = statement_sides(written, problem.real_division)
        conversion = target_conversion(root_goal, sides, ctx) if sides is not None else None
        if sides is not None and conversion is None:
            ctx = ctx.with_target_text(root_goal.target, *sides)
        tree = (conversion or []) + _render_tree(proof.root, ctx)
        used = ctx.used
        prelude = zpows_at + copies + root_prelude(problem, refs, written)
    ctx = RenderContext(refs, counter, lemmas, close_style)
    ctx.used.update(used)
    # our own lemmas the proof cites, stated and proved first (the file imports Mathlib alone)
    tactics = indent(local_lemma_lines(ctx.used) + prelude + tree)
    body = wrap_lines(tactics)
    cited = sorted(n for n in ctx.used if n.startswith(LIBRARY_NAMESPACE))
    if cited:       # every renderer cites our lemmas by their local names: the file imports Mathlib alone
        raise RenderError(f"{cited[0]} is cited by its library name, which would need `import ProverLemmas`")
    top = header(problem, ctx.used) + (RESTATED_COMMENT if problem.meta.get("restated") else "")
    rest = head + " := by\n" + "\n".join(body) + "\n"
    if user is not None:
        rest += "\n" + wrapper(problem, *user)
        name = user[1]
    tail = f"\n#print axioms {name}\n" if print_axioms else ""
    text = top + rest + tail
    return _Rendered(text, max(map(len, tactics), default=0))


def _located_texts(head: str, refs: list[str]) -> dict[str, str]:
    """Each hypothesis binder's text by its name, and the goal's (``⊢``: the head after its binders)."""
    texts = {ident: text for ident in dict.fromkeys(r.split(".")[0] for r in refs)
             if (text := written_hypothesis(head, ident)) is not None}
    goal = head
    for text in texts.values():
        goal = goal.replace(text, "", 1)
    return {**texts, "⊢": goal}


def _user_theorem(problem, proof_meta: dict) -> tuple[str, str] | None:
    """The user's statement and name when it has defined functions (None otherwise)."""
    if not has_definitions(problem):
        return None
    user = user_statement(problem, proof_meta)
    if user is None:
        raise RenderError("a statement with defined functions is rendered only from the user's own text")
    return user


def _render_conjunction(proof: Proof, refs: list[str], lemmas: LemmaLookup | None, close_style: str,
                        counter: itertools.count) -> tuple[list[str], set[str]]:
    """A goal ``A ∧ B ∧ …``: ``refine ⟨?_, ?_, …⟩`` (the anonymous constructor nests to the
    right, as ``∧`` does), then each part's tree under a ``·`` bullet, after the part's own goal
    turned into ``≤``/``<`` (``rw [ge_iff_le]``) as every step expects. The hypotheses' copies
    (:func:`root_prelude`) are made once, before the split."""
    problem = proof.problem
    roots = proof.roots()
    if len(roots) != len(problem.goal_parts):
        raise RenderError(f"the goal has {len(problem.goal_parts)} parts and the proof {len(roots)}")
    lines = [f"refine ⟨{', '.join('?_' for _ in roots)}⟩"]
    used: set[str] = set()
    head = theorem_head(problem, proof.meta)[0]
    sides = statement_part_sides(head, problem.real_division, len(roots))
    written = written_hypothesis_sides(list(refs), head)
    for i, root in enumerate(roots):
        if root.goal != Goal.from_problem(problem.part(i)):
            raise RenderError(f"the proof of part {i + 1} is not of that part's goal")
        ctx = RenderContext(list(refs), counter, lemmas, close_style, written_sides=written)
        if sides[i] is not None:
            ctx = ctx.with_target_text(root.goal.target, *sides[i])
        op = problem.goal_parts[i].op
        body = {">=": ["rw [ge_iff_le]"], ">": ["rw [gt_iff_lt]"]}.get(op, []) + _render_tree(root, ctx)
        used |= set(ctx.used)
        lines.append(f"· {body[0]}")
        lines += indent(body[1:])
    return lines, used


def statement_part_sides(head: str, real_division: bool, n: int) -> list[tuple[str, str] | None]:
    """:func:`statement_sides` for each part of a goal ``A ∧ B ∧ …`` of ``n`` parts (None where
    a part is not read so)."""
    try:
        decls = replay.LeanSource(head + " := by\n  skip\n").declarations()
        if len(decls) != 1:
            return [None] * n
        concl = replay.parse_signature(decls[0].signature_text, replay.Scope(real_division=real_division)).concl
    except (replay.NotModelled, replay.ModelError, RecursionError):
        return [None] * n
    parts = []
    while isinstance(concl, tuple) and concl[0] == "and" and len(parts) < n - 1:
        parts.append(concl[1])
        concl = concl[2]
    parts.append(concl)
    if len(parts) != n:
        return [None] * n
    out: list[tuple[str, str] | None] = []
    for part in parts:
        c = replay.canon(part)
        ok = isinstance(c, tuple) and c[0] == "rel" and c[1] in ("≤", "<", "=")
        out.append((replay.show(c[2]), replay.show(c[3])) if ok else None)
    return out


def statement_sides(head: str, real_division: bool = False) -> tuple[str, str] | None:
    """The two sides of the goal of a theorem statement as Lean will see them after the prelude
    (read as ``L ≤ R``, ``L < R`` or ``L = R``), printed back from the statement's own terms, so
    that identities are stated against the user's text and not against our reading of it. Under
    the benchmark's real-division macro (``real_division``) a numeral exponent with a ``/`` is
    printed with its type, as Lean elaborates it (``x ^ (2 / 3)`` is ``x ^ (2 / 3 : ℝ)``)."""
    try:
        decls = replay.LeanSource(head + " := by\n  skip\n").declarations()
        if len(decls) != 1:
            return None
        scope = replay.Scope(real_division=real_division)
        concl = replay.canon(replay.parse_signature(decls[0].signature_text, scope).concl)
    except (replay.NotModelled, replay.ModelError, RecursionError):
        return None
    if concl[0] != "rel" or concl[1] not in ("≤", "<", "="):
        return None
    return replay.show(concl[2]), replay.show(concl[3])


def render_step_tactic(step: Step, names: list[str], **kw: Any) -> str:
    """The tactic text of one step, for running it on a backend's proof state."""
    return "\n".join(step_block(step, names, **kw).lines)
