"""Each seat's game scores, for the workbook's results: "2–1" in games, and every game's final scores.

From the confirmed hands only, replayed by the engine (``roster.confirmed_games``),
the player's own side first: "60–41, 22–61". A forfeited table has no
game scores (the forfeit replaces its result). Director only; raises
``TournamentError`` (``AccessDenied``) for another caller.
"""

from __future__ import annotations

from scorepad.tournament.service import TableView, TournamentService
from scorepad.tournament.sheets.content import DASH, score_words, side_count
from scorepad.tournament.sheets.roster import confirmed_games

SCORE_HEADER = ("score in games", "game scores")


def seat_scores(table: TableView, games: tuple[tuple[int, ...], ...]) -> dict[int, tuple[str, str]]:
    """(games won, each game's scores) per seat number (from 1), the seat's side first."""
    sides = side_count(table)
    out: dict[int, tuple[str, str]] = {}
    for seat in range(len(table.names)):
        mine = seat % sides
        order = [mine, *[s for s in range(sides) if s != mine]]
        each = ", ".join(DASH.join(str(scores[s]) for s in order) for scores in games)
        out[seat + 1] = (score_words(table, seat), each)
    return out


def game_scores(
    service: TournamentService, token: str | None, event_id: int
) -> dict[tuple[int, int, int], tuple[str, str]]:
    """(round, table, seat) -> (games won, game scores) for every played, unforfeited table of the event."""
    service.match_ids(token, event_id)  # the director's check first
    out: dict[tuple[int, int, int], tuple[str, str]] = {}
    for number in range(1, service.event_info(token, event_id)["rounds_paired"] + 1):
        for table in service.round_view(token, event_id, number).tables:
            if table.bye or table.forfeit is not None or table.result is None or table.match_id is None:
                continue
            games = confirmed_games(service, table.match_id, table.result.hands_confirmed)
            for seat, words in seat_scores(table, tuple(g.scores for g in games)).items():
                out[(number, table.number, seat)] = words
    return out
