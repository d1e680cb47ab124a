"""Who sets the first hand: Smartt §3.1's draw for the set, or Jaques' highest double.

American Sniff leaves the first leader to a neutral lot; the draw for the set
serves for it too (R19). ``first_setter`` asks the method of the book in play.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorepad.rules.errors import SniffError
from scorepad.rules.presets import FirstSetterRule, Topic
from scorepad.rules.rulesets import RuleSet, cited
from scorepad.rules.tiles import key, parse_tile, pips


@dataclass(frozen=True)
class MethodWords:
    """A first-setter method in words, for the New match screen's helper."""

    title: str  # the helper's name
    how: str  # what the scorer enters
    field: str  # what each player's field holds
    rule: str  # the method itself


METHOD_WORDS = {
    FirstSetterRule.DRAW: MethodWords(
        "Draw for the set",
        "Each player draws one tile face down: enter the tile each drew.",
        "tile",
        "each player draws a tile; the higher total sets (a tie goes to the higher single value, else draw again).",
    ),
    FirstSetterRule.HIGHEST_DOUBLE: MethodWords(
        "Highest double leads",
        "Enter each player's highest double (or heaviest tile if none) from the hand dealt.",
        "double or heaviest tile",
        "the highest double in the hands dealt leads (else the heaviest tile).",
    ),
}


@dataclass(frozen=True)
class FirstSetter:
    """Who sets the first hand, and why (``seat`` is None only when no tiles were named)."""

    seat: int | None
    reason: str


def first_setter(rules: RuleSet, tiles: list[str]) -> FirstSetter:
    """Who sets first by the method of the book in play, from one tile named per seat.

    The tile is the one each player drew (the draw for the set) or, where the
    highest double leads, each player's highest double or heaviest tile from
    the hand dealt. Raises SniffError for a tile not in the set or named twice.
    """
    cite = cited(rules, Topic.FIRST_SETTER, "R19")
    if rules.preset.first_setter == FirstSetterRule.HIGHEST_DOUBLE:
        return highest_double_leads([[t] for t in tiles], max_pip=rules.max_pip, cite=cite)
    return draw_for_the_set(tiles, max_pip=rules.max_pip, cite=cite)


def draw_for_the_set(drawn: list[str], *, max_pip: int = 6, cite: str = " (Smartt §3.1)") -> FirstSetter:
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
    return FirstSetter(seat, f"seat {seat} sets: {why}{cite}")


def highest_double_leads(
    hands: list[list[str]], *, max_pip: int = 6, cite: str = " (Jaques, 'Setting up')"
) -> FirstSetter:
    """Jaques 'Setting up' step 4: the highest double in the dealt hands leads, else the heaviest tile.

    Raises SniffError for a tile that is not in the set or held twice.
    """
    held = [_read_tiles(hand, max_pip) for hand in hands]
    _check_unique([t for hand in held for t in hand])
    doubles = [(t[0], seat) for seat, hand in enumerate(held) for t in hand if t[0] == t[1]]
    if doubles:
        value, seat = max(doubles)
        return FirstSetter(seat, f"seat {seat} holds the highest double, {value}-{value}{cite}")
    weights = [(pips(t), max(t), seat) for seat, hand in enumerate(held) for t in hand]
    if not weights:
        return FirstSetter(None, "no tiles were named")
    # Jaques does not break a tie between equally heavy tiles (6-3 and 5-4); the higher
    # single value does, as in Smartt §3.1.
    weight, _, seat = max(weights)
    return FirstSetter(seat, f"no double was dealt; seat {seat} holds the heaviest tile, {weight} pips{cite}")


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
