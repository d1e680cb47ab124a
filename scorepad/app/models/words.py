"""Small helpers for the words the table app shows: hand numbers per game.

No rules are decided here. Counts of things and citations come from the
engine's ``scorepad.rules.wording`` (``count_words``, ``cited``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def hand_in_game(hands: Iterable[Any], hand: Any) -> int:
    """The hand's number within its game (the engine numbers hands across the whole match).

    ``hands`` are the match's hands (or score-sheet rows): anything with ``game`` and ``number``.
    """
    return sum(1 for h in hands if h.game == hand.game and h.number <= hand.number)


def hand_words(state: Any, hand: Any) -> str:
    """ "game 2, hand 1": which hand, numbered within its game."""
    return f"game {hand.game}, hand {hand_in_game(state.hands, hand)}"
