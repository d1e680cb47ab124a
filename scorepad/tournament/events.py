"""Events and entrants: creating an event, registering and withdrawing entrants, keeping two apart."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from scorepad.rules import RecordFormatError, make_ruleset
from scorepad.rules.names import MAX_NAME_LENGTH, check_text, name_key
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import utcnow
from scorepad.store.tournament_models import TournamentEntrant, TournamentEvent, TournamentForbidden
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action, check_password, hash_secret
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.inputs import method
from scorepad.tournament.kinds import KINDS, Kind
from scorepad.tournament.pairing import CHOSEN, ROUND_ROBIN, kind_format, scheduled
from scorepad.tournament.views import EntrantView, entrant_view

UNITS = ("games", "hands")
# What a director may ask for: auto (chosen from the field at round 1) or a format of tables of two sides.
PAIRINGS = ("auto", *CHOSEN)
NAME_MAX = MAX_NAME_LENGTH
EVENT_NAME_MAX = 80


class Events(rows.Desk):
    """Creating events and registering, withdrawing and separating their entrants."""

    def create_event(
        self,
        *,
        name: str,
        password: str,
        rounds: int,
        rules: str = "smartt",
        options: dict[str, Any] | None = None,
        kind: str = "singles",
        unit: str = "games",
        per_round: int = 1,
        pairing: str = "auto",
        seed: str | None = None,
        bye_points: int | None = None,
    ) -> int:
        """Create an event and return its id; ``password`` becomes the director's (stored hashed).

        The rules and options are checked by the engine (``make_ruleset``) for
        the table size of ``kind``. Raises ``TournamentError`` naming what is wrong.
        """
        try:
            name = str(check_text(name, what="the event's name", most=EVENT_NAME_MAX))
        except RecordFormatError as err:
            raise TournamentError(f"{wording.EVENT_NAME} ({err})") from None
        if kind not in KINDS:
            raise TournamentError(wording.not_a_kind(KINDS, kind))
        sort = Kind(kind)
        if unit not in UNITS:
            raise TournamentError(wording.not_a_unit(unit))
        if not isinstance(rounds, int) or not 1 <= rounds <= 50:
            raise TournamentError(wording.EVENT_ROUNDS)
        if not isinstance(per_round, int) or not 1 <= per_round <= 50:
            raise TournamentError(wording.round_length(unit))
        if pairing not in PAIRINGS:
            raise TournamentError(wording.not_a_pairing(PAIRINGS, pairing))
        own = kind_format(sort)
        if own is not None and pairing == ROUND_ROBIN:
            raise TournamentError(wording.seated_by_bands(sort.table_size))
        check_password(password)
        options = dict(options or {})
        if sort.partnerships:
            if options.get("partners") is False:
                raise TournamentError(wording.plays_in_partnerships(sort))
            options["partners"] = True
        try:
            ruleset = make_ruleset(rules, sort.table_size, options)
        except RecordFormatError as err:
            raise TournamentError(str(err)) from None
        if bye_points is None:
            bye_points = 2 * per_round if ruleset.game_points and unit == "games" else 0
        if not isinstance(bye_points, int) or bye_points < 0:
            raise TournamentError(wording.BYE_POINTS)
        now = utcnow()
        with session_scope(self._writer) as session:
            event_id = repo.add_row(
                session=session,
                row=TournamentEvent(
                    name=name,
                    rules=ruleset.name,
                    options=dict(ruleset.options),
                    kind=sort.value,
                    rounds=rounds,
                    unit=unit,
                    per_round=per_round,
                    pairing=own or pairing,
                    seed=seed if seed is not None else secrets.token_hex(8),
                    bye_points=bye_points,
                    director_hash=hash_secret(password),
                    created_at=now,
                ),
            )
            rows.audit(
                session, event_id, "director", "create", {"name": name, "rules": ruleset.describe(), "kind": kind}
            )
            return event_id

    def register(
        self, token: str | None, event_id: int, players: Sequence[str], *, club: str | None = None
    ) -> EntrantView:
        """Register an entrant (one name, or two for a partnership); returns it, with its entrant number.

        A late entry (after round 1 is paired) is paired from the next round
        on; a round robin takes none. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.REGISTER)
        with session_scope(self._writer) as session:
            event = rows.event(session, event_id)
            wanted = Kind(event.kind).entrant_size
            if len(players) != wanted:
                raise TournamentError(wording.names_to_register(wanted == 2))
            names = rows.player_names(players, who="partners")
            club_text = rows.text(club, what="a club", most=NAME_MAX, required=False)
            entrants = repo.entrants(session=session, event_id=event_id)
            # One name rule for matches and tournaments (rules/names.py): alike case, spaces and Unicode form aside.
            taken = {name_key(p) for e in entrants for p in e.players}
            for n in names:
                if name_key(n) in taken:
                    raise TournamentError(wording.already_registered(n))
            paired = rows.rounds_paired(session, event_id)
            if paired >= event.rounds:
                raise TournamentError(wording.EVENT_FULL)
            if paired and scheduled(method(session, event)):
                raise TournamentError(wording.schedule_fixed(names))
            entrant = TournamentEntrant(
                event_id=event_id,
                number=max((e.number for e in entrants), default=0) + 1,
                name=" & ".join(names),
                players=names,
                club=club_text,
                joined_round=paired + 1,
                created_at=utcnow(),
            )
            repo.add_row(session=session, row=entrant)
            rows.audit(
                session,
                event_id,
                caller.label,
                "register",
                {"entrant": entrant.name, "number": entrant.number, "from_round": entrant.joined_round},
            )
            return entrant_view(entrant)

    def withdraw(self, token: str | None, event_id: int, entrant: str | int) -> int:
        """Withdraw an entrant from the next round to be paired on; returns that round's number.

        Their results so far stay in the standings. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.WITHDRAW)
        with session_scope(self._writer) as session:
            row = rows.entrant(session, event_id, entrant)
            if row.withdrawn_round is not None:
                raise TournamentError(wording.already_withdrawn(row.name, row.withdrawn_round))
            row.withdrawn_round = rows.rounds_paired(session, event_id) + 1
            session.add(row)
            rows.audit(
                session, event_id, caller.label, "withdraw", {"entrant": row.name, "from_round": row.withdrawn_round}
            )
            return row.withdrawn_round

    def forbid(self, token: str | None, event_id: int, first: str | int, second: str | int, reason: str) -> None:
        """Keep two entrants from ever sitting at one table (family, same club). Raises ``TournamentError``."""
        caller = self.gate.require(token, event_id, Action.FORBID)
        reason = rows.reason(reason, wording.FORBID_WHY)
        with session_scope(self._writer) as session:
            a, b = rows.entrant(session, event_id, first), rows.entrant(session, event_id, second)
            if a.id == b.id:
                raise TournamentError(wording.FORBID_TWO)
            low, high = sorted((rows.pk(a), rows.pk(b)))
            exists = repo.forbidden_pair(session=session, event_id=event_id, first_id=low, second_id=high)
            if exists is not None:
                raise TournamentError(wording.already_kept_apart(a.name, b.name, exists.reason))
            session.add(TournamentForbidden(event_id=event_id, first_id=low, second_id=high, reason=reason))
            rows.audit(session, event_id, caller.label, "forbid", {"pair": [a.name, b.name], "reason": reason})
