"""The checker: runs the model over a file, tactic by tactic, and the entry points."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from prover.lean.replay.definitions import check_signature, simp_only
from prover.lean.replay.elab import Elab, _pi_binders
from prover.lean.replay.goals import Goal, Local, _is_prop, _rel
from prover.lean.replay.lexing import Tok
from prover.lean.replay.linarith import linarith_goal
from prover.lean.replay.positivity import _NONNEG, _POS, positivity_core, positivity_goal
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
from prover.lean.replay.resources import ResourceMeter
from prover.lean.replay.ring_normal import RingNormalizer
from prover.lean.replay.signatures import (
    _OPEN_REAL,
    CONSTANTS,
    FUNCTIONS,
    MATHLIB_SIGNATURES,
    NONEMPTY_SIGNATURES,
    RW_LEMMAS,
    Signature,
    mathlib_signature,
    parse_signature,
    prover_lemma_signatures,
)
from prover.lean.replay.source import Decl, LeanSource
from prover.lean.replay.sums import (
    bare_nat,
    empty_rewrite,
    mod_cast,
    nat_vars,
    omega_goal,
    parse_empty_rules,
    parse_simp_rules,
    simp_at_star,
    simp_sum_target,
)
from prover.lean.replay.tactics import Item, TacParser, split_block
from prover.lean.replay.term_parser import Scope, parse_term
from prover.lean.replay.terms import (
    NAT,
    REAL,
    ZERO,
    alpha,
    canon,
    family_domain,
    fun_arity,
    has_mvar,
    is_value_type,
    show,
    subst,
    uid_name,
)


class Checker:
    """Runs the model over one file and collects verdicts."""

    def __init__(self, src: LeanSource, path: str = "<string>"):
        self.src = src
        self.report = ReplayReport(path)
        self.opens: tuple[str, ...] = ()
        self.namespace = ""
        #: the benchmark macro ``x / y => HDiv.hDiv (x : ℝ) (y : ℝ)`` is in effect (then a ``/`` in
        #: an exponent is a real division, and the power is ``rpow``)
        self.real_division = False
        self.imports: set[str] = set()
        self.local_decls: dict[str, Signature] = {}
        self.counter = itertools.count(1)
        self.base = Scope(counter=self.counter)
        #: the resource figures of the declaration being checked (``resources``)
        self.meter = ResourceMeter("", 0, None, None)

    # -- verdicts
    def verdict(self, line: int, kind: str, status: str, reason: str = "", text: str = "") -> None:
        self.report.steps.append(StepVerdict(line, kind, status, reason, text[:200]))

    # -- names
    def global_name(self, name: str) -> str:
        if "Real" in self.opens and name in _OPEN_REAL:
            return _OPEN_REAL[name]
        return name

    def known(self, name: str) -> bool:
        return self.resolve_decl(name) is not None

    def resolve_decl(self, name: str) -> str | None:
        name = self.global_name(name)
        cands = [name]
        if self.namespace:
            parts = self.namespace.split(".")
            cands = [".".join(parts[:k] + [name]) for k in range(len(parts), 0, -1)] + [name]
        if "Real" in self.opens:
            cands.append("Real." + name)
        for c in cands:
            if c in self.local_decls or c in MATHLIB_SIGNATURES or c in RW_LEMMAS or c in NONEMPTY_SIGNATURES:
                return c
            if "ProverLemmas" in self.imports and c in prover_lemma_signatures():
                return c
        return None

    def split_const(self, text: str) -> tuple[str | None, list[str]]:
        parts = text.split(".")
        for k in range(len(parts), 0, -1):
            full = self.resolve_decl(".".join(parts[:k]))
            if full is not None:
                return full, parts[k:]
        return None, []

    def signature(self, name: str) -> Signature:
        if name in self.local_decls:
            return self.local_decls[name]
        sig = mathlib_signature(name)
        if sig is None:
            sig = prover_lemma_signatures().get(name)
        if sig is None:
            raise ModelError(f"unknown or not whitelisted: {name}")
        return sig

    # -- file
    def run(self) -> ReplayReport:
        text = self.src.text
        self.report.chars = len(text)
        lens = [len(ln) for ln in self.src.raw_lines] or [0]
        self.report.longest_line = max(lens)
        for k, ln in enumerate(self.src.raw_lines, 1):
            if len(ln) > LINE_BUDGET:
                self.verdict(k, "budget", FAIL, f"size: line of {len(ln)} characters exceeds the "
                             f"{LINE_BUDGET}-character line budget", ln[:80])
        if len(text) > FILE_BUDGET:
            self.verdict(1, "budget", FAIL, f"size: file of {len(text)} characters exceeds the "
                         f"{FILE_BUDGET}-character file budget")
        ns: list[str] = []
        for cmd in self.src.commands():
            if isinstance(cmd, Decl):
                self.namespace = ".".join(ns)
                self.meter = ResourceMeter(cmd.name, cmd.line, cmd.heartbeats, cmd.rec_depth,
                                           _largest_line(self.src.raw_lines, cmd))
                self.run_decl(cmd)
                self.close_resources(cmd)
                continue
            line, kind, s = cmd
            self.command(line, kind, s, ns)
        if not any(isinstance(c, Decl) for c in self.src.commands()):
            self.verdict(1, "statement", FAIL, "structure: no theorem in the file")
        return self.report

    def close_resources(self, d: Decl) -> None:
        """The declaration's resource figures; over a budget is a failure."""
        res = self.meter.res
        self.report.resources.append(res)
        for reason in res.failures():
            self.verdict(d.line, "resources", FAIL, reason, d.name)

    def command(self, line: int, kind: str, s: str, ns: list[str]) -> None:
        if kind == "stray":
            self.verdict(line, "syntax", UNSUPPORTED, "not modelled: indented text outside a declaration", s)
            return
        m = re.match(r"import\s+(.+)$", s)
        if m:
            for mod in m.group(1).split():
                if mod in ("Mathlib", "ProverLemmas") or mod.startswith("ProverLemmas."):
                    self.imports.add("ProverLemmas" if mod.startswith("ProverLemmas") else mod)
                else:
                    self.verdict(line, "import", UNSUPPORTED, f"not modelled: import {mod}", s)
            return
        m = re.match(r"open\s+(.+)$", s)
        if m:
            self.opens = self.opens + tuple(m.group(1).split())
            return
        m = re.match(r"namespace\s+(\S+)$", s)
        if m:
            ns.append(m.group(1))
            return
        if re.match(r"end\b", s):
            parts = s.split()
            if ns and (len(parts) == 1 or parts[1] == ns[-1]):
                ns.pop()
            return
        if s == REAL_DIVISION_MACRO:
            self.real_division = True
            return
        m = re.match(r"#print\s+axioms\s+(\S+)$", s)
        if m:
            name = m.group(1).strip("«»")
            if not any(d.name == name or d.full_name == name for d in self.src.declarations()):
                self.verdict(line, "#print", FAIL, f"structure: #print axioms names {name}, not a declaration", s)
            return
        if s.startswith("set_option"):
            self.verdict(line, "set_option", UNSUPPORTED, "not modelled: set_option without `in`", s)
            return
        self.verdict(line, "command", UNSUPPORTED, f"not modelled: command {s.split()[0]}", s)

    def run_decl(self, d: Decl) -> None:
        if len(self.src.text) > HEARTBEAT_THRESHOLD and d.heartbeats is None:
            self.verdict(d.line, "budget", FAIL, f"size: file over {HEARTBEAT_THRESHOLD} characters without "
                         "`set_option maxHeartbeats N in` before the declaration", d.name)
        try:
            sig = parse_signature(d.signature_text, Scope(counter=self.counter, opens=self.opens,
                                                          real_division=self.real_division))
            self.check_statement(sig)
        except (NotModelled, ModelError) as exc:
            self.verdict(d.line, "statement", FAIL if isinstance(exc, ModelError) else UNSUPPORTED,
                         f"statement: {exc}", d.signature_text)
            return
        if d.full_name:
            self.local_decls[d.full_name] = sig
        if d.proof_style != "by":
            self.verdict(d.line, "statement", UNSUPPORTED, "not modelled: term-mode proof", d.term_text)
            return
        # the theorem's context: binders become locals (names may repeat: later ones shadow)
        ctx: list[Local] = []
        m: dict[Any, Any] = {}
        for uid, ty, _ in sig.binders:
            ty = subst(ty, m)
            ctx.append(Local(uid, uid_name(uid), is_value_type(ty), ty))
        goal = Goal(tuple(ctx), sig.concl)
        items = split_block(d.body)
        if not items:
            self.verdict(d.line, "statement", FAIL, "structure: empty proof")
            return
        left = self.run_block(items, [goal])
        if left:
            self.verdict(items[-1].line, "end", FAIL,
                         f"unsolved goals: {len(left)} left, first ⊢ {show(left[0].target)[:300]}")

    def check_statement(self, sig: Signature) -> None:
        for _, ty, _ in sig.binders:
            self.meter.term(ty, self.meter.res.line)
        self.meter.term(sig.concl, self.meter.res.line)
        over_n = _mentions_sum((sig.concl,) + tuple(ty for _, ty, _ in sig.binders))
        for _, ty, _ in sig.binders:
            if (ty == NAT or family_domain(ty) is not None) and over_n:
                continue     # a statement over n terms (its sums are checked below)
            if fun_arity(ty) is None and (ty != REAL and not _is_prop(ty) or _type_arrow(ty)):
                raise NotModelled(f"binder of type {show(ty)}")
        check_signature(sig.binders, sig.concl)
        self.check_sum_statement(sig)
        if not _is_prop(sig.concl):
            raise NotModelled(f"conclusion {show(sig.concl)} is not a proposition")

    def check_sum_statement(self, sig: Signature) -> None:
        """A statement over ``n`` terms (``ℕ``/family binders or sums): every real-valued side of
        a comparison is elaborated as a real term (the index of a family application of the right
        type, ``(n : ℝ)`` casts, sums over ``range N``/``Fin N``), binders left to right."""
        if not _mentions_sum((sig.concl,) + tuple(ty for _, ty, _ in sig.binders)):
            return
        ctx: list[Local] = []
        for uid, ty, _ in sig.binders:
            if _is_prop(ty):
                self.typecheck_prop(ty, Goal(tuple(ctx), ty))
            ctx.append(Local(uid, uid_name(uid), is_value_type(ty), ty))
        self.typecheck_prop(sig.concl, Goal(tuple(ctx), sig.concl))

    def typecheck_prop(self, t: Any, g: Goal) -> None:
        tag = t[0]
        if tag in ("and", "or", "iff", "imp"):
            self.typecheck_prop(t[1], g)
            self.typecheck_prop(t[2], g)
        elif tag == "not":
            self.typecheck_prop(t[1], g)
        elif tag in ("forall", "exists"):
            if is_value_type(t[2]):
                self.typecheck_prop(t[3], g.add(Local(t[1], uid_name(t[1]), True, t[2])))
            else:
                self.typecheck_prop(t[3], g)
        elif tag == "rel":
            uids = nat_vars(g.ctx)
            if bare_nat(t, uids):
                for side in (t[2], t[3]):
                    if not _nat_term(side, uids):
                        raise NotModelled(f"a comparison over ℕ that is not between variables and numerals: "
                                          f"{show(t)[:150]}")
                return
            el = self.elab(g)
            el.value(t[2])
            el.value(t[3])

    # -- blocks
    def run_block(self, items: list[Item], goals: list[Goal]) -> list[Goal]:
        for it in items:
            if not goals:
                self.verdict(it.line, self._kind(it), FAIL, "no goals: the previous tactics closed the goal",
                             it.text)
                continue
            goals = self.run_item(it, goals)
        return goals

    @staticmethod
    def _kind(it: Item) -> str:
        if it.bullet:
            return "·"
        return it.toks[0].text if it.toks else "?"

    def run_item(self, it: Item, goals: list[Goal]) -> list[Goal]:
        if not it.bullet:
            self.report.longest_tactic = max(self.report.longest_tactic, len(it.text))
            if len(it.text) > TACTIC_BUDGET:
                self.verdict(it.line, "budget", FAIL, f"size: tactic of {len(it.text)} characters exceeds the "
                             f"{TACTIC_BUDGET}-character tactic budget", it.text[:80])
        if it.bullet:
            g, rest = goals[0], goals[1:]
            left = self.run_block(it.block or [], [g])
            if left and not left[0].unknown:
                self.verdict(it.line, "·", FAIL, f"unsolved goals after the bullet: ⊢ {show(left[0].target)[:300]}",
                             it.text)
            return rest
        if goals[0].unknown:
            self.verdict(it.line, self._kind(it), UNSUPPORTED,
                         f"not modelled: goal unknown after {goals[0].unknown}", it.text)
            if it.block:
                self.skip_block(it.block, goals[0].unknown)
            return goals
        try:
            return self.tactic(it.toks, it.block, goals, it.line, it.text)
        except (NotModelled, ModelError) as exc:
            self.verdict(it.line, self._kind(it), UNSUPPORTED if isinstance(exc, NotModelled) else FAIL,
                         str(exc), it.text)
            return goals[1:]
        except RecursionError:
            self.verdict(it.line, self._kind(it), UNSUPPORTED, "not modelled: term too deeply nested", it.text)
            return goals[1:]
        except Exception as exc:  # noqa: BLE001 - a defect of the model itself: never a pass
            self.verdict(it.line, self._kind(it), UNSUPPORTED,
                         f"not modelled: internal model error ({type(exc).__name__}: {str(exc)[:120]})", it.text)
            return goals[1:]

    def skip_block(self, items: list[Item], why: str) -> None:
        for it in items:
            self.verdict(it.line, self._kind(it), UNSUPPORTED, f"not modelled: goal unknown after {why}", it.text)
            if it.block:
                self.skip_block(it.block, why)

    # -- tactic sequences from tokens
    def tactic(self, toks: list[Tok], block: list[Item] | None, goals: list[Goal], line: int,
               text: str) -> list[Goal]:
        p = TacParser(toks, block)
        tac = p.seq()
        if not p.done():
            raise NotModelled(f"syntax: unexpected {p.peek().text!r} in a tactic")
        return self.exec(tac, goals, line, text)

    def exec(self, tac: Any, goals: list[Goal], line: int, text: str) -> list[Goal]:
        kind = tac[0]
        if kind == "seq":
            for t in tac[1]:
                if not goals:
                    self.verdict(line, _tac_kind(t), FAIL, "no goals", text)
                    continue
                goals = self.exec(t, goals, line, text)
            return goals
        if kind == "then":           # t1 <;> t2
            first, second = tac[1], tac[2]
            g0, rest = goals[0], goals[1:]
            produced = self.exec(first, [g0], line, text)
            out: list[Goal] = []
            for g in produced:
                out += self.exec(second, [g], line, text)
            return out + rest
        if kind == "first":
            return self.exec_first(tac, goals, line, text)
        g, rest = goals[0], goals[1:]
        if g.unknown:
            self.verdict(line, kind, UNSUPPORTED, f"not modelled: goal unknown after {g.unknown}", text)
            return goals
        try:
            new = self.atomic(tac, g, line, text)
        except (NotModelled, ModelError) as exc:
            status = UNSUPPORTED if isinstance(exc, NotModelled) else FAIL
            reason = str(exc)
            if status == UNSUPPORTED and not reason.startswith(("not modelled", "syntax")):
                reason = "not modelled: " + reason
            self.verdict(line, kind, status, reason, text)
            if kind in _NON_FINISHING:
                return [Goal(g.ctx, g.target, f"{kind} (line {line})")] + rest
            return rest
        return new + rest

    def exec_first(self, tac: Any, goals: list[Goal], line: int, text: str) -> list[Goal]:
        g, rest = goals[0], goals[1:]
        alts = tac[1]
        if not all(_finishing(a) for a in alts):
            self.verdict(line, "first", UNSUPPORTED, "not modelled: `first` with a non-finishing alternative", text)
            return rest
        reasons = []
        for a in alts:
            sub = Checker.__new__(Checker)
            sub.__dict__.update(self.__dict__)
            sub.report = ReplayReport(self.report.path)
            left = sub.exec(a, [g], line, text)
            if not left and all(s.ok for s in sub.report.steps):
                self.verdict(line, "first", OK, "", text)
                return rest
            bad = next((s for s in sub.report.steps if not s.ok), None)
            reasons.append(bad.reason if bad else "goal left open")
        self.verdict(line, "first", FAIL if all(not r.startswith("not modelled") for r in reasons) else UNSUPPORTED,
                     "first: no alternative passes the model (first: " + (reasons[0][:200] if reasons else "") + ")",
                     text)
        return rest

    # -- atomic tactics
    def parse(self, toks: list[Tok], g: Goal) -> Any:
        t = parse_term(list(toks), g.scope(self.base_scope()))
        self.meter.term(t, toks[0].line if toks else 0)
        return t

    def base_scope(self) -> Scope:
        return Scope(opens=self.opens, namespace=self.namespace, counter=self.counter,
                     real_division=self.real_division)

    def elab(self, g: Goal) -> Elab:
        return Elab(self, g)

    def finish_elab(self, el: Elab, line: int, text: str) -> None:
        """Run the postponed ``by`` goals of a term (after unification)."""
        for _mv, toks, goal in el.postponed:
            target = el.inst(goal.target)
            if has_mvar(target):
                raise ModelError(f"a `by` argument's goal still contains metavariables: {show(target)[:200]} "
                                 "(its implicit arguments are never unified)")
            left = self.tactic(list(toks), None, [goal.with_target(target)], line, text)
            if left and not left[0].unknown:
                raise ModelError(f"unsolved goals in `by` argument: ⊢ {show(left[0].target)[:200]}")

    def atomic(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        kind = tac[0]
        if kind in ("positivity", "linarith", "linear_combination", "ring", "ring1") and \
                bare_nat(canon(g.target), nat_vars(g.ctx)):
            # the model's arithmetic is over ℝ (ℕ subtraction truncates, division floors)
            raise NotModelled(f"not modelled: {kind} on a goal about natural numbers ({show(g.target)[:150]})")
        if kind in _CLOSING_AUTOMATION:
            self.atomic_automation(tac, g, line, text)
            return []
        if kind == "have":
            return self.atomic_have(tac, g, line, text)
        if kind == "suffices":
            return self.atomic_suffices(tac, g, line, text)
        if kind in ("ring", "ring1"):
            return self.atomic_ring(kind, g, line, text)
        if kind == "exact":
            self.elab_term_against_goal(tac[1], g, line, text)
            self.verdict(line, "exact", OK, "", text)
            return []
        if kind == "refine":
            el = self.elab_term_against_goal(tac[1], g, line, text)
            self.verdict(line, "refine", OK, "", text)
            return [gg.with_target(el.inst(t)) for t, gg in el.new_goals]
        if kind == "apply":
            return self.apply(tac, g, line, text)
        if kind == "intro":
            return self.atomic_intro(tac[1], g, line, text)
        if kind in ("obtain", "rcases"):
            return self.atomic_destruct(tac, g, line, text)
        if kind == "show":
            return self.atomic_show(tac, g, line, text)
        if kind == "constructor":
            return self.atomic_constructor(g, line, text)
        if kind == "rw":
            return self.rewrite(tac, g, line, text)
        if kind == "simp_only":
            return self.atomic_simp_only(tac, g, line, text)
        if kind == "calc":
            return self.calc(tac, g, line, text)
        if kind == "skip":
            self.verdict(line, "skip", OK, "", text)
            return [g]
        if kind == "subst":
            return self.atomic_subst(tac[1], g, line, text)
        if kind == "simp":
            return self.atomic_simp(tac[1], g, line, text)
        if kind == "assumption":
            return self.atomic_assumption(tac, g, line, text)
        raise NotModelled(f"not modelled: tactic `{kind}`" + (f" ({_WHY.get(kind)})" if kind in _WHY else ""))

    def atomic_automation(self, tac: Any, g: Goal, line: int, text: str) -> None:
        """A closing decision procedure (:data:`_CLOSING_AUTOMATION`): it proves the goal outright
        (recorded OK) or raises."""
        kind = tac[0]
        if kind == "linear_combination":
            self.linear_combination(tac, g, line, text)
        elif kind == "omega":
            if tac[1]:
                raise NotModelled("not modelled: omega with arguments")
            self.meter.call(line)
            omega_goal(g.target, g.ctx)
        elif kind == "exact_mod_cast":
            el = self.elab(g)
            prop = el.proof(self.parse(tac[1], g))
            self.finish_elab(el, line, text)
            self.meter.call(line)
            mod_cast(el.inst(prop), g.target, g.ctx)
        elif kind == "positivity":
            self.meter.positivity(g.ctx, g.target, line)
            positivity_goal(g.target, g.ctx)
        else:   # linarith
            ctx = self.linarith_only_context(tac[1], g, line, text) if tac[2] else g.ctx
            if tac[1] and not tac[2]:
                raise NotModelled("linarith with extra terms is not modelled")
            self.meter.linarith(ctx, g.target, line)
            linarith_goal(g.target, ctx)
        self.verdict(line, kind, OK, "", text)

    def atomic_assumption(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        """``assumption``: a hypothesis whose type is the goal's closes it, a shadowed one included
        (Lean core searches the whole local context); types compared syntactically up to ``≥``/``>``
        and bound names (the model's unification, no metavariables), short of Lean's ``isDefEq``."""
        if tac[1]:
            raise NotModelled("not modelled: assumption with arguments")
        if not any(not loc.is_var and self.elab(g).unify(loc.type, g.target) for loc in g.ctx):
            raise ModelError(f"assumption: no hypothesis states {show(g.target)[:150]}")
        self.verdict(line, "assumption", OK, "", text)
        return []

    def atomic_constructor(self, g: Goal, line: int, text: str) -> list[Goal]:
        """``constructor`` on a conjunction: its two sides as goals."""
        t = canon(g.target)
        if t[0] != "and":
            raise NotModelled(f"constructor on {show(t)[:100]}")
        self.verdict(line, "constructor", OK, "", text)
        return [g.with_target(t[1]), g.with_target(t[2])]

    def atomic_subst(self, names: list[str], g: Goal, line: int, text: str) -> list[Goal]:
        """``subst h`` with ``h : n = c`` (or ``c = n``), ``n`` a natural-number variable and ``c`` a
        numeral (Lean core ``subst``: ``h : a = b`` eliminates ``b`` when it is a local variable,
        else ``a``): ``n`` replaced by ``c`` in the goal and every hypothesis, ``n`` and ``h`` gone.
        Anything else is not modelled."""
        for nm in names:
            uid = g.scope(self.base_scope()).names.get(nm)
            hyp = g.local(uid) if uid is not None else None
            if hyp is None:
                raise ModelError(f"unknown identifier {nm}")
            t = hyp.type
            if hyp.is_var or not (t[0] == "rel" and t[1] == "="):
                raise NotModelled(f"not modelled: subst {nm} : {show(t)[:100]} (only an equation `n = c`)")
            a, b = t[2], t[3]
            if b[0] == "fv" and a[0] == "num":
                var, val = b[1], a
            elif a[0] == "fv" and b[0] == "num":
                var, val = a[1], b
            else:
                raise NotModelled(f"not modelled: subst {nm} : {show(t)[:100]} (only a variable and a numeral)")
            loc = g.local(var)
            if loc is None or not loc.is_var or loc.type != NAT:
                raise NotModelled(f"not modelled: subst of {show(('fv', var))} (only a natural-number variable)")
            m = {var: val}
            ctx = tuple(Local(x.uid, x.name, x.is_var, subst(x.type, m)) for x in g.ctx
                        if x.uid != var and x is not hyp)
            g = Goal(ctx, subst(g.target, m), g.unknown)
        self.verdict(line, "subst", OK, "", text)
        return [g]

    def atomic_simp(self, extra: list[Tok], g: Goal, line: int, text: str) -> list[Goal]:
        """``simp`` / ``simp at *`` with the default simp set, modelled only where it closes the goal
        of the case ``n = 0`` (``sums.simp_at_star``: every empty sum and what it multiplies is 0,
        and the target becomes ``True`` or a hypothesis ``False``). Any other use is not modelled."""
        words = [t.text for t in extra]
        if words not in ([], ["at", "*"]):
            raise NotModelled(f"not modelled: simp {' '.join(words)[:60]} (the simp set)")
        hyps = [x.type for x in g.ctx if not x.is_var and _is_prop(canon(x.type))] if words else []
        closed, left = simp_at_star(hyps, g.target)
        if not closed:
            raise NotModelled(f"not modelled: simp{' at *' if words else ''} (the simp set): the model does "
                              f"not find that it closes the goal (⊢ {left} after the empty sums)")
        self.verdict(line, "simp", OK, "", text)
        return []

    def atomic_simp_only(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        """``simp only [d₁, …] (at h)?`` with definition hypotheses (``definitions.simp_only``), or
        ``simp only [l₁, …]`` with the ``Finset`` linearity lemmas on the goal (``sums``)."""
        empty = parse_empty_rules(tac[1])
        if empty is not None:
            return self.simp_empty(empty, tac[2], g, line, text)
        if tac[2] == "*":
            raise NotModelled("not modelled: simp only … at * (only with the empty-sum lemmas)")
        rules = parse_simp_rules(tac[1])
        if rules is not None:
            return self.simp_sums(rules, tac[2], g, line, text)
        new, term = simp_only(tac[1], tac[2], g, g.scope(self.base_scope()), self.base.fresh)
        self.meter.term(term, line)
        self.verdict(line, "simp only", OK, "", text)
        return [new]

    def simp_empty(self, rules: set[str], loc: str | None, g: Goal, line: int, text: str) -> list[Goal]:
        """``simp only [Finset.univ_eq_empty, Finset.range_zero, Finset.sum_empty, Nat.cast_zero]``
        (any of them; ``at h``, ``at *`` or the goal): every sum over ``Fin 0``/``range 0`` becomes
        ``0`` and ``((0 : ℕ) : ℝ)`` becomes ``0`` (``sums.empty_rewrite``); a hypothesis the model
        cannot write after the rewriting (a membership in ``∅``) is left out of the context (the
        model then knows less than Lean). No change anywhere is "simp made no progress"; a goal
        ``t = t`` is closed (``rfl``), a goal ``t ≤ t`` is not modelled."""
        changed = False
        ctx: list[Local] = []
        named = g.scope(self.base_scope()).names.get(loc) if loc not in (None, "*") else None
        if loc not in (None, "*") and (named is None or g.local(named) is None or g.local(named).is_var):
            raise ModelError(f"unknown hypothesis {loc}")
        for x in g.ctx:
            if loc is None or x.is_var or not (loc == "*" or x.uid == named):
                ctx.append(x)
                continue
            new, ok = empty_rewrite(x.type, rules)
            if new != x.type:
                changed = True
                if ok:
                    ctx.append(Local(self.base.fresh(x.name), x.name, False, new))
                continue
            ctx.append(x)
        target = g.target
        if loc in (None, "*"):
            target, ok = empty_rewrite(g.target, rules)
            if target != g.target:
                changed = True
                if not ok:
                    raise NotModelled("not modelled: simp only: the rewritten goal (`∅` in it: a sum over `∅` or "
                                      "a membership)")
        if not changed:
            raise ModelError("simp made no progress")
        self.verdict(line, "simp only", OK, "", text)
        c = canon(target)
        if c[0] == "rel" and c[2] == c[3]:
            if c[1] == "=":
                return []
            raise NotModelled(f"not modelled: whether simp only closes {show(target)[:100]}")
        return [Goal(tuple(ctx), target, g.unknown)]

    def simp_sums(self, rules: list[tuple[str, str]], loc: str | None, g: Goal, line: int,
                  text: str) -> list[Goal]:
        """``simp only [Finset.sum_add_distrib, ← Finset.mul_sum, Finset.sum_const, …]`` on the goal:
        the lemmas rewrite both sides to a fixpoint (``sums.simp_sum_target``); a goal whose sides
        become equal is closed (``rfl``); no change is "simp made no progress". When lemmas overlap,
        every rewriting order is followed and must leave the same goal, else not modelled."""
        if loc is not None:
            raise NotModelled("not modelled: simp only [Finset lemmas] at a hypothesis")
        old = alpha(g.target)
        results = simp_sum_target(rules, old)
        self.meter.call(line, *results)
        for r in results:
            check_simp_result_sums(r)
        if all(r == old for r in results):
            raise ModelError("simp made no progress")
        closed = [_sides_equal(r) for r in results]
        if len(results) > 1:
            # several orders: the goal must come out the same up to ring normal form
            if len(set(closed)) > 1:
                raise NotModelled("not modelled: simp only: the result depends on the rewriting order")
            if not closed[0]:
                self.require_ring_equal(results, g)
        self.verdict(line, "simp only", OK, "", text)
        if closed[0]:
            return []
        return [g.with_target(results[0])]

    def require_ring_equal(self, results: list[Any], g: Goal) -> None:
        """The goals simp may leave (one per rewriting order) must agree in ring normal form (each
        side), or the model cannot tell which one Lean's ``simp`` leaves."""
        el = self.elab(g)
        sides = []
        for r in results:
            c = canon(r)
            if c[0] != "rel":
                raise NotModelled("not modelled: simp only: the result depends on the rewriting order")
            sides.append((el.value(c[2]), el.value(c[3])))
        norm = RingNormalizer([x for ab in sides for x in ab])
        base = sides[0]
        for a, b in sides[1:]:
            if not (norm.norm(("sub", a, base[0])).is_zero() and norm.norm(("sub", b, base[1])).is_zero()):
                raise NotModelled("not modelled: simp only: the result depends on the rewriting order")

    def atomic_have(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        _, name, ty_toks, how, body = tac
        el = self.elab(g)
        if ty_toks is not None:
            ty = self.have_typed(el, ty_toks, how, body, g, line, text)
        else:
            ty = self.have_untyped(el, name, how, body, g, line, text)
        uid = self.base.fresh(name)
        return [g.add(Local(uid, name, False, ty))]

    def have_typed(self, el: Elab, ty_toks: Any, how: str, body: Any, g: Goal, line: int, text: str) -> Any:
        """``have name : ty := …``: the stated type (kept even when its proof fails, as Lean does)."""
        ty = self.parse(ty_toks, g)
        if not _is_prop(canon(ty)):
            raise NotModelled(f"have of a non-proposition {show(ty)}")
        if how == "term":
            try:
                term = self.parse(body, g)
                el.proof_against(term, ty)
                el.check_holes()
                self.finish_elab(el, line, text)
                self.verdict(line, "have", OK, "", text)
            except (NotModelled, ModelError) as exc:
                # Lean reports the error and keeps `name : ty` (elaborated as sorry)
                self.verdict(line, "have", UNSUPPORTED if isinstance(exc, NotModelled) else FAIL,
                             str(exc), text)
        else:
            self.verdict(line, "have", OK, "", text)
            self.run_by(body, g.with_target(ty), line, text)
        return ty

    def have_untyped(self, el: Elab, name: str, how: str, body: Any, g: Goal, line: int, text: str) -> Any:
        """``have name := term``: the type inferred from the term."""
        if how != "term":
            raise NotModelled("have without a type proved by tactics")
        term = self.parse(body, g)
        ty = el.proof(term)
        el.check_holes()
        self.finish_elab(el, line, text)
        ty = el.inst(ty)
        if has_mvar(ty):
            raise ModelError(f"have {name}: type contains metavariables: {show(ty)[:200]}")
        self.verdict(line, "have", OK, "", text)
        return ty

    def atomic_suffices(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        _, name, ty_toks, how, body = tac
        ty = self.parse(ty_toks, g)
        uid = self.base.fresh(name)
        g2 = g.add(Local(uid, name, False, ty))
        self.verdict(line, "suffices", OK, "", text)
        if how == "by":
            self.run_by(body, g2, line, text)
        else:
            el = self.elab(g2)
            el.proof_against(self.parse(body, g2), g.target)
            self.finish_elab(el, line, text)
        return [g.with_target(ty)]

    def linarith_only_context(self, toks: list[Tok], g: Goal, line: int, text: str) -> tuple[Local, ...]:
        """The context ``linarith only [t₁, …, tₙ]`` works in: the variables and the types of the
        listed proof terms, no other hypothesis (Mathlib's ``Linarith/Frontend.lean``: "will use
        only the goal (if relevant), h1, h2, h3, and t"). ``linarith only`` alone: no fact."""
        facts: list[Local] = []
        if toks:
            if toks[0].text != "[" or toks[-1].text != "]":
                raise NotModelled("linarith only: the facts are not one [ … ] list")
            for k, term in enumerate(_split_top_commas(toks[1:-1])):
                if not term:
                    raise ModelError("linarith only: an empty term in the list")
                el = self.elab(g)
                prop = el.proof(self.parse(term, g))
                el.check_holes()
                self.finish_elab(el, line, text)
                self.check_names(el, line, text)
                facts.append(Local(f"linarith_only_{k}", f"fact{k}", False, el.inst(prop)))
        return tuple(loc for loc in g.ctx if loc.is_var) + tuple(facts)

    def atomic_ring(self, kind: str, g: Goal, line: int, text: str) -> list[Goal]:
        t = canon(g.target)
        if t[0] != "rel" or t[1] != "=":
            raise ModelError(f"{kind}: goal is not an equality: {show(t)[:200]}")
        el = self.elab(g)
        lhs, rhs = el.value(t[2]), el.value(t[3])
        norm = RingNormalizer([lhs, rhs])
        diff = norm.norm(("sub", lhs, rhs))
        self.meter.ring(("sub", lhs, rhs), norm.ops, line)
        if not diff.is_zero():
            raise ModelError(f"{kind}: the sides differ in ring normal form")
        self.verdict(line, kind, OK, "", text)
        return []

    def elab_term_against_goal(self, toks: list[Tok], g: Goal, line: int, text: str) -> Elab:
        """Elaborate the term of ``exact``/``refine`` against the goal (shared by both tactics)."""
        el = self.elab(g)
        el.proof_against(self.parse(toks, g), g.target)
        el.check_holes()
        self.finish_elab(el, line, text)
        self.check_names(el, line, text)
        return el

    def atomic_intro(self, names: list[str], g: Goal, line: int, text: str) -> list[Goal]:
        cur = g
        for nm in names:
            t = cur.target
            uid = self.base.fresh(nm)
            if t[0] == "forall":
                is_var = is_value_type(t[2])
                cur = Goal(cur.ctx + (Local(uid, nm, is_var, t[2]),), subst(t[3], {t[1]: ("fv", uid)}))
            elif t[0] == "imp":
                cur = Goal(cur.ctx + (Local(uid, nm, False, t[1]),), t[2])
            elif t[0] == "rel" and t[1] == "≠" or t[0] == "not":
                # ``a ≠ b`` is ``a = b → False`` and ``¬p`` is ``p → False`` (``intro`` whnf's the goal)
                hyp = ("rel", "=", t[2], t[3]) if t[0] == "rel" else t[1]
                cur = Goal(cur.ctx + (Local(uid, nm, False, hyp),), ("const", "False"))
            else:
                raise ModelError(f"intro {nm}: the goal {show(t)[:200]} is not a ∀, →, ≠ or ¬")
        self.verdict(line, "intro", OK, "", text)
        return [cur]

    def atomic_destruct(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        """``obtain pat := term`` / ``rcases term with pat`` (same model for both)."""
        kind, pat, term_toks = tac[0], tac[1], tac[2]
        el = self.elab(g)
        prop = el.proof(self.parse(term_toks, g))
        self.finish_elab(el, line, text)
        self.check_names(el, line, text)
        goals = self.destruct(pat, el.inst(prop), g)
        self.verdict(line, kind, OK, "", text)
        return goals

    def atomic_show(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        ty = self.parse(tac[1], g)
        el = self.elab(g)
        if not el.unify(ty, g.target):
            raise ModelError(f"show: {show(ty)[:200]} is not the goal {show(g.target)[:200]}")
        self.verdict(line, "show", OK, "", text)
        return [g.with_target(ty)]

    def check_names(self, el: Elab, line: int, text: str) -> None:
        del el, line, text

    def run_by(self, body: Any, g: Goal, line: int, text: str) -> list[Goal]:
        if isinstance(body, list) and body and isinstance(body[0], Item):
            left = self.run_block(body, [g])
        else:
            left = self.tactic(list(body), None, [g], line, text)
        if left and not left[0].unknown:
            self.verdict(line, "by", FAIL, f"unsolved goals: ⊢ {show(left[0].target)[:300]}", text)
        return left

    def destruct(self, pat: Any, prop: Any, g: Goal) -> list[Goal]:
        """rcases patterns: a name, ``⟨p, q, …⟩`` for ∧, ``p | q`` for ∨."""
        kind = pat[0]
        if kind == "name":
            uid = self.base.fresh(pat[1])
            return [g.add(Local(uid, pat[1], False, prop))]
        if kind == "tuple":
            parts = list(pat[1])
            if len(parts) == 1:
                return self.destruct(parts[0], prop, g)
            # the components as written (``x ≥ 0`` stays ``x ≥ 0``, as Lean's ``And`` arguments)
            p = prop if isinstance(prop, tuple) and prop[0] == "and" else canon(prop)
            if p[0] != "and":
                raise ModelError(f"rcases: ⟨…⟩ pattern on {show(prop)[:200]}, not a conjunction")
            goals = self.destruct(parts[0], p[1], g)
            rest = ("tuple", tuple(parts[1:]))
            out = []
            for gg in goals:
                out += self.destruct(rest, p[2], gg)
            return out
        if kind == "alts":
            parts = list(pat[1])
            if len(parts) == 1:
                return self.destruct(parts[0], prop, g)
            p = prop if isinstance(prop, tuple) and prop[0] == "or" else canon(prop)
            if p[0] != "or":
                raise ModelError(f"rcases: `|` pattern on {show(prop)[:200]}, not a disjunction")
            left = self.destruct(parts[0], p[1], g)
            right = self.destruct(("alts", tuple(parts[1:])), p[2], g)
            return left + right
        raise NotModelled(f"rcases pattern {pat}")

    def apply(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        el = self.elab(g)
        term = self.parse(tac[1], g)
        head, args = (term[1], list(term[2])) if term[0] == "app" else (term, [])
        binders, concl = el.telescope(head)
        prop = el.apply_telescope(binders, concl, args, None)
        bs, c = _pi_binders(el.inst(prop))
        m: dict[Any, Any] = {}
        premises = []
        for uid, ty, _ in bs:
            if ty in (REAL, NAT):
                m[uid] = el.mvar()
            else:
                premises.append(subst(ty, m))
        c = subst(c, m)
        if not el.unify(c, g.target):
            raise ModelError(f"apply: {show(el.inst(c))[:200]} does not match the goal {show(g.target)[:200]}")
        self.finish_elab(el, line, text)
        new = [el.inst(p) for p in premises]
        if any(has_mvar(p) for p in new):
            raise NotModelled("apply leaving metavariables in new goals")
        self.verdict(line, "apply", OK, "", text)
        return [g.with_target(p) for p in new]

    def rewrite(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        """``rw [ge_iff_le]``/``rw [gt_iff_lt]`` on the goal or ``at h₁ … ⊢`` (each location must
        rewrite, as ``withLocation`` with explicit targets). Then ``rw`` tries ``with_reducible rfl``
        on the main goal: a syntactic ``t = t``/``t ≤ t``/``t ↔ t`` is closed."""
        rules, loc = tac[1], tac[2]
        names, at_goal = loc if loc is not None else ((), True)
        scope = g.scope(self.base_scope())
        def eq_of(rule: Any) -> Any:
            """A local hypothesis ``h : l = r`` named by a rule, else None."""
            if rule[0] != "const":
                return None
            uid = scope.names.get(rule[1])
            loc = g.local(uid) if uid is not None else None
            if loc is None or loc.is_var:
                return None
            c = alpha(loc.type)
            if c[0] != "rel" or c[1] != "=":
                raise NotModelled(f"not modelled: rw with the hypothesis {rule[1]} : {show(loc.type)[:100]}")
            return c

        for nm in names:
            uid = scope.names.get(nm)
            hyp = g.local(uid) if uid is not None else None
            if hyp is None or hyp.is_var:
                raise ModelError(f"rw at {nm}: no such hypothesis")
            new = _rewrite_rules(rules, hyp.type, nm, eq_of)
            g = Goal(tuple(Local(self.base.fresh(nm), nm, False, new) if x is hyp else x for x in g.ctx),
                     g.target, g.unknown)
        if at_goal:
            g = g.with_target(_rewrite_rules(rules, g.target, "the goal", eq_of))
        self.verdict(line, "rw", OK, "", text)
        c = canon(g.target)
        if c[0] == "rel" and c[1] in ("≤", "=") and c[2] == c[3] or c[0] == "iff" and c[1] == c[2]:
            return []          # rw closes the goal with rfl
        return [g]

    def calc(self, tac: Any, g: Goal, line: int, text: str) -> list[Goal]:
        steps = tac[1]
        first_lhs = None
        prev_rhs = None
        rel = "="
        for rel_toks, proof in steps:
            r = self.parse(rel_toks, g)
            rr = _rel(r)
            if rr is None or rr[0] not in ("=", "≤", "<"):
                raise NotModelled(f"calc step {show(r)[:100]}")
            op, a, b = rr
            if a == ("hole",):
                if prev_rhs is None:
                    raise ModelError("calc: first step starts with _")
                a = prev_rhs
            elif prev_rhs is not None and a != prev_rhs:
                raise ModelError("calc: step does not start where the previous one ended")
            if first_lhs is None:
                first_lhs = a
            step_goal = g.with_target(("rel", op, a, b))
            if proof[0] == "by":
                self.run_by(proof[1], step_goal, line, text)
            else:
                el = self.elab(step_goal)
                el.proof_against(self.parse(proof[1], step_goal), step_goal.target)
                self.finish_elab(el, line, text)
            rel = {("=", "="): "=", ("=", "≤"): "≤", ("≤", "="): "≤", ("≤", "≤"): "≤"}.get(
                (rel, op), "<")
            prev_rhs = b
        goal = canon(g.target)
        got = ("rel", rel, first_lhs, prev_rhs)
        if goal != got:
            raise ModelError(f"calc proves {show(got)[:200]}, the goal is {show(goal)[:200]}")
        self.verdict(line, "calc", OK, "", text)
        return []

    # -- linear_combination
    def linear_combination(self, tac: Any, g: Goal, line: int, text: str) -> None:
        opts, e_toks = tac[1], tac[2]
        if opts:
            raise NotModelled("linear_combination (norm := …)/(exp := …) is not modelled")
        goal = _rel(canon(g.target))
        if goal is None or goal[0] == "≠":
            raise ModelError(f"linear_combination: goal {show(g.target)[:200]} is not an (in)equality")
        gop, ga, gb = goal
        el = self.elab(g)
        if e_toks:
            exp = self.lc_expand(self.parse(e_toks, g), el, g)
        else:
            exp = ("const", ZERO)
        if exp[0] == "const":
            hop, ha, hb = "=", ZERO, ZERO
        else:
            _, hop, ha, hb = exp
        self.finish_elab(el, line, text)
        table = {("=", "="): "=", ("=", "≤"): "≤", ("=", "<"): "<", ("≤", "≤"): "≤", ("≤", "<"): "<",
                 ("<", "≤"): "≤", ("<", "<"): "≤"}
        new = table.get((hop, gop))
        if new is None:
            raise ModelError("linear_combination: cannot prove an equality from inequality hypotheses")
        lhs = el.inst(("sub", ("add", ga, hb), ("add", gb, ha)))
        if has_mvar(lhs):
            raise ModelError("linear_combination: metavariables remain in the combination")
        lhs = el.value(lhs)
        norm = RingNormalizer([lhs])
        c = RingNormalizer.constant_value(norm.norm(lhs))
        self.meter.ring(lhs, norm.ops, line)
        if new == "=":
            if c != 0:
                raise ModelError("linear_combination: ring1 failed, the goal minus the combination is not 0 "
                                 "in ring normal form" + ("" if c is None else f" (it is the constant {c})"))
        elif c is None:
            raise ModelError("linear_combination: ring failed, ring expressions not equal up to an additive "
                             "constant")
        elif new == "≤" and c > 0 or new == "<" and c >= 0:
            raise ModelError(f"linear_combination: comparison failed, the remainder is the constant {c}")

    def lc_expand(self, e: Any, el: Elab, g: Goal) -> Any:
        """``expandLinearCombo``: ``("proof", rel, lhs, rhs)`` or ``("const", value)``."""
        tag = e[0]
        if tag in ("add", "sub"):
            a, b = self.lc_expand(e[1], el, g), self.lc_expand(e[2], el, g)
            if a[0] == "const" and b[0] == "const":
                return ("const", (tag, a[1], b[1]))
            if tag == "add":
                if a[0] == "proof" and b[0] == "proof":
                    rel = max(a[1], b[1], key=_REL_ORDER.index)
                    return ("proof", rel, ("add", a[2], b[2]), ("add", a[3], b[3]))
                return a if a[0] == "proof" else b
            if a[0] == "proof" and b[0] == "const":
                return a
            if b[1] != "=":
                raise ModelError("linear_combination: coefficients of inequalities must be nonnegative "
                                 "(an inequality is subtracted)")
            if a[0] == "const":
                return ("proof", "=", b[3], b[2])
            return ("proof", a[1], ("add", a[2], b[3]), ("add", a[3], b[2]))
        if tag == "neg":
            a = self.lc_expand(e[1], el, g)
            if a[0] == "const":
                return ("const", ("neg", a[1]))
            if a[1] != "=":
                raise ModelError("linear_combination: coefficients of inequalities must be nonnegative "
                                 "(an inequality is negated)")
            return ("proof", "=", a[3], a[2])
        if tag in ("mul", "div"):
            a, b = self.lc_expand(e[1], el, g), self.lc_expand(e[2], el, g)
            if a[0] == "const" and b[0] == "const":
                return ("const", (tag, a[1], b[1]))
            if a[0] == "proof" and b[0] == "proof":
                raise ModelError("linear_combination supports only linear operations (proof times proof)")
            if tag == "div" and b[0] == "proof":
                raise ModelError("linear_combination supports only linear operations (division by a proof)")
            p, c = (a, b[1]) if a[0] == "proof" else (b, a[1])
            rel = p[1]
            if rel != "=":
                r = positivity_core(el.inst(c), g.ctx)
                if rel == "≤" and r not in (_POS, _NONNEG) or rel == "<" and r not in (_POS, _NONNEG):
                    raise ModelError(f"linear_combination: positivity cannot show the coefficient "
                                     f"{show(el.inst(c))[:200]} is nonnegative")
                if rel == "<" and r == _NONNEG:
                    rel = "≤"
            if tag == "div":
                return ("proof", rel, ("div", p[2], c), ("div", p[3], c))
            if a[0] == "proof":
                return ("proof", rel, ("mul", p[2], c), ("mul", p[3], c))
            return ("proof", rel, ("mul", c, p[2]), ("mul", c, p[3]))
        # a leaf: a proof of a comparison, or a value
        if _looks_like_proof(e, g, self):
            prop = canon(el.inst(el.proof(e)))
            r = _rel(prop)
            if r is None or r[0] == "≠":
                raise NotModelled(f"linear_combination term proving {show(prop)[:200]}, not an (in)equality")
            return ("proof", r[0], r[1], r[2])
        return ("const", el.value(e))


_REL_ORDER = ["=", "≤", "<"]
#: tactics that close the goal by a decision procedure of the model (:meth:`Checker.atomic_automation`)
_CLOSING_AUTOMATION = ("linear_combination", "omega", "exact_mod_cast", "positivity", "linarith")
_NON_FINISHING = {"have", "suffices", "intro", "obtain", "rcases", "refine", "rw", "show", "constructor", "apply",
                  "subst", "simp_only",
                  "field_simp", "norm_num", "simp", "ring_nf", "unknown", "push_cast", "nlinarith_pre"}
_WHY = {"field_simp": "runs the full simp set: its result is not computable here",
        "nlinarith": "heuristic product search", "polyrith": "calls an external oracle",
        "norm_num": "simp set with extensions", "simp": "simp set", "ring_nf": "normal form not modelled",
        "nlinarith_pre": ""}


def _type_arrow(ty: Any) -> bool:
    """``A → B`` between types (``ℕ → ℝ``): a function type, not an implication."""
    return isinstance(ty, tuple) and ty[0] == "imp" and (ty[1][0] == "type" or ty[2][0] == "type"
                                                         or _type_arrow(ty[2]))


def _looks_like_proof(e: Any, g: Goal, checker: Checker) -> bool:
    head = e
    while head[0] in ("app", "proj"):
        head = head[1]
    if head[0] == "fv":
        loc = g.local(head[1])
        return loc is not None and not loc.is_var
    if head[0] == "const":      # a lemma; ``Real.pi`` and functions such as ``Real.sqrt`` are values
        name = checker.global_name(head[1])
        return name not in FUNCTIONS and name not in CONSTANTS
    return head[0] in ("by", "anon", "ascr") and e[0] != "ascr"


def _rewrite_rules(rules: list[Any], t: Any, where: str, eq_of: Any = None) -> Any:
    """``t`` rewritten by each rule in turn (``ge_iff_le``/``gt_iff_lt``; the first instance fixes
    the lemma's ``a b``, as ``kabstract``, and every equal instance is rewritten); a local
    hypothesis ``h : l = r`` rewrites every instance of ``l`` (``← h``: of ``r``), compared as
    terms up to the names of bound variables (``kabstract``), and an absent instance is an error."""
    for rev, rule in rules:
        eq = eq_of(rule) if eq_of is not None else None
        if eq is not None:
            src, dst = (eq[3], eq[2]) if rev else (eq[2], eq[3])
            new, hits = _replace(alpha(t), src, dst)
            if not hits:
                raise ModelError(f"rw [{'← ' if rev else ''}{rule[1]}]: did not find an instance of the pattern "
                                 f"{show(src)[:200]} in {where}")
            t = new
            continue
        name = rule[1] if rule[0] == "const" else None
        if rev or name not in RW_LEMMAS:
            raise NotModelled(f"not modelled: rw with {'← ' if rev else ''}{show(rule)[:100]}")
        op = "≥" if name == "ge_iff_le" else ">"
        first = _first_rel(t, op)
        if first is None:
            raise ModelError(f"rw [{name}]: did not find an instance of the pattern `_ {op} _` in {where}")
        t = _rewrite_rel(t, first)
    return t


def _replace(t: Any, src: Any, dst: Any) -> tuple[Any, int]:
    """Every occurrence of ``src`` in ``t`` replaced by ``dst`` (outermost first), with the count."""
    if t == src:
        return dst, 1
    if not isinstance(t, tuple) or not t or t[0] in ("by", "fv", "num", "const", "type"):
        return t, 0
    hits, out = 0, []
    for x in t:
        if isinstance(x, tuple):
            y, k = _replace(x, src, dst)
            hits += k
            out.append(y)
        else:
            out.append(x)
    return tuple(out), hits


def _sides_equal(t: Any) -> bool:
    c = canon(t)
    return c[0] == "rel" and c[1] == "=" and c[2] == c[3]


def check_simp_result_sums(t: Any) -> None:
    """What ``simp only`` would simplify further that the model does not follow: ``True``/``False``,
    a closed ℕ arithmetic exponent (the default simprocs)."""
    from prover.lean.replay.definitions import _nat_arith

    if not isinstance(t, tuple) or not t:
        return
    if t in (("const", "True"), ("const", "False")):
        raise NotModelled("simp only on a proposition with True/False is not modelled")
    if t[0] == "pow" and t[2][0] != "num" and _nat_arith(t[2]):
        raise NotModelled(f"simp only: the exponent {show(t[2])[:100]} is closed ℕ arithmetic (simprocs)")
    for x in t:
        if isinstance(x, tuple):
            check_simp_result_sums(x)


def _mentions_sum(ts: tuple) -> bool:
    def walk(t: Any) -> bool:
        if not isinstance(t, tuple) or not t:
            return False
        if t[0] in ("sum", "cast"):
            return True
        return any(walk(x) for x in t if isinstance(x, tuple))
    return any(walk(t) for t in ts)


def _nat_term(t: Any, uids: set[str]) -> bool:
    """A natural-number side of a comparison the model reads: a variable or a numeral."""
    return t[0] == "num" or t[0] == "fv" and t[1] in uids


def _first_rel(t: Any, op: str) -> Any:
    """The first ``a op b`` of a proposition, pre-order and left to right (``kabstract``'s order)."""
    if not isinstance(t, tuple):
        return None
    if t[0] == "rel" and t[1] == op:
        return t
    if t[0] in ("and", "or", "imp", "iff", "not"):
        for a in t[1:]:
            hit = _first_rel(a, op)
            if hit is not None:
                return hit
    return None


def _rewrite_rel(t: Any, inst: Any) -> Any:
    """Every occurrence of the instance ``inst = a op b`` turned into ``b ≤ a``/``b < a``."""
    if t == inst:
        return ("rel", "≤" if inst[1] == "≥" else "<", inst[3], inst[2])
    if isinstance(t, tuple) and t[0] in ("and", "or", "imp", "iff", "not"):
        return (t[0],) + tuple(_rewrite_rel(a, inst) for a in t[1:])
    return t


def _split_top_commas(toks: list[Tok]) -> list[list[Tok]]:
    """``toks`` cut at the commas outside every bracket."""
    out: list[list[Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.text in ("(", "[", "{", "⟨"):
            depth += 1
        elif t.text in (")", "]", "}", "⟩"):
            depth -= 1
        if t.text == "," and depth == 0:
            out.append([])
        else:
            out[-1].append(t)
    return out if toks else []


def _finishing(tac: Any) -> bool:
    return tac[0] in ("linear_combination", "positivity", "linarith", "exact", "ring", "ring1", "omega",
                      "exact_mod_cast") or (
        tac[0] == "seq" and tac[1] and _finishing(tac[1][-1]))


def _tac_kind(t: Any) -> str:
    return t[0]


def _largest_line(lines: list[str], d: Decl) -> int:
    """The longest source line of the declaration ``d`` (its header and its proof)."""
    last = d.body[-1][0] if d.body else d.line
    return max((len(ln) for ln in lines[d.line - 1:last]), default=0)


def replay_text(text: str, path: str = "<string>") -> ReplayReport:
    """Run the replay model over Lean source ``text``."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200_000))   # long sums are left-nested terms
    try:
        return Checker(LeanSource(text), path).run()
    finally:
        sys.setrecursionlimit(limit)


def replay_file(path: str | Path) -> ReplayReport:
    """Run the replay model over a ``.lean`` file (see the module docstring: a model, not Lean)."""
    p = Path(path)
    return replay_text(p.read_text(encoding="utf-8"), str(p))
