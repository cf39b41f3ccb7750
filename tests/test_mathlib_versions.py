"""Mathlib version profiles (``--mathlib TAG``): token-exact renames, toolchains, CLI errors, and
the default profile leaving today's rendering unchanged."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest
from typer.testing import CliRunner

from prover.cli import app
from prover.lean.mathlib_versions import (
    DEFAULT_TAG,
    HEADER_PREFIX,
    PROFILES,
    MathlibProfile,
    UnknownMathlibVersion,
    adapt,
    get_profile,
    known_tags,
    rename_identifiers,
    toolchain_file,
)
from prover.lean.render import HEADER_LINE, MATHLIB_TAG, render_proof
from tests.lean_golden_cases import CASES, LEMMAS

ROOT = Path(__file__).resolve().parent.parent
NESBITT = ("theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : "
           "a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry")
runner = CliRunner()


# --- renaming is token-exact -------------------------------------------------------------------

RENAMES = {"le_div_iff": "le_div_iff₀", "Real.rpow_natCast": "Real.rpow_natCast_new", "sq_nonneg": "sq_nonneg'"}


def test_rename_whole_identifiers_only():
    text = ("have h1 := le_div_iff hc\n"
            "have h2 := le_div_iff₀ hc\n"            # contains the old name as a prefix: untouched
            "have h3 := my_le_div_iff hc\n"          # contains it as a suffix: untouched
            "have h4 := le_div_iff' hc\n"            # primed: another name
            "have h5 := Foo.le_div_iff hc\n"         # a different (namespaced) name
            "have h6 := sq_nonneg_add a\n"
            "linear_combination sq_nonneg (a - b) + (le_div_iff).mp h\n"
            "rw [Real.rpow_natCast, Real.rpow_natCast_foo]\n")
    out = rename_identifiers(text, RENAMES)
    lines = out.splitlines()
    assert lines[0] == "have h1 := le_div_iff₀ hc"
    assert lines[1] == "have h2 := le_div_iff₀ hc"
    assert lines[2] == "have h3 := my_le_div_iff hc"
    assert lines[3] == "have h4 := le_div_iff' hc"
    assert lines[4] == "have h5 := Foo.le_div_iff hc"
    assert lines[5] == "have h6 := sq_nonneg_add a"
    assert lines[6] == "linear_combination sq_nonneg' (a - b) + (le_div_iff₀).mp h"
    assert lines[7] == "rw [Real.rpow_natCast_new, Real.rpow_natCast_foo]"


def test_rename_respects_unicode_identifier_characters():
    # subscripts and Greek letters are identifier characters in Lean: no boundary inside `sq_nonnegₐ`
    text = "exact sq_nonnegₐ x + sq_nonneg x + αsq_nonneg + sq_nonneg\n"
    assert rename_identifiers(text, RENAMES) == "exact sq_nonnegₐ x + sq_nonneg' x + αsq_nonneg + sq_nonneg'\n"


def test_rename_with_empty_map_is_identity():
    text = "theorem t : True := by\n  exact sq_nonneg a\n"
    assert rename_identifiers(text, {}) == text


def test_adapt_sets_header_and_renames_for_a_profile():
    prof = MathlibProfile(tag="v9.9.0", mathlib_commit="0" * 40, lean_toolchain="leanprover/lean4:v9.9.0",
                          renames=MappingProxyType({"sq_nonneg": "sq_nonneg'"}))
    text = HEADER_LINE + "\nimport Mathlib\n\nexample (a : ℝ) : 0 ≤ a ^ 2 := sq_nonneg a\n"
    out = adapt(text, prof)
    first, rest = out.split("\n", 1)
    assert first.startswith(HEADER_PREFIX + "v9.9.0 (lean_project/profiles/v9.9.0/)")
    assert "sq_nonneg' a" in rest and "import Mathlib" in rest


# --- profiles and toolchains -------------------------------------------------------------------

@pytest.mark.parametrize("tag", sorted(PROFILES))
def test_profile_toolchain_matches_tag(tag):
    prof = PROFILES[tag]
    assert prof.tag == tag
    assert prof.lean_toolchain == f"leanprover/lean4:{tag}"
    assert len(prof.mathlib_commit) == 40 and all(c in "0123456789abcdef" for c in prof.mathlib_commit)
    path = toolchain_file(prof, ROOT)
    assert path.is_file(), path
    assert path.read_text(encoding="utf-8").strip() == prof.lean_toolchain


def test_default_profile_is_the_lean_project_pin():
    assert DEFAULT_TAG == MATHLIB_TAG == "v4.16.0"
    prof = get_profile()
    assert (ROOT / "lean_project" / "lean-toolchain").read_text(encoding="utf-8").strip() == prof.lean_toolchain
    manifest = (ROOT / "lean_project" / "lake-manifest.json").read_text(encoding="utf-8")
    assert prof.mathlib_commit in manifest


def test_get_profile_accepts_tag_without_v_and_rejects_unknown():
    assert get_profile("4.16.0").tag == "v4.16.0"
    with pytest.raises(UnknownMathlibVersion) as exc:
        get_profile("v3.0.0")
    msg = str(exc.value)
    assert "\n" not in msg and all(t in msg for t in known_tags())


# --- the default profile leaves today's rendering unchanged ------------------------------------

@pytest.mark.parametrize("name", ["amgm2"])
def test_default_profile_is_identity_on_golden(name):
    text = render_proof(CASES[name](), lemmas=LEMMAS.get)
    assert adapt(text) == text
    assert adapt(text, DEFAULT_TAG) == text
    golden = (Path(__file__).parent / "golden" / f"{name}.lean").read_text(encoding="utf-8")
    assert adapt(text, get_profile(DEFAULT_TAG)) == golden


@pytest.fixture(scope="module")
def nesbitt_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("nesbitt") / "run"
    r = runner.invoke(app, ["prove", NESBITT, "--out", str(out), "--time-limit", "60"])
    assert r.exit_code == 0, r.output
    return out


def test_demo_theorem_default_profile_renders_identically(nesbitt_run):
    from prover.ir import Proof

    proof_json = nesbitt_run / "proof.json"
    today = render_proof(Proof.loads(proof_json.read_text(encoding="utf-8")))
    assert (nesbitt_run / "proof.lean").read_text(encoding="utf-8") == today
    plain = runner.invoke(app, ["lean", "render", str(proof_json)])
    explicit = runner.invoke(app, ["lean", "render", str(proof_json), "--mathlib", DEFAULT_TAG])
    assert plain.exit_code == 0 and explicit.exit_code == 0, plain.output + explicit.output
    assert plain.stdout == explicit.stdout == today


def test_demo_theorem_newest_profile_changes_only_what_it_says(nesbitt_run):
    from prover.ir import Proof

    proof_json = nesbitt_run / "proof.json"
    today = render_proof(Proof.loads(proof_json.read_text(encoding="utf-8")))
    for tag in known_tags():
        prof = PROFILES[tag]
        r = runner.invoke(app, ["lean", "render", str(proof_json), "--mathlib", tag])
        assert r.exit_code == 0, r.output
        first, rest = r.stdout.split("\n", 1)
        assert first.startswith(HEADER_PREFIX + tag)
        assert rest == rename_identifiers(today.split("\n", 1)[1], prof.renames)


# --- CLI: unknown tag → one line, exit 2 -------------------------------------------------------

def _one_error_line(result) -> str:
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_lean_render_unknown_tag_exit_2(tmp_path):
    proof = tmp_path / "proof.json"
    proof.write_text(CASES["amgm2"]().dumps(), encoding="utf-8")
    r = runner.invoke(app, ["lean", "render", str(proof), "--mathlib", "v9.99.0"])
    assert r.exit_code == 2
    line = _one_error_line(r)
    assert "v9.99.0" in line and all(t in line for t in known_tags())


def test_prove_unknown_tag_exit_2_before_search():
    r = runner.invoke(app, ["prove", NESBITT, "--mathlib", "latest", "--time-limit", "5"])
    assert r.exit_code == 2
    line = _one_error_line(r)
    assert "latest" in line and all(t in line for t in known_tags())


def test_prove_verify_lean_refuses_other_release():
    newest = known_tags()[-1]
    if newest == DEFAULT_TAG:
        pytest.skip("only the default profile exists")
    r = runner.invoke(app, ["prove", NESBITT, "--mathlib", newest, "--verify", "lean", "--time-limit", "5"])
    assert r.exit_code == 2
    assert "lean_project" in _one_error_line(r)


def test_lean_setup_mathlib_mismatch_is_one_line(tmp_path):
    newest = known_tags()[-1]
    if newest == DEFAULT_TAG:
        pytest.skip("only the default profile exists")
    r = runner.invoke(app, ["lean", "setup", "--dry-run", "--mathlib", newest])
    assert r.exit_code == 2
    assert f"profiles/{newest}/README.md" in _one_error_line(r)
    ok = runner.invoke(app, ["lean", "setup", "--dry-run", "--mathlib", DEFAULT_TAG])
    assert ok.exit_code == 0, ok.output
