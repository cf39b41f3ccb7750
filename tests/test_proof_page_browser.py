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


# ---------------------------------------------------------------- long formulas stay in their pane

SHAPIRO = Path(__file__).parent / "data" / "shapiro4.proof.json"   # two steps, a 20-term polynomial goal

#: Run in the page (test only): where each formula, list item, table and block of the steps ends
#: on screen, clipped by its scrolling ancestors, and where the Lean pane starts.
_MEASURE = """<script>
function clipRight(el) {
  let right = el.getBoundingClientRect().right;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.overflowX !== 'visible') right = Math.min(right, p.getBoundingClientRect().right);
  }
  return right;
}
const main = document.querySelector('main').getBoundingClientRect();
const pane = document.querySelector('aside.lean').getBoundingClientRect();
const items = [...document.querySelectorAll('main math, main .goal, main li, main pre, main table, main svg')]
  .filter(el => el.getClientRects().length > 0)
  .map(el => ({tag: el.tagName, right: clipRight(el), full: el.getBoundingClientRect().right}));
const scrollers = [...document.querySelectorAll('main .goal')].map(el => el.scrollWidth > el.clientWidth);
document.body.setAttribute('data-bounds', JSON.stringify({
  main: [main.left, main.right], pane: [pane.left, pane.right], items, scrollers,
  page: [document.documentElement.scrollWidth, window.innerWidth]}));
</script>"""


def _bounds(html_text: str, tmp_path: Path, width: int) -> dict:
    import html as _html
    import json
    import re

    from prover.search.screenshot import run_browser

    path = tmp_path / "measured.html"
    path.write_text(html_text.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    run = run_browser(path, f"--window-size={width},900", "--dump-dom")
    assert run.returncode == 0, run.stderr[-2000:]
    m = re.search(r'data-bounds="([^"]*)"', run.stdout)
    assert m, run.stdout[-2000:]
    return json.loads(_html.unescape(m.group(1)))


@pytest.mark.parametrize("width", [1100, 1600])
def test_a_long_goal_never_overflows_into_the_lean_pane(tmp_path: Path, width: int) -> None:
    proof = Proof.loads(SHAPIRO.read_text(encoding="utf-8"))
    assert len(proof.steps()) >= 2
    page = proof_html(proof, "shapiro4", proof.meta["stats"], verdict=PageVerdict(True, time_s=3.8),
                      equality=False)
    b = _bounds(page, tmp_path, width)
    main_right, pane_left = b["main"][1], b["pane"][0]
    assert main_right <= pane_left, b                       # the two panes side by side, apart
    assert b["items"], b
    over = [it for it in b["items"] if it["right"] > main_right + 1]
    assert not over, (main_right, over)                     # nothing drawn past the steps' pane
    assert any(it["full"] > main_right for it in b["items"]), "the goal is not long enough to test this"
    assert any(b["scrollers"]), b                          # the long goal scrolls in its own box
    assert b["page"][0] <= b["page"][1], b                 # and the page itself does not scroll sideways


def test_statistics_are_collapsed(page: Path) -> None:
    dom = dump_dom(page).stdout
    i = dom.index("<table class=\"stats\">")
    opening = dom.rfind("<details", 0, i)
    assert opening >= 0 and " open" not in dom[opening:dom.index(">", opening)]
    assert "counters" in dom[opening:i] and "<h2>Statistics</h2>" in dom[opening - 40:opening]


def test_the_counterexample_page_loads_and_stays_in_the_window(tmp_path: Path) -> None:
    from prover.commands.prove import load_problem
    from prover.search.counterexample_page import counterexample_data, counterexample_html

    problem = load_problem("theorem g (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : x / y + y / x ≥ 2.1 := by sorry")
    page = counterexample_html(problem, counterexample_data(problem, {"x": "1", "y": "1"}, 0.1), "prover prove …")
    path = tmp_path / "counterexample.html"
    path.write_text(page, encoding="utf-8")
    run = dump_dom(path)
    assert run.returncode == 0 and run.console_errors() == [], run.stderr[-2000:]
    dom = run.stdout
    assert 'id="verdict">The statement is false: a counterexample<' in dom
    assert "<math" in dom and "<svg" in dom and "counterexample at x = 1" in dom
    assert ">fails<" in dom and dom.count(">holds<") == 2
