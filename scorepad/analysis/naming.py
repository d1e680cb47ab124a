"""Tiles and seats in the narration's words: the traditional names of Smartt §15.1."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from scorepad.rules import RuleSet, tile_name
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import cited as _cited
from scorepad.rules.tiles import key, parse_tile
from scorepad.rules.wording import count_words

# The rules last asked about and their citations so far (book_cited). The rules are frozen,
# so a citation never changes; the reference held here keeps the object (and its id) alive.
_last_rules: list[tuple[RuleSet, dict[tuple[bool, Topic], str]]] = []


def book_cited(rules: RuleSet, topic: Topic) -> str:
    """``cited(rules, topic)``, worked out once for the rules in play.

    The analysis cites a section at nearly every play and saying; a match has one rule set.
    """
    return _book(rules, topic, cited=True)


def book_section(rules: RuleSet, topic: Topic) -> str:
    """``rules.cite(topic)``, worked out once for the rules in play."""
    return _book(rules, topic, cited=False)


def _book(rules: RuleSet, topic: Topic, *, cited: bool) -> str:
    if not _last_rules or _last_rules[0][0] is not rules:
        _last_rules[:] = [(rules, {})]
    memo = _last_rules[0][1]
    found = memo.get((cited, topic))
    if found is None:
        found = memo[cited, topic] = _cited(rules, topic) if cited else rules.cite(topic)
    return found


@cache
def tile_of(written: str, max_pip: int) -> tuple[int, int]:
    """``parse_tile(written, max_pip)``, read once for each text (the analysis reads every played tile)."""
    return parse_tile(written, max_pip)


@cache
def tile_key(written: str, max_pip: int) -> tuple[int, int]:
    """The sorted pair of the tile written ``written`` (``key(*parse_tile(written, max_pip))``), read once."""
    return key(*parse_tile(written, max_pip))


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
    name = tile_name((a, b)) if a <= 6 and b <= 6 and book_cited(rules, Topic.TILE_NAMES) else None
    return f"{written} ({name})" if name else written


def tiles_words(rules: RuleSet, tiles: Iterable[tuple[int, int] | str]) -> str:
    """``5-3, 1-6 (Pet) and 3-3 (Irish Curse)``."""
    shown = [named_tile(rules, t) for t in tiles]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


@cache
def ends_words(ends: tuple[tuple[str, int], ...]) -> str:
    """``left 3, right 5``; worked out once for each set of ends (a match goes to the boneyard thousands of times)."""
    return ", ".join(f"{pos} {value}" for pos, value in ends) or "none"


def tiles_count(number: int) -> str:
    """``1 tile``, ``2 tiles``."""
    return count_words(number, "tile")
