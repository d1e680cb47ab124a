"""Tile faces as SVG pictures, served locally from the top-level ``assets/tiles``.

``h/A-B.svg`` lies flat with A on the left; ``v/A-B.svg`` stands with A on top.
``scripts/assets.py`` (re)writes the files from ``face_svg`` and redraws the icons.
"""

from __future__ import annotations

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
