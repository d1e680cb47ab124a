"""Forfeits at a table of the round in play: given by the director with a reason, and taken back."""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import utcnow
from scorepad.store.tournament_models import TournamentForfeit
from scorepad.store.tournament_repo import AlreadyStored, unique_writes
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.views import ForfeitView, forfeit_view


class Forfeits(rows.Desk):
    """The director's forfeits: given at a table, and taken back."""

    def forfeit(
        self, token: str | None, event_id: int, table_number: int, losers: Sequence[str | int], *, reason: str
    ) -> ForfeitView:
        """The director gives a forfeit at a table of the round in play: ``losers`` (names or numbers) forfeit.

        The losers score nothing for the round; everyone else at the table
        scores a forfeit win, as a bye (the event's bye points, and the
        round's games as games won when a round is games). Naming everyone
        is a double forfeit: nobody scores. Hands already played stay in the
        match's log but no longer count, and the match takes no more entries.
        A forfeit is no meeting (the entrants may be paired again) and a
        forfeit win counts as a bye (nobody has a bye after one). Audited
        (who, when, why), readable by everyone. Director only; refused
        without a reason, at a bye, twice at one table, and once the round
        is locked. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.FORFEIT)
        reason = rows.reason(reason, wording.FORFEIT_WHY)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            current, table, match_id = rows.table_in_play(
                session,
                event_id,
                table_number,
                locked=wording.forfeit_locked,
                bye=wording.bye_to_forfeit,
                forfeit=wording.already_forfeited,
            )
            ids: list[int] = []
            for ref in losers:
                row = rows.entrant(session, event_id, ref)
                if rows.pk(row) not in table.entrants:
                    raise TournamentError(wording.not_at_table(row.name, table_number))
                if rows.pk(row) not in ids:
                    ids.append(rows.pk(row))
            if not ids:
                raise TournamentError(wording.NAME_WHO_FORFEITS)
            names = rows.names(session, event_id)
        seated = [x for x in table.entrants if x in ids]
        hands = len(self.store.load(match_id).hands)
        now = utcnow()
        try:
            with unique_writes(self._writer) as session:
                session.add(
                    TournamentForfeit(
                        table_id=rows.pk(table),
                        losers=seated,
                        reason=reason,
                        actor=caller.label,
                        hands_played=hands,
                        at=now,
                    )
                )
                rows.audit(
                    session,
                    event_id,
                    caller.label,
                    "forfeit",
                    {
                        "round": current.number,
                        "table": table_number,
                        "losers": [names[x] for x in seated],
                        "winners": [names[x] for x in table.entrants if x not in ids],
                        "reason": reason,
                        "hands_played": hands,
                    },
                )
        except AlreadyStored:
            raise TournamentError(wording.already_forfeited(table_number)) from None
        self.store.announce(match_id, caller.view)
        return ForfeitView(
            losers=tuple(seated),
            loser_names=tuple(names[x] for x in seated),
            reason=reason,
            actor=caller.label,
            at=now.isoformat(),
            hands_played=hands,
            points=event.bye_points,
            games=rows.bye_games(event),
        )

    def unforfeit(self, token: str | None, event_id: int, table_number: int, *, reason: str) -> ForfeitView:
        """Take back a forfeit given by mistake at a table of the round in play; returns what it was.

        The forfeit's row goes; the audit line keeps what it was (who
        forfeited, why, who gave it and when, the hands played then) with
        the reason. The table's match takes entries and confirmations again,
        and the hands already played count again. Refused without a reason,
        where there is no forfeit, and once the round is locked (reopen it
        first). Director only. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.UNFORFEIT)
        reason = rows.reason(reason, wording.UNFORFEIT_WHY)
        with session_scope(self._writer) as session:
            event = rows.event(session, event_id)
            # Held until the commit, so a lock of the round cannot slip in between the check and the delete.
            current = rows.latest_held(session, event_id)
            if current.locked_at is not None:
                raise TournamentError(wording.unforfeit_locked(current.number))
            table = rows.table(session, current, table_number)
            forfeit = repo.forfeits(session=session, table_ids=[rows.pk(table)]).get(rows.pk(table))
            if forfeit is None:
                raise TournamentError(wording.no_forfeit(table_number))
            view = forfeit_view(forfeit, event, rows.names(session, event_id))
            session.delete(forfeit)
            rows.audit(
                session,
                event_id,
                caller.label,
                "unforfeit",
                {
                    "round": current.number,
                    "table": table_number,
                    "reason": reason,
                    "before": {
                        "losers": list(view.loser_names),
                        "reason": view.reason,
                        "actor": view.actor,
                        "at": view.at,
                        "hands_played": view.hands_played,
                    },
                },
            )
        if table.match_id is not None:
            self.store.announce(table.match_id, caller.view)
        return view
