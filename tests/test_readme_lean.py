"""The README's Lean example is what the prover renders today, and it passes the replay model."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prover.api import check
from prover.ir import Proof
from prover.lean.render import render_proof
from prover.lean.replay import replay_text

README = Path(__file__).resolve().parents[1] / "README.md"
#: The proof the README's command found (saved, so the rendering is compared, not the search).
PROOF = Path(__file__).resolve().parent / "data" / "two_ratios.proof.json"


def _lean_block() -> str:
    m = re.search(r"```lean\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert m, "README.md has no ```lean example"
    return m.group(1)


def _body(text: str) -> str:
    """The file without its comment header line."""
    return "\n".join(line for line in text.strip().splitlines() if not line.startswith("-- Rendered by")).strip()


def test_readme_lean_example_is_the_rendered_proof() -> None:
    proof = Proof.from_json(json.loads(PROOF.read_text(encoding="utf-8")))
    assert check(proof).ok
    shown = _lean_block()
    assert proof.problem.meta["lean"].split(":= by")[0] in shown
    assert _body(render_proof(proof)) == _body(shown)


def test_readme_lean_example_passes_the_replay_model() -> None:
    assert replay_text(_lean_block()).ok
