"""File-context fuzzing of statements over n terms (prover.semantics.fuzz_context, n-term part): a
statement with ``∑``, ``Fin n``, ``Finset.range n`` inside Lean file context is either refused in one
line or read exactly as Lean reads it there (compared with prover.semantics.nterm's evaluator at points
with n ∈ {0, 1, 2, 3, 5}); where Lean reads something else, or a command before it is not modelled,
it must be refused.

(a) the oracle's name resolution (``Fin``, ``Finset.range``, a short ``range``, ``Real``/``Nat``);
(b) a seeded run through the real front-end: 0 misreadings, 0 crashes, every new context kind met;
(c) the judge catches a context-blind front-end and a wrong reading;
(d) hand-written files for the most dangerous cases (a ``Finset.range`` of the file, ``open Set Finset``,
    ``namespace Finset``, a local ``Finset``, the LIPS macro) through the real front-end.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.semantics import nterm as N
from prover.semantics.fuzz_context import (
    NTERM_SHARE,
    Context,
    ContextReport,
    Expect,
    FileBuilder,
    NWritten,
    Variant,
    _placeholder,
    check_target,
    expect_nterm,
    load_pool,
    make_variant,
    nterm_lean,
    nterm_pool,
    render_nterm,
    resolve_fin,
    resolve_range,
    resolve_type_word,
    run_context_fuzz,
)

FIN_T = ("theorem t (n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i) (hs : ∑ i, a i = n) : "
         "∑ i, a i ^ 2 ≥ n := by sorry")
RANGE_T = ("theorem t (n : ℕ) (a : ℕ → ℝ) (ha : ∀ i ∈ Finset.range n, 0 ≤ a i) : "
           "(∑ i ∈ Finset.range n, a i) ^ 2 ≤ n * ∑ i ∈ Finset.range n, a i ^ 2 := by sorry")


def _default(kind: str) -> str:
    return {"Fin": "Fin", "range": "Finset.range", "Nat": "ℕ", "Real": "ℝ"}[kind]


def _nwritten(lean: str, *, range_spelling: str = "Finset.range", name: str = "t") -> NWritten:
    """The statement ``lean`` (read by the reference reader) written with ``range_spelling`` for
    ``Finset.range``."""
    stmt = replace(N.read_nterm(lean), name=name)
    choose = (lambda k: range_spelling if k == "range" else _default(k))
    text, uses, shadows = render_nterm(stmt, name, random.Random(0), choose=choose)
    text = text.split(":=")[0] + ":= by sorry"
    return NWritten(name, _placeholder(name), text, {}, (), (), stmt, uses, shadows)


def _file(*steps, w: NWritten, extra_opens: tuple[str, ...] = (), prefix: str = "", after=()) -> tuple[str, Expect]:
    b = FileBuilder()
    for s in steps:
        s(b)
    b.theorem(w, extra_opens, prefix)
    for s in after:
        s(b)
    text, targets = b.finish()
    return text, targets[0][1]


def emit(text: str):
    return lambda b: b.emit(text)


def push(kind: str, name: str = ""):
    return lambda b: b.push(kind, name)


def declare(name: str):
    def step(b: FileBuilder) -> None:
        b.emit(f"theorem {name} : (1 : ℝ) ≤ 2 := by norm_num")
        b.declare(name)
    return step


def pop():
    return lambda b: b.pop()


def unmodelled(text: str):
    return lambda b: b.unmodelled_command(text)


def opens(*names: str, scoped: bool = False):
    return lambda b: b.open(names, scoped=scoped)


def _judge(text: str, w: NWritten, e: Expect, parse=None) -> ContextReport:
    report = ContextReport(seed=0, points=5)
    check_target(Variant(0, "test", text, [(w, e)], ["test"]), w, e, 5, report,
                 parse or (lambda t, n: parse_theorem(t, real_division=False, name=n)))
    return report


def _ok(report: ContextReport) -> None:
    assert report.failures == 0, json.dumps(report.to_json(3)["examples"], ensure_ascii=False)[:3000]


# ---------------------------------------------------------------- (a) the oracle


def test_fin_resolution() -> None:
    assert resolve_fin("Fin", Context())[0] == "real"
    assert resolve_fin("_root_.Fin", Context(declared=("Foo.Fin",), namespace=("Foo",)))[0] == "real"
    assert resolve_fin("Fin", Context(), shadowed=True)[0] == "refuse"                  # (Fin : ℝ) before
    assert resolve_fin("Fin", Context(namespace=("Foo",), declared=("Foo.Fin",)))[0] == "refuse"
    assert resolve_fin("Fin", Context(declared=("Fin",)))[0] == "real"                  # rejected: core's stays
    assert resolve_fin("Fin", Context(opens=("Finset", "Set"), namespace=("Finset",)))[0] == "real"
    assert resolve_fin("Fin", Context(opens=("Set",), declared=("Set.Fin",)))[0] == "unknown"   # overload


def test_range_resolution() -> None:
    ctx = Context()
    assert resolve_range("Finset.range", ctx)[0] == "real"
    assert resolve_range("range", ctx)[0] == "refuse"                                      # unknown identifier
    assert resolve_range("range", Context(opens=("Finset",)))[0] == "real"
    assert resolve_range("range", Context(opens=("Real", "Finset")))[0] == "real"
    assert resolve_range("range", Context(opens=("Set",)))[0] == "refuse"                  # Set.range
    assert resolve_range("range", Context(opens=("Set", "Finset")))[0] == "unknown"        # overloaded
    assert resolve_range("range", Context(opens=("Nat", "Finset")))[0] == "unknown"        # Nat: not charted
    assert resolve_range("range", Context(namespace=("Finset",)))[0] == "real"
    assert resolve_range("range", Context(namespace=("Set",), opens=("Finset",)))[0] == "refuse"
    assert resolve_range("range", Context(namespace=("Foo",), opens=("Finset",), declared=("Foo.range",)))[0] \
        == "refuse"
    assert resolve_range("range", Context(opens=("Finset",), declared=("range",)))[0] == "unknown"
    assert resolve_range("range", Context(opens=("Finset",), declared=("Finset.range",)))[0] == "real"
    # `Finset.range`: a file's `W.Finset.range` on the namespace walk wins; a local `Finset` too
    assert resolve_range("Finset.range", Context(namespace=("Foo",), declared=("Foo.Finset.range",)))[0] == "refuse"
    assert resolve_range("Finset.range", Context(namespace=("Finset",), declared=("Finset.Finset.range",)))[0] \
        == "refuse"
    assert resolve_range("Finset.range", Context(namespace=("Finset",), declared=("Finset.range",)))[0] == "real"
    assert resolve_range("Finset.range", Context(declared=("Foo.Finset.range",)))[0] == "real"
    assert resolve_range("Finset.range", Context(opens=("Set", "Finset")))[0] == "real"
    assert resolve_range("Finset.range", ctx, shadowed=True)[0] == "refuse"
    assert resolve_range("_root_.Finset.range", Context(namespace=("Foo",), declared=("Foo.Finset.range",)))[0] \
        == "real"
    assert resolve_type_word("Real", Context(namespace=("Foo",), declared=("Foo.Real",)))[0] == "refuse"
    assert resolve_type_word("Nat", Context(namespace=("Finset",)))[0] == "real"


def test_expectations_of_whole_files() -> None:
    w = _nwritten(RANGE_T)
    assert [u[1:] for u in w.uses] == [("range", "Finset.range")] * 3, w.uses
    assert _file(w=w)[1] == Expect("meaning")
    assert _file(opens("Set", "Finset"), w=w)[1] == Expect("meaning")
    assert _file(push("namespace", "Finset"), w=w)[1] == Expect("meaning")
    assert _file(push("namespace", "Finset"), declare("Finset.range"), w=w)[1].outcome == "refuse"
    assert _file(push("namespace", "Foo"), declare("Finset.range"), w=w)[1].outcome == "refuse"
    assert _file(push("namespace", "Foo"), declare("Finset.range"), pop(), w=w)[1] == Expect("meaning")
    assert _file(unmodelled("def Finset.range (n : ℕ) : Finset ℕ := ∅"), w=w)[1].outcome == "refuse"
    assert _file(unmodelled("variable (n : ℕ)"), w=w)[1].outcome == "refuse"
    assert _file(lambda b: b.macro(), w=w)[1] == Expect("meaning", True)
    short = _nwritten(RANGE_T, range_spelling="range")
    assert _file(w=short)[1].outcome == "refuse"
    assert _file(opens("Finset"), w=short)[1] == Expect("meaning")
    assert _file(w=short, extra_opens=("Finset",), prefix="open Finset in\n")[1] == Expect("meaning")
    assert _file(opens("Set"), w=short)[1].outcome == "refuse"
    assert _file(opens("Set", "Finset"), w=short)[1].outcome == "unknown"
    # a local `Finset` before a use: Lean reads `Finset.range` as a field of it (the goal's uses too)
    for lean, at, outcome in ((RANGE_T, 1, "refuse"), (RANGE_T, 3, "refuse"), (FIN_T, 1, "meaning")):
        base = N.read_nterm(lean)
        items = list(base.items)
        stmt = N.NStatement("t", tuple(items[:at] + [N.Binder(("Finset",), "ℝ")] + items[at:]), base.goal)
        text, uses, shadows = render_nterm(stmt, "t", random.Random(0))
        local = NWritten("t", w.stmt, text, {}, (), (), stmt, uses, shadows)
        assert expect_nterm(local, Context()).outcome == outcome, text


def test_macro_changes_lean_reading() -> None:
    w = _nwritten("theorem t (n : ℕ) (a : Fin n → ℝ) : ∑ i, a i ^ (1 / 2) ≤ n := by sorry")
    plain, lips = nterm_lean(w, False), nterm_lean(w, True)
    assert plain != lips
    point = N.NPoint(2, {"a": (4, 9)}, {})
    assert N.evaluate(plain, point).goal.lhs.contains(2)          # a i ^ 0
    assert N.evaluate(lips, point).goal.lhs.contains(5)           # √4 + √9


# ---------------------------------------------------------------- (b) a seeded run

#: context kinds the n-term part adds (wrapper prefixes): each must occur in the seeded run
NEW_KINDS = (
    "item:nterm_open_Finset", "item:nterm_open_Set", "item:nterm_open_Set_Finset", "item:nterm_open_BigOperators",
    "item:nterm_open_scoped_BigOperators", "item:nterm_decl_", "item:nterm_closed_namespace_Finset",
    "item:nterm_decoy_", "item:nterm_aux_", "item:unmodelled:variable_n", "item:unmodelled:local_notation_sum",
    "nterm_scope:decl_Fin_in_Foo", "nterm_scope:decl_range_in_Foo", "nterm_scope:decl_Finset_range_in_Finset",
    "nterm_scope:def_Fin_in_", "nterm_scope:def_Finset_range_in_", "nterm_scope:namespace_Finset",
    "nterm_scope:unmodelled_variable", "nterm_scope:unmodelled_", "enclose:namespace_Finset",
    "prefix:nterm_open_Finset_in", "prefix:nterm_open_Set_Finset_in", "prefix:nterm_open_scoped_BigOperators_in",
    "rewrite:nterm_range_short", "rewrite:nterm_range_root", "rewrite:nterm_range_mixed", "rewrite:nterm_forall_lt",
    "rewrite:nterm_sum_in", "rewrite:nterm_sum_fin", "rewrite:nterm_fin_root", "rewrite:nterm_binder_Fin",
    "rewrite:nterm_binder_Finset", "rewrite:nterm_hyp_named_Finset", "rewrite:nterm_family_named_range",
    "rewrite:nterm_type_words", "rewrite:nterm_inject_pi", "header:lips", "base:nvar", "base:nterm_generated",
)


def test_seeded_nterm_run_has_no_misreading_and_covers_the_contexts() -> None:
    seed = 11
    report = run_context_fuzz(500, seed=seed, points=3, pool=nterm_pool(seed))
    summary = report.to_json(max_examples=5)
    nt = report.nterm
    assert nt["checks"] == report.checks >= 500
    assert nt["accepted"] > 60 and nt["compared"] == nt["accepted"] and nt["pairs"] > 300
    assert nt["empty_sum_pairs"] > 20 and nt["refused_where_expected"] == nt["must_refuse"] > 150
    assert report.misreadings == [] and report.crashes == [] and report.failures == 0, \
        json.dumps(summary["examples"], indent=1, ensure_ascii=False)[:6000]
    seen = summary["per_wrapper"]
    for kind in NEW_KINDS:
        assert any(w.startswith(kind) for w in seen), kind
    # π in a body was read where Lean reads it as Real.pi
    assert seen["rewrite:nterm_inject_pi"].get("accepted", 0) > 0
    assert seen["enclose:namespace_Finset"].get("meaning", 0) > 0


def test_the_full_pool_asks_statements_over_n_terms() -> None:
    pool = load_pool(0)
    assert pool.nterm_share == NTERM_SHARE and len(pool.nvar) >= 60 and not pool.skipped.get("nvar")
    a, b = make_variant(5, 2, pool), make_variant(5, 2, pool)
    assert a.text == b.text and a.wrappers == b.wrappers
    sources = [make_variant(i, 0, pool).source for i in range(200)]
    assert 10 < sum(s.startswith(("nvar:", "nterm_generated:")) for s in sources) < 60


# ---------------------------------------------------------------- (c) the judge is sensitive


def _context_blind(text: str, name: str):
    """A front-end that reads the theorem alone, under `import Mathlib` (the file's context ignored)."""
    start = text.index(f"theorem {name} ") if f"theorem {name} " in text else text.index(f"lemma {name} ")
    body = text[start:].split("\n\n")[0]
    return parse_theorem("import Mathlib\n" + body, real_division="macro_rules" in text, name=name)


def test_the_judge_catches_a_context_blind_front_end() -> None:
    report = run_context_fuzz(150, seed=3, points=2, pool=nterm_pool(3), parse=_context_blind)
    assert "accepted_must_refuse" in {f.kind for f in report.misreadings}


def test_the_judge_catches_a_wrong_reading() -> None:
    def flipped(text: str, name: str):
        p = parse_theorem(text, real_division=False, name=name)
        st = p.nterm.statement
        g = st.statement.goal
        wrong = replace(g, op={">=": "<", "<=": ">", ">": "<=", "<": ">=", "=": "!=", "!=": "="}[g.op])
        return replace(p, nterm=replace(p.nterm, statement=replace(st, statement=replace(st.statement, goal=wrong))))

    text, e = _file(emit("import Mathlib"), w=_nwritten(FIN_T))
    report = _judge(text, _nwritten(FIN_T), e, parse=flipped)
    assert [f.kind for f in report.misreadings] == ["misreading"]


# ---------------------------------------------------------------- (d) the dangerous files, real front-end


@pytest.mark.parametrize("steps", [
    (emit("import Mathlib"), unmodelled("def Finset.range (n : ℕ) : Finset ℕ := Finset.range (n + 1)")),
    (emit("import Mathlib"), push("namespace", "Foo"),
     unmodelled("def Finset.range (n : ℕ) : Finset ℕ := Finset.range (n + 1)")),
    (emit("import Mathlib"), push("namespace", "Foo"), declare("Finset.range")),
    (emit("import Mathlib"), push("namespace", "Finset"), declare("Finset.range")),
    (emit("import Mathlib"), push("namespace", "Foo"), unmodelled("abbrev range (n : ℕ) : Finset ℕ := ∅")),
    (emit("import Mathlib"), unmodelled('local notation "∑" x ", " f => f')),
    (emit("import Mathlib"), unmodelled("macro_rules | `(∑ $x:ident, $f) => `(0)")),
    (emit("import Mathlib"), unmodelled("variable (n : ℕ)")),
    (emit("import Mathlib"), unmodelled("export Finset (range)")),
])
def test_a_file_that_redefines_the_names_is_refused(steps) -> None:
    w = _nwritten(RANGE_T)
    text, e = _file(*steps, w=w)
    assert e.outcome == "refuse", (text, e)
    report = _judge(text, w, e)
    _ok(report)
    assert report.refused_where_expected == 1, text


@pytest.mark.parametrize("steps,prefix,opened", [
    ((emit("import Mathlib"), opens("Set", "Finset")), "", ()),
    ((emit("import Mathlib"), opens("Finset")), "", ()),
    ((emit("import Mathlib"),), "open Set Finset in\n", ("Set", "Finset")),
    ((emit("import Mathlib"), push("section", "S"), opens("Finset"), pop()), "", ()),
    ((emit("import Mathlib"), push("namespace", "Finset"), opens("Set"), pop()), "", ()),
    ((emit("import Mathlib"), opens("BigOperators")), "", ()),
    ((emit("import Mathlib"), opens("BigOperators", scoped=True)), "", ()),
    ((emit("import Mathlib"), opens("BigOperators", "Real", "Nat", "Topology", "Rat")), "", ()),
    ((emit("import Mathlib"), push("namespace", "Finset")), "", ()),
    ((emit("import Mathlib"), push("namespace", "Finset"), declare("range")), "", ()),   # rejected by Lean
    ((emit("import Mathlib"), push("namespace", "Set")), "", ()),
    ((emit("import Mathlib"), push("namespace", "Nat"), declare("range")), "", ()),
    ((emit("import Mathlib"), emit("-- theorem t (n : ℕ) (a : Fin n → ℝ) : ∑ i, a i < 0 := by sorry\n"
                                   '/- local notation "∑" x ", " f => f -/')), "", ()),
])
def test_a_file_where_lean_reads_the_plain_statement(steps, prefix, opened) -> None:
    for lean in (RANGE_T, RANGE_T.replace("∑ i ∈ Finset", "∑ i in Finset"), FIN_T):
        w = _nwritten(lean)
        text, e = _file(*steps, w=w, extra_opens=opened, prefix=prefix)
        assert e == Expect("meaning"), (text, e)
        _ok(_judge(text, w, e))


def test_inside_namespace_finset_the_front_end_reads_it_right() -> None:
    for lean in (RANGE_T, FIN_T):
        w = _nwritten(lean)
        text, e = _file(emit("import Mathlib"), push("namespace", "Finset"), w=w)
        report = _judge(text, w, e)
        _ok(report)
        assert report.accepted == 1 and report.pairs >= 4, text


def test_the_macro_is_read_inside_sums() -> None:
    lean = "theorem t (n : ℕ) (a : Fin n → ℝ) (ha : ∀ i, 0 ≤ a i) : ∑ i, a i ^ (1 / 2) ≤ ∑ i, (a i + 1) := by sorry"
    w = _nwritten(lean)
    text, e = _file(emit("import Mathlib\nopen Real"), lambda b: b.macro(), w=w)
    assert e == Expect("meaning", True)
    report = _judge(text, w, e)
    _ok(report)
    assert report.accepted == 1 and report.pairs >= 4
    text, e = _file(emit("import Mathlib"), push("section"), lambda b: b.macro(local=True), pop(), w=w)
    assert e == Expect("meaning", False)
    _ok(_judge(text, w, e))


def test_a_local_finset_or_fin_binder() -> None:
    before = RANGE_T.replace("(a : ℕ → ℝ)", "(Finset : ℝ) (a : ℕ → ℝ)")
    with pytest.raises(ParseError) as exc:
        parse_theorem(before, name="t")
    assert "\n" not in str(exc.value)
    with pytest.raises(ParseError):
        parse_theorem(FIN_T.replace("(a : Fin n", "(Fin : ℝ) (a : Fin n"), name="t")
    after = ("theorem t (n : ℕ) (a : ℕ → ℝ) (h : ∑ i ∈ Finset.range n, a i = 1) (Finset : ℝ) : "
             "∑ i ∈ Finset.range n, a i ≥ Finset := by sorry")
    with pytest.raises(ParseError):          # the goal's `Finset.range` is a field of the local
        parse_theorem(after, name="t")
