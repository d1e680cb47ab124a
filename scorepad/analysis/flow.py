"""Where each tile a seat showed can have come from: its deal or a later intake, worked out as a matching.

A seat's rack gains tiles at the deal, by draws and by a misdeal ``adjust``;
it loses them by plays, by an ``adjust`` back to the boneyard, or keeps them
to the end. Each tile that left (a play, a tile listed in ``remaining``, or
one the record does not name) was taken in at one of those intakes before it
left. The record fixes every count and names some tiles; a *world* is any way
of pairing the tiles with the intakes that the record allows.

A visit is one turn on which the seat went to the boneyard or passed. Our
reading of the books (docs/analysis.md): when a visit ends, the seat's rack
(less the tile it then plays) holds nothing that fits the ends it faced.
Smartt §8.1: a drawn tile that plays must be played, and a player holding one
may not draw; American ('Draw, pass, and block') and Jaques ('How to play',
step 7): draw one at a time until a tile plays. So of one visit's tiles only
the last drawn may fit, and a play straight after a draw is read as that tile.

The question for a visit is whether some world has a fitting tile in the rack
as it ends (a renege) and whether some world has none; for the seat's whole
hand, whether some world has none at any visit. Each tile's allowed intakes
form a window of events, so each question is a matching of windows to
intakes (earliest deadline first). Tiles the record never names may be any
tile nobody showed, or, once the seat sent tiles back to the boneyard, any
tile a seat drew and showed after that.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field

from scorepad.analysis.frozen import quick_init
from scorepad.analysis.knowledge import END, Knowledge
from scorepad.rules import Adjust, Draw, HandState, Pass, Play
from scorepad.rules.hand import BLOCKED, IN_PROGRESS, OUT

DEAL = -1  # the "event" of the deal: before every event

Tile = tuple[int, int]


@quick_init
@dataclass(frozen=True, slots=True)
class Visit:
    """One turn on which a seat drew or passed, and the ends it faced (0-based event indices).

    ``start`` is the first draw (or the pass); ``end`` the play or pass that
    closed the visit. A tile is in the rack as the visit ends when it came in
    before ``cut`` and left after ``end``; ``cut`` is ``end`` for a finished
    visit (its draws count) and ``start`` for one the hand stopped in the middle
    of (only the tiles held before drawing count).
    """

    start: int
    end: int
    cut: int
    ends: tuple[tuple[str, int], ...]
    drew: int
    closed_by: str  # "play", "pass", or "stop" when the hand stopped during the visit
    # The values the ends showed: every matching asks ``fits`` of each tile at each visit.
    values: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", frozenset(v for _, v in self.ends))

    def fits(self, tile: Tile) -> bool:
        """Whether ``tile`` fitted one of the ends the seat faced."""
        return not self.values.isdisjoint(tile)


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Item:
    """One tile that left the seat's rack: named (played, or listed at the end) or not named."""

    tile: Tile | None
    leave: int  # the event it left at; END when still held as the hand ended
    returned: bool = False  # sent back to the boneyard by an adjust


@dataclass(frozen=True, slots=True)
class Shortfall:
    """Why no clean world exists: ``items`` had to come in within events (``low``, ``high``) but only ``room`` did."""

    low: int
    high: int
    items: tuple[Item, ...]
    room: int


class SeatFlow:
    """The intakes, the tiles that left, and the visits of one seat in one hand."""

    def __init__(
        self, hand: HandState, seat: int, know: Knowledge, ends_at: dict[int, tuple[tuple[str, int], ...]]
    ) -> None:
        """The flow of ``seat`` in ``hand``; ``ends_at`` gives the open ends at each draw and pass (by event index).

        ``know`` is ``Knowledge(hand)``, shared by the seats of the hand.
        """
        rules = hand.rules
        self.seat = seat
        self.slots: list[int] = [DEAL] * rules.tiles_each
        self.items: list[Item] = []
        self.visits: list[Visit] = []
        returns: list[int] = []
        visit_start: int | None = None
        drawn = last_draw = 0
        played = know.played
        for index, event, outcome in know.steps[seat]:
            if isinstance(event, Play):  # most steps; a play among the seat's steps is its own
                if visit_start is not None:
                    # The drawn tile played: it is the visit's last draw (Smartt §8.1), not an item to place.
                    self.visits.append(Visit(visit_start, index, index, ends_at[visit_start], drawn, "play"))
                    self.slots.remove(last_draw)
                    visit_start, drawn = None, 0
                else:
                    self.items.append(Item(played[index], index))
                continue
            if isinstance(event, Adjust) and event.seat == seat:
                if event.count > 0:
                    self.slots += [index] * event.count
                else:
                    returns += [index] * -event.count
            if outcome.get("player") != seat:
                continue
            if isinstance(event, Draw):
                if visit_start is None:
                    visit_start, drawn = index, 0
                drawn += event.count
                last_draw = index
                self.slots += [index] * event.count
            elif isinstance(event, Pass):
                start = index if visit_start is None else visit_start
                self.visits.append(Visit(start, index, index, ends_at[start], drawn, "pass"))
                visit_start, drawn = None, 0
        if visit_start is not None:
            self.visits.append(Visit(visit_start, last_draw, visit_start, ends_at[visit_start], drawn, "stop"))
        self.items += [Item(None, r, returned=True) for r in returns]
        listed = hand.remaining[seat] if hand.how in (OUT, BLOCKED) and hand.remaining is not None else None
        if isinstance(listed, list):
            # Sorted, so that the order a record lists them in changes nothing (records.md §4); the
            # tiles as ``know`` read them (shown after every event), sorted before they are items.
            self.items += [Item(tile, END) for tile in sorted(know.shown_after(seat, END - 1))]
        elif listed != 0:
            # A pip total, or a hand that ended before the racks were shown: the tiles are not named.
            self.items += [Item(None, END)] * hand.tiles_held[seat]
        # The items by kind, in the order of ``items``: each visit asks which of them it may concern.
        self.named = [it for it in self.items if it.tile is not None]
        self.unnamed = [it for it in self.items if it.tile is None]
        self.in_play = hand.how == IN_PROGRESS
        self.pip_total = listed if isinstance(listed, int) and listed else None
        # The tiles an unnamed item may be: ones nobody showed, and after a return, ones drawn and shown later.
        self._know = know

    # -- what an unnamed tile may be ---------------------------------------------------

    def pool(self, item: Item) -> frozenset[Tile]:
        """The tiles an unnamed item may be: never shown, or (sent back) drawn and shown by a seat afterwards."""
        know = self._know
        if not item.returned:
            return know.never_shown
        later = {
            tile
            for tile, shows in know.shown.items()
            for who, when in shows
            if when > item.leave and any(item.leave < i < when for i in know.intakes[who])
        }
        return know.never_shown | later

    def passers_by(self, item: Item, visit: Visit) -> list[Tile]:
        """The tiles an unnamed ``item`` may be that fitted ``visit``, sorted."""
        return sorted(t for t in self.pool(item) if visit.fits(t))

    # -- the questions ------------------------------------------------------------------

    def in_rack(self, item: Item, visit: Visit) -> bool:
        """Whether ``item`` can still be in the rack as ``visit`` ends (it left after)."""
        return item.leave > visit.end

    def could_hold(self, visit: Visit) -> list[Item]:
        """The items some world puts in the rack as ``visit`` ends while they fit it (a renege there)."""
        found = []
        for n, item in enumerate(self.items):
            if not self.in_rack(item, visit):
                continue
            if item.tile is not None and not visit.fits(item.tile):
                continue
            if item.tile is None and not self.passers_by(item, visit):
                continue
            windows = [(DEAL, it.leave) for it in self.items]
            windows[n] = (DEAL, visit.cut)
            if _matches(windows, self.slots):
                found.append(item)
        return found

    def shortfall(self, visits: Iterable[Visit]) -> Shortfall | None:
        """None when some world leaves nothing fitting in the rack as each of ``visits`` ends; else why not."""
        chosen = sorted(visits, key=lambda v: v.end)
        windows = [(self._release(item, chosen), item.leave) for item in self.items]
        if _matches(windows, self.slots):
            return None
        return _tightest(windows, self.items, self.slots)

    def _release(self, item: Item, visits: list[Visit]) -> int:
        """The earliest intake ``item`` may have come in at without fitting any of ``visits`` while held."""
        if item.tile is not None:
            bad = [v.cut for v in visits if v.end < item.leave and v.fits(item.tile)]
            return max(bad, default=DEAL)
        # Unnamed: go back visit by visit while some tile it may be still fits none of them.
        candidates = set(self.pool(item))
        for visit in reversed([v for v in visits if v.end < item.leave]):
            candidates = {t for t in candidates if not visit.fits(t)}
            if not candidates:
                return visit.cut
        return DEAL


def _matches(windows: list[tuple[int, int]], slots: list[int]) -> bool:
    """Whether each window (release, deadline) gets its own slot ``s`` with release <= s < deadline.

    Earliest deadline first over the slots in order, which is exact for windows on a line.
    """
    order = sorted(range(len(windows)), key=lambda n: windows[n][0])
    waiting: list[int] = []
    taken = 0
    n = 0
    for slot in sorted(slots):
        while n < len(order) and windows[order[n]][0] <= slot:
            heapq.heappush(waiting, windows[order[n]][1])
            n += 1
        if waiting and waiting[0] <= slot:
            return False  # a tile had to be in before this intake and nothing is left for it
        if waiting:
            heapq.heappop(waiting)
            taken += 1
    return taken == len(windows)


def _tightest(windows: list[tuple[int, int]], items: list[Item], slots: list[int]) -> Shortfall:
    """The narrowest span of events holding more tiles that had to come in within it than came in."""
    best: Shortfall | None = None
    for low in sorted({r for r, _ in windows}):
        for high in sorted({d for _, d in windows}):
            inside = tuple(items[n] for n, (r, d) in enumerate(windows) if r >= low and d <= high)
            room = sum(1 for s in slots if low <= s < high)
            if len(inside) > room and (
                best is None or (len(inside), high - low) < (len(best.items), best.high - best.low)
            ):
                best = Shortfall(low, high, inside, room)
    assert best is not None, "Hall's condition fails somewhere when no matching exists"
    return best
