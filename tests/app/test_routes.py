"""Page addresses that name a match: an id the database cannot hold is "no such match", not a crash."""

from __future__ import annotations

import pytest

from scorepad.access import Caller
from scorepad.app.models.state import HOME, TABLE, ScorePad
from scorepad.app.shell.router import open_pad_route
from scorepad.store import Store, UnknownMatch
from scorepad.store.ids import MAX_MATCH_ID, parse_match_id


@pytest.mark.parametrize("text", ["99999999999999999999", str(MAX_MATCH_ID + 1), "0", "²", "٣", "1_0", "-3", "", "abc"])
def test_an_id_that_cannot_be_stored_is_no_match(text: str) -> None:
    with pytest.raises(UnknownMatch):
        parse_match_id(text)


def test_ids_in_range_are_read() -> None:
    assert parse_match_id("7") == 7
    assert parse_match_id(str(MAX_MATCH_ID)) == MAX_MATCH_ID


@pytest.mark.parametrize("route", ["/match/99999999999999999999", "/match/²", "/match/abc/sheet"])
def test_opening_an_impossible_match_address_says_so(store: Store, route: str) -> None:
    pad = ScorePad(store, caller=Caller.local("test"))
    open_pad_route(pad, route)
    assert pad.screen == HOME and pad.table is None
    assert pad.message is not None and pad.message.startswith("There is no match")


def test_a_stored_match_still_opens_by_its_address(store: Store) -> None:
    match_id = store.create_match("smartt", players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, setter=0, caller=Caller.local())
    pad = ScorePad(store, caller=Caller.local("test"))
    open_pad_route(pad, f"/match/{match_id}")
    assert pad.screen == TABLE and pad.table is not None
