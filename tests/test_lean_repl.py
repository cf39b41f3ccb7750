"""Protocol tests of the Lean REPL client, the backends and the verifier against a SCRIPTED
STAND-IN process (tests/fake_lean_repl.py — it speaks the REPL's JSON protocol, it is not Lean),
plus a stand-in ``lean_dojo`` module for the LeanDojo backend. Tests that need a real ``lake``
are in tests/test_lean_project.py and skip without it."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from prover.lean.backend import LeanState, ReplBackend
from prover.lean.repl import LeanRepl, ReplCrash, ReplProtocolError, ReplTimeout
from prover.lean.verify import LeanStepFilter, verify_proof_in_lean
from tests.lean_golden_cases import CASES, LEMMAS

FAKE = [sys.executable, str(Path(__file__).parent / "fake_lean_repl.py")]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "requests.jsonl"


def _repl(log: Path, timeout: float = 5.0, **env: str) -> LeanRepl:
    return LeanRepl(argv=FAKE, timeout=timeout, header="import Mathlib", header_timeout=10,
                    env={"FAKE_REPL_LOG": str(log), **env})


def _requests(log: Path) -> list[dict]:
    return [json.loads(ln) for ln in log.read_text().splitlines()]


def test_normal_replies_reuse_the_header_environment(log: Path) -> None:
    with _repl(log) as repl:
        assert repl.base_env == 0
        r = repl.command("theorem t : 1 = 1 := by sorry")
        assert r.ok and r.sorries[0]["proofState"] == 0
        assert r.messages[0]["data"] == "declaration uses 'sorry'"
        t = repl.tactic("norm_num", 0)
        assert t.ok and t.proof_state == 1 and t.goals == ["⊢ after norm_num"]
        assert repl.tactic("done", 1).goals == []
    reqs = _requests(log)
    assert reqs[0] == {"cmd": "import Mathlib"}
    assert reqs[1]["env"] == 0          # commands build on the imported environment
    assert reqs[2] == {"tactic": "norm_num", "proofState": 0}


def test_lean_errors_are_replies_not_exceptions(log: Path) -> None:
    with _repl(log) as repl:
        bad = repl.command("example : BAD := rfl")
        assert not bad.ok and bad.errors == ["unknown identifier 'BAD'"]
        repl.command("theorem t : True := by sorry")
        failed = repl.tactic("fail here", 0)
        assert not failed.ok and failed.errors[0].startswith("Lean error:")
        unknown = repl.tactic("simp", 99)
        assert unknown.errors == ["Unknown proof state."]
        msg = repl.tactic("errmsg", 0)
        assert not msg.ok and "type mismatch" in msg.errors
        assert repl.restarts == 0


def test_timeout_kills_and_restarts_with_the_header(log: Path) -> None:
    with _repl(log, timeout=1.0) as repl:
        repl.command("theorem t : True := by sorry")
        with pytest.raises(ReplTimeout, match="no reply within 1 s"):
            repl.tactic("hang", 0)
        assert not repl.alive and repl.generation == 1
        r = repl.command("theorem u : True := by sorry")     # restarts, re-imports
        assert r.ok and repl.generation == 2 and repl.restarts == 1
    assert [q for q in _requests(log) if q.get("cmd") == "import Mathlib"].__len__() == 2


def test_crash_is_reported_then_restarted(log: Path) -> None:
    with _repl(log) as repl:
        repl.command("theorem t : True := by sorry")
        with pytest.raises(ReplCrash, match="exited before replying \\(code 3\\)"):
            repl.tactic("crash now", 0)
        assert repl.command("theorem u : True := by sorry").ok
        assert repl.generation == 2


def test_malformed_output_is_a_protocol_error(log: Path) -> None:
    with _repl(log) as repl:
        repl.command("theorem t : True := by sorry")
        with pytest.raises(ReplProtocolError, match="unreadable REPL output"):
            repl.tactic("garbage", 0)
        assert not repl.alive
        assert repl.command("theorem u : True := by sorry").ok


def test_crash_on_start_and_missing_binary(log: Path) -> None:
    with pytest.raises(ReplCrash, match="exited"):
        _repl(log, FAKE_REPL_CRASH_ON_START="1").start()
    with pytest.raises(ReplCrash, match="cannot start"):
        LeanRepl(argv=["/nonexistent/lake", "exe", "repl"]).start()


# ------------------------------------------------------------------ ReplBackend on the stand-in


def test_backend_states_go_stale_after_a_restart(log: Path) -> None:
    backend = ReplBackend(_repl(log, timeout=1.0))
    try:
        opened = backend.open_goal("theorem t (a : ℝ) : 0 ≤ a ^ 2 := by\n  sorry", "open Real")
        assert opened.ok and opened.state.goals[0].startswith("⊢ theorem t")
        ok = backend.run_tactic(opened.state, "positivity_step")
        assert ok.ok and len(ok.state.goals) == 1
        bad = backend.run_tactic(ok.state, "fail")
        assert bad.error_kind == "lean" and "Lean error" in bad.error
        hung = backend.run_tactic(ok.state, "hang")
        assert hung.error_kind == "timeout"
        stale = backend.run_tactic(ok.state, "done")
        assert stale.error_kind == "stale"
        again = backend.open_goal("theorem t (a : ℝ) : 0 ≤ a ^ 2 := by\n  sorry", "open Real")
        assert again.ok and again.state.generation == 2
    finally:
        backend.close()
    preambles = [q for q in _requests(log) if q.get("cmd") == "open Real"]
    assert len(preambles) == 2 and all(q["env"] == 0 for q in preambles)


def test_verify_replays_every_step(log: Path) -> None:
    with ReplBackend(_repl(log)) as backend:
        res = verify_proof_in_lean(CASES["sign_split"](), backend)
    assert res.ok and res.steps_checked == 3
    tactics = [q["tactic"] for q in _requests(log) if "tactic" in q]
    assert tactics[0].startswith("-- split on the sign of a * b")
    assert tactics[1].startswith("-- close") and tactics[2].startswith("-- close")


def test_verify_reports_the_first_failing_step(log: Path) -> None:
    with ReplBackend(_repl(log, FAKE_REPL_REJECT="sq_nonneg (a)) + (sq_nonneg (b))")) as backend:
        res = verify_proof_in_lean(CASES["sign_split"](), backend)
    assert not res.ok and res.failed_step == 2 and res.failed_kind == "close"
    assert "scripted rejection" in res.message


def test_verify_reports_a_goal_count_mismatch(log: Path) -> None:
    with ReplBackend(_repl(log, FAKE_REPL_EXTRA_GOAL="sq_nonneg (a - b)")) as backend:
        res = verify_proof_in_lean(CASES["clear_denominators"](), backend)
    assert not res.ok and res.failed_step == 1
    assert res.message == "Lean left 1 goals, the proof expects 0"
    assert res.lean_goals == ["⊢ unexpected"]


def test_step_filter_prunes_and_counts(log: Path) -> None:
    proof = CASES["sign_split"]()
    with ReplBackend(_repl(log, FAKE_REPL_REJECT="sq_nonneg (a)) + (sq_nonneg (b))")) as backend:
        f = LeanStepFilter(backend, lemmas=LEMMAS.get)
        root = f.root(proof.problem)
        chk = f.check(root, proof.root)
        assert chk.accepted and len(chk.children) == 2
        assert chk.children[1].others == 1 and chk.children[0].others == 1
        first = f.check(chk.children[0], proof.root.children[0])
        second = f.check(chk.children[1], proof.root.children[1])
        assert first.accepted and not second.accepted
    assert f.stats() == {"lean_accepted": 2, "lean_rejected": 1, "lean_errors": 0, "lean_goal_mismatches": 0}


# ------------------------------------------------------------------ LeanDojo backend on a stand-in module


def _fake_lean_dojo() -> types.SimpleNamespace:
    """A STAND-IN for the ``lean_dojo`` module (same names and result classes), not LeanDojo."""

    class TacticState:
        def __init__(self, pp: str, id: int) -> None:
            self.pp, self.id = pp, id

    class ProofFinished:
        def __init__(self, tactic_state_id: int) -> None:
            self.tactic_state_id = tactic_state_id

    class LeanError:
        def __init__(self, error: str) -> None:
            self.error = error

    class ProofGivenUp:
        pass

    class DojoTacticTimeoutError(Exception):
        pass

    class DojoCrashError(Exception):
        pass

    entered: list[str] = []

    class Dojo:
        def __init__(self, thm: object, timeout: int) -> None:
            self.thm, self.timeout = thm, timeout

        def __enter__(self):
            entered.append(self.thm.name)
            return self, TacticState("a : ℝ\n⊢ 0 ≤ a ^ 2", 0)

        def __exit__(self, *exc: object) -> None:
            pass

        def run_tac(self, state: TacticState, tac: str):
            if tac == "positivity":
                return ProofFinished(state.id + 1)
            if tac == "split":
                return TacticState("⊢ A\n\n⊢ B", state.id + 1)
            if tac == "sorry":
                return ProofGivenUp()
            if tac == "hang":
                raise DojoTacticTimeoutError()
            if tac == "crash":
                raise DojoCrashError("EOF")
            return LeanError(f"unknown tactic {tac}")

    class LeanGitRepo:
        @staticmethod
        def from_path(p: str) -> str:
            return p

    class Theorem:
        def __init__(self, repo: str, path: str, name: str) -> None:
            self.repo, self.path, self.name = repo, path, name

    return types.SimpleNamespace(**{c.__name__: c for c in (
        TacticState, ProofFinished, LeanError, ProofGivenUp, DojoTacticTimeoutError, DojoCrashError,
        Dojo, LeanGitRepo, Theorem)}, entered=entered)


def test_dojo_backend_maps_results_and_restarts() -> None:
    from prover.lean.dojo_backend import DojoBackend

    ld = _fake_lean_dojo()
    b = DojoBackend(repo="/repo", file_path="Problems.lean", dojo_module=ld)
    opened = b.open_goal("theorem «sq_nonneg'» (a : ℝ) : 0 ≤ a ^ 2 := by sorry")
    assert opened.ok and ld.entered == ["sq_nonneg'"]
    s0 = opened.state
    assert b.run_tactic(s0, "positivity").state.finished
    assert len(b.run_tactic(s0, "split").state.goals) == 2
    assert b.run_tactic(s0, "nope").error_kind == "lean"
    assert "gave up" in b.run_tactic(s0, "sorry").error
    assert b.run_tactic(s0, "hang").error_kind == "timeout"
    assert b.run_tactic(s0, "positivity").error_kind == "stale"
    assert len(ld.entered) == 2


def test_dojo_backend_needs_configuration_and_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from prover.lean.backend import LeanUnavailable
    from prover.lean.dojo_backend import DojoBackend

    monkeypatch.delenv("PROVER_DOJO_REPO", raising=False)
    with pytest.raises(LeanUnavailable, match="PROVER_DOJO_REPO"):
        DojoBackend(dojo_module=_fake_lean_dojo())
    monkeypatch.setitem(sys.modules, "lean_dojo", None)
    with pytest.raises(LeanUnavailable, match="pip install"):
        DojoBackend(repo="/r", file_path="F.lean")


def test_lean_state_finished() -> None:
    assert LeanState(3, (), 1).finished and not LeanState(3, ("⊢ x",), 1).finished
