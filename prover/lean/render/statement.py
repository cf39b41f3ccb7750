"""The theorem statement and file header: the user's text verbatim where usable."""

from __future__ import annotations

import re

import sympy as sp

from prover.frontend.fidelity import kernel_relation
from prover.frontend.names import INTERVALS
from prover.frontend.printer import membership_binder, memberships
from prover.kernel import terms as T
from prover.lean.render.common import MATHLIB_TAG
from prover.lean.render.faithful_text import faithful_rel_text
from prover.lean.syntax import _ATOM, _p, _wrap, declaration_names, lean_expr, lean_ident, lean_rel
from prover.problem import Problem, Relation

REAL_DIVISION_MACRO = "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))"


#: First line of every rendered file. It claims only what is true when the file is written: the
#: text targets this Mathlib; nothing has compiled it (``prover lean check FILE`` or
#: ``prover prove --verify lean`` does).
HEADER_LINE = (f"-- Rendered by prover for Mathlib {MATHLIB_TAG} (lean_project/); not compiled when written: "
               "check it with `prover lean check FILE`.")



def _membership_groups(problem: Problem) -> dict[int, tuple[str, str, int]]:
    """First hypothesis index -> ``(binder name, proposition, parts)`` for the membership binders
    ``h : x ∈ Set.Icc a b`` the front-end read (``problem.meta["memberships"]``)."""
    out = {}
    for i, interval in memberships(problem).items():
        n = len(INTERVALS[interval])
        read = membership_binder(problem.hypotheses[i:i + n], interval)
        if read is None:
            continue
        name, x, bounds = read
        element = lean_expr(x)
        if not any(sp.sympify(e).free_symbols for e in [x, *bounds]):
            element = f"({element} : ℝ)"
        text = f"{element} ∈ {interval} " + " ".join(_wrap(_p(b), _ATOM) for b in bounds)
        out[i] = (name, text, n)
    return out


def membership_parts(problem: Problem) -> dict[int, str]:
    """Hypothesis index -> the projection of its membership binder that proves it (``hx.1``,
    ``hx.2``, or ``hx`` for a one-sided interval: ``x ∈ Set.Ioi a`` is ``a < x`` by definition)."""
    out: dict[int, str] = {}
    groups = _membership_groups(problem)
    _, refs = _refs(problem, use_copies=False)
    for i, (_, _, n) in groups.items():
        for k in range(n):
            out[i + k] = refs[i + k]
    return out


def _binder_groups(problem: Problem) -> list[tuple[str, list[Relation]] | tuple[str, list[Relation], str]]:
    """Hypotheses grouped by binder: ``h.1``, ``h.2``, … (from one ``h : A ∧ B ∧ C``) share one;
    a membership binder's parts carry its proposition as a third item."""
    binders: list = []
    groups = _membership_groups(problem)
    skip = 0
    for i, h in enumerate(problem.hypotheses):
        if skip:
            skip -= 1
            continue
        if i in groups:
            name, text, n = groups[i]
            binders.append((name, [x.rel for x in problem.hypotheses[i:i + n]], text))
            skip = n - 1
            continue
        base, _, idx = h.name.rpartition(".")
        if base and idx.isdigit() and binders and binders[-1][0] == base and len(binders[-1]) == 2:
            binders[-1][1].append(h.rel)
        elif base and idx.isdigit():
            binders.append((base, [h.rel]))
        else:
            binders.append((h.name, [h.rel]))
    return binders


binder_groups = _binder_groups


def repeated_binders(problem: Problem) -> bool:
    """Whether two hypothesis binders share a name (the later one shadows the earlier in Lean, so
    the earlier hypothesis has no name a proof could use)."""
    names = [lean_ident(g[0]) for g in _binder_groups(problem)]
    return len(set(names)) != len(names)


def hypothesis_refs(problem: Problem) -> tuple[list[tuple[str, str]], list[str]]:
    """Lean binders ``(name, proposition)`` and, per hypothesis, the term naming it.

    Hypotheses ``h.1``, ``h.2``, … that came from one binder ``h : A ∧ B ∧ C`` become one
    binder again; their references are ``h.1``, ``h.2.1``, ``h.2.2``. A binder name used twice
    is renamed (``hc``, then ``hc_2``) so that every hypothesis stays reachable; the user's own
    statement is then not used (see :func:`original_statement`). The parts of a membership binder
    ``hx : x ∈ Set.Icc a b`` are named by their copies ``hmem_K`` (``K`` the hypothesis's
    1-based index), which :func:`root_prelude` states: ``positivity``, ``linarith`` and
    ``linear_combination`` do not see through ``∈``."""
    return _refs(problem, use_copies=True)


def _refs(problem: Problem, use_copies: bool) -> tuple[list[tuple[str, str]], list[str]]:
    out, refs, seen = [], [], set()
    for group in _binder_groups(problem):
        name, rels = group[0], group[1]
        ident = lean_ident(name)
        if ident in seen:
            k = 2
            while lean_ident(f"{name}_{k}") in seen:
                k += 1
            ident = lean_ident(f"{name}_{k}")
        seen.add(ident)
        n = len(rels)
        if len(group) == 3:
            out.append((ident, group[2]))
            first = len(refs)
            if use_copies:
                refs += [f"hmem_{first + k + 1}" for k in range(n)]
            else:
                refs += [f"{ident}.{k + 1}" if n > 1 else ident for k in range(n)]
            continue
        first = len(refs)
        out.append((ident, " ∧ ".join(stated_relation(problem, r, first + k, "hypothesis")
                                      for k, r in enumerate(rels))))
        for i in range(n):
            path = ".2" * i + (".1" if i < n - 1 else "")
            refs.append(ident + path if n > 1 else ident)
    return out, refs


def theorem_name(problem: Problem) -> str:
    return lean_ident(problem.name.rsplit("/", 1)[-1] if "/" in problem.name else problem.name)


def statement(problem: Problem, name: str | None = None) -> str:
    binders, _ = hypothesis_refs(problem)
    vs = " ".join(lean_ident(v) for v in problem.variables)
    parts = [f"theorem {name or theorem_name(problem)}"]
    if vs:
        parts.append(f"({vs} : ℝ)")
    parts += [f"({n} : {p})" for n, p in binders]
    goals = problem.goal_parts if problem.is_conjunction else (problem.goal,)
    return " ".join(parts) + f" :\n    {' ∧ '.join(stated_relation(problem, g, i, 'goal') for i, g in enumerate(goals))}"


def stated_relation(problem: Problem, rel: Relation, index: int, kind: str) -> str:
    """Our statement's text for hypothesis (or goal part) ``index``: the sympy relation as before
    where it is the faithful one (what Lean reads), else the faithful relation itself
    (:mod:`.faithful_text`: sympy's simplification never reaches a stated theorem)."""
    faithful = _faithful_relation(problem, index, kind)
    if faithful is None or _kernel_reading(rel, problem.variables) == faithful:
        return lean_rel(rel, as_written=True)
    return faithful_rel_text(faithful)


def _faithful_relation(problem: Problem, index: int, kind: str) -> T.Rel | None:
    st = problem.faithful
    if st is None:
        return None
    rels = st.hypotheses if kind == "hypothesis" else (st.goal_parts or (st.goal,))
    return rels[index] if index < len(rels) else None


def _kernel_reading(rel: Relation, variables: list[str]) -> T.Rel | None:
    """The kernel's reading of a sympy relation, as the front-end compared it with the faithful one."""
    try:
        return kernel_relation(rel, variables)
    except T.TermError:
        return None


def header(problem: Problem, used_lemmas: set[str] | frozenset[str] = frozenset()) -> str:
    """Imports (``ProverLemmas`` from lean_project/ when a ``Prover.*`` lemma is used), ``open
    Real``, and the benchmark's real-division macro when the problem was read that way."""
    imports = ["import Mathlib"] + (["import ProverLemmas"] if any(n.startswith("Prover.") for n in used_lemmas)
                                    else [])
    lines = [HEADER_LINE, *imports, "", "open Real", ""]
    if problem.real_division:
        lines += ["-- Benchmark convention: every `/` is real division.", REAL_DIVISION_MACRO, ""]
    return "\n".join(lines) + "\n"


def _binder_text(head: str, ident: str, visible: bool = True) -> str | None:
    """The proposition of binder ``(ident : P)`` in a theorem head, as written there: the last such
    binder (the one the name refers to in the proof), or with ``visible=False`` the first (which a
    later binder of the same name shadows)."""
    found = list(re.finditer(r"\(\s*" + re.escape(ident) + r"\s*:", head))
    if not found:
        return None
    m = found[-1] if visible else found[0]
    depth, i = 1, m.end()
    for j in range(m.end(), len(head)):
        ch = head[j]
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
            if depth == 0:
                return head[i:j].strip()
    return None


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at its depth-0 ``sep`` (parentheses and brackets respected)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return parts + [cur.strip()]


def split_and(text: str) -> list[str]:
    """``A ∧ B ∧ C`` split at its top-level ``∧`` (parentheses respected)."""
    return split_top(text, "∧")


def written_hypothesis(head: str, ref: str) -> str | None:
    """The proposition hypothesis ``ref`` (``h``, ``h.1``, …) has in the statement ``head``."""
    return _written(head, ref)


def shadowed_binder_text(head: str, ident: str) -> str | None:
    """The proposition of the first binder named ``ident`` in ``head``, which a later one of that
    name shadows (Lean shows it as ``ident✝``)."""
    return _binder_text(head, ident, visible=False)


def _written(head: str, ref: str) -> str | None:
    """The proposition hypothesis ``ref`` (``h``, ``h.1``, ``h.2.1``, …) has in ``head``."""
    ident, _, path = ref.partition(".")
    text = _binder_text(head, ident)
    if text is None:
        return None
    if not path:
        return " ".join(text.split())
    parts = split_and(text)
    k = path.split(".").count("2")
    if k >= len(parts) or (path.endswith("1") and k == len(parts) - 1):
        return None
    if not path.endswith("1") and k != len(parts) - 1:
        return None
    return " ".join(parts[k].split())


def root_prelude(problem: Problem, refs: list[str], head: str | None = None) -> list[str]:
    """Copies of ``e > 0``/``e ≥ 0`` hypotheses as ``0 < e``/``0 ≤ e`` (the form ``positivity``
    looks for) and of the ``<``/``≤`` parts of a conjunction ``h : A ∧ B`` (``positivity`` sees
    hypotheses, not ``h.1``), then a ``≥``/``>`` goal turned into ``≤``/``<`` (the form every step expects).

    ``e`` is printed by our printer (the form later steps compare with). The copy is the
    hypothesis itself only when ``head`` (the theorem statement the file uses; by default
    :func:`theorem_head` of ``problem``) writes it exactly so; otherwise the two texts may differ
    (``a * b + b * c + c * a > 0`` against our ``a * b + a * c + b * c``), which Lean does not
    unfold, and the copy is proved by ``linear_combination`` (an exact ring identity)."""
    if head is None:
        head = theorem_head(problem)[0]
    lines = []
    parts = membership_parts(problem)
    written = _membership_texts(head, problem.real_division) if parts else {}
    for k, (h, ref) in enumerate(zip(problem.hypotheses, refs)):
        r = h.rel
        if k in parts:
            # ``hx : x ∈ Set.Icc a b``: ``hx.1 : a ≤ x`` by definition, with ``a`` and ``x`` as the
            # statement writes them; one-sided ``hx : x ∈ Set.Ioi a`` is ``a < x``. Where the
            # statement writes them otherwise than our printing (``0.5`` for ``1 / 2``), the part
            # is first taken at its written type, then carried over by an exact ring identity.
            ours, mine = lean_rel(r), written.get(parts[k])
            if mine is None or " ".join(mine.split()) == " ".join(ours.split()):
                lines.append(f"have {ref} : {ours} := {parts[k]}")
            else:
                lines.append(f"have {ref}w : {mine} := {parts[k]}")
                lines.append(f"have {ref} : {ours} := by linear_combination {ref}w")
            continue
        if r.op in (">", ">=") and sp.sympify(r.rhs) == 0:
            prefix = "hpos0"
        elif "." in ref and r.op in ("<", "<="):
            prefix = "hand"     # a conjunction's part: positivity sees only hypotheses, not h.1
        else:
            continue
        ours = lean_rel(r)
        same = _written(head, ref) in (" ".join(lean_rel(r, as_written=True).split()), ours)
        lines.append(f"have {prefix}_{k + 1} : {ours} := {ref}" if same
                     else f"have {prefix}_{k + 1} : {ours} := by linear_combination {ref}")
    if problem.is_conjunction:   # each part turns its own goal, after `refine ⟨?_, ?_⟩`
        return lines
    op = problem.goal.op
    return lines + {">=": ["rw [ge_iff_le]"], ">": ["rw [gt_iff_lt]"]}.get(op, [])


def _membership_texts(head: str, real_division: bool) -> dict[str, str]:
    """Projection (``hx.1``, ``hx.2``, ``hx``) -> the relation it proves as the statement ``head``
    writes it (``x ∈ Set.Icc a b`` unfolded by the replay model's reading of the text); empty
    where the head is not read."""
    from prover.lean import replay
    from prover.lean.replay.terms import uid_name, unfold_mem

    try:
        decls = replay.LeanSource(head + " := by\n  skip\n").declarations()
        if len(decls) != 1:
            return {}
        sig = replay.parse_signature(decls[0].signature_text, replay.Scope(real_division=real_division))
    except (replay.NotModelled, replay.ModelError, RecursionError):
        return {}
    out: dict[str, str] = {}
    for uid, ty, *_ in sig.binders:
        unfolded = unfold_mem(ty)
        if unfolded is None:
            continue
        name = uid_name(uid)
        if unfolded[0] == "and":
            out[f"{name}.1"], out[f"{name}.2"] = replay.show(unfolded[1]), replay.show(unfolded[2])
        else:
            out[name] = replay.show(unfolded)
    return out


_BARE_SQRT = re.compile(r"(?<![\w.])sqrt\b")
#: an interval named without ``Set.`` (``open Set`` or ``namespace Set`` around it, which the
#: rendered file does not repeat): our statement, which writes ``Set.Icc``, is used instead
_BARE_INTERVAL = re.compile(r"(?<![\w.])I(?:cc|co|oc|oo|ci|ic|oi|io)\b")


def original_statement(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str] | None:
    """The user's own statement text (without its proof) and its name, when it is known and can be
    used verbatim: ``problem.meta["lean"]`` (set by the benchmark loader) or
    ``proof.meta["lean_statement"]``, a ``theorem``/``lemma`` without the LIPS prefix notation
    ``sqrt`` (which needs a header we do not emit) nor an interval without ``Set.`` (``Icc``
    after ``open Set``), and whose hypothesis binders have distinct names
    (a shadowed hypothesis cannot be used; our statement renames it)."""
    if problem.meta.get("definitions"):   # the file proves our expanded statement first
        return None
    return user_statement(problem, proof_meta)


def user_statement(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str] | None:
    """:func:`original_statement` whether or not the statement has defined functions. The text is
    one declaration, or a whole file (``FILE.lean#name``) whose declaration ``meta["lean_name"]``
    is taken: never another theorem's statement, nor our restatement of a file's theorem by
    default (which would state the front-end's simplified goal, not the user's)."""
    text = problem.meta.get("lean") or (proof_meta or {}).get("lean_statement")
    if not isinstance(text, str) or ":=" not in text:
        return None
    names = declaration_names(text)
    if len(names) == 1:
        start = re.search(r"^\s*(?:theorem|lemma)\b", text, re.MULTILINE)
        found = (text[start.start():text.rindex(":=")].strip(), names[0]) if start else None
    else:
        from prover.lean.in_place import named_declaration

        found = named_declaration(text, problem.meta.get("lean_name"))
    if found is None or _BARE_SQRT.search(found[0]) or _BARE_INTERVAL.search(found[0]) or repeated_binders(problem):
        return None
    return found if found[0] else None


def theorem_head(problem: Problem, proof_meta: dict | None = None) -> tuple[str, str]:
    """``(statement without proof, theorem name)``: the user's text when usable, else ours."""
    return original_statement(problem, proof_meta) or (statement(problem), theorem_name(problem))

