"""The Python API examples in the README run as written (from the repository root, as a user
following the README would), and the public API behaves as the README says."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _api_snippets() -> list[str]:
    section = README.read_text().split("## Python API", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def _run_snippet(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})  # noqa: S102 - the README's own code


def test_readme_has_a_proving_and_a_suggestion_example():
    snippets = _api_snippets()
    assert len(snippets) >= 2
    assert any("from prover import" in s and "prove(" in s for s in snippets)
    assert any("suggest_tactics(" in s for s in snippets)


def test_readme_proving_example_runs(capsys, monkeypatch):
    code = next(s for s in _api_snippets() if "prove(" in s)
    _run_snippet(code, monkeypatch)
    out = capsys.readouterr().out
    assert out.startswith("proved ")
    assert "theorem nesbitt" in out and "linear_combination" in out       # the Lean text
    assert "ProveResult(status='proved'" in out
    assert "counterexample {" in out
    assert "cannot read it: variables of type `ℕ`" in out


def test_readme_python_api_example_runs(capsys, monkeypatch):
    code = next(s for s in _api_snippets() if "suggest_tactics(" in s)
    _run_snippet(code, monkeypatch)
    out = capsys.readouterr().out
    assert "kernel-checked" in out and "closes the goal" in out
    assert "linear_combination" in out                   # the best step's Lean tactic text


def test_import_prover_is_light_and_exports_the_api():
    code = ("import sys, prover\n"
            "heavy = [m for m in ('torch', 'vllm', 'cvxpy', 'sympy') if m in sys.modules]\n"
            "assert heavy == [], heavy\n"
            "from prover import prove, check, parse, suggest_tactics, ParseError, ProveResult\n"
            "heavy = [m for m in ('torch', 'vllm', 'cvxpy') if m in sys.modules]\n"
            "assert heavy == [], heavy\n"
            "import prover.frontend.errors as e\n"
            "assert ParseError is e.ParseError\n"
            "print('ok')\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=120, check=False)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr
