"""The listing cache: a match's status and scores, derived from its replayed state."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from scorepad.rules import MatchState

NEW = "new"
PLAYING = "playing"
SETTLING = "settling"
BETWEEN_HANDS = "between-hands"
FINISHED = "finished"


class MatchSummary(NamedTuple):
    """One line of the match list.

    ``status`` is ``new`` (no hand yet), ``playing`` (a hand under way),
    ``settling`` (a hand ended, its remaining tiles still to enter),
    ``between-hands`` or ``finished`` (closed with ``Store.finish``).
    ``scores`` are per side; ``wins`` counts the games each side has won.
    ``games`` lists every game won, in order, as the referee reports it
    (records.md §6) with the running series totals beside it; ``series``
    holds those totals now (``wins``, and ``game_points`` and ``rubed`` where
    the book keeps them: Smartt §14, the day's series).
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
    games: list[dict[str, Any]]
    series: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (times in ISO 8601)."""
        out = self._asdict()
        out["started"] = self.started.isoformat()
        out["finished"] = self.finished.isoformat() if self.finished else None
        return out


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


def summarize(state: MatchState, *, started: datetime, finished: datetime | None = None) -> dict[str, Any]:
    """The listing cache stored with the match, rebuilt from its state on every write.

    It holds every field of ``MatchSummary`` but the id, so that listing
    10,000 matches reads one column and decodes no timestamps column by column.
    """
    series = state.series()
    return {
        "players": list(state.players),
        "rules": state.rules.name,
        "started": started.isoformat(),
        "status": status_of(state, finished=finished is not None),
        # The engine's scores of the game under way (zeros just after a win).
        "scores": list(state.scores),
        "finished": finished.isoformat() if finished else None,
        "hands": len(state.hands),
        "game": state.game,
        "wins": list(series.wins),
        # Smartt §14: every game of the day's series with its game points and Rubes, kept after Next game.
        "games": [line.to_dict() for line in series.lines],
        "series": series.totals(),
    }


def summary_from_cache(match_id: int, cache: dict[str, Any]) -> MatchSummary:
    """A ``MatchSummary`` from the match's id and its stored listing cache."""
    finished = cache["finished"]
    return MatchSummary(
        match_id,
        cache["players"],
        cache["rules"],
        datetime.fromisoformat(cache["started"]),
        cache["status"],
        cache["scores"],
        datetime.fromisoformat(finished) if finished else None,
        cache["hands"],
        cache["game"],
        cache["wins"],
        # A cache written before the series was kept has neither: the KeyError sends the listing
        # down its slow path, which rebuilds that match's summary from its log (store.listing).
        cache["games"],
        cache["series"],
    )
