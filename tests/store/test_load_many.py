"""``Store.load_many``: many matches read in one transaction, each exactly as ``load`` gives it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.engine import Engine

from scorepad.access import Caller
from scorepad.rules import Draw, Play, report
from scorepad.simulate import simulate
from scorepad.store import BrokenLog, MatchSnapshot, Store, UnknownMatch, open_store
from scorepad.store.matches import delete_match, rename_player
from scorepad.store.models import Hand, LogEntry

LOCAL = Caller.local()


def _seen(state: MatchSnapshot) -> tuple[Any, ...]:
    """Everything a reader of a snapshot can see of it: its identity, its record and its report."""
    return (type(state), state.match_id, state.revision, state.to_record(), report(state))


def _matches(store: Store) -> list[int]:
    """Matches of every shape a hall holds: none started, mid-hand, corrected, several games, three seats."""
    empty = store.create_match(rules="smartt", players=["Ann", "Bob"], caller=LOCAL)
    mid = store.create_match(rules="smartt", players=["Cy", "Di"], caller=LOCAL)
    store.start_hand(mid, setter=0, caller=LOCAL)
    store.append(mid, Play("5-5"), caller=LOCAL)
    store.append(mid, Draw(1), caller=LOCAL)
    store.undo(mid, caller=LOCAL)
    store.amend(mid, None, caller=LOCAL)
    store.undo(mid, caller=LOCAL)
    imported = [
        store.import_record(simulate(rules, players, hands=hands, seed=seed)[0].to_record(), caller=LOCAL)
        for rules, players, hands, seed in (("smartt", 2, 6, 1), ("american", 3, 3, 2), ("smartt", 4, 2, 3))
    ]
    return [empty, mid, *imported]


@contextmanager
def _counted(engine: Engine) -> Iterator[dict[str, int]]:
    """The statements and transactions run on ``engine`` inside the block."""
    seen = {"statements": 0, "transactions": 0}

    def statement(*_args: Any) -> None:
        seen["statements"] += 1

    def begin(*_args: Any) -> None:
        seen["transactions"] += 1

    sa_event.listen(engine, "before_cursor_execute", statement)
    sa_event.listen(engine, "begin", begin)
    try:
        yield seen
    finally:
        sa_event.remove(engine, "before_cursor_execute", statement)
        sa_event.remove(engine, "begin", begin)


def test_each_match_as_load_gives_it(store: Store, db_url: str) -> None:
    ids = _matches(store)
    with open_store(db_url) as one_by_one, open_store(db_url) as together:
        expected = {match_id: _seen(one_by_one.load(match_id)) for match_id in ids}
        got = together.load_many(list(reversed(ids)))
        assert list(got) == list(reversed(ids))
        assert {match_id: _seen(state) for match_id, state in got.items()} == expected
        # Kept as load keeps them: the next read of each (load or load_many) is the same snapshot.
        assert all(together.load(match_id) is got[match_id] for match_id in ids)
        assert all(state is got[match_id] for match_id, state in together.load_many(ids).items())


def test_after_writes_elsewhere_each_match_as_load_gives_it(store: Store, db_url: str) -> None:
    ids = _matches(store)
    empty, mid, several = ids[0], ids[1], ids[2]
    with open_store(db_url) as hall:
        before = hall.load_many(ids)
        store.start_hand(empty, setter=1, caller=LOCAL)
        store.append(mid, Draw(1), caller=LOCAL)
        # A rename moves the revision without an entry: that log is read whole again.
        rename_player(store, several, 0, "Eve", caller=LOCAL)
        after = hall.load_many(ids)
        with open_store(db_url) as fresh:
            assert {m: _seen(s) for m, s in after.items()} == {m: _seen(fresh.load(m)) for m in ids}
        assert [after[m] is before[m] for m in ids] == [False, False, False, True, True]
        assert after[several].players[0] == "Eve"


def test_one_transaction_and_as_many_statements_for_one_match_as_for_many(store: Store, db_url: str) -> None:
    ids = _matches(store)
    cold, warm = [], []
    for wanted in ([ids[-1]], ids):
        with open_store(db_url) as fresh:
            with _counted(fresh.engine) as seen:
                fresh.load_many(wanted)
            cold.append(seen)
            # Nothing moved since: every match comes from the cache after one read of their revisions.
            with _counted(fresh.engine) as seen:
                fresh.load_many(wanted)
            warm.append(seen)
    # SQLite's BEGIN is a statement of its own (scorepad.store.db).
    begin = 1 if db_url.startswith("sqlite") else 0
    assert cold[0] == cold[1] == {"statements": 3 + begin, "transactions": 1}
    assert warm[0] == warm[1] == {"statements": 1 + begin, "transactions": 1}


def test_an_empty_list_reads_nothing(store: Store) -> None:
    with _counted(store.engine) as seen:
        assert store.load_many([]) == {}
    assert seen == {"statements": 0, "transactions": 0}


def test_an_unknown_match_raises_as_load_does(store: Store) -> None:
    ids = _matches(store)
    delete_match(store, ids[0], caller=LOCAL)
    for missing in (999, ids[0]):
        with pytest.raises(UnknownMatch) as by_load:
            store.load(missing)
        with pytest.raises(UnknownMatch) as together:
            store.load_many([ids[1], missing, 998])
        assert str(together.value) == str(by_load.value)


def test_a_broken_log_raises_as_load_does(store: Store, db_url: str) -> None:
    ids = _matches(store)
    table = LogEntry.__table__
    hands = Hand.__table__
    with store.engine.begin() as conn:
        # The mid-hand match's play (its entry 2) of a tile no set holds.
        conn.execute(
            table.update()
            .where(table.c.seq == 2, table.c.hand_id.in_(select(hands.c.id).where(hands.c.match_id == ids[1])))
            .values(payload={"play": "9-9"})
        )
    with open_store(db_url) as one, open_store(db_url) as many:
        with pytest.raises(BrokenLog, match="hand 1 entry 2") as by_load:
            one.load(ids[1])
        with pytest.raises(BrokenLog) as together:
            many.load_many(ids)
        assert str(together.value) == str(by_load.value)
