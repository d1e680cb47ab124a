"""Tiles and seats in the narration's words: the traditional names of Smartt §15.1."""

from __future__ import annotations

from collections.abc import Iterable

from scorepad.rules import RuleSet, tile_name
from scorepad.rules.presets import Topic
from scorepad.rules.wording import count_words


def named_tile(rules: RuleSet, tile: tuple[int, int] | str) -> str:
    """``1-6 (Pet)``: a tile with its traditional name where it has one (Smartt §15.1).

    The names belong to Smartt's table; under another book the tile is written plainly.
    """
    if isinstance(tile, str):
        a, b = int(tile[0]), int(tile[-1])
        written = tile
    else:
        a, b = tile
        written = f"{a}-{b}"
    name = tile_name((a, b)) if a <= 6 and b <= 6 and rules.cite(Topic.TILE_NAMES) else None
    return f"{written} ({name})" if name else written


def tiles_words(rules: RuleSet, tiles: Iterable[tuple[int, int] | str]) -> str:
    """``5-3, 1-6 (Pet) and 3-3 (Irish Curse)``."""
    shown = [named_tile(rules, t) for t in tiles]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def ends_words(ends: Iterable[tuple[str, int]]) -> str:
    """``left 3, right 5``."""
    return ", ".join(f"{pos} {value}" for pos, value in ends) or "none"


def tiles_count(number: int) -> str:
    """``1 tile``, ``2 tiles``."""
    return count_words(number, "tile")
