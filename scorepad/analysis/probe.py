"""Trying a placement on the layout without laying it (``Layout.count_if``), so the engine's own board count answers."""

from __future__ import annotations

from scorepad.rules import Layout
from scorepad.rules.hand import score_of


def count_after(layout: Layout, tile: tuple[int, int], at: str | None) -> int:
    """The board count ``layout`` would show with ``tile`` laid at ``at`` (``layout`` is unchanged).

    Raises IllegalEventError when the tile does not fit there.
    """
    return layout.count_if(tile, at)


def score_after(layout: Layout, tile: tuple[int, int], at: str | None) -> tuple[int, int]:
    """``(board count, score)`` of laying ``tile`` at ``at`` on a copy of ``layout``."""
    count = count_after(layout, tile, at)
    return count, score_of(count)


def sniff_sides_covered(layout: Layout) -> int:
    """How many of the Sniff's four sides carry a tile (0 without a Sniff)."""
    if layout.sniff_value is None:
        return 0
    # Laid on an arm, its near side is covered from the start (R2): sniff_open_sides counts it closed.
    long_open, short_open = layout.sniff_open_sides()
    return 4 - long_open - short_open
