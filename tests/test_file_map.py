"""The file maps stay current: every module and subpackage of ``prover`` is listed in its
package's ``__init__`` docstring (``* ``name`` — …``), and every top-level module and package in
``prover/__init__.py``'s map."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "prover"
PACKAGES = sorted(p for p in PACKAGE.rglob("*") if p.is_dir() and (p / "__init__.py").exists())


def _doc(init: Path) -> str:
    return ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""


def _members(pkg: Path) -> list[str]:
    out = []
    for m in sorted(pkg.iterdir()):
        if m.is_dir() and (m / "__init__.py").exists():
            out.append(f"``{m.name}/``")
        elif m.suffix == ".py" and (not m.name.startswith("_") or m.name == "__main__.py"):
            out.append(f"``{m.stem}``")
    return out


@pytest.mark.parametrize("pkg", PACKAGES, ids=[str(p.relative_to(PACKAGE)) for p in PACKAGES])
def test_every_module_is_in_its_package_map(pkg: Path) -> None:
    doc = _doc(pkg / "__init__.py")
    missing = [m for m in _members(pkg) if f"* {m} — " not in doc]
    assert not missing, f"{pkg.relative_to(PACKAGE.parent)}/__init__.py does not list {missing}"
    assert "Trust:" in doc


def test_the_top_level_map_names_every_package_and_module() -> None:
    doc = _doc(PACKAGE / "__init__.py")
    names = [f"``{p.name}/``" for p in PACKAGES if p.parent == PACKAGE]
    names += [f"``{m.name}``" for m in PACKAGE.glob("*.py") if not m.name.startswith("_")]
    missing = [n for n in names if n not in doc]
    assert not missing, f"prover/__init__.py's map misses {missing}"
