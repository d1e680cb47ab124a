"""Make the table-screen screenshots for the docs at 360x640, 412x900 and 1280x800 (and dark, and sideways;
three sides, four sides and double-nine at 360x640), and the score sheet with the day's series at 360x640.

    uv run python scripts/screenshots.py [--out docs/images]

Serves the app on a throwaway database, plays a few tiles of a two-player
smartt hand through the page (by its semantic identifiers, as a scorer
would), opens the match by its address at each size, and saves PNGs. Needs
Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.browser import AppServer, TablePage, launch_chromium, sel

# A hand with the Sniff crosswise, both long sides and one short end covered,
# ordinary doubles crosswise on the arms, and a score to call at the end. No
# tile here fits two ends that count differently, so the page asks no end.
POSITION: list[tuple[str, str | None]] = [
    ("5-5", None), ("3-5", None), ("5-6", None), ("3-3", None), ("4-6", None),
    ("1-5", None), ("2-3", None), ("4-4", None), ("2-2", None), ("2-6", None),
]  # fmt: skip
SIZES = {
    "small-phone": {"width": 360, "height": 640},
    "phone": {"width": 412, "height": 900},
    "desktop": {"width": 1280, "height": 800},
    "sideways": {"width": 640, "height": 360},
}


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
                first = TablePage(browser, server.url, viewport=SIZES["phone"])
                first.open()
                first.tap("new-match")
                first.tap("start-match")
                first.wait_text("board-count", "0")
                for tile, at in POSITION:
                    lay(first, tile, at)
                first.wait_text("board-count", "20")
                address = "match/" + first.page.url.rstrip("/").split("/match/")[1]
                first.close()
                shots = [(name, "light") for name in SIZES] + [("small-phone", "dark"), ("desktop", "dark")]
                for name, scheme in shots:
                    page = TablePage(browser, server.url, viewport=SIZES[name], color_scheme=scheme)
                    page.open(address, ready="board-count")
                    page.wait_text("board-count", "20")
                    settle_frame(page)
                    suffix = "" if scheme == "light" else "-dark"
                    path = out / f"table-{name}{suffix}.png"
                    page.screenshot(path)
                    written.append(path)
                    if name == "small-phone" and scheme == "light":
                        # The picture of the layout and the details are a swipe below the call row.
                        page.scroll_into_view("end-right")
                        settle_frame(page)
                        lower = out / "table-small-phone-layout.png"
                        page.screenshot(lower)
                        written.append(lower)
                    page.close()
                written += _more_sides(browser, server, out)
                written.append(_series_sheet(browser, server, out))
                browser.close()
        finally:
            server.stop()
    return written


def _more_sides(browser: object, server: AppServer, out: Path) -> list[Path]:
    """At 360x640: three players, four each for himself, and three with the double-nine set, after the set."""
    written = []
    for name, players, switches, tile in (
        ("three", 3, (), "6-6"),
        ("four", 4, ("partners",), "6-6"),
        ("double-nine", 3, ("double-nine",), "9-9"),
    ):
        page = TablePage(browser, server.url, viewport=SIZES["small-phone"])
        page.open()
        page.tap("new-match")
        page.tap(f"players-{players}")
        page.wait_for(f"name-{players - 1}")
        for switch in switches:
            page.tap(switch)
        page.wait_contains("rules-summary", "double-nine" if "double-nine" in switches else f"{players} players")
        page.tap("start-match")
        page.wait_text("board-count", "0")
        lay(page, tile, None)
        page.wait_contains("turn", "to play")
        settle_frame(page)
        path = out / f"table-small-phone-{name}.png"
        page.screenshot(path)
        written.append(path)
        page.close()
    return written


def _series_sheet(browser: object, server: AppServer, out: Path) -> Path:
    """At 360x640: a game to 20 won by Ann, Next game, then the score sheet with the first hand's working
    open and the day's series."""
    page = TablePage(browser, server.url, viewport=SIZES["small-phone"])
    page.open()
    page.tap("new-match")
    page.fill("target", "20")
    page.wait_contains("rules-summary", "to 20")
    page.tap("start-match")
    page.wait_text("board-count", "0")
    for tile in ("5-5", "0-5"):
        lay(page, tile, None)
    page.tap("tile-0-0")  # Ann reaches 20: the picker goes with the game
    page.wait_contains("game-result", "won game 1")
    page.tap("next-game")
    page.wait_text("turn", "Bob to set")
    page.tap("show-sheet")
    page.tap("sheet-hand-1")
    page.wait_for("sheet-working-1")
    settle_frame(page)
    path = out / "sheet-small-phone-series.png"
    page.screenshot(path)
    page.close()
    return path


def main() -> None:
    """Command line: where to write the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="folder for the PNGs")
    args = parser.parse_args()
    for path in make_screenshots(args.out):
        print(path)


if __name__ == "__main__":
    main()
