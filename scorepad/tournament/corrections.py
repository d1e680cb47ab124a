"""The director's corrections at a table: an entry taken back or amended, a hand settled again.

Each is one or two compensating entries in the match's log (nothing is
erased) and one line of the event's audit with the reason; the corrected
hand needs confirming again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorepad.rules import HandState, SniffError
from scorepad.rules.events import Play
from scorepad.rules.hand import HandEnd
from scorepad.rules.narrate import event_line, scores_line
from scorepad.rules.numbers import NumberRefused, read_whole
from scorepad.rules.previews import preview_settlement
from scorepad.store import MatchSnapshot, Store, StoreError
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import AMEND, SETTLE, START
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action, Gate
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.scoring import Scoring


@dataclass(frozen=True)
class Resettlement:
    """A finished hand settled again by the director: the figures it had and has now, side by side."""

    round: int
    table: int
    hand: int
    # Each side's name ("Ann", or "Ann & Cy" for partners), in side order.
    sides: tuple[str, ...]
    remaining_before: list[Any]
    remaining_after: list[Any]
    # Each side's score at the end of the hand, before and after the new settlement.
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]

    @property
    def summary(self) -> str:
        """The new scores in one sentence, with the old ones: what the director is shown."""
        return (
            f"hand {self.hand} at table {self.table} is settled again: {_scores_words(self.sides, self.scores_after)}"
            f" (it was {_scores_words(self.sides, self.scores_before)}); the hand counts once confirmed again"
        )


def _scores_words(sides: Sequence[str], scores: Sequence[int]) -> str:
    """ "Ann 30, Bob 35": each side's name and score."""
    return ", ".join(f"{name} {score}" for name, score in zip(sides, scores, strict=True))


def read_remaining(text: str) -> list[list[str] | int]:
    """Each seat's remaining as typed: seats in order separated by commas, each a pip total or its tiles.

    "12, 0" gives ``[12, 0]``; "6-6 5-4, 0" gives ``[["6-6", "5-4"], 0]``
    (records.md §4). Only the form is read here; the engine checks the
    figures against the hand. Raises ``TournamentError`` for a seat left empty.
    """
    seats: list[list[str] | int] = []
    for part in (text or "").split(","):
        typed = part.strip()
        if not typed:
            raise TournamentError(wording.REMAINING_FORM)
        # ASCII digits only ('²'.isdigit() is true); anything else is read as tiles, which the engine checks.
        if typed.isascii() and typed.isdigit():
            try:
                seats.append(read_whole(typed, what="a seat's pip total"))
            except NumberRefused as err:
                raise TournamentError(str(err)) from None
        else:
            seats.append(typed.split())
    return seats


class Corrections(rows.Desk):
    """The director's corrections of a table's entries and settlements."""

    def __init__(self, store: Store, gate: Gate, scoring: Scoring) -> None:
        super().__init__(store, gate)
        self.scoring = scoring

    def correct(
        self, token: str | None, event_id: int, match_id: int, *, reason: str, amend: Any = None, undo: bool = False
    ) -> MatchSnapshot:
        """The director's correction of a table's entry, with the reason kept in the event's audit.

        ``undo=True`` takes back the last standing entry (a settlement: the
        hand is reopened); otherwise ``amend`` replaces the current hand's
        last event (``None`` withdraws it), as ``Store.amend``. Either is one
        compensating entry in the match's log (nothing is erased) and one
        line of the event's audit (who, when, why, what), readable by
        everyone. A corrected hand needs confirming again. Director only;
        raises ``TournamentError`` without a reason, and what the store raises.
        """
        caller = self.gate.require(token, event_id, Action.REPAIR)
        reason = rows.reason(reason, wording.CORRECT_WHY)
        self.scoring.authorize_match(token, event_id, match_id)
        caller = replace(caller, device=f"{caller.label}: {reason}")
        # The match as stored now, read for this correction: a view another screen loaded earlier
        # (the store lends a device the view last loaded without one) may be out of date.
        before = self.store.load(match_id, device=caller.view)
        now = before.revision
        state = (
            self.store.undo(match_id, caller=caller, expected_revision=now)
            if undo
            else self.store.amend(match_id, amend, caller=caller, expected_revision=now)
        )
        latest = self.store.audit(match_id)[-1]
        target = latest.detail.get("target") or {}
        with session_scope(self._writer) as session:
            table_number, round_number = repo.place_of_match(session=session, match_id=match_id)
            rows.audit(
                session,
                event_id,
                caller.label,
                "correct",
                {
                    "round": round_number,
                    "table": table_number,
                    "match": match_id,
                    "reason": reason,
                    "entry": {"action": latest.action, "hand": latest.hand, "detail": latest.detail},
                    # What the table had and has now, in the players' names (the audit's before and after).
                    "before": _standing_words(before, str(target.get("kind", ""))),
                    "after": None if undo else _standing_words(state, AMEND),
                },
            )
        self.store.announce(match_id, caller.view)
        return state

    def resettle(
        self,
        token: str | None,
        event_id: int,
        table_number: int,
        *,
        remaining: Any,
        reason: str,
        hand: int | None = None,
    ) -> Resettlement:
        """The director settles a table's last settled hand again with the right figures, and a reason.

        For a miscounted settlement (Smartt §9: the tiles or pips each seat
        still holds). ``remaining`` is what ``Store.settle`` takes (records.md
        §4: each seat's tiles or pip total), or the same typed as text ("12,
        0", see ``read_remaining``). ``hand`` names the hand meant (None:
        the last). Only the table's last hand, in the round in play, while
        nothing has been entered after its settlement: later entries are
        taken back first with ``correct``. The new settlement is checked by
        the engine on a fork before anything is written, so a refused figure
        leaves the match as it was; then the old settlement is taken back and
        the new one entered (two compensating entries in the match's log,
        nothing erased), and one ``resettle`` line goes to the event's audit
        (round, table, hand, reason, the remaining and the hand's scores
        before and after). The hand needs confirming again, as after any
        correction. Refused in a locked round (reopen it first) and at a
        forfeited table or a bye. Director only. Raises ``TournamentError``,
        and what the store raises when another device wrote meanwhile.
        """
        caller = self.gate.require(token, event_id, Action.RESETTLE)
        reason = rows.reason(reason, wording.RESETTLE_WHY)
        remaining = read_remaining(remaining) if isinstance(remaining, str) else _as_stored(remaining)
        with session_scope(self._engine) as session:
            current, _table, match_id = rows.table_in_play(
                session,
                event_id,
                table_number,
                locked=wording.resettle_locked,
                bye=wording.bye_to_resettle,
                forfeit=wording.forfeited_to_resettle,
            )
        caller = replace(caller, device=f"{caller.label}: {reason}")
        state, top = self.store.last_entry(match_id, device=caller.view)
        last = _settled_hand(state, top, table_number, hand)
        if remaining == last.remaining:
            raise TournamentError(wording.same_figures(last.number, table_number))
        # The engine checks the new settlement on a fork with the old one taken back: nothing is written yet.
        trial = state.fork()
        trial.undo()
        preview = preview_settlement(trial, remaining)
        if preview.refusal is not None:
            raise TournamentError(wording.keeps_settlement(last.number, table_number, preview.refusal))
        unsettled = self.store.undo(match_id, caller=caller, expected_revision=state.revision)
        try:
            self.store.settle(match_id, remaining, caller=caller, expected_revision=unsettled.revision)
        except (StoreError, SniffError):
            # Another device wrote between the two entries (the engine accepted the figures above):
            # put the old settlement back if nothing else was entered since, and say so.
            try:
                self.store.redo(match_id, caller=caller, expected_revision=unsettled.revision)
            except (StoreError, SniffError):
                raise TournamentError(wording.written_while_resettling(table_number, last.number)) from None
            raise TournamentError(wording.written_meanwhile(table_number, last.number)) from None
        done = Resettlement(
            round=current.number,
            table=table_number,
            hand=last.number,
            sides=tuple(state.side_name(side) for side in range(state.rules.sides)),
            remaining_before=list(last.remaining or []),
            remaining_after=list(remaining),
            scores_before=tuple(last.scores_after),
            scores_after=tuple(preview.scores_after),
        )
        with session_scope(self._writer) as session:
            rows.audit(
                session,
                event_id,
                caller.label,
                "resettle",
                {
                    "round": done.round,
                    "table": done.table,
                    "match": match_id,
                    "hand": done.hand,
                    "reason": reason,
                    "sides": list(done.sides),
                    "before": {"remaining": done.remaining_before, "scores": list(done.scores_before)},
                    "after": {"remaining": done.remaining_after, "scores": list(done.scores_after)},
                },
            )
        self.store.announce(match_id, caller.view)
        return done


def _as_stored(remaining: Any) -> list[Any]:
    """``remaining`` as the store will keep it (a JSON round trip, as ``Store.settle`` makes).

    Raises ``TournamentError`` for what JSON cannot hold.
    """
    try:
        stored = json.loads(json.dumps(remaining))
    except (TypeError, ValueError):
        stored = None
    if not isinstance(stored, list):
        raise TournamentError(wording.remaining_not_json(remaining))
    return stored


def _settled_hand(state: MatchSnapshot, top: str | None, table_number: int, wanted: int | None) -> HandState:
    """The table's last hand, if it is the one meant and its settlement is the last entry standing.

    ``top`` is the kind of the match's last standing entry (``Store.last_entry``).
    Raises ``TournamentError`` naming what to do otherwise.
    """
    last = state.current
    if last is None:
        raise TournamentError(wording.no_hand_yet(table_number))
    if wanted is not None and not 1 <= wanted <= last.number:
        raise TournamentError(wording.no_such_hand(table_number, wanted))
    number = last.number if wanted is None else wanted
    if number < last.number:
        raise TournamentError(wording.not_last_hand(number, table_number))
    if top == SETTLE and last.settlement is not None:
        return last
    if last.settlement is not None:
        raise TournamentError(wording.entered_after(table_number, number))
    if last.needs_settlement:
        raise TournamentError(wording.not_settled_yet(number, table_number))
    if last.how == HandEnd.IN_PROGRESS:
        if wanted is None and number > 1 and state.hands[-2].settlement is not None:
            raise TournamentError(wording.started_since(number, table_number))
        raise TournamentError(wording.still_playing(number, table_number))
    raise TournamentError(wording.ended_unsettled(number, table_number, last.how))


def _standing_words(state: MatchSnapshot, kind: str) -> str | None:
    """The last entry standing in ``state`` of the kind a correction touched, in the players' names.

    ``kind`` is the store's kind of the entry (a hand's start, its settlement,
    or an event). "Dee plays 6-6 left: ...", "the settlement of hand 2 (Ann 45,
    Bob 30)", "the start of hand 3"; None when the hand has nothing of it.
    """
    hand = state.current
    if hand is None:
        return None
    if kind == START:
        return f"the start of hand {hand.number}"
    if kind == SETTLE:
        return f"the settlement of hand {hand.number} ({scores_line(state, hand.scores_after)})"
    if not hand.events:
        return None
    # The event's head ("Dee plays 5-5 left") and its call: what a correction of a call changes.
    head = event_line(state, hand, len(hand.events) - 1).split(": ", 1)[0]
    event = hand.events[-1]
    if isinstance(event, Play) and event.at is not None:
        return f"{head}, {wording.call_words(event.call)}"
    return head
