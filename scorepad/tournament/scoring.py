"""Scoring and confirmations at a table: its own match, each entry's check, and the opposing side's confirmation.

A table's entries go to the store (the engine checks each); this module
decides only whose they may be (``authorize_match``), how many games or hands
the round allows, and which finished hands are confirmed as they stand.
"""

from __future__ import annotations

from typing import Any

from scorepad.access import Caller, Refused, Who, authorize_confirmation
from scorepad.store import MatchSnapshot
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import utcnow
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action
from scorepad.tournament.errors import AccessDenied, TournamentError
from scorepad.tournament.results import hand_fingerprint


class Scoring(rows.Desk):
    """A table's match: starting hands, entries, settlements, undo, and confirmations."""

    def table_match(self, token: str | None, event_id: int) -> tuple[int, MatchSnapshot]:
        """A table's own match id and its state now. Table role only."""
        caller = self.gate.require(token, event_id, Action.SCORE)
        if caller.who != Who.TABLE:
            raise AccessDenied(wording.NO_TABLE_OF_ITS_OWN)
        match_id = _match_of(caller)
        return match_id, self.store.load(match_id, device=caller.view)

    def authorize_match(self, token: str | None, event_id: int, match_id: int) -> Caller:
        """Check that the caller may write to ``match_id`` (a web layer calls this before the store).

        The director may write to any match of the event; a table only to
        its own match in the current round. Raises ``AccessDenied``, and
        ``TournamentError`` for a forfeited table (its match takes no more entries).
        A table's check is its credential's (the table and the round in play)
        and one read of the table's forfeit: it runs before every entry.
        """
        caller = self.gate.require(token, event_id, Action.SCORE)
        with session_scope(self._engine) as session:
            if caller.who == Who.TABLE:
                if _match_of(caller) != match_id:
                    raise AccessDenied(wording.own_match_only(caller.table_number))
                table_id, number = caller.table_id, caller.table_number
            else:
                found = repo.table_of_match(session=session, event_id=event_id, match_id=match_id)
                if found is None:
                    raise AccessDenied(wording.not_of_this_event(match_id))
                table_id, number = found
            if table_id is not None and repo.forfeits(session=session, table_ids=[table_id]):
                raise TournamentError(wording.forfeited_no_entries(number))
        return caller

    def start_hand(self, token: str | None, event_id: int, match_id: int, setter: int | None = None) -> MatchSnapshot:
        """Start the next hand at a table (the service checks the round's flow first). Raises as the store does."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.start_hand(match_id, setter, caller=caller)

    def append(self, token: str | None, event_id: int, match_id: int, event: Any) -> MatchSnapshot:
        """Enter one event at a table (the engine checks it). Raises as ``Store.append``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.append(match_id, event, caller=caller)

    def settle(self, token: str | None, event_id: int, match_id: int, remaining: Any) -> MatchSnapshot:
        """Settle a table's hand. Raises as ``Store.settle``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.settle(match_id, remaining, caller=caller)

    def undo(self, token: str | None, event_id: int, match_id: int) -> MatchSnapshot:
        """Take back a table's last entry. Raises as ``Store.undo``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.undo(match_id, caller=caller)

    def confirm(
        self,
        token: str | None,
        event_id: int,
        table_number: int,
        *,
        by: str,
        hand: int | None = None,
        round_number: int | None = None,
        device: str | None = None,
    ) -> list[int]:
        """The opposing side confirms a table's finished hands (``hand``, or all waiting); returns them.

        ``by`` names who confirms: a player at that table (or, for the
        director, any note). A table may confirm only its own table in the
        current round; the director any table of any round. Every screen on
        the table's match (the hall's, the director's, the other phone), in
        every process, hears of it; ``device`` names the page that confirmed,
        which has drawn it already. Raises ``TournamentError`` (nothing
        finished to confirm, an unknown hand).
        """
        caller = self.gate.caller(token, event_id)
        self.gate.permit(caller, Action.CONFIRM)
        with session_scope(self._engine) as session:
            rnd = rows.round_or_latest(session, event_id, round_number)
            if rnd is None:
                raise TournamentError(wording.NO_ROUND)
            table = rows.table(session, rnd, table_number)
            if caller.who == Who.TABLE and caller.table_id != table.id:
                raise AccessDenied(wording.own_table_only(caller.table_number))
            if table.match_id is None:
                raise TournamentError(wording.bye_to_confirm(table_number))
            if rows.forfeited(session, table):
                raise TournamentError(wording.forfeited_to_confirm(table_number))
            players = {
                p.casefold()
                for e in repo.entrants(session=session, event_id=event_id)
                if e.id in table.entrants
                for p in e.players
            }
            done = repo.confirmations(session=session, table_ids=[rows.pk(table)])[rows.pk(table)]
        by = (by or "").strip()
        if caller.who == Who.TABLE and by.casefold() not in players:
            raise TournamentError(wording.CONFIRMED_BY_NAME)
        record = self.store.export_record(table.match_id)
        state = self.store.load(table.match_id)
        facts = self.store.facts(table.match_id)
        finished = [h.number for h in state.hands if h.finished]
        wanted = [hand] if hand is not None else finished
        seats = [name.casefold() for name in state.players]
        by_side = state.rules.side_of(seats.index(by.casefold())) if by.casefold() in seats else None
        # The one door: a table confirms a hand only for the side that did not score it. A hand
        # named is refused outright; "all waiting" takes those this side may confirm.
        allowed, refusal = [], None
        for number in wanted:
            if number not in finished:
                allowed.append(number)  # refused below, in the words of a hand not finished
                continue
            try:
                authorize_confirmation(
                    caller, facts, by_side=by_side, scoring_side=state.hands[number - 1].scoring_side()
                )
            except Refused as err:
                refusal = refusal or err
                continue
            allowed.append(number)
        if refusal is not None and (hand is not None or not allowed):
            raise AccessDenied(str(refusal)) from refusal
        wanted = allowed
        out = []
        with session_scope(self._writer) as session:
            for number in wanted:
                if number not in finished:
                    raise TournamentError(wording.not_finished(number, table_number))
                fingerprint = hand_fingerprint(record["hands"][number - 1])
                if fingerprint in done.get(number, set()):
                    continue
                repo.add_confirmation(
                    session=session,
                    table_id=rows.pk(table),
                    hand=number,
                    fingerprint=fingerprint,
                    confirmed_by=by or caller.label,
                    at=utcnow(),
                )
                out.append(number)
            if hand is not None and not out:
                raise TournamentError(wording.already_confirmed(hand, table_number))
            if not wanted:
                raise TournamentError(wording.nothing_to_confirm(table_number))
            if out:
                rows.audit(
                    session,
                    event_id,
                    caller.label,
                    "confirm",
                    {"round": rnd.number, "table": table_number, "hands": out, "by": by or caller.label},
                )
        if out:
            # No entry of the match: its screens hear of it as an announcement (after the commit).
            self.store.announce(table.match_id, device or caller.view)
        return out


def _match_of(caller: Caller) -> int:
    """A table caller's own match (read with its credential). Raises ``AccessDenied`` for a bye."""
    if caller.match_id is None:
        raise AccessDenied(wording.NO_MATCH)
    return caller.match_id
