"""``split`` steps: on the sign of a polynomial, or on the order of variables."""

from __future__ import annotations

import itertools

import sympy as sp

from prover.ir import Goal, Step
from prover.lean.render.atoms import Facts, bridge_facts, carried_terms, has_root_or_abs
from prover.lean.render.budget import wrap_line
from prover.lean.render.common import (
    RenderContext,
    RenderError,
    StepBlock,
    as_le,
    child_names,
    indent,
    instantiate,
    step_expr,
)
from prover.lean.render.compact import stated
from prover.lean.syntax import lean_expr, lean_ident, lean_rel
from prover.problem import Relation


def render_split(step: Step, ctx: RenderContext) -> StepBlock:
    cert = step.certificate
    kind = cert.get("cases")
    if kind == "sign":
        p = step_expr(step, cert["expr"])
        h = ctx.fresh("hsign")
        lines = [f"-- split on the sign of {lean_expr(p)}",
                 f"rcases le_total 0 ({lean_expr(p)}) with {h} | {h}"]
        kids = [child_names(step.goal, ctx.names, s, {len(s.hypotheses) - 1: h}) for s in step.subgoals]
        return StepBlock(lines, kids)
    if kind == "order":
        return _render_order_split(step, ctx)
    raise RenderError(f"unknown split kind {kind!r}")


def _chain(sub: Goal, n: int) -> list[str]:
    """The variable ordering a subgoal of an order split stands for (from its chain hypotheses)."""
    chain = sub.hypotheses[len(sub.hypotheses) - (n - 1):]
    order: list[str] = []
    for r in chain:
        if r.op not in (">=", "<=") or not (r.lhs.is_Symbol and r.rhs.is_Symbol):
            raise RenderError("order split subgoal does not end with its variable chain")
        hi, lo = (r.lhs, r.rhs) if r.op == ">=" else (r.rhs, r.lhs)
        if not order:
            order.append(hi.name)
        elif order[-1] != hi.name:
            raise RenderError("order split chain is not consecutive")
        order.append(lo.name)
    return order


def _group(vs: list[str], symmetry: str | None) -> list[dict[str, str]]:
    if symmetry == "full":
        return [dict(zip(vs, p)) for p in itertools.permutations(vs)]
    if symmetry == "cyclic":
        return [dict(zip(vs, vs[i:] + vs[:i])) for i in range(len(vs))]
    return [dict(zip(vs, vs))]


def _moved_facts(goal: Goal, ctx: RenderContext, moved: list[int],
                 renaming: dict[str, str]) -> tuple[list[str], list[str]]:
    """Proofs of the moved hypotheses with the split variables renamed by ``renaming``: the goal's
    own hypothesis when one is exactly that renaming (a symmetric hypothesis set: ``0 < b`` for
    ``0 < a``), else ``linarith`` over the goal's hypotheses alone (``only``: the large facts
    the proof has stated by then are not preprocessed again at every leaf)."""
    syms = {x.name: x for h in goal.hypotheses for x in h.free_symbols()}
    syms.update({x.name: x for x in goal.target.free_symbols()})
    mapping = {syms[v]: syms[w] for v, w in renaming.items() if v in syms and w in syms}
    fallback = f"(by linarith only [{', '.join(ctx.names[:len(goal.hypotheses)])}])"
    out: list[str] = []
    pre: list[str] = []
    for i in moved:
        h = goal.hypotheses[i]
        hit = None
        # only a variable against a number: there the renamed binder Lean instantiates and the
        # hypothesis print alike (``b * c + c * a + a * b = 1`` is sympy's ``a*b + b*c + c*a = 1``,
        # not Lean's: Lean does not reorder a sum to match a type)
        if len(mapping) == len(renaming) and _variable_vs_number(h):
            want = Relation(h.lhs.xreplace(mapping), h.op, h.rhs.xreplace(mapping))   # all renamed at once
            hit = next((j for j, other in enumerate(goal.hypotheses) if other == want), None)
        if hit is None:
            bridged = _renamed_atom_fact(goal, i, renaming, ctx)
            if bridged is not None:
                pre.extend(bridged[0])
                out.append(bridged[1])
                continue
        out.append(ctx.names[hit] if hit is not None else fallback)
    return pre, out


def _renamed_atom_fact(goal: Goal, i: int, renaming: dict[str, str], ctx: RenderContext) -> tuple[list[str], str] | None:
    """Hypothesis ``i`` with the variables renamed, where an atom's argument comes out written
    otherwise (``|y - x|`` from ``|x - y|``: ``linarith`` sees two atoms): the hypothesis plus the
    exact atom bridges (:func:`prover.lean.render.atoms.bridge_facts`). None without such atoms."""
    h = goal.hypotheses[i]
    texts = (lean_expr(h.lhs), lean_expr(h.rhs))
    if not renaming or not has_root_or_abs("".join(texts)):
        return None
    variables = list(goal.variables)
    inst = [instantiate(t, variables, renaming, variables) for t in texts]
    facts = Facts(ctx)
    bridges = bridge_facts(f"({texts[0]}) - ({texts[1]})", f"({inst[0]}) - ({inst[1]})", variables, facts)
    if not bridges:
        return None
    return facts.lines, f"(by linear_combination {ctx.names[i]} {carried_terms(bridges, h.op)})"


def _variable_vs_number(r: Relation) -> bool:
    sides = (sp.sympify(r.lhs), sp.sympify(r.rhs))
    return any(x.is_Symbol for x in sides) and any(x.is_Number for x in sides)


def _transitive(facts: dict[tuple[str, str], str]) -> str:
    """A chain fact no comparison on the way states: by transitivity of those comparisons."""
    return f"(by linarith only [{', '.join(dict.fromkeys(facts.values()))}])"


def _sort_tree(vs: list[str], ctx: RenderContext, leaf) -> list[str]:
    """A decision tree of ``rcases le_total x y`` that sorts ``vs`` by binary insertion: each of
    its ``n!`` leaves knows one ordering (largest first) and the comparisons made on the way
    (``facts[(hi, lo)]``: a hypothesis name proving ``hi ≥ lo``), so each leaf applies exactly
    one case lemma: no ``first`` over alternatives, ``⌈log₂ n!⌉``-ish comparisons per leaf."""

    def insert(done: list[str], rest: list[str], facts: dict[tuple[str, str], str],
               lo: int, hi: int) -> list[str]:
        if lo == hi:                                   # the next variable goes at position lo
            x = rest[0]
            return place(done[:lo] + [x] + done[lo:], rest[1:], facts)
        mid = (lo + hi) // 2
        x, y = rest[0], done[mid]
        h = ctx.fresh("hle")
        # first branch h : x ≤ y (x below y); second h : y ≤ x (x above y)
        below = insert(done, rest, {**facts, (y, x): h}, mid + 1, hi)
        above = insert(done, rest, {**facts, (x, y): h}, lo, mid)
        return ([f"rcases le_total {lean_ident(x)} {lean_ident(y)} with {h} | {h}",
                 f"· {below[0]}"] + indent(below[1:]) + [f"· {above[0]}"] + indent(above[1:]))

    def place(done: list[str], rest: list[str], facts: dict[tuple[str, str], str]) -> list[str]:
        if not rest:
            return leaf(done, facts)
        return insert(done, rest, facts, 0, len(done))

    return place([vs[0]], list(vs[1:]), {})


def _order_cases(step: Step, ctx: RenderContext, vs: list[str], moved: list[int],
                 quantify: bool) -> tuple[list[str], list[list[str]], list[str]]:
    """Per subgoal of an order split: the case lemma's statement, the subgoal's hypothesis names
    and the ``fun … => ?_`` that introduces them."""
    goal = step.goal
    n = len(vs)
    base = len(goal.hypotheses)
    props = []
    kids = []
    intros = []
    for sub in step.subgoals:
        order = _chain(sub, n)
        chain = [f"{lean_ident(order[i])} ≥ {lean_ident(order[i + 1])}" for i in range(n - 1)]
        hyps = [lean_rel(goal.hypotheses[i]) for i in moved]
        binder = f"∀ {' '.join(lean_ident(v) for v in vs)} : ℝ, " if quantify else ""
        props.append(binder + " → ".join(hyps + chain + [lean_rel(sub.target)]))
        hn = {i: ctx.fresh("hh") for i in moved}
        cn = [ctx.fresh("hord") for _ in range(n - 1)]
        names = [hn.get(i, ctx.names[i]) for i in range(base)]
        new = {base + j: cn[j] for j in range(n - 1)}
        if len(sub.hypotheses) != base + n - 1 or tuple(sub.hypotheses[:base]) != goal.hypotheses:
            raise RenderError("order split subgoal is not the goal plus its variable chain")
        kids.append([names[i] if i < base else new[i] for i in range(len(sub.hypotheses))])
        binders = ([lean_ident(v) for v in vs] if quantify else []) + [hn[i] for i in moved] + cn
        intros.append(f"fun {' '.join(binders)} => ?_")
    return props, kids, intros


def _case_bridges(goal: Goal, sub: Goal, renaming: dict[str, str], ctx: RenderContext) -> tuple[list[str], str]:
    """Lines and ``linear_combination`` terms (`` + c * h``…) that make the case lemma, instantiated
    at the renamed variables, the goal where its roots' arguments come out written otherwise
    (``Real.sqrt (x * z)`` renamed from ``Real.sqrt (x * y)`` against the goal's ``Real.sqrt (z * x)``):
    the exact bridges of :func:`prover.lean.render.atoms.bridge_facts`; none without roots."""
    left, right = ctx.sides(goal)
    if not any(m in left + right for m in ("sqrt", "√", "|", ": ℝ)")):
        return [], ""
    variables = list(goal.variables)
    equality = sub.target.op == "="
    lhs, rhs = (sub.target.lhs, sub.target.rhs) if equality else as_le(sub.target)[:2]
    inst = [instantiate(lean_expr(x), list(sub.variables), renaming, variables) for x in (lhs, rhs)]
    facts = Facts(ctx)
    if equality:    # linear_combination checks L − R − (l − r) − Σ k·(…): k = c on the L − R slack
        bridges = bridge_facts(f"({left}) - ({right})", f"({inst[0]}) - ({inst[1]})", variables, facts)
        return (facts.lines, "".join(f" + ({f.coeff}) * {f.proof}" for f in bridges)) if bridges else ([], "")
    bridges = bridge_facts(f"({right}) - ({left})", f"({inst[1]}) - ({inst[0]})", variables, facts)
    if not bridges:
        return [], ""
    # bridge_facts gives Lean's − ours ≡ Σ c·(lhs − rhs); the goal is Lean's, the case ours: −c each
    return facts.lines, "".join(f" + (-({f.coeff})) * {f.proof}" for f in bridges)


def _render_order_split(step: Step, ctx: RenderContext) -> StepBlock:
    cert = step.certificate
    vs = [str(v) for v in cert["variables"]]
    n = len(vs)
    if n < 2:
        raise RenderError("order split needs at least two variables")
    sym = cert.get("symmetry")
    goal = step.goal
    quantify = sym in ("full", "cyclic")
    # hypotheses carried into the case lemmas (those mentioning the split variables)
    moved = [i for i, h in enumerate(goal.hypotheses)
             if quantify and {s.name for s in h.free_symbols()} & set(vs)]
    lines = [f"-- split on the order of {', '.join(vs)}" + (f" ({sym} symmetry)" if sym else "")]
    if len(step.subgoals) > 1 and len({sub.target for sub in step.subgoals}) == 1 and \
            (len(step.subgoals) - 1) * len(stated(step.subgoals[0].target)[0]) > DISJUNCTION_ABOVE:
        return _disjunction_split(step, ctx, vs, moved, quantify, lines)
    case_names = [ctx.fresh("hcase") for _ in step.subgoals]
    props, kids, intros = _order_cases(step, ctx, vs, moved, quantify)
    key = ctx.fresh("hcases")
    prop = " ∧ ".join(f"({p})" for p in props) if len(props) > 1 else props[0]
    head = wrap_line(f"suffices {key} : {prop}")      # ``… by`` lines are never broken later
    head[-1] += " by"
    lines += head
    if len(props) > 1:
        lines.append(f"  obtain ⟨{', '.join(case_names)}⟩ := {key}")
    else:
        lines.append(f"  have {case_names[0]} := {key}")
    cases = [(cname, _chain(sub, n)) for cname, sub in zip(case_names, step.subgoals)]
    sub_of = dict(zip(case_names, step.subgoals))
    group = _group(vs, sym)

    def leaf(order: list[str], facts: dict[tuple[str, str], str]) -> list[str]:
        """The case lemma whose ordering, renamed by a symmetry, is ``order`` (``order[0]`` the
        largest), applied to the renamed variables; each chain fact is a comparison made on the
        way when there is one, else ``linarith`` (transitivity)."""
        for cname, chain in cases:
            for g in group:
                if [g[v] for v in chain] == order:
                    args = [f"({lean_ident(g[v])})" for v in vs] if quantify else []
                    moved_pre, moved_args = _moved_facts(goal, ctx, moved, g if quantify else {})
                    args += moved_args
                    args += [facts.get((order[i], order[i + 1]), _transitive(facts)) for i in range(n - 1)]
                    pre, extra = _case_bridges(goal, sub_of[cname], g if quantify else {}, ctx)
                    return moved_pre + pre + [f"linear_combination {cname} {' '.join(args)}".rstrip() + extra]
        raise RenderError(f"order split: no case covers the ordering {' ≥ '.join(order)}")

    lines += indent(_sort_tree(vs, ctx, leaf), 2)
    if len(props) > 1:
        lines.append(f"refine ⟨{', '.join(intros)}⟩")
    else:
        lines.append(f"refine {intros[0]}")
    return StepBlock(lines, kids)


#: Characters the conjunction of case lemmas would repeat (its target once a case after the
#: first) above which the cases are stated as one lemma over their disjunction.
DISJUNCTION_ABOVE = 4_000


def _disjunction_split(step: Step, ctx: RenderContext, vs: list[str], moved: list[int], quantify: bool,
                       lines: list[str]) -> StepBlock:
    """Cases with one target (an order split's always have): one lemma ``∀ vs, hyps → (C₁) ∨ (C₂)
    ∨ … → T`` stating ``T`` once, not once a case (six copies of a 7,500-character polynomial
    on 567neq/P65). Each leaf of the sorting tree applies it to its ordering's disjunct
    (``Or.inr (Or.inl ⟨h₁, h₂⟩)``); ``intro`` and ``rcases … with ⟨…⟩ | ⟨…⟩ | …`` then leave one
    goal per case, in the subgoals' order."""
    goal, n = step.goal, len(vs)
    base = len(goal.hypotheses)
    chains = [_chain(sub, n) for sub in step.subgoals]
    for sub in step.subgoals:
        if len(sub.hypotheses) != base + n - 1 or tuple(sub.hypotheses[:base]) != goal.hypotheses:
            raise RenderError("order split subgoal is not the goal plus its variable chain")
    target, target_text = stated(step.subgoals[0].target)
    cases = " ∨ ".join("(" + " ∧ ".join(f"{lean_ident(c[i])} ≥ {lean_ident(c[i + 1])}" for i in range(n - 1)) + ")"
                       for c in chains)
    binder = f"∀ {' '.join(lean_ident(v) for v in vs)} : ℝ, " if quantify else ""
    key = ctx.fresh("hcases")
    head = wrap_line(f"suffices {key} : {binder}" + " → ".join([lean_rel(goal.hypotheses[i]) for i in moved]
                                                               + [cases, target]))
    head[-1] += " by"
    lines = lines + head
    group = _group(vs, step.certificate.get("symmetry"))

    def leaf(order: list[str], facts: dict[tuple[str, str], str]) -> list[str]:
        for j, chain in enumerate(chains):
            for g in group:
                if [g[v] for v in chain] == order:
                    args = [f"({lean_ident(g[v])})" for v in vs] if quantify else []
                    moved_pre, moved_args = _moved_facts(goal, ctx, moved, g if quantify else {})
                    args += moved_args
                    args.append(f"({_disjunct(j, len(chains), [facts.get((order[i], order[i + 1]), _transitive(facts)) for i in range(n - 1)])})")
                    return moved_pre + [f"linear_combination {key} {' '.join(args)}"]
        raise RenderError(f"order split: no case covers the ordering {' ≥ '.join(order)}")

    lines += indent(_sort_tree(vs, ctx, leaf), 2)
    hn = {i: ctx.fresh("hh") for i in moved}
    hor = ctx.fresh("hor")
    intro = ([lean_ident(v) for v in vs] if quantify else []) + [hn[i] for i in moved] + [hor]
    lines.append(f"intro {' '.join(intro)}")
    kids, patterns = [], []
    for _ in chains:
        cn = [ctx.fresh("hord") for _ in range(n - 1)]
        patterns.append(f"⟨{', '.join(cn)}⟩" if n > 2 else cn[0])
        kids.append([hn.get(i, ctx.names[i]) for i in range(base)] + cn)
    lines.append(f"rcases {hor} with {' | '.join(patterns)}")
    return StepBlock(lines, kids, [target_text] * len(kids))


def _disjunct(j: int, m: int, facts: list[str]) -> str:
    """A proof of the ``j``-th of ``m`` disjuncts ``C₀ ∨ (C₁ ∨ …)`` from the facts of its chain."""
    out = f"⟨{', '.join(facts)}⟩" if len(facts) > 1 else facts[0]
    if j < m - 1:
        out = f"Or.inl {out}"
    for _ in range(j):
        out = f"Or.inr ({out})"
    return out
