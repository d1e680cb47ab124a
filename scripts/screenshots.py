"""Make the table-screen screenshots for the docs: phone (412x900) and desktop (1280x800), light and dark.

    uv run python scripts/screenshots.py [--out docs/images]

Serves the app on a throwaway database, plays a few tiles of a two-player
smartt hand through the page (by its semantic identifiers, as a scorer
would), and saves PNGs. Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.browser import DESKTOP, PHONE, AppServer, TablePage, launch_chromium, sel

# A hand with the Sniff crosswise, both long sides and one short end covered,
# ordinary doubles crosswise on the arms, and a score to call at the end.
POSITION: list[tuple[str, str | None]] = [
    ("5-5", None), ("3-5", "left"), ("5-6", None), ("3-3", None), ("4-6", None),
    ("1-5", "up"), ("2-3", None), ("4-4", None), ("2-2", None), ("2-6", None),
]


def lay(page: TablePage, tile: str, at: str | None) -> None:
    """Tap a tile (and its end) and wait until the picker marks it played."""
    page.tap(f"tile-{tile}")
    if at is not None:
        page.tap(f"at-{at}")
    page.page.wait_for_function(
        "s => { const e = document.querySelector(s);"
        " return e !== null && ((e.getAttribute('aria-label') || '') + e.textContent).includes('played'); }",
        arg=sel("tile-" + tile),
    )


def settle_frame(page: TablePage) -> None:
    """Move the pointer off the controls and give the renderer a moment (no stale frame, no tooltip)."""
    page.page.mouse.move(2, 2)
    page.page.wait_for_timeout(600)


def make_screenshots(out: Path) -> list[Path]:
    """Play the position and save the screenshots into ``out``; returns the files written."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = AppServer(f"sqlite:///{Path(tmp) / 'shots.db'}", renderer="canvaskit")
        server.start(log_path=Path(tmp) / "server.log")
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                phone = TablePage(browser, server.url, viewport=PHONE)
                phone.open()
                phone.tap("new-match")
                phone.tap("start-match")
                phone.wait_text("board-count", "0")
                for tile, at in POSITION:
                    lay(phone, tile, at)
                phone.wait_text("board-count", "20")
                phone.close()
                for scheme in ("light", "dark"):
                    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                        page = TablePage(browser, server.url, viewport=viewport, color_scheme=scheme)
                        page.open()
                        page.tap("resume-latest")
                        page.wait_text("board-count", "20")
                        settle_frame(page)
                        suffix = "" if scheme == "light" else "-dark"
                        path = out / f"table-{name}{suffix}.png"
                        page.screenshot(path)
                        written.append(path)
                        if name == "phone" and scheme == "light":
                            # The picture of the layout sits below the picker on a phone.
                            page.scroll_into_view("end-right")
                            page.page.mouse.wheel(0, 400)
                            settle_frame(page)
                            lower = out / "table-phone-layout.png"
                            page.screenshot(lower)
                            written.append(lower)
                        page.close()
                browser.close()
        finally:
            server.stop()
    return written


def main() -> None:
    """Command line: where to write the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="folder for the PNGs")
    args = parser.parse_args()
    for path in make_screenshots(args.out):
        print(path)


if __name__ == "__main__":
    main()
