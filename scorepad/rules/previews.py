"""What the screen may ask before it acts: who may claim, which calls exist, what an entry would do.

Each preview works on ``MatchState.fork()``, which replays only the current
hand, so asking costs the same early and late in a long match. Nothing here
changes the match it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.rules.errors import IllegalEventError, SniffError
from scorepad.rules.events import Event, Muggins, Renege
from scorepad.rules.hand import HandEnd, HandState, LastPlay
from scorepad.rules.match import MatchState
from scorepad.rules.misdeal import Misdeal, misdeal_events
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import RuleSet, cited
from scorepad.rules.wording import (
    deduction_lines,
    misdeal_words,
    muggins_words,
    named,
    renege_words,
    settlement_steps,
)

# Smartt §7.1: with double-six no board count scores more than 35. With double-nine
# (R17) the ceiling is not in the books; calls are offered up to 60.
HIGHEST_SCORE = {6: 35, 9: 60}


@dataclass(frozen=True, slots=True)
class Preview:
    """What an entry would do: the scores after it, how the hand would stand, and the ruling in words.

    ``refusal`` is set (and the rest describes the match as it is) when the rules refuse the entry.
    """

    scores_now: tuple[int, ...]
    scores_after: tuple[int, ...]
    how: HandEnd
    words: str
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class CallOption:
    """A quick answer to 'what was called?' on the last play: the record's ``call`` and the button's words.

    ``call`` None is the exact score (records.md §4: no ``call``); 0 is nothing called.
    """

    call: int | None
    label: str


def call_options(last: LastPlay) -> tuple[CallOption, ...]:
    """The quick answers for the call on ``last``: the exact score and 'Not called', or one 'No score'.

    On a play that scored nothing, calling nothing and calling the exact score
    are the same thing (Smartt §7.1: no multiple of five, no score), so one
    answer is offered, not two that mean the same.
    """
    if last.score == 0:
        return (CallOption(None, "No score"),)
    return (CallOption(None, f"Called {last.score}"), CallOption(0, "Not called"))


def possible_calls(rules: RuleSet) -> tuple[int, ...]:
    """Every score a player could call under these rules, in order: 5, 10, ... up to the highest count."""
    return tuple(range(5, HIGHEST_SCORE[rules.max_pip] + 5, 5))


def claimants(match: MatchState) -> tuple[int, ...]:
    """The seats that may claim muggins on the last play right now (Jaques, 'Variations: Muggins').

    Only opponents of the player, only when the score was left wholly uncalled,
    and only before the next player acts (R5); empty otherwise.
    """
    hand = match.current
    if hand is None or not hand.claim_open:
        return ()
    last = hand.last_play
    if last is None:
        return ()
    rules = match.rules
    own = rules.side_of(last.seat)
    return tuple(seat for seat in range(rules.players) if rules.side_of(seat) != own)


def _tried(match: MatchState, events: tuple[Event, ...]) -> Preview | tuple[MatchState, list[dict[str, Any]]]:
    """``events`` applied to a fork of ``match``, with their accounts; or the refusal, as a Preview."""
    hand = match.current
    if hand is None:
        now = tuple(match.scores)
        return Preview(now, now, HandEnd.IN_PROGRESS, "", "no hand has been started: name the setter first")
    trial = match.fork()
    try:
        outcomes = [trial.apply(event) for event in events]
    except SniffError as err:
        return Preview(tuple(hand.scores_after), tuple(hand.scores_after), hand.how, "", named(match, str(err)))
    return trial, outcomes


def preview_event(match: MatchState, event: Event) -> Preview:
    """What applying ``event`` to the current hand would do, without doing it."""
    tried = _tried(match, (event,))
    if isinstance(tried, Preview):
        return tried
    trial, [outcome] = tried
    hand, after = match.current, trial.current
    assert hand is not None and after is not None
    if isinstance(event, Renege):
        words = renege_words(trial, after, event.seat)
    elif isinstance(event, Muggins):
        words = muggins_words(trial, after, event.seat, outcome["score"])
    elif after.how == HandEnd.VOID:
        words = (
            f"Every score goes back to its start-of-hand value and {match.players[after.setter]} sets again"
            f"{cited(match.rules, Topic.VOID)}."
        )
    else:
        words = ""
    return Preview(tuple(hand.scores_after), tuple(after.scores_after), after.how, words)


def preview_misdeal(match: MatchState, seat: int, kind: Misdeal) -> Preview:
    """What entering a misdeal of ``seat`` (``misdeal.misdeal_events``) would do, without doing it.

    The words say what the seat holds afterwards; the engine's refusal (no
    hand under way, an empty boneyard, a seat that does not exist) is given
    instead when it will not take the events.
    """
    tried = _tried(match, misdeal_events(kind, seat))
    if isinstance(tried, Preview):
        return tried
    trial, _ = tried
    hand, after = match.current, trial.current
    assert hand is not None and after is not None
    words = misdeal_words(match, hand, after, seat, kind)
    return Preview(tuple(hand.scores_after), tuple(after.scores_after), after.how, words)


def preview_renege(match: MatchState, number: int, seat: int) -> Preview:
    """What proving a renege by ``seat`` in hand ``number`` (from 1) would do, as the hand was recorded.

    The renege is applied after the hand's last event (Smartt §11.1: it counts when proved
    before the next hand begins); under ``deduct50`` the hand is then settled as it was.
    ``scores_now`` is the hand's recorded result. A refusal (no renege penalty in the book,
    a hand already stopped) comes back in ``refusal``, as for any preview.
    """
    hand = match.hands[number - 1]
    now = tuple(hand.scores_after)
    trial = HandState(
        match.rules, setter=hand.setter, scores_before=hand.scores_before, number=hand.number, game=hand.game
    )
    try:
        for event in hand.events:
            trial.apply(event)
        trial.apply(Renege(seat))
        if trial.needs_settlement and hand.remaining is not None:
            trial.settle(hand.remaining)
    except SniffError as err:
        return Preview(now, now, hand.how, "", named(match, str(err)))
    return Preview(now, tuple(trial.scores_after), trial.how, renege_words(match, trial, seat))


def preview_settlement(match: MatchState, remaining: object) -> Preview:
    """What settling the current hand with ``remaining`` (records.md §4) would give, step by step."""
    hand = match.current
    if hand is None:
        now = tuple(match.scores)
        return Preview(now, now, HandEnd.IN_PROGRESS, "", "no hand has been started")
    trial = match.fork()
    try:
        settlement = trial.settle(remaining)
    except (IllegalEventError, SniffError) as err:
        return Preview(tuple(hand.scores_after), tuple(hand.scores_after), hand.how, "", named(match, str(err)))
    tried = trial.current
    assert tried is not None
    # Smartt §11.1: a proved deduct50 renege comes off after the settlement, and says so.
    words = "; ".join([*settlement_steps(trial, settlement), *deduction_lines(trial, tried)])
    return Preview(tuple(hand.scores_after), tuple(tried.scores_after), tried.how, words)
