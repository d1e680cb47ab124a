"""The listing cache: a match's status and scores, derived from its replayed state."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorepad.rules import MatchState
from scorepad.store.models import as_utc

NEW = "new"
PLAYING = "playing"
SETTLING = "settling"
BETWEEN_HANDS = "between-hands"
FINISHED = "finished"


@dataclass(frozen=True)
class MatchSummary:
    """One line of the match list.

    ``status`` is ``new`` (no hand yet), ``playing`` (a hand under way),
    ``settling`` (a hand ended, its remaining tiles still to enter),
    ``between-hands`` or ``finished`` (closed with ``Store.finish``).
    ``scores`` are per side; ``wins`` counts the games each side has won.
    """

    id: int
    players: list[str]
    rules: str
    started: datetime
    status: str
    scores: list[int]
    finished: datetime | None
    hands: int
    game: int
    wins: list[int]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (times in ISO 8601)."""
        return {
            "id": self.id,
            "players": self.players,
            "rules": self.rules,
            "started": self.started.isoformat(),
            "status": self.status,
            "scores": self.scores,
            "finished": self.finished.isoformat() if self.finished else None,
            "hands": self.hands,
            "game": self.game,
            "wins": self.wins,
        }


def status_of(state: MatchState, *, finished: bool = False) -> str:
    """The match's status word, from its state (see ``MatchSummary``)."""
    hand = state.current
    if finished:
        return FINISHED
    if hand is None:
        return NEW
    if hand.needs_settlement:
        return SETTLING
    if not hand.finished:
        return PLAYING
    return BETWEEN_HANDS


def summarize(state: MatchState) -> dict[str, Any]:
    """The cached summary stored with the match, rebuilt from the state on every write."""
    wins = [0] * state.rules.sides
    for game in state.games():
        wins[game.winner] += 1
    return {
        "players": list(state.players),
        # The engine's scores of the game under way (zeros just after a win).
        "scores": list(state.scores),
        "hands": len(state.hands),
        "game": state.game,
        "wins": wins,
    }


def summary_from_row(row: Any) -> MatchSummary:
    """A ``MatchSummary`` from a listing row (id, rules, created_at, finished_at, status, summary)."""
    cached = row.summary or {}
    return MatchSummary(
        id=row.id,
        players=list(cached.get("players", [])),
        rules=row.rules,
        started=as_utc(row.created_at) or row.created_at,
        status=row.status,
        scores=list(cached.get("scores", [])),
        finished=as_utc(row.finished_at),
        hands=int(cached.get("hands", 0)),
        game=int(cached.get("game", 1)),
        wins=list(cached.get("wins", [])),
    )
