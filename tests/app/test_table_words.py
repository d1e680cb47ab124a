"""The table's own words (Smartt §15) and the training hints on the table screen (issue 10, item 3)."""

from __future__ import annotations

from pathlib import Path

from scorepad.access import Caller
from scorepad.app.models.table import Table
from scorepad.store import Store

DATA = Path(__file__).resolve().parents[1] / "data" / "analysis"


def _table(store: Store, name: str) -> Table:
    match_id = store.import_record((DATA / f"{name}.json").read_text(), caller=Caller.local())
    return Table(store, match_id, caller=Caller.local())


def test_moonfaced_shows_when_the_hand_ends(store: Store) -> None:
    # Played to 10: Ann's set 5-5 wins at once and Bob scored nothing in the hand (§15).
    table = _table(store, "moonfaced")
    said = table.sayings()
    assert said is not None and "Moonfaced! Bob scored nothing in the hand (Smartt §15)." in said


def test_no_words_when_nothing_is_said(store: Store) -> None:
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, 0, caller=Caller.local())
    store.append(match_id, {"play": "3-4"}, caller=Caller.local())
    assert Table(store, match_id, caller=Caller.local()).sayings() is None


def test_training_hints_are_off_until_turned_on(store: Store) -> None:
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, 0, caller=Caller.local())
    store.append(match_id, {"play": "3-4"}, caller=Caller.local())
    table = Table(store, match_id, caller=Caller.local())
    assert table.hints() == ()
    table.toggle_training()
    hints = table.hints()
    assert any(h.startswith("Tiles not yet seen that would score now") for h in hints)
    table.toggle_training()
    assert table.hints() == ()


def test_a_tournament_table_never_shows_hints(store: Store) -> None:
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, 0, caller=Caller.local())
    store.append(match_id, {"play": "3-4"}, caller=Caller.local())
    table = Table(store, match_id, caller=Caller.local())
    table.tournament = True  # as a tournament's table device is (Smartt §12)
    table.toggle_training()
    assert not table.training and table.hints() == ()
