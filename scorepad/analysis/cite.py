"""Where the book in play describes what the analysis reports.

The engine's ``Topic`` covers the rules it enforces; the analysis also names
things only Smartt's book describes (clutches, automatics, bulletproof
layouts, the table's vocabulary). Those citations live here, one table per
rule book, so that a game under another book never cites Smartt: a book that
is silent on a concept gives ''.
"""

from __future__ import annotations

from enum import StrEnum

from scorepad.rules import RuleSet
from scorepad.rules.presets import Topic


class Concept(StrEnum):
    """Something the analysis reports that the engine's topics do not cover."""

    MANDATORY_PLAY = "mandatory-play"
    CLUTCH = "clutch"
    AUTOMATIC = "automatic"
    BULLETPROOF = "bulletproof"
    WORDS = "words"
    TABLE_TALK = "table-talk"
    TILE_NAMES = "tile-names"


_SECTIONS: dict[str, dict[Concept, str]] = {
    "smartt": {
        Concept.MANDATORY_PLAY: "Smartt §5.1",
        Concept.CLUTCH: "Smartt §2.1",
        Concept.AUTOMATIC: "Smartt §7.3",
        Concept.BULLETPROOF: "Smartt §7.4",
        Concept.WORDS: "Smartt §15",
        Concept.TABLE_TALK: "Smartt §15.2",
        Concept.TILE_NAMES: "Smartt §15.1",
    },
    # American 'Draw, pass, and block': "If you have a legal tile, you must play it."
    "american": {Concept.MANDATORY_PLAY: "American, 'Draw, pass, and block'"},
    # Jaques 'How to play' step 3: a player must extend an open end; step 7 draws only when unable.
    "jaques": {Concept.MANDATORY_PLAY: "Jaques, 'How to play' step 7"},
}


def section(rules: RuleSet, what: Concept | Topic) -> str:
    """The section of the book in play behind ``what`` ('' where that book is silent)."""
    if isinstance(what, Topic):
        return rules.cite(what)
    return _SECTIONS.get(rules.name, {}).get(what, "")


def cited(rules: RuleSet, what: Concept | Topic) -> str:
    """`` (Smartt §7.3)`` for the book in play, or ''."""
    found = section(rules, what)
    return f" ({found})" if found else ""
