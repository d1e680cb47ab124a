"""Which ends a tile may go on that actually make a difference.

A tile that couples to more than one open end needs its ``at`` in the record
(records.md §3), but often every choice gives the same board count and leaves
the same open ends: the two long sides of a Sniff that was set, say, or two
arms ending in the same value. Such choices are equivalent for every score
that can follow, so a score-pad need not ask which one was meant; it picks one
deterministically and still writes the ``at`` it picked, so the record stays
unambiguous.

Pure functions over a ``Layout``; the layout passed in is never changed.
"""

from __future__ import annotations

from scorepad.rules.errors import IllegalEventError
from scorepad.rules.layout import Layout
from scorepad.rules.tiles import text


def clone(layout: Layout) -> Layout:
    """A copy of ``layout`` made by laying its tiles again in the order they were laid.

    Raises IllegalEventError only if ``layout`` itself could not have been
    built by legal placements (it cannot happen for a layout the engine made).
    """
    copy = Layout(sniff_rule=layout.sniff_rule, long_sides_first=layout.long_sides_first)
    for placed in layout.placements:
        if placed.at == "set":
            assert layout.set_tile is not None
            copy.place(layout.set_tile)
            continue
        # The inner value lies against the end; when it does not match, the coupling
        # stood (records.md §4, Smartt §11.5) and is laid again the same way.
        showing = copy.open_ends().get(placed.at)
        stands = showing not in (placed.inner, placed.outer)
        copy.place((placed.inner, placed.outer), placed.at, stands=stands)
    return copy


def outcome(layout: Layout, tile: tuple[int, int], at: str) -> tuple[int, tuple[int, ...], str]:
    """What laying ``tile`` at ``at`` leaves: the board count, the open values (sorted) and the Sniff's stage.

    Raises IllegalEventError when the tile does not fit that end.
    """
    after = clone(layout)
    after.place(tile, at)
    return after.board_count, tuple(sorted(after.open_ends().values())), after.sniff_stage()


def distinct_ends(layout: Layout, tile: tuple[int, int]) -> list[str]:
    """The ends ``tile`` fits, one for each different outcome, in the layout's own order of ends.

    Ends whose outcomes are the same (same board count, same open values, same
    Sniff stage) are represented by the first of them. An empty list: the tile
    fits nowhere (or the set is not down yet). One end: nothing to ask.
    """
    if layout.set_tile is None:
        return []
    seen: dict[tuple[int, tuple[int, ...], str], str] = {}
    for at in layout.fits(tile):
        try:
            result = outcome(layout, tile, at)
        except IllegalEventError:  # pragma: no cover - fits() only names ends the tile couples to
            continue
        seen.setdefault(result, at)
    return list(seen.values())


def describe(layout: Layout, tile: tuple[int, int], at: str) -> str:
    """The choice in words, for a button: the end, the value it shows and the count it would make."""
    count, _ends, _stage = outcome(layout, tile, at)
    return f"{text(tile)} at {at} ({layout.open_ends()[at]}): count {count}"
