"""Trying a placement on a copy of the layout, so the engine's own board count answers.

``fork_layout`` copies a ``Layout`` in a few microseconds (laying every tile
again, as ``scorepad.rules.choices.clone`` does, costs as much per probe as
the hand is long, and the analysis probes every legal tile after every play).
The copy is exact: ``tests/analysis/test_probe.py`` checks it against
``choices.clone`` on random layouts, further placements included.
"""

from __future__ import annotations

from types import MappingProxyType

from scorepad.rules import Layout
from scorepad.rules.hand import score_of

# The Layout fields this copy knows. Should the engine add one, the analysis refuses to
# import rather than copy a layout half-way (and tests/analysis/test_probe.py says so).
_FIELDS = frozenset(
    (
        "_arms",
        "_count",
        "_ends",
        "_ends_view",
        "_placed",
        "_points",
        "long_sides_first",
        "set_tile",
        "sniff_at",
        "sniff_index",
        "sniff_rule",
        "sniff_value",
    )
)
if frozenset(Layout.__slots__) != _FIELDS:  # pragma: no cover - only when the engine's Layout changes
    raise ImportError("scorepad.analysis.probe does not know every field of Layout; update fork_layout")

_new = object.__new__


def fork_layout(layout: Layout) -> Layout:
    """An independent copy of ``layout``: placing on it never changes the original.

    Placements are tuples of plain values, so copying the lists that hold them is enough.
    """
    twin: Layout = _new(Layout)
    twin.sniff_rule = layout.sniff_rule
    twin.long_sides_first = layout.long_sides_first
    twin.set_tile = layout.set_tile
    twin.sniff_value = layout.sniff_value
    twin.sniff_at = layout.sniff_at
    twin.sniff_index = layout.sniff_index
    arms = layout._arms
    twin._arms = {"left": arms["left"][:], "right": arms["right"][:], "up": arms["up"][:], "down": arms["down"][:]}
    twin._placed = layout._placed[:]
    twin._count = layout._count
    ends = twin._ends = layout._ends.copy()
    twin._ends_view = MappingProxyType(ends)
    twin._points = layout._points.copy()
    return twin


def count_after(layout: Layout, tile: tuple[int, int], at: str | None) -> int:
    """The board count ``layout`` would show with ``tile`` laid at ``at`` (``layout`` is unchanged).

    Raises IllegalEventError when the tile does not fit there.
    """
    trial = fork_layout(layout)
    trial.place(tile, at)
    return trial.board_count


def score_after(layout: Layout, tile: tuple[int, int], at: str | None) -> tuple[int, int]:
    """``(board count, score)`` of laying ``tile`` at ``at`` on a copy of ``layout``."""
    count = count_after(layout, tile, at)
    return count, score_of(count)


def sniff_sides_covered(layout: Layout) -> int:
    """How many of the Sniff's four sides carry a tile (0 without a Sniff)."""
    if layout.sniff_value is None:
        return 0
    arms = layout._arms  # read directly: the public ``arms`` builds every placement anew
    short = bool(arms["up"]) + bool(arms["down"])
    if layout.sniff_at == "set":
        return bool(arms["left"]) + bool(arms["right"]) + short
    arm = arms[layout.sniff_at or "left"]
    # Laid on an arm, its near side is covered from the start (R2).
    return 1 + (len(arm) > layout.sniff_index + 1) + short
