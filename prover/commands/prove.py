"""``prover prove THEOREM``: search for a kernel-checked proof of one theorem.

THEOREM is a Lean 4 statement (a string), ``FILE.lean[#name]``, or ``file.jsonl#id``. Exit code 0
only when the kernel accepted the proof, 1 when no proof was found, 2 for user errors.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from prover.cli import app
from prover.problem import Problem

BACKENDS = ("kernel", "lean-repl", "lean-dojo")


class UserError(Exception):
    """A mistake in the command line or the input: one line, exit code 2."""


def _fail(msg: str, as_json: bool = False) -> None:
    from prover.commands.common import fail

    fail(msg, as_json)


def warn_skipped_line(skip: object) -> None:
    """Report a skipped benchmark line (``prover.frontend.benchmark.SkippedLine``) on stderr."""
    typer.echo(f"warning: {skip}", err=True)


def load_problem(spec: str, real_division: bool | None = None) -> Problem:
    """A theorem string, ``FILE.lean[#name]`` or ``file.jsonl#id`` (the front-end's ``load_spec``)."""
    try:
        from prover.frontend import ParseError
        from prover.frontend.show import load_spec
    except ImportError as exc:
        raise UserError(f"the front-end is not available ({exc})") from None
    try:
        problems = load_spec(spec, real_division=real_division, on_skip=warn_skipped_line)
    except (ParseError, OSError, UnicodeDecodeError, ValueError, KeyError) as exc:
        msg = str(exc).strip().splitlines()
        raise UserError(msg[0] if msg else "cannot read the theorem") from None
    if len(problems) != 1:
        ids = [p.name.split("/")[-1] for p in problems]
        shown = ", ".join(ids[:8]) + (f", … {ids[-1]}" if len(ids) > 8 else "")
        raise UserError(f"{spec} holds {len(problems)} problems; pick one with FILE#id (ids: {shown})")
    return problems[0]


def check_out_dir(out: Path) -> None:
    """Refuse an unusable ``--out`` before any search: an existing file, a folder that cannot
    be written, or a path below a file. Nothing is created here."""
    if out.exists():
        if not out.is_dir():
            raise UserError(f"--out {out}: exists and is not a directory (give a folder for the proof files)")
        if not os.access(out, os.W_OK | os.X_OK):
            raise UserError(f"--out {out}: the directory is not writable")
        return
    parent = out.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"--out {out}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"--out {out}: cannot create it ({parent} is not writable)")


def make_llm(spec: str | None) -> Any:
    """The ``--llm`` backend, probed once (extra installed, model present, server up) so that an
    unusable one is a one-line error before the search, not a silent ``outputs=0``."""
    if spec is None:
        return None
    from prover.llm.base import LLMError
    from prover.llm.spec import make_checked_backend

    try:
        return make_checked_backend(spec)
    except (LLMError, ImportError) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise UserError(f"--llm {spec}: {why}") from None


def _lean_text(proof: Any) -> tuple[str | None, str]:
    try:
        from prover.lean.render import render_proof
    except ImportError:
        return None, "Lean renderer not available yet (prover.lean.render); no proof.lean written"
    try:
        return render_proof(proof), ""
    except Exception as exc:  # noqa: BLE001 - a renderer bug must not lose the kernel-checked proof
        return None, f"Lean rendering failed: {type(exc).__name__}: {exc}"


def write_outputs(out: Path, result: Any, title: str) -> tuple[dict[str, str], list[str]]:
    """proof.json, proof.lean (if the renderer exists), proof.html; returns paths and warnings."""
    from prover.search.page import page_verdict, proof_html

    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    notes: list[str] = []
    proof = result.proof
    (out / "proof.json").write_text(proof.dumps() + "\n", encoding="utf-8")
    files["json"] = str(out / "proof.json")
    lean, why = _lean_text(proof)
    if lean is not None:
        (out / "proof.lean").write_text(lean, encoding="utf-8")
        files["lean"] = str(out / "proof.lean")
    else:
        notes.append(why)
    (out / "proof.html").write_text(proof_html(proof, title, result.stats, verdict=page_verdict(result),
                                               lean=lean, lean_error=why or None), encoding="utf-8")
    files["html"] = str(out / "proof.html")
    return files, notes


def _check_backend(backend: str, verify: str | None) -> None:
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if verify not in (None, "lean"):
        raise UserError(f"unknown --verify value {verify!r} (only 'lean')")
    if verify == "lean":
        try:
            from prover.lean.backend import LeanUnavailable, require_lake
        except ImportError as exc:
            raise UserError(f"--verify lean is not available in this installation ({exc})") from None
        try:
            require_lake()
        except LeanUnavailable as exc:
            raise UserError(f"--verify lean: {str(exc).splitlines()[0] if str(exc) else 'Lean unavailable'}") \
                from None


def _step_filter(backend: str) -> Any:
    """For ``lean-repl``/``lean-dojo``: every step of the search also runs in Lean."""
    if backend == "kernel":
        return None
    try:
        from prover.lean.facade import LeanUnavailable, backend_filter
    except ImportError as exc:
        raise UserError(f"backend {backend} is not available in this installation ({exc})") from None
    try:
        return backend_filter(backend)
    except LeanUnavailable as exc:
        raise UserError(f"backend {backend}: {str(exc).splitlines()[0] if str(exc) else 'Lean unavailable'}") \
            from None


def _verify_lean(files: dict[str, str], backend: str) -> tuple[bool | None, str]:
    try:
        from prover.lean.facade import verify_file
    except ImportError:
        return None, "Lean verification is not available in this installation"
    if "lean" not in files:
        return None, "Lean verification needs --out (the proof.lean file)"
    try:
        res = verify_file(files["lean"], backend=backend)
    except Exception as exc:  # noqa: BLE001 - report, the kernel verdict stands
        return False, f"Lean verification failed: {str(exc).splitlines()[0] if str(exc) else exc}"
    ok = bool(getattr(res, "ok", res))
    return ok, "Lean accepted the proof" if ok else f"Lean rejected the proof: {getattr(res, 'errors', '')}"


@app.command()
def prove(
    theorem: str = typer.Argument(..., help='"theorem … := by sorry", FILE.lean[#name], or file.jsonl#id'),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds for the whole search"),
    out: Path | None = typer.Option(None, "--out", help="directory for proof.json, proof.lean, proof.html"),  # noqa: B008
    as_json: bool = typer.Option(False, "--json", help="print a machine-readable result on stdout"),
    closers_only: bool = typer.Option(False, "--closers-only", help="no search: only the closers on the goal"),
    llm: str | None = typer.Option(None, "--llm", help="LLM backend: hf:PATH, http://HOST/v1#MODEL, vllm:MODEL, none"),
    backend: str = typer.Option("kernel", "--backend", help="kernel | lean-repl | lean-dojo"),
    verify: str | None = typer.Option(None, "--verify", help="also check the rendered proof with: lean"),
    real_division: bool | None = typer.Option(
        None, "--real-division/--no-real-division",
        help="read every `/` as real division (default: on for .jsonl benchmarks and LIPS headers)"),
    progress: bool | None = typer.Option(
        None, "--progress/--no-progress",
        help="progress on stderr while searching (default: a spinner on a terminal, else a line every 10 s; "
             "never with --json)"),
    lean_out: bool = typer.Option(False, "--lean", help="also print the rendered Lean proof on stdout"),
    in_place: bool = typer.Option(
        False, "--in-place",
        help="FILE.lean#name: replace that theorem's `sorry` by the rendered proof (backup FILE.lean.bak)"),
) -> None:
    """Search for a proof; exit 0 only when the kernel accepted it.

    The proof is printed before any file is written, so a failing write never loses it; an
    unusable --out or --llm is refused before the search starts (exit 2)."""
    opts = ProveOptions(theorem, time_limit, out, as_json, closers_only, llm, backend, verify, real_division,
                        progress, lean_out, in_place)
    try:
        problem, llm_backend, step_filter = _prepare(opts)
    except UserError as exc:
        _fail(str(exc), as_json)
        return
    result = _search(opts, problem, llm_backend, step_filter)
    _report(opts, problem, result)


@dataclass
class ProveOptions:
    """The command line of ``prover prove``, as typer parsed it."""

    theorem: str
    time_limit: float
    out: Path | None
    as_json: bool
    closers_only: bool
    llm: str | None
    backend: str
    verify: str | None
    real_division: bool | None
    progress: bool | None
    lean_out: bool
    in_place: bool


@dataclass
class _Outputs:
    """What followed a search: the files written, notes, Lean's verdict, a failed write."""

    proved: bool
    files: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    write_error: str = ""
    lean_verdict: bool | None = None


def _prepare(opts: ProveOptions) -> tuple[Problem, Any, Any]:
    """Check the command line and load the theorem, the LLM and the step filter (a
    :class:`UserError` before any search)."""
    if opts.time_limit <= 0:
        raise UserError("--time-limit must be positive")
    if opts.out is not None:
        check_out_dir(opts.out)
    if opts.in_place and not opts.theorem.partition("#")[0].endswith(".lean"):
        raise UserError("--in-place needs a FILE.lean[#name] argument")
    _check_backend(opts.backend, opts.verify)
    problem = load_problem(opts.theorem, opts.real_division)
    llm_backend = make_llm(opts.llm)
    step_filter = _step_filter(opts.backend)
    return problem, llm_backend, step_filter


def _search(opts: ProveOptions, problem: Problem, llm_backend: Any, step_filter: Any) -> Any:
    """The search itself, with the progress line; the Lean backend is closed afterwards."""
    from prover.commands.progress import ProgressLine
    from prover.search.driver import prove_problem

    try:
        with ProgressLine(f"prove {problem.name}: searching", opts.time_limit,
                          False if opts.as_json else opts.progress):
            return prove_problem(problem, time_limit=opts.time_limit, closers_only=opts.closers_only,
                                 step_filter=step_filter, llm=llm_backend)
    finally:
        if step_filter is not None:
            step_filter.backend.close()


def _report(opts: ProveOptions, problem: Problem, result: Any) -> None:
    """Print the result, write the files, and exit with the command's status."""
    proved = result.status == "proved" and result.proof is not None
    if not opts.as_json:
        _print_human(problem, result, {}, [])   # the proof first: a failing write below cannot lose it
    outputs = _write_and_verify(opts, problem, result, proved)
    if opts.as_json:
        _echo_json(problem, result, outputs)
    else:
        _print_written(outputs.files, outputs.notes)
        if outputs.write_error:
            typer.echo(f"error: {outputs.write_error} (the proof is printed above)", err=True)
    if outputs.write_error:
        raise typer.Exit(2)
    raise typer.Exit(0 if outputs.proved else 1)


def _write_and_verify(opts: ProveOptions, problem: Problem, result: Any, proved: bool) -> _Outputs:
    """The proof files, Lean's verdict (``--verify lean``), ``--lean`` and ``--in-place``."""
    res = _Outputs(proved)
    out = opts.out
    if res.proved and out is None and opts.verify == "lean":
        out = Path(tempfile.mkdtemp(prefix="prover-"))
    if res.proved and out is not None:
        try:
            res.files, res.notes = write_outputs(out, result, problem.name)
        except Exception as exc:  # noqa: BLE001 - an OS or renderer error must not lose the printed proof
            res.write_error = f"could not write the proof files to {out}: {type(exc).__name__}: " \
                              f"{(str(exc).strip().splitlines() or [''])[0]}"
    if res.proved and opts.verify == "lean" and not res.write_error:
        res.lean_verdict, msg = _verify_lean(res.files, opts.backend)
        res.notes.append(msg)
        if res.lean_verdict is False:
            res.proved = False    # the user asked for Lean's verdict too
    if res.proved and (opts.lean_out or opts.in_place) and not res.write_error:
        _emit_lean(opts, problem, result, res.notes)
    return res


def _emit_lean(opts: ProveOptions, problem: Problem, result: Any, notes: list[str]) -> None:
    """``--in-place`` and ``--lean``: the rendered Lean proof into the file and on stdout."""
    lean, why = _lean_text(result.proof)
    if lean is None:
        notes.append(f"no Lean text: {why}")
        return
    if opts.in_place:
        notes.append(_write_in_place(opts.theorem, problem, lean))
    if opts.lean_out and not opts.as_json:
        typer.echo(lean)


def _echo_json(problem: Problem, result: Any, outputs: _Outputs) -> None:
    """The ``--json`` result on stdout."""
    payload = {"problem": problem.name, "status": result.status, "time_s": round(result.time_s, 3),
               "counterexample": result.counterexample, "error": result.error, "stats": result.stats,
               "files": outputs.files, "notes": outputs.notes, "lean_verified": outputs.lean_verdict,
               "proof": result.proof.to_json() if result.status == "proved" and result.proof else None}
    if outputs.write_error:
        payload["write_error"] = outputs.write_error
    typer.echo(json.dumps(payload, default=str, ensure_ascii=False))


def _write_in_place(spec: str, problem: Problem, lean: str) -> str:
    """Put the rendered proof into the user's file; a sentence for the notes (never "checked")."""
    from prover.lean.in_place import InPlaceError, write_in_place

    path_part, _, ident = spec.partition("#")
    name = ident or str(problem.meta.get("declared_name") or problem.name)
    try:
        backup = write_in_place(Path(path_part), name, lean)
    except (InPlaceError, OSError) as exc:
        return f"--in-place: not written: {exc}"
    return (f"wrote the proof of {name} into {path_part} (original kept as {backup.name}); "
            f"not compiled here: check it with `prover lean check {path_part}`")


def _print_written(files: dict[str, str], notes: list[str]) -> None:
    con = Console(highlight=False, soft_wrap=True)
    for k, v in files.items():
        con.print(f"wrote {k}: {v}", markup=False)
    for n in notes:
        con.print(n, markup=False)


def _print_human(problem: Problem, result: Any, files: dict[str, str], notes: list[str]) -> None:
    from prover.ir import Goal
    from prover.search.proof_text import show_goal, text_lines

    con = Console(highlight=False, soft_wrap=True)
    con.print(f"[bold]{problem.name}[/bold]: {show_goal(Goal.from_problem(problem), with_hyps=True)}",
              markup=True)
    colour = {"proved": "green", "counterexample": "red"}.get(result.status, "yellow")
    con.print(f"[{colour}]{result.status}[/{colour}] in {result.time_s:.2f} s", markup=True)
    if result.status == "proved":
        for line in text_lines(result.proof.root):
            con.print(line, markup=False)
        con.print("kernel: accepted", markup=False)
    if result.counterexample:
        con.print("counterexample: " + ", ".join(f"{k} = {v}" for k, v in result.counterexample.items()),
                  markup=False)
    if result.error:
        con.print(f"error: {result.error}", markup=False)
    s = result.stats
    keys = ("expansions", "nodes", "closer_calls", "proof_steps", "lemmas_used", "certificate_size")
    con.print("stats: " + ", ".join(f"{k}={s[k]}" for k in keys if k in s), markup=False)
    if "llm" in s:
        rw = s["llm"]["rewrites"]
        con.print(f"llm: calls={rw['calls']}, outputs={rw['outputs']}, parseable={rw['parseable']}, "
                  f"valid rewrites={rw['valid_rewrites']}, ranking calls={s['llm']['ranking']['calls']}",
                  markup=False)
        if rw.get("errors"):
            con.print(f"llm error: {str(rw['errors'][0]).splitlines()[0][:300]}", markup=False)
    for k, v in files.items():
        con.print(f"wrote {k}: {v}", markup=False)
    for n in notes:
        con.print(n, markup=False)
