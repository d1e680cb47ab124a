"""sniff-record/1: reading a record, replaying it, and the referee's account.

The contract is records.md (shared/spec): a file that is not a readable record
raises RecordFormatError (exit 2); a readable record the rules refuse raises
IllegalRecordError (exit 1) naming the hand and event.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorepad.gc_pause import cyclic_gc_paused
from scorepad.rules.errors import IllegalEventError, IllegalRecordError, RecordFormatError
from scorepad.rules.events import Event, event_from_dict
from scorepad.rules.hand import BLOCKED, IN_PROGRESS, OUT
from scorepad.rules.match import MatchState
from scorepad.rules.names import check_name
from scorepad.rules.numbers import NumberRefused, record_int
from scorepad.rules.rulesets import RuleSet, make_ruleset

FORMAT = "sniff-record/1"
# A record of a whole evening is a few hundred kilobytes; anything past this is not a record. The one
# limit for every door a record comes in by: the command line's files and the app's file picker alike.
MAX_RECORD_BYTES = 4 * 1024 * 1024


def too_large() -> RecordFormatError:
    """The error for a record past ``MAX_RECORD_BYTES``."""
    return RecordFormatError(f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB, which no record is")


@dataclass(frozen=True)
class HandRecord:
    """One hand of a record: its setter (if named), its events, and what remained."""

    setter: int | None
    events: tuple[Event, ...]
    remaining: list[Any] | None


@dataclass(frozen=True)
class Record:
    """A parsed sniff-record/1: the rules, the players and the hands."""

    rules: RuleSet
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...]


def load_record(text: str | bytes) -> Record:
    """Parse the JSON text of a record.

    Raises RecordFormatError when it is not JSON or not a readable
    sniff-record/1 (more than ``MAX_RECORD_BYTES``, or a number of more than
    ``MAX_RECORD_DIGITS`` digits, included: both refused before they are
    read), and IllegalRecordError for a malformed hand or event.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise too_large()
    try:
        obj = json.loads(text, parse_int=record_int)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RecordFormatError(f"not JSON: {err}") from None
    except NumberRefused as err:
        raise RecordFormatError(f"not a record: {err}") from None
    except RecursionError:
        raise RecordFormatError("not JSON that can be read: it is nested too deeply") from None
    return parse_record(obj)


def parse_record(obj: object) -> Record:
    """Check a decoded record's shape and read its events.

    Raises RecordFormatError for the faults records.md §6 gives exit 2 (not an
    object, wrong format, bad players, hands not a list, unknown rules or
    options) and IllegalRecordError for everything else that is malformed.
    """
    if not isinstance(obj, dict):
        raise RecordFormatError(f"a record is a JSON object, not {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise RecordFormatError(f"'format' must be {FORMAT!r}, not {obj.get('format')!r}")
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise RecordFormatError("'players' must be a list of 2 to 4 names")
    players = [check_name(name, seat=seat) for seat, name in enumerate(players)]
    hands = obj.get("hands")
    if not isinstance(hands, list):
        raise RecordFormatError("'hands' must be a list")
    rules = make_ruleset(obj.get("rules", "smartt"), len(players), obj.get("options"))
    return Record(rules=rules, players=tuple(players), hands=tuple(_read_hand(h, i) for i, h in enumerate(hands, 1)))


def _read_hand(obj: object, number: int) -> HandRecord:
    if not isinstance(obj, dict):
        raise IllegalRecordError("a hand must be an object with 'events'", hand=number)
    setter = obj.get("setter")
    if setter is not None and (not isinstance(setter, int) or isinstance(setter, bool)):
        raise IllegalRecordError(f"'setter' must be a seat number, not {setter!r}", hand=number)
    events = obj.get("events")
    if not isinstance(events, list):
        raise IllegalRecordError("'events' must be a list", hand=number)
    read = []
    for index, event in enumerate(events, 1):
        try:
            read.append(event_from_dict(event))
        except IllegalEventError as err:
            raise IllegalRecordError(str(err), hand=number, event=index) from None
    return HandRecord(setter=setter, events=tuple(read), remaining=obj.get("remaining"))


def replay(record: Record) -> MatchState:
    """Play every hand of a record through the rules and return the match.

    Raises IllegalRecordError, naming the hand and event, at the first thing
    the rules refuse.
    """
    with cyclic_gc_paused():  # thousands of events of acyclic objects: see scorepad.gc_pause
        return _replay(record)


def _replay(record: Record) -> MatchState:
    match = MatchState(record.rules, list(record.players))
    for number, hand_record in enumerate(record.hands, 1):
        prev = match.current
        if prev is not None and prev.how == IN_PROGRESS:
            raise IllegalRecordError(
                "the hand has not ended, yet another hand follows it (only the last hand may be in progress)",
                hand=number - 1,
            )
        if number == 1 and hand_record.setter is None:
            raise IllegalRecordError("the first hand must name its setter", hand=number)
        try:
            hand = match.start_hand(hand_record.setter)
        except IllegalEventError as err:
            raise IllegalRecordError(str(err), hand=number) from None
        for index, event in enumerate(hand_record.events, 1):
            try:
                hand.apply(event)
            except IllegalEventError as err:
                raise IllegalRecordError(str(err), hand=number, event=index) from None
        if hand.how in (OUT, BLOCKED):
            if hand_record.remaining is None:
                word = "going out" if hand.how == OUT else "a block"
                raise IllegalRecordError(
                    f"the hand ended by {word}, so 'remaining' must give each seat's tiles or pip total",
                    hand=number,
                )
            try:
                hand.settle(hand_record.remaining)
            except IllegalEventError as err:
                raise IllegalRecordError(str(err), hand=number) from None
        elif hand_record.remaining is not None and hand.how == IN_PROGRESS:
            raise IllegalRecordError(
                f"'remaining' is given, but the hand has not ended (it is seat {hand.turn}'s turn)", hand=number
            )
    return match


def report(match: MatchState) -> dict[str, Any]:
    """The referee's ``--json`` object for a match (records.md §6), its own data (nothing shared with the match)."""
    with cyclic_gc_paused():  # a dict for every event, none in a cycle: see scorepad.gc_pause
        return _report(match, _json_account)


def report_text(match: MatchState) -> str:
    """``report`` as JSON text (``scorepad referee --json``).

    The same text as ``json.dumps(report(match))``, made without copying every
    event's account: JSON writes the account's tuple of flags as the list
    ``report`` makes of it, and the text shares nothing with the match.
    """
    with cyclic_gc_paused():
        return json.dumps(_report(match, _as_is))


def _report(match: MatchState, account: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    hands = []
    for hand in match.hands:
        hands.append(
            {
                "number": hand.number,
                "game": hand.game,
                "setter": hand.setter,
                "scores_before": list(hand.scores_before),
                "scores_after": hand.scores_after,
                "events": [account(outcome) for outcome in hand.outcomes],
                "end": hand.end(),
            }
        )
    return {"hands": hands, "games": [game.to_dict() for game in match.games()]}


def _json_account(outcome: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event's account, with its flags as a JSON list (records.md §6)."""
    if "flags" in outcome:
        return {**outcome, "flags": list(outcome["flags"])}
    return dict(outcome)


def _as_is(outcome: dict[str, Any]) -> dict[str, Any]:
    return outcome
