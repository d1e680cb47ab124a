"""A table's result in a round, as the rules engine gives it: per side, over the confirmed hands.

A hand counts once the opposing side has confirmed it as it stands now
(``hand_fingerprint``): a hand corrected after its confirmation counts
again only when confirmed again. The confirmed part of a match is the
longest run of confirmed hands from its first; it is replayed through the
engine (``replay``), so game points, Rubes and scores are the engine's own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorepad.rules import GameResult, MatchState, parse_record, replay
from scorepad.rules.errors import IllegalRecordError
from scorepad.rules.settle import game_points_for


@dataclass(frozen=True)
class SideResult:
    """What one side (an entrant) took from one table.

    ``spread``: for every game finished, and for the game in progress at
    the last confirmed hand, the side's score minus each opponent's, summed
    (two sides: the margin). ``against`` maps each opposing side to the game
    points (or, without game points, the games) won against it, for the
    head-to-head tiebreak.
    """

    game_points: int
    games_won: int
    rubes: int
    spread: int
    against: Mapping[int, int]


@dataclass(frozen=True)
class TableResult:
    """One table's confirmed figures, per side, and how far the play and the confirmation are."""

    sides: tuple[SideResult, ...]
    hands_played: int
    hands_finished: int
    hands_confirmed: int
    games_finished: int
    game_points: bool

    @property
    def provisional(self) -> bool:
        """Some finished hand still waits for its confirmation."""
        return self.hands_confirmed < self.hands_finished


def hand_fingerprint(record_hand: Mapping[str, Any]) -> str:
    """SHA-256 of one hand of a record as it stands (setter, events, remaining)."""
    body = json.dumps(record_hand, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def confirmed_prefix(record: Mapping[str, Any], confirmations: Mapping[int, set[str]]) -> int:
    """How many hands, from the first, are confirmed as they stand now.

    ``confirmations`` maps a hand number to the fingerprints it was confirmed with.
    """
    return len(confirmed_prints(record, confirmations))


def confirmed_prints(record: Mapping[str, Any], confirmations: Mapping[int, set[str]]) -> tuple[str, ...]:
    """The fingerprints of the hands confirmed as they stand now, from the first (see ``confirmed_prefix``)."""
    prints: list[str] = []
    for number, hand in enumerate(record["hands"], 1):
        fingerprint = hand_fingerprint(hand)
        if fingerprint not in confirmations.get(number, set()):
            break
        prints.append(fingerprint)
    return tuple(prints)


def table_result(
    record: Mapping[str, Any],
    confirmed: int,
    *,
    played: MatchState | None = None,
    sides: tuple[SideResult, ...] | None = None,
) -> TableResult:
    """The figures of a stored match's first ``confirmed`` hands, by the engine.

    ``record`` is the match's sniff-record/1 (``Store.export_record``).
    ``played``: the state the whole match stands in, when the caller has it
    (``Store.record_and_state``), so it is not replayed again; ``sides``:
    ``confirmed_sides(record, confirmed)``, when the caller has kept it.
    Raises the engine's errors only for a record it refuses, which a stored
    match never is.
    """
    if played is None:
        played = _played(record)
    if sides is None:
        sides = confirmed_sides(record, confirmed)
    return TableResult(
        sides=sides,
        hands_played=len(record["hands"]),
        hands_finished=sum(1 for hand in played.hands if hand.finished),
        hands_confirmed=confirmed,
        games_finished=len(played.games()),
        game_points=played.rules.game_points,
    )


def confirmed_sides(record: Mapping[str, Any], confirmed: int) -> tuple[SideResult, ...]:
    """Each side's figures over the record's first ``confirmed`` hands (they are replayed)."""
    head = replay(parse_record({**record, "hands": list(record["hands"][:confirmed])}))
    return tuple(_side(head, side) for side in range(head.rules.sides))


def _played(record: Mapping[str, Any]) -> MatchState:
    """The state the whole record stands in (a hand awaiting its settlement is played, not finished)."""
    try:
        return replay(parse_record(dict(record)))
    except IllegalRecordError:
        # A hand that went out or blocked and waits for its settlement (just played, or its
        # settlement taken back by a correction) is no complete record hand: it is played, not finished.
        if not record["hands"] or "remaining" in record["hands"][-1]:
            raise
        return replay(parse_record({**record, "hands": list(record["hands"][:-1])}))


def _side(state: MatchState, side: int) -> SideResult:
    games = state.games()
    won = [g for g in games if g.winner == side]
    sides = range(state.rules.sides)
    spread = 0
    against: dict[int, int] = {other: 0 for other in sides if other != side}
    for game in games:
        spread += sum(game.scores[side] - game.scores[o] for o in against)
        if game.winner == side:
            for other in against:
                # With three players each loser's score gives its own game points (Smartt §14).
                against[other] += _points_from(game, other) if state.rules.game_points else 1
    hand = state.current
    if hand is not None and hand.winner() is None:
        scores = hand.scores_after if hand.finished else hand.scores_before
        spread += sum(scores[side] - scores[o] for o in against)
    return SideResult(
        game_points=sum(g.game_points or 0 for g in won),
        games_won=len(won),
        rubes=sum(len(g.rubed or ()) for g in won),
        spread=spread,
        against=against,
    )


def _points_from(game: GameResult, loser: int) -> int:
    """The game points one loser's final score gave the winner (Smartt §14)."""
    return game_points_for(game.scores[loser])


def seats_for(entrant_players: Sequence[Sequence[str]], *, partners: bool) -> list[str]:
    """The match's seats from the table's entrants in seat order.

    Partnerships sit crosswise (records.md §1: seats 0 and 2 are side 0), so
    entrant k's two players take seats k and k + 2; otherwise one seat each.
    """
    if partners:
        (a1, a2), (b1, b2) = entrant_players
        return [a1, b1, a2, b2]
    return [players[0] for players in entrant_players]
