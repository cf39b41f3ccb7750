"""No function of the package is 60 lines or longer (``def`` to its last line, nested functions
counted in their outer one): long functions are split into named steps."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "prover"
LIMIT = 60


def test_every_function_is_shorter_than_the_limit() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n >= LIMIT:
                    long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({n} lines)")
    assert not long, "functions of 60 lines or more:\n" + "\n".join(long)
