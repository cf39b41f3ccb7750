"""The family suite ``benchmarks/composed.jsonl`` (made by ``benchmarks/make_composed.py``) and the
"proved by kind" table of ``prover eval``'s summary (seeds and variants reported separately)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from prover.benchmark_problem import load_problem
from prover.eval.runner import EvalConfig, run_eval
from prover.eval.summary import kind_data, summary_data, summary_markdown
from prover.eval.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "benchmarks" / "composed.jsonl"
MAKER = ROOT / "benchmarks" / "make_composed.py"
FAKES = Path(__file__).with_name("eval_fakes.py")
KINDS = ("seed", "type1", "type2")


def lines() -> list[dict]:
    return [json.loads(x) for x in SUITE.read_text(encoding="utf-8").splitlines() if x.strip()]


def maker():
    spec = importlib.util.spec_from_file_location("make_composed", MAKER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up while being defined
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- the file


def test_the_suite_has_enough_lines_with_unique_ids_and_the_benchmark_fields():
    recs = lines()
    assert len(recs) >= 66
    ids = [r["id"] for r in recs]
    assert len(set(ids)) == len(ids)
    names = [r["lean"].split()[1] for r in recs]
    assert len(set(names)) == len(names)
    for r in recs:
        assert r["id"] == f"composed/{r['lean'].split()[1]}" and r["source"] == "composed"
        assert r["lean"].startswith("theorem ") and r["lean"].endswith(" := by sorry")
        assert len(r["hypotheses"]) == len(r["hypothesis_names"])
        assert r["goal"] in r["lean"] and all(h in r["lean"] for h in r["hypotheses"])
        assert isinstance(r["transform"], str) and r["transform"]


def test_every_line_loads_through_the_eval_path():
    tasks = load_tasks([SUITE], on_skip=lambda s: pytest.fail(f"skipped line: {s}"))
    assert len(tasks) == len(lines()) and {t.dataset for t in tasks} == {"composed"}
    for t in tasks:
        p = load_problem(t.record, {})
        assert list(p.variables) == t.record["variables"], t.key
        assert len(p.hypotheses) == len(t.record["hypotheses"]), t.key


def test_kinds_and_families():
    recs = lines()
    kinds = Counter(r["kind"] for r in recs)
    assert set(kinds) == set(KINDS)
    assert 16 <= kinds["seed"] <= 22 and kinds["type1"] >= 20 and kinds["type2"] >= 10
    assert 0.2 <= kinds["seed"] / len(recs) <= 0.4  # roughly a third seeds, two thirds variants
    seeds = {r["family"] for r in recs if r["kind"] == "seed"}
    assert {r["family"] for r in recs} <= seeds  # every family has its seed
    for r in recs:
        assert r["family"] == r["seeds"][0] and set(r["seeds"]) <= seeds
        assert len(r["seeds"]) == (2 if r["kind"] == "type2" else 1), r["id"]
        if r["kind"] == "seed":
            assert r["id"] == f"composed/{r['family']}" and r["transform"] == "seed"
    assert all(Counter(r["family"] for r in recs)[f] >= 2 for f in seeds)  # no seed without a variant


def test_the_generator_reproduces_the_file_and_its_checks_catch_a_false_statement(tmp_path):
    mod = maker()
    out = tmp_path / "composed.jsonl"
    assert mod.main(["--out", str(out), "--points", "20", "--quiet"]) == 0
    assert out.read_bytes() == SUITE.read_bytes()
    from dataclasses import replace

    wrong = replace(mod.SEED["nesbitt"], small=mod.Q(8, 5))  # Nesbitt with 8/5: false near a = b = c
    with pytest.raises(mod.CheckFailed, match="FALSE at"):
        mod.check_sampled(wrong, 200)


@pytest.mark.parametrize("name", ["nesbitt", "prod1_sq", "wamgm_recip", "recip1_of_nesbitt"])
def test_a_false_variant_can_be_made(name):
    """What ``prover eval --variants false`` attempts instead of the line (generation only)."""
    rec = next(r for r in lines() if r["id"] == f"composed/{name}")
    variant = load_problem(rec, {"variants": "false"})
    assert variant.meta.get("variant_how") and variant.meta.get("counterexample")


# ---------------------------------------------------------------- the summary by kind


def _bench(path: Path, kinds: dict[str, str | None]) -> Path:
    rows = [{"id": i, "lean": "theorem t : (1 : ℝ) ≤ 2 := by sorry", **({"kind": k} if k else {})}
            for i, k in kinds.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_kind_rows_count_proved_per_kind_and_leave_out_known_false(tmp_path):
    bench = _bench(tmp_path / "c.jsonl", {"c/s1": "seed", "c/s2": "seed", "c/v1": "type1", "c/v2": "type1",
                                          "c/v3": "type1", "c/w1": "type2", "c/bad": "type2"})
    ids = ["c/s1", "c/s2", "c/v1", "c/v2", "c/v3", "c/w1", "c/bad"]
    run = {"out": "x", "options": {}, "inputs": [str(bench)], "problems": {"c": ids},
           "known_false": {"c/bad": "false as stated"}}
    st = {"c/s1": "proved", "c/s2": "proved", "c/v1": "proved", "c/v2": "timeout", "c/w1": "not_proved",
          "c/bad": "proved"}  # c/v3 not attempted yet
    recs = {k: {"key": k, "status": s, "time_s": 1.0} for k, s in st.items()}
    rows = {r["kind"]: (r["proved"], r["total"]) for r in summary_data(run, recs)["by_kind"]}
    assert rows == {"seed": (2, 2), "type1": (1, 3), "type2": (0, 1), "all": (3, 6)}
    md = summary_markdown(run, recs)
    assert "Proved by kind" in md
    for row in ("| seed | 2 | 2 | 100.0% |", "| type1 | 1 | 3 | 33.3% |", "| type2 | 0 | 1 | 0.0% |",
                "| **all** | 3 | 6 | 50.0% |"):
        assert row in md
    assert md.index("| seed |") < md.index("| type1 |") < md.index("| type2 |") < md.index("| **all** |")


def test_no_kind_table_without_kinds_or_for_false_variants(tmp_path):
    bench = _bench(tmp_path / "plain.jsonl", {"p/1": None, "p/2": None})
    run = {"out": "x", "options": {}, "inputs": [str(bench)], "problems": {"p": ["p/1", "p/2"]}}
    recs = {"p/1": {"key": "p/1", "status": "proved", "time_s": 1.0}}
    assert "Proved by kind" not in summary_markdown(run, recs) and summary_data(run, recs)["by_kind"] == []
    kinded = {**run, "kinds": {"p/1": "seed"}}  # a run that stores the kinds itself
    assert "| (none) | 0 | 1 | 0.0% |" in summary_markdown(kinded, recs)
    false_mode = {**kinded, "options": {"variants": "false"}}
    assert "Proved by kind" not in summary_markdown(false_mode, recs)
    gone = {**run, "inputs": [str(tmp_path / "moved.jsonl")]}  # input file no longer there
    assert kind_data(gone["problems"], recs, {}, {}) == [] and "Proved by kind" not in summary_markdown(gone, recs)


def test_an_eval_run_writes_the_kind_table_to_summary_md(tmp_path):
    bench = _bench(tmp_path / "toy.jsonl", {"toy/P1": "seed", "toy/P6": "type1", "toy/P7": "type1",
                                            "toy/P8": "type2"})
    cfg = EvalConfig(inputs=[bench], out=tmp_path / "run", attempt=f"{FAKES}:by_name", time_limit=5.0,
                     grace=1.0, workers=1, memory_mb=400, rich_progress=False, argv=["test"])
    run_eval(cfg)  # by_name: P6 raises, the others are "proved"
    md = (tmp_path / "run" / "summary.md").read_text(encoding="utf-8")
    for row in ("| seed | 1 | 1 | 100.0% |", "| type1 | 1 | 2 | 50.0% |", "| type2 | 1 | 1 | 100.0% |",
                "| **all** | 3 | 4 | 75.0% |"):
        assert row in md
