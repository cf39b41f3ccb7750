"""Statements with functions given by a defining equation: the user's theorem from the expanded one.

The search proves the *expanded* statement (every ``f t`` replaced by its body, see
:mod:`prover.frontend.definitions`); the file states it as ``NAME_expanded`` with our printing and
proves it as any other. The user's theorem follows by a fixed template: the expanded theorem is
applied to the variables and to each hypothesis, carried over by ``simp only [h₀, …]`` (which
rewrites ``f t`` to the body at ``t``, beta-reduced) and an exact ring identity
(``linear_combination``: the two texts have equal sides, only printed differently); the goal is
rewritten the same way and closed from the expanded theorem's conclusion.
"""

from __future__ import annotations

from prover.lean.render.common import RenderError
from prover.lean.render.statement import (
    binder_groups,
    hypothesis_refs,
    repeated_binders,
    shadowed_binder_text,
)
from prover.lean.syntax import lean_ident
from prover.problem import Problem

#: Names the template introduces (unlikely to be a user's variable; shadowing would be harmless).
KEY, COPY, INTRO = "hdef_key", "hdef_e", "hdef_e'"
#: ``≥``/``>`` need no rewriting: ``linear_combination`` reads relations through ``whnfR``
#: (Mathlib's ``Expr.ineq?``), which unfolds the reducible ``GE.ge``/``GT.gt`` (docs/lean-names.md).


def has_definitions(problem: Problem) -> bool:
    return bool(problem.meta.get("definitions"))


def expanded_name(name: str) -> str:
    return f"{name}_expanded"


def _carry(ref: str, op: str, uses: bool, defs: str) -> str:
    """A proof, in the user's context, of our printing of hypothesis ``ref`` (relation ``op``)."""
    steps = [f"have {COPY} := {ref}"]
    if uses:
        steps.append(f"simp only [{defs}] at {COPY}")
    if op == "!=":
        return "by " + "; ".join(steps + [f"intro {INTRO}", f"exact {COPY} (by linear_combination {INTRO})"])
    return "by " + "; ".join(steps + [f"linear_combination {COPY}"])


def _close(fact: str, op: str, uses: bool, defs: str) -> list[str]:
    """Tactics that close a goal (relation ``op``) of the user's from ``fact``, our printing of it."""
    lines = [f"simp only [{defs}]"] if uses else []
    if op == "!=":
        return lines + [f"intro {INTRO}", f"exact {fact} (by linear_combination {INTRO})"]
    return lines + [f"linear_combination {fact}"]


def _arguments(problem: Problem, defs: str) -> list[str]:
    _, refs = hypothesis_refs(problem)
    if problem.meta.get("memberships"):
        raise RenderError("a membership hypothesis beside a defined function is not rendered yet")
    if repeated_binders(problem):
        raise RenderError("two hypotheses share a name: the user's theorem cannot name both")
    uses = set(problem.meta.get("definition_uses", {}).get("hypotheses", []))
    args = [lean_ident(v) for v in problem.variables]
    i = 0
    for group in binder_groups(problem):
        n = len(group[1])
        parts = [_carry(refs[i + k], problem.hypotheses[i + k].rel.op, i + k in uses, defs) for k in range(n)]
        args.append(f"({parts[0]})" if n == 1 else "⟨" + ", ".join(parts) + "⟩")
        i += n
    return args


def _shadowed_equations(problem: Problem, user_head: str) -> tuple[list[str], dict[str, str]]:
    """A defining equation with the name of a later hypothesis is shadowed (Lean shows it as ``hs✝``):
    ``have hdef_hs : ∀ t, … := by assumption`` names it again (``assumption`` searches the whole
    context, by type). The lines and the new names; RenderError when its text is not found."""
    names = {h.name for h in problem.hypotheses}
    lines, renamed = [], {}
    for d in problem.meta["definitions"]:
        name = d["hypothesis"]
        if name not in names:
            continue
        text = shadowed_binder_text(user_head, name)
        if text is None or not text.startswith("∀"):
            raise RenderError(f"the defining equation `{name}` is shadowed and its statement was not found")
        renamed[name] = f"hdef_{lean_ident(name).strip('«»')}"
        lines.append(f"have {renamed[name]} : {' '.join(text.split())} := by assumption")
    return lines, renamed


def wrapper(problem: Problem, user_head: str, user_name: str) -> str:
    """The user's theorem (its statement verbatim) proved from ``NAME_expanded``."""
    lines, renamed = _shadowed_equations(problem, user_head)
    defs = ", ".join(renamed.get(d["hypothesis"], lean_ident(d["hypothesis"])) for d in problem.meta["definitions"])
    call = " ".join([expanded_name(user_name), *_arguments(problem, defs)])
    goal_uses = set(problem.meta.get("definition_uses", {}).get("goal_parts", []))
    lines.append(f"have {KEY} := {call}")
    if problem.is_conjunction:
        facts = [f"{KEY}_{k + 1}" for k in range(len(problem.goal_parts))]
        lines.append(f"obtain ⟨{', '.join(facts)}⟩ := {KEY}")
        lines.append(f"refine ⟨{', '.join('?_' for _ in facts)}⟩")
        for k, (fact, part) in enumerate(zip(facts, problem.goal_parts)):
            body = _close(fact, part.op, k in goal_uses, defs)
            lines += [f"· {body[0]}", *(f"  {b}" for b in body[1:])]
    else:
        lines += _close(KEY, problem.goal.op, 0 in goal_uses, defs)
    return user_head + " := by\n" + "\n".join("  " + ln for ln in lines) + "\n"


def expanded_head(user_head: str, name: str, real_division: bool = False) -> str | None:
    """The user's statement with every application of a defined function replaced by its body (as
    ``simp only [h₀]`` leaves it: the replay model's reading and expansion, printed back), the
    function binders and their equations left out, every binder explicit: ``theorem NAME …``.
    None where the model does not read the statement."""
    from prover.lean import replay
    from prover.lean.replay.definitions import definition_of, expand
    from prover.lean.replay.terms import REAL, fun_arity, show, uid_name

    try:
        decls = replay.LeanSource(user_head + " := by\n  skip\n").declarations()
        if len(decls) != 1:
            return None
        sig = replay.parse_signature(decls[0].signature_text, replay.Scope(real_division=real_division))
        functions = {uid: n for uid, ty, _ in sig.binders if (n := fun_arity(ty)) is not None}
        defs, parts = {}, []
        for uid, ty, _ in sig.binders:
            if uid in functions:
                continue
            if isinstance(ty, tuple) and ty[0] == "forall":
                d = definition_of(ty, functions)
                defs[d.fn] = d
                continue
            parts.append((uid, ty))
        binders = [f"({uid_name(uid)} : ℝ)" if ty == REAL else f"({uid_name(uid)} : {show(expand(ty, defs))})"
                   for uid, ty in parts]
        concl = show(expand(sig.concl, defs))
    except (replay.NotModelled, replay.ModelError, RecursionError):
        return None
    return f"theorem {name} " + " ".join(binders) + f" :\n    {concl}"
