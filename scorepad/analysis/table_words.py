"""The table's words as they happen, for the table screen (Smartt §15, §15.2).

Only words about what everyone at the table can see: the count just made,
the Sniff's sides, a double shed, the scores, the end of a hand or a game.
Nothing that hints at a play (Smartt §12: nobody may suggest one), so no
missed chances, automatics, clutches or bulletproof layouts: those belong to
the Dispute screen and ``scorepad analyse``.
"""

from __future__ import annotations

from scorepad.analysis.analyse import analyse_hand
from scorepad.analysis.sayings import bell_lead, say
from scorepad.analysis.values import Saying, Word
from scorepad.rules import MatchState

# The words the table screen may show as they happen.
AT_TABLE = frozenset(
    {Word.EPISCOPAL, Word.COME_OFF_ENCE, Word.SHEDAPOTOMUS, Word.MOONFACED, Word.SHUNK_SHUNK, Word.BELL}
)


def table_words(match: MatchState) -> tuple[Saying, ...]:
    """What the table says now: the words of the latest event, the end of the hand, and the bell.

    The bell rings for as long as one side leads every other by 100 or more
    (not only when it starts). Empty before the first hand.
    """
    hand = match.current
    if hand is None:
        return ()
    latest = len(hand.events)
    found = analyse_hand(match, hand)
    over = hand.finished
    out = [
        s
        for s in found.sayings
        if s.word in AT_TABLE and s.word != Word.BELL and (s.event == latest or (over and s.event == 0))
    ]
    scores = hand.scores_after if over else hand.scores
    lead = bell_lead(scores) if hand.winner() is None else None
    if lead is not None:
        side, by = lead
        behind = " and ".join(match.side_name(s) for s in range(match.rules.sides) if s != side)
        out.append(say(match, hand.number, latest, Word.BELL, None, f"{match.side_name(side)} leads {behind} by {by}"))
    return tuple(out)
