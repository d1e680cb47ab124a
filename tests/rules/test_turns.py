"""Turns, the boneyard, passes, blocks and going out (Smartt §5, §8, §9; American 'Draw, pass, and block')."""

from __future__ import annotations

import pytest

from scorepad.rules import Adjust, Draw, IllegalEventError, Pass, Play, Void, make_ruleset

from .support import new_hand, plain, run, snapshot


def refused(match, event, match_text: str | None = None) -> None:
    """The event is refused and the match's report is exactly as before."""
    before = snapshot(match)
    with pytest.raises(IllegalEventError, match=match_text):
        match.apply(event)
    assert snapshot(match) == before


class TestTurnOrder:
    def test_the_setter_plays_first_then_clockwise(self):
        match = new_hand("smartt", 3, setter=2)
        outs = run(match, "5-5", Play("5-3", at="left"), Play("5-2", at="right"), Play("5-1", at="up"))
        assert [o["player"] for o in outs] == [2, 0, 1, 2]

    def test_by_asserts_whose_turn_it_is(self):
        match = new_hand("smartt", 2)
        run(match, Play("5-5", by=0))
        refused(match, Play("5-3", at="left", by=0), "seat 1's turn, not seat 0's")
        refused(match, Draw(1, by=0), "seat 1's turn")
        refused(match, Pass(by=0))

    def test_a_draw_belongs_to_the_player_to_move_who_then_plays(self):
        match = new_hand("smartt", 2)
        outs = run(match, "5-5", Draw(2), Play("5-3", at="left"))
        assert outs[1] == {"event": "draw", "player": 1, "count": 2}
        assert outs[2]["player"] == 1
        assert match.current.turn == 0
        assert plain(match.current.tiles_held) == [6, 8]
        assert match.current.boneyard == 12

    def test_only_an_adjust_before_the_set(self):
        match = new_hand("smartt", 2)
        refused(match, Draw(1), "has not started")
        refused(match, Pass(), "has not started")
        run(match, Adjust(1, 1))
        assert match.current.turn == 0


class TestSmarttDraws:
    """Smartt §8.1: at most two a visit, counted over the visit's draw events; §8.2 the protected reserve."""

    def test_three_at_once_is_refused(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        refused(match, Draw(3), "at most 2")

    def test_the_limit_is_cumulative_over_a_visit(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Draw(1))
        assert match.current.drawable == 1
        run(match, Draw(1))
        refused(
            match,
            Draw(1),
            r"^seat 1 has already drawn 2 on this visit, and at most 2 tiles may be drawn on one visit to the"
            r" boneyard \(Smartt §8\.1\): no more may be drawn; play the tile drawn or pass$",
        )

    def test_a_visit_part_drawn_says_how_many_more(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Draw(1))
        refused(match, Draw(2), r"has already drawn 1 on this visit, .*: 1 more may be drawn$")

    def test_a_new_visit_after_a_pass(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Draw(2), Pass())
        assert match.current.turn == 0
        assert match.current.drawable == 2

    def test_no_pass_while_a_legal_draw_remains(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        refused(match, Pass(), "may not pass while a legal draw remains")
        run(match, Draw(1))
        refused(match, Pass(), "draw first")
        run(match, Draw(1))
        assert match.current.can_pass
        run(match, Pass())

    @pytest.mark.parametrize(("players", "protected", "boneyard"), [(2, 2, 14), (3, 1, 10), (4, 0, 8)])
    def test_the_protected_reserve(self, players, protected, boneyard):
        # Smartt's player table: 2 / 1 / 0 tiles never drawn. Move all but (protected + 1) tiles out at the
        # deal, so exactly one tile may be drawn.
        match = new_hand("smartt", players)
        assert match.current.boneyard == boneyard
        run(match, Adjust(0, boneyard - protected - 1), "5-5")
        assert match.current.drawable == 1
        refused(match, Draw(2), "cannot draw 2")
        run(match, Draw(1))
        assert match.current.boneyard == protected
        assert match.current.drawable == 0
        run(match, Pass())
        assert match.current.drawable == 0

    def test_two_players_draw_twelve_of_fourteen(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        for _ in range(6):
            run(match, Draw(2), Pass())
        assert match.current.boneyard == 2
        assert match.current.end()["how"] == "blocked"


class TestDrawUntilAPlay:
    """American 'Draw, pass, and block', Jaques step 7: draw until a tile plays or none is left; none protected."""

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_any_number_in_one_visit(self, name):
        match = new_hand(name, 2)
        run(match, "5-5", Draw(9), Play("5-3", at="left"))
        assert plain(match.current.tiles_held) == [6, 15]
        assert match.current.boneyard == 5

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_the_whole_boneyard_may_be_drawn(self, name):
        match = new_hand(name, 2)
        run(match, "5-5")
        refused(match, Draw(15), "cannot draw 15")
        run(match, Draw(14))
        assert match.current.boneyard == 0
        refused(match, Draw(1))

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_pass_only_on_an_empty_boneyard(self, name):
        match = new_hand(name, 3)
        boneyard = match.current.boneyard
        run(match, "5-5", Draw(boneyard - 1))
        refused(match, Pass(), "may not pass")
        run(match, Draw(1), Pass())
        # The next player finds the boneyard empty and may pass at once.
        assert match.current.can_pass
        run(match, Pass())


class TestBlock:
    def test_american_block_after_everyone_passes(self):
        match = new_hand("american", 2)
        run(match, "5-5", Draw(14), Pass())
        assert match.current.end()["how"] == "in-progress"
        run(match, Pass())
        assert match.current.end() == {"how": "blocked"}
        assert match.current.needs_settlement

    def test_a_play_starts_the_passes_again(self):
        match = new_hand("american", 3)
        run(match, "5-5", Draw(10), Pass(), Pass(), Play("5-3", at="left"), Pass(), Pass())
        assert match.current.end()["how"] == "in-progress"
        run(match, Pass())
        assert match.current.end()["how"] == "blocked"

    def test_smartt_three_players_keep_one_tile(self):
        # Boneyard 10, one protected: 2 + 2 + 2 + 2 + 1 drawn, then the fifth pass blocks.
        match = new_hand("smartt", 3)
        run(match, "5-5")
        for count in (2, 2, 2, 2):
            run(match, Draw(count), Pass())
        run(match, Draw(1))
        assert match.current.drawable == 0
        run(match, Pass())
        assert match.current.boneyard == 1
        assert match.current.end()["how"] == "blocked"

    def test_smartt_four_players_draw_dry(self):
        match = new_hand("smartt", 4)
        run(match, "5-5")
        for _ in range(3):
            run(match, Draw(2), Pass())
        assert match.current.end()["how"] == "in-progress"
        run(match, Draw(2), Pass())
        assert match.current.boneyard == 0
        assert match.current.end()["how"] == "blocked"

    def test_nothing_but_a_renege_after_a_block(self):
        match = new_hand("american", 2)
        run(match, "5-5", Draw(14), Pass(), Pass())
        for event in (Play("5-3", at="left"), Pass(), Draw(1), Adjust(0, -1), Void()):
            refused(match, event)


class TestGoingOut:
    def test_the_last_tile_ends_the_hand(self):
        # P1 returned six tiles at the deal, so the 5-3 is P1's last.
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        hand = match.current
        assert hand.end() == {"how": "out", "by": 1}
        assert hand.needs_settlement
        refused(match, Play("5-2", at="right"), "seat 1 went out")
        refused(match, Draw(1))
        refused(match, Pass())

    def test_going_out_on_the_set(self):
        match = new_hand("jaques", 2)
        run(match, Adjust(0, -6), "6-6")
        assert match.current.end() == {"how": "out", "by": 0}

    def test_the_last_tiles_play_score_counts_first(self):
        match = new_hand("american", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-0", at="left"))
        assert plain(match.current.scores) == [10, 10]
        assert match.current.end()["how"] == "out"

    def test_a_seat_with_no_tiles_cannot_play(self):
        match = new_hand("smartt", 2, setter=1)
        run(match, Adjust(0, -7), "5-5")
        refused(match, Play("5-3", at="left"), "holds no tiles")


class TestDeal:
    @pytest.mark.parametrize(
        ("name", "players", "options", "each", "boneyard", "protected"),
        [
            ("smartt", 2, {}, 7, 14, 2),
            ("smartt", 3, {}, 6, 10, 1),
            ("smartt", 4, {}, 5, 8, 0),
            ("american", 2, {}, 7, 14, 0),
            ("american", 3, {}, 6, 10, 0),
            ("american", 4, {}, 5, 8, 0),
            ("jaques", 2, {}, 7, 14, 0),
            ("jaques", 3, {}, 5, 13, 0),
            ("jaques", 4, {}, 5, 8, 0),
            ("jaques", 2, {"set": "double-nine"}, 9, 37, 0),
            ("jaques", 3, {"set": "double-nine"}, 7, 34, 0),
            ("jaques", 4, {"set": "double-nine"}, 7, 27, 0),
            ("smartt", 2, {"set": "double-nine"}, 9, 37, 2),
        ],
    )
    def test_tiles_each_boneyard_and_reserve(self, name, players, options, each, boneyard, protected):
        rules = make_ruleset(name, players, options)
        assert (rules.tiles_each, rules.boneyard_size, rules.protected) == (each, boneyard, protected)
        match = new_hand(name, players, **options)
        assert plain(match.current.tiles_held) == [each] * players
        assert match.current.boneyard == boneyard


class TestEventValues:
    @pytest.mark.parametrize("tile", [["5", "0"], {"a": 5}])
    def test_a_tile_that_is_not_text_is_refused(self, tile):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        refused(match, Play(tile, at="left"), "like")

    @pytest.mark.parametrize("tile", [None, 50, (5, 0)])
    def test_hashable_non_text_tiles_are_refused(self, tile):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        refused(match, Play(tile, at="left"), "like")
