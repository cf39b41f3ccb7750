"""The import graph of ``prover.*`` has no cycles and runs one way.

The graph is built statically (``ast``) from every ``import`` in the package, at module level AND
inside functions (a function-level import is still a dependency; it only runs later). Imports
under ``if TYPE_CHECKING:`` count too: an annotation-only cycle is still a cycle in the design.
An edge goes to the module actually named: ``from prover.search import services`` is an edge to
``prover.search.services``, ``from prover.rewrite import TangentPlane`` one to ``prover.rewrite``;
the parent packages a dotted import initializes on the way are not edges (a package's
``__init__`` importing its own submodules would otherwise make every sibling import a cycle).

Layering (``CLI -> api -> search -> rewrite/solvers/oracles -> kernel``) is checked as a few
forbidden package edges. That the kernel imports nothing outside itself is
``tests/test_kernel_sealed.py``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "prover"


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.path}:{self.line})"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The longest prefix of ``name`` that is a module of the package."""
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, text: str | None = None) -> list[Edge]:
    """Every import of a ``prover`` module in ``path`` (or in ``text``, read as that file),
    wherever it stands in the file."""
    source = path.read_text(encoding="utf-8") if text is None else text
    tree = ast.parse(source, str(path))
    rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    out: list[Edge] = []
    for node in ast.walk(tree):
        named: list[str] = []
        if isinstance(node, ast.Import):
            named = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path.name == "__init__.py", node)
            for a in node.names:
                sub = f"{base}.{a.name}"
                named.append(sub if sub in modules() else base)
        for name in named:
            if name == "prover" or name.startswith("prover."):
                target = _resolve(name)
                if target is not None and target != module:
                    out.append(Edge(module, target, rel, node.lineno))
    return out


@cache
def graph() -> dict[str, list[Edge]]:
    return {m: imports_of(m, p) for m, p in modules().items()}


def strongly_connected(g: dict[str, list[Edge]]) -> list[list[str]]:
    """Tarjan's components of more than one module (a module never imports itself here)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for e in g[v]:
            if e.target not in index:
                visit(e.target)
                low[v] = min(low[v], low[e.target])
            elif e.target in on_stack:
                low[v] = min(low[v], index[e.target])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def a_cycle(g: dict[str, list[Edge]], component: list[str]) -> list[Edge]:
    """One cycle through the first module of ``component``, as its edges (breadth-first)."""
    inside = set(component)
    start = component[0]
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for e in g[v]:
                if e.target not in inside:
                    continue
                if e.target == start:
                    path = [e]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if e.target not in came:
                    came[e.target] = e
                    nxt.append(e.target)
        frontier = nxt
    raise AssertionError(f"no cycle in {component}")


def test_the_graph_sees_function_level_relative_and_type_checking_imports() -> None:
    text = ("from __future__ import annotations\n"
            "from typing import TYPE_CHECKING\n"
            "from . import terms\n"
            "from .algebra import KernelError\n"
            "if TYPE_CHECKING:\n"
            "    from prover.ir import Goal\n"
            "def f():\n"
            "    from prover.search.services import closer\n"
            "    import prover.problem\n"
            "    import sympy\n")
    edges = imports_of("prover.kernel.lemma", PACKAGE / "kernel" / "lemma.py", text)
    assert sorted(e.target for e in edges) == ["prover.ir", "prover.kernel.algebra", "prover.kernel.terms",
                                               "prover.problem", "prover.search.services"]
    assert [e.line for e in edges if e.target == "prover.search.services"] == [8]


def test_cycle_finder_reports_a_cycle() -> None:
    e = [Edge("a", "b", "a.py", 1), Edge("b", "c", "b.py", 2), Edge("c", "a", "c.py", 3),
         Edge("c", "d", "c.py", 4)]
    g = {"a": [e[0]], "b": [e[1]], "c": e[2:], "d": []}
    comps = strongly_connected(g)
    assert comps == [["a", "b", "c"]]
    assert [str(x) for x in a_cycle(g, comps[0])] == [str(x) for x in e[:3]]


def test_no_import_cycles_between_modules() -> None:
    g = graph()
    comps = strongly_connected(g)
    report = []
    for comp in comps:
        report.append(f"cycle among {', '.join(comp)}:\n    " + "\n    ".join(map(str, a_cycle(g, comp))))
    assert not comps, "import cycles:\n" + "\n".join(report)


#: (importing package, imported package): edges against the direction
#: ``commands/cli -> api -> search -> rewrite/solvers/oracles/tactics -> kernel``.
FORBIDDEN = [
    ("prover.search", "prover.api"),
    ("prover.search", "prover.cli"),
    ("prover.search", "prover.commands"),
    ("prover.search", "prover.eval"),
    ("prover.llm", "prover.search"),
    ("prover.llm", "prover.api"),
    *[(low, high) for low in ("prover.rewrite", "prover.solvers", "prover.oracles", "prover.tactics")
      for high in ("prover.api", "prover.cli", "prover.commands", "prover.eval", "prover.search",
                   "prover.llm")],
    # the closers and the oracles sit below the rewrites (which call SOS) and the catalogue matcher
    *[(low, high) for low in ("prover.solvers", "prover.oracles") for high in ("prover.rewrite", "prover.tactics")],
]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_imports_run_one_way() -> None:
    bad = sorted({str(e) for edges in graph().values() for e in edges
                  for low, high in FORBIDDEN if _within(e.source, low) and _within(e.target, high)})
    assert not bad, "imports against the layering:\n" + "\n".join(bad)
