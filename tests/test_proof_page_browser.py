"""proof.html in a real headless browser (Debian's ``chromium``): the page loads without console
errors, the DOM shows the verdict, the typeset math and the plot, and a screenshot can be taken.

Skipped when no browser is installed (``apt-get install -y chromium`` to run it); CI runs it
where chromium is present. Lighter checks of the same page without a browser:
``tests/test_proof_readable.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prover.ir import Proof
from prover.search.page import PageVerdict, proof_html
from prover.search.screenshot import dump_dom, find_browser, screenshot

pytestmark = pytest.mark.skipif(find_browser() is None,
                                reason="no headless browser: install Debian's chromium (apt-get install -y chromium)")

IMO = Path(__file__).parent / "data" / "imo2001_p2.proof.json"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    proof = Proof.loads(IMO.read_text(encoding="utf-8"))
    v = PageVerdict(True, time_s=35.2, command="prover prove benchmarks/mo-int-20.jsonl#P8 --out runs/p8")
    path = tmp_path_factory.mktemp("page") / "proof.html"
    path.write_text(proof_html(proof, "mo-int-20/P8", proof.meta["stats"], verdict=v), encoding="utf-8")
    return path


def test_page_loads_without_console_errors_and_shows_the_verdict(page: Path) -> None:
    run = dump_dom(page)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.console_errors() == [], run.console_errors()
    dom = run.stdout
    assert 'id="verdict">Proof accepted by the kernel<' in dom
    assert "<math" in dom and "<mfrac>" in dom          # parsed as MathML, not text
    assert "<svg" in dom and "equality at a = 1" in dom
    assert "theorem P8" in dom                            # the Lean text beside the steps
    assert "<table class=\"stats\">" in dom


def test_unknown_verdict_is_shown_too(tmp_path: Path) -> None:
    proof = Proof.loads(IMO.read_text(encoding="utf-8"))
    path = tmp_path / "proof.html"
    path.write_text(proof_html(proof, equality=False, lean_error="not rendered in this test"), encoding="utf-8")
    run = dump_dom(path)
    assert run.console_errors() == []
    assert 'id="verdict">No verdict recorded on this page<' in run.stdout
    assert "not rendered in this test" in run.stdout


def test_screenshot(page: Path, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    run = screenshot(page, out, 1200, 900)
    assert run.console_errors() == []
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000   # a real page, not a blank one


def test_the_error_detector_sees_a_script_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><p>x</p><script>undefinedThing.call()</script></body></html>",
                   encoding="utf-8")
    errs = dump_dom(bad).console_errors()
    assert errs and "Uncaught" in errs[0]
