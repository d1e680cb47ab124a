"""What a hand's record reveals about who held which tile, and when.

A record names every tile played and, for a hand that went out or blocked,
may list the tiles each seat still held (records.md §4); draws give only a
count. Tiles never move from one rack to another, so a tile a seat plays
later, or still holds at the end, was already in its rack at an earlier
moment unless the seat took tiles from the boneyard in between. Nothing
here uses anything the record does not say.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from scorepad.analysis.naming import tile_key
from scorepad.rules import Adjust, Draw, HandState, Play
from scorepad.rules.hand import BLOCKED, OUT
from scorepad.rules.tiles import key, parse_tile

END = 1 << 30  # the "event" at which the remaining tiles are shown: after every event


@dataclass(frozen=True, slots=True)
class Reveal:
    """A tile a seat showed: played at ``event`` (0-based), or listed as remaining (``END``)."""

    event: int
    tile: tuple[int, int]


class Knowledge:
    """Per seat: the tiles it showed and when, the tiles it took in and when, and whether its rack is known."""

    def __init__(self, hand: HandState) -> None:
        rules = hand.rules
        players = rules.players
        self.players = players
        self.reveals: list[list[Reveal]] = [[] for _ in range(players)]
        self._intake_at: list[list[int]] = [[] for _ in range(players)]
        self._returned: list[list[int]] = [[] for _ in range(players)]  # misdeals that sent tiles back
        self.seat_of: list[int | None] = []
        for index, (event, outcome) in enumerate(zip(hand.events, hand.outcomes, strict=True)):
            seat = outcome.get("player")
            self.seat_of.append(seat)
            if isinstance(event, Play) and seat is not None:
                tile = tile_key(outcome["tile"], rules.max_pip)
                self.reveals[seat].append(Reveal(index, tile))
            elif isinstance(event, Draw) and seat is not None:
                self._intake_at[seat].append(index)
            elif isinstance(event, Adjust):
                if event.count > 0:
                    self._intake_at[event.seat].append(index)
                else:
                    self._returned[event.seat].append(index)
        self.complete_at_end = [False] * players
        if hand.how in (OUT, BLOCKED) and hand.remaining is not None:
            for seat, entry in enumerate(hand.remaining):
                # records.md §4: ``0`` and ``[]`` both say the rack is empty, so both name the whole rack.
                if isinstance(entry, list) or entry == 0:
                    self.complete_at_end[seat] = True
                if isinstance(entry, list):
                    for item in entry:
                        tile = key(*parse_tile(item, rules.max_pip))
                        self.reveals[seat].append(Reveal(END, tile))

    def next_intake(self, seat: int, after: int) -> int:
        """The first event at or after ``after`` that brought tiles into ``seat``'s rack (``END`` if none)."""
        found = self._intake_at[seat]
        i = bisect.bisect_left(found, after)
        return found[i] if i < len(found) else END + 1

    def held(self, seat: int, moment: int) -> list[Reveal]:
        """The tiles the record proves were in ``seat``'s rack just after event ``moment``.

        A tile shown later counts only if no tile came into the rack in between.
        """
        limit = self.next_intake(seat, moment + 1)
        return [r for r in self.reveals[seat] if moment < r.event < limit]

    def shown_after(self, seat: int, moment: int) -> list[Reveal]:
        """Every tile ``seat`` showed after event ``moment``."""
        return [r for r in self.reveals[seat] if r.event > moment]

    def rack_known(self, seat: int, moment: int) -> bool:
        """Whether every tile ``seat`` held at ``moment`` was shown later (the remaining tiles listed).

        A misdeal that sent tiles back afterwards hides which ones went.
        """
        return self.complete_at_end[seat] and not any(i > moment for i in self._returned[seat])
