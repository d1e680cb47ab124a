"""Shared helpers of the tournament tests: play a table's games through the service."""

from __future__ import annotations

from functools import cache
from typing import Any

from scorepad.simulate import simulate
from scorepad.tournament import TournamentService


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
