"""Shared helpers of the tournament tests: play a table's games through the service."""

from __future__ import annotations

from functools import cache
from typing import Any

from scorepad.simulate import simulate
from scorepad.tournament import Kind, TournamentError, TournamentService

from .conftest import PASSWORD


@cache
def game_hands(
    rules: str, players: int, seed: int, options_key: tuple[tuple[str, object], ...] = ()
) -> list[dict[str, Any]]:
    """The record hands of a simulated first game (up to the hand that wins it), for ``players`` seats."""
    match, _ = simulate(rules, players, 200, seed, dict(options_key))
    record = match.to_record()
    for number, hand in enumerate(match.hands):
        if hand.winner() is not None:
            return record["hands"][: number + 1]
    raise AssertionError("the simulation never finished a game")


def play_hands(
    service: TournamentService, token: str | None, event_id: int, match_id: int, hands: list[dict[str, Any]]
) -> None:
    """Enter each record hand at a table: its start, its events and its settlement."""
    for hand in hands:
        service.start_hand(token, event_id, match_id, hand["setter"])
        for event in hand["events"]:
            service.append(token, event_id, match_id, event)
        if "remaining" in hand:
            service.settle(token, event_id, match_id, hand["remaining"])


def opposing(service: TournamentService, match_id: int, hand: int) -> str:
    """A player of the side that did not score ``hand`` of the match: the one who confirms it."""
    state = service.store.load(match_id)
    scored = state.hands[hand - 1].scoring_side()
    return next(n for s, n in enumerate(state.players) if state.rules.side_of(s) != scored)


def confirm_all(
    service: TournamentService, token: str | None, event_id: int, table_number: int, match_id: int
) -> list[int]:
    """Confirm every finished hand of a table, each by a player of the side that did not score it; returns them."""
    state = service.store.load(match_id)
    confirmed: list[int] = []
    for hand in state.hands:
        if not hand.finished:
            continue
        by = opposing(service, match_id, hand.number)
        try:
            confirmed += service.confirm(token, event_id, table_number, by=by, hand=hand.number)
        except TournamentError as err:
            if "already confirmed" not in str(err):
                raise
    return confirmed


def new_event(service: TournamentService, names: list[str], **settings: Any) -> tuple[int, str]:
    """An event with these entrants registered ("A+B" for a partnership): (its id, the director's token)."""
    # Games to 60, not 250: a few hands a game keep the tests short (the rules are the same).
    settings.setdefault("options", {"target": 60})
    event = service.create_event(name="Club night", password=PASSWORD, seed="fixed", **settings)
    token = service.login_director(event, PASSWORD)
    for name in names:
        service.register(token, event, name.split("+"))
    return event, token


def play_round(service: TournamentService, event: int, view: Any, *, hands: int | None = None, seed: int = 0) -> None:
    """Each table plays (its first game, or its first ``hands`` hands) and the opposing side confirms."""
    info = service.event_info(None, event)
    players = Kind(info["kind"]).table_size
    options = tuple(sorted(info["options"].items()))
    for table in view.tables:
        if table.bye:
            continue
        tablet = service.join_table(event, view.codes[table.number])
        record_hands = game_hands(info["rules"], players, seed + table.number, options)
        play_hands(service, tablet, event, table.match_id, record_hands[:hands] if hands else record_hands)
        assert confirm_all(service, tablet, event, table.number, table.match_id)


def club_day(service: TournamentService, names: list[str], *, withdraws: str, late: str) -> tuple[int, str]:
    """Four Swiss rounds: round 1 played, ``withdraws`` withdraws, ``late`` enters, round 2 played, round 3 paired.

    Returns (the event's id, the director's token). The wall sheets' tests and pictures use it.
    """
    event, director = new_event(service, names, rounds=4, pairing="swiss")
    play_round(service, event, service.pair_round(director, event))
    service.lock_round(director, event)
    service.withdraw(director, event, withdraws)
    service.register(director, event, [late])
    play_round(service, event, service.pair_round(director, event), seed=3)
    service.lock_round(director, event)
    service.pair_round(director, event)
    return event, director
