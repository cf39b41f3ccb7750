"""Checking proofs in Lean: replay a kernel proof step by step on a backend, a per-step filter
the search can call while it tries candidate steps, and whole-file compilation with an axiom
audit (``#print axioms`` may list only ``propext``, ``Classical.choice``, ``Quot.sound``).
"""

from __future__ import annotations

import itertools
import re
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import sympy as sp

from prover.ir import Goal, Proof, Step
from prover.lean.backend import LeanBackend, LeanState, LeanUnavailable, project_dir, require_lake
from prover.lean.registry import make_backend
from prover.lean.render import (
    REAL_DIVISION_MACRO,
    RenderError,
    hypothesis_refs,
    root_prelude,
    step_block,
    theorem_head,
)
from prover.lean.syntax import declaration_names
from prover.problem import Problem
from prover.tactics.lemma import LemmaLookup

ALLOWED_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})


# ------------------------------------------------------------------ step-by-step replay


@dataclass
class LeanVerification:
    """Result of replaying a proof in Lean. ``failed_step`` is the preorder index of the first
    step Lean rejected (``None`` when the statement itself failed or all steps passed)."""

    ok: bool
    steps_checked: int = 0
    failed_step: int | None = None
    failed_kind: str | None = None
    message: str | None = None
    lean_goals: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        return [] if self.ok else [self.message or "rejected"]


def preamble(problem: Problem) -> str:
    lines = ["open Real"]
    if problem.real_division:
        lines.append(REAL_DIVISION_MACRO)
    return "\n".join(lines)


def open_problem(backend: LeanBackend, problem: Problem, proof_meta: dict | None = None):
    """Open the problem's statement (the same text the rendered file uses) on ``backend`` and run
    the root prelude; a TacticResult."""
    head, _ = theorem_head(problem, proof_meta)
    res = backend.open_goal(head + " := by\n  sorry", preamble(problem))
    if not res.ok:
        return res
    _, refs = hypothesis_refs(problem)
    pre = root_prelude(problem, refs)
    if pre:
        res = backend.run_tactic(res.state, "\n".join(pre))
    return res


def verify_proof_in_lean(proof: Proof, backend: LeanBackend | str, *, lemmas: LemmaLookup | None = None,
                         close_style: str = "linear_combination") -> LeanVerification:
    """Replay ``proof`` on ``backend`` (a backend or its name) one step at a time; stop at the
    first step Lean rejects. Raises :class:`LeanUnavailable` when Lean is not set up."""
    if isinstance(backend, str):
        with make_backend(backend) as b:
            return verify_proof_in_lean(proof, b, lemmas=lemmas, close_style=close_style)
    if proof.problem.is_conjunction:
        # a goal `A ∧ B ∧ …`: each part's steps are replayed on that part stated as its own
        # theorem (the `refine ⟨?_, ?_⟩` assembly is checked with the whole file: `prover lean check`)
        total = 0
        for i, part in enumerate(proof.part_proofs()):
            r = verify_proof_in_lean(part, backend, lemmas=lemmas, close_style=close_style)
            if not r.ok:
                return replace(r, steps_checked=total + r.steps_checked, message=f"part {i + 1}: {r.message}")
            total += r.steps_checked
        return LeanVerification(True, total)
    res = open_problem(backend, proof.problem, proof.meta)
    if not res.ok:
        return LeanVerification(False, 0, None, None, f"Lean rejected the statement: {res.error}")
    state: LeanState = res.state
    _, refs = hypothesis_refs(proof.problem)
    counter = itertools.count(1)
    todo: list[tuple[Step, list[str]]] = [(proof.root, refs)]
    index = 0
    while todo:
        step, names = todo.pop()
        try:
            block = step_block(step, names, lemmas=lemmas, close_style=close_style, counter=counter)
        except RenderError as exc:
            return LeanVerification(False, index, index, step.kind, f"cannot render step: {exc}",
                                    list(state.goals))
        before = len(state.goals)
        out = backend.run_tactic(state, "\n".join(block.lines))
        if not out.ok:
            return LeanVerification(False, index, index, step.kind, f"{out.error_kind}: {out.error}",
                                    list(state.goals))
        expected = before - 1 + len(step.subgoals)
        if len(out.state.goals) != expected:
            return LeanVerification(False, index, index, step.kind,
                                    f"Lean left {len(out.state.goals)} goals, the proof expects {expected}",
                                    list(out.state.goals))
        state = out.state
        index += 1
        todo.extend(reversed(list(zip(step.children, block.child_names))))
    if state.goals:
        return LeanVerification(False, index, None, None, f"goals left at the end: {len(state.goals)}",
                                list(state.goals))
    return LeanVerification(True, index)


# ------------------------------------------------------------------ per-step filter for the search


@dataclass(frozen=True)
class LeanNode:
    """Lean's view of one search goal: the proof state whose *first* goal is it, the Lean names
    of its hypotheses, and how many goals behind it belong to other branches."""

    state: LeanState
    names: tuple[str, ...]
    others: int = 0


@dataclass
class StepCheck:
    accepted: bool
    children: list[LeanNode] = field(default_factory=list)
    message: str | None = None
    lean_goals: list[str] = field(default_factory=list)
    goals_match: list[bool | None] = field(default_factory=list)


@dataclass
class LeanStepFilter:
    """Runs every candidate step's tactics in Lean as the search tries it.

    Use: ``node = f.root(problem)``; for a candidate ``step`` on the goal of ``node``:
    ``chk = f.check(node, step)``; prune the step when ``not chk.accepted``; otherwise keep
    ``chk.children[i]`` as the Lean node of ``step.subgoals[i]``. Counters: ``accepted``,
    ``rejected`` (Lean said no), ``errors`` (timeouts/crashes/stale states: not a verdict),
    ``mismatches`` (Lean's resulting goal differs from ours).
    """

    backend: LeanBackend
    lemmas: LemmaLookup | None = None
    accepted: int = 0
    rejected: int = 0
    errors: int = 0
    mismatches: int = 0
    _counter: itertools.count = field(default_factory=lambda: itertools.count(1), repr=False)

    def root(self, problem: Problem) -> LeanNode | None:
        res = open_problem(self.backend, problem)
        if not res.ok:
            self.errors += 1
            return None
        _, refs = hypothesis_refs(problem)
        return LeanNode(res.state, tuple(refs))

    def check(self, node: LeanNode, step: Step) -> StepCheck:
        try:
            block = step_block(step, list(node.names), lemmas=self.lemmas, counter=self._counter)
        except RenderError as exc:
            self.rejected += 1
            return StepCheck(False, message=f"cannot render step: {exc}")
        out = self.backend.run_tactic(node.state, "\n".join(block.lines))
        if not out.ok:
            if out.error_kind == "lean":
                self.rejected += 1
            else:
                self.errors += 1
            return StepCheck(False, message=f"{out.error_kind}: {out.error}")
        goals = list(out.state.goals)
        mine = len(goals) - node.others
        if mine != len(step.subgoals):
            self.rejected += 1
            return StepCheck(False, message=f"Lean left {mine} goals for {len(step.subgoals)} subgoals",
                             lean_goals=goals)
        children = []
        for i, names in enumerate(block.child_names):
            st = out.state
            if i:
                moved = self.backend.run_tactic(out.state, f"pick_goal {i + 1}")
                if not moved.ok:
                    self.errors += 1
                    return StepCheck(False, message=f"pick_goal failed: {moved.error}", lean_goals=goals)
                st = moved.state
            children.append(LeanNode(st, tuple(names), node.others + len(step.subgoals) - 1))
        match = [goal_matches(g, sub) for g, sub in zip(goals, step.subgoals)]
        self.mismatches += sum(1 for m in match if m is False)
        self.accepted += 1
        return StepCheck(True, children, None, goals, match)

    def stats(self) -> dict[str, int]:
        return {"lean_accepted": self.accepted, "lean_rejected": self.rejected,
                "lean_errors": self.errors, "lean_goal_mismatches": self.mismatches}


def goal_matches(lean_goal: str, ours: Goal) -> bool | None:
    """Whether Lean's goal (pretty-printed, ``⊢`` line) states our target up to a positive
    constant factor of the slack; ``None`` when the text cannot be read back."""
    target = lean_goal.rsplit("⊢", 1)[-1].strip()
    if not target:
        return None
    try:
        from prover.frontend import parse_theorem

        vs = " ".join(ours.variables)
        theirs = parse_theorem(f"theorem t ({vs} : ℝ) : {target} := sorry", real_division=True).goal
    except Exception:  # noqa: BLE001 - Lean's notation may be outside what the front-end reads
        return None
    if theirs.op in ("=", "!=") or ours.target.op in ("=", "!="):
        return sp.simplify(theirs.lhs - theirs.rhs - (ours.target.lhs - ours.target.rhs)) == 0
    if theirs.strict != ours.target.strict:
        return False
    ratio = sp.simplify(theirs.slack() / ours.target.slack()) if ours.target.slack() != 0 else None
    return bool(ratio is not None and ratio.is_number and ratio > 0)


# ------------------------------------------------------------------ whole files


@dataclass
class FileCheck:
    ok: bool
    errors: list[str]
    axioms: dict[str, list[str]]
    output: str = ""


_AXIOMS = re.compile(r"'([^']+)' depends on axioms: \[([^\]]*)\]")
_NO_AXIOMS = re.compile(r"'([^']+)' does not depend on any axioms")


def parse_axioms(output: str) -> dict[str, list[str]]:
    """``#print axioms`` lines in Lean's output → {declaration: [axioms]}."""
    found = {m.group(1): [a.strip() for a in m.group(2).split(",") if a.strip()] for m in _AXIOMS.finditer(output)}
    found.update({m.group(1): [] for m in _NO_AXIOMS.finditer(output)})
    return found


def judge_output(text: str, output: str, returncode: int) -> FileCheck:
    """The verdict on a compiled file: exit 0, no error, no ``sorry``, every theorem audited
    by ``#print axioms`` and resting only on :data:`ALLOWED_AXIOMS`."""
    errors = [ln for ln in output.splitlines() if ": error" in ln or ln.startswith("error")]
    if returncode != 0 and not errors:
        errors.append(f"lean exited with code {returncode}")
    if "declaration uses 'sorry'" in output:
        errors.append("a declaration uses sorry")
    axioms = parse_axioms(output)
    for name in (m.strip("«»") for m in declaration_names(text)):
        got = axioms.get(name)
        if got is None:
            errors.append(f"no #print axioms output for {name}")
        elif set(got) - ALLOWED_AXIOMS:
            errors.append(f"{name} depends on axioms outside {sorted(ALLOWED_AXIOMS)}: "
                          f"{sorted(set(got) - ALLOWED_AXIOMS)}")
    return FileCheck(not errors, errors, axioms, output)


def with_axiom_audit(text: str) -> str:
    """``text`` plus ``#print axioms`` for every theorem that lacks one."""
    extra = [f"#print axioms {n}" for n in declaration_names(text) if f"#print axioms {n}" not in text]
    return text if not extra else text.rstrip("\n") + "\n\n" + "\n".join(extra) + "\n"


def check_file(path: str | Path, *, timeout: float = 600.0, project: Path | None = None) -> FileCheck:
    """Compile ``path`` with ``lake env lean`` inside the pinned project and audit its axioms."""
    lake = require_lake()
    proj = project or project_dir()
    if not (proj / "lakefile.lean").exists():
        raise LeanUnavailable(f"no Lean project at {proj}; run `prover lean setup`")
    text = Path(path).read_text(encoding="utf-8")
    audited = with_axiom_audit(text)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / Path(path).name
        target.write_text(audited, encoding="utf-8")
        try:
            cp = subprocess.run([lake, "env", "lean", str(target)], cwd=proj, capture_output=True, text=True,
                                timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return FileCheck(False, [f"lean did not finish within {timeout:g} s"], {}, "")
    return judge_output(audited, cp.stdout + cp.stderr, cp.returncode)
