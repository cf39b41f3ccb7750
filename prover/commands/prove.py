"""``prover prove THEOREM``: search for a kernel-checked proof of one theorem.

THEOREM is a Lean 4 statement (a string), ``FILE.lean[#name]``, or ``file.jsonl#id``. Exit code 0
only when the kernel accepted the proof, 1 when no proof was found (a timeout included), 2 for user
errors.

``--time-limit`` covers the whole command from its first byte: reading the statement (front-end,
elaboration, fidelity check), the search (counterexample search included) and writing the files.
Each phase gets what is left of one :class:`~prover.alarm.Deadline` and is interrupted past it
(SIGALRM); a :class:`~prover.alarm.Watchdog` ends the process :data:`HARD_GRACE` seconds after
the limit whatever runs then. Not covered: loading an ``--llm`` model or starting a Lean backend
(the deadline moves by the time they take) and ``--verify lean``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from prover.cli import app
from prover.problem import Problem

BACKENDS = ("kernel", "lean-repl", "lean-dojo")

#: Seconds past --time-limit that a search which did not stop by itself may run before it is
#: interrupted (its result is then a timeout).
SEARCH_GRACE = 3.0
#: Seconds past --time-limit that writing the files may take after a search that used all its
#: time (rendering the Lean proof and the page get at least this much; past it: a one-line note).
WRITE_GRACE = 6.0
#: Seconds past --time-limit after which the watchdog ends the command (one line, exit 1).
HARD_GRACE = 14.0


class TimeLimitReached(BaseException):
    """Raised by SIGALRM when a phase of ``prove`` runs past the time limit. A BaseException, so
    that no ``except Exception`` in the code interrupted swallows it."""


def _alarm(seconds: float) -> Any:
    from prover.alarm import alarm_after

    return alarm_after(max(seconds, 0.01), TimeLimitReached)


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


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:300]


def _lean_text(proof: Any, seconds: float | None = None, mathlib: str | None = None) -> tuple[str | None, str]:
    """The rendered Lean proof, or None and a one-line reason (never an exception: a renderer
    bug or a render past ``seconds`` must not lose the kernel-checked proof). ``mathlib``: the
    release to target (a tag already checked by :func:`_prepare`; default v4.16.0)."""
    try:
        from prover.lean.mathlib_versions import adapt
        from prover.lean.render import render_proof
    except ImportError:
        return None, "Lean renderer not available yet (prover.lean.render); no proof.lean written"
    try:
        with _alarm(seconds) if seconds is not None else contextlib.nullcontext():
            return adapt(render_proof(proof), mathlib), ""
    except TimeLimitReached:
        return None, "Lean rendering stopped at the time limit: no proof.lean written"
    except Exception as exc:  # noqa: BLE001 - a renderer bug must not lose the kernel-checked proof
        return None, f"Lean rendering failed: {type(exc).__name__}: {_first_line(exc)}"


def _page(result: Any, title: str, lean: str | None, why: str, seconds: float | None) -> tuple[str | None, str]:
    """The proof page, or None and a one-line reason (as :func:`_lean_text`)."""
    from prover.search.page import page_verdict, proof_html

    try:
        with _alarm(seconds) if seconds is not None else contextlib.nullcontext():
            return proof_html(result.proof, title, result.stats, verdict=page_verdict(result), lean=lean,
                              lean_error=why or None), ""
    except TimeLimitReached:
        return None, "proof page stopped at the time limit: no proof.html written"
    except Exception as exc:  # noqa: BLE001 - a page bug must not lose the kernel-checked proof
        return None, f"proof page failed: {type(exc).__name__}: {_first_line(exc)}; no proof.html written"


def write_outputs(out: Path, result: Any, title: str, deadline: Any = None,
                  lean: tuple[str | None, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """proof.json (first: nothing after it can lose it), proof.lean (if the renderer exists),
    proof.html; returns paths and notes. ``deadline`` (a :class:`~prover.alarm.Deadline`): the
    Lean text and the page are stopped past it plus :data:`WRITE_GRACE`; ``lean``: the Lean
    text already rendered (text or None, reason)."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    notes: list[str] = []
    (out / "proof.json").write_text(result.proof.dumps() + "\n", encoding="utf-8")
    files["json"] = str(out / "proof.json")
    text, why = lean if lean is not None else _lean_text(result.proof, _write_budget(deadline))
    if text is not None:
        (out / "proof.lean").write_text(text, encoding="utf-8")
        files["lean"] = str(out / "proof.lean")
    else:
        notes.append(why)
    page, page_why = _page(result, title, text, why, _write_budget(deadline))
    if page is not None:
        (out / "proof.html").write_text(page, encoding="utf-8")
        files["html"] = str(out / "proof.html")
    else:
        notes.append(page_why)
    return files, notes


def _write_budget(deadline: Any) -> float | None:
    """Seconds that writing may still take: what is left of the time limit, at least
    :data:`WRITE_GRACE` past it (None: unlimited)."""
    return None if deadline is None else max(deadline.left() + WRITE_GRACE, 0.5)


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
    time_limit: float = typer.Option(
        60.0, "--time-limit",
        help="seconds for the whole command: reading the statement, the search and writing the files "
             f"(past it: timeout, exit 1; the command ends at most {HARD_GRACE:g} s later whatever runs; "
             "loading an --llm model, starting a Lean backend and --verify lean are not counted)"),
    out: Path | None = typer.Option(None, "--out",  # noqa: B008
                                    help="directory for proof.json, proof.lean, proof.html "
                                         "(a false statement: counterexample.json and counterexample.html)"),
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
        help="FILE.lean#name: replace that theorem's `sorry` by the rendered proof (numbered backup FILE.lean.bak.N)"),
    mathlib: str | None = typer.Option(
        None, "--mathlib", help="Mathlib release the rendered proof targets (default v4.16.0; docs/lean-names.md)"),
) -> None:
    """Search for a proof; exit 0 only when the kernel accepted it.

    The proof is printed before any file is written, so a failing write never loses it; an
    unusable --out or --llm is refused before the search starts (exit 2)."""
    from prover.alarm import Deadline, Watchdog

    opts = ProveOptions(theorem, time_limit, out, as_json, closers_only, llm, backend, verify, real_division,
                        progress, lean_out, in_place, mathlib)
    if not time_limit > 0:
        _fail("--time-limit must be positive", as_json)
    _check_mathlib(mathlib, verify, as_json)
    _import_the_search()
    run = _Run(opts, Deadline(time_limit))
    run.watchdog = Watchdog(run.expired)
    run.arm()
    try:
        try:
            problem, llm_backend, step_filter = _prepare(opts, run)
        except UserError as exc:
            _fail(str(exc), as_json)
            return
        run.problem = problem
        result = _search(opts, problem, llm_backend, step_filter, run)
        _report(opts, problem, result, run)
    finally:
        run.watchdog.cancel()


def _check_mathlib(tag: str | None, verify: str | None, as_json: bool) -> None:
    """An unknown ``--mathlib`` tag: one line listing the known ones, exit 2, before any search.
    ``--verify lean`` compiles in lean_project/ (the default release), so it refuses another one."""
    from prover.lean.mathlib_versions import DEFAULT_TAG, UnknownMathlibVersion, get_profile

    try:
        profile = get_profile(tag)
    except UnknownMathlibVersion as exc:
        _fail(str(exc), as_json)
        return
    if verify == "lean" and profile.tag != DEFAULT_TAG:
        _fail(f"--verify lean compiles in lean_project/ (Mathlib {DEFAULT_TAG}), not Mathlib {profile.tag}; "
              f"check the file by hand (lean_project/profiles/{profile.tag}/README.md)", as_json)


def _import_the_search() -> None:
    """Import the front-end and the search before the clock starts: their import takes the same
    seconds whatever the input (several on a loaded machine), and would otherwise be taken from
    a short --time-limit's search."""
    import prover.frontend.show
    import prover.search.driver  # noqa: F401


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
    mathlib: str | None = None


@dataclass
class _Run:
    """One ``prove`` command against its time limit: the shared deadline, the phase it is in,
    and what the watchdog prints (and exits with) if the command runs past the limit."""

    opts: ProveOptions
    deadline: Any
    phase: str = "reading the statement"
    problem: Problem | None = None
    proof_json: str = ""
    watchdog: Any = None

    def arm(self) -> None:
        """(Re)start the watchdog for the deadline as it stands, plus :data:`HARD_GRACE`."""
        self.watchdog.arm(self.deadline.left() + HARD_GRACE)

    def timeout_line(self) -> str:
        return f"the time limit of {self.opts.time_limit:g} s was reached while {self.phase}"

    def report_timeout(self, why: str) -> int:
        """Print the one-line timeout (``--json``: one object); the exit status: 0 only when a
        kernel-checked proof was already written to proof.json."""
        code = 0 if self.proof_json else 1
        name = self.problem.name if self.problem is not None else None
        if self.opts.as_json:
            from prover.commands.common import json_line

            typer.echo(json_line({"problem": name, "status": "proved" if code == 0 else "timeout",
                                  "time_s": round(self.deadline.elapsed(), 3), "error": why,
                                  "files": {"json": self.proof_json} if self.proof_json else {},
                                  "exit_code": code}))
        else:
            from prover.commands.common import printable

            kept = f" (the proof is in {self.proof_json})" if self.proof_json else ""
            typer.echo(f"timeout in {self.deadline.elapsed():.2f} s: {printable(why)}{kept}")
        return code

    def expired(self) -> int:
        """The watchdog's action, :data:`HARD_GRACE` seconds past the limit."""
        return self.report_timeout(f"{self.timeout_line()} (stopped {HARD_GRACE:g} s past it)")


@dataclass
class _Outputs:
    """What followed a search: the files written, notes, Lean's verdict, a failed write."""

    proved: bool
    files: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    write_error: str = ""
    lean_verdict: bool | None = None


def _prepare(opts: ProveOptions, run: _Run) -> tuple[Problem, Any, Any]:
    """Check the command line and load the theorem (within the time limit: past it, a one-line
    timeout), the LLM and the step filter (a :class:`UserError` before any search)."""
    if opts.time_limit <= 0:
        raise UserError("--time-limit must be positive")
    if opts.out is not None:
        check_out_dir(opts.out)
    if opts.in_place and not opts.theorem.partition("#")[0].endswith(".lean"):
        raise UserError("--in-place needs a FILE.lean[#name] argument")
    _check_backend(opts.backend, opts.verify)
    run.phase = "reading the statement"
    try:
        with _alarm(run.deadline.left()):
            problem = load_problem(opts.theorem, opts.real_division)
    except TimeLimitReached:
        raise typer.Exit(run.report_timeout(run.timeout_line())) from None
    if opts.in_place:
        _check_in_place(opts.theorem, problem)
    run.watchdog.cancel()           # not counted: loading a model, starting a Lean backend
    started = time.monotonic()
    llm_backend = make_llm(opts.llm)
    step_filter = _step_filter(opts.backend)
    run.deadline.postpone(time.monotonic() - started)
    run.arm()
    return problem, llm_backend, step_filter


def _search(opts: ProveOptions, problem: Problem, llm_backend: Any, step_filter: Any, run: _Run) -> Any:
    """The search itself, with what is left of the time limit and the progress line; past the
    limit plus :data:`SEARCH_GRACE` it is interrupted (a timeout). The Lean backend is closed
    afterwards."""
    from prover.commands.progress import ProgressLine
    from prover.llm.base import LLMError
    from prover.search.driver import llm_plugins, llm_stats, prove_problem
    from prover.search.result import ProveResult

    run.phase = "searching"
    left = run.deadline.left()
    try:
        plugins = llm_plugins(llm_backend)  # here: their statistics outlive an interrupted search
    except LLMError as exc:
        return ProveResult("error", error=str(exc), time_s=run.deadline.elapsed())
    try:
        if left < 0.05:
            return ProveResult("timeout", error=run.timeout_line(), time_s=run.deadline.elapsed(),
                               stats=llm_stats(*plugins))
        with ProgressLine(f"prove {problem.name}: searching", left,
                          False if opts.as_json else opts.progress), _alarm(left + SEARCH_GRACE):
            return prove_problem(problem, time_limit=left, closers_only=opts.closers_only,
                                 step_filter=step_filter, plugins=plugins)
    except TimeLimitReached:
        return ProveResult("timeout", error=f"{run.timeout_line()} (stopped {SEARCH_GRACE:g} s past it)",
                           time_s=run.deadline.elapsed(), stats=llm_stats(*plugins))
    finally:
        if step_filter is not None:
            step_filter.backend.close()


def _report(opts: ProveOptions, problem: Problem, result: Any, run: _Run) -> None:
    """Print the result, write the files, and exit with the command's status."""
    proved = result.status == "proved" and result.proof is not None
    failure = None
    if result.status in ("not_proved", "timeout"):
        from prover.commands.failure import failure_report

        failure = failure_report(result, opts.time_limit, opts.closers_only)
    if not opts.as_json:
        _print_human(problem, result, {}, [], failure)   # the proof first: a failing write cannot lose it
    run.phase = "writing the proof files"
    outputs = _write_and_verify(opts, problem, result, proved, run)
    if opts.as_json:
        _echo_json(problem, result, outputs, failure)
    else:
        _print_written(outputs.files, outputs.notes)
        if outputs.write_error:
            typer.echo(f"error: {outputs.write_error} (the proof is printed above)", err=True)
    if outputs.write_error:
        raise typer.Exit(2)
    raise typer.Exit(0 if outputs.proved else 1)


def _write_and_verify(opts: ProveOptions, problem: Problem, result: Any, proved: bool, run: _Run) -> _Outputs:
    """The proof files, Lean's verdict (``--verify lean``), ``--lean`` and ``--in-place``."""
    res = _Outputs(proved)
    out = opts.out
    if res.proved and out is None and opts.verify == "lean":
        out = Path(tempfile.mkdtemp(prefix="prover-"))
    lean = None
    if res.proved and (opts.lean_out or opts.in_place or out is not None):
        lean = _lean_text(result.proof, _write_budget(run.deadline), opts.mathlib)   # rendered once, in the limit
    if res.proved and out is not None:
        try:
            res.files, res.notes = write_outputs(out, result, problem.name, run.deadline, lean)
        except Exception as exc:  # noqa: BLE001 - an OS or renderer error must not lose the printed proof
            res.write_error = f"could not write the proof files to {out}: {type(exc).__name__}: " \
                              f"{_first_line(exc)}"
        run.proof_json = res.files.get("json", "") if not res.write_error else ""
    if result.status == "counterexample" and result.counterexample and out is not None:
        res.files, res.notes = _write_counterexample(out, problem, result, run.deadline)
    run.watchdog.cancel()           # the files are written: Lean's own check is not counted
    if res.proved and opts.verify == "lean" and not res.write_error:
        res.lean_verdict, msg = _verify_lean(res.files, opts.backend)
        res.notes.append(msg)
        if res.lean_verdict is False:
            res.proved = False    # the user asked for Lean's verdict too
    if res.proved and (opts.lean_out or opts.in_place) and not res.write_error:
        _emit_lean(opts, problem, lean, res.notes)
    return res


def _write_counterexample(out: Path, problem: Problem, result: Any, deadline: Any) -> tuple[dict[str, str], list[str]]:
    """counterexample.json and counterexample.html (a record for the user: a failure to write them
    is a note, the verdict stands)."""
    from prover.search.counterexample_page import write_counterexample
    from prover.search.page import command_line

    try:
        with _alarm(_write_budget(deadline) or WRITE_GRACE):
            return write_counterexample(out, problem, result.counterexample, result.time_s, command_line()), []
    except TimeLimitReached:
        return {}, ["writing the counterexample files stopped at the time limit: not written"]
    except Exception as exc:  # noqa: BLE001 - display files only: the verdict is printed above
        return {}, [f"could not write the counterexample files to {out}: {type(exc).__name__}: {_first_line(exc)}"]


def _emit_lean(opts: ProveOptions, problem: Problem, rendered: tuple[str | None, str], notes: list[str]) -> None:
    """``--in-place`` and ``--lean``: the rendered Lean proof into the file and on stdout."""
    lean, why = rendered
    if lean is None:
        notes.append(f"no Lean text: {why}")
        return
    if opts.in_place:
        notes.append(_write_in_place(opts.theorem, problem, lean))
    if opts.lean_out and not opts.as_json:
        typer.echo(lean)


def _echo_json(problem: Problem, result: Any, outputs: _Outputs, failure: Any = None) -> None:
    """The ``--json`` result on stdout (a failed search: with ``failure``, its report)."""
    payload = {"problem": problem.name, "status": result.status, "time_s": round(result.time_s, 3),
               "counterexample": result.counterexample, "error": result.error, "stats": result.stats,
               "files": outputs.files, "notes": outputs.notes, "lean_verified": outputs.lean_verdict,
               "proof": result.proof.to_json() if result.status == "proved" and result.proof else None}
    if outputs.write_error:
        payload["write_error"] = outputs.write_error
    if failure is not None:
        payload["failure"] = failure.to_json()
    typer.echo(json.dumps(payload, default=str, ensure_ascii=False))


def _check_in_place(spec: str, problem: Problem) -> None:
    """``--in-place``, before the search: a file that cannot be written, or a theorem with no
    ``sorry`` to replace, is refused in one line (exit 2) and nothing is searched."""
    from prover.lean.in_place import InPlaceError, check_target

    path_part, _, ident = spec.partition("#")
    try:
        check_target(Path(path_part), ident or str(problem.meta.get("declared_name") or problem.name))
    except InPlaceError as exc:
        raise UserError(f"--in-place: {exc}") from None


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


def _print_human(problem: Problem, result: Any, files: dict[str, str], notes: list[str],
                 failure: Any = None) -> None:
    from prover.ir import Goal
    from prover.search.proof_text import show_goal, text_lines

    con = Console(highlight=False, soft_wrap=True)
    shown = show_goal(Goal.from_problem(problem), with_hyps=True)
    if problem.is_conjunction:   # the goal is `A ∧ B ∧ …`: every part
        from prover.frontend.printer import show_relation

        shown = shown.rsplit("⊢", 1)[0] + "⊢ " + " ∧ ".join(show_relation(g) for g in problem.goal_parts)
    con.print(f"[bold]{problem.name}[/bold]: {shown}", markup=True)
    colour = {"proved": "green", "counterexample": "red"}.get(result.status, "yellow")
    con.print(f"[{colour}]{result.status}[/{colour}] in {result.time_s:.2f} s", markup=True)
    if result.status == "proved":
        roots = result.proof.roots()
        for k, root in enumerate(roots):
            if len(roots) > 1:
                con.print(f"part {k + 1} of {len(roots)}:", markup=False)
            for line in text_lines(root, indent=1 if len(roots) > 1 else 0):
                con.print(line, markup=False)
        con.print("kernel: accepted", markup=False)
    if result.counterexample:
        con.print("counterexample: " + ", ".join(f"{k} = {v}" for k, v in result.counterexample.items()),
                  markup=False)
    if result.error:
        con.print(f"error: {result.error}", markup=False)
    for line in failure.lines() if failure is not None else []:
        con.print(line, markup=False)
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
