"""Measure rendered proofs against the Lean replay model (a model, not Lean).

    .venv/bin/python -m prover.lean.replay_baseline results/final-120s-*/proofs/*.json \\
        --out results/lean-replay-baseline.md

Renders every saved proof with ``prover.lean.render`` and replays the file with
``prover.lean.replay``; writes a Markdown table: rendered / passing / failing, failures by class
(first failure per file and every class present), and verdicts by the renderer's step kind (the
``-- close``/``-- rewrite``/… comment a tactic follows).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import pickle
import re
import resource
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prover.lean.replay import ReplayReport, StepVerdict, replay_text
from prover.lean.replay.resources import HB_RING_OP

_STEP = re.compile(r"^\s*(?:·\s*)?-- (close \((?:sos|positivity)\)|rewrite|scale|split|introduce|substitute)(?=\s|$)")


def failure_class(s: StepVerdict) -> str:
    """A coarse class of a failed verdict, for the tables."""
    r = s.reason
    if s.kind == "resources":
        return "resources: over maxRecDepth" if "maxRecDepth" in r else "resources: over maxHeartbeats (estimate)"
    if s.kind == "budget":
        if "line budget" in r:
            return "size: line over budget"
        if "file budget" in r:
            return "size: file over budget"
        if "tactic budget" in r:
            return "size: tactic over budget"
        return "size: no maxHeartbeats"
    if "goal unknown after" in r:
        return "after an unmodelled tactic"
    m = re.match(r"not modelled: tactic `([^`]+)`", r)
    if m:
        return f"not modelled: {m.group(1)}"
    if r.startswith("not modelled: rw"):
        return "not modelled: rw (other than ge_iff_le/gt_iff_lt)"
    if s.kind == "have" and "type mismatch" in r:
        return "have: stated type is not the term's type"
    if s.kind == "positivity" or r.startswith("positivity"):
        return "positivity outside the modelled fragment"
    if "metavariables" in r:
        return "implicit arguments never unified"
    if s.kind == "linear_combination":
        return "linear_combination: " + ("ring check" if "ring" in r or "comparison" in r else r.split(":")[1][:40])
    if s.kind in ("linarith",) or "linarith" in r:
        return "linarith"
    if s.kind == "first":
        return "first: no alternative passes"
    return f"{s.kind}: {r[:50]}"


def step_kinds(text: str) -> dict[int, str]:
    """Line number → the renderer step kind whose block the line belongs to."""
    out, cur = {}, "prelude"
    for k, ln in enumerate(text.split("\n"), 1):
        m = _STEP.match(ln)
        if m:
            cur = m.group(1).split()[0] if not m.group(1).startswith("close") else m.group(1)
        out[k] = cur
    return out


#: Limits of one proof's rendering and replay (each in its own process): a pathological proof
#: is reported as such instead of exhausting the machine.
MEMORY_LIMIT_BYTES = 6 << 30
TIME_LIMIT_S = 300


def _name(f: Path) -> str:
    """Run folder and problem id (`run/dataset/P1`): one run may hold several datasets."""
    return f"{f.parent.parent.name.replace('final-120s-', '')}/{f.stem.replace('__', '/')}"


def _measure_one(f: Path) -> dict:
    from prover.lean.render import RenderError, render_proof
    from prover.nterm.proof import saved_proof

    name = _name(f)
    t0 = time.time()
    try:
        text = render_proof(saved_proof(f.read_text(encoding="utf-8")))
    except RenderError as exc:
        return {"name": name, "rendered": False, "reason": str(exc).splitlines()[0][:90]}
    t1 = time.time()
    rep: ReplayReport = replay_text(text, name)
    return {"name": name, "rendered": True, "report": rep, "text": text,
            "render_s": t1 - t0, "replay_s": time.time() - t1}


def _child(f: Path, conn: Any) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    try:
        conn.send(_measure_one(f))
    except BaseException as exc:  # noqa: BLE001 - reported as a row, never a pass
        conn.send({"name": _name(f), "rendered": False,
                   "reason": f"renderer/model crashed: {type(exc).__name__}"})
    conn.close()


#: Rows not cached: a proof over the limits or a crash is measured again next time.
_RETRIED = ("over the limits", "renderer/model crashed")


def code_fingerprint() -> str:
    """A hash of every source file of the ``prover`` package: a cached row is reused only with
    the very renderer and model that measured it."""
    import prover

    root = Path(prover.__file__).parent
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


@dataclass
class RowCache:
    """Measured rows kept on disk (one pickle per proof, keyed by the proof's bytes and
    :func:`code_fingerprint`), so an interrupted or repeated baseline measures only what is new."""

    folder: Path
    fingerprint: str = field(default_factory=code_fingerprint)

    def _path(self, f: Path) -> Path:
        return self.folder / f"{hashlib.sha256(self.fingerprint.encode() + f.read_bytes()).hexdigest()}.pkl"

    def get(self, f: Path) -> dict | None:
        try:
            row = pickle.loads(self._path(f).read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError):
            return None
        return {**row, "name": _name(f)}

    def put(self, f: Path, row: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(f)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(row))
        tmp.replace(path)


def measure(proof_files: list[Path], *, isolate: bool = True, jobs: int = 2, cache: RowCache | None = None) -> dict:
    """Render and replay each proof; with ``isolate`` each in a forked process limited to
    ``MEMORY_LIMIT_BYTES`` and ``TIME_LIMIT_S`` (a proof over a limit is a row saying so),
    ``jobs`` at a time; rows in ``cache`` are reused and new rows stored there."""
    if not isolate:
        return {"rows": [_measure_one(f) for f in proof_files]}
    ctx = multiprocessing.get_context("fork")
    rows: dict[int, dict] = {}
    running: list[tuple[int, Any, Any, float]] = []
    todo = []
    for i, f in enumerate(proof_files):
        row = cache.get(f) if cache is not None else None
        if row is None:
            todo.append((i, f))
        else:
            rows[i] = row
    while todo or running:
        while todo and len(running) < max(1, jobs):
            i, f = todo.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(f, child))
            proc.start()
            child.close()
            running.append((i, proc, parent, time.monotonic() + TIME_LIMIT_S))
        time.sleep(0.05)
        still = []
        for i, proc, parent, deadline in running:
            row = None
            if parent.poll():
                try:
                    row = parent.recv()
                except EOFError:
                    row = _over(proof_files[i])
            elif not proc.is_alive() or time.monotonic() > deadline:
                row = _over(proof_files[i])
            if row is None:
                still.append((i, proc, parent, deadline))
                continue
            proc.join(1)
            if proc.is_alive():
                proc.kill()
                proc.join()
            rows[i] = row
            if cache is not None and not row.get("reason", "").startswith(_RETRIED):
                cache.put(proof_files[i], row)
            print(f"{row['name']}: {'rendered' if row['rendered'] else row['reason']}", file=sys.stderr, flush=True)
        running = still
    return {"rows": [rows[i] for i in range(len(proof_files))]}


def _over(f: Path) -> dict:
    return {"name": _name(f), "rendered": False,
            "reason": f"over the limits ({MEMORY_LIMIT_BYTES >> 30} GiB, {TIME_LIMIT_S} s)"}


@dataclass
class _Tally:
    """Counts over the rendered proofs for the Markdown tables."""

    first: Counter = field(default_factory=Counter)
    present: Counter = field(default_factory=Counter)
    by_kind_total: Counter = field(default_factory=Counter)
    by_kind_ok: Counter = field(default_factory=Counter)
    by_kind_fail: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    tactic_fail: Counter = field(default_factory=Counter)


def _tally_failures(rep: ReplayReport, t: _Tally) -> None:
    """The first failure (by line, size budgets only when no tactic fails) and every class present."""
    fails = rep.failures
    tactic_fails = sorted([s for s in fails if s.kind not in ("budget", "resources")], key=lambda s: s.line)
    primary = (tactic_fails or fails)[:1]
    for s in primary:
        t.first[failure_class(s)] += 1
    for c in {failure_class(s) for s in fails}:
        t.present[c] += 1


def _tally_steps(text: str, rep: ReplayReport, t: _Tally) -> None:
    """Verdicts grouped by renderer step instance (a step passes when all its tactics pass)."""
    kinds = step_kinds(text)
    inst: dict[tuple[str, int], list[StepVerdict]] = defaultdict(list)
    starts = {}
    for k, ln in enumerate(text.split("\n"), 1):
        if _STEP.match(ln):
            starts[k] = kinds[k]
    for s in rep.steps:
        if s.kind in ("budget", "resources"):
            continue
        prev = [k for k in starts if k <= s.line]
        inst[(kinds.get(s.line, "prelude"), max(prev) if prev else 0)].append(s)
        if not s.ok:
            t.tactic_fail[s.kind] += 1
    for k, kind in starts.items():
        inst.setdefault((kind, k), [])
    for (kind, _), vs in inst.items():
        t.by_kind_total[kind] += 1
        if all(v.ok for v in vs):
            t.by_kind_ok[kind] += 1
        else:
            bad = next(v for v in vs if not v.ok)
            t.by_kind_fail[kind][failure_class(bad)] += 1


def _intro_lines(rows: list[dict], rendered: list[dict], command: str) -> list[str]:
    passing = [r for r in rendered if r["report"].ok]
    failing = [r for r in rendered if not r["report"].ok]
    return ["# Lean replay model: the saved proofs, rendered and replayed", "",
            "The replay model (`prover lean replay`, `prover.lean.replay`) is a static model of Lean 4 +",
            "Mathlib v4.16.0 for the subset our renderer emits, **not Lean**: it passes a tactic only when it",
            "can compute its effect exactly, and counts everything it cannot model as a failure (not a claim",
            "about what Lean accepts: a file that fails here may still compile; one that passes should).",
            (f"Each proof is rendered and replayed in its own process (limits: {MEMORY_LIMIT_BYTES >> 30} GiB, "
             f"{TIME_LIMIT_S} s)."), "",
            f"Command: `{command}`", "",
            "| proofs saved | rendered | refused by the renderer | replay-passing | replay-failing |",
            "|---:|---:|---:|---:|---:|",
            f"| {len(rows)} | {len(rendered)} | {len(rows) - len(rendered)} | {len(passing)} | {len(failing)} |",
            "", (f"Of the failing files, {len(_only_tactic_budget(failing))} fail only the per-tactic size budget "
                 "(a tactic counted over all its lines; every line, the file and every tactic's effect pass)."),
            ""]


def _only_tactic_budget(failing: list[dict]) -> list[dict]:
    """Failing files whose every failure is the per-tactic size budget."""
    return [r for r in failing
            if all(s.kind == "budget" and failure_class(s) == "size: tactic over budget" for s in r["report"].failures)]


def _size_lines(rendered: list[dict]) -> list[str]:
    """The largest file, longest line and longest tactic, against the budgets."""
    if not rendered:
        return []
    largest = max(rendered, key=lambda r: r["report"].chars)
    longest = max(rendered, key=lambda r: r["report"].longest_line)
    longest_tactic = max(rendered, key=lambda r: r["report"].longest_tactic)
    return [(f"Largest file: {largest['report'].chars:,} characters ({largest['name']}); longest line: "
             f"{longest['report'].longest_line:,} characters ({longest['name']}); longest tactic (over all "
             f"its lines): {longest_tactic['report'].longest_tactic:,} characters ({longest_tactic['name']}). "
             "Budgets: 20,000 characters a line and a tactic, 200,000 a file, `set_option maxHeartbeats N in` "
             "above 20,000 characters."), ""]


def _over_at(res: Any, ring_op: int) -> bool:
    """Whether ``res`` would be over its heartbeat budget with ``ring_op`` heartbeats per ring operation."""
    hb = res.heartbeats - (HB_RING_OP - ring_op) * res.ring_ops
    return res.heartbeat_budget > 0 and hb > res.heartbeat_budget


def _resource_lines(rendered: list[dict]) -> list[str]:
    """Estimated heartbeats and nesting depth per file (the largest declaration of each), their
    distribution, and the files over a budget (``prover.lean.replay.resources``: an estimate)."""
    import statistics

    rows = [(r["name"], max(r["report"].resources, key=lambda d: d.heartbeats),
             max(r["report"].resources, key=lambda d: d.depth),
             sum(d.linarith_calls for d in r["report"].resources), r["report"].longest_line)
            for r in rendered if r["report"].resources]
    if not rows:
        return []
    hbs = [h.heartbeats for _, h, _, _, _ in rows]
    ratio = [h.heartbeats / h.heartbeat_budget for _, h, _, _, _ in rows if h.heartbeat_budget]
    depths = [d.depth for _, _, d, _, _ in rows]
    over_hb = [n for n, h, _, _, _ in rows if h.over_heartbeats]
    over_d = [n for n, _, d, _, _ in rows if d.over_depth]
    out = ["## Resources (estimates: prover.lean.replay.resources)", "",
           "Per file, the declaration with the most estimated heartbeats and the deepest term nesting, against",
           "`maxHeartbeats` (default 200,000 or the file's `set_option maxHeartbeats N in`) and `maxRecDepth` (512).",
           "", "| figure | min | median | max |", "|---|---:|---:|---:|",
           f"| estimated heartbeats | {min(hbs):,} | {int(statistics.median(hbs)):,} | {max(hbs):,} |"]
    if ratio:
        out.append(f"| heartbeats / budget | {min(ratio):.2f} | {statistics.median(ratio):.2f} | {max(ratio):.2f} |")
    out += [f"| deepest nesting | {min(depths)} | {int(statistics.median(depths))} | {max(depths)} |",
            (f"| linarith calls | {min(r[3] for r in rows)} | {int(statistics.median(r[3] for r in rows))} | "
            f"{max(r[3] for r in rows)} |"), "",
            (f"Over maxHeartbeats: {len(over_hb)} ({', '.join(over_hb) or 'none'}); over maxRecDepth: {len(over_d)} "
            f"({', '.join(over_d) or 'none'})."), "",
            ("Sensitivity to the least certain constant, the heartbeats per `ring` operation (`HB_RING_OP` = "
             f"{HB_RING_OP}, an upper bound from MathlibTest/ring_compare.lean): files over maxHeartbeats with it "
             "set to " + ", ".join(f"{x}: {sum(1 for _, h, _, _, _ in rows if _over_at(h, x))}"
                                   for x in (HB_RING_OP, 5, 2, 1, 0)) + "."), "",
            ("| proof | heartbeats ≈ / budget | ring (ops) | linarith | deepest / maxRecDepth | linarith calls | "
            "largest line |"), "|---|---:|---:|---:|---:|---:|---:|"]
    for name, h, d, calls, longest in sorted(rows, key=lambda x: -x[1].heartbeats):
        budget = "∞" if not h.heartbeat_budget else f"{h.heartbeat_budget:,}"
        out.append(f"| {name} | {h.heartbeats:,} / {budget}{' **over**' if h.over_heartbeats else ''} | "
                   f"{h.parts['ring']:,} ({h.ring_ops:,}) | {h.parts['linarith']:,} | {d.depth} / {d.depth_budget}"
                   f"{' **over**' if d.over_depth else ''} | {calls} | {longest:,} |")
    return out + [""]


def _table_lines(t: _Tally) -> list[str]:
    """The failure-class, step-kind and tactic-kind tables."""
    out = ["## First failure per file", "",
           "The first failing tactic by line (size-budget failures only when no tactic fails).", "",
           "| first failure class | files |", "|---|---:|"]
    out += [f"| {c} | {n} |" for c, n in t.first.most_common()]
    out += ["", "## Every failure class present", "", "| failure class | files with it |", "|---|---:|"]
    out += [f"| {c} | {n} |" for c, n in t.present.most_common()]
    out += ["", "## By step kind", "",
            "Each renderer step (the `-- close (sos)`, `-- rewrite`, … comment and the tactics up to the next",
            "one, nested steps counted on their own) passes when every tactic in it passes.", "",
            "| step kind | instances | passing | failing | main failure classes |", "|---|---:|---:|---:|---|"]
    for kind, n in t.by_kind_total.most_common():
        fails = t.by_kind_fail[kind]
        top = "; ".join(f"{c} ({m})" for c, m in fails.most_common(3))
        out.append(f"| {kind} | {n} | {t.by_kind_ok[kind]} | {n - t.by_kind_ok[kind]} | {top} |")
    out += ["", "## Failing tactics by kind", "", "| tactic | failing verdicts |", "|---|---:|"]
    out += [f"| `{k}` | {n} |" for k, n in t.tactic_fail.most_common()]
    return out


def _per_proof_lines(rows: list[dict]) -> list[str]:
    out = ["", "## Per proof", "", "| proof | verdict | first failure (line: class) |", "|---|---|---|"]
    for r in rows:
        if not r["rendered"]:
            out.append(f"| {r['name']} | not rendered | {r['reason']} |")
            continue
        rep = r["report"]
        fails = sorted([s for s in rep.failures if s.kind not in ("budget", "resources")],
                       key=lambda s: s.line) or rep.failures
        cell = f"{fails[0].line}: {failure_class(fails[0])}" if fails else ""
        out.append(f"| {r['name']} | {'pass' if rep.ok else 'fail'} | {cell} |")
    return out


def markdown(result: dict, command: str) -> str:
    rows = result["rows"]
    rendered = [r for r in rows if r["rendered"]]
    tally = _Tally()
    for r in rendered:
        _tally_failures(r["report"], tally)
        _tally_steps(r["text"], r["report"], tally)
    out = (_intro_lines(rows, rendered, command) + _size_lines(rendered) + _resource_lines(rendered)
           + _table_lines(tally))
    out += _per_proof_lines(rows)
    return "\n".join(out) + "\n"


def command_line(proofs: list[Path], out: Path | None) -> str:
    """The command as a user would retype it: a folder whose every ``*.json`` was given is
    written ``folder/*.json``, other files by name."""
    given = {p.resolve() for p in proofs}
    parts: list[str] = []
    for folder in sorted({p.parent for p in proofs}):
        files = sorted(p for p in proofs if p.parent == folder)
        if {f.resolve() for f in folder.glob("*.json")} <= given:
            parts.append(str(folder / "*.json"))
        else:
            parts.extend(str(f) for f in files)
    return " ".join([".venv/bin/python -m prover.lean.replay_baseline", *parts, "--out", str(out) if out else "-"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("proofs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep each measured row here; rows of the same proof and code are reused")
    ap.add_argument("--jobs", type=int, default=2, help="proofs measured at a time (default 2)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.out:   # before minutes of rendering, not after: a missing folder is made, a bad path refused
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            ap.error(f"cannot write --out {args.out}: {exc.strerror}")
        if args.out.is_dir():
            ap.error(f"--out {args.out} is a folder; give the file to write")
    result = measure(sorted(args.proofs), jobs=args.jobs, cache=RowCache(args.cache) if args.cache else None)
    cmd = command_line(args.proofs, args.out)
    text = markdown(result, cmd)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
