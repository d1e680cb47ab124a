"""Small helpers for the words the table app shows: counts, hand numbers per game, citations.

No rules are decided here; these only say in English what the engine decided,
citing the rule book the match is played by (a Jaques game never cites Smartt).
"""

from __future__ import annotations

from typing import Any

# Where each book deals with an irregularity; a book with no rule for it gets no citation.
CITATIONS: dict[str, dict[str, str]] = {
    "void": {"smartt": "Smartt §11.3"},
    "misdeal": {"smartt": "Smartt §11.4"},
    "stands": {"smartt": "Smartt §11.5", "jaques": "Jaques, 'The fine points'"},
}


def count_of(n: int, noun: str) -> str:
    """``n`` and the noun, singular for one: "1 tile", "2 tiles", "0 tiles"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def cite(topic: str, rules_name: str) -> str:
    """ " (Smartt §11.3)" for the book in play, or "" where that book has no rule on ``topic``."""
    where = CITATIONS.get(topic, {}).get(rules_name)
    return f" ({where})" if where else ""


def hand_in_game(state: Any, hand: Any) -> int:
    """The hand's number within its game (the engine numbers hands across the whole match)."""
    return sum(1 for h in state.hands if h.game == hand.game and h.number <= hand.number)


def hand_words(state: Any, hand: Any) -> str:
    """ "game 2, hand 1": which hand, numbered within its game."""
    return f"game {hand.game}, hand {hand_in_game(state, hand)}"


def wins_words(names: str, seats: int) -> str:
    """ "Bob wins!" for one player, "Ann & Cy win!" for a side of two."""
    return f"{names} {'wins' if seats == 1 else 'win'}!"


def listing(names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" and {names[-1]}"
