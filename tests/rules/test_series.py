"""The day's series (Smartt §14): every game kept, with running totals per side, and the words for it."""

from __future__ import annotations

from scorepad.rules import Adjust, MatchState, Play, make_ruleset
from scorepad.rules.wording import game_words, series_words, short_end_words


def three_games(name: str = "smartt", players: int = 2, **options: object) -> MatchState:
    """To 10: seat 0 wins on a 5-5 set, seat 1 on a 6-4 set, seat 0 again; game 4 then starts."""
    match = MatchState(make_ruleset(name, players, {"target": 10, **options}), ["Ann", "Bob", "Cy", "Di"][:players])
    rotates = match.rules.setter_rule == "rotate"
    for setter, tile in ((0, "5-5"), (1, "6-4"), (0, "5-5")):
        match.start_hand(None if rotates and match.hands else setter)  # 0, 1, 2 with four seats
        match.apply(Play(tile))
    match.start_hand(None if rotates else 1)  # Next game: nothing of the series may be lost
    return match


class TestSeries:
    def test_every_game_with_running_totals(self):
        series = three_games().series()
        assert [(line.game.number, line.game.winner) for line in series.lines] == [(1, 0), (2, 1), (3, 0)]
        # Smartt §14: a loser on 0 gives 14 game points to the winner and is Rubed.
        assert [line.game_points for line in series.lines] == [(14, 0), (14, 14), (28, 14)]
        assert [line.rubed for line in series.lines] == [(0, 1), (1, 1), (1, 2)]
        assert (series.wins, series.game_points, series.rubed) == ((2, 1), (28, 14), (1, 2))

    def test_nothing_before_a_game_is_won(self):
        match = MatchState(make_ruleset("smartt", 2), ["Ann", "Bob"])
        series = match.series()
        assert series.lines == () and series.totals() == {"wins": [0, 0], "game_points": [0, 0], "rubed": [0, 0]}

    def test_three_players_add_both_losers(self):
        match = MatchState(make_ruleset("smartt", 3, {"target": 10}), ["Ann", "Bob", "Cy"])
        match.start_hand(0)
        match.apply(Play("5-5"))
        # Smartt §14 and R12: with three players the points for both losers are added.
        assert match.series().game_points == (28, 0, 0)
        assert match.series().rubed == (0, 1, 1)

    def test_partners_score_by_side(self):
        series = three_games("smartt", 4).series()
        assert series.wins == (2, 1) and series.game_points == (28, 14)

    def test_a_book_without_game_points_counts_games(self):
        series = three_games("american").series()
        assert series.game_points is None and series.rubed is None
        assert series.totals() == {"wins": [2, 1]}


class TestWords:
    def test_game_points_say_to_whom(self):
        match = three_games()
        words = game_words(match, match.games()[0])
        assert "Game points: 14 to Ann (Smartt §14)." in words and "Rubed: Bob." in words

    def test_the_series_in_lines(self):
        assert series_words(three_games(), three_games().series()) == [
            "Game 1: Ann won, Ann 10, Bob 0; 14 game points to Ann; Rubed: Bob.",
            "Game 2: Bob won, Ann 0, Bob 10; 14 game points to Bob; Rubed: Ann.",
            "Game 3: Ann won, Ann 10, Bob 0; 14 game points to Ann; Rubed: Bob.",
            "Series after 3 games: Ann 2 games won, 28 game points, Rubed 1 time;"
            " Bob 1 game won, 14 game points, Rubed 2 times (Smartt §14).",
        ]

    def test_the_winning_row_names_the_winner_not_the_setter(self):
        match = MatchState(make_ruleset("smartt", 2, {"target": 10}), ["Flo", "Eddie"])
        match.start_hand(0)
        match.apply(Adjust(0, -6))  # Flo holds one tile, Eddie seven
        match.apply(Play("2-2"))  # Flo sets and goes out: 4, no score
        match.settle([0, 15])  # Flo is paid Eddie's 15: the game is Flo's
        match.start_hand(1)
        match.apply(Play("5-5"))  # Eddie sets 10 and wins game 2 at once
        assert short_end_words(match, match.hands[0]) == "Flo went out; Flo won the game"
        assert short_end_words(match, match.hands[1]) == "Eddie won the game"
