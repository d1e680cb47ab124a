"""The day's series (Smartt §14): every game's result, game points and Rubes kept in the listing."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from scorepad.access import Caller
from scorepad.rules import Play
from scorepad.store import Store, open_store
from scorepad.store.settings import normalize_url

from .test_cli import run


def _three_games(store: Store) -> int:
    """Smartt 2p to 10: Ann wins on a 5-5 set, Bob on a 6-4 set, Ann again; then game 4 starts (Next game)."""
    match_id = store.create_match(rules="smartt", options={"target": 10}, players=["Ann", "Bob"], caller=Caller.local())
    for setter, tile in ((0, "5-5"), (1, "6-4"), (0, "5-5")):
        store.start_hand(match_id, setter=setter, caller=Caller.local())
        store.append(match_id, Play(tile), caller=Caller.local())
    store.start_hand(match_id, setter=1, caller=Caller.local())
    return match_id


def test_every_game_and_the_running_totals_survive_the_next_game(store: Store) -> None:
    match_id = _three_games(store)
    [summary] = store.list_matches()
    assert summary.game == 4 and summary.scores == [0, 0]
    # Smartt §14: a loser on 0 gives the winner 14 game points and is Rubed.
    assert [(g["number"], g["winner"], g["game_points"], g["rubed"]) for g in summary.games] == [
        (1, 0, 14, [1]),
        (2, 1, 14, [0]),
        (3, 0, 14, [1]),
    ]
    assert [g["series_game_points"] for g in summary.games] == [[14, 0], [14, 14], [28, 14]]
    assert summary.series == {"wins": [2, 1], "game_points": [28, 14], "rubed": [1, 2]}
    assert summary.wins == [2, 1]
    assert store.load(match_id).series().game_points == (28, 14)


def test_a_book_without_game_points_keeps_the_games_won(store: Store) -> None:
    match_id = store.create_match(rules="jaques", options={"target": 10}, players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, setter=0, caller=Caller.local())
    store.append(match_id, Play("5-5"), caller=Caller.local())
    [summary] = store.list_matches()
    assert summary.series == {"wins": [1, 0]}
    assert summary.games == [{"number": 1, "winner": 0, "scores": [10, 0], "series_wins": [1, 0]}]


def test_scorepad_matches_shows_the_series(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(db_url) as opened:
        match_id = _three_games(opened)
    assert run("matches", "--db", db_url, "--json") == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["id"] == match_id
    assert {"id", "players", "rules", "started", "status", "scores", "wins", "label"} <= set(listed)
    assert listed["series"] == {"wins": [2, 1], "game_points": [28, 14], "rubed": [1, 2]}
    assert len(listed["games"]) == 3
    assert run("matches", "--db", db_url) == 0
    out = capsys.readouterr().out
    assert "games 2 : 1; game points 28 : 14; Rubed 1 : 2" in out


def test_a_cache_written_before_the_series_is_rebuilt_from_the_log(sqlite_url: str) -> None:
    with open_store(sqlite_url) as opened:
        match_id = _three_games(opened)
    engine = create_engine(normalize_url(sqlite_url))
    with engine.begin() as conn:
        cache = json.loads(conn.execute(text("SELECT summary FROM matches")).scalar_one())
        del cache["games"], cache["series"]
        old = {"old": json.dumps(cache), "id": match_id}
        conn.execute(text("UPDATE matches SET summary = :old WHERE id = :id"), old)
    engine.dispose()
    with open_store(sqlite_url) as opened:
        [summary] = opened.list_matches()
    assert summary.series["game_points"] == [28, 14]
