"""Every command of README.md's code blocks runs as written (issue 15: the README must work on a
fresh clone after `make setup`).

The commands are read from README.md itself, so this test follows the README. Each one runs with
`bash -c` in a scratch folder that holds copies of what the commands read and write
(`examples/`, `benchmarks/`, `.gitignore`) and a link to this checkout's `.venv`, in README order
(a command that uses an earlier one's output — `prover check runs/nesbitt/proof.json` — finds it
there). The scratch folder is a git repository of those copies: after the commands, `git status`
must be as clean as before (issue 30: the README's commands write only to ignored folders such as
`runs/`, never to tracked files or new unignored ones).
The one change made to a command: a `--time-limit` above 60 s is lowered to 60, and a `prove`
without one gets `--time-limit 60` (a cap: each command ends when it has its answer). Commands that need Lean, Ray, a GPU/LLM server, data
outside the repository, or that run for minutes are listed in SKIP with the reason; every other
command must have an expected exit code and a key output line in EXPECT.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the command-line reference and the architecture notes: their commands run the same way, after the README's
DOCS = (ROOT / "docs" / "CLI.md", ROOT / "docs" / "ARCHITECTURE.md")
COMMAND = re.compile(r"^(\.venv/bin/prover|prover|\.venv/bin/python -m prover|python -m prover)\b"
                     r"|^cp examples/\S+ runs/\S+$")
TIME_CAP = 60   # a cap, not a duration: commands end when proved; a loaded machine needs the room

#: (substring of the command, reason): commands not run here.
SKIP: list[tuple[str, str]] = [
    ("--ray HEAD_IP", "needs a Ray cluster (tests/test_eval.py runs `--ray local`)"),
    ("prover lean setup --dry-run", ""),          # not skipped: listed so the next rule does not match it
    ("prover lean setup", "needs elan/lake and the network (the --dry-run form runs)"),
    ("prover lean check", "needs Lean (lake); tests/test_lean_project.py has `pytest -m lean`"),
    ("--backend lean-repl", "needs Lean (lake) for the REPL backend"),
    ("--verify lean", "needs Lean (lake)"),
    ("conformal eval math", "needs the MATH annotations from ../shared/conformal_data (not shipped)"),
    ("--attempt prover.oracles.z3_attempt", "z3 alone on all 108 problems: ~20 minutes"),
    ("--out runs/full-60s", "the full benchmark run: 108 problems x 60 s"),
    ("python -m prover.variants", "FALSE variants of all 108 problems: minutes"),
    ("--llm", "needs an LLM backend (GPU or server)"),
]

#: (substring of the command, expected exit code, a line fragment the output must contain)
EXPECT: list[tuple[str, int, str]] = [
    ('prove "theorem t (a b c : ℝ)', 0, "kernel: accepted"),
    ("prove benchmarks/chenneq.jsonl#P19", 0, '"status": "proved"'),
    ("prove examples/inequalities.lean#sum_products", 0, "kernel: accepted"),
    ("prove examples/inequalities.lean#amgm_two --lean", 0, "linear_combination"),
    ("check runs/nesbitt/proof.json", 0, "ACCEPTED"),
    ('parse "theorem t (x : ℝ) : x ^ 2 + x ≥ (x ^ (2/3 : ℝ)) ^ (3/2 : ℝ)', 2, "simplifies"),
    ('parse "theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b)', 0, "goal"),
    ("parse benchmarks/chenneq.jsonl#P28", 0, "goal"),
    ("parse examples/inequalities.lean#nesbitt", 0, "goal"),
    ("eval examples/textbook-3.jsonl --closers-only", 0, "| textbook | 3/3 |"),
    ("eval examples/textbook-3.jsonl --time-limit", 0, "| textbook | 3/3 |"),
    ("eval --compare runs/textbook-a runs/textbook-b", 0, "Comparison"),
    ("prover lean setup --dry-run", 0, "lake build"),
    ('prove "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2', 0, "kernel: accepted"),
    ("lean render runs/t/proof.json --out runs/t/proof.lean", 0, "runs/t/proof.lean"),
    ("lean replay runs/t/proof.lean", 0, "PASS (replay model, not Lean)"),
    ("conformal calibrate generated", 0, "τ̂ ="),
    ("conformal filter examples/claims.jsonl -c runs/cal.json", 0, "square-of-sum: kept 1/3 claims"),
    ("conformal build-set --from-run examples/runs/b/", 0, "3 proofs"),
    ("python -m prover.tactics.certify_catalogue --check", 0, "0 problems"),
    ("cp examples/fill-demo.lean runs/fill-demo.lean", 0, ""),
    ("lean fill runs/fill-demo.lean", 1, "4 filled, 2 not filled"),   # exit 1: not all filled
    ("lean suggest examples/nesbitt-goal.txt", 0, "linear_combination"),
]


def readme_commands(text: str | None = None) -> list[str]:
    """The shell commands of the README's code blocks (indented or fenced, not ```python),
    continuation lines joined and trailing `  # comments` removed, in order."""
    lines = (README.read_text(encoding="utf-8") if text is None else text).splitlines()
    out: list[str] = []
    fence: str | None = None
    pending = ""
    prev_blank = True
    in_block = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else (stripped[3:].strip() or "sh")
            continue
        if fence is not None:
            code = fence not in ("python", "py", "json", "lean", "text")
        else:
            in_block = line.startswith("    ") and (in_block or prev_blank)
            code = in_block
        prev_blank = not stripped
        if not code:
            continue
        cmd = pending + stripped if pending else stripped
        if cmd.endswith("\\"):
            pending = cmd[:-1].rstrip() + " "
            continue
        pending = ""
        cmd = re.sub(r"\s{2,}#\s.*$", "", cmd).strip()
        if COMMAND.match(cmd):
            out.append(cmd)
    return out


def _rule(cmd: str, rules: list) -> tuple | None:
    for r in rules:
        if r[0] in cmd:
            return r
    return None


def skip_reason(cmd: str) -> str | None:
    r = _rule(cmd, SKIP)
    return r[1] if r and r[1] else None


def capped(cmd: str) -> str:
    """The command with `--time-limit` at most TIME_CAP (added to a `prove` that has none)."""
    def cap(m: re.Match) -> str:
        return f"--time-limit {min(float(m.group(1)), TIME_CAP):g}"

    cmd = re.sub(r"--time-limit\s+([0-9.]+)", cap, cmd)
    if re.search(r"\bprove\b", cmd) and "--time-limit" not in cmd and "eval" not in cmd:
        cmd += f" --time-limit {TIME_CAP}"
    return cmd


COMMANDS = list(dict.fromkeys(readme_commands() + [c for d in DOCS for c in readme_commands(d.read_text(encoding="utf-8"))]))


class Workdir:
    """A scratch copy of what the README's commands use; runs them once each, in order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        for name in ("examples", "benchmarks"):
            shutil.copytree(ROOT / name, path / name)
        shutil.copy(ROOT / ".gitignore", path / ".gitignore")
        (path / ".venv").symlink_to(ROOT / ".venv")
        self.results: dict[int, subprocess.CompletedProcess] = {}
        self.env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
        self._git("init", "-q")
        with open(path / ".git" / "info" / "exclude", "a", encoding="utf-8") as f:
            f.write(".venv\n")        # the link (the checkout's `.venv/` rule matches folders only)
        self._git("add", "-A")
        self._git("-c", "user.name=readme-test", "-c", "user.email=readme-test@localhost",
                  "commit", "-q", "-m", "the files the README's commands use")

    def _git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.path, capture_output=True, text=True, check=True,
                              timeout=120).stdout

    def git_status(self) -> str:
        """``git status --porcelain`` of the scratch repository (untracked files listed one by one)."""
        return self._git("status", "--porcelain", "--untracked-files=all")

    def run(self, i: int) -> subprocess.CompletedProcess:
        for j in range(i):          # earlier commands first: later ones may read their output
            if j not in self.results and skip_reason(COMMANDS[j]) is None:
                self._run(j)
        return self._run(i)

    def _run(self, i: int) -> subprocess.CompletedProcess:
        if i not in self.results:
            try:
                self.results[i] = subprocess.run(["bash", "-c", capped(COMMANDS[i])], cwd=self.path,
                                                 env=self.env, capture_output=True, text=True,
                                                 timeout=240, check=False)
            except subprocess.TimeoutExpired as exc:
                self.results[i] = subprocess.CompletedProcess(exc.cmd, 124, str(exc.stdout or ""),
                                                              f"timed out after {exc.timeout} s")
        return self.results[i]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Workdir:
    if not (ROOT / ".venv" / "bin" / "prover").exists():
        pytest.skip("no .venv/bin/prover (run `make setup`)")
    return Workdir(tmp_path_factory.mktemp("readme"))


def test_the_readme_has_commands_and_uses_shipped_files():
    assert len(COMMANDS) >= 15
    text = README.read_text(encoding="utf-8")
    for placeholder in ("my_file.lean", "my_theorem", "claims.jsonl -c", "results/run-a", "results/run-b",
                        "results/<run>", "prover prove THEOREM", "benchmarks/*.jsonl --"):
        if placeholder == "claims.jsonl -c":
            assert " claims.jsonl -c" not in text, placeholder
        else:
            assert placeholder not in text, placeholder
    for path in ("examples/inequalities.lean", "examples/claims.jsonl", "examples/runs/a/records.jsonl",
                 "examples/runs/b/records.jsonl", "examples/textbook-3.jsonl"):
        assert (ROOT / path).is_file(), path
    for cmd in COMMANDS:      # one convention: .venv/bin/prover, which works without activating
        assert not cmd.startswith("prover "), cmd
        for m in re.finditer(r"\b(examples/[\w./-]+?)(?:#|/?(?:\s|$))", cmd + " "):
            assert (ROOT / m.group(1)).exists(), (cmd, m.group(1))


def test_every_readme_command_is_either_run_or_skipped_with_a_reason():
    unclassified = [c for c in COMMANDS if skip_reason(c) is None and _rule(c, EXPECT) is None]
    assert not unclassified, f"add these README commands to EXPECT or SKIP: {unclassified}"


@pytest.mark.parametrize("i", range(len(COMMANDS)), ids=[c[:70] for c in COMMANDS])
def test_readme_command_runs(i: int, workdir: Workdir) -> None:
    cmd = COMMANDS[i]
    reason = skip_reason(cmd)
    if reason:
        pytest.skip(reason)
    rule = _rule(cmd, EXPECT)
    code, key = (rule[1], rule[2]) if rule else (0, "")
    res = workdir.run(i)
    output = res.stdout + res.stderr
    assert res.returncode == code, f"{cmd}\nexit {res.returncode}\n{output[-3000:]}"
    assert key in output, f"{cmd}\n{key!r} not in output:\n{output[-3000:]}"


def test_readme_commands_leave_git_status_clean(workdir: Workdir) -> None:
    """Run last (after every command of the README that runs here): nothing tracked changed and
    nothing new outside the ignored folders (`runs/`)."""
    runnable = [i for i, c in enumerate(COMMANDS) if skip_reason(c) is None]
    assert runnable
    workdir.run(runnable[-1])
    assert workdir.git_status() == "", f"the README's commands changed the tree:\n{workdir.git_status()}"


def test_command_extraction():
    text = ("Intro\n\n    .venv/bin/prover a \\\n        --b c   # comment\n    ray start x\n\n"
            "```python\nprover.x()\n```\n\n```sh\nprover parse \"t#x\"\n```\n  prover not-a-block\n")
    assert readme_commands(text) == [".venv/bin/prover a --b c", 'prover parse "t#x"']
    assert capped(".venv/bin/prover prove x#y --time-limit 120 --json") == \
        f".venv/bin/prover prove x#y --time-limit {TIME_CAP} --json"
    assert capped(".venv/bin/prover prove x#y").endswith(f"--time-limit {TIME_CAP}")
