"""The replay baseline names each proof by run and problem id, so datasets in one run stay apart."""

from pathlib import Path

from prover.lean.replay_baseline import _name


def test_same_problem_number_in_two_datasets_gets_two_names():
    a = _name(Path("runs/dev-120s/proofs/chenneq__P17.json"))
    b = _name(Path("runs/dev-120s/proofs/567neq__P17.json"))
    assert a == "dev-120s/chenneq/P17" and b == "dev-120s/567neq/P17"


def test_the_row_cache_reuses_a_row_only_for_the_same_proof_and_code(tmp_path: Path, monkeypatch) -> None:
    from prover.lean import replay_baseline as rb

    src = Path(__file__).parent / "data" / "root_bridges" / "hm_am_10.proof.json"
    proofs = tmp_path / "run-a" / "proofs"
    proofs.mkdir(parents=True)
    f = proofs / "families__hm_am__10.json"
    f.write_bytes(src.read_bytes())
    cache = rb.RowCache(tmp_path / "cache", fingerprint="code-1")
    first = rb.measure([f], cache=cache, jobs=1)["rows"][0]
    assert first["rendered"] and first["report"].ok and len(list((tmp_path / "cache").glob("*.pkl"))) == 1
    # a second baseline over the same proof and code measures nothing: the child is never started
    monkeypatch.setattr(rb, "_child", lambda *a: (_ for _ in ()).throw(AssertionError("measured again")))
    again = rb.measure([f], cache=rb.RowCache(tmp_path / "cache", fingerprint="code-1"), jobs=1)["rows"][0]
    assert again["name"] == first["name"] and again["report"].ok
    # other code, or another proof under the same name, is measured again
    assert rb.RowCache(tmp_path / "cache", fingerprint="code-2").get(f) is None
    f.write_text(src.read_text(encoding="utf-8").replace('"version": 1', '"version": 1 '), encoding="utf-8")
    assert cache.get(f) is None
