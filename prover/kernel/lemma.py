"""Catalogue lemmas as the kernel reads them (kernel terms, parsed from their JSON form).

The kernel never loads the catalogue itself: the caller passes a lookup ``name -> lemma``
(a :class:`Lemma`, or any object with ``to_json()`` giving this module's JSON form). A lemma is
trusted only if ``trust == "kernel"`` and its ``certificate`` (a close certificate for
``lhs <= rhs`` over ``side_conditions``) checks, or ``trust == "lean"`` (its proof lives in
``lean_project/`` under ``lean_name``; such proofs are reported as resting on Lean).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from prover.kernel import terms as T
from prover.kernel.ir import IRError, _variables, as_json, read_expr, read_rel


@dataclass(frozen=True)
class Lemma:
    name: str
    variables: tuple[str, ...]
    side_conditions: tuple[T.Rel, ...]
    lhs: T.Term            # the lemma says lhs <= rhs
    rhs: T.Term
    trust: str             # "kernel" | "lean"
    lean_name: str
    certificate: Any
    digest: str            # sha256 of the JSON form: which statement and certificate were used

    @staticmethod
    def from_json(obj: Any) -> Lemma:
        d = as_json(obj)
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise IRError("a lemma must be an object with a name")
        w = f"lemma {d['name']}"
        vs = _variables(d.get("variables"), w)
        sides = d.get("side_conditions")
        if not isinstance(sides, list):
            raise IRError(f"{w}: 'side_conditions' must be a list")
        digest = hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()
        return Lemma(d["name"], vs, tuple(read_rel(s, vs, f"{w} side condition") for s in sides),
                     read_expr(d.get("lhs"), vs, f"{w} lhs"), read_expr(d.get("rhs"), vs, f"{w} rhs"),
                     str(d.get("trust")), str(d.get("lean_name") or ""), d.get("certificate"), digest)


LemmaLookup = Callable[[str], Any]
