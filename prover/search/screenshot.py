"""Screenshots of a proof page with a headless browser (Debian's ``chromium``), and the same
browser run used by the tests (``tests/test_proof_page_browser.py``).

    .venv/bin/python -m prover.search.screenshot PROOF OUT.png [--width 1400] [--height 1800]

PROOF is a ``proof.json``, a folder holding one (``prover prove --out DIR``), or a ``.html`` page.
From a proof the page is written afresh (next to OUT, as ``OUT.html``) with the kernel's verdict
checked again now; an ``.html`` page is photographed as it is. ``make screenshots`` makes
``docs/proof-page.png`` from the IMO 2001/2 proof in ``tests/data/``. Needs ``chromium``
(``apt-get install chromium``); exit code 2 without it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_FLAGS = ("--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
          "--disable-extensions", "--mute-audio", "--enable-logging=stderr", "--v=0")
#: Lines of the browser's log that come from the page (not the sandbox's dbus noise). Chromium logs
#: every console message the same way (``INFO:CONSOLE``, whatever its level); the page has no
#: scripts, so any of them — an uncaught error, a resource that failed to load — is a problem.
CONSOLE_ERROR = re.compile(r"Uncaught|:CONSOLE[:(\]]|Failed to load resource")


class NoBrowser(RuntimeError):
    """No headless browser on this machine."""


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class BrowserRun:
    returncode: int
    stdout: str
    stderr: str

    def console_errors(self) -> list[str]:
        return [ln for ln in self.stderr.splitlines() if CONSOLE_ERROR.search(ln)]


def run_browser(page: Path, *extra: str, timeout: float = 90.0) -> BrowserRun:
    """Load ``page`` (a local file) headless with ``extra`` flags (``--dump-dom``, ``--screenshot=…``)."""
    browser = find_browser()
    if browser is None:
        raise NoBrowser("no headless browser found (install Debian's `chromium`: apt-get install -y chromium)")
    with tempfile.TemporaryDirectory(prefix="prover-browser-") as profile:
        cmd = [browser, *_FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    return BrowserRun(res.returncode, res.stdout, res.stderr)


def dump_dom(page: Path) -> BrowserRun:
    """The page's DOM after loading (``stdout``) and the browser's log (``stderr``)."""
    return run_browser(page, "--dump-dom")


def screenshot(page: Path, out: Path, width: int = 1400, height: int = 1800) -> BrowserRun:
    out.parent.mkdir(parents=True, exist_ok=True)
    res = run_browser(page, f"--window-size={width},{height}", f"--screenshot={out.resolve()}")
    if not out.is_file():
        raise RuntimeError(f"the browser wrote no screenshot (exit {res.returncode}): {res.stderr[-500:]}")
    return res


def page_for(proof_path: Path, html_out: Path) -> Path:
    """Write the page of a saved proof (kernel verdict checked again now) to ``html_out``."""
    from prover.ir import Proof
    from prover.search.page import check_verdict, proof_html

    src = proof_path / "proof.json" if proof_path.is_dir() else proof_path
    proof = Proof.loads(src.read_text(encoding="utf-8"))
    stats = proof.meta.get("stats") if isinstance(proof.meta.get("stats"), dict) else None
    cmd = f"python -m prover.search.screenshot {proof_path}"
    html_out.write_text(proof_html(proof, proof.problem.name, stats, verdict=check_verdict(proof, cmd)),
                        encoding="utf-8")
    return html_out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m prover.search.screenshot", description=__doc__.split("\n\n")[0])
    ap.add_argument("proof", type=Path, help="proof.json, a folder with one, or a proof.html page")
    ap.add_argument("out", type=Path, help="the PNG to write")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=1800)
    args = ap.parse_args(argv)
    if find_browser() is None:
        print("error: no headless browser (install Debian's `chromium`: apt-get install -y chromium)", file=sys.stderr)
        return 2
    if not args.proof.exists():
        print(f"error: no such file or folder: {args.proof}", file=sys.stderr)
        return 2
    if args.proof.suffix == ".html":
        page = args.proof
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page = page_for(args.proof, args.out.with_suffix(".html"))
    res = screenshot(page, args.out, args.width, args.height)
    errs = res.console_errors()
    for ln in errs:
        print(f"browser: {ln}", file=sys.stderr)
    print(f"wrote {args.out} ({args.width}×{args.height}) from {page}")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
