"""The table's own words at the moment they apply (Smartt §15, §15.2).

Our readings (docs/analysis.md): Episcopal is a board count of exactly 10
whose four open ends show 1, 2, 3 and 4; Moonfaced is a side that gained no
points in a hand (plays, claims and settlement together); the bell rings when
the leading side is 100 or more ahead of every other; Come-off-ence is the
play that covers the Sniff's third side; Shedapotomus a double, not the set,
that scores nothing; Shunk shunk the hand that ends a game; Bareass a double
set when the record proves the setter held no other tile of its number.
"""

from __future__ import annotations

from scorepad.analysis.values import Safety, Saying, Word
from scorepad.rules import HandState, Layout, MatchState
from scorepad.rules.hand import IN_PROGRESS, VOID
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import cited

BELL_LEAD = 100  # Smartt §15: Bell is ringing, one player 100 or more ahead


def bell_lead(scores: list[int] | tuple[int, ...]) -> tuple[int, int] | None:
    """``(side, lead)`` when one side leads every other by 100 or more (Smartt §15), else None."""
    if len(scores) < 2:
        return None
    ranked = sorted(range(len(scores)), key=lambda s: scores[s], reverse=True)
    lead = scores[ranked[0]] - scores[ranked[1]]
    return (ranked[0], lead) if lead >= BELL_LEAD else None


def is_episcopal(layout: Layout) -> bool:
    """A board count of 10 with the four extremities 1, 2, 3 and 4 (Smartt §15)."""
    return layout.board_count == 10 and sorted(layout.open_ends().values()) == [1, 2, 3, 4]


def moonfaced_sides(match: MatchState, hand: HandState) -> list[int]:
    """The sides that gained no points in ``hand`` (Smartt §15, Moonfaced); none while it is unfinished or void."""
    rules = match.rules
    if hand.how in (IN_PROGRESS, VOID) or hand.needs_settlement:
        return []
    gained = [0] * rules.sides
    for outcome in hand.outcomes:
        if outcome["event"] in ("play", "muggins") and outcome.get("score", 0) > 0:
            gained[rules.side_of(outcome["player"])] += outcome["score"]
    settlement = hand.settlement
    if settlement is not None and settlement.to is not None and settlement.award:
        gained[settlement.to] += settlement.award
    return [side for side in range(rules.sides) if gained[side] == 0]


def say(match: MatchState, hand: int, event: int, word: Word, seat: int | None, words: str) -> Saying:
    """A saying with the book's section on it (none under a book without the word)."""
    concept = Topic.TABLE_TALK if word in _TALK else Topic.WORDS
    return Saying(hand, event, word, seat, f"{word.value}! {words}{cited(match.rules, concept)}.")


_TALK = {Word.COME_OFF_ENCE, Word.SHEDAPOTOMUS, Word.UNSCOREAPONABLE}


def safety_saying(match: MatchState, hand: int, event: int, seat: int, safety: Safety | None) -> Saying | None:
    """Unscoreaponable or Bulletproof for the layout a play left, if it is."""
    who = match.players[seat]
    if safety == Safety.UNSCOREAPONABLE:
        return say(match, hand, event, Word.UNSCOREAPONABLE, seat, f"no unplayed tile can score on what {who} left")
    if safety == Safety.BULLETPROOF:
        side = match.side_name(match.rules.side_of(seat))
        return say(match, hand, event, Word.BULLETPROOF, seat, f"only tiles {side} holds can score on what {who} left")
    return None
