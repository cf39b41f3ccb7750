"""``prover conformal calibrate | filter | eval | build-set``: the coherent-factuality filter."""

from __future__ import annotations

import contextvars
import json
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import typer

from prover.cli import app

conformal_app = typer.Typer(no_args_is_help=True, help="Conformal coherent-factuality filter for proof steps.")
app.add_typer(conformal_app, name="conformal")

CAL_FORMAT = "prover-conformal-calibration"
TIES = ("noise", "strict", "none")
DATA_HELP = "math | math-llama | generated | FILE (.json MATH annotations or .jsonl claim graphs)"


#: Set while a command runs with ``--json``: its errors are then JSON too.
_JSON_MODE: contextvars.ContextVar[bool] = contextvars.ContextVar("conformal_json", default=False)


def _fail(msg: str) -> NoReturn:
    from prover.commands.common import fail

    fail(msg, _JSON_MODE.get())


def _generator(llm: str | None):
    """The LLM sampler for the self-consistency scorer (``--llm`` spec, see ``prover.llm.spec``)."""
    if not llm or llm.strip().lower() == "none":
        return None
    from prover.conformal.scorers import backend_generator
    from prover.llm.base import LLMError
    from prover.llm.spec import make_checked_backend

    try:
        backend = make_checked_backend(llm)
    except (LLMError, ImportError) as exc:
        _fail(f"--llm {llm}: {exc}")
    return backend_generator(backend) if backend is not None else None


def _load(spec: str, data_dir: str | None):
    from prover.conformal.datasets import load_dataset
    from prover.conformal.io import DataError

    try:
        exs = load_dataset(spec, data_dir)
    except (DataError, OSError, UnicodeDecodeError) as exc:
        _fail(str(exc))
    if not exs:
        _fail(f"{spec}: no examples")
    fallback = sum(1 for ex in exs if ex.meta.get("graph_fallback"))
    if fallback:
        typer.echo(f"note: {fallback} cyclic dependency graph(s) replaced by the chain graph", err=True)
    return exs


def _risks(examples, scorer_spec: str, llm: str | None = None):
    from prover.conformal.scorers import make_scorer
    from prover.llm.base import LLMError

    try:
        scorer = make_scorer(scorer_spec, _generator(llm))
        return [-np.asarray(scorer(ex), dtype=float) for ex in examples]
    except (KeyError, ValueError, LLMError) as exc:
        _fail(str(exc).strip("'\""))


def _ties(ties: str, n: int, seed: int, sd: float) -> tuple[bool, list[float] | None]:
    if ties not in TIES:
        _fail(f"--ties must be one of {', '.join(TIES)}")
    if ties == "noise":
        from prover.conformal.calibrate import tie_break_shifts

        return False, list(tie_break_shifts(n, np.random.default_rng(seed), sd))
    return ties == "strict", None


def _alpha_list(text: str) -> list[str]:
    from prover.conformal.calibrate import as_fraction

    out = [a.strip() for a in text.split(",") if a.strip()]
    try:
        for a in out:
            as_fraction(a)
    except ValueError as exc:
        _fail(f"bad --alphas: {exc}")
    if not out:
        _fail("--alphas is empty")
    return out


@conformal_app.command()
def calibrate(
    data: str = typer.Argument(..., help=DATA_HELP),
    alpha: str = typer.Option("0.1", help="miscoverage α (exact decimal, e.g. 0.1)"),
    scorer: str = typer.Option("auto", help="given:KEY | symbolic | symbolic+given:KEY | self-consistency | A*w,B*w"),
    method: str = typer.Option("coherent", help="coherent (graph) | independent (Mohri & Hashimoto baseline)"),
    ties: str = typer.Option("noise", help="noise (tiny per-example shift) | strict (t < τ̂) | none"),
    noise_sd: float = typer.Option(1e-3, help="sd of the tie-break shift"),
    seed: int = typer.Option(0),
    out: str = typer.Option("calibration.json", help="where to write the calibration"),
    data_dir: str | None = typer.Option(
        None, "--data", help="folder of the MATH files (default: $PROVER_CONFORMAL_DATA, else ../shared/conformal_data)"),
    llm: str | None = typer.Option(None, "--llm", help="LLM for the self-consistency scorer (none, vllm:M, hf:PATH, http://…#M)"),
) -> None:
    """Fit the conformal threshold τ̂ on labelled claim graphs."""
    from prover.conformal.calibrate import METHODS, as_fraction
    from prover.conformal.calibrate import calibrate as fit
    from prover.conformal.datasets import default_scorer

    if method not in METHODS:
        _fail(f"--method must be one of {', '.join(METHODS)}")
    try:
        as_fraction(alpha)
    except ValueError as exc:
        _fail(str(exc))
    exs = _load(data, data_dir)
    spec = default_scorer(exs) if scorer == "auto" else scorer
    strict, shifts = _ties(ties, len(exs), seed, noise_sd)
    try:
        cal = fit(exs, _risks(exs, spec, llm), alpha, method=method, strict=strict, shifts=shifts)
    except ValueError as exc:
        _fail(str(exc))
    out_p = Path(out)
    from prover.conformal.scorers import live_equivalent

    # the scorer travels with τ̂: `conformal filter -c FILE` scores new proofs the same way
    doc = {"format": CAL_FORMAT, **cal.to_json(), "scorer": spec, "scorer_live": live_equivalent(spec),
           "ties": ties, "noise_sd": noise_sd, "seed": seed, "data": data, "llm": llm}
    out_p.parent.mkdir(parents=True, exist_ok=True)
    out_p.write_text(json.dumps(doc, indent=1))
    typer.echo(f"calibrated on {cal.n} labelled proofs: on average over proofs like these, a filtered "
               f"proof keeps only correct claims (and their premises) with probability ≥ {1 - cal.alpha}")
    typer.echo(f"n = {cal.n}, α = {cal.alpha}, τ̂ = {cal.tau:.4g} ({method}, scorer {spec}, ties {ties}) → {out}")


def _read_calibration(path: Path):
    from prover.conformal.calibrate import Calibration

    try:
        d = json.loads(path.read_text())
        if d.get("format") != CAL_FORMAT:
            raise ValueError(f"not a {CAL_FORMAT} file")
        return Calibration.from_json(d), d
    except (OSError, json.JSONDecodeError, ValueError, KeyError) as exc:
        _fail(f"{path}: {exc}")


def _targets(path: str):
    """Claim graphs to filter: a .jsonl claim-graph file or a proof .json (rendered)."""
    from prover.conformal.io import DataError, load_claim_graphs
    from prover.conformal.proof_claims import render_proof
    from prover.ir import IRError, Proof

    p = Path(path)
    if not p.exists():
        _fail(f"no such file: {path}")
    try:
        if p.suffix == ".jsonl":
            return load_claim_graphs(p)
        return [render_proof(Proof.loads(p.read_text()))]
    except (DataError, IRError, OSError, UnicodeDecodeError) as exc:
        _fail(f"{path}: {exc}")


@conformal_app.command("filter")
def filter_cmd(
    claims: str = typer.Argument(..., help="claim graphs (.jsonl) or a proof (.json) to filter"),
    calibration: str = typer.Option(..., "--calibration", "-c", help="file written by `prover conformal calibrate`"),
    seed: int = typer.Option(1, help="seed of the tie-break shift of the new proofs"),
    json_out: bool = typer.Option(False, "--json", help="print JSON instead of text"),
    llm: str | None = typer.Option(None, "--llm", help="LLM for self-consistency (default: the one calibrated with)"),
) -> None:
    """Keep the ancestor-closed subset of each proof's claims that the calibration certifies.

    The scorer is the one stored in the calibration file (``scorer``); stored scores that a
    live scorer computes (``given:symbolic``) are recomputed for claims that do not carry them."""
    token = _JSON_MODE.set(json_out)
    try:
        _filter(claims, calibration, seed, json_out, llm)
    finally:
        _JSON_MODE.reset(token)


def _filter(claims: str, calibration: str, seed: int, json_out: bool, llm: str | None) -> None:
    from prover.conformal.calibrate import filter_claims, tie_break_shifts

    cal, doc = _read_calibration(Path(calibration))
    exs = _targets(claims)
    risks = _risks(exs, doc["scorer"], llm or doc.get("llm"))
    shifts = (tie_break_shifts(len(exs), np.random.default_rng(seed), float(doc["noise_sd"]))
              if doc.get("ties") == "noise" else np.zeros(len(exs)))
    results = []
    if not json_out:
        typer.echo(f"each proof keeps the claims the calibration certifies, premises first; over proofs "
                   f"like the {cal.n} calibrated on, a kept set is entirely correct with probability "
                   f"≥ {1 - cal.alpha} on average (not for every single proof)")
    for ex, r, s in zip(exs, risks, shifts):
        kept = filter_claims(ex, r, cal, float(s))
        results.append({"name": ex.name, "kept": ex.topological_order(kept),
                        "dropped": sorted(set(range(ex.n)) - kept)})
        if not json_out:
            typer.echo(f"{ex.name}: kept {len(kept)}/{ex.n} claims")
            for v in ex.topological_order(kept):
                typer.echo(f"  ✓ [{v}] {ex.claims[v].text}")
            for v in sorted(set(range(ex.n)) - kept):
                typer.echo(f"  ✗ [{v}] {ex.claims[v].text}")
    if json_out:
        typer.echo(json.dumps({"alpha": str(cal.alpha), "tau": doc["tau"], "results": results}, indent=1))
    elif exs:
        kept_all, total = sum(len(r["kept"]) for r in results), sum(ex.n for ex in exs)
        typer.echo(f"kept {kept_all} of {total} claims in all ({100 * kept_all / max(total, 1):.0f} %)")


@conformal_app.command("eval")
def eval_cmd(
    data: str = typer.Argument("math", help=DATA_HELP),
    alphas: str = typer.Option("0.05,0.1,0.15,0.2,0.3", help="comma-separated α values"),
    scorer: str = typer.Option("auto", help="as for calibrate"),
    methods: str = typer.Option("coherent,independent", help="coherent, boosted, independent, ind_filtered"),
    splits: int = typer.Option(500, help="random calibration/test splits"),
    n_cal: int | None = typer.Option(None, help="calibration examples per split (default half)"),
    loo: bool = typer.Option(False, "--loo", help="leave-one-out instead of random splits"),
    ties: str = typer.Option("noise", help="noise | strict | none"),
    noise_sd: float = typer.Option(1e-3),
    seed: int = typer.Option(0),
    out: str | None = typer.Option(None, help="folder for table.md and plot.png"),
    data_dir: str | None = typer.Option(
        None, "--data", help="folder of the MATH files (default: $PROVER_CONFORMAL_DATA, else ../shared/conformal_data)"),
    llm: str | None = typer.Option(None, "--llm", help="LLM for the self-consistency scorer (none, vllm:M, hf:PATH, http://…#M)"),
    target: float = typer.Option(0.9, "--target", help="target coherent factuality 1−α marked on the plot"),
) -> None:
    """Coverage/retention table over α (and a PNG plot) from repeated splits or leave-one-out.

    The MATH data sets (math, math-llama) are not shipped: they are read from --data DIR, else
    $PROVER_CONFORMAL_DATA, else ../shared/conformal_data next to the project."""
    from prover.conformal.datasets import default_scorer
    from prover.conformal.evaluate import compare_methods
    from prover.conformal.report import markdown_table, plot

    al, ms = _eval_alphas_methods(alphas, methods, ties)
    exs = _load(data, data_dir)
    spec = default_scorer(exs) if scorer == "auto" else scorer
    risks = {id(ex): r for ex, r in zip(exs, _risks(exs, spec, llm))}
    has_human = any(ex.subset_labels for ex in exs)
    labels = ("proxy", "human", "independent") if has_human else ("proxy", "independent")
    try:
        rows = compare_methods(exs, lambda ex: risks[id(ex)], al, ms, n_cal=n_cal, repeats=splits, seed=seed,
                               noise_sd=noise_sd if ties == "noise" else 0.0, strict=ties == "strict",
                               loo=loo, labels=labels)
    except ValueError as exc:
        _fail(str(exc))
    label = "human" if has_human else "proxy"
    protocol = "leave-one-out" if loo else f"{splits} random splits"
    header = _eval_header(data, exs, spec, protocol, rows[0].n_cal, ties, noise_sd, label)
    table = markdown_table(rows, label)
    typer.echo(header)
    typer.echo(table)
    if out is not None:
        out_d = Path(out)
        cmd = _eval_command_line(data, out, alphas=alphas, scorer=scorer, methods=methods, ties=ties, seed=seed,
                                 loo=loo, splits=splits, n_cal=n_cal, noise_sd=noise_sd)
        out_d.mkdir(parents=True, exist_ok=True)
        (out_d / "table.md").write_text(f"{header}\n\nCommand: `{cmd}`\n\n{table}")
        plot(rows, out_d / "plot.png", header, label, target=target)
        typer.echo(f"wrote {out_d / 'table.md'} and {out_d / 'plot.png'}")


def _eval_alphas_methods(alphas: str, methods: str, ties: str) -> tuple[list[str], list[str]]:
    """The checked ``--alphas`` and ``--methods`` lists of ``conformal eval`` (``--ties`` checked too)."""
    from prover.conformal.evaluate import METHOD_NAMES

    al = _alpha_list(alphas)
    ms = [m.strip() for m in methods.split(",") if m.strip()]
    bad = [m for m in ms if m not in METHOD_NAMES]
    if bad or not ms:
        _fail(f"unknown method(s) {bad} (use {', '.join(METHOD_NAMES)})")
    if ties not in TIES:
        _fail(f"--ties must be one of {', '.join(TIES)}")
    return al, ms


def _eval_header(data: str, exs: list, spec: str, protocol: str, n_cal: int, ties: str, noise_sd: float,
                 label: str) -> str:
    """The first line of the ``conformal eval`` table: data, scorer, protocol, ties, label."""
    supported = sum(int(ex.supported().sum()) for ex in exs) / max(1, sum(ex.n for ex in exs))
    return (f"data {data}: {len(exs)} proofs, {sum(ex.n for ex in exs)} claims "
            f"({100 * supported:.1f}% supported: true with all ancestors true); scorer {spec}; "
            f"{protocol}, n_cal = {n_cal}; ties: {ties}"
            + (f" (sd {noise_sd})" if ties == "noise" else "") + f"; coherence label: {label}")


def _eval_command_line(data: str, out: str, *, alphas: str, scorer: str, methods: str, ties: str, seed: int,
                       loo: bool, splits: int, n_cal: int | None, noise_sd: float) -> str:
    """The ``prover conformal eval`` command that reproduces a table (written into table.md)."""
    opts = ["--alphas", alphas, "--scorer", scorer, "--methods", methods, "--ties", ties, "--seed", str(seed)]
    opts += ["--loo"] if loo else ["--splits", str(splits)] + (["--n-cal", str(n_cal)] if n_cal else [])
    opts += ["--noise-sd", str(noise_sd)] if ties == "noise" else []
    return shlex.join(["prover", "conformal", "eval", data, *opts, "--out", out])


class _BudgetExceeded(BaseException):
    """Raised by the SIGALRM handler of :func:`_time_budget` (a BaseException, so that no
    ``except Exception`` inside the work swallows it)."""


def _time_budget(seconds: float | None):
    """Interrupt the work after ``seconds`` (SIGALRM; main thread only, else the caller's
    checks between items are the limit)."""
    from prover.alarm import alarm_after

    return alarm_after(seconds, _BudgetExceeded)


@conformal_app.command("build-set")
def build_set_cmd(
    out: str = typer.Option(..., help="output claim-graph file (.jsonl)"),
    from_run: str | None = typer.Option(None, "--from-run", help="a `prover eval` run folder (reads proofs/*.json)"),
    textbook: int = typer.Option(0, help="also add N programmatically built textbook proofs"),
    corrupt_fraction: float = typer.Option(0.3, help="probability that a proof gets one wrong step"),
    seed: int = typer.Option(0),
    store_scores: bool = typer.Option(True, help="store the symbolic scorer's confidence as score 'symbolic'"),
    time_limit: float | None = typer.Option(
        None, "--time-limit", help="seconds for the whole build: the proofs done by then are written (default: none)"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="one line per proof on stderr"),
) -> None:
    """Build labelled claim graphs from kernel proofs (clean and corrupted variants).

    Each proof is checked by the kernel, rendered and (with --store-scores) scored by the exact
    symbolic checker, which takes from a fraction of a second to tens of seconds per proof: a
    line per proof on stderr shows where it is, and --time-limit bounds the whole build.
    """
    from prover.conformal.generate import iter_build_set
    from prover.conformal.io import save_claim_graphs

    if not 0 <= corrupt_fraction <= 1:
        _fail("--corrupt-fraction must lie in [0, 1]")
    if time_limit is not None and not time_limit > 0:
        _fail("--time-limit must be positive")
    if Path(out).is_dir():
        _fail(f"--out {out}: is a directory (give a .jsonl file)")
    proofs = _build_set_proofs(from_run, textbook, seed)
    score = _claim_scorer(store_scores)
    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit else None
    total = len(proofs)
    if progress:
        typer.echo(f"build-set: {total} proofs (kernel check, rendering"
                   + (", symbolic scores" if store_scores else "") + ")"
                   + (f", time limit {time_limit:g} s" if time_limit else ""), err=True)
    it = iter_build_set(proofs, corrupt_fraction, seed, score=score)
    exs, skipped, stopped = _build_claim_graphs(it, total, time_limit, deadline, progress)
    try:
        save_claim_graphs(exs, out)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}")
    if stopped:
        typer.echo(f"time limit of {time_limit:g} s reached: {len(exs)} of {total} proofs done "
                   f"({time.monotonic() - t0:.0f} s); the set holds those", err=True)
    bad = sum(1 for ex in exs if "corrupted_step" in ex.meta)
    typer.echo(f"{len(exs)} proofs ({bad} corrupted"
               + (f", {skipped} rejected by the kernel" if skipped else "") + f"), "
               f"{sum(ex.n for ex in exs)} claims → {out}")


def _build_set_proofs(from_run: str | None, textbook: int, seed: int) -> list:
    """The proofs of ``conformal build-set``: those of a run folder, then the textbook ones."""
    from prover.conformal.generate import proofs_from_run, textbook_proofs
    from prover.conformal.io import DataError

    proofs = []
    if from_run is not None:
        try:
            proofs += proofs_from_run(from_run)
        except DataError as exc:
            _fail(str(exc))
    if textbook:
        proofs += textbook_proofs(textbook, seed)
    if not proofs:
        _fail("no proofs: give --from-run RUN and/or --textbook N")
    return proofs


def _claim_scorer(store_scores: bool) -> Callable[[Any], None]:
    """The ``score`` hook of ``iter_build_set``: the symbolic scorer's confidence stored as score
    'symbolic' on each claim (with ``--store-scores``; else it does nothing)."""
    from prover.conformal.scorers import SymbolicScorer

    sym = SymbolicScorer()

    def score(ex) -> None:
        if store_scores:
            for c, s in zip(ex.claims, sym(ex)):
                c.scores["symbolic"] = float(s)

    return score


def _build_claim_graphs(it: Any, total: int, time_limit: float | None, deadline: float | None,
                        progress: bool) -> tuple[list, int, bool]:
    """Drain ``iter_build_set`` until done or out of time: (claim graphs, proofs the kernel
    rejected, whether the time limit stopped it early)."""
    exs = []
    skipped = 0
    stopped = False
    k = 0
    try:
        with _time_budget(time_limit):
            t_item = time.monotonic()
            for k, (proof, ex) in enumerate(it, start=1):
                dt = time.monotonic() - t_item
                if ex is None:
                    skipped += 1
                    what = "rejected by the kernel, skipped"
                else:
                    exs.append(ex)
                    what = f"{ex.n} claims" + (" (corrupted)" if "corrupted_step" in ex.meta else "")
                if progress:
                    typer.echo(f"[{k}/{total}] {proof.problem.name}: {what} ({dt:.1f} s)", err=True)
                if deadline is not None and time.monotonic() >= deadline and k < total:
                    stopped = True
                    break
                t_item = time.monotonic()
    except _BudgetExceeded:
        stopped = k < total   # k: proofs completed when the alarm rang
    finally:
        it.close()
    return exs, skipped, stopped
