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

from dataclasses import dataclass

from scorepad.rules.errors import IllegalEventError
from scorepad.rules.layout import Layout
from scorepad.rules.wording import end_names


def outcome(layout: Layout, tile: tuple[int, int], at: str) -> tuple[int, tuple[int, ...]]:
    """What laying ``tile`` at ``at`` leaves: the board count and the values of the open ends (sorted).

    Two choices with the same outcome score the same now and leave the same
    ends to play to. Whatever else differs (which side of the Sniff a tile
    covers, say) cannot change a later count: an end that would open the
    Sniff's short ends shows up in the open ends, and the Sniff's own points
    are part of the count (Smartt §6-7; Jaques' any order makes its four sides
    alike). Raises IllegalEventError when the tile does not fit that end.
    """
    after = layout.copy()
    after.place(tile, at)
    return after.board_count, tuple(sorted(after.open_ends().values()))


def distinct_ends(layout: Layout, tile: tuple[int, int]) -> list[str]:
    """The ends ``tile`` fits, one for each different outcome, in the layout's own order of ends.

    Ends whose outcomes are the same (``outcome``: the same board count and
    the same open values) are represented by the first of them. An empty list: the tile
    fits nowhere (or the set is not down yet). One end: nothing to ask.
    """
    if layout.set_tile is None:
        return []
    seen: dict[tuple[int, tuple[int, ...]], str] = {}
    for at in layout.fits(tile):
        try:
            result = outcome(layout, tile, at)
        except IllegalEventError:  # pragma: no cover - fits() only names ends the tile couples to
            continue
        seen.setdefault(result, at)
    return list(seen.values())


@dataclass(frozen=True)
class EndChoice:
    """One end a tile may go on, named by what lies there (``on the 3-3``), with the count it would make."""

    at: str
    name: str
    board_count: int

    @property
    def words(self) -> str:
        """The choice as a button says it: ``on the 3-3 · count 18``."""
        return f"{self.name} · count {self.board_count}"


def end_choices(layout: Layout, tile: tuple[int, int]) -> list[EndChoice]:
    """The ends worth asking about for ``tile`` (``distinct_ends``), each named by the tile lying there.

    The name is the table's, never a picture's left or up, so a scorer reading
    the real table picks the right count (Smartt §7.1: the count is what the
    ends show).
    """
    ends = distinct_ends(layout, tile)
    names = end_names(layout, ends)
    return [EndChoice(at, names[at], outcome(layout, tile, at)[0]) for at in ends]
