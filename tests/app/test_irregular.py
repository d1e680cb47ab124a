"""The irregularities menu over the real engine and store: previewed in names, saved as one event, undoable."""

from __future__ import annotations

from scorepad.access import Caller
from scorepad.app.models.state import ScorePad
from scorepad.app.models.table import HAND_OVER, PLAY, Table
from scorepad.app.models.words import hand_words
from scorepad.rules.misdeal import Misdeal
from scorepad.store import Store

from .test_state import lay, new_table


def _table(store: Store, **form: object) -> Table:
    pad = new_table(store, **form)
    assert pad.table is not None
    return pad.table


def _record(store: Store, table: Table) -> list[dict]:
    return store.export_record(table.match_id)["hands"][-1]["events"]


class TestThrowIn:
    def test_previewed_in_names_then_saved_and_undone(self, store: Store) -> None:
        table = _table(store)
        lay(table, "5-5")
        lay(table, "5-0", "left")
        assert [s.score for s in table.sides()] == [10, 10]
        menu = table.irregular
        menu.toggle()
        menu.choose("void")
        preview = menu.preview()
        assert preview is not None and preview.allowed
        assert preview.words == (
            "Throw in game 1, hand 1: every score goes back to its start-of-hand value and Ann sets again"
            " (Smartt §11.3). Scores: Ann 0, Bob 0."
        )
        # Nothing is saved by the preview.
        assert _record(store, table)[-1] == {"play": "5-0", "at": "left"}
        assert menu.confirm()
        assert _record(store, table)[-1] == {"void": True}
        assert table.phase == HAND_OVER and not menu.open
        assert [s.score for s in table.sides()] == [0, 0]
        assert table.end_words() == "The hand was thrown in (Smartt §11.3)"
        table.undo()
        assert table.phase == PLAY and [s.score for s in table.sides()] == [10, 10]

    def test_before_the_set_the_engine_refuses_and_nothing_can_be_recorded(self, store: Store) -> None:
        table = _table(store)
        table.irregular.choose("void")
        preview = table.irregular.preview()
        assert preview is not None and not preview.allowed
        assert "before the set only a misdeal may be entered" in preview.words
        assert not table.irregular.confirm()
        assert _record(store, table) == []

    def test_a_jaques_game_cites_no_smartt(self, store: Store) -> None:
        table = _table(store, rules="jaques")
        lay(table, "6-6")
        table.irregular.choose("void")
        preview = table.irregular.preview()
        assert preview is not None and preview.allowed
        assert "Smartt" not in preview.words


class TestMisdeal:
    def test_a_seat_dealt_six_takes_the_missing_tile_before_the_set(self, store: Store) -> None:
        table = _table(store)
        menu = table.irregular
        menu.choose("misdeal")
        assert menu.preview() is None
        assert not menu.confirm() and table.message == "Pick the player who holds a tile too many or too few."
        menu.pick_seat(1)
        preview = menu.preview()
        assert preview is not None and preview.allowed
        # Smartt §11.4: the short deal and the tile taken; Bob then holds what the deal gives.
        assert preview.words.startswith(
            "Misdeal: Bob was dealt one tile too few and takes the missing tile from the boneyard before the set"
        )
        assert "Bob holds 7 tiles; the boneyard holds 14 tiles. The turn does not change." in preview.words
        assert menu.confirm()
        assert _record(store, table) == [{"adjust": 1, "count": -1}, {"adjust": 1, "count": 1}]
        assert [s.tiles_held for s in table.seats()] == [7, 7]
        assert table.turn_words() == "Ann to set"

    def test_one_too_many_is_kept_later_in_the_hand(self, store: Store) -> None:
        table = _table(store)
        lay(table, "5-5")
        menu = table.irregular
        menu.choose("misdeal")
        menu.pick_seat(0)
        menu.pick_misdeal(Misdeal.TOO_MANY)
        preview = menu.preview()
        assert preview is not None
        assert "Ann was dealt one tile too many and keeps every tile drawn" in preview.words
        assert "Ann holds 7 tiles; the boneyard holds 13 tiles." in preview.words
        assert menu.confirm()
        assert _record(store, table)[-1] == {"adjust": 0, "count": 1}
        assert [s.tiles_held for s in table.seats()] == [7, 7]
        assert table.turn_words() == "Bob to play"
        table.undo()
        assert [s.tiles_held for s in table.seats()] == [6, 7]


class TestStood:
    def test_a_tile_that_stood_is_flagged_and_counted(self, store: Store) -> None:
        table = _table(store)
        lay(table, "5-5")
        menu = table.irregular
        menu.choose("stands")
        assert menu.open_ends() == [("left", 5), ("right", 5)]
        menu.pick_end("right")
        misfits = menu.misfits()
        assert (6, 6) in misfits and (2, 0) not in misfits and (0, 2) in misfits
        assert all(5 not in tile for tile in misfits)
        menu.pick_tile(2, 0)
        preview = menu.preview()
        assert preview is not None and preview.allowed, preview
        assert preview.words.startswith(
            "Tile stood: Bob's 2-0 stays on the 5-5 (long side, right) although it does not match;"
            " 0 becomes that end. The board count is then 10: scores 10."
        )
        assert preview.words.endswith("flagged 'stood' (Smartt §11.5).")
        menu.flip()
        preview = menu.preview()
        assert (
            preview is not None and "0-2" in preview.words and "The board count is then 12: no score" in (preview.words)
        )
        menu.flip()
        assert menu.confirm()
        assert _record(store, table)[-1] == {"play": "2-0", "at": "right", "by": 1, "stands": True}
        assert table.board().count == 10
        panel = table.call_panel()
        assert panel is not None and "stood" in panel.flags
        assert panel.consequence == "Called right: 10 scored. The illegal coupling stands (Smartt §11.5)."
        assert not panel.can_fix, "a coupling that stood is no miscall to correct"
        assert [s.score for s in table.sides()] == [10, 10]
        # Changing the call keeps the mark.
        table.call(0)
        assert _record(store, table)[-1] == {"play": "2-0", "at": "right", "by": 1, "call": 0, "stands": True}
        # Undo takes back the amended call, then the tile that stood.
        table.undo()
        assert _record(store, table)[-1] == {"play": "2-0", "at": "right", "by": 1, "stands": True}
        table.undo()
        assert _record(store, table) == [{"play": "5-5"}]

    def test_a_tile_that_fits_is_not_offered_and_the_engine_refuses_it(self, store: Store) -> None:
        table = _table(store)
        lay(table, "5-5")
        menu = table.irregular
        menu.choose("stands")
        menu.pick_end("left")
        menu.pick_tile(5, 3)
        preview = menu.preview()
        assert preview is not None and not preview.allowed
        assert "a legal play is not marked 'stands'" in preview.words

    def test_a_jaques_game_cites_the_fine_points(self, store: Store) -> None:
        table = _table(store, rules="jaques")
        lay(table, "6-6")
        menu = table.irregular
        menu.choose("stands")
        menu.pick_end("left")
        menu.pick_tile(1, 2)
        preview = menu.preview()
        assert preview is not None and preview.words.endswith("(Jaques, 'The fine points').")


class TestWords:
    def test_hands_are_numbered_within_their_game(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.new_match()
        pad.form.target = "10"
        pad.start_match()
        table = pad.table
        assert table is not None
        lay(table, "5-5")
        assert table.phase != PLAY
        table.next_hand()
        hand = table.hand
        assert hand is not None and hand.game == 2
        assert hand_words(table.state, hand) == "game 2, hand 1"
        assert hand.number == 2 and table.title().endswith("game 2, hand 1")
