"""What a hand's record reveals about who held which tile, and when.

A record names every tile played and, for a hand that went out or blocked,
may list the tiles each seat still held (records.md §4); draws give only a
count. Tiles never move from one rack to another, so a tile a seat plays
later, or still holds at the end, was already in its rack at an earlier
moment unless the seat took tiles from the boneyard in between. Nothing
here uses anything the record does not say.

``Knowledge`` reads a hand's events once; the walk of the plays
(``analyse``) and the renege matchings of every seat (``flow``) both ask it.
"""

from __future__ import annotations

import bisect
from functools import cache
from typing import Any

from scorepad.analysis.naming import tile_key
from scorepad.rules import Adjust, Draw, Event, HandState, Pass, Play
from scorepad.rules.hand import BLOCKED, OUT
from scorepad.rules.tiles import full_set, key, parse_tile

END = 1 << 30  # the "event" at which the remaining tiles are shown: after every event

Tile = tuple[int, int]


class Knowledge:
    """The facts of one hand's record, read in one pass over its events.

    Per seat: the tiles it showed and when, the events that took tiles into its
    rack, and whether its rack is known at the end. For the renege matchings
    (``flow``): ``played``, the tile (a sorted pair) of each play by event
    index; ``steps``, per seat, the events that concern it (its own turns, and
    misdeal adjusts of its rack) in order, as ``(index, event, outcome)``;
    ``intakes``, per seat, the events that brought tiles into its rack.
    ``last_play`` is the index of the hand's last play (-1 when none),
    ``renege_at`` the event of each seat's renege proved at the table, and
    ``visitors`` the seats that drew or passed (the only moments a renege can happen).
    """

    __slots__ = (
        "_never_shown",
        "_returned",
        "_reveal_events",
        "_reveal_tiles",
        "_shown",
        "complete_at_end",
        "hand",
        "intakes",
        "last_play",
        "played",
        "renege_at",
        "steps",
        "visitors",
    )

    def __init__(self, hand: HandState) -> None:
        """Read ``hand``'s events and its remaining tiles."""
        rules = hand.rules
        players = rules.players
        max_pip = rules.max_pip
        self.hand = hand
        self.played: dict[int, Tile] = {}
        self.steps: list[list[tuple[int, Event, dict[str, Any]]]] = [[] for _ in range(players)]
        self.intakes: list[list[int]] = [[] for _ in range(players)]
        self.renege_at: dict[int, int] = {}
        self.visitors: set[int] = set()
        self.last_play = -1
        # Each seat's tiles shown, kept as two lists in event order (a bisect finds a moment's span).
        self._reveal_events: list[list[int]] = [[] for _ in range(players)]
        self._reveal_tiles: list[list[Tile]] = [[] for _ in range(players)]
        self._returned: list[list[int]] = [[] for _ in range(players)]  # misdeals that sent tiles back
        # Read once a hand, event by event: the lists filled are held in locals.
        played, steps, intakes, shown_at, shown = (
            self.played,
            self.steps,
            self.intakes,
            self._reveal_events,
            self._reveal_tiles,
        )
        for index, (event, outcome) in enumerate(zip(hand.events, hand.outcomes, strict=True)):
            seat = outcome.get("player")
            if isinstance(event, Play):
                self.last_play = index
                if seat is not None:
                    steps[seat].append((index, event, outcome))
                    tile = played[index] = tile_key(outcome["tile"], max_pip)
                    shown_at[seat].append(index)
                    shown[seat].append(tile)
                continue
            if isinstance(event, Adjust):
                if event.count > 0:
                    intakes[event.seat].append(index)
                else:
                    self._returned[event.seat].append(index)
                steps[event.seat].append((index, event, outcome))
                if seat is not None and seat != event.seat:
                    steps[seat].append((index, event, outcome))
                continue
            if seat is None:
                continue
            steps[seat].append((index, event, outcome))
            if isinstance(event, Draw):
                intakes[seat].append(index)
                self.visitors.add(seat)
            elif isinstance(event, Pass):
                self.visitors.add(seat)
            elif outcome["event"] == "renege":
                self.renege_at[seat] = index
        self.complete_at_end = [False] * players
        if hand.how in (OUT, BLOCKED) and hand.remaining is not None:
            for seat, entry in enumerate(hand.remaining):
                # records.md §4: ``0`` and ``[]`` both say the rack is empty, so both name the whole rack.
                if isinstance(entry, list) or entry == 0:
                    self.complete_at_end[seat] = True
                if isinstance(entry, list):
                    for item in entry:
                        self._reveal_events[seat].append(END)
                        self._reveal_tiles[seat].append(key(*parse_tile(item, max_pip)))
        # Read only for a tile the record never names (flow.SeatFlow.pool): worked out when first asked.
        self._shown: dict[Tile, list[tuple[int, int]]] | None = None
        self._never_shown: frozenset[Tile] | None = None

    # -- the plays' questions ----------------------------------------------------------

    def held(self, seat: int, moment: int) -> list[Tile]:
        """The tiles the record proves were in ``seat``'s rack just after event ``moment`` (as sorted pairs).

        A tile shown later counts only if no tile came into the rack in between.
        """
        intakes = self.intakes[seat]
        i = bisect.bisect_right(intakes, moment)  # the first intake after ``moment``
        limit = intakes[i] if i < len(intakes) else END + 1
        events = self._reveal_events[seat]
        return self._reveal_tiles[seat][bisect.bisect_right(events, moment) : bisect.bisect_left(events, limit)]

    def shown_after(self, seat: int, moment: int) -> list[Tile]:
        """Every tile ``seat`` showed after event ``moment`` (as sorted pairs)."""
        return self._reveal_tiles[seat][bisect.bisect_right(self._reveal_events[seat], moment) :]

    def rack_known(self, seat: int, moment: int) -> bool:
        """Whether every tile ``seat`` held at ``moment`` was shown later (the remaining tiles listed).

        A misdeal that sent tiles back afterwards hides which ones went.
        """
        return self.complete_at_end[seat] and not any(i > moment for i in self._returned[seat])

    # -- the renege matchings' questions -----------------------------------------------

    @property
    def shown(self) -> dict[Tile, list[tuple[int, int]]]:
        """Per tile, every (seat, event) at which it was shown: laid, or listed at the end (``END``)."""
        if self._shown is None:
            self._shown = _shown(self.hand, self.played)
        return self._shown

    @property
    def never_shown(self) -> frozenset[Tile]:
        """The tiles of the set nobody showed."""
        if self._never_shown is None:
            shown = self.shown
            self._never_shown = frozenset(t for t in _pairs(self.hand.rules.max_pip) if t not in shown)
        return self._never_shown


@cache
def _pairs(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of the set as a sorted pair."""
    return tuple(t for t in full_set(max_pip) if key(*t) == t)


def _shown(hand: HandState, played: dict[int, Tile]) -> dict[Tile, list[tuple[int, int]]]:
    """``Knowledge.shown`` from the tiles of the plays already read."""
    outcomes = hand.outcomes
    out: dict[Tile, list[tuple[int, int]]] = {}
    for index, tile in played.items():
        out.setdefault(tile, []).append((outcomes[index]["player"], index))
    if hand.how in (OUT, BLOCKED) and hand.remaining is not None:
        for seat, entry in enumerate(hand.remaining):
            if isinstance(entry, list):
                for text in entry:
                    out.setdefault(key(*parse_tile(text, hand.rules.max_pip)), []).append((seat, END))
    return out
