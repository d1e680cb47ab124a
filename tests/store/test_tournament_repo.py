"""The tournament's repository functions on SQLite and PostgreSQL: what the service relies on them to give."""

from __future__ import annotations

import pytest

from scorepad.store import Store
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope, writer
from scorepad.store.models import utcnow
from scorepad.store.tournament_models import TournamentEvent, TournamentRound
from scorepad.store.tournament_repo import AlreadyStored, Session


def _event(session: Session) -> int:
    return repo.add_row(
        session=session,
        row=TournamentEvent(
            name="Open",
            rules="smartt",
            options={},
            kind="singles",
            rounds=5,
            unit="games",
            per_round=1,
            pairing="swiss",
            seed="seed",
            bye_points=2,
            director_hash="not a hash",
            created_at=utcnow(),
        ),
    )


def _round(session: Session, event_id: int, number: int) -> int:
    return repo.add_row(
        session=session,
        row=TournamentRound(
            event_id=event_id,
            number=number,
            seed=f"seed:{number}",
            engine_version="test",
            inputs={},
            computed={},
            fingerprint="0" * 64,
            paired_at=utcnow(),
        ),
    )


def test_rounds_come_in_number_order_whatever_order_they_were_written(store: Store) -> None:
    with session_scope(writer(store.engine)) as session:
        event_id = _event(session)
        for number in (2, 3, 1):
            _round(session, event_id, number)
    with session_scope(store.engine) as session:
        assert [r.number for r in repo.rounds(session=session, event_id=event_id)] == [1, 2, 3]
        assert [r.number for r in repo.rounds(session=session, event_id=event_id, before=3)] == [1, 2]
        latest = repo.latest_round(session=session, event_id=event_id)
        assert latest is not None and latest.number == 3
        second = repo.round_numbered(session=session, event_id=event_id, number=2)
        assert second is not None and second.number == 2
        assert repo.round_numbered(session=session, event_id=event_id, number=9) is None


def test_a_round_number_written_twice_is_already_stored_and_nothing_of_it_stays(store: Store) -> None:
    with session_scope(writer(store.engine)) as session:
        event_id = _event(session)
        _round(session, event_id, 1)
    with pytest.raises(AlreadyStored), repo.unique_writes(writer(store.engine)) as session:
        repo.add_audit(session=session, event_id=event_id, actor="director", action="pair", detail={}, at=utcnow())
        _round(session, event_id, 1)
    with session_scope(store.engine) as session:
        assert [r.number for r in repo.rounds(session=session, event_id=event_id)] == [1]
        assert repo.audit(session=session, event_id=event_id) == []


def test_confirmations_name_every_table_asked_even_one_with_none(store: Store) -> None:
    with session_scope(writer(store.engine)) as session:
        round_id = _round(session, _event(session), 1)
        for number in (1, 2):
            repo.add_table(
                session=session, round_id=round_id, number=number, match_id=None, entrants=[], code_hash=None
            )
        session.flush()
        first, second = (repo.table_numbered(session=session, round_id=round_id, number=n) for n in (1, 2))
        assert first is not None and first.id is not None and second is not None and second.id is not None
        for fingerprint in ("a", "b"):
            repo.add_confirmation(
                session=session, table_id=first.id, hand=1, fingerprint=fingerprint, confirmed_by="Bob", at=utcnow()
            )
    with session_scope(store.engine) as session:
        done = repo.confirmations(session=session, table_ids=[first.id, second.id])
    assert done == {first.id: {1: {"a", "b"}}, second.id: {}}


def test_an_unknown_token_stands_for_nothing_and_a_tables_names_its_round(store: Store) -> None:
    with session_scope(writer(store.engine)) as session:
        event_id = _event(session)
        round_id = _round(session, event_id, 1)
        _round(session, event_id, 2)
        repo.add_table(session=session, round_id=round_id, number=3, match_id=None, entrants=[], code_hash=None)
        session.flush()
        table = repo.table_numbered(session=session, round_id=round_id, number=3)
        assert table is not None
        repo.add_session(
            session=session, event_id=event_id, token_hash="t" * 64, role="table", table_id=table.id, at=utcnow()
        )
    with session_scope(store.engine) as session:
        assert repo.credential(session=session, token_hash="u" * 64) is None
        row = repo.credential(session=session, token_hash="t" * 64)
    assert row is not None
    # (event, role, created, table id, table number, match, the table's round's event, its number, lock, latest)
    assert (row[0], row[1], row[3], row[4], row[6], row[7], row[9]) == (event_id, "table", table.id, 3, event_id, 1, 2)
