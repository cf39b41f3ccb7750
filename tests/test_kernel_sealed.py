"""The kernel is sealed: it imports nothing of the project outside itself, and its source uses
no parser that evaluates text (``eval``, ``exec``, sympy's ``parse_expr``/``sympify``) and no floats."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

KERNEL = Path(__file__).resolve().parents[1] / "prover" / "kernel"


def test_kernel_imports_only_itself_in_a_fresh_interpreter() -> None:
    code = ("import sys\n"
            "import prover.kernel.check, prover.kernel.terms, prover.kernel.ir, prover.kernel.lemma\n"
            "import prover.kernel.algebra, prover.kernel.positivity\n"
            "mods = sorted(m for m in sys.modules if m == 'prover' or m.startswith('prover.'))\n"
            "print(','.join(mods))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=KERNEL.parents[1]).stdout.strip().split(",")
    outside = [m for m in out if m != "prover" and not m.startswith("prover.kernel")]
    assert not outside, f"the kernel imported {outside}"


def _kernel_sources() -> list[tuple[Path, ast.AST]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(KERNEL.glob("*.py"))]


def test_kernel_source_never_imports_the_project_outside_itself() -> None:
    for path, tree in _kernel_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("prover"):
                assert node.module.startswith("prover.kernel"), f"{path.name} imports {node.module}"
            if isinstance(node, ast.ImportFrom):   # ``from .. import x`` would leave the kernel
                assert node.level <= 1, f"{path.name}:{node.lineno} imports from outside the kernel"
            if isinstance(node, ast.Import):
                for a in node.names:
                    assert not a.name.startswith("prover") or a.name.startswith("prover.kernel"), \
                        f"{path.name} imports {a.name}"


def test_kernel_source_has_no_evaluating_parser_and_no_floats() -> None:
    banned_calls = {"eval", "exec", "compile", "__import__", "parse_expr", "sympify", "S", "float",
                    "getattr"}
    for path, tree in _kernel_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "re":
                    continue  # re.compile: the tokenizer's regular expression
                if name == "getattr" and path.name == "ir.py":
                    continue  # ir.as_json: calls a ``to_json`` method the caller's object provides
                assert name not in banned_calls, f"{path.name}:{node.lineno} calls {name}"
            if isinstance(node, ast.Constant):
                assert not isinstance(node.value, float), f"{path.name}:{node.lineno} has a float literal"
