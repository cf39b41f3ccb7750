"""``prover lean setup|check|render|replay``: the Lean side, for users who have Lean (via elan).

* ``setup``  installs the pinned toolchain, downloads Mathlib's build cache and builds
  ``lean_project/`` (our lemmas and the REPL). Needs elan/lake and internet.
* ``check FILE.lean``  compiles a file in that project; it passes only if Lean accepts it, no
  ``sorry`` is used and ``#print axioms`` lists only propext, Classical.choice, Quot.sound.
* ``render PROOF.json``  writes the Lean file of a saved proof.
* ``replay FILE.lean``  checks a file with the static replay model (``prover.lean.replay``; a model,
  not Lean): one verdict per tactic, exit 1 unless all pass.
* ``fill FILE.lean``  attempts every theorem whose proof is ``sorry`` and writes each one proved
  into the file (statements verbatim; numbered backup ``FILE.lean.bak.N``); the others are
  reported with the reason; exit 1 unless every attempted theorem was filled.
* ``suggest GOAL|-``  proves a goal as Lean prints it and prints the tactic block (``prover?``'s
  command-line half: ``prover.commands.lean_suggest``).

Exit codes: 0 success, 1 Lean rejected the file / a setup command failed, 2 user errors
(missing file, no Lean installed).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import typer

from prover.cli import app

lean_app = typer.Typer(no_args_is_help=True, help="Lean 4 integration (for users with Lean installed via elan).")
app.add_typer(lean_app, name="lean")

ELAN_HINT = ("install Lean with elan: curl https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh "
             "-sSf | sh  (then open a new shell)")


def _fail(msg: str, code: int = 2) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def setup_commands(project: Path, update: bool = False) -> list[list[str]]:
    """The commands ``prover lean setup`` runs, in order, inside ``project``.

    ``update`` first re-resolves the pinned tags into ``lake-manifest.json`` (``lake update``),
    for when the checked-in manifest cannot be fetched."""
    toolchain = (project / "lean-toolchain").read_text(encoding="utf-8").strip()
    return ([["elan", "toolchain", "install", toolchain]]
            + ([["lake", "update"]] if update else [])
            + [["lake", "exe", "cache", "get"], ["lake", "build"], ["lake", "build", "repl"]])


@lean_app.command("setup")
def setup(
    project: Path = typer.Option(None, "--project", help="Lake project (default: the pinned lean_project/)"),  # noqa: B008
    dry_run: bool = typer.Option(False, "--dry-run", help="print the commands without running them"),
    update: bool = typer.Option(False, "--update", help="run `lake update` first (re-resolve the pinned tags)"),
    mathlib: str = typer.Option(None, "--mathlib", help="check that the project is set up for this Mathlib "
                                "release (lean_project/profiles/TAG/README.md)"),
) -> None:
    """Install the pinned toolchain, get the Mathlib cache, build lean_project/ and the REPL."""
    from prover.lean.backend import project_dir
    from prover.lean.mathlib_versions import UnknownMathlibVersion, get_profile

    try:
        profile = get_profile(mathlib) if mathlib else None
    except UnknownMathlibVersion as exc:
        _fail(str(exc))
    proj = project or project_dir()
    if not (proj / "lakefile.lean").exists() or not (proj / "lean-toolchain").exists():
        _fail(f"no Lean project at {proj} (expected lakefile.lean and lean-toolchain)")
    if profile is not None:
        have = (proj / "lean-toolchain").read_text(encoding="utf-8").strip()
        if have != profile.lean_toolchain:
            _fail(f"{proj} is pinned to {have}, not {profile.lean_toolchain}: set up a copy for Mathlib "
                  f"{profile.tag} as lean_project/profiles/{profile.tag}/README.md says, then "
                  f"`prover lean setup --project COPY --mathlib {profile.tag} --update`")
    cmds = setup_commands(proj, update)
    if dry_run:
        for c in cmds:
            typer.echo(f"(cd {proj} && {' '.join(c)})")
        return
    missing = [t for t in ("elan", "lake") if shutil.which(t) is None]
    if missing:
        _fail(f"{' and '.join(missing)} not found on PATH; {ELAN_HINT}")
    for c in cmds:
        typer.echo(f"$ {' '.join(c)}")
        if subprocess.run(c, cwd=proj, check=False).returncode != 0:
            hint = "" if update else "; if dependencies cannot be fetched, retry with `prover lean setup --update`"
            _fail(f"`{' '.join(c)}` failed in {proj} (see its output above){hint}", 1)
    typer.echo(f"Lean is ready: {proj} builds; check files with `prover lean check FILE.lean`.")


@lean_app.command("check")
def check(
    file: Path = typer.Argument(..., help="a .lean file (e.g. a rendered proof.lean)"),  # noqa: B008
    timeout: float = typer.Option(600.0, "--timeout", help="seconds for Lean to compile the file"),
) -> None:
    """Compile FILE in the pinned project; require only propext, Classical.choice, Quot.sound."""
    from prover.lean.backend import LeanUnavailable
    from prover.lean.verify import check_file

    if not file.is_file():
        _fail(f"no such file: {file}")
    try:
        res = check_file(file, timeout=timeout)
    except LeanUnavailable as exc:
        _fail(str(exc))
    for name, axioms in sorted(res.axioms.items()):
        typer.echo(f"{name}: axioms {', '.join(axioms) if axioms else '(none)'}")
    if res.ok:
        typer.echo(f"OK: Lean accepts {file}")
        return
    for e in res.errors:
        typer.echo(f"rejected: {e}", err=True)
    raise typer.Exit(1)


@lean_app.command("render")
def render(
    proof_file: Path = typer.Argument(..., help="a proof.json written by `prover prove --out`"),  # noqa: B008
    out: Path = typer.Option(None, "--out", help="write the .lean file here (default: stdout)"),  # noqa: B008
    style: str = typer.Option("linear_combination", "--style", help="linear_combination | nlinarith"),
    mathlib: str = typer.Option(None, "--mathlib", help="Mathlib release to target (see docs/lean-names.md); "
                                "default v4.16.0"),
) -> None:
    """Render a saved proof as a complete Lean 4 file."""
    from prover.ir import IRError
    from prover.lean.mathlib_versions import UnknownMathlibVersion, adapt, get_profile
    from prover.lean.render import RenderError, render_proof
    from prover.nterm.proof import saved_proof

    try:
        profile = get_profile(mathlib)
    except UnknownMathlibVersion as exc:
        _fail(str(exc))
    if not proof_file.is_file():
        _fail(f"no such file: {proof_file}")
    try:
        proof = saved_proof(proof_file.read_text(encoding="utf-8"))
        text = adapt(render_proof(proof, close_style=style), profile)
    except (IRError, RenderError, ValueError) as exc:
        _fail(str(exc).splitlines()[0])
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}")


@lean_app.command("replay")
def replay(
    file: Path = typer.Argument(..., help="a .lean file (e.g. a rendered proof.lean)"),  # noqa: B008
    show_ok: bool = typer.Option(False, "--all", help="also print the tactics that pass"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout instead of lines"),
) -> None:
    """Check FILE with the static Lean replay model (a model, not Lean): one verdict per tactic,
    and per declaration the estimated heartbeats against maxHeartbeats, the deepest term nesting
    against maxRecDepth, the linarith calls and the largest line (over a budget fails);
    exit 0 only if everything passes. `prover lean check` with Lean stays the final word."""
    import json

    from prover.lean.replay import replay_file

    if not file.is_file():
        _fail(f"no such file: {file}")
    report = replay_file(file)
    if as_json:
        typer.echo(json.dumps({
            "file": str(file), "ok": report.ok, "counts": report.counts(), "chars": report.chars,
            "longest_line": report.longest_line, "longest_tactic": report.longest_tactic,
            "declarations": [r.to_json() for r in report.resources],
            "steps": [{"line": s.line, "kind": s.kind, "status": s.status, "reason": s.reason}
                      for s in report.steps if show_ok or not s.ok]}, ensure_ascii=False))
        if not report.ok:
            raise typer.Exit(1)
        return
    for s in report.steps:
        if show_ok or not s.ok:
            typer.echo(f"{file}:{s.line}: [{s.kind}] {s.status}" + (f": {s.reason}" if s.reason else ""))
    for r in report.resources:
        typer.echo(f"{file}:{r.line}: resources (estimate): {r.line_text()}")
    typer.echo(report.summary())
    if not report.ok:
        raise typer.Exit(1)


@lean_app.command("fill")
def fill(
    file: Path = typer.Argument(..., help="a .lean file whose theorems have `sorry` proofs"),  # noqa: B008
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds of search per theorem"),
    closers_only: bool = typer.Option(False, "--closers-only", help="no search: only the closers on each goal"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout instead of lines"),
) -> None:
    """Prove every theorem of FILE whose proof is `sorry` and write each proof found into FILE,
    in place of its `sorry` (statements verbatim, the original kept as FILE.lean.bak.N). The
    others are reported with the reason; theorems without `sorry` are skipped without searching.
    Nothing is compiled here: check the result with `prover lean check FILE`."""
    import json

    from prover.lean.fill import FILLED, NOT_FILLED, SKIPPED, fill_file
    from prover.lean.in_place import InPlaceError

    if file.suffix != ".lean":
        _fail(f"{file}: expected a .lean file")
    if not time_limit > 0:
        _fail("--time-limit must be positive")

    def show(outcome) -> None:
        if not as_json:
            typer.echo(outcome.line())

    try:
        report = fill_file(file, time_limit, closers_only, on_outcome=show)
    except InPlaceError as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        counts = f"{report.count(FILLED)} filled, {report.count(NOT_FILLED)} not filled, {report.count(SKIPPED)} skipped"
        if report.backup is not None:
            typer.echo(f"{counts}; wrote {file} (original kept as {report.backup.name}); not compiled here: "
                       f"check it with `prover lean check {file}`")
            bad = report.replay_failures or []
            typer.echo("replay model (a model, not Lean): the filled proofs pass" if not bad else
                       f"replay model (a model, not Lean): {len(bad)} steps of the filled proofs do not pass, "
                       f"first {bad[0]}")
        else:
            typer.echo(f"{counts}; {file} unchanged")
    if not report.complete:
        raise typer.Exit(1)


from prover.commands.lean_suggest import suggest as _suggest  # `prover lean suggest`

lean_app.command("suggest")(_suggest)
