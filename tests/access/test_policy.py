"""The one door's policy (``scorepad.access``), rule by rule, without a database."""

from __future__ import annotations

import pytest

from scorepad.access import Caller, MatchFacts, Refused, TableFacts, Who, Write, authorize, authorize_confirmation

TABLE_1 = TableFacts(
    event_id=1, table_id=11, table_number=1, round_number=1, current=True, locked=False, forfeited=False
)
SCORING = (Write.SCORE, Write.CONFIRM)
EVERY_WRITE = tuple(Write)


def table(number: int = 1, event: int = 1) -> Caller:
    return Caller(
        Who.TABLE, device="web:phone", event_id=event, table_id=10 + number, table_number=number, round_number=1
    )


def director(event: int = 1) -> Caller:
    return Caller(Who.DIRECTOR, event_id=event)


def tournament_match(facts: TableFacts = TABLE_1, revision: int = 5) -> MatchFacts:
    return MatchFacts(match_id=7, creator="director:1", revision=revision, table=facts)


def casual(creator: str | None = "phone-a") -> MatchFacts:
    return MatchFacts(match_id=3, creator=creator, revision=4)


class TestTournamentMatch:
    def test_its_own_table_scores_it(self) -> None:
        for write in SCORING:
            authorize(table(1), write, tournament_match())

    @pytest.mark.parametrize("write", EVERY_WRITE)
    def test_another_table_writes_nothing_to_it(self, write: Write) -> None:
        with pytest.raises(Refused, match=r"table 1's|never deleted|entrants"):
            authorize(table(2), write, tournament_match(TABLE_1))

    @pytest.mark.parametrize("write", EVERY_WRITE)
    def test_this_computer_and_a_joined_device_only_read_it(self, write: Write) -> None:
        for caller in (Caller.local("cli"), Caller.joined("phone-a", device="web:1")):
            with pytest.raises(Refused):
                authorize(caller, write, tournament_match())

    def test_a_table_of_another_event_is_refused(self) -> None:
        with pytest.raises(Refused, match="read-only"):
            authorize(table(1, event=2), Write.SCORE, tournament_match())

    @pytest.mark.parametrize(
        ("change", "words"),
        [
            ({"locked": True}, "Round 1 is locked"),
            ({"forfeited": True}, "Table 1 was forfeited"),
            ({"current": False}, "Round 1 is over"),
        ],
    )
    def test_its_own_table_stops_at_a_lock_a_forfeit_or_the_next_round(self, change: dict, words: str) -> None:
        facts = tournament_match(TableFacts(**{**TABLE_1.__dict__, **change}))
        with pytest.raises(Refused, match=words):
            authorize(table(1), Write.SCORE, facts)
        authorize(director(), Write.SCORE, facts)  # the director still may

    def test_the_director_of_its_event_scores_and_labels_it(self) -> None:
        for write in (Write.SCORE, Write.CONFIRM, Write.LABEL):
            authorize(director(), write, tournament_match())
        with pytest.raises(Refused):
            authorize(director(event=2), Write.SCORE, tournament_match())

    def test_a_played_match_is_never_deleted_an_unplayed_one_goes_at_a_repairing(self) -> None:
        for caller in (director(), table(1), Caller.local()):
            with pytest.raises(Refused, match="never deleted"):
                authorize(caller, Write.DELETE, tournament_match(revision=3))
        authorize(director(), Write.DELETE, tournament_match(revision=0))
        with pytest.raises(Refused, match="never deleted"):
            authorize(table(1), Write.DELETE, tournament_match(revision=0))

    def test_its_players_are_not_renamed_nor_is_it_archived(self) -> None:
        for write in (Write.RENAME, Write.ARCHIVE):
            for caller in (director(), table(1)):
                with pytest.raises(Refused, match="entrants"):
                    authorize(caller, write, tournament_match())


class TestReadersOnly:
    @pytest.mark.parametrize("who", [Who.HALL, Who.SPECTATOR])
    @pytest.mark.parametrize("write", EVERY_WRITE)
    def test_the_hall_and_a_spectator_write_nothing_anywhere(self, who: Who, write: Write) -> None:
        caller = Caller(who, event_id=1)
        for facts in (tournament_match(), casual(), None):
            with pytest.raises(Refused, match="only reads"):
                authorize(caller, write, facts)


class TestCasualMatch:
    def test_any_joined_device_and_this_computer_score_it(self) -> None:
        for caller in (Caller.local("app"), Caller.joined("phone-b", device="web:2")):
            authorize(caller, Write.SCORE, casual())

    @pytest.mark.parametrize("write", [Write.DELETE, Write.RESTORE])
    def test_only_its_creator_or_this_computer_deletes_or_restores_it(self, write: Write) -> None:
        authorize(Caller.joined("phone-a", device="web:1"), write, casual("phone-a"))
        authorize(Caller.local("cli"), write, casual("phone-a"))
        with pytest.raises(Refused, match="Only the device that started match 3"):
            authorize(Caller.joined("phone-b", device="web:2"), write, casual("phone-a"))
        with pytest.raises(Refused):
            authorize(Caller.joined("phone-b", device="web:2"), write, casual(None))

    def test_a_tournament_caller_has_nothing_to_do_with_it(self) -> None:
        for caller in (table(1), director()):
            with pytest.raises(Refused, match="not a tournament's"):
                authorize(caller, Write.SCORE, casual())

    def test_the_director_finishes_a_match_it_made_at_pairing_before_it_has_a_table(self) -> None:
        made = casual(director().creator)
        for write in (Write.LABEL, Write.DELETE):
            authorize(director(), write, made)
        with pytest.raises(Refused):
            authorize(director(event=2), Write.LABEL, made)

    def test_new_matches(self) -> None:
        for caller in (Caller.local(), Caller.joined("phone-a"), director()):
            authorize(caller, Write.CREATE, None)
        with pytest.raises(Refused):
            authorize(table(1), Write.CREATE, None)


class TestConfirmation:
    def test_the_opposing_side_confirms(self) -> None:
        authorize_confirmation(table(1), tournament_match(), by_side=1, scoring_side=0)

    def test_the_side_that_scored_does_not(self) -> None:
        with pytest.raises(Refused, match="not by the side that scored it"):
            authorize_confirmation(table(1), tournament_match(), by_side=0, scoring_side=0)

    def test_a_name_at_no_side_does_not(self) -> None:
        with pytest.raises(Refused, match="by name"):
            authorize_confirmation(table(1), tournament_match(), by_side=None, scoring_side=0)

    def test_the_director_confirms_for_anyone_but_another_table_for_nobody(self) -> None:
        authorize_confirmation(director(), tournament_match(), by_side=None, scoring_side=0)
        with pytest.raises(Refused):
            authorize_confirmation(table(2), tournament_match(), by_side=1, scoring_side=0)
