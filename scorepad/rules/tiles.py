"""Tiles and sets: parsing "5-3", the double-six and double-nine sets, tile names.

A tile is kept as written (``"5-3"``) where orientation matters (the set) and
as a sorted pair ``(low, high)`` everywhere else.
"""

from __future__ import annotations

import re
from functools import cache

from scorepad.rules.errors import SniffError

Tile = tuple[int, int]
"""A tile as a sorted pair ``(low, high)``."""

_TILE_TEXT = re.compile(r"^\s*([0-9])\s*-\s*([0-9])\s*$")  # ASCII digits only, not "５-３"

# Smartt §15.1: the traditional names used at the Sniff table.
TILE_NAMES: dict[Tile, str] = {
    (0, 0): "Little Nothing",
    (1, 1): "Snake Eyes",
    (2, 2): "Ducks",
    (2, 3): "Little Gem",
    (3, 3): "Irish Curse",
    (2, 4): "Fortuitous",
    (4, 4): "House with Two Rooms",
    (1, 6): "Pet",
    (1, 3): "Fake Pet",
    (5, 5): "Gold Nuggets",
    (5, 6): "Catherwood",
    (4, 5): "Reverse Catherwood",
    (6, 6): "Boxcars",
}


def parse_tile(text: object, max_pip: int = 6) -> tuple[int, int]:
    """Read a tile written ``"a-b"`` and return ``(a, b)`` in the order written.

    Raises SniffError when the text is not a tile of the set (``max_pip`` 6 for
    double-six, 9 for double-nine).
    """
    if not isinstance(text, str):
        raise SniffError(f'a tile is written like "5-3", not {_show(text)}')
    if len(text) == 3 and text[1] == "-" and text[0] in _DIGITS and text[2] in _DIGITS:
        a, b = _DIGITS[text[0]], _DIGITS[text[2]]
        if a <= max_pip and b <= max_pip:
            return a, b
    found = _TILE_TEXT.match(text)
    if found is None:
        raise SniffError(f'a tile is written like "5-3", not {_show(text)}')
    a, b = int(found.group(1)), int(found.group(2))
    if a > max_pip or b > max_pip:
        raise SniffError(f"{a}-{b} is not in a double-{_SET_WORD[max_pip]} set")
    return a, b


def key(a: int, b: int) -> Tile:
    """The sorted pair that names a tile whichever way round it was written."""
    return (a, b) if a <= b else (b, a)


def text(tile: tuple[int, int]) -> str:
    """Write a tile as ``"a-b"`` in the order given."""
    return f"{tile[0]}-{tile[1]}"


# The sorted pair of every tile of a double-nine set, by its two values either way round:
# ``SORTED_PAIRS[a][b] == key(a, b)``, one shared tuple where ``key`` makes a new one each time.
# The layout keeps a pair for every tile laid, and each new object is one more for the cyclic
# collector to walk; two indexings are also cheaper than hashing a pair for a dictionary.
SORTED_PAIRS: tuple[tuple[Tile, ...], ...] = tuple(tuple(key(a, b) for b in range(10)) for a in range(10))


@cache
def full_set(max_pip: int = 6) -> tuple[Tile, ...]:
    """Every tile of a double-``max_pip`` set (28 for double-six, 55 for double-nine)."""
    return tuple((a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1))


def pips(tile: tuple[int, int]) -> int:
    """The number of dots on a tile."""
    return tile[0] + tile[1]


def tile_name(tile: tuple[int, int]) -> str | None:
    """The traditional Sniff name of a tile (Smartt §15.1), or None."""
    return TILE_NAMES.get(key(*tile))


_SET_WORD = {6: "six", 9: "nine"}
_DIGITS = {str(d): d for d in range(10)}


def _show(value: object) -> str:
    shown = repr(value) if not isinstance(value, str) else f'"{value}"'
    return shown if len(shown) <= 40 else shown[:37] + "..."
