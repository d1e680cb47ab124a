"""The view-model without Flet: taps in, the engine's numbers out, everything saved in the store."""

from __future__ import annotations

import pytest

from scorepad.access import Caller
from scorepad.app.models.state import HOME, NEW, TABLE, ScorePad
from scorepad.app.models.table import GAME_OVER, HAND_OVER, PLAY, SETTLE, Table, entry_taps
from scorepad.app.shell.router import open_pad_route
from scorepad.rules import Draw, Muggins, Play, make_ruleset
from scorepad.rules.previews import preview_event
from scorepad.store import Store

from .app_hands import GO_OUT_COUNTS, GO_OUT_HAND, JAQUES_SCORING_GO_OUT


def new_table(store: Store, *, players: int = 2, rules: str = "smartt", **form: object) -> ScorePad:
    """Start a match through the form, as the scorer would."""
    pad = ScorePad(store, caller=Caller.local("test"))
    pad.new_match()
    pad.choose_rules(rules)
    pad.choose_players(players)
    for name, value in form.items():
        setattr(pad.form, name, value)
    pad.start_match()
    assert pad.message is None, pad.message
    return pad


def lay(table: Table, tile: str, at: str | None = None) -> None:
    """Tap a tile (and the end, when asked)."""
    low, high = (int(v) for v in tile.split("-"))
    table.tap_tile(low, high)
    if at is not None and table.pending is not None:
        # Asked only when the ends differ; otherwise the app wrote an equivalent end itself.
        assert at in table.end_choices(), (tile, table.end_choices(), table.message)
        table.choose_end(at)
    assert table.pending is None, (tile, table.end_choices())
    assert table.message is None, table.message


class TestStart:
    def test_defaults_start_at_once(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local("test"))
        assert pad.screen == HOME
        pad.new_match()
        assert pad.screen == NEW
        assert (pad.form.rules, pad.form.players, pad.form.setter) == ("smartt", 2, 0)
        pad.start_match()
        assert pad.screen == TABLE
        table = pad.table
        assert table is not None
        assert table.phase == PLAY
        assert table.turn_words() == "Ann to set"
        assert [s.score for s in table.sides()] == [0, 0]
        assert [s.needed for s in table.sides()] == [250, 250]
        assert pad.route == f"/match/{table.match_id}"

    def test_resume_latest_opens_this_devices_match(self, store: Store) -> None:
        first = new_table(store)
        second = new_table(store)
        assert first.table and second.table
        lay(second.table, "6-4")
        pad = ScorePad(store, caller=Caller.local("other"))
        # Issue 8: Resume is the match this device remembers (tests/app/test_matches.py has the rest).
        pad.book.remember(second.table.match_id)
        pad.resume_latest()
        assert pad.table is not None
        assert pad.table.match_id == second.table.match_id
        assert pad.table.board().count == 10

    def test_resume_with_nothing_to_resume_says_so(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.resume_latest()
        assert pad.table is None
        assert pad.message and "start a new one" in pad.message

    def test_four_players_show_the_partnerships(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.choose_players(4)
        assert "Ann & Cy against Bob & Di" in pad.form.describe()
        pad.start_match()
        assert pad.table is not None
        assert [s.names for s in pad.table.sides()] == ["Ann & Cy", "Bob & Di"]

    def test_impossible_options_are_refused_in_words(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.form.target = "-5"
        pad.start_match()
        assert pad.table is None
        assert pad.message and "target" in pad.message

    def test_open_route_resumes_a_match_by_address(self, store: Store) -> None:
        pad = new_table(store)
        assert pad.table is not None
        lay(pad.table, "2-3")
        other = ScorePad(store, caller=Caller.local())
        open_pad_route(other, pad.route)
        assert other.table is not None
        assert other.table.board().count == 5
        open_pad_route(other, "/match/9999")
        assert other.screen == HOME and other.message


class TestTwoScreens:
    def test_an_entry_made_on_another_screen_is_not_built_upon_blindly(self, store: Store) -> None:
        pad = new_table(store)
        assert pad.table is not None
        lay(pad.table, "5-5")
        other = Table(store, pad.table.match_id, caller=Caller.local("phone-2"))
        lay(other, "0-5", "left")
        pad.table.tap_tile(0, 0)
        assert pad.table.message and "another screen" in pad.table.message
        assert pad.table.board().count == 10, "the screen now shows the match as stored"
        assert [s.score for s in pad.table.sides()] == [10, 10]
        lay(pad.table, "0-0")
        assert [s.score for s in pad.table.sides()] == [20, 10]

    def test_other_screens_on_the_match_are_told_of_each_entry(self, store: Store) -> None:
        scorer = new_table(store)
        assert scorer.table is not None
        watcher = ScorePad(store, caller=Caller.local("phone-2"))
        watcher.open_match(scorer.table.match_id)
        elsewhere = ScorePad(store, caller=Caller.local("phone-3"))
        screens = [watcher, elsewhere]
        scorer.table.on_saved = lambda match_id, device: [s.match_saved_elsewhere(match_id, device) for s in screens]
        lay(scorer.table, "4-6")
        assert watcher.table is not None and watcher.table.board().count == 10
        assert elsewhere.table is None, "a screen on another match is left alone"
        assert not scorer.match_saved_elsewhere(scorer.table.match_id, scorer.device), "its own entry is not news"


class TestPlaying:
    def test_the_set_scores_and_the_turn_passes(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        assert table.board().count == 10
        assert [s.score for s in table.sides()] == [10, 0]
        assert table.turn_words() == "Bob to play"
        assert "Sniff 5-5" in table.board().sniff_stage
        played = [t.name for t in table.tiles() if t.played]
        assert played == ["5-5"]

    def test_a_tile_that_fits_two_ends_asks_which(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "3-5")
        lay(table, "5-6")
        assert table.board().count == 19  # left 3 + right 6 + the Sniff's two open short ends, 10
        table.tap_tile(3, 6)
        assert table.end_choices() == ["left", "right"]
        # Named by what lies there on the table, not by the picture's left (issue 19, item 5).
        assert table.end_option_words("left") == "on the 3 of 5-3 · count 22"
        assert table.end_option_words("right") == "on the 6 of 5-6 · count 16"
        assert table.board().count == 19, "nothing is laid until the end is chosen"
        table.choose_end("right")
        assert table.pending is None
        assert table.board().count == 16
        picture = table.picture()
        assert [(p.first, p.second) for p in picture.line] == [(3, 5), (5, 5), (5, 6), (6, 3)]
        assert picture.line[1].sniff and picture.line[1].crosswise
        assert {e.at: e.value for e in picture.open_ends} == {"left": 3, "right": 3, "up": 5, "down": 5}

    def test_ends_that_give_the_same_are_not_asked_and_the_first_is_written(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        table.tap_tile(3, 5)  # either long side of the Sniff: the same count and open ends
        assert table.pending is None and table.end_choices() == []
        assert table.hand is not None and table.hand.events[-1].at == "left"
        lay(table, "5-6")
        table.tap_tile(1, 5)  # either short end
        assert table.pending is None
        assert table.hand.events[-1].at == "up"

    def test_the_left_arm_is_drawn_outer_end_first(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "3-5", "left")
        lay(table, "3-3")
        line = table.picture().line
        assert [(p.first, p.second, p.crosswise) for p in line] == [(3, 3, True), (3, 5, False), (5, 5, True)]
        assert [p.sniff for p in line] == [False, False, True]

    def test_a_tile_that_fits_nowhere_is_refused_with_the_reason(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        table.tap_tile(1, 2)
        assert table.message and "fits no open end" in table.message
        assert table.board().count == 10
        assert len(store.load(table.match_id).current.events) == 1

    def test_a_played_tile_is_refused(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5")
        table.tap_tile(5, 5)
        assert table.message and "already been played" in table.message

    def test_the_whole_hand_goes_out_and_settles(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        counts = []
        for tile, at in GO_OUT_HAND:
            lay(table, tile, at)
            counts.append(table.board().count)
        assert counts == GO_OUT_COUNTS
        assert table.phase == SETTLE
        assert table.end_words() == "Ann went out"
        assert [s.score for s in table.sides()] == [40, 10]
        # Bob still holds one tile: tap it in, as the scorer would.
        table.pick_settle_seat(1)
        table.tap_tile(6, 6)
        assert table.remaining_entry() == [0, ["6-6"]]
        assert table.settle_preview() == "Bob holds 12 pips; 12 rounds to 10 (Smartt §9.2); Ann scores 10 (Smartt §9.1)"
        table.settle()
        assert table.message is None
        assert table.phase == HAND_OVER
        result = table.settlement()
        assert result is not None
        assert result.steps == ("Bob holds 12 pips", "12 rounds to 10 (Smartt §9.2)", "Ann scores 10 (Smartt §9.1)")
        assert [s.score for s in table.sides()] == [50, 10]
        assert table.next_setter_words().startswith("Bob sets next")
        table.next_hand()
        assert table.phase == PLAY
        assert table.turn_words() == "Bob to set"
        assert [s.start for s in table.sides()] == [50, 10]

    def test_a_pip_total_settles_with_the_rounding(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        for tile, at in GO_OUT_HAND:
            lay(table, tile, at)
        table.set_remaining_text(1, "8")
        table.settle()
        assert table.message is None, table.message
        assert [s.score for s in table.sides()] == [50, 10]
        table.undo()
        assert table.phase == SETTLE, "undo takes the settlement back"


class TestDrawPassUndo:
    def test_draws_count_and_a_pass_waits_for_the_draws(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "6-6")
        table.pass_turn()
        assert table.message and "draw first" in table.message
        table.draw()
        table.draw()
        assert [s.tiles_held for s in table.seats()] == [6, 9]
        assert "Boneyard 12 (2 protected)" in table.boneyard_words()
        table.draw()
        assert table.message and "at most 2" in table.message.lower()
        table.pass_turn()
        assert table.message is None
        assert table.turn_words() == "Ann to play"

    def test_undo_and_redo_go_through_the_store(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        table.undo()
        assert table.board().count == 10
        assert store.load(table.match_id).current.events[-1].tile == "5-5"
        table.redo()
        assert table.board().count == 10
        assert len(store.load(table.match_id).current.events) == 2
        assert [s.score for s in table.sides()] == [10, 10]

    def test_undoing_the_start_of_the_first_hand_leaves_the_setter_to_choose(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        table.undo()
        assert table.phase == "no-hand"
        assert table.setter_choices() == [0, 1]
        table.next_hand()
        assert table.message and "Choose who sets next" in table.message
        table.choose_next_setter(1)
        table.next_hand()
        assert table.phase == PLAY and table.turn_words() == "Bob to set"


class TestCalls:
    def test_a_scoring_play_opens_the_call_panel_called_right_by_default(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        assert table.call_panel() is None, "the set needs no call"
        lay(table, "0-5", "left")
        panel = table.call_panel()
        assert panel is not None
        assert (panel.board_count, panel.score, panel.call, panel.flags) == (10, 10, 10, ())
        assert panel.calls == (5, 10, 15, 20, 25, 30, 35), "Smartt §7.1: 35 is the highest play score"

    def test_an_overcall_stands_until_corrected(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        table.call(15)
        panel = table.call_panel()
        assert panel is not None and panel.flags == ("overcall",)
        assert "stands as called" in panel.consequence
        assert [s.score for s in table.sides()] == [10, 15]
        table.fix_call()
        panel = table.call_panel()
        assert panel is not None and "corrected" in panel.flags
        assert [s.score for s in table.sides()] == [10, 10]
        events = store.load(table.match_id).current.events
        assert len(events) == 2 and events[-1].fix and events[-1].call == 15

    def test_not_called_loses_the_score(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        table.call(0)
        panel = table.call_panel()
        assert panel is not None and panel.flags == ("missed",)
        assert [s.score for s in table.sides()] == [10, 0]
        table.call(10)
        assert [s.score for s in table.sides()] == [10, 10]
        assert store.load(table.match_id).current.events[-1].call is None

    def test_the_panel_follows_the_last_play_and_can_be_hidden(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        lay(table, "0-0")
        panel = table.call_panel()
        assert panel is not None and panel.player == "Ann" and panel.score == 10
        lay(table, "0-1")
        panel = table.call_panel()
        assert panel is not None and (panel.player, panel.score) == ("Bob", 0), "a play that scores nothing"
        table.close_call()
        assert table.call_panel() is None
        table.call(10)
        assert table.call_panel() is not None, "a call of a score that did not exist is flagged"
        assert table.call_panel().flags == ("nonexistent",)
        assert [s.score for s in table.sides()] == [20, 20], "Smartt §7.2: an uncorrected call stands"

    def test_muggins_claim_for_an_opponent(self, store: Store) -> None:
        table = new_table(store, rules="jaques", muggins=True).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        table.call(0)
        panel = table.call_panel()
        assert panel is not None and panel.claimants == (0,)
        table.claim_muggins(0)
        assert [s.score for s in table.sides()] == [20, 0]


class TestRenege:
    def test_the_preview_matches_what_is_applied(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        for tile, at in GO_OUT_HAND[:3]:
            lay(table, tile, at)
        assert [s.score for s in table.sides()] == [20, 10]
        table.start_renege()
        table.pick_offender(1)
        preview = table.renege_preview()
        assert preview is not None
        assert preview.scores_after == (20, -25)
        assert "less 25 = -25" in preview.words
        assert [s.score for s in table.sides()] == [20, 10], "nothing applied before confirming"
        table.confirm_renege()
        assert table.phase == HAND_OVER
        assert [s.score for s in table.sides()] == [20, -25]
        assert table.settlement() is not None
        assert "Renege by Bob" in table.settlement().words

    def test_picking_the_offender_answers_the_refusal_for_want_of_one(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        table.start_renege()
        table.confirm_renege()
        assert table.message == "Pick who reneged first."
        table.pick_offender(1)
        assert table.message is None, "the refusal is answered once someone is picked"

    def test_cancel_applies_nothing(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        table.start_renege()
        table.pick_offender(0)
        table.cancel_renege()
        assert table.phase == PLAY and not table.renege_open


class TestBlockAndGames:
    def test_a_four_player_partnership_hand_blocks_and_settles(self, store: Store) -> None:
        table = new_table(store, players=4).table
        assert table is not None
        lay(table, "6-6")
        for _seat in (1, 2, 3, 0):
            table.draw()
            table.draw()
            table.pass_turn()
            assert table.message is None, table.message
        assert table.phase == SETTLE
        assert table.end_words() == "The hand is blocked (Smartt, 'Four players')"
        for seat, pips in enumerate((20, 30, 25, 28)):
            table.set_remaining_text(seat, str(pips))
        table.settle()
        assert table.message is None, table.message
        result = table.settlement()
        assert result is not None
        assert "Ann & Cy have the lowest total" in result.words
        assert [s.score for s in table.sides()] == [60, 0]

    def test_after_an_american_block_the_players_choose_the_setter(self, store: Store) -> None:
        table = new_table(store, rules="american").table
        assert table is not None
        lay(table, "6-6")
        for _draw in range(14):
            table.draw()
        table.pass_turn()
        table.pass_turn()
        assert table.message is None, table.message
        assert table.phase == SETTLE
        table.set_remaining_text(0, "23")
        table.set_remaining_text(1, "120")
        table.settle()
        assert table.message is None, table.message
        result = table.settlement()
        assert result is not None and "23 pips rounds to 25" in result.words
        assert [s.score for s in table.sides()] == [-25, -120]
        assert table.setter_choices() == [0, 1]
        table.next_hand()
        assert table.message and "Choose who sets next" in table.message
        table.choose_next_setter(1)
        table.next_hand()
        assert table.turn_words() == "Bob to set"

    def test_a_game_won_shows_the_result_and_the_next_game(self, store: Store) -> None:
        table = new_table(store, target="20").table
        assert table is not None
        for tile, at in GO_OUT_HAND[:3]:
            lay(table, tile, at)
        assert table.phase == GAME_OVER
        result = table.game_result()
        assert result is not None
        assert result.winner_names == "Ann"
        assert "Game points: 14 to Ann (Smartt §14)" in result.words and "Rubed: Bob" in result.words
        # The winning hand's row names the winner, whoever set it.
        assert table.sheet().rows[-1].how == "Ann won the game"
        table.next_hand()
        assert table.phase == PLAY
        assert [s.score for s in table.sides()] == [0, 0]
        assert table.hand is not None and table.hand.game == 2

    def test_the_score_sheet_lists_every_hand(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        for tile, at in GO_OUT_HAND:
            lay(table, tile, at)
        table.set_remaining_text(1, "8")
        table.settle()
        table.next_hand()
        sheet = table.sheet()
        assert [(r.number, r.start, r.end, r.how) for r in sheet.rows] == [
            (1, (0, 0), (50, 10), "Ann went out"),
            (2, (50, 10), (50, 10), "In play"),
        ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_tile_of_the_set_is_in_the_picker(store: Store, players: int) -> None:
    table = new_table(store, players=players).table
    assert table is not None
    assert len(table.tiles()) == 28
    nine = new_table(store, players=players, double_nine=True).table
    assert nine is not None
    assert len(nine.tiles()) == 55


class TestWhoSetsFirst:
    """The draw-for-the-set helper: the engine decides, the form selects, the scorer may overrule."""

    def test_the_draw_for_the_set_selects_the_heaviest_tile(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.new_match()
        pad.choose_players(3)
        assert pad.draw_title() == "Draw for the set"
        pad.toggle_draw()
        assert pad.form.draw.open
        for seat, tile in enumerate(("6-4", "5-5", "2-1")):
            pad.enter_drawn(seat, tile)
        pad.decide_first_setter()
        draw = pad.form.draw
        assert draw.error is None
        # Smartt §3.1: 6-4 and 5-5 both total 10; the higher single value, 6, wins.
        assert pad.form.setter == 0
        assert draw.result is not None and draw.result.startswith("Ann sets first")
        assert "highest single value (6)" in draw.result and "§3.1" in draw.result
        pad.choose_setter(2)
        pad.start_match()
        assert pad.table is not None and pad.table.turn_words() == "Cy to set", "the scorer may still choose"

    def test_a_bad_or_repeated_tile_shows_the_engine_sentence_and_changes_nothing(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.choose_setter(1)
        pad.toggle_draw()
        pad.enter_drawn(0, "6-4")
        pad.enter_drawn(1, "7-1")
        pad.decide_first_setter()
        assert pad.form.draw.error == "Bob: 7-1 is not in a double-six set"
        assert pad.form.draw.result is None and pad.form.setter == 1
        pad.enter_drawn(1, "4-6")
        pad.decide_first_setter()
        assert pad.form.draw.error == "4-6 is named twice; every tile is in the set once"
        assert pad.form.setter == 1
        pad.enter_drawn(1, "")
        pad.decide_first_setter()
        assert pad.form.draw.error is not None and pad.form.draw.error.startswith("Bob: a tile is written like")
        pad.enter_drawn(1, "0-0")
        assert pad.form.draw.error is None, "a new entry clears the old complaint"
        pad.decide_first_setter()
        assert pad.form.setter == 0

    def test_double_nine_tiles_are_read_in_a_double_nine_set(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.form.double_nine = True
        pad.enter_drawn(0, "9-8")
        pad.enter_drawn(1, "6-6")
        pad.decide_first_setter()
        assert pad.form.setter == 0 and pad.form.draw.error is None
        assert len(pad.drawn_tiles()) == 55

    def test_under_jaques_the_highest_double_leads(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.choose_rules("jaques")
        pad.choose_players(3)
        assert pad.draw_title() == "Highest double leads"
        for seat, tile in enumerate(("6-5", "2-2", "4-4")):
            pad.enter_drawn(seat, tile)
        pad.decide_first_setter()
        assert pad.form.setter == 2
        assert pad.form.draw.result is not None and "highest double, 4-4" in pad.form.draw.result
        for seat, tile in enumerate(("6-3", "5-4", "1-0")):
            pad.enter_drawn(seat, tile)
        pad.decide_first_setter()
        assert pad.form.setter == 0 and "heaviest tile" in (pad.form.draw.result or "")

    def test_tapped_tiles_fill_the_seats_in_turn(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.choose_players(3)
        pad.toggle_draw()
        pad.pick_drawn_seat(1)
        pad.tap_drawn_tile(3, 5)
        assert pad.form.draw.tiles[:3] == ["", "5-3", ""]
        assert pad.form.draw.picking == 2, "on to the next seat without a tile"
        pad.tap_drawn_tile(1, 1)
        assert pad.form.draw.picking == 0, "then back round to the first"
        pad.tap_drawn_tile(0, 6)
        assert pad.form.draw.picking is None
        pad.decide_first_setter()
        assert pad.form.setter == 1

    def test_changing_the_rules_or_players_drops_an_old_answer(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.enter_drawn(0, "1-1")
        pad.enter_drawn(1, "2-2")
        pad.decide_first_setter()
        assert pad.form.draw.result and pad.form.setter == 1
        pad.choose_rules("american")
        assert pad.form.draw.result is None and pad.form.setter == 1
        pad.choose_players(3)
        pad.enter_drawn(2, "0-1")
        pad.decide_first_setter()
        assert pad.form.setter == 1


class TestTheLastTile:
    def test_a_claim_on_the_going_out_tile_is_scored_before_the_settlement(self, store: Store) -> None:
        # Jaques 'Variations: Muggins'; records.md §4: a claim on the last tile comes before the settlement.
        table = new_table(store, rules="jaques", muggins=True).table
        assert table is not None
        for tile in JAQUES_SCORING_GO_OUT[:-1]:
            lay(table, tile)
        before = [s.score for s in table.sides()]
        lay(table, JAQUES_SCORING_GO_OUT[-1])
        assert table.phase == SETTLE
        assert table.call_open() and table.call_panel() is not None, "the call on the last tile can still change"
        assert "went out with 0-1" in (table.pending_end_words() or "")
        table.call(0)  # Ann did not call her 5
        panel = table.call_panel()
        assert panel is not None and panel.claimants == (1,)
        table.claim_muggins(1)
        assert table.message is None, table.message
        assert table.call_panel() is None and table.pending_end_words() is None
        table.set_remaining_text(1, "6")  # Bob's last tile, the 1-5
        table.settle()
        assert table.message is None, table.message
        # The award: Bob's 6 pips round to 5 for Ann; Bob keeps the 5 he claimed.
        assert [s.score for s in table.sides()] == [before[0] + 5, before[1] + 5]

    def test_the_winning_play_not_called_is_lost_and_play_goes_on(self, store: Store) -> None:
        # Smartt §7.2: no call, no score, so a winning play not called does not win.
        table = new_table(store, target="20").table
        assert table is not None
        for tile, at in GO_OUT_HAND[:3]:
            lay(table, tile, at)
        assert table.phase == GAME_OVER
        assert "reached 20 with 0-0" in (table.pending_end_words() or "")
        assert table.call_panel() is not None
        table.close_call()
        assert table.call_panel() is None and table.can_reopen_call(), "Hide never loses the call"
        table.open_call()
        table.call(0)
        assert table.message is None, table.message
        assert table.phase == PLAY and table.game_result() is None
        assert [s.score for s in table.sides()] == [10, 10]
        assert table.turn_words() == "Bob to play"
        table.undo()  # the amendment was one entry: the win stands again
        assert table.phase == GAME_OVER and table.game_result() is not None

    def test_after_the_settlement_the_call_is_closed(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        for tile, at in GO_OUT_HAND:
            lay(table, tile, at)
        table.set_remaining_text(1, "8")
        table.settle()
        assert table.phase == HAND_OVER
        assert not table.call_open() and not table.can_reopen_call()
        table.call(0)
        assert table.message == "A call can only be changed before the next tile is entered."


class TestInputThatCannotWedge:
    def _settling(self, store: Store) -> Table:
        table = new_table(store).table
        assert table is not None
        for tile, at in GO_OUT_HAND:
            lay(table, tile, at)
        assert table.phase == SETTLE
        return table

    @pytest.mark.parametrize("typed", ["²", "⑧", "abc", "-5", "12.5", "99999", "1 2"])
    def test_a_bad_remainder_names_the_player_and_the_range(self, store: Store, typed: str) -> None:
        table = self._settling(store)
        table.set_remaining_text(1, typed)
        hand = table.hand
        assert hand is not None
        # Bob holds one tile: the range is the lightest and the heaviest tile still unplayed.
        weights = sorted(a + b for a in range(7) for b in range(a, 7) if (a, b) not in hand.played)
        lightest, heaviest = weights[0], weights[-1]
        expected = f"Bob holds 1 tile: {lightest} to {heaviest} pips"
        # Typing is never refused (a banner would move the field mid-word): the panel says it under the fields.
        assert table.message is None, table.message
        problem = table.settle_problem()
        assert problem is not None and problem.startswith(expected), problem
        assert table.settle_preview() is None and table.remaining_entry() is None
        table.settle()
        assert table.phase == SETTLE and table.message.startswith(expected)
        table.set_remaining_text(1, "8")
        assert table.message is None, "a valid value takes the message away"
        assert table.settle_preview() is not None
        table.settle()
        assert table.phase == HAND_OVER

    def test_an_empty_remainder_asks_for_that_player(self, store: Store) -> None:
        table = self._settling(store)
        table.settle()
        assert table.message == "Enter Bob's remaining pips (or tap the tiles still held)."

    def test_tapped_tiles_refuse_played_ones_by_name_and_show_the_sum(self, store: Store) -> None:
        table = self._settling(store)
        table.pick_settle_seat(1)
        table.tap_tile(5, 5)
        assert table.message == "5-5 has been played in this hand, so it is not among Bob's tiles."
        table.tap_tile(2, 6)
        assert table.message is None
        assert table.tapping_words() == ("Tapping Bob's tiles (1 of 1): 2-6 = 8 pips. Tap a tile again to take it off.")
        table.tap_tile(3, 6)
        assert table.message is not None and table.message.startswith("Bob holds 1 tile, all tapped already")
        table.settle()
        assert table.phase == HAND_OVER and table.hand is not None and table.hand.remaining == [0, ["2-6"]]


class TestTaps:
    def test_a_tap_from_an_older_screen_is_ignored(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        drawn_on = table.revision
        table.entry(drawn_on, table.draw)
        assert table.hand is not None and table.hand.boneyard == 13
        table.entry(drawn_on, table.draw)  # the second tap of a double tap, sent before the redraw
        assert table.hand.boneyard == 13
        assert table.last_entry_words() == "Bob drew 1 tile on this visit (Undo takes the last draw back)."
        table.entry(table.revision, table.draw)  # a deliberate second draw is an entry, and says so
        assert table.hand.boneyard == 12
        assert table.last_entry_words() == "Bob drew 2 tiles on this visit (Undo takes the last draw back)."
        table.undo()
        assert table.hand.boneyard == 13

    def test_the_draw_stepper_offers_what_may_be_drawn(self, store: Store) -> None:
        smartt = new_table(store).table
        assert smartt is not None
        lay(smartt, "5-5")
        assert smartt.draw_choices() == [2]  # Smartt §8.1: at most two on one visit
        american = new_table(store, rules="american", players=4).table
        assert american is not None
        lay(american, "5-5")
        assert american.draw_choices() == list(range(2, 9))  # four hands of five leave eight to draw
        american.draw_many(3)
        assert american.message is None
        assert american.hand is not None and american.hand.tiles_held[1] == 8

    def test_the_picker_is_by_suit_in_four_rows_of_seven(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        rows = [[[t.name for t in suit] for suit in row] for row in table.picker_rows()]
        assert rows[0] == [["6-6", "5-6", "4-6", "3-6", "2-6", "1-6", "0-6"]]
        assert rows[1] == [["5-5", "4-5", "3-5", "2-5", "1-5", "0-5"], ["0-0"]]
        assert [sum(len(s) for s in row) for row in rows] == [7, 7, 7, 7]
        nine = new_table(store, double_nine=True).table
        assert nine is not None
        counts = [sum(len(s) for s in row) for row in nine.picker_rows()]
        assert counts == [10, 10, 10, 10, 10, 5] and sum(counts) == 55


def test_the_taps_counted_for_the_benchmark_are_the_taps_the_screen_asks_for(store: Store) -> None:
    table = new_table(store).table
    assert table is not None
    for tile in ("5-5", "3-5", "5-6"):
        lay(table, tile)
    hand = table.hand
    assert hand is not None
    assert entry_taps(hand, Play("3-6", at="right")) == 2, "the 3-6 fits two ends that count differently"
    table.tap_tile(3, 6)
    assert table.end_choices(), "and the screen asks which"
    table.cancel_pending()
    assert entry_taps(hand, Play("1-5", at="up")) == 1, "either short end: nothing to ask"
    assert entry_taps(hand, Play("1-5", at="up", call=15)) == 1, "called right (3 + 6 + 1 + 5): the default"
    assert entry_taps(hand, Play("1-5", at="up", call=0)) == 2, "not called: one tap on call-none"
    assert entry_taps(hand, Play("1-5", at="up", call=20, fix=True)) == 3
    assert entry_taps(hand, Draw(1)) == 1 and entry_taps(hand, Draw(2)) == 1  # Smartt: Drew 2 at once
    american = new_table(store, rules="american", players=4).table
    assert american is not None
    lay(american, "5-5")
    assert american.hand is not None
    assert entry_taps(american.hand, Draw(3)) == 2  # Drew 2+, then 3


def test_a_second_tap_on_the_tile_just_laid_is_not_an_error(store: Store) -> None:
    table = new_table(store).table
    assert table is not None
    lay(table, "5-5")
    table.tap_tile(5, 5)  # the second tap of a double tap on the picker
    assert table.message is None and table.board().count == 10
    lay(table, "0-5")
    table.tap_tile(5, 5)  # an older tile tapped again is refused with the reason
    assert table.message is not None and "5-5" in table.message


class TestIssue19Wiring:
    """The app says what the engine answers for issue 19 (its words are the engine's, tested there)."""

    def test_new_match_offers_the_play_out_renege_and_says_the_rules_in_words(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.new_match()
        assert pad.form.book_target() == make_ruleset("smartt", 2, {}).target
        pad.form.renege = "deduct50"
        assert pad.form.describe().startswith(f"Smartt, 2 players, to {pad.form.book_target()}")
        assert "50" in pad.form.describe()
        pad.start_match()
        assert pad.table is not None, pad.message
        assert store.export_record(pad.table.match_id)["options"]["renege"] == "deduct50"

    def test_a_long_target_is_refused_with_what_is_allowed(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local())
        pad.new_match()
        pad.form.target = "99999"
        pad.start_match()
        assert pad.table is None
        assert pad.message and "whole number from 1 to" in pad.message

    def test_a_play_out_renege_is_pending_then_comes_off_after_the_settlement(self, store: Store) -> None:
        table = new_table(store, renege="deduct50").table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5")
        table.start_renege()
        table.pick_offender(1)
        table.confirm_renege()
        assert table.message is None, table.message
        assert table.phase == PLAY
        pending = table.renege_pending_words()
        assert pending and pending.startswith("Renege proved: 50 off Bob when the hand ends")
        for tile, at in GO_OUT_HAND[2:]:
            lay(table, tile, at)
        table.set_remaining_text(1, "8")
        table.settle()
        settlement = table.settlement()
        assert settlement is not None
        assert any("50" in step and "Bob" in step for step in settlement.steps), settlement.steps
        assert table.renege_pending_words() is None

    def test_the_quick_calls_and_the_correction_moment_are_the_engines(self, store: Store) -> None:
        table = new_table(store, target="15").table
        assert table is not None
        lay(table, "5-5")
        panel = table.call_panel()
        lay(table, "0-5")
        panel = table.call_panel()
        assert panel is not None and panel.options == ((None, "Called 10"), (0, "Not called"))
        assert panel.moment == "before the next tile"
        lay(table, "0-0")
        # The winning tile: Ann has 20, past the target of 15; no next tile, so until the next game.
        assert "Ann reached 20 with 0-0" in (table.pending_end_words() or "")
        panel = table.call_panel()
        assert panel is not None and panel.moment == "before the next game"
        table.call(5)
        panel = table.call_panel()
        assert panel is not None and panel.moment == "before the next game"

    def test_a_play_that_scores_nothing_offers_one_answer(self, store: Store) -> None:
        table = new_table(store).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5")
        lay(table, "0-0")
        lay(table, "0-1")
        panel = table.call_panel()
        assert panel is not None and panel.options == ((None, "No score"),)

    def test_a_muggins_claim_is_said(self, store: Store) -> None:
        table = new_table(store, rules="jaques", muggins=True).table
        assert table is not None
        lay(table, "5-5")
        lay(table, "0-5", "left")
        table.call(0)
        words = preview_event(table.state, Muggins(0)).words
        table.claim_muggins(0)
        assert words and table.last_entry_words() == words
        table.undo()
        assert table.last_entry_words() is None
