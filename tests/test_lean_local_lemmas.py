"""Issue 29 item 3: a rendered file imports Mathlib alone.

Our catalogue lemmas (``Prover.Lemmas.*``, proved in lean_project/ProverLemmas in the subset the
replay model checks) are stated and proved inside the rendered proof as ``have prover_<name>``;
``--in-place`` and ``prover lean fill`` never write a proof that cites a name from a module the
file does not import. All checks here are the replay model's (a model of Lean, not Lean).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prover.ir import Proof
from prover.lean.in_place import InPlaceError, insert_proof, missing_imports, write_in_place
from prover.lean.render import render_proof
from prover.lean.render.local_lemmas import library, local_lemma_lines
from prover.lean.replay import replay_file, replay_text

ROOT = Path(__file__).resolve().parents[1]
PROVER_LEMMAS = sorted((ROOT / "lean_project" / "ProverLemmas").glob("*.lean"))
SAVED = ROOT / "tests" / "data" / "saved_proofs"
#: a saved proof whose scale step applies the Lean-trusted catalogue lemma ``qm_am2_sqrt``
QM_AM = SAVED / "issue16-composed-60s" / "proofs" / "composed__qm_am.json"
QM_AM_STATEMENT = "theorem qm_am {a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : (a + b) / 2 ≤ Real.sqrt ((a ^ 2 + b ^ 2) / 2)"


def _imports(text: str) -> list[str]:
    return re.findall(r"^import\s+(\S+)", text, re.MULTILINE)


@pytest.mark.parametrize("path", PROVER_LEMMAS, ids=[p.name for p in PROVER_LEMMAS])
def test_each_prover_lemmas_file_passes_the_replay_model(path: Path) -> None:
    rep = replay_file(path)
    assert rep.ok, rep.summary()


def _catalogue_local_names() -> list[str]:
    from prover.tactics.catalogue import load_catalogue

    # the ones a scale step cites by name (a kernel-trusted lemma is replayed from its certificate)
    return sorted({lem.lean_name.removeprefix("Prover.Lemmas.") for lem in load_catalogue().values()
                   if lem.lean_name.startswith("Prover.Lemmas.") and not (lem.trust == "kernel" and lem.certificate)})


@pytest.mark.parametrize("real_division", [False, True], ids=["plain", "benchmark-macro"])
def test_every_lemma_the_catalogue_cites_is_stated_and_proved_locally(real_division: bool) -> None:
    """One theorem per catalogue lemma of ours, proved by its local ``have`` (and those it needs):
    the file imports Mathlib alone and passes, with and without the benchmark's division macro."""
    names = _catalogue_local_names()
    assert {"amgm2_sqrt", "amgm3_cbrt", "holder_3x2", "qm_am2_sqrt", "schur1_nonneg", "tangent_sqrt"} <= set(names)
    lib = library()
    header = "import Mathlib\n\nopen Real\n\n"
    if real_division:
        header += "macro_rules | `($x / $y) => `(HDiv.hDiv ($x : ℝ) ($y : ℝ))\n\n"
    for name in names:
        lem = lib[name]
        lines = local_lemma_lines({f"prover_{name}"})
        assert lines[-len(lem.lines()):] == lem.lines()
        statement = lem.statement
        text = (header + f"theorem use_{name} : {statement} := by\n"
                + "\n".join("  " + ln for ln in lines) + f"\n  exact prover_{name}\n")
        assert _imports(text) == ["Mathlib"]
        rep = replay_text(text)
        assert rep.ok, (name, rep.summary())


def test_local_lemmas_bring_the_lemmas_their_proofs_cite_first() -> None:
    lines = local_lemma_lines({"prover_schur1_nonneg", "prover_holder_3x2"})
    heads = [ln.split(" :")[0].removeprefix("have ") for ln in lines if ln.startswith("have prover_")]
    assert heads.index("prover_schur_ordered") < heads.index("prover_schur") < heads.index("prover_schur1_nonneg")
    assert heads.index("prover_cubes_amgm") < heads.index("prover_holder_3x2")
    assert len(heads) == len(set(heads)) == 5
    body = "\n".join(lines)
    assert "Prover.Lemmas" not in body and "linear_combination prover_schur x y z h1 h2 h3" in body


def _qm_am() -> str:
    proof = Proof.from_json(json.loads(QM_AM.read_text(encoding="utf-8")))
    return render_proof(proof)


def test_a_proof_using_a_lean_trusted_lemma_imports_mathlib_alone_and_passes() -> None:
    text = _qm_am()
    assert _imports(text) == ["Mathlib"]
    assert "have prover_qm_am2_sqrt : ∀ x y : ℝ, (x + y) / 2 ≤ Real.sqrt ((x ^ 2 + y ^ 2) / 2) := by" in text
    assert "Prover.Lemmas" not in text
    rep = replay_text(text)
    assert rep.ok, rep.summary()


def test_in_place_into_a_file_with_import_mathlib_alone_passes(tmp_path: Path) -> None:
    """What ``prover prove FILE.lean#qm_am --in-place`` writes (the rendered block put into the
    user's file by ``write_in_place``): the file keeps its one import and passes the model."""
    f = tmp_path / "user.lean"
    original = f"import Mathlib\n\n{QM_AM_STATEMENT} := by\n  sorry\n"
    f.write_text(original, encoding="utf-8")
    backup = write_in_place(f, "qm_am", _qm_am())
    assert backup.read_text(encoding="utf-8") == original
    text = f.read_text(encoding="utf-8")
    assert _imports(text) == ["Mathlib"] and "sorry" not in text and "have prover_qm_am2_sqrt" in text
    rep = replay_file(f)
    assert rep.ok, rep.summary()


def test_a_block_citing_a_name_of_a_module_the_file_lacks_is_refused() -> None:
    """A proof that still cites ``Prover.Lemmas.*`` (e.g. rendered by an older prover) is not
    written into a file without ``import ProverLemmas``: one line, nothing written."""
    old = ("import Mathlib\n\ntheorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n    Real.sqrt (a * b) ≤ (a + b) / 2 := by\n"
           "  linear_combination Prover.Lemmas.amgm2_sqrt (a) (b) (by positivity) (by positivity)\n")
    src = "import Mathlib\n\ntheorem t (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n    Real.sqrt (a * b) ≤ (a + b) / 2 := by\n  sorry\n"
    assert missing_imports(src, old) == ["ProverLemmas"]
    with pytest.raises(InPlaceError, match=r"needs `import ProverLemmas`, which the file does not have") as exc:
        insert_proof(src, "t", old)
    assert "\n" not in str(exc.value)
    assert missing_imports("import Mathlib\nimport ProverLemmas\n" + src.split("\n", 1)[1], old) == []
    # a mention in a comment is not a use
    assert missing_imports(src, old.replace("  linear_combination Prover", "  -- Prover")) == []


def test_cli_in_place_of_a_theorem_needing_our_lemma_writes_a_file_that_passes(tmp_path: Path) -> None:
    """The user trial of issue 29: `prover prove FILE.lean#qm_am --in-place` on a file with
    `import Mathlib` alone (the proof applies `qm_am2_sqrt`, one of ours): the written file has no
    other import, states the lemma itself, and `prover lean replay` passes it."""
    from typer.testing import CliRunner

    from prover.cli import app

    f = tmp_path / "user.lean"
    f.write_text(f"import Mathlib\n\n{QM_AM_STATEMENT} := by\n  sorry\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["prove", f"{f}#qm_am", "--in-place", "--time-limit", "120"])
    assert r.exit_code == 0, r.output
    text = f.read_text(encoding="utf-8")
    assert _imports(text) == ["Mathlib"] and "sorry" not in text
    assert "have prover_qm_am2_sqrt" in text and "Prover.Lemmas" not in text
    r = CliRunner().invoke(app, ["lean", "replay", str(f)])
    assert r.exit_code == 0, r.output


CITED = ["amgm2_sqrt", "amgm3_cbrt", "amgm4_root", "holder_3x2", "qm_am2_sqrt", "schur1_nonneg", "tangent_sqrt"]


@pytest.mark.parametrize("name", CITED)
def test_a_scale_step_applying_each_of_our_lemmas_imports_mathlib_alone_and_passes(name: str) -> None:
    """The renderer's own path (a ``scale`` step applying the catalogue lemma at fresh variables):
    the lemma is stated locally, cited by its local name, and the file passes the model."""
    import sympy as sp

    from prover.ir import Goal, Step
    from prover.problem import var
    from prover.tactics.catalogue import load_catalogue
    from tests.lean_golden_cases import close, problem, rel, sos

    cat = load_catalogue()
    lem = cat[name]
    new = [f"u{i}" for i in range(len(lem.variables))]
    sub = {var(v): var(u) for v, u in zip(lem.variables, new)}

    def inst(e):
        return sp.sympify(e).subs(sub, simultaneous=True)

    hyps = [(f"h{i}", rel(inst(r.lhs), r.op, inst(r.rhs))) for i, r in enumerate(lem.side_conditions)]
    p = problem(f"{name}_use", " ".join(new), hyps, rel(inst(lem.lhs), "<=", inst(lem.rhs)))
    g = Goal.from_problem(p)
    g2 = g.with_target(rel(0, "<=", 0))
    cert = {"applications": [{"lemma": name, "instance": dict(zip(lem.variables, new)), "coefficient": "1"}],
            "multiplier": "1", "eq_terms": [], "new_hypotheses": []}
    text = render_proof(Proof(p, Step("scale", g, [g2], cert, [close(g2, sos())])), lemmas=cat.get)
    assert _imports(text) == ["Mathlib"] and "Prover.Lemmas" not in text
    assert f"have prover_{name} : ∀" in text and f"linear_combination prover_{name} " in text
    rep = replay_text(text)
    assert rep.ok, rep.summary()


def test_a_proof_citing_our_library_by_name_is_not_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a step cite ``Prover.Lemmas.*`` by name, the renderer refuses rather than write a file
    that needs `import ProverLemmas`."""
    from prover.lean.render import RenderError

    monkeypatch.setattr("prover.lean.render.scale.local_name", lambda name: None)
    with pytest.raises(RenderError, match="import ProverLemmas"):
        _qm_am()
