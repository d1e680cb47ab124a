"""Tile faces as SVG pictures, written into ``assets/tiles`` and served locally.

``h/A-B.svg`` lies flat with A on the left; ``v/A-B.svg`` stands with A on top.
Run ``python -m scorepad.app.faces`` to (re)write them, and
``python -m scorepad.app.faces --icons`` to redraw the app icons from
``assets/icon.svg`` (needs Playwright and /usr/bin/chromium).
"""

from __future__ import annotations

from pathlib import Path

# Pip spots on a 3x3 grid (column, row) for each value up to nine.
_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
    7: ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}
_HALF = 60
_FACE = "#fffdf4"
_EDGE = "#2b2b2b"
_PIP = "#151515"


def _half(value: int, ox: int, oy: int, flat: bool) -> str:
    dots = []
    for col, row in _SPOTS[value]:
        # Lying flat, a six reads as two rows of three, as on a real tile.
        cx, cy = (row, col) if flat else (col, row)
        x = ox + 14 + cx * 16
        y = oy + 14 + cy * 16
        dots.append(f'<circle cx="{x}" cy="{y}" r="5.2" fill="{_PIP}"/>')
    return "".join(dots)


def face_svg(a: int, b: int, *, flat: bool) -> str:
    """The SVG picture of tile ``a-b``: flat (a left, b right) or standing (a top, b bottom)."""
    w, h = (2 * _HALF, _HALF) if flat else (_HALF, 2 * _HALF)
    divider = (
        f'<line x1="{_HALF}" y1="6" x2="{_HALF}" y2="{h - 6}"'
        if flat
        else f'<line x1="6" y1="{_HALF}" x2="{w - 6}" y2="{_HALF}"'
    ) + f' stroke="{_EDGE}" stroke-width="2.5"/>'
    second = (_HALF, 0) if flat else (0, _HALF)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="8" fill="{_FACE}"'
        f' stroke="{_EDGE}" stroke-width="3"/>'
        f"{divider}{_half(a, 0, 0, flat)}{_half(b, *second, flat)}</svg>"
    )


def face_src(a: int, b: int, *, flat: bool) -> str:
    """The URL path of a tile face among the served assets."""
    return f"/tiles/{'h' if flat else 'v'}/{a}-{b}.svg"


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
    from playwright.sync_api import sync_playwright

    from tests.browser import launch_chromium  # a developer tool: run from the source tree

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
    import sys

    from scorepad.app.serve import ASSETS_DIR

    if "--icons" in sys.argv[1:]:
        for icon in write_icons(ASSETS_DIR):
            print(icon)
    else:
        print(f"wrote {write_faces(ASSETS_DIR)} tile faces into {ASSETS_DIR / 'tiles'}")
