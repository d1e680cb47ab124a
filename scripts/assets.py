"""Write the served pictures into the top-level ``assets/``: every tile face, and the app icons.

``uv run --group dev python scripts/assets.py`` rewrites the tile faces from
``scorepad.app.models.faces.face_svg``; with ``--icons`` it redraws the PNG
icons from ``assets/icon.svg`` with Debian's Chromium (a developer tool: it
needs the test tools and runs from the source tree).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from scorepad.app.host.assets import ASSETS_DIR
from scorepad.app.models.faces import face_svg
from tests.browser import launch_chromium


def write_faces(assets_dir: Path, max_pip: int = 9) -> int:
    """Write every face up to double-``max_pip`` both ways round; returns how many files."""
    written = 0
    for flat, sub in ((True, "h"), (False, "v")):
        folder = assets_dir / "tiles" / sub
        folder.mkdir(parents=True, exist_ok=True)
        for a in range(max_pip + 1):
            for b in range(max_pip + 1):
                (folder / f"{a}-{b}.svg").write_text(face_svg(a, b, flat=flat))
                written += 1
    return written


# The PNG icons the web page asks for (they replace Flet's own), by size in pixels.
ICONS = {
    "icon.png": 512,
    "favicon.png": 64,
    "icons/icon-192.png": 192,
    "icons/icon-512.png": 512,
    "icons/icon-maskable-192.png": 192,
    "icons/icon-maskable-512.png": 512,
    "icons/apple-touch-icon-192.png": 192,
}


def write_icons(assets_dir: Path) -> list[Path]:
    """Draw ``assets/icon.svg`` at every size in ICONS with Debian's Chromium; returns the files."""
    svg = (assets_dir / "icon.svg").read_text()
    written = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for name, size in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace('width="512" height="512"', f'width="{size}" height="{size}"', 1)
            page.set_content(f'<html><body style="margin:0;background:transparent">{sized}</body></html>')
            path = assets_dir / name
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), omit_background=True)
            written.append(path)
            page.close()
        browser.close()
    return written


if __name__ == "__main__":
    if "--icons" in sys.argv[1:]:
        for icon in write_icons(ASSETS_DIR):
            print(icon)
    else:
        print(f"wrote {write_faces(ASSETS_DIR)} tile faces into {ASSETS_DIR / 'tiles'}")
