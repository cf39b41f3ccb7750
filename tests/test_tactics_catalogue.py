"""The scaling-lemma catalogue: every entry loads, holds numerically, and every kernel entry's
certificate checks exactly (sympy expansion and the kernel)."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
import sympy as sp

from prover.ir import Goal, Step
from prover.problem import Relation, var
from prover.tactics.catalogue import (
    CatalogueError,
    entry_to_lemma,
    get_lemma,
    lemma_lookup,
    load_catalogue,
    read_file,
)
from prover.tactics.certify_catalogue import expansion_error, generate, lemma_goal

CAT = load_catalogue()
KERNEL = sorted(n for n, lem in CAT.items() if lem.trust == "kernel")


def test_catalogue_covers_the_families():
    assert len(CAT) >= 40
    families = {lem.meta["family"] for lem in CAT.values()}
    assert families >= {"AM-GM", "AM-HM", "QM-AM", "power mean", "Cauchy-Schwarz", "Titu", "Hoelder",
                        "Chebyshev", "rearrangement", "Schur", "Muirhead", "tangent line", "Bernoulli"}
    for lem in CAT.values():
        assert lem.lean_name and lem.equality_case
        assert lem.lean_name.startswith("Prover.Lemmas.") or lem.meta.get("lean_form") in ("exact", "specialize")


def _is_rational_function(e: sp.Expr) -> bool:
    return all(p.exp.is_Integer for p in e.atoms(sp.Pow)) and not e.atoms(sp.Function)


def test_every_polynomial_or_rational_entry_is_kernel_checked():
    lean_only = {n for n, lem in CAT.items()
                 if lem.trust == "lean" and _is_rational_function(lem.lhs) and _is_rational_function(lem.rhs)}
    assert lean_only == {"schur1_nonneg", "holder_3x2"}  # documented: no single close certificate found
    for n in KERNEL:
        assert isinstance(CAT[n].certificate, dict)


# ------------------------------------------------------------------ numerical truth (floats: test only)


def _sample(lem, rng: np.random.Generator, want: int = 200) -> dict[str, np.ndarray]:
    """Points satisfying the side conditions: equalities solved for one variable, the rest by rejection."""
    syms = [var(v) for v in lem.variables]
    solved: dict[sp.Symbol, sp.Expr] = {}
    for sc in lem.side_conditions:
        if sc.op == "=":
            free = [s for s in syms if s in (sc.lhs - sc.rhs).free_symbols and s not in solved]
            target = free[-1]
            solved[target] = sp.solve(sp.Eq(sc.lhs, sc.rhs), target)[0]
    base = [s for s in syms if s not in solved]
    n = 20000
    cols = {}
    for s in base:
        mag = rng.choice([0.3, 1.0, 3.0, 10.0], size=n)
        cols[s] = rng.uniform(-1, 1, size=n) * mag
        if any(sc.op in (">=", ">") and sc.lhs == s and sc.rhs.is_number and sc.rhs >= 0
               for sc in lem.side_conditions):
            cols[s] = np.abs(cols[s])
    for s, e in solved.items():
        cols[s] = sp.lambdify(base, e, "numpy")(*[cols[b] for b in base]) * np.ones(n)
    args = [cols[s] for s in syms]
    ok = np.ones(n, dtype=bool)
    for sc in lem.side_conditions:
        if sc.op == "=":
            continue
        lhs = sp.lambdify(syms, sc.lhs, "numpy")(*args) * np.ones(n)
        rhs = sp.lambdify(syms, sc.rhs, "numpy")(*args) * np.ones(n)
        ok &= {">=": lhs >= rhs, ">": lhs > rhs, "<=": lhs <= rhs, "<": lhs < rhs, "!=": lhs != rhs}[sc.op]
    assert ok.sum() >= want, f"{lem.name}: only {ok.sum()} sample points satisfy the side conditions"
    return {str(s): cols[s][ok] for s in syms}


@pytest.mark.parametrize("name", sorted(CAT))
def test_lemma_holds_numerically(name):
    lem = CAT[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    pts = _sample(lem, rng)
    syms = [var(v) for v in lem.variables]
    args = [pts[v] for v in lem.variables]
    with np.errstate(all="ignore"):
        lhs = sp.lambdify(syms, lem.lhs, "numpy")(*args) * np.ones(len(args[0]))
        rhs = sp.lambdify(syms, lem.rhs, "numpy")(*args) * np.ones(len(args[0]))
    assert len(lhs) >= 200
    assert np.all(np.isfinite(lhs)) and np.all(np.isfinite(rhs))
    bad = lhs > rhs + 1e-9 * (1 + np.abs(rhs))
    assert not bad.any(), f"{name} fails at {[{v: pts[v][i] for v in pts} for i in np.flatnonzero(bad)[:3]]}"


# ------------------------------------------------------------------ exact certificates


@pytest.mark.parametrize("name", KERNEL)
def test_certificate_expands_exactly(name):
    lem = CAT[name]
    assert expansion_error(lemma_goal(lem), lem.certificate) is None


@pytest.mark.parametrize("name", KERNEL)
def test_certificate_passes_the_kernel(name):
    check = pytest.importorskip("prover.kernel.check")
    lem = CAT[name]
    step = Step(kind="close", goal=lemma_goal(lem), subgoals=[], certificate=lem.certificate)
    verdict = check.check_step(step)
    assert verdict.ok, verdict.errors


def test_broken_certificate_is_caught_twice():
    check = pytest.importorskip("prover.kernel.check")
    lem = CAT["amgm3"]
    bad = json.loads(json.dumps(lem.certificate))
    bad["terms"][0]["coeff"] = "1/3"
    assert expansion_error(lemma_goal(lem), bad) is not None
    assert not check.check_step(Step("close", lemma_goal(lem), [], bad)).ok


def test_kernel_accepts_a_scale_step_with_a_catalogue_lemma():
    check = pytest.importorskip("prover.kernel.check")
    a, b = var("a"), var("b")
    goal = Goal(("a", "b"), (), Relation(a**2 + b**2, ">=", 2 * a * b))
    sub = Goal(("a", "b"), (), Relation(sp.Integer(0), ">=", sp.Integer(0)))
    step = Step("scale", goal, [sub], {"applications": [{"lemma": "amgm2", "instance": {"x": "a", "y": "b"},
                                                         "coefficient": "1"}],
                                       "multiplier": "1", "eq_terms": [], "new_hypotheses": []},
                children=[Step("close", sub, [], {"method": "positivity"})])
    verdict = check.check_step(step, lemma_lookup())
    assert verdict.ok, verdict.errors
    assert any("amgm2" in t for t in verdict.trusted_lemmas)


def test_sos_times_sum_generation_reproduces_a_valid_schur_certificate():
    entry = next(e for e in read_file(_path_of("schur1")) if e["name"] == "schur1")
    cert = generate(entry, time_limit=30)
    assert cert is not None
    assert expansion_error(lemma_goal(entry_to_lemma(entry)), cert) is None


def _path_of(name):
    from prover.tactics.catalogue import lemmas_dir

    return lemmas_dir() / CAT[name].meta["source"]


# ------------------------------------------------------------------ loader errors


def test_get_lemma_and_lookup():
    assert get_lemma("titu2").variables == ("x", "y", "a", "b")
    with pytest.raises(KeyError):
        get_lemma("no_such_lemma")
    assert lemma_lookup()("no_such_lemma") is None


def _write(tmp_path, entries):
    (tmp_path / "x.json").write_text(json.dumps({"format": "prover-lemmas", "version": 1, "lemmas": entries}))
    return tmp_path


GOOD = {"name": "t", "family": "f", "variables": ["x"], "side_conditions": ["x >= 0"], "lhs": "0",
        "rhs": "x", "equality_case": "x = 0", "direction": "both", "lean_name": "L", "trust": "lean"}


@pytest.mark.parametrize("change, message", [
    ({"trust": "kernel"}, "needs a certificate"),
    ({"lhs": "0.5"}, "0.5"),
    ({"rhs": "y"}, "unknown name"),
    ({"side_conditions": ["x"]}, "not a relation"),
    ({"direction": "sideways"}, "direction"),
    ({"variables": ["x", "x"]}, "bad variables"),
])
def test_malformed_entries_are_refused(tmp_path, change, message):
    with pytest.raises(CatalogueError, match=message):
        load_catalogue(_write(tmp_path, [{**GOOD, **change}]))


def test_duplicate_names_are_refused(tmp_path):
    with pytest.raises(CatalogueError, match="duplicate"):
        load_catalogue(_write(tmp_path, [GOOD, GOOD]))
    assert list(load_catalogue(_write(tmp_path, [GOOD]))) == ["t"]
