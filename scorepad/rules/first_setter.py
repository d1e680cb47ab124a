"""Who sets the first hand: Smartt §3.1's draw for the set, or Jaques' highest double.

American Sniff leaves the first leader to a neutral lot; the Smartt draw serves
for it too.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorepad.rules.errors import SniffError
from scorepad.rules.tiles import key, parse_tile, pips


@dataclass(frozen=True)
class FirstSetter:
    """Who sets the first hand, and why (``seat`` is None only when no tiles were named)."""

    seat: int | None
    reason: str


def draw_for_the_set(drawn: list[str], *, max_pip: int = 6) -> FirstSetter:
    """Smartt §3.1: each player draws one tile; the heavier tile sets.

    On equal pip totals the tile with the higher single value wins. (The rule's
    last resort, drawing again, never arises: two different tiles cannot agree
    on both.) Raises SniffError for a tile that is not in the set or drawn twice.
    """
    tiles = _read_tiles(drawn, max_pip)
    seat = max(range(len(tiles)), key=lambda s: (pips(tiles[s]), max(tiles[s])))
    best = tiles[seat]
    tie_on_pips = any(pips(t) == pips(best) for s, t in enumerate(tiles) if s != seat)
    why = (
        f"the highest single value ({max(best)}) breaks the tie on {pips(best)} pips"
        if tie_on_pips
        else f"the heaviest tile ({pips(best)} pips)"
    )
    return FirstSetter(seat, f"seat {seat} sets: {why} (Smartt §3.1)")


def highest_double_leads(hands: list[list[str]], *, max_pip: int = 6) -> FirstSetter:
    """Jaques 'Setting up' step 4: the highest double in the dealt hands leads, else the heaviest tile.

    Raises SniffError for a tile that is not in the set or held twice.
    """
    held = [_read_tiles(hand, max_pip) for hand in hands]
    _check_unique([t for hand in held for t in hand])
    doubles = [(t[0], seat) for seat, hand in enumerate(held) for t in hand if t[0] == t[1]]
    if doubles:
        value, seat = max(doubles)
        return FirstSetter(seat, f"seat {seat} holds the highest double, {value}-{value} (Jaques 'Setting up')")
    weights = [(pips(t), max(t), seat) for seat, hand in enumerate(held) for t in hand]
    if not weights:
        return FirstSetter(None, "no tiles were named")
    # Jaques does not break a tie between equally heavy tiles (6-3 and 5-4); the higher
    # single value does, as in Smartt §3.1.
    weight, _, seat = max(weights)
    return FirstSetter(seat, f"no double was dealt; seat {seat} holds the heaviest tile, {weight} pips (Jaques)")


def _read_tiles(texts: list[str], max_pip: int) -> list[tuple[int, int]]:
    tiles = [key(*parse_tile(text, max_pip)) for text in texts]
    _check_unique(tiles)
    return tiles


def _check_unique(tiles: list[tuple[int, int]]) -> None:
    seen: set[tuple[int, int]] = set()
    for tile in tiles:
        if tile in seen:
            raise SniffError(f"{tile[0]}-{tile[1]} is named twice; every tile is in the set once")
        seen.add(tile)
