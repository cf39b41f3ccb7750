"""Differential fuzzing of statements over n terms (prover.semantics.fuzz_nterm): a seeded run through the
real front-end finds no misreading and no crash (statements it does not read are refusals), a front-end
that refuses everything is fine, and front-ends that misread (the body of ∑ parsed at the wrong
precedence, a per-index hypothesis weakened, a must-refuse construct accepted) are caught."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from prover.frontend.errors import ParseError
from prover.frontend.statement import parse_theorem
from prover.kernel import terms as T
from prover.semantics import nterm as N
from prover.semantics.fuzz_nterm import (
    REFUSAL_TRAPS,
    NTermGenerator,
    NTermReport,
    check_nterm,
    run_nterm_fuzz,
)

SEED = 2024


def _summary(report: NTermReport) -> str:
    return json.dumps(report.to_json(max_examples=3), indent=1, ensure_ascii=False, default=str)


# ---------------------------------------------------------------- the real front-end


def test_seeded_run_through_the_frontend() -> None:
    """Seeded and bounded by work (400 statements, 6 points each), not by a clock."""
    report = run_nterm_fuzz(400, 6, seed=SEED)
    assert not report.misreadings, _summary(report)
    assert not report.crashes and not report.multi_line_errors and not report.shape_mismatches, _summary(report)
    assert not report.accepted_must_refuse, report.accepted_must_refuse[:3]
    assert report.statements == 400 and report.must_refuse > 40
    assert report.refused >= report.refused_where_expected > 0
    assert report.accepted + report.refused == 400 - len(report.crashes)
    if report.accepted > report.must_refuse:    # the front-end reads n-term statements: they were compared
        assert report.pairs > 500 and report.empty_sum_pairs > 50 and report.index_comparisons > 100


def test_sqrt_of_a_family_application_is_refused() -> None:
    """`√` is `prefix:max`: `√a i` is `(√a) i` in Lean, an error (found by this fuzzer); also for a
    function variable (`√f x`)."""
    with pytest.raises(ParseError):
        parse_theorem("theorem t (n : ℕ) (a : Fin n → ℝ) : ∑ i, √a i ≥ 0 := by sorry")
    with pytest.raises(ParseError):
        parse_theorem("theorem t (f : ℝ → ℝ) (h : ∀ x, f x = x - 4) (x : ℝ) : √f x ≥ 1 := by sorry")


def test_a_frontend_that_refuses_everything_is_fine() -> None:
    def refuse(text: str) -> Any:
        raise ParseError("statements over n terms are not supported")

    report = run_nterm_fuzz(60, 4, seed=SEED, parse=refuse)
    assert report.failures == 0 and report.refused == 60 and report.accepted == 0 and report.pairs == 0


# ---------------------------------------------------------------- the fuzzer catches misreadings


def _reference(body_prec: int = N.BODY_PREC, check: bool = True, mutate=None):
    """A front-end built from the independent reader: faithful with the defaults."""

    def parse(text: str) -> Any:
        stmt = N.read_nterm(text, body_prec)
        try:
            if not check:
                why = N.refusal(stmt)
                if why is not None and why.category in ("with filter", "∑ i < n", "product"):
                    stmt = _strip_big_traps(stmt)
            reading = N.reference_reading(stmt, check)
        except (N.Refusal, N.Unsupported, KeyError) as exc:
            raise ParseError(str(exc).replace("\n", " ")) from None
        if mutate is not None:
            reading = mutate(reading)
        return SimpleNamespace(nterm=SimpleNamespace(statement=reading))

    return parse


def _strip_big_traps(stmt: N.NStatement) -> N.NStatement:
    """``∏``, ``with`` and ``∑ i < n`` read as plain sums over the index set (what a careless reader does)."""
    def go(e: N.LExpr) -> N.LExpr:
        args = tuple(go(x) for x in e.args)
        if e.kind in ("sum", "prod"):
            p = N.big_parts(N.LExpr(e.kind, args, e.value))
            style = "mem" if p.style == "lt" else p.style
            return N.big(style, p.index, p.bound, p.body)
        return N.LExpr(e.kind, args, e.value) if args else e

    def rel(r: N.LRel) -> N.LRel:
        return N.LRel(r.op, go(r.lhs), go(r.rhs))

    items = [N.LHyp(h.name, tuple(map(rel, h.parts))) if isinstance(h, N.LHyp) else h for h in stmt.items]
    return N.NStatement(stmt.name, tuple(items), rel(stmt.goal))


def test_the_faithful_reference_has_no_misreading() -> None:
    report = run_nterm_fuzz(250, 6, seed=SEED, parse=_reference())
    assert report.failures == 0, _summary(report)
    assert report.accepted > 120 and report.pairs > 600 and report.empty_sum_pairs > 80
    assert report.comparisons > 1000 and report.index_comparisons > 200
    assert report.refused_where_expected == report.must_refuse > 30


def test_a_body_read_at_the_wrong_precedence_is_caught() -> None:
    report = run_nterm_fuzz(250, 6, seed=SEED, parse=_reference(body_prec=0))
    assert report.misreadings, _summary(report)
    texts = {m.statement for m in report.misreadings}
    assert any("+" in t or "-" in t for t in texts)


def test_a_weakened_index_hypothesis_is_caught() -> None:
    def weaken(reading: Any) -> Any:
        loose = {"<": "<=", ">": ">="}
        hyps = tuple(T.Rel(r.lhs, loose.get(r.op, r.op), r.rhs) for r in reading.index_hypotheses)
        return replace(reading, index_hypotheses=hyps)

    report = run_nterm_fuzz(250, 6, seed=SEED, parse=_reference(mutate=weaken))
    index = [m for m in report.misreadings if m.relation.startswith("∀")]
    assert index and not any(m.unsound for m in index), _summary(report)   # weaker: Lean false, front-end true


def test_an_equivalent_reading_passes_and_an_off_by_one_n_is_caught() -> None:
    def absolute(reading: Any) -> Any:   # n read as |n| in the goal: the same value (n ≥ 0)
        st = reading.statement
        to = {reading.n: T.Fn("abs", T.Var(reading.n))}
        goal = T.Rel(T.substitute(st.goal.lhs, to), st.goal.op, T.substitute(st.goal.rhs, to))
        return replace(reading, statement=replace(st, goal=goal))

    report = run_nterm_fuzz(120, 4, seed=SEED, parse=_reference(mutate=absolute))
    assert report.failures == 0, _summary(report)

    def off_by_one(reading: Any) -> Any:
        st = reading.statement
        m = T.sub(T.Var(reading.n), T.Num(1))
        goal = T.Rel(T.substitute(st.goal.lhs, {reading.n: m}), st.goal.op, T.substitute(st.goal.rhs, {reading.n: m}))
        return replace(reading, statement=replace(st, goal=goal))

    report = run_nterm_fuzz(250, 6, seed=SEED, parse=_reference(mutate=off_by_one))
    assert report.misreadings, _summary(report)


def test_accepting_what_must_be_refused_is_caught() -> None:
    report = run_nterm_fuzz(250, 4, seed=SEED, parse=_reference(check=False))
    assert report.accepted_must_refuse, _summary(report)
    assert report.failures >= len(report.accepted_must_refuse)


def test_crashes_and_multi_line_errors_are_counted() -> None:
    gen = NTermGenerator(SEED)
    stmt, info = gen.statement(0)
    report = NTermReport(0)

    def crash(text: str) -> Any:
        raise RuntimeError("boom")

    def two_lines(text: str) -> Any:
        raise ParseError("first line\nsecond line")

    check_nterm(0, stmt, info, 2, report, crash)
    check_nterm(1, stmt, info, 2, report, two_lines)
    assert len(report.crashes) == 1 and len(report.multi_line_errors) == 1 and report.failures == 2


def test_generator_plants_every_trap_and_n_zero() -> None:
    gen = NTermGenerator(SEED)
    stmts = [gen.statement(k) for k in range(600)]
    texts = "\n".join(N.show_statement(s) for s, _ in stmts)
    planted = {info["trap"] for _, info in stmts if "trap" in info}
    assert planted == set(REFUSAL_TRAPS)
    F, I = "[abuvwxy]", "[ijk]"   # a family, an index
    for trap in (rf"∑ {I}, {F} {I} \+ 1", rf"∑ {I}, \({F} {I} \+ 1\)", rf"\* ∑ {I}, {F} {I} \^ 2",
                 rf"\(∑ {I}, {F} {I}\) \^ 2", rf"∑ {I}, -{F} {I}", rf"\(∑ {I}, {F} {I}\) \*", rf"∑ {I}, {F} {I} / {F} {I}",
                 rf"∑ {I}, \({F} {I} - {F} {I}\)", rf"∑ {I} in Finset\.range n,", rf"∑ {I} ∈ Finset\.range n,",
                 rf"∑ {I} : Fin n,", rf"∀ {I} ∈ Finset\.range n,", rf"∀ {I} : Fin n,", rf"∀ {I}, ", r"\(n : ℝ\)",
                 r"2 \* n", r"[^(]n - 1", r"n / 2", r"\(\(n - 1 : ℕ\) : ℝ\)", r": 0 < n\)", r": n ≠ 0\)", r": 2 ≤ n\)",
                 rf"√\({F} {I}\)", rf"Real\.sqrt \({F} {I}\)", rf"\({F} {I}\)⁻¹", r"/ 0[^.]", rf"√{F} {I}",
                 rf"{F} {I}⁻¹", rf"{F} \({I} \+ 1\)", "∏", " with ", rf"∑ {I} < n", " ∧ ", rf"{F} {I} \^ \(1 / 2\)",
                 rf"∑ {I}[^,]*, {F} {I} [/*] ∑ {I}", r"\|[a-z] [ijk]\|"):
        assert re.search(trap, texts), trap
    no_hyp_on_n = [s for s, _ in stmts if not any(isinstance(h, N.LHyp) and any(
        x.kind == "nvar" for r in h.parts for side in (r.lhs, r.rhs) for x in N.subterms(side)) for h in s.items)]
    assert len(no_hyp_on_n) > 150   # n = 0 is allowed there (and then generated: points_for)
