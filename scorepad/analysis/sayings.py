"""The table's own words at the moment they apply (Smartt §15, §15.2).

Our readings (docs/analysis.md): Episcopal is a board count of exactly 10
whose four open ends show 1, 2, 3 and 4; Moonfaced is a side that gained no
points in a hand (plays, claims and settlement together); the bell rings when
the widest gap between two sides is 100 or more; Come-off-ence is the
play that covers the Sniff's third side; Terminating the Sniff the play that
covers its fourth; Shedapotomus a double, not the set,
that scores nothing; Shunk shunk the hand that ends a game; Bareass a double
set when the record proves the setter held no other tile of its number.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorepad.analysis.naming import book_cited
from scorepad.analysis.values import Safety, Saying, Word
from scorepad.rules import HandState, Layout, MatchState
from scorepad.rules.hand import IN_PROGRESS, VOID
from scorepad.rules.presets import Topic
from scorepad.rules.wording import side_does

BELL_GAP = 100  # Smartt §15: Bell is ringing, one player 100 or more points ahead, or behind


@dataclass(frozen=True, slots=True)
class Bell:
    """The bell (Smartt §15): ``ahead`` is ``gap`` points ahead of ``behind``, and ``gap`` is 100 or more."""

    ahead: int
    behind: int
    gap: int


def bell_lead(scores: list[int] | tuple[int, ...]) -> Bell | None:
    """The widest gap between two sides when it is 100 or more (Smartt §15), else None.

    §15 says one player is 100 or more ahead, or behind: with any number of
    players, some side is that far ahead of another (and that one as far behind).
    """
    if len(scores) < 2 or max(scores) - min(scores) < BELL_GAP:
        return None  # the common case, asked after every event: no bell
    ahead = max(range(len(scores)), key=lambda s: scores[s])
    behind = min(range(len(scores)), key=lambda s: scores[s])
    gap = scores[ahead] - scores[behind]
    return Bell(ahead, behind, gap) if gap >= BELL_GAP else None


def bell_words(match: MatchState, bell: Bell) -> str:
    """``Ann is 120 ahead of Bob`` (``Ann & Cat are``, in a partnership)."""
    return f"{side_does(match, bell.ahead, 'is')} {bell.gap} ahead of {match.side_name(bell.behind)}"


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
    """A saying with the book's section on it; under a book without the word, marked as Smartt's."""
    concept = Topic.TABLE_TALK if word in _TALK else Topic.WORDS
    where = book_cited(match.rules, concept) or f" ({SMARTT_MARK})"
    return Saying(hand, event, word, seat, f"{word.value}! {words}{where}.")


# Our reading (docs/analysis.md): the vocabulary is Smartt's table's; another book's game shows it marked so.
SMARTT_MARK = "a word of Smartt's table, not of this book"
_TALK = {Word.COME_OFF_ENCE, Word.SHEDAPOTOMUS, Word.UNSCOREAPONABLE}


def safety_saying(match: MatchState, hand: int, event: int, seat: int, safety: Safety | None) -> Saying | None:
    """Unscoreaponable or Bulletproof for the layout a play left, if it is."""
    if safety is Safety.OPEN or safety is None:
        return None  # most layouts: nothing to say
    who = match.players[seat]
    if safety == Safety.UNSCOREAPONABLE:
        return say(match, hand, event, Word.UNSCOREAPONABLE, seat, f"no unplayed tile can score on what {who} left")
    if safety == Safety.BULLETPROOF:
        side = side_does(match, match.rules.side_of(seat), "holds")
        return say(match, hand, event, Word.BULLETPROOF, seat, f"only tiles {side} can score on what {who} left")
    return None
