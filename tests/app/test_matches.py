"""Matches that belong to someone, through the view-model: labels, names, this device's match, the history."""

from __future__ import annotations

from datetime import UTC, datetime

from scorepad.access import Caller
from scorepad.app.models.matchbook import ARCHIVE, DELETE, line_words
from scorepad.app.models.state import HOME, TABLE, ScorePad
from scorepad.app.models.views import SeriesRow
from scorepad.store import Store
from scorepad.store.matches import audit_trail, match_label

from .app_hands import GO_OUT_HAND
from .test_state import lay, new_table


class TestNewMatch:
    def test_the_label_is_stored_with_the_match(self, store: Store) -> None:
        pad = new_table(store, label=" Table 4 ")
        assert pad.table is not None
        assert match_label(store, pad.table.match_id) == "Table 4"
        (line,) = pad.book.lines()
        assert line_words(line).startswith("Table 4 · Ann, Bob · Smartt · ")

    def test_duplicate_names_are_refused_with_a_sentence(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local("test"))
        pad.new_match()
        pad.name_player(1, " ann")
        pad.start_match()
        assert pad.table is None and pad.screen != TABLE
        assert pad.message == "Two players are called ann: give each player a different name."
        assert store.list_matches() == []

    def test_a_name_over_forty_characters_is_refused(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local("test"))
        pad.name_player(0, "A" * 41)
        pad.start_match()
        assert pad.table is None
        assert pad.message == "Player 1's name is 41 characters long; at most 40 are allowed."


class TestRename:
    def test_a_player_renamed_after_start_is_named_everywhere(self, store: Store) -> None:
        pad = new_table(store)
        table = pad.table
        assert table is not None
        lay(table, "5-5")
        watcher = ScorePad(store, caller=Caller.local("watcher"))
        watcher.open_match(table.match_id)
        pad.book.name_drafts[1] = "Robert "
        pad.book.save_names(table)
        assert pad.book.notice == "Names saved." and pad.book.message is None
        assert table.player(1) == "Robert" and table.turn_words() == "Robert to play"
        assert [s.names for s in table.sides()] == ["Ann", "Robert"]
        assert store.list_matches()[0].players == ["Ann", "Robert"]
        lay(table, "5-0", "left")
        assert watcher.table is not None
        watcher.table.refresh()
        assert watcher.table.player(1) == "Robert"
        (rename,) = [a for a in audit_trail(store, table.match_id) if a.action == "rename"]
        assert rename.detail == {"seat": 1, "from": "Bob", "to": "Robert"} and rename.device == "test"

    def test_a_duplicate_rename_is_refused_and_nothing_changes(self, store: Store) -> None:
        pad = new_table(store)
        table = pad.table
        assert table is not None
        pad.book.name_drafts[1] = "ANN"
        pad.book.save_names(table)
        assert pad.book.message == "Two players are called ANN: give each player a different name."
        assert table.player(1) == "Bob"

    def test_the_label_can_be_changed_later(self, store: Store) -> None:
        pad = new_table(store)
        table = pad.table
        assert table is not None
        pad.book.label_draft = "Garden"
        pad.book.save_label(table)
        assert pad.book.label_of(table.match_id) == "Garden"
        pad.book.label_draft = "x" * 41
        pad.book.save_label(table)
        assert pad.book.message is not None and "at most 40" in pad.book.message
        assert match_label(store, table.match_id) == "Garden"


class TestResume:
    def test_resume_opens_this_devices_match_not_the_newest(self, store: Store) -> None:
        mine = new_table(store)
        assert mine.table is not None
        lay(mine.table, "6-4")
        other = new_table(store)
        assert other.table is not None and other.table.match_id != mine.table.match_id
        lay(other.table, "5-5")
        # The same device later, on a new page: the browser's storage hands back its match.
        again = ScorePad(store, caller=Caller.local("test-again"))
        again.book.remember(str(mine.table.match_id))
        resumable = again.book.resumable()
        assert resumable is not None and resumable.id == mine.table.match_id
        again.resume_latest()
        assert again.table is not None and again.table.match_id == mine.table.match_id
        assert again.table.board().count == 10

    def test_a_device_with_no_match_of_its_own_is_told_so(self, store: Store) -> None:
        new_table(store)
        fresh = ScorePad(store, caller=Caller.local("fresh"))
        fresh.resume_latest()
        assert fresh.table is None and fresh.screen == HOME
        assert fresh.message == "This device has no match to resume: start a new one, or open one from History."

    def test_opening_a_match_makes_it_this_devices_and_tells_the_page(self, store: Store) -> None:
        told: list[object] = []
        pad = ScorePad(store, caller=Caller.local("d"))
        pad.book.on_opened = told.append
        pad.start_match()
        assert pad.table is not None
        assert told == [pad.table.match_id] and pad.book.remembered == pad.table.match_id

    def test_a_deleted_match_is_not_resumed(self, store: Store) -> None:
        pad = new_table(store)
        assert pad.table is not None
        match_id = pad.table.match_id
        pad.book.ask(DELETE, match_id)
        pad.book.confirm()
        assert pad.book.resumable() is None
        pad.go_home()
        pad.resume_latest()
        assert pad.screen == HOME and pad.message is not None


class TestHistory:
    def test_filters_by_label_player_and_day(self, store: Store) -> None:
        first = new_table(store, label="Table 1")
        second = new_table(store, label="Bar")
        pad = ScorePad(store, caller=Caller.local("h"))
        assert first.table and second.table
        pad.book.set_filter("label", "tab")
        assert [line.id for line in pad.book.lines()] == [first.table.match_id]
        pad.book.set_filter("label", "")
        pad.book.set_filter("player", "BOB")
        assert len(pad.book.lines()) == 2
        today = datetime.now(UTC).date().isoformat()
        pad.book.set_filter("since", today)
        pad.book.set_filter("until", today)
        assert len(pad.book.lines()) == 2
        pad.book.set_filter("since", "1st of May")
        assert len(pad.book.lines()) == 2
        assert pad.book.day_problem == "The day from should be written like 2026-12-01, not '1st of May'."

    def test_archive_and_delete_ask_first_and_are_audited(self, store: Store) -> None:
        kept = new_table(store)
        gone = new_table(store, label="Bar")
        assert kept.table and gone.table
        pad = ScorePad(store, caller=Caller.local("h"))
        pad.book.ask(ARCHIVE, kept.table.match_id)
        assert pad.book.question() == (
            "Archive Ann, Bob (in play)? It leaves the history; tap Archived to see it again."
        )
        pad.book.cancel()
        assert len(pad.book.lines()) == 2
        pad.book.ask(ARCHIVE, kept.table.match_id)
        pad.book.confirm()
        assert [line.id for line in pad.book.lines()] == [gone.table.match_id]
        pad.book.toggle_archived()
        assert [line.id for line in pad.book.lines()] == [kept.table.match_id]
        pad.book.toggle_archived()
        pad.book.ask(DELETE, gone.table.match_id)
        assert pad.book.question() == (
            "Delete Bar: Ann, Bob (in play)? It goes to the Trash for every device; Restore there brings it back."
        )
        pad.book.confirm()
        assert pad.book.lines() == []
        assert [a.action for a in audit_trail(store, gone.table.match_id)][-1] == "delete"
        assert [a.device for a in audit_trail(store, kept.table.match_id) if a.action == "archive"] == ["h"]
        pad.open_match(gone.table.match_id)
        assert pad.table is None and pad.message == f"There is no match {gone.table.match_id} in this score-pad."


class TestWords:
    def test_who_sets_first_is_said_once_by_name(self, store: Store) -> None:
        pad = ScorePad(store, caller=Caller.local("w"))
        pad.enter_drawn(0, "3-2")
        pad.enter_drawn(1, "6-5")
        pad.decide_first_setter()
        assert pad.form.draw.result == "Bob sets first: the heaviest tile (11 pips) (Smartt §3.1)"
        pad.choose_rules("jaques")
        pad.decide_first_setter()
        result = pad.form.draw.result
        assert result is not None and result.startswith("Bob sets first: ") and "seat" not in result

    def test_the_first_setter_rule_cites_the_book_in_play(self) -> None:
        from scorepad.app.screens.home import _first_setter_words

        assert _first_setter_words("smartt").startswith("Smartt §3.1: each player draws a tile")
        assert _first_setter_words("jaques").startswith("Jaques, 'Setting up': the highest double")
        assert "Smartt" not in _first_setter_words("american")


class TestTrash:
    """History's Trash: a deletion is undone there, and only the device that started a match deletes it."""

    def test_a_deleted_match_is_restored_from_the_trash(self, store: Store) -> None:
        pad = new_table(store)
        assert pad.table is not None
        match_id = pad.table.match_id
        pad.book.ask(DELETE, match_id)
        assert "Trash" in (pad.book.question() or "")
        pad.book.confirm()
        assert pad.book.lines() == []
        pad.book.toggle_trash()
        assert [m.id for m in pad.book.trashed()] == [match_id]
        pad.book.restore(match_id)
        assert pad.book.message == f"Match {match_id} is back in the history."
        assert pad.book.trashed() == []
        assert [line.id for line in pad.book.lines()] == [match_id]
        assert [item.action for item in audit_trail(store, match_id)][-2:] == ["delete", "restore"]

    def test_only_the_device_that_started_a_match_deletes_or_restores_it(self, store: Store) -> None:
        mine = ScorePad(store, caller=Caller.joined("phone-a", device="web:a"))
        mine.new_match()
        mine.start_match()
        assert mine.table is not None
        match_id = mine.table.match_id
        theirs = ScorePad(store, caller=Caller.joined("phone-b", device="web:b"))
        revision = store.load(match_id).revision
        theirs.book.ask(DELETE, match_id)
        theirs.book.confirm()
        assert theirs.book.message == (
            f"Only the device that started match {match_id}, or the computer serving the score-pad, "
            "may delete the match."
        )
        assert [line.id for line in theirs.book.lines()] == [match_id]
        assert store.load(match_id).revision == revision
        mine.book.ask(DELETE, match_id)
        mine.book.confirm()
        assert mine.book.message is None and store.list_matches() == []
        theirs.book.restore(match_id)
        assert theirs.book.message is not None and theirs.book.message.startswith("Only the device that started")
        assert store.list_matches() == []
        mine.book.restore(match_id)
        assert [m.id for m in store.list_matches()] == [match_id]


class TestTheDaysSeries:
    def test_the_sheet_and_history_keep_the_series_after_next_game(self, store: Store) -> None:
        # Smartt §14: game points exist to score a series across a day's play.
        pad = new_table(store, target="20")
        table = pad.table
        assert table is not None
        (line,) = pad.book.lines()
        assert "games" not in line_words(line), "no series before a game is won"
        for tile, at in GO_OUT_HAND[:3]:
            lay(table, tile, at)
        table.next_hand()
        assert table.hand is not None and table.hand.game == 2
        sheet = table.sheet()
        assert sheet.series == (SeriesRow("Ann", 1, 14, 0), SeriesRow("Bob", 0, 0, 1))
        assert sheet.series_lines[0].startswith("Game 1: Ann won, ")
        assert sheet.series_lines[-1].startswith("Series after 1 game: Ann 1 game won, 14 game points")
        (line,) = pad.book.lines()
        assert line_words(line).endswith(" · games 1 : 0; game points 14 : 0; Rubed 0 : 1")
