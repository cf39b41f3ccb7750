"""Data model: claims of a natural-language proof, their deducibility graph and labels.

Graph convention: an edge ``parent -> child`` means the child rests on the parent (the parent is
one of its premises). Nodes are claim indices ``0..n-1``. Subsets of claims are ``frozenset``s
of indices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

Subset = frozenset[int]


@dataclass
class Claim:
    """One step of a proof, as text, with an optional per-claim truth label and scores.

    ``formula`` is an optional machine-readable relation (sympy syntax, e.g. ``"a**2 + b**2 >= 2*a*b"``)
    that the symbolic scorer reads before trying to parse ``text``.
    """

    text: str
    label: bool | None = None
    scores: dict[str, float] = field(default_factory=dict)
    formula: str | None = None
    meta: dict = field(default_factory=dict)


@dataclass
class ClaimGraph:
    """A proof split into claims, plus its deducibility graph and (optionally) subset labels.

    ``subset_labels`` holds human judgements "this subset is coherently factual" (MATH data);
    ``variables``/``hypotheses`` give the symbolic scorer the context of the problem.
    """

    name: str
    prompt: str
    claims: list[Claim]
    graph: nx.DiGraph
    subset_labels: dict[Subset, bool] = field(default_factory=dict)
    variables: list[str] = field(default_factory=list)
    hypotheses: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.graph.add_nodes_from(range(len(self.claims)))
        bad = [v for v in self.graph.nodes if not (isinstance(v, int) and 0 <= v < len(self.claims))]
        if bad:
            raise ValueError(f"{self.name}: graph nodes {bad} are not claim indices")
        if not nx.is_directed_acyclic_graph(self.graph):
            raise ValueError(f"{self.name}: deducibility graph has a cycle")

    @property
    def n(self) -> int:
        return len(self.claims)

    def parents(self, v: int) -> list[int]:
        return sorted(self.graph.predecessors(v))

    def ancestor_matrix(self) -> np.ndarray:
        """``A[v, u]`` is True when ``u`` is ``v`` or an ancestor of ``v``."""
        a = np.eye(self.n, dtype=bool)
        for v in range(self.n):
            for u in nx.ancestors(self.graph, v):
                a[v, u] = True
        return a

    def is_ancestor_closed(self, subset: Iterable[int]) -> bool:
        s = set(subset)
        return all(u in s for v in s for u in self.graph.predecessors(v))

    def topological_order(self, subset: Iterable[int] | None = None) -> list[int]:
        """Premises first; ties broken by the original claim order."""
        nodes = set(range(self.n)) if subset is None else set(subset)
        order = nx.lexicographical_topological_sort(self.graph.subgraph(nodes))
        return list(order)

    def labels(self) -> np.ndarray:
        if any(c.label is None for c in self.claims):
            raise ValueError(f"{self.name}: some claims have no truth label")
        return np.array([bool(c.label) for c in self.claims], dtype=bool)

    def supported(self) -> np.ndarray:
        """Claims that are true and whose ancestors are all true (the most any coherent output keeps)."""
        return (self.ancestor_matrix() <= self.labels()[None, :]).all(axis=1)

    def without_edges(self) -> ClaimGraph:
        """The same claims with an empty graph (the independent-claim baseline's view)."""
        g = nx.DiGraph()
        g.add_nodes_from(range(self.n))
        return ClaimGraph(self.name, self.prompt, self.claims, g, self.subset_labels,
                          self.variables, self.hypotheses, self.meta)


# ------------------------------------------------------------------ labels of a whole subset

#: A label of an output: ``label(example, subset) -> bool`` (True = acceptable).
SubsetLabel = Callable[[ClaimGraph, Subset], bool]


def independent_label(ex: ClaimGraph, subset: Subset) -> bool:
    """Mohri & Hashimoto's factuality: every kept claim is true."""
    return all(ex.claims[v].label for v in subset)


def proxy_coherent_label(ex: ClaimGraph, subset: Subset) -> bool:
    """Coherent factuality w.r.t. the graph: ancestor-closed and every kept claim true."""
    return ex.is_ancestor_closed(subset) and independent_label(ex, subset)


def human_label(ex: ClaimGraph, subset: Subset) -> bool:
    """The human subset judgement when one exists, else the proxy label."""
    got = ex.subset_labels.get(frozenset(subset))
    return proxy_coherent_label(ex, subset) if got is None else got


LABELS: dict[str, SubsetLabel] = {
    "independent": independent_label,
    "proxy": proxy_coherent_label,
    "human": human_label,
}
