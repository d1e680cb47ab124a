"""The table's words as they happen, for the table screen (Smartt §15, §15.2).

Only words about what everyone at the table can see: the count just made,
the Sniff's sides, a double shed, the scores, the end of a hand or a game.
Nothing that hints at a play (Smartt §12: nobody may suggest one), so no
missed chances, automatics, clutches or bulletproof layouts: those belong to
the Dispute screen, ``scorepad analyse``, and ``training_hints`` for a match
whose training switch is on (never a tournament match).
"""

from __future__ import annotations

from scorepad.analysis.analyse import analyse_hand
from scorepad.analysis.naming import named_tile
from scorepad.analysis.narrate import clutch_words, placing_words
from scorepad.analysis.plays import placings
from scorepad.analysis.sayings import bell_lead, bell_words, say
from scorepad.analysis.values import Saying, Word
from scorepad.rules import MatchState, full_set
from scorepad.rules.hand import IN_PROGRESS, score_of
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import cited

# The words the table screen may show as they happen.
AT_TABLE = frozenset(
    {
        Word.EPISCOPAL,
        Word.COME_OFF_ENCE,
        Word.TERMINATING,
        Word.SHEDAPOTOMUS,
        Word.MOONFACED,
        Word.SHUNK_SHUNK,
        Word.BELL,
    }
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
    bell = bell_lead(scores) if hand.winner() is None else None
    if bell is not None:
        out.append(say(match, hand.number, latest, Word.BELL, None, bell_words(match, bell)))
    return tuple(out)


def training_hints(match: MatchState, *, training: bool, tournament: bool) -> tuple[str, ...]:
    """Strategy hints for the table screen, only with the match's training switch on.

    Never in a tournament match (Smartt §12: nobody may suggest a play), and
    off unless ``training``. From what everyone can see only (the score-pad
    does not know the racks): the other ends the tile just laid could have
    taken and what each made, the tiles not yet seen that would score now,
    and the clutches still unseen (Smartt §5.1 advice, §7.3, §2.1).
    """
    hand = match.current
    if not training or tournament or hand is None or not hand.started:
        return ()
    rules = match.rules
    found = analyse_hand(match, hand)
    hints: list[str] = []
    if found.plays and found.plays[-1].event == len(hand.events):
        last = found.plays[-1]
        same = sorted(last.tile.split("-"))
        better = [p for p in last.alternatives if sorted(p.tile.split("-")) == same and p.score > last.score]
        if better:
            best = max(better, key=lambda p: p.score)
            hints.append(
                f"The {named_tile(rules, last.tile)} could have gone {best.at}:"
                f" count {best.board_count}, scores {best.score}."
            )
    if hand.how == IN_PROGRESS:
        layout = hand.layout
        unplayed = [t for t in full_set(rules.max_pip) if t not in hand.played]
        scoring = [p for p in placings(layout, unplayed) if p.score]
        if scoring:
            named = "; ".join(placing_words(match, p) for p in sorted(scoring, key=lambda p: -p.score)[:6])
            automatic = " (automatics: the count stands on a score)" if score_of(layout.board_count) else ""
            hints.append(f"Tiles not yet seen that would score now{automatic}{cited(rules, Topic.AUTOMATIC)}: {named}.")
        else:
            hints.append(f"No tile not yet seen can score now{cited(rules, Topic.BULLETPROOF)}.")
    if found.plays:
        hints.append(clutch_words(match, found.plays[-1].unseen) + ".")
    return tuple(hints)
